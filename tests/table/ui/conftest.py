"""The dealer screen's tests: one headless screen (ui_kit.Harness) per test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ui_kit import Harness  # prepares Kivy before any test module here imports it

from kiosk.lang import active


@pytest.fixture(scope="module")
def ui() -> Iterator[Harness]:
    """The module's screen, closed after its last test; the kiosk speaks English again."""
    h = Harness()
    yield h
    h.close()
    active.use("en")

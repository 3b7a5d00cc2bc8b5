"""Fixtures shared by the whole suite: a real Mosquitto and a real director process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from director_process import DirectorProcess

from kiosk.broker import Mosquitto

os.environ.setdefault("KIVY_NO_ARGS", "1")


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[Mosquitto]:
    """A private Mosquitto on a free port; tests may stop() and start() it."""
    (tmp_path / "broker").mkdir()
    broker = Mosquitto(workdir=str(tmp_path / "broker")).start()
    yield broker
    broker.stop()


@pytest.fixture
def director_factory(tmp_path: Path, mosquitto: Mosquitto) -> Iterator:
    made: list[DirectorProcess] = []

    def make(**kw: object) -> DirectorProcess:
        d = DirectorProcess(tmp_path, mosquitto, **kw)  # type: ignore[arg-type]
        made.append(d)
        return d

    yield make
    for d in made:
        d.stop()

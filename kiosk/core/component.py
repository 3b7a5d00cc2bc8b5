"""The base of a tournament's parts: each owns its state, folds its own events and
decides its own commands, and reaches the others only through the tournament."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from kiosk.core.tournament import Tournament


@dataclass(eq=False)
class Component:
    """A part of one tournament, built as `Part(tournament)`: a dataclass, so that each part
    declares its state as fields instead of repeating a constructor. `FOLDS`, `DECIDES` and
    `REPORTS` map an event, command or report class to the method that handles it; the
    tournament routes through them."""

    FOLDS: ClassVar[dict[type, Callable[..., None]]] = {}
    DECIDES: ClassVar[dict[type, Callable[..., None]]] = {}
    REPORTS: ClassVar[dict[type, Callable[..., None]]] = {}

    t: Tournament = field(repr=False)

"""The base of a tournament's parts: each owns its state, folds its own events and
decides its own commands, and reaches the others only through the tournament."""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from kiosk.core.commands import Command
from kiosk.core.events import Event

if TYPE_CHECKING:
    from kiosk.core.tournament import Tournament

Handlers = dict[type, Callable[..., None]]


def handlers(cls: type, prefix: str, base: type) -> Handlers:
    """The methods of `cls` named `prefix...`, by the class their first argument is
    annotated with: the signature already says what each handles, so no table repeats it."""
    out: Handlers = {}
    for name, fn in vars(cls).items():
        if not (name.startswith(prefix) and callable(fn)):
            continue
        arg = fn.__code__.co_varnames[1]
        handled: Any = typing.get_type_hints(fn).get(arg)
        if not (isinstance(handled, type) and issubclass(handled, base)) or handled is base:
            raise TypeError(f"{cls.__name__}.{name}: its argument {arg!r} must be annotated "
                            f"with one {base.__name__} class")
        if handled in out:
            raise TypeError(f"{cls.__name__}: {handled.__name__} is handled twice")
        out[handled] = fn
    return out


@dataclass(eq=False)
class Component:
    """A part of one tournament, built as `Part(tournament)`: a dataclass, so that each part
    declares its state as fields instead of repeating a constructor.

    The tournament routes through three tables, an event, command or report class to the
    method that handles it. `FOLDS` and `DECIDES` are built here from the methods' names
    and annotations: `_on_x(self, ev: ev_.X)` folds events of class X, and
    `_do_x(self, cmd: cmd_.X, t)` decides commands of class X. `REPORTS` is declared by
    the part, since a report handler takes the report's data, not the report."""

    FOLDS: ClassVar[Handlers] = {}
    DECIDES: ClassVar[Handlers] = {}
    REPORTS: ClassVar[Handlers] = {}

    t: Tournament = field(repr=False)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.FOLDS = handlers(cls, "_on_", Event)
        cls.DECIDES = handlers(cls, "_do_", Command)

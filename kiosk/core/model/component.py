"""The base of a tournament's parts: each owns its state, folds its own events and
decides its own commands.

A part is given, never looks up, what it works with: the host (kiosk.core.model.host.Host: the
event's settings, a way to emit events, seeded draws) and the changes outbox, and the
other parts it reads, each as the narrow read-only view kiosk.core.model.host declares. It
names those peers as fields (`seating: SeatingView = peer()`), so its declaration says
which parts it depends on; the tournament sets them once every part exists. A part never
writes another's state: it asks the owner through a method that says what it does.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from kiosk.core.model.changes import Changes
from kiosk.core.model.commands import Command
from kiosk.core.model.events import Event

if TYPE_CHECKING:
    from kiosk.core.model.host import Host

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


def peer() -> Any:
    """A field naming another part this one reads, typed as that part's view; the
    tournament sets it (`Component.wire`) once every part exists."""
    return field(init=False, repr=False, compare=False, metadata={"peer": True})


@dataclass(eq=False)
class Component:
    """A part of one tournament, built as `Part(host)`: a dataclass, so that each part
    declares its state as fields instead of repeating a constructor.

    The tournament routes through three tables, an event, command or report class to the
    method that handles it. `FOLDS` and `DECIDES` are built here from the methods' names
    and annotations: `_on_x(self, ev: ev_.X)` folds events of class X, and
    `_do_x(self, cmd: cmd_.X, t)` decides commands of class X. `REPORTS` is declared by
    the part, since a report handler takes the report's data, not the report. `PEERS`
    lists the fields declared with `peer()`."""

    FOLDS: ClassVar[Handlers] = {}
    DECIDES: ClassVar[Handlers] = {}
    REPORTS: ClassVar[Handlers] = {}
    PEERS: ClassVar[tuple[str, ...]] = ()

    t: Host = field(repr=False)
    changes: Changes = peer()   # the outbox: which plans, schedule or seating changed

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.FOLDS = handlers(cls, "_on_", Event)
        cls.DECIDES = handlers(cls, "_do_", Command)

    def wire(self, peers: Any) -> None:
        """Take the peers this part declared from `peers` (kiosk.core.model.host.Peers)."""
        for name in type(self).peer_names():
            setattr(self, name, getattr(peers, name))

    @classmethod
    def peer_names(cls) -> tuple[str, ...]:
        if "PEERS" not in cls.__dict__:   # once per class, after @dataclass made the fields
            cls.PEERS = tuple(f.name for f in dataclasses.fields(cls) if f.metadata.get("peer"))
        return cls.PEERS

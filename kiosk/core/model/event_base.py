"""The base of every declared record and event (kiosk.core.model.events,
kiosk.core.model.room_events).

Kept apart from the event classes so the room's events and the tournament's can both
derive from it without importing each other."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from kiosk.core.model.bounds import Ident, Time


class Record(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A declared record that still reads like the dict it replaces (`r["x"]`, `r.get`)."""

    def __getitem__(self, key: str) -> Any:
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None

    def get(self, key: str, default: Any = None) -> Any:
        value = getattr(self, key, default)
        return default if value is None else value

    def __contains__(self, key: str) -> bool:
        return key in self.__struct_fields__

    def to_dict(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)  # type: ignore[no-any-return]


class Event(Record, tag_field="kind", kw_only=True, gc=False):
    """Base of every event: when it happened and the table report that caused it."""

    t: Time
    report: Ident | None = None
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **msgspec.to_builtins(self)}

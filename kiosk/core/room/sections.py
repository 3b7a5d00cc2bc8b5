"""The floor's sections: a ballroom, a row of tables, each with its own floor staff.

A part of the room (kiosk.core.room.room.Room) beside its players and tickets. The
sections come from room.toml until the floor sets them from the room page; every table is
in at most one section, and a section holds only tables of the room. Ranges ("1-60") are
how people write and read table numbers, so parsing and printing them lives here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Annotated, Protocol

from msgspec import Meta

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as re_
from kiosk.core.model.bounds import MAX_TABLES

if TYPE_CHECKING:
    from kiosk.core.model.event_base import Event

MAX_SECTIONS = 200


class SetSections(rc.RoomCommand, tag="set_sections", kw_only=True):
    """Every section at once, in the floor's order (an empty list: one room again)."""

    sections: Annotated[list[re_.Section], Meta(max_length=MAX_SECTIONS)]


rc.declare(SetSections)


class Sectioned(Protocol):
    """What the sections ask of the room: its pool and a way to emit."""

    pool: set[int]

    def emit(self, ev: Event) -> None: ...


def parse_ranges(spec: str | Iterable[str | int]) -> list[int]:
    """`"1-60, 75"` or `["1-60", 75]` as sorted table numbers; RuleError saying which
    part is wrong."""
    parts = spec.split(",") if isinstance(spec, str) else list(spec)
    out: set[int] = set()
    for part in parts:
        text = str(part).strip()
        if not text:
            continue
        lo, dash, hi = text.partition("-")
        try:
            a, b = int(lo), int(hi) if dash else int(lo)
        except ValueError:
            raise RuleError(M_("section.not_range", "'{text}' is not a table or a range of tables "
                               "(such as 12 or 1-60)", text=text)) from None
        if not 1 <= a <= b <= MAX_TABLES:
            raise RuleError(M_("section.range_order", "'{text}': a range runs from a low table to "
                               "a higher one, 1 to {most}", text=text, most=MAX_TABLES))
        out.update(range(a, b + 1))
    return sorted(out)


def ranges(tables: Iterable[int]) -> str:
    """Table numbers as a person reads them: runs joined ("1-60, 75, 80-82")."""
    runs: list[list[int]] = []
    for n in sorted(set(tables)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}-{b}" if b > a else str(a) for a, b in runs)





def check_sections(sections: Sequence[tuple[str, Sequence[int]]], pool: set[int]) -> None:
    """Each name once, each table in one section at most, every table one of the room's:
    RuleError naming the section and the tables otherwise."""
    owner: dict[int, str] = {}
    names: set[str] = set()
    for name, tables in sections:
        if not name.strip():
            raise RuleError(M_("section.needs_name", "a section needs a name"))
        if name in names:
            raise RuleError(M_("section.named_twice", "two sections are named '{name}'", name=name))
        names.add(name)
        if not tables:
            raise RuleError(M_("section.no_tables", "section '{name}' has no tables", name=name))
        outside = [n for n in tables if n not in pool]
        if outside:
            raise RuleError(Mn_("section.outside", "section '{name}': table {tables} is not "
                                "the room's (the room has {pool})", "section '{name}': tables "
                                "{tables} are not the room's (the room has {pool})",
                                len(outside), name=name, tables=ranges(outside),
                                pool=ranges(pool) or M_("section.no_pool", "no tables")))
        twice = sorted(n for n in tables if n in owner)
        if twice:
            raise RuleError(Mn_("section.table_twice", "table {tables} is in section '{other}' "
                                "and '{name}': a table is in one section at most",
                                "tables {tables} are in section '{other}' and '{name}': a "
                                "table is in one section at most", len(twice),
                                tables=ranges(twice), other=owner[twice[0]], name=name))
        owner.update((n, name) for n in tables)


FROM_FILE = "room.toml"   # `by` of the sections the room file set


def from_file(current: RoomSections, wanted: Sequence[tuple[str, Sequence[int]]]
              ) -> SetSections | None:
    """The room file's sections to set at start: when the log has none yet, or when the
    file changed since it last set them. Sections the floor set on the room page stay
    until the floor or a changed room file sets others."""
    pairs = [(n, sorted(ts)) for n, ts in wanted]
    if not pairs or pairs == list(current.sections.items()):
        return None
    if current.ever_set and current.set_by != FROM_FILE and pairs == current.file_had:
        return None
    return SetSections(sections=[re_.Section(name=n, tables=ts) for n, ts in pairs],
                       by=FROM_FILE)


class RoomSections:
    """The sections as last set, in the floor's order, and the section of each table."""

    def __init__(self, room: Sectioned) -> None:
        self.room = room
        self.sections: dict[str, list[int]] = {}
        self.of: dict[int, str] = {}
        self.set_by: str | None = None    # who set them last (None: never set here)
        self.ever_set = False
        self.file_had: list[tuple[str, list[int]]] = []   # what room.toml set last

    def section_of(self, table: int) -> str | None:
        return self.of.get(table)

    def _do_set_sections(self, cmd: SetSections, t: float) -> None:
        pairs = [(s.name.strip(), sorted(set(s.tables))) for s in cmd.sections]
        check_sections(pairs, self.room.pool)
        if self.ever_set and pairs == list(self.sections.items()):
            raise RuleError(M_("section.unchanged", "the sections are already so"))
        self.room.emit(re_.SectionsSet(
            t=t, sections=[re_.Section(name=n, tables=ts) for n, ts in pairs], by=cmd.by))

    def _on_sections_set(self, ev: re_.SectionsSet) -> None:
        self.sections = {s.name: list(s.tables) for s in ev.sections}
        self.of = {n: s.name for s in ev.sections for n in s.tables}
        self.set_by, self.ever_set = ev.by, True
        if ev.by == FROM_FILE:
            self.file_had = list(self.sections.items())

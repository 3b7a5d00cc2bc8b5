"""room.toml's `[[sections]]`: the floor split into sections, each with its own staff.

A section is a name and its tables, written as ranges ("1-60" or "1-40, 45"). Checked
when the room file loads: each table of the room in at most one
section, and no table the room does not have.
"""

from __future__ import annotations

from typing import Annotated

from kiosk.base.errors import ConfigError, RuleError
from kiosk.config.files import _doc, _Section
from kiosk.core.room.sections import check_sections, parse_ranges


class SectionEntry(_Section):
    """`[[sections]]`: one section of the floor."""

    name: Annotated[str, _doc("the section's name, as the floor says it (\"Pavilion\")",
                              min_length=1, max_length=40)]
    tables: Annotated[str, _doc("its tables, as ranges: \"1-60\" or \"1-40, 45\"",
                                max_length=2000)]


def load_sections(source: str, entries: list[SectionEntry], tables: int
                  ) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The sections in file order; ConfigError naming the entry and the reason."""
    out: list[tuple[str, tuple[int, ...]]] = []
    for i, entry in enumerate(entries):
        try:
            nums = parse_ranges(entry.tables)
        except RuleError as exc:
            raise ConfigError(source, f"sections.{i}.tables", str(exc)) from None
        out.append((entry.name.strip(), tuple(nums)))
    try:
        check_sections(out, set(range(1, tables + 1)))
    except RuleError as exc:
        raise ConfigError(source, "sections", str(exc)) from None
    return tuple(out)

"""Read and write blind structures as TOML (shipped) or CSV (import/export)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from kiosk.base import csvcells
from kiosk.base.errors import ConfigError
from kiosk.base.tomlfile import Section, read_toml
from kiosk.rules.structure import Period, Structure, check_structure

STRUCTURE_DIR = Path(__file__).with_name("structures")
CSV_COLUMNS = ("kind", "sb", "bb", "ante", "bb_ante", "minutes", "color_up")
_LEVEL_KEYS = {"sb", "bb", "ante", "bb_ante", "minutes"}
_BREAK_KEYS = {"break", "color_up"}


def _checked(s: Structure, source: str, where: str) -> Structure:
    problems = check_structure(s)
    if problems:
        i, key, msg = problems[0]
        raise ConfigError(source, where.format(i=i + 1, key=key), msg)
    return s


def load_structure_file(path: str | Path) -> Structure:
    """A structure from TOML: `[[level]]` tables with sb/bb/ante/minutes or `break`."""
    if str(path).endswith(".csv"):
        return load_structure_csv(path)
    top = Section(str(path), read_toml(path))
    top.unknown({"name", "start_stack", "chips", "level"})
    chips = top.get("chips", list, [])
    if not all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in chips):
        raise top.fail("chips", f"expected whole positive denominations, got {chips}")
    periods = []
    for i, raw in enumerate(top.get("level", list)):
        if not isinstance(raw, dict):
            raise top.fail(f"level[{i + 1}]", "expected a table")
        sec = Section(str(path), raw, f"level[{i + 1}].")
        if "break" in raw:
            sec.unknown(_BREAK_KEYS)
            periods.append(Period(minutes=sec.number("break", minimum=0), is_break=True,
                                  color_up=sec.get("color_up", str, "")))
        else:
            sec.unknown(_LEVEL_KEYS)
            periods.append(Period(
                minutes=sec.number("minutes", minimum=0), sb=sec.number("sb", integer=True),
                bb=sec.number("bb", integer=True), ante=sec.number("ante", 0, integer=True),
                bb_ante=sec.number("bb_ante", 0, integer=True)))
    s = Structure(top.get("name", str), top.number("start_stack", integer=True, minimum=1),
                  tuple(periods), tuple(sorted(chips)))
    return _checked(s, str(path), "level[{i}].{key}")


def structure_ids() -> list[str]:
    return sorted(p.stem for p in STRUCTURE_DIR.glob("*.toml"))


def load_structure(name_or_path: str) -> Structure:
    """A shipped structure by name (`turbo`, `standard`, `deep`) or a file by path."""
    path = Path(name_or_path)
    if path.suffix not in (".toml", ".csv"):
        path = STRUCTURE_DIR / f"{name_or_path}.toml"
        if not path.exists():
            raise ConfigError(name_or_path, "", f"no such blind structure (known: "
                              f"{', '.join(structure_ids())})")
    return load_structure_file(path)


def load_structure_csv(path: str | Path, start_stack: int | None = None) -> Structure:
    """CSV with a header `kind,sb,bb,ante,bb_ante,minutes,color_up`; kind is level|break."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(str(p), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(p), "", f"cannot read ({exc})") from None
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [c.strip().lower() for c in rows[0][:len(CSV_COLUMNS)]] != list(CSV_COLUMNS):
        raise ConfigError(str(p), "line 1", f"header must be {','.join(CSV_COLUMNS)}")
    periods = []
    for n, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        cells = dict(zip(CSV_COLUMNS, [c.strip() for c in row] + [""] * 7, strict=False))
        kind = cells["kind"].lower()

        def num(col: str, default: float | None = None, *, n: int = n,
                cells: dict = cells) -> float:
            v = cells[col]
            if v == "" and default is not None:
                return default
            try:
                f = float(v)
            except ValueError:
                raise ConfigError(str(p), f"line {n}, {col}", f"expected a number, "
                                  f"got {v!r}") from None
            if f < 0:
                raise ConfigError(str(p), f"line {n}, {col}", "must not be negative")
            return f

        if kind == "break":
            periods.append(Period(minutes=num("minutes"), is_break=True,
                                  color_up=csvcells.typed_text(cells["color_up"])))
        elif kind == "level":
            periods.append(Period(minutes=num("minutes"), sb=int(num("sb")), bb=int(num("bb")),
                                  ante=int(num("ante", 0)), bb_ante=int(num("bb_ante", 0))))
        else:
            raise ConfigError(str(p), f"line {n}, kind", f"expected level or break, "
                              f"got {cells['kind']!r}")
    s = Structure(p.stem, start_stack or 20000, tuple(periods))
    return _checked(s, str(p), "period {i}, {key}")


def structure_to_csv(s: Structure) -> str:
    """The structure as the CSV `load_structure_csv` reads; the break text is a text cell
    (defended against formulas), the blinds and minutes are numbers."""
    return csvcells.to_csv(CSV_COLUMNS, (
        ["break", None, None, None, None, _minutes(p.minutes), p.color_up] if p.is_break
        else ["level", p.sb, p.bb, p.ante, p.bb_ante, _minutes(p.minutes), None]
        for p in s.periods))


def _minutes(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x

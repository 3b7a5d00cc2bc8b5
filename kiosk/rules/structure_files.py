"""Read and write blind structures as TOML (shipped) or CSV (import/export)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from kiosk.base import csvcells
from kiosk.base.errors import ConfigError
from kiosk.base.texts import M_
from kiosk.base.tomlfile import Section, read_toml
from kiosk.rules.structure import Period, Structure, check_structure

STRUCTURE_DIR = Path(__file__).with_name("structures")
CSV_COLUMNS = ("kind", "sb", "bb", "ante", "bb_ante", "minutes", "color_up")
HANDS_COLUMN = "hands"   # an eighth column, for a structure whose levels count hands
_LEVEL_KEYS = {"sb", "bb", "ante", "bb_ante", "minutes", "hands"}
_BREAK_KEYS = {"break", "color_up"}


def _checked(s: Structure, source: str, where: str) -> Structure:
    problems = check_structure(s)
    if problems:
        i, key, msg = problems[0]
        raise ConfigError(source, where.format(i=i + 1, key=key), msg)
    return s


def load_structure_file(path: str | Path) -> Structure:
    """A structure from TOML: `[[level]]` tables with sb/bb/ante and minutes (or hands, in
    a structure counted in hands), or `break`."""
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
            hands = sec.number("hands", 0, integer=True, minimum=0, maximum=10_000)
            periods.append(Period(
                minutes=sec.number("minutes", 0 if hands else ..., minimum=0),
                sb=sec.number("sb", integer=True), bb=sec.number("bb", integer=True),
                ante=sec.number("ante", 0, integer=True),
                bb_ante=sec.number("bb_ante", 0, integer=True), hands=hands))
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
            raise ConfigError(name_or_path, "", M_("structure.unknown", "no such blind "
                                                   "structure (known: {known})",
                                                   known=", ".join(structure_ids())))
    return load_structure_file(path)


def load_structure_csv(path: str | Path, start_stack: int | None = None) -> Structure:
    """CSV with a header `kind,sb,bb,ante,bb_ante,minutes,color_up` (and `hands`, for
    levels counted in hands); kind is level|break."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(str(p), "", M_("file.not_found", "file not found")) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(p), "", M_("file.unreadable", "cannot read ({why})",
                                         why=exc)) from None
    rows = list(csv.reader(io.StringIO(text)))
    header = [c.strip().lower() for c in rows[0]] if rows else []
    if header[:len(CSV_COLUMNS)] != list(CSV_COLUMNS):
        raise ConfigError(str(p), "line 1", M_("structure.csv_header", "header must be "
                                               "{columns} (then {hands}, for levels counted "
                                               "in hands)", columns=",".join(CSV_COLUMNS),
                                               hands=HANDS_COLUMN))
    columns = (*CSV_COLUMNS, HANDS_COLUMN)[:len(header)]
    periods = []
    for n, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        cells = dict(zip((*CSV_COLUMNS, HANDS_COLUMN),
                         [c.strip() for c in row][:len(columns)] + [""] * 8, strict=False))
        kind = cells["kind"].lower()

        def num(col: str, default: float | None = None, *, n: int = n,
                cells: dict = cells) -> float:
            v = cells[col]
            if v == "" and default is not None:
                return default
            try:
                f = float(v)
            except ValueError:
                raise ConfigError(str(p), f"line {n}, {col}", M_(
                    "structure.csv_number", "expected a number, got {got}",
                    got=repr(v))) from None
            if f < 0:
                raise ConfigError(str(p), f"line {n}, {col}", M_("structure.csv_negative",
                                                                 "must not be negative"))
            return f

        if kind == "break":
            periods.append(Period(minutes=num("minutes"), is_break=True,
                                  color_up=csvcells.typed_text(cells["color_up"])))
        elif kind == "level":
            hands = float(num("hands", 0))
            if not hands.is_integer():
                raise ConfigError(str(p), f"line {n}, hands", M_(
                    "structure.csv_hands", "expected whole hands, got {got}",
                    got=repr(cells["hands"])))
            periods.append(Period(minutes=num("minutes", 0 if hands else None),
                                  sb=int(num("sb")), bb=int(num("bb")),
                                  ante=int(num("ante", 0)), bb_ante=int(num("bb_ante", 0)),
                                  hands=int(hands)))
        else:
            raise ConfigError(str(p), f"line {n}, kind", M_(
                "structure.csv_kind", "expected level or break, got {got}",
                got=repr(cells["kind"])))
    s = Structure(p.stem, start_stack or 20000, tuple(periods))
    return _checked(s, str(p), "period {i}, {key}")


def structure_to_csv(s: Structure) -> str:
    """The structure as the CSV `load_structure_csv` reads; the break text is a text cell
    (defended against formulas), the blinds and minutes are numbers (and the hands, in a
    structure counted in hands)."""
    if s.counts_hands:
        return csvcells.to_csv((*CSV_COLUMNS, HANDS_COLUMN), (
            ["level", p.sb, p.bb, p.ante, p.bb_ante, None, None, p.hands]
            for p in s.periods))
    return csvcells.to_csv(CSV_COLUMNS, (
        ["break", None, None, None, None, _minutes(p.minutes), p.color_up] if p.is_break
        else ["level", p.sb, p.bb, p.ante, p.bb_ante, _minutes(p.minutes), None]
        for p in s.periods))


def _minutes(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x

"""`pokerkiosk doctor`: check this machine's setup and print one line per check.

Meant for the person at the table with a screwdriver: every FAIL says what is wrong
and what to do, and the exit code (0 all good, 1 otherwise) suits scripts and ssh loops.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from kiosk.appliance import checks
from kiosk.appliance.checks import Check, fail, ok
from kiosk.appliance.lang_checks import languages, shown_in_english
from kiosk.base.errors import ConfigError
from kiosk.config.files import load_table_config
from kiosk.config.room import load_director_config

DEFAULTS = (Path("/etc/pokerkiosk/table.toml"), Path("/etc/pokerkiosk/event.toml"))


def diagnose(config: str | None, *, timeout: float = 5.0) -> list[Check]:
    """All checks for the machine the config describes (a table or the director)."""
    path = Path(config) if config else next((p for p in DEFAULTS if p.exists()), None)
    if path is None:
        return [fail("config", "no --config given and no /etc/pokerkiosk/table.toml "
                               "or event.toml",
                     "copy this machine's file from `pokerkiosk provision` output")]
    kind = _kind(path)
    try:
        if kind == "table":
            tcfg = load_table_config(path)
            head = ok("config", f"{path}: table {tcfg.table} of room {tcfg.room}")
            return [head, *checks.table_checks(tcfg, timeout), languages()]
        rcfg = load_director_config(path)
        what = f"event {rcfg.name}" if rcfg.legacy else \
            f"room {rcfg.name} ({rcfg.tables} tables, {len(rcfg.events)} events configured)"
        head = ok("config", f"{path}: director of {what}")
        running = checks.running_director(rcfg)  # type: ignore[arg-type]
        return [head, *checks.director_checks(rcfg, timeout),  # type: ignore[arg-type]
                languages(), *shown_in_english(running)]
    except ConfigError as exc:
        fix = ("copy it from the provision output (tables/table-N.toml or "
               "director/event.toml)" if exc.problem == "file not found"
               else "correct that line, or copy the file again from the provision output")
        return [fail("config", str(exc), fix),
                Check("SKIP", "other checks", "they need a readable config")]


def _kind(path: Path) -> str:
    """'table' or 'event' from the file's top-level tables (the loaders report errors)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "event" if path.name.startswith("event") else "table"
    return "table" if "table" in data else "event"

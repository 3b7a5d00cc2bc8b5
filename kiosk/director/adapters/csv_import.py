"""Registering a list of players from a CSV file (the dashboard's import, the CLI's
`--players`): an adapter that turns rows into the room's service's commands."""

from __future__ import annotations

import csv
import io

from kiosk.base.csvcells import typed_text
from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Msg
from kiosk.core.model import commands
from kiosk.director.centre.room_service import RoomService


def import_players(service: RoomService, text: str,
                   event: str | None = None) -> tuple[int, list[Msg | str]]:
    """Register players from CSV with a `name` column (optional `card`, `id`, `country`,
    and `language`: the player's own, for their slips); each row is its own command, so
    one bad row is named (an unknown language with the codes there are) and the others
    still count. Each error is a message key (a page says it in its reader's language;
    `str()` is its English)."""
    errors: list[Msg | str]
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows or "name" not in (rows[0].keys() if rows else ()):
        return 0, [M_("import.header", "line 1: the header needs a 'name' column")]
    added, errors = 0, []
    columns = len(rows[0]) - (None in rows[0])
    for n, row in enumerate(rows, start=2):
        if None in row:   # DictReader keeps surplus fields under None
            extra = len(row[None])  # type: ignore[index]
            errors.append(M_("import.fields", "line {line}: {fields} fields, but the header "
                             "names {columns}; not imported", line=n, fields=columns + extra,
                             columns=columns))
            continue
        try:
            service.act(commands.decode({
                "kind": "register", "name": typed_text((row.get("name") or "").strip()),
                "card": typed_text((row.get("card") or "").strip()) or None,
                "country": typed_text((row.get("country") or "").strip()),
                "language": (row.get("language") or "").strip(),
                "player": (row.get("id") or "").strip() or None}), event=event)
            added += 1
        except RuleError as exc:
            errors.append(M_("import.line", "line {line}: {why}", line=n,
                             why=exc.msg if exc.msg is not None else str(exc)))
    return added, errors

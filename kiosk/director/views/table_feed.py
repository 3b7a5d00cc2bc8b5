"""What the tables say of themselves: their live snapshots and whether each is online.

The MQTT inbox keeps them (decoded against their schema) and the dashboard reads them;
nothing is decided on them, so they are not in the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiosk.lang.catalogue import missing_counts


@dataclass
class TableFeed:
    """Per table: its last live snapshot and its last status (online or not)."""

    live: dict[int, dict[str, Any]] = field(default_factory=dict)
    online: dict[int, bool] = field(default_factory=dict)

    def untranslated(self) -> dict[str, Any]:
        """Texts shown in English for want of a translation: this director's (by
        language: the default words of older kiosks, the slips) and each table's (its
        live snapshot's count), for the health line."""
        return {"director": missing_counts(),
                "tables": {str(n): int(live.get("untranslated") or 0)
                           for n, live in sorted(self.live.items())
                           if live.get("untranslated")}}

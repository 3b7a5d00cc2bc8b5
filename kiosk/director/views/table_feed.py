"""What the tables say of themselves: their live snapshots and whether each is online.

The MQTT inbox keeps them (decoded against their schema) and the dashboard reads them;
nothing is decided on them, so they are not in the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TableFeed:
    """Per table: its last live snapshot and its last status (online or not)."""

    live: dict[int, dict[str, Any]] = field(default_factory=dict)
    online: dict[int, bool] = field(default_factory=dict)

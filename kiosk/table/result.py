"""What one dealer action did, shared by the controller and its parts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Result:
    """What one action did: the report to queue (None when refused or local only)."""

    report: dict[str, Any] | None = None
    message: str = ""
    refused: bool = False
    more: tuple[dict[str, Any], ...] = ()    # further reports of the same action (busts)
    dealer: dict[str, Any] | None = None     # a dealer's badge or PIN for the director: sent
                                             # once, never queued nor kept on disk

    @property
    def reports(self) -> list[dict[str, Any]]:
        return ([self.report] if self.report else []) + list(self.more)

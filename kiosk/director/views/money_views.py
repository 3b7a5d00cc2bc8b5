"""What the results, deal and audit pages show: plain JSON-ready dicts of the state."""

from __future__ import annotations

from typing import Any

from kiosk.base.errors import RuleError
from kiosk.base.texts import M_, Mn_
from kiosk.core.event.results import results, totals
from kiosk.core.event.tournament import Tournament
from kiosk.core.model.state import IN_PLAY
from kiosk.core.money import icm

AUDIT_HIDDEN = ("t", "kind", "by", "report")


def results_view(tour: Tournament) -> dict[str, Any]:
    return {"event": tour.event, "finished": tour.finished_at is not None,
            "rows": results(tour), "totals": totals(tour),
            "bounty_mode": tour.prize.bounty_mode}


def audit_view(tour: Tournament, limit: int = 500) -> list[dict[str, Any]]:
    """The floor's actions and manual changes, newest first: who, when, what."""
    out = []
    for ev in reversed(tour.audit[-limit:]):
        details = {k: v for k, v in ev.to_dict().items()
                   if k not in AUDIT_HIDDEN and v is not None}
        action = ev["kind"]
        if action == "clock_set":     # the clock's own words: "clock pause"
            details.pop("clock", None)
            action = f"clock_{details.pop('why', '')}"
        elif action == "audited":     # a change recorded by itself: its own name
            action = str(details.pop("action", action))
        out.append({"t": ev["t"], "by": ev["by"], "action": action,
                    "before": details.pop("before", None), "after": details.pop("after", None),
                    "details": details})
    return out


def deal_view(tour: Tournament, method: str = "icm",
              stacks: dict[str, int] | None = None) -> dict[str, Any]:
    """A deal for the players left: from the stacks given or their last counted stacks,
    against the prizes of the places still to be decided."""
    alive = sorted((p for p in tour.players.values() if p.status in IN_PLAY),
                   key=lambda p: p.id)
    stacks = stacks if stacks is not None else {p.id: tour.last_count.get(p.id, 0)
                                                for p in alive}
    prizes = tour.current_payouts()[: len(alive)]
    rows = [{"player": p.id, "name": p.name, "stack": stacks.get(p.id, 0)} for p in alive]
    out: dict[str, Any] = {"method": method, "players": rows, "prizes": prizes,
                           "total": sum(prizes), "agreed": tour.deal,
                           "max_players": icm.MAX_PLAYERS}
    values: list[Any] = [r["stack"] for r in rows]
    if method not in ("icm", "chip_chop"):
        raise RuleError(M_("money_deal.method", "method must be icm or chip_chop"))
    if len(rows) < 2:
        out["error"] = M_("money_deal.two_left", "a deal needs at least two players left")
        return out
    if len(rows) > icm.MAX_PLAYERS:
        out["error"] = Mn_("money_deal.too_many", "a deal is calculated for {most} players "
                           "or fewer: {n} is left", "a deal is calculated for {most} players "
                           "or fewer: {n} are left", len(rows), most=icm.MAX_PLAYERS)
        return out
    if any(not isinstance(v, int) or isinstance(v, bool) or v <= 0 for v in values):
        out["error"] = M_("money_deal.stacks", "enter every player's chips (whole numbers "
                          "above 0)")
        return out
    calc = icm.icm_deal if method == "icm" else icm.chip_chop
    for r, amount in zip(rows, calc(values, prizes), strict=True):
        r["amount"] = amount
    return out

"""The record of an event: one row per entrant with place, prize, bounties and who
knocked him out, and the CSV a results site takes (place, name, prize, country)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk.base import csvcells

if TYPE_CHECKING:
    from kiosk.core.event.tournament import Tournament

COLUMNS = ("place", "player", "name", "country", "prize", "bounty", "eliminated_by",
           "entries", "rebuys", "addon")
SITE_COLUMNS = ("place", "name", "prize", "country")


def results(tour: Tournament) -> list[dict[str, Any]]:
    """Everyone who entered, best place first (players still in play last, unplaced).

    `bounty` is the cash won from knockouts; the winner also keeps the bounty on his own
    head, reported by `totals` as `winner_keeps`."""
    places = tour.places()
    prizes = tour.prizes()
    rows = []
    for p in tour.players.values():
        elim = tour.eliminated_by.get(p.id) if p.id in places else None
        rows.append({"place": places.get(p.id), "player": p.id, "name": p.name,
                     "country": p.country, "prize": prizes.get(p.id, 0),
                     "bounty": tour.bounty_cash.get(p.id, 0),
                     "eliminated_by": "+".join(elim) if elim else None,
                     "entries": p.entries, "rebuys": p.rebuys,
                     "addon": p.id in tour.addon_players})
    rows.sort(key=lambda r: (r["place"] is None, r["place"] or 0, r["player"]))
    return rows


def totals(tour: Tournament) -> dict[str, Any]:
    """The money in one place, for checking: every unit of each pool is accounted for."""
    pool = tour.money_pool()
    won = sum(tour.bounty_cash.values())
    alive = [p.id for p in tour.players.values() if p.status in ("seated", "moving")]
    keeps = sum(tour.head(pid) for pid in alive) if tour.finished_at is not None else 0
    unclaimed = pool.bounty_pool - won - sum(tour.head(pid) for pid in alive)
    return {"prize_pool": pool.prize_pool if tour.locked is None else sum(tour.locked),
            "bounty_pool": pool.bounty_pool, "bounties_won": won, "winner_keeps": keeps,
            "bounty_unclaimed": unclaimed, "collected": pool.collected, "fees": pool.fees,
            "staff": pool.staff, "overlay": pool.overlay, "entries": tour.entries,
            "addons": tour.addons, "payouts": tour.current_payouts(),
            "chips_in_play": tour.chips, "chips_removed": tour.chips_removed}


def to_csv(rows: list[dict[str, Any]], site: bool = False) -> str:
    """All columns, or only those a results site such as The Hendon Mob takes.

    Names, countries and ids are text cells (defended against formulas); place, prize,
    bounty and the counts are numbers the product computes and are written as such."""
    cols = SITE_COLUMNS if site else COLUMNS
    return csvcells.to_csv(cols, ([r[c] for c in cols] for r in rows
                                  if not site or r["prize"]))

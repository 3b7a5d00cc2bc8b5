"""The room's leagues as the director serves them: each finished event's results read
once per change of its tournament, and the standings recomputed from them on demand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kiosk.base.errors import KioskError
from kiosk.base.texts import M_
from kiosk.core.room.room import Room
from kiosk.core.season.leagues import EventResult, LeagueSpec, Standings, event_result

if TYPE_CHECKING:
    from kiosk.director.centre.repository import Repository


def standings(spec: LeagueSpec, room: Room | None,
              results: Iterable[EventResult]) -> Standings:
    """A league's table over `results`, players named as the room knows them."""
    names = {p.id: p.name for p in room.players.values()} if room is not None else {}
    st = Standings(spec, names)
    st.recompute(results)
    return st


def find(leagues: Iterable[LeagueSpec], name: str) -> LeagueSpec:
    specs = {lg.name: lg for lg in leagues}
    if name not in specs:
        raise KioskError(M_("league.unknown", "no league '{name}' (leagues: {leagues})",
                            name=name, leagues=", ".join(specs)) if specs else
                         M_("league.none", "no league '{name}' (leagues: none)", name=name))
    return specs[name]


class LeagueBoard:
    """The leagues of a running director; an event's results are re-read only when its
    tournament changed since."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.cache: dict[str, tuple[int, EventResult | None]] = {}

    @property
    def specs(self) -> tuple[LeagueSpec, ...]:
        return tuple(getattr(self.repo.config, "leagues", ()))

    def results(self) -> list[EventResult]:
        out = []
        for name, desk in self.repo.events.items():
            n = desk.tour.n_events
            cached = self.cache.get(name)
            if cached is None or cached[0] != n:
                info = self.repo.room.events.get(name)
                cached = (n, event_result(name, desk.title, info.kind if info else "event",
                                          desk.tour))
                self.cache[name] = cached
            if cached[1] is not None:
                out.append(cached[1])
        return out

    def table(self, name: str, top: int | None = None) -> dict[str, Any]:
        return standings(find(self.specs, name), self.repo.room, self.results()).to_json(top)

    def index(self) -> dict[str, Any]:
        return {"room": self.repo.config.title or self.repo.config.name,
                "leagues": [{"league": s.name, "title": s.title, "url": f"/p/league/{s.name}",
                             "json": f"/p/league/{s.name}.json"} for s in self.specs]}

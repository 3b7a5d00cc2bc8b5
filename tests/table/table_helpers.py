"""Sample schedule, plan and seating messages for the table tests and the bench."""

from __future__ import annotations

from typing import Any

from kiosk.config.files import BrokerConfig, GpioConfig, TableConfig
from kiosk.core.calc import button as btn
from kiosk.core.event import handover, plans
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import events
from kiosk.core.model.dealer_events import PushDone
from kiosk.protocol import messages
from kiosk.protocol.messages import decode, encode
from kiosk.rules.structure import Structure
from kiosk.rules.structure_files import load_structure

T0 = 1_700_000_000.0
NAMES = ["Anna B", "Bo C", "Cleo D", "Dev E", "Eva F", "Finn G", "Gus H", "Hana I", "Ivo J"]


def schedule(profile: str = "tda-2017", *, period: int = 0, anchor: float = T0,
             structure: str = "standard", rev: int = 1, paused: float | None = None,
             **extra: Any) -> dict[str, Any]:
    return {"v": 2, "rev": rev, "event": "test", "profile": profile,
            "structure": load_structure(structure).to_dict(),
            "clock": {"period": period, "anchor": anchor, "paused_remaining": paused},
            "hand_for_hand": None, "ts": anchor, **extra}


def seat(n: int, name: str | None = None, **kw: Any) -> dict[str, Any]:
    name = name or NAMES[(n - 1) % len(NAMES)]
    return {"player": f"p{n}", "name": name, "card": f"CA{n:06X}", "status": "seated",
            "absent": False, "penalty_hands": 0, "penalty_until": None, "new": False, **kw}


def plan(seats: dict[int, dict[str, Any]] | list[int] | None = None, *, rev: int = 1,
         table: int = 3, max_seats: int = 9, **extra: Any) -> dict[str, Any]:
    """The plan the director's core publishes for a table seating `seats`.

    The players are registered and seated in a real Tournament and the body comes from
    `kiosk.core.event.plans.plan`, then `extra` (flags, calls, moves) and per-seat details the
    test wants are laid over it, and the result is checked against the plan schema: a
    sample that drifts from what the director sends fails here, not on a Pi."""
    if seats is None:
        seats = list(range(1, 10))
    if isinstance(seats, list):
        seats = {n: seat(n) for n in seats}
    tour = Tournament.create(event="test", structure=load_structure("standard"),
                             seats=max(max_seats, max(seats, default=2), 2), t=T0)
    tour.apply(events.make("table_opened", T0, table=table, seats=tour.seats))
    for n, who in sorted(seats.items()):
        tour.apply(events.make("registered", T0, player=who["player"], name=who["name"],
                               card=who.get("card"), stack=20000))
        tour.apply(events.make("seated", T0, player=who["player"], table=table, seat=n))
    if seats:   # a table that has dealt: nobody is new unless the test says so
        first = min(seats)
        tour.apply(events.make("hand_started", T0, table=table, hand=0, button=first,
                               sb=first, bb=first, dealt=sorted(seats)))
        tour.apply(events.make("hand_ended", T0, table=table, hand=0))
    body = {"rev": rev, "epoch": 0.0, "ts": T0, **plans.plan(tour, table)}
    for n, who in seats.items():
        body["seats"][n].update(who)
    body.update(extra)
    checked = messages.check("plan", body)
    checked["seats"] = {str(k): v for k, v in checked["seats"].items()}   # as JSON has them
    return checked


def seating(table: int = 3, seats: range = range(1, 10)) -> dict[str, Any]:
    cards = {f"CA{n:06X}": [table, n, NAMES[(n - 1) % len(NAMES)]] for n in seats}
    cards["CB000007"] = [7, 2, "Zoe Other"]
    return {"v": 2, "rev": 1, "cards": cards}


def table_config(state_dir: str, port: int, table: int = 3, **kw: Any) -> TableConfig:
    return TableConfig(table=table, room="test",
                       broker=BrokerConfig(host="127.0.0.1", port=port), state_dir=state_dir,
                       gpio=kw.pop("gpio", GpioConfig(bounce_s=0.01, hold_to_cancel_s=0.3)),
                       **kw)


def table_toml(state_dir: str, port: int, table: int = 3) -> str:
    return (f'[table]\nnumber = {table}\nroom = "test"\nstate_dir = "{state_dir}"\n\n'
            f'[broker]\nurl = "mqtt://127.0.0.1:{port}"\n\n[gpio]\nenabled = false\n')


class Event18:
    """An 18-player bounty event with chips declared, played through table reports."""

    T = T0

    def __init__(self) -> None:
        self.tour = Tournament.create(
            event="screens", structure=load_structure("standard"), seed=4, t=T0,
            money={"buy_in": 100, "bounty": 50, "bounty_mode": "pko", "table": "shares",
                   "shares": [5000, 3000, 2000]}, chip_set=[25, 100, 500, 1000, 5000])
        for i in range(18):
            self.tour.execute({"kind": "register", "name": f"Player {i + 1}"}, T0)
        self.tour.execute({"kind": "start"}, T0)
        self.n = 0

    def send(self, rep: dict[str, Any]) -> None:
        msg = decode("report", encode(rep))
        self.tour.execute({"kind": "report", "table": msg["table"], "report": msg}, T0)

    def plan(self, table: int, rev: int = 1) -> dict[str, Any]:
        """The plan as a kiosk receives it: the core's own, through the wire."""
        return decode("plan", encode({"rev": rev, "ts": T0, **plans.plan(self.tour, table)}))

    def deal(self, table: int) -> None:
        tab = self.tour.tables[table]
        pos = btn.first_hand(set(tab.seat_of), min(tab.seat_of), tab.seats)
        self.n += 1
        self.send({"v": 2, "table": table, "id": f"h{self.n}", "seq": self.n, "ts": T0,
                   "kind": "hand_started", "data": {"hand": tab.hand + 1, "button": pos.button,
                                                    "sb": pos.sb, "bb": pos.bb,
                                                    "dealt": list(pos.dealt)}})

    def bag_count(self) -> None:
        """A bust at table 1 (a seat free there), then the end of the day: every table
        asked to count for the bags."""
        tab = self.tour.tables[1]
        self.deal(1)
        seat = min(tab.seat_of)
        self.n += 1
        self.send({"v": 2, "table": 1, "id": f"b{self.n}", "seq": self.n, "ts": T0,
                   "kind": "bust", "data": {"seat": seat, "player": tab.seat_of[seat]}})
        self.n += 1
        self.send({"v": 2, "table": 1, "id": f"e{self.n}", "seq": self.n, "ts": T0,
                   "kind": "hand_ended", "data": {"hand": tab.hand}})
        self.tour.execute({"kind": "end_day", "by": "td"}, T0)

    def move_after_the_count(self) -> tuple[int, int]:
        """The floor moves table 2's first player to table 1's free seat after both
        counted, and he sits down there with his chips: neither count says who bags what
        any more. (from seat, to seat)"""
        src = min(self.tour.tables[2].seat_of)
        pid = self.tour.tables[2].seat_of[src]
        self.tour.execute({"kind": "move", "player": pid, "table": 1, "by": "fl"}, T0)
        self.tour.execute({"kind": "arrived", "player": pid, "by": "fl"}, T0)
        return src, self.tour.players[pid].seat

    def colour_up_break(self, table: int = 1) -> dict[int, int]:
        """Jump to the break where the 25s leave (the director opens a colour-up count)
        and return stacks for `table` with odd 25s to race: 20,025 and 20,075 in turn."""
        brk = [i for i, p in enumerate(self.tour.structure.periods) if p.is_break][1]
        self.tour.execute({"kind": "clock", "action": "jump", "period": brk}, T0)
        self.tour.execute({"kind": "tick"}, T0)
        seats = sorted(self.tour.tables[table].seat_of)
        return {s: 20000 + (75 if i % 2 else 25) for i, s in enumerate(seats)}


class StallingEvent(Event18):
    """A real event with the tools against stalling (TDA RP-19) as the director's core runs
    it: a shot clock with time banks (`shot_clock`), orbit for orbit, levels counted in
    hands (`structure`); a kiosk's reports go in (`send`), its schedule and plans come out
    through the wire, the dealer's part with the core's handover (TDA 2024 RP-15A)."""

    def __init__(self, players: int = 18, profile: str = "tda-2024",
                 structure: Structure | None = None, **config: Any) -> None:
        self.tour = Tournament.create(event="stalling", profile=profile,
                                      structure=structure or load_structure("standard"),
                                      seed=4, t=T0, **config)
        for i in range(players):
            self.tour.execute({"kind": "register", "name": NAMES[i % len(NAMES)]
                               + ("" if i < len(NAMES) else f" {i + 1}")}, T0)
        self.tour.execute({"kind": "start"}, T0)
        self.n = 0

    def schedule(self, rev: int = 1) -> dict[str, Any]:
        """The event's schedule as a kiosk receives it."""
        return decode("schedule", encode({"rev": rev, "ts": T0, **plans.schedule(self.tour)}))

    def plan(self, table: int, rev: int = 1, dealer: dict[str, Any] | None = None,
             push: PushDone | None = None) -> dict[str, Any]:
        """The table's plan; with `dealer` (the rotation's names and times, and `push`, the
        table's last) its dealer part carries what the core adds for the event's profile:
        the handover, and the first hand after a push at the prior level (r.23)."""
        body = {"rev": rev, "ts": T0, **plans.plan(self.tour, table)}
        if dealer is not None:
            body["dealer"] = {**dealer, **handover.dealer_part(self.tour, table, push)}
        return decode("plan", encode(body))

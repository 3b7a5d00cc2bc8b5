"""Which plans the director sends again when the event changes as a whole: a real director
(its own SQLite log, no broker), its outgoing messages captured at the one door they take."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kiosk.config.files import EventConfig
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.protocol.messages import check, encode


class Sent:
    """The plans the director publishes, checked as a table would read them."""

    def __init__(self, d: Director) -> None:
        self.plans: list[dict[str, Any]] = []
        d.wire.send = self._send  # type: ignore[method-assign]

    def _send(self, topic: str, body: dict[str, Any], retain: bool = True) -> None:
        if topic.endswith("/plan"):
            self.plans.append(check("plan", body))


def test_a_prize_change_republishes_the_plans_announcing_busts_and_no_others(
        tmp_path: Path) -> None:
    """A guarantee changes every paid place's prize and nothing else a plan shows: the
    table announcing a bust must show the new prize; the others need not go out."""
    money = {"buy_in": 100, "table": "shares", "shares": [1000] * 10}   # ten places paid
    d = Director(EventConfig(name="plans", structure="turbo", seed=3, money=money,
                             db=str(tmp_path / "e.db")))
    for i in range(11):
        d.act(commands.Register(name=f"Player {i + 1}"))
    d.act(commands.Start())
    tab = d.tour.tables[1]
    seats = sorted(tab.seat_of)
    hand = {"v": 2, "table": 1, "id": "h1", "seq": 1, "ts": 1.0, "kind": "hand_started",
            "data": {"hand": 1, "button": seats[0], "sb": seats[1], "bb": seats[2],
                     "dealt": seats}}
    d.inbox.queue.append((d.topics.report(1), encode(hand)))
    d.drain()
    out = next(p for p in d.tour.players.values() if p.table == 1)
    # two busts in table 1's hand (the floor's word) tie for 10th: 10th and 11th prizes
    d.act(commands.Bust(player=out.id), "floor")
    d.act(commands.Bust(player=next(p.id for p in d.tour.players.values()
                                    if p.table == 1 and p.status == "seated")), "floor")
    assert [b["prize"] for b in d.out.plan_msg(1)["busts"]] == [55, 55]   # 110 of 1,100
    sent = Sent(d)
    d.act(commands.PayoutRules(guarantee=50_000), "floor")
    assert [p["table"] for p in sent.plans] == [1]
    assert [b["prize"] for b in sent.plans[0]["busts"]] == [2500, 2500]   # 5,000 shared


def test_a_change_of_the_money_line_republishes_every_plan(tmp_path: Path) -> None:
    """More places paid: every table shows it, though no table was touched."""
    d = Director(EventConfig(name="plans", structure="turbo", seed=3,
                             db=str(tmp_path / "e.db")))
    for i in range(20):
        d.act(commands.Register(name=f"Player {i + 1}"))
    d.act(commands.Start())
    sent = Sent(d)
    d.act(commands.PayoutRules(table="percent", percent_paid=50), "floor")
    assert sorted(p["table"] for p in sent.plans) == sorted(d.tour.tables) == [1, 2, 3]
    assert {p["money"]["places_paid"] for p in sent.plans} == {10}


class Clock:
    """The director's clock, set by the test: when the paced schedule may go out."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def schedules_after_a_bust(tmp_path: Path, players: int) -> tuple[int, list[float]]:
    """A started event of `players` and one floor bust just after its schedule went out:
    its tables, and when (seconds after the bust) the schedule with the new field went
    out, the ticker turning every quarter second for 12 s."""
    clock = Clock()
    d = Director(EventConfig(name="pace", structure="turbo", seed=3, seats=9,
                             db=str(tmp_path / "e.db")), clock=clock)
    for i in range(players):
        d.act(commands.Register(name=f"Player {i + 1}"))
    d.act(commands.Start())
    clock.t += 30
    d.out.schedule()
    left: list[int] = []
    went: list[float] = []
    d.wire.send = lambda topic, body, retain=True: (   # type: ignore[method-assign]
        left.append(body["players_left"]) if topic.endswith("/schedule") else None)
    d.act(commands.Bust(player=next(iter(d.tour.players))), "floor")
    bust_at = clock.t
    for _ in range(48):
        clock.t += 0.25
        before = len(left)
        d.out.seating()
        if len(left) > before:
            went.append(clock.t - bust_at)
    assert left and left[-1] == players - 1     # the new field went out in the end
    return len(d.tour.tables), went


def test_a_big_events_field_goes_to_its_tables_less_often(tmp_path: Path) -> None:
    """Every bust changes the field every table shows (players left, average stack); its
    schedule goes to all the event's tables. Up to 100 tables it goes within a second; a
    flight of 2,000 on 223 tables has it every 2.23 s, so 558 tables are not sent 3.5 MB a
    second; a level change still goes at once (test_director: the urgent schedule)."""
    small, went_small = schedules_after_a_bust(tmp_path / "small", 90)
    big, went_big = schedules_after_a_bust(tmp_path / "big", 2000)
    assert (small, big) == (10, 223)
    assert went_small == [1.0]           # due at once, sent a second after the last
    assert went_big == [2.25]            # 223 tables: at most every 2.23 s


def test_a_big_fields_seating_directory_goes_out_within_its_byte_budget(
        tmp_path: Path) -> None:
    """Every table of the room hears every seating directory (card -> table, seat,
    name). 2,000 carded players on 223 tables are 80 KB each time: it goes out at most
    once every 80 KB x 223 / 2 MB a second, about 9 s; a small room's still within a
    second. A table's own players check in from its plan, which goes at once."""
    def directories(path: Path, players: int) -> tuple[int, list[float]]:
        clock = Clock()
        d = Director(EventConfig(name="pace", structure="turbo", seed=3, seats=9,
                                 db=str(path / "e.db")), clock=clock)
        for i in range(players):
            d.act(commands.Register(name=f"Player {i + 1}", card=f"04{i:010X}"))
        d.act(commands.Start())
        clock.t += 60
        sizes: list[int] = []
        went: list[float] = []

        def send(topic: str, body: dict[str, Any], retain: bool = True) -> int:
            if not topic.endswith("/seating"):
                return 0
            sizes.append(len(encode(body)))
            return sizes[-1]
        d.wire.send = send            # type: ignore[method-assign]
        d.out.seating(force=True)
        sent_at = clock.t
        d.act(commands.Bust(player=next(iter(d.tour.players))), "floor")
        for _ in range(60):
            clock.t += 0.25
            before = len(sizes)
            d.out.seating()
            if len(sizes) > before:
                went.append(clock.t - sent_at)
        return sizes[0], went

    small_bytes, small = directories(tmp_path / "small", 90)
    big_bytes, big = directories(tmp_path / "big", 2000)
    assert small_bytes < 5_000 and small == [1.0]
    assert 70_000 < big_bytes < 100_000
    assert len(big) == 1 and abs(big[0] - big_bytes * 223 / 2_000_000) < 0.26

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


def paced_after_a_bust(path: Path, players: int, leaf: str, cards: bool = False
                       ) -> tuple[Director, list[dict[str, Any]], list[float]]:
    """A started event of `players` (with check-in cards or without), its `leaf` message
    (schedule, seating) sent just now, then one floor bust: the director, every `leaf`
    message it sent from then on, and when each after the first went (seconds after the
    bust), the ticker turning every quarter second for 15 s."""
    clock = Clock()
    d = Director(EventConfig(name="pace", structure="turbo", seed=3, seats=9,
                             db=str(path / "e.db")), clock=clock)
    for i in range(players):
        d.act(commands.Register(name=f"Player {i + 1}", card=f"04{i:010X}" if cards else None))
    d.act(commands.Start())
    clock.t += 60
    sent: list[dict[str, Any]] = []

    def send(topic: str, body: dict[str, Any], retain: bool = True) -> int:
        if not topic.endswith(f"/{leaf}"):
            return 0
        sent.append(body)
        return len(encode(body))
    d.wire.send = send            # type: ignore[method-assign]
    if leaf == "schedule":
        d.out.schedule()
    else:
        d.out.seating(force=True)
    d.act(commands.Bust(player=next(iter(d.tour.players))), "floor")
    bust_at, went = clock.t, []
    for _ in range(60):
        clock.t += 0.25
        before = len(sent)
        d.out.seating()
        if len(sent) > before:
            went.append(clock.t - bust_at)
    return d, sent, went


def test_a_big_events_field_goes_to_its_tables_less_often(tmp_path: Path) -> None:
    """Every bust changes the field every table shows (players left, average stack); its
    schedule goes to all the event's tables. Up to 100 tables it goes within a second; a
    flight of 2,000 on 223 tables has it every 2.23 s, so 558 tables are not sent 3.5 MB a
    second; a level change still goes at once (test_director: the urgent schedule)."""
    for players, tables, after in ((90, 10, 1.0), (2000, 223, 2.25)):
        d, sent, went = paced_after_a_bust(tmp_path / str(players), players, "schedule")
        assert len(d.tour.tables) == tables
        assert went == [after]     # due at once; 223 tables: at most every 2.23 s
        assert sent[-1]["players_left"] == players - 1


def test_a_big_fields_seating_directory_goes_out_within_its_byte_budget(
        tmp_path: Path) -> None:
    """Every table of the room hears every seating directory (card -> table, seat,
    name). 2,000 carded players on 223 tables are 72 KB each time: it goes out at most
    once every 72 KB x 223 / 2 MB a second, about 8 s; a small room's still within a
    second. A table's own players check in from its plan, which goes at once."""
    _, small, went_small = paced_after_a_bust(tmp_path / "small", 90, "seating", cards=True)
    _, big, went_big = paced_after_a_bust(tmp_path / "big", 2000, "seating", cards=True)
    assert len(encode(small[0])) < 5_000 and went_small == [1.0]
    size = len(encode(big[0]))
    assert 70_000 < size < 100_000 and len(big[0]["cards"]) == 2000
    assert len(went_big) == 1 and abs(went_big[0] - size * 223 / 2_000_000) < 0.26

"""The shot clock and its time banks (TDA RP-19) over a real Mosquitto, with the director
as a process and real table kiosks (controller, outbox, MQTT link): a card handed in
reaches the log once whatever fails in between (the director killed mid-countdown, its
standby taking over on the PostgreSQL log, the broker gone while a card is used), the
countdown never stops for the director, and a player's bank moves with the player when a
table breaks."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from floor_client import FloorClient
from mqtt_kit import Probe
from stalling_kit import table_kiosk
from waiting import wait_for
from wire_tap import WireTap

from kiosk.director.log.store import EventLog
from kiosk.protocol.topics import Topics
from kiosk.table.service import TableService

SHOT = "[shot_clock]\nseconds = 300\nbank_cards = 2\nbank_seconds = 60\n"


def kiosk(tmp_path: Path, mosquitto: Any, director: Any, table: int,
          players: int) -> TableService:
    """A real kiosk at `table`, once its plan carries the event's shot clock."""
    return table_kiosk(tmp_path, mosquitto, director, table, players,
                       lambda svc: svc.ctl.plan.get("shot_clock"))


def logged(director: Any, kind: str, db: str | None = None) -> list[dict[str, Any]]:
    return [e for e in EventLog(db or director.db).read() if e["kind"] == kind]


def bank_of(svc: TableService, seat: int) -> tuple[int | None, int]:
    """(cards, cards used) the table's plan shows for the player at `seat`."""
    who = svc.ctl.ctx.plan_seats()[seat]
    return who.get("bank"), int(who.get("bank_used") or 0)


def started(svc: TableService) -> int:
    """Deal and start the shot clock on the first player in turn: the seat."""
    assert not svc.act("new_hand").refused
    res = svc.act("press_clock")
    assert res.message.startswith("Shot clock: seat "), res.message
    return int(res.message.rsplit(" ", 1)[1])


def test_a_card_used_while_the_director_restarts_mid_countdown_is_counted_once(
        tmp_path, mosquitto, director_factory) -> None:
    director = director_factory(players=18, extra_toml=SHOT).start()
    svc = kiosk(tmp_path, mosquitto, director, 1, 9)
    seat = started(svc)
    run = svc.ctl.shot.current(time.time())
    assert run is not None and bank_of(svc, seat) == (2, 0)
    director.kill9()                                  # mid-countdown, nobody left to ack
    left = svc.view().shot_clock.remaining
    res = svc.act("time_bank")
    assert res.report is not None and svc.view().shot_clock.cards == 1
    assert svc.view().shot_clock.remaining > left + 50           # the card's minute
    wait_for(lambda: svc.view().shot_clock.remaining < left + 60 - 1)   # and it counts on
    director.start(start_event=False)
    wait_for(lambda: svc.outbox.pending_count() == 0, 60)
    wait_for(lambda: bank_of(svc, seat) == (1, 1), 30)
    assert svc.ctl.shot.current(time.time()) is run, "the countdown went on at the table"
    assert svc.view().shot_clock.cards == 1 and svc.ctl.local.bank_pending == {}
    assert svc.act("time_bank").report is not None                # the second card, live
    wait_for(lambda: bank_of(svc, seat) == (0, 2), 30)
    assert svc.act("time_bank").refused
    used = logged(director, "time_bank_used")
    assert [(e["player"], e["seconds"]) for e in used] == [(f"{run.player}", 60)] * 2
    assert len({e["report"] for e in used}) == 2
    svc.stop()
    assert "rejected" not in director.log_text()


def test_a_standby_takes_over_mid_countdown_and_every_card_counts_once(
        tmp_path, mosquitto, pg_dsn, director_factory) -> None:
    """Two directors on one PostgreSQL log: the leader counts a card, is killed mid-
    countdown, a second card is handed in while nobody leads, the standby takes over and
    counts it; the first comes again (a table re-sends what it holds no ack for) and is
    acknowledged, not counted. The countdown runs on at the table throughout."""
    leader = director_factory(players=18, extra_toml=SHOT, db=pg_dsn).start()
    standby = director_factory(workdir=tmp_path / "standby", players=18, extra_toml=SHOT,
                               db=pg_dsn, standby=True).start()
    tap = WireTap(mosquitto, leader.name)
    topics = Topics(leader.name)
    svc = kiosk(tmp_path, mosquitto, leader, 1, 9)
    seat = started(svc)
    run = svc.ctl.shot.current(time.time())
    assert run is not None
    first = svc.act("time_bank").report["id"]
    wait_for(lambda: bank_of(svc, seat) == (1, 1) and svc.outbox.pending_count() == 0, 30)

    def sent(rid: str) -> list[bytes]:
        return [raw for topic, raw in list(tap.seen) if topic == topics.report(1)
                and json.loads(raw).get("id") == rid]

    def acks(rid: str) -> int:
        return sum(1 for topic, raw in list(tap.seen) if topic == topics.ack(1)
                   and rid in json.loads(raw).get("ids", ()))

    [again] = sent(first)[:1]
    leader.kill9()                                    # mid-countdown, and nobody leads
    left = svc.view().shot_clock.remaining
    second = svc.act("time_bank").report["id"]
    assert svc.view().shot_clock.cards == 0           # counted here at once
    assert svc.view().shot_clock.remaining > left + 50
    standby.wait_log("took over room", timeout=60)
    wait_for(lambda: svc.outbox.pending_count() == 0, 60)
    wait_for(lambda: bank_of(svc, seat) == (0, 2), 30)
    before = acks(first)
    tap.client.publish(topics.report(1), again, qos=1).wait_for_publish(10)
    wait_for(lambda: acks(first) > before, 30)        # acknowledged: applied already
    used = logged(standby, "time_bank_used", pg_dsn)
    assert sorted(e["report"] for e in used) == sorted([first, second])
    assert [(e["player"], e["seconds"]) for e in used] == [(run.player, 60)] * 2
    assert bank_of(svc, seat) == (0, 2) and svc.ctl.local.bank_pending == {}
    assert svc.ctl.shot.current(time.time()) is run, "the countdown went on at the table"
    assert svc.act("time_bank").refused
    svc.stop()
    tap.close()
    assert "rejected" not in standby.log_text()
    assert "took over room test-event as leader (term 2)" in standby.log_text()


def test_a_card_used_while_the_broker_is_down_waits_in_the_outbox_and_counts_once(
        tmp_path, mosquitto, director_factory) -> None:
    director = director_factory(players=18, extra_toml=SHOT).start()
    svc = kiosk(tmp_path, mosquitto, director, 2, 9)
    seat = started(svc)
    mosquitto.stop()
    wait_for(lambda: svc.view().offline, 20)
    rid = svc.act("time_bank").report["id"]
    svc.act("shot_stop")
    view = svc.tick()
    assert view.offline and view.queued >= 1
    assert next(s for s in view.seats if s.seat == seat).bank == 1   # counted here at once
    # the outage outlasts the link's re-send period (1 s) twice: the time is the behaviour,
    # what is not acknowledged is re-sent into a broker that is not there
    time.sleep(2.5)
    mosquitto.start()
    wait_for(lambda: svc.outbox.pending_count() == 0, 60)
    wait_for(lambda: bank_of(svc, seat) == (1, 1), 30)
    assert [e["report"] for e in logged(director, "time_bank_used")] == [rid]
    assert next(s for s in svc.view().seats if s.seat == seat).bank == 1
    svc.stop()


def test_a_players_bank_moves_with_the_player_when_the_table_breaks(
        tmp_path, mosquitto, director_factory) -> None:
    director = director_factory(players=19, extra_toml=SHOT, web=True,
                                floor_users={"td": "pw"}).start()   # tables of 7, 6, 6
    floor = FloorClient(f"http://127.0.0.1:{director.http_port}", "td", "pw")
    probe = Probe(mosquitto, director.name)
    svc = kiosk(tmp_path, mosquitto, director, 3, 6)
    seat = started(svc)
    player = svc.ctl.shot.current(time.time()).player
    assert svc.act("time_bank").report is not None
    svc.act("shot_stop")
    out = next(s.seat for s in svc.view().seats if s.name and s.seat != seat)
    svc.act("begin", "bust")
    assert svc.act("choose_seat", out, 15000).report is not None
    wait_for(lambda: svc.outbox.pending_count() == 0, 30)
    assert floor.post("/api/act", {"kind": "break_table", "table": 3})["ok"]
    svc.act("end_hand")
    wait_for(lambda: svc.ctl.plan.get("broken"), 30)

    def moved() -> dict[str, Any] | None:
        for n in (1, 2):
            for who in probe.plans.get(n, {}).get("seats", {}).values():
                if who["player"] == player:
                    return who
        return None

    who = wait_for(moved, 30)
    assert (who["bank"], who["bank_used"]) == (1, 1), "the bank went with the player"
    tv = floor.get("/api/snapshot")["summary"]["shot_clock"]
    assert (tv["seconds"], tv["bank_cards"], tv["final_table"]) == (300, 2, False)
    svc.stop()
    probe.close()

"""The real table kiosk (controller, outbox, MQTT link) against the real director."""

from __future__ import annotations

import time
from pathlib import Path

from waiting import wait_for
from wire_tap import WireTap

from kiosk.config.files import TableConfig
from kiosk.director.log.store import EventLog
from kiosk.table.service import TableService


def kiosk(tmp_path: Path, mosquitto, event: str, table: int = 1) -> TableService:
    cfg = TableConfig(table=table, room=event, broker=mosquitto.config,
                      state_dir=str(tmp_path / f"table-{table}"), gpio=None)
    Path(cfg.state_dir).mkdir(exist_ok=True)
    svc = TableService(cfg, resend_s=1.0, reconnect=(1, 2), debounce_s=0.0)
    svc.start()
    wait_for(lambda: sum(1 for s in svc.view().seats if s.name) == 9)
    return svc


def logged(director, table: int) -> list[dict]:
    return [e for e in EventLog(director.db).read() if e.get("table") == table]


def sent(*results) -> list[str]:
    ids = [r.report["id"] for r in results if r.report]
    assert len(ids) == len(results), [r.message for r in results]
    return ids


def test_a_dealer_plays_a_hand_and_the_director_follows(tmp_path, mosquitto,
                                                        director_factory) -> None:
    director = director_factory(players=18).start()   # two full tables
    tap = WireTap(mosquitto, director.name)
    svc = kiosk(tmp_path, mosquitto, director.name)
    seats = [s for s in svc.view().seats if s.name]
    victim = seats[2]
    ids = sent(svc.act("new_hand"), svc.act("press_floor"))
    assert svc.act("press_allin").report is None          # ALL-IN asks for the seat
    ids += sent(svc.act("choose_seat", victim.seat))
    ids += sent(svc.act("end_hand"))
    svc.act("begin", "bust")
    ids += sent(svc.act("choose_seat", victim.seat, 12000))
    wait_for(lambda: svc.outbox.pending_count() == 0)
    kinds = {e["report"]: e["kind"] for e in logged(director, 1) if e.get("report")}
    assert [kinds[i] for i in ids] == ["hand_started", "floor_call", "all_in", "hand_ended",
                                      "busted"]
    bust = next(e for e in logged(director, 1) if e["kind"] == "busted")
    assert bust["stack"] == 12000 and bust["seat"] == victim.seat
    # the director's plan comes back: the seat is free and shows the player's place
    # (18 entrants, the first out finishes 18th), the floor call is open
    wait_for(lambda: next(s for s in svc.view().seats if s.seat == victim.seat).out
             == "OUT 18th")
    assert not next(s for s in svc.view().seats if s.seat == victim.seat).occupied
    assert svc.view().floor_state == "open"
    svc.stop()
    # every message either side sent carries its schema version
    assert {"report", "live", "status", "plan", "ack", "schedule", "seating",
            "events"} <= tap.leaves()
    assert tap.unversioned() == []
    tap.close()


def test_broker_outage_every_report_reaches_the_director_once(tmp_path, mosquitto,
                                                              director_factory) -> None:
    director = director_factory(players=18).start()
    svc = kiosk(tmp_path, mosquitto, director.name)
    # the schedule follows the plan (it names the event whose schedule to read)
    before = wait_for(lambda: svc.ctl.ctx.reading(time.time()), 10)
    mosquitto.stop()
    wait_for(lambda: svc.view().offline, 10)
    ids: list[str] = []
    for _ in range(3):
        ids += sent(svc.act("new_hand"))
        ids += sent(svc.act("end_hand"))
    ids += sent(svc.act("press_floor"))
    view = svc.tick()   # what the screen draws: offline banner and reports waiting
    assert view.offline and view.queued == len(ids)
    during = svc.ctl.ctx.reading(time.time())
    assert before is not None and during is not None
    assert during.remaining < before.remaining, "the clock kept running offline"
    mosquitto.start()
    wait_for(lambda: svc.outbox.pending_count() == 0, 40)
    reported = [e["report"] for e in logged(director, 1) if e.get("report")]
    assert sorted(reported) == sorted(ids), "every report arrived exactly once"
    assert not svc.view().offline
    svc.stop()

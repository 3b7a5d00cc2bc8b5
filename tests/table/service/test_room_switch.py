"""A pool table over a real Mosquitto follows its assignment by retained plans alone:
free, then event A, free again, then event B; no restart, no config edit. Each event's
schedule is followed only while the table serves it, a report keeps the event it was
made for, and card check-in finds players in every event."""

from __future__ import annotations

import random
import time
from typing import Any

from table_helpers import plan, schedule, seating, table_config
from waiting import holds, wait_for

from kiosk.core.event import plans
from kiosk.protocol.topics import Topics
from kiosk.table.service import TableService

ROOM = "test"            # table_config provisions the kiosk to this room
T = Topics(ROOM)
TABLE = 3


def free_plan(rev: int) -> dict[str, Any]:
    return {"v": 2, "rev": rev, "epoch": 0.0, "ts": time.time(),
            **plans.free_plan(TABLE, "Main Room")}


def test_a_table_moves_free_a_free_b_by_retained_plans(broker, observer, tmp_path) -> None:
    sub = observer(T.report(TABLE))      # no acks yet: reports stay in the outbox
    now = time.time()
    for event, level in (("daily", 0), ("sat", 2)):
        sub.publish(T.schedule(event), schedule(event=event, period=level, anchor=now),
                    retain=True)
    sub.publish(T.seating("sat"), seating(table=5), retain=True)
    sub.publish(T.events, {"v": 2, "rev": 1, "room": ROOM, "title": "Main Room", "events": [
        {"event": "daily", "title": "Daily", "tables": [TABLE]},
        {"event": "sat", "title": "Sunday Satellite", "kind": "satellite", "tables": [5]}]},
        retain=True)
    sub.publish(T.plan(TABLE), free_plan(1), retain=True)
    svc = TableService(table_config(str(tmp_path), broker.port, table=TABLE),
                       rng=random.Random(2), resend_s=1.0, reconnect=(1, 1), debounce_s=0.0)
    svc.start()
    try:
        assert svc.link.wait_connected(10)
        wait_for(lambda: svc.ctl.plan["rev"] == 1)
        view = svc.tick()
        assert view.free and view.room_title == "Main Room" and svc.ctl.ctx.schedule is None
        assert svc.act("new_hand").message == "This table is free"
        assert svc.outbox.pending_count() == 0
        # a card of the satellite's player: the directory gives the event's title
        wait_for(lambda: "sat" in svc.ctl.ctx.seatings and svc.ctl.ctx.directory is not None)
        assert svc.act("card", "CA000002").message == "Bo C: Sunday Satellite table 5 seat 2"

        # the floor assigns the table to the daily: its plan alone brings the schedule
        sub.publish(T.plan(TABLE), plan(rev=2, table=TABLE, event="daily", title="Daily",
                                         room="Main Room"), retain=True)
        wait_for(lambda: (svc.ctl.ctx.schedule or {}).get("event") == "daily")
        view = svc.tick()
        assert not view.free and view.event_title == "Daily" and view.level == "Level 1"
        assert len(view.seats) == 9 and view.seats[0].name == "Anna B"
        made_for_daily = svc.act("new_hand").report["id"]
        wait_for(lambda: made_for_daily in sub.count(T.report(TABLE)))
        assert sub.on(T.report(TABLE))[-1]["event"] == "daily"

        # freed while that report still waits for its ack; then given to the satellite
        sub.publish(T.plan(TABLE), free_plan(3), retain=True)
        wait_for(lambda: svc.tick().free)
        assert svc.ctl.ctx.schedule is None and svc.outbox.get("schedule") is None
        sub.publish(T.plan(TABLE), plan(rev=4, table=TABLE, event="sat",
                                         title="Sunday Satellite", room="Main Room"),
                    retain=True)
        wait_for(lambda: (svc.ctl.ctx.schedule or {}).get("event") == "sat")
        view = svc.tick()
        assert view.event_title == "Sunday Satellite" and view.level == "Level 3"
        assert view.hand == 0                     # nothing of the daily's hand carried over
        # the daily's schedule no longer reaches this table
        sub.publish(T.schedule("daily"), schedule(event="daily", period=5, rev=9),
                    retain=True)
        holds(lambda: svc.ctl.ctx.schedule["event"] == "sat", 0.5,
              "the daily's schedule reached the table")

        # the report made for the daily is re-sent for the daily, the new one for "sat"
        made_for_sat = svc.act("new_hand").report["id"]
        sub.ack_reports(T.ack(TABLE))
        wait_for(lambda: svc.outbox.pending_count() == 0, timeout=10)
        sent = {m["id"]: m["event"] for m in sub.on(T.report(TABLE))}
        assert sent[made_for_daily] == "daily" and sent[made_for_sat] == "sat"
    finally:
        svc.stop()


def test_a_restarted_kiosk_resumes_the_event_its_stored_plan_names(broker, observer,
                                                                  tmp_path) -> None:
    sub = observer(T.report(TABLE))
    sub.publish(T.schedule("sat"), schedule(event="sat", period=1, anchor=time.time()),
                retain=True)
    sub.publish(T.plan(TABLE), plan(rev=7, table=TABLE, event="sat", title="Sat"),
                retain=True)
    cfg = table_config(str(tmp_path), broker.port, table=TABLE)
    svc = TableService(cfg, reconnect=(1, 1))
    svc.start()
    wait_for(lambda: (svc.ctl.ctx.schedule or {}).get("event") == "sat")
    svc.stop()
    broker.stop()
    svc = TableService(cfg, reconnect=(1, 1))       # starts with the broker away
    svc.start()
    try:
        view = svc.tick()
        assert svc.ctl.event == "sat" and view.event_title == "Sat"
        assert view.level == "Level 2" and len(view.seats) == 9 and view.offline
    finally:
        svc.stop()

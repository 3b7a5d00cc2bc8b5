"""A broker outage: the table keeps dealing, queues reports, and delivers each once."""

from __future__ import annotations

import random
import time

from table_helpers import plan, schedule, table_config
from waiting import holds, wait_for

from kiosk.protocol.topics import Topics
from kiosk.table.service import TableService

TOPICS = Topics("test")
RESEND_S = 1.5


def test_reports_made_offline_arrive_once_and_unacked_ones_are_resent(broker, observer,
                                                                      tmp_path) -> None:
    """The director's acks are simulated here by publishing on the ack topic from the test;
    the end-to-end version with the real director lives in tests/integration/mqtt."""
    report_topic = TOPICS.report(3)
    sub = observer(report_topic)
    held = sub.ack_reports(TOPICS.ack(3))
    sub.publish(TOPICS.schedule("test"), schedule(anchor=time.time() - 5), retain=True)
    sub.publish(TOPICS.plan(3), plan(rev=1), retain=True)
    svc = TableService(table_config(str(tmp_path), broker.port), rng=random.Random(4),
                       resend_s=RESEND_S, reconnect=(1, 1), debounce_s=0.0)
    svc.start()
    try:
        assert svc.link.wait_connected(10)
        wait_for(lambda: svc.ctl.plan["rev"] == 1 and svc.ctl.ctx.schedule is not None)
        online = svc.act("new_hand").report["id"]
        wait_for(lambda: svc.outbox.pending_count() == 0)       # sent and acked

        broker.stop()
        wait_for(lambda: not svc.link.connected)
        before = svc.ctl.ctx.reading(time.time())
        t_off = time.time()
        offline = [svc.act("all_in", 3), svc.act("end_hand"), svc.act("bust", 3),
                   svc.act("press_floor"), svc.act("new_hand"), svc.act("set_absent", 5)]
        assert [r.refused for r in offline] == [False] * 6, [r.message for r in offline]
        ids = [r.report["id"] for r in offline]
        view = svc.tick()
        assert view.offline and view.queued == len(ids) and view.hand == 2
        held.add(ids[3])                                         # the director "misses" one
        time.sleep(1.2)          # offline this long: the clock must count it (the behaviour)
        t_on = time.time()
        after = svc.ctl.ctx.reading(t_on)
        assert before.period == after.period == 0
        assert before.remaining - after.remaining >= t_on - t_off - 0.3  # kept running

        broker.start()
        wait_for(lambda: svc.link.connected, timeout=15)
        wait_for(lambda: set(ids) <= set(sub.count(report_topic)), timeout=15)
        wait_for(lambda: svc.outbox.pending_ids() == [ids[3]], timeout=10)
        wait_for(lambda: sub.count(report_topic)[ids[3]] >= 2, timeout=3 * RESEND_S + 5)
        held.clear()                                             # now the ack comes
        wait_for(lambda: svc.outbox.pending_count() == 0, timeout=3 * RESEND_S + 5)
        settled = sub.count(report_topic)
        holds(lambda: sub.count(report_topic) == settled, RESEND_S + 0.5,
              "a report was sent again after its ack")
        counts = sub.count(report_topic)
        assert {i: counts[i] for i in [online, *ids] if i != ids[3]} == {
            i: 1 for i in [online, *ids] if i != ids[3]}
        seqs = [m["seq"] for m in sub.on(report_topic)]
        assert sorted(set(seqs)) == list(range(1, 8))
        assert not svc.tick().offline
    finally:
        svc.stop()

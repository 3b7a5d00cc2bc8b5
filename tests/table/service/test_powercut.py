"""A power cut: `kill -9` a headless kiosk with reports queued; nothing is lost."""

from __future__ import annotations

from powercut_kit import TOPICS, Kiosk, offline_kiosk, queued
from waiting import wait_for


def test_kill_minus_nine_with_queued_reports_loses_nothing(broker, observer, tmp_path) -> None:
    config = tmp_path / "table.toml"
    kiosk = offline_kiosk(broker, observer, tmp_path, tmp_path / "state")
    try:
        replies = [kiosk.send(c) for c in ("new", "allin 3", "end", "floor", "bust 3 15000")]
        assert [r["ok"] for r in replies] == [True] * 5, replies
        ids = [r["report"] for r in replies]
    finally:
        kiosk.kill9()                                   # no goodbye, no flush
    db = tmp_path / "state" / "table-3.db"
    assert queued(db) == ids                            # committed before the cut

    broker.start()
    sub = observer(TOPICS.report(3))
    sub.ack_reports(TOPICS.ack(3))
    kiosk = Kiosk(config)
    try:
        wait_for(lambda: set(ids) <= set(sub.count(TOPICS.report(3))), timeout=20)
        wait_for(lambda: queued(db) == [], timeout=10)  # all acked, outbox empty
        assert all(sub.count(TOPICS.report(3))[i] == 1 for i in ids)
        bust = next(m for m in sub.on(TOPICS.report(3)) if m["id"] == ids[-1])
        assert bust["data"] == {"seat": 3, "player": "p3", "stack": 15000}
        view = kiosk.send("view")                       # hand count survived the restart
        assert view["hand"] == 1 and not view["in_hand"] and view["level"] == "Level 1"
        nxt = kiosk.send("new")
        assert nxt["ok"]
        msg = wait_for(lambda: [m for m in sub.on(TOPICS.report(3)) if m["id"] == nxt["report"]])
        assert msg[0]["seq"] == 6 and msg[0]["data"]["hand"] == 2
    finally:
        kiosk.proc.terminate()
        kiosk.proc.wait(10)

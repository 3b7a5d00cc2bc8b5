"""Dealers over a real Mosquitto: a table sends a badge read, the director answers on the
table's own topic and the table's retained plan names who deals, the next push and who
comes; an unknown badge and a dealer at the wrong table get their answer; no badge ever
reaches the log or a retained message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_mqtt_kit import Table, dealers_toml
from floor_client import FloorClient
from room_kit import ROOM
from room_process import PASSWORD, room_process
from waiting import wait_for

from kiosk.config.files import TableConfig
from kiosk.table.service import TableService


def test_a_badge_over_the_broker_puts_the_dealer_in_the_tables_plan(
        mosquitto: Any, director_factory: Any, tmp_path: Path) -> None:
    d = room_process(director_factory, mosquitto, tmp_path, ROOM + dealers_toml())
    table = Table(mosquitto)
    try:
        wait_for(lambda: {1, 2} <= set(table.plans), timeout=20)
        unknown = table.badge(1, "r1", "NOT-A-BADGE")
        assert (unknown["ok"], unknown["text"]) == (False, "Unknown card — ask the floor")
        ann = table.badge(1, "r2", "BADGE-0")
        assert ann["ok"] and ann["text"] == "Ann deals table 1"
        plan = wait_for(lambda: (table.plans[1].get("dealer") or {}).get("dealer") == "Ann"
                        and table.plans[1], timeout=15)
        assert plan["dealer"]["push_at"] > 0
        assert table.badge(2, "r3", "BADGE-1")["text"] == "Bob deals table 2"
        cy = table.badge(2, "r4", "BADGE-2")            # the relief, due at table 1 first
        assert cy["ok"] and cy["text"] == "Cy is in: Table 1"
        wait_for(lambda: (table.plans[1].get("dealer") or {}).get("incoming") == "Cy",
                 timeout=15)
        wrong = table.badge(2, "r5", "BADGE-2")
        assert not wrong["ok"] and "due at table 1" in wrong["text"]
        # a director adds a dealer from the room page; the floor may not; the badge works
        floor = FloorClient(d.url, "fl", PASSWORD)
        no = floor.post("/api/dealers/roster", {"action": "add", "name": "Dee",
                                                "badge": "BADGE-9"})
        assert not no["ok"] and "ask a director" in no["error"]
        td = FloorClient(d.url, "td", PASSWORD)
        assert td.post("/api/dealers/roster", {"action": "add", "name": "Dee",
                                               "badge": "BADGE-9"})["done"] == "added Dee"
        assert "BADGE-9" not in (tmp_path / "room.toml").read_text()
        assert table.badge(2, "r6", "BADGE-9")["text"].startswith("Dee is in")
        assert not any(b"BADGE-" in raw for raw in table.raw)
        assert b"BADGE-" not in (tmp_path / "room.db").read_bytes()
    finally:
        table.close()
        d.stop()


def test_a_kiosk_reads_a_badge_and_shows_its_dealer_and_push(
        mosquitto: Any, director_factory: Any, tmp_path: Path) -> None:
    d = room_process(director_factory, mosquitto, tmp_path, ROOM + dealers_toml())
    cfg = TableConfig(table=1, room="casino", broker=mosquitto.config,
                      state_dir=str(tmp_path / "table-1"), gpio=None)
    Path(cfg.state_dir).mkdir()
    kiosk = TableService(cfg, resend_s=1.0, debounce_s=0.0)
    kiosk.start()
    try:
        wait_for(lambda: kiosk.view().event_title, timeout=20)
        asked = kiosk.act("card", "NOT-A-BADGE")        # nobody's card: not a player's
        assert asked.report is None
        wait_for(lambda: kiosk.view().checkin == "Unknown card — ask the floor", timeout=15)
        kiosk.act("card", "BADGE-0")
        wait_for(lambda: kiosk.view().checkin == "Ann deals table 1", timeout=15)
        line = wait_for(lambda: kiosk.view().dealer_line, timeout=15)
        assert line.startswith("Ann · push 1")           # a 20-minute down, staggered
        assert b"BADGE-" not in b"".join(p.read_bytes() for p in Path(cfg.state_dir).rglob("*")
                                         if p.is_file())
    finally:
        kiosk.stop()
        d.stop()

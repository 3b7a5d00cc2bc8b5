"""A table provisioned with a wrong broker password: its screen names the cause, it keeps
trying, and what the dealer enters meanwhile waits in the outbox for the right login."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest
from appliance_helpers import Broker
from waiting import wait_for

from kiosk.config.files import load_table_config
from kiosk.table.service import TableService
from kiosk.table.ui.texts import centre_lines

REFUSED = "broker refused this table's login"


def test_wrong_password_is_named_on_screen_and_retried(
        room_broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cfg = load_table_config(room_broker.out / "tables" / "table-1.toml")
    cfg = dataclasses.replace(cfg, state_dir=str(tmp_path / "state"), gpio=None)
    wrong = dataclasses.replace(cfg, broker=dataclasses.replace(cfg.broker,
                                                                password="wrong-password"))
    caplog.set_level(logging.WARNING, logger="kiosk.table.link")
    svc = TableService(wrong, reconnect=(1, 1), debounce_s=0)
    svc.start()
    try:
        view = wait_for(lambda: (v := svc.tick()).refused and v)
        assert view.refused == REFUSED and view.offline
        floor = svc.act("press_floor")                   # the dealer's call still queues
        assert not floor.refused
        lines = [text for text, _ in centre_lines(svc.tick())]
        assert lines[0] == "Broker refused this table's login"
        assert svc.tick().queued == 1
        wait_for(lambda: sum("broker refused" in r.getMessage()
                             for r in caplog.records) >= 3)        # it keeps trying
        assert not svc.link.connected
    finally:
        svc.stop()

    right = TableService(cfg, reconnect=(1, 1), debounce_s=0)   # the card fixed
    right.start()
    try:
        view = wait_for(lambda: (v := right.tick()) and not v.offline and v)
        assert view.refused == "" and not any("refused" in t for t, _ in centre_lines(view))
        assert right.outbox.pending_count() == 1          # the call waits for the director
        wait_for(lambda: right.outbox.unsent() == [])     # and the broker has taken it
    finally:
        right.stop()

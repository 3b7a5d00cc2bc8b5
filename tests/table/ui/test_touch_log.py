"""`[ui] log_touches`: an installer commissioning a touch panel reads in the journal
where each tap landed and which device brought it (the VM check reads the same lines)."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
from table_helpers import plan, schedule, table_config
from waiting import wait_for

from kiosk.table.ui.env import prepare

prepare("800x480", headless=True)

from kivy.base import EventLoop  # noqa: E402  (Kivy reads its settings on first import)
from kivy.clock import Clock  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402

from kiosk.config.files import ConfigError, load_table_config  # noqa: E402
from kiosk.protocol.topics import Topics  # noqa: E402
from kiosk.table.service import TableService  # noqa: E402
from kiosk.table.ui.app import TableApp, log_touch  # noqa: E402

TABLE = '[table]\nnumber = 3\nroom = "main"\n'


def test_a_tap_is_logged_once_with_its_device_and_place_from_the_top_left(
        caplog: pytest.LogCaptureFixture) -> None:
    EventLoop.ensure_window()
    from kivy.core.window import Window
    Window.bind(on_touch_down=log_touch)
    try:
        with caplog.at_level(logging.INFO, logger="kiosk.table.ui.app"):
            tap = UnitTestTouch(105, Window.height - 181)    # Kivy's y runs upward
            tap.touch_down()
            tap.touch_up()
    finally:
        Window.unbind(on_touch_down=log_touch)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("touch:")]
    assert lines == ["touch: UnitTestTouch at 105,181"]


def test_each_screen_a_touch_meets_is_logged_once_as_it_changes(
        broker: Any, observer: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A hand with a bust on the kiosk's own app over a real broker: the journal says,
    step by step, what the dealer could tap, so a panel (or the VM check's hand) can tell
    which screen a touch met; nothing is logged while the screen stays the same."""
    t = Topics("test")
    pub = observer(t.report(3))
    pub.publish(t.schedule("test"), schedule(anchor=time.time()), retain=True)
    pub.publish(t.plan(3), plan(rev=1), retain=True)
    svc = TableService(table_config(str(tmp_path), broker.port, table=3), debounce_s=0.0,
                       reconnect=(1, 1))
    app = TableApp(svc, log_touches=True)
    EventLoop.ensure_window()
    app.build()
    svc.start()
    try:
        wait_for(lambda: svc.ctl.plan.get("rev") == 1 and svc.tick().can_deal)
        with caplog.at_level(logging.INFO, logger="kiosk.table.ui.app"):
            app.refresh()
            for action, *args in [("new_hand",), ("begin", "bust"), ("choose_seat", 3),
                                  ("bust_confirm",), ("choose_seat", 5)]:
                svc.act(action, *args)
                app.refresh()
                app.refresh()
        lines = [r.getMessage() for r in caplog.records
                 if r.getMessage().startswith("screen:")]
        hand = svc.view().hand
        assert lines == [f"screen: hand {hand - 1} over", f"screen: hand {hand} in play",
                         "screen: bust: picked none, OK off", "screen: bust: picked 3, OK on",
                         "screen: winner: picked none, SKIP on",
                         f"screen: hand {hand} in play"]
        wait_for(lambda: any(r.get("kind") == "bust" for r in pub.on(t.report(3))))
    finally:
        Clock.unschedule(app.refresh)       # build() set the app's 10 Hz tick going
        svc.stop()


def test_the_setting_is_read_from_table_toml_and_a_wrong_type_is_refused(
        tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(TABLE)
    assert load_table_config(path).log_touches is False
    path.write_text(TABLE + "[ui]\nlog_touches = true\n")
    assert load_table_config(path).log_touches is True
    path.write_text(TABLE + '[ui]\nlog_touches = "yes"\n')
    with pytest.raises(ConfigError, match="log_touches"):
        load_table_config(path)

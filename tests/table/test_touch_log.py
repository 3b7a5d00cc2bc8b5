"""`[ui] log_touches`: an installer commissioning a touch panel reads in the journal
where each tap landed and which device brought it (the VM check reads the same lines)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kiosk.table.ui.env import prepare

prepare("800x480", headless=True)

from kivy.base import EventLoop  # noqa: E402  (Kivy reads its settings on first import)
from kivy.tests.common import UnitTestTouch  # noqa: E402

from kiosk.config.files import ConfigError, load_table_config  # noqa: E402
from kiosk.table.ui.app import log_touch  # noqa: E402

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

"""What the browser tests share: Debian's Chromium and a kiosk playing table 1."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from waiting import wait_for

from kiosk.config.files import TableConfig
from kiosk.table.service import TableService

SCREENS = Path(__file__).resolve().parents[1] / "output" / "screens"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium(pw: Any) -> Any:
    return pw.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                              args=CHROMIUM_ARGS)


def table_one(tmp_path: Path, mosquitto: Any, director: Any) -> TableService:
    """A real kiosk at table 1, started, with its nine players seated from the plan."""
    cfg = TableConfig(table=1, room=director.name, broker=mosquitto.config,
                      state_dir=str(tmp_path / "table-1"), gpio=None)
    Path(cfg.state_dir).mkdir()
    kiosk = TableService(cfg, resend_s=1.0, debounce_s=0.0)
    kiosk.start()
    wait_for(lambda: sum(1 for s in kiosk.view().seats if s.name) == 9)
    return kiosk

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


# the contrast ratio (WCAG 2) of an element's text against the first opaque background
# behind it: 4.5 is the least for text of an ordinary size
CONTRAST_JS = """(el) => {
  const rgb = c => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 :
    ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let bg = el, back = [255, 255, 255];
  while (bg) { const c = rgb(getComputedStyle(bg).backgroundColor);
    if (c.length < 4 || c[3] > 0.5) { back = c.slice(0, 3); break; } bg = bg.parentElement; }
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(back);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def legible(page: Any, selector: str, least: float = 4.5) -> None:
    """Every visible element `selector` finds stands out from its background."""
    for el in page.locator(selector).all():
        if el.is_visible():
            ratio = el.evaluate(CONTRAST_JS)
            assert ratio >= least, f"{selector} {el.inner_text()!r}: contrast {ratio:.1f}"

"""The kiosk's memory and time to its first frame, in English and with the Chinese font.

Each language runs in a fresh process (Kivy offscreen, as the tests render): the dealer
screen is built, given a nine-seat plan in that language and drawn until its first frame
is on the window. Prints peak RSS and seconds from the process start to that frame, and
the font file's size (what the image carries). Prints figures, asserts nothing.

    python bench/kiosk_font_bench.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

START = time.monotonic()
LANGS = ("en", "cs", "zh_Hans")


def child(code: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "table"))
    from kiosk.table.ui.env import prepare
    prepare("800x480", headless=True)
    import random
    import resource

    from kivy.base import EventLoop
    from table_helpers import T0, plan, schedule, seat

    from kiosk.table.controller import TableController
    EventLoop.ensure_window()
    from kivy.core.window import Window

    from kiosk.table.ui.app import TableScreen
    ctl = TableController(3, rng=random.Random(3), boot="ui", debounce_s=0)
    ctl.directions.apply_schedule(schedule(players_left=27, average_stack=16667, entries=30))
    ctl.set_link(True, 0)
    ctl.apply_plan(plan({n: seat(n) for n in range(1, 10)}, rev=1, language=code), T0)
    screen = TableScreen(act=lambda *a, **k: None)
    Window.add_widget(screen)
    screen.render(ctl.view(T0 + 60))
    EventLoop.idle()
    first = time.monotonic() - START
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"rss_mb": rss, "first_frame_s": first,
                      "font": screen.ids.btn_new.font_name}))


def main() -> None:
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--runs", type=int, default=3)
    a.add_argument("--child")
    args = a.parse_args()
    if args.child:
        child(args.child)
        return
    from kiosk.lang.fonts import cjk_font
    font = cjk_font()
    print(f"CJK font: {font} ({Path(font).stat().st_size / 1e6:.1f} MB)" if font
          else "CJK font: none installed")
    env = {**os.environ, "KIVY_NO_CONSOLELOG": "1"}
    for code in LANGS:
        runs = []
        for _ in range(args.runs):
            out = subprocess.run([sys.executable, __file__, "--child", code], env=env,
                                 capture_output=True, text=True, timeout=300, check=True)
            runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"{code:8} font {runs[0]['font']:9} peak RSS "
              f"{statistics.median(r['rss_mb'] for r in runs):6.1f} MB  first frame "
              f"{statistics.median(r['first_frame_s'] for r in runs):5.2f} s "
              f"(median of {args.runs})")


if __name__ == "__main__":
    main()

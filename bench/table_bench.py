"""Table kiosk figures (printed, not asserted).

  press -> broker   FLOOR released on a gpiozero mock pin until the report reaches a
                    subscriber of a real Mosquitto on loopback (p50/p99 over N presses)
  UI frame          render + draw of the dealer screen while a clock call counts down
                    (SDL2 offscreen, no frame cap)
  cold start        process spawn to the first frame of the Kivy kiosk
  memory            resident set of the running kiosk (UI and headless)

Targets: press p99 < 20 ms, frame < 16 ms, start < 3 s, RSS < 150 MB.
Run: python bench/table_bench.py [--presses 300] [--frames 300]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "table"))

from table_helpers import plan, schedule, table_config, table_toml  # noqa: E402

from kiosk.mqtt.broker import Mosquitto  # noqa: E402
from kiosk.mqtt.client import make_client  # noqa: E402
from kiosk.protocol.topics import Topics  # noqa: E402

TOPICS = Topics("test")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))]


def bench_press(port: int, workdir: Path, presses: int) -> dict[str, float]:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from kiosk.table.hardware.gpio import TableGpio
    from kiosk.table.service import TableService
    Device.pin_factory = MockFactory()
    arrived: dict[str, float] = {}
    got = threading.Condition()

    def on_message(client, userdata, msg) -> None:
        body = json.loads(msg.payload)
        with got:
            arrived[body["id"]] = time.perf_counter()
            got.notify_all()
        client.publish(TOPICS.ack(3), json.dumps({"v": 2, "ids": [body["id"]]}), qos=1)

    sub = mqtt.Client(callback_api_version=mqtt.CallbackAPIVersion.VERSION2,
                      client_id="bench-observer", protocol=mqtt.MQTTv5)
    sub.on_message = on_message
    sub.connect("127.0.0.1", port)
    sub.subscribe(TOPICS.report(3), qos=1)
    sub.loop_start()
    cfg = table_config(str(workdir / "press"), port)
    cfg = type(cfg)(**{**cfg.__dict__, "gpio": type(cfg.gpio)(bounce_s=0)})
    svc = TableService(cfg, rng=random.Random(1), debounce_s=0.0)
    gpio = TableGpio(svc, cfg.gpio)
    svc.start()
    svc.link.wait_connected(10)
    time.sleep(0.3)
    pin = Device.pin_factory.pin(cfg.gpio.floor)
    lat: list[float] = []
    for _ in range(presses):
        pin.drive_low()
        t0 = time.perf_counter()
        pin.drive_high()                       # the release raises the call
        rid = svc.ctl.floor.call.id if svc.ctl.floor.call else None
        with got:
            got.wait_for(lambda rid=rid: rid in arrived, timeout=5)
        if rid in arrived:
            lat.append((arrived[rid] - t0) * 1000)
        svc.act("hold_floor")                  # cancel so the next press raises again
        time.sleep(0.005)
    gpio.close()
    svc.stop()
    sub.loop_stop()
    sub.disconnect()
    return {"n": len(lat), "p50": statistics.median(lat), "p99": pct(lat, 99),
            "max": max(lat)}


FRAME_SCRIPT = r"""
import random, sys, time
sys.path.insert(0, {helpers!r})
from kiosk.table.ui.env import prepare
prepare("{size}", headless=True)
from kivy.config import Config
Config.set("graphics", "maxfps", "0")
from kivy.base import EventLoop
EventLoop.ensure_window()
from kivy.core.window import Window
from kiosk.table.controller import TableController
from kiosk.table.ui.app import TableScreen
from table_helpers import T0, plan, schedule
c = TableController(3, rng=random.Random(1), boot="b")
c.directions.apply_schedule(schedule()); c.apply_plan(plan(rev=1), T0)
c.new_hand(T0 + 1); c.call_clock(T0 + 2, 6, by="dealer")
c.apply_plan(plan(rev=2, clock_calls={{"c1": {{"state": "approved", "seat": 6,
                                             "approved_at": T0 + 2, "seconds": 25,
                                             "countdown": 5}}}}), T0 + 2)
scr = TableScreen(act=lambda *a: None)
Window.add_widget(scr); Window.size = scr.size = ({w}, {h})
for i in range(10):
    scr.render(c.view(T0 + 2)); EventLoop.idle()
times = []
for i in range({frames}):
    t = T0 + 2 + i * 30 / {frames}          # the whole 25 + 5 s countdown
    s = time.perf_counter()
    scr.render(c.view(t)); EventLoop.idle()
    times.append((time.perf_counter() - s) * 1000)
times.sort()
print("FRAMES", times[len(times) // 2], times[int(len(times) * 0.99) - 1], max(times))
"""

START_SCRIPT = r"""
import os, sys, time
from kiosk.table.ui.env import prepare
prepare("{size}", headless=True)
from kivy.clock import Clock
from kivy.core.window import Window
from kiosk.config.files import load_table_config
from kiosk.table.service import TableService
from kiosk.table.ui.app import TableApp
cfg = load_table_config({config!r})
class Bench(TableApp):
    def on_start(self):
        super().on_start()
        Window.bind(on_flip=self.flipped)
    def flipped(self, *_):
        Window.unbind(on_flip=self.flipped)
        print("FIRST_FRAME", time.time(), flush=True)
        Clock.schedule_once(self.done, 3)
    def done(self, _dt):
        rss = int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) / 1024
        print("RSS", rss, flush=True)
        self.stop()
Bench(TableService(cfg)).run()
"""


def run_script(code: str) -> tuple[float, str]:
    start = time.time()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    if out.returncode:
        raise SystemExit(out.stderr[-2000:])
    return start, out.stdout


def bench_frames(frames: int) -> dict[str, list[float]]:
    out = {}
    for w, h in ((800, 480), (1280, 720)):
        _, text = run_script(FRAME_SCRIPT.format(helpers=str(ROOT / "tests" / "table"),
                                                 size=f"{w}x{h}", w=w, h=h, frames=frames))
        line = next(x for x in text.splitlines() if x.startswith("FRAMES"))
        out[f"{w}x{h}"] = [float(v) for v in line.split()[1:]]
    return out


def bench_start(port: int, workdir: Path) -> tuple[float, float]:
    config = workdir / "table.toml"
    config.write_text(table_toml(str(workdir / "ui-state"), port))
    start, text = run_script(START_SCRIPT.format(size="800x480", config=str(config)))
    values = dict(line.split(None, 1) for line in text.splitlines() if " " in line)
    return float(values["FIRST_FRAME"]) - start, float(values["RSS"])


def bench_headless_rss(port: int, workdir: Path) -> float:
    config = workdir / "headless.toml"
    config.write_text(table_toml(str(workdir / "headless-state"), port))
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "table", "--config",
                             str(config), "--headless"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        assert proc.stdout is not None
        proc.stdout.readline()                 # "table 3 ready"
        time.sleep(2)
        return psutil.Process(proc.pid).memory_info().rss / 2**20
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=300)
    ap.add_argument("--frames", type=int, default=300)
    args = ap.parse_args()
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    with tempfile.TemporaryDirectory(prefix="table-bench-") as tmp:
        work = Path(tmp)
        broker = Mosquitto(workdir=str(work)).start()
        port = broker.port
        try:
            pub = make_client("bench-director", broker.config)
            pub.connect("127.0.0.1", port)
            pub.loop_start()
            for topic, msg in ((TOPICS.schedule("test"), schedule(anchor=time.time())),
                               (TOPICS.plan(3), plan(rev=1))):
                pub.publish(topic, json.dumps(msg), qos=1, retain=True).wait_for_publish(5)
            press = bench_press(port, work, args.presses)
            print(f"press -> broker  n={press['n']}  p50 {press['p50']:.2f} ms  "
                  f"p99 {press['p99']:.2f} ms  max {press['max']:.2f} ms   (target p99 < 20 ms)")
            for size, (p50, p99, worst) in bench_frames(args.frames).items():
                print(f"UI frame {size:>8}  p50 {p50:.2f} ms  p99 {p99:.2f} ms  "
                      f"max {worst:.2f} ms   (clock call counting down; target < 16 ms)")
            start, rss = bench_start(port, work)
            print(f"cold start       {start:.2f} s to the first frame   (target < 3 s)")
            print(f"memory (UI)      {rss:.0f} MB resident   (target < 150 MB)")
            print(f"memory (headless) {bench_headless_rss(port, work):.0f} MB resident")
            pub.loop_stop()
        finally:
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

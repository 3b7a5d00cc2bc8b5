"""`images/vm.sh`: boot the director and two tables as arm64 VMs and check the appliance.

  images/vm.sh --build-cache        build the cached roots only (the slow, cold part)
  images/vm.sh --check [--json]     build what is missing, boot, check, print the figures
  options: --work DIR (default ~/.cache/pokerkiosk/vm-run), --keep (leave the VMs up
  until Enter), --png FILE (also copy the kiosk's screenshot there), --skip STEP,...
  (leave checks out while working on another)
"""

from __future__ import annotations

import argparse
import json
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import roots
from inputs import MONITOR, PRINTER_ADDR, SLIP_COLUMNS, SlipPrinter
from machine import DIRECTOR_ADDR, READER_BY_ID, Machine
from scenario import ROLLOUT_WHEELS, Room, run_checks

sys.path.insert(0, str(roots.REPO / "bench"))
from update_bench import build_wheel

from kiosk.system.passwords import hash_line


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def provision(work: Path) -> Room:
    """`pokerkiosk provision` for a two-table room on TLS, as an operator would run it,
    then the event settings the operator sets before the first start."""
    out = work / "room"
    shutil.rmtree(out, ignore_errors=True)
    roots.run([sys.executable, "-m", "kiosk", "provision", "--out", str(out),
               "--event", "vm-open", "--tables", "2", "--tls",
               "--director-host", DIRECTOR_ADDR])
    event = out / "director" / "event.toml"
    event.write_text(event.read_text().replace(
        'name = "vm-open"\n', 'name = "vm-open"\nprofile = "tda-2017"\nstructure = "turbo"\n'
        "seats = 9\nseed = 7\nbuy_in = 100\nstart_stack = 20000\n", 1)
        # every place paid, so table 1's first bust is in the money and its printer
        # prints the slip ([director] slips_at_table)
        .replace("[director]\n", "[director]\nslips_at_table = true\n", 1)
        + '\n[money]\ntable = "percent"\npercent_paid = 100\n')
    # table 1: the USB card reader by its stable name, and the kiosk logs each touch
    t1 = out / "tables" / "table-1.toml"
    text = t1.read_text()
    assert 'port = "/dev/ttyAMA0"' in text and "fullscreen = true\n" in text, text
    t1.write_text(text.replace('port = "/dev/ttyAMA0"', f'port = "{READER_BY_ID}"')
                  .replace("fullscreen = true\n", "fullscreen = true\nlog_touches = true\n")
                  + f'\n[printer]\nport = "tcp:{PRINTER_ADDR}:9100"\nstatus = false\n'
                  f"columns = {SLIP_COLUMNS}\n")
    # the host's own subscriber to table 1's reports and plan (inputs.Reports): a login of
    # its own, read-only; the broker takes a login's name as its client id, so borrowing
    # the director's would knock the director off
    monitor = secrets.token_urlsafe(16)
    with (out / "broker" / "passwd").open("a") as f:
        f.write(hash_line(MONITOR, monitor) + "\n")
    with (out / "broker" / "acl").open("a") as f:
        f.write(f"\nuser {MONITOR}\ntopic read pk/v2/vm-open/table/1/report\n"
                "topic read pk/v2/vm-open/table/1/plan\n")
    version = roots.project_version()
    return Room(monitor=monitor, out=out, event="vm-open", version=version, releases={
        kind: f"{version}.post{n}" for n, kind in enumerate(("tampered", "broken", "good"), 1)})


DIRECTOR_DROPIN = """\
# VM harness: 18 players registered and the seats drawn at the first start.
[Service]
ExecStart=
ExecStart=/opt/pokerkiosk/venv/bin/pokerkiosk director --config /etc/pokerkiosk/event.toml \
--players /etc/pokerkiosk/players.csv --start
"""
# An emulated Pi (TCG, llvmpipe) starts Kivy many times slower than a Pi does, and more so
# on a CI machine running the test suite beside it: 58 s to READY=1 on a quiet host, past
# the unit's 120 s under load, where systemd then killed each start until the start limit
# rebooted the table. The harness gives a start five times the Pi's time, and the KMS
# kiosk a watchdog of 120 s: with five touch panels probed, its first frames held the UI
# loop past 30 s under load. A frozen kiosk is still caught (the watchdog check).
SLOW_START_S = 600
SLOW_WATCHDOG_S = 120
SLOW_START_DROPIN = f"""\
# VM harness: an emulated Pi starts slowly (images/vm/main.py, SLOW_START_S), and its
# first frames under llvmpipe can hold the UI loop past the Pi's 30 s watchdog.
[Service]
TimeoutStartSec={SLOW_START_S}
WatchdogSec={SLOW_WATCHDOG_S}
ExecStart=
ExecStart=/usr/bin/python3 -m kiosk.releases.supervisor /opt/pokerkiosk/ab \
--ready {SLOW_START_S} --crash 60 -- table --config /etc/pokerkiosk/table.toml
"""
HEADLESS_DROPIN = f"""\
# VM harness: this table has no screen; the host plays it through a FIFO on stdin. The
# supervisor runs the kiosk as the image's unit does (it updates itself: rollout).
[Service]
TimeoutStartSec={SLOW_START_S}
ExecStartPre=+/bin/sh -c 'mkfifo -m 0600 /run/pokerkiosk/cmd; chown pokerkiosk: /run/pokerkiosk/cmd'
ExecStart=
ExecStart=/bin/sh -c 'exec /usr/bin/python3 -m kiosk.releases.supervisor /opt/pokerkiosk/ab \
--ready {SLOW_START_S} --crash 60 -- table --headless --config /etc/pokerkiosk/table.toml \
<>/run/pokerkiosk/cmd'
"""


def build_machines(work: Path, room: Room) -> tuple[Machine, Machine, Machine]:
    """The three disks and machines: director, table 1 (display), table 2 (headless)."""
    t0 = time.monotonic()
    wheel = roots.project_wheel(work / "wheel")
    roots.wheelhouse()                       # once, before the two roles need it
    with ThreadPoolExecutor(2) as pool:      # two emulated installs side by side
        jobs = [pool.submit(roots.prepare_root, role, work, wheel)
                for role in ("director", "table")]
        director_root, table_root = (j.result() for j in jobs)
    kernel, initrd = roots.boot_files(table_root, work)
    players = "name,card\n" + "".join(f"Player {i},C{i:04d}\n" for i in range(1, 19))
    roots.harness(director_root, "pk-director", {
        "etc/pokerkiosk/players.csv": players,
        "etc/systemd/system/pokerkiosk-director.service.d/vm.conf": DIRECTOR_DROPIN})
    # the releases to roll out: this checkout again under newer versions, as the rollout
    # bench builds them (the broken one's table kiosk exits at start)
    (director_root / ROLLOUT_WHEELS).mkdir(parents=True, exist_ok=True)
    for kind, version in room.releases.items():
        wheel = build_wheel(work / "releases", version, broken=kind == "broken")
        shutil.copy(wheel, director_root / ROLLOUT_WHEELS / wheel.name)
    out = room.out
    director_card = {p.name: p for d in ("director", "broker") for p in (out / d).iterdir()}
    director_disk = roots.disk(director_root, director_card, work / "director.img")
    disks = {}
    for n in (1, 2):
        extra = {"etc/systemd/system/pokerkiosk-table.service.d/vm-slow-start.conf":
                 SLOW_START_DROPIN} if n == 1 else {
            "etc/systemd/system/pokerkiosk-table.service.d/vm-headless.conf": HEADLESS_DROPIN}
        dropin = table_root / "etc/systemd/system/pokerkiosk-table.service.d"
        shutil.rmtree(dropin, ignore_errors=True)
        roots.harness(table_root, f"pk-table-{n}", extra)
        card = {f"table-{n}.toml": out / "tables" / f"table-{n}.toml",
                **{name: out / "tables" / name
                   for name in ("ca.crt", "release.pub", "update.toml")}}
        disks[n] = roots.disk(table_root, card, work / f"table-{n}.img")
    roots.log(f"disks ready in {time.monotonic() - t0:.0f} s")
    mqtt, http = free_port(), free_port()
    room.http_port, room.mqtt_port = http, mqtt
    append_d = roots.cmdline(director_root)
    append_t = roots.cmdline(table_root)
    director = Machine("director", work, director_disk, kernel, initrd, append_d,
                       net=(f"user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:{mqtt}-:8883,"
                            f"hostfwd=tcp:127.0.0.1:{http}-:8443"))
    # guestfwd's cmd: form runs once per connection (its tcp: form is one stream for
    # the machine's life, gone at the first reconnect): socat relays each one.
    table_net = "user,id=n0,restrict=on" + "".join(
        f",guestfwd=tcp:{DIRECTOR_ADDR}:{guest}-cmd:socat - TCP:127.0.0.1:{host}"
        for guest, host in ((8883, mqtt), (8443, http)))    # broker; releases over HTTPS
    room.slips = SlipPrinter()       # table 1's receipt printer: a listener on the host
    t1_net = table_net + (f",guestfwd=tcp:{PRINTER_ADDR}:9100-cmd:socat - "
                          f"TCP:127.0.0.1:{room.slips.port}")
    t1 = Machine("table-1", work, disks[1], kernel, initrd, append_t, net=t1_net,
                 display=True, reader=True, memory_mb=1536)
    t2 = Machine("table-2", work, disks[2], kernel, initrd, append_t, net=table_net)
    roots.remove(director_root)
    roots.remove(table_root)
    return director, t1, t2


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="images/vm.sh", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build-cache", action="store_true")
    p.add_argument("--check", action="store_true")
    p.add_argument("--json", action="store_true")
    p.add_argument("--keep", action="store_true")
    p.add_argument("--work", type=Path, default=roots.CACHE / "vm-run")
    p.add_argument("--png", type=Path)
    p.add_argument("--skip", default="", help="steps to leave out, comma-separated (to work "
                   "on one check; the JSON's `ok` then says false)")
    args = p.parse_args(argv)
    start = time.monotonic()
    if args.build_cache:
        for role in ("director", "table"):
            t = time.monotonic()
            tar = roots.role_tar(role)
            roots.log(f"{role} root cached: {tar.name} ({time.monotonic() - t:.0f} s)")
        if not args.check:
            return 0
    if not args.check:
        p.error("nothing to do: --check and/or --build-cache")
    work = args.work
    work.mkdir(parents=True, exist_ok=True)
    room = provision(work)
    machines = build_machines(work, room)
    try:
        result = run_checks(room, *machines, png=args.png,
                            skip=frozenset(filter(None, args.skip.split(","))))
        if args.skip:
            result["skipped"] = args.skip
        if args.keep:
            input("VMs are up; Enter stops them ")
    finally:
        for m in machines:
            m.kill()
    result["wall_s"] = round(time.monotonic() - start, 1)
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:22} {v}")
    return 0 if result.get("ok") else 1


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(f"vm: stopped by signal {signum}")   # the VMs are killed on the way out


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminated)
    try:
        sys.exit(main())
    except (RuntimeError, TimeoutError, subprocess.CalledProcessError) as exc:
        print(f"vm: failed: {exc}", file=sys.stderr)
        sys.exit(2)

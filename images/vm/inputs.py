"""The checks of a dealer's hands on table 1: touch panels made through the kernel's
uinput, a hand played by touch, the card reader as a USB device, GPIO said absent."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import ssl
import threading
import time
from typing import Any

from machine import READER_QMP, Machine
from roots import log
from scenario import VENV_PY, Room, active, unit, wait

# The panels as their kernel drivers announce them (the input device's name, the axes'
# ranges), each checked against a public source:
PANELS: list[dict[str, Any]] = [
    # Pi 7" display on KMS (vc4-kms-dsi-7inch): edt-ft5x06.c names a controller it does
    # not know "generic ft5x06 (%02x)" with its firmware id, 0x79 on this display
    {"name": "generic ft5x06 (79)", "mt": True, "xmax": 799, "ymax": 479},
    # the same display on the firmware's driver: raspberrypi-ts.c, input->name
    # "raspberrypi-ts", RPI_TS_DEFAULT_WIDTH/HEIGHT 800x480, protocol B
    {"name": "raspberrypi-ts", "mt": True, "xmax": 799, "ymax": 479},
    # Pi Touch Display 2: a Goodix controller (goodix.c, "Goodix Capacitive TouchScreen";
    # a Pi 5 prefixes the I2C address, raspberrypi/linux issue 6456), 720x1280 turned
    # to landscape by the overlay's rotation
    {"name": "11-005d Goodix Capacitive TouchScreen", "mt": True, "xmax": 1279,
     "ymax": 719},
    # eGalax USB HDMI panels on usbtouchscreen.c: single touch, ABS 0..2047, named from
    # the USB strings ("eGalax Inc." "USB TouchController")
    {"name": "eGalax Inc. USB TouchController", "mt": False, "xmax": 2047, "ymax": 2047,
     "usb": True, "vendor": 0x0EEF, "product": 0x0001},
    # ILITEK USB HDMI panels on hid-multitouch: protocol B, named from the HID strings
    {"name": "ILITEK ILITEK-TP", "mt": True, "xmax": 16383, "ymax": 9599, "usb": True,
     "vendor": 0x222A, "product": 0x0001},
]
# Inert places on the 800x480 screen (the header's labels), one per panel
INERT = [(120, 30), (316, 40), (500, 50), (600, 30), (760, 60)]
# The buttons of a hand with a bust (tests/table/ui/test_ui.py draws the same screen), each
# with the screen its tap leads to, as the kiosk's `[ui] log_touches` names it
HAND = [("NEW HAND", 57, 442, r"hand \d+ in play"),
        ("BUST", 400, 442, "bust: picked none"),
        ("seat 3", 105, 181, "bust: picked 3, OK on"),
        ("OK", 735, 436, "winner: picked none"),
        ("winner seat 5", 311, 213, r"hand \d+ in play"),
        ("END HAND", 171, 442, r"hand \d+ over|movers")]    # or a move the bust made
FIFO = "/run/pk-touch"
SLACK_PX = 4
MONITOR = "vm-monitor"          # the host's read-only broker login (main.provision)
PRINTER_ADDR = "10.0.2.101"     # table 1's receipt printer, forwarded to SlipPrinter
SLIP_COLUMNS = 42


class SlipPrinter:
    """Table 1's network receipt printer (TCP 9100) as a listener on the host: it keeps
    every byte the kiosk sends, for the project's own ESC/POS reader to decode."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.sock.getsockname()[1])
        self.data = bytearray()
        self._lock = threading.Lock()
        threading.Thread(target=self._serve, name="vm-slip-printer", daemon=True).start()

    def _serve(self) -> None:
        while True:
            conn, _ = self.sock.accept()
            threading.Thread(target=self._read, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket) -> None:
        with conn:
            while chunk := conn.recv(4096):
                with self._lock:
                    self.data += chunk

    def payouts(self) -> list[list[str]]:
        """The whole payout slips printed so far, each as its lines of text."""
        from kiosk.printer import escpos

        with self._lock:
            data = bytes(self.data)
        cut = data.rfind(escpos.CUT)
        if cut < 0:
            return []
        slips = [[ln.text for ln in slip]
                 for slip in escpos.decode(data[:cut + len(escpos.CUT)], SLIP_COLUMNS)]
        return [slip for slip in slips if slip[1:2] == ["PAYOUT"]]


def touch_lines(t: Machine, since: str) -> list[tuple[str, int, int]]:
    """The kiosk's `[ui] log_touches` lines since `since`: (device, x, y)."""
    _, out = t.sh(f"journalctl -u pokerkiosk-table --no-pager -o cat --since '{since}' | "
                  "grep -o 'touch: .* at [0-9]*,[0-9]*'")
    got = []
    for line in out.splitlines():
        dev, _, place = line.removeprefix("touch: ").rpartition(" at ")
        x, _, y = place.partition(",")
        got.append((dev, int(x), int(y)))
    return got


def owner(device: str) -> str:
    """The /dev/input node a Kivy touch came from: probesysfs names a provider by its
    config key with the node for %(name)s ("event3", "usbtouch_event5")."""
    return device.rsplit("_", 1)[-1]


def guest_now(t: Machine) -> str:
    return t.sh("date '+%Y-%m-%d %H:%M:%S'")[1].strip()


def tap(t: Machine, panel: int, x: int, y: int) -> None:
    rc, out = t.sh(f"echo 'tap {panel} {x} {y}' > {FIFO}", timeout=60)
    if rc != 0:
        raise RuntimeError(f"pk-touch: {out[-300:]}")


# a screen's deadline after its tap: the niced, emulated kiosk beside four test workers
# once took over 240 s a frame; the suite ends well inside this and the kiosk catches up
SCREEN_WAIT_S = 1500


def panels_up(t: Machine) -> dict[str, str]:
    """pk-touch's panels created, and the kiosk restarted so Kivy probes them."""
    spec = json.dumps(PANELS).replace("'", "")
    t.sh(f"modprobe uinput; rm -f {FIFO} {FIFO}.devices; mkfifo -m 0600 {FIFO}; "
         f"echo '{spec}' > /run/pk-touch.json; "
         f"systemd-run --unit pk-touch /usr/bin/python3 /usr/local/sbin/pk-touch "
         f"/run/pk-touch.json {FIFO}")
    devices = wait("pk-touch's panels", lambda: t.sh(f"cat {FIFO}.devices")[1].strip()
                   if t.sh(f"test -s {FIFO}.devices")[0] == 0 else None, 60)
    nodes: dict[str, str] = json.loads(devices)
    log(f"touch: panels {sorted(nodes.values())}; restarting the kiosk")
    restarted = guest_now(t)
    time.sleep(1)       # the journal's --since counts whole seconds
    t.sh("systemctl restart pokerkiosk-table")
    wait("table 1's kiosk again after the panels", lambda: active(t, "pokerkiosk-table"), 660)
    # READY=1 comes with the first frame queued: its input probed, the kiosk logs the
    # screen once drawn (under load an emulated kiosk took minutes to draw one)
    wait("the kiosk's first screen after the panels", lambda: screens(t, restarted) or None,
         SCREEN_WAIT_S, every=2)
    _, probed = t.sh("journalctl -u pokerkiosk-table -b --no-pager -o cat | "
                     "grep 'ProbeSysfs: device match' || true")
    return nodes | {"_probed": probed.strip()}


class Reports:
    """The host's own subscriber on the director's broker (its login, the room's CA):
    when each of table 1's reports reached the broker, on the host's clock."""

    def __init__(self, room: Room) -> None:
        import paho.mqtt.client as mqtt

        self.seen: list[tuple[float, dict[str, Any]]] = []
        self.plan: dict[str, Any] = {}
        self._lock = threading.Lock()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=MONITOR)
        c.username_pw_set(MONITOR, room.monitor)
        ctx = ssl.create_default_context(cafile=str(room.out / "ca" / "ca.crt"))
        ctx.check_hostname = False
        c.tls_set_context(ctx)
        self.topic = f"pk/v2/{room.event}/table/1/report"
        topics = [(self.topic, 1), (f"pk/v2/{room.event}/table/1/plan", 1)]
        c.on_connect = lambda cl, *_: cl.subscribe(topics)
        c.on_message = self._message
        c.connect("127.0.0.1", room.mqtt_port)
        c.loop_start()
        self.client = c

    def _message(self, _c: Any, _u: Any, msg: Any) -> None:
        with self._lock:
            if msg.topic == self.topic:
                self.seen.append((time.monotonic(), json.loads(msg.payload)))
            else:
                self.plan = json.loads(msg.payload)

    def kinds_after(self, t0: float) -> list[tuple[float, str]]:
        with self._lock:
            return [(at, str(rep.get("kind"))) for at, rep in self.seen if at >= t0]

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def log_events(d: Machine, kinds: list[str]) -> list[dict[str, Any]]:
    """The director's logged events of these kinds, in order."""
    script = ("import sys, msgspec; from kiosk.director.log.store import EventLog;"
              "kinds = set(sys.argv[1:])\n"
              "for e in EventLog('/var/lib/pokerkiosk/event.db').read():\n"
              "    if e.get('kind') in kinds: print(msgspec.json.encode(e).decode())")
    rc, out = d.sh(f"{VENV_PY} -c \"{script}\" " + " ".join(kinds), timeout=300)
    if rc != 0:
        raise RuntimeError(f"reading the director's log: {out[-800:]}")
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def touch(t: Machine, d: Machine, room: Room, res: dict[str, Any]) -> None:
    """Each panel's tap arrives once, at its place; then a hand with a bust by touch.
    Its figures go into `res` as they come, so a failure keeps what was seen."""
    nodes = panels_up(t)
    res["touch_probed"] = nodes.pop("_probed").splitlines()
    since = guest_now(t)
    time.sleep(1)
    for i, (x, y) in enumerate(INERT):
        tap(t, i, x, y)
        time.sleep(2)
    # a loaded kiosk logs its taps late: waited for (the lines that came are checked panel
    # by panel below), then a while for any tap that comes twice
    with contextlib.suppress(TimeoutError):
        wait("a line for each panel's tap", lambda: len(touch_lines(t, since)) >= len(PANELS),
             SCREEN_WAIT_S, every=2)
    time.sleep(5)
    lines = touch_lines(t, since)
    log(f"touch: {len(lines)} tap line(s) for {len(PANELS)} panels")
    res["touch_journal"] = t.sh(f"journalctl -u pokerkiosk-table --no-pager -o cat "
                                f"--since '{since}' | tail -40")[1].splitlines()
    res["touch_lines"] = [f"{dev} {x},{y}" for dev, x, y in lines]
    panels = {}
    for i, p in enumerate(PANELS):
        node = nodes.get(p["name"], "?").rsplit("/", 1)[-1]
        mine = [(x, y) for dev, x, y in lines if owner(dev) == node]
        want = INERT[i]
        panels[p["name"]] = len(mine) == 1 and all(
            abs(a - b) <= SLACK_PX for a, b in zip(mine[0], want, strict=True))
    strays = [dev for dev, _, _ in lines if owner(dev) not in
              {n.rsplit("/", 1)[-1] for n in nodes.values()}]
    res["touch_panels"] = panels
    res["touch_strays"] = strays             # a tap that came twice (SDL's mouse, say)
    hand_by_touch(t, d, room, res)


def screens(t: Machine, since: str) -> list[str]:
    """The screens the kiosk logged since `since` ("": this boot), in order (its
    `[ui] log_touches`)."""
    when = f"--since '{since}'" if since else "-b"
    _, out = t.sh(f"journalctl -u pokerkiosk-table --no-pager -o cat {when} | "
                  "grep -o 'screen: .*' || true")
    return [line.removeprefix("screen: ") for line in out.splitlines()]


def tap_to(t: Machine, since: str, step: tuple[str, int, int, str]) -> tuple[str, float]:
    """One tap of the hand, sent once the screen it is meant for is up (the last step's
    screen logged), then waited on until the screen it leads to is logged. An emulated
    kiosk under load takes many seconds a frame: a tap timed by the clock can meet the
    screen before, which a tap timed by the kiosk's own word cannot. Returns the step as
    seen and when (host clock) its tap was sent."""
    name, x, y, leads_to = step
    seen = len(screens(t, since))
    sent = time.monotonic()
    tap(t, 0, x, y)
    got = wait(f"the screen after {name} ({leads_to})", lambda: next(
        (ln for ln in screens(t, since)[seen:] if re.match(leads_to, ln)), None),
        SCREEN_WAIT_S, every=1)
    return f"{name} -> {got}", sent


def hand_by_touch(t: Machine, d: Machine, room: Room, res: dict[str, Any]) -> None:
    """NEW HAND, a bust of seat 3 won by seat 5, END HAND, on the Pi 7" panel."""
    kinds = ["hand_started", "busted", "hand_ended"]
    before = {e.get("report") for e in log_events(d, kinds) if e.get("table") == 1}
    reports = Reports(room)
    since = guest_now(t)            # the journal's window if the hand fails before it starts
    steps: list[str] = []
    res["touch_steps"] = steps
    try:
        wait("the host's subscriber", lambda: reports.client.is_connected(), 30, every=1)
        wait("the kiosk's screen before the hand", lambda: screens(t, "") or None, 60,
             every=1)
        time.sleep(1)       # the journal's --since counts whole seconds
        since = guest_now(t)
        t0 = time.monotonic()
        step, tapped = tap_to(t, since, HAND[0])
        steps.append(step)
        first = wait("table 1's hand_started at the broker",
                     lambda: reports.kinds_after(t0), 60, every=0.05)
        res["touch_to_report_ms"] = round((first[0][0] - tapped) * 1000, 1)
        for each in HAND[1:]:
            steps.append(tap_to(t, since, each)[0])
        wait("table 1's bust and hand_ended at the broker",
             lambda: {"bust", "hand_ended"} <= {k for _, k in reports.kinds_after(t0)}, 180,
             every=1)
        res.update(slip_at_table(room, reports))
    finally:
        res["touch_reports"] = [k for _, k in reports.kinds_after(0)]
        res["touch_hand_journal"] = t.sh(
            f"journalctl -u pokerkiosk-table --no-pager -o cat --since '{since}' | "
            "grep -v 'card reader' | tail -30")[1].splitlines()
        reports.close()
    time.sleep(5)
    new = [e for e in log_events(d, kinds) if e.get("table") == 1
           and e.get("report") not in before]
    got = [e["kind"] for e in new]
    ids = [e.get("report") for e in new]
    res["touch_hand_events"] = got
    res["touch_hand_ok"] = (got.count("hand_started") == 1 and got.count("hand_ended") == 1
                            and got.count("busted") == 1 and len(set(ids)) == len(ids)
                            and any(e.get("seat") == 3 for e in new if e["kind"] == "busted"))


def slip_at_table(room: Room, reports: Reports) -> dict[str, Any]:
    """The bust was in the money (every place is paid): table 1's printer printed its
    payout slip with the player, the place and the amount the plan names."""
    bust = wait("the bust's place in table 1's plan", lambda: next(
        (b for b in reports.plan.get("busts") or [] if b.get("place")), None), 120)
    try:
        slips = wait("the payout slip at table 1's printer", room.slips.payouts, 120)
    except TimeoutError:
        slips = []
    n = int(bust["place"])
    place = f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
    ok = [slip for slip in slips if bust.get("name", "?") in slip
          and any(t.startswith("Place") and t.endswith(place) for t in slip)
          and any(t.startswith("To pay") and t.endswith(f"{bust.get('prize', 0):,}")
                  for t in slip)]
    return {"printer_slip": slips[0] if slips else [], "printer_slip_ok":
            len(slips) == 1 and len(ok) == 1 and int(bust.get("prize") or 0) > 0}


# ------------------------------------------------------------------------- card reader
def reader_opens(t: Machine) -> int:
    _, out = t.sh("journalctl -u pokerkiosk-table -b --no-pager -o cat | "
                  "grep -c 'card reader open on /dev/serial/by-id/' || true")
    return int(out.strip() or 0)


def send(t: Machine, data: bytes) -> None:
    """Bytes into the reader's chardev, as the reader's UART would send them."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(str(t.reader_socket()))
        s.sendall(data)
        time.sleep(0.5)


def cards_at_table_1(d: Machine) -> list[tuple[str, str]]:
    """(player, card) of the players seated at table 1 and still playing."""
    events = log_events(d, ["registered", "seated", "busted"])
    card = {e["player"]: e.get("card") for e in events if e["kind"] == "registered"}
    where: dict[str, int] = {}
    for e in events:
        if e["kind"] == "seated":
            where[e["player"]] = e["table"]
        elif e["kind"] == "busted":
            where.pop(e["player"], None)
    return [(p, str(card[p])) for p, tab in where.items() if tab == 1 and card.get(p)]


def checkins(d: Machine) -> list[str]:
    return [e["player"] for e in log_events(d, ["checked_in", "arrived"])
            if e.get("table") == 1]


def reader(t: Machine, d: Machine) -> dict[str, Any]:
    """A card checks its player in; garbage and half a line change nothing; the reader
    unplugged and plugged back (QMP) and the next card still reads, the kiosk unbroken."""
    try:
        wait("the kiosk's reader open", lambda: reader_opens(t) >= 1, 120)
    except TimeoutError:
        _, seen = t.sh("ls -l /dev/serial/by-id/ /dev/ttyUSB* 2>&1; lsmod | grep -E "
                       "'ftdi|xhci|usbserial'; dmesg | grep -iE 'usb|ftdi' | tail -15")
        usb = t.qmp("human-monitor-command", **{"command-line": "info usb"})
        raise TimeoutError(f"the reader never opened: {seen[-1500:]} QEMU: {usb}") from None
    pid = unit(t, "pokerkiosk-table", "MainPID")["MainPID"]
    (a, card_a), (b, card_b) = cards_at_table_1(d)[:2]
    base = checkins(d)
    send(t, card_a.encode() + b"\r\n")
    got = wait("the card's check-in in the log", lambda: checkins(d)[len(base):] or None, 90)
    res: dict[str, Any] = {"reader_checkin_ok": got == [a]}
    send(t, b"\x00\xff!!not a card!!\r\n")
    send(t, card_b[:3].encode())                 # half a line, then the reader is pulled
    time.sleep(8)
    res["reader_noise_ignored"] = checkins(d)[len(base):] == [a]
    opens = reader_opens(t)
    t.qmp("device_del", id=READER_QMP["id"])
    wait("ttyUSB gone", lambda: t.sh("test -e /dev/ttyUSB0")[0] != 0, 60)
    time.sleep(3)
    t.qmp("device_add", **READER_QMP)
    wait("the kiosk's reader open again", lambda: reader_opens(t) > opens, 120)
    send(t, card_b.encode() + b"\r\n")
    got = wait("the second card's check-in",
               lambda: (c := checkins(d)[len(base):])[1:] and c, 90)
    after = unit(t, "pokerkiosk-table", "MainPID")["MainPID"]
    res["reader_replug_ok"] = got == [a, b] and after == pid
    res["reader_path"] = t.sh("readlink -f /dev/serial/by-id/*PKREADER1*")[1].strip()
    return res


# ------------------------------------------------------------------------------- GPIO
def gpio(t: Machine) -> dict[str, Any]:
    """No GPIO chip with the buttons' lines in a VM: the journal and the doctor say so."""
    _, journal = t.sh("journalctl -u pokerkiosk-table -b --no-pager -o cat | "
                      "grep -m1 'buttons: no GPIO chip' || true")
    _, doctor = t.sh("/opt/pokerkiosk/ab/current/bin/pokerkiosk doctor --config "
                     "/etc/pokerkiosk/table.toml > /run/pk-doctor.txt 2>&1; "
                     "grep -m1 'buttons' /run/pk-doctor.txt || tail -5 /run/pk-doctor.txt",
                     timeout=300)
    return {"gpio_journal": journal.strip(), "gpio_doctor": doctor.strip(),
            "gpio_absent_said": "no GPIO chip" in journal and "no GPIO chip" in doctor}

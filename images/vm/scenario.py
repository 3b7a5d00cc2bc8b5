"""The checks, on the booted VMs: each one a figure in the JSON `images/vm.sh` prints."""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from machine import Machine
from roots import log

T = TypeVar("T")
BOOT_S = 600          # emulated boots are slow: a table's Kivy start alone is minutes
VENV_PY = "/opt/pokerkiosk/venv/bin/python"
ROLLOUT_WHEELS = "root/rollout"    # on the director's disk: the releases main.py built


@dataclass
class Room:
    out: Path
    event: str
    version: str              # the kiosk the cards run
    releases: dict[str, str]  # what the rollout step adds: tampered, broken, good -> version
    http_port: int = 0
    mqtt_port: int = 0
    slips: Any = None         # table 1's printer on the host (inputs.SlipPrinter)
    monitor: str = ""         # the host subscriber's broker password (inputs.Reports)

    def get(self, path: str) -> dict[str, Any]:
        """One of the director's /api/ pages through its forwarded HTTPS port (CA-checked)."""
        ctx = ssl.create_default_context(cafile=str(self.out / "ca" / "ca.crt"))
        ctx.check_hostname = False          # the certificate names 10.0.2.100, not the host
        url = f"https://127.0.0.1:{self.http_port}{path}"
        with urllib.request.urlopen(url, context=ctx, timeout=20) as r:
            return dict(json.loads(r.read()))

    def snapshot(self) -> dict[str, Any]:
        return self.get("/api/snapshot")

    def updates(self) -> dict[int, dict[str, Any]]:
        """Each table's row of the room page's Updates panel (/api/releases)."""
        try:
            return {row["table"]: row for row in self.get("/api/releases")["tables"]}
        except OSError:
            return {}

    def online(self) -> dict[int, bool]:
        try:
            return {t["table"]: t["online"] for t in self.snapshot()["tables"]}
        except OSError:
            return {}


def wait(what: str, probe: Callable[[], T | None], timeout: float, every: float = 3) -> T:
    deadline = time.monotonic() + timeout
    while True:
        got = probe()
        if got:
            return got
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def unit(m: Machine, name: str, *props: str) -> dict[str, str]:
    _, out = m.sh(f"systemctl show {name} " + " ".join(f"-p {p}" for p in props))
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def active(m: Machine, name: str) -> bool:
    return unit(m, name, "ActiveState")["ActiveState"] == "active"


def imported(m: Machine, files: list[str]) -> bool:
    """The card's pokerkiosk/ folder is empty and every file is where the import puts it."""
    rc, out = m.sh("ls -A /boot/firmware/pokerkiosk; for f in " + " ".join(files)
                   + '; do [ -s "$f" ] || echo "missing $f"; done')
    return rc == 0 and out.strip() == ""


def boot_director(room: Room, d: Machine, res: dict[str, Any]) -> None:
    d.start()
    log("director: booting")
    d.wait_agent(BOOT_S)
    wait("the director service", lambda: active(d, "pokerkiosk-director"), BOOT_S)
    wait("the broker", lambda: active(d, "mosquitto"), 120)
    wait("the director's dashboard", lambda: room.online() != {}, BOOT_S)
    res["director_up_s"] = round(time.monotonic() - d.started, 1)
    res["director_import_ok"] = imported(d, [
        "/etc/pokerkiosk/event.toml", "/etc/pokerkiosk/table-logins",
        "/etc/pokerkiosk/release.pub", "/etc/mosquitto/pokerkiosk/passwd",
        "/etc/mosquitto/pokerkiosk/acl", "/etc/mosquitto/pokerkiosk/server.key"])
    _, listen = d.sh("ss -ltnH 'sport = :8883' | wc -l")
    res["broker_tls_listening"] = int(listen.strip() or 0) >= 1
    log(f"director: up in {res['director_up_s']} s")


def ready_s(m: Machine) -> float:
    """Boot (kernel start) to the kiosk's READY=1: the unit's active time, guest clock."""
    props = unit(m, "pokerkiosk-table", "ActiveEnterTimestampMonotonic")
    return round(int(props["ActiveEnterTimestampMonotonic"]) / 1e6, 1)


def boot_tables(room: Room, tables: list[Machine], res: dict[str, Any]) -> None:
    for t in tables:
        t.start()
    log("tables: booting")
    for i, t in enumerate(tables, 1):
        t.wait_agent(BOOT_S)
        wait(f"table {i}'s READY=1", lambda t=t: active(t, "pokerkiosk-table"), BOOT_S)
        res[f"table{i}_ready_s"] = ready_s(t)
        res[f"table{i}_import_ok"] = imported(t, ["/etc/pokerkiosk/table.toml",
                                                  "/etc/pokerkiosk/ca.crt",
                                                  "/etc/pokerkiosk/release.pub"])
    res["table_ready_s"] = res["table1_ready_s"]
    got = wait("both tables online on the director",
               lambda: (o := room.online()) and o.get(1) and o.get(2) and o, 300)
    res["table_online"] = {str(k): v for k, v in got.items()}
    log(f"tables: ready at {res['table1_ready_s']} / {res['table2_ready_s']} s, online")


def screenshot(t: Machine, work: Path, room: Room, png: Path | None) -> dict[str, Any]:
    """QEMU's screendump of the kiosk's KMS display, as a PNG, and what it shows."""
    from PIL import Image

    _rc, kivy = t.sh("journalctl -b -u pokerkiosk-table --no-pager | "
                    "grep -E 'Window: Provider|GL: (Backend|OpenGL renderer)|kmsdrm' | head")
    # READY=1 comes with the first frame queued; under TCG and llvmpipe it reaches the
    # KMS plane seconds later: dump until the screen is more than one colour.
    deadline = time.monotonic() + 180
    while True:
        img = Image.open(t.screendump(work / "table-1.ppm"))
        img.load()
        if len(img.convert("RGB").getcolors(1 << 20) or []) > 1 or time.monotonic() > deadline:
            break
        time.sleep(10)
    out = work / "table-1-kms.png"
    img.save(out)
    if png is not None:
        shutil.copy(out, png)
    colours = len(img.convert("RGB").getcolors(1 << 20) or [])
    text = ocr(out)
    want = {"table": "T1", "event": room.event.upper(), "clock": ":"}
    seen = {k: v in text.upper() for k, v in want.items()} if text is not None else None
    return {"kms_screenshot": str(out), "screen_size": list(img.size),
            "screen_colours": colours, "screen_text_seen": seen,
            "kivy_window": [ln.split("]", 1)[-1].strip() for ln in kivy.splitlines()]}


def ocr(png: Path) -> str | None:
    """The screenshot's text by tesseract, where installed (the OCR is only a check)."""
    if shutil.which("tesseract") is None:
        return None
    proc = subprocess.run(["tesseract", str(png), "-", "--psm", "11"], capture_output=True,
                          text=True, check=False, timeout=120)
    return proc.stdout


def watchdog(t: Machine) -> dict[str, Any]:
    """SIGSTOP the kiosk: systemd's watchdog (WatchdogSec) kills and restarts it."""
    before = unit(t, "pokerkiosk-table", "MainPID", "NRestarts", "WatchdogUSec")
    t.sh(f"kill -STOP {before['MainPID']}")
    stopped = time.monotonic()

    def restarted() -> dict[str, str] | None:
        now = unit(t, "pokerkiosk-table", "MainPID", "NRestarts", "ActiveState")
        fresh = now["MainPID"] not in ("0", before["MainPID"])
        return now if fresh and now["ActiveState"] == "active" else None

    after = wait("the kiosk restarted by its watchdog", restarted, 600, every=5)
    _, journal = t.sh("journalctl -b -u pokerkiosk-table --no-pager | grep -c 'Watchdog timeout'")
    return {"watchdog_restart_ok": int(after["NRestarts"]) > int(before["NRestarts"])
            and int(journal.strip() or 0) >= 1,
            "watchdog_sec": int(before["WatchdogUSec"].rstrip("s") or 0)
            if before["WatchdogUSec"].rstrip("s").isdigit() else before["WatchdogUSec"],
            "watchdog_restart_s": round(time.monotonic() - stopped, 1)}


def outbox_ids(t: Machine) -> list[str]:
    rc, out = t.sh("sqlite3 /var/lib/pokerkiosk/table-2.db 'SELECT id FROM outbox ORDER BY seq'")
    return out.split() if rc == 0 else []


def answered(t: Machine, since: str) -> list[str]:
    """The report ids the headless kiosk answered with (its stdout, in the journal)."""
    _, out = t.sh(f"journalctl -u pokerkiosk-table --no-pager -o cat --since '{since}' | "
                  "grep '^{'")
    ids = []
    for line in out.splitlines():
        try:
            report = json.loads(line).get("report")
        except ValueError:
            continue
        if report:
            ids.append(str(report))
    return ids


def applied(d: Machine, ids: list[str]) -> dict[str, int]:
    """How many events of the director's log name each report id."""
    script = ("import json, sys; from kiosk.director.log.store import EventLog;"
              "ids = sys.argv[1:]; n = dict.fromkeys(ids, 0)\n"
              "for e in EventLog('/var/lib/pokerkiosk/event.db').read():\n"
              "    r = e.get('report')\n"
              "    if r in n: n[r] += 1\n"
              "print(json.dumps(n))")
    rc, out = d.sh(f"{VENV_PY} -c \"{script}\" " + " ".join(ids), timeout=300)
    if rc != 0:
        raise RuntimeError(f"reading the director's log: {out[-800:]}")
    return dict(json.loads(out.strip().splitlines()[-1]))


def power_cut(d: Machine, t: Machine, room: Room) -> dict[str, Any]:
    """Director unreachable, reports queued on the table's disk, QEMU killed, boot again."""
    d.sh("systemctl stop mosquitto")
    wait("the table to see the broker gone",
         lambda: "offline" in t.sh("journalctl -b -u pokerkiosk-table --no-pager | tail -5")[1]
         or outbox_ids(t) is not None, 60)
    for cmd in ("new", "end") * 3:
        t.sh(f"echo {cmd} > /run/pokerkiosk/cmd")
        time.sleep(1)
    queued = wait("6 reports in the outbox", lambda: (ids := outbox_ids(t)) and
                  len(ids) >= 6 and ids, 120)
    log(f"power cut: {len(queued)} reports queued; killing table 2's QEMU")
    t.kill()
    d.sh("systemctl start mosquitto")
    t.start()
    t.wait_agent(BOOT_S)
    after_boot = outbox_ids(t)
    wait("the queued reports acknowledged", lambda: t.alive() and outbox_ids(t) == [], BOOT_S)
    counts = applied(d, queued)
    lost = sum(1 for c in counts.values() if c != 1)
    return {"power_cut_queued": len(queued), "power_cut_kept_on_disk": len(after_boot),
            "power_cut_applied": counts, "power_cut_lost": lost}


def unprovisioned(t: Machine, work: Path) -> dict[str, Any]:
    """A card with no config, on table 1: the kiosk's unit is skipped (its condition), the
    screen says why. Reproduced on the running VM: the config is moved away, then the
    units are started as at boot (the import found nothing; both conditions re-checked)."""
    t.sh("systemctl stop pokerkiosk-table; mv /etc/pokerkiosk/table.toml /root/table.toml;"
         "systemctl start pokerkiosk-unprovisioned pokerkiosk-table")
    time.sleep(5)
    kiosk = unit(t, "pokerkiosk-table", "ActiveState", "ConditionResult", "NRestarts")
    _, why = t.sh("journalctl -b -u pokerkiosk-unprovisioned --no-pager -o cat | tail -3")
    ppm = t.screendump(work / "table-1-unprovisioned.ppm")
    from PIL import Image

    png = work / "table-1-unprovisioned.png"
    Image.open(ppm).save(png)
    text = ocr(png)
    t.sh("systemctl stop pokerkiosk-unprovisioned; mv /root/table.toml /etc/pokerkiosk/;"
         "systemctl start pokerkiosk-table")
    return {"unprovisioned_screenshot": str(png),
            "unprovisioned_kiosk_skipped": kiosk["ConditionResult"] == "no"
            and kiosk["ActiveState"] == "inactive",
            "unprovisioned_logged": "not provisioned" in why,
            "unprovisioned_on_screen": None if text is None else "NOT PROVISIONED" in text.upper()}


def refusals(t: Machine) -> int:
    _, out = t.sh("journalctl -u pokerkiosk-table --no-pager -o cat --since '-10min' | "
                  "grep -c 'broker refused the connection'")
    return int(out.strip() or 0)


def wrong_password(t: Machine, work: Path) -> dict[str, Any]:
    """Table 1 with a wrong broker password: refused, retried, still running, and the
    cause on its screen (the last step: the VMs stop after it)."""
    t.sh("systemctl stop pokerkiosk-table;"
         "sed -i 's/^password = .*/password = \"wrong-password\"/' /etc/pokerkiosk/table.toml;"
         "systemctl start pokerkiosk-table")
    n = wait("two refused logins", lambda: (k := refusals(t)) >= 2 and k, 300, every=5)
    from PIL import Image

    png, text = work / "table-1-login-refused.png", None
    deadline = time.monotonic() + 300      # Kivy's first frame under TCG: a minute or more
    while time.monotonic() < deadline:
        Image.open(t.screendump(work / "table-1-refused.ppm")).save(png)
        text = ocr(png)
        if text is None or "REFUSED" in text.upper():
            break
        time.sleep(10)
    state = unit(t, "pokerkiosk-table", "ActiveState")["ActiveState"]
    return {"wrong_password_refusals": max(n, refusals(t)),
            "wrong_password_still_running": state == "active",
            "wrong_password_screenshot": str(png),
            "wrong_password_on_screen": None if text is None
            else "REFUSED THIS TABLE" in " ".join(text.upper().split())}


def full_disk(d: Machine, t: Machine) -> dict[str, Any]:
    """Table 2's disk filled to the last block a service may use (root keeps its reserve,
    so the journal still writes): an entry is refused and said so, the queued report
    stays, and once space is freed everything reaches the director once."""
    d.sh("systemctl stop mosquitto")
    # a fresh start: SQLite drops its write-ahead log on close, so the next writes grow
    # the file (a reused log could take a few more on a full disk, which loses nothing)
    t.sh("systemctl restart pokerkiosk-table")
    wait("the kiosk back", lambda: active(t, "pokerkiosk-table"), 300)
    t.sh("echo new > /run/pokerkiosk/cmd")
    queued = wait("a queued report", lambda: (ids := outbox_ids(t)) and ids, 120)
    _rc, out = t.sh("avail=$(df --output=avail -B1 /var/lib/pokerkiosk | tail -1);"
                   "fallocate -l $avail /var/lib/pokerkiosk/filler;"
                   "df -B1 --output=avail /var/lib/pokerkiosk | tail -1")
    t.sh("echo end > /run/pokerkiosk/cmd")

    def said() -> str | None:
        _, log = t.sh("journalctl -u pokerkiosk-table --no-pager -o cat --since '-5min' | "
                      "grep -m1 'not saved: DISK FULL'")
        return log.strip() or None

    line = wait("the kiosk to say the disk is full", said, 120, every=3)
    kept = outbox_ids(t)
    t.sh("rm -f /var/lib/pokerkiosk/filler; echo end > /run/pokerkiosk/cmd")
    d.sh("systemctl start mosquitto")
    wait("the queued reports acknowledged", lambda: outbox_ids(t) == [], 300)
    counts = applied(d, queued)
    return {"full_disk_free_bytes": int(out.split()[-1]) if out.split() else None,
            "full_disk_logged": line[-120:], "full_disk_kept": kept == queued,
            "full_disk_lost": sum(1 for c in counts.values() if c != 1)}


def rollout(d: Machine, t: Machine, room: Room) -> dict[str, Any]:
    """On the director, as its operator would: three releases added, one of them then
    changed on disk; each rolled out to table 2 only and let go there now. Table 2 refuses
    the tampered one, takes the broken one and goes back by itself, then downloads the
    good one over the director's HTTPS, installs it beside the running kiosk and switches
    between hands under its supervisor. Table 1 is not asked and stays. Then a hand on the
    new version reaches the director."""
    v, t0 = room.releases, time.monotonic()
    store = "/var/lib/pokerkiosk/releases"
    bad = f"{store}/{v['tampered']}/poker_kiosk-{v['tampered']}-py3-none-any.whl"
    rc, out = d.sh(" && ".join(
        [f"pokerkiosk release add /{ROLLOUT_WHEELS}/poker_kiosk-{version}-py3-none-any.whl"
         for version in v.values()] + [f"truncate -s -10 {bad}", f"printf tampered!! >> {bad}"]),
        timeout=900)
    if rc != 0:
        raise RuntimeError(f"release add on the director: {out[-800:]}")
    res: dict[str, Any] = {"rollout_added_s": round(time.monotonic() - t0, 1)}
    seen: list[str] = []
    res["rollout_refused_reason"] = to_table_2(d, room, v["tampered"], "refused", seen)
    res["rollout_rolled_back_reason"] = to_table_2(d, room, v["broken"], "rolled back", seen)
    t1 = time.monotonic()
    to_table_2(d, room, v["good"], "switched", seen)
    res["rollout_s"] = round(time.monotonic() - t1, 1)
    _, link = t.sh("readlink /opt/pokerkiosk/ab/current")
    # the new environment sees Debian's packages as the first did (python3-lgpio on a Pi 5)
    _, system = t.sh("grep -c '^include-system-site-packages = true' "
                     "/opt/pokerkiosk/ab/current/pyvenv.cfg")
    _, lines = t.sh("cat /opt/pokerkiosk/ab/switches.jsonl")
    switches = [json.loads(x) for x in lines.splitlines() if x.startswith("{")]
    since = t.sh("date '+%Y-%m-%d %H:%M:%S'")[1].strip()
    t.sh("echo new > /run/pokerkiosk/cmd; sleep 2; echo end > /run/pokerkiosk/cmd")
    ids = wait("the new version's answers", lambda: len(got := answered(t, since)) >= 2
               and got[-2:], 120)
    played = wait("its reports in the director's log", lambda: set(
        applied(d, ids).values()) == {1}, 300, every=10)
    kept = room.updates().get(1, {}).get("version") == room.version
    res.update({
        "rollout_states": seen, "rollout_link": link.strip(),
        "rollout_env_system_site": system.strip() == "1",
        "rollout_switches": len(switches),       # the broken one's and the good one's
        "rollout_switched_mid_hand": sum(bool(s.get("in_hand")) for s in switches),
        "rollout_reports_waiting": sum(int(s.get("pending") or 0) for s in switches),
        "rollout_played_after": bool(played), "rollout_table1_kept": kept})
    res["rollout_ok"] = (link.strip() == f"envs/{v['good']}" and len(switches) == 2
                         and res["rollout_env_system_site"]
                         and res["rollout_switched_mid_hand"] == 0
                         and res["rollout_reports_waiting"] == 0 and kept
                         and "wrong hash" in res["rollout_refused_reason"]
                         and "exited" in res["rollout_rolled_back_reason"])
    return res


def to_table_2(d: Machine, room: Room, version: str, state: str, seen: list[str]) -> str:
    """`version` rolled out to table 2 and let go now; waits for `state` (the room page's
    Updates panel), fails on another end state of that version; the row's reason."""
    rc, out = d.sh(f"pokerkiosk release rollout {version} --tables 2 && "
                   "pokerkiosk release now 2", timeout=300)
    if rc != 0:
        raise RuntimeError(f"release rollout {version}: {out[-800:]}")

    def ended() -> dict[str, Any] | None:
        row = room.updates().get(2, {})
        line = f"{row.get('version')} {row.get('state')} {row.get('reason', '')}".strip()
        if not seen or seen[-1] != line:
            seen.append(line)
            log(f"rollout: table 2 {line}")
        got, why = row.get("state"), str(row.get("reason", ""))
        mine = row.get("version") == version if got == "switched" else version in why
        if mine and got == state:
            return row
        if mine and got in ("refused", "rolled back", "switched"):
            raise RuntimeError(f"table 2 {got} {version}, not {state}: {why}")
        return None

    return str(wait(f"table 2: {version} {state}", ended, 900, every=5)["reason"])


def journal_tails(machines: list[Machine], lines: int = 40) -> dict[str, str]:
    """The last lines of each booted machine's own units, so a failed step says why (the
    JSON is all a CI run keeps)."""
    tails: dict[str, str] = {}
    for m in machines:
        try:
            _, out = m.sh(f"journalctl -b -1 --no-pager -o short-monotonic -n {lines} "
                          "-u pokerkiosk-table 2>/dev/null | sed 's/^/[previous boot] /'; "
                          f"journalctl -b --no-pager -o short-monotonic -n {lines} "
                          "-u 'pokerkiosk-*' -u mosquitto -u pk-touch; "
                          "systemctl --failed --no-legend", timeout=60)
        except Exception as exc:      # not booted, or its agent gone: say that instead
            out = f"(no journal: {exc})"
        tails[m.name] = out[-8000:]
    return tails


# a dealer's inputs each leave the table as it was: one failing still lets the next run
ON_FAILURE_GO_ON = frozenset({"touch", "reader", "gpio"})


def run_checks(room: Room, d: Machine, t1: Machine, t2: Machine,
               png: Path | None = None, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Every check in order; a failure is reported in the JSON with its reason."""
    import inputs  # its checks use this module's helpers

    res: dict[str, Any] = {"arch": None, "booted_roles": []}
    steps: list[tuple[str, Callable[[], None]]] = [
        ("director", lambda: boot_director(room, d, res)),
        ("tables", lambda: boot_tables(room, [t1, t2], res)),
        ("screen", lambda: res.update(screenshot(t1, d.work, room, png))),
        ("touch", lambda: inputs.touch(t1, d, room, res)),
        ("reader", lambda: res.update(inputs.reader(t1, d))),
        ("gpio", lambda: res.update(inputs.gpio(t1))),
        ("watchdog", lambda: res.update(watchdog(t1))),
        ("power_cut", lambda: res.update(power_cut(d, t2, room))),
        ("full_disk", lambda: res.update(full_disk(d, t2))),
        ("rollout", lambda: res.update(rollout(d, t2, room))),
        ("unprovisioned", lambda: res.update(unprovisioned(t1, d.work))),
        ("wrong_password", lambda: res.update(wrong_password(t1, d.work))),
    ]
    for name, step in steps:
        if name in skip:
            continue
        t = time.monotonic()
        try:
            step()
        except Exception as exc:
            res.setdefault("failed", f"{name}: {exc}")
            res[f"{name}_failed"] = str(exc)
            log(f"FAILED {name}: {exc}")
            res.setdefault("failed_journal", journal_tails([d, t1, t2]))
            if name not in ON_FAILURE_GO_ON:
                break
            continue
        res[f"{name}_step_s"] = round(time.monotonic() - t, 1)
        if name == "director":
            res["arch"] = d.sh("uname -m")[1].strip()
            res["booted_roles"].append("director")
        if name == "tables":
            res["booted_roles"] += ["table", "table"]
    res["import_ok"] = all(res.get(k) for k in ("director_import_ok", "table1_import_ok",
                                                "table2_import_ok"))
    res["ok"] = bool("failed" not in res and res["import_ok"] and res.get("watchdog_restart_ok")
                     and res.get("power_cut_lost") == 0 and res.get("full_disk_lost") == 0
                     and res.get("rollout_ok")
                     and res.get("wrong_password_still_running")
                     and all((res.get("touch_panels") or {"none": False}).values())
                     and res.get("touch_hand_ok") and res.get("reader_checkin_ok")
                     and res.get("reader_replug_ok") and res.get("gpio_absent_said")
                     and res.get("printer_slip_ok"))
    return res

"""Every path an operator walks on the command line: one line and a non-zero exit for a
mistake, never a traceback, and nothing left running or lying around afterwards."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from waiting import wait_for

from kiosk.base.texts import Msg, english
from kiosk.config.files import EventConfig
from kiosk.director.service import Director
from kiosk.mqtt.broker import free_port


def pokerkiosk(*args: str, env: dict[str, str] | None = None, timeout: float = 60,
               stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, input=stdin, check=False)


def one_line_error(proc: subprocess.CompletedProcess[str], text: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout
    errors = [x for x in proc.stderr.splitlines() if "error:" in x]
    assert len(errors) == 1 and text in errors[0], proc.stderr


def mosquittos(marker: Path) -> list[str]:
    """Command lines of running Mosquitto processes whose config lies under `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError):
            continue
        if "mosquitto" in cmd and str(marker) in cmd:
            found.append(cmd)
    return found


def demo_env(tmp_path: Path) -> dict[str, str]:
    """No display (no kiosk window) and a private TMPDIR to see what is left behind."""
    tmp = tmp_path / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["TMPDIR"] = str(tmp)
    return env


@pytest.mark.parametrize(("args", "text"), [
    (["demo", "--http", "nonsense"], "expected host:port"),
    (["demo", "--http", "127.0.0.1:99999"], "port up to 65535"),
    (["demo", "--hand-seconds", "0"], "must be more than 0, got 0"),
    (["demo", "--hand-seconds", "-3"], "must be more than 0, got -3"),
    (["demo", "--players", "0"], "must be more than 0"),
    (["director"], "the following arguments are required: --config"),
    (["bogus"], "invalid choice: 'bogus'"),
])
def test_bad_arguments_are_one_line(args: list[str], text: str) -> None:
    started = time.monotonic()
    one_line_error(pokerkiosk(*args, timeout=20), text)
    assert time.monotonic() - started < 15


def test_unwritable_folders_are_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = demo_env(tmp_path)
    one_line_error(pokerkiosk("demo", "--http", "127.0.0.1:0", "--dir", str(blocker / "x"),
                              env=env), "a-file/x")
    one_line_error(pokerkiosk("provision", "--tables", "2", "--event", "e", "--out",
                              str(blocker / "room")), "cannot use --out")
    assert mosquittos(tmp_path) == []


def test_a_taken_dashboard_port_is_named_before_anything_starts(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        proc = pokerkiosk("demo", "--http", f"127.0.0.1:{port}", env=demo_env(tmp_path))
    one_line_error(proc, f"cannot serve the dashboard on 127.0.0.1:{port}")
    assert "dashboard " not in proc.stdout          # no URL pointing at the other program
    assert mosquittos(tmp_path) == []
    assert list((tmp_path / "tmp").iterdir()) == []


def test_a_director_on_a_taken_dashboard_port_says_so_and_exits_cleanly(
        director_factory) -> None:
    """The port is found taken only once the director runs: its shutdown must not trip
    over what never started, and the real reason is the one line the operator reads."""
    director = director_factory(players=4, web=True)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", director.http_port))
        squatter.listen()
        proc = director.run_to_exit()
    one_line_error(proc, f"cannot serve the dashboard on 127.0.0.1:{director.http_port}")
    assert "notifier" not in proc.stderr and "UnboundLocalError" not in proc.stderr
    assert "cannot write the event log" not in proc.stderr


def test_a_demo_failing_at_start_takes_its_broker_along(tmp_path: Path) -> None:
    proc = pokerkiosk("demo", "--http", "127.0.0.1:0", "--profile", "no-such-profile",
                      env=demo_env(tmp_path))
    one_line_error(proc, "events.0.profile: no-such-profile: no such rule profile")
    assert mosquittos(tmp_path) == []
    assert list((tmp_path / "tmp").iterdir()) == [], "temporary folders left behind"


@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGTERM, signal.SIGKILL],
                         ids=["hangup", "term", "kill"])
def test_no_broker_survives_the_demo(tmp_path: Path, sig: signal.Signals) -> None:
    out = tmp_path / "demo.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "demo", "--http",
                                 "127.0.0.1:0", "--players", "18", "--hand-seconds", "1"],
                                stdout=sink, stderr=subprocess.STDOUT, env=demo_env(tmp_path))
    try:
        wait_for(lambda: "Ctrl-C" in out.read_text() or proc.poll() is not None, timeout=120)
        assert len(mosquittos(tmp_path)) == 1, out.read_text()
        if sig == signal.SIGHUP:    # the README's demo login works in the demo
            url = re.search(r"^dashboard\s+(\S+)", out.read_text(), re.M)
            assert url, out.read_text()
            req = urllib.request.Request(url.group(1) + "api/login", method="POST",
                                         data=b'{"user": "floor", "password": "floor"}',
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                assert json.load(r)["user"] == "floor"
        proc.send_signal(sig)
        code = proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
    wait_for(lambda: mosquittos(tmp_path) == [], timeout=10)
    if sig != signal.SIGKILL:     # a killed process cleans nothing; its broker still dies
        assert code == 0, out.read_text()
        assert list((tmp_path / "tmp").iterdir()) == [], "temporary folders left behind"
        assert "Traceback" not in out.read_text() and " WARNING " not in out.read_text()


def test_unreachable_broker_is_logged_and_a_clean_stop_is_quiet(tmp_path: Path) -> None:
    port = free_port()                               # nothing listens here
    cfg = tmp_path / "event.toml"
    cfg.write_text(f'[event]\nname = "quiet"\n[broker]\nurl = "mqtt://127.0.0.1:{port}"\n'
                   '[director]\ndb = "event.db"\n')
    log = tmp_path / "director.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "director", "--config",
                                 str(cfg), "--no-web"], stdout=sink, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "cannot reach the broker" in log.read_text(), timeout=20)
        assert log.read_text().count("cannot reach the broker") == 1   # not every retry
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0


def test_a_clean_stop_logs_no_warning(director_factory) -> None:  # type: ignore[no-untyped-def]
    d = director_factory(players=9).start()
    d.stop()
    assert "WARNING" not in d.log_text(), d.log_text()


def test_csv_lines_with_extra_fields_are_refused(tmp_path: Path) -> None:
    d = Director(EventConfig(name="csv", db=str(tmp_path / "e.db")))
    added, errors = d.import_csv("name,card\nAnna,A1\nBo,B2,extra\nCy,C3\n")
    assert added == 2
    # a message key with its arguments; the command line logs its English
    assert [(m.key, m.args) for m in errors if isinstance(m, Msg)] == [
        ("import.fields", {"line": 3, "fields": 3, "columns": 2})]
    assert [english(m) if isinstance(m, Msg) else m for m in errors] == [
        "line 3: 3 fields, but the header names 2; not imported"]
    d.log.close()


def test_help_lists_every_command_and_the_headless_table() -> None:
    proc = pokerkiosk("help")
    assert proc.returncode == 0
    for command in ("demo", "director", "table", "floor-user", "new-event", "doctor",
                    "provision", "--headless"):
        assert command in proc.stdout
    table = pokerkiosk("help", "table")
    assert table.returncode == 0 and "--headless" in table.stdout

"""docs/install.md's "Try it on one PC" section, run command by command as written:
provision, the provisioned broker, the director, doctor, and a headless table."""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from waiting import wait_for

from kiosk.mqtt.broker import free_port, stop_process, wait_port

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "install.md"


def guide_commands() -> list[str]:
    text = GUIDE.read_text()
    section = text.split("<!-- one-pc:start -->")[1].split("<!-- one-pc:end -->")[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block
    return [c.strip() for c in block.group(1).replace("\\\n", " ").splitlines() if c.strip()]


class Lines:
    """The headless table's JSON answers, read by a thread (select() cannot see lines
    already sitting in Python's buffer)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.q: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, args=(proc,), daemon=True).start()

    def _pump(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.q.put(line)

    def next_json(self, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                break
            if line.startswith("{"):
                return json.loads(line)
        raise AssertionError("the headless table did not answer")


def test_the_one_pc_walkthrough_works_as_written(tmp_path: Path) -> None:
    mqtt, http = free_port(), free_port()
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}/usr/sbin{os.pathsep}{env['PATH']}"
    env.pop("DISPLAY", None)
    background: list[subprocess.Popen[bytes]] = []
    commands = [c.replace("1883", str(mqtt)).replace("8080", str(http))
                for c in guide_commands()]
    assert commands[-1].startswith("pokerkiosk table ") and "--headless" in commands[-1]
    try:
        for n, cmd in enumerate(commands[:-1]):
            if cmd.endswith("&"):
                log = (tmp_path / f"bg-{n}.log").open("wb")
                background.append(subprocess.Popen(["bash", "-c", cmd[:-1]], cwd=tmp_path,
                                                   env=env, stdout=log,
                                                   stderr=subprocess.STDOUT))
                if cmd.startswith("mosquitto"):
                    wait_port(mqtt)
                else:                    # the director: a person waits for it too
                    wait_for(lambda n=n: "connected to" in
                             (tmp_path / f"bg-{n}.log").read_text(), timeout=30)
                continue
            done = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=120, check=False)
            assert done.returncode == 0, (cmd, done.stdout, done.stderr)
            if cmd.startswith("pokerkiosk doctor"):
                lines = done.stdout.splitlines()
                assert all(x.startswith(("OK ", "WARN clock", "WARN qr")) for x in lines), \
                    lines
                assert any(x.startswith("WARN qr: ") and "127.0.0.1" in x for x in lines)
                assert any("the director of try-out serves" in x for x in lines), lines
        table = subprocess.Popen(shlex.split(commands[-1]), cwd=tmp_path, env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=(tmp_path / "table.log").open("w"), text=True)
        answers = Lines(table)
        try:
            def seated() -> bool:
                assert table.stdin is not None
                table.stdin.write("view\n")
                table.stdin.flush()
                view = answers.next_json()
                return sum(1 for s in view["seats"] if s.get("name")) == 4
            wait_for(seated, timeout=30, step=0.5)
            for word in ("new", "end"):
                assert table.stdin is not None
                table.stdin.write(word + "\n")
                table.stdin.flush()
                assert answers.next_json()["ok"]

            def dealt() -> bool:
                with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/snapshot",
                                            timeout=5) as r:
                    snap = json.load(r)
                return any(t["table"] == 1 and t["hand"] == 1 for t in snap["tables"])
            wait_for(dealt, timeout=20)
            assert table.stdin is not None
            table.stdin.write("quit\n")
            table.stdin.flush()
            assert table.wait(20) == 0
        finally:
            if table.poll() is None:
                table.kill()
    finally:
        for proc in reversed(background):
            stop_process(proc)       # type: ignore[arg-type]

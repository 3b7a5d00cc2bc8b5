"""A table updates many times over a season on one SD card: once a switch is kept, the
supervisor removes what no link runs any more, and never what is in use or on its way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))
from update_bench import BASE, first_env
from waiting import eventually

from kiosk.releases.ab import Install


def folder(root: Path, rel: str, age_s: float = 0.0, at: float | None = None) -> None:
    """A version's folder, made `age_s` ago or at the time `at`."""
    path = root / rel
    path.mkdir(parents=True)
    (path / "payload").write_bytes(b"x" * 1000)
    if age_s or at is not None:
        then = time.time() - age_s if at is None else at
        os.utime(path, (then, then))


def test_a_kept_switch_removes_the_versions_no_link_runs(tmp_path: Path) -> None:
    root, etc = tmp_path / "opt", tmp_path / "etc"
    etc.mkdir()
    first_env(root)                                   # BASE, which the switch moves to
    install = Install(root)
    for rel in ("envs/0.0.7", "envs/0.0.9", "downloads/0.0.9", f"downloads/{BASE}"):
        folder(root, rel, age_s=3600)                 # an old season's leftovers
    install.begin_trial("0.0.9", BASE, {"in_hand": False, "pending": 0})
    began = (install.trial() or {})["at"]             # the updater at work on the next one:
    folder(root, "envs/0.2.0", at=began + 1)          # written after the switch began (the
    folder(root, "downloads/0.2.0", at=began + 1)     # file system's clock may lag time())
    (etc / "table.toml").write_text(
        f'[table]\nnumber = 4\nroom = "ab"\nstate_dir = "{tmp_path / "state"}"\n\n'
        '[broker]\nurl = "mqtt://127.0.0.1:9"\nusername = "table-4"\npassword = "x"\n\n'
        "[gpio]\nenabled = false\n")
    log = tmp_path / "supervisor.log"
    with log.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, "-m", "kiosk.releases.supervisor", str(root), "--ready", "30",
             "--crash", "3", "--", "table", "--config", str(etc / "table.toml"),
             "--headless"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=sink,
            start_new_session=True)
    try:
        eventually(lambda: "kept" in log.read_text(), True, 60, step=0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
    err = log.read_text()
    assert install.trial() is None, f"the switch was never kept: {err[-2000:]}"
    left = {f"{d}/{p.name}" for d in ("envs", "downloads") for p in (root / d).iterdir()}
    # the running version, the one to go back to, and the next one on its way stay
    assert left == {f"envs/{BASE}", "envs/0.0.9", "envs/0.2.0", "downloads/0.2.0"}, left
    assert f"version {BASE} kept; removed envs/0.0.7, downloads/0.0.9, downloads/{BASE}" \
        in err, err
    assert (install.target("current"), install.target("previous")) == (BASE, "0.0.9")

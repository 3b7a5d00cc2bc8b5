"""The table's A/B install folder (what /opt/pokerkiosk holds), stdlib only.

    envs/<version>/     one virtual environment per kiosk version
    current -> envs/V   what the unit runs (`current/bin/pokerkiosk table ...`)
    previous -> envs/U  what it ran before the last switch
    trial.json          a switch not yet proven: {from, to, at}
    rolled-back.json    the last version that failed to start, and why
    switches.jsonl      one line per switch: when, from, to, hand in play, reports waiting

The updater starts a trial and points `current` at the new environment; the supervisor
(kiosk.releases.supervisor) ends it: kept once the new kiosk has run `crash_s` (and the
versions neither link names pruned), or undone (`current` back to `previous`) when it
does not reach READY=1 or exits early. Links are
replaced by rename, so a power cut leaves the old link or the new one.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

CURRENT, PREVIOUS, TRIAL, ROLLED_BACK, SWITCHES = (
    "current", "previous", "trial.json", "rolled-back.json", "switches.jsonl")
RESTART = 75      # the kiosk's exit code that asks its supervisor to start `current` again


class Install:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def env(self, version: str) -> Path:
        return self.root / "envs" / version

    def target(self, link: str = CURRENT) -> str | None:
        """The environment a link points at (its version), or None."""
        try:
            return Path(os.readlink(self.root / link)).name
        except OSError:
            return None

    def point(self, link: str, version: str) -> None:
        tmp = self.root / f".{link}.new"
        tmp.unlink(missing_ok=True)
        os.symlink(Path("envs") / version, tmp)
        os.replace(tmp, self.root / link)

    def _write(self, name: str, data: dict[str, Any]) -> None:
        tmp = self.root / f".{name}.new"
        tmp.write_text(json.dumps(data))
        os.replace(tmp, self.root / name)

    def _read(self, name: str) -> dict[str, Any] | None:
        try:
            data = json.loads((self.root / name).read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def begin_trial(self, old: str, new: str, record: dict[str, Any]) -> None:
        """previous -> old, a trial, then current -> new; and the switch logged."""
        self.point(PREVIOUS, old)
        self._write(TRIAL, {"from": old, "to": new, "at": time.time()})
        (self.root / ROLLED_BACK).unlink(missing_ok=True)
        self.point(CURRENT, new)
        with (self.root / SWITCHES).open("a") as f:
            f.write(json.dumps({"at": time.time(), "from": old, "to": new, **record}) + "\n")

    def trial(self) -> dict[str, Any] | None:
        return self._read(TRIAL)

    def keep(self) -> None:
        """The new kiosk proved itself: the trial ends, the switch stays."""
        (self.root / TRIAL).unlink(missing_ok=True)

    def roll_back(self, reason: str) -> str | None:
        """current -> the trial's old version, and why; the failed version, or None."""
        trial = self.trial()
        if trial is None:
            return None
        self.point(CURRENT, str(trial["from"]))
        self._write(ROLLED_BACK, {"version": trial["to"], "reason": reason, "at": time.time()})
        self.keep()
        return str(trial["to"])

    def prune(self, before: float) -> list[str]:
        """Versions neither `current` nor `previous` runs, and every download, made before
        `before` (a kept switch's start): gone, so updates never fill the card. What the
        updater is fetching or installing now is newer, and stays."""
        keep = {self.target(CURRENT), self.target(PREVIOUS)}
        gone = []
        for folder in ("envs", "downloads"):
            for path in sorted((self.root / folder).glob("*")):
                stale = path.stat().st_mtime < before
                if stale and (folder == "downloads" or path.name not in keep):
                    shutil.rmtree(path, ignore_errors=True)
                    gone.append(f"{folder}/{path.name}")
        return gone

    def rolled_back(self) -> dict[str, Any] | None:
        return self._read(ROLLED_BACK)

    def switches(self) -> list[dict[str, Any]]:
        try:
            lines = (self.root / SWITCHES).read_text().splitlines()
        except OSError:
            return []
        return [json.loads(line) for line in lines if line.strip()]

"""The appliance booted under an emulator: a director and two tables as arm64 VMs
(images/vm.sh, images/README.md "VMs"), every check a figure in one JSON object.

`.ci/run` starts `images/vm.sh --check --json` once the rest of the suite is done (it
is minutes of emulation) and names its output in PK_VM_CHECK_JSON; this test waits for
it. Run alone, it boots the VMs itself (root, and the
packages images/README.md lists)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from waiting import eventually

REPO = Path(__file__).resolve().parents[2]
WAIT_S = 3600


def figures() -> dict[str, Any]:
    named = os.environ.get("PK_VM_CHECK_JSON")
    if not named:
        r = subprocess.run(["bash", str(REPO / "images" / "vm.sh"), "--check", "--json"],
                           capture_output=True, text=True, timeout=WAIT_S)
        assert r.stdout.strip(), f"images/vm.sh printed nothing: {r.stderr[-3000:]}"
        return dict(json.loads(r.stdout.strip().splitlines()[-1]))
    path, log = Path(named), Path(named + ".log")
    # written by a rename once vm.sh has finished
    assert eventually(path.exists, True, WAIT_S, step=5), f"no figures after {WAIT_S} s; " \
        f"{log} says {log.read_text()[-3000:] if log.exists() else 'nothing'}"
    text = path.read_text().strip()
    assert text, f"images/vm.sh printed nothing; {log}: {log.read_text()[-3000:]}"
    return dict(json.loads(text.splitlines()[-1]))


def why(got: dict[str, Any]) -> str:
    """A failed step with what the run saw of it, short enough for a test summary line:
    the touch hand's steps and reports, and the last journal lines of each VM."""
    seen = {k: got[k] for k in ("failed", "touch_steps", "touch_reports") if k in got}
    seen["touch_hand_journal"] = (got.get("touch_hand_journal") or [])[-12:]
    seen["journals"] = {vm: str(text)[-600:]
                        for vm, text in (got.get("failed_journal") or {}).items()}
    return json.dumps(seen)[:4000]


@pytest.mark.slow
@pytest.mark.vm_boot
@pytest.mark.timeout(WAIT_S + 60)
def test_director_and_two_tables_boot_on_arm64_and_survive_their_faults() -> None:
    got = figures()
    print(json.dumps(got))
    assert "failed" not in got, why(got)
    assert got["arch"] == "aarch64" and got["booted_roles"] == ["director", "table", "table"]
    # the card's files imported into /etc; the kiosk said READY=1; the watchdog restarted it
    assert got["import_ok"] and got["table_ready_s"] > 0 and got["watchdog_restart_ok"]
    assert got["table_online"] == {"1": True, "2": True}
    # the kiosk drew on KMS: a frame with more than a few colours, its table and clock read
    assert Path(got["kms_screenshot"]).exists() and got["screen_colours"] > 20
    if got["screen_text_seen"] is not None:
        assert got["screen_text_seen"]["table"] and got["screen_text_seen"]["clock"]
    # a power cut with reports queued: all kept on disk, each applied once
    assert got["power_cut_queued"] >= 6 and got["power_cut_lost"] == 0
    # a full disk: said, the queued report kept and applied once, nothing lost
    assert got["full_disk_free_bytes"] == 0 and got["full_disk_kept"]
    assert got["full_disk_lost"] == 0 and "DISK FULL" in got["full_disk_logged"]
    # the director VM rolled three releases out to table 2 only: a tampered one refused,
    # a broken one taken and rolled back by the image's supervisor, a good one downloaded
    # over its HTTPS, installed beside the running kiosk and switched to between hands
    # with nothing waiting; table 1 kept its version; a hand on the new one was reported
    assert got["rollout_ok"] and got["rollout_link"].startswith("envs/")
    assert got["rollout_env_system_site"]      # the new version still sees Debian's lgpio
    assert "wrong hash" in got["rollout_refused_reason"]
    assert "exited" in got["rollout_rolled_back_reason"]
    assert got["rollout_switches"] == 2 and got["rollout_switched_mid_hand"] == 0
    assert got["rollout_reports_waiting"] == 0
    assert got["rollout_table1_kept"] and got["rollout_played_after"]
    # the dealer's hands: five touch panels made through uinput as the real ones announce
    # themselves, each tap taken once at its place; a hand with a bust played by touch
    # reached the director's log once each; the USB card reader (FTDI, by its stable
    # name) checked a player in, ignored noise and half a line, and read again after
    # being unplugged and plugged back; no GPIO chip said in the journal and the doctor
    assert set(got["touch_panels"]) >= {"generic ft5x06 (79)", "raspberrypi-ts",
                                        "11-005d Goodix Capacitive TouchScreen",
                                        "eGalax Inc. USB TouchController", "ILITEK ILITEK-TP"}
    assert all(got["touch_panels"].values()), got["touch_lines"]
    assert got["touch_strays"] == [] and got["touch_hand_ok"], got["touch_hand_events"]
    # the tap's report reached the broker: timed (4 to 9 s seen on the emulated Pi beside
    # the suite) and bounded only by how late a loaded, emulated kiosk draws its frames
    assert 0 < got["touch_to_report_ms"] < 60_000
    assert got["reader_checkin_ok"] and got["reader_noise_ignored"]
    assert got["reader_replug_ok"] and got["reader_path"].startswith("/dev/ttyUSB")
    assert got["gpio_absent_said"], (got["gpio_journal"], got["gpio_doctor"])
    # that bust was in the money: table 1's printer (a listener on the host, through the
    # VM's guestfwd) printed its payout slip, the player, place and amount of the plan
    assert got["printer_slip_ok"], got["printer_slip"]
    # a card with no config, and a wrong broker password: both said on the screen
    assert got["unprovisioned_kiosk_skipped"] and got["unprovisioned_logged"]
    assert got["wrong_password_refusals"] >= 2 and got["wrong_password_still_running"]
    if got["wrong_password_on_screen"] is not None:
        assert got["wrong_password_on_screen"] and got["unprovisioned_on_screen"]

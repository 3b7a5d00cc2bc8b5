"""`pokerkiosk demo` gives phones this machine's address on its network, found without
sending anything, and says so when the machine has none. Each demo runs in a network
namespace of its own (util-linux's unshare, iproute2), where the test decides what
network the machine has, and is read from inside it (nsenter)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from waiting import STARTUP_S, wait_for

LAN = "198.51.100.7"       # a documentation network (RFC 5737), on a veth of the namespace
NETWORK = (f"ip link add v0 type veth peer name v1 && ip addr add {LAN}/24 dev v0 && "
           "ip link set v0 up && ip link set v1 up && "
           "ip route add default via 198.51.100.1 dev v0")
READ = """import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=10) as r:
    print(r.status, r.headers.get("X-Player-Url", ""))"""


def demo_in_a_namespace(tmp_path: Path, network: bool) -> tuple[subprocess.Popen[bytes], str]:
    """The demo, on its default address, in a namespace with loopback and (`network`) a
    network of its own; its banner."""
    setup = "ip link set lo up" + (f" && {NETWORK}" if network else "")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = tmp_path / "demo.out"
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            ["unshare", "--map-root-user", "--net", "sh", "-c",
             f'{setup} && exec "$0" -m kiosk.commands.main demo --dir "$1" --hand-seconds 0.5 '
             "--players 18", sys.executable, str(tmp_path / "demo")],
            stdout=sink, stderr=subprocess.STDOUT, env=env)
    try:
        wait_for(lambda: "Ctrl-C" in out.read_text() or proc.poll() is not None,
                 timeout=STARTUP_S)
        assert proc.poll() is None, out.read_text()
    except BaseException:
        proc.kill()          # a test stops everything it starts
        proc.wait(20)
        raise
    return proc, out.read_text()


def read_inside(proc: subprocess.Popen[bytes], url: str) -> str:
    """GET `url` from inside the demo's namespace: the status and the QR code's address."""
    return subprocess.run(["nsenter", "--user", "--net", "--preserve-credentials", "-t",
                           str(proc.pid), sys.executable, "-c", READ, url],
                          capture_output=True, text=True, check=True, timeout=30).stdout.strip()


def stop(proc: subprocess.Popen[bytes]) -> int:
    proc.send_signal(signal.SIGINT)
    return proc.wait(20)


def banner_line(banner: str, name: str) -> str:
    found = re.findall(rf"^{name}\s+(.*)$", banner, re.M)
    assert len(found) == 1, banner
    return str(found[0])


def test_the_demo_gives_phones_the_machines_address_on_its_network(tmp_path: Path) -> None:
    proc, banner = demo_in_a_namespace(tmp_path, network=True)
    try:
        base = f"http://{LAN}:8080/"
        assert banner_line(banner, "dashboard").startswith(base)
        assert banner_line(banner, "players") == f"{base}p/daily   (the TV clock's QR code)"
        assert not re.search(r"^network\s", banner, re.M), banner
        # the TV clock's QR code carries that address, and a phone on the network is served
        assert read_inside(proc, f"{base}p/daily/qr.png") == f"200 {base}p/daily"
        assert read_inside(proc, f"{base}clock").startswith("200")
    finally:
        assert stop(proc) == 0
    assert f'public_url = "http://{LAN}:8080"' in (tmp_path / "demo" / "room.toml").read_text()


def test_the_demo_without_a_network_says_its_qr_codes_reach_no_phone(tmp_path: Path) -> None:
    proc, banner = demo_in_a_namespace(tmp_path, network=False)
    try:
        base = "http://127.0.0.1:8080/"
        assert banner_line(banner, "network") == ("none found: the QR codes point phones at "
                                                  "127.0.0.1, which only this machine "
                                                  "reaches")
        assert banner_line(banner, "dashboard").startswith(base)
        assert read_inside(proc, f"{base}p/daily/qr.png") == f"200 {base}p/daily"
    finally:
        assert stop(proc) == 0

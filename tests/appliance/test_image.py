"""The image stage's install script, run for real in a debootstrapped Debian bookworm root.

Pi OS's archive is out of reach here, so the same `install-root.sh` the pi-gen stage
calls runs against a plain Debian bookworm minbase root (plus python3-venv). The root
and the dependency wheels are cached under ~/.cache/pokerkiosk, so only the first run
downloads anything.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk import __version__

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "images" / "stage-pokerkiosk" / "install-root.sh"
CACHE = Path(os.environ.get("POKERKIOSK_CACHE", Path.home() / ".cache" / "pokerkiosk"))
PACKAGES = "python3-venv"
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def debian_mirror() -> str:
    """The Debian mirror apt already uses on this machine (deb822 or one-line format)."""
    sources = [Path("/etc/apt/sources.list"), *Path("/etc/apt/sources.list.d").glob("*")]
    for src in sources:
        text = src.read_text() if src.is_file() else ""
        for m in re.finditer(r"(?:URIs:\s*|deb\s+(?:\[[^]]*\]\s+)?)(\S+)", text):
            url = m.group(1)
            if url.rstrip("/").endswith("/debian"):
                return url
    return "http://deb.debian.org/debian"


def arch() -> str:
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                          check=True).stdout.strip()


def cached_rootfs_tar() -> Path:
    """bookworm minbase + python3-venv as a tarball; debootstrapped once, then reused."""
    tar = CACHE / f"bookworm-minbase-{PACKAGES.replace(',', '-')}-{arch()}.tar"
    if tar.exists():
        return tar
    CACHE.mkdir(parents=True, exist_ok=True)
    build = CACHE / "build-rootfs"
    shutil.rmtree(build, ignore_errors=True)
    subprocess.run(["debootstrap", "--variant=minbase", f"--include={PACKAGES}", "bookworm",
                    str(build), debian_mirror()], check=True, capture_output=True)
    partial = tar.with_suffix(".partial")
    subprocess.run(["tar", "--numeric-owner", "-C", str(build), "-cf", str(partial), "."],
                   check=True)
    partial.rename(tar)
    shutil.rmtree(build)
    return tar


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The project wheel (fresh) and its dependency wheels (cached by requirement set)."""
    out = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip"]
    subprocess.run([*pip, "wheel", "-q", "--no-deps", "-w", str(out), str(REPO)], check=True)
    wheel = next(out.glob("poker_kiosk-*.whl"))
    key = hashlib.sha256((REPO / "pyproject.toml").read_bytes()).hexdigest()[:12]
    house = CACHE / f"wheelhouse-{key}"
    if not house.exists():
        partial = house.with_name(house.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        subprocess.run([*pip, "download", "-q", "--only-binary=:all:", "-d", str(partial),
                        f"{wheel}[table,director]"], check=True)
        for own in partial.glob("poker_kiosk-*"):
            own.unlink()
        partial.rename(house)
    return wheel, house


def _mounts_under(root: Path) -> list[str]:
    lines = Path("/proc/mounts").read_text().splitlines()
    return [line.split()[1] for line in lines if line.split()[1].startswith(str(root) + "/")]


@pytest.fixture
def rootfs(tmp_path: Path) -> Iterator[Path]:
    """A fresh copy of the cached root; nothing stays mounted inside it afterwards."""
    root = tmp_path / "rootfs"
    root.mkdir()
    subprocess.run(["tar", "--numeric-owner", "-C", str(root), "-xf",
                    str(cached_rootfs_tar())], check=True)
    yield root
    for mnt in reversed(_mounts_under(root)):
        subprocess.run(["umount", "-l", mnt], check=False)
    assert _mounts_under(root) == [], "install-root.sh left mounts behind"
    shutil.rmtree(root)


def install(root: Path, role: str, wheels: tuple[Path, Path]) -> str:
    env = {**os.environ, "PK_WHEELHOUSE": str(wheels[1])}
    proc = subprocess.run(["bash", str(INSTALL), str(root), role, str(wheels[0])], env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def in_root(root: Path, *cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["chroot", str(root), *cmd], capture_output=True, text=True,
                          timeout=120, check=False)


def enabled(root: Path, unit: str) -> bool:
    link = root / "etc/systemd/system/multi-user.target.wants" / unit
    return link.is_symlink() and os.readlink(link).endswith(f"/{unit}")


def test_table_root(rootfs: Path, wheels: tuple[Path, Path]) -> None:
    boot = rootfs / "boot/firmware"
    boot.mkdir(parents=True)
    (boot / "cmdline.txt").write_text("console=serial0,115200 console=tty1 "
                                      "root=PARTUUID=1234abcd-02 rootfstype=ext4 rootwait\n")
    install(rootfs, "table", wheels)

    assert in_root(rootfs, "pokerkiosk", "--version").stdout.strip() == \
        f"pokerkiosk {__version__}"
    venv_py = "/opt/pokerkiosk/venv/bin/python"
    probe = in_root(rootfs, venv_py, "-c", "import kivy, gpiozero, serial, paho.mqtt; "
                    "print(kivy.__version__)")
    assert probe.returncode == 0 and probe.stdout.startswith("2.3"), probe.stderr
    # the A/B folder the updater switches: this version's environment on the base layer,
    # the kiosk's to write, and the supervisor's copy, root's, importable on its own
    ab = rootfs / "opt/pokerkiosk/ab"
    assert os.readlink(ab / "current") == f"envs/{__version__}"
    assert os.readlink(rootfs / "opt/pokerkiosk/venv") == "ab/current"
    kiosk_uid = int(in_root(rootfs, "id", "-u", "pokerkiosk").stdout)
    assert (ab / "envs" / __version__).stat().st_uid == kiosk_uid
    assert (rootfs / "opt/pokerkiosk/supervisor/kiosk/releases/ab.py").stat().st_uid == 0
    base = in_root(rootfs, "/opt/pokerkiosk/base/bin/python", "-m", "pip", "list")
    assert "kivy" in base.stdout.lower() and "poker-kiosk" not in base.stdout.lower()
    sup = in_root(rootfs, "env", "PYTHONPATH=/opt/pokerkiosk/supervisor", "/usr/bin/python3",
                  "-m", "kiosk.releases.supervisor", "--help")
    assert sup.returncode == 0 and "--ready" in sup.stdout, sup.stderr
    assert enabled(rootfs, "pokerkiosk-table.service")
    assert enabled(rootfs, "pokerkiosk-import.service")
    assert os.readlink(rootfs / "etc/systemd/system/serial-getty@ttyAMA0.service") == \
        "/dev/null"
    user = in_root(rootfs, "id", "pokerkiosk").stdout
    for group in ("video", "render", "input", "dialout", "gpio"):
        assert f"({group})" in user
    assert (rootfs / "var/lib/pokerkiosk/kivy/config.ini").stat().st_uid == \
        int(in_root(rootfs, "id", "-u", "pokerkiosk").stdout)
    cmdline = (boot / "cmdline.txt").read_text()
    assert "root=PARTUUID=1234abcd-02" in cmdline and "consoleblank=0" in cmdline
    assert "console=serial0" not in cmdline and len(cmdline.splitlines()) == 1
    assert "gpio=17,27,22=ip,pu" in (boot / "config.txt").read_text()
    assert "server pk-director.local" in (rootfs / "etc/chrony/chrony.conf").read_text()

    # First boot: provision output copied onto the FAT partition is moved into /etc.
    from kiosk.appliance.provision import provision
    room = provision(rootfs / "tmp/room", event="spring-open", tables=3, use_tls=True,
                     director_host="10.1.1.1")
    drop = boot / "pokerkiosk"
    drop.mkdir()
    for name in ("table-3.toml", "ca.crt", "release.pub", "update.toml"):
        shutil.copy(room.out / "tables" / name, drop)
    imp = in_root(rootfs, "/opt/pokerkiosk/import-config.sh")
    assert imp.returncode == 0, imp.stderr
    cfg = rootfs / "etc/pokerkiosk/table.toml"
    assert oct(cfg.stat().st_mode & 0o777) == "0o640" and list(drop.iterdir()) == []
    assert tomllib.loads(cfg.read_text())["table"]["number"] == 3
    pub = rootfs / "etc/pokerkiosk/release.pub"      # the updater's key, beside table.toml
    assert pub.read_text() == (room.out / "tables/release.pub").read_text()
    assert "server 10.1.1.1 iburst" in (rootfs / "etc/chrony/chrony.conf").read_text()
    check = in_root(rootfs, venv_py, "-c", "from kiosk.config.files import load_table_config as l;"
                    "print(l('/etc/pokerkiosk/table.toml').broker.url)")
    assert check.stdout.strip() == "mqtts://10.1.1.1:8883", check.stderr
    up = in_root(rootfs, venv_py, "-c", "from kiosk.table.updater import load_settings as l;"
                 "from pathlib import Path; s = l(Path('/etc/pokerkiosk/update.toml'));"
                 "print(s.url, s.root, s.public_key)")
    assert up.stdout.split() == ["https://10.1.1.1:8443", "/opt/pokerkiosk/ab",
                                 "/etc/pokerkiosk/release.pub"], up.stderr


def test_director_root(rootfs: Path, wheels: tuple[Path, Path]) -> None:
    install(rootfs, "director", wheels)
    out = install(rootfs, "director", wheels)            # a re-run is harmless
    assert "director installed" in out
    assert in_root(rootfs, "pokerkiosk", "--version").stdout.strip() == \
        f"pokerkiosk {__version__}"
    probe = in_root(rootfs, "/opt/pokerkiosk/venv/bin/python", "-c", "import aiohttp")
    assert probe.returncode == 0, probe.stderr
    assert enabled(rootfs, "pokerkiosk-director.service")
    assert not (rootfs / "etc/systemd/system/pokerkiosk-table.service").exists()
    assert (rootfs / "etc/systemd/system/mosquitto.service.d/pokerkiosk.conf").is_file()
    assert "local stratum 10" in (rootfs / "etc/chrony/chrony.conf").read_text()
    assert in_root(rootfs, "getent", "passwd", "pokerkiosk").stdout.count("pokerkiosk") >= 1

    # First boot: the director's card is moved into /etc, the card left empty (found
    # booting it under QEMU: the update files stayed on the FAT partition). The broker's
    # files need Mosquitto's group, which this root lacks: images/vm.sh checks them.
    from kiosk.appliance.provision import provision
    room = provision(rootfs / "tmp/room", event="spring-open", tables=2, use_tls=True,
                     director_host="10.1.1.1")
    drop = rootfs / "boot/firmware/pokerkiosk"
    drop.mkdir(parents=True, exist_ok=True)
    for f in (room.out / "director").iterdir():
        shutil.copy(f, drop)
    imp = in_root(rootfs, "/opt/pokerkiosk/import-config.sh")
    assert imp.returncode == 0, imp.stderr
    assert list(drop.iterdir()) == [], [p.name for p in drop.iterdir()]
    etc = rootfs / "etc/pokerkiosk"
    modes = {n: oct((etc / n).stat().st_mode & 0o777) for n in
             ("event.toml", "table-logins", "release-signing.key", "release.pub")}
    assert modes == {"event.toml": "0o640", "table-logins": "0o640",
                     "release-signing.key": "0o600", "release.pub": "0o644"}
    assert (etc / "release-signing.key").stat().st_uid == 0

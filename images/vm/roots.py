"""The arm64 roots and SD-card-like disks the VMs boot, built on this x86 host.

Two layers; the first is cached in ~/.cache/pokerkiosk/ under a key made of what went
into it (package lists, the dependencies in pyproject.toml, the initramfs recipe):

- role root: Debian bookworm arm64 minbase with the stage's 00-packages, the role's
  package list and what a booted VM needs (systemd, udev, the arm64 kernel).
  debootstrap's first stage runs natively; the packages are unpacked in user-mode
  emulation (proot with qemu-aarch64-static: binfmt_misc cannot be registered here) and
  configured by booting the root once in qemu-system-aarch64. Then install-root.sh runs
  with the dependency wheels (arm64, fetched on the host with pip download).
- per run: install-root.sh again with this checkout's wheel, units and configs, then the
  VM's harness files, then a disk: a FAT "bootfs" partition (the card's boot files and
  the provisioned config in pokerkiosk/) and the ext4 root, made without mounting.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterable
from pathlib import Path

import initramfs

REPO = Path(__file__).resolve().parents[2]
STAGE = REPO / "images" / "stage-pokerkiosk"
GUEST = Path(__file__).resolve().parent / "guest"
CACHE = Path(os.environ.get("POKERKIOSK_CACHE", Path.home() / ".cache" / "pokerkiosk"))
SUITE = "bookworm"
MIRROR = os.environ.get("PK_DEBIAN_MIRROR", "http://deb.debian.org/debian")
# What a booted VM needs beyond the stage's 00-packages (Pi OS Lite has all of these).
BOOT_PACKAGES = ["systemd-sysv", "udev", "dbus", "linux-image-arm64", "python3", "kmod",
                 "iproute2", "procps"]
PROOT = ["proot", "-0", "-q", "qemu-aarch64-static", "-b", "/dev", "-b", "/proc", "-w", "/",
         "-r"]
WHEEL_PLATFORMS = ["manylinux2014_aarch64", "manylinux_2_28_aarch64", "linux_aarch64"]
# Bump when a layer's recipe changes in a way its inputs do not show.
RECIPE = "3"


def log(msg: str) -> None:
    print(f"vm: {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], *, env: dict[str, str] | None = None, quiet: bool = True,
        timeout: float = 3600) -> subprocess.CompletedProcess[str]:
    """Run a build step; on failure raise with the tail of its output."""
    proc = subprocess.run(cmd, capture_output=quiet, text=True, env=env, timeout=timeout,
                          check=False)
    if proc.returncode != 0:
        tail = ((proc.stdout or "") + (proc.stderr or ""))[-4000:]
        raise RuntimeError(f"{' '.join(cmd[:6])}... failed ({proc.returncode}):\n{tail}")
    return proc


def digest(parts: Iterable[str | bytes | Path]) -> str:
    """A short content hash of strings, bytes and files (directories: every file in them)."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            files = sorted(p for p in part.rglob("*") if p.is_file()) if part.is_dir() \
                else [part]
            for f in files:
                h.update(str(f.relative_to(REPO)).encode())
                h.update(f.read_bytes())
        else:
            h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:16]


def role_packages(role: str) -> list[str]:
    """The stage's 00-packages, the role's list (less what only Pi OS's archive has:
    lines marked [pi-os]), what a booted VM needs, and busybox for the initramfs."""
    names: list[str] = []
    for f in (STAGE / "00-install" / "00-packages", STAGE / "00-install" / f"{role}.packages"):
        for line in f.read_text().splitlines():
            if "[pi-os]" not in line:
                names += line.split("#")[0].split()
    return names + BOOT_PACKAGES + ["busybox-static"]


def pi_os_only(role: str) -> list[str]:
    """The role's packages that Debian lacks (a finding the JSON reports)."""
    text = (STAGE / "00-install" / f"{role}.packages").read_text()
    return [line.split()[0] for line in text.splitlines() if "[pi-os]" in line]


def in_root(root: Path, *cmd: str) -> None:
    """Run an arm64 command inside `root` in user-mode emulation (slow: keep it short)."""
    run(["nice", "-n", "15", *PROOT, str(root), *cmd],
        env={**os.environ, "PROOT_NO_SECCOMP": "1"})


def remove(path: Path) -> None:
    """rm -rf that first unmounts whatever a failed step left mounted inside `path`."""
    mounts = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
    for mnt in sorted((m for m in mounts if m.startswith(f"{path}/")), reverse=True):
        subprocess.run(["umount", "-l", mnt], check=False)
    shutil.rmtree(path, ignore_errors=True)


def _untar(tar: Path, dest: Path) -> None:
    remove(dest)
    dest.mkdir(parents=True)
    run(["tar", "--numeric-owner", "-C", str(dest), "-xf", str(tar)])


def _tar(root: Path, tar: Path) -> None:
    partial = tar.with_name(tar.name + ".partial")
    run(["tar", "--numeric-owner", "-C", str(root), "-cf", str(partial), "."])
    partial.rename(tar)


FINISH = """#!/bin/sh
# images/vm.sh cache build: configure the unpacked packages on the emulated machine.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /run
# The VMs boot with images/vm/initramfs.py's; Debian's would cost minutes here.
dpkg-divert --local --rename --add /usr/sbin/update-initramfs
ln -s /bin/true /usr/sbin/update-initramfs
dpkg --force-unsafe-io --configure -a
rc=$?
rm /usr/sbin/update-initramfs
dpkg-divert --local --rename --remove /usr/sbin/update-initramfs
echo "PK-FINISH rc=$rc"
rm -f /pk-finish.sh
sync
umount /run /dev /sys /proc 2>/dev/null
mount -o remount,ro /
echo o > /proc/sysrq-trigger
sleep 60
"""


def _configure(root: Path, work: Path, img: Path) -> None:
    """Boot the unpacked root once, its init a script that configures every package."""
    script = work / "pk-finish.sh"
    script.write_text(FINISH)
    script.chmod(0o755)
    kernel = sorted((root / "boot").glob("vmlinuz-*"))[-1]
    rd = initramfs.build(root, work / "initrd.img")
    if img.exists():
        # An interrupted cold build resumes on its image: dpkg picks up where it stopped.
        subprocess.run(["e2fsck", "-fy", str(img)], capture_output=True, check=False)
        for req in ("rm /pk-finish.sh", f"write {script} /pk-finish.sh",
                    "sif /pk-finish.sh mode 0100755"):
            run(["debugfs", "-w", "-R", req, str(img)])
    else:
        shutil.copy(script, root / "pk-finish.sh")
        used = int(run(["du", "-sm", str(root)]).stdout.split()[0])
        run(["mkfs.ext4", "-q", "-d", str(root), str(img), f"{used + 512}M"])
    console = work / "finish.console.log"
    t0 = time.monotonic()
    run(["nice", "-n", "15", "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72",
         "-smp", "2", "-m", "2048", "-nodefaults", "-no-reboot", "-display", "none",
         "-kernel", str(kernel), "-initrd", str(rd),
         "-append", "console=ttyAMA0 panic=1 root=/dev/vda pk.init=/pk-finish.sh",
         "-drive", f"file={img},format=raw,if=none,id=d0,cache=unsafe",
         "-device", "virtio-blk-pci,drive=d0", "-device", "virtio-rng-pci",
         "-serial", f"file:{console}"], timeout=5400)
    text = console.read_text(errors="replace")
    if "PK-FINISH rc=0" not in text:
        raise RuntimeError(f"package configuration in the VM failed; {console}:\n"
                           + text[-3000:])
    log(f"packages configured in the VM in {time.monotonic() - t0:.0f} s")


def _finish_in_vm(root: Path, work: Path) -> None:
    """dpkg --configure -a on the emulated machine: user-mode emulation under proot
    cannot run it (proot 5.3 does not translate statx, and systemd-tmpfiles trips an
    assertion in proot), so the real kernel does it, booted once from the root."""
    img = work / "finish.img"
    if not (work / "configured").exists():
        _configure(root, work, img)
        (work / "configured").touch()
    subprocess.run(["e2fsck", "-fy", str(img)], capture_output=True, check=False)
    mnt = work / "finish.mnt"
    mnt.mkdir(exist_ok=True)
    run(["mount", "-o", "loop,ro", str(img), str(mnt)])
    try:
        remove(root)
        root.mkdir()
        run(["sh", "-c", f"tar --numeric-owner -C {mnt} -cf - . | "
             f"tar --numeric-owner -C {root} -xf -"])
    finally:
        run(["umount", str(mnt)])
    img.unlink()


def dependencies() -> str:
    """What pyproject.toml asks of the table and the director (a change elsewhere in
    the file, a lint setting say, builds nothing again)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project.get("optional-dependencies", {})
    return json.dumps([project.get("requires-python"), project.get("dependencies"),
                       extras.get("table"), extras.get("director")])


def project_version() -> str:
    return str(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"])


def wheelhouse() -> Path:
    """arm64 wheels of every dependency, fetched on the host; keyed by the dependencies."""
    key = digest([RECIPE, dependencies()])
    house = CACHE / f"wheelhouse-arm64-cp311-{key}"
    if house.exists():
        return house
    partial = house.with_name(house.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    wheel = project_wheel(CACHE / "wheel-tmp")
    plat = [a for p in WHEEL_PLATFORMS for a in ("--platform", p)]
    run([sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:", *plat,
         "--python-version", "3.11", "--implementation", "cp", "-d", str(partial),
         f"{wheel}[table,director]"])
    for own in partial.glob("poker_kiosk-*"):
        own.unlink()
    partial.rename(house)
    return house


def project_wheel(out: Path) -> Path:
    """This checkout's wheel, built fresh from a copy of its sources (setuptools builds
    in the source's own build/ folder, which a test building at the same time shares)."""
    shutil.rmtree(out, ignore_errors=True)
    src = out.with_name(out.name + "-src")
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(REPO / "kiosk", src / "kiosk",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(src)])
    shutil.rmtree(src, ignore_errors=True)
    return next(out.glob("poker_kiosk-*.whl"))


def install_root(root: Path, role: str, wheel: Path, house: Path) -> None:
    """The stage's install-root.sh, run on the arm64 root through user-mode emulation."""
    env = {**os.environ, "PK_WHEELHOUSE": str(house), "PK_CHROOT": " ".join(PROOT),
           "PROOT_NO_SECCOMP": "1"}
    run(["nice", "-n", "15", "bash", str(STAGE / "install-root.sh"), str(root), role,
         str(wheel)], env=env)


def _unpack(role: str, packages: list[str], work: Path) -> None:
    """debootstrap's first stage, then every package unpacked in user-mode emulation."""
    root = work / "root"
    remove(work)
    work.mkdir(parents=True)
    t0 = time.monotonic()
    run(["debootstrap", "--foreign", "--arch=arm64", "--variant=minbase",
         "--include=" + ",".join(packages), SUITE, str(root), MIRROR])
    log(f"{role}: debootstrap --foreign {time.monotonic() - t0:.0f} s")
    # In a container debootstrap may leave /proc a symlink to the host's; proot binds it.
    if (root / "proc").is_symlink():
        (root / "proc").unlink()
    (root / "proc").mkdir(exist_ok=True)
    t1 = time.monotonic()
    in_root(root, "/bin/sh", "-c", "dpkg --force-depends --force-unsafe-io --unpack "
            "/var/cache/apt/archives/*.deb >/dev/null")
    kver = sorted((root / "lib/modules").iterdir())[-1].name
    in_root(root, "/sbin/depmod", "-a", kver)    # the initramfs reads modules.dep
    log(f"{role}: packages unpacked (user-mode emulation) {time.monotonic() - t1:.0f} s")
    (work / "unpacked").touch()


def role_tar(role: str) -> Path:
    """Debian bookworm arm64 with the role's packages, configured, and install-root.sh
    run with the dependency wheels; built once per package list and dependency list."""
    house = wheelhouse()
    packages = role_packages(role)
    key = digest([RECIPE, SUITE, role, " ".join(packages), house.name,
                  Path(__file__).resolve().parent / "initramfs.py"])
    tar = CACHE / f"arm64-{role}-{key}.tar"
    if tar.exists():
        return tar
    CACHE.mkdir(parents=True, exist_ok=True)
    work = CACHE / f"build-{role}-{key}"
    root = work / "root"
    if not (work / "unpacked").exists():      # else: resume after the unpacking
        _unpack(role, packages, work)
    _finish_in_vm(root, work)
    (root / "etc/apt/sources.list").write_text(f"deb {MIRROR} {SUITE} main\n")
    shutil.rmtree(root / "debootstrap", ignore_errors=True)
    for deb in (root / "var/cache/apt/archives").glob("*.deb"):
        deb.unlink()
    # A Pi OS card has its boot partition at /boot/firmware with the image's cmdline.txt.
    boot = root / "boot/firmware"
    boot.mkdir(parents=True, exist_ok=True)
    (boot / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=/dev/vda2 "
                                      "rootfstype=ext4 fsck.repair=yes rootwait\n")
    t2 = time.monotonic()
    install_root(root, role, project_wheel(work / "wheel"), house)
    log(f"{role}: install-root.sh with the dependencies (user-mode emulation) "
        f"{time.monotonic() - t2:.0f} s")
    _tar(root, tar)
    remove(work)
    return tar


def prepare_root(role: str, work: Path, wheel: Path) -> Path:
    """A fresh copy of the role's root with this checkout installed by install-root.sh."""
    root = work / f"root-{role}"
    _untar(role_tar(role), root)
    t0 = time.monotonic()
    install_root(root, role, wheel, wheelhouse())
    log(f"{role}: install-root.sh with this checkout (emulated) {time.monotonic() - t0:.0f} s")
    return root


def boot_files(root: Path, work: Path) -> tuple[Path, Path]:
    """The root's kernel and a busybox initramfs for it, for QEMU's -kernel and -initrd."""
    kernel = work / "vmlinuz"
    shutil.copy(sorted((root / "boot").glob("vmlinuz-*"))[-1], kernel)
    return kernel, initramfs.build(root, work / "initrd.img")


def harness(root: Path, hostname: str, extra: dict[str, str]) -> None:
    """The VM's own files: disk mounts, network, the host's command channel, `extra`."""
    files = {
        "etc/hostname": f"{hostname}\n",
        "etc/hosts": f"127.0.0.1 localhost\n127.0.1.1 {hostname}\n"
                     "10.0.2.100 pk-director pk-director.local\n",
        "etc/fstab": "/dev/vda2 / ext4 defaults,errors=remount-ro 0 1\n"
                     "/dev/vda1 /boot/firmware vfat defaults,umask=0077 0 0\n",
        "etc/systemd/network/10-eth.network": "[Match]\nName=e*\n\n[Network]\nDHCP=ipv4\n",
        **extra,
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for tool in ("pk-vmctl", "pk-touch"):
        shutil.copy(GUEST / tool, root / "usr/local/sbin" / tool)
        (root / "usr/local/sbin" / tool).chmod(0o755)
    shutil.copy(GUEST / "pk-vmctl.service", root / "etc/systemd/system/pk-vmctl.service")
    links = {
        "sysinit.target.wants/pk-vmctl.service": "/etc/systemd/system/pk-vmctl.service",
        "multi-user.target.wants/systemd-networkd.service":
            "/lib/systemd/system/systemd-networkd.service",
        "network-online.target.wants/systemd-networkd-wait-online.service":
            "/lib/systemd/system/systemd-networkd-wait-online.service",
        # the VM's only tty a person could log in on is none: no getty on the PL011
        "serial-getty@ttyAMA0.service": "/dev/null",
    }
    for rel, target in links.items():
        link = root / "etc/systemd/system" / rel
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)


def disk(root: Path, card: dict[str, Path], out: Path, spare_mb: int = 768) -> Path:
    """An SD-card-like disk: p1 FAT "bootfs" (the root's /boot/firmware plus `card`,
    name -> file, in pokerkiosk/), p2 the ext4 root. Nothing is mounted."""
    work = out.parent
    boot_img, root_img = work / f"{out.stem}.boot", work / f"{out.stem}.root"
    boot_mb = 64
    for f in (boot_img, root_img, out):
        f.unlink(missing_ok=True)
    run(["mkfs.vfat", "-n", "BOOTFS", "-C", str(boot_img), str(boot_mb * 1024)])
    firmware = root / "boot/firmware"
    mtools = {**os.environ, "MTOOLS_SKIP_CHECK": "1"}
    for f in sorted(firmware.iterdir()):
        run(["mcopy", "-s", "-i", str(boot_img), str(f), "::/"], env=mtools)
    if card:
        run(["mmd", "-i", str(boot_img), "::/pokerkiosk"], env=mtools)
        for name, src in card.items():
            run(["mcopy", "-i", str(boot_img), str(src), f"::/pokerkiosk/{name}"], env=mtools)
    # The root's own /boot/firmware is the mount point: empty on the ext4 side.
    saved = work / f"{out.stem}.firmware"
    shutil.rmtree(saved, ignore_errors=True)
    firmware.rename(saved)
    firmware.mkdir()
    try:
        used = int(run(["du", "-sm", str(root)]).stdout.split()[0])
        run(["mkfs.ext4", "-q", "-L", "rootfs", "-d", str(root), str(root_img),
             f"{used + spare_mb}M"])
    finally:
        firmware.rmdir()
        saved.rename(firmware)
    root_mb = root_img.stat().st_size // (1024 * 1024)
    total = 1 + boot_mb + root_mb
    with open(out, "wb") as f:
        f.truncate(total * 1024 * 1024)
    layout = f"label: dos\nstart=1MiB, size={boot_mb}MiB, type=c\nstart={1 + boot_mb}MiB, type=83\n"
    subprocess.run(["sfdisk", "-q", str(out)], input=layout, text=True, check=True,
                   capture_output=True)
    run(["dd", f"if={boot_img}", f"of={out}", "bs=1M", "seek=1", "conv=notrunc,sparse",
         "status=none"])
    run(["dd", f"if={root_img}", f"of={out}", "bs=1M", f"seek={1 + boot_mb}",
         "conv=notrunc,sparse", "status=none"])
    boot_img.unlink()
    root_img.unlink()
    return out


def cmdline(root: Path) -> str:
    """The kernel command line: the card's cmdline.txt (firmware_cfg's, as installed), its
    root= pointed at the virt machine's disk, and a serial console for the host's log."""
    text = (root / "boot/firmware/cmdline.txt").read_text().strip()
    return "console=ttyAMA0,115200 " + text

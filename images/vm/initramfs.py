"""A small busybox initramfs for the virt machine, written on the host.

Debian's arm64 kernel has virtio-pci, virtio-blk and ext4 as modules, so something must
load them before the root can be mounted. A Pi boots its root without an initramfs;
this one does only that: load those modules from the root's own kernel, mount the
root read-only (systemd checks and remounts it, as on the Pi) and switch to it.
`pk.init=PATH` on the kernel command line runs PATH instead of /sbin/init (the cache
build uses it to finish package configuration inside the emulated machine).
"""

from __future__ import annotations

import gzip
import io
import stat
from pathlib import Path

MODULES = ["virtio_pci", "virtio_blk", "crc32c_generic", "ext4"]

INIT = r"""#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /root /usr/bin /usr/sbin /sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules.order); do insmod "/lib/modules/$m" || echo "initramfs: $m failed"; done
root=$(sed -n 's/.*root=\([^ ]*\).*/\1/p' /proc/cmdline)
run=$(sed -n 's/.*pk\.init=\([^ ]*\).*/\1/p' /proc/cmdline)
i=0
while [ ! -b "$root" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
if ! mount -t ext4 -o ro "$root" /root; then
    echo "initramfs: cannot mount the root $root"
    echo o > /proc/sysrq-trigger
fi
[ -n "$run" ] && mount -o remount,rw /root
umount /proc /sys
umount /dev 2>/dev/null
exec switch_root /root "${run:-/sbin/init}"
"""


def _closure(root: Path) -> tuple[str, list[Path]]:
    """The modules to load, in load order (dependencies first), and their files."""
    kdir = sorted((root / "lib/modules").iterdir())[-1]
    deps: dict[str, list[str]] = {}
    for line in (kdir / "modules.dep").read_text().splitlines():
        mod, _, rest = line.partition(":")
        deps[mod] = rest.split()
    by_name = {Path(m).name.split(".ko")[0].replace("-", "_"): m for m in deps}
    order: list[str] = []

    def add(mod: str) -> None:
        for d in reversed(deps[mod]):
            add(d)
        if mod not in order:
            order.append(mod)

    for name in MODULES:
        add(by_name[name])
    return kdir.name, [kdir / m for m in order]


def _cpio(entries: list[tuple[str, int, bytes]]) -> bytes:
    """A newc cpio archive of (name, mode, data) entries."""
    out = io.BytesIO()
    for ino, (name, mode, data) in enumerate([*entries, ("TRAILER!!!", 0, b"")], 1):
        nb = name.encode() + b"\0"
        fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(nb), 0]
        out.write(b"070701" + b"".join(b"%08X" % f for f in fields) + nb)
        out.write(b"\0" * (-(110 + len(nb)) % 4))
        out.write(data)
        out.write(b"\0" * (-len(data) % 4))
    return out.getvalue()


def build(root: Path, out: Path) -> Path:
    """Write the initramfs for the kernel in `root` (which has busybox-static) to `out`."""
    _, files = _closure(root)
    d, f = stat.S_IFDIR | 0o755, stat.S_IFREG
    entries: list[tuple[str, int, bytes]] = [
        ("bin", d, b""), ("lib", d, b""), ("lib/modules", d, b""),
        ("bin/busybox", f | 0o755, (root / "bin/busybox").read_bytes()),
        ("init", f | 0o755, INIT.encode()),
        ("modules.order", f | 0o644, "\n".join(p.name for p in files).encode() + b"\n"),
    ]
    entries += [(f"lib/modules/{p.name}", f | 0o644, p.read_bytes()) for p in files]
    out.write_bytes(gzip.compress(_cpio(entries), compresslevel=6))
    return out

"""The VM harness's card image and initramfs (images/vm/), built for real and read back.

`images/vm.sh --check` boots these under qemu-system-aarch64 (a run of many minutes, in
.ci/run); here the same builders run on a small root in seconds and the results are
read back with the tools a person would use: sfdisk for the partition table, mtools for
the FAT "bootfs" partition, debugfs for the ext4 root.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "images" / "vm"))

import initramfs  # noqa: E402
import roots  # noqa: E402


def small_root(tmp: Path) -> Path:
    root = tmp / "root"
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text("console=tty3 root=/dev/vda2 rootwait\n")
    (root / "etc").mkdir()
    (root / "etc/hostname").write_text("pk-table-1\n")
    return root


def partition(img: Path, n: int, out: Path) -> Path:
    table = subprocess.run(["sfdisk", "-d", str(img)], capture_output=True, text=True,
                           check=True).stdout
    line = next(ln for ln in table.splitlines() if ln.startswith(f"{img}{n} "))
    fields = dict(f.strip().split("=", 1) for f in line.split(":", 1)[1].split(","))
    start, size = int(fields["start"]), int(fields["size"])
    subprocess.run(["dd", f"if={img}", f"of={out}", "bs=512", f"skip={start}",
                    f"count={size}", "status=none"], check=True)
    return out


def test_card_has_bootfs_with_the_config_and_an_ext4_root(tmp_path: Path) -> None:
    root = small_root(tmp_path)
    toml = tmp_path / "table-1.toml"
    toml.write_text("[table]\nnumber = 1\n")
    img = roots.disk(root, {"table-1.toml": toml}, tmp_path / "card.img", spare_mb=16)

    table = subprocess.run(["sfdisk", "-d", str(img)], capture_output=True, text=True,
                           check=True).stdout
    assert "type=c" in table and "type=83" in table
    boot = partition(img, 1, tmp_path / "p1")
    env = {"MTOOLS_SKIP_CHECK": "1", "PATH": "/usr/bin:/bin"}
    listing = subprocess.run(["mdir", "-b", "-i", str(boot), "::/pokerkiosk"], env=env,
                             capture_output=True, text=True, check=True).stdout
    assert "table-1.toml" in listing
    cmdline = subprocess.run(["mtype", "-i", str(boot), "::/cmdline.txt"], env=env,
                             capture_output=True, text=True, check=True).stdout
    assert "root=/dev/vda2" in cmdline
    ext4 = partition(img, 2, tmp_path / "p2")
    hostname = subprocess.run(["debugfs", "-R", "cat /etc/hostname", str(ext4)],
                              capture_output=True, text=True, check=True).stdout
    assert hostname == "pk-table-1\n"
    inside = subprocess.run(["debugfs", "-R", "ls -p /boot/firmware", str(ext4)],
                            capture_output=True, text=True, check=True).stdout
    assert "cmdline.txt" not in inside, "the root's /boot/firmware is the mount point"
    # the source root is left as it was: its boot files are back in place
    assert (root / "boot/firmware/cmdline.txt").is_file()


def read_cpio(data: bytes) -> dict[str, bytes]:
    files, pos = {}, 0
    while True:
        head = data[pos:pos + 110]
        assert head[:6] == b"070701"
        size, namesize = int(head[54:62], 16), int(head[94:102], 16)
        name = data[pos + 110:pos + 110 + namesize - 1].decode()
        pos += 110 + namesize
        pos += -pos % 4
        if name == "TRAILER!!!":
            return files
        files[name] = data[pos:pos + size]
        pos += size + (-size % 4)


def test_initramfs_loads_each_module_after_its_dependencies(tmp_path: Path) -> None:
    root = tmp_path / "root"
    kdir = root / "lib/modules/6.1.0-test-arm64"
    # modules.dep lists a module's dependencies last-to-load first, as modprobe reads it
    modern = "kernel/drivers/virtio/virtio_pci_modern_dev.ko"
    mods = {"kernel/drivers/virtio/virtio_pci.ko": modern,
            modern: "",
            "kernel/drivers/block/virtio_blk.ko": "",
            "kernel/crypto/crc32c_generic.ko": "",
            "kernel/fs/ext4/ext4.ko": "kernel/lib/crc16.ko kernel/fs/jbd2/jbd2.ko",
            "kernel/lib/crc16.ko": "", "kernel/fs/jbd2/jbd2.ko": "",
            "kernel/net/unrelated.ko": ""}
    for mod in mods:
        (kdir / mod).parent.mkdir(parents=True, exist_ok=True)
        (kdir / mod).write_bytes(b"\x7fELF " + mod.encode())
    (kdir / "modules.dep").write_text("".join(f"{m}: {d}\n" for m, d in mods.items()))
    (root / "bin").mkdir()
    (root / "bin/busybox").write_bytes(b"busybox")

    files = read_cpio(gzip.decompress(initramfs.build(root, tmp_path / "rd").read_bytes()))
    order = files["modules.order"].decode().split()
    assert order == ["virtio_pci_modern_dev.ko", "virtio_pci.ko", "virtio_blk.ko",
                     "crc32c_generic.ko", "jbd2.ko", "crc16.ko", "ext4.ko"]
    assert files["lib/modules/ext4.ko"] == b"\x7fELF kernel/fs/ext4/ext4.ko"
    assert "lib/modules/unrelated.ko" not in files
    assert files["init"].startswith(b"#!/bin/busybox sh") and b"switch_root" in files["init"]

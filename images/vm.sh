#!/bin/bash
# Boot the appliance's arm64 images under QEMU and check them (images/README.md, "VMs").
#
#   images/vm.sh --build-cache         build and cache the arm64 roots (cold: tens of minutes)
#   images/vm.sh --check [--json]      boot director + two tables, print the figures
#
# Needs root (roots are unpacked with their owners; install-root.sh mounts /proc),
# qemu-system-arm, qemu-user-static, proot, debootstrap, mtools, dosfstools, e2fsprogs,
# fdisk; the project's venv (.venv, or $PYTHON) for `pokerkiosk provision` and Pillow.
set -euo pipefail
HERE=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
REPO=$(realpath "$HERE/..")
PYTHON=${PYTHON:-$REPO/.venv/bin/python}
die() { echo "vm.sh: $*" >&2; exit 2; }
[ "$(id -u)" = 0 ] || die "run as root"
for tool in qemu-system-aarch64 qemu-aarch64-static proot debootstrap mcopy mkfs.vfat socat \
            mkfs.ext4 sfdisk; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || die "missing $tool (see images/README.md)"
done
[ -x "$PYTHON" ] || die "no Python at $PYTHON (make the venv, or set PYTHON)"
exec "$PYTHON" "$HERE/vm/main.py" "$@"

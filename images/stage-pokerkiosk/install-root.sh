#!/bin/bash
# Install pokerkiosk into a root filesystem: venv (a table's: the A/B install folder its
# updater switches), systemd units, configs, user, services.
#
#   install-root.sh ROOTFS table|director WHEEL
#
# Runs on the build host against a mounted/unpacked root (the pi-gen stage calls it
# with $ROOTFS_DIR; the tests call it on a debootstrapped Debian bookworm root), so it
# needs only chroot, not a booted system. The root must have python3 and python3-venv.
#   PK_SRC        dir holding systemd/ and firmware_cfg/ (default: this repository)
#   PK_WHEELHOUSE dir of dependency wheels: install offline from it, not from PyPI
#   PK_EXTRAS     pip extras (default: "table" for tables, "director" for the director)
#   PK_CHROOT     how to run a command inside ROOTFS (default: chroot); for a root of
#                 another architecture without binfmt_misc, e.g.
#                 "proot -0 -q qemu-aarch64-static -b /dev -b /proc -w / -r" (images/vm.sh)
set -euo pipefail

die() { echo "install-root: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: $0 ROOTFS table|director WHEEL"
ROOTFS=$(realpath "$1")
ROLE=$2
WHEEL=$(realpath "$3")
HERE=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
SRC=${PK_SRC:-$(realpath "$HERE/../..")}
case "$ROLE" in table|director) ;; *) die "role must be table or director, not '$ROLE'" ;; esac
[ "$(id -u)" = 0 ] || die "run as root (chroot, file ownership)"
[ -f "$WHEEL" ] || die "no wheel at $WHEEL"
[ -x "$ROOTFS/usr/bin/python3" ] || die "$ROOTFS has no /usr/bin/python3"
[ -d "$SRC/systemd" ] && [ -d "$SRC/firmware_cfg" ] || die "no systemd/ and firmware_cfg/ in $SRC"
EXTRAS=${PK_EXTRAS-$ROLE}
VENV=/opt/pokerkiosk/venv
GROUPS_NEEDED=(video render input dialout gpio)

# PK_CHROOT is a command line: split on spaces on purpose, then the root, then the command.
# shellcheck disable=SC2086
in_root() { ${PK_CHROOT:-chroot} "$ROOTFS" "$@"; }

# pip and venv want /proc and a few /dev nodes. Mount /proc unless the caller (pi-gen's
# on_chroot) did; /dev gets a private tmpfs with just the standard nodes when the root
# has none, never a bind of the host's /dev that a careless `rm -rf` could reach.
MOUNTED=()
cleanup() {
    rm -rf "$ROOTFS/tmp/pokerkiosk-install"
    for ((i=${#MOUNTED[@]}-1; i>=0; i--)); do umount -l "${MOUNTED[$i]}" || true; done
}
trap cleanup EXIT
if ! mountpoint -q "$ROOTFS/proc"; then
    mkdir -p "$ROOTFS/proc"
    mount -t proc proc "$ROOTFS/proc"
    MOUNTED+=("$ROOTFS/proc")
fi
if [ ! -c "$ROOTFS/dev/null" ]; then
    mkdir -p "$ROOTFS/dev"
    mount -t tmpfs -o mode=0755,size=1m pokerkiosk-dev "$ROOTFS/dev"
    MOUNTED+=("$ROOTFS/dev")
    for n in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
        set -- $n
        mknod -m 0666 "$ROOTFS/dev/$1" c "$2" "$3"
    done
fi

echo "install-root: user and groups"
for g in "${GROUPS_NEEDED[@]}"; do
    # Pi OS ships gpio; plain Debian does not, and systemd refuses a unit whose
    # SupplementaryGroups names a missing group.
    in_root getent group "$g" >/dev/null || in_root groupadd --system "$g"
done
if ! in_root getent passwd pokerkiosk >/dev/null; then
    in_root useradd --system --user-group --home-dir /var/lib/pokerkiosk --no-create-home \
        --shell /usr/sbin/nologin --comment "pokerkiosk service" pokerkiosk
fi
in_root usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" pokerkiosk

STAGE=/tmp/pokerkiosk-install
mkdir -p "$ROOTFS$STAGE"
cp "$WHEEL" "$ROOTFS$STAGE/"
PIP_SOURCE=()
if [ -n "${PK_WHEELHOUSE:-}" ]; then
    cp "$PK_WHEELHOUSE"/*.whl "$ROOTFS$STAGE/"
    PIP_SOURCE=(--no-index --find-links "$STAGE")
fi
SPEC="$STAGE/$(basename "$WHEEL")"
if [ -n "$EXTRAS" ]; then SPEC="$SPEC[$EXTRAS]"; fi
pip_in() {  # pip_in PYTHON ARGS...: --no-user, always. A venv with system site-packages
    # lets pip fall back to ~/.local when it judges site-packages unwritable (it does
    # under user-mode emulation), and the unit's pokerkiosk would then not exist.
    local py=$1; shift
    in_root env PIP_DISABLE_PIP_VERSION_CHECK=1 "$py" -m pip "$@"
}

if [ "$ROLE" = director ]; then
    echo "install-root: venv at $VENV"
    [ -x "$ROOTFS$VENV/bin/python" ] || in_root python3 -m venv "$VENV"
    pip_in "$VENV/bin/python" install --no-cache-dir --no-user "${PIP_SOURCE[@]}" --upgrade "$SPEC"
    # ...and this wheel itself, even when a kiosk of the same version is there already (pip
    # calls it satisfied, and a cached root re-run with a newer build would keep the old code)
    pip_in "$VENV/bin/python" install --no-cache-dir --no-user --no-deps --force-reinstall \
        "$STAGE/$(basename "$WHEEL")"
else
    # A table updates itself (docs/updates.md): the dependencies in a read-only base layer,
    # each kiosk version in its own environment ab/envs/VERSION that adds the base layer
    # (pokerkiosk-base.pth), ab/current -> the one the unit runs, venv -> ab/current. The
    # base keeps Debian's system site-packages (python3-lgpio, GPIO on a Pi 5).
    AB=/opt/pokerkiosk/ab
    BASE=/opt/pokerkiosk/base
    if [ -d "$ROOTFS$VENV" ] && [ ! -L "$ROOTFS$VENV" ] && [ ! -e "$ROOTFS$BASE" ]; then
        mv "$ROOTFS$VENV" "$ROOTFS$BASE"     # a root made before the A/B layout
    fi
    echo "install-root: dependencies at $BASE"
    [ -x "$ROOTFS$BASE/bin/python" ] || in_root python3 -m venv --system-site-packages "$BASE"
    pip_in "$BASE/bin/python" install --no-cache-dir --no-user "${PIP_SOURCE[@]}" --upgrade "$SPEC"
    pip_in "$BASE/bin/python" uninstall --yes poker-kiosk >/dev/null
    VERSION=$(basename "$WHEEL" | cut -d- -f2)
    ENV="$AB/envs/$VERSION"
    echo "install-root: kiosk $VERSION at $ENV"
    rm -rf "$ROOTFS$ENV"
    in_root python3 -m venv --system-site-packages --without-pip "$ENV"
    BASE_SITE=$(in_root "$BASE/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    ENV_SITE=$(in_root "$ENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    echo "import site; site.addsitedir('$BASE_SITE')" > "$ROOTFS$ENV_SITE/pokerkiosk-base.pth"
    pip_in "$ENV/bin/python" install --no-cache-dir --no-user --no-deps --no-index \
        "$STAGE/$(basename "$WHEEL")"
    ln -sfn "envs/$VERSION" "$ROOTFS$AB/current"
    rm -f "$ROOTFS$AB/previous" "$ROOTFS$AB/trial.json" "$ROOTFS$AB/rolled-back.json"
    ln -sfn ab/current "$ROOTFS$VENV"     # relative: it resolves on the build host too
    in_root chown -R pokerkiosk:pokerkiosk "$AB"
    # The supervisor, the unit's judge of a new version, in a copy no release replaces
    # and the kiosk cannot write (docs/updates.md): standard library and these files only.
    SUP="$ROOTFS/opt/pokerkiosk/supervisor"
    rm -rf "$SUP"
    for f in __init__.py releases/__init__.py releases/ab.py releases/supervisor.py; do
        install -D -m 0644 "$ROOTFS$ENV_SITE/kiosk/$f" "$SUP/kiosk/$f"
    done
fi
[ -x "$ROOTFS$VENV/bin/pokerkiosk" ] || die "pip did not install $VENV/bin/pokerkiosk"
ln -sfn "$VENV/bin/pokerkiosk" "$ROOTFS/usr/local/bin/pokerkiosk"

echo "install-root: configs and units for the $ROLE"
install -d -m 0750 "$ROOTFS/etc/pokerkiosk"
in_root chown root:pokerkiosk /etc/pokerkiosk
echo "$ROLE" > "$ROOTFS/etc/pokerkiosk/role"
install -d -m 0700 "$ROOTFS/var/lib/pokerkiosk"
install -D -m 0755 "$HERE/import-config.sh" "$ROOTFS/opt/pokerkiosk/import-config.sh"
UNITS=(pokerkiosk-import.service "pokerkiosk-$ROLE.service")
if [ "$ROLE" = table ]; then
    UNITS+=(pokerkiosk-unprovisioned.service)
    install -m 0755 "$HERE/unprovisioned.sh" "$ROOTFS/opt/pokerkiosk/unprovisioned.sh"
fi
for u in "${UNITS[@]}"; do
    install -D -m 0644 "$SRC/systemd/$u" "$ROOTFS/etc/systemd/system/$u"
done
install -d "$ROOTFS/etc/chrony"
install -m 0644 "$SRC/firmware_cfg/chrony-$ROLE.conf" "$ROOTFS/etc/chrony/chrony.conf"
if [ "$ROLE" = director ]; then
    install -D -m 0644 "$SRC/systemd/mosquitto.service.d/pokerkiosk.conf" \
        "$ROOTFS/etc/systemd/system/mosquitto.service.d/pokerkiosk.conf"
    install -d -m 0750 "$ROOTFS/etc/mosquitto/pokerkiosk"
    install -m 0644 "$SRC/firmware_cfg/mosquitto.conf" "$ROOTFS/etc/mosquitto/mosquitto.conf"
else
    install -D -m 0644 "$SRC/firmware_cfg/kivy_config.ini" \
        "$ROOTFS/var/lib/pokerkiosk/kivy/config.ini"
    BOOT="$ROOTFS/boot/firmware"
    if [ -d "$BOOT" ]; then
        install -m 0644 "$SRC/firmware_cfg/config.txt" "$BOOT/config.txt"
        # Keep the image's own root= (PARTUUID, or pi-gen's ROOTDEV placeholder).
        ROOT_ARG=$(grep -o 'root=[^ ]*' "$BOOT/cmdline.txt" 2>/dev/null || echo root=ROOTDEV)
        sed "s|root=ROOTDEV|$ROOT_ARG|" "$SRC/firmware_cfg/cmdline.txt" > "$BOOT/cmdline.txt"
    else
        echo "install-root: no /boot/firmware in $ROOTFS: Pi boot files not installed"
    fi
fi
in_root chown -R pokerkiosk:pokerkiosk /var/lib/pokerkiosk

echo "install-root: enable ${UNITS[*]}"
enable_units() {
    if [ -x "$ROOTFS/usr/bin/systemctl" ]; then
        in_root systemctl enable "$@"
    elif command -v systemctl >/dev/null; then
        systemctl --root="$ROOTFS" enable "$@"   # offline: only writes the symlinks
    else
        for u in "$@"; do
            mkdir -p "$ROOTFS/etc/systemd/system/multi-user.target.wants"
            ln -sfn "/etc/systemd/system/$u" "$ROOTFS/etc/systemd/system/multi-user.target.wants/$u"
        done
    fi
}
enable_units "${UNITS[@]}"
if [ "$ROLE" = table ]; then
    # The header UART belongs to the card reader, not to a login prompt.
    ln -sfn /dev/null "$ROOTFS/etc/systemd/system/serial-getty@ttyAMA0.service"
    ln -sfn /dev/null "$ROOTFS/etc/systemd/system/serial-getty@serial0.service"
fi
echo "install-root: $ROLE installed in $ROOTFS"

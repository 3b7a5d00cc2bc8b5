#!/bin/bash
# Build a Raspberry Pi OS (Bookworm, arm64) SD card image for a table or the director.
#
#   images/build.sh --role table|director --pi-gen DIR [--docker] [--ssh-key FILE]
#
# DIR is a checkout of https://github.com/RPi-Distro/pi-gen (branch "arm64"). The image
# holds no secrets: each Pi gets its config from `pokerkiosk provision` output copied
# to the boot partition after flashing (see images/README.md).
set -euo pipefail
die() { echo "build.sh: $*" >&2; exit 1; }

ROLE="" PIGEN="" DOCKER=0 SSH_KEY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --role) ROLE=$2; shift 2 ;;
        --pi-gen) PIGEN=$2; shift 2 ;;
        --docker) DOCKER=1; shift ;;
        --ssh-key) SSH_KEY=$2; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) die "unknown option $1" ;;
    esac
done
case "$ROLE" in table|director) ;; *) die "--role table|director is required" ;; esac
[ -n "$PIGEN" ] && [ -x "$PIGEN/build.sh" ] || die "--pi-gen must name a pi-gen checkout"
PIGEN=$(realpath "$PIGEN")
REPO=$(realpath "$(dirname "$0")/..")
PYTHON=${PYTHON:-python3}

STAGE="$PIGEN/stage-pokerkiosk"
rm -rf "$STAGE"
cp -a "$REPO/images/stage-pokerkiosk" "$STAGE"
FILES="$STAGE/00-install/files"
mkdir -p "$FILES"
cp -a "$REPO/systemd" "$REPO/firmware_cfg" "$FILES/"
# pi-gen installs 00-packages-nr without recommends: the role's own package list.
cp "$STAGE/00-install/$ROLE.packages" "$STAGE/00-install/00-packages-nr"
"$PYTHON" -m pip wheel --no-deps -w "$FILES" "$REPO"

# Only our stage exports an image; stage2 (Lite) is just its base.
touch "$PIGEN/stage2/SKIP_IMAGES"
KEY_LINE=""
if [ -n "$SSH_KEY" ]; then
    KEY_LINE="PUBKEY_SSH_FIRST_USER=\"$(cat "$SSH_KEY")\"
PUBKEY_ONLY_SSH=1"
fi
cat > "$PIGEN/config" <<CONF
IMG_NAME=pokerkiosk-$ROLE
RELEASE=bookworm
TARGET_HOSTNAME=pk-$ROLE
FIRST_USER_NAME=pkadmin
FIRST_USER_PASS="$(openssl rand -base64 12)"
DISABLE_FIRST_BOOT_USER_RENAME=1
ENABLE_SSH=1
$KEY_LINE
LOCALE_DEFAULT=en_GB.UTF-8
TIMEZONE_DEFAULT=Europe/London
STAGE_LIST="stage0 stage1 stage2 stage-pokerkiosk"
export PK_ROLE=$ROLE
CONF
echo "build.sh: admin user pkadmin, password in $PIGEN/config (FIRST_USER_PASS)"

cd "$PIGEN"
if [ "$DOCKER" = 1 ]; then
    ./build-docker.sh -c config
else
    ./build.sh -c config
fi
ls -l "$PIGEN/deploy/"

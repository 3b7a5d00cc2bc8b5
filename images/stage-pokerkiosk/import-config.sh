#!/bin/bash
# First boot (and any boot after): take this Pi's files from the SD card's FAT partition.
#
# `pokerkiosk provision` output is copied from a laptop into /boot/firmware/pokerkiosk/
# (the only partition every OS can write). This moves each file to its place with the
# right owner and mode, then deletes it from FAT, where anyone could read it.
set -euo pipefail
IN=${PK_IMPORT_DIR:-/boot/firmware/pokerkiosk}
ETC=${PK_ETC:-/etc}
[ -d "$IN" ] || exit 0
shopt -s nullglob

put() {  # put SRC DEST OWNER:GROUP MODE
    install -D -o "${3%%:*}" -g "${3##*:}" -m "$4" "$1" "$2"
    rm -f "$1"
    echo "pokerkiosk-import: $(basename "$1") -> $2"
}

for f in "$IN"/table*.toml; do
    put "$f" "$ETC/pokerkiosk/table.toml" root:pokerkiosk 0640
    # chrony follows the same host the table's broker url names.
    HOST=$(sed -n 's|^url *= *"mqtts\?://\([^:/"]*\).*|\1|p' "$ETC/pokerkiosk/table.toml")
    if [ -n "$HOST" ] && [ -f "$ETC/chrony/chrony.conf" ]; then
        sed -i "s|^server .*|server $HOST iburst minpoll 4 maxpoll 6|" "$ETC/chrony/chrony.conf"
    fi
done
maybe() {  # like put, for a file that may not be there
    if [ -f "$1" ]; then put "$@"; fi
}
maybe "$IN/event.toml" "$ETC/pokerkiosk/event.toml" root:pokerkiosk 0640
maybe "$IN/floor-users.toml" "$ETC/pokerkiosk/floor-users.toml" root:pokerkiosk 0640
maybe "$IN/https.key" "$ETC/pokerkiosk/https.key" root:pokerkiosk 0640
maybe "$IN/https.crt" "$ETC/pokerkiosk/https.crt" root:root 0644
# updates (docs/updates.md): the tables' logins the director serves releases to, the key
# `pokerkiosk release` signs with (root's only), and the public key every machine checks
maybe "$IN/table-logins" "$ETC/pokerkiosk/table-logins" root:pokerkiosk 0640
maybe "$IN/release-signing.key" "$ETC/pokerkiosk/release-signing.key" root:root 0600
maybe "$IN/release.pub" "$ETC/pokerkiosk/release.pub" root:root 0644
maybe "$IN/update.toml" "$ETC/pokerkiosk/update.toml" root:pokerkiosk 0640
if [ -f "$IN/ca.crt" ]; then
    cp "$IN/ca.crt" "$IN/.ca.crt.broker"
    put "$IN/ca.crt" "$ETC/pokerkiosk/ca.crt" root:root 0644
fi
if getent group mosquitto >/dev/null; then
    B="$ETC/mosquitto/pokerkiosk"
    # The broker reads these as user mosquitto: the directory must let it in.
    install -d -o root -g mosquitto -m 0750 "$B"
    maybe "$IN/passwd" "$B/passwd" root:mosquitto 0640
    maybe "$IN/acl" "$B/acl" root:mosquitto 0640
    maybe "$IN/server.key" "$B/server.key" root:mosquitto 0640
    maybe "$IN/server.crt" "$B/server.crt" root:mosquitto 0644
    maybe "$IN/.ca.crt.broker" "$B/ca.crt" root:mosquitto 0644
    maybe "$IN/mosquitto.conf" "$ETC/mosquitto/mosquitto.conf" root:root 0644
fi
rm -f "$IN/.ca.crt.broker"

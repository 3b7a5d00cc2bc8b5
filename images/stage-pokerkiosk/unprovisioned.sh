#!/bin/bash
# A table card with no config: say so on the kiosk's screen and in the journal, and wait.
#
# pokerkiosk-unprovisioned.service runs this on tty1 (the display) only when
# /etc/pokerkiosk/table.toml is missing after the first-boot import; the kiosk's own unit
# does not start then, so the Pi neither crash-loops nor reboots over a missing file.
set -u
CONFIG=${PK_TABLE_CONFIG:-/etc/pokerkiosk/table.toml}
DROP=${PK_IMPORT_DIR:-/boot/firmware/pokerkiosk}
if [ -d "$DROP" ]; then
    WHY="$CONFIG is missing and $DROP holds no table-N.toml"
else
    WHY="$CONFIG is missing and the card has no $DROP folder"
fi
echo "pokerkiosk: table not provisioned: $WHY" >&2
printf '\033[2J\033[H\n\n'
printf '   POKER KIOSK: THIS TABLE IS NOT PROVISIONED\n\n'
printf '   %s.\n\n' "$WHY"
printf '   Copy table-N.toml and ca.crt from `pokerkiosk provision` output into the\n'
printf '   folder pokerkiosk/ on the card'"'"'s boot partition (bootfs), then restart.\n'
exec sleep infinity

#!/bin/bash -e
# pi-gen (inside the Pi's root): the role's packages came from 00-packages-nr, which
# build.sh writes from table.packages or director.packages.
if [ "${PK_ROLE}" = director ]; then
	systemctl enable mosquitto.service
fi
# The tables and director must never stop for an interactive first-boot wizard.
systemctl disable userconfig.service 2>/dev/null || true

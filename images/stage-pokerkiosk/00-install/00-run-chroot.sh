#!/bin/bash -e
# pi-gen (inside the Pi's root): packages that only one role needs.
case "${PK_ROLE}" in
table)
	# GPIO for gpiozero on Pi 4 and Pi 5, multitouch, GL for Kivy on KMS.
	apt-get install -y --no-install-recommends python3-lgpio libmtdev1 libgl1-mesa-dri \
		libegl1 libgles2 libgbm1 libdrm2
	;;
director)
	apt-get install -y --no-install-recommends mosquitto mosquitto-clients
	systemctl enable mosquitto.service
	;;
esac
# The tables and director must never stop for an interactive first-boot wizard.
systemctl disable userconfig.service 2>/dev/null || true

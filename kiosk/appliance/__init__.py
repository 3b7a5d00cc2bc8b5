"""Turning Raspberry Pis into a room: provisioning, systemd notify, self-checks.

Nothing here is imported by the tournament code paths except `sdnotify`, which the
table UI loop and the director loop call so systemd can restart a frozen process. May
import the config, kiosk.mqtt, the protocol, the releases and the base.
"""

"""Turning Raspberry Pis into a room: provisioning (broker users, ACL, TLS, configs),
`doctor`'s self-checks, the touch screen's setup and the PostgreSQL replica.

Nothing here is imported by the tournament's code paths: what they need of the machine
(systemd notify, the GPIO chip, password hashes, TLS files) is kiosk.system's. May import
the config, kiosk.mqtt, the protocol, the releases, kiosk.system and the base.
"""

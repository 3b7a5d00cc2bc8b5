"""What the kiosk and the director need of the machine they run on: systemd's notify and
watchdog (`sdnotify`), the Pi's GPIO chip (`gpiochip`), password hashes for broker and
floor logins (`passwords`), TLS files (`tls`).

Low in the layers: the table, the director and the appliance's tools all use these, and
they import nothing of the product but the base. The pure core never imports them.
"""

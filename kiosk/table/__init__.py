"""The table kiosk: a pure controller driven by the UI, GPIO, card reader and MQTT link.

The flows (`flows`), the controller and the views they build are pure (contract
`table-pure`: no link, outbox, service, device, screen, broker or disk); the link and
outbox carry reports; the devices (`hardware`) and the screen (`ui`) are thin adapters
over the service (contract `table` layers them). May import the core, the protocol, the
config, kiosk.mqtt, the printer, the releases and kiosk.system; never the director.
"""

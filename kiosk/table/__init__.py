"""The table kiosk: a pure controller driven by the UI, GPIO, card reader and MQTT link.

The flows (`flows`) and the controller are pure; the link and outbox carry reports; the
devices (`hardware`) and the screen (`ui`) are thin adapters. May import the core, the
protocol, the config, kiosk.mqtt, the printer, the releases and the appliance's notify;
never the director.
"""

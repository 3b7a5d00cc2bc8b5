"""The table kiosk: a pure controller driven by the UI, GPIO, card reader and MQTT link."""

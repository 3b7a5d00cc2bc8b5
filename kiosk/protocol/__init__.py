"""The MQTT contract between director and tables (see docs/protocol.md)."""

"""The MQTT contract between director and tables (see docs/protocol.md).

Imports only the core (the declared events a report carries) and the base; never the
director nor the table, which both speak it.
"""

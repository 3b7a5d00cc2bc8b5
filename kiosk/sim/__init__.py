"""Tournament simulator: virtual tables playing through the core, in process (`engine`,
`fields`, `hand`) or over MQTT (`mqtt_field`, `mqtt_reports`), waiting at a hand's end for
a relief whose push is due (`push_wait`).

May import the director and everything below it; never the table's screen. The demo room
(kiosk.demo) and the harness that soaks the product (bench/harness) build on it.
"""

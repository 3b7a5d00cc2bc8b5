"""The event's chips: which denominations leave at a break and each profile's colour-up
(`chips`), the colour-up races (`races`), and the part that runs chip counts, colour-ups
and the end of a day's bags (`chip_counts`).

Imports only `kiosk.core.model` and `kiosk.core.calc`.
"""

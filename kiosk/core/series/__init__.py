"""An event's place in a series: a satellite that ends at its seats (`satellites`) and a
flight that bags its survivors for a Day 2 (`flights`), each a part of the event.

Imports only `kiosk.core.model` and `kiosk.core.calc`; the room (kiosk.core.room) carries
the tickets and the Day 2 across events.
"""

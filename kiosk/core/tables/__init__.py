"""The event's parts that decide seats: seating, the draws (opening, newcomers, redraws),
balancing and breaking (TDA 9, 10) and the final table (TDA 11).

Each part owns its state and imports none of the other parts (contract `core-parts`): only
`kiosk.core.model` and `kiosk.core.calc`.
"""

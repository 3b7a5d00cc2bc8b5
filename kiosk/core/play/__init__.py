"""The event's parts that run the play: entries and players (`registry`), the clock and
levels with hand-for-hand (`levels`), busts (`busts`), floor and clock calls with
penalties (`floor`, `penalties`), what a table's reports mean (`reports`), and the tools
against stalling: the shot clock and its time banks (`shot_clock`), orbit for orbit and
levels counted in hands (`pace`).

Each part owns its state and imports none of the other parts (contract `core-parts`): only
`kiosk.core.model` and `kiosk.core.calc`.
"""

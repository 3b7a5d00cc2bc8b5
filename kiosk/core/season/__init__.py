"""A season's leagues: points per result by a checked formula (`formulas`), and the
standings over the events that count (`leagues`).

Imports nothing else of the core: a league reads finished events' results as plain rows.
"""

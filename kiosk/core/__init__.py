"""The tournament rules as plain Python: no I/O, no threads, no wall clock.

Time is always an argument (seconds since the epoch, as a float) and every random
choice takes an injected `random.Random`, so the same inputs give the same state.

Folders are layers (contract `core`): the room over the event and the dealers' roadmap
(dealers), the event over its parts (tables, play, money, chips, series), the parts over
the model, the model over the arithmetic (calc); the season stands apart. The core
imports only the rules and the base's errors and CSV cells.
"""

"""The tournament rules as plain Python: no I/O, no threads, no wall clock.

Time is always an argument (seconds since the epoch, as a float) and every random
choice takes an injected `random.Random`, so the same inputs give the same state.
"""

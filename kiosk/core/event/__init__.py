"""One event as the fold of its stream: the tournament that composes the parts and decides
commands (`tournament`), the plans and schedule derived from it (`plans`), and its record
of results (`results`).

May import the parts' folders (tables, play, money, chips, series), the model and the calc.
"""

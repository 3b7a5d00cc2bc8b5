"""The dealers' rotation as the fold of the `dealers` stream: who is in, the strings over
the tables in play with their reliefs, each table's next push, the break queue and the EO
list (`roadmap`); the floor's view of it with its alerts (`board`); the downs dealt and
each event's staff share divided by them (`records`).

A part of the room (it folds from the room's stream), under the room and beside the event:
may import the model and the calc, never the room or an event (the director tells the
roadmap which tables open and close, and whether a hand is on).
"""

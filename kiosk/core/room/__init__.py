"""The room as the fold of its own stream: the pool of tables and which event each serves,
the room's players and tickets (`players`), reservations and alternates
(`reservations`), and the decisions across events (`room`).

The top layer of the core: may import the event, the model and the calc.
"""

"""The room as the fold of its own stream: the pool of tables and which event each serves,
the room's players and tickets (`players`), reservations and alternates
(`reservations`), and the decisions across events (`room`), with the dealers' roadmap
(kiosk.core.dealers) as one of its parts.

The top layer of the core: may import the event, the dealers, the model and the calc.
"""

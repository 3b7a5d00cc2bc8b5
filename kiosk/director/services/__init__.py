"""The director's application services beside the room's service: they decide inside its
transactions but are no aggregate of their own. `bookings`: reservations and alternates as
the desk runs them; `dealers`: the dealers' rotation told what only the director sees (the
room's tables, an event's break) and the badge and PIN checked.

May import the centre and the log; no broker, page, printer or lease (their adapters call
these services).
"""

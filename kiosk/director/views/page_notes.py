"""The pages' outbox of the room's service: what each commit changed, as notes on the hub
(kiosk.director.views.hub) that the dashboard's and the TV clock's live feed (/ws) and the
players' pages follow.

It hears the commit itself, like the MQTT publishing and the printer (one more
`kiosk.director.centre.ports:Outbox`), so the pages stay live with the broker away, and it
only reads the commit's change value: nothing it does takes a plan from the tables.
"""

from __future__ import annotations

from kiosk.director.centre.batch import Batch
from kiosk.director.centre.changed import Changed
from kiosk.director.centre.event_aggregate import EventAggregate
from kiosk.director.views.hub import Hub


class PageNotes:
    """Per commit: each changed event's tables and its header (`summary`), and `room`
    when the room's stream was written (an event opened, a table moved, a ticket)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def opened(self, desk: EventAggregate) -> None:
        """A desk held: the pages hear of it with the commit that wrote it."""

    def committed(self, batch: Batch, changed: Changed) -> None:
        for name, one in changed.events.items():
            if one.tables:
                self.hub.publish({"type": "tables", "event": name,
                                  "tables": sorted(one.tables)})
            self.hub.publish({"type": "summary", "event": name})
        if changed.room:
            self.hub.publish({"type": "room"})

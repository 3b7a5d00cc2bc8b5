"""Commands: declared once, decoded at the edge, every one decided by a part."""

from __future__ import annotations

import pytest
from core_kit import Room

from kiosk.core.event.tournament import Tournament
from kiosk.core.model import commands as cmd_
from kiosk.core.model import dealer_events, reservation_events, room_events
from kiosk.core.model import events as ev_


def test_every_declared_command_report_and_event_has_a_handler() -> None:
    assert set(Tournament.DECIDES) == set(cmd_.COMMANDS.values())
    assert set(Tournament.report_handlers) == set(cmd_.TableReport.__subclasses__())
    assert set(Tournament.FOLDS) == (set(ev_.KINDS.values()) - {ev_.Created}
                                     - set(room_events.ROOM_EVENTS)
                                     - set(reservation_events.RESERVATION_EVENTS)
                                     - set(dealer_events.DEALER_EVENTS))


@pytest.mark.parametrize(("raw", "why"), [
    ({"kind": "bust", "player": 7}, "bad bust command: Expected `str`"),
    ({"kind": "move", "player": "p1"}, "missing required field `table`"),
    ({"kind": "penalty", "player": "p1", "type": "x", "amount": 1.5}, "amount"),
    ({"kind": "h4h", "on": "yes"}, "bad h4h command"),
    ({"kind": "report", "table": 1, "report": {"id": "r", "table": 1, "kind": "all_in",
                                               "data": {"seat": 11, "hand": 1}}}, "<= 10"),
    ({"kind": "nap"}, "unknown command 'nap'"),
    ({}, "unknown command None"),
])
def test_a_command_that_does_not_fit_its_schema_is_refused_and_changes_nothing(
        raw: dict, why: str) -> None:
    room = Room(12)
    before = (room.tour.n_events, {p.id: p.status for p in room.tour.players.values()})
    with pytest.raises(cmd_.CommandError, match=why):
        room.tour.execute(raw, room.t)
    assert (room.tour.n_events, {p.id: p.status for p in room.tour.players.values()}) == before


def test_a_typed_command_and_its_json_shape_decide_the_same() -> None:
    a, b = Room(12), Room(12)
    pid = next(iter(a.tour.tables[1].seat_of.values()))
    typed = a.tour.execute(cmd_.Bust(player=pid, stack=0), 5.0)
    raw = b.tour.execute({"kind": "bust", "player": pid, "stack": 0}, 5.0)
    assert typed == raw and typed[0].kind == "busted"
    assert a.tour.places() == b.tour.places() == {pid: 12}

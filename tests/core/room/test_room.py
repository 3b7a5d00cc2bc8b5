"""The room: tables, the events' directory, players and tickets; each refusal says why and
changes nothing, and a replay of the room's events rebuilds the same room."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest

from kiosk.base.errors import RuleError
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import room_commands as rc
from kiosk.core.model import room_events as re_
from kiosk.core.room.room import Room
from kiosk.protocol.topics import check_event_name
from kiosk.rules.structure_files import load_structure

STRUCTURE = load_structure("turbo")


def created(event: str) -> dict[str, Any]:
    return Tournament.create(event=event, structure=STRUCTURE, t=1.0).config.to_dict()


def add(event: str, type: str = "event", **extra: Any) -> dict[str, Any]:
    return {"kind": "add_event", "event": event, "type": type, "created": created(event),
            **extra}


class Floor:
    """A room and every event it decided, in order (for replays)."""

    def __init__(self, tables: int = 10) -> None:
        self.room = Room.create("main-room", "Main Room", tables=range(1, tables + 1), t=0.0)
        self.events: list[re_.Event] = [self.room.config]
        self.t = 0.0

    def do(self, cmd: dict[str, Any] | rc.RoomCommand) -> list[re_.Event]:
        self.t += 1
        evs = self.room.execute(cmd, self.t)
        self.events += evs
        return evs


def digest(room: Room) -> tuple:
    return (room.name, room.title, sorted(room.pool), sorted(room.assigned.items()),
            {n: asdict(e) for n, e in room.events.items()},
            {p: asdict(x) for p, x in room.players.items()}, dict(room.people.by_card),
            {t: asdict(x) for t, x in room.tickets.items()}, room.floor_sections.sections)


@pytest.fixture
def floor() -> Floor:
    """A room for a night: a daily, a main event fed by a satellite, two flights, players
    with a ticket each way it can go."""
    f = Floor()
    f.do(add("daily", title="Daily 50", tables=[1, 2]))
    f.do(add("main", title="Sunday Main"))
    f.do(add("sat", "satellite", target="main", tables=[3]))
    f.do(add("d1a", "flight"))
    f.do(add("d1b", "flight"))
    f.do({"kind": "add_player", "name": "Ann Lee", "card": "C1", "country": "IE"})
    f.do({"kind": "add_player", "name": "Bob Roe", "card": "C2"})
    f.do({"kind": "add_player", "name": "ann lee"})
    f.do({"kind": "issue_ticket", "player": "r1", "target": "main", "source": "sat",
          "value": 500})                                                       # t1
    f.do({"kind": "issue_ticket", "player": "r2", "target": "main", "value": 500})  # t2
    f.do({"kind": "use_ticket", "ticket": "t2"})
    f.do({"kind": "issue_ticket", "player": "r2", "target": "main", "value": 500})  # t3
    f.do({"kind": "return_ticket", "ticket": "t3", "note": "seat given back"})
    f.do({"kind": "issue_ticket", "player": "r3", "target": "main", "value": 500})  # t4
    f.do({"kind": "refund_ticket", "ticket": "t4", "by": "cashier"})
    f.do({"kind": "set_event_state", "event": "d1a", "state": "open"})
    f.do({"kind": "set_event_state", "event": "d1a", "state": "running"})
    f.do({"kind": "set_event_state", "event": "d1a", "state": "finished"})
    f.do({"kind": "add_event", "event": "gone", "created": created("gone")})
    f.do({"kind": "set_event_state", "event": "gone", "state": "archived"})
    return f


# ------------------------------------------------------------------ what the floor sees
def test_the_room_answers_which_table_serves_what(floor: Floor) -> None:
    room = floor.room
    assert (room.name, room.title) == ("main-room", "Main Room")
    assert room.table_event(1) == room.table_event(2) == "daily"
    assert room.table_event(3) == "sat" and room.table_event(4) is None
    assert room.free_tables() == [4, 5, 6, 7, 8, 9, 10]
    assert room.tables_of("daily") == [1, 2] and room.tables_of("main") == []
    sat = room.events["sat"]
    assert (sat.title, sat.kind, sat.target, sat.state) == ("sat", "satellite", "main",
                                                            "scheduled")
    assert room.events["daily"].title == "Daily 50"
    assert room.events["d1a"].state == "finished" and room.events["gone"].state == "archived"
    assert room.events["main"].created["event"] == "main"


def test_players_get_room_ids_and_are_found_by_card_or_any_case_name(floor: Floor) -> None:
    room = floor.room
    assert list(room.players) == ["r1", "r2", "r3"]
    ann = room.find_player(card="C1")
    assert ann is not None and not isinstance(ann, list) and ann.name == "Ann Lee"
    assert ann.country == "IE"
    assert room.find_player(card="C9") is None
    found = room.find_player(name="ANN LEE")
    assert isinstance(found, list) and [p.id for p in found] == ["r1", "r3"]
    assert room.find_player(name="Nobody") == []
    with pytest.raises(RuleError, match="by card or by name"):
        room.find_player()
    floor.do({"kind": "update_player", "player": "r3", "card": "C3", "name": "Anne Lee"})
    assert room.find_player(card="C3") == room.players["r3"]
    floor.do({"kind": "update_player", "player": "r1", "card": ""})   # the card is lost
    assert room.find_player(card="C1") is None and room.players["r1"].card is None
    floor.do({"kind": "add_player", "name": "Cat", "card": "C1"})     # so it is free again
    assert room.find_player(card="C1") == room.players["r4"]


def test_tickets_are_listed_per_event_with_their_states(floor: Floor) -> None:
    tickets = floor.room.tickets_for("main")
    assert [(t.id, t.player, t.source, t.state) for t in tickets] == [
        ("t1", "r1", "sat", "issued"), ("t2", "r2", None, "used"),
        ("t3", "r2", None, "returned"), ("t4", "r3", None, "refunded")]
    assert tickets[1].event == "main" and tickets[3].amount == 500
    assert floor.room.tickets_for("daily") == []
    floor.do({"kind": "refund_ticket", "ticket": "t1", "amount": 200, "note": "half"})
    assert floor.room.tickets["t1"].amount == 200


def test_an_event_goes_scheduled_open_running_finished_archived(floor: Floor) -> None:
    for state in ("open", "running", "finished", "archived"):
        floor.do({"kind": "set_event_state", "event": "daily", "state": state, "by": "td"})
        assert floor.room.events["daily"].state == state
    floor.do({"kind": "set_event_state", "event": "main", "state": "running"})  # no "open"
    assert floor.room.events["main"].state == "running"


def test_an_event_that_ends_gives_its_tables_back_to_the_pool(floor: Floor) -> None:
    floor.do({"kind": "set_event_state", "event": "daily", "state": "running"})
    evs = floor.do({"kind": "set_event_state", "event": "daily", "state": "finished"})
    assert [(e.kind, e.get("table")) for e in evs] == [
        ("event_state_set", None), ("table_freed", 1), ("table_freed", 2)]
    assert floor.room.tables_of("daily") == [] and 1 in floor.room.free_tables()
    floor.do({"kind": "assign_table", "table": 1, "event": "main"})   # serves another now
    assert floor.room.table_event(1) == "main"


def test_a_freed_table_can_serve_another_event_at_once(floor: Floor) -> None:
    evs = floor.do({"kind": "free_table", "table": 3, "why": "broken shuffler", "by": "f1"})
    assert evs == [re_.TableFreed(t=floor.t, table=3, event="sat", why="broken shuffler",
                                  by="f1")]
    floor.do({"kind": "assign_table", "table": 3, "event": "daily"})
    assert floor.room.tables_of("daily") == [1, 2, 3]
    floor.do({"kind": "provision_tables", "tables": [12, 11]})
    assert floor.room.free_tables()[-2:] == [11, 12]


def test_a_day2_is_made_of_flights(floor: Floor) -> None:
    floor.do(add("day2", "day2", flights=["d1a", "d1b"], title="Day 2"))
    info = floor.room.events["day2"]
    assert (info.kind, info.flights, info.target) == ("day2", ["d1a", "d1b"], None)


# ------------------------------------------------------------------ refusals
REFUSALS = [
    # tables
    ({"kind": "assign_table", "table": 3, "event": "daily"}, r"table 3 serves sat: free it"),
    ({"kind": "assign_table", "table": 1, "event": "daily"}, r"table 1 already serves daily"),
    ({"kind": "assign_table", "table": 11, "event": "daily"},
     r"table 11 is not in the room \(its tables: 1-10\)"),
    ({"kind": "assign_table", "table": 4, "event": "nope"}, r"no event 'nope' in the room"),
    ({"kind": "assign_table", "table": 4, "event": "d1a"},
     r"event d1a is finished: it takes no more tables"),
    ({"kind": "assign_table", "table": 4, "event": "gone"}, r"event gone is archived"),
    ({"kind": "free_table", "table": 4}, r"table 4 is already free"),
    ({"kind": "free_table", "table": 99}, r"table 99 is not in the room"),
    ({"kind": "provision_tables", "tables": [10, 11, 9]}, r"tables 9-10 are already in"),
    ({"kind": "provision_tables", "tables": [11, 11]}, r"a table is named twice"),
    ({"kind": "provision_tables", "tables": []}, r"name the tables"),
    # the events' directory
    (add("room"), r"cannot be called 'room'"),
    (add("daily"), r"an event called daily already exists \(scheduled\)"),
    (add("Big Event"), r"event name 'Big Event' must be 1-48 chars"),
    ({**add("x"), "created": created("y")}, r"event x: its settings name the event 'y'"),
    ({**add("x"), "created": {"event": "x"}}, r"event x: its settings do not fit"),
    (add("x", tables=[3]), r"table 3 serves sat"),
    (add("x", tables=[4, 4]), r"a table is named twice"),
    (add("x", tables=[40]), r"table 40 is not in the room"),
    (add("s2", "satellite", target="nope"), r"satellite s2: no target event 'nope'"),
    (add("s2", "satellite", target="d1a"), r"satellite s2: its target d1a is finished"),
    (add("s2", "satellite", target="gone"), r"its target gone is archived"),
    (add("s2", "satellite", target="s2"), r"satellite s2 cannot feed itself"),
    (add("s2", "satellite"), r"a satellite names its target event"),
    (add("x", target="main"), r"and only a satellite does"),
    (add("d2", "day2", flights=["d1a", "nope"]), r"Day 2 d2: no flight 'nope'"),
    (add("d2", "day2", flights=["d1a", "daily"]), r"Day 2 d2: daily is an event, not a flight"),
    (add("d2", "day2", flights=["d1a", "d1a"]), r"a flight is named twice"),
    (add("d2", "day2"), r"a Day 2 names the flights"),
    (add("x", flights=["d1a"]), r"only a Day 2 does"),
    # event states
    ({"kind": "set_event_state", "event": "daily", "state": "scheduled"},
     r"already scheduled"),
    ({"kind": "set_event_state", "event": "daily", "state": "finished"},
     r"daily is scheduled, so it cannot become finished: only a running event finishes"),
    ({"kind": "set_event_state", "event": "d1a", "state": "running"},
     r"d1a is finished, so it cannot become running"),
    ({"kind": "set_event_state", "event": "d1a", "state": "open"},
     r"only a scheduled event opens"),
    ({"kind": "set_event_state", "event": "gone", "state": "scheduled"},
     r"gone is archived: it no longer changes"),
    ({"kind": "set_event_state", "event": "nope", "state": "open"}, r"no event 'nope'"),
    # players
    ({"kind": "add_player", "name": "Dan", "card": "C1"}, r"card C1 belongs to r1 \(Ann Lee\)"),
    ({"kind": "add_player", "name": "  "}, r"a player needs a name"),
    ({"kind": "update_player", "player": "r3", "card": "C2"}, r"card C2 belongs to r2"),
    ({"kind": "update_player", "player": "r9", "name": "X"}, r"no player 'r9' in the room"),
    ({"kind": "update_player", "player": "r2", "name": "Bob Roe"}, r"nothing to change"),
    ({"kind": "update_player", "player": "r2", "name": ""}, r"a player needs a name"),
    # tickets
    ({"kind": "issue_ticket", "player": "r9", "target": "main"}, r"no player 'r9'"),
    ({"kind": "issue_ticket", "player": "r1", "target": "nope"}, r"no event 'nope'"),
    ({"kind": "issue_ticket", "player": "r1", "target": "d1a"},
     r"event d1a is finished: it takes no more tickets"),
    ({"kind": "issue_ticket", "player": "r1", "target": "daily", "source": "sat"},
     r"satellite sat feeds main, not daily"),
    ({"kind": "issue_ticket", "player": "r1", "target": "main", "source": "daily"},
     r"daily is an event, not a satellite"),
    ({"kind": "issue_ticket", "player": "r1", "target": "main", "source": "nope"},
     r"no event 'nope'"),
    ({"kind": "use_ticket", "ticket": "t2"}, r"ticket t2 was used in main; it cannot be used"),
    ({"kind": "use_ticket", "ticket": "t3"}, r"ticket t3 was given back; it cannot be used"),
    ({"kind": "use_ticket", "ticket": "t4"}, r"ticket t4 was refunded; it cannot be used"),
    ({"kind": "use_ticket", "ticket": "t9"}, r"no ticket 't9' in the room"),
    ({"kind": "use_ticket", "ticket": "t1", "event": "daily"},
     r"ticket t1 is a seat in main, not in daily"),
    ({"kind": "return_ticket", "ticket": "t2"}, r"t2 was used in main; it cannot be given back"),
    ({"kind": "return_ticket", "ticket": "t3"}, r"t3 was given back; it cannot be given back"),
    ({"kind": "refund_ticket", "ticket": "t2"}, r"t2 was used in main; it cannot be refunded"),
    ({"kind": "refund_ticket", "ticket": "t3"}, r"t3 was given back; it cannot be refunded"),
    ({"kind": "refund_ticket", "ticket": "t4"}, r"t4 was refunded; it cannot be refunded"),
    ({"kind": "refund_ticket", "ticket": "t1", "amount": 501},
     r"t1 is worth 500; a refund of 501 is more than that"),
    # the schema, at the edge
    ({"kind": "assign_table", "table": 0, "event": "daily"}, r"bad assign_table command"),
    ({"kind": "open_room"}, r"unknown room command 'open_room'"),
]


@pytest.mark.parametrize(("cmd", "why"), REFUSALS, ids=[w for _c, w in REFUSALS])
def test_every_refusal_says_why_and_changes_nothing(floor: Floor, cmd: dict[str, Any],
                                                    why: str) -> None:
    before, n = digest(floor.room), floor.room.n_events
    with pytest.raises(RuleError, match=why):
        floor.do(cmd)
    assert digest(floor.room) == before and floor.room.n_events == n


def test_a_ticket_into_a_finished_event_cannot_be_used(floor: Floor) -> None:
    floor.do({"kind": "issue_ticket", "player": "r1", "target": "d1b"})
    for state in ("running", "finished"):
        floor.do({"kind": "set_event_state", "event": "d1b", "state": state})
    with pytest.raises(RuleError, match="event d1b is finished: it takes no more entries"):
        floor.do({"kind": "use_ticket", "ticket": "t5"})


def test_a_flight_feeds_one_day2(floor: Floor) -> None:
    floor.do(add("day2", "day2", flights=["d1a"]))
    with pytest.raises(RuleError, match="flight d1a already feeds day2"):
        floor.do(add("day2b", "day2", flights=["d1b", "d1a"]))
    assert "day2b" not in floor.room.events


def test_a_room_is_created_with_a_valid_name_and_distinct_tables() -> None:
    with pytest.raises(RuleError, match="room name 'Main Room'"):
        Room.create("Main Room")
    with pytest.raises(RuleError, match="a table is named twice"):
        Room.create("r", tables=[1, 2, 1])
    assert Room.create("r").free_tables() == []


@pytest.mark.parametrize("name", ["main", "day-1a", "x_2", "room", "-x", "Ab", "a b",
                                  "a/b", "a+", "#", "", "a" * 48, "a" * 49])
def test_event_names_follow_the_topic_rule(name: str) -> None:
    room = Room.create("r")
    try:
        check_event_name(name)
        topic_ok = True
    except ValueError:
        topic_ok = False
    try:
        room.execute(add(name) if name else {**add("x"), "event": ""}, 1.0)
        room_ok = True
    except RuleError:
        room_ok = False
    assert room_ok == (topic_ok and name != "room")


# ------------------------------------------------------------------ folds
def test_a_replay_of_the_room_events_rebuilds_the_same_room(floor: Floor) -> None:
    floor.do({"kind": "free_table", "table": 3, "why": "broken"})
    floor.do({"kind": "update_player", "player": "r2", "country": "FR"})
    floor.do(add("day2", "day2", flights=["d1a", "d1b"]))
    floor.do({"kind": "provision_tables", "tables": [11]})
    floor.do({"kind": "set_sections", "sections": [{"name": "Rail", "tables": [1, 2]}]})
    assert {e.kind for e in floor.events} == {cls.kind for cls in re_.ROOM_EVENTS}
    replayed = Room.replay(floor.events)
    assert digest(replayed) == digest(floor.room)
    assert replayed.n_events == floor.room.n_events == len(floor.events)
    # and the replayed room decides alike from here
    nxt = {"kind": "issue_ticket", "player": "r2", "target": "day2"}
    assert replayed.execute(nxt, 99.0) == floor.room.execute(nxt, 99.0)


def test_a_replay_starts_with_the_room(floor: Floor) -> None:
    with pytest.raises(ValueError, match="room_created"):
        Room.replay(floor.events[1:])

"""Protocol version 2: the room's topic tree, free tables, the events directory, reports
that name their event, and the answer an old version 1 table gets."""

from __future__ import annotations

import msgspec
import pytest

from kiosk.core.event import plans
from kiosk.core.event.tournament import Tournament
from kiosk.core.model import events
from kiosk.protocol.messages import (
    VERSION,
    ProtocolError,
    check,
    decode,
    encode,
    report,
    v1_refusal,
)
from kiosk.protocol.topics import SingleEventTopics, Topics, V1Topics
from kiosk.rules.structure_files import load_structure


def test_a_tables_topics_name_the_room_and_its_number_never_an_event() -> None:
    t = Topics("main-room")
    assert t.plan(3) == "pk/v2/main-room/table/3/plan"
    assert t.ack(3) == "pk/v2/main-room/director/ack/3"
    assert t.events == "pk/v2/main-room/events"
    assert t.schedule("daily") == "pk/v2/main-room/event/daily/schedule"
    assert t.seating("sat") == "pk/v2/main-room/event/sat/seating"
    assert t.all_seating == "pk/v2/main-room/event/+/seating"
    assert t.parse_table_topic("pk/v2/main-room/table/12/report") == (12, "report")
    assert t.parse_table_topic("pk/v2/other/table/12/report") is None
    assert t.parse_event_topic(t.schedule("daily")) == ("daily", "schedule")
    with pytest.raises(ValueError, match="room name"):
        Topics("Main Room")


def test_a_single_event_director_is_a_room_named_after_its_event() -> None:
    t = SingleEventTopics("spring")
    assert t.schedule == Topics("spring").schedule("spring")
    assert t.plan(2) == "pk/v2/spring/table/2/plan"


def test_old_tables_are_heard_on_the_v1_tree() -> None:
    assert V1Topics.all_status == "pk/v1/+/table/+/status"
    assert V1Topics.parse_status_topic("pk/v1/spring/table/4/status") == ("spring", 4)
    assert V1Topics.parse_status_topic("pk/v2/spring/table/4/status") is None
    assert V1Topics("spring").plan(4) == "pk/v1/spring/table/4/plan"


def test_a_free_tables_plan_is_valid_and_names_no_event() -> None:
    body = check("plan", {"rev": 1, **plans.free_plan(5, "Main Room")})
    assert body["event"] is None and body["seats"] == {} and body["room"] == "Main Room"


def test_an_event_plan_names_the_event_and_both_titles() -> None:
    tour = Tournament.create(event="daily", structure=load_structure("standard"), t=0.0)
    tour.apply(events.make("table_opened", 0.0, table=2, seats=9))
    body = check("plan", {"rev": 1, **plans.plan(tour, 2, title="Daily Deepstack",
                                                room="Main Room")})
    assert (body["event"], body["title"], body["room"]) == ("daily", "Daily Deepstack",
                                                            "Main Room")
    assert check("plan", {"rev": 1, **plans.plan(tour, 2)})["event"] == "daily"


def test_a_plan_must_say_which_event_it_serves() -> None:
    body = {"rev": 1, **plans.free_plan(5)}
    del body["event"]
    with pytest.raises(ProtocolError, match="event"):
        check("plan", body)


def test_the_events_directory() -> None:
    body = check("events", {"rev": 3, "room": "main-room", "title": "Main Room", "events": [
        {"event": "daily", "title": "Daily", "kind": "event", "state": "running",
         "tables": [1, 2]},
        {"event": "sat", "title": "Satellite", "kind": "satellite", "state": "open"}]})
    assert [e["tables"] for e in body["events"]] == [[1, 2], []]
    with pytest.raises(ProtocolError, match="kind"):
        check("events", {"rev": 3, "room": "r", "events": [{"event": "x", "kind": "cash"}]})


def test_a_report_may_name_its_event() -> None:
    rep = report(3, "r1", 1, 1.0, "all_in", seat=2, hand=4)
    assert decode("report", encode(rep))["event"] is None
    assert decode("report", encode({**rep, "event": "daily"}))["event"] == "daily"


def test_version_1_payloads_are_refused_and_the_old_table_told_to_update() -> None:
    assert VERSION == 2
    with pytest.raises(ProtocolError, match="schema version 1 is not 2"):
        decode("report", encode({**report(3, "r1", 1, 1.0, "all_in", seat=2, hand=4),
                                 "v": 1}))
    answer = msgspec.json.decode(encode(v1_refusal(4, 5.0)))
    assert answer["v"] == 1 and answer["hold"] and answer["halt"] and not answer["seats"]
    assert "update the kiosk" in answer["hold_reason"]
    # version 1's plan is version 2's without `event`: the answer fits it field for field
    assert "event" not in answer
    check("plan", {**answer, "v": 2, "event": None})

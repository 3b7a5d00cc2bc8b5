"""After the last bust the final table's retained plan, as a table decodes it, is the
plan of the event log's fold: the winner alone in his seat; the retained schedule says
the event is over and who won."""

from __future__ import annotations

import time

from test_director_mqtt import director_places, play_over_mqtt

from kiosk.core.event import plans
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import decode
from kiosk.protocol.topics import SingleEventTopics


def retained(mosquitto, event: str, table: int) -> tuple[dict, dict]:
    """The retained plan of `table` and the retained schedule, decoded as a table does."""
    topics = SingleEventTopics(event)
    got: dict[str, dict] = {}
    client = make_client("final-plan-probe", mosquitto.config)
    client.on_message = lambda c, u, msg: got.__setitem__(
        msg.topic, decode("plan" if msg.topic == topics.plan(table) else "schedule",
                          msg.payload))
    client.connect("127.0.0.1", mosquitto.port)
    client.subscribe([(topics.plan(table), 1), (topics.schedule, 1)])
    client.loop_start()
    deadline = time.monotonic() + 10
    while len(got) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    client.loop_stop()
    client.disconnect()
    return got[topics.plan(table)], got[topics.schedule]


def test_the_final_tables_retained_plan_is_the_logs_final_state(mosquitto,
                                                               director_factory) -> None:
    director = director_factory(players=60).start()
    play_over_mqtt(mosquitto, director)
    director.stop()
    _, tour = director_places(str(director.db))
    assert tour.finished_at is not None and tour.alive == 1
    final = tour.final_table
    assert final is not None
    body, schedule = retained(mosquitto, director.name, final)
    want = plans.plan(tour, final, room=tour.event)   # a room of one is named after it
    assert {k: body[k] for k in want if k != "seats"} == \
        {k: v for k, v in want.items() if k != "seats"}
    assert body["seats"].keys() == want["seats"].keys()      # the same seat numbers
    assert {s: {k: body["seats"][s][k] for k in v} for s, v in want["seats"].items()} \
        == want["seats"]
    winner = next(p for p, place in tour.places().items() if place == 1)
    assert [s["player"] for s in body["seats"].values()] == [winner]
    assert schedule["finished"] and schedule["winner"] == winner

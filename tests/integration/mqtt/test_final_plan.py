"""After the last bust the final table's retained plan, as the table's own controller
takes it, is the plan of the event log's fold: the winner alone in his seat; the retained
schedule says the event is over and who won."""

from __future__ import annotations

import random

from mqtt_kit import director_places, play_over_mqtt
from waiting import wait_for

from kiosk.core.event import plans
from kiosk.mqtt.client import make_client
from kiosk.protocol.messages import check, decode
from kiosk.protocol.topics import SingleEventTopics
from kiosk.table.controller import TableController


def retained(mosquitto, event: str, table: int) -> tuple[dict, dict]:
    """The retained plan of `table` and the retained schedule, as the table holds them:
    decoded as its link does, then taken by its controller (which checks each against its
    schema again). Message keys arrive as plain data ({"key": ..., "args": ...})."""
    topics = SingleEventTopics(event)
    got: dict[str, dict] = {}
    client = make_client("final-plan-probe", mosquitto.config)
    client.on_message = lambda c, u, msg: got.__setitem__(
        msg.topic, decode("plan" if msg.topic == topics.plan(table) else "schedule",
                          msg.payload))
    client.connect("127.0.0.1", mosquitto.port)
    client.subscribe([(topics.plan(table), 1), (topics.schedule, 1)])
    client.loop_start()
    wait_for(lambda: len(got) >= 2)
    client.loop_stop()
    client.disconnect()
    ctl = TableController(table, rng=random.Random(1), boot="final", debounce_s=0)
    assert ctl.directions.apply_schedule(got[topics.schedule])
    assert ctl.apply_plan(got[topics.plan(table)])
    return ctl.ctx.plan, ctl.ctx.schedule


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
    fold = plans.plan(tour, final, room=tour.event)   # a room of one is named after it
    # the fold's plan read through the same schema as the retained one (the stamp taken
    # from it): message keys as plain data, the schema's defaults filled in alike
    want = check("plan", {**body, **fold})
    assert body["hold_msg"] == {"key": "hold.over"}      # the table says it in its language
    assert {k: body[k] for k in fold if k != "seats"} == \
        {k: want[k] for k in fold if k != "seats"}
    assert body["seats"].keys() == want["seats"].keys()      # the same seat numbers
    assert {s: {k: body["seats"][s][k] for k in v} for s, v in want["seats"].items()} \
        == want["seats"]
    winner = next(p for p, place in tour.places().items() if place == 1)
    assert [s["player"] for s in body["seats"].values()] == [winner]
    assert schedule["finished"] and schedule["winner"] == winner

"""TDA 2024 at a push, through the room's director (an event whose room.toml names no
profile: a new event, so TDA 2024): no push in the 90 s before a level change (RP-7),
the push taken after it, the incoming dealer's first hand at the prior level with its
blinds in the plan (r.23), what the outgoing dealer tells in the plan (RP-15A), and the
kiosk reading all of it off the plan the director publishes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from dealer_kit import Clock, director, hand_start, report, start
from room_kit import register
from web_kit import login, room_director

from kiosk.core.model import commands
from kiosk.core.model import dealer_events as de
from kiosk.director.service import Director
from kiosk.director.web.app import make_app
from kiosk.protocol import messages
from kiosk.table.controller import TableController


def _push_due_in_a_hold(tmp_path: Path) -> tuple[Director, Clock, float]:
    clock = Clock()
    d = director(tmp_path, clock)
    start(d)
    for i in range(4):                        # four tables dealt, then Eve the relief
        assert d.dealers.badge(i + 1, f"BADGE-{i}").ok
    assert d.dealers.badge(3, "BADGE-4").ok
    road = d.room.roadmap
    due = road.tables[1].push_at or 0.0
    # the level now running ends 30 s after table 1's push falls due
    clock.t = due - 60
    d.act(commands.ClockAction(action="set", seconds=90), event="daily")
    d.dealers.tick()
    return d, clock, due


def test_rp7_no_push_before_the_level_change_then_r23_one_hand_at_the_prior_level(
        tmp_path: Path) -> None:
    d, clock, due = _push_due_in_a_hold(tmp_path)
    tour, road = d.events["daily"].tour, d.room.roadmap
    assert tour.profile.id == "tda-2024"      # the room.toml names none: a new event's
    assert road.push_holds["daily"] == (due - 60, due + 30)
    prior = tour.levels.period(clock.t)
    clock.t = due + 5
    hand_start(d, 1)
    report(d, 1, "hand_ended", hand=tour.tables[1].hand)
    held = d.dealers.badge(1, "BADGE-4")
    assert not held.ok and "no push before the level change" in held.text
    assert road.tables[1].dealer == "Ann"
    # the table reads the same hold off its clock: its screen asks for no push yet
    kiosk = TableController(1)
    assert kiosk.directions.apply_schedule(messages.check("schedule", d.out.schedule_msg()))
    assert kiosk.ctx.schedule is not None and kiosk.ctx.schedule["push_hold"] == 90
    assert kiosk.apply_plan(messages.check("plan", d.out.plan_msg(1)), clock.t)
    assert kiosk.view(clock.t).push_prompt == "" and kiosk.ctx.push_hold(clock.t) == \
        (due - 60, due + 30)
    # the level changes; the push waits no more
    clock.t = due + 35
    d.dealers.tick()
    assert tour.levels.period(clock.t) == prior + 1
    assert d.dealers.badge(1, "BADGE-4").ok and road.tables[1].dealer == "Eve"
    [done] = [e for e in d.store.stream("room").read() if isinstance(e, de.PushDone)]
    assert done.period == prior               # the push fell due at the prior level
    level = tour.structure.periods[prior]
    plan = messages.check("plan", d.out.plan_msg(1))
    assert plan["dealer"]["first_hand"] == {
        "hand": tour.tables[1].hand, "period": prior, "sb": level.sb, "bb": level.bb,
        "ante": level.ante, "bb_ante": level.bb_ante}
    # the kiosk deals that one hand at the prior level and says what comes after it
    kiosk = TableController(1)
    assert kiosk.directions.apply_schedule(messages.check("schedule", d.out.schedule_msg()))
    # the table's own count: it dealt the hand before the push, at the prior level
    kiosk.ctx.local.hand, kiosk.ctx.local.period = tour.tables[1].hand, prior
    assert kiosk.apply_plan(plan, clock.t)
    v = kiosk.view(clock.t)
    assert v.blinds == f"{level.sb:,}/{level.bb:,}"
    assert v.next_hand_note.startswith(f"One hand at level {prior + 1}, then")
    started = kiosk.new_hand(clock.t + 1)
    assert started.report is not None and kiosk.ctx.local.period == prior
    kiosk.end_hand(clock.t + 60)
    nxt = tour.structure.periods[prior + 1]
    assert kiosk.view(clock.t + 61).blinds == f"{nxt.sb:,}/{nxt.bb:,}"


def test_rp15a_the_plan_tells_the_incoming_dealer_what_the_outgoing_one_knows(
        tmp_path: Path) -> None:
    d, clock, _due = _push_due_in_a_hold(tmp_path)
    tour = d.events["daily"].tour
    seats = sorted(tour.tables[2].seat_of)
    d.act(commands.Penalty(player=tour.tables[2].seat_of[seats[0]], type="warning"),
          user="td", event="daily")
    d.act(commands.Penalty(player=tour.tables[2].seat_of[seats[1]], type="hands",
                           amount=2), user="td", event="daily")
    d.act(commands.decode({"kind": "table_note", "table": 2, "note": "seat 6 slow"}),
          user="td", event="daily")
    plan = messages.check("plan", d.out.plan_msg(2))
    assert plan["dealer"]["handover"] == {"warnings": [seats[0]], "penalties": [seats[1]],
                                          "note": "seat 6 slow"}
    kiosk = TableController(2)
    kiosk.directions.apply_schedule(messages.check("schedule", d.out.schedule_msg()))
    kiosk.apply_plan(plan, clock.t)
    push_at = plan["dealer"]["push_at"]
    assert kiosk.view(push_at - 300).handover is None    # told at the push, not before
    v = kiosk.view(push_at + 1)
    level = tour.structure.periods[tour.levels.period(push_at + 1)]
    told = v.handover
    assert told is not None and told.shown                # its panel, between hands
    assert (told.blinds, told.note) == (f"{level.sb:,}/{level.bb:,}", "seat 6 slow")
    assert [(p.seat, p.warned, p.penalty) for p in told.players] == [
        (seats[0], True, ""), (seats[1], False, "PEN x2")]
    # the seats say it too: the warned player's and the penalised one's
    assert v.seats[seats[0] - 1].warned and "warned" in v.seats[seats[0] - 1].markers
    assert v.seats[seats[1] - 1].penalty == "PEN x2" and not v.seats[seats[1] - 1].warned
    # the note is the floor's: a floor login may write it, and it is in the room's audit
    assert [e.by for e in d.store.stream("daily").read()
            if getattr(e, "kind", "") == "table_noted"] == ["td"]


def test_rp15a_the_floor_writes_a_tables_note_and_a_cashier_may_not(tmp_path: Path) -> None:
    """The note goes through /api/act like the floor's other commands, role-checked."""
    d = room_director(tmp_path)
    register(d, "daily", 12)
    d.act(commands.Start(), event="daily")
    note = {"kind": "table_note", "table": 1, "note": "camera crew at seat 2"}

    async def go() -> None:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        try:
            cash = await login(client, "cash")
            r = await client.post("/api/act?event=daily", json=note, headers=cash)
            assert r.status == 403
            assert "your role (cashier) may not write the tables' notes" in \
                (await r.json())["error"]
            assert d.events["daily"].tour.table_notes == {}
            floor = await login(client, "fl")
            r = await client.post("/api/act?event=daily", json=note, headers=floor)
            assert r.status == 200, await r.text()
            r = await client.post("/api/act?event=daily", json={**note, "table": 99},
                                  headers=floor)
            assert r.status == 400 and "not in play" in (await r.json())["error"]
        finally:
            await client.close()

    asyncio.run(go())
    assert d.events["daily"].tour.table_notes == {1: "camera crew at seat 2"}
    [ev] = [e for e in d.store.stream("daily").read() if e.kind == "table_noted"]
    assert ev.by == "fl"

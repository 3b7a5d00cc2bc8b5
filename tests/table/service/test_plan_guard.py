"""The kiosk against garbage plans: refused, logged, the last good plan kept.

Good plans come from the core's own `plan()` for a real tournament, published the way
the director publishes them; garbage is each of those with one field broken.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fuzzing import mutated_plans
from table_helpers import schedule, table_config
from waiting import holds, wait_for

from kiosk.core.event import plans
from kiosk.core.event.tournament import Tournament
from kiosk.protocol.messages import decode, encode
from kiosk.protocol.topics import Topics
from kiosk.rules.structure_files import load_structure
from kiosk.table.controller import TableController
from kiosk.table.service import TableService

T = 1_700_000_000.0


def director_plan(tour: Tournament, table: int, rev: int, epoch: float = T) -> dict[str, Any]:
    """What the director publishes for `table`, through the wire and back."""
    body = {"rev": rev, "epoch": epoch, "ts": T, **plans.plan(tour, table)}
    return decode("plan", encode(body))


def tournament() -> Tournament:
    tour = Tournament.create(event="guard", structure=load_structure("turbo"), seed=5, t=T)
    for i in range(20):
        tour.execute({"kind": "register", "name": f"Player {i + 1}", "card": f"C{i:04d}"}, T)
    tour.execute({"kind": "start"}, T)
    # a floor move, so the plans carry moves out and in
    pid = next(iter(tour.tables[1].seat_of.values()))
    tour.execute({"kind": "move", "player": pid, "table": 2}, T + 1)
    return tour


def test_core_plans_are_taken_and_garbage_is_refused(caplog: pytest.LogCaptureFixture) -> None:
    tour = tournament()
    good = director_plan(tour, 1, rev=10)
    assert good["moves_out"], "the sample exercises moves"
    ctl = TableController(1)
    assert ctl.directions.apply_schedule(decode("schedule", encode(
        {"rev": 1, "epoch": T, **plans.schedule(tour)})))
    assert ctl.apply_plan(dict(good), T)
    seats_before = ctl.view(T).seats
    refused = 0
    for n, bad in enumerate(mutated_plans(good, random.Random(3), 2000)):
        if bad["rev"] == good["rev"]:   # newer, so only the broken field refuses it
            bad["rev"] = 11 + n
        if not ctl.apply_plan(bad, T):
            refused += 1
        view = ctl.view(T)                      # never crashes, never spins
        assert view.seats == seats_before
    assert refused == 2000
    assert "keeping the last good one" in caplog.text
    assert ctl.plan["rev"] == 10


def test_a_restored_director_is_followed_and_a_huge_revision_does_not_stick() -> None:
    tour = tournament()
    ctl = TableController(2)
    assert ctl.apply_plan(director_plan(tour, 2, rev=10**12, epoch=T), T)
    # the same director later: lower revisions are old news
    assert not ctl.apply_plan(director_plan(tour, 2, rev=40, epoch=T), T)
    # a director restored from a backup starts a new epoch with lower revisions
    assert ctl.apply_plan(director_plan(tour, 2, rev=40, epoch=T + 3600), T)
    assert ctl.plan["rev"] == 40


def test_a_bad_plan_in_the_kiosks_own_store_is_refused_at_start(tmp_path: Path) -> None:
    tour = tournament()
    cfg = table_config(str(tmp_path), port=1, table=1)
    svc = TableService(cfg, connect=False, now=lambda: T)
    good = director_plan(tour, 1, rev=7)
    svc._on_message("schedule", schedule())
    svc._on_message("plan", good)
    svc.stop()
    # the store now holds a plan written by older code, with garbage in it
    svc = TableService(cfg, connect=False, now=lambda: T)
    svc.outbox.put("plan", {**good, "max_seats": "x", "moves_out": ["x"]})
    svc.stop()
    svc = TableService(cfg, connect=False, now=lambda: T)   # starts, and refuses it
    assert svc.ctl.plan["rev"] == -1
    assert svc.view().seats is not None
    svc.stop()


def test_a_kiosk_on_a_real_broker_survives_retained_garbage_plans(broker, observer,
                                                                  tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture
                                                                  ) -> None:
    """500 broken plans, each retained on the table's plan topic, arrive while the kiosk
    runs and again when it restarts (the last one stays retained): it keeps dealing on
    the last good plan from the director's core."""
    topics = Topics("test")
    tour = tournament()
    good = director_plan(tour, 1, rev=50)
    sub = observer(topics.plan(1))
    sub.publish(topics.schedule("test"), schedule(), retain=True)
    sub.publish(topics.plan(1), good, retain=True)
    cfg = table_config(str(tmp_path), broker.port, table=1)
    svc = TableService(cfg, reconnect=(1, 1), debounce_s=0.0)
    svc.start()
    try:
        assert svc.link.wait_connected(10)
        wait_for(lambda: svc.ctl.plan["rev"] == 50, 10)
        for n, bad in enumerate(mutated_plans(good, random.Random(9), 500)):
            if bad["rev"] == good["rev"]:   # newer, so only the broken field refuses it
                bad["rev"] = 51 + n
            sub.publish(topics.plan(1), bad, retain=True)
        wait_for(lambda: caplog.text.count("dropped plan") + caplog.text.count("refused a plan")
                 >= 450, 20)   # the rest name another table: ignored without a word
        assert svc.ctl.plan["rev"] == 50
        assert svc.act("new_hand").report is not None      # still dealing
    finally:
        svc.stop()
    again = TableService(cfg, reconnect=(1, 1), debounce_s=0.0)   # the garbage is retained
    again.start()
    try:
        assert again.link.wait_connected(30)
        wait_for(lambda: again.ctl.plan["rev"] == 50 and again.view().seats)
        holds(lambda: again.ctl.plan["rev"] == 50, 1.0, "a retained bad plan replaced it")
    finally:
        again.stop()

"""A table's message budget: a flood is cut at the table, the others never notice."""

from __future__ import annotations

from kiosk.director.mqtt.budget import Budget
from kiosk.protocol.topics import SingleEventTopics

T = SingleEventTopics("ev")


def test_a_flooding_table_is_cut_and_another_table_is_not() -> None:
    b = Budget(rate=50, burst=200)
    flood = sum(b.take(T.report(1), 0.001 * i) for i in range(10_000))   # 10,000/s for 10 s
    assert 200 <= flood <= 200 + 50 * 10 + 1
    assert all(b.take(T.report(2), 10.0 + i * 0.05) for i in range(100))  # a dealer's pace
    assert all(b.take(T.live(2), 15.0 + i * 0.5) for i in range(10))


def test_the_budget_refills_after_a_quiet_spell() -> None:
    b = Budget(rate=50, burst=200)
    assert sum(b.take(T.report(3), 0.0) for _ in range(500)) == 200
    assert not b.take(T.report(3), 0.0)
    assert sum(b.take(T.report(3), 4.0) for _ in range(500)) == 200

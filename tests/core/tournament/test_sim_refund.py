"""A dealer whose hand's start the director refused (a plan that had not yet caught up
with a move) gives every player back what the blinds and antes took: no chips vanish."""

from __future__ import annotations

from kiosk.core.calc import button as btn
from kiosk.rules.structure_files import load_structure
from kiosk.sim.hand import Hand, post_blinds, refund


def test_a_refused_hand_gives_back_its_blinds_and_antes() -> None:
    st = load_structure("standard")
    period = next(p for p in st.periods if not p.is_break and (p.ante or p.bb_ante))
    dealt = {1: "a", 3: "b", 4: "c", 7: "d"}
    chips = {"a": 5000, "b": 120, "c": 20000, "d": 800, "e": 999}   # b short of the blind
    before = dict(chips)
    pos = btn.first_hand(set(dealt), 1, 9)
    hand = Hand(3, 0, dealt, {s: chips[p] for s, p in dealt.items()}, pos=pos)
    post_blinds(chips, hand, pos, period)
    assert hand.pot > 0 and chips != before
    chips["c"] += 400    # meanwhile c won a pot at another table (moved there)
    refund(chips, hand, period)
    assert chips == {**before, "c": before["c"] + 400}

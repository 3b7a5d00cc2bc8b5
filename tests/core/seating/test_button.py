"""Button and blinds hand by hand: Sheridan's blind diagrams (r.9) with a dead button,
the home game's moving button, heads-up (TDA 34) and new players (TDA 7A/9)."""

from __future__ import annotations

import random

import pytest
from core_kit import Room, flat_structure

from kiosk.core.calc.button import (
    Positions,
    draw_button,
    first_hand,
    next_big_blind,
    next_hand,
    worst_open_seat,
)

FIVE = {1, 2, 3, 4, 5}
START = Positions(button=1, sb=2, bb=3, dealt=(1, 2, 3, 4, 5))   # every diagram's first row


def _dead(prev: Positions, occupied: set[int]) -> Positions:
    return next_hand(prev, occupied, 5, dead_button=True)


def test_sheridans_example_1_small_blind_eliminated() -> None:
    # seat 2 (small blind) is out: seat 1 deals for the empty seat 2, 3 and 4 post
    pos = _dead(START, FIVE - {2})
    assert (pos.button, pos.sb, pos.bb) == (2, 3, 4)
    assert pos.dead_button and not pos.dead_sb
    # next round: back to normal, dealer 3, blinds 4 and 5
    pos = _dead(pos, FIVE - {2})
    assert (pos.button, pos.sb, pos.bb) == (3, 4, 5)
    assert not pos.dead_button and not pos.dead_sb


def test_sheridans_example_2_big_blind_eliminated() -> None:
    # seat 3 (big blind) is out: seat 2 deals, the small blind is dead, seat 4 posts the BB
    pos = _dead(START, FIVE - {3})
    assert (pos.button, pos.sb, pos.bb) == (2, 3, 4)
    assert pos.dead_sb and not pos.dead_button
    # next round: seat 2 deals for the empty seat 3, blinds 4 and 5
    pos = _dead(pos, FIVE - {3})
    assert (pos.button, pos.sb, pos.bb) == (3, 4, 5)
    assert pos.dead_button and not pos.dead_sb


def test_sheridans_example_3_both_blinds_eliminated() -> None:
    # seats 2 and 3 out: seat 1 deals for seat 2, dead small blind, seat 4 the BB
    pos = _dead(START, FIVE - {2, 3})
    assert (pos.button, pos.sb, pos.bb) == (2, 3, 4)
    assert pos.dead_button and pos.dead_sb and pos.dealt == (1, 4, 5)
    # next round: dealing for seat 3, blinds 4 and 5
    pos = _dead(pos, FIVE - {2, 3})
    assert (pos.button, pos.sb, pos.bb) == (3, 4, 5)
    assert pos.dead_button and not pos.dead_sb


def test_every_player_posts_every_big_blind_with_a_dead_button() -> None:
    """Dead button: the big blind moves one occupied seat per hand, so nobody still
    playing skips it, however many bust in between."""
    pos = first_hand(set(range(1, 10)), 1, 9)
    occupied = set(range(1, 10))
    bbs = [pos.bb]
    for out in (4, 5, 8):
        occupied.discard(out)
        pos = next_hand(pos, occupied, 9, dead_button=True)
        bbs.append(pos.bb)
    assert bbs == [3, 5, 6, 7]   # seat 4 busted before its turn; 5, 6, 7 follow


def test_home_game_button_moves_to_the_next_occupied_seat() -> None:
    # Roberts: no dead button, the player left of the button posts the small blind
    pos = _moving = next_hand(START, FIVE - {2, 3}, 5, dead_button=False)
    assert (pos.button, pos.sb, pos.bb) == (4, 5, 1)
    assert not pos.dead_button and not pos.dead_sb
    pos = next_hand(_moving, FIVE - {2, 3}, 5, dead_button=False)
    assert (pos.button, pos.sb, pos.bb) == (5, 1, 4)


def test_home_game_button_starts_in_seat_1() -> None:
    seat, cards = draw_button([3, 1, 7], "seat1", random.Random(5))
    assert seat == 1 and cards == {}
    room = Room(12, profile="home-roberts", structure=flat_structure())
    for tid in room.playing():
        first = min(room.tour.tables[tid].seat_of)
        assert room.deal(tid).button == first


def test_high_card_draw_uses_suits_spades_first() -> None:
    """Sheridan's r.4: the highest card wins the button; equal ranks go by S > H > D > C."""
    for seed in range(200):
        seat, cards = draw_button([1, 2, 3, 4, 5, 6, 7, 8, 9], "high_card", random.Random(seed))
        ranks = "23456789TJQKA"
        best = max(cards.values(), key=lambda c: (ranks.index(c[0]), -"SHDC".index(c[1])))
        assert cards[seat] == best
        assert len(set(cards.values())) == 9


def test_heads_up_small_blind_is_the_button() -> None:
    pos = first_hand({2, 6}, 2, 9)
    assert pos.button == pos.sb == 2 and pos.bb == 6
    pos = next_hand(pos, {2, 6}, 9, dead_button=True)
    assert pos.button == pos.sb == 6 and pos.bb == 2


def test_going_heads_up_nobody_takes_the_big_blind_twice() -> None:
    """TDA 34: seat 5 just paid the big blind; when the third player busts, the button
    is adjusted so seat 5 does not pay it again."""
    pos = Positions(button=1, sb=3, bb=5, dealt=(1, 3, 5))
    for gone in (1, 3):
        heads_up = next_hand(pos, {1, 3, 5} - {gone}, 9, dead_button=True)
        assert heads_up.bb != 5 and heads_up.button == heads_up.sb
    # with the moving button too
    heads_up = next_hand(pos, {3, 5}, 9, dead_button=False)
    assert heads_up.bb == 3 and heads_up.button == heads_up.sb == 5


def test_new_player_between_small_blind_and_button_waits() -> None:
    """TDA 7A/9: a new player seated between the small blind and the button sits out
    until the button passes; elsewhere they are dealt in at once."""
    prev = Positions(button=3, sb=4, bb=5, dealt=(1, 3, 4, 5, 6, 7))
    occupied = {1, 3, 4, 5, 6, 7}
    # the next hand: button 4, small blind 5; a player in seat 2 (far away) plays at once
    pos = next_hand(prev, occupied | {2}, 9, dead_button=True, newcomers={2})
    assert 2 in pos.dealt and pos.waiting == ()
    # the small blind (seat 4) busts: the dead button moves onto its empty seat and the
    # small blind to seat 7, so a newcomer in seat 5, strictly between them, waits
    prev = Positions(button=3, sb=4, bb=7, dealt=(1, 3, 4, 7, 8))
    pos = next_hand(prev, {1, 3, 5, 7, 8}, 9, dead_button=True, newcomers={5})
    assert (pos.button, pos.sb, pos.bb) == (4, 7, 8)
    assert 5 not in pos.dealt and pos.waiting == (5,)
    pos = next_hand(pos, {1, 3, 5, 7, 8}, 9, dead_button=True, newcomers={5})
    assert 5 in pos.dealt and pos.waiting == ()


def test_new_player_on_the_button_or_small_blind_is_dealt_in() -> None:
    """TDA 2017 r.9 (2015 r.9, Irish r.9): a player from a broken table or a late
    entrant "can get any seat including small or big blind or the button and be dealt
    in"; only seats between the small blind and the button wait."""
    prev = Positions(button=3, sb=4, bb=6, dealt=(1, 3, 6, 7))
    pos = next_hand(prev, {1, 3, 4, 6, 7}, 9, dead_button=True, newcomers={4})
    assert (pos.button, pos.sb) == (4, 6)
    assert 4 in pos.dealt and pos.waiting == () and not pos.dead_button
    prev = Positions(button=1, sb=3, bb=6, dealt=(1, 3, 6, 7))
    pos = next_hand(prev, {1, 3, 6, 7, 8}, 9, dead_button=True, newcomers={6})
    assert pos.sb == 6 and 6 in pos.dealt and not pos.dead_sb


def test_sheridans_newcomer_on_the_button_or_small_blind_waits() -> None:
    """Sheridan's r.10 differs from TDA 9: a newcomer on the button or the small blind
    waits for the button to pass (one in the big blind posts it and plays)."""
    prev = Positions(button=3, sb=4, bb=6, dealt=(1, 3, 6, 7))
    pos = next_hand(prev, {1, 3, 4, 6, 7}, 9, dead_button=True, newcomers={4},
                    waits="button_and_sb")
    assert pos.button == 4 and 4 not in pos.dealt and pos.waiting == (4,)
    prev = Positions(button=1, sb=3, bb=6, dealt=(1, 3, 6, 7))
    pos = next_hand(prev, {1, 3, 6, 7, 8}, 9, dead_button=True, newcomers={6},
                    waits="button_and_sb")
    assert pos.sb == 6 and 6 not in pos.dealt and pos.waiting == (6,)
    pos = next_hand(prev, {1, 3, 6, 7, 8}, 9, dead_button=True, newcomers={7},
                    waits="button_and_sb")
    assert pos.bb == 7 and 7 in pos.dealt
    with pytest.raises(ValueError, match="newcomer rule"):
        next_hand(prev, {1, 3, 6, 7}, 9, dead_button=True, waits="never")


def test_new_player_in_the_big_blind_is_dealt_in() -> None:
    prev = Positions(button=1, sb=2, bb=3, dealt=(1, 2, 3, 6))
    pos = next_hand(prev, {1, 2, 3, 4, 6}, 9, dead_button=True, newcomers={4})
    assert pos.bb == 4 and 4 in pos.dealt


def test_worst_open_seat_takes_the_big_blind_soonest_never_the_small_blind() -> None:
    prev = Positions(button=1, sb=2, bb=3, dealt=(1, 2, 3, 5, 6))
    rng = random.Random(0)
    # seat 4 is the next big blind
    assert worst_open_seat(prev, {1, 2, 3, 5, 6}, 9, rng) == 4
    # the big blind busted: its seat would be the small blind, so seat 7 is worst
    assert worst_open_seat(prev, {1, 2, 4, 5, 6}, 9, rng) == 7
    assert next_big_blind(prev, {1, 2, 3, 5, 6}, 9) == 5

"""向聽數 (referee/shanten.py, issue #14 item 8) held to its definition (``play.ready``):
0 exactly when referee.hand.waits finds a wait; otherwise one more than the best exchange
(discard one concealed tile, draw one the hand does not hold four of) — checked one step
deep on random hands, which by induction is the whole definition."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.handgen import random_hand, waiting_hand, winning_hand
from referee.hand import Hand, is_winning, waits
from referee.shanten import ligu_shanten, shanten


def _held(hand: Hand) -> list[int]:
    held = list(hand.concealed)
    for meld in hand.melds:
        for t in meld.tiles:
            held[t] += 1
    return held


def exchanges(hand: Hand):
    """Every hand one exchange away: a concealed tile out, another kind in."""
    held = _held(hand)
    for out in range(34):
        if not hand.concealed[out]:
            continue
        for into in range(34):
            if into != out and held[into] < 4:
                counts = list(hand.concealed)
                counts[out] -= 1
                counts[into] += 1
                yield Hand(tuple(counts), hand.melds)


def check_definition(hand: Hand, ligu: bool = False) -> int:
    s = shanten(hand, ligu=ligu)
    assert (s == 0) is bool(waits(hand, ligu=ligu)), hand
    if s > 0:
        assert min(shanten(h, ligu=ligu) for h in exchanges(hand)) == s - 1, hand
    return s


@st.composite
def hands16(draw):
    rng = random.Random(draw(st.integers(0, 2**32)))
    kind = draw(st.sampled_from(["random", "near", "one-suit"]))
    melds = draw(st.integers(0, 3))
    if kind == "near":  # a ready hand with one or two tiles swapped: 向聽 0–2
        counts, exposed = waiting_hand(rng, melds=melds)
        for _ in range(draw(st.integers(1, 2))):
            hand = Hand(tuple(counts), exposed)
            counts = list(rng.choice(list(exchanges(hand))).concealed)
        return Hand(tuple(counts), exposed)
    suits = (0,) if kind == "one-suit" else (0, 1, 2, 3)
    counts, exposed = random_hand(rng, 16, melds=melds, suits=suits)
    return Hand(tuple(counts), exposed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands16())
def test_shanten_is_the_exchanges_to_ready(hand):
    check_definition(hand)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands16(), st.just(True))
def test_shanten_with_ligu_is_the_exchanges_to_ready(hand, ligu):
    check_definition(hand, ligu)


@st.composite
def hands17(draw):
    hand = draw(hands16())
    held = _held(hand)
    tile = draw(st.sampled_from([t for t in range(34) if held[t] < 4]))
    return hand.add(tile)


def _discards(hand: Hand):
    for t in range(34):
        if hand.concealed[t]:
            yield Hand(tuple(c - (k == t) for k, c in enumerate(hand.concealed)), hand.melds)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands17(), st.booleans())
def test_seventeen_tiles_are_their_best_discard(hand, ligu):
    """Read off the 17 tiles directly, the count is the best discard's (−1 for a win)."""
    expected = -1 if is_winning(hand, ligu=ligu) else min(shanten(h, ligu=ligu) for h in _discards(hand))
    assert shanten(hand, ligu=ligu) == expected


@pytest.mark.parametrize("seed", range(10))
def test_ready_hands_are_zero_winning_hands_minus_one(seed):
    rng = random.Random(seed)
    assert shanten(Hand(*map(tuple, waiting_hand(rng, melds=seed % 4)))) == 0
    counts, melds = winning_hand(rng, melds=seed % 4)
    assert shanten(Hand(tuple(counts), melds)) == -1


def test_seventeen_tiles_count_their_best_discard():
    hand = Hand.parse("123456789m 124p 789s 55z")  # not winning; discarding 1p or 4p leaves it ready
    assert shanten(hand) == 0
    far = Hand.parse("13579m 13579p 1357s 1z 2z 3z")
    assert shanten(far) == min(shanten(Hand(tuple(c - (t == k) for t, c in enumerate(far.concealed))))
                               for k in range(34) if far.concealed[k])


def test_known_counts():
    assert shanten(Hand.parse("123456789m 12p 789s 55z")) == 0
    assert shanten(Hand.parse("123456789m 124p 789s 5z")) == 1
    # 16 lone tiles: each of 5 sets and the pair can use one of them, 11 of 17 are missing
    assert shanten(Hand.parse("147m 258p 369s 1234567z")) == 10
    # every wait of the counted shape is a tile held four times: no wait, one exchange away
    assert shanten(Hand.parse("1111m", "123p 456p 789p 111s")) == 1


def test_ligu_counts_seven_pairs_and_a_pung():
    eight_pairs = Hand.parse("1122m 3344p 5566s 7799s")
    assert ligu_shanten(eight_pairs) == 0 and shanten(eight_pairs, ligu=True) == 0
    assert shanten(eight_pairs) > 0  # not ready without the option
    assert ligu_shanten(Hand.parse("1234m", "123p 456p 789p 111s")) is None  # melds: no 嚦咕嚦咕

"""Settlement (issue #3): payments per seat always sum to zero; who pays whom.

The rulebook cases are the scenarios of features/settlement.feature; here the
properties over random winning hands and contexts.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.handgen import winning_hand
from referee.errors import MjrefError
from referee.hand import Hand
from referee.ruleset import Ruleset
from referee.scoring import (
    FirstTurn, FlowerWin, Readiness, Stakes, WinContext, WinSource, score, settle, settle_draw,
)
from referee.tiles import Wind

RULES = {name: Ruleset.load(name) for name in ("competition", "competition-000", "app")}
RULES["app+bao"] = Ruleset.load("app", {"bao.enabled": True, "tai.see_flower_see_tai": 1, "hands.ligu": True})
PAYS_ALONE = (WinSource.DISCARD, WinSource.LAST_DISCARD, WinSource.ROBBING_KONG)


@st.composite
def wins(draw):
    """A random winning hand with a context that fits it, a ruleset and stakes."""
    rules = RULES[draw(st.sampled_from(sorted(RULES)))]
    rng = random.Random(draw(st.integers(0, 2**32)))  # the hand generator draws many numbers: seed it
    counts, melds = winning_hand(rng)
    n_flowers = draw(st.integers(0, 8))
    flower_win = FlowerWin.NONE
    source = draw(st.sampled_from(list(WinSource)[:7]))
    winner = draw(st.integers(0, 3))
    dealer = draw(st.integers(0, 3))
    others = [s for s in range(4) if s != winner]
    discarder = draw(st.sampled_from(others)) if source in PAYS_ALONE else None
    robbed = None
    if n_flowers == 8:
        flower_win = draw(st.sampled_from([FlowerWin.EIGHT_FLOWERS, FlowerWin.SEVEN_ROB_ONE,
                                           FlowerWin.SEVEN_ROB_ONE_DRAWN]))
        source = draw(st.sampled_from([WinSource.FLOWER_REPLACEMENT, WinSource.FLOWER_WIN]))
        discarder = None if flower_win is FlowerWin.EIGHT_FLOWERS else draw(st.sampled_from(others))
        if flower_win is FlowerWin.SEVEN_ROB_ONE_DRAWN:
            robbed = draw(st.integers(34, 41))
    flowers = tuple(sorted(rng.sample(range(34, 42), n_flowers)))
    concealed = all(m.is_concealed for m in melds)
    readiness = draw(st.sampled_from(list(Readiness) if concealed else [Readiness.NONE, Readiness.DECLARED]))
    if (readiness is Readiness.HEAVENLY and winner == dealer) or (
            readiness is Readiness.DECLARED and not rules.values["play.declared_ready"]):
        readiness = Readiness.NONE
    first_turn = FirstTurn.NONE
    if concealed and draw(st.booleans()):
        first_turn = (FirstTurn.HEAVENLY_WIN if winner == dealer
                      else draw(st.sampled_from([FirstTurn.EARTHLY_WIN, FirstTurn.HUMAN_WIN])))
        if first_turn is FirstTurn.HEAVENLY_WIN and source not in (WinSource.WALL, WinSource.FLOWER_REPLACEMENT):
            first_turn = FirstTurn.NONE
    tile = draw(st.sampled_from([t for t in range(34) if counts[t]]))
    if source is WinSource.ROBBING_KONG:
        source, discarder = WinSource.DISCARD, discarder  # the robbed tile needs the other three in a pung
    streak = draw(st.integers(0, 5))
    ctx = WinContext(
        winner=winner, dealer=dealer, round_wind=Wind(draw(st.integers(0, 3))), source=source,
        winning_tile=None if source is WinSource.FLOWER_WIN else tile, discarder=discarder,
        wall_break=draw(st.one_of(st.none(), st.integers(0, 3))), streak=streak,
        streak_marker=draw(st.one_of(st.none(), st.integers(0, 5))), flower_win=flower_win,
        dealt_flower_win=flower_win is not FlowerWin.NONE and draw(st.booleans()), readiness=readiness,
        first_turn=first_turn, robbed_flower=robbed,
        bao=tuple(draw(st.lists(st.integers(0, 33), max_size=3))) if rules.values["bao.enabled"] else (),
    )
    hand = Hand(tuple(counts), melds, flowers)
    stakes = Stakes(draw(st.integers(0, 500)), draw(st.integers(0, 100)))
    return hand, ctx, rules, stakes


def _scored(win) -> tuple | None:
    """A drawn win scored: ``(result, ctx, stakes)``; ``None`` for a context its ruleset does
    not allow (七搶一 off, 宣告聽牌 off, 寶牌 off …)."""
    hand, ctx, rules, stakes = win
    try:
        return score(hand, ctx, rules), ctx, stakes
    except MjrefError:
        return None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wins())
def test_every_settlement_sums_to_zero(win):
    if (scored := _scored(win)) is None:
        return
    result, ctx, stakes = scored
    payments = settle(result, stakes).payments
    assert sum(payments) == 0
    assert payments[ctx.winner] >= 0
    assert all(p <= 0 for seat, p in enumerate(payments) if seat != ctx.winner)  # non-winners never receive
    if ctx.discarder is not None and not result.robbed_tai:
        assert all(p == 0 for seat, p in enumerate(payments) if seat not in (ctx.winner, ctx.discarder))


@settings(max_examples=200, deadline=None)
@given(wins())
def test_each_payer_pays_base_plus_face_plus_dealer(win):
    if (scored := _scored(win)) is None:
        return
    result, ctx, stakes = scored
    for t in settle(result, stakes).transfers:
        assert t.payee == ctx.winner and t.payer != ctx.winner
        assert t.amount == stakes.base + (t.tai + t.dealer_tai) * stakes.per_tai
        if ctx.dealer not in (t.payer, t.payee):
            assert t.dealer_tai == 0


def test_exhaustive_draw_pays_nothing():
    assert settle_draw().payments == (0, 0, 0, 0)


def _score(tiles, **kw):
    kw.setdefault("dealer", 0)
    kw.setdefault("round_wind", Wind.EAST)
    return score(Hand.parse(tiles), WinContext(**kw), RULES["competition"])


@pytest.mark.parametrize(
    "winner, marker, source, discarder, dealer_pays_or_gets",
    [
        (0, 0, WinSource.WALL, None, 100 + (3 + 1) * 20),    # shown low, dealer collects as shown (N=0)
        (0, 2, WinSource.WALL, None, 100 + (3 + 3) * 20),    # shown high, dealer collects as real (N=1)
        (1, 0, WinSource.WALL, None, 100 + (3 + 3) * 20),    # shown low, dealer pays as real
        (1, 2, WinSource.WALL, None, 100 + (3 + 5) * 20),    # shown high, dealer pays as shown
        (1, 2, WinSource.DISCARD, 0, 100 + (1 + 5) * 20),
    ],
)
def test_streak_marker_counts_against_the_dealer(winner, marker, source, discarder, dealer_pays_or_gets):
    result = _score("123m456m789p234s555s99p", winner=winner, source=source, winning_tile=21, discarder=discarder,
                    streak=1, streak_marker=marker)
    transfers = settle(result, Stakes(100, 20)).transfers
    amounts = {t.payer: t.amount for t in transfers}
    if winner == 0:
        assert set(amounts.values()) == {dealer_pays_or_gets}
    else:
        assert amounts[0] == dealer_pays_or_gets


def test_robbing_a_kong_is_paid_by_the_kong_player_alone_without_self_draw():
    result = _score("123m456m789p234s55sSSS", winner=1, source=WinSource.ROBBING_KONG, winning_tile=21, discarder=2)
    assert "self_draw" not in result.pattern_tai()
    assert settle(result, Stakes(100, 20)).payments == (0, 160, -160, 0)

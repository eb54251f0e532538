"""Property tests: with irregularities injected into random streams, ruling never fails and
the payments always sum to zero (issue #5: 「Payments still sum to zero」)."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from penalties import rule
from testkit.irregular import inject
from penalties.rulings import Ruling, parse_ruling
from referee.events import event_to_dict
from referee.generator import generate_hand, physical_view

_HANDS: dict[int, list[dict]] = {}


def _hand(seed: int) -> list[dict]:
    if seed not in _HANDS:
        _HANDS[seed] = [event_to_dict(e) for e in physical_view(generate_hand(seed))]
    return [dict(e) for e in _HANDS[seed]]


def _inject(events: list[dict], rng: random.Random, count: int) -> list[dict]:
    return inject(events, rng, count)


def _check(rulings) -> None:
    total = sum(rulings.payments) + sum(v for _k, v in rulings.outside)
    assert total == 0, rulings.to_dict()
    for r in rulings.rulings:
        assert isinstance(r, Ruling)
        assert parse_ruling(repr(r)) == r
        assert r.text_zh and r.text and "?" not in r.text_zh.replace("？", "")
        assert sum(p.amount for p in r.payments) >= 0
    json.dumps(rulings.to_dict(), ensure_ascii=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 40), salt=st.integers(0, 10_000), count=st.integers(1, 4))
def test_payments_sum_to_zero_with_irregularities_injected(seed, salt, count):
    rng = random.Random(salt)
    events = _inject(_hand(seed), rng, count)
    _check(rule(events))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 40), salt=st.integers(0, 10_000))
def test_side_stakes_keep_the_sum_at_zero(seed, salt):
    rng = random.Random(salt)
    events = _inject(_hand(seed), rng, 2)
    stake = {"type": "report", "seat": rng.randrange(4), "code": "side_stake",
             "note": rng.choice(["outside 阿明 50/10", "outside Bob 30", "inside 2"]),
             "table": events[0].get("table", ""), "hand": events[0].get("hand", 0)}
    events.insert(5, stake)
    for i, e in enumerate(events):
        e["seq"] = i + 1
    _check(rule(events))


@pytest.mark.parametrize("seed", range(8))
def test_clean_random_hands_have_no_penalties(seed):
    """A legal digital hand: no ruling but priority notes; the payments are the referee's."""
    events = [event_to_dict(e) for e in generate_hand(seed)]
    rulings = rule(events)
    assert all(r.offender is None or r.code.startswith("streak_marker") or r.code == "walking_eye_fee"
               for r in rulings.rulings), rulings.codes
    _check(rulings)

"""The penalties' short cuts against their slow references (issue #13, speed): a hand with
nothing to rule on skips the full walk (:func:`penalties.rule.rule_quiet` instead of
:func:`penalties.rule.rule_record`), and the priority analysis looks only at the windows that
may hold a conflict (:func:`penalties.priority.analyze` against :func:`~penalties.priority.analyze_all`).
Generated streams with irregularities injected (digital and physical), legal ones, and legal
ones whose gestures' timestamps are shuffled (the priority rules compare times, the referee
the record's order) must come out the same both ways."""
from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from penalties import priority
from penalties.adjudicator import HandAdjudicator, _events
from penalties.record import SeqIndex, WallLog
from testkit.irregular import irregular_hand
from penalties.rule import rule_quiet, rule_record
from referee.events import Event, EventType
from referee.generator import generate_hand, physical_view


def _both(events):
    fast = HandAdjudicator().feed_all(events)
    slow = HandAdjudicator(reference=True).feed_all(events)
    return fast, slow


def _same(events) -> bool:
    """Fast and reference agree on the whole answer; returns whether the short cut applied."""
    fast, slow = _both(events)
    assert fast.to_dict() == slow.to_dict()
    assert fast.given == slow.given and fast.result == slow.result
    assert priority.analyze(slow.record) == priority.analyze_all(slow.record)
    quiet = rule_quiet(slow.record)
    if quiet is not None:
        assert quiet == rule_record(slow.record)
    return quiet is not None


def _shuffled_times(events, rng: random.Random):
    """The same record with some neighbouring events' timestamps swapped (a gesture timed
    before the act recorded ahead of it)."""
    out = list(events)
    for _ in range(6):
        i = rng.randrange(20, len(out) - 2)
        a, b = out[i], out[i + 1]
        out[i], out[i + 1] = replace(a, ts=b.ts), replace(b, ts=a.ts)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 400), salt=st.integers(0, 100_000), count=st.integers(0, 4), physical=st.booleans(),
       shuffle=st.booleans())
def test_property_the_short_cuts_equal_the_full_walk(seed, salt, count, physical, shuffle):
    """Any generated hand, with 0–4 irregularities injected, seen by either table, its times
    perhaps shuffled: the adjudicator's answer is the same with and without the short cuts."""
    if count:
        events = _events(irregular_hand(seed, salt, count, physical=physical))
    else:
        events = generate_hand(seed)
        events = physical_view(events) if physical else events
    if shuffle:
        events = _shuffled_times(events, random.Random(salt))
    assert priority.contested(events) == priority.contested_reference(events)
    try:
        _same(events)
    except Exception as e:  # a stream the referee cannot follow is refused both ways
        from referee.errors import MjrefError

        if not isinstance(e, MjrefError):
            raise


def test_the_short_cut_is_taken_on_legal_hands_and_not_where_there_is_something_to_rule():
    """Legal generated hands (digital and physical) take the short cut and agree with the
    full walk; hands with irregularities, reports or a priority conflict do not take it."""
    quiet = 0
    for seed in range(60):
        events = generate_hand(seed)
        quiet += _same(events)
        quiet += _same(physical_view(events))
    assert quiet >= 100  # nearly every legal hand
    noisy = 0
    for seed in range(60):
        events = _events(irregular_hand(seed, seed, 2, physical=seed % 2 == 0))
        if any(e.type is EventType.REPORT for e in events):
            assert rule_quiet(HandAdjudicator(reference=True).feed_all(events).record) is None
        noisy += not _same(events)
    assert noisy >= 50


def test_the_priority_analysis_looks_at_fewer_windows_and_finds_the_same():
    """On generated hands most discards' windows hold no claim against a draw or chow:
    :func:`priority.contested` leaves them out."""
    looked = every = 0
    for seed in range(40):
        events = _events(irregular_hand(seed, seed + 1, 3, physical=True))
        record = HandAdjudicator(reference=True).feed_all(events).record
        assert priority.analyze(record) == priority.analyze_all(record)
        looked += len(priority.contested(record.events))
        every += sum(1 for e in record.events if e.type is EventType.DISCARD)
    assert looked < every / 3


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 400), salt=st.integers(0, 100_000), count=st.integers(0, 4), physical=st.booleans())
# a chow after the last tile was left (skip_last_tile closes the hand): the rebuilt walls after
# the close once came from a referee that had not closed it (penalties.record.WallLog)
@example(seed=101, salt=369, count=1, physical=True)
def test_property_the_batch_loop_equals_feeding_each_event(seed, salt, count, physical):
    """:meth:`HandAdjudicator.feed_all`'s inline loop against :meth:`feed` one event at a time
    (then the close): the same result, rulings (ids, seqs given at) and money."""
    events = _events(irregular_hand(seed, salt, count, physical=physical)) if count else generate_hand(seed)
    from referee.errors import MjrefError

    adj = HandAdjudicator()
    try:
        batch = adj.feed_all(events)
    except MjrefError:
        return
    one = HandAdjudicator()
    for ev in events:
        one.feed(ev)
    fed = one.close()
    assert batch.to_dict() == fed.to_dict() and batch.given == fed.given
    # what the loops record on the way: the events, the wall after each (kept, or None while
    # the hand was quiet: rebuilt from the events when read), the referee's log
    assert adj.events == one.events and len(adj.moments) == len(one.moments)
    assert all(m is None or m == k for m, k in zip(adj.moments, one.moments))
    assert dict(batch.record.moments) == dict(fed.record.moments)  # every wall read, the rebuilt ones too
    rebuilt = WallLog(SeqIndex([e.seq for e in adj.events]), list(adj.moments), adj.events)
    assert rebuilt.facts() == one.moments  # every event's, those after the close too
    assert list(adj.referee.verdicts) == list(one.referee.verdicts)
    assert adj.referee.state.last_seq == one.referee.state.last_seq == events[-1].seq
    assert adj.referee.findings == one.referee.findings


_CLAIMISH = (EventType.DISCARD, EventType.DISCARD, EventType.DRAW, EventType.CHOW, EventType.PUNG, EventType.KONG,
             EventType.WIN, EventType.PASS, EventType.TAIL_DRAW)


@st.composite
def _claimish_events(draw):
    """Any sequence of discards, draws, chows, pungs, kongs, wins and passes, seats and
    tiles known or not: far more ways than a table plays (a pung by the discarder, a win
    shown on an old tile, an event without a seat)."""
    out = []
    for seq in range(1, draw(st.integers(0, 40)) + 1):
        etype = draw(st.sampled_from(_CLAIMISH))
        seat = draw(st.one_of(st.none(), st.integers(0, 3)))
        tiles = draw(st.one_of(st.none(), st.just(()), st.lists(st.integers(0, 3), min_size=1, max_size=4).map(tuple)))
        out.append(Event(etype, seq, seat=seat, tiles=tiles))
    return out


@settings(max_examples=300, deadline=None)
@given(events=_claimish_events())
def test_property_contested_equals_its_reference_on_any_sequence(events):
    """:func:`priority.contested` (found from the claims) against the one pass over every
    event, :func:`priority.contested_reference`, on arbitrary sequences of the events that
    mark or fill a window."""
    assert priority.contested(events) == priority.contested_reference(events)
    assert priority.contested(iter(events)) == priority.contested_reference(events)


def test_contested_from_the_kept_claims_equals_finding_them():
    """The claims' indices the referee keeps (:attr:`Referee.claim_indices`, the record's
    :attr:`HandRecord.claims`) are those :func:`priority.claim_indices` finds in the events,
    and :func:`priority.contested` from them answers as from the events alone; a record
    without them finds them."""
    from penalties.record import build

    for seed in range(30):
        events = _events(irregular_hand(seed, seed + 3, seed % 4, physical=seed % 2 == 0))
        record = HandAdjudicator().feed_all(events).record
        assert list(record.claims) == priority.claim_indices(record.events)
        assert list(record.claims) == [i for i, e in enumerate(record.events) if e.type in priority.CLAIMS]
        assert priority.contested(record.events, record.claims) == priority.contested_reference(record.events)
        replayed = build(record.events)
        assert replayed.claims == record.claims and priority.analyze(replayed) == priority.analyze(record)
        bare = replace(record, claims=None)
        assert priority.analyze(bare) == priority.analyze(record)


def test_walls_not_kept_are_rebuilt_from_the_events_as_a_replay_keeps_them():
    """:class:`penalties.record.WallLog` with some events' walls not kept (None, as
    :meth:`HandAdjudicator.feed_all` leaves a quiet stretch) rebuilds them from the events:
    every moment as :func:`penalties.record.build` (a replay keeping each) gives it, the
    rebuilt facts written back into the list it was given."""
    from penalties.record import build, wall_facts
    from referee.machine import Referee

    for seed in range(16):
        events = _events(irregular_hand(seed, seed + 5, seed % 3, physical=seed % 2 == 0)) if seed % 4 \
            else generate_hand(seed)
        ref = Referee()
        kept = []
        for ev in events:
            ref.apply(ev)
            kept.append(wall_facts(ref.state))
        replayed = build(events)
        for gap in (range(1, len(events)), range(3, len(events) // 2), range(len(events) - 1, len(events))):
            facts = [None if i in gap else f for i, f in enumerate(kept)]
            walls = WallLog(SeqIndex([e.seq for e in events]), facts, events)
            assert dict(walls) == dict(replayed.moments)
            assert facts == kept

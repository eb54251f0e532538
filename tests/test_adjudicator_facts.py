"""Penalties read the referee's facts and never replay a hand (issue #13 item 2), held to the
replays they replaced: the rulings at a moment are made on the live referee closed
provisionally (:meth:`referee.machine.Referee.provisional`) instead of a second referee fed
the events so far; a win the referee did not score and a walking eye's hand are read from
the tables the referee kept (:class:`referee.state.WinFace`: ``win_faces``,
``report_faces``) instead of a replay up to the event. Generated hands with irregularities
injected, digital and physical."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from penalties.adjudicator import HandAdjudicator, _events
from penalties.record import hand_record, state_before
from penalties.rule import rule_record
from referee.errors import MjrefError
from referee.events import EventType
from referee.machine import Referee
from testkit.irregular import irregular_hand
from testkit.script import Script


class ReplayingAdjudicator(HandAdjudicator):
    """The adjudicator as it was: each moment's rulings on a second referee fed the events
    so far (the slow reference)."""

    __slots__ = ()

    def _rule_prefix(self):
        ref = Referee(self.ruleset, self.mode, names=self.names)
        ref.apply_all(self.events)
        record = hand_record(self.events, ref, self.moments, stakes=self.stakes, mode=self.mode, names=self.names)
        return rule_record(record, side_stakes=self.side_stakes)


def _hand(seed: int, salt: int, count: int, physical: bool):
    return _events(irregular_hand(seed, salt, count, physical=physical))


def _fed(adjudicator: HandAdjudicator, events) -> tuple[list, object]:
    """Each event's step (its verdict's code list, the rulings given then), and the result."""
    steps = []
    for ev in events:
        step = adjudicator.feed(ev)
        steps.append((step.seq, step.verdict, step.findings, step.rulings))
    return steps, adjudicator.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 400), salt=st.integers(0, 100_000), count=st.integers(1, 4), physical=st.booleans())
def test_property_the_moments_rulings_equal_a_replay_of_the_events_so_far(seed, salt, count, physical):
    """Every step (the rulings given at each event) and the whole result: the same on the
    live referee closed provisionally as on a replay of the events so far."""
    events = _hand(seed, salt, count, physical)
    try:
        fast_steps, fast = _fed(HandAdjudicator(), events)
    except MjrefError:
        return
    slow_steps, slow = _fed(ReplayingAdjudicator(), events)
    assert fast_steps == slow_steps
    assert fast.to_dict() == slow.to_dict() and fast.given == slow.given
    assert HandAdjudicator().feed_all(events).to_dict() == ReplayingAdjudicator().feed_all(events).to_dict()


def test_a_provisional_close_leaves_the_referee_as_it_was():
    """At every event of irregular hands: the referee after :meth:`Referee.provisional` is the
    referee before it (its state, window, irregularities, findings), and what it yielded is
    what a referee fed the same events answers at its close."""
    tried = 0
    for seed in range(40):
        events = _hand(seed, seed * 7 + 1, 3, seed % 2 == 0)
        ref = Referee()
        try:
            for i, ev in enumerate(events):
                ref.apply(ev)
                before = (ref.state.snapshot(), list(ref.irregularities), list(ref.findings),
                          ref.state.window.closed if ref.state.window is not None else None)
                with ref.provisional() as adjudication:
                    replayed = Referee()
                    replayed.apply_all(events[:i + 1])
                    assert adjudication.outcome == replayed.finish().outcome
                    assert adjudication.irregularities == replayed.finish().irregularities
                after = (ref.state.snapshot(), list(ref.irregularities), list(ref.findings),
                         ref.state.window.closed if ref.state.window is not None else None)
                assert after == before, (seed, i)
                tried += 1
        except MjrefError:
            continue
    assert tried > 1000


def _same_table(face, seat) -> None:
    assert face.hand == tuple(seat.hand) and face.unknown == seat.unknown
    assert face.melds == tuple(seat.melds) and face.flowers == tuple(seat.flowers)


def test_the_tables_kept_at_wins_and_reports_are_the_replayed_ones():
    """``win_faces`` (just before each ``win``) and ``report_faces`` (the reported seat at
    each ``report``) equal the seat in a replay up to that event, on every such event of
    generated irregular hands and of a walking eye's stream."""
    checked = 0
    streams = [_hand(seed, seed + 3, 4, seed % 2 == 1) for seed in range(80)]
    walk = Script(dealer=0).deal().discard(0, "5m").report("walking_eye", 2).draw(1).discard(1, "9p")
    streams.append(walk.end().events())
    for events in streams:
        try:
            record = HandAdjudicator().feed_all(events).record
        except MjrefError:
            continue
        st_final = record.adjudication.state
        for ev in record.events:
            if ev.type is EventType.WIN:
                _same_table(st_final.win_faces[ev.seq], state_before(record, ev.seq).seats[ev.seat])
                assert st_final.win_faces[ev.seq].east == state_before(record, ev.seq).east
                checked += 1
            elif ev.type is EventType.REPORT and ev.seat is not None:
                _same_table(st_final.report_faces[ev.seq], state_before(record, ev.seq + 1).seats[ev.seat])
                checked += 1
    assert checked > 20


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 400), salt=st.integers(0, 100_000), count=st.integers(0, 4), physical=st.booleans(),
       probes=st.lists(st.integers(-5, 400), max_size=20))
def test_property_the_seq_index_answers_as_a_dict_of_the_events(seed, salt, count, physical, probes):
    """:class:`penalties.record.SeqIndex` (bisection in the seqs) against the dict it replaced,
    ``{e.seq: i for i, e in enumerate(events)}``: every seq, and seqs the hand does not have."""
    import pytest

    events = _hand(seed, salt, count, physical) if count else _events(irregular_hand(seed, salt, 0, physical=physical))
    try:
        record = HandAdjudicator().feed_all(events).record
    except MjrefError:
        return
    index = record.index
    plain = {e.seq: i for i, e in enumerate(record.events)}
    assert dict(index) == plain and list(index) == list(plain) and len(index) == len(plain)
    for seq in [*plain, *probes]:
        assert index.get(seq) == plain.get(seq) and index.get(seq, -1) == plain.get(seq, -1)
        assert (seq in index) == (seq in plain)
        if seq in plain:
            assert index[seq] == plain[seq] and record.event(seq).seq == seq
        else:
            with pytest.raises(KeyError):
                index[seq]


def test_the_record_and_the_result_filled_whole_are_their_constructors():
    """:func:`penalties.record.hand_record` and :meth:`HandAdjudicator.close` set the
    ``__dict__`` of :class:`~penalties.record.HandRecord` and
    :class:`~penalties.adjudicator.HandResult` whole instead of calling their frozen
    ``__init__``: each field is what the constructor would have been given (the record's from
    the referee and the arguments, named apart so that a field swapped shows), and the objects
    equal the constructors' own, on legal and irregular hands, a stream cut short too."""
    from dataclasses import fields

    from penalties.adjudicator import HandResult, one_result
    from penalties.record import HandRecord
    from referee.generator import generate_hand
    from referee.scoring.context import Stakes

    hands = [generate_hand(seed) for seed in range(4)]
    hands += [_events(irregular_hand(seed, seed + 5, 2, physical=seed % 2 == 0)) for seed in range(8)]
    hands.append(hands[0][:60])  # no hand_end: closed by feed_all, closed_at None
    checked = 0
    for events in hands:
        adj = HandAdjudicator(names=("甲", None, "丙", None))
        try:
            result = adj.feed_all(events)
        except MjrefError:
            continue
        stakes = Stakes(7, 3)
        moments = list(adj.moments)
        record = hand_record(adj.events, adj.referee, moments, stakes=stakes, mode="m", names=("n",))
        ref = adj.referee
        assert type(record) is HandRecord and [f.name for f in fields(HandRecord)] == list(vars(record))
        assert record.events == tuple(adj.events) and record.adjudication is ref.finish()
        assert record.ruleset is ref.state.rules.ruleset and record.stakes is stakes
        assert record.mode == "m" and record.names == ("n",) and record.claims == tuple(ref.claim_indices)
        assert list(record.index) == [e.seq for e in adj.events] and record.moments._facts is moments
        made = HandRecord(record.events, record.adjudication, record.moments, record.ruleset, record.stakes,
                          record.index, record.mode, record.names, record.claims)
        assert record == made and vars(record) == vars(made)
        default = hand_record(adj.events, ref, moments)
        assert default.stakes == Stakes(adj.events[0].setup.base, adj.events[0].setup.per_tai)
        assert default.mode is None and default.names is None
        # the hand's result
        assert type(result) is HandResult and [f.name for f in fields(HandResult)] == list(vars(result))
        closing = next((e.seq for e in adj.events if e.type in (EventType.HAND_END, EventType.SKIP_LAST_TILE)), None)
        assert result.closed_at == closing and result.record.names == ("甲", None, "丙", None)
        assert result.result == one_result(result.record, result.rulings, result.given)
        made = HandResult(result.record, result.rulings, result.given, result.result, result.closed_at)
        assert result == made and vars(result) == vars(made)
        checked += 1
    assert checked >= 8

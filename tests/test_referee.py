"""The referee's state machine: invariants over generated hands, live == replay, fuzzing,
and the outcome's next hand (referee/machine.py, referee/replay.py, referee/outcome.py)."""
from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.events import Call, Event, EventType, Mode, ReadyKind
from referee.generator import generate_hand, physical_view
from referee.machine import Referee, StreamError
from referee.melds import MeldKind
from referee.outcome import OutcomeKind, next_hand
from referee.replay import adjudicate_text, replay
from referee.events import to_jsonl
from referee.tiles import Wind
from referee.verdicts import ACCEPTED, CODES, Irregularity, Status, irregularity

SEEDS = st.integers(min_value=0, max_value=10**6)
PROFILES = st.sampled_from(["competition", "app", "competition-000"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, profile=PROFILES)
def test_every_tile_accounted_for_at_every_step(seed, profile):
    """deal.walls: 144 tiles in wall, hands, melds, ponds and flowers; no kind more than four."""
    ref = Referee()
    for ev in generate_hand(seed, ruleset=profile):
        verdict = ref.apply(ev)
        assert verdict.status is Status.ACCEPTED, verdict
        assert ref.state.check_census() == []
    assert ref.finish().irregularities == ()


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, cut=st.integers(min_value=1, max_value=200))
def test_live_equals_replay(seed, cut):
    """Feeding events one at a time gives the state and verdicts replaying the prefix gives."""
    events = generate_hand(seed)
    cut = min(cut, len(events))
    live = Referee()
    snapshots = []
    for ev in events:
        live.apply(ev)
        snapshots.append(live.state.snapshot())
    batch = Referee()
    for ev in events[:cut]:
        batch.apply(ev)
    assert batch.state.snapshot() == snapshots[cut - 1]
    assert batch.verdicts == live.verdicts[:cut]
    whole = replay(events)
    assert whole.outcome.to_dict() == live.finish().outcome.to_dict()


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_physical_table_reaches_the_same_outcome(seed):
    """A physical table sees only what is public and the winner's hand: same verdicts, same result."""
    events = generate_hand(seed)
    digital = replay(events)
    physical = replay(physical_view(events))
    assert physical.irregularities == ()
    assert physical.outcome.kind is digital.outcome.kind
    assert physical.outcome.payments == digital.outcome.payments
    assert physical.outcome.next == digital.outcome.next


_TYPES = [EventType.DRAW, EventType.TAIL_DRAW, EventType.DISCARD, EventType.CHOW, EventType.PUNG, EventType.KONG,
          EventType.WIN, EventType.FLOWER, EventType.READY, EventType.CALL, EventType.TOUCH_WALL, EventType.PLACE,
          EventType.PASS, EventType.SKIP_LAST_TILE, EventType.REVEAL, EventType.HAND_END, EventType.REPORT,
          EventType.DEAL, EventType.SEAT_DICE, EventType.DEALER_DICE, EventType.BREAK_DICE]


@st.composite
def random_event(draw, seq):
    etype = draw(st.sampled_from(_TYPES))
    seat = draw(st.integers(0, 3))
    tiles = tuple(draw(st.lists(st.integers(0, 41), min_size=1, max_size=4)))
    fields: dict = {}
    if etype in (EventType.DRAW, EventType.TAIL_DRAW, EventType.DISCARD):
        fields["tiles"] = tiles[:1] if draw(st.booleans()) or etype is EventType.DISCARD else None
        fields["exposed"] = etype is EventType.DISCARD and draw(st.booleans())
    elif etype in (EventType.CHOW, EventType.PUNG, EventType.FLOWER, EventType.REVEAL, EventType.DEAL):
        fields["tiles"] = tiles
    elif etype is EventType.KONG:
        fields["kind"] = draw(st.sampled_from(list(MeldKind)[2:]))
        fields["tiles"] = tiles if draw(st.booleans()) else (tiles[0],) * 4
    elif etype is EventType.CALL:
        fields["kind"] = draw(st.sampled_from(list(Call)))
    elif etype is EventType.READY:
        fields["kind"] = draw(st.sampled_from(list(ReadyKind)))
    elif etype is EventType.REPORT:
        fields["code"] = draw(st.sampled_from(["dead_hand", "peek", "stolen_tile"]))
    elif etype in (EventType.SEAT_DICE, EventType.DEALER_DICE, EventType.BREAK_DICE):
        fields["dice"] = tuple(draw(st.lists(st.integers(1, 6), min_size=3, max_size=3)))
    if etype in (EventType.HAND_END,):
        seat = None
    return Event(etype, seq, seq * 100, seat, **fields)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=SEEDS, mode=st.sampled_from(list(Mode)), cut=st.integers(1, 160))
def test_random_streams_never_crash(data, seed, mode, cut):
    """Any well-formed events in any order: a verdict each, never an exception, tiles still accounted for."""
    events = generate_hand(seed)
    if mode is Mode.PHYSICAL:
        events = physical_view(events)
    prefix = events[:min(cut, len(events))]
    ref = Referee()
    for ev in prefix:
        ref.apply(ev)
    seq = prefix[-1].seq
    stream = list(prefix)
    for _ in range(data.draw(st.integers(1, 25))):
        seq += 1
        ev = data.draw(random_event(seq))
        stream.append(ev)
        verdict = ref.apply(ev)
        assert isinstance(verdict.status, Status)
        assert ref.state.check_census() == []
    batch = Referee()  # batch replay (apply_all) rules on the same stream as the live referee did
    batch.apply_all(stream)
    assert batch.verdicts == ref.verdicts and list(batch.verdicts) == list(ref.verdicts)
    assert batch.state.snapshot() == ref.state.snapshot()
    adjudication = ref.finish()
    assert adjudication.outcome.kind in OutcomeKind
    assert sum(adjudication.outcome.payments) == 0
    assert adjudication.to_dict()["outcome"]["kind"]


def test_every_event_type_has_a_handler():
    from referee.machine import _DISPATCH

    assert set(_DISPATCH) == set(EventType)


def test_verdict_log_reads_as_seq_verdict_pairs():
    """The referee keeps a verdict only for the events not plainly accepted; the log still
    reads as one (seq, verdict) pair per event."""
    events = generate_hand(3)
    wrong = replace(events[-1], seq=events[-1].seq + 1, type=EventType.DRAW, tiles=None)  # a draw after the hand
    ref = Referee()
    ref.apply_all(events + [wrong])
    log = ref.verdicts
    assert len(log) == len(events) + 1
    assert [seq for seq, _v in log] == [ev.seq for ev in events] + [wrong.seq]
    assert log[0] == (events[0].seq, ACCEPTED) and log[-1][1].status is not Status.ACCEPTED
    assert log[-2:] == list(log)[-2:]
    assert log.odd == {wrong.seq: log[-1][1]}
    assert log == list(log) and list(log) == log
    assert ref.finish().verdicts == log


def test_a_stream_starts_with_hand_start_and_seq_increases():
    events = generate_hand(3)
    with pytest.raises(StreamError):
        Referee().apply(events[1])
    ref = Referee()
    ref.apply(events[0])
    with pytest.raises(StreamError) as info:
        ref.apply(replace(events[1], seq=events[0].seq))
    assert info.value.field == "seq"
    with pytest.raises(StreamError):
        ref.apply(replace(events[0], seq=99))


def test_generated_hands_are_deterministic_and_varied():
    assert generate_hand(7) == generate_hand(7)
    kinds = {replay(generate_hand(s)).outcome.kind for s in range(40)}
    assert {OutcomeKind.WIN, OutcomeKind.EXHAUSTIVE_DRAW} <= kinds


def test_adjudication_document_from_json_lines():
    events = generate_hand(21)
    doc = adjudicate_text(to_jsonl(events))
    assert doc["protocol"] == 1 and len(doc["hands"]) == 1
    hand = doc["hands"][0]
    assert len(hand["verdicts"]) == len(events)
    assert all(v["verdict"] == "accepted" for v in hand["verdicts"])
    assert sum(hand["outcome"]["payments"]) == 0


def test_several_hands_in_one_stream():
    a, b = generate_hand(1, hand=1), generate_hand(2, hand=2)
    doc = adjudicate_text(to_jsonl(a + b))
    assert [h["hand"] for h in doc["hands"]] == [1, 2]


# --- verdict data -------------------------------------------------------------------------------


def test_every_code_has_a_clause_and_both_languages():
    for code, (clause, zh, en) in CODES.items():
        assert code.isascii() and clause and zh and en


def test_irregularity_repr_parses_back():
    irr = irregularity("chow_wrong_seat", 12, 2, discarder=0, tile=5)
    assert eval(repr(irr), {"Irregularity": Irregularity}) == irr  # noqa: S307
    assert irr.clause == "play.chi" and irr.fact("discarder") == 0
    assert "六萬" in irr.detail_zh and "6m" in irr.detail


# --- the next hand (seat.dealer, app.dealer-continue) -------------------------------------------


def test_dealer_repeats_and_streak_grows():
    nxt = next_hand(2, 1, Wind.EAST, 0, repeats=True)
    assert (nxt.dealer, nxt.streak, nxt.round_wind) == (2, 2, Wind.EAST)


def test_deal_passes_and_round_wind_advances_at_the_starting_seat():
    assert next_hand(1, 3, Wind.EAST, 0, repeats=False).round_wind is Wind.EAST
    nxt = next_hand(3, 0, Wind.SOUTH, 0, repeats=False)
    assert (nxt.dealer, nxt.streak, nxt.round_wind, nxt.match_over) == (0, 0, Wind.WEST, False)
    assert next_hand(3, 0, Wind.NORTH, 0, repeats=False).match_over


def test_false_win_keeps_the_deal_without_counting():
    nxt = next_hand(1, 2, Wind.EAST, 0, repeats=True, counted=False)
    assert (nxt.dealer, nxt.streak, nxt.streak_counted) == (1, 2, False)


# --- 包牌 (settle.liability, issue #18) ---------------------------------------------------------


def test_the_liable_seat_fed_the_last_dragon_or_wind_set():
    from referee.win_context import liable_seat as _liable
    from referee.state import SeatState, TableMeld

    seat = SeatState(1)
    seat.melds = [TableMeld(MeldKind.PUNG, (31, 31, 31), 31, 0, 5), TableMeld(MeldKind.PUNG, (32, 32, 32), 32, 2, 9),
                  TableMeld(MeldKind.PUNG, (33, 33, 33), 33, 3, 14)]
    assert _liable(seat, 1) == 3  # the third dragon set, claimed last, came from seat 3
    seat.melds[2] = TableMeld(MeldKind.CONCEALED_KONG, (33,) * 4, None, None, 14)
    assert _liable(seat, 1) is None  # the last set was his own
    seat.melds = seat.melds[:2]
    assert _liable(seat, 1) is None  # two dragon sets: no 大三元 on the table
    seat.melds = [TableMeld(MeldKind.PUNG, (27 + i,) * 3, 27 + i, fed, i) for i, fed in enumerate((2, 3, 2, 0))]
    assert _liable(seat, 1) == 0  # the fourth wind set came from seat 0


# --- play without flowers: 136 tiles (issue #18 item 3, tiles.flowers) ------------------------

from penalties.adjudicator import adjudicate_hands  # noqa: E402
from referee.errors import MjrefError  # noqa: E402
from testkit.irregular import irregular_hand  # noqa: E402

_NO_FLOWERS = {"tiles.flowers": False}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), physical=st.booleans())
def test_play_without_flowers_accounts_for_136_tiles_and_pays_zero_sum(seed, physical):
    """deal.walls, tiles.flowers (seed 001 南部無花): a generated 136-tile hand, digital or as a
    physical table records it, keeps every tile accounted for after every event (136, no flower
    anywhere), wins score no flower 台 and the payments sum to zero."""
    events = generate_hand(seed, rules=_NO_FLOWERS)
    if physical:
        events = physical_view(events)
    ref = Referee()
    for ev in events:
        verdict = ref.apply(ev)
        assert verdict.status is Status.ACCEPTED, (ev, verdict)
        assert ref.state.check_census() == [], ev
    assert ref.state.wall.size == 136 and not any(s.flowers or s.held_flowers for s in ref.state.seats)
    adj = ref.finish()
    assert sum(adj.outcome.payments) == 0
    for win in adj.outcome.wins:
        if win.score is not None:
            codes = {p["code"] for p in win.score.to_dict()["patterns"]}
            assert not codes & {"own_flower_seasons", "own_flower_plants", "flower_set_seasons", "flower_set_plants",
                                "all_flowers", "no_flowers", "no_honours_no_flowers", "see_flower_see_tai"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), salt=st.integers(0, 10**6), count=st.integers(1, 4), physical=st.booleans())
def test_penalties_in_play_without_flowers_pay_zero_sum(seed, salt, count, physical):
    """tiles.flowers, pen.*: with irregularities injected into a 136-tile hand the adjudicator
    (referee and penalties) rules it and its payments still sum to zero; a flower laid out is
    refused, not counted."""
    try:
        results = adjudicate_hands(irregular_hand(seed, salt, count, physical=physical, flowers=False))
    except MjrefError:
        return  # a stream the referee cannot follow (the injections may break it)
    assert results
    for hand in results:
        assert sum(hand.result.payments) == 0
        state = hand.record.adjudication.state
        assert state.wall.size == 136 and state.check_census() == []


def test_play_without_flowers_refuses_a_144_wall_and_flowers():
    """deal.walls, tiles.flowers: under play without flowers the wall is the 136-tile set (a
    144-tile wall is refused), a flower event is refused (no_flowers_in_play); with flowers a
    136-tile wall is refused."""
    from testkit.scenario import Scenario

    events = generate_hand(3)
    start = replace(events[0], setup=replace(events[0].setup, rules=tuple(_NO_FLOWERS.items())))
    ref = Referee()
    ref.apply(start)
    wall = next(e for e in events if e.type is EventType.WALL)
    verdict = ref.apply(replace(wall, seq=2))
    assert verdict.status is Status.REJECTED and verdict.irregularities[0].code == "wall_not_a_set"
    assert "136" in verdict.irregularities[0].detail_zh
    flowerless = generate_hand(3, rules=_NO_FLOWERS)
    wall136 = next(e for e in flowerless if e.type is EventType.WALL)
    assert len(wall136.tiles) == 136
    ref = Referee()
    ref.apply(events[0])
    verdict = ref.apply(replace(wall136, seq=2))
    assert verdict.status is Status.REJECTED and "144" in verdict.irregularities[0].detail_zh
    sc = Scenario(rules=_NO_FLOWERS)
    acts = sc.events([(0, "補花", "1f")])
    ref = Referee()
    verdicts = [ref.apply(e) for e in acts]
    assert verdicts[-1].status is Status.REJECTED
    assert verdicts[-1].irregularities[0].code == "no_flowers_in_play"


@pytest.mark.parametrize("flowers, accepted", [(True, True), (False, False)])
def test_a_physical_table_cannot_record_a_flower_drawn_from_a_set_without_flowers(flowers, accepted):
    """deal.walls, tiles.flowers: a physical table's draw shows 1f from the unknown wall; with
    flowers it is the set's one copy, without flowers (136 tiles) the set holds none: the record
    is wrong (too_many_copies, limit 0) and every tile stays accounted for."""
    from testkit.scenario import Scenario

    sc = Scenario(rules={"tiles.flowers": flowers}, mode=Mode.PHYSICAL)
    ref = Referee()
    verdicts = [ref.apply(e) for e in sc.events([(0, "打", "1z"), (1, "摸", "1f")])]
    assert all(v.status is Status.ACCEPTED for v in verdicts[:-1])
    assert (verdicts[-1].status is Status.ACCEPTED) is accepted, verdicts[-1]
    if not accepted:
        (irr,) = verdicts[-1].irregularities
        assert irr.code == "too_many_copies" and dict(irr.facts)["limit"] == 0
    assert ref.state.check_census() == []

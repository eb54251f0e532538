"""The face (牌面) from the referee's facts against the replay it replaced (issue #13 item 2):
:func:`penalties.face.face_value` reads what each seat showed as it changed and the winner's
table as each win was declared; the reference below replays the events up to the seq (the
code before, kept here) — they must agree on every sample and generated stream."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from penalties.adjudicator import _events, adjudicate_hands
from penalties.face import face_value
from testkit.irregular import irregular_hand
from penalties.record import HandRecord, state_before
from referee.errors import MjrefError
from referee.events import Event, EventType
from referee.hand import Hand
from referee.melds import MeldKind
from referee.scoring import WinContext, score
from referee.scoring.context import WinSource
from referee.tiles import DRAGON_TILES, FLOWER_BASE, KINDS, Wind, flower_group, flower_seat

_SELF = {0: WinSource.WALL, 1: WinSource.WALL, 2: WinSource.LAST_TILE, 3: WinSource.KONG_REPLACEMENT,
         4: WinSource.KONG_REPLACEMENT, 5: WinSource.FLOWER_REPLACEMENT}


def replayed_face_value(record: HandRecord, seat: int, seq: int, *, win: Event | None = None) -> tuple[int, str]:
    """``(台, how)`` of *seat*'s face just before event *seq*; ``how`` is ``"scored"`` (a
    complete hand declared as a win, scored) or ``"shown"`` (flowers and exposed honour
    sets)."""
    st = state_before(record, seq)
    if st is None:
        return 0, "shown"
    if win is not None:
        scored = _old_scored(record, st, seat, win)
        if scored is not None:
            return scored, "scored"
    return _old_shown_face(st, seat, record.ruleset), "shown"


def _old_shown_face(st: Any, seat: int, ruleset: Any) -> int:
    """The 台 a seat's table shows: flowers and exposed wind/dragon pungs and kongs."""
    v = ruleset.values
    s = st.seats[seat]
    wind = Wind((seat - st.east) % 4)
    tai = 0
    flowers = [f for f in s.flowers if f >= FLOWER_BASE]
    numbering = v["flowers.numbering"]
    if len(flowers) == 8 and v["tai.all_flowers"]:
        tai += v["tai.all_flowers"]
    else:
        for group in (0, 1):
            mine = [f for f in flowers if flower_group(f) == group]
            if len(mine) == 4 and v["tai.flower_set"]:
                tai += v["tai.flower_set"]
            else:
                tai += v["tai.own_flower"] * sum(1 for f in mine if flower_seat(f, numbering) is wind)
    for m in s.melds:
        tiles = m.tiles
        if not tiles or m.kind is MeldKind.CHOW or len(set(tiles)) != 1:
            continue
        t = tiles[0]
        if t == wind.tile:
            tai += v["tai.seat_wind_pung"]
        if t == st.round_wind.tile:
            tai += v["tai.round_wind_pung"]
        if t in DRAGON_TILES:
            tai += v["tai.dragon_pung"]
    return tai


def _old_scored(record: HandRecord, st: Any, seat: int, win: Event) -> int | None:
    """The face of the win as declared, when the hand is a complete winning hand."""
    s = st.seats[seat]
    w = st.window
    on_tile = w is not None and not w.closed and w.seat != seat and w.kind.value in (0, 1) and not (
        w.taken is not None and w.taken.seat == seat)
    counts = list(s.hand)
    if on_tile:
        tile = w.tile
        source = (WinSource.LAST_DISCARD if w.last else WinSource.DISCARD) if w.kind.value == 0 else WinSource.ROBBING_KONG
        discarder = w.seat
        if tile >= KINDS:
            return None
        counts[tile] += 1
    else:
        if st.turn != seat:
            return None
        tile = st.drawn
        if tile is None and s.unknown and win.tiles:
            # a physical table that did not record the drawn tile: the hand shown with the
            # win ends with the winning tile (docs/protocol.md), so the face is known (R-pen-1)
            tile = win.tiles[-1]
        if tile is None or tile >= KINDS:
            return None
        source = _SELF.get(int(st.source), WinSource.WALL)
        discarder = None
    if s.unknown:
        if win.tiles is None or len(win.tiles) != sum(counts) + s.unknown:
            return None
        counts = [0] * KINDS
        for t in win.tiles:
            if t >= KINDS:
                return None
            counts[t] += 1
        if not counts[tile]:
            return None
    melds = s.melds_for_scoring()
    if melds is None:
        return None
    setup = record.setup
    try:
        hand = Hand(tuple(counts), melds, tuple(sorted(f for f in s.flowers)))
        ctx = WinContext(winner=seat, dealer=setup.dealer, round_wind=setup.round_wind, source=source,
                         winning_tile=tile, discarder=discarder, wall_break=st.east, streak=setup.streak,
                         streak_marker=setup.streak_marker)
        return score(hand, ctx, record.ruleset).tai
    except (MjrefError, ValueError, TypeError, IndexError):
        return None




def _streams():
    for path in sorted(Path("data/samples").glob("pen_*.jsonl")):
        yield path.name, path.read_text(encoding="utf-8")
    for seed in range(60):
        yield f"gen{seed}", _events(irregular_hand(seed, seed * 11 + 3, 1 + seed % 4, physical=seed % 3 != 0))


def test_the_face_from_the_referees_facts_equals_the_replayed_face():
    """pen.pay-all, R-pen-1: at every event, for every seat, the face shown (and at every win,
    the face scored) read from the referee's facts is the replayed one."""
    checked = scored = 0
    for name, stream in _streams():
        try:
            hands = adjudicate_hands(stream)
        except MjrefError:
            continue
        for hand in hands:
            record = hand.record
            seqs = [e.seq for e in record.events] + [record.events[-1].seq + 1]
            for i, seq in enumerate(seqs):
                if i % 7 and seq != seqs[-1] and (i >= len(record.events) or record.events[i].type not in (
                        EventType.WIN, EventType.REPORT, EventType.KONG, EventType.FLOWER, EventType.PUNG)):
                    continue  # every seventh event, and every one that may change the face
                for seat in range(4):
                    assert face_value(record, seat, seq) == replayed_face_value(record, seat, seq), (name, seq, seat)
                    checked += 1
            for ev in record.events:
                if ev.type is EventType.WIN:
                    got = face_value(record, ev.seat, ev.seq, win=ev)
                    assert got == replayed_face_value(record, ev.seat, ev.seq, win=ev), (name, ev.seq)
                    scored += got[1] == "scored"
    assert checked > 1000 and scored > 10

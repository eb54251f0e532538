"""The face value (牌面, ``score.face``) a 包賠 is paid on (``pen.pay-all``,
``pen.false-win.1``, ``pen.peek``, ``prio.penalty.1``, ``pen.wrong-kong.*``).

牌面 is 「胡牌時手牌與花牌並同其他名堂等所形成的牌型與台數」. A player who pays for all
usually holds no winning hand, so (``docs/rulings.md`` R-pen-1):

* when the hand laid down (or held) is a complete winning hand — a win void for 過水,
  相公, priority or a self-draw limit — its face is the score of that win as declared
  (:func:`referee.scoring.score`, without 作莊/連拉, which :func:`penalties.payments.pay_all`
  adds with the dealer);
* otherwise the face is what the hand shows on the table: its flowers (正花, 花槓, 滿花) and
  its exposed pungs and kongs of winds and dragons (風字刻 by seat and round, 箭字刻), under
  the ruleset's 台.
"""
from __future__ import annotations

from typing import Any

from referee.errors import MjrefError
from referee.events import Event
from referee.hand import Hand
from referee.melds import MeldKind
from referee.scoring import WinContext, score
from referee.scoring.context import WinSource
from referee.state import WinFace
from referee.tiles import DRAGON_TILES, FLOWER_BASE, KINDS, Wind, flower_group, flower_seat

from .record import HandRecord

_SELF = {0: WinSource.WALL, 1: WinSource.WALL, 2: WinSource.LAST_TILE, 3: WinSource.KONG_REPLACEMENT,
         4: WinSource.KONG_REPLACEMENT, 5: WinSource.FLOWER_REPLACEMENT}


def face_value(record: HandRecord, seat: int, seq: int, *, win: Event | None = None) -> tuple[int, str]:
    """``(台, how)`` of *seat*'s face just before event *seq*; ``how`` is ``"scored"`` (a
    complete hand declared as a win, scored) or ``"shown"`` (flowers and exposed honour
    sets).

    Read from the referee's own facts, nothing replayed: what each seat showed as it changed
    (:meth:`referee.state.SeatState.shown_before`) and the winner's table as each win was
    declared (:class:`referee.state.WinFace`)."""
    st = record.adjudication.state
    if st is None:
        return 0, "shown"
    if win is not None:
        face = st.win_faces.get(win.seq)
        if face is not None:
            scored = _scored(record, face, seat, win)
            if scored is not None:
                return scored, "scored"
    flowers, melds = st.seats[seat].shown_before(seq)
    return _shown(flowers, melds, Wind((seat - st.east) % 4), st.round_wind, record.ruleset), "shown"


def shown_face(st: Any, seat: int, ruleset: Any) -> int:
    """The 台 a seat's table shows in the state *st*: flowers and exposed wind/dragon pungs and kongs."""
    s = st.seats[seat]
    return _shown(s.flowers, s.melds, Wind((seat - st.east) % 4), st.round_wind, ruleset)


def _shown(flowers_laid, melds, wind: Wind, round_wind: Wind, ruleset: Any) -> int:
    v = ruleset.values
    tai = 0
    flowers = [f for f in flowers_laid if f >= FLOWER_BASE]
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
    for m in melds:
        tiles = m.tiles
        if not tiles or m.kind is MeldKind.CHOW or len(set(tiles)) != 1:
            continue
        t = tiles[0]
        if t == wind.tile:
            tai += v["tai.seat_wind_pung"]
        if t == round_wind.tile:
            tai += v["tai.round_wind_pung"]
        if t in DRAGON_TILES:
            tai += v["tai.dragon_pung"]
    return tai


def _scored(record: HandRecord, face: WinFace, seat: int, win: Event) -> int | None:
    """The face of the win as declared, when the hand is a complete winning hand."""
    w = face.window
    on_tile = w is not None and w[1] != seat and w[0].value in (0, 1) and w[4] != seat
    counts = list(face.hand)
    if on_tile:
        kind, discarder, tile, last, _taken = w
        source = (WinSource.LAST_DISCARD if last else WinSource.DISCARD) if kind.value == 0 else WinSource.ROBBING_KONG
        if tile >= KINDS:
            return None
        counts[tile] += 1
    else:
        if face.turn != seat:
            return None
        tile = face.drawn
        if tile is None and face.unknown and win.tiles:
            # a physical table that did not record the drawn tile: the hand shown with the
            # win ends with the winning tile (docs/protocol.md), so the face is known (R-pen-1)
            tile = win.tiles[-1]
        if tile is None or tile >= KINDS:
            return None
        source = _SELF.get(face.source, WinSource.WALL)
        discarder = None
    if face.unknown:
        if win.tiles is None or len(win.tiles) != sum(counts) + face.unknown:
            return None
        counts = [0] * KINDS
        for t in win.tiles:
            if t >= KINDS:
                return None
            counts[t] += 1
        if not counts[tile]:
            return None
    melds = tuple(m.to_meld() for m in face.melds)  # as SeatState.melds_for_scoring
    if any(m is None for m in melds):
        return None
    setup = record.setup
    try:
        hand = Hand(tuple(counts), melds, tuple(sorted(face.flowers)))
        ctx = WinContext(winner=seat, dealer=setup.dealer, round_wind=setup.round_wind, source=source,
                         winning_tile=tile, discarder=discarder, wall_break=face.east, streak=setup.streak,
                         streak_marker=setup.streak_marker)
        return score(hand, ctx, record.ruleset).tai
    except (MjrefError, ValueError, TypeError, IndexError):
        return None


__all__ = ["face_value", "shown_face"]

"""The face value (牌面, ``score.face``) a 包賠 is paid on (``pen.pay-all``,
``pen.false-win.1``, ``pen.peek``, ``prio.penalty.1``, ``pen.wrong-kong.*``).

牌面 is 「胡牌時手牌與花牌並同其他名堂等所形成的牌型與台數」. A player who pays for all
usually holds no winning hand, so (``docs/rulings.md`` R-pen-1):

* when the hand laid down (or held) is a complete winning hand — a win void for 過水,
  相公, priority or a self-draw limit — its face is the score of that win as declared
  (:func:`referee.scoring.score`, without 作莊/連拉, which :func:`penalties.payments.pay_all`
  adds with the dealer), its context the referee's (:func:`referee.win_context.win_context`,
  ``declared=True``: the hand and the table, :func:`declared_win`);
* otherwise the face is what the hand shows on the table: its flowers (正花, 花槓, 滿花,
  見花見台, or 無花 when none is laid), its pungs and kongs of winds and dragons laid down
  (風字刻 by seat and round, 箭字刻, 見風見台) and its kongs (明槓台, 暗槓台, 四槓子, 五槓子),
  scored as the scorer scores them: the ruleset's 台, exclusions and cap (R-pen-21).
"""
from __future__ import annotations

from typing import Any

from referee.errors import MjrefError
from referee.events import Event
from referee.hand import Hand
from referee.melds import MeldKind
from referee.kinds_fast import (
    ADDED_KONG_WINDOW, DISCARD_WIN_SOURCE, DISCARD_WINDOW, LAST_DISCARD_WIN_SOURCE, ROBBING_KONG_WIN_SOURCE,
)
from referee.scoring import WinContext, score
from referee.scoring.facts import Facts, flower_facts
from referee.scoring.patterns import INDEX, PATTERNS
from referee.scoring.table import table_for
from referee.state import WinFace
from referee.tiles import DRAGON_TILES, FLOWER_BASE, KINDS, WIND_TILES, Wind
from referee.win_context import SELF_DRAW_SOURCES, win_context
from referee.winning import WinClaim

from .record import HandRecord

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
    return shown_tai(flowers, melds, Wind((seat - st.east) % 4), st.round_wind, record.ruleset), "shown"


def shown_face(st: Any, seat: int, ruleset: Any) -> int:
    """The 台 a seat's table shows in the state *st*: flowers and exposed wind/dragon pungs and kongs."""
    s = st.seats[seat]
    return shown_tai(s.flowers, s.melds, Wind((seat - st.east) % 4), st.round_wind, ruleset)


#: the patterns a table shows without its concealed tiles (R-pen-1, R-pen-21): the honour
#: pungs and kongs laid down (tai.01, tai.02, 見風見台 app.replaces.19), the flowers laid
#: (tai.26, 見花見台 app.replaces.19), no flower laid (無花), the kongs (明槓台, 暗槓台,
#: 四槓子, 五槓子: play.kong.exposed, play.kong.concealed). 無字無花 needs the concealed
#: tiles and is not shown; nor are the big patterns, which need a pair or the whole hand.
SHOWN_PATTERNS = (
    "seat_wind_pung", "round_wind_pung", "dragon_pung", "see_wind_see_tai",
    "own_flower_seasons", "own_flower_plants", "flower_set_seasons", "flower_set_plants", "all_flowers",
    "see_flower_see_tai", "no_flowers", "melded_kong", "concealed_kong", "four_kongs", "five_kongs",
)
_SHOWN = tuple((INDEX[code], PATTERNS[INDEX[code]].fn) for code in SHOWN_PATTERNS)


def shown_tai(flowers_laid, melds, wind: Wind, round_wind: Wind, ruleset: Any) -> int:
    """The shown face under the ruleset as the scorer reads it (``score.face``): the
    patterns of :data:`SHOWN_PATTERNS`, each pattern's 台 (``tai.*``), the ruleset's
    exclusions (``tai.exclusions``: 花槓 and 滿花 replace 正花, 見花見台 replaces 正花,
    見風見台 the round and seat wind pungs) and adjustments, and its cap (``scoring.cap``), all from the
    scorer's own :class:`~referee.scoring.table.ScoringTable` and pattern functions."""
    table = table_for(ruleset)
    f = Facts()
    f.seat_wind = int(wind)
    f.round_wind = int(round_wind)
    flower_facts(f, tuple(x for x in flowers_laid if x >= FLOWER_BASE), table.numbering)
    wind_pungs = dragon_pungs = open_kongs = concealed_kongs = 0
    for m in melds:
        kind = m.kind
        if kind is MeldKind.CHOW:
            continue
        tiles = m.tiles
        if not tiles:
            # a concealed kong face down: the table shows a kong, not its tiles
            if kind is MeldKind.CONCEALED_KONG:
                concealed_kongs += 1
            continue
        if len(set(tiles)) != 1:
            continue  # a wrong kong (錯槓) or a set a tile was taken from: no set of one kind
        if kind is MeldKind.CONCEALED_KONG:
            concealed_kongs += 1
        elif kind.is_kong:
            open_kongs += 1
        t = tiles[0]
        if t in WIND_TILES:
            wind_pungs |= 1 << (t - WIND_TILES[0])
        elif t in DRAGON_TILES:
            dragon_pungs += 1
    f.wind_pungs = wind_pungs
    f.dragon_pungs = dragon_pungs
    f.n_open_kongs = open_kongs
    f.n_concealed_kongs = concealed_kongs
    f.suits = 8 if wind_pungs or dragon_pungs else 0
    active = table.active_mask
    items = [(i, c) for i, fn in _SHOWN if (active >> i) & 1 and (c := fn(f))]
    ex = present = 0
    for i, _c in items:
        ex |= table.excl[i]
        present |= 1 << i
    tai = table.tai
    total = sum(tai[i] * c for i, c in items if not (ex >> i) & 1)
    if present & table.adjust_mask:  # the ruleset's adjustments (tai.exclusions ``adjust``), as the scorer adds them
        scored = present & ~ex
        total += sum(a.tai for a in table.adjustments if (scored >> a.pattern) & 1 and scored & a.with_any)
    total = max(total, 0)
    return total if not table.cap or total <= table.cap else table.cap


def shown_counts(tiles: tuple[int, ...]) -> list[int] | None:
    """The count vector of the tiles a win shows, or ``None`` if one of them is a flower
    (no concealed tile: the hand shown cannot be scored)."""
    counts = [0] * KINDS
    for t in tiles:
        if t >= KINDS:
            return None
        counts[t] += 1
    return counts


def _scored(record: HandRecord, face: WinFace, seat: int, win: Event) -> int | None:
    """The face of the win as declared, when the hand is a complete winning hand."""
    declared = declared_win(record, face, seat, win)
    if declared is None:
        return None
    hand, ctx = declared
    try:
        return score(hand, ctx, record.ruleset).tai
    except (MjrefError, ValueError, TypeError, IndexError):
        return None


def declared_win(record: HandRecord, face: WinFace, seat: int, win: Event) -> tuple[Hand, WinContext] | None:
    """*win* as declared by *seat*, read from the table the referee kept at the declaration
    (*face*): the hand (the concealed tiles with the winning tile, the melds and flowers laid)
    and its context (:func:`referee.win_context.win_context`, the win as declared: R-pen-1);
    ``None`` when that is no complete hand (a tile unknown, a meld that forms no set).

    The win is on the tile of the claim window then open (a discard, the last discard 河底, an
    added kong robbed 搶槓), else on the tile the seat drew in its turn, scored by where it came
    from (:data:`referee.win_context.SELF_DRAW_SOURCES`)."""
    w = face.window
    counts = list(face.hand)
    if w is not None and w[1] != seat and (w[0] is DISCARD_WINDOW or w[0] is ADDED_KONG_WINDOW) and w[4] != seat:
        kind, discarder, tile, last, _taken = w
        if kind is DISCARD_WINDOW:
            source = LAST_DISCARD_WIN_SOURCE if last else DISCARD_WIN_SOURCE
        else:
            source = ROBBING_KONG_WIN_SOURCE
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
        source = SELF_DRAW_SOURCES[face.source]
        discarder = None
    if face.unknown:
        if win.tiles is None or len(win.tiles) != sum(counts) + face.unknown:
            return None
        counts = shown_counts(win.tiles)
        if counts is None or not counts[tile]:
            return None
    melds = tuple(m.to_meld() for m in face.melds)  # as SeatState.melds_for_scoring
    if any(m is None for m in melds):
        return None
    try:
        hand = Hand(tuple(counts), melds, tuple(sorted(face.flowers)))
        claim = WinClaim(seat, win.seq, win.ts, source, tile, discarder, None, tuple(counts))
        return hand, win_context(record.adjudication.state, claim, face.east, declared=True)
    except (MjrefError, ValueError, TypeError, IndexError):
        return None


__all__ = ["SHOWN_PATTERNS", "declared_win", "face_value", "shown_counts", "shown_face", "shown_tai"]

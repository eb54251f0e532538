"""Scoring a win the referee did not score: the second deal-in of 錯打明牌
(``pen.exposed-discard.3``), declared after the first win ended the referee's hand, and a
self-draw the priority rules uphold (``prio.1``, ``prio.2``) though the referee refused it.

The winner's hand is the one the referee knew, or the tiles shown with the ``win`` event;
the melds and flowers are the referee's, as it kept them when the win was declared
(:class:`referee.state.WinFace`: nothing replayed); the win's context is the referee's builder's
(:func:`referee.win_context.win_context`, the win as declared), a self-draw's source the
referee's map (:data:`referee.win_context.SELF_DRAW_SOURCES`). Scored and settled by
:mod:`referee.scoring`.
"""
from __future__ import annotations

from referee.errors import MjrefError
from referee.events import Event
from referee.hand import Hand
from referee.kinds import WinSource
from referee.kinds_fast import DISCARD_WIN_SOURCE, WALL_WIN_SOURCE
from referee.scoring import score, settle
from referee.scoring.settlement import Settlement
from referee.state import WinFace
from referee.tiles import KINDS
from referee.win_context import SELF_DRAW_SOURCES, win_context
from referee.winning import WinClaim

from .face import shown_counts
from .record import HandRecord
from .rulings import Payment, payment_of


def discard_win(record: HandRecord, win: Event, discarder: int, tile: int) -> tuple[Payment, ...] | None:
    """The transfers (kind ``win``) of *win* on *discarder*'s *tile*, or ``None`` when the
    hand cannot be scored (not shown, not a winning hand)."""
    face = _face(record, win)
    if face is None or tile >= KINDS:
        return None
    if face.unknown == 0 and win.tiles is None:
        counts = list(face.hand)
        counts[tile] += 1
    elif win.tiles is not None:
        counts = shown_counts(win.tiles)
        if counts is None:
            return None
    else:
        return None
    return _settled(record, win, face, counts, DISCARD_WIN_SOURCE, tile, discarder)


def _face(record: HandRecord, win: Event) -> WinFace | None:
    """The winner's table as the referee kept it just before *win* (every ``win`` event)."""
    st = record.adjudication.state
    return st.win_faces.get(win.seq) if st is not None else None


def _settled(record: HandRecord, win: Event, face: WinFace, counts: list[int], source: WinSource, tile: int,
             discarder: int | None = None) -> tuple[Payment, ...] | None:
    """The winner's hand as shown (*counts* and its melds, *face*: the table as the win was
    declared) scored and settled as the referee would; ``None`` when it cannot be scored."""
    melds = []
    for m in face.melds:
        meld = m.to_meld()
        if meld is None:
            return None
        melds.append(meld)
    try:
        hand = Hand(tuple(counts), tuple(melds), tuple(sorted(face.flowers)))
        claim = WinClaim(win.seat, win.seq, win.ts, source, tile, discarder, None, tuple(counts))
        ctx = win_context(record.adjudication.state, claim, face.east, declared=True)
        settlement = settle(score(hand, ctx, record.ruleset), record.stakes)
    except MjrefError:
        return None
    return transfers(settlement)


def transfers(settlement: Settlement) -> tuple[Payment, ...]:
    """A referee settlement as payments of kind ``win`` (each filled whole and checked,
    :func:`penalties.rulings.payment_of`: a hand's close makes them; the reference is
    :func:`transfers_reference`, ``tests/test_penalties_rulings.py``)."""
    return tuple([payment_of(t.payer, t.payee, t.amount, t.base, t.tai + t.dealer_tai, "win")
                  for t in settlement.transfers])


def transfers_reference(settlement: Settlement) -> tuple[Payment, ...]:
    """:func:`transfers` by :class:`Payment`'s own constructor."""
    return tuple(Payment(t.payer, t.payee, t.amount, base=t.base, tai=t.tai + t.dealer_tai, kind="win")
                 for t in settlement.transfers)


__all__ = ["discard_win", "self_draw_win", "transfers", "transfers_reference"]


def self_draw_win(record: HandRecord, win: Event) -> tuple[Payment, ...] | None:
    """The transfers of a self-draw *win* the referee refused for priority (its draw undone
    by a pung the priority rules overrule, ``prio.1``): the hand as shown, the winning tile
    last; ``None`` when it cannot be scored."""
    face = _face(record, win)
    if face is None or win.tiles is None or len(win.tiles) < 2:
        return None
    counts = shown_counts(win.tiles)
    if counts is None:
        return None
    # the referee's turn still the drawer's: its draw's source; else the draw was undone by the
    # claim the referee let stand, and it was a draw from the wall (prio.1: 自摸, tai.23)
    source = SELF_DRAW_SOURCES[face.source] if face.turn == win.seat else WALL_WIN_SOURCE
    return _settled(record, win, face, counts, source, win.tiles[-1])

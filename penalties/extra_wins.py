"""Scoring a win the referee did not score: the second deal-in of 錯打明牌
(``pen.exposed-discard.3``), declared after the first win ended the referee's hand.

The winner's hand is the one the referee knew, or the tiles shown with the ``win`` event;
the melds and flowers are the referee's. Scored and settled by :mod:`referee.scoring`.
"""
from __future__ import annotations

from referee.errors import MjrefError
from referee.events import Event
from referee.hand import Hand
from referee.scoring import WinContext, score, settle
from referee.scoring.context import WinSource
from referee.scoring.settlement import Settlement
from referee.tiles import KINDS

from .record import HandRecord, state_before
from .rulings import Payment


def discard_win(record: HandRecord, win: Event, discarder: int, tile: int) -> tuple[Payment, ...] | None:
    """The transfers (kind ``win``) of *win* on *discarder*'s *tile*, or ``None`` when the
    hand cannot be scored (not shown, not a winning hand)."""
    st = state_before(record, win.seq)
    seat = st.seats[win.seat]
    if tile >= KINDS:
        return None
    if seat.unknown == 0 and win.tiles is None:
        counts = list(seat.hand)
        counts[tile] += 1
    elif win.tiles is not None:
        counts = [0] * KINDS
        for t in win.tiles:
            if t >= KINDS:
                return None
            counts[t] += 1
    else:
        return None
    return _settled(record, st, win.seat, counts, WinSource.DISCARD, tile, discarder)


def _settled(record: HandRecord, st, winner: int, counts: list[int], source: WinSource, tile: int,
             discarder: int | None = None) -> tuple[Payment, ...] | None:
    """The winner's hand as shown (*counts* and its melds) scored and settled as the referee
    would; ``None`` when it cannot be scored."""
    seat = st.seats[winner]
    melds = seat.melds_for_scoring()
    if melds is None:
        return None
    setup = record.setup
    try:
        hand = Hand(tuple(counts), melds, tuple(sorted(seat.flowers)))
        ctx = WinContext(winner=winner, dealer=setup.dealer, round_wind=setup.round_wind, source=source,
                         winning_tile=tile, discarder=discarder, wall_break=st.east, streak=setup.streak,
                         streak_marker=setup.streak_marker)
        settlement = settle(score(hand, ctx, record.ruleset), record.stakes)
    except MjrefError:
        return None
    return transfers(settlement)


def transfers(settlement: Settlement) -> tuple[Payment, ...]:
    """A referee settlement as payments of kind ``win``."""
    return tuple(Payment(t.payer, t.payee, t.amount, base=t.base, tai=t.tai + t.dealer_tai, kind="win")
                 for t in settlement.transfers)


__all__ = ["discard_win", "self_draw_win", "transfers"]


def self_draw_win(record: HandRecord, win: Event) -> tuple[Payment, ...] | None:
    """The transfers of a self-draw *win* the referee refused for priority (its draw undone
    by a pung the priority rules overrule, ``prio.1``): the hand as shown, the winning tile
    last; ``None`` when it cannot be scored."""
    if win.tiles is None or len(win.tiles) < 2:
        return None
    st = state_before(record, win.seq)
    counts = [0] * KINDS
    for t in win.tiles:
        if t >= KINDS:
            return None
        counts[t] += 1
    return _settled(record, st, win.seat, counts, WinSource.WALL, win.tiles[-1])

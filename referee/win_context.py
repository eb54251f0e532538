"""The win context (:class:`referee.scoring.WinContext`) of a win the referee saw, built in one
place from the referee's own facts (issue #13 item 2: each fact computed once).

Every win scored from a hand — the referee's outcome (:mod:`referee.outcome`), the face 牌面 of
a win that did not stand (:mod:`penalties.face`, ``pen.pay-all``, R-pen-1) and a win scored
after the referee's hand ended (:mod:`penalties.extra_wins`, ``pen.exposed-discard.3``,
``prio.1``) — gets its context from :func:`win_context`: the hand's setup (dealer, round wind,
streak and its marker: ``tai.10``, ``score.streak-marker``), the wall-break seat (East,
``deal.wall``) and the win (:class:`referee.winning.WinClaim`: who, on what, from whom).

How a self-drawn tile scores is one map too, :data:`SELF_DRAW_SOURCES`, read by the referee
when a self-draw is declared (:mod:`referee.winning`) and by the penalties from the table the
referee kept at the win (:class:`referee.state.WinFace`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .kinds import Source, WinSource
from .kinds_fast import (
    CHOW_MELD, CONCEALED_KONG_MELD, EARTHLY_READINESS, FLOWER_WIN_WIN_SOURCE, HEAVENLY_READINESS, NONE_FIRST_TURN,
    NONE_FLOWER_WIN, NONE_READINESS, SEVEN_ROB_ONE_DRAWN_FLOWER_WIN, SEVEN_ROB_ONE_FLOWER_WIN,
)
from .scoring.context import WinContext

if TYPE_CHECKING:
    from .state import SeatState, TableState
    from .winning import WinClaim

#: where the tile a self-draw wins on came from (:attr:`TableState.source`, kept in
#: :attr:`WinFace.source`) → how the win is scored: drawn from the wall (自摸 ``tai.23``; the
#: dealer's dealt hand too, 天胡 ``tai.33``), the last drawable tile (海底撈月 ``tai.25``), a
#: kong's replacement (槓上開花 ``tai.24``; a melded kong's too, which ``play.restrict.2`` may
#: refuse), a flower's replacement (``tai.24``, ``app.flowers.play``)
SELF_DRAW_SOURCES: dict[Source, WinSource] = {
    Source.DEALT: WinSource.WALL,
    Source.WALL: WinSource.WALL,
    Source.LAST_TILE: WinSource.LAST_TILE,
    Source.KONG: WinSource.KONG_REPLACEMENT,
    Source.MELDED_KONG: WinSource.KONG_REPLACEMENT,
    Source.FLOWER: WinSource.FLOWER_REPLACEMENT,
}


def win_context(st: TableState, claim: WinClaim, east: int | None = None, *, declared: bool = False) -> WinContext:
    """The :class:`WinContext` of *claim* in the hand of *st* (the referee's table state),
    East counted from *east* (the wall-break seat as the win was declared; the state's by
    default). Raises :class:`referee.errors.MjrefError` (a context that cannot happen).

    The win as it stands (the referee's outcome) carries the facts the referee found at the
    declaration (:func:`referee.winning.check_win`): its readiness (天聽 / 地聽 / 宣告聽牌,
    ``tai.31``, ``tai.32``; 天聽 scored as 地聽 for the dealer unless the ruleset scores it,
    ``tai.31``), its first-turn win (``tai.33``–``tai.35``), its flower win (``tai.27``–
    ``tai.30``, the robbed flower of 七搶一) and 包牌 (``settle.liability``).

    *declared*: the win as declared, read by the penalties (a win that did not stand, its
    face 牌面, R-pen-1; a win scored after the referee's hand ended, ``pen.exposed-discard.3``,
    ``prio.1``): the hand and what lies on the table only — no readiness, first-turn or
    flower win and no 包牌, as those rulings read the face (a shown face counts even less:
    :data:`penalties.face.SHOWN_PATTERNS`, R-pen-21)."""
    setup = st.setup
    if east is None:
        east = st.east
    if declared:
        return WinContext._of(  # WinContext(…)'s fields in order: winner … liable
            claim.seat, setup.dealer, setup.round_wind, claim.source, claim.tile, claim.discarder, east,
            setup.streak, setup.streak_marker, NONE_FLOWER_WIN, False, NONE_READINESS, NONE_FIRST_TURN, (), None,
        )
    source = claim.source
    readiness = claim.readiness
    if readiness is HEAVENLY_READINESS and claim.seat == setup.dealer and not st.rules.heavenly_dealer:
        readiness = EARTHLY_READINESS
    flower_win = source is FLOWER_WIN_WIN_SOURCE
    return WinContext._of(  # WinContext(…)'s fields in order: winner … liable
        claim.seat, setup.dealer, setup.round_wind, source, claim.tile if not flower_win else None,
        claim.discarder, east, setup.streak, setup.streak_marker, claim.flower_win, claim.dealt_flower_win,
        readiness, claim.first_turn, (), robbed_flower(st, claim), None,
        liable_seat(st.seats[claim.seat], claim.seat) if st.rules.liability and not flower_win else None,
    )


def liable_seat(seat: SeatState, winner: int) -> int | None:
    """包牌 (``settle.liability``): the seat whose discard the winner claimed for the last
    of his three dragon sets or four wind sets, all laid down; ``None`` otherwise."""
    for low, need in ((31, 3), (27, 4)):
        sets = [m for m in seat.melds if m.kind is not CHOW_MELD and m.tiles and low <= m.tiles[0] < low + need]
        if len(sets) == need:
            last = max(sets, key=lambda m: m.seq)
            if last.kind is not CONCEALED_KONG_MELD and last.from_seat is not None and last.from_seat != winner:
                return last.from_seat
    return None


def robbed_flower(st: TableState, claim: WinClaim) -> int | None:
    """七搶一 (``tai.30``): the flower taken from the discarder, his last laid out."""
    fw = claim.flower_win
    if fw is not SEVEN_ROB_ONE_FLOWER_WIN and fw is not SEVEN_ROB_ONE_DRAWN_FLOWER_WIN or claim.discarder is None:
        return None
    flowers = st.seats[claim.discarder].flowers
    return flowers[-1] if flowers else None


__all__ = ["SELF_DRAW_SOURCES", "liable_seat", "robbed_flower", "win_context"]

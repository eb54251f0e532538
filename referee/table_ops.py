"""Tile bookkeeping on seats, and the constants the referee's handlers share.

Small functions over a :class:`referee.state.SeatState` that keep its count vector, its
four suit keys and its known tile count in step (:func:`_add`, :func:`_remove`), check what
a hand can give (:func:`_holds`), and compute the waits of a known 16-tile hand
(:func:`_refresh_waits`, for 過水). Used by :mod:`referee.machine` and its mixins.
"""
from __future__ import annotations

from .events import Call, ReadyKind
from .restrictions import SUIT_OF, UNIT_OF
from .state import Intake, SeatState
from .tiles import full_set, KINDS
from .wall import deal_takes
from .tables import CODES as _CODES, WAITS as _WAITS

#: calls a player must carry out (pen.unfulfilled-call)
_BINDING_CALLS = (Call.PUNG, Call.KONG)


def _add(seat: SeatState, t: int) -> None:
    seat.hand[t] += 1
    seat.n += 1
    seat.keys[SUIT_OF[t]] += UNIT_OF[t]
    seat.waits = None


def _remove(seat: SeatState, t: int) -> bool:
    """Take a concealed tile out of the hand: a known one, else one of the unknown ones."""
    seat.waits = None
    if seat.hand[t]:
        seat.hand[t] -= 1
        seat.n -= 1
        seat.keys[SUIT_OF[t]] -= UNIT_OF[t]
        return True
    if seat.unknown:
        seat.unknown -= 1
        return True
    return False


def _holds(seat: SeatState, tiles: list[int] | tuple[int, ...]) -> bool:
    """The hand can give these concealed tiles (known ones, the rest from the unknown)."""
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    missing = 0
    for t, n in need.items():
        if t >= KINDS:
            missing += n
        elif seat.hand[t] < n:
            missing += n - seat.hand[t]
    return missing <= seat.unknown


def _refresh_waits(seat: SeatState, waiters: list[int]) -> None:
    """The tiles a known 16-tile hand waits on (for 過水: could it have won?), and the
    table's per-tile bit masks of the seats that may wait on each tile."""
    if seat.unknown or seat.n + 3 * len(seat.melds) != 16:
        seat.waits = None
        return
    k = seat.keys
    found = seat.waits = _waits_of(k[0], k[1], k[2], k[3])
    if found is not seat.waited:
        _mark_waiters(waiters, seat, found)


def _mark_waiters(waiters: list[int], seat: SeatState, found: frozenset[int]) -> None:
    """Move the seat's bit in the per-tile masks from its old waits to *found*."""
    bit = 1 << seat.seat
    for t in seat.waited:
        waiters[t] &= ~bit
    for t in found:
        waiters[t] |= bit
    seat.waited = found


class _WaitTiles(dict):
    """Per suit: key → (tiles completing it when the rest of the hand is sets only, tiles
    completing it when the rest holds the pair), as frozensets: :data:`referee.tables.WAITS`
    without the wait shapes. Bounded by the suit's keys (like the tables it reads); read
    with ``.get(key) or table.fill(key)``."""

    def __init__(self, suit: int):
        super().__init__()
        self.waits = _WAITS[suit]

    def fill(self, key: int) -> tuple[frozenset[int], frozenset[int]]:
        table = self.waits
        rest0, rest1 = table.get(key) or table.fill(key)
        value = self[key] = (frozenset(t for t, _ in rest0), frozenset(t for t, _ in rest1))
        return value


_WT0, _WT1, _WT2, _WT3 = (_WaitTiles(s) for s in range(4))
_C0g, _C1g, _C2g, _C3g = (c.get for c in _CODES)
_EMPTY: frozenset[int] = frozenset()


def _waits_of(k0: int, k1: int, k2: int, k3: int) -> frozenset[int]:
    """The tiles that complete four suit keys (as :func:`referee.hand.waits_keys`, tiles only):
    a suit contributes when the other three add up to at most one pair (codes sum ≤ 1)."""
    # two suits that do not decompose (codes sum > 10): no tile completes both; most hands
    # in play are so, and stopping at the second such suit saves lookups (for speed)
    c0 = _C0g(k0, 9)
    c1 = _C1g(k1, 9)
    if c0 + c1 > 10:
        return _EMPTY
    c2 = _C2g(k2, 9)
    if c0 + c1 + c2 > 10:
        return _EMPTY
    c3 = _C3g(k3, 9)
    total = c0 + c1 + c2 + c3
    if total > 10:
        return _EMPTY
    found = _EMPTY
    r = total - c0
    if r <= 1:
        found = (_WT0.get(k0) or _WT0.fill(k0))[r]
    r = total - c1
    if r <= 1:
        f = (_WT1.get(k1) or _WT1.fill(k1))[r]
        if f:
            found = found | f if found else f
    r = total - c2
    if r <= 1:
        f = (_WT2.get(k2) or _WT2.fill(k2))[r]
        if f:
            found = found | f if found else f
    r = total - c3
    if r <= 1:
        f = (_WT3.get(k3) or _WT3.fill(k3))[r]
        if f:
            found = found | f if found else f
    return found


def _from_unknown(seat: SeatState, tiles) -> list[int]:
    """Which of these concealed tiles the referee had not seen in the hand."""
    have = {}
    out = []
    for t in tiles:
        have[t] = have.get(t, 0) + 1
        if have[t] > seat.hand[t]:
            out.append(t)
    return out


def _size(seat: SeatState) -> int:
    return seat.n + seat.unknown + 3 * len(seat.melds)

_FULL_SET = sorted(full_set())
_FULL_SET_NO_FLOWERS = sorted(full_set(flowers=False))
_C0, _C1, _C2, _C3 = _CODES
_TAKES = tuple(tuple(deal_takes(d)) for d in range(4))
_UNREPLACED_CLAUSE = {False: "pen.dead-hand", True: "app.flowers.no-replace"}
_CALL_ZH = {Call.CHOW: "吃", Call.PUNG: "碰", Call.KONG: "槓", Call.WIN: "胡"}
_INTAKE_NAME = {Intake.CHOW: "chow", Intake.PUNG: "pung", Intake.MELDED_KONG: "melded kong"}
_INTAKE_ZH = {Intake.CHOW: "吃牌", Intake.PUNG: "碰牌", Intake.MELDED_KONG: "碰槓"}
_READY_ZH = {ReadyKind.HEAVENLY: "天聽", ReadyKind.EARTHLY: "地聽", ReadyKind.DECLARED: "宣告聽牌"}

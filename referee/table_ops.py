"""Tile bookkeeping on seats, and the constants the referee's handlers share.

Small functions over a :class:`referee.state.SeatState` that keep its count vector, its
four suit keys and its known tile count in step (:func:`_add`, :func:`_remove`), check what
a hand can give (:func:`_holds`), and compute the waits of a known 16-tile hand
(:func:`_refresh_waits`, for 過水). Used by :mod:`referee.machine` and its mixins.
"""
from __future__ import annotations

from .events import Call, EventType, ReadyKind
from .hand import waits_keys
from .melds import MeldKind
from .restrictions import SUIT_OF, UNIT_OF
from .state import Intake, Phase, SeatState, Source, WindowKind
from .tiles import full_set, KINDS
from .verdicts import Status
from .wall import deal_takes
from .tables import CODES as _CODES

_REJECTED = Status.REJECTED
_HAND_START = EventType.HAND_START
_DEAL_PHASE = Phase.DEAL
_PLAY = Phase.PLAY
_LAST_TILE = Source.LAST_TILE
_WALL_SOURCE = Source.WALL
_IRREGULAR = Status.IRREGULAR
_DRAW = Intake.DRAW
_DEALT = Intake.DEALT
_NONE = Intake.NONE
_DISCARD_W = WindowKind.DISCARD
_CONCEALED = MeldKind.CONCEALED_KONG
_ADDED = MeldKind.ADDED_KONG
_MELDED = MeldKind.MELDED_KONG


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
    key = tuple(seat.keys)
    found = _WAITS_CACHE.get(key)
    if found is None:
        found = _new_waits(key)
    seat.waits = found
    old = seat.waited
    if old is not found:
        bit = 1 << seat.seat
        for t in old:
            waiters[t] &= ~bit
        for t in found:
            waiters[t] |= bit
        seat.waited = found


#: suit keys → waiting tiles, shared by every hand (memoised like referee.tables)
_WAITS_CACHE: dict[tuple[int, int, int, int], frozenset[int]] = {}


#: most hands the waits memo keeps before starting afresh (a long-running service)
_WAITS_CACHE_MAX = 200_000


def _new_waits(key: tuple[int, int, int, int]) -> frozenset[int]:
    """Compute and memoise the waiting tiles of four suit keys."""
    if len(_WAITS_CACHE) >= _WAITS_CACHE_MAX:
        _WAITS_CACHE.clear()
    found = _WAITS_CACHE[key] = frozenset(t for t, _ in waits_keys(key))
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
_C0, _C1, _C2, _C3 = _CODES
_TAKES = tuple(tuple(deal_takes(d)) for d in range(4))
_UNREPLACED_CLAUSE = {False: "pen.dead-hand", True: "app.flowers.no-replace"}
_CALL_ZH = {Call.CHOW: "吃", Call.PUNG: "碰", Call.KONG: "槓", Call.WIN: "胡"}
_INTAKE_NAME = {Intake.CHOW: "chow", Intake.PUNG: "pung", Intake.MELDED_KONG: "melded kong"}
_INTAKE_ZH = {Intake.CHOW: "吃牌", Intake.PUNG: "碰牌", Intake.MELDED_KONG: "碰槓"}
_READY_ZH = {ReadyKind.HEAVENLY: "天聽", ReadyKind.EARTHLY: "地聽", ReadyKind.DECLARED: "宣告聽牌"}

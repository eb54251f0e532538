"""Pure checks behind the play restrictions (``play.chi``, ``play.pon``, ``play.restrict.*``,
``app.after-claim``, ``play.intercept``): small functions over tiles and seats, no state.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .tables import CODES, UNIT

#: per tile 0–33: its suit index (萬 筒 條 字) and its one-tile key increment
SUIT_OF = tuple(t // 9 if t < 27 else 3 for t in range(34))
UNIT_OF = tuple(UNIT[t % 9] if t < 27 else UNIT[t - 27] for t in range(34))
_C0, _C1, _C2, _C3 = CODES
_NO = 9


def wins_with(keys: Sequence[int], tile: int) -> bool:
    """True when the concealed tiles (four suit keys) plus *tile* form sets and one pair
    (``win.shape``); melds are counted by the caller (the hand must hold 16)."""
    k0, k1, k2, k3 = keys
    su = SUIT_OF[tile]
    add = UNIT_OF[tile]
    if su == 0:
        k0 += add
    elif su == 1:
        k1 += add
    elif su == 2:
        k2 += add
    else:
        k3 += add
    return _C0.get(k0, _NO) + _C1.get(k1, _NO) + _C2.get(k2, _NO) + _C3.get(k3, _NO) == 1


def is_complete(keys: Sequence[int]) -> bool:
    """True when the concealed tiles (four suit keys) already form sets and one pair."""
    k0, k1, k2, k3 = keys
    return _C0.get(k0, _NO) + _C1.get(k1, _NO) + _C2.get(k2, _NO) + _C3.get(k3, _NO) == 1


def is_run(tiles: Sequence[int]) -> bool:
    """Three tiles of one suit in a row (a chow, ``play.chi``; no 9-1-2)."""
    if len(tiles) != 3:
        return False
    a, b, c = sorted(tiles)
    return c < 27 and a // 9 == c // 9 and b == a + 1 and c == b + 1


def same_suit_neighbour(tile: int, step: int) -> int | None:
    """The suited tile *step* ranks away in the same suit, or None."""
    if tile >= 27:
        return None
    other = tile + step
    return other if 0 <= other < 27 and other // 9 == tile // 9 else None


def chow_forbidden_discards(run: Sequence[int], claimed: int, *, other_end: bool) -> tuple[int, ...]:
    """Tiles that may not be discarded right after chowing *claimed* into *run*
    (``play.chi``, ``play.restrict.6``; ``app.after-claim``: with 4-5 chowing 3, neither
    3 nor 6)."""
    out = [claimed]
    if other_end:
        low, _, high = sorted(run)
        if claimed == low:
            end = same_suit_neighbour(high, 1)
        elif claimed == high:
            end = same_suit_neighbour(low, -1)
        else:
            end = None
        if end is not None:
            out.append(end)
    return tuple(out)


def chow_takes_own_discard(run: Sequence[int], claimed: int, own_discard: int | None, *, other_end: bool) -> bool:
    """True when chowing *claimed* takes the same tile as one's own last discard, or (with
    *other_end*) a tile that completes the same two hand tiles as that discard would
    (同巡內不得吃入本家前一捨牌之同(絡)牌, ``play.chi``, ``play.restrict.6``)."""
    if own_discard is None:
        return False
    if own_discard == claimed:
        return True
    if not other_end:
        return False
    rest = sorted(run)
    rest.remove(claimed)
    return is_run((rest[0], rest[1], own_discard))


def nearest_after(discarder: int, seats: Iterable[int]) -> int:
    """The seat nearest after the discarder, counterclockwise (攔胡 ``play.intercept``)."""
    return min(seats, key=lambda s: (s - discarder) % 4)


def previous_player(seat: int) -> int:
    """上家: the seat that plays just before *seat*."""
    return (seat - 1) % 4


def next_player(seat: int) -> int:
    """下家: the seat that plays just after *seat*."""
    return (seat + 1) % 4

"""How far a hand is from ready (向聽數, shanten): the calculators' "not yet" (issue #14 item 8).

``play.ready``: a hand is ready (聽牌) when one tile completes it. The 向聽數 of a 16-tile
hand is the number of exchanges (draw one tile, discard one) it needs before it is ready:
0 for a ready hand, 1 for one exchange away, and so on. A 17-tile hand's number is that of
its best discard, and −1 when it wins.

The count is exact: a hand *k* exchanges from ready is *k* + 1 tiles short of some winning
hand (the *k* tiles drawn in, and the winning tile), and every such winning hand can be
reached so, provided it uses no more copies of a kind than the set has left beside the
melds. So 向聽 = (the fewest tiles missing from a winning hand of 5 − melds sets and a
pair, within those copies) − 1. Each suit's fewest missing tiles for every number of sets,
with and without the pair, is found rank by rank (:func:`_suit_missing`: how many runs start
at each rank, a pung or not, the pair or not), then the suits are combined. With *ligu*
(``tai.36``) the 嚦咕嚦咕 shape (7 pairs and a pung, no melds) is counted too
(:func:`ligu_shanten`). ``tests/test_shanten.py`` holds :func:`shanten` to its definition:
0 exactly when :func:`referee.hand.waits` finds a wait, else one more than the best exchange.
"""
from __future__ import annotations

from functools import lru_cache

from .hand import WAITING_SIZE, WINNING_SIZE, Hand, _require_size, is_winning

_FAR = 99  # more tiles than any hand misses: "cannot be"
_MAX_SETS = 5


def _suit_missing(counts: tuple[int, ...], limits: tuple[int, ...], runs: bool) -> tuple[tuple[int, int], ...]:
    """For one suit (9 ranks, or 7 honours with *runs* False): for *n* = 0–5 sets, the fewest
    tiles missing to hold *n* sets (without the pair, with it), each kind within *limits*."""
    return _tail(counts, limits, 0, 0, runs)


@lru_cache(maxsize=1 << 18)
def _tail(counts: tuple[int, ...], limits: tuple[int, ...], one: int, two: int,
          runs: bool) -> tuple[tuple[int, int], ...]:
    """:func:`_suit_missing` of a suit's last ranks (*counts*, *limits*), with *one* run started
    one rank before them and *two* two ranks before, each still needing a tile of the first.
    Remembered by the ranks left: hands share their suits' tails."""
    if not counts:  # a run still open past the last rank cannot be
        return _NOWHERE if one or two else _EMPTY
    best = [[_FAR, _FAR] for _ in range(_MAX_SETS + 1)]
    here, limit = counts[0], limits[0]
    rest_counts, rest_limits = counts[1:], limits[1:]
    # at most two alike runs from one rank: three (123 123 123) are the tiles of three pungs
    starts = (0, 1, 2) if runs and len(counts) >= 3 else (0,)
    for c in starts:
        rest = _tail(rest_counts, rest_limits, c, one, runs)
        for pung in (0, 1):
            for pair in (0, 1):
                held = one + two + c + 3 * pung + 2 * pair
                if held > limit:
                    continue
                cost = held - here if held > here else 0
                added = c + pung
                for n in range(_MAX_SETS + 1 - added):
                    row, out = rest[n], best[n + added]
                    if pair:
                        if row[0] + cost < out[1]:
                            out[1] = row[0] + cost
                    else:
                        if row[0] + cost < out[0]:
                            out[0] = row[0] + cost
                        if row[1] + cost < out[1]:
                            out[1] = row[1] + cost
    return tuple((min(a, _FAR), min(b, _FAR)) for a, b in best)


#: past a suit's last rank with no run open: nothing missing for 0 sets, nothing else possible
_EMPTY = tuple((0, _FAR) if n == 0 else (_FAR, _FAR) for n in range(_MAX_SETS + 1))
_NOWHERE = tuple((_FAR, _FAR) for _ in range(_MAX_SETS + 1))


def _fewest_missing(hand: Hand) -> int:
    """The fewest tiles missing from a winning hand (5 − melds sets and a pair)."""
    limits = [4] * 34
    for meld in hand.melds:
        for t in meld.tiles:
            limits[t] -= 1
    concealed = hand.concealed
    suits = [_suit_missing(tuple(concealed[s:s + 9]), tuple(limits[s:s + 9]), True) for s in (0, 9, 18)]
    suits.append(_suit_missing(tuple(concealed[27:34]), tuple(limits[27:34]), False))
    combined = [[0 if n == 0 and p == 0 else _FAR for p in (0, 1)] for n in range(_MAX_SETS + 1)]
    for table in suits:
        nxt = [[_FAR, _FAR] for _ in range(_MAX_SETS + 1)]
        for n in range(_MAX_SETS + 1):
            for p in (0, 1):
                if combined[n][p] >= _FAR:
                    continue
                for m in range(_MAX_SETS + 1 - n):
                    for q in (0, 1 - p):
                        if table[m][q] < _FAR:
                            nxt[n + m][p + q] = min(nxt[n + m][p + q], combined[n][p] + table[m][q])
        combined = nxt
    return combined[_MAX_SETS - len(hand.melds)][1]


def ligu_shanten(hand: Hand) -> int | None:
    """The 向聽 of a 16- or 17-tile hand towards 嚦咕嚦咕 (``tai.36``: 7 pairs and a pung, four
    alike counting as two pairs), or None when it has melds (the shape is concealed only).

    Choose the pung's kind and the 7 cheapest pairs; 向聽 = tiles missing − 1.
    """
    if hand.melds:
        return None
    counts = hand.concealed
    best = _FAR
    for pung in range(34):
        cost = max(0, 3 - counts[pung])
        slots: list[int] = []  # each kind's first pair, then its second (four alike)
        for t, c in enumerate(counts):
            if t != pung:
                slots.append(max(0, 2 - c))
                slots.append(0 if c >= 4 else 1 if c == 3 else 2)
        slots.sort()
        best = min(best, cost + sum(slots[:7]))
    return best - 1


def shanten(hand: Hand, *, ligu: bool = False) -> int:
    """向聽數 of a 16-tile hand (0: ready), or of a 17-tile hand's best discard (−1: it wins).

    A 17-tile hand that does not win holds a tile outside the winning hand nearest to it
    (both have 17 tiles): discarding that one leaves as many missing, so its count is read
    off the 17 tiles directly (``tests/test_shanten.py`` holds it to the best discard's).

    :raises InvalidHandError: for a hand of another size.
    """
    if hand.size == WINNING_SIZE:
        if is_winning(hand, ligu=ligu):
            return -1
    elif hand.size != WAITING_SIZE:
        _require_size(hand, WAITING_SIZE, "shanten", "向聽數")
    count = _fewest_missing(hand) - 1
    if ligu:
        other = ligu_shanten(hand)
        if other is not None:
            count = min(count, other)
    return count


__all__ = ["ligu_shanten", "shanten"]

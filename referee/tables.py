"""Lookup tables behind hand analysis: one suit at a time.

A suit's concealed tiles are held as one int, its *key*: 3 bits per rank (counts
0–4), rank 1 in the lowest bits. Adding a tile of rank ``r`` is ``key + UNIT[r]``.
A hand's working representation is four keys (萬, 筒, 條, 字).

``win.shape`` asks for 5 sets and 1 pair. Sets never cross suits, so a hand wins
exactly when every suit decomposes on its own and exactly one suit holds the pair:
with each suit's *code* (0 = sets only, 1 = sets and the pair, ``NO`` otherwise) the
hand wins when the codes sum to 1.

* :data:`SUIT_CODE` / :data:`HONOUR_CODE`: every decomposable key (53,055 suited,
  honour keys), built at import in about 50 ms; a key not there reads ``NO``.
* :data:`WAITS`: per suit, key → the tiles that complete it, with their wait shapes;
  filled lazily, one entry per key met.
* :data:`DECOMPOSITIONS`: per suit, key → every decomposition into groups; lazily.

The lazy tables are plain dicts read with ``.get`` and filled by their ``fill``
function on a miss: a dict subclass with ``__missing__`` would halve lookup speed.
"""
from __future__ import annotations

from .kinds import WaitShape
from .melds import Group, GroupKind

UNIT = tuple(1 << (3 * r) for r in range(9))
_ONES = sum(UNIT)
#: code of a key that does not decompose; any sum involving it exceeds 1
NO = 9
_MAX_SETS = 5  # win.shape: 5 sets (17 concealed tiles at most)


def _over_four(key: int) -> bool:
    # a 3-bit field holds 5–7 iff bit 2 and (bit 1 or bit 0) are set; sums never carry (≤ 7)
    return bool((key >> 2) & (key | (key >> 1)) & _ONES)


def _build_codes(ranks: int, chows: bool) -> dict[int, int]:
    """Every decomposable key of a suit with *ranks* ranks → 0 (sets only) or 1 (sets and a pair)."""
    sets = [3 * UNIT[r] for r in range(ranks)]
    if chows:
        sets += [UNIT[r] + UNIT[r + 1] + UNIT[r + 2] for r in range(ranks - 2)]
    level = {0}
    complete = {0}
    for _ in range(_MAX_SETS):
        level = {k + s for k in level for s in sets if not _over_four(k + s)} - complete
        complete |= level
    codes = dict.fromkeys(complete, 0)
    pairs = [2 * UNIT[r] for r in range(ranks)]
    for key in complete:
        for p in pairs:
            if not _over_four(key + p):
                codes[key + p] = 1
    return codes


#: suited key → 0 or 1; a key not in the table does not decompose (read it with ``.get(key, NO)``)
SUIT_CODE: dict[int, int] = _build_codes(9, chows=True)
#: honour key → 0 or 1 (honours form pungs and a pair only)
HONOUR_CODE: dict[int, int] = _build_codes(7, chows=False)
#: the code table for suit index 0–3 (萬 筒 條 字)
CODES = (SUIT_CODE, SUIT_CODE, SUIT_CODE, HONOUR_CODE)


class _DecompositionTable(dict):
    """key → tuple of decompositions (each a tuple of :class:`Group`, tiles global);
    read with ``.get(key) or table.fill(key)``. Key 0 reads ``((),)``: one empty reading."""

    def __init__(self, suit: int):
        super().__init__({0: ((),)})
        self.base = 9 * suit
        self.ranks = 7 if suit == 3 else 9
        self.chows = suit != 3

    def fill(self, key: int) -> tuple[tuple[Group, ...], ...]:
        counts = [(key >> (3 * r)) & 7 for r in range(self.ranks)]
        found: set[tuple[Group, ...]] = set()
        self._search(counts, 0, [], False, found)
        value = tuple(sorted(found, key=lambda d: [(g.tile, g.kind) for g in d]))
        self[key] = value
        return value

    def _search(self, c: list[int], r: int, groups: list[Group], paired: bool, found: set) -> None:
        while r < self.ranks and c[r] == 0:
            r += 1
        if r == self.ranks:
            found.add(tuple(sorted(groups, key=lambda g: (g.tile, g.kind))))
            return
        tile = self.base + r
        if c[r] >= 3:
            c[r] -= 3
            groups.append(Group(GroupKind.PUNG, tile))
            self._search(c, r, groups, paired, found)
            groups.pop()
            c[r] += 3
        if not paired and c[r] >= 2:
            c[r] -= 2
            groups.append(Group(GroupKind.PAIR, tile))
            self._search(c, r, groups, True, found)
            groups.pop()
            c[r] += 2
        if self.chows and r + 2 < self.ranks and c[r + 1] and c[r + 2]:
            c[r] -= 1
            c[r + 1] -= 1
            c[r + 2] -= 1
            groups.append(Group(GroupKind.CHOW, tile))
            self._search(c, r, groups, paired, found)
            groups.pop()
            c[r] += 1
            c[r + 1] += 1
            c[r + 2] += 1


DECOMPOSITIONS = tuple(_DecompositionTable(s) for s in range(4))


def shapes_of(groups: tuple[Group, ...], tile: int) -> set[WaitShape]:
    """The wait shapes under which *tile* completed this decomposition of one suit."""
    shapes: set[WaitShape] = set()
    for g in groups:
        if g.kind is GroupKind.PAIR:
            if g.tile == tile:
                shapes.add(WaitShape.SINGLE)
        elif g.kind is GroupKind.PUNG:
            if g.tile == tile:
                shapes.add(WaitShape.DOUBLE_PUNG)
        elif g.tile <= tile <= g.tile + 2:
            low = g.tile % 9  # rank index of the chow's first tile
            if tile == g.tile + 1:
                shapes.add(WaitShape.CLOSED)
            elif tile == g.tile:  # waited with the two above: 89 waits 7 only
                shapes.add(WaitShape.EDGE if low == 6 else WaitShape.TWO_SIDED)
            else:  # waited with the two below: 12 waits 3 only
                shapes.add(WaitShape.EDGE if low == 0 else WaitShape.TWO_SIDED)
    return shapes


class _WaitTable(dict):
    """key → (waits when the rest of the hand is sets only, waits when the rest holds
    the pair); each a tuple of (tile, frozenset of :class:`WaitShape`). Read with
    ``.get(key) or table.fill(key)``."""

    def __init__(self, suit: int):
        super().__init__()
        self.suit = suit
        self.base = 9 * suit
        self.ranks = 7 if suit == 3 else 9
        self.codes = CODES[suit]
        self.decompositions = DECOMPOSITIONS[suit]

    def fill(self, key: int) -> tuple[tuple, tuple]:
        by_code: tuple[list, list] = ([], [])
        for r in range(self.ranks):
            if (key >> (3 * r)) & 7 == 4:
                continue
            after = key + UNIT[r]
            code = self.codes.get(after, NO)
            if code == NO:
                continue
            tile = self.base + r
            shapes: set[WaitShape] = set()
            for groups in self.decompositions.get(after) or self.decompositions.fill(after):
                shapes |= shapes_of(groups, tile)
            by_code[code].append((tile, frozenset(shapes)))
        # the pair must come from this suit when the rest is sets only, and vice versa
        value = (tuple(by_code[1]), tuple(by_code[0]))
        self[key] = value
        return value


WAITS = tuple(_WaitTable(s) for s in range(4))

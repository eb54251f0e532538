"""Hands and their analysis: winning shape, waits, decompositions, 嚦咕嚦咕.

A :class:`Hand` is the concealed tiles as a count vector over the 34 kinds, the
exposed or declared melds, and the flowers laid out. Tile totals follow
``win.shape`` and ``deal.hand-size``: concealed tiles + 3 per meld (a kong's fourth
tile is 逾張 and not counted) make 16 while waiting and 17 with the winning tile.

The fast functions take a hand's working representation, four suit keys
(:func:`keys_of`; see :mod:`referee.tables`): :func:`is_winning_keys`,
:func:`waits_keys`, :func:`decompositions_keys`. The :class:`Hand`-level functions
check their input and return dataclasses.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple
from itertools import product

from .errors import InvalidHandError, InvalidTileError
from .melds import Group, GroupKind, Meld, parse_melds
from .tables import DECOMPOSITIONS, HONOUR_CODE, NO, SUIT_CODE, WAITS, WaitShape
from .tiles import (KINDS, check_copies, check_flowers, counts_at, counts_of, format_counts, format_tiles, parse_tiles,
                    parse_tiles_at)

_INT_ONLY = {int}

#: concealed tiles + 3 per meld (win.shape, deal.hand-size)
WAITING_SIZE = 16
WINNING_SIZE = 17


def keys_of(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """The four suit keys (萬 筒 條 字) of a 34-kind count vector (the reference
    :func:`_counted_keys` is held to)."""
    keys = [0, 0, 0, 0]
    for t in range(KINDS):
        c = counts[t]
        if c:
            keys[t // 9 if t < 27 else 3] += c << (3 * (t - 27 if t >= 27 else t % 9))
    return keys[0], keys[1], keys[2], keys[3]


#: a count 0–7 as its octal digit: a suit key is its nine counts written in octal, highest rank first
_OCTAL = bytes((48 + i) if i < 8 else 0 for i in range(256))


def _counted_keys(concealed: tuple[int, ...]) -> tuple[int, int, int, int]:
    """:func:`keys_of` for a hand's own count vector (34 counts of 0–4), in a few C calls:
    each suit's counts, highest rank first, read as one octal number."""
    return _keys_of_bytes(bytes(concealed))


#: the bytes 0–4 (a count a hand may hold), deleted by ``bytes.translate`` to find any other
_UP_TO_FOUR = bytes(range(5))
#: a suit's nine counts (bytes, rank 1 first) → its key: met again and again, read once
_SUIT_KEY: dict[bytes, int] = {}


def _keys_of_bytes(raw: bytes) -> tuple[int, int, int, int]:
    """:func:`_counted_keys` of the counts as bytes: each suit's nine (seven) bytes looked up,
    and read as an octal number the first time they are met (up to 200,000 of them kept).
    ``tests/test_hand.py`` holds the keys to :func:`keys_of`."""
    key = _SUIT_KEY.get
    a, b, c, d = raw[0:9], raw[9:18], raw[18:27], raw[27:34]
    ka, kb, kc, kd = key(a), key(b), key(c), key(d)
    if ka is None or kb is None or kc is None or kd is None:
        digits = raw.translate(_OCTAL)
        ka, kb, kc, kd = (int(digits[8::-1], 8), int(digits[17:8:-1], 8), int(digits[26:17:-1], 8),
                          int(digits[33:26:-1], 8))
        if len(_SUIT_KEY) < 200_000:
            _SUIT_KEY[a], _SUIT_KEY[b], _SUIT_KEY[c], _SUIT_KEY[d] = ka, kb, kc, kd
    return ka, kb, kc, kd


_suit = SUIT_CODE.get
_honour = HONOUR_CODE.get
_D0, _D1, _D2, _D3 = DECOMPOSITIONS


def is_winning_keys(keys: tuple[int, int, int, int]) -> bool:
    """True when the concealed tiles form sets and exactly one pair (``win.shape``, ``app.win-shape``).

    With the melds already exposed, this is the whole check: the tile total was
    validated when the hand was made.
    """
    return _suit(keys[0], NO) + _suit(keys[1], NO) + _suit(keys[2], NO) + _honour(keys[3], NO) == 1


def waits_keys(keys: tuple[int, int, int, int]) -> list[tuple[int, frozenset[WaitShape]]]:
    """Every tile that completes the concealed tiles, with its wait shapes, in tile order.

    Does not know the melds: a tile whose four copies the hand holds is filtered by
    :func:`waits`.
    """
    codes = (_suit(keys[0], NO), _suit(keys[1], NO), _suit(keys[2], NO), _honour(keys[3], NO))
    total = codes[0] + codes[1] + codes[2] + codes[3]
    out: list[tuple[int, frozenset[WaitShape]]] = []
    for suit in range(4):
        rest = total - codes[suit]
        if rest <= 1:
            table = WAITS[suit]
            key = keys[suit]
            out += (table.get(key) or table.fill(key))[rest]
    return out


def decompositions_keys(keys: tuple[int, int, int, int]) -> list[tuple[Group, ...]]:
    """Every decomposition of winning concealed tiles into groups (sets and the pair)."""
    k0, k1, k2, k3 = keys
    if _suit(k0, NO) + _suit(k1, NO) + _suit(k2, NO) + _honour(k3, NO) != 1:
        return []
    d0 = _D0.get(k0) or _D0.fill(k0)
    d1 = _D1.get(k1) or _D1.fill(k1)
    d2 = _D2.get(k2) or _D2.fill(k2)
    d3 = _D3.get(k3) or _D3.fill(k3)
    if len(d0) == len(d1) == len(d2) == len(d3) == 1:
        return [d0[0] + d1[0] + d2[0] + d3[0]]
    return [a + b + c + d for a, b, c, d in product(d0, d1, d2, d3)]


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's hand: concealed count vector, melds, flowers.

    :raises InvalidTileError: a flower among the concealed tiles.
    :raises TileCountError: a fifth copy of a tile (melds included) or a flower twice.
    :raises InvalidHandError: a tile total that is neither 16 nor 17 (缺張 / 逾張).
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    #: the suit keys (:attr:`keys`) and the tile total (:attr:`size`), computed once
    _keys: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)
    _size: int = field(init=False, repr=False, compare=False)
    #: copies held of each kind, melds included, when the hand holds all four of one (else None)
    _held: tuple[int, ...] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        concealed = self.concealed
        # all ints (no bools), none negative; set/min run in C, for speed
        if len(concealed) != KINDS or set(map(type, concealed)) != _INT_ONLY or min(concealed) < 0:
            raise InvalidHandError(
                f"concealed must be 34 non-negative counts, got {self.concealed!r}",
                field="tiles",
                reason_zh="暗牌須為 34 種牌的張數",
            )
        held = _check_copies(concealed, self.melds)
        check_flowers(self.flowers)
        size = sum(concealed) + 3 * len(self.melds)
        if size not in (WAITING_SIZE, WINNING_SIZE):
            short = size < WAITING_SIZE
            raise InvalidHandError(
                f"{sum(self.concealed)} concealed tiles and {len(self.melds)} melds make {size} tiles; "
                f"a hand has 16 (waiting) or 17 (with the winning tile)",
                field="tiles",
                reason_zh=f"暗牌 {sum(self.concealed)} 張加 {len(self.melds)} 副副露共 {size} 張，"
                f"{'缺張' if short else '逾張'}：手牌應為 16 張（聽牌）或 17 張（胡牌）",
            )
        _SET_KEYS(self, _counted_keys(concealed))
        _SET_SIZE(self, size)
        _SET_HELD(self, held)

    @classmethod
    def _of_win(cls, concealed: tuple[int, ...], melds: tuple[Meld, ...], flowers: Iterable[int]) -> Hand:
        """The hand of a win the referee accepted, for scoring (:mod:`referee.outcome`):
        ``Hand(concealed, melds, tuple(sorted(flowers)))`` with the same errors.

        Skips only what the referee already guarantees: *concealed* is its own count
        vector (34 non-negative ints), and it accepted the win only with 17 tiles counting
        these melds (``win.shape``). The copies (melds included) and the flowers are
        checked as the public constructor does, in the same order.
        """
        held = _check_copies(concealed, melds)
        flowers = check_flowers(sorted(flowers))  # sorted first: the same first error as Hand(…)
        return _filled(cls, concealed, melds, flowers, WINNING_SIZE, held)

    @classmethod
    def from_tiles(cls, tiles: Iterable[int], melds: Iterable[Meld] = (), flowers: Iterable[int] = ()) -> Hand:
        """Build a hand from concealed tiles listed one by one."""
        return cls(tuple(counts_of(tiles)), tuple(melds), tuple(sorted(flowers)))

    @classmethod
    def parse(cls, tiles: str, melds: str = "", flowers: str = "") -> Hand:
        """Build a hand from notation: ``Hand.parse("123m456p…", "pung:555s", "1f 2f")``.

        Flowers written among the concealed tiles are an error (``deal.flowers``: a
        flower is laid out and replaced, never held). The tiles are read by the fast
        reader and counted in one pass; a flower or a fifth copy among them is read again
        with positions (:func:`referee.tiles.counts_at`), whose errors show where.
        """
        counts = [0] * KINDS
        read = parse_tiles(tiles, field="tiles")
        try:
            for t in read:
                counts[t] += 1  # a flower (34–41) is out of range: the positions' reading says where
            raw = bytes(counts)  # ValueError: a count over 255
        except (IndexError, ValueError):
            raw = None
        if raw is None or raw.translate(None, _UP_TO_FOUR):  # a flower, or a count over 4: the error with its position
            counts = counts_at(parse_tiles_at(tiles, field="tiles"), tiles, field="tiles")
            raw = bytes(counts)
            read = counts  # (its sum is the tiles')
        exposed = () if melds == "" else parse_melds(melds, field="melds")
        laid = () if flowers == "" else parse_flowers(flowers)  # checked and sorted, as the constructor wants
        concealed = tuple(counts)
        size = (len(read) if read is not counts else sum(counts)) + 3 * len(exposed)  # each tile read counted once
        if size != WAITING_SIZE and size != WINNING_SIZE:
            return cls(concealed, exposed, laid)  # its error, in its order
        # what __post_init__ checks, done: 34 counts of 0–4 (made here, the bytes say so), the
        # flowers (parse_flowers); the copies with the melds', or (none) whether one kind is held four times
        held = _check_copies(concealed, exposed) if exposed else (concealed if b"\x04" in raw else None)
        if cls is Hand:
            hand = _HandDraft(concealed, exposed, laid, _keys_of_bytes(raw), size, held)
            hand.__class__ = Hand
            return hand
        return _filled(cls, concealed, exposed, laid, size, held)

    @property
    def size(self) -> int:
        """Tiles counted toward ``win.shape``: concealed + 3 per meld."""
        return self._size

    @property
    def keys(self) -> tuple[int, int, int, int]:
        """The working representation (see :mod:`referee.tables`), computed when the hand was made."""
        return self._keys

    @property
    def is_concealed(self) -> bool:
        """No chow, pung or melded/added kong (concealed kongs allowed, ``tai.03``)."""
        return all(m.is_concealed for m in self.melds)

    def tiles(self) -> list[int]:
        """The concealed tiles, one entry per tile, in order."""
        return [t for t in range(KINDS) for _ in range(self.concealed[t])]

    def add(self, tile: int) -> Hand:
        """This hand with one more concealed tile."""
        counts = list(self.concealed)
        counts[tile] += 1
        return Hand(tuple(counts), self.melds, self.flowers)

    def __str__(self) -> str:
        # the concealed tiles written from their counts (issue #17: every win's answer writes
        # its hand): format_tiles(self.tiles()), held to it by tests/test_hand.py
        parts = [format_counts(self.concealed)] + [str(m) for m in self.melds]
        if self.flowers:
            parts.append(format_tiles(self.flowers))
        return " ".join(parts)


_new = object.__new__
# the slots' own setters: a frozen dataclass's __init__ goes through object.__setattr__
_SET_CONCEALED = Hand.__dict__["concealed"].__set__
_SET_MELDS = Hand.__dict__["melds"].__set__
_SET_FLOWERS = Hand.__dict__["flowers"].__set__
_SET_KEYS = Hand.__dict__["_keys"].__set__
_SET_SIZE = Hand.__dict__["_size"].__set__
_SET_HELD = Hand.__dict__["_held"].__set__


class _HandDraft:
    """A :class:`Hand` being filled: the same slots, not frozen, so six plain attribute
    stores fill it; :func:`_filled` then sets its ``__class__`` to :class:`Hand` (CPython
    allows it between classes of one slot layout). The slots' own ``__set__`` called one by
    one cost several times as much (issue #17 item 6, ``Hand.parse``); ``tests/test_hand.py``
    holds the hands made so to the constructor's."""

    __slots__ = Hand.__slots__

    def __init__(self, concealed, melds, flowers, keys, size, held):
        self.concealed = concealed
        self.melds = melds
        self.flowers = flowers
        self._keys = keys
        self._size = size
        self._held = held


assert Hand.__slots__ == ("concealed", "melds", "flowers", "_keys", "_size", "_held")


def _filled(cls: type[Hand], concealed: tuple[int, ...], melds: tuple[Meld, ...], flowers: tuple[int, ...],
            size: int, held: tuple[int, ...] | None) -> Hand:
    """A hand whose checks its caller already made, its slots filled directly (a
    :class:`Hand` through :class:`_HandDraft`, a subclass slot by slot)."""
    if cls is Hand:
        hand = _HandDraft(concealed, melds, flowers, _counted_keys(concealed), size, held)
        hand.__class__ = Hand
        return hand
    hand = _new(cls)
    _SET_CONCEALED(hand, concealed)
    _SET_MELDS(hand, melds)
    _SET_FLOWERS(hand, flowers)
    _SET_KEYS(hand, _counted_keys(concealed))
    _SET_SIZE(hand, size)
    _SET_HELD(hand, held)
    return hand


def _check_copies(concealed: Sequence[int], melds: Sequence[Meld]) -> tuple[int, ...] | None:
    """The copies held of each kind, melds included, when one kind is held four times
    (a tile that is then no wait); None when none is.

    :raises TileCountError: a fifth copy of a tile, the melds' tiles counted too.
    """
    if melds:
        total = list(concealed)
        for meld in melds:
            for t in meld.tiles:
                total[t] += 1
        check_copies(total, field="tiles")
        return tuple(total) if 4 in total else None
    check_copies(concealed, field="tiles")
    return tuple(concealed) if 4 in concealed else None


def parse_flowers(text: str) -> tuple[int, ...]:
    """Parse the flowers laid out (``"1f 5f"``, ``"春 梅"``).

    :raises InvalidTileError: for a tile that is not a flower.
    """
    return check_flowers(parse_tiles(text, field="flowers"))


@dataclass(frozen=True, slots=True)
class Wait:
    """A waiting tile and every shape it completes the hand in."""

    tile: int
    shapes: frozenset[WaitShape] = field(default_factory=frozenset)


class Decomposition(NamedTuple):
    """One reading of a winning hand: the concealed groups (the pair among them) and the melds.

    A named tuple, not a dataclass (issue #17 item 6): :func:`decompositions` makes one per
    reading it hands out, and a tuple is made in C (``tuple.__new__``) where a frozen
    dataclass's slots are set one call each; immutable, its repr parses back."""

    groups: tuple[Group, ...]
    melds: tuple[Meld, ...] = ()

    @property
    def pair(self) -> Group:
        return next(g for g in self.groups if g.kind is GroupKind.PAIR)

    @property
    def is_ligu(self) -> bool:
        """True for the 嚦咕嚦咕 reading (7 pairs and a pung, ``tai.36``)."""
        return sum(g.kind is GroupKind.PAIR for g in self.groups) == 7


#: per suit: key * 2 + rest → the suit's waits (:func:`waits_keys`' entries) as Wait objects,
#: filled on first sight like the tables they read (a Wait is frozen: shared); an empty
#: answer, falsy, is found again through :func:`_suit_waits`' own look-up
_W0, _W1, _W2, _W3 = _WAIT_OBJECTS = ({}, {}, {}, {})
_tuple_new = tuple.__new__


def _suit_waits(suit: int, key: int, rest: int) -> tuple[Wait, ...]:
    memo = _WAIT_OBJECTS[suit]
    found = memo.get(key * 2 + rest)
    if found is None:
        table = WAITS[suit]
        found = memo[key * 2 + rest] = tuple(Wait(t, shapes) for t, shapes in (table.get(key) or table.fill(key))[rest])
    return found


def _decomposition(groups: tuple[Group, ...], melds: tuple[Meld, ...]) -> Decomposition:
    """``Decomposition(groups, melds)`` without the named tuple's Python ``__new__``."""
    return _tuple_new(Decomposition, (groups, melds))


def _require_size(hand: Hand, size: int, what: str, what_zh: str) -> None:
    if hand.size != size:
        raise InvalidHandError(
            f"{what} needs a hand of {size} tiles (concealed + 3 per meld), this one has {hand.size}",
            field="tiles",
            reason_zh=f"{what_zh}須為 {size} 張的手牌（暗牌加每副副露 3 張），此手牌為 {hand.size} 張",
        )


def is_winning(hand: Hand, *, ligu: bool = False) -> bool:
    """True when a 17-tile hand forms 5 sets and a pair (``win.shape``), or, with
    *ligu* (the ruleset's ``tai.36`` option), 7 pairs and a pung held concealed.

    The hand's own suit keys, read as :func:`is_winning_keys` reads them."""
    if hand._size != WINNING_SIZE:
        return False
    k0, k1, k2, k3 = hand._keys
    return _suit(k0, NO) + _suit(k1, NO) + _suit(k2, NO) + _honour(k3, NO) == 1 or (ligu and is_ligu(hand))


def is_ligu(hand: Hand) -> bool:
    """嚦咕嚦咕 (``tai.36``): 17 concealed tiles, no melds, as 7 pairs and a pung.

    Four alike tiles count as two pairs (see docs/rulings.md).
    """
    if hand.melds or hand.size != WINNING_SIZE:
        return False
    return _ligu_groups(hand.concealed) is not None


def _ligu_groups(counts: Sequence[int]) -> tuple[Group, ...] | None:
    pung = [t for t, c in enumerate(counts) if c == 3]
    if len(pung) != 1 or any(c in (1,) or c > 4 for c in counts):
        return None
    groups = [Group(GroupKind.PUNG, pung[0])]
    for t, c in enumerate(counts):
        if c in (2, 4):
            groups.extend([Group(GroupKind.PAIR, t)] * (c // 2))
    return tuple(groups) if len(groups) == 8 else None


def waits(hand: Hand, *, ligu: bool = False) -> tuple[Wait, ...]:
    """Every waiting tile of a 16-tile hand with its shapes (兩面 邊張 中洞 單吊 雙碰).

    A tile of which the hand itself holds all four copies is not a wait (see
    docs/rulings.md). With *ligu*, 嚦咕嚦咕 waits are included.

    :raises InvalidHandError: for a hand that is not 16 tiles.
    """
    if hand._size != WAITING_SIZE:
        _require_size(hand, WAITING_SIZE, "waits", "聽牌分析")
    melds = hand.melds
    if not ligu or melds:  # waits_keys' reading, each suit's waits as shared Wait objects, in tile order
        k0, k1, k2, k3 = hand._keys
        c0, c1, c2, c3 = _suit(k0, NO), _suit(k1, NO), _suit(k2, NO), _honour(k3, NO)
        total = c0 + c1 + c2 + c3
        out: tuple[Wait, ...] = ()
        if total - c0 <= 1:
            out = _W0.get(k0 * 2 + total - c0) or _suit_waits(0, k0, total - c0)
        if total - c1 <= 1:
            out += _W1.get(k1 * 2 + total - c1) or _suit_waits(1, k1, total - c1)
        if total - c2 <= 1:
            out += _W2.get(k2 * 2 + total - c2) or _suit_waits(2, k2, total - c2)
        if total - c3 <= 1:
            out += _W3.get(k3 * 2 + total - c3) or _suit_waits(3, k3, total - c3)
        held = hand._held
        if held is not None:  # a tile of which the hand holds all four copies is no wait
            out = tuple([w for w in out if held[w.tile] < 4])
        return out
    held = list(hand.concealed)
    found: dict[int, frozenset[WaitShape]] = {}
    for tile, shapes in waits_keys(hand._keys):
        if held[tile] < 4:
            found[tile] = shapes
    if ligu and not hand.melds:
        for tile in range(KINDS):
            if held[tile] < 4:
                counts = list(hand.concealed)
                counts[tile] += 1
                if _ligu_groups(counts) is not None:
                    shape = WaitShape.DOUBLE_PUNG if hand.concealed[tile] == 2 else WaitShape.SINGLE
                    found[tile] = found.get(tile, frozenset()) | {shape}
    return tuple(Wait(t, found[t]) for t in sorted(found))


def decompositions(hand: Hand, *, ligu: bool = False) -> tuple[Decomposition, ...]:
    """Every decomposition of a 17-tile winning hand; empty if it does not win.

    Scoring chooses the reading with the highest total. With *ligu*, the 嚦咕嚦咕
    reading is included when the hand has that shape.
    """
    if hand._size != WINNING_SIZE:
        return ()
    k0, k1, k2, k3 = hand._keys
    if _suit(k0, NO) + _suit(k1, NO) + _suit(k2, NO) + _honour(k3, NO) != 1:  # decompositions_keys' reading
        found = []
    else:
        d0 = _D0.get(k0) or _D0.fill(k0)
        d1 = _D1.get(k1) or _D1.fill(k1)
        d2 = _D2.get(k2) or _D2.fill(k2)
        d3 = _D3.get(k3) or _D3.fill(k3)
        melds = hand.melds
        if len(d0) == len(d1) == len(d2) == len(d3) == 1:
            dec = _tuple_new(Decomposition, (d0[0] + d1[0] + d2[0] + d3[0], melds))
            if not ligu:
                return (dec,)
            found = [dec]
        else:
            found = [_decomposition(a + b + c + d, melds) for a, b, c, d in product(d0, d1, d2, d3)]
    if ligu and is_ligu(hand):
        found.append(Decomposition(_ligu_groups(hand.concealed), ()))
    return tuple(found)


__all__ = [
    "Decomposition",
    "Hand",
    "InvalidHandError",
    "InvalidTileError",
    "Wait",
    "WaitShape",
    "decompositions",
    "decompositions_keys",
    "is_ligu",
    "is_winning",
    "is_winning_keys",
    "keys_of",
    "parse_flowers",
    "waits",
    "waits_keys",
]

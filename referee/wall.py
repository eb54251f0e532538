"""The wall: 144 tiles in four walls of 18 stacks of two (``deal.walls``) — without flowers
(``tiles.flowers`` false) 136 tiles in four walls of 17 stacks —, opened where
the dice say (``deal.wall``, ``deal.break``), drawn from the front, replaced from the
tail (槓尾), with the last 8 stacks never drawn (``play.exhausted``,
``app.exhausted.eight-stacks``; one more tile per kong with ``app.dead-wall``).

Layout (the ``wall`` event lists the tiles this way): wall ``w`` stands in front of
seat ``w``; its stacks are numbered 0–17 (0–16 in a 136-tile set) from that seat's
**right** end; each stack has a top and a bottom tile. Layout index =
``36 * w + 2 * stack + (0 top | 1 bottom)`` (``34 * w`` in a 136-tile set).

Opening (``deal.wall``: 點到座位之牌牆右起於擲骰點數之次一墩開門): the break dice,
counted from the thrower, point at a seat; in that seat's wall ``total`` stacks are
left standing on the right and the deal starts at the next stack (``deal.break``: 11
points → stacks 12 and 13 are the first take). Drawing goes clockwise: leftward along
that wall, then on into the wall of the seat before it (上家, ``(w - 1) % 4``) from its
right end (with 17-stack walls, a count of 18 runs on into that wall). The tail is the
other end of the same ring: replacements take the last stack's top tile, then its
bottom, then the stack before (see docs/rulings.md).

Hot path: a :class:`Wall` keeps the tiles in draw order and two counters.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter

from .dice import counted_seat
from .errors import MjrefError

TILES = 144
STACKS = 72
STACKS_PER_WALL = 18
#: tiles dealt to each seat (deal.wall: 4 takes of 4; the dealer's 門牌 makes 17)
HAND_TILES = 16
#: the deal: four rounds of 4 tiles each, dealer first, counterclockwise; then the dealer's 門牌
DEAL_ROUNDS = 4
TAKE = 4


class WallError(MjrefError, ValueError):
    """A wall that cannot be built: not 144 tiles, a bad break."""

    code = "invalid_wall"


def break_point(thrower: int, total: int) -> tuple[int, int]:
    """Where the wall opens: ``(wall seat, stacks left standing on its right)``
    (``deal.wall``, ``deal.break``, ``seat.dice.*``).

    >>> break_point(0, 11)   # East throws 11: West's wall, 11 stacks stay
    (2, 11)
    """
    return counted_seat(thrower, total), total


def draw_order(break_seat: int, skip: int, size: int = TILES) -> list[int]:
    """Layout indices in draw order: the front of the wall first, the tail last (*size*:
    144 tiles, or 136 without flowers)."""
    return list(_draw_order(break_seat, skip, size))


@lru_cache(maxsize=None)
def _draw_order(break_seat: int, skip: int, size: int = TILES) -> tuple[int, ...]:
    per_wall = size // 8  # stacks in front of each seat: 18, or 17 in a 136-tile set
    if not (0 <= break_seat < 4 and 0 <= skip <= STACKS_PER_WALL and size in (TILES, TILES - 8)):
        raise WallError(f"no break at wall {break_seat!r}, {skip!r} stacks", field="dice", reason_zh="開門位置無效")
    order: list[int] = []
    wall, stack = break_seat, skip
    if stack > per_wall:  # a count of 18 on 17-stack walls runs on into the next wall
        wall, stack = (wall - 1) % 4, stack - per_wall
    for _ in range(size // 2):
        if stack == per_wall:
            wall, stack = (wall - 1) % 4, 0
        base = 2 * per_wall * wall + 2 * stack
        order += (base, base + 1)
        stack += 1
    return tuple(order)


@lru_cache(maxsize=None)
def _draw_getter(break_seat: int, skip: int, size: int = TILES) -> itemgetter:
    """The layout's tiles in draw order, in one C call (an ``itemgetter`` of :func:`_draw_order`)."""
    return itemgetter(*_draw_order(break_seat, skip, size))


def tail_index(k: int, size: int = TILES) -> int:
    """Draw-order index of the *k*-th replacement tile (0 = the first from the tail) in a
    wall of *size* tiles."""
    return 2 * (size // 2 - 1 - k // 2) + k % 2


def deal_takes(dealer: int) -> list[tuple[int, int]]:
    """The deal as ``(seat, tiles)`` takes: 4 rounds of 4 (2 stacks) dealer first,
    counterclockwise, then the dealer's extra 門牌 (``deal.wall``, ``deal.hand-size``)."""
    takes = [((dealer + i) % 4, TAKE) for _ in range(DEAL_ROUNDS) for i in range(4)]
    takes.append((dealer, 1))
    return takes


def describe_position(layout: int, size: int = TILES) -> tuple[int, int, int]:
    """``(wall seat, stack from its right end, 0 top | 1 bottom)`` of a layout index."""
    per_wall = size // 4
    return layout // per_wall, (layout % per_wall) // 2, layout % 2


class Wall:
    """The wall during a hand: tiles in draw order (``None`` when unknown, physical mode),
    how many were drawn from the front and from the tail, how many must stay.

    :param tiles: 144 tiles in draw order, or ``None`` (physical table).
    :param dead_wall: tiles never drawn (``wall.dead_wall``: 16 = 8 stacks).
    :param per_kong: extra tiles kept per kong (``wall.dead_wall_per_kong``, 一槓一).
    :param size: the tiles of the set: 144, or 136 without flowers (``tiles.flowers``).
    """

    __slots__ = ("tiles", "front", "_tail", "_kongs", "dead_wall", "per_kong", "layout", "end", "size")

    def __init__(self, tiles: Sequence[int] | None = None, *, dead_wall: int = 16, per_kong: int = 0,
                 layout: Sequence[int] | None = None, size: int = TILES) -> None:
        if tiles is not None and len(tiles) != size:
            raise WallError(f"a wall is {size} tiles, got {len(tiles)}", field="tiles", reason_zh=f"牌牆須為 {size} 張")
        #: the tiles of the set (144, or 136 without flowers: tiles.flowers)
        self.size = size
        #: the tiles in draw order, a tuple (never changed: drawing moves the counters)
        self.tiles = tuple(tiles) if tiles is not None else None
        self.front = 0
        self._tail = 0
        self._kongs = 0
        self.dead_wall = dead_wall
        self.per_kong = per_kong
        #: the draw-order index where the live wall ends: ``live`` is ``end - front``, kept
        #: in step by the ``tail`` and ``kongs`` setters (for speed: draws and discards read it)
        self.end = size - dead_wall
        #: draw-order index → layout index, when the break is known
        self.layout = layout if layout is None or isinstance(layout, tuple) else tuple(layout)

    @classmethod
    def from_layout(cls, layout_tiles: Sequence[int], break_seat: int, skip: int, *, size: int = TILES, **kw) -> Wall:
        """A wall built as laid out (the ``wall`` event) and opened at the break."""
        if len(layout_tiles) != size:
            raise WallError(f"a wall is {size} tiles, got {len(layout_tiles)}", field="tiles",
                            reason_zh=f"牌牆須為 {size} 張")
        order = _draw_order(break_seat, skip, size)
        wall = cls(None, layout=order, size=size, **kw)
        wall.tiles = _draw_getter(break_seat, skip, size)(layout_tiles)  # a tuple, in one C call (for speed)
        return wall

    @property
    def tail(self) -> int:
        """Replacement tiles drawn from the tail."""
        return self._tail

    @tail.setter
    def tail(self, value: int) -> None:
        self._tail = value
        self._reckon_end()

    @property
    def kongs(self) -> int:
        """Kongs made this hand (with 一槓一 each keeps one more tile in the dead wall)."""
        return self._kongs

    @kongs.setter
    def kongs(self, value: int) -> None:
        self._kongs = value
        self._reckon_end()

    def _reckon_end(self) -> None:
        """Where the live wall ends, after the tail or the kongs changed (the ``end`` docs)."""
        self.end = self.size - self._tail - self.dead_wall - self.per_kong * self._kongs

    @property
    def known(self) -> bool:
        return self.tiles is not None

    @property
    def remaining(self) -> int:
        """Tiles still standing (dead wall included)."""
        return self.size - self.front - self.tail

    @property
    def reserve(self) -> int:
        """Tiles that must stay undrawn now (8 stacks, plus one per kong with 一槓一)."""
        return self.dead_wall + self.per_kong * self.kongs

    @property
    def live(self) -> int:
        """Tiles still drawable from the front (0 when only the dead wall is left)."""
        live = self.end - self.front
        return live if live > 0 else 0

    def peek_front(self) -> int | None:
        """The next tile from the front (``None`` if unknown)."""
        return self.tiles[self.front] if self.tiles is not None else None

    def peek_tail(self) -> int | None:
        """The next replacement tile (``None`` if unknown)."""
        return self.tiles[tail_index(self.tail, self.size)] if self.tiles is not None else None

    def take_front(self, n: int = 1) -> tuple[int, ...] | None:
        """Draw *n* tiles from the front (the caller checked there are enough)."""
        start = self.front
        self.front = start + n
        return self.tiles[start:start + n] if self.tiles is not None else None

    def take_tail(self) -> int | None:
        """Draw one replacement tile from the tail."""
        k = self._tail
        self._tail = k + 1
        self.end -= 1  # as the tail setter does, without the property call (for speed)
        return self.tiles[tail_index(k, self.size)] if self.tiles is not None else None

    def untake_front(self, n: int = 1) -> None:
        """Put back the last *n* front draws (a draw undone by priority, ``prio.4``)."""
        self.front -= n

    def untake_tail(self) -> None:
        self.tail -= 1

    def standing(self) -> list[int]:
        """The known tiles still standing, front to tail (census, tests)."""
        if self.tiles is None:
            return []
        drawn_tail = {tail_index(k, self.size) for k in range(self.tail)}
        return [t for i, t in enumerate(self.tiles) if i >= self.front and i not in drawn_tail]

    def position_of_front(self) -> tuple[int, int, int] | None:
        """Where the next front tile stands (wall seat, stack, level), when the break is known."""
        return describe_position(self.layout[self.front], self.size) if self.layout is not None else None

    def copy(self) -> Wall:
        other = Wall(self.tiles, dead_wall=self.dead_wall, per_kong=self.per_kong, layout=self.layout, size=self.size)
        other.front, other.tail, other.kongs = self.front, self.tail, self.kongs
        return other

    def __repr__(self) -> str:
        return (f"Wall(front={self.front}, tail={self.tail}, kongs={self.kongs}, live={self.live}, "
                f"known={self.known})")

"""搬風 and 定莊: who sits where for a 將, and who deals first (``seat.banfeng``, ``seat.dealer``).

Seats are the four physical places at a table, 0–3 counterclockwise (下家 of ``s`` is
``s + 1``). A :class:`Seating` says who sits at each seat and which seat is the East seat
(東座位); the winds follow counterclockwise: South at ``east + 1``, West, North.

搬風 (``seat.banfeng``, ``app.seating``): the four wind tiles lie face down; a player throws
three dice, the total counted counterclockwise from the thrower as 1 (``seat.dice.*``,
:func:`referee.dice.counted_seat`) points at the East seat; from the player sitting there,
counterclockwise, each draws a tile and moves to the seat of the wind drawn. For the first
將 anyone throws, from seats taken at will (the schedule's); from the second 將 on the players
draw from the seats they held, the winner of the previous 將's last hand throws, and a draw
that gives the four players the same order around the table as before is drawn again
(:func:`same_relative_order`). A :class:`SeatDraw` records one draw, from a physical table
or generated from a seeded RNG; :func:`draw_seats` gives the accepted seating and every
attempt.

定莊 (``seat.dealer``, ``app.dealer``): at each 將's first hand the player in the East seat
throws three dice counted the same way; the seat pointed at deals first: the 起莊位, by
which the 圈風 marker stays (:mod:`tournament.match`).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from referee.dice import check_dice, counted_seat
from referee.tiles import Wind

from .errors import SeatingError, check_seat

SEATS = 4


def _check_players(players: Sequence[str], field: str = "players") -> tuple[str, str, str, str]:
    if len(players) != SEATS or any(not isinstance(p, str) or not p for p in players):
        raise SeatingError(f"{field} must be four player ids, got {list(players)!r}", field=field,
                           reason_zh=f"{field} 須為四位選手，收到 {list(players)!r}")
    if len(set(players)) != SEATS:
        raise SeatingError(f"{field} names a player twice: {list(players)!r}", field=field,
                           reason_zh=f"{field} 有選手重複：{list(players)!r}")
    return players[0], players[1], players[2], players[3]


def same_relative_order(a: Sequence[str], b: Sequence[str]) -> bool:
    """True when the players sit in the same order around the table: every player has the
    same 上家 and 下家, whichever seat is East (``seat.banfeng``: 相互順序…完全相同).

    >>> same_relative_order("ABCD", "CDAB"), same_relative_order("ABCD", "ADCB")
    (True, False)
    """
    a, b = tuple(a), tuple(b)
    return len(a) == len(b) and any(b == a[k:] + a[:k] for k in range(len(a)))


def seat_winds(east: int) -> tuple[Wind, Wind, Wind, Wind]:
    """Each seat's wind when ``east`` is East, counterclockwise from it: for the 將's first
    hand the dealer's seat (``app.dealer``: 那一手莊家自己就是東家); for a later hand the
    seat where the wall was opened (``deal.wall``, the referee's).

    >>> seat_winds(2)
    (Wind.WEST, Wind.NORTH, Wind.EAST, Wind.SOUTH)
    """
    check_seat(east, "east", SeatingError)
    return tuple(Wind((s - east) % SEATS) for s in range(SEATS))  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits at each seat (``players[seat]``) and which seat is the East seat.

    >>> s = Seating(("甲", "乙", "丙", "丁"), east=2)
    >>> s.wind_of(2), s.wind_of(1), s.player_of(Wind.SOUTH)
    (Wind.EAST, Wind.NORTH, '丁')
    """

    players: tuple[str, str, str, str]
    east: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", _check_players(self.players))
        check_seat(self.east, "east", SeatingError)

    def wind_of(self, seat: int) -> Wind:
        """The seat's wind (東座位 is :attr:`east`, then counterclockwise)."""
        return seat_winds(self.east)[check_seat(seat, "seat", SeatingError)]

    def seat_of_wind(self, wind: Wind) -> int:
        return (self.east + Wind(wind)) % SEATS

    def player_of(self, wind: Wind) -> str:
        """The player in the seat of ``wind``."""
        return self.players[self.seat_of_wind(wind)]

    def seat_of(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise SeatingError(f"{player!r} is not at this table {list(self.players)!r}", field="player",
                               reason_zh=f"{player!r} 不在此桌 {list(self.players)!r}") from None

    def by_wind(self) -> tuple[str, str, str, str]:
        """The players in wind order 東 南 西 北."""
        e = self.east
        p = self.players
        return p[e], p[(e + 1) % 4], p[(e + 2) % 4], p[(e + 3) % 4]

    def describe(self) -> str:
        """``東 甲、南 乙、西 丙、北 丁``."""
        return "、".join(f"{w.zh} {p}" for w, p in zip(Wind, self.by_wind()))


@dataclass(frozen=True, slots=True)
class SeatDraw:
    """One 搬風 draw: the thrower's seat, the three dice, and the wind tiles drawn in
    drawing order — by the player in the East seat first, then counterclockwise.

    >>> d = SeatDraw(thrower=0, dice=(1, 2, 5), tiles=(Wind.SOUTH, Wind.EAST, Wind.NORTH, Wind.WEST))
    >>> d.east, d.apply(("甲", "乙", "丙", "丁"))
    (3, Seating(players=('丁', '丙', '乙', '甲'), east=3))
    """

    thrower: int
    dice: tuple[int, int, int]
    tiles: tuple[Wind, Wind, Wind, Wind]

    def __post_init__(self) -> None:
        check_seat(self.thrower, "thrower", SeatingError)
        check_dice(self.dice)
        object.__setattr__(self, "dice", tuple(self.dice))
        try:
            tiles = tuple(Wind(t) for t in self.tiles)
        except ValueError:
            tiles = ()
        if len(tiles) != SEATS or set(tiles) != set(Wind):
            raise SeatingError(f"tiles must be the four winds in drawing order, got {self.tiles!r}", field="tiles",
                               reason_zh=f"抽得的牌須為東南西北四張風牌，收到 {self.tiles!r}")
        object.__setattr__(self, "tiles", tiles)

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def east(self) -> int:
        """The East seat: the seat the dice point at, counted from the thrower as 1."""
        return counted_seat(self.thrower, self.total)

    def apply(self, players: Sequence[str]) -> Seating:
        """Where each player sits after drawing: the player who drew wind ``w`` takes the
        seat ``east + w`` (``players`` are the seats the draw was made from)."""
        players = _check_players(players)
        east = self.east
        seats: list[str] = [""] * SEATS
        for k, wind in enumerate(self.tiles):
            seats[(east + wind) % SEATS] = players[(east + k) % SEATS]
        return Seating((seats[0], seats[1], seats[2], seats[3]), east)


def random_seat_draw(rng: random.Random, thrower: int) -> SeatDraw:
    """A draw as a table would make it: three dice and the four wind tiles shuffled."""
    tiles = list(Wind)
    dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    rng.shuffle(tiles)
    return SeatDraw(thrower, dice, (tiles[0], tiles[1], tiles[2], tiles[3]))


@dataclass(frozen=True, slots=True)
class SeatDrawResult:
    """The seating a 搬風 gave, with every draw made: ``attempts[-1]`` was accepted, the ones
    before it repeated the previous 將's order and were drawn again."""

    seating: Seating
    attempts: tuple[SeatDraw, ...]

    @property
    def redraws(self) -> int:
        return len(self.attempts) - 1


#: after this many draws repeating the previous order in a row, a generated 搬風 gives up
#: (each repeats with probability 1/6; 64 in a row happens once in 10^49)
MAX_GENERATED_DRAWS = 64


def draw_seats(players: Sequence[str], *, thrower: int, previous: Seating | None = None,
               draws: Sequence[SeatDraw] | None = None, rng: random.Random | None = None) -> SeatDrawResult:
    """搬風 (``seat.banfeng``): the accepted seating and the draws made.

    :param players: the seats the players draw from (``players[seat]``); from the second
        將 on, their seats in the previous 將.
    :param thrower: the seat that throws: anyone at the first 將; from the second on,
        the winner of the previous 將's last hand (:func:`tournament.table.next_thrower`).
    :param previous: the previous 將's seating, or ``None`` for the first 將. A draw that
        leaves the players in the same order around the table as ``previous`` is redrawn.
    :param draws: the draws a physical table recorded, in order. Every one but the last
        must repeat the previous order; the last must not.
    :param rng: generate the draws instead (exactly one of ``draws`` and ``rng``).
    :raises SeatingError: draws that do not follow the rule, or a thrower other than the
        draws'.
    """
    players = _check_players(players)
    check_seat(thrower, "thrower", SeatingError)
    if (draws is None) == (rng is None):
        raise SeatingError("give either the recorded draws or an RNG, not both or neither", field="draws",
                           reason_zh="須給實際搬風紀錄或亂數來源其一")
    attempts: list[SeatDraw] = []
    for n in range(MAX_GENERATED_DRAWS if draws is None else len(draws)):
        draw = random_seat_draw(rng, thrower) if draws is None else draws[n]
        if draw.thrower != thrower:
            raise SeatingError(f"draw {n + 1} was thrown from seat {draw.thrower}, the thrower is seat {thrower}",
                               field=f"draws[{n}].thrower",
                               reason_zh=f"第 {n + 1} 次搬風由 {draw.thrower} 號座擲骰，應由 {thrower} 號座擲骰")
        attempts.append(draw)
        seating = draw.apply(players)
        repeats = previous is not None and same_relative_order(previous.players, seating.players)
        last = draws is not None and n == len(draws) - 1
        if not repeats:
            if draws is not None and not last:
                raise SeatingError(
                    f"draw {n + 1} gave a new order {list(seating.players)!r}; it stands and no redraw follows",
                    field=f"draws[{n + 1}]",
                    reason_zh=f"第 {n + 1} 次搬風的順序已與前一將不同，應即入座，不得重搬")
            return SeatDrawResult(seating, tuple(attempts))
        if last:
            raise SeatingError(
                f"draw {n + 1} repeats the previous 將's order {list(previous.players)!r}: it must be drawn again",
                field=f"draws[{n}]",
                reason_zh=f"第 {n + 1} 次搬風四人相互順序與前一將完全相同，應重搬")
    if draws is not None:
        raise SeatingError("no draw recorded", field="draws", reason_zh="未記錄任何搬風")
    raise SeatingError(f"{MAX_GENERATED_DRAWS} generated draws all repeated the previous order", field="rng",
                       reason_zh=f"連續 {MAX_GENERATED_DRAWS} 次搬風皆與前一將順序相同")


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """定莊 (``seat.dealer``, ``app.dealer``): the East seat throws; the seat pointed at is
    the 將's first dealer and its 起莊位.

    >>> DealerDraw(thrower=2, dice=(3, 4, 4)).dealer
    0
    """

    thrower: int
    dice: tuple[int, int, int]

    def __post_init__(self) -> None:
        check_seat(self.thrower, "thrower", SeatingError)
        check_dice(self.dice)
        object.__setattr__(self, "dice", tuple(self.dice))

    @property
    def dealer(self) -> int:
        return counted_seat(self.thrower, sum(self.dice))


def draw_dealer(seating: Seating, *, dice: Sequence[int] | None = None,
                rng: random.Random | None = None) -> DealerDraw:
    """The 定莊 throw by the player in the East seat, recorded (``dice``) or generated."""
    if (dice is None) == (rng is None):
        raise SeatingError("give either the recorded dice or an RNG", field="dice",
                           reason_zh="須給實際骰子點數或亂數來源其一")
    if dice is None:
        dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    return DealerDraw(seating.east, tuple(dice))


__all__ = [
    "DealerDraw", "SeatDraw", "SeatDrawResult", "Seating", "draw_dealer", "draw_seats", "random_seat_draw",
    "same_relative_order", "seat_winds",
]

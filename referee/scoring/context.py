"""What scoring needs to know besides the tiles: the win context and the stakes.

These frozen dataclasses are the contract between the referee's state machine
(which constructs them while a hand is played) and :mod:`referee.scoring`. Field
names are stable; new fields are only ever added with defaults.

Seats are ``0``–``3`` counterclockwise (下家 = ``(seat + 1) % 4``). Winds are
:class:`referee.tiles.Wind`.

* The **seat wind** of a player is counted from the seat where the wall was
  opened: that seat is East for the hand and flower number 1 (``deal.wall``:
  開門位即為該一盤之東位或花牌之1號序; ``app.dealer``: the dealer is East in the
  app, so ``wall_break`` defaults to the dealer's seat).
* The **streak** ``N`` (連N拉N, ``tai.10``, ``settle.streak``) is the dealer's real
  number of repeats; ``streak_marker`` is what the dice in front of the dealer show
  (``score.streak-marker``), ``None`` when it matches.
* ``source`` says how the winning tile came (:class:`WinSource`); a flower win
  (花胡 ``tai.27``) is named by ``flower_win`` (:class:`FlowerWin`) and may come with a
  hand that also won on the replacement tile (``tai.29``, ``tai.30.1``, ``tai.30.2``:
  如補得之牌恰為槓上開花).
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from ..errors import MjrefError
from ..kinds import FirstTurn, FlowerWin, Readiness, WinSource
from ..kinds_fast import (
    DISCARD_WIN_SOURCE, EARTHLY_WIN_FIRST_TURN, FLOWER_REPLACEMENT_WIN_SOURCE, FLOWER_WIN_WIN_SOURCE,
    HEAVENLY_WIN_FIRST_TURN, KONG_REPLACEMENT_WIN_SOURCE, LAST_DISCARD_WIN_SOURCE, MELDED_KONG_MELD, NONE_FLOWER_WIN,
    ROBBING_KONG_WIN_SOURCE, SEVEN_ROB_ONE_DRAWN_FLOWER_WIN, SEVEN_ROB_ONE_FLOWER_WIN,
)
from ..melds import MeldKind
from ..tiles import FLOWER_BASE, KINDS, Wind, tile_name


class ContextError(MjrefError, ValueError):
    """A win context or stakes that cannot happen (a seat out of range, a discard
    win with no discarder, a self-draw naming a discarder...)."""

    code = "invalid_context"


class NotWinningError(MjrefError, ValueError):
    """A hand that does not win as claimed: not 5 sets and a pair, the winning tile
    not in it, too few flowers for a flower win, a 0-台 hand where 屁胡 is not allowed."""

    code = "not_winning"


#: the enum fields a context checks, in the order their errors are reported
_ENUM_FIELDS = (("source", WinSource), ("flower_win", FlowerWin), ("readiness", Readiness), ("first_turn", FirstTurn))
#: the sources where one seat pays: a discard, the last discard, a robbed kong (a tuple:
#: ``in`` compares enum members by identity, a set would hash them in Python)
_ONE_PAYER = (DISCARD_WIN_SOURCE, LAST_DISCARD_WIN_SOURCE, ROBBING_KONG_WIN_SOURCE)


def _seat(value: object, name: str) -> None:
    if type(value) is not int or not 0 <= value < 4:
        raise ContextError(f"{name} must be a seat 0–3, got {value!r}", field=name,
                           reason_zh=f"{name} 須為座位 0–3，收到 {value!r}")


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything about a win that is not in the :class:`referee.hand.Hand`.

    :param winner: the winning seat (0–3).
    :param dealer: the dealer's seat (莊家).
    :param round_wind: the wind of the round (圈風, ``tai.01``).
    :param source: how the winning tile came (:class:`WinSource`).
    :param winning_tile: the tile that completed the hand (0–33); ``None`` only for a
        flower win whose hand is not shown (``source`` = ``FLOWER_WIN``).
    :param discarder: who pays alone: the seat that discarded the winning tile, whose
        added kong was robbed (搶槓), or whose flower was robbed (七搶一). ``None`` for
        a self-draw or 八仙過海.
    :param wall_break: the seat where the wall was opened, East of this hand
        (``deal.wall``); ``None`` means the dealer's seat (``app.dealer``).
    :param streak: N of 連N拉N: the dealer's real number of repeats (``tai.10``).
    :param streak_marker: N shown by the dealer's dice (``score.streak-marker``);
        ``None`` when it shows the real streak.
    :param flower_win: the flower win, if any (``tai.27``–``tai.30``).
    :param dealt_flower_win: the flower win was on the dealt tiles (配牌花胡, ``tai.28``).
    :param readiness: declared readiness still valid at the win (天聽, 地聽, 宣告聽牌).
    :param first_turn: 天胡 / 地胡 / 人胡 (``tai.33``–``tai.35``).
    :param robbed_flower: the flower taken by 七搶一 (34–41); needed for ``tai.30.2``
        when the replacement tile also wins, as the face is then counted without it.
    :param bao: the 寶牌 drawn for this hand, one entry per indicator (a tile twice
        when drawn twice; at most 5, ``opt.bao.1``–``opt.bao.3``).
    :param replaced_kong: for ``source`` = ``KONG_REPLACEMENT``, which kong's replacement
        won (:class:`referee.melds.MeldKind`: ``MELDED_KONG``, ``ADDED_KONG`` or
        ``CONCEALED_KONG``); a melded kong's replacement may not win by self-draw unless
        the ruleset allows it (``play.restrict.2``, ``app.kong.limits``). ``None``: not
        said; the scorer then reads it from the melds when they hold only melded kongs.
    :param liable: 包牌 (``settle.liability``): the seat that fed the last set of 大三元 or
        大四喜 by a discard the winner claimed; ``None`` when nobody is liable.
    """

    winner: int
    dealer: int
    round_wind: Wind
    source: WinSource
    winning_tile: int | None = None
    discarder: int | None = None
    wall_break: int | None = None
    streak: int = 0
    streak_marker: int | None = None
    flower_win: FlowerWin = FlowerWin.NONE
    dealt_flower_win: bool = False
    readiness: Readiness = Readiness.NONE
    first_turn: FirstTurn = FirstTurn.NONE
    bao: tuple[int, ...] = ()
    robbed_flower: int | None = None
    replaced_kong: MeldKind | None = None
    liable: int | None = None

    def __post_init__(self) -> None:
        # Every check reads locals and the module's names for enum members: an enum
        # member read off its class (``WinSource.WALL``) costs ~100 ns in CPython 3.11.
        # A group of fields is first tested at once; only when that fails do the checks
        # run one by one, so the first error is reported as before.
        winner, dealer, source, flower_win, first_turn = (self.winner, self.dealer, self.source, self.flower_win,
                                                          self.first_turn)
        wall_break = self.wall_break
        if not (type(winner) is int and type(dealer) is int and 0 <= winner < 4 and 0 <= dealer < 4
                and (wall_break is None or type(wall_break) is int and 0 <= wall_break < 4)):
            _seat(winner, "winner")
            _seat(dealer, "dealer")
            if wall_break is not None:
                _seat(wall_break, "wall_break")
        if not isinstance(self.round_wind, Wind):
            raise ContextError(f"round_wind must be a Wind, got {self.round_wind!r}", field="round_wind",
                               reason_zh="圈風須為東南西北")
        if not (isinstance(source, WinSource) and isinstance(flower_win, FlowerWin)
                and isinstance(self.readiness, Readiness) and isinstance(first_turn, FirstTurn)):
            for name, enum in _ENUM_FIELDS:
                if not isinstance(getattr(self, name), enum):
                    raise ContextError(f"{name} must be a {enum.__name__}, got {getattr(self, name)!r}", field=name,
                                       reason_zh=f"{name} 的值無效")
        streak, marker = self.streak, self.streak_marker
        if not (type(streak) is int and streak >= 0 and (marker is None or type(marker) is int and marker >= 0)):
            for name, value in (("streak", streak), ("streak_marker", marker)):
                if value is not None and (type(value) is not int or value < 0):
                    raise ContextError(f"{name} must be a whole number ≥ 0, got {value!r}", field=name,
                                       reason_zh=f"{name} 須為 0 以上的整數")
        tile = self.winning_tile
        if tile is not None and (type(tile) is not int or not 0 <= tile < KINDS):
            raise ContextError(f"winning_tile must be a tile 0–33 (no flower), got {tile!r}", field="winning_tile",
                               reason_zh="胡牌張須為 0–33 的牌（不得為花牌）")
        flower = flower_win is not NONE_FLOWER_WIN
        if source is FLOWER_WIN_WIN_SOURCE:
            if not flower:
                raise ContextError("source flower_win needs flower_win set (eight_flowers or seven_rob_one)",
                                   field="flower_win", reason_zh="花胡須指明八仙過海或七搶一")
        elif tile is None:
            raise ContextError("winning_tile is required unless the win is a flower win with the hand not shown",
                               field="winning_tile", reason_zh="除未翻牌的花胡外，須指明胡牌張")
        if flower and source is not FLOWER_WIN_WIN_SOURCE and source is not FLOWER_REPLACEMENT_WIN_SOURCE:
            raise ContextError(
                f"a flower win ends on the flower's replacement tile, not on {source.value}",
                field="source", reason_zh="花胡只能在補花補牌時成立",
            )
        seven = flower_win is SEVEN_ROB_ONE_FLOWER_WIN or flower_win is SEVEN_ROB_ONE_DRAWN_FLOWER_WIN
        discarder = self.discarder
        if source in _ONE_PAYER or seven:
            if discarder is None:
                raise ContextError(f"a win by {source.value}/{flower_win.value} needs the discarder "
                                   "(the seat that pays)", field="discarder",
                                   reason_zh="胡銃、搶槓、七搶一須指明放銃（被搶）者")
            _seat(discarder, "discarder")
            if discarder == winner:
                raise ContextError("the discarder cannot be the winner", field="discarder",
                                   reason_zh="放銃者不能是胡牌者本人")
        elif discarder is not None:
            raise ContextError(f"a win by {source.value} has no discarder: everyone pays", field="discarder",
                               reason_zh="自摸或八仙過海沒有放銃者")
        if self.dealt_flower_win and not flower:
            raise ContextError("dealt_flower_win needs a flower win", field="dealt_flower_win",
                               reason_zh="配牌花胡須為花胡")
        if first_turn is HEAVENLY_WIN_FIRST_TURN and winner != dealer:
            raise ContextError("天胡 is the dealer's win (tai.33)", field="first_turn",
                               reason_zh="天胡限莊家（tai.33）")
        if first_turn is EARTHLY_WIN_FIRST_TURN and winner == dealer:
            raise ContextError("地胡 is a non-dealer's win (tai.34)", field="first_turn",
                               reason_zh="地胡限閒家（tai.34）")
        bao = self.bao
        if len(bao) > 5:
            raise ContextError("at most 5 寶牌 (opt.bao.2)", field="bao", reason_zh="寶牌最多 5 張（opt.bao.2）")
        rf = self.robbed_flower
        if rf is not None:
            if type(rf) is not int or not FLOWER_BASE <= rf < FLOWER_BASE + 8:
                raise ContextError(f"robbed_flower must be a flower 34–41, got {rf!r}", field="robbed_flower",
                                   reason_zh="被搶的花須為花牌")
            if not seven:
                raise ContextError("robbed_flower is only for 七搶一 (tai.30)", field="robbed_flower",
                                   reason_zh="只有七搶一才有被搶的花")
        elif flower_win is SEVEN_ROB_ONE_DRAWN_FLOWER_WIN and source is FLOWER_REPLACEMENT_WIN_SOURCE:
            raise ContextError(
                "七搶一 →2 won on the replacement tile: name robbed_flower, the face is counted without it (tai.30.2)",
                field="robbed_flower", reason_zh="七搶一（→2）補牌成胡時須指明被搶的花：牌面不含搶得之花牌（tai.30.2）",
            )
        for t in bao:
            if type(t) is not int or not 0 <= t < KINDS:
                raise ContextError(f"寶牌 must be tiles 0–33, got {t!r}", field="bao", reason_zh="寶牌須為 0–33 的牌")
        rk = self.replaced_kong
        if rk is not None:
            if type(rk) is not MeldKind or rk < MELDED_KONG_MELD:
                raise ContextError(f"replaced_kong must be a kong kind (melded, added, concealed), got {rk!r}",
                                   field="replaced_kong", reason_zh=f"replaced_kong 須為明槓、加槓或暗槓，收到 {rk!r}")
            if source is not KONG_REPLACEMENT_WIN_SOURCE:
                raise ContextError(f"replaced_kong is only for a win on a kong's replacement, not on {source.value}",
                                   field="replaced_kong", reason_zh="只有槓上補牌胡才須指明所槓的槓")
        liable = self.liable
        if liable is not None:
            _seat(liable, "liable")
            if liable == winner:
                raise ContextError("the liable seat (包牌) cannot be the winner", field="liable",
                                   reason_zh="包牌者不能是胡牌者本人")

    @classmethod
    def _of(cls, winner: int, dealer: int, round_wind: Wind, source: WinSource, winning_tile: int | None,
            discarder: int | None, wall_break: int | None, streak: int, streak_marker: int | None,
            flower_win: FlowerWin, dealt_flower_win: bool, readiness: Readiness, first_turn: FirstTurn,
            bao: tuple[int, ...], robbed_flower: int | None, replaced_kong: MeldKind | None = None,
            liable: int | None = None) -> WinContext:
        """``WinContext(…)`` with every field given, in order, and checked the same way
        (:meth:`__post_init__`): the referee's path (:mod:`referee.outcome`), its slots
        filled through :func:`slot_setters` at about half the cost."""
        ctx = _new(cls)
        _SET_WINNER(ctx, winner)
        _SET_DEALER(ctx, dealer)
        _SET_ROUND_WIND(ctx, round_wind)
        _SET_SOURCE(ctx, source)
        _SET_WINNING_TILE(ctx, winning_tile)
        _SET_DISCARDER(ctx, discarder)
        _SET_WALL_BREAK(ctx, wall_break)
        _SET_STREAK(ctx, streak)
        _SET_STREAK_MARKER(ctx, streak_marker)
        _SET_FLOWER_WIN(ctx, flower_win)
        _SET_DEALT_FLOWER_WIN(ctx, dealt_flower_win)
        _SET_READINESS(ctx, readiness)
        _SET_FIRST_TURN(ctx, first_turn)
        _SET_BAO(ctx, bao)
        _SET_ROBBED_FLOWER(ctx, robbed_flower)
        _SET_REPLACED_KONG(ctx, replaced_kong)
        _SET_LIABLE(ctx, liable)
        ctx.__post_init__()
        return ctx

    @property
    def east(self) -> int:
        """The seat that is East this hand (開門位, ``deal.wall``)."""
        return self.dealer if self.wall_break is None else self.wall_break

    @property
    def seat_wind(self) -> Wind:
        """The winner's seat wind (門風), counted from :attr:`east`."""
        return Wind((self.winner - self.east) % 4)

    def wind_of(self, seat: int) -> Wind:
        """Any seat's wind this hand."""
        return Wind((seat - self.east) % 4)

    @property
    def self_drawn(self) -> bool:
        """The winning tile was drawn by the winner (wall, replacement, last tile)."""
        return self.source.is_self_draw

    def describe(self) -> str:
        """One line for logs and errors."""
        tile = "-" if self.winning_tile is None else tile_name(self.winning_tile)
        return f"winner {self.winner} dealer {self.dealer} {self.source.value} {tile}"


def slot_setters(cls: type) -> tuple:
    """The ``__set__`` of each field's slot of a frozen, slotted dataclass, in field order.

    A new instance filled through them (``object.__new__(cls)`` first) costs about half
    what the dataclass ``__init__`` costs, which calls ``object.__setattr__`` per field;
    the caller runs ``__post_init__`` itself when the class has one.
    """
    return tuple(cls.__dict__[f.name].__set__ for f in fields(cls))


_new = object.__new__
(_SET_WINNER, _SET_DEALER, _SET_ROUND_WIND, _SET_SOURCE, _SET_WINNING_TILE, _SET_DISCARDER, _SET_WALL_BREAK,
 _SET_STREAK, _SET_STREAK_MARKER, _SET_FLOWER_WIN, _SET_DEALT_FLOWER_WIN, _SET_READINESS, _SET_FIRST_TURN, _SET_BAO,
 _SET_ROBBED_FLOWER, _SET_REPLACED_KONG, _SET_LIABLE) = slot_setters(WinContext)


@dataclass(frozen=True, slots=True)
class Stakes:
    """Settlement stakes (``settle.formula``): ``base`` (底) and ``per_tai`` (per 台).

    ``100/20`` is ``Stakes(100, 20)`` (``app.example``).
    """

    base: int = 100
    per_tai: int = 20

    def __post_init__(self) -> None:
        for name in ("base", "per_tai"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ContextError(f"{name} must be a whole number ≥ 0, got {value!r}", field=f"stakes.{name}",
                                   reason_zh=f"{name} 須為 0 以上的整數")


__all__ = ["ContextError", "NotWinningError", "FirstTurn", "FlowerWin", "Readiness", "Stakes", "WinContext",
           "WinSource"]

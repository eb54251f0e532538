"""The referee's enums, in one module that imports nothing of the referee (issue #19 item 3).

Winds and suits, meld and group kinds, wait shapes, event types and the table's modes,
calls and readiness declarations, the hand's phase and what a turn took in, verdict
statuses, how a hand ended, how a winning tile came: one leaf module, so that
:mod:`referee.kinds_fast` (the members the hot paths read as module globals, and why) can
sit beside it without an import cycle. Each enum is still imported from the module that
defined it before (``referee.state.Phase``, ``referee.melds.MeldKind``,
``referee.scoring.WinSource`` …), which re-exports it.
"""
from __future__ import annotations

from enum import Enum, IntEnum


# Suit, Wind: re-exported by ``referee.tiles``
class Suit(IntEnum):
    """The three suits and the honours; ``tile // 9`` for suited tiles."""

    CHARACTERS = 0  # 萬 m
    DOTS = 1  # 筒 p
    BAMBOO = 2  # 條 s
    HONOURS = 3  # 字 z
    FLOWERS = 4  # 花 f

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


class Wind(IntEnum):
    """Seat and round winds, in counterclockwise seat order (東 南 西 北)."""

    EAST = 0
    SOUTH = 1
    WEST = 2
    NORTH = 3

    def __repr__(self) -> str:
        return f"Wind.{self.name}"

    @property
    def tile(self) -> int:
        """The wind's honour tile (東 = 27 …)."""
        return 27 + self.value

    @property
    def zh(self) -> str:
        return "東南西北"[self.value]


# MeldKind, GroupKind: re-exported by ``referee.melds``
class MeldKind(IntEnum):
    """The kinds of exposed set (GLOSSARY: chow, pung, melded / added / concealed kong)."""

    CHOW = 0  # 吃
    PUNG = 1  # 碰
    MELDED_KONG = 2  # 明槓 (碰槓): fourth tile from a discard
    ADDED_KONG = 3  # 加槓: fourth tile added onto an exposed pung
    CONCEALED_KONG = 4  # 暗槓: four of one's own

    def __repr__(self) -> str:
        return f"MeldKind.{self.name}"

    @property
    def is_kong(self) -> bool:
        return self >= MeldKind.MELDED_KONG

    @property
    def zh(self) -> str:
        return ("吃", "碰", "明槓", "加槓", "暗槓")[self]


class GroupKind(IntEnum):
    """The sets of a decomposition of concealed tiles."""

    CHOW = 0  # 順子
    PUNG = 1  # 刻子 (坎子)
    PAIR = 2  # 將眼

    def __repr__(self) -> str:
        return f"GroupKind.{self.name}"


# WaitShape: re-exported by ``referee.tables``
class WaitShape(IntEnum):
    """How a waiting tile completes the hand (tai.11 names 中洞, 邊張, 單吊 as 獨聽 shapes)."""

    TWO_SIDED = 0  # 兩面
    EDGE = 1  # 邊張 (站壁)
    CLOSED = 2  # 中洞 (卡張)
    SINGLE = 3  # 單吊 (單釣)
    DOUBLE_PUNG = 4  # 雙碰

    def __repr__(self) -> str:
        return f"WaitShape.{self.name}"

    @property
    def zh(self) -> str:
        return ("兩面", "邊張", "中洞", "單吊", "雙碰")[self]


# EventType, Mode, Call, ReadyKind: re-exported by ``referee.events``
class EventType(IntEnum):
    """What happened (the protocol's ``type``); values index the referee's dispatch table."""

    HAND_START = 0  # hand_start: table, mode, ruleset, dealer, round wind, streak
    SEAT_DICE = 1  # seat_dice: 搬風 dice (seat.banfeng, seat.dice.*)
    DEALER_DICE = 2  # dealer_dice: 定莊 dice (seat.dealer)
    BREAK_DICE = 3  # break_dice: 開門 dice thrown by the dealer (deal.wall, deal.break)
    WALL = 4  # wall: the 144 tiles (136 without flowers) as built (deal.walls); digital tables
    DEAL = 5  # deal: a take of tiles while dealing (deal.wall: 4 at a time, then 門牌)
    FLOWER = 6  # flower: flowers laid out (deal.flowers, app.flowers.*)
    DRAW = 7  # draw: a tile from the wall (play.draw)
    TAIL_DRAW = 8  # tail_draw: a replacement from the tail (槓尾) after a flower or kong
    DISCARD = 9  # discard (play.discard)
    CHOW = 10  # chow: 吃 (play.chi)
    PUNG = 11  # pung: 碰 (play.pon)
    KONG = 12  # kong: melded / added / concealed (play.kong.*)
    READY = 13  # ready: 天聽 / 地聽 / 宣告聽牌 (tai.31, tai.32, app.ready)
    WIN = 14  # win: a win declared (play.win, app.win-ways)
    PASS = 15  # pass: declines a claim
    SKIP_LAST_TILE = 16  # skip_last_tile: leaves the 海底 tile undrawn (tai.25)
    CALL = 17  # call: a call (碰 吃 槓 胡) as a gesture (prio.*, pen.unfulfilled-call)
    TOUCH_WALL = 18  # touch_wall: a hand reaching to the wall (play.passed-win, play.intercept)
    PLACE = 19  # place: the drawn tile placed into the hand (靠張, tai.23, tai.31)
    REVEAL = 20  # reveal: concealed tiles shown or said aloud (play.restrict.8)
    REPORT = 21  # report: an official's report of what the stream cannot show (pen.*)
    HAND_END = 22  # hand_end: the table closes the hand

    def __repr__(self) -> str:
        return f"EventType.{self.name}"

    @property
    def wire(self) -> str:
        """The protocol's name: ``"tail_draw"``."""
        return self.name.lower()

    @property
    def zh(self) -> str:
        return _TYPE_ZH[self]


_TYPE_ZH = dict(zip(EventType, (
    "開局", "搬風骰", "定莊骰", "開門骰", "牌牆", "配牌", "補花", "摸牌", "槓尾補牌", "捨牌", "吃", "碰", "槓",
    "宣告聽牌", "胡牌", "不要", "海底棄摸", "喊牌", "伸手摸牌", "靠張", "亮牌", "裁判報告", "結束",
)))


class Mode(Enum):
    """How much the table knows (chosen per table)."""

    #: the wall order and every tile are known; every draw is checked against the wall
    DIGITAL = "digital"
    #: a scorer or sensors record what is public or revealed; concealed tiles may be unknown
    PHYSICAL = "physical"

    def __repr__(self) -> str:
        return f"Mode.{self.name}"


class Call(Enum):
    """What a call announces (``call`` events): the gesture behind ``prio.*``."""

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    WIN = "win"

    def __repr__(self) -> str:
        return f"Call.{self.name}"


class ReadyKind(Enum):
    """A readiness declaration (``ready`` events)."""

    #: 天聽 (tai.31, app.heavenly-ready)
    HEAVENLY = "heavenly"
    #: 地聽 (tai.32, app.heavenly-ready)
    EARTHLY = "earthly"
    #: 宣告聽牌 (app.ready, opt.declare-ready)
    DECLARED = "declared"

    def __repr__(self) -> str:
        return f"ReadyKind.{self.name}"


# Phase, Intake, Source, WindowKind: re-exported by ``referee.state``
class Phase(IntEnum):
    """Where the hand is."""

    SETUP = 0  # hand_start seen: dice, wall
    DEAL = 1  # dealing (deal.wall)
    FLOWERS = 2  # the replacement rounds after the deal (deal.flowers)
    PLAY = 3  # turns, claims
    ENDED = 4  # won, exhausted, or void

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Intake(IntEnum):
    """How the current turn took its tile in (``play.restrict``: one kind per turn)."""

    NONE = 0  # nothing yet: the turn's player has to take a tile
    DEALT = 1  # the dealer's first turn: the dealt 17 (the 門牌 counts as the first draw)
    DRAW = 2  # 摸牌
    CHOW = 3  # 吃
    PUNG = 4  # 碰
    MELDED_KONG = 5  # 碰槓 (明槓 on a discard)

    def __repr__(self) -> str:
        return f"Intake.{self.name}"

    @property
    def zh(self) -> str:
        return ("未進牌", "配牌", "摸牌", "吃牌", "碰牌", "碰槓")[self]


class Source(IntEnum):
    """Where the last tile taken into the turn's hand came from (for self-draw wins)."""

    DEALT = 0
    WALL = 1
    LAST_TILE = 2  # 海底
    KONG = 3  # concealed or added kong's replacement (槓上開花)
    MELDED_KONG = 4  # a melded kong's replacement (play.restrict.2)
    FLOWER = 5  # a flower's replacement

    def __repr__(self) -> str:
        return f"Source.{self.name}"


class WindowKind(IntEnum):
    """What others may claim right now."""

    DISCARD = 0  # a discard: win, pung, kong, chow
    ADDED_KONG = 1  # an added kong's tile: robbing (搶槓)
    CONCEALED_KONG = 2  # a concealed kong, when the ruleset lets it be robbed
    FLOWER = 3  # the eighth flower laid out: 七搶一 (tai.30.1)

    def __repr__(self) -> str:
        return f"WindowKind.{self.name}"


# Status: re-exported by ``referee.verdicts``
class Status(Enum):
    """What became of an event."""

    #: legal; applied
    ACCEPTED = "accepted"
    #: illegal at a digital table: refused, nothing changed
    REJECTED = "rejected"
    #: illegal or irregular, and it happened (physical table, or a fact such as a call
    #: not completed): applied as far as the tiles allow, for penalties to rule on
    IRREGULAR = "irregular"

    def __repr__(self) -> str:
        return f"Status.{self.name}"


# OutcomeKind: re-exported by ``referee.outcome``
class OutcomeKind(Enum):
    """How the hand ended."""

    #: one or more wins, scored and settled
    WIN = "win"
    #: 荒局: the wall ran down to the dead wall with no win (play.exhausted)
    EXHAUSTIVE_DRAW = "exhaustive_draw"
    #: the hand did not finish (the stream stopped): replayed with the same dealer and streak
    VOID = "void"
    #: a physical table's hand knocked down by a false win (詐胡) or like irregularity
    ENDED_BY_IRREGULARITY = "ended_by_irregularity"

    def __repr__(self) -> str:
        return f"OutcomeKind.{self.name}"


# WinSource, FlowerWin, Readiness, FirstTurn: re-exported by ``referee.scoring.context``
class WinSource(Enum):
    """How the winning tile came (``tai.23``–``tai.25``, ``tai.12``, ``tai.27``, ``app.win-ways``)."""

    #: 自摸: drawn from the wall in a normal turn (``tai.23``)
    WALL = "wall"
    #: 槓上開花: the replacement tile after a concealed or added kong (``tai.24``)
    KONG_REPLACEMENT = "kong_replacement"
    #: 槓上開花 on a flower's replacement tile (``tai.24``, ``app.flowers.play``)
    FLOWER_REPLACEMENT = "flower_replacement"
    #: 海底撈月: the last drawable tile (``tai.25``, ``app.last-tile``)
    LAST_TILE = "last_tile"
    #: 胡銃: another player's discard (``play.deal-in``)
    DISCARD = "discard"
    #: 河底撈魚: the discard made after drawing the last tile (``app.last-tile``)
    LAST_DISCARD = "last_discard"
    #: 搶槓: the tile another player added to an exposed pung (``tai.12``, ``app.rob-kong``)
    ROBBING_KONG = "robbing_kong"
    #: 花胡 without a winning hand: the hand is not shown (``tai.27``–``tai.30``);
    #: ``flower_win`` says which
    FLOWER_WIN = "flower_win"

    @property
    def is_self_draw(self) -> bool:
        """The winner drew the tile himself: 自摸 and its kin (not 搶槓, not a discard)."""
        return self in _SELF_DRAWN

    @property
    def zh(self) -> str:
        return _SOURCE_ZH[self._value_]  # by value: a member's own hash is a Python call (Enum.__hash__)


_SELF_DRAWN = frozenset({WinSource.WALL, WinSource.KONG_REPLACEMENT, WinSource.FLOWER_REPLACEMENT, WinSource.LAST_TILE})


_SOURCE_ZH = {
    WinSource.WALL.value: "自摸",
    WinSource.KONG_REPLACEMENT.value: "槓上補牌",
    WinSource.FLOWER_REPLACEMENT.value: "補花補牌",
    WinSource.LAST_TILE.value: "海底牌",
    WinSource.DISCARD.value: "胡銃",
    WinSource.LAST_DISCARD.value: "河底牌",
    WinSource.ROBBING_KONG.value: "搶槓",
    WinSource.FLOWER_WIN.value: "花胡",
}


class FlowerWin(Enum):
    """Which flower win (花胡, ``tai.27``), if any."""

    NONE = "none"
    #: 八仙過海: all eight flowers; the three others pay (``tai.29``, ``app.flower-win``)
    EIGHT_FLOWERS = "eight_flowers"
    #: 七搶一 →1: holding seven, robbed the eighth another player drew; that player
    #: pays as if he had dealt in (``tai.30.1``, ``app.seven-rob-one``)
    SEVEN_ROB_ONE = "seven_rob_one"
    #: 七搶一 →2: holding six, drew the seventh and robbed the one another player held;
    #: the robbed player pays the 8 台 (``tai.30.2``)
    SEVEN_ROB_ONE_DRAWN = "seven_rob_one_drawn"


class Readiness(Enum):
    """Declared readiness (``tai.31``, ``tai.32``, ``app.ready``, ``opt.declare-ready``).

    The referee clears it when the declaration lapsed (換牌, 靠張, 過水 found later).
    """

    NONE = "none"
    #: 宣告聽牌: the app's declared ready hand (1 台, ``app.ready``, ``opt.declare-ready``)
    DECLARED = "declared"
    #: 地聽: declared on the first discard (``tai.32``)
    EARTHLY = "earthly"
    #: 天聽: a non-dealer declared right after the deal (``tai.31``)
    HEAVENLY = "heavenly"


class FirstTurn(Enum):
    """First-turn wins (``tai.33``–``tai.35``)."""

    NONE = "none"
    #: 天胡: the dealer wins on the dealt hand (``tai.33``)
    HEAVENLY_WIN = "heavenly_win"
    #: 地胡: a non-dealer wins on the first go-around (``tai.34``)
    EARTHLY_WIN = "earthly_win"
    #: 人胡: won on the first tile after declaring 地聽 (``tai.35``)
    HUMAN_WIN = "human_win"


__all__ = ["Call", "EventType", "FirstTurn", "FlowerWin", "GroupKind", "Intake", "MeldKind", "Mode", "OutcomeKind",
           "Phase", "ReadyKind", "Readiness", "Source", "Status", "Suit", "WaitShape", "Wind", "WindowKind",
           "WinSource"]

"""The scoring patterns (計台名堂 ``tai.01``–``tai.36`` and the app's), one function each.

A pattern function reads :class:`~referee.scoring.facts.Facts` and returns how many
times it applies (0 = not at all): 1 for most, the number of dragon pungs for 箭字刻,
N for 連N拉N, the flowers for 見花見台. Its 台 are that count times the ruleset's
``tai.<param>``; which patterns exclude which is ruleset data (``tai.exclusions``),
applied by :mod:`referee.scoring.table`, never here.

Every docstring starts ``<zh-TW name> · <clause id> · <English name>``: the registry
reads the names from there, so the docstring is the single source.

Patterns marked ``reading=True`` depend on the decomposition and are evaluated for
each reading; the others once per hand. ``shown=False`` marks the patterns that also
score a flower win whose hand is not shown (``tai.29``: 手牌未胡毋須翻開).
``scope="dealer"`` marks 作莊 and 連N拉N: they are paid only between the dealer and
his counterpart (``settle.formula``), never part of the face (``score.face``).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..kinds_fast import (
    DECLARED_READINESS, DISCARD_WIN_SOURCE, EARTHLY_READINESS, EARTHLY_WIN_FIRST_TURN, EIGHT_FLOWERS_FLOWER_WIN,
    FLOWER_REPLACEMENT_WIN_SOURCE, HEAVENLY_READINESS, HEAVENLY_WIN_FIRST_TURN, HUMAN_WIN_FIRST_TURN,
    KONG_REPLACEMENT_WIN_SOURCE, LAST_DISCARD_WIN_SOURCE, LAST_TILE_WIN_SOURCE, NONE_FIRST_TURN, NONE_FLOWER_WIN,
    NONE_READINESS, ROBBING_KONG_WIN_SOURCE, SEVEN_ROB_ONE_DRAWN_FLOWER_WIN, SEVEN_ROB_ONE_FLOWER_WIN, WALL_WIN_SOURCE,
)
from .facts import CHOWS_FLOWERS, CHOWS_HONOURS, CHOWS_NOT_CONCEALED, CHOWS_SELF_DRAW, CHOWS_TWO_SIDED, Facts


@dataclass(frozen=True, slots=True)
class Pattern:
    """A registered pattern: ``code`` is unique; ``param`` names its ``tai.<param>``
    (the two 正花 and two 花槓 patterns, one per flower group, share one)."""

    code: str
    param: str
    zh: str
    clause: str
    en: str
    fn: Callable[[Facts], int]
    reading: bool = False
    shown: bool = True
    scope: str = "face"
    flower_group: int | None = None
    family: str = "always"


PATTERNS: list[Pattern] = []


def pattern(param: str | None = None, *, family: str = "always", reading: bool = False, shown: bool = True,
            scope: str = "face", flower_group: int | None = None):
    """Register a pattern function; its names and clause come from its docstring.

    *family* names how the scorer calls it (:data:`FAMILIES`): a hand without honours
    never calls the wind and dragon patterns.
    """

    def register(fn: Callable[[Facts], int]) -> Callable[[Facts], int]:
        head = (fn.__doc__ or "").strip().splitlines()[0]
        zh, clause, en = (part.strip() for part in head.split(" · "))
        PATTERNS.append(Pattern(fn.__name__, param or fn.__name__, zh, clause, en, fn, reading, shown, scope,
                                flower_group, family))
        return fn

    return register


# ---- winds and dragons --------------------------------------------------------------


@pattern(family="honours")
def seat_wind_pung(f: Facts) -> int:
    """風字刻（合開門序） · tai.01 · seat wind pung

    A pung or kong of the winner's seat wind, counted from the wall-break seat
    (``deal.wall``).
    """
    return (f.wind_pungs >> f.seat_wind) & 1


@pattern(family="honours")
def round_wind_pung(f: Facts) -> int:
    """風字刻（合圈序） · tai.01 · round wind pung

    A pung or kong of the round wind: 合圈序加1台 (on top of the seat wind when both).
    """
    return (f.wind_pungs >> f.round_wind) & 1


@pattern(family="honours")
def dragon_pung(f: Facts) -> int:
    """箭字刻 · tai.02 · dragon pung

    Each pung or kong of 中 發 白 (各計1台). Dragons are never the round wind.
    """
    return f.dragon_pungs


# ---- claims -------------------------------------------------------------------------


@pattern()
def concealed_hand(f: Facts) -> int:
    """門清 · tai.03 · concealed hand

    No chow, pung or melded/added kong before the win; concealed kongs allowed.
    """
    return f.n_claimed == 0


@pattern()
def no_claims_self_draw(f: Facts) -> int:
    """不求 · tai.04 · no claims, self-drawn

    Concealed and self-drawn: 不求 1 on top of 自摸 1 (``tai.23``) and 門清 1, the
    門清一摸三 of ``app.menqing-zimo`` (門清自摸, ``settle.menqing-zimo``).
    """
    return f.n_claimed == 0 and f.self_drawn


@pattern(family="five_melds")
def all_claimed(f: Facts) -> int:
    """全求 · tai.05 · all claimed

    Every set claimed and exposed (no concealed kong), one tile left, won on another
    player's tile (a discard, the last discard, a robbed kong).
    """
    return f.n_claimed == 5 and not f.self_drawn


@pattern(family="five_melds")
def half_claimed(f: Facts) -> int:
    """半求 · tai.06 · half claimed

    One concealed tile left (five melds, at least one claimed) and self-drawn.
    """
    return f.n_melds == 5 and f.n_claimed > 0 and f.self_drawn


@pattern(family="chows5", reading=True)
def all_chows(f: Facts) -> int:
    """平胡 · tai.07 · all chows

    Five chows and a pair; no flowers, no honours, no pungs; not a single wait, not
    self-drawn. 門清 adds on top (允許門清加1台). Flowers held make it fail (無花).
    Tables differ (``scoring.all_chows_*``): concealed required or forbidden, honours,
    flowers or a self-draw allowed, a two-sided wait (聽雙頭) required.
    """
    opts = f.all_chows_opts
    if f.chows != 5 or f.n_waits < 2 or (f.all_chows_concealed and f.n_claimed):
        return False
    if not opts:
        return not f.flowers and not f.suits & 8 and not f.self_drawn
    return (
        (not f.flowers or opts & CHOWS_FLOWERS) and (not f.suits & 8 or opts & CHOWS_HONOURS)
        and (not f.self_drawn or opts & CHOWS_SELF_DRAW) and not (opts & CHOWS_NOT_CONCEALED and not f.n_claimed)
        and (not opts & CHOWS_TWO_SIDED or f.two_sided)
    )


@pattern(family="no_chows", reading=True)
def all_pungs(f: Facts) -> int:
    """對對胡 · tai.08 · all pungs

    Every set a pung or kong (除將牌外全為刻子).
    """
    return f.chows == 0 and not f.ligu


# ---- dealer -------------------------------------------------------------------------


@pattern(scope="dealer", shown=False)
def dealer(f: Facts) -> int:
    """作莊 · tai.09 · dealer

    The dealer won or pays (胡放皆加計1台): paid between the dealer and each
    counterpart only (``settle.formula``).
    """
    ctx = f.ctx
    return f.all_pay or ctx.winner == ctx.dealer or ctx.discarder == ctx.dealer


@pattern(scope="dealer", shown=False)
def streak_per_n(f: Facts) -> int:
    """連N拉N · tai.10 · streak

    N per dealer repeat (連N拉N 2N台), between the dealer and each counterpart only;
    the count is the real N (the marker is applied in settlement, ``score.streak-marker``).
    """
    ctx = f.ctx
    if f.all_pay or ctx.winner == ctx.dealer or ctx.discarder == ctx.dealer:
        return ctx.streak
    return 0


# ---- the winning tile ---------------------------------------------------------------


@pattern()
def single_wait(f: Facts) -> int:
    """獨聽 · tai.11 · single wait

    The hand waited on exactly one tile (中洞, 站壁, 單釣); two waiting tiles are never
    獨聽, whatever the shape.
    """
    return f.n_waits == 1


@pattern(family="source")
def robbing_kong(f: Facts) -> int:
    """搶槓 · tai.12 · robbing a kong

    Won on the tile another player added to his exposed pung.
    """
    return f.source is ROBBING_KONG_WIN_SOURCE


# ---- suits --------------------------------------------------------------------------


@pattern(family="honours")
def all_honours(f: Facts) -> int:
    """字一色 · tai.13 · all honours

    Every tile an honour.
    """
    return f.suits == 8


@pattern()
def full_flush(f: Facts) -> int:
    """清一色 · tai.14 · full flush

    One suit only, no honours.
    """
    return f.suits in (1, 2, 4)


@pattern()
def half_flush(f: Facts) -> int:
    """湊一色 · tai.15 · half flush

    One suit and honours (除字牌外全為一種花色; a hand without honours is 清一色).
    """
    return f.suits in (9, 10, 12)


# ---- concealed pungs ----------------------------------------------------------------


@pattern(family="pungs3", reading=True)
def three_concealed_pungs(f: Facts) -> int:
    """三暗刻 · tai.16 · three concealed pungs

    Three or more pungs dealt or drawn (concealed kongs count; a pung completed by a
    discard does not). More are excluded by ``tai.exclusions``.
    """
    return f.concealed_pungs >= 3


@pattern(family="pungs3", reading=True)
def four_concealed_pungs(f: Facts) -> int:
    """四暗刻 · tai.17 · four concealed pungs

    Four or more pungs dealt or drawn (concealed kongs count).
    """
    return f.concealed_pungs >= 4


@pattern(family="pungs3", reading=True)
def five_concealed_pungs(f: Facts) -> int:
    """五暗刻 · tai.18 · five concealed pungs

    Five pungs dealt or drawn (concealed kongs count); 13 台 in copy 002 (``tai.18.alt``).
    """
    return f.concealed_pungs >= 5


# ---- big honour hands ---------------------------------------------------------------


@pattern(family="honours")
def big_four_winds(f: Facts) -> int:
    """大四喜 · tai.19 · big four winds

    Pungs or kongs of all four winds.
    """
    return f.wind_pungs == 15


@pattern(family="honours")
def small_four_winds(f: Facts) -> int:
    """小四喜 · tai.20 · small four winds

    Three wind pungs and a wind pair; round and seat wind still count (不必然並存).
    """
    return f.wind_pungs in (7, 11, 13, 14) and f.wind_pair


@pattern(family="honours")
def big_three_dragons(f: Facts) -> int:
    """大三元 · tai.21 · big three dragons

    Pungs or kongs of 中 發 白.
    """
    return f.dragon_pungs == 3


@pattern(family="honours")
def small_three_dragons(f: Facts) -> int:
    """小三元 · tai.22 · small three dragons

    Two dragon pungs and a dragon pair.
    """
    return f.dragon_pungs == 2 and f.dragon_pair


# ---- how it was won -----------------------------------------------------------------


@pattern()
def self_draw(f: Facts) -> int:
    """自摸 · tai.23 · self-draw

    The winning tile drawn by the winner: from the wall, a replacement, the last tile.
    """
    return f.self_drawn


@pattern(family="source")
def kong_replacement_win(f: Facts) -> int:
    """槓上開花 · tai.24 · kong replacement win

    Won on a replacement tile from the tail, after a kong or a flower
    (``app.flowers.play``); 自摸 counts too.
    """
    return f.source is KONG_REPLACEMENT_WIN_SOURCE or f.source is FLOWER_REPLACEMENT_WIN_SOURCE


@pattern(family="source")
def last_tile_self_draw(f: Facts) -> int:
    """海底撈月 · tai.25 · last tile self-draw

    Self-drawn on the last drawable tile; 自摸 counts too.
    """
    return f.source is LAST_TILE_WIN_SOURCE


@pattern(family="source")
def last_discard_win(f: Facts) -> int:
    """河底撈魚 · app.last-tile · last discard win

    Won on the discard made after the last tile was drawn (the app's 1 台).
    """
    return f.source is LAST_DISCARD_WIN_SOURCE


# ---- flowers ------------------------------------------------------------------------


@pattern("own_flower", family="flowers", shown=False, flower_group=0)
def own_flower_seasons(f: Facts) -> int:
    """正花（春夏秋冬） · tai.26 · own flower (seasons)

    The season numbered for the winner's seat (合開門序1台).
    """
    return f.own_flowers[0]


@pattern("own_flower", family="flowers", shown=False, flower_group=1)
def own_flower_plants(f: Facts) -> int:
    """正花（梅蘭菊竹） · tai.26 · own flower (plants)

    The plant numbered for the winner's seat (``flowers.numbering``: 菊 3 or 竹 3).
    """
    return f.own_flowers[1]


@pattern("flower_set", family="flowers", shown=False, flower_group=0)
def flower_set_seasons(f: Facts) -> int:
    """花槓（春夏秋冬） · tai.26 · flower set (seasons)

    All four seasons (持同色花槓改計2台; ``app.flower-kong``: not a kong).
    """
    return f.group_sizes[0] == 4


@pattern("flower_set", family="flowers", shown=False, flower_group=1)
def flower_set_plants(f: Facts) -> int:
    """花槓（梅蘭菊竹） · tai.26 · flower set (plants)

    All four plants.
    """
    return f.group_sizes[1] == 4


@pattern(family="flowers", shown=False)
def all_flowers(f: Facts) -> int:
    """滿花 · tai.26 · all flowers

    All eight flowers held at a win (持滿花改計8台; ``tai.27``: still 8 if the flower win
    was not taken at once).
    """
    return len(f.flowers) == 8


@pattern(family="flower_win", shown=False)
def eight_flowers(f: Facts) -> int:
    """八仙過海 · tai.29 · eight flowers

    The flower win on all eight flowers; the three others pay.
    """
    return f.ctx.flower_win is EIGHT_FLOWERS_FLOWER_WIN


@pattern(family="flower_win", shown=False)
def seven_rob_one(f: Facts) -> int:
    """七搶一 · tai.30 · seven rob one

    The flower win robbing another player's flower to make eight; the robbed player
    pays (``tai.30.1``, ``tai.30.2``).
    """
    return f.ctx.flower_win is SEVEN_ROB_ONE_FLOWER_WIN or f.ctx.flower_win is SEVEN_ROB_ONE_DRAWN_FLOWER_WIN


@pattern(family="flower_win", shown=False)
def dealt_flower_win(f: Facts) -> int:
    """配牌花胡 · tai.28 · dealt flower win

    The flower win came with the dealt tiles (the app adds 4 台, ``app.flower-win``).
    """
    return f.ctx.dealt_flower_win


# ---- declared readiness and first-turn wins -----------------------------------------


@pattern(family="readiness")
def heavenly_ready(f: Facts) -> int:
    """天聽 · tai.31 · heavenly ready

    Ready on the dealt tiles and declared; still valid at the win.
    """
    return f.ctx.readiness is HEAVENLY_READINESS


@pattern(family="readiness")
def earthly_ready(f: Facts) -> int:
    """地聽 · tai.32 · earthly ready

    Ready declared with the first discard; 4 台 in copy 002 (``tai.32.alt``).
    """
    return f.ctx.readiness is EARTHLY_READINESS


@pattern(family="first_turn")
def heavenly_win(f: Facts) -> int:
    """天胡 · tai.33 · heavenly win

    The dealer wins on the dealt hand after flower replacement.
    """
    return f.ctx.first_turn is HEAVENLY_WIN_FIRST_TURN


@pattern(family="first_turn")
def earthly_win(f: Facts) -> int:
    """地胡 · tai.34 · earthly win

    A non-dealer self-draws his first tile after 天聽, or wins on a player's first discard.
    """
    return f.ctx.first_turn is EARTHLY_WIN_FIRST_TURN


@pattern(family="first_turn")
def human_win(f: Facts) -> int:
    """人胡 · tai.35 · human win

    After declaring 地聽, won on the first discard after it or on the next tile drawn.
    """
    return f.ctx.first_turn is HUMAN_WIN_FIRST_TURN


@pattern(family="ligu", reading=True)
def ligu(f: Facts) -> int:
    """嚦咕嚦咕 · tai.36 · seven pairs and a pung

    Seven pairs and a pung, concealed (選用: ``hands.ligu``); a valued honour pung,
    湊一色 and 清一色 add on top.
    """
    return f.ligu


@pattern(family="readiness")
def declared_ready(f: Facts) -> int:
    """宣告聽牌 · opt.declare-ready · declared ready

    Won after declaring ready (the app's 1 台, ``app.ready``).
    """
    return f.ctx.readiness is DECLARED_READINESS


# ---- options ------------------------------------------------------------------------


@pattern(family="bao")
def bao(f: Facts) -> int:
    """寶牌 · opt.bao.1 · bao tiles

    One per tile of the hand matching a 寶牌, once per indicator (``opt.bao.3``: 1 五萬
    and 3 白板 with 五萬 once and 白板 twice as 寶牌 make 7).
    """
    return f.bao_count


@pattern(family="see_flower")
def see_flower_see_tai(f: Facts) -> int:
    """見花見台 · app.replaces.19 · every flower

    The 見花見字 variant: one for every flower held, whatever the seat (replaces 正花).
    """
    return len(f.flowers)


@pattern(family="honours")
def see_wind_see_tai(f: Facts) -> int:
    """見風見台 · app.replaces.19 · every wind pung

    The 見花見字 variant: one for every wind pung or kong, whatever the round and seat
    (replaces 圈風, 門風); a switch apart from 見花見台.
    """
    return _BITS[f.wind_pungs]


_BITS = tuple(bin(i).count("1") for i in range(16))


# ---- optional patterns (off by default) -------------------------------------------------


@pattern(family="no_flowers")
def no_flowers(f: Facts) -> int:
    """無花 · tai.26 · no flowers

    No flower held at the win (an optional pattern of some tables).
    """
    return not f.flowers


@pattern(family="no_flowers")
def no_honours_no_flowers(f: Facts) -> int:
    """無字無花 · tai.26 · no honours, no flowers

    Neither an honour nor a flower at the win (optional; replaces 無花).
    """
    return not f.flowers and not f.suits & 8


@pattern(family="kongs")
def melded_kong(f: Facts) -> int:
    """明槓 · play.kong.exposed · melded kong

    Each melded (碰槓) or added kong (optional 台 of some tables).
    """
    return f.n_open_kongs


@pattern(family="kongs")
def concealed_kong(f: Facts) -> int:
    """暗槓 · play.kong.concealed · concealed kong

    Each concealed kong (optional 台 of some tables).
    """
    return f.n_concealed_kongs


@pattern(family="kongs")
def four_kongs(f: Facts) -> int:
    """四槓子 · play.kong.exposed · four kongs

    Exactly four kongs of any kind (optional).
    """
    return f.n_open_kongs + f.n_concealed_kongs == 4


@pattern(family="kongs")
def five_kongs(f: Facts) -> int:
    """五槓子 · play.kong.exposed · five kongs

    All five sets kongs (optional).
    """
    return f.n_open_kongs + f.n_concealed_kongs == 5


@dataclass(frozen=True, slots=True)
class Family:
    """How the scorer calls a family of patterns.

    ``gate`` — a cheap precondition checked once before calling any pattern of the
    family (``None``: always open); it may be looser than its patterns, never stricter.
    ``key`` — when given, the family's result is memoised per ruleset on this int: it
    must encode every fact the family's patterns read (tests/test_scoring.py checks
    the memo against calling every pattern). ``rare`` — only looked at when the
    context has something unusual (``Facts.rare``).
    """

    gate: Callable[[Facts], object] | None = None
    key: Callable[[Facts], int] | None = None
    rare: bool = False


FAMILIES: dict[str, Family] = {
    "always": Family(key=lambda f: (f.n_claimed == 0) | f.self_drawn << 1 | (f.n_waits == 1) << 2 | f.suits << 3),
    "honours": Family(
        gate=lambda f: f.suits & 8,
        key=lambda f: (f.wind_pungs | f.wind_pair << 4 | f.dragon_pungs << 5 | f.dragon_pair << 7 | f.seat_wind << 8
                       | f.round_wind << 10 | (f.suits == 8) << 12),
    ),
    "five_melds": Family(gate=lambda f: f.n_melds == 5),
    "flowers": Family(
        gate=lambda f: f.flowers,
        key=lambda f: f.own_flowers[0] | f.own_flowers[1] << 3 | f.group_sizes[0] << 6 | f.group_sizes[1] << 9,
    ),
    "see_flower": Family(),
    "no_flowers": Family(gate=lambda f: not f.flowers),
    "kongs": Family(gate=lambda f: f.n_open_kongs or f.n_concealed_kongs),
    "source": Family(gate=lambda f: f.source is not WALL_WIN_SOURCE and f.source is not DISCARD_WIN_SOURCE, rare=True),
    "flower_win": Family(gate=lambda f: f.ctx.flower_win is not NONE_FLOWER_WIN, rare=True),
    "readiness": Family(gate=lambda f: f.ctx.readiness is not NONE_READINESS, rare=True),
    "first_turn": Family(gate=lambda f: f.ctx.first_turn is not NONE_FIRST_TURN, rare=True),
    "bao": Family(gate=lambda f: f.bao_count, rare=True),
    "chows5": Family(gate=lambda f: f.chows == 5),
    "no_chows": Family(gate=lambda f: f.chows == 0),
    "pungs3": Family(gate=lambda f: f.concealed_pungs >= 3),
    "ligu": Family(gate=lambda f: f.ligu),
}

#: pattern code → index in :data:`PATTERNS`
INDEX = {p.code: i for i, p in enumerate(PATTERNS)}
#: ruleset code (``tai.<param>``) → the pattern indexes it names
BY_PARAM: dict[str, tuple[int, ...]] = {}
for _i, _p in enumerate(PATTERNS):
    BY_PARAM[_p.param] = BY_PARAM.get(_p.param, ()) + (_i,)

__all__ = ["BY_PARAM", "FAMILIES", "INDEX", "PATTERNS", "Family", "Pattern", "pattern"]

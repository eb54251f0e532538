"""The facts patterns read: computed once per hand, then once per reading.

:class:`Facts` is one mutable, slotted object per scoring call. :func:`hand_facts`
fills the hand-level fields (melds, honours, suits, flowers, waits, how the tile came);
:func:`set_reading` overwrites the reading-level fields for each decomposition
(chows, concealed pungs, 嚦咕嚦咕). Honours never form chows, so honour pungs and
pairs do not depend on the reading.
"""
from __future__ import annotations

from ..hand import waits_keys
from ..kinds_fast import (
    CHOW_GROUP, CHOW_MELD, CONCEALED_KONG_MELD, DISCARD_WIN_SOURCE, FLOWER_REPLACEMENT_WIN_SOURCE,
    KONG_REPLACEMENT_WIN_SOURCE, LAST_TILE_WIN_SOURCE, MELDED_KONG_MELD, NONE_FIRST_TURN, NONE_FLOWER_WIN,
    NONE_READINESS, PUNG_GROUP, SEVEN_ROB_ONE_DRAWN_FLOWER_WIN, WALL_WIN_SOURCE,
)
from ..melds import Meld
from .context import WinContext


#: the sources where the winner drew the tile himself (a tuple: ``in`` compares enum members by
#: identity, a set would hash them in Python)
_SELF_DRAWN = (WALL_WIN_SOURCE, KONG_REPLACEMENT_WIN_SOURCE, FLOWER_REPLACEMENT_WIN_SOURCE, LAST_TILE_WIN_SOURCE)


class Facts:
    """What the patterns of :mod:`referee.scoring.patterns` look at.

    Hand level:

    * ``ctx`` — the :class:`WinContext`; ``source`` its :class:`WinSource`
    * ``shown`` — the hand was shown and won on its tiles (False for a flower win
      whose hand is not shown, ``tai.29``: 手牌未胡毋須翻開)
    * ``self_drawn`` — the winner drew the winning tile (自摸, 槓上開花, 海底撈月)
    * ``all_pay`` — the three others pay (self-draw, 八仙過海, 七搶一 →2 on the replacement)
    * ``rare`` — the context has more than a wall or discard win (another source, a
      flower win, readiness, a first-turn win, 寶牌)
    * ``n_melds`` / ``n_claimed`` — melds laid down / of which claimed (not 暗槓)
    * ``n_concealed_kongs`` — 暗槓 among the melds
    * ``wind_pungs`` — bit mask of winds (東 = bit 0) held as pung or kong
    * ``wind_pair`` / ``dragon_pair`` — the pair is a wind / a dragon
    * ``dragon_pungs`` — number of dragon pungs or kongs
    * ``seat_wind`` / ``round_wind`` — ints 0–3
    * ``suits`` — bit mask of suits present (萬 1, 筒 2, 條 4, 字 8)
    * ``flowers`` — the flowers counted (a 七搶一 →2 face leaves the robbed one out)
    * ``own_flowers`` — per group (四季, 四君子), the winner's own flowers held
    * ``group_sizes`` — per group, flowers held
    * ``n_waits`` — waiting tiles of the hand before the winning tile (``tai.11``)
    * ``bao_count`` — tiles matching the 寶牌, once per indicator (``opt.bao.3``)

    Reading level (:func:`set_reading`): ``chows`` (concealed and melded),
    ``concealed_pungs`` (``tai.16``: dealt or drawn, 暗槓 included, not one completed
    by a discard), ``ligu`` (the 嚦咕嚦咕 reading).

    * ``n_open_kongs`` — melded and added kongs among the melds (明槓台, 四槓子)

    Reading level also: ``groups`` (the reading's concealed groups) and ``two_sided``
    (the winning tile ends a chow of the reading on a two-sided wait, 聽雙頭).

    Ruleset options (:class:`~referee.scoring.table.ScoringTable` sets them): ``all_chows_concealed``
    (``scoring.all_chows_requires_concealed``) and ``all_chows_opts``, a bit mask of
    :data:`CHOWS_HONOURS` … :data:`CHOWS_TWO_SIDED` (``scoring.all_chows_*``).
    """

    __slots__ = (
        "ctx", "source", "shown", "self_drawn", "all_pay", "rare", "n_melds", "n_claimed", "n_concealed_kongs",
        "meld_chows", "wind_pungs", "wind_pair", "dragon_pungs", "dragon_pair", "seat_wind", "round_wind", "suits",
        "flowers", "own_flowers", "group_sizes", "n_waits", "bao_count",
        "chows", "concealed_pungs", "ligu", "all_chows_concealed", "n_open_kongs", "groups", "two_sided",
        "all_chows_opts", "discard_pung",
    )

    def __init__(self) -> None:
        self.ctx: WinContext | None = None
        self.source = WALL_WIN_SOURCE
        self.shown = True
        self.self_drawn = False
        self.all_pay = False
        self.rare = False
        self.n_melds = self.n_claimed = self.n_concealed_kongs = self.meld_chows = 0
        self.wind_pungs = 0
        self.wind_pair = self.dragon_pair = False
        self.dragon_pungs = 0
        self.seat_wind = self.round_wind = 0
        self.suits = 0
        self.flowers: tuple[int, ...] = ()
        self.own_flowers = (0, 0)
        self.group_sizes = (0, 0)
        self.n_waits = 0
        self.bao_count = 0
        self.chows = 0
        self.concealed_pungs = 0
        self.ligu = False
        self.all_chows_concealed = False
        self.n_open_kongs = 0
        self.groups: tuple = ()
        self.two_sided = False
        self.all_chows_opts = 0
        self.discard_pung = False


#: ``Facts.all_chows_opts`` bits: 平胡 may hold honours, flowers, be self-drawn; may not
#: be concealed; needs a two-sided wait (``scoring.all_chows_*``, ``tai.07``)
CHOWS_HONOURS, CHOWS_FLOWERS, CHOWS_SELF_DRAW, CHOWS_NOT_CONCEALED, CHOWS_TWO_SIDED = 1, 2, 4, 8, 16


def flower_facts(facts: Facts, flowers: tuple[int, ...], numbering: tuple[int, ...]) -> None:
    """Fill ``flowers``, ``own_flowers`` and ``group_sizes`` (``tai.26``, ``deal.wall``:
    flower number 1 belongs to the wall-break seat)."""
    own0 = own1 = n0 = n1 = 0
    seat = facts.seat_wind + 1
    for f in flowers:
        i = f - 34
        if i < 4:
            n0 += 1
            if numbering[i] == seat:
                own0 += 1
        else:
            n1 += 1
            if numbering[i] == seat:
                own1 += 1
    facts.flowers = flowers
    facts.own_flowers = (own0, own1)
    facts.group_sizes = (n0, n1)


def context_facts(facts: Facts, ctx: WinContext) -> None:
    """Fill the facts that come from the context alone."""
    source = ctx.source
    facts.ctx = ctx
    facts.source = source
    facts.self_drawn = source in _SELF_DRAWN  # compared by identity, in C
    # everyone pays on a self-draw and 八仙過海; 七搶一 →2 won on the replacement tile
    # is paid as a self-draw too, the robbed player adding the 8 台 (tai.30.2)
    facts.all_pay = ctx.discarder is None or (
        ctx.flower_win is SEVEN_ROB_ONE_DRAWN_FLOWER_WIN and source is FLOWER_REPLACEMENT_WIN_SOURCE
    )
    # anything beyond a wall or discard win: the rare pattern families are looked at
    facts.rare = (
        (source is not WALL_WIN_SOURCE and source is not DISCARD_WIN_SOURCE) or ctx.flower_win is not NONE_FLOWER_WIN
        or ctx.readiness is not NONE_READINESS or ctx.first_turn is not NONE_FIRST_TURN or bool(ctx.bao)
    )
    east = ctx.dealer if ctx.wall_break is None else ctx.wall_break
    facts.seat_wind = (ctx.winner - east) % 4
    facts.round_wind = int(ctx.round_wind)


def hand_facts(
    facts: Facts,
    counts: tuple[int, ...],
    keys: tuple[int, int, int, int],
    melds: tuple[Meld, ...],
    ctx: WinContext,
    *,
    ligu: bool,
) -> None:
    """Fill the hand-level facts of a shown, winning 17-tile hand.

    ``counts``/``keys`` are the concealed tiles *with* the winning tile.
    """
    context_facts(facts, ctx)
    facts.shown = True
    k3 = keys[3]
    suits = (keys[0] != 0) | ((keys[1] != 0) << 1) | ((keys[2] != 0) << 2) | ((k3 != 0) << 3)
    if k3:
        wind_pungs, dragon_pungs, wind_pair, dragon_pair = _HONOURS.get(k3) or _honour_facts(k3)
    else:
        wind_pungs = dragon_pungs = 0
        wind_pair = dragon_pair = False
    n_claimed = n_ck = meld_chows = n_ok = 0
    for m in melds:
        t = m.tile
        kind = m.kind
        if kind is CONCEALED_KONG_MELD:
            n_ck += 1
        else:
            n_claimed += 1
            if kind >= MELDED_KONG_MELD:
                n_ok += 1
        if kind is CHOW_MELD:
            meld_chows += 1
            suits |= 1 << (t // 9)
        elif t >= 27:
            suits |= 8
            if t < 31:
                wind_pungs |= 1 << (t - 27)
            else:
                dragon_pungs += 1
        else:
            suits |= 1 << (t // 9)
    facts.n_melds = len(melds)
    facts.n_claimed = n_claimed
    facts.n_concealed_kongs = n_ck
    facts.n_open_kongs = n_ok
    facts.meld_chows = meld_chows
    facts.suits = suits
    facts.wind_pungs = wind_pungs
    facts.dragon_pungs = dragon_pungs
    facts.wind_pair = wind_pair
    facts.dragon_pair = dragon_pair

    # 獨聽 (tai.11): the waiting tiles of the hand before the winning tile came
    w = ctx.winning_tile
    suit, unit = _POSITION[w]
    before = list(keys)
    before[suit] -= unit
    n = 0
    for t, _shapes in waits_keys((before[0], before[1], before[2], before[3])):
        if t != w and counts[t] + (_held_in_melds(melds, t) if melds else 0) >= 4:
            continue  # all four copies already in the hand: not a wait (see docs/rulings.md)
        n += 1
    if ligu and not melds:
        n += _ligu_extra_waits(counts, w, before)
    facts.n_waits = n


#: tile → (suit index, its unit in the suit key)
_POSITION = tuple((t // 9, 1 << (3 * (t % 9))) if t < 27 else (3, 1 << (3 * (t - 27))) for t in range(34))
#: honour key → (wind pung mask, dragon pungs, wind pair, dragon pair); filled lazily
_HONOURS: dict[int, tuple[int, int, bool, bool]] = {}


def _honour_facts(k3: int) -> tuple[int, int, bool, bool]:
    """Honour pungs and pairs of an honour key (3 alike = pung, 2 or 4 = pair(s))."""
    wind_pungs = dragon_pungs = 0
    wind_pair = dragon_pair = False
    for i in range(7):
        c = (k3 >> (3 * i)) & 7
        if c == 3:
            if i < 4:
                wind_pungs |= 1 << i
            else:
                dragon_pungs += 1
        elif c == 2 or c == 4:
            if i < 4:
                wind_pair = True
            else:
                dragon_pair = True
    value = (wind_pungs, dragon_pungs, wind_pair, dragon_pair)
    _HONOURS[k3] = value
    return value


def _held_in_melds(melds: tuple[Meld, ...], tile: int) -> int:
    n = 0
    for m in melds:
        if m.kind is CHOW_MELD:
            if m.tile <= tile <= m.tile + 2:
                n += 1
        elif m.tile == tile:
            n += 4 if m.kind >= MELDED_KONG_MELD else 3
    return n


def _ligu_extra_waits(counts: tuple[int, ...], w: int, before: list[int]) -> int:
    """Waits of a concealed 16-tile hand as 嚦咕嚦咕 (``tai.36``) that the normal shape
    does not already have: 8 pairs wait on any of them; 6 pairs, a pung and a single
    wait on the single."""
    c16 = list(counts)
    c16[w] -= 1
    odd = [t for t in range(34) if c16[t] & 1]
    if not odd:
        ligu_waits = {t for t in range(34) if c16[t] == 2}
    elif len(odd) == 2 and sorted(c16[t] for t in odd) == [1, 3] and sum(1 for t in range(34) if c16[t] in (2, 4)) >= 1:
        ligu_waits = {t for t in odd if c16[t] == 1}
    else:
        return 0
    normal = {t for t, _ in waits_keys((before[0], before[1], before[2], before[3]))}
    return len(ligu_waits - normal)


def set_reading(facts: Facts, groups: tuple, w: int | None, self_drawn: bool, *, ligu: bool = False) -> None:
    """Fill the reading-level facts for one decomposition of the concealed tiles.

    A pung of the winning tile counts as concealed only if the tile was drawn, or if
    the reading can give the discarded tile to another group (a chow or the pair)
    holding it (``tai.16``: 配得或摸得之刻子; see docs/rulings.md).
    """
    chows = facts.meld_chows
    pungs = facts.n_concealed_kongs
    open_pung = False
    elsewhere = False
    for g in groups:
        kind = g.kind
        if kind is CHOW_GROUP:
            chows += 1
            if not self_drawn and g.tile <= w <= g.tile + 2:
                elsewhere = True
        elif kind is PUNG_GROUP:
            pungs += 1
            if g.tile == w and not self_drawn:
                open_pung = True
        elif g.tile == w:
            elsewhere = True
    if open_pung and (not elsewhere or facts.discard_pung):
        # scoring.discard_tile_completes_pung: the discarded tile goes into the pung
        pungs -= 1
    facts.chows = chows
    facts.concealed_pungs = pungs
    facts.ligu = ligu
    facts.groups = groups
    if facts.all_chows_opts & CHOWS_TWO_SIDED:
        facts.two_sided = _two_sided(groups, w)


def _two_sided(groups: tuple, w: int | None) -> bool:
    """The winning tile ends a chow of the reading and the wait was two-sided (兩面, 聽雙頭):
    not the middle (中洞) nor an edge (站壁: 12 waiting 3, 89 waiting 7)."""
    if w is None:
        return False
    for g in groups:
        if g.kind is CHOW_GROUP:
            t = g.tile
            if (w == t and t % 9 != 6) or (w == t + 2 and t % 9 != 0):
                return True
    return False

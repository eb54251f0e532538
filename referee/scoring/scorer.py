"""Score a win: every pattern, the exclusions, the best reading (``tai.rule``, ``score.face``).

:func:`score` takes a winning :class:`~referee.hand.Hand`, its
:class:`~referee.scoring.context.WinContext` and a ruleset, and returns a :class:`Score`:
the face (牌面, ``score.face``: the hand's 台, flowers included), the dealer's 台 paid
between the dealer and each counterpart (作莊 ``tai.09``, 連N拉N ``tai.10``), each
pattern with its 台 and clause, each excluded pattern with what excluded it, and the
decomposition used: the reading with the highest total.

Hot path: one :class:`Facts` per call, the four suit keys, ``decompositions_keys`` and
``waits_keys``, and the per-ruleset :class:`~referee.scoring.table.ScoringTable`.
Names and dicts are only made when :meth:`Score.to_dict` is called.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from ..hand import Hand, _ligu_groups, decompositions_keys
from ..kinds_fast import (
    CHOW_MELD, DECLARED_READINESS, FLOWER_REPLACEMENT_WIN_SOURCE, FLOWER_WIN_WIN_SOURCE, HEAVENLY_READINESS,
    HEAVENLY_WIN_FIRST_TURN, KONG_REPLACEMENT_WIN_SOURCE, MELDED_KONG_MELD, NONE_FIRST_TURN, NONE_FLOWER_WIN,
    NONE_READINESS, ROBBING_KONG_WIN_SOURCE, SEVEN_ROB_ONE_DRAWN_FLOWER_WIN, SEVEN_ROB_ONE_FLOWER_WIN, WALL_WIN_SOURCE,
)
from ..melds import Group, GroupKind, Meld, MeldKind
from ..tiles import check_flowers, format_tiles, tile_name
from .context import ContextError, NotWinningError, WinContext
from .facts import Facts, context_facts, flower_facts, hand_facts, set_reading
from .patterns import PATTERNS
from .table import ScoringTable, table_for

_GROUP_ZH = {GroupKind.CHOW: "順子", GroupKind.PUNG: "刻子", GroupKind.PAIR: "將眼"}


class Score:
    """The scored win. Read :attr:`tai` (the face, after any cap), :attr:`dealer_tai`
    and :attr:`robbed_tai`; :meth:`to_dict` gives the full report.

    * ``tai`` — 牌面 (``score.face``): what every payer pays per 台 beyond the base.
    * ``dealer_tai`` — 作莊 + 連N拉N (with the real N), added between the dealer and
      each counterpart only (``settle.formula``); 0 when the dealer is not involved.
    * ``robbed_tai`` — 七搶一 →2 won on the replacement tile: the 8 台 the robbed player
      adds alone (``tai.30.2``); otherwise 0.
    * ``items`` — ``(pattern index, count)`` of every pattern that matched in the
      reading used, excluded ones too; ``excluded`` — bit mask of those not counted.
    * ``dealer_involved`` — the dealer won or pays (``tai.09``: 胡放皆加計).
    """

    __slots__ = ("tai", "face_tai", "dealer_tai", "robbed_tai", "items", "dealer_involved", "excluded", "adjustments",
                 "groups", "ligu", "ctx", "hand", "table", "flowers")

    def __init__(self, tai, face_tai, dealer_tai, robbed_tai, items, dealer_involved, excluded, adjustments, groups,
                 ligu, ctx, hand, table, flowers):
        self.tai = tai
        self.face_tai = face_tai
        self.dealer_tai = dealer_tai
        self.robbed_tai = robbed_tai
        self.items = items
        self.dealer_involved = dealer_involved
        self.excluded = excluded
        self.adjustments = adjustments
        self.groups = groups
        self.ligu = ligu
        self.ctx = ctx
        self.hand = hand
        self.table = table
        self.flowers = flowers

    def _key(self) -> tuple:
        return (self.tai, self.face_tai, self.dealer_tai, self.robbed_tai, tuple(self.items), self.dealer_involved,
                self.excluded, self.adjustments, self.groups, self.ligu, self.ctx, self.hand, self.flowers,
                self.table.tai, self.table.excl)

    def __eq__(self, other: object) -> bool:
        """Two scores are equal when they score the same win the same way (same ruleset values)."""
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Score {self.tai} 台 dealer {self.dealer_tai} {[PATTERNS[i].code for i, _ in self.counted]}>"

    @property
    def dealer_unit(self) -> int:
        """作莊's 台 in this ruleset (``tai.dealer``)."""
        return self.table.dealer_unit

    @property
    def streak_unit(self) -> int:
        """連N拉N's 台 per N in this ruleset (``tai.streak_per_n``)."""
        return self.table.streak_unit

    @property
    def dealer_items(self) -> list[tuple[int, int]]:
        """``(pattern index, count)`` of 作莊 and 連N拉N when the dealer is involved."""
        if not self.dealer_involved:
            return []
        table = self.table
        out = []
        if table.dealer_unit:
            out.append((table.dealer_idx, 1))
        if table.streak_unit and self.ctx.streak:
            out.append((table.streak_idx, self.ctx.streak))
        return out

    @property
    def counted(self) -> list[tuple[int, int]]:
        """``(pattern index, count)`` of the patterns counted in the face."""
        ex = self.excluded
        return [(i, c) for i, c in self.items if not (ex >> i) & 1]

    def pattern_tai(self) -> dict[str, int]:
        """``{pattern code: 台}`` of the counted patterns, dealer's included."""
        tai = self.table.tai
        out = {PATTERNS[i].code: tai[i] * c for i, c in self.counted}
        out.update({PATTERNS[i].code: tai[i] * c for i, c in self.dealer_items})
        return out

    def to_dict(self) -> dict:
        """The report: totals, patterns (zh-TW as the rulebook writes them, English, 台,
        clause), excluded patterns and why, adjustments, the decomposition used. The batch
        writes the same text from these values (``api/answer_lines.py``, issue #17): a field
        added here is to be written there too (docs/protocol.md)."""
        table = self.table
        tai = table.tai
        ex = self.excluded
        robbed = self.robbed_tai
        patterns = []
        for i, c in self.items:
            if (ex >> i) & 1:
                continue
            scope = "robbed" if robbed and i == table.seven_rob_one_idx else "face"
            patterns.append(pattern_dict(i, c, tai[i] * c, scope, table))
        for i, c in self.dealer_items:
            patterns.append(pattern_dict(i, c, tai[i] * c, "dealer", table))
        excluded = []
        for i, c in self.items:
            if not (ex >> i) & 1:
                continue
            entry = pattern_dict(i, c, tai[i] * c, "excluded", table)
            present = {k for k, _ in self.items}
            entry["excluded_by"] = [
                {"code": PATTERNS[r.by].code, "zh": PATTERNS[r.by].zh, "en": PATTERNS[r.by].en, "clause": r.clause,
                 **({"note": r.note} if r.note else {})}
                for r in table.reasons[i] if r.by in present
            ]
            excluded.append(entry)
        out = {
            "tai": self.tai,
            "dealer_tai": self.dealer_tai,
            "robbed_tai": self.robbed_tai,
            "patterns": patterns,
            "excluded": excluded,
            "adjustments": [
                {"pattern": PATTERNS[a.pattern].code, "zh": PATTERNS[a.pattern].zh + "減台", "tai": a.tai,
                 "clause": a.clause, "note": a.note}
                for a in self.adjustments
            ],
            "decomposition": self.decomposition_dict(),
            "flowers": format_tiles(self.flowers),
        }
        if self.face_tai != self.tai:
            out["capped_from"] = self.face_tai
            out["cap_clause"] = "app.no-cap"
        return out

    def decomposition_dict(self) -> dict | None:
        """The reading used: concealed groups and melds; ``None`` for a flower win whose
        hand is not shown."""
        if self.groups is None:
            return None
        hand = self.hand
        return {
            "groups": [
                {"kind": kind, "kind_zh": kind_zh, "tiles": tiles}
                for kind, kind_zh, tiles in map(group_texts, self.groups)
            ],
            "melds": [
                {"kind": kind, "kind_zh": kind_zh, "tiles": tiles}
                for kind, kind_zh, tiles in map(meld_texts, hand.melds)
            ],
            "ligu": self.ligu,
            "winning_tile": tile_name(self.ctx.winning_tile),
            "winning_tile_zh": tile_name(self.ctx.winning_tile, "zh"),
        }


def pattern_dict(i: int, count: int, tai: int, scope: str, table: ScoringTable) -> dict:
    p = PATTERNS[i]
    return {"code": p.code, "zh": p.zh, "en": p.en, "tai": tai, "count": int(count), "clause": p.clause,
            "tai_source": list(table.sources[i]), "scope": scope}


def score(hand: Hand | None, ctx: WinContext, ruleset: object, *, flowers: Iterable[int] | None = None) -> Score:
    """Score a win under a ruleset (``Ruleset`` or a mapping of its values).

    :param hand: the winning hand, 17 tiles with the winning tile among the concealed
        ones; for a flower win whose hand is not shown (``source=FLOWER_WIN``) it may be
        ``None``, the flowers then given by *flowers*.
    :raises NotWinningError: the hand does not win (not 17 tiles, no 5 sets and a pair,
        winning tile not in it, a flower win without eight flowers, 0 台 where 屁胡 is
        not allowed).
    :raises ContextError: a context this ruleset or hand makes impossible.
    """
    table = table_for(ruleset)
    _check_context(ctx, table)
    f = Facts()
    f.all_chows_concealed = table.all_chows_concealed
    f.all_chows_opts = table.all_chows_opts
    f.discard_pung = table.discard_pung
    tai = table.tai
    excl = table.excl
    if ctx.source is FLOWER_WIN_WIN_SOURCE:
        if not table.flowers:
            raise _no_flowers("source")
        held = check_flowers(flowers if flowers is not None else (hand.flowers if hand is not None else ()))
        _check_flower_win(ctx, held, table)
        context_facts(f, ctx)
        f.shown = False
        flower_facts(f, held, table.numbering)
        hand_items = _evaluate(table.unshown, f)
        readings = [None]
        ligu_reading = None
    else:
        if hand is None:
            raise NotWinningError("a win needs its hand", field="tiles", reason_zh="胡牌須有手牌")
        counts = hand.concealed
        w = ctx.winning_tile
        if not counts[w]:
            raise NotWinningError(
                f"the winning tile {tile_name(w)} is not among the concealed tiles",
                field="winning_tile", reason_zh=f"胡牌張 {tile_name(w, 'zh')} 不在暗牌中",
            )
        melds = hand.melds
        if ctx.source is KONG_REPLACEMENT_WIN_SOURCE:
            _check_replaced_kong(ctx, melds, table)
        elif ctx.source is FLOWER_REPLACEMENT_WIN_SOURCE and not table.flowers:
            raise _no_flowers("source")
        elif ctx.source is ROBBING_KONG_WIN_SOURCE:
            held_w = counts[w] + sum((m.tile <= w <= m.tile + 2) if m.kind is CHOW_MELD else (3 if m.tile == w else 0)
                                     for m in melds)
            if held_w != 1:
                raise ContextError(
                    f"搶槓: the other three {tile_name(w)} are in the robbed pung, "
                    "the winner can hold only the robbed one",
                    field="winning_tile",
                    reason_zh=f"搶槓：其餘三張{tile_name(w, 'zh')}在被搶的刻子中，胡牌者只能有搶來的那一張",
                )
        keys = _keys(counts)
        readings = decompositions_keys(keys)  # a 16-tile hand (3k+1 concealed) never decomposes
        ligu_reading = _ligu_groups(counts) if table.ligu and not melds else None
        if ligu_reading is not None:
            readings = readings + [ligu_reading]
        if not readings:
            if hand.size != 17:
                raise NotWinningError(
                    f"a winning hand has 17 tiles (concealed + 3 per meld), this one {hand.size}",
                    field="tiles", reason_zh=f"胡牌須為 17 張（暗牌加每副副露 3 張），此手牌為 {hand.size} 張",
                )
            raise NotWinningError(
                f"{hand} is not a winning hand: no 5 sets and a pair (win.shape)",
                field="tiles", reason_zh="手牌未成胡：不成五副加一對將眼（win.shape）",
            )
        hand_facts(f, counts, keys, melds, ctx, ligu=table.ligu)
        if f.n_claimed and (ctx.readiness is not NONE_READINESS and ctx.readiness is not DECLARED_READINESS
                            or ctx.first_turn is not NONE_FIRST_TURN):
            raise ContextError(
                "天聽, 地聽, 天胡, 地胡 and 人胡 need a concealed hand (tai.31–tai.35)",
                field="readiness" if ctx.readiness is not NONE_READINESS else "first_turn",
                reason_zh="天聽、地聽、天胡、地胡、人胡須門清（tai.31–tai.35）",
            )
        held = hand.flowers
        if held and not table.flowers:
            raise _no_flowers("flowers")
        if ctx.flower_win is not NONE_FLOWER_WIN:
            _check_flower_win(ctx, held, table)
            if ctx.flower_win is SEVEN_ROB_ONE_DRAWN_FLOWER_WIN and ctx.source is FLOWER_REPLACEMENT_WIN_SOURCE:
                held = tuple(x for x in held if x != ctx.robbed_flower)  # 牌面不含搶得之花牌 (tai.30.2)
        elif len(held) == 8 and not table.flower_win_optional:
            raise ContextError(
                "all eight flowers make a flower win at once under this ruleset (app.flower-win): set flower_win",
                field="flower_win", reason_zh="集滿八張花立刻胡（app.flower-win）：須為花胡",
            )
        flower_facts(f, held, table.numbering)
        if ctx.bao:
            all_tiles = list(counts)
            for m in melds:
                for t in m.tiles:
                    all_tiles[t] += 1
            f.bao_count = sum(all_tiles[b] for b in ctx.bao)
        hand_items = _evaluate(table.hand_level, f)

    # ---- the best reading -----------------------------------------------------------
    robbed_split = ctx.flower_win is SEVEN_ROB_ONE_DRAWN_FLOWER_WIN and ctx.source is FLOWER_REPLACEMENT_WIN_SOURCE
    sro = table.seven_rob_one_idx
    reading_level = table.reading_level
    adjustments = table.adjustments
    w = ctx.winning_tile
    self_drawn = f.self_drawn
    best_total = None
    best = None
    adjust_mask = table.adjust_mask
    for groups in readings:
        if groups is not None:
            is_ligu = groups is ligu_reading
            set_reading(f, groups, w, self_drawn, ligu=is_ligu)
            items = hand_items + _evaluate(reading_level, f)
        else:
            is_ligu = False
            items = hand_items
        ex = 0
        present = 0
        for i, _c in items:
            ex |= excl[i]
            present |= 1 << i
        total = 0
        for i, c in items:
            if not (ex >> i) & 1:
                total += tai[i] * c
        applied = ()
        if present & adjust_mask:
            scored = present & ~ex
            applied = tuple(a for a in adjustments if (scored >> a.pattern) & 1 and scored & a.with_any)
            for a in applied:
                total += a.tai
        if robbed_split and not (ex >> sro) & 1:
            total -= tai[sro]
        if best_total is None or total > best_total:
            best_total = total
            best = (items, ex, groups, is_ligu, applied)
    items, ex, groups, is_ligu, applied = best
    face = best_total if best_total > 0 else 0
    capped = face if not table.cap or face <= table.cap else table.cap
    if capped < table.min_tai and not robbed_split:
        if capped == 0 and table.min_tai == 1 and not table.zero_tai_win:
            raise NotWinningError(
                "a 0-台 hand does not win under this ruleset (app.zero-tai: 屁胡 not allowed)",
                field="tiles", reason_zh="此規則組不允許 0 台的屁胡（app.zero-tai）",
            )
        raise NotWinningError(
            f"a win needs at least {table.min_tai} 台 on the face under this ruleset (起胡, scoring.min_tai); "
            f"this hand has {capped}",
            field="tiles", reason_zh=f"此規則組 {table.min_tai} 台起胡（scoring.min_tai），此手牌面只有 {capped} 台",
        )

    if ctx.liable is not None:
        _check_liable(ctx, items, ex, table)

    # ---- the dealer's 台 (tai.09, tai.10) --------------------------------------------
    involved = bool(table.dealer_fn(f))
    dealer_tai = table.dealer_unit + table.streak_unit * ctx.streak if involved else 0
    robbed_tai = tai[sro] if robbed_split else 0
    return Score(capped, face, dealer_tai, robbed_tai, items, involved, ex, applied, groups, is_ligu, ctx, hand, table,
                 f.flowers)


def _evaluate(families: tuple[tuple, tuple], f: Facts) -> list[tuple[int, int]]:
    """``(index, count)`` of every pattern that applies: family gates first, then the
    memo of a keyed family, else each pattern; rare families only when ``f.rare``."""
    out: list[tuple[int, int]] = []
    common, rare = families
    for gate, key, found, memo in (common + rare if f.rare else common):
        if gate is not None and not gate(f):
            continue
        if key is None:
            for i, fn in found:
                c = fn(f)
                if c:
                    out.append((i, c))
            continue
        k = key(f)
        hit = memo.get(k)
        if hit is None:
            hit = tuple((i, c) for i, fn in found if (c := fn(f)))
            if len(memo) > 4096:
                memo.clear()
            memo[k] = hit
        out += hit
    return out


def _keys(c: tuple[int, ...]) -> tuple[int, int, int, int]:
    """:func:`referee.hand.keys_of`, unrolled (twice as fast on the hot path)."""
    (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17,
     c18, c19, c20, c21, c22, c23, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33) = c
    return (
        c0 | c1 << 3 | c2 << 6 | c3 << 9 | c4 << 12 | c5 << 15 | c6 << 18 | c7 << 21 | c8 << 24,
        c9 | c10 << 3 | c11 << 6 | c12 << 9 | c13 << 12 | c14 << 15 | c15 << 18 | c16 << 21 | c17 << 24,
        c18 | c19 << 3 | c20 << 6 | c21 << 9 | c22 << 12 | c23 << 15 | c24 << 18 | c25 << 21 | c26 << 24,
        c27 | c28 << 3 | c29 << 6 | c30 << 9 | c31 << 12 | c32 << 15 | c33 << 18,
    )


def _check_context(ctx: WinContext, table: ScoringTable) -> None:
    """What the ruleset makes impossible in a context (the context checks itself)."""
    if not isinstance(ctx, WinContext):
        raise ContextError(f"expected a WinContext, got {type(ctx).__name__}", field="context",
                           reason_zh="缺少胡牌情境")
    fw = ctx.flower_win
    if (fw is SEVEN_ROB_ONE_FLOWER_WIN or fw is SEVEN_ROB_ONE_DRAWN_FLOWER_WIN) and not table.seven_rob_one:
        raise ContextError("七搶一 is not played under this ruleset (hands.seven_rob_one)", field="flower_win",
                           reason_zh="此規則組不玩七搶一（hands.seven_rob_one）")
    readiness = ctx.readiness
    if readiness is DECLARED_READINESS and not table.declared_ready:
        raise ContextError("declaring ready is not played under this ruleset (play.declared_ready)", field="readiness",
                           reason_zh="此規則組不可宣告聽牌（play.declared_ready）")
    if readiness is HEAVENLY_READINESS and ctx.winner == ctx.dealer and not table.heavenly_dealer:
        raise ContextError("天聽 is a non-dealer's declaration under this ruleset (tai.31)", field="readiness",
                           reason_zh="此規則組天聽限閒家（tai.31）")
    if ctx.bao:
        if not table.bao:
            raise ContextError("寶牌 are not played under this ruleset (bao.enabled)", field="bao",
                               reason_zh="此規則組不玩寶牌（bao.enabled）")
        if len(ctx.bao) > table.bao_max:
            raise ContextError(f"at most {table.bao_max} 寶牌 (opt.bao.2)", field="bao",
                               reason_zh=f"寶牌最多 {table.bao_max} 張（opt.bao.2）")
    if ctx.first_turn is HEAVENLY_WIN_FIRST_TURN and ctx.source is not WALL_WIN_SOURCE:
        # tai.33: 莊家於配牌補花後即胡牌 — the dealt hand (after the deal's flower
        # replacement: source wall); never another's tile, nor a kong's replacement,
        # which is 槓上開花 (tai.24), not 天胡
        raise ContextError(
            f"天胡 is won on the dealt hand after the deal's flower replacement (source wall), "
            f"not on {ctx.source.value} (tai.33)",
            field="first_turn",
            reason_zh=f"天胡是莊家配牌補花後即胡（方式為自摸 wall），不能是「{ctx.source.zh}」（tai.33）",
        )


def _check_replaced_kong(ctx: WinContext, melds: tuple, table: ScoringTable) -> None:
    """A win on a kong's replacement: the kong named is among the melds, and a melded
    kong's replacement wins by self-draw only where the ruleset allows it
    (``play.restrict.2``: 碰槓之補牌不得自摸; ``app.kong.limits``: 明槓補的牌不能自摸).
    When the input does not say which kong, melds that hold only melded kongs say it."""
    kongs = [m.kind for m in melds if m.kind >= MELDED_KONG_MELD]
    replaced = ctx.replaced_kong
    if replaced is not None and replaced not in kongs:
        raise ContextError(
            f"replaced_kong is a {replaced.name.lower()}, but the melds hold no such kong",
            field="replaced_kong", reason_zh=f"指明補的是{replaced.zh}的牌，但副露中沒有{replaced.zh}",
        )
    if replaced is None and kongs and all(k is MELDED_KONG_MELD for k in kongs):
        replaced = MELDED_KONG_MELD
    if replaced is MELDED_KONG_MELD and not table.melded_kong_replacement_self_draw:
        raise ContextError(
            "a melded kong's replacement tile may not win by self-draw under this ruleset "
            "(play.restrict.2, app.kong.limits; play.melded_kong_replacement_self_draw)",
            field="replaced_kong",
            reason_zh="此規則組明槓（碰槓）補的牌不能自摸（play.restrict.2、app.kong.limits）",
        )


def _check_liable(ctx: WinContext, items: list, ex: int, table: ScoringTable) -> None:
    """包牌 (``settle.liability``): played, and the win scores 大三元 or 大四喜."""
    if table.liability == "none":
        raise ContextError("包牌 is not played under this ruleset (settle.liability)", field="liable",
                           reason_zh="此規則組不玩包牌（settle.liability）")
    if not any((table.liable_patterns >> i) & 1 and not (ex >> i) & 1 for i, _c in items):
        raise ContextError("包牌 is for a win scoring 大三元 or 大四喜", field="liable",
                           reason_zh="包牌限於大三元或大四喜的胡牌")


def _no_flowers(field: str) -> ContextError:
    """A flower, a flower's replacement or a flower win where the ruleset plays without
    flowers (``tiles.flowers`` false: a 136-tile set, ``deal.walls``)."""
    return ContextError(
        "this ruleset plays without flowers (tiles.flowers: a set of 136): no flower, flower replacement or flower win",
        field=field, reason_zh="此規則組不用花牌（無花玩法，一副 136 張，tiles.flowers）：沒有花牌、補花或花胡",
    )


def _check_flower_win(ctx: WinContext, held: tuple[int, ...], table: ScoringTable) -> None:
    if len(held) != 8:
        raise NotWinningError(
            f"a flower win needs all eight flowers, {len(held)} given (tai.27)",
            field="flowers", reason_zh=f"花胡須集滿八張花，只有 {len(held)} 張（tai.27）",
        )
    if ctx.robbed_flower is not None and ctx.robbed_flower not in held:
        raise ContextError("the robbed flower must be among the eight flowers", field="robbed_flower",
                           reason_zh="被搶的花須在八張花之中")


__all__ = ["Score", "group_texts", "meld_texts", "pattern_dict", "score"]


#: (kind, tile) → a decomposition's set's texts, and a meld's (apart: GroupKind.CHOW == MeldKind.CHOW);
#: at most 3 × 34 and 5 × 34 entries (a set's kind and lowest tile, checked when it was made)
_GROUP_TEXTS: dict[tuple[GroupKind, int], tuple[str, str, str]] = {}
_MELD_TEXTS: dict[tuple[MeldKind, int], tuple[str, str, str]] = {}


def _texts(table: dict, reference: Callable[[Any], tuple[str, str, str]], item: Group | Meld) -> tuple[str, str, str]:
    """A set's or meld's kind, its Chinese name and its tiles as the score's decomposition writes
    them (*reference*), written once per kind and tile into *table* (issue #17: every winning answer
    writes its decomposition; the text depends on these two alone — a meld's claimed tile is not
    written). A tile that is not exactly an int (``True`` and ``1.0`` hash as ``1``) is written
    by *reference* each time, never kept: it is refused or written as it is, not as tile 1."""
    if type(item.tile) is not int:
        return reference(item)
    key = (item.kind, item.tile)
    texts = table.get(key)
    if texts is None:
        texts = table[key] = reference(item)
    return texts


def group_texts_reference(g: Group) -> tuple[str, str, str]:
    """A decomposition's set's texts written afresh (the reference)."""
    return g.kind.name.lower(), _GROUP_ZH[g.kind], format_tiles(g.tiles)


def meld_texts_reference(m: Meld) -> tuple[str, str, str]:
    """A meld's texts in the decomposition, written afresh (the reference)."""
    return m.kind.name.lower(), m.kind.zh, format_tiles(m.tiles)


group_texts = partial(_texts, _GROUP_TEXTS, group_texts_reference)
meld_texts = partial(_texts, _MELD_TEXTS, meld_texts_reference)

"""A table scorer's entry of a hand by 台 items, settled by the referee's own settlement.

At a physical table the scorer writes, per hand: the winner's seat, who dealt in (放槍)
or that it was self-drawn (自摸), the dealer and his streak (連莊), and the 台 items — the
scoring package's pattern codes (:data:`referee.scoring.patterns.PATTERNS`: ``concealed_hand``
門清, ``self_draw`` 自摸, ``full_flush`` 清一色, ``own_flower_seasons`` 正花 …), each with a
count where a pattern counts more than once (箭字刻). An exhaustive draw (荒局,
``play.exhausted``) has no winner and no items.

:func:`settle_entry` checks the entry against the event's ruleset and refuses, naming
the item (``items[2].code``), what cannot be:

* a code that is no pattern, or a pattern this ruleset does not score (0 台, or its
  option off: 嚦咕嚦咕, 寶牌 …);
* two patterns one of which the ruleset's exclusion data (``tai.exclusions``, the same
  data the scorer uses, ``tai.rule``) does not count beside the other (清一色 with 湊一色);
* two patterns that contradict each other by definition (門清 with 全求, 平胡 with 對對胡,
  大四喜 with 小四喜 …, :data:`CONTRADICTIONS`), a pattern counted more often than it can be
  (:data:`MAX_COUNT`), a pattern that needs another the entry lacks (不求 without 門清,
  a self-draw without 自摸, :data:`REQUIRES`);
* a self-drawn item (自摸, 不求, 半求, 槓上開花, 海底撈月, 天胡) on a discard win, a discard
  item (全求, 搶槓, 河底撈魚, 平胡, 七搶一) on a self-draw;
* 作莊 / 連N拉N entered when the dealer is not involved, or 連N拉N with an N other than the
  streak entered (they are computed from the dealer and streak anyway, ``tai.09``, ``tai.10``);
* a 台 given for an item, or a total, that differs from what the ruleset gives;
* a winner who is also the deal-in seat, seats outside 0–3, items on an exhaustive draw;
* (with the 將's 定莊 known, :func:`deal_after` / :func:`check_deal`) a dealer or streak other
  than the 將's own after its earlier hands (``seat.dealer``, ``app.dealer-continue``).

What is accepted is settled by :func:`referee.scoring.settlement.settle` with the event's
stakes (``settle.formula``, ``settle.streak``, ``app.no-mutual-pay``): the result is a
:class:`tournament.results.HandResult`, whose own checks hold (sum zero …).
The readings chosen are in docs/rulings.md (R-tour).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.scoring import Stakes, settle
from referee.scoring.patterns import INDEX, PATTERNS
from referee.scoring.scorer import Score
from referee.scoring.table import ScoringTable, table_for

from .errors import ResultError, TournamentError, check_seat
from .match import HandOutcome, MatchState, start_match
from .results import HandResult


class EntryError(TournamentError):
    """A scorer's entry that cannot be: the field names the item or seat at fault."""

    code = "invalid_entry"


def _fail(field: str, message: str, zh: str) -> EntryError:
    return EntryError(message, field=field, reason_zh=zh)


@dataclass(frozen=True, slots=True)
class TaiItem:
    """One 台 item as written: the pattern code, how many times, and the 台 the scorer wrote
    for it (``None``: not written; otherwise checked against the ruleset)."""

    code: str
    count: int = 1
    tai: int | None = None


@dataclass(frozen=True, slots=True)
class AlsoWon:
    """Another winner on the same discard (一炮多響, ``play.multiple_wins``): the seat, its own
    台 items and the face it totalled; it settles with the discarder on its own (``settle.formula``)."""

    winner: int
    items: tuple[TaiItem, ...] = ()
    tai: int | None = None


@dataclass(frozen=True, slots=True)
class ScorerEntry:
    """One hand as a scorer enters it (see the module docstring).

    ``winner`` ``None`` is an exhaustive draw; ``deal_in`` ``None`` a self-draw (or 八仙過海).
    ``tai`` is the face (牌面) the scorer totalled, checked when given. ``streak_marker`` is
    what the dealer's dice show when it differs from ``streak`` (``score.streak-marker``).

    ``robbed``: 七搶一 won on a self-drawn replacement that is 槓上開花 (``tai.30.2``): the three
    pay the face, the robbed seat adds the 七搶一 台 alone (otherwise 七搶一 names the robbed
    seat as ``deal_in``, ``tai.30.1``). ``also``: the other winners on the same discard
    (一炮多響, only where ``play.multiple_wins``).
    """

    dealer: int
    winner: int | None = None
    deal_in: int | None = None
    streak: int = 0
    items: tuple[TaiItem, ...] = ()
    tai: int | None = None
    streak_marker: int | None = None
    robbed: int | None = None
    also: tuple[AlsoWon, ...] = ()


@dataclass(frozen=True, slots=True)
class SettledEntry:
    """What an accepted entry settles to: the face, the dealer's 台, each counted item's
    台, the transfers (``referee.scoring.Settlement``), and the hand's result."""

    result: HandResult
    face: int
    dealer_tai: int
    item_tai: tuple[tuple[str, int], ...]
    transfers: tuple[dict, ...]
    #: with 一炮多響, each winner's own settlement (the first is the entry's ``winner``)
    parts: tuple["SettledEntry", ...] = ()

    def to_dict(self) -> dict:
        out = {"payments": list(self.result.payments), "tai": self.face, "dealer_tai": self.dealer_tai,
               "items": [{"code": c, "zh": PATTERNS[INDEX[c]].zh, "tai": t} for c, t in self.item_tai],
               "transfers": list(self.transfers)}
        if self.parts:
            out["wins"] = [{"winner": p.result.wins[0].seat, **p.to_dict()} for p in self.parts]
        return out


#: won only on a tile the winner drew himself (tai.04, tai.06, tai.23–tai.25, tai.33)
SELF_DRAWN_ONLY = frozenset({"self_draw", "no_claims_self_draw", "half_claimed", "kong_replacement_win",
                             "last_tile_self_draw", "heavenly_win"})
#: won only on another player's tile, who pays alone (tai.05, tai.07, tai.12, app.last-tile,
#: tai.30.1: the robbed player pays as if he had dealt in)
DISCARD_ONLY = frozenset({"all_claimed", "robbing_kong", "last_discard_win", "all_chows", "seven_rob_one"})
#: paid by all three without the 自摸 item (tai.29: the hand is not shown)
ALL_PAY_WITHOUT_SELF_DRAW = frozenset({"eight_flowers"})

_WIND_PUNGS = ("seat_wind_pung", "round_wind_pung")
_FLOWERS = ("own_flower_seasons", "own_flower_plants", "flower_set_seasons", "flower_set_plants", "all_flowers")
#: pairs that cannot both hold, by the patterns' definitions (clause of the definition)
CONTRADICTIONS: tuple[tuple[str, str, str], ...] = (
    ("concealed_hand", "all_claimed", "tai.03"), ("concealed_hand", "half_claimed", "tai.03"),
    ("no_claims_self_draw", "all_claimed", "tai.04"), ("no_claims_self_draw", "half_claimed", "tai.04"),
    ("all_claimed", "half_claimed", "tai.05"),
    ("all_chows", "all_pungs", "tai.07"), ("all_chows", "single_wait", "tai.07"),
    ("all_chows", "dragon_pung", "tai.07"), ("all_chows", "all_honours", "tai.07"),
    ("all_chows", "half_flush", "tai.07"),
    *(("all_chows", p, "tai.07") for p in _WIND_PUNGS),
    *(("all_chows", p, "tai.07") for p in _FLOWERS),
    *(("all_chows", p, "tai.07") for p in ("three_concealed_pungs", "four_concealed_pungs", "five_concealed_pungs",
                                           "big_four_winds", "small_four_winds", "big_three_dragons",
                                           "small_three_dragons", "eight_flowers", "seven_rob_one")),
    ("all_honours", "full_flush", "tai.13"), ("all_honours", "half_flush", "tai.13"),
    ("full_flush", "dragon_pung", "tai.14"), *(("full_flush", p, "tai.14") for p in _WIND_PUNGS),
    *(("full_flush", p, "tai.14") for p in ("big_four_winds", "small_four_winds", "big_three_dragons",
                                            "small_three_dragons")),
    ("big_four_winds", "small_four_winds", "tai.20"),
    ("big_three_dragons", "small_three_dragons", "tai.22"),
    ("heavenly_win", "earthly_win", "tai.33"), ("heavenly_win", "human_win", "tai.33"),
    ("earthly_win", "human_win", "tai.34"), ("heavenly_ready", "earthly_ready", "tai.31"),
)
_CONTRA: dict[str, dict[str, str]] = {}
for _a, _b, _clause in CONTRADICTIONS:
    _CONTRA.setdefault(_a, {})[_b] = _clause
    _CONTRA.setdefault(_b, {})[_a] = _clause

#: the most times a pattern can count in one hand (others: once)
MAX_COUNT = {"dragon_pung": 3, "streak_per_n": 10_000,
             # 見花見台: each flower; 見風見台: each wind pung or kong (app.replaces.19, two switches
             # apart); 明槓台, 暗槓台: each kong (play.kong.*); 寶牌: each matching tile per indicator
             "see_flower_see_tai": 8, "see_wind_see_tai": 4, "melded_kong": 5, "concealed_kong": 5, "bao": 20}
#: ``pattern → what it needs beside it`` (unless the ruleset excludes that by a present item
#: or does not score it): 不求 is 門清 and 自摸 together (tai.04, app.menqing-zimo)
REQUIRES = {"no_claims_self_draw": ("concealed_hand", "self_draw")}


def _pattern_index(code: object, field: str) -> int:
    if not isinstance(code, str) or code not in INDEX:
        known = "、".join(p.code for p in PATTERNS)
        raise _fail(field, f"unknown pattern {code!r} (known: {known})", f"不明的名堂 {code!r}（可用：{known}）")
    return INDEX[code]


def _zh(code: str) -> str:
    return PATTERNS[INDEX[code]].zh


def _check_seats(entry: ScorerEntry) -> None:
    check_seat(entry.dealer, "dealer", EntryError)
    if type(entry.streak) is not int or entry.streak < 0:
        raise _fail("streak", f"the streak is a count ≥ 0, got {entry.streak!r}",
                    f"連莊數須為 0 以上的整數，收到 {entry.streak!r}")
    if entry.streak_marker is not None and (type(entry.streak_marker) is not int or entry.streak_marker < 0):
        raise _fail("streak_marker", f"the streak marker is a count ≥ 0, got {entry.streak_marker!r}",
                    f"連莊示記須為 0 以上的整數，收到 {entry.streak_marker!r}")
    if entry.winner is None:
        if entry.deal_in is not None:
            raise _fail("deal_in", "an exhaustive draw has no deal-in", "荒局沒有放槍者")
        return
    check_seat(entry.winner, "winner", EntryError)
    if entry.robbed is not None:
        check_seat(entry.robbed, "robbed", EntryError)
        if entry.deal_in is not None:
            raise _fail("robbed", "七搶一 won on another player's flower names that player as the deal-in seat "
                        "(tai.30.1); the robbed seat apart is for a self-drawn replacement (tai.30.2)",
                        "七搶一 被搶者視同放槍時填放槍者（tai.30.1）；被搶者另填限於補得之牌自摸（tai.30.2）")
        if entry.robbed == entry.winner:
            raise _fail("robbed", f"seat {entry.winner} cannot rob itself", f"{entry.winner} 號座不能搶自己的花")
    if entry.deal_in is not None:
        check_seat(entry.deal_in, "deal_in", EntryError)
        if entry.deal_in == entry.winner:
            raise _fail("deal_in", f"seat {entry.winner} cannot deal in to itself",
                        f"{entry.winner} 號座不能放槍給自己")


def _read_items(entry: ScorerEntry, table: ScoringTable) -> list[tuple[int, int, int]]:
    """``(index, count, position in the entry)`` of each item, checked one by one."""
    seen: dict[int, int] = {}
    out = []
    for k, item in enumerate(entry.items):
        where = f"items[{k}]"
        if not isinstance(item, TaiItem):
            raise _fail(where, f"not a 台 item: {item!r}", f"不是台數項目：{item!r}")
        i = _pattern_index(item.code, f"{where}.code")
        if i in seen:
            raise _fail(f"{where}.code", f"{item.code} is entered twice (items[{seen[i]}])",
                        f"{_zh(item.code)}重複填寫（items[{seen[i]}]）")
        seen[i] = k
        if not (table.active_mask >> i) & 1:
            raise _fail(f"{where}.code", f"{item.code} does not score under the ruleset {table.profile!r}",
                        f"此規則組（{table.profile}）不計{_zh(item.code)}")
        if type(item.count) is not int or item.count < 1:
            raise _fail(f"{where}.count", f"a count is at least 1, got {item.count!r}",
                        f"次數至少為 1，收到 {item.count!r}")
        most = MAX_COUNT.get(item.code, 1)
        if item.count > most:
            raise _fail(f"{where}.count", f"{item.code} counts at most {most} time(s), got {item.count}",
                        f"{_zh(item.code)}最多計 {most} 次，收到 {item.count}")
        out.append((i, item.count, k))
    return out


def _check_combination(entry: ScorerEntry, items: list[tuple[int, int, int]], table: ScoringTable) -> None:
    codes = {PATTERNS[i].code: k for i, _, k in items}
    present = 0
    for i, _, _ in items:
        present |= 1 << i
    excluded = 0
    for i, _, _ in items:
        excluded |= table.excl[i]
    # the ruleset's exclusions (tai.exclusions): an excluded pattern is not entered beside its excluder
    for i, _, k in items:
        if (excluded >> i) & 1:
            by = next(r for r in table.reasons[i] if (present >> r.by) & 1)
            other = PATTERNS[by.by].code
            raise _fail(f"items[{k}].code",
                        f"{PATTERNS[i].code} is not counted beside {other} under this ruleset ({by.clause}"
                        f"{': ' + by.note if by.note else ''})",
                        f"有{_zh(other)}時不另計{PATTERNS[i].zh}（{by.clause}）")
    # contradictions by definition
    for code, k in sorted(codes.items(), key=lambda x: x[1]):
        for other, clause in _CONTRA.get(code, {}).items():
            if other in codes and codes[other] < k:
                raise _fail(f"items[{k}].code", f"{code} and {other} cannot both hold ({clause})",
                            f"{_zh(code)}與{_zh(other)}不可能同時成立（{clause}）")
    self_drawn = entry.deal_in is None
    for code, k in codes.items():
        if not self_drawn and code in SELF_DRAWN_ONLY:
            raise _fail(f"items[{k}].code",
                        f"{code} is only won on a self-drawn tile, but seat {entry.deal_in} dealt in",
                        f"{_zh(code)}限自摸，本盤卻是 {entry.deal_in} 號座放槍")
        if not self_drawn and code in ALL_PAY_WITHOUT_SELF_DRAW:
            raise _fail("deal_in", f"{code} is paid by all three (tai.29): no deal-in seat",
                        f"{_zh(code)}由三家支付（tai.29），不填放槍者")
        if self_drawn and code == "seven_rob_one" and entry.robbed is not None:
            continue  # tai.30.2: the robbed seat pays it alone, the hand is self-drawn
        if self_drawn and code in DISCARD_ONLY:
            raise _fail(f"items[{k}].code" if code != "seven_rob_one" else "deal_in",
                        f"{code} is won on another player's tile: name the deal-in seat (who pays alone)",
                        f"{_zh(code)}是胡別家的牌，須填放槍（獨付）者")
    if entry.robbed is not None and "seven_rob_one" not in codes:
        raise _fail("robbed", "a robbed seat is entered with the item seven_rob_one (tai.30.2)",
                    "填被搶花者時須有七搶一一項（tai.30.2）")
    # what an item needs beside it, unless excluded by a present item or not scored
    def satisfied(need: str) -> bool:
        j = INDEX[need]
        return need in codes or (excluded >> j) & 1 or not (table.active_mask >> j) & 1

    for code, k in codes.items():
        for need in REQUIRES.get(code, ()):
            if not satisfied(need):
                raise _fail(f"items[{k}].code", f"{code} needs {need} too (tai.04)",
                            f"{_zh(code)}須同時有{_zh(need)}（tai.04）")
    if self_drawn and not (set(codes) & ALL_PAY_WITHOUT_SELF_DRAW) and not satisfied("self_draw"):
        raise _fail("items", "a self-drawn win counts 自摸 (tai.23): add the item self_draw, or name the deal-in seat",
                    "自摸須計自摸台（tai.23）：請加入自摸一項，或填寫放槍者")


def _dealer_items(entry: ScorerEntry, items: list[tuple[int, int, int]], table: ScoringTable,
                  involved: bool) -> list[tuple[int, int, int]]:
    """Check 作莊 / 連N拉N as entered against the dealer and streak; the face items left."""
    face = []
    for i, count, k in items:
        code = PATTERNS[i].code
        if PATTERNS[i].scope != "dealer":
            face.append((i, count, k))
            continue
        if not involved:
            raise _fail(f"items[{k}].code",
                        f"{code}: the dealer (seat {entry.dealer}) neither wins nor pays this hand (tai.09)",
                        f"{_zh(code)}：莊家（{entry.dealer} 號座）本盤未胡也未付，不計（tai.09）")
        if code == "streak_per_n" and count != entry.streak:
            raise _fail(f"items[{k}].count", f"連{count}拉{count} but the streak entered is {entry.streak} (tai.10)",
                        f"連{count}拉{count} 與填寫的連莊數 {entry.streak} 不符（tai.10）")
    return face


@dataclass(frozen=True, slots=True)
class _Seats:
    """What :func:`settle` reads of a win's context: seats and streak (nothing of the tiles)."""

    winner: int
    dealer: int
    discarder: int | None
    streak: int
    streak_marker: int | None


def settle_entry(entry: ScorerEntry, ruleset: object, stakes: Stakes, *, multiple_wins: bool = False,
                 max_winners: int = 3) -> SettledEntry:
    """The hand's payments from a scorer's entry (see the module docstring).

    With ``also`` (一炮多響): only where ``multiple_wins`` (``play.multiple_wins``), at most
    ``max_winners`` (``play.multiple_wins_limit``), on a discard; each winner is checked and
    settled on its own with the discarder, and the payments add up.

    :raises EntryError: an impossible entry; ``field`` names the item or seat
        (``also[0].items[1].code`` for another winner's item).
    """
    if not isinstance(entry, ScorerEntry):
        raise _fail("entry", f"not a scorer's entry: {entry!r}", "不是計分表的填寫內容")
    if not entry.also:
        return _settle_one(entry, ruleset, stakes)
    return _settle_several(entry, ruleset, stakes, multiple_wins, max_winners)


def _settle_several(entry: ScorerEntry, ruleset: object, stakes: Stakes, multiple_wins: bool,
                    max_winners: int) -> SettledEntry:
    """一炮多響: each winner settled with the discarder on its own (``play.multiple_wins``)."""
    count = 1 + len(entry.also)
    if not multiple_wins:
        raise _fail("also", f"{count} winners on one discard, but this ruleset plays no 一炮多響 "
                    "(play.multiple_wins): the nearest player in turn wins (prio.2)",
                    f"一張捨牌記了 {count} 家胡牌，但此規則組不採一炮多響（play.multiple_wins）："
                    "由順位最近者胡（prio.2）")
    if count > max_winners:
        raise _fail("also", f"{count} winners on one discard, but this ruleset lets at most {max_winners} win "
                    "(play.multiple_wins_limit)",
                    f"一張捨牌記了 {count} 家胡牌，此規則組最多 {max_winners} 家（play.multiple_wins_limit）")
    if entry.winner is None or entry.deal_in is None:
        raise _fail("deal_in", "several winners win on one discard: name the deal-in seat (play.multiple_wins)",
                    "一炮多響須填放槍者（play.multiple_wins）")
    if entry.robbed is not None:
        raise _fail("robbed", "七搶一 on a self-drawn tile has one winner", "七搶一自摸只有一家胡")
    parts = [_settle_one(ScorerEntry(entry.dealer, entry.winner, entry.deal_in, entry.streak, entry.items, entry.tai,
                                     entry.streak_marker), ruleset, stakes)]
    seen = {entry.winner: "winner"}
    for k, other in enumerate(entry.also):
        where = f"also[{k}]"
        if not isinstance(other, AlsoWon):
            raise _fail(where, f"not another winner: {other!r}", f"不是另一家胡牌：{other!r}")
        check_seat(other.winner, f"{where}.winner", EntryError)
        if other.winner in seen or other.winner == entry.deal_in:
            raise _fail(f"{where}.winner",
                        f"seat {other.winner} is entered already ({seen.get(other.winner, 'deal_in')})",
                        f"{other.winner} 號座已填寫過")
        seen[other.winner] = f"{where}.winner"
        try:
            parts.append(_settle_one(ScorerEntry(entry.dealer, other.winner, entry.deal_in, entry.streak, other.items,
                                                 other.tai, entry.streak_marker), ruleset, stakes))
        except EntryError as exc:
            raise _fail(f"{where}.{exc.field}" if exc.field not in ("dealer", "streak", "deal_in") else exc.field,
                        exc.message, exc.reason_zh) from None
    payments = [sum(p.result.payments[s] for p in parts) for s in range(4)]
    result = HandResult(tuple(payments), tuple(p.result.wins[0] for p in parts))
    first = parts[0]
    return SettledEntry(result, first.face, first.dealer_tai, first.item_tai,
                        tuple(t for p in parts for t in p.transfers), tuple(parts))


def _settle_one(entry: ScorerEntry, ruleset: object, stakes: Stakes) -> SettledEntry:
    _check_seats(entry)
    table = table_for(ruleset)
    items = _read_items(entry, table)
    if entry.winner is None:
        if items:
            raise _fail("items[0].code", "an exhaustive draw has no 台 items (play.exhausted)",
                        "荒局沒有台數項目（play.exhausted）")
        if entry.tai not in (None, 0):
            raise _fail("tai", f"an exhaustive draw has no 台, got {entry.tai}", f"荒局沒有台數，收到 {entry.tai}")
        return SettledEntry(HandResult((0, 0, 0, 0)), 0, 0, (), ())
    _check_combination(entry, items, table)
    involved = entry.deal_in is None or entry.dealer in (entry.winner, entry.deal_in)
    face_items = _dealer_items(entry, items, table, involved)
    tai = table.tai
    written = []
    for i, count, k in items:
        value = tai[i] * count
        given = entry.items[k].tai
        if given is not None and given != value:
            raise _fail(f"items[{k}].tai", f"{PATTERNS[i].code} ×{count} is {value} 台 under this ruleset, not {given}",
                        f"{PATTERNS[i].zh}在此規則組為 {value} 台，不是 {given} 台")
        written.append((PATTERNS[i].code, value))
    robbed_tai = 0
    if entry.robbed is not None:  # tai.30.2: the robbed seat adds 七搶一 alone, outside the face
        robbed_tai = sum(tai[i] * c for i, c, _ in face_items if PATTERNS[i].code == "seven_rob_one")
        face_items = [(i, c, k) for i, c, k in face_items if PATTERNS[i].code != "seven_rob_one"]
    total = sum(tai[i] * c for i, c, _ in face_items)
    scored = sum(1 << i for i, _, _ in face_items)
    applied = tuple(a for a in table.adjustments if (scored >> a.pattern) & 1 and scored & a.with_any)
    total += sum(a.tai for a in applied)
    face = max(total, 0)
    capped = face if not table.cap or face <= table.cap else table.cap
    if entry.tai is not None and entry.tai != capped:
        raise _fail("tai", f"the items make {capped} 台 under this ruleset, the entry says {entry.tai}",
                    f"各項合計為 {capped} 台，填寫的是 {entry.tai} 台")
    if capped == 0 and not table.zero_tai_win:
        raise _fail("items", "a 0-台 hand does not win under this ruleset (app.zero-tai)",
                    "此規則組不允許 0 台的屁胡（app.zero-tai）")
    if capped < table.min_tai:
        raise _fail("items", f"a win needs at least {table.min_tai} 台 under this ruleset (起胡, scoring.min_tai)",
                    f"此規則組 {table.min_tai} 台起胡（scoring.min_tai），此手只有 {capped} 台")
    dealer_tai = table.dealer_unit + table.streak_unit * entry.streak if involved else 0
    ctx = _Seats(entry.winner, entry.dealer, entry.deal_in if entry.robbed is None else entry.robbed, entry.streak,
                 entry.streak_marker)
    score = Score(capped, face, dealer_tai, robbed_tai, [(i, c) for i, c, _ in face_items], involved, 0, applied, None,
                  False,
                  ctx, None, table, ())
    settlement = settle(score, stakes)
    try:
        result = HandResult.from_settlement(settlement, winner=entry.winner, tai=capped, deal_in=entry.deal_in)
    except ResultError as exc:  # stakes of 0 底 and a 0-台 win: nobody pays, and a win must be paid
        raise _fail("stakes", f"under stakes {stakes.base}/{stakes.per_tai} this win pays nothing: {exc.message}",
                    f"底 {stakes.base}、每台 {stakes.per_tai} 之下此胡牌無人付錢：{exc.reason_zh}") from exc
    return SettledEntry(result, capped, dealer_tai, tuple(written), tuple(t.to_dict() for t in settlement.transfers))


def deal_after(first_dealer: int, results: Sequence[HandResult], *, max_streak: int = 0) -> MatchState | None:
    """Who deals the next hand of a 將, and with what streak, after ``results`` (its hands in
    order) — ``seat.dealer``, ``app.dealer-continue``: the dealer repeats on his win or a
    荒局, unless he is at the event ruleset's 連莊上限 *max_streak* (``seat.max_streak``).
    ``None`` once a hand was ruled by a penalty (its dealer ruling is not in the result)."""
    state = start_match(first_dealer, max_streak=max_streak)
    for result in results:
        if result.penalty is not None:
            return None
        state = state.advance(HandOutcome(state.dealer, winners=tuple(w.seat for w in result.wins)))
    return state


def check_deal(entry: ScorerEntry, expected: MatchState, hand: int) -> None:
    """The dealer and streak entered must be the 將's (``seat.dealer``, ``tai.10``).

    :raises EntryError: naming ``dealer`` or ``streak``; or ``key`` when the 將 is over.
    """
    if expected.over:
        raise _fail("key", f"the 將 ended with the North round after {expected.hands} hands (app.rounds)",
                    f"本將已於第 {expected.hands} 盤北風圈結束（app.rounds）")
    if entry.dealer != expected.dealer:
        raise _fail("dealer", f"hand {hand} is dealt by seat {expected.dealer}, the entry says seat {entry.dealer} "
                    "(seat.dealer)",
                    f"第 {hand} 盤莊家應為 {expected.dealer} 號座，填寫的是 {entry.dealer} 號座（seat.dealer）")
    if entry.streak != expected.streak:
        raise _fail("streak", f"the dealer's streak is {expected.streak} at hand {hand}, the entry says {entry.streak} "
                    "(tai.10)", f"第 {hand} 盤莊家連莊數應為 {expected.streak}，填寫的是 {entry.streak}（tai.10）")


def entry_from_dict(data: object) -> ScorerEntry:
    """A :class:`ScorerEntry` from plain JSON (``items`` as ``[{"code", "count"?, "tai"?}]``
    or ``["code", …]``); field errors name the field."""
    if not isinstance(data, dict):
        raise _fail("entry", f"an entry is an object, got {data!r}", f"填寫內容須為物件，收到 {data!r}")
    raw = data.get("items", [])
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise _fail("items", f"items is a list, got {raw!r}", f"items 須為清單，收到 {raw!r}")
    also = data.get("also", [])
    if not isinstance(also, Sequence) or isinstance(also, str) or not all(isinstance(a, dict) for a in also):
        raise _fail("also", f"also is a list of {{winner, items, tai}}, got {also!r}",
                    f"also 須為 {{winner, items, tai}} 的清單，收到 {also!r}")
    return ScorerEntry(dealer=data.get("dealer"), winner=data.get("winner"), deal_in=data.get("deal_in"),
                       streak=data.get("streak", 0), items=_items_from(raw, "items"), tai=data.get("tai"),
                       streak_marker=data.get("streak_marker"), robbed=data.get("robbed"),
                       also=tuple(AlsoWon(a.get("winner"), _items_from(a.get("items", []), f"also[{k}].items"),
                                          a.get("tai")) for k, a in enumerate(also)))


def _items_from(raw: object, where: str) -> tuple[TaiItem, ...]:
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise _fail(where, f"items is a list, got {raw!r}", f"items 須為清單，收到 {raw!r}")
    items = []
    for k, item in enumerate(raw):
        if isinstance(item, str):
            items.append(TaiItem(item))
        elif isinstance(item, dict) and set(item) <= {"code", "count", "tai"} and "code" in item:
            items.append(TaiItem(item["code"], item.get("count", 1), item.get("tai")))
        else:
            raise _fail(f"{where}[{k}]", f"an item is a code or {{code, count, tai}}, got {item!r}",
                        f"項目須為名堂代碼或 {{code, count, tai}}，收到 {item!r}")
    return tuple(items)


__all__ = [
    "CONTRADICTIONS", "AlsoWon", "EntryError", "ScorerEntry", "SettledEntry", "TaiItem", "check_deal", "deal_after",
    "entry_from_dict", "settle_entry",
]

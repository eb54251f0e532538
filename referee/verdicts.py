"""Verdicts: what the referee says about each event (``issue #4``), as data.

Every event gets a :class:`Verdict`: :data:`ACCEPTED`, or the :class:`Irregularity`
(ies) it is. What an irregular act does to the hand depends on the table's mode:

* **digital**: the act is refused and changes nothing (:attr:`Status.REJECTED`);
* **physical**: the act happened; it stands as far as tiles allow, and becomes an
  irregularity for :mod:`penalties` to rule on (:attr:`Status.IRREGULAR`).

An :class:`Irregularity` carries what a ruling needs without reading the state again:
a stable ASCII ``code``, the ``clause`` id it breaks, the offending ``seat``, the
``evidence`` (event seqs, the act itself first) and ``facts`` (name → value pairs such as
the tile, the discarder, the drawable tiles left). :data:`CODES` lists every code with
its clause and its zh-TW / English description; ``docs/protocol.md`` shows the table.
"""
from __future__ import annotations

import re

from dataclasses import dataclass, replace
from typing import Any

from .kinds import Status
from .tiles import tile_name


@dataclass(frozen=True, slots=True)
class Irregularity:
    """One breach of the rules, found in the stream.

    :param code: stable ASCII code (:data:`CODES`).
    :param clause: the clause id it breaks (``play.restrict.7``).
    :param seq: the event at fault.
    :param seat: the offender, when one seat is at fault.
    :param evidence: event seqs that show it, the act itself first.
    :param facts: what penalties needs, as ``(name, value)`` pairs (values are str, int,
        bool, None or tuples of them): ``tile``, ``discarder``, ``live`` (drawable tiles
        left), ``kind``, ``stage`` ...
    :param detail_zh: / :param detail: one sentence an official can read out.
    """

    code: str
    clause: str
    seq: int
    seat: int | None = None
    evidence: tuple[int, ...] = ()
    facts: tuple[tuple[str, Any], ...] = ()
    detail_zh: str = ""
    detail: str = ""

    def fact(self, name: str, default: Any = None) -> Any:
        """One fact by name."""
        for key, value in self.facts:
            if key == name:
                return value
        return default

    def with_facts(self, **more: Any) -> Irregularity:
        """A copy with facts added or replaced (the referee completes some at the end of
        the hand, e.g. how far a wrong kong got)."""
        facts = dict(self.facts)
        facts.update(more)
        return replace(self, facts=tuple(facts.items()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "clause": self.clause,
            "seq": self.seq,
            "seat": self.seat,
            "evidence": list(self.evidence),
            "facts": {k: list(v) if isinstance(v, tuple) else v for k, v in self.facts},
            "detail_zh": self.detail_zh,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verdict on one event: its status and the irregularities it is (if any)."""

    status: Status
    irregularities: tuple[Irregularity, ...] = ()

    @property
    def accepted(self) -> bool:
        return self.status is Status.ACCEPTED

    def to_dict(self, seq: int) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": seq, "verdict": self.status.value}
        if self.irregularities:
            out["irregularities"] = [i.to_dict() for i in self.irregularities]
        return out


#: the verdict of every legal event (one shared object: the hot path allocates nothing)
ACCEPTED = Verdict(Status.ACCEPTED)
_ACCEPTED_WIRE = Status.ACCEPTED.value


class VerdictLog:
    """Every event's verdict, in stream order, as ``(seq, verdict)`` pairs.

    Stored compactly: the seqs in order, and a verdict only for the events that were not
    plainly :data:`ACCEPTED` (most of a hand's are), so that recording an event's verdict
    allocates nothing (for speed: the referee records one per event). Reads as a sequence
    of pairs: iterate, index, slice, ``len``, compare with another log or a list of pairs.

    >>> log = VerdictLog([3, 4], {4: Verdict(Status.REJECTED)})
    >>> list(log) == [(3, ACCEPTED), (4, Verdict(Status.REJECTED))]
    True
    """

    __slots__ = ("seqs", "odd")

    def __init__(self, seqs: list[int] | tuple[int, ...] = (), odd: dict[int, Verdict] | None = None) -> None:
        #: every event's seq, in order
        self.seqs = list(seqs)
        #: seq → verdict, for the events whose verdict is not :data:`ACCEPTED`
        self.odd: dict[int, Verdict] = dict(odd) if odd else {}

    def append(self, pair: tuple[int, Verdict]) -> None:
        """Record one event's verdict, ``(seq, verdict)``."""
        seq, verdict = pair
        self.seqs.append(seq)
        if verdict is not ACCEPTED:
            self.odd[seq] = verdict

    def copy(self) -> VerdictLog:
        return VerdictLog(self.seqs, self.odd)

    def to_dicts(self) -> list[dict[str, Any]]:
        """``[verdict.to_dict(seq) for seq, verdict in self]``, each accepted event's dict
        written directly (the answers of ``flask replay`` hold one per event)."""
        accepted = _ACCEPTED_WIRE
        if not self.odd:
            return [{"seq": seq, "verdict": accepted} for seq in self.seqs]
        get = self.odd.get
        return [{"seq": seq, "verdict": accepted} if (v := get(seq)) is None else v.to_dict(seq) for seq in self.seqs]

    def __len__(self) -> int:
        return len(self.seqs)

    def __iter__(self):
        get = self.odd.get
        for seq in self.seqs:
            yield seq, get(seq, ACCEPTED)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(self)[index]
        seq = self.seqs[index]
        return seq, self.odd.get(seq, ACCEPTED)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, VerdictLog):
            return self.seqs == other.seqs and self.odd == other.odd
        try:
            return list(self) == list(other)  # type: ignore[call-overload]
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"VerdictLog({self.seqs!r}, {self.odd!r})"


# --- the catalogue ------------------------------------------------------------------------
# code: (clause, zh-TW template, English template). Templates read the facts;
# {seat} is the offender. Tiles in facts are tile indices, written out by describe().

CODES: dict[str, tuple[str, str, str]] = {
    # stream and table
    "before_start": ("play.draw", "開局（hand_start）之前的事件", "an event before hand_start"),
    "after_hand_end": ("play.win", "此盤已結束後的動作", "an act after the hand ended"),
    "dealer_dice_mismatch": ("seat.dealer", "定莊骰點到 {pointed} 號座，開局卻記莊家為 {dealer} 號座",
                             "the dealer dice point at seat {pointed}, the hand says the dealer is seat {dealer}"),
    "break_not_dealer": ("deal.wall", "開門骰應由莊家擲", "the break dice are the dealer's to throw"),
    "wall_after_deal": ("deal.walls", "配牌開始後才給牌牆", "the wall was given after the deal began"),
    "wall_not_a_set": ("deal.walls", "牌牆不是一副完整的 {size} 張牌", "the wall is not one full set of {size} tiles"),
    "deal_out_of_order": ("deal.wall", "配牌順序錯誤：應由 {expected_seat} 號座取 {expected_count} 張",
                          "dealt out of order: seat {expected_seat} should take {expected_count}"),
    "wrong_tile": ("play.draw", "所記的牌 {tile} 與牌牆上的 {wall_tile} 不符",
                   "the tile recorded, {tile}, is not the wall's {wall_tile}"),
    "too_many_copies": ("deal.walls", "紀錄有誤：{tile} 已見 {seen} 張，整副牌只有 {limit} 張",
                        "the record is wrong: {tile} already seen {seen} times, the set has {limit}"),
    "tile_not_held": ("play.discard", "{seat} 號座手中沒有 {tile}", "seat {seat} does not hold {tile}"),
    # turn order and intake
    "out_of_turn_draw": ("pen.dead-hand", "{seat} 號座未輪到卻摸牌（搶摸、錯位摸補）",
                         "seat {seat} drew out of turn (搶摸 / 錯位摸補)"),
    "out_of_turn_discard": ("play.discard", "{seat} 號座未輪到卻打牌", "seat {seat} discarded out of turn"),
    "discard_before_intake": ("play.restrict", "{seat} 號座未進牌即打牌（缺張）",
                              "seat {seat} discarded without taking a tile in (缺張)"),
    "second_intake": ("play.restrict", "一個打序限執行一種屬性：{seat} 號座已進牌又再{kind_zh}",
                      "one kind of intake per turn: seat {seat} took a tile in and then tried {kind}"),
    "missing_replacement": ("deal.flowers", "{seat} 號座尚未從槓尾補牌（缺張）",
                            "seat {seat} has not drawn the replacement from the tail"),
    "unowed_replacement": ("pen.dead-hand", "{seat} 號座不該從槓尾補牌（錯位摸補）",
                           "seat {seat} drew from the tail with nothing to replace"),
    "dead_wall_draw": ("play.exhausted", "牌牆只剩殘牌 {reserve} 張，不得再摸",
                       "only the {reserve} dead-wall tiles are left: no more draws"),
    "skip_not_last": ("tai.25", "只有海底牌得棄摸", "only the last tile may be left undrawn"),
    # flowers
    "flower_out_of_order": ("deal.flowers", "補花順序錯誤：補到的花須待下一輪依序再補",
                            "flowers out of order: a flower drawn as a replacement waits for the next round"),
    "flower_not_held": ("deal.flowers", "{seat} 號座手中沒有花牌 {tile}", "seat {seat} holds no flower {tile}"),
    "no_flowers_in_play": ("deal.walls", "此規則組不用花牌（無花玩法，一副 136 張，tiles.flowers）：沒有花可補",
                           "this ruleset plays without flowers (136 tiles, tiles.flowers): "
                           "there is no flower to lay out"),
    "flower_not_replaced": ("deal.flowers", "{seat} 號座摸得花牌未補（花牌未補）",
                            "seat {seat} did not replace a flower (花牌未補)"),
    "flower_discarded": ("deal.flowers", "{seat} 號座打出花牌（花牌打出）",
                         "seat {seat} discarded a flower (花牌打出)"),
    # claims
    "claim_nothing": ("play.chi", "沒有可吃碰槓的捨牌", "there is no discard to claim"),
    "claim_own_discard": ("play.pon", "不得吃碰槓自己打出的牌", "one's own discard cannot be claimed"),
    "chow_wrong_seat": ("play.chi", "只能吃上家的牌：{seat} 號座吃了 {discarder} 號座打出的 {tile}",
                        "only the previous player's discard may be chowed: "
                        "seat {seat} chowed {tile} from seat {discarder}"),
    "chow_not_a_run": ("play.chi", "{tiles} 不是含捨牌 {tile} 的順子（錯吃）",
                       "{tiles} is no chow with the discard {tile} (錯吃)"),
    "pung_not_alike": ("play.pon", "{tiles} 不是捨牌 {tile} 的刻子（錯碰）",
                       "{tiles} is no pung of the discard {tile} (錯碰)"),
    "melded_kong_previous_player": ("app.kong.limits", "不能明槓上家的牌",
                                    "no melded kong on the previous player's discard"),
    "wrong_kong": ("pen.wrong-kong", "{tiles} 不是四張相同的牌（錯槓）", "{tiles} are not four alike tiles (錯槓)"),
    "added_kong_no_pung": ("play.kong.exposed", "加槓須加在自己已碰的明刻上",
                           "an added kong goes onto one's own exposed pung"),
    "kong_tiles_not_held": ("play.kong.concealed", "{seat} 號座手中沒有這副槓的牌",
                            "seat {seat} does not hold the kong's tiles"),
    "claim_tiles_not_held": ("play.chi", "{seat} 號座手中沒有吃碰用的牌",
                             "seat {seat} does not hold the tiles of the claim"),
    "kong_after_claim": ("play.restrict.1", "吃牌或碰牌之後不得接著開槓", "no kong right after a chow or pung"),
    "concealed_kong_after_melded": ("play.restrict.3", "碰槓補牌之後不得接著暗槓",
                                    "no concealed kong right after a melded kong's replacement"),
    "kong_not_in_turn": ("play.kong.concealed", "暗槓、加槓須於本身摸牌之後",
                         "a concealed or added kong is made in one's own turn, after drawing"),
    "forbidden_discard_after_chow": ("play.restrict.6", "吃入 {tile} 後不得打出 {discard}",
                                     "after chowing {tile}, {discard} may not be discarded"),
    "forbidden_discard_after_pung": ("play.restrict.6", "碰 {tile} 後不得打出同牌",
                                     "after punging {tile}, the same tile may not be discarded"),
    "chow_own_recent_discard": ("play.restrict.6", "同巡內不得吃入本家前一捨牌 {own} 的同（絡）牌",
                                "no chow in the go-around of a tile alike or linked to one's own last discard {own}"),
    "claim_in_last_tiles": ("play.restrict.7", "牌牆摸序末 {limit} 張內不得吃、碰、碰槓（剩 {live} 張）",
                            "no chow, pung or melded kong within the last {limit} tiles ({live} left)"),
    "claim_revealed_tiles": ("play.restrict.8", "{seat} 號座已自行外露 {revealed}，本盤不得以之吃碰槓或胡銃",
                             "seat {seat} showed {revealed} by its own fault: no claim or discard win on it this hand"),
    "passed_pung": ("play.pon", "過水碰：同一巡內不得碰先前未碰的同一張牌 {tile}",
                    "passed pung: {tile} was not punged earlier in the go-around"),
    "unfulfilled_call": ("pen.unfulfilled-call", "{seat} 號座喊{call_zh}卻未履行",
                         "seat {seat} called {call} and did not complete it"),
    "exposed_discard": ("pen.exposed-discard", "{seat} 號座打出門前明牌 {tile}（錯打明牌）",
                        "seat {seat} discarded {tile} from an exposed meld (錯打明牌)"),
    "dead_hand_act": ("pen.dead-hand", "相公只得摸牌打牌，不得{kind_zh}",
                      "a dead hand only draws and discards: no {kind}"),
    # wins
    "false_win": ("pen.false-win", "{seat} 號座宣告胡牌，但手牌未成胡（{why_zh}）",
                  "seat {seat} declared a win without a winning hand ({why})"),
    "passed_win": ("play.passed-win", "{seat} 號座過水未解除即胡牌（過水違規）",
                   "seat {seat} won while its passed win was not released"),
    "win_out_of_turn": ("play.win", "{seat} 號座此時無牌可胡", "seat {seat} has no tile to win on now"),
    "self_draw_not_from_draw": ("play.restrict.4", "自摸必須始於摸牌：此打序以{intake_zh}進牌",
                                "a self-draw starts with a draw: this turn began with {intake}"),
    "replacement_self_draw": ("play.restrict.2", "碰槓之補牌不得自摸胡牌",
                              "the replacement of a melded kong cannot win by self-draw"),
    "kong_draw_passed_tile": ("play.restrict.5",
                              "暗槓前所摸之牌已靠入手牌，補牌成胡而可胡之牌含同巡打過之牌 {tile}，此自摸無效",
                              "the tile drawn before the concealed kong was placed in the hand and the waits include "
                              "{tile}, discarded this go-around: no self-draw"),
    "self_draw_after_placing": ("tai.23", "所摸之牌已靠入手牌（靠張），不得自摸",
                                "the drawn tile touched the hand (靠張): no self-draw"),
    "flower_win_unreplaced": ("tai.27", "得花胡須先補牌（手牌足 17 張）才能胡",
                              "a flower win needs the replacement drawn first (17 tiles)"),
    "lost_priority": ("prio", "{seat} 號座喪失優先權後仍{kind_zh}", "seat {seat} acted after losing priority ({kind})"),
    # readiness
    "ready_not_ready": ("play.ready", "{seat} 號座宣告{ready_zh}，但手牌未聽牌",
                        "seat {seat} declared {ready} without a ready hand"),
    "ready_untimely": ("tai.31", "{ready_zh}須於{when_zh}宣告", "{ready} is declared {when}"),
    "ready_not_played": ("app.ready", "此規則組不玩宣告聽牌", "this ruleset has no declared ready hands"),
    "ready_changed": ("app.ready", "宣告聽牌後只能打摸到的牌",
                      "after declaring ready, only the drawn tile may be discarded"),
    # officials
    "reported": ("pen.dead-hand", "裁判報告，依報告內容裁定", "official's report: {code_reported}"),
}


def _fmt(value: Any, zh: bool = False) -> Any:
    if isinstance(value, tuple) and value and all(type(v) is int for v in value):
        from .tiles import format_tiles, tiles_zh

        return tiles_zh(value) if zh else format_tiles(value, sort=False)
    return value


#: the facts that name a seat: read out by the hand's winds (東家 …) once the wall-break
#: seat is known (issue #13: the words an official reads)
SEAT_FACTS = ("seat", "discarder", "pointed", "dealer", "expected_seat")
WINDS_ZH = ("東", "南", "西", "北")
WINDS_EN = ("East", "South", "West", "North")
_SEAT_ZH = re.compile(r" ?\{(" + "|".join(SEAT_FACTS) + r")\} 號座")
_SEAT_EN = re.compile(r"\b[Ss]eat \{(" + "|".join(SEAT_FACTS) + r")\}")
_BY_WIND: dict[str, tuple[str, str]] = {}


def seat_by_wind(seat: int, east: int, names: Any = None) -> tuple[str, str]:
    """``(zh, en)`` naming *seat* by its wind this hand, counted from the wall-break seat
    *east* (開門位 = 東, ``deal.break``): 「南家」, "South (seat 1)"; at a table whose players
    are known (*names*: seat → name) with the name after the wind: 「南家 李大華」,
    "South (seat 1, 李大華)" (docs/rulings.md, 「裁定中的稱呼」)."""
    wind = (seat - east) % 4
    name = seat_name(names, seat)
    if name:
        return f"{WINDS_ZH[wind]}家 {name}", f"{WINDS_EN[wind]} (seat {seat}, {name})"
    return f"{WINDS_ZH[wind]}家", f"{WINDS_EN[wind]} (seat {seat})"


def seat_name(names: Any, seat: int) -> str | None:
    """The player's name at *seat* (*names*: a sequence of four, ``None`` or ``""`` where
    none is known), or None."""
    if not names:
        return None
    try:
        name = names[seat]
    except (KeyError, IndexError, TypeError):
        return None
    return (str(name).strip() or None) if name is not None else None


def _templates(code: str) -> tuple[str, str]:
    """The code's templates with each seat word standing alone (「{seat} 號座」 → 「{seat}」)."""
    found = _BY_WIND.get(code)
    if found is None:
        _clause, zh, en = CODES[code]
        found = _BY_WIND[code] = (_SEAT_ZH.sub(r"{\1}", zh), _SEAT_EN.sub(r"{\1}", en))
    return found


def code_table() -> list[str]:
    """The catalogue as ``docs/protocol.md`` shows it (「判定 Verdicts」): a Markdown row per code,
    each sentence as an official hears it at a hand — every seat fact (:data:`SEAT_FACTS`) a
    word of its own, read as the seat's wind (「南家」, "South (seat 1)"), never 「N 號座」
    (issue #13 item 4); ``tests/test_protocol_reports.py`` holds the doc to it."""
    rows = ["| code | clause | 中文 | English |", "| --- | --- | --- | --- |"]
    for code, (clause, _zh, _en) in CODES.items():
        zh, en = _templates(code)
        rows.append(f"| `{code}` | `{clause}` | {zh} | {en[:1].upper() + en[1:]} |")
    return rows


def irregularity(code: str, seq: int, seat: int | None = None, *, clause: str | None = None,
                 evidence: tuple[int, ...] = (), east: int | None = None, names: Any = None,
                 **facts: Any) -> Irregularity:
    """Build an irregularity from the catalogue; tile facts (``tile``, ``discard``, ``own``,
    ``wall_tile``) are tile indices and are written out in the descriptions (in Chinese in
    the zh-TW one: 五萬, 東東東). With *east* (the hand's wall-break seat) the seats are
    named by their winds (東家 …), and by the players' *names* (seat → name) at a table whose
    players are known (「東家 王小明」), else by number (1 號座)."""
    default_clause, zh, en = CODES[code]
    words: dict[str, Any] = {"seat": seat}
    words_zh: dict[str, Any] = {"seat": seat}
    for key, value in facts.items():
        if key in ("tile", "discard", "own", "wall_tile") and type(value) is int:
            words[key] = tile_name(value)
            words_zh[key] = tile_name(value, "zh")
        else:
            words[key] = _fmt(value)
            words_zh[key] = _fmt(value, True)
    if east is not None:
        zh, en = _templates(code)
        for key in SEAT_FACTS:
            value = words.get(key)
            if type(value) is int and 0 <= value < 4:
                words_zh[key], words[key] = seat_by_wind(value, east, names)
            elif key in words and value is None:
                words_zh[key] = words[key] = "?"
    try:
        detail_zh = zh.format_map(_Missing(words_zh))
        detail = en.format_map(_Missing(words))
        if east is not None:
            detail = detail[:1].upper() + detail[1:]
    except (KeyError, IndexError, ValueError):  # pragma: no cover - a template bug shows as raw text
        detail_zh, detail = zh, en
    return Irregularity(code, clause or default_clause, seq, seat, evidence or (seq,), tuple(facts.items()), detail_zh,
                        detail)


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"

"""Steps for features/scoring*.feature and features/settlement*.feature (issue #3).

Seats are written by this hand's winds: 東 is the seat where the wall was opened
(``deal.wall``), 南 its 下家, and so on; the dealer is 東 unless the context says
otherwise. A context is ``key=value`` pairs::

    胡家=南 莊家=東 圈風=東 方式=自摸 胡牌張=S 連莊=1 示記=0 放銃=西
    聽牌=天聽|地聽|宣告  首巡=天胡|地胡|人胡  花胡=八仙過海|七搶一|七搶一自摸
    配牌花胡=是  寶牌=5m,P,P  被搶花=8f  開門=東  補槓=明槓|加槓|暗槓  包牌=北

方式: 自摸 (wall), 槓上 (kong replacement), 補花 (flower replacement), 海底 (last tile),
放銃 (discard), 河底 (last discard), 搶槓 (robbing a kong), 花胡 (flower win, hand
not shown).
"""
from __future__ import annotations

import json
import re

import pytest
from pytest_bdd import given, parsers, then, when

from referee.errors import MjrefError
from referee.hand import Hand
from referee.melds import MeldKind
from referee.ruleset import Ruleset
from referee.scoring import (
    FirstTurn, FlowerWin, Readiness, Stakes, WinContext, WinSource, score, settle, settle_draw,
)
from referee.tiles import Wind, check_flowers, format_tiles, parse_tiles

_SEATS = {"東": 0, "南": 1, "西": 2, "北": 3}
_SOURCES = {
    "自摸": WinSource.WALL, "槓上": WinSource.KONG_REPLACEMENT, "補花": WinSource.FLOWER_REPLACEMENT,
    "海底": WinSource.LAST_TILE, "放銃": WinSource.DISCARD, "河底": WinSource.LAST_DISCARD,
    "搶槓": WinSource.ROBBING_KONG, "花胡": WinSource.FLOWER_WIN,
}
_FLOWER_WINS = {"八仙過海": FlowerWin.EIGHT_FLOWERS, "七搶一": FlowerWin.SEVEN_ROB_ONE,
                "七搶一自摸": FlowerWin.SEVEN_ROB_ONE_DRAWN}
_READY = {"天聽": Readiness.HEAVENLY, "地聽": Readiness.EARTHLY, "宣告": Readiness.DECLARED}
_KONGS = {"明槓": MeldKind.MELDED_KONG, "加槓": MeldKind.ADDED_KONG, "暗槓": MeldKind.CONCEALED_KONG}
_FIRST = {"天胡": FirstTurn.HEAVENLY_WIN, "地胡": FirstTurn.EARTHLY_WIN, "人胡": FirstTurn.HUMAN_WIN}


@pytest.fixture
def tally():
    """What a scoring scenario builds up: ruleset, hand, context, stakes, outcome."""
    return {"profile": "competition", "overrides": {}, "stakes": Stakes(100, 20), "tiles": "", "melds": "",
            "flowers": ""}


def _seat(text: str) -> int:
    return _SEATS[text] if text in _SEATS else int(text)


def _context(spec: str) -> WinContext:
    kv = dict(item.split("=", 1) for item in spec.split())
    args: dict = {
        "winner": _seat(kv.pop("胡家")),
        "dealer": _seat(kv.pop("莊家", "東")),
        "round_wind": Wind(_SEATS[kv.pop("圈風", "東")]),
        "source": _SOURCES[kv.pop("方式")],
        "wall_break": _seat(kv.pop("開門", "東")),
    }
    if "胡牌張" in kv:
        args["winning_tile"] = parse_tiles(kv.pop("胡牌張"))[0]
    if "放銃" in kv:
        args["discarder"] = _seat(kv.pop("放銃"))
    if "連莊" in kv:
        args["streak"] = int(kv.pop("連莊"))
    if "示記" in kv:
        args["streak_marker"] = int(kv.pop("示記"))
    if "花胡" in kv:
        args["flower_win"] = _FLOWER_WINS[kv.pop("花胡")]
    if kv.pop("配牌花胡", None) == "是":
        args["dealt_flower_win"] = True
    if "聽牌" in kv:
        args["readiness"] = _READY[kv.pop("聽牌")]
    if "首巡" in kv:
        args["first_turn"] = _FIRST[kv.pop("首巡")]
    if "寶牌" in kv:
        args["bao"] = tuple(parse_tiles(kv.pop("寶牌").replace(",", " ")))
    if "被搶花" in kv:
        args["robbed_flower"] = parse_tiles(kv.pop("被搶花"))[0]
    if "包牌" in kv:
        args["liable"] = _seat(kv.pop("包牌"))
    if "補槓" in kv:
        args["replaced_kong"] = _KONGS[kv.pop("補槓")]
    assert not kv, f"unknown context keys {sorted(kv)}"
    return WinContext(**args)


@given(parsers.re(r'計台規則為 "(?P<profile>[^"]+)"'))
def scoring_profile(tally, profile):
    tally["profile"] = profile


@given(parsers.re(r'計台規則為 "(?P<profile>[^"]+)"，參數 "(?P<name>[^"]+)" 設為 (?P<value>\S+)'))
def scoring_profile_override(tally, profile, name, value):
    tally["profile"] = profile
    try:
        tally["overrides"][name] = json.loads(value)
    except json.JSONDecodeError:
        tally["overrides"][name] = value


@given(parsers.re(r'另設參數 "(?P<name>[^"]+)" 為 (?P<value>\S+)$'))
def scoring_more_overrides(tally, name, value):
    """One more override on top of the profile (the value as JSON, or a bare string)."""
    try:
        tally["overrides"][name] = json.loads(value)
    except json.JSONDecodeError:
        tally["overrides"][name] = value


@given(parsers.re(r'胡牌手牌 "(?P<tiles>[^"]*)"(，副露 "(?P<melds>[^"]*)")?(，花牌 "(?P<flowers>[^"]*)")?'))
def scoring_hand(tally, tiles, melds, flowers):
    tally["tiles"], tally["melds"], tally["flowers"] = tiles, melds or "", flowers or ""


@given(parsers.re(r'胡牌情境 "(?P<spec>[^"]*)"'))
def scoring_context(tally, spec):
    tally["spec"] = spec


@given(parsers.re(r"底台為 (?P<base>\d+)/(?P<per_tai>\d+)"))
def scoring_stakes(tally, base, per_tai):
    tally["stakes"] = Stakes(int(base), int(per_tai))


@when("計算台數與收付")
def scoring_run(tally):
    tally["error"] = tally["result"] = None
    try:
        ruleset = Ruleset.load(tally["profile"], tally["overrides"] or None)
        ctx = _context(tally["spec"])
        if ctx.source is WinSource.FLOWER_WIN and not tally["tiles"]:
            hand, flowers = None, check_flowers(parse_tiles(tally["flowers"]))
        else:
            hand, flowers = Hand.parse(tally["tiles"], tally["melds"], tally["flowers"]), None
        result = score(hand, ctx, ruleset, flowers=flowers)
    except MjrefError as error:
        tally["error"] = error
        return
    tally["result"] = result
    tally["report"] = result.to_dict()
    tally["settlement"] = settle(result, tally["stakes"])
    payments = tally["settlement"].payments
    assert sum(payments) == 0, payments


@when("荒局結算")
def scoring_draw(tally):
    tally["error"] = None
    tally["settlement"] = settle_draw()


def _ok(tally):
    assert tally["error"] is None, f"{type(tally['error']).__name__}: {tally['error']} (field {tally['error'].field})"


@then(parsers.re(r"牌面為 (?P<tai>-?\d+) 台"))
def scoring_face(tally, tai):
    _ok(tally)
    assert tally["result"].tai == int(tai), tally["report"]


@then(parsers.re(r"莊家台數為 (?P<tai>\d+) 台"))
def scoring_dealer_tai(tally, tai):
    _ok(tally)
    assert tally["result"].dealer_tai == int(tai)


@then(parsers.re(r"被搶者另付 (?P<tai>\d+) 台"))
def scoring_robbed_tai(tally, tai):
    _ok(tally)
    assert tally["result"].robbed_tai == int(tai)


def _named(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in re.split(r"[、,]\s*", text.strip()):
        if part:
            name, _, tai = part.strip().rpartition(" ")
            out[name.strip()] = int(tai)
    return out


@then(parsers.re(r'計入名堂 "(?P<names>[^"]*)"'))
def scoring_patterns(tally, names):
    """Exactly these face patterns (and 七搶一 paid by the robbed player), with their 台."""
    _ok(tally)
    got = {p["zh"]: p["tai"] for p in tally["report"]["patterns"] if p["scope"] != "dealer"}
    assert got == _named(names)


@then(parsers.re(r'不計 "(?P<name>[^"]+)"，因 "(?P<by>[^"]+)"（(?P<clause>[^）]+)）'))
def scoring_excluded(tally, name, by, clause):
    """*name* matched and was not counted; *by* (under *clause*) is among what excluded it."""
    _ok(tally)
    found = {p["zh"]: p["excluded_by"] for p in tally["report"]["excluded"]}
    assert name in found, tally["report"]["excluded"]
    assert (by, clause) in [(e["zh"], e["clause"]) for e in found[name]], found[name]


@then(parsers.re(r'減台 (?P<tai>-?\d+)（(?P<clause>[^）]+)）'))
def scoring_adjustment(tally, tai, clause):
    _ok(tally)
    assert [(a["tai"], a["clause"]) for a in tally["report"]["adjustments"]] == [(int(tai), clause)]


@then(parsers.re(r'各家收付為 "(?P<spec>[^"]+)"'))
def scoring_payments(tally, spec):
    _ok(tally)
    want = [0, 0, 0, 0]
    for part in re.split(r"[、,]\s*", spec):
        seat, amount = part.split()
        want[_SEATS[seat]] = int(amount)
    assert list(tally["settlement"].payments) == want, tally["settlement"]
    assert sum(want) == 0


@then(parsers.re(r'計台錯誤，欄位為 "(?P<field>[^"]+)"'))
def scoring_error(tally, field):
    assert tally["error"] is not None, tally.get("report")
    assert tally["error"].field == field, tally["error"]
    assert tally["error"].reason_zh


@then(parsers.re(r'採用拆法 "(?P<groups>[^"]*)"'))
def scoring_reading(tally, groups):
    """The decomposition used (concealed groups and melds, any order)."""
    _ok(tally)
    reading = tally["report"]["decomposition"]
    got = [g["tiles"] for g in reading["groups"]] + [m["tiles"] for m in reading["melds"]]
    assert sorted(got) == sorted(format_tiles(parse_tiles(g)) for g in groups.split()), got

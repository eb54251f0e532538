"""Steps for features/referee_*.feature (issue #4: the referee).

Every step text starts with 「裁判：」 (steps are global across features). A scenario sets up
a hand — the table's mode and ruleset, the dealer, the tiles each seat is dealt, what the
wall gives — then tells what happened act by act, as event sequences; the steps turn that
into the protocol's events with :class:`testkit.scenario.Scenario` and run the real
referee (:class:`referee.machine.Referee`) on them.

Acts: a table 「| 座位 | 動作 | 牌 |」 (optional 「時間」 column, ms; a row whose seat is 「-」
is left out, so an outline's examples can drop an act), or one line
「裁判：N 號座 動作 "牌"」. Actions are those of :data:`testkit.scenario.ACTIONS` (打 摸 補
補花 吃 碰 明槓 暗槓 加槓 胡 天聽 地聽 宣告聽牌 喊碰 喊胡 伸手 靠張 不要 棄海底 亮牌 打明牌 報告
結束 摸打). Seats are 0–3 counterclockwise; tiles in compact (5m) or Chinese (五萬) notation.
"""
from __future__ import annotations

import json

import pytest
from pytest_bdd import given, parsers, then, when

from referee.dice import counted_seat
from referee.events import Mode
from referee.machine import Referee
from testkit.scenario import Scenario, cycle
from referee.tiles import Wind, parse_tiles
from referee.verdicts import Status
from referee.wall import describe_position

_WINDS = {"東": Wind.EAST, "南": Wind.SOUTH, "西": Wind.WEST, "北": Wind.NORTH}
_STATUS = {"接受": Status.ACCEPTED, "accepted": Status.ACCEPTED, "拒絕": Status.REJECTED, "rejected": Status.REJECTED,
           "違規": Status.IRREGULAR, "irregular": Status.IRREGULAR}


@pytest.fixture
def table():
    """The scenario's hand: the Scenario's settings, the acts so far, the referee's answer."""
    return {"kw": {"hands": {}, "rules": {}}, "draws": None, "acts": [], "ref": None, "opening": 0}


def _value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _run(table) -> Referee:
    """Replay the hand so far (opening and acts) on a fresh referee; keep it for the checks."""
    kw = dict(table["kw"])
    if table["draws"] is not None:
        kw["draws"] = table["draws"]
    scenario = Scenario(**kw)
    opening = scenario.opening()
    events = scenario.events(table["acts"])
    ref = Referee()
    for ev in events:
        ref.apply(ev)
    table["ref"], table["opening"], table["events"] = ref, len(opening), events
    return ref


def _ref(table) -> Referee:
    return table["ref"] or _run(table)


def _adjudication(table):
    return _ref(table).finish()


def _act_verdict(table, n: int):
    ref = _ref(table)
    index = table["opening"] + n - 1
    if n < 0:
        index = len(ref.verdicts) + n
    return ref.verdicts[index][1]


# --- the table ------------------------------------------------------------------------------


@given(parsers.re(r'裁判：規則組 "(?P<profile>[^"]+)"(?:，參數 (?P<params>.+))?$'))
def ruleset(table, profile, params):
    table["kw"]["ruleset"] = profile
    for item in (params or "").split("，"):
        if "=" in item:
            name, value = item.split("=", 1)
            table["kw"]["rules"][name.strip()] = _value(value.strip())


@given(parsers.re(r"裁判：(?P<mode>數位|實體)牌桌，莊家 (?P<dealer>\d) 號座(?:，圈風(?P<wind>[東南西北]))?"
                  r"(?:，連莊 (?P<streak>\d+))?(?:，起莊位 (?P<first>\d) 號座)?$"))
def the_table(table, mode, dealer, wind, streak, first):
    kw = table["kw"]
    kw["mode"] = Mode.DIGITAL if mode == "數位" else Mode.PHYSICAL
    kw["dealer"] = int(dealer)
    if wind:
        kw["round_wind"] = _WINDS[wind]
    if streak:
        kw["streak"] = int(streak)
    if first:
        kw["first_dealer"] = int(first)


@given(parsers.re(r'裁判：(?P<seat>\d) 號座配牌 "(?P<tiles>[^"]*)"(?:（其餘隨機）)?$'))
def dealt(table, seat, tiles):
    table["kw"]["hands"][int(seat)] = tiles


@given(parsers.re(r'裁判：牌牆依序摸出 "(?P<tiles>[^"]*)"$'))
def draws(table, tiles):
    table["draws"] = tiles


@given(parsers.re(r'裁判：第 (?P<n>\d+) 次摸牌摸出 "(?P<tile>[^"]+)"$'))
def draw_at(table, n, tile):
    if not isinstance(table["draws"], dict):
        table["draws"] = {}
    table["draws"][int(n) - 1] = tile


@given(parsers.re(r'裁判：槓尾依序補出 "(?P<tiles>[^"]*)"$'))
def tail(table, tiles):
    table["kw"]["tail"] = tiles


@given(parsers.re(r"裁判：開門骰 (?P<d1>\d) (?P<d2>\d) (?P<d3>\d)$"))
def break_dice(table, d1, d2, d3):
    table["kw"]["dice"] = (int(d1), int(d2), int(d3))


@given(parsers.re(r"裁判：(?P<what>搬風|定莊)由 (?P<seat>\d) 號座擲骰 (?P<d1>\d) (?P<d2>\d) (?P<d3>\d)$"))
def seat_or_dealer_dice(table, what, seat, d1, d2, d3):
    key = "seat_dice" if what == "搬風" else "dealer_dice"
    table["kw"][key] = (int(seat), (int(d1), int(d2), int(d3)))


@given("裁判：本將首盤")
def first_hand(table):
    table["kw"]["first_hand"] = True


# --- acts -------------------------------------------------------------------------------------


def _act(table, seat: str | None, action: str, tiles: str | None, ts: str | None = None) -> None:
    s = None if seat in (None, "", "-", "—") else int(seat)
    extra = {"ts": int(ts)} if ts else {}
    table["acts"].append((s, action, tiles or None, *([extra] if extra else [])))
    table["ref"] = None


@when(parsers.re(r"裁判：依序發生$"))
def acts_table(table, datatable):
    header, *rows = datatable
    for row in rows:
        cells = dict(zip(header, row))
        if cells.get("座位") in ("-", "—") and cells["動作"] not in ("結束", "報告"):
            continue  # a row left out in this example (場景大綱)
        _act(table, cells.get("座位"), cells["動作"], cells.get("牌"), cells.get("時間"))


@when(parsers.re(r'裁判：(?P<seat>\d|-) 號座 (?P<action>[^ "]+)(?: "(?P<tiles>[^"]*)")?(?:，時間 (?P<ts>\d+))?$'))
def one_act(table, seat, action, tiles, ts):
    _act(table, seat, action, tiles, ts)


@when(parsers.re(r"裁判：自 (?P<seat>\d) 號座起輪流摸打 (?P<n>\d+) 次$"))
def many_turns(table, seat, n):
    for s, action, tiles in cycle(int(seat), int(n)):
        _act(table, str(s), action, tiles)


@when("裁判：本盤結束")
def hand_end(table):
    _act(table, None, "結束", None)


# --- checks -----------------------------------------------------------------------------------


@then(parsers.re(r'裁判：第 (?P<n>\d+) 個動作判定為「(?P<verdict>[^」]+)」$'))
def act_verdict(table, n, verdict):
    got = _act_verdict(table, int(n))
    assert got.status is _STATUS[verdict], got


@then(parsers.re(r'裁判：最後一個動作判定為「(?P<verdict>[^」]+)」$'))
def last_verdict(table, verdict):
    got = _act_verdict(table, -1)
    assert got.status is _STATUS[verdict], got


@then(parsers.re(r'裁判：每個動作皆判定為「接受」$'))
def all_accepted(table):
    ref = _ref(table)
    bad = [(seq, v) for seq, v in ref.verdicts if v.status is not Status.ACCEPTED]
    assert not bad, bad


@then(parsers.re(r'裁判：違規 "(?P<code>[^"]+)"，條文 "(?P<clause>[^"]+)"(?:，違規者 (?P<seat>\d) 號座)?$'))
def has_irregularity(table, code, clause, seat):
    found = [i for i in _adjudication(table).irregularities if i.code == code]
    assert found, [(i.code, i.clause) for i in _adjudication(table).irregularities]
    assert any(i.clause == clause for i in found), [(i.code, i.clause) for i in found]
    if seat is not None:
        assert any(i.seat == int(seat) for i in found if i.clause == clause), found


@then(parsers.re(r'裁判：違規依序為 "(?P<codes>[^"]*)"$'))
def irregularity_codes(table, codes):
    want = [c.strip() for c in codes.split(",") if c.strip()]
    assert [i.code for i in _adjudication(table).irregularities] == want


@then("裁判：沒有違規")
def no_irregularity(table):
    got = _adjudication(table).irregularities
    assert not got, got


@then(parsers.re(r'裁判：違規事實 "(?P<name>[^"]+)" 為 "(?P<value>[^"]*)"$'))
def irregularity_fact(table, name, value):
    irr = _adjudication(table).irregularities
    assert irr
    assert any(str(i.fact(name)) == value for i in irr), [(i.code, i.facts) for i in irr]


@then(parsers.re(r'裁判：結果為 "(?P<kind>[^"]+)"(?:，條文 "(?P<clause>[^"]+)")?$'))
def outcome_kind(table, kind, clause):
    outcome = _adjudication(table).outcome
    assert outcome.kind.value == kind, outcome.detail
    if clause:
        assert outcome.clause == clause


@then(parsers.re(r'裁判：(?P<seat>\d) 號座胡牌，方式 "(?P<source>[^"]+)"(?:，放銃者 (?P<discarder>\d) 號座)?$'))
def winner(table, seat, source, discarder):
    outcome = _adjudication(table).outcome
    assert outcome.kind.value == "win", outcome.detail
    win = next((w for w in outcome.wins if w.claim.seat == int(seat)), None)
    assert win is not None, [w.claim for w in outcome.wins]
    assert win.claim.source.value == source
    if discarder is not None:
        assert win.claim.discarder == int(discarder)
    assert win.unscored is None and win.settlement is not None, win.unscored


@then(parsers.re(r'裁判：胡牌者為 "(?P<seats>[^"]+)"$'))
def winners(table, seats):
    got = [w.claim.seat for w in _adjudication(table).outcome.wins]
    assert got == [int(s) for s in seats.split(",")]


@then(parsers.re(r'裁判：胡牌的(?P<what>花胡|首巡|聽牌宣告)為 "(?P<value>[^"]+)"$'))
def win_detail(table, what, value):
    claim = _adjudication(table).outcome.wins[0].claim
    attr = {"花胡": "flower_win", "首巡": "first_turn", "聽牌宣告": "readiness"}[what]
    assert getattr(claim, attr).value == value


@then(parsers.re(r"裁判：下一盤莊家 (?P<dealer>\d) 號座，連莊 (?P<streak>\d+)(?:，圈風(?P<wind>[東南西北]))?"
                 r"(?P<over>，本將結束)?$"))
def next_dealer(table, dealer, streak, wind, over):
    nxt = _adjudication(table).outcome.next
    assert (nxt.dealer, nxt.streak) == (int(dealer), int(streak)), nxt
    if wind:
        assert nxt.round_wind is _WINDS[wind]
    assert nxt.match_over == bool(over)


@then("裁判：各家收付合計為零")
def payments_sum(table):
    assert sum(_adjudication(table).outcome.payments) == 0


@then(parsers.re(r'裁判：各家收付為 "(?P<amounts>[^"]+)"$'))
def payments(table, amounts):
    assert list(_adjudication(table).outcome.payments) == [int(a) for a in amounts.split(",")]


@then(parsers.re(r"裁判：(?P<seat>\d) 號座(?P<no>未)?處於過水$"))
def passed(table, seat, no):
    st = _ref(table).state.seats[int(seat)]
    assert (st.passed is None) == bool(no), st.passed


@then(parsers.re(r"裁判：牌牆剩 (?P<live>\d+) 張可摸，殘牌 (?P<reserve>\d+) 張$"))
def wall_left(table, live, reserve):
    wall = _ref(table).state.wall
    assert (wall.live, wall.reserve) == (int(live), int(reserve))


@then(parsers.re(r'裁判：(?P<seat>\d) 號座手牌 (?P<n>\d+) 張(?:，花牌 "(?P<flowers>[^"]*)")?$'))
def hand_size(table, seat, n, flowers):
    st = _ref(table).state.seats[int(seat)]
    assert st.n + st.unknown + 3 * len(st.melds) == int(n)
    if flowers is not None:
        assert sorted(st.flowers) == sorted(parse_tiles(flowers))


@then(parsers.re(r'裁判：(?P<seat>\d) 號座門前有 "(?P<meld>[^"]+)"$'))
def has_meld(table, seat, meld):
    melds = [str(m) for m in _ref(table).state.seats[int(seat)].melds]
    assert meld in melds, melds


@then(parsers.re(r"裁判：本盤東位為 (?P<seat>\d) 號座$"))
def east(table, seat):
    assert _ref(table).state.east == int(seat)


@then(parsers.re(r"裁判：(?P<seat>\d) 號座手牌未知 (?P<n>\d+) 張$"))
def unknown(table, seat, n):
    assert _ref(table).state.seats[int(seat)].unknown == int(n)


# --- dice and the wall, as plain functions ------------------------------------------------------


@then(parsers.re(r"裁判：(?P<thrower>\d) 號座擲出 (?P<total>\d+) 點，點到 (?P<seat>\d) 號座$"))
def dice_point(thrower, total, seat):
    assert counted_seat(int(thrower), int(total)) == int(seat)


@then(parsers.re(r"裁判：第一次配牌取自 (?P<seat>\d) 號座牌牆右起第 (?P<a>\d+)、(?P<b>\d+) 墩$"))
def first_take(table, seat, a, b):
    ref = _ref(table)
    layout = ref.state.wall.layout
    size = ref.state.wall.size
    assert [describe_position(p, size)[:2] for p in layout[:4:2]] == [(int(seat), int(a) - 1), (int(seat), int(b) - 1)]


@then(parsers.re(r"裁判：牌牆共 (?P<size>\d+) 張，每家牌牆 (?P<stacks>\d+) 墩，所有牌張皆有著落$"))
def wall_size(table, size, stacks):
    """deal.walls, tiles.flowers: the set's size, the stacks before each seat, and the census
    (every tile in the wall, a hand, a meld, a pond or the flowers, none twice)."""
    st = _ref(table).state
    assert st.wall.size == int(size) and st.wall.size // 8 == int(stacks)
    assert st.check_census() == []
    counts, unknown = st.census()
    assert sum(counts) + unknown == int(size)


@given("裁判：補花逐一記錄")
def flowers_by_hand(table):
    table["kw"]["auto_flowers"] = False


@then(parsers.re(r"裁判：搬風點到 (?P<seat>\d) 號座$"))
def seat_dice_east(table, seat):
    assert _ref(table).state.seat_dice_east == int(seat)

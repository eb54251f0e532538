"""Steps for features/penalties_*.feature and features/priority*.feature (issue #5).

Every step text starts with 「罰則：」 (steps are global across features). A scenario tells
a physical table's hand event by event, as an official would (:class:`testkit.script.Script`
writes the events), then rules on it with :func:`penalties.rule` — the real code.

Seats are numbers 0–3 (counterclockwise; 下家 = the next number). Tiles are written in the
Chinese or compact notation (五萬 or 5m). Any act may end with 「，時間 N 毫秒」 to give the
gesture's timestamp (the priority rules compare them); otherwise each event comes one
second after the last.
"""
from __future__ import annotations

import json
import re

import pytest
from pytest_bdd import given, parsers, then, when

from penalties import rule
from testkit.script import Script
from referee.tiles import format_tiles, parse_tiles

_TS = r"(?:，時間 (?P<ts>\d+) 毫秒)?$"
_CALLS = {"碰": "pung", "槓": "kong", "吃": "chow", "胡": "win"}
_KONGS = {"暗槓": "concealed", "加槓": "added", "明槓": "melded"}


@pytest.fixture
def pen():
    """The scenario's table: the script of events, the rulings, the ruling looked at last."""
    return {"script": None, "rules": {}, "rulings": None, "last": None}


def _tiles(text: str) -> str:
    return format_tiles(parse_tiles(text), sort=False)


def _ts(ts: str | None) -> int | None:
    return int(ts) if ts else None


def _s(pen) -> Script:
    assert pen["script"] is not None, "start the hand first (罰則：實體桌開局…)"
    pen["rulings"] = None
    return pen["script"]


# --- the table ------------------------------------------------------------------------------


@given(parsers.re(r'罰則：規則參數 "(?P<name>[^"]+)" 設為 "(?P<value>[^"]+)"$'))
def parameter(pen, name, value):
    try:
        pen["rules"][name] = json.loads(value)
    except json.JSONDecodeError:
        pen["rules"][name] = value


@given(parsers.re(r"罰則：實體桌開局，莊家 (?P<dealer>\d) 號座(?:，連莊 (?P<streak>\d+))?(?:，骰子示記連 "
                  r"(?P<marker>\d+))?"
                  r"(?:，底 (?P<base>\d+) 每台 (?P<per_tai>\d+))?$"))
def start(pen, dealer, streak, marker, base, per_tai):
    pen["script"] = Script(dealer=int(dealer), streak=int(streak or 0),
                           streak_marker=int(marker) if marker is not None else None,
                           base=int(base or 100), per_tai=int(per_tai or 20), rules=pen["rules"] or None).deal()


@given(parsers.re(r'罰則：插花 (?P<seat>\d) 號座 "(?P<note>[^"]+)"$'))
def side_stake(pen, seat, note):
    _s(pen).report("side_stake", int(seat), note)


# --- acts -----------------------------------------------------------------------------------


@when(parsers.re(r"罰則：(?P<seat>\d) 號座打出(?P<exposed>門前明牌)? ?(?P<tile>\S+?)" + _TS))
def discard(pen, seat, exposed, tile, ts):
    _s(pen).discard(int(seat), _tiles(tile), exposed=bool(exposed), ts=_ts(ts))


@when(parsers.re(r"罰則：(?P<seat>\d) 號座摸牌(?P<place>並靠張)?" + _TS))
def draw(pen, seat, place, ts):
    s = _s(pen).draw(int(seat), ts=_ts(ts))
    if place:
        s.place(int(seat))


@when(parsers.re(r"罰則：(?P<seat>\d) 號座(?:將所摸之牌)?靠張" + _TS))
def place(pen, seat, ts):
    _s(pen).place(int(seat), ts=_ts(ts))


@when(parsers.re(r"罰則：(?P<seat>\d) 號座槓尾補牌" + _TS))
def tail_draw(pen, seat, ts):
    _s(pen).tail_draw(int(seat), ts=_ts(ts))


@when(parsers.re(r'罰則：(?P<seat>\d) 號座補花 "(?P<tiles>[^"]+)"' + _TS))
def flowers(pen, seat, tiles, ts):
    """Flowers laid (deal.flowers) and their replacements drawn from the tail, one each."""
    s = _s(pen).flower(int(seat), _tiles(tiles), ts=_ts(ts))
    for _ in parse_tiles(tiles):
        s.tail_draw(int(seat))


@when(parsers.re(r"罰則：(?P<seat>\d) 號座喊(?P<kind>[碰槓吃胡])" + _TS))
def call(pen, seat, kind, ts):
    _s(pen).call(int(seat), _CALLS[kind], ts=_ts(ts))


@when(parsers.re(r'罰則：(?P<seat>\d) 號座(?P<act>碰|吃) "(?P<tiles>[^"]+)"' + _TS))
def claim(pen, seat, act, tiles, ts):
    s = _s(pen)
    (s.pung if act == "碰" else s.chow)(int(seat), _tiles(tiles), ts=_ts(ts))


@when(parsers.re(r'罰則：(?P<seat>\d) 號座(?P<kind>暗槓|加槓|明槓) "(?P<tiles>[^"]+)"' + _TS))
def kong(pen, seat, kind, tiles, ts):
    _s(pen).kong(int(seat), _KONGS[kind], _tiles(tiles), ts=_ts(ts))


@when(parsers.re(r'罰則：(?P<seat>\d) 號座亮出 "(?P<tiles>[^"]+)"' + _TS))
def reveal(pen, seat, tiles, ts):
    _s(pen).reveal(int(seat), _tiles(tiles), ts=_ts(ts))


@when(parsers.re(r"罰則：(?P<seat>\d) 號座伸手摸牌並觸及牌牆" + _TS))
def touch(pen, seat, ts):
    _s(pen).touch(int(seat), ts=_ts(ts))


@when(parsers.re(r'罰則：(?P<seat>\d) 號座推倒手牌胡牌，攤牌 "(?P<tiles>[^"]+)"' + _TS))
def win(pen, seat, tiles, ts):
    _s(pen).win(int(seat), _tiles(tiles), ts=_ts(ts))


@when(parsers.re(r'罰則：裁判報告 (?P<seat>\d) 號座 "(?P<code>[^"]+)"(?:，註記 "(?P<note>[^"]+)")?$'))
def report(pen, seat, code, note):
    _s(pen).report(code, int(seat), note)


@when(parsers.re(r'罰則：輪流行牌 (?P<turns>\d+) 手，由 (?P<seat>\d) 號座起(?:，不打 "(?P<avoid>[^"]+)")?$'))
def go_around(pen, turns, seat, avoid):
    _s(pen).go_around(int(seat), int(turns), avoid=_tiles(avoid) if avoid else "")


@when("罰則：本盤結束")
def hand_end(pen):
    _s(pen).end()


# --- the rulings ----------------------------------------------------------------------------


def _rulings(pen):
    if pen["rulings"] is None:
        pen["rulings"] = rule(pen["script"].jsonl())
    return pen["rulings"]


@then(parsers.re(r'罰則：裁定 "(?P<code>[^"]+)"，條文 "(?P<clause>[^"]+)"$'))
def ruling_is(pen, code, clause):
    found = [r for r in _rulings(pen).rulings if r.code == code]
    assert found, f"no {code} ruling among {_rulings(pen).codes}"
    assert found[0].clause == clause, found[0]
    pen["last"] = found[0]


@then(parsers.re(r'罰則：裁定依序為 "(?P<codes>[^"]*)"$'))
def rulings_in_order(pen, codes):
    rulings = _rulings(pen)
    assert list(rulings.codes) == [c.strip() for c in codes.split(",") if c.strip()]
    pen["last"] = rulings.rulings[-1] if rulings.rulings else None


@then("罰則：沒有裁定")
def no_rulings(pen):
    assert _rulings(pen).rulings == (), _rulings(pen).codes


_ACTS = {"打出": "discard", "摸牌": "draw", "靠張": "place"}


def _live(pen):
    """The hand fed to the adjudicator one event at a time, as a table posts it: the events,
    each ruling as first given (by id), and the hand's result at the close."""
    from penalties.adjudicator import HandAdjudicator
    from referee.events import parse_stream

    events = parse_stream(pen["script"].jsonl())
    adjudicator = HandAdjudicator()
    given = {}
    for ev in events:
        for g in adjudicator.feed(ev).rulings:
            given.setdefault(g.id, g)
    return events, given, adjudicator.close()


@then(parsers.re(r'罰則：逐一送入事件時，裁定 "(?P<code>[^"]+)" 於 ?(?:裁判報告 "(?P<report>[^"]+)" ?|(?P<seat>\d) 號座'
                 r'(?P<act>打出|摸牌|靠張))時即宣布$'))
def given_at(pen, code, report, seat, act):
    """The ruling comes at that event (the first such after the ruling's act), not later;
    and the close gives it again unchanged (live = batch)."""
    events, given, result = _live(pen)
    (g,) = [g for g in given.values() if g.ruling.code == code] or [None]
    assert g is not None, f"no {code} ruling given before the close: {[x.ruling.code for x in given.values()]}"
    after = [ev for ev in events if ev.seq > g.ruling.evidence[0]]
    if report:
        at = next(ev.seq for ev in after if ev.type.wire == "report" and ev.code == report)
    else:
        at = next(ev.seq for ev in after if ev.type.wire == _ACTS[act] and ev.seat == int(seat))
    assert g.at == at, (code, g.at, at)
    assert {x.id: x for x in result.given}[g.id] == g
    pen["last"] = g.ruling


@then(parsers.re(r"罰則：違規者為 (?P<seat>\d) 號座$"))
def offender_is(pen, seat):
    assert pen["last"].offender == int(seat)


@then(parsers.re(r'罰則：處置含 "(?P<kinds>[^"]+)"$'))
def effects_include(pen, kinds):
    have = [e.kind for e in pen["last"].effects]
    for kind in kinds.split(","):
        assert kind.strip() in have, (kind, have)


@then(parsers.re(r'罰則：處置不含 "(?P<kinds>[^"]+)"$'))
def effects_exclude(pen, kinds):
    have = [e.kind for e in pen["last"].effects]
    for kind in kinds.split(","):
        assert kind.strip() not in have, (kind, have)


@then(parsers.re(r'罰則：代位賠付時段為 "(?P<windows>[^"]+)"$'))
def windows_are(pen, windows):
    have = [e.window for e in pen["last"].effects if e.kind == "liability"]
    assert have == [w.strip() for w in windows.split(",")]


@then(parsers.re(r'罰則：宣讀 "(?P<words>[^"]+)"$'))
def read_out(pen, words):
    assert words in pen["last"].text_zh, pen["last"].text_zh
    assert pen["last"].text


@then(parsers.re(r'罰則：此裁定付款為 "(?P<moves>[^"]*)"$'))
def ruling_payments(pen, moves):
    """``payer→payee amount`` items separated by 、"""
    got = sorted(f"{p.payer}→{p.payee} {p.amount}" for p in pen["last"].payments)
    want = sorted(m.strip() for m in moves.split("、") if m.strip())
    assert got == want


@then(parsers.re(r"罰則：由 (?P<seat>\d) 號座代替 (?P<usual>\d) 號座支付 (?P<amount>\d+)$"))
def paid_instead(pen, seat, usual, amount):
    pays = [p for r in _rulings(pen).rulings for p in r.payments
            if p.payer == int(seat) and p.instead_of == int(usual)]
    assert sum(p.amount for p in pays) == int(amount), pays


@then(parsers.re(r'罰則：各家收付為 "(?P<amounts>[^"]+)"$'))
def net_payments(pen, amounts):
    r = _rulings(pen)
    assert list(r.payments) == [int(x) for x in re.split(r"[,、\s]+", amounts.strip())]
    assert sum(r.payments) + sum(v for _k, v in r.outside) == 0


@then(parsers.re(r'罰則：外插者 "(?P<name>[^"]+)" 收付 (?P<amount>-?\d+)$'))
def outside_net(pen, name, amount):
    assert dict(_rulings(pen).outside).get(name, 0) == int(amount), _rulings(pen).outside


@then(parsers.re(r"罰則：下一盤莊家 (?P<dealer>\d) 號座，連莊 (?P<streak>\d+)$"))
def next_hand(pen, dealer, streak):
    r = _rulings(pen)
    assert (r.next_dealer, r.next_streak) == (int(dealer), int(streak))


@then(parsers.re(r"罰則：本盤(?P<no>未)?終止$"))
def hand_ended(pen, no):
    assert _rulings(pen).hand_ended is (not no)


@then("罰則：收付合計為零")
def sums_to_zero(pen):
    r = _rulings(pen)
    assert sum(r.payments) + sum(v for _k, v in r.outside) == 0

"""Steps for features/tournament_entry.feature: a table scorer's entry by 台 items.

The steps drive :mod:`tournament.entry` (the referee's own :func:`referee.scoring.settle`
computes the money) and :mod:`tournament.match` for the 將's dealer. Step texts start with
「賽事：計分」 so that they meet no other 賽事 step. Items are written by the scoring
package's zh-TW names (門清, 箭字刻) or codes, ``×N`` for a count, ``=N台`` for a 台 written.
"""
from __future__ import annotations

import re

import pytest
from pytest_bdd import given, parsers, then, when

from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.patterns import PATTERNS
from tournament.entry import EntryError, ScorerEntry, TaiItem, check_deal, deal_after, settle_entry
from tournament.results import HandResult, Win

BY_ZH = {p.zh: p.code for p in PATTERNS}
WIN = re.compile(r"^(?:(?P<winner>\d) 號座(?:胡、(?P<deal_in>\d) 號座放槍|(?P<self>自摸))|(?P<draw>荒局))$")


@pytest.fixture
def scoring():
    """The scenario: ruleset, stakes, the 將's first dealer and results, the last answer."""
    return {"results": [], "first_dealer": None, "settled": None, "error": None}


def _items(text: str) -> tuple[TaiItem, ...]:
    out = []
    for part in (p.strip() for p in re.split("[、,，]", text) if p.strip() and p.strip() != "無"):
        tai = None
        if "=" in part:
            part, written = part.split("=")
            tai = int(written.rstrip("台"))
        count = 1
        if "×" in part:
            part, n = part.split("×")
            count = int(n)
        out.append(TaiItem(BY_ZH.get(part, part), count, tai))
    return tuple(out)


def _win(text: str) -> tuple[int | None, int | None]:
    m = WIN.match(text.strip())
    assert m, f"unreadable win: {text!r}"
    if m["draw"]:
        return None, None
    return int(m["winner"]), (int(m["deal_in"]) if m["deal_in"] is not None else None)


@given(parsers.parse("賽事：計分規則 {ruleset}，底 {base:d}、每台 {per_tai:d}"))
def scoring_rules(scoring, ruleset, base, per_tai):
    scoring["ruleset"] = Ruleset.load(ruleset)
    scoring["stakes"] = Stakes(base, per_tai)


@given(parsers.parse("賽事：計分本將定莊由 {seat:d} 號座起莊"))
def scoring_first_dealer(scoring, seat):
    scoring["first_dealer"] = seat


@given(parsers.parse("賽事：計分本將已有一盤{win}"))
def scoring_earlier_hand(scoring, win):
    winner, deal_in = _win(win)
    if winner is None:
        scoring["results"].append(HandResult((0, 0, 0, 0)))
        return
    pay = [0, 0, 0, 0]
    pay[winner], pay[deal_in] = 100, -100
    scoring["results"].append(HandResult(tuple(pay), (Win(winner, 0, deal_in),)))


def _enter(scoring, dealer: int, streak: int, win: str, items: str, hand: int | None = None) -> None:
    winner, deal_in = _win(win)
    entry = ScorerEntry(dealer=dealer, winner=winner, deal_in=deal_in, streak=streak, items=_items(items))
    scoring["settled"] = scoring["error"] = None
    try:
        if hand is not None and scoring["first_dealer"] is not None:
            expected = deal_after(scoring["first_dealer"], scoring["results"][: hand - 1])
            check_deal(entry, expected, hand)
        scoring["settled"] = settle_entry(entry, scoring["ruleset"], scoring["stakes"])
    except EntryError as exc:
        scoring["error"] = exc
        return
    if hand is not None:
        scoring["results"].append(scoring["settled"].result)


@when(parsers.parse("賽事：計分員填寫 莊家 {dealer:d} 號座連 {streak:d}，{win}，項目「{items}」"))
def scoring_enter(scoring, dealer, streak, win, items):
    _enter(scoring, dealer, streak, win, items)


@when(parsers.parse("賽事：計分員填寫第 {hand:d} 盤 莊家 {dealer:d} 號座連 {streak:d}，{win}，項目「{items}」"))
def scoring_enter_hand(scoring, hand, dealer, streak, win, items):
    _enter(scoring, dealer, streak, win, items, hand)


def _settled(scoring):
    assert scoring["error"] is None, f"refused: {scoring['error'].field}: {scoring['error'].reason_zh}"
    return scoring["settled"]


@then(parsers.parse("賽事：計分收付為 {pay}"))
def scoring_payments(scoring, pay):
    assert _settled(scoring).result.payments == tuple(int(x) for x in re.split("[、,，]", pay))


@then(parsers.parse("賽事：計分牌面 {tai:d} 台"))
def scoring_face(scoring, tai):
    assert _settled(scoring).face == tai


@then(parsers.parse("賽事：計分莊家台 {tai:d} 台"))
def scoring_dealer_tai(scoring, tai):
    assert _settled(scoring).dealer_tai == tai


@then(parsers.parse("賽事：計分不予受理，欄位 {field}，理由含「{text}」"))
def scoring_refused(scoring, field, text):
    error = scoring["error"]
    assert error is not None, f"accepted: {scoring['settled']}"
    assert error.field == field, (error.field, error.reason_zh)
    assert text in error.reason_zh, error.reason_zh


@when(parsers.parse("賽事：計分員填寫七搶一 莊家 {dealer:d} 號座連 "
                    "{streak:d}，{winner:d} 號座自摸、{robbed:d} 號座被搶花，項目「{items}」"))
def scoring_enter_robbed(scoring, dealer, streak, winner, robbed, items):
    """七搶一 →2 won on a self-drawn replacement (tai.30.2): the robbed seat named apart."""
    entry = ScorerEntry(dealer=dealer, winner=winner, streak=streak, items=_items(items), robbed=robbed)
    scoring["settled"] = scoring["error"] = None
    try:
        scoring["settled"] = settle_entry(entry, scoring["ruleset"], scoring["stakes"])
    except EntryError as exc:
        scoring["error"] = exc


@when(parsers.parse("賽事：計分員填寫一炮多響 莊家 {dealer:d} 號座連 {streak:d}，{deal_in:d} 號座放槍，"
                    "{first:d} 號座胡「{items}」、{second:d} 號座胡「{more}」"))
def scoring_enter_several(scoring, dealer, streak, deal_in, first, items, second, more):
    """一炮多響 (play.multiple_wins) as the ruleset plays it (play.multiple_wins_limit)."""
    from referee.play_rules import PlayRules
    from tournament.entry import AlsoWon

    rules = PlayRules.of(scoring["ruleset"])
    entry = ScorerEntry(dealer=dealer, winner=first, deal_in=deal_in, streak=streak, items=_items(items),
                        also=(AlsoWon(second, _items(more)),))
    scoring["settled"] = scoring["error"] = None
    try:
        scoring["settled"] = settle_entry(entry, scoring["ruleset"], scoring["stakes"],
                                          multiple_wins=rules.multiple_wins, max_winners=rules.multiple_wins_limit)
    except EntryError as exc:
        scoring["error"] = exc

"""Steps for features/tournament_typed.feature: a hand typed in as payments, checked by
:func:`tournament.typed.check_typed` (the referee's own settle computes what the wins pay).
Step texts start with 「輸入金額：」 so that they meet no other step."""
from __future__ import annotations

import re

import pytest
from pytest_bdd import given, parsers, then, when

from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.table import table_for
from tournament.errors import ResultError
from tournament.match import HandOutcome, start_match
from tournament.results import HandResult, Win
from tournament.typed import check_typed

WIN = re.compile(r"^(?P<winner>\d) 號座(?:胡、(?P<deal_in>\d) 號座放槍|(?P<self>自摸)) (?P<tai>\d+) 台$")


@pytest.fixture
def typed_hand():
    return {"deal": None, "error": None, "accepted": False}


def _payments(text: str) -> tuple[int, ...]:
    return tuple(int(p.replace("+", "")) for p in re.split("[、,，]", text))


def _wins(text: str) -> tuple[Win, ...]:
    wins = []
    for part in text.split("且"):
        m = WIN.match(part.strip())
        assert m, f"unreadable win: {part!r}"
        wins.append(Win(int(m["winner"]), int(m["tai"]), None if m["self"] else int(m["deal_in"])))
    return tuple(wins)


def _check(typed_hand, wins: str, payments: str) -> None:
    ruleset = typed_hand["ruleset"]
    try:
        check_typed(HandResult(_payments(payments), _wins(wins)), table_for(ruleset), typed_hand["stakes"],
                    multiple_wins=bool(ruleset["play.multiple_wins"]), deal=typed_hand["deal"])
        typed_hand["accepted"] = True
    except ResultError as exc:
        typed_hand["error"] = exc


@given(parsers.parse("輸入金額：規則組 {name}，底 {base:d}、每台 {per_tai:d}"))
def typed_rules(typed_hand, name, base, per_tai):
    typed_hand["ruleset"] = Ruleset.load(name)
    typed_hand["stakes"] = Stakes(base, per_tai)


@given(parsers.parse("輸入金額：一將由 {seat:d} 號座起莊，連續 {count:d} 盤都由閒家胡牌"))
def typed_match(typed_hand, seat, count):
    state = start_match(seat)
    for _ in range(count):
        state = state.advance(HandOutcome(state.dealer, (state.dealer + 1) % 4))
    typed_hand["deal"] = state


@when(parsers.parse("輸入金額：莊家 {dealer:d} 號座連 {streak:d}，{wins}，收付 {payments}"))
def typed_known(typed_hand, dealer, streak, wins, payments):
    typed_hand["deal"] = (dealer, streak)
    _check(typed_hand, wins, payments)


@when(parsers.parse("輸入金額：莊家不明，{wins}，收付 {payments}"))
def typed_unknown(typed_hand, wins, payments):
    _check(typed_hand, wins, payments)


@when(parsers.parse("輸入金額：再記 {wins}，收付 {payments}"))
def typed_again(typed_hand, wins, payments):
    _check(typed_hand, wins, payments)


@then(parsers.parse("輸入金額：{answer}"))
def typed_answer(typed_hand, answer):
    if answer == "受理":
        assert typed_hand["accepted"], typed_hand["error"]
        return
    m = re.fullmatch(r"不予受理，欄位 (\S+)", answer)
    assert m, f"unreadable answer: {answer!r}"
    assert not typed_hand["accepted"] and typed_hand["error"] is not None
    assert typed_hand["error"].field == m[1], typed_hand["error"]
    assert typed_hand["error"].reason_zh

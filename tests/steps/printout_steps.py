"""Steps for features/tournament_printouts.feature: table cards and score sheets
(:mod:`tournament.printouts`, what the pages in web/ print).

Step texts start with 「賽事：」 and name 桌卡 or 計分表, so that they match no other step.
"""
from __future__ import annotations

import re

import pytest
from pytest_bdd import given, parsers, then, when

from tournament.printouts import SUM_RULE, card, score_sheet, sheet, table_card
from tournament.results import HandResult, Win
from tournament.schedule import TablePlan

BLANK = "（空白）"


@pytest.fixture
def printout():
    """The scenario's table (players in wind order), first dealer, results and printout."""
    return {"first_dealer": None, "results": {}}


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.split("[、,，]", text) if n.strip()]


def _pay(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split())


def _seat(printout, name: str) -> int:
    return printout["seats"].index(name)


def _sheet(printout, hands: int = 0):
    return sheet("測試盃", 1, 3, 1, printout["seats"], {}, hands=hands, results=printout["results"],
                 first_dealer=printout["first_dealer"])


@given(parsers.parse("賽事：計分表一桌四人 {a}、{b}、{c}、{d}，東南西北入座"))
def printout_table(printout, a, b, c, d):
    printout["seats"] = [a, b, c, d]


@given(parsers.parse("賽事：計分表這一桌的北位為替補席"))
def printout_substitute(printout):
    printout["seats"][3] = None


@given(parsers.parse("賽事：計分表的起莊位為 {seat:d} 號座"))
def printout_first_dealer(printout, seat):
    printout["first_dealer"] = seat


@when(parsers.parse("賽事：印第 {round_no:d} 輪第 {table:d} 桌的桌卡"))
def print_card(printout, round_no, table):
    plan = TablePlan(table, tuple(printout["seats"]))
    printout["card"] = card("測試盃", round_no, plan, {})
    printout["card_text"] = table_card("測試盃", round_no, plan, {})


@when(parsers.parse("賽事：印第 {round_no:d} 輪第 {table:d} 桌第 {match:d} 將的空白計分表，共 {hands:d} 列"))
def print_blank_sheet(printout, round_no, table, match, hands):
    plan = TablePlan(table, tuple(printout["seats"]))
    printout["sheet"] = sheet("測試盃", round_no, table, match, plan.seats, {}, hands=hands)
    printout["sheet_text"] = score_sheet("測試盃", round_no, plan, match, {}, hands=hands)


@when(parsers.parse("賽事：計分表記入第 {hand:d} 盤：{winner}胡牌 {tai:d} 台，{loser}放槍，收付 {pay}"))
def sheet_discard_win(printout, hand, winner, tai, loser, pay):
    win = Win(_seat(printout, winner), tai, deal_in=_seat(printout, loser))
    printout["results"][hand] = HandResult(_pay(pay), (win,))


@when(parsers.parse("賽事：計分表記入第 {hand:d} 盤：{winner}自摸 {tai:d} 台，收付 {pay}"))
def sheet_self_draw(printout, hand, winner, tai, pay):
    printout["results"][hand] = HandResult(_pay(pay), (Win(_seat(printout, winner), tai),))


@when(parsers.parse("賽事：計分表記入第 {hand:d} 盤：荒局"))
def sheet_draw(printout, hand):
    printout["results"][hand] = HandResult((0, 0, 0, 0))


@when(parsers.parse("賽事：計分表記入第 {hand:d} 盤：罰則 {clause}，收付 {pay}"))
def sheet_penalty(printout, hand, clause, pay):
    printout["results"][hand] = HandResult(_pay(pay), penalty=clause)


@then(parsers.parse("賽事：桌卡標題為「{title}」"))
def card_title(printout, title):
    c = printout["card"]
    assert f"第 {c.round_no} 輪　第 {c.table} 桌 (round {c.round_no}, table {c.table})" == title
    assert printout["card_text"].splitlines()[1] == title


@then(parsers.parse("賽事：桌卡各風位依序為 {spec}"))
def card_seats(printout, spec):
    expected = [tuple(part.split(" ", 1)) for part in _names(spec)]
    assert [(s.wind.zh, s.label) for s in printout["card"].seats] == expected
    lines = printout["card_text"].splitlines()
    assert [tuple(line.split("　", 1)) for line in lines[3:7]] == expected


@then(parsers.parse("賽事：計分表有 {rows:d} 列，欄位為 {heads}"))
def sheet_rows_and_heads(printout, rows, heads):
    s = printout["sheet"]
    assert len(s.rows) == rows and not any(r.recorded for r in s.rows)
    assert ["盤", "莊", "胡", "放槍", "台", *s.columns] == _names(heads)
    head = printout["sheet_text"].splitlines()[2].split(" | ")
    assert [h.split(" ")[0] for h in head[:5]] + head[5:] == _names(heads)


@then(parsers.parse("賽事：計分表註明「{text}」"))
def sheet_says(printout, text):
    assert text in SUM_RULE and printout["sheet_text"].rstrip().endswith(SUM_RULE)


@then(parsers.parse("賽事：計分表的莊欄依序為 {spec}"))
def sheet_dealers(printout, spec):
    expected = [("" if d == BLANK else d) for d in _names(spec)]
    rows = _sheet(printout, hands=len(expected)).rows
    assert [r.dealer for r in rows] == expected


@then(parsers.parse("賽事：計分表合計為 {totals}，四家合計為 0"))
def sheet_totals(printout, totals):
    s = _sheet(printout)
    assert s.totals == _pay(totals) and s.balanced is True


@then(parsers.parse("賽事：計分表第 {hand:d} 盤的胡欄為「{text}」"))
def sheet_winner_cell(printout, hand, text):
    assert _sheet(printout).rows[hand - 1].winners == text

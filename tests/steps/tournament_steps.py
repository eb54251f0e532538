"""Steps for features/tournament_*.feature (issue #7: tournaments).

Every step text starts with 「賽事：」 (steps are global across features). The steps drive
the real domain code: :mod:`tournament.table` and :mod:`tournament.seating` for 搬風 and 定莊,
:mod:`tournament.match` for the deal and the rounds, :mod:`tournament.schedule` for
schedules, :mod:`tournament.events` and :mod:`tournament.standings` for results.
Seats are 0–3 counterclockwise; winds are written 東 南 西 北.
"""
from __future__ import annotations

import random
import re

import pytest
from pytest_bdd import given, parsers, then, when

from referee.errors import MjrefError
from referee.ruleset import Ruleset
from referee.tiles import Wind
from tournament.errors import MatchError, SeatingError
from tournament.events import (
    EventCreated, EventSettings, HandCorrected, HandRecorded, PlayerRegistered, Reverted, RoundSeated, append, audit,
    replay,
)
from tournament.match import HandOutcome, max_streak_of, start_match
from tournament.results import HandResult, Win
from tournament.schedule import RoundPlan, TablePlan, by_standings, check_schedule, make_schedule, reseat
from tournament.seating import SeatDraw, Seating, draw_dealer, same_relative_order, seat_winds
from tournament.standings import TieBreak, advancement, standings, to_csv
from tournament.table import (
    DealerDrawn, HandPlayed, SeatsDrawn, TablePhase, TablePlay, generate_seat_draw, replay_table,
)

WINDS = {w.zh: w for w in Wind}
RELATIVE = {"自己": 0, "下家": 1, "對家": 2, "上家": 3}


@pytest.fixture
def tourney():
    """The scenario's state: the table, the 將, the schedule, the event log, the last error."""
    return {"attempts": [], "error": None}


def _dice(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split())


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.split("[、,，]", text) if n.strip()]


# --- 搬風 and 定莊 ---------------------------------------------------------------------------


@given(parsers.parse("賽事：四人暫坐 0 號座 {a}、1 號座 {b}、2 號座 {c}、3 號座 {d}"))
def temporary_seats(tourney, a, b, c, d):
    tourney["players"] = (a, b, c, d)
    tourney["play"] = replay_table((a, b, c, d), [], matches=2)


@given(parsers.parse("賽事：前一將座位 0 號座 {a}、1 號座 {b}、2 號座 {c}、3 號座 {d}，末盤由 {winner:d} 號座胡牌"))
def previous_match(tourney, a, b, c, d, winner):
    players = (a, b, c, d)
    tourney["players"] = players
    tourney["play"] = TablePlay(players, matches=2, match_no=1, seating=Seating(players, 0), last_dealer=winner,
                                last_winner=winner, phase=TablePhase.SEAT_DRAW)


@given(parsers.parse("賽事：{thrower:d} 號座擲骰 {dice}，依序抓到 {tiles}"))
@when(parsers.parse("賽事：{thrower:d} 號座擲骰 {dice}，依序抓到 {tiles}"))
def seat_draw(tourney, thrower, dice, tiles):
    tourney["thrower"] = thrower
    tourney["attempts"].append(SeatDraw(thrower, _dice(dice), tuple(WINDS[t] for t in tiles.split())))
    try:
        tourney["drawn"] = tourney["play"].apply(SeatsDrawn(thrower, tuple(tourney["attempts"])))
        tourney["error"] = None
    except SeatingError as exc:
        tourney["drawn"], tourney["error"] = None, exc


@then(parsers.parse("賽事：東座位為 {seat:d} 號座"))
def east_seat(tourney, seat):
    assert tourney["drawn"].seating.east == seat


@then(parsers.parse("賽事：入座後 東 {e}、南 {s}、西 {w}、北 {n}"))
def seated_by_wind(tourney, e, s, w, n):
    assert tourney["drawn"].seating.by_wind() == (e, s, w, n)


@then(parsers.parse("賽事：東座位是擲骰者的{relative}"))
def east_relative(tourney, relative):
    assert (tourney["drawn"].seating.east - tourney["thrower"]) % 4 == RELATIVE[relative]


@then(parsers.parse("賽事：抓到東的是原坐{seat:d} 號座的選手"))
def east_drawer(tourney, seat):
    assert tourney["drawn"].seating.player_of(Wind.EAST) == tourney["players"][seat]


@then("賽事：相互順序與前一將完全相同，應重搬")
def must_redraw(tourney):
    error = tourney["error"]
    assert error is not None and "完全相同，應重搬" in error.reason_zh, error


@then(parsers.parse("賽事：搬風完成，共搬 {count:d} 次"))
def draw_done(tourney, count):
    assert tourney["error"] is None and tourney["drawn"] is not None
    assert len(tourney["attempts"]) == count
    tourney["play"] = tourney["drawn"]


@then(parsers.parse("賽事：搬風不予受理，理由含「{text}」"))
def draw_refused(tourney, text):
    assert tourney["error"] is not None and text in tourney["error"].reason_zh, tourney["error"]


@when(parsers.parse("賽事：東座者擲骰 {dice} 定莊"))
def dealer_draw(tourney, dice):
    play = tourney["drawn"] or tourney["play"]
    draw = draw_dealer(play.seating, dice=_dice(dice))
    tourney["dealer_draw"] = draw
    tourney["play"] = play.apply(DealerDrawn(draw))
    tourney["match"] = tourney["play"].match


@then(parsers.parse("賽事：擲骰者為 {seat:d} 號座"))
def dealer_thrower(tourney, seat):
    assert tourney["dealer_draw"].thrower == seat


@then(parsers.parse("賽事：莊家為 {seat:d} 號座，即起莊位"))
def first_dealer(tourney, seat):
    match = tourney["match"]
    assert match.dealer == match.first_dealer == seat


@then(parsers.parse("賽事：圈風器在 {seat:d} 號座，顯示{wind}"))
def marker(tourney, seat, wind):
    assert tourney["match"].marker == (seat, WINDS[wind])


@then(parsers.parse("賽事：首盤門風 0 號座{a}、1 號座{b}、2 號座{c}、3 號座{d}"))
def first_hand_winds(tourney, a, b, c, d):
    assert seat_winds(tourney["match"].dealer) == tuple(WINDS[x] for x in (a, b, c, d))


# --- the deal and the rounds ---------------------------------------------------------------------


@given(parsers.parse("賽事：一將由 {seat:d} 號座起莊"))
def new_match(tourney, seat):
    tourney["match"] = start_match(seat)


@given(parsers.parse('賽事：一將由 {seat:d} 號座起莊，規則組 "{profile}"，參數 seat.max_streak={cap:d}'))
def new_capped_match(tourney, seat, profile, cap):
    """A 將 under a ruleset's 連莊上限 (seat.max_streak), read from the ruleset as the event does."""
    tourney["match"] = start_match(seat, max_streak=max_streak_of(Ruleset.load(profile, {"seat.max_streak": cap})))


@when(parsers.parse("賽事：這一盤{result}"))
def hand_result(tourney, result):
    match = tourney["match"]
    found = re.fullmatch(r"由 (\d) 號座胡牌", result)
    winner = int(found.group(1)) if found else None
    assert found or result == "荒局", result
    tourney["match"] = match.advance(HandOutcome(match.dealer, winner))


@when(parsers.parse("賽事：連續 {count:d} 盤都由閒家胡牌"))
def non_dealer_wins(tourney, count):
    for _ in range(count):
        match = tourney["match"]
        tourney["match"] = match.advance(HandOutcome(match.dealer, (match.dealer + 1) % 4))


@then(parsers.parse("賽事：下一盤莊家為 {seat:d} 號座，連莊 {streak:d} 次"))
def next_dealer(tourney, seat, streak):
    match = tourney["match"]
    assert (match.dealer, match.streak) == (seat, streak)


@then(parsers.parse("賽事：圈風為{wind}，莊家為 {seat:d} 號座"))
def round_wind(tourney, wind, seat):
    match = tourney["match"]
    assert (match.round_wind, match.dealer) == (WINDS[wind], seat)


@then(parsers.parse("賽事：本將結束，共 {hands:d} 盤"))
def match_over(tourney, hands):
    assert tourney["match"].over and tourney["match"].hands == hands


@then("賽事：再記一盤不予受理")
def no_more_hands(tourney):
    with pytest.raises(MatchError):
        tourney["match"].advance(HandOutcome(tourney["match"].dealer))


@given(parsers.parse("賽事：一桌 {a} {b} {c} {d} 打 {matches:d} 將，首將由 {seat:d} 號座擲骰搬風"))
def table_of_four(tourney, a, b, c, d, matches, seat):
    rng = random.Random(11)
    play = replay_table((a, b, c, d), [], matches=matches)
    play = play.apply(generate_seat_draw(play, rng, thrower=seat))
    play = play.apply(DealerDrawn(draw_dealer(play.seating, rng=rng)))
    tourney.update(rng=rng, play=play, first_seating=play.seating, seen=[])


@when("賽事：這一將打到結束")
def play_out(tourney):
    rng, play = tourney["rng"], tourney["play"]
    while play.phase is TablePhase.PLAYING:
        tourney["seen"].append(play.seating)
        d = play.match.dealer
        play = play.apply(HandPlayed(HandOutcome(d, rng.choice([None, d, (d + 1) % 4, (d + 2) % 4]))))
    tourney["play"] = play


@then("賽事：這一將每一盤座位都與搬風後相同")
def seats_fixed(tourney):
    assert tourney["seen"] and all(s == tourney["first_seating"] for s in tourney["seen"])


@then("賽事：次將由首將末盤胡牌者擲骰，新座位的相互順序與首將不同")
def next_match_draw(tourney):
    play = tourney["play"]
    drawn = generate_seat_draw(play, tourney["rng"])
    assert drawn.thrower == play.last_winner
    after = play.apply(drawn)
    assert after.match_no == 2
    assert not same_relative_order(tourney["first_seating"].players, after.seating.players)


# --- schedules ---------------------------------------------------------------------------------------


def _players(n: int) -> list[str]:
    return [f"選手{i:03d}" for i in range(n)]


@given(parsers.parse("賽事：為 {n:d} 位選手排 {rounds:d} 輪賽程，亂數種子 {seed:d}"))
@when(parsers.parse("賽事：為 {n:d} 位選手排 {rounds:d} 輪賽程，亂數種子 {seed:d}"))
def schedule(tourney, n, rounds, seed):
    tourney["args"] = (_players(n), rounds, seed)
    tourney["schedule"] = make_schedule(_players(n), rounds, seed=seed)


def _check(tourney):
    return check_schedule(tourney["schedule"])


@then("賽事：每輪每位選手恰入座一次")
def everyone_once(tourney):
    check = _check(tourney)
    assert check.ok, check.problems
    active = {p for t in tourney["schedule"].rounds[-1].tables for p in t.players}
    for rnd in tourney["schedule"].rounds:
        seated = [p for t in rnd.tables for p in t.players]
        assert len(seated) == len(set(seated))
    assert len(active) == len({p for t in tourney["schedule"].rounds[-1].tables for p in t.players})


@then("賽事：沒有任兩位選手同桌兩次")
def no_repeats(tourney):
    assert _check(tourney).repeats == 0


@then("賽事：每位選手坐各風位的次數相差不超過一次")
def winds_balanced(tourney):
    check = _check(tourney)
    assert check.winds_balanced, check.wind_counts


@then(parsers.parse("賽事：前 {rounds:d} 輪沒有任兩位選手同桌兩次"))
def repeat_free_prefix(tourney, rounds):
    assert _check(tourney).repeat_free_rounds >= rounds


@then(parsers.parse("賽事：重複同桌共 {count:d} 次，沒有人與同一人同桌三次"))
def repeats_spread(tourney, count):
    check = _check(tourney)
    assert check.repeats == count and check.max_meetings <= 2


@then(parsers.parse("賽事：每輪 {tables:d} 桌，其中 {subs:d} 個替補席"))
def substitute_seats(tourney, tables, subs):
    for rnd in tourney["schedule"].rounds:
        assert len(rnd.tables) == tables
        assert sum(1 for t in rnd.tables for p in t.seats if p is None) == subs


@then("賽事：沒有一桌有兩個替補席")
def no_two_substitutes(tourney):
    assert _check(tourney).substitute_pairs == 0


@then("賽事：再排一次結果完全相同")
def deterministic(tourney):
    players, rounds, seed = tourney["args"]
    assert make_schedule(players, rounds, seed=seed) == tourney["schedule"]


@when(parsers.parse("賽事：選手 {names} 於第 {before:d} 輪前退賽"))
def withdraw(tourney, names, before):
    tourney["before"] = tourney["schedule"]
    tourney["leaving"] = _names(names)
    tourney["schedule"] = reseat(tourney["schedule"], withdrawn=tourney["leaving"], from_round=before, seed=1)


@then(parsers.parse("賽事：第 1 至 {last:d} 輪與原賽程相同"))
def past_kept(tourney, last):
    assert tourney["schedule"].rounds[:last] == tourney["before"].rounds[:last]


@then(parsers.parse("賽事：之後各輪原屬 {player} 的座位改為替補席，其餘不變"))
def seat_to_substitute(tourney, player):
    before, after = tourney["before"], tourney["schedule"]
    changed = [r for r, (old, new) in enumerate(zip(before.rounds, after.rounds)) if old != new]
    assert changed
    for r in changed:
        for old, new in zip(before.rounds[r].tables, after.rounds[r].tables):
            assert new.seats == tuple(None if p == player else p for p in old.seats)


@then(parsers.parse("賽事：第 {first:d} 輪起每輪 {tables:d} 桌，沒有替補席"))
def fewer_tables(tourney, first, tables):
    for rnd in tourney["schedule"].rounds[first - 1:]:
        assert len(rnd.tables) == tables
        assert all(None not in t.seats for t in rnd.tables)
        assert not set(tourney["leaving"]) & {p for t in rnd.tables for p in t.players}


# --- results, corrections, standings --------------------------------------------------------------------


@given(parsers.parse("賽事：「{name}」一桌四人 {a}、{b}、{c}、{d}，東南西北入座"))
def one_table_event(tourney, name, a, b, c, d):
    seats = (a, b, c, d)
    tourney["seats"] = seats
    tourney["log"] = append((), EventCreated(EventSettings(name, rounds=1)),
                            *[PlayerRegistered(p, p) for p in seats],
                            RoundSeated(RoundPlan(1, (TablePlan(1, seats),))), by="official")


def _record(tourney, hand, result_args):
    try:
        result = HandResult(*result_args)
        tourney["log"] = append(tourney["log"], HandRecorded((1, 1, 1, hand), result), by="scorer")
        tourney["error"] = None
    except MjrefError as exc:
        tourney["error"] = exc


def _pay(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split())


@when(parsers.parse("賽事：記錄第 {hand:d} 盤：{winner}胡牌 {tai:d} 台，{loser}放槍，收付 {pay}"))
def record_discard_win(tourney, hand, winner, tai, loser, pay):
    seats = tourney["seats"]
    _record(tourney, hand, (_pay(pay), (Win(seats.index(winner), tai, seats.index(loser)),)))


@when(parsers.parse("賽事：記錄第 {hand:d} 盤：{winner}自摸 {tai:d} 台，收付 {pay}"))
def record_self_draw(tourney, hand, winner, tai, pay):
    _record(tourney, hand, (_pay(pay), (Win(tourney["seats"].index(winner), tai),)))


@when(parsers.parse("賽事：更正第 {hand:d} 盤為荒局，理由「{reason}」"))
def correct_to_draw(tourney, hand, reason):
    tourney["log"] = append(tourney["log"], HandCorrected((1, 1, 1, hand), HandResult((0, 0, 0, 0)), reason),
                            by="official")


@when(parsers.parse("賽事：撤銷上一筆更正，理由「{reason}」"))
def revert_correction(tourney, reason):
    last = next(r for r in reversed(tourney["log"]) if isinstance(r.event, HandCorrected))
    tourney["log"] = append(tourney["log"], Reverted(last.seq, reason), by="head-official")


@then(parsers.parse("賽事：總分 {spec}"))
def points(tourney, spec):
    rows = {s.totals.player_id: s.totals.points for s in standings(replay(tourney["log"]))}
    for item in _names(spec):
        name, value = item.rsplit(" ", 1)
        assert rows[name] == int(value), (name, rows)


@then(parsers.parse("賽事：不予記錄，理由含「{text}」"))
def not_recorded(tourney, text):
    assert tourney["error"] is not None and text in tourney["error"].reason_zh, tourney["error"]


@then(parsers.parse("賽事：第 {hand:d} 盤的紀錄依序為 {kinds}"))
def audit_trail(tourney, hand, kinds):
    names = {"HandRecorded": "記錄", "HandCorrected": "更正", "Reverted": "撤銷"}
    got = [names[a.kind] + ("" if a.in_effect else "（已撤銷）") for a in audit(tourney["log"], (1, 1, 1, hand))]
    assert got == _names(kinds)


@then(parsers.parse("賽事：排名依序為 {names}"))
def ranking(tourney, names):
    assert [s.totals.player_id for s in standings(replay(tourney["log"]))] == _names(names)


@then(parsers.parse("賽事：{a}與{b}並列第 {rank:d} 名"))
def tied(tourney, a, b, rank):
    rows = {s.totals.player_id: s for s in standings(replay(tourney["log"]))}
    assert rows[a].rank == rows[b].rank == rank and rows[a].tied and rows[b].tied


@then(parsers.parse("賽事：以「{criterion}」比較時排名依序為 {names}"))
def ranking_by(tourney, criterion, names):
    chain = [next(t for t in TieBreak if t.zh == criterion)]
    assert [s.totals.player_id for s in standings(replay(tourney["log"]), chain)] == _names(names)


@then(parsers.parse("賽事：四取{take}晉級 {names}"))
def advance(tourney, take, names):
    (table,) = advancement(replay(tourney["log"]), 1, take={"一": 1, "二": 2}[take])
    assert list(table.advancing) == _names(names)


@then(parsers.parse("賽事：CSV 第{which}列為「{line}」"))
def csv_line(tourney, which, line):
    lines = to_csv(standings(replay(tourney["log"]))).splitlines()
    assert lines[{"一": 0, "二": 1}[which]] == line


# --- seating by the standings (R-tour-28) -------------------------------------------------------------


@when(parsers.parse("賽事：第 {number:d} 輪依成績排座，名次依序為 {ranked}"))
def seat_by_standings(tourney, number, ranked):
    tourney["plan"] = by_standings(_names(ranked), number)


@then(parsers.parse("賽事：第 {table:d} 桌為 {a} {b} {c} {d}"))
def table_is(tourney, table, a, b, c, d):
    plan = next(t for t in tourney["plan"].tables if t.table == table)
    assert [p or "替補" for p in plan.seats] == [a, b, c, d]


@then(parsers.parse("賽事：共 {count:d} 桌"))
def table_count(tourney, count):
    assert len(tourney["plan"].tables) == count

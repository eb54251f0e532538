"""Hand results, the event log, corrections, standings (issue #7, items 1, 4, 5)."""
from __future__ import annotations

import csv
import io
import random
from types import SimpleNamespace

import pytest

from referee.outcome import Outcome, OutcomeKind, next_hand
from referee.scoring.settlement import Settlement
from referee.tiles import Wind
from tournament.errors import EventLogError, ResultError, StandingsError
from tournament.events import (
    EventCreated, EventSettings, HandCorrected, HandRecorded, MatchSeated, PlayerRegistered, PlayerWithdrew, Record,
    Reverted, RoundSeated, SubstituteSeated, append, audit, replay,
)
from tournament.results import HandResult, Win, check_balances
from tournament.schedule import RoundPlan, TablePlan, make_schedule, reseat
from tournament.seating import Seating
from tournament.standings import (
    DEFAULT_TIE_BREAKS, TieBreak, Totals, advancement, rank, standings, tie_breaks, to_csv,
)

# --- hand results ---------------------------------------------------------------------------


def test_a_win_on_a_discard_is_paid_by_the_discarder_alone():
    r = HandResult((0, 260, -260, 0), (Win(1, 8, deal_in=2),))
    assert not r.exhaustive_draw and not r.wins[0].self_draw
    assert r.describe() == "1 號座胡（2 號座放槍，8 台）；0 號座 0、1 號座 +260、2 號座 -260、3 號座 0"


def test_a_self_draw_is_paid_by_the_three_others():
    r = HandResult((-240, 600, -180, -180), (Win(1, 4),))
    assert r.wins[0].self_draw
    assert "自摸" in r.describe()


@pytest.mark.parametrize("payments, wins, field, zh", [
    ((100, -90, 0, 0), (Win(0, 1, 1),), "payments", "合計 10"),
    ((-100, 100, 0, 0), (Win(0, 1, 1),), "payments[0]", "應收錢"),
    ((100, 0, -50, -50), (Win(0, 1, 1),), "payments[1]", "應付錢"),
    ((100, -60, -40, 0), (Win(0, 1, 1),), "payments[2]", "app.no-mutual-pay"),
    ((200, -100, -100, 0), (Win(0, 1),), "payments[3]", "自摸由其他三家付"),
    ((10, -10, 0, 0), (), "payments", "荒局不付"),
    ((200, -300, 100, 0), (Win(0, 1, 1), Win(2, 1)), "wins", "一炮多響"),
    ((100, -100, 0, 0), (Win(0, 1, 1), Win(0, 2, 1)), "wins", "胡兩次"),
    ((1, 2, 3), (), "payments", "四個座位"),
])
def test_impossible_results_are_refused(payments, wins, field, zh):
    with pytest.raises(ResultError) as e:
        HandResult(payments, wins)
    assert e.value.field == field and zh in e.value.reason_zh
    assert str(list(payments)) in e.value.message or field == "wins"


def test_wins_check_themselves():
    with pytest.raises(ResultError) as e:
        Win(2, 3, deal_in=2)
    assert e.value.field == "deal_in"
    with pytest.raises(ResultError):
        Win(1, -1)


def test_several_winners_on_one_discard_and_penalties():
    r = HandResult((130, -250, 120, 0), (Win(0, 1, 1), Win(2, 0, 1)))
    assert len(r.wins) == 2
    # a penalty ruling (issue #5) only has to sum to zero: 詐胡 pays all three
    assert HandResult((100, 100, 100, -300), penalty="pen.false-win").describe().startswith("罰則")


def test_results_from_the_referees_settlement_and_outcome():
    settlement = Settlement((-260, 260, 0, 0))
    assert HandResult.from_settlement(settlement, winner=1, tai=8, deal_in=0) == HandResult(
        (-260, 260, 0, 0), (Win(1, 8, 0),))
    nxt = next_hand(0, 0, Wind.EAST, 0, repeats=True)
    draw = Outcome(OutcomeKind.EXHAUSTIVE_DRAW, "play.exhausted", nxt)
    assert HandResult.from_outcome(draw).exhaustive_draw
    win = SimpleNamespace(claim=SimpleNamespace(seat=2, discarder=None), score=SimpleNamespace(tai=5))
    won = Outcome(OutcomeKind.WIN, "play.win", nxt, (win,), (-100, -100, 300, -100))
    assert HandResult.from_outcome(won) == HandResult((-100, -100, 300, -100), (Win(2, 5),))
    ended = Outcome(OutcomeKind.ENDED_BY_IRREGULARITY, "pen.false-win.3", nxt, payments=(300, -100, -100, -100))
    assert HandResult.from_outcome(ended).penalty == "pen.false-win.3"


def test_balances_at_every_level():
    rows = [((1, 1, 1, 1), (100, -100, 0, 0)), ((1, 1, 1, 2), (0, 0, 5, 0)), ((1, 2, 1, 1), (0, 0, 0, 0))]
    found = [(i.level, i.key, i.total) for i in check_balances(rows)]
    assert found == [("hand", (1, 1, 1, 2), 5), ("match", (1, 1, 1), 5), ("table", (1, 1), 5)]
    assert check_balances(rows[:1]) == []


# --- the event log ---------------------------------------------------------------------------------

NAMES = ["王小明", "李大華", "陳美玲", "林志強", "張淑芬", "黃建國", "吳雅婷", "劉家豪"]


def _event(rounds=2, matches=1, names=NAMES, seed=1):
    ids = [f"p{i}" for i in range(len(names))]
    log = append((), EventCreated(EventSettings("台北新春盃", rounds=rounds, matches_per_round=matches)),
                 *[PlayerRegistered(pid, name) for pid, name in zip(ids, names)], by="official", at="2026-02-01T09:00")
    schedule = make_schedule(ids, rounds, seed=seed)
    log = append(log, *[RoundSeated(r) for r in schedule.rounds], by="official")
    return log, schedule


def _discard_win(winner, discarder, amount, tai=2):
    pay = [0, 0, 0, 0]
    pay[winner], pay[discarder] = amount, -amount
    return HandResult(tuple(pay), (Win(winner, tai, discarder),))


def test_an_event_folds_from_its_log_and_replays_the_same():
    log, schedule = _event()
    log = append(log, HandRecorded((1, 1, 1, 1), _discard_win(0, 1, 140)),
                 HandRecorded((1, 1, 1, 2), HandResult((0, 0, 0, 0))), by="scorer-1")
    state = replay(log)
    assert state.settings.name == "台北新春盃" and len(state.players) == 8 and len(state.rounds) == 2
    assert state.hand((1, 1, 1, 1)).result.payments == (140, -140, 0, 0)
    assert state.seats(1, 1, 1) == schedule.rounds[0].tables[0].seats
    assert replay(log) == state and replay(list(log)) == state
    assert log[-1] == Record(len(log), HandRecorded((1, 1, 1, 2), HandResult((0, 0, 0, 0))), "scorer-1", "")


def test_events_that_do_not_apply_are_refused_naming_the_record():
    log, _ = _event()
    cases = [
        (HandRecorded((1, 1, 1, 2), HandResult((0, 0, 0, 0))), "下一盤應為第 1 盤"),
        (HandRecorded((1, 9, 1, 1), HandResult((0, 0, 0, 0))), "沒有第 9 桌"),
        (HandRecorded((3, 1, 1, 1), HandResult((0, 0, 0, 0))), "尚未排座"),
        (HandRecorded((1, 1, 2, 1), HandResult((0, 0, 0, 0))), "將 2 不在"),
        (HandCorrected((1, 1, 1, 1), HandResult((0, 0, 0, 0)), "誤記"), "無從更正"),
        (PlayerRegistered("p0", "重複"), "已報名"),
        (EventCreated(EventSettings("又一次", 1)), "已建立"),
        (Reverted(3, "no"), "不可撤銷"),
    ]
    for event, zh in cases:
        with pytest.raises(EventLogError) as e:
            append(log, event)
        assert zh in e.value.reason_zh, (event, e.value.reason_zh)
        # a new event is refused in its own words: its would-be record number means nothing to who sent it
        assert not e.value.reason_zh.startswith(f"第 {len(log) + 1} 筆")
        assert f"record {len(log) + 1}" not in e.value.message
        # a stored log that does not fold names the record at fault
        with pytest.raises(EventLogError) as stored:
            replay([*log, Record(len(log) + 1, event)])
        assert stored.value.reason_zh.startswith(f"第 {len(log) + 1} 筆") and zh in stored.value.reason_zh
    with pytest.raises(EventLogError):
        replay([Record(1, PlayerRegistered("x", "x"))])  # no EventCreated first
    with pytest.raises(EventLogError):
        replay([Record(2, EventCreated(EventSettings("x", 1)))])  # a gap
    with pytest.raises(EventLogError) as e:
        EventSettings("", 1)
    assert e.value.field == "name"


def test_a_round_with_results_cannot_be_seated_again():
    log, schedule = _event()
    again = append(log, RoundSeated(schedule.rounds[0]))  # no results yet: fine
    log = append(again, HandRecorded((1, 1, 1, 1), HandResult((0, 0, 0, 0))))
    with pytest.raises(EventLogError) as e:
        append(log, RoundSeated(schedule.rounds[0]))
    assert "已有成績" in e.value.reason_zh


def test_corrections_are_events_reversible_and_audited():
    log, _ = _event()
    log = append(log, HandRecorded((1, 1, 1, 1), _discard_win(0, 1, 140)), by="scorer", at="10:01")
    log = append(log, HandCorrected((1, 1, 1, 1), _discard_win(0, 2, 180), "放槍者記錯"), by="official", at="10:05")
    corrected = replay(log)
    assert corrected.hand((1, 1, 1, 1)).result.payments == (180, 0, -180, 0)
    assert corrected.hand((1, 1, 1, 1)).corrected
    log = append(log, Reverted(log[-1].seq, "更正本身有誤"), by="head-official", at="10:09")
    reverted = replay(log)
    assert reverted.hand((1, 1, 1, 1)).result.payments == (140, -140, 0, 0)
    log = append(log, Reverted(log[-1].seq, "撤銷錯誤，恢復更正"), by="head-official", at="10:12")
    assert replay(log).hand((1, 1, 1, 1)).result.payments == (180, 0, -180, 0)
    trail = audit(log, (1, 1, 1, 1))
    assert [(a.kind, a.by, a.in_effect) for a in trail] == [
        ("HandRecorded", "scorer", True), ("HandCorrected", "official", True),
        ("Reverted", "head-official", False), ("Reverted", "head-official", True)]
    with pytest.raises(EventLogError):
        append(log, HandCorrected((1, 1, 1, 1), HandResult((0, 0, 0, 0)), " "))  # a correction needs a reason


def test_reverting_a_recorded_hand_removes_it_and_later_corrections_must_still_apply():
    log, _ = _event()
    log = append(log, HandRecorded((1, 1, 1, 1), _discard_win(0, 1, 140)))
    recorded = log[-1].seq
    gone = append(log, Reverted(recorded, "記錯桌"))
    assert replay(gone).hand((1, 1, 1, 1)) is None
    corrected = append(log, HandCorrected((1, 1, 1, 1), HandResult((0, 0, 0, 0)), "荒局"))
    with pytest.raises(EventLogError):
        append(corrected, Reverted(recorded, "記錯桌"))  # the correction would correct nothing


def test_seats_of_a_match_after_banfeng_map_payments_to_players():
    log, schedule = _event()
    table = schedule.rounds[0].tables[0]
    a, b, c, d = table.seats
    log = append(log, MatchSeated(1, table.table, 1, Seating((c, a, d, b), east=1)))
    log = append(log, HandRecorded((1, table.table, 1, 1), _discard_win(0, 1, 140)))
    rows = {s.totals.player_id: s.totals for s in standings(replay(log))}
    assert rows[c].points == 140 and rows[a].points == -140 and rows[c].wins == 1 and rows[a].deal_ins == 1
    with pytest.raises(EventLogError):
        append(log, MatchSeated(1, table.table, 1, Seating((a, b, c, d))))  # hands recorded already
    with pytest.raises(EventLogError):
        append(log, MatchSeated(1, 2, 1, Seating((a, b, c, d))))  # not that table's players


def test_substitutes_take_substitute_seats_and_are_not_ranked():
    ids = [f"p{i}" for i in range(7)]
    log = append((), EventCreated(EventSettings("補位賽", rounds=1)), *[PlayerRegistered(p, p.upper()) for p in ids],
                 PlayerRegistered("s1", "替補一", substitute=True))
    schedule = make_schedule(ids, 1, seed=3)
    log = append(log, RoundSeated(schedule.rounds[0]))
    table = next(t for t in schedule.rounds[0].tables if None in t.seats)
    wind = table.seats.index(None)
    with pytest.raises(EventLogError):
        append(log, SubstituteSeated(1, table.table, Wind((wind + 1) % 4), "s1"))  # a player's seat
    with pytest.raises(EventLogError):
        append(log, SubstituteSeated(1, table.table, wind, "p0"))  # not a substitute
    log = append(log, SubstituteSeated(1, table.table, wind, "s1"))
    assert "s1" in replay(log).round(1).tables[table.table - 1].seats
    win = _discard_win(wind, (wind + 1) % 4, 500)
    log = append(log, HandRecorded((1, table.table, 1, 1), win))
    ranked = [s.totals.player_id for s in standings(replay(log))]
    assert "s1" not in ranked and len(ranked) == 7
    assert "s1" in [s.totals.player_id for s in standings(replay(log), include_substitutes=True)]


def test_a_withdrawal_carries_the_reseated_rounds():
    ids = [f"p{i:02d}" for i in range(16)]
    log = append((), EventCreated(EventSettings("退賽測試", rounds=4)), *[PlayerRegistered(p, p) for p in ids])
    schedule = make_schedule(ids, 4, seed=1)
    log = append(log, *[RoundSeated(r) for r in schedule.rounds])
    log = append(log, HandRecorded((1, 1, 1, 1), HandResult((0, 0, 0, 0))))
    later = reseat(schedule, withdrawn=["p03"], from_round=2)
    with pytest.raises(EventLogError) as e:
        append(log, PlayerWithdrew("p03", 1, later.rounds, "身體不適"))
    assert "已有成績" in e.value.reason_zh
    with pytest.raises(EventLogError):
        append(log, PlayerWithdrew("p03", 2, later.rounds[2:], "身體不適"))  # round 2 must be re-seated too
    log = append(log, PlayerWithdrew("p03", 2, later.rounds[1:], "身體不適"))
    state = replay(log)
    assert state.round(1) == schedule.rounds[0]
    assert all(state.round(r).table_of("p03") is None for r in (2, 3, 4))
    assert state.player("p03").withdrawn_before == 2
    with pytest.raises(EventLogError):
        append(log, RoundSeated(schedule.rounds[2]))  # p03 cannot be seated again


# --- standings -------------------------------------------------------------------------------------


def T(pid, points, **kw):
    return Totals(pid, pid.upper(), points, **kw)


def test_points_first_then_the_default_chain():
    rows = [T("a", 100, deal_ins=3), T("b", 100, deal_ins=1), T("c", 100, deal_ins=1, self_draws=2),
            T("d", 300), T("e", 100, deal_ins=1, self_draws=2)]
    ranked = rank(rows)
    assert [(s.rank, s.totals.player_id, s.tied) for s in ranked] == [
        (1, "d", False), (2, "c", True), (2, "e", True), (4, "b", False), (5, "a", False)]
    assert DEFAULT_TIE_BREAKS == (TieBreak.FEWER_DEAL_INS, TieBreak.MORE_SELF_DRAWS, TieBreak.MORE_WINS,
                                  TieBreak.MORE_TAI)


def test_a_custom_chain_and_unknown_names():
    rows = [T("a", 0, tai=9, deal_ins=5), T("b", 0, tai=3)]
    assert [s.totals.player_id for s in rank(rows, ["more_tai"])] == ["a", "b"]
    assert [s.totals.player_id for s in rank(rows)] == ["b", "a"]
    with pytest.raises(StandingsError) as e:
        tie_breaks(["more_luck"])
    assert e.value.field == "tie_breaks[0]" and "more_luck" in e.value.message


def _played_event(seed=4):
    rng = random.Random(seed)
    ids = [f"p{i:02d}" for i in range(16)]
    log = append((), EventCreated(EventSettings("晉級賽", rounds=2)), *[PlayerRegistered(p, p) for p in ids])
    schedule = make_schedule(ids, 2, seed=seed)
    log = append(log, *[RoundSeated(r) for r in schedule.rounds])
    hands = []
    for rnd in schedule.rounds:
        for t in rnd.tables:
            for h in range(1, 9):
                w = rng.randrange(4)
                hands.append(HandRecorded((rnd.round, t.table, 1, h), _discard_win(w, (w + rng.randrange(1, 4)) % 4,
                                                                                     100 + 20 * rng.randrange(8))))
    return append(log, *hands), schedule


def test_advancement_takes_the_top_of_each_table():
    log, schedule = _played_event()
    state = replay(log)
    one = advancement(state, 1, take=1)
    two = advancement(state, 1, take=2)
    assert len(one) == len(two) == 4
    for a, b in zip(one, two):
        assert len(a.advancing) + len(a.tie_at_cut) >= 1
        assert set(a.advancing) <= set(b.advancing) | set(b.tie_at_cut)
        points = {s.totals.player_id: s.totals.points for s in b.ranking}
        assert all(points[p] >= max(points[q] for q in points if q not in b.advancing) for p in b.advancing)
    with pytest.raises(StandingsError):
        advancement(state, 1, take=3)
    with pytest.raises(StandingsError):
        advancement(state, 5)


def test_a_tie_at_the_cut_is_reported_not_decided():
    ids = ["a", "b", "c", "d"]
    log = append((), EventCreated(EventSettings("決賽", rounds=1)), *[PlayerRegistered(p, p) for p in ids],
                 RoundSeated(RoundPlan(1, (TablePlan(1, ("a", "b", "c", "d")),))),
                 HandRecorded((1, 1, 1, 1), _discard_win(0, 2, 100)),
                 HandRecorded((1, 1, 1, 2), _discard_win(1, 3, 100)))
    (table,) = advancement(replay(log), 1, take=1)
    assert table.advancing == () and set(table.tie_at_cut) == {"a", "b"}
    (table,) = advancement(replay(log), 1, take=2)
    assert set(table.advancing) == {"a", "b"} and table.tie_at_cut == ()


def test_standings_sum_to_zero_and_export_as_csv():
    log, _ = _played_event()
    rows = standings(replay(log))
    assert sum(s.totals.points for s in rows) == 0
    assert sum(s.totals.wins for s in rows) == 4 * 8 * 2
    assert check_balances((k, r.payments) for k, _, r in replay(log).hand_rows()) == []
    text = to_csv(rows)
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0][:4] == ["名次 Rank", "代號 ID", "姓名 Name", "總分 Points"]
    assert len(parsed) == 17 and parsed[1][0] == "1"
    assert [int(r[3]) for r in parsed[1:]] == sorted((int(r[3]) for r in parsed[1:]), reverse=True)


def test_event_records_repr_parse_back():
    from tournament import events, results, schedule, seating
    ns = {**vars(events), **vars(results), **vars(schedule), **vars(seating), "Wind": Wind}
    log, _ = _event()
    log = append(log, HandRecorded((1, 1, 1, 1), _discard_win(0, 1, 140)),
                 HandCorrected((1, 1, 1, 1), HandResult((0, 0, 0, 0)), "誤記"), by="official", at="2026-02-01T10:00")
    for record in log:
        assert eval(repr(record), ns) == record
    state = replay(log)
    assert eval(repr(state), ns) == state

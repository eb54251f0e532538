"""Team events (團體賽): players in teams, team standings beside the individual ones
(issue #15, item 4; docs/rulings.md R-tour-29)."""
from __future__ import annotations

import csv
import io
from dataclasses import fields

import pytest

from referee.tiles import Wind
from tournament.codec import decode, encode
from tournament.errors import EventLogError
from tournament.events import (
    EventCreated, EventSettings, HandRecorded, PlayerRegistered, PlayerWithdrew, RoundSeated, SubstituteSeated, append,
    replay,
)
from tournament.results import HandResult, Win
from tournament.schedule import RoundPlan, TablePlan, make_schedule, reseat
from tournament.standings import (
    COUNTS, CSV_BOM, TeamTotals, Totals, has_teams, rank_teams, standings, team_standings, team_totals, teams_to_csv,
    teams_to_csv_file,
)

TEAMS = {"p0": "台北隊", "p1": "台北隊", "p2": "高雄隊", "p3": "高雄隊"}
NAMES = {"p0": "王小明", "p1": "李大華", "p2": "陳美玲", "p3": "林志強"}


def _event(teams=TEAMS):
    log = append((), EventCreated(EventSettings("聯賽", rounds=1)),
                 *[PlayerRegistered(p, NAMES[p], team=teams.get(p)) for p in NAMES])
    return append(log, RoundSeated(RoundPlan(1, (TablePlan(1, ("p0", "p1", "p2", "p3")),))))


def _win(winner, discarder, amount, tai=2):
    pay = [0, 0, 0, 0]
    pay[winner], pay[discarder] = amount, -amount
    return HandResult(tuple(pay), (Win(winner, tai, discarder),))


def test_a_team_total_is_the_sum_of_its_members_points():
    log = append(_event(), HandRecorded((1, 1, 1, 1), _win(0, 2, 160)), HandRecorded((1, 1, 1, 2), _win(3, 1, 120)))
    state = replay(log)
    rows = team_totals(state)
    assert rows["台北隊"].points == 160 - 120 and rows["高雄隊"].points == -160 + 120
    assert rows["台北隊"].members == ("p0", "p1") and rows["台北隊"].names == ("王小明", "李大華")
    assert rows["台北隊"].wins == 1 and rows["台北隊"].deal_ins == 1 and rows["台北隊"].hands == 4
    # the team's sum equals its members' individual totals
    by_player = {s.totals.player_id: s.totals.points for s in standings(state)}
    assert rows["台北隊"].points == by_player["p0"] + by_player["p1"]
    ranked = team_standings(state)
    assert [(s.rank, s.totals.team, s.tied) for s in ranked] == [(1, "台北隊", False), (2, "高雄隊", False)]


def test_a_player_and_a_team_keep_the_same_counts():
    """:data:`COUNTS` are the int fields both totals have: a count added to one and not to the
    other, or to neither list, fails here."""
    for totals in (Totals, TeamTotals):
        counted = tuple(f.name for f in fields(totals) if f.type in (int, "int"))
        assert counted == COUNTS, totals


def test_teams_equal_on_points_go_by_the_chain_then_share_a_rank():
    # equal points: fewer 放槍 wins it
    a = TeamTotals("甲隊", points=100, deal_ins=2)
    b = TeamTotals("乙隊", points=100, deal_ins=1)
    assert [s.totals.team for s in rank_teams([a, b])] == ["乙隊", "甲隊"]
    # equal on everything: the same rank, marked tied, listed by team name
    c = TeamTotals("丙隊", points=100, deal_ins=1)
    ranked = rank_teams([a, b, c])
    assert [(s.rank, s.totals.team, s.tied) for s in ranked] == [(1, "丙隊", True), (1, "乙隊", True),
                                                                 (3, "甲隊", False)]
    # the chain is the event's: 台多 first turns it round
    d = TeamTotals("丁隊", points=100, deal_ins=3, tai=9)
    assert rank_teams([b, d], ["more_tai"])[0].totals.team == "丁隊"


def test_no_team_event_has_no_team_standings():
    state = replay(_event(teams={}))
    assert not has_teams(state) and team_standings(state) == []
    assert has_teams(replay(_event()))


def test_a_teams_substitute_scores_for_it_a_pool_substitute_for_none():
    ids = [f"p{i}" for i in range(7)]
    teams = {p: ("東隊" if i < 4 else "西隊") for i, p in enumerate(ids)}
    log = append((), EventCreated(EventSettings("補位聯賽", rounds=1)),
                 *[PlayerRegistered(p, p.upper(), team=teams[p]) for p in ids],
                 PlayerRegistered("s1", "替補一", substitute=True, team="西隊"),
                 PlayerRegistered("s2", "替補二", substitute=True))
    schedule = make_schedule(ids, 1, seed=3)
    log = append(log, RoundSeated(schedule.rounds[0]))
    table = next(t for t in schedule.rounds[0].tables if None in t.seats)
    wind = table.seats.index(None)
    other = (wind + 1) % 4
    log = append(log, SubstituteSeated(1, table.table, Wind(wind), "s1"),
                 HandRecorded((1, table.table, 1, 1), _win(wind, other, 500)))
    rows = team_totals(replay(log))
    loser_team = teams[table.seats[other]]
    assert "s1" in rows["西隊"].members and "s2" not in rows["西隊"].members + rows["東隊"].members
    assert rows["西隊"].points == 500 - (500 if loser_team == "西隊" else 0)
    assert rows["東隊"].points == -(500 if loser_team == "東隊" else 0)


def test_a_withdrawn_members_points_stay_with_the_team():
    ids = [f"p{i:02d}" for i in range(8)]
    teams = {p: ("A" if i % 2 else "B") for i, p in enumerate(ids)}
    log = append((), EventCreated(EventSettings("退賽聯賽", rounds=2)),
                 *[PlayerRegistered(p, p, team=teams[p]) for p in ids])
    schedule = make_schedule(ids, 2, seed=5)
    log = append(log, *[RoundSeated(r) for r in schedule.rounds])
    t = schedule.rounds[0].tables[0]
    log = append(log, HandRecorded((1, t.table, 1, 1), _win(0, 1, 300)))
    before = team_totals(replay(log))
    leaver = t.seats[0]
    later = reseat(schedule, withdrawn=[leaver], from_round=2)
    log = append(log, PlayerWithdrew(leaver, 2, tuple(later.rounds[1:])))
    state = replay(log)
    assert state.player(leaver).team == teams[leaver] and state.player(leaver).withdrawn_before == 2
    assert team_totals(state) == before


def test_team_names_are_checked_and_old_logs_read_without_one():
    with pytest.raises(EventLogError) as err:
        append(_event(), PlayerRegistered("p9", "新人", team="  "))
    assert err.value.field == "team"
    with pytest.raises(EventLogError) as err:
        append(_event(), PlayerRegistered("p9", "新人", team="隊" * 41))
    assert err.value.field == "team"
    # a log written before teams: no `team` field, read as none
    old = decode({"type": "PlayerRegistered", "player_id": "p0", "name": "王小明", "substitute": False})
    assert old == PlayerRegistered("p0", "王小明") and old.team is None
    event = PlayerRegistered("p0", "王小明", team="台北隊")
    assert decode(encode(event)) == event and encode(event)["team"] == "台北隊"
    with pytest.raises(EventLogError) as err:
        decode({**encode(event), "team": 7})
    assert err.value.field == "team"


def test_team_csv_has_a_bom_and_the_members():
    state = replay(append(_event(), HandRecorded((1, 1, 1, 1), _win(2, 0, 140))))
    text = teams_to_csv_file(team_standings(state))
    assert text.startswith(CSV_BOM) and teams_to_csv(team_standings(state)) == text[1:]
    rows = list(csv.reader(io.StringIO(text[1:])))
    assert rows[0][:4] == ["名次 Rank", "隊名 Team", "隊員 Members", "總分 Points"]
    assert rows[1][:4] == ["1", "高雄隊", "陳美玲、林志強", "140"]
    assert rows[2][:4] == ["2", "台北隊", "王小明、李大華", "-140"]


def test_a_team_changed_moves_the_players_points_to_the_new_team():
    """R-tour-32: TeamChanged sets a player's team; team standings follow the teams as they are now."""
    from tournament.events import TeamChanged
    log = append(_event(), HandRecorded((1, 1, 1, 1), _win(0, 2, 160)))
    assert team_totals(replay(log))["台北隊"].points == 160
    moved = append(log, TeamChanged("p0", "高雄隊", "報名誤植"))
    rows = team_totals(replay(moved))
    assert rows["高雄隊"].points == 0 and rows["高雄隊"].members == ("p0", "p2", "p3")
    assert rows["台北隊"].members == ("p1",)
    assert replay(append(moved, TeamChanged("p0", None))).player("p0").team is None
    assert decode(encode(TeamChanged("p0", "高雄隊", "x"))) == TeamChanged("p0", "高雄隊", "x")
    with pytest.raises(EventLogError) as info:
        append(log, TeamChanged("p9", "甲隊"))
    assert info.value.field == "player_id"
    with pytest.raises(EventLogError) as info:
        append(log, TeamChanged("p0", " "))
    assert info.value.field == "team"


def _two_rounds():
    seats = RoundPlan(1, (TablePlan(1, ("p0", "p1", "p2", "p3")),))
    log = append((), EventCreated(EventSettings("聯賽", rounds=3)),
                 *[PlayerRegistered(p, NAMES[p], team=TEAMS[p]) for p in NAMES],
                 *[RoundSeated(RoundPlan(r, seats.tables)) for r in (1, 2, 3)])
    # round 1: 王小明 (台北隊) wins 160 from 陳美玲 (高雄隊)
    return append(log, HandRecorded((1, 1, 1, 1), _win(0, 2, 160)))


def test_a_player_moved_from_a_round_leaves_his_earlier_points_with_his_old_team():
    """R-tour-32: a move between rounds (``from_round``) counts from that round; the rounds
    before it stay with the team he played them for (their totals were announced)."""
    from tournament.events import TeamChanged
    moved = append(_two_rounds(), TeamChanged("p0", "高雄隊", "轉隊", from_round=2))
    state = replay(moved)
    assert state.player("p0").team == "高雄隊"
    assert [state.player("p0").team_in(r) for r in (1, 2, 3)] == ["台北隊", "高雄隊", "高雄隊"]
    assert team_totals(state, rounds=[1])["台北隊"].points == 160  # round 1 as announced
    later = append(moved, HandRecorded((2, 1, 1, 1), _win(0, 1, 120)))  # now for 高雄隊, from 李大華
    rows = team_totals(replay(later))
    assert rows["台北隊"].points == 160 - 120 and rows["高雄隊"].points == -160 + 120
    assert rows["台北隊"].members == ("p0", "p1") and rows["高雄隊"].members == ("p0", "p2", "p3")
    assert team_totals(replay(later), rounds=[2])["台北隊"].members == ("p1",)
    # a correction (no from_round) applies to every round: the registration was wrong
    fixed = replay(append(later, TeamChanged("p0", "高雄隊", "報名誤植")))
    assert fixed.player("p0").team_in(1) == "高雄隊" and team_totals(fixed)["高雄隊"].points == 160 - 160 + 120
    # a second move keeps the first: 台北隊 in round 1, 高雄隊 in round 2, none from round 3
    again = replay(append(later, TeamChanged("p0", None, "改為個人", from_round=3)))
    assert [again.player("p0").team_in(r) for r in (1, 2, 3)] == ["台北隊", "高雄隊", None]
    assert decode(encode(TeamChanged("p0", "高雄隊", "x", 2))) == TeamChanged("p0", "高雄隊", "x", 2)
    assert decode({"type": "TeamChanged", "player_id": "p0", "team": "高雄隊"}).from_round is None  # a log from before
    for bad in (0, 4, "2", True):
        with pytest.raises(EventLogError) as info:
            append(later, TeamChanged("p0", "甲隊", from_round=bad))
        assert info.value.field == "from_round"


def test_a_withdrawal_after_a_move_keeps_the_teams_played_for():
    from tournament.events import TeamChanged
    log = append(_two_rounds(), TeamChanged("p0", "高雄隊", "轉隊", from_round=2))
    state = replay(append(log,
                          PlayerWithdrew("p0", 3, reseated=(RoundPlan(3, (TablePlan(1, (None, "p1", "p2", "p3")),)),))))
    assert state.player("p0").team_in(1) == "台北隊" and state.player("p0").team_in(2) == "高雄隊"

"""Steps for team events (團體賽, R-tour-30): :mod:`tournament.standings` team standings.

The ``tourney`` fixture and the hand-recording steps are :mod:`tests.steps.tournament_steps`'."""
from __future__ import annotations

import re

from pytest_bdd import given, parsers, then, when

from tournament.events import EventCreated, EventSettings, PlayerRegistered, RoundSeated, TeamChanged, append, replay
from tournament.schedule import RoundPlan, TablePlan
from tournament.standings import team_standings, team_totals

_MEMBER = re.compile(r"^(?P<name>[^（]+)（(?P<team>[^）]+)）$")


@given(parsers.parse("賽事：「{name}」團體賽一桌四人 {players}，東南西北入座"))
def team_table_event(tourney, name, players):
    """``王小明（台北隊）、李大華（台北隊）、…``: each player with the team in brackets."""
    members = [_MEMBER.match(p.strip()).groupdict() for p in players.split("、")]
    seats = tuple(m["name"] for m in members)
    tourney["seats"] = seats
    tourney["log"] = append((), EventCreated(EventSettings(name, rounds=2)),
                            *[PlayerRegistered(m["name"], m["name"], team=m["team"]) for m in members],
                            RoundSeated(RoundPlan(1, (TablePlan(1, seats),))), by="official")


@when(parsers.parse("賽事：裁判將{player}改入{team}（{reason}）"))
def team_changed(tourney, player, team, reason):
    """R-tour-32: a player's team changed by an official, with the reason."""
    tourney["log"] = append(tourney["log"], TeamChanged(player, team, reason), by="official")


@when(parsers.parse("賽事：裁判記錄{player}自第 {start:d} 輪起轉入{team}（{reason}）"))
def team_moved(tourney, player, start, team, reason):
    """R-tour-32: a move from a round on; the rounds before stay with the old team."""
    tourney["log"] = append(tourney["log"], TeamChanged(player, team, reason, from_round=start), by="official")


@when(parsers.parse("賽事：裁判將{player}移出隊伍（{reason}）"))
def team_cleared(tourney, player, reason):
    tourney["log"] = append(tourney["log"], TeamChanged(player, None, reason), by="official")


@then(parsers.parse("賽事：隊伍總分 {spec}"))
def team_points(tourney, spec):
    rows = {t: row.points for t, row in team_totals(replay(tourney["log"])).items()}
    for item in spec.split("、"):
        team, value = item.rsplit(" ", 1)
        assert rows[team] == int(value), (team, rows)


@then(parsers.parse("賽事：隊伍排名依序為 {teams}"))
def team_ranking(tourney, teams):
    assert [s.totals.team for s in team_standings(replay(tourney["log"]))] == teams.split("、")


@then(parsers.parse("賽事：隊伍 {a}、{b}並列第 {rank:d} 名"))
def teams_tied(tourney, a, b, rank):
    rows = {s.totals.team: s for s in team_standings(replay(tourney["log"]))}
    assert rows[a].rank == rows[b].rank == rank and rows[a].tied and rows[b].tied

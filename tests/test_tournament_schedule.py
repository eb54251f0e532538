"""Schedules (issue #7, item 3): the best known repeat-free round counts, verified by a
checker; winds within ⌊R/4⌋…⌈R/4⌉; substitutes; withdrawals; determinism."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bench_schedule import TARGETS
from tournament.designs import (
    affine, best_design, candidates, check_rounds, cyclic_packing, elementary32, gdd2, gdd3, rotational,
)
from tournament.errors import ScheduleError
from tournament.galois import GF, prime_power
from tournament.orbits import luby, pair_orbits
from tournament.pairing import Meetings, extend
from tournament.schedule import (
    RoundPlan, Schedule, TablePlan, check_schedule, make_schedule, meeting_counts, reseat,
)
from tournament.winds import balance, is_balanced, wind_counts

def players(n: int) -> list[str]:
    return [f"選手{i:03d}" for i in range(n)]


# --- the checker itself ---------------------------------------------------------------------


def test_the_checker_finds_a_pair_twice_and_a_point_missing():
    assert check_rounds(8, [[(0, 1, 2, 3), (4, 5, 6, 7)]]) == []
    assert check_rounds(8, [[(0, 1, 2, 3), (4, 5, 6, 7)], [(0, 1, 4, 5), (2, 3, 6, 7)]]) == [
        "0 and 1 meet in rounds 1 and 2", "4 and 5 meet in rounds 1 and 2", "2 and 3 meet in rounds 1 and 2",
        "6 and 7 meet in rounds 1 and 2"]
    assert check_rounds(8, [[(0, 1, 2, 3), (4, 5, 6, 6)]])[0] == "round 1 does not seat every point exactly once"
    assert check_rounds(7, [[(0, 1, 2, 3), (4, 5, 6)]]) == ["round 1 has a table of 3: (4, 5, 6)"]


def test_check_schedule_reports_problems_and_repeats():
    bad = Schedule(("a", "b", "c", "d", "e"), (
        RoundPlan(1, (TablePlan(1, ("a", "b", "c", "d")),)),
        RoundPlan(2, (TablePlan(1, ("a", "a", "c", "x")),)),
    ))
    check = check_schedule(bad)
    assert not check.ok
    assert "round 2: 'a' is seated 2 times" in check.problems
    assert "round 2 table 1: 'x' is not in the event" in check.problems
    assert check.repeats == 1 and check.repeat_free_rounds == 1 and check.max_meetings == 2


# --- constructions -----------------------------------------------------------------------------


@pytest.mark.parametrize("n, target", sorted(TARGETS.items()))
def test_each_size_reaches_the_best_known_rounds(n, target):
    design = best_design(n)
    assert design is not None and len(design.rounds) >= target
    assert check_rounds(n, design.rounds) == []


def test_the_closed_forms_are_complete_designs():
    for design in (affine(2), affine(3), rotational(5), rotational(9), rotational(13), rotational(25)):
        v = design.points
        assert check_rounds(v, design.rounds) == []
        met = sum(6 * len(r) for r in design.rounds)
        assert met == v * (v - 1) // 2  # every pair exactly once: a resolvable 2-(v,4,1) design


def test_the_searched_designs_leave_exactly_their_holes():
    for design, hole in ((gdd3(7), 2), (gdd2(14), 1), (elementary32(), 1)):
        v = design.points
        assert check_rounds(v, design.rounds) == []
        met = sum(6 * len(r) for r in design.rounds)
        assert met == v * (v - 1 - hole) // 2  # each player misses exactly its group
    assert check_rounds(20, cyclic_packing(5).rounds) == []


def test_candidates_and_fields():
    assert [name for _, name in candidates(16)] == ["affine", "rotational"]
    assert candidates(12) == [(3, "cyclic_packing")]
    assert candidates(8) == []
    assert prime_power(49) == (7, 2) and prime_power(12) is None
    F = GF(25)
    i = F.power(6)
    assert F.mul(i, i) == F.neg(1)
    assert [luby(k) for k in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_pair_orbits_forbid_short_orbits_and_holes():
    group = [[(p + t) % 4 for p in range(4)] for t in range(4)]
    table, count = pair_orbits(4, group, holes=[(0, 1)])
    assert table[0][2] == -1  # difference 2: an orbit of 2 pairs
    assert table[0][1] == -1 and table[1][2] == -1  # difference 1 is the hole
    assert count == 0


# --- schedules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [16, 24, 32, 44, 48])
def test_schedules_of_the_table_sizes_are_repeat_free_and_wind_balanced(n):
    schedule = make_schedule(players(n), TARGETS[n], seed=3)
    check = check_schedule(schedule)
    assert check.ok and check.repeats == 0 and check.repeat_free_rounds == TARGETS[n]
    assert check.winds_balanced
    low, high = TARGETS[n] // 4, -(-TARGETS[n] // 4)
    assert all(low <= c <= high for counts in check.wind_counts.values() for c in counts)


def test_the_forty_eight_player_event_of_the_issue():
    schedule = make_schedule(players(48), 15, seed=2026)
    check = check_schedule(schedule)
    assert check.ok and check.repeats == 0 and check.winds_balanced
    assert all(len(r.tables) == 12 for r in schedule.rounds)
    assert {tuple(sorted(c)) for c in check.wind_counts.values()} == {(3, 4, 4, 4)}


def test_same_seed_same_schedule_other_seed_other_schedule():
    a = make_schedule(players(28), 6, seed=1)
    assert a == make_schedule(players(28), 6, seed=1)
    assert a != make_schedule(players(28), 6, seed=2)


def test_past_the_bound_repeats_are_few_and_spread():
    schedule = make_schedule(players(16), 7, seed=1)
    check = check_schedule(schedule)
    assert check.ok and check.repeat_free_rounds == 5 and check.winds_balanced
    # every pair met once in the five rounds of AG(2,4); two more rounds add 2 × 24 repeats
    assert check.repeats == 48 and check.max_meetings == 2


@pytest.mark.parametrize("n, rounds", [(13, 3), (22, 5), (47, 15), (61, 12)])
def test_substitutes_fill_the_last_seats_never_two_at_a_table(n, rounds):
    schedule = make_schedule(players(n), rounds, seed=5)
    check = check_schedule(schedule)
    assert check.ok and check.repeats == 0 and check.winds_balanced
    for rnd in schedule.rounds:
        subs = sum(1 for t in rnd.tables for p in t.seats if p is None)
        assert subs == -n % 4
        assert len(rnd.tables) == -(-n // 4)
    assert check.substitute_pairs == 0


def test_larger_events_by_local_search():
    schedule = make_schedule(players(200), 10, seed=1)
    check = check_schedule(schedule)
    assert check.ok and check.repeats == 0 and check.winds_balanced
    assert schedule.method == "local search"


def test_small_events_minimise_repeats():
    check = check_schedule(make_schedule(players(12), 4, seed=1))
    assert check.ok and check.winds_balanced and check.repeat_free_rounds == 1  # 3 tables: round 2 must repeat


def test_bad_requests_are_refused():
    with pytest.raises(ScheduleError) as e:
        make_schedule(["a", "b", "c"], 3)
    assert e.value.field == "players"
    with pytest.raises(ScheduleError) as e:
        make_schedule(["a", "b", "c", "a"], 3)
    assert "'a'" in e.value.message
    with pytest.raises(ScheduleError) as e:
        make_schedule(players(8), 0)
    assert e.value.field == "rounds"


# --- withdrawals ---------------------------------------------------------------------------------


def test_a_withdrawal_gives_the_seat_to_a_substitute_and_keeps_everything_else():
    before = make_schedule(players(48), 15, seed=1)
    after = reseat(before, withdrawn=["選手005"], from_round=4, seed=1)
    assert after.rounds[:3] == before.rounds[:3]
    for old, new in zip(before.rounds[3:], after.rounds[3:]):
        for t_old, t_new in zip(old.tables, new.tables):
            assert t_new.seats == tuple(None if p == "選手005" else p for p in t_old.seats)
    check = check_schedule(after)
    assert check.ok and check.repeats == 0 and check.winds_balanced


def test_when_a_table_can_go_the_later_rounds_are_reseated():
    before = make_schedule(players(48), 15, seed=1)
    leaving = ["選手006", "選手007", "選手008", "選手009"]
    after = reseat(before, withdrawn=leaving, from_round=6, seed=1)
    assert after.rounds[:5] == before.rounds[:5]
    assert all(len(r.tables) == 11 for r in after.rounds[5:])
    assert not any(p in leaving for r in after.rounds[5:] for t in r.tables for p in t.seats)
    check = check_schedule(after)
    assert check.ok and check.winds_balanced
    assert all(None not in t.seats for r in after.rounds[5:] for t in r.tables)


def test_withdrawal_errors():
    schedule = make_schedule(players(8), 2)
    with pytest.raises(ScheduleError):
        reseat(schedule, withdrawn=["nobody"], from_round=1)
    with pytest.raises(ScheduleError):
        reseat(schedule, withdrawn=["選手000"], from_round=9)
    with pytest.raises(ScheduleError):
        reseat(schedule, withdrawn=players(8)[:5], from_round=1)


# --- winds ---------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(1, 14), st.randoms(use_true_random=False))
def test_winds_always_balance(tables, rounds, rnd):
    n = 4 * tables
    schedule = []
    for _ in range(rounds):
        pts = list(range(n))
        rnd.shuffle(pts)
        schedule.append([pts[4 * k:4 * k + 4] for k in range(tables)])
    seated = balance(schedule)
    assert [[sorted(t) for t in r] for r in seated] == [[sorted(t) for t in r] for r in schedule]
    counts = wind_counts(seated)
    assert is_balanced(counts)
    assert all(rounds // 4 <= c <= -(-rounds // 4) for cs in counts.values() for c in cs)


def test_winds_even_out_with_winds_already_sat():
    prior = {0: [3, 0, 0, 0], 1: [0, 3, 0, 0], 2: [0, 0, 3, 0], 3: [0, 0, 0, 3]}
    seated = balance([[(0, 1, 2, 3)]] * 3, prior=prior)
    counts = wind_counts(seated)
    totals = {p: [a + b for a, b in zip(prior[p], counts[p])] for p in prior}
    # three East already: the best three more rounds give each of the other winds once
    assert all(sorted(c) == [1, 1, 1, 3] for c in totals.values())


def test_meeting_counts_and_local_search_bookkeeping():
    schedule = make_schedule(players(8), 2, seed=1)
    met = meeting_counts(schedule.rounds)
    assert sum(met.values()) == 2 * 2 * 6
    meetings = Meetings(8)
    rounds = extend(meetings, list(range(8)), 3, random.Random(1))
    assert all(sorted(itertools.chain(*r)) == list(range(8)) for r in rounds)
    assert sum(meetings.count[p][q] for p in range(8) for q in range(8)) == 2 * 3 * 2 * 6


def test_table_cards_and_score_sheets():
    from tournament.printouts import score_sheet, table_card
    plan = TablePlan(3, ("p1", "p2", None, "p4"))
    card = table_card("台北盃", 2, plan, {"p1": "王小明"})
    assert "第 2 輪　第 3 桌" in card and "東　王小明（p1）" in card and "西　（替補 substitute）" in card
    sheet = score_sheet("台北盃", 2, plan, 1, {}, hands=4).splitlines()
    assert sheet[2].startswith("盤 Hand | 莊 Dealer") and sheet[4].startswith("1 |") and sheet[7].startswith("4 |")

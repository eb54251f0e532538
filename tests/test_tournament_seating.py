"""搬風, 定莊, the 將's dealer and wind progression, a table's 將 after 將 (issue #7;
``seat.banfeng``, ``seat.dealer``, ``seat.dice.*``, ``app.seating``, ``app.rounds``,
``app.dealer``, ``app.dealer-continue``)."""
from __future__ import annotations

import doctest
import importlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import MjrefError
from referee.outcome import next_hand
from referee.generator import generate_hand
from referee.machine import Referee
from referee.outcome import OutcomeKind
from tournament.match import max_streak_of
from referee.tiles import Wind
from tournament.errors import MatchError, SeatingError
from tournament.match import DealerRuling, HandOutcome, MatchState, play_match, start_match
from tournament.seating import (
    DealerDraw, SeatDraw, Seating, draw_dealer, draw_seats, random_seat_draw, same_relative_order, seat_winds,
)
from tournament.table import (
    DealerDrawn, HandPlayed, MatchStopped, SeatsDrawn, TablePhase, generate_seat_draw, next_thrower, replay_table,
)

PLAYERS = ("甲", "乙", "丙", "丁")
E, S, W, N = Wind


@pytest.mark.parametrize("module", [
    "tournament.seating", "tournament.match", "tournament.galois", "tournament.results", "tournament.orbits",
    "tournament.designs", "tournament.schedule", "tournament.table", "tournament.winds", "tournament.standings",
])
def test_doctests(module):
    failed, _ = doctest.testmod(importlib.import_module(module))
    assert failed == 0


# --- 搬風 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("total, relative", [(5, 0), (9, 0), (13, 0), (17, 0), (6, 1), (10, 1), (14, 1), (18, 1),
                                             (3, 2), (7, 2), (11, 2), (15, 2), (4, 3), (8, 3), (12, 3), (16, 3)])
@pytest.mark.parametrize("thrower", range(4))
def test_the_dice_point_at_the_east_seat_counted_from_the_thrower(total, relative, thrower):
    dice = next((a, b, c) for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) if a + b + c == total)
    draw = SeatDraw(thrower, dice, (E, S, W, N))
    assert draw.east == (thrower + relative) % 4


def test_each_player_moves_to_the_seat_of_the_wind_drawn():
    # 7 from seat 1 points across: seat 3 is East; seat 3 draws first, then 0, 1, 2
    draw = SeatDraw(1, (2, 2, 3), (W, E, N, S))
    seating = draw.apply(PLAYERS)
    assert seating.east == 3
    assert seating.player_of(W) == "丁" and seating.player_of(E) == "甲"
    assert seating.player_of(N) == "乙" and seating.player_of(S) == "丙"
    assert [seating.wind_of(s) for s in range(4)] == [S, W, N, E]
    assert seating.describe() == "東 甲、南 丙、西 丁、北 乙"


@given(st.permutations(list(Wind)), st.tuples(*[st.integers(1, 6)] * 3), st.integers(0, 3))
def test_a_draw_is_a_seating_of_the_same_four(tiles, dice, thrower):
    seating = SeatDraw(thrower, dice, tuple(tiles)).apply(PLAYERS)
    assert sorted(seating.players) == sorted(PLAYERS)
    assert seating.by_wind()[tiles[0]] == PLAYERS[seating.east]  # the first drawer sat East


def test_relative_order_is_the_cycle_around_the_table():
    assert same_relative_order("ABCD", "ABCD") and same_relative_order("ABCD", "BCDA")
    assert not same_relative_order("ABCD", "DCBA")  # mirrored: 上家 and 下家 swap
    assert not same_relative_order("ABCD", "ABDC")


def _draw_giving(players, previous, thrower, repeat: bool) -> SeatDraw:
    for tiles in __import__("itertools").permutations(Wind):
        d = SeatDraw(thrower, (1, 1, 3), tiles)
        if same_relative_order(previous.players, d.apply(players).players) == repeat:
            return d
    raise AssertionError


def test_second_match_redraws_while_the_order_repeats():
    previous = Seating(PLAYERS, 0)
    again = _draw_giving(PLAYERS, previous, 2, repeat=True)
    new = _draw_giving(PLAYERS, previous, 2, repeat=False)
    result = draw_seats(PLAYERS, thrower=2, previous=previous, draws=[again, again, new])
    assert result.redraws == 2 and result.seating == new.apply(PLAYERS)
    with pytest.raises(SeatingError) as e:
        draw_seats(PLAYERS, thrower=2, previous=previous, draws=[again])
    assert e.value.field == "draws[0]" and "重搬" in e.value.reason_zh
    with pytest.raises(SeatingError) as e:
        draw_seats(PLAYERS, thrower=2, previous=previous, draws=[new, new])
    assert "不得重搬" in e.value.reason_zh
    # the first 將 has no previous order: any draw stands
    assert draw_seats(PLAYERS, thrower=2, draws=[again]).redraws == 0


def test_generated_draws_are_seeded_and_never_repeat_the_previous_order():
    previous = Seating(PLAYERS, 1)
    for seed in range(50):
        a = draw_seats(PLAYERS, thrower=3, previous=previous, rng=random.Random(seed))
        b = draw_seats(PLAYERS, thrower=3, previous=previous, rng=random.Random(seed))
        assert a == b
        assert not same_relative_order(previous.players, a.seating.players)
        assert all(same_relative_order(previous.players, d.apply(PLAYERS).players) for d in a.attempts[:-1])
    assert random_seat_draw(random.Random(1), 0) == random_seat_draw(random.Random(1), 0)


@pytest.mark.parametrize("bad, field", [
    (dict(thrower=4, dice=(1, 1, 1), tiles=(E, S, W, N)), "thrower"),
    (dict(thrower=0, dice=(0, 1, 1), tiles=(E, S, W, N)), "dice"),
    (dict(thrower=0, dice=(1, 1, 1), tiles=(E, E, W, N)), "tiles"),
    (dict(thrower=0, dice=(1, 1), tiles=(E, S, W, N)), "dice"),
])
def test_impossible_draws_are_refused_with_the_bad_input(bad, field):
    with pytest.raises(MjrefError) as e:
        SeatDraw(**bad)
    assert e.value.field == field and isinstance(e.value, ValueError)


def test_seatings_check_their_players():
    with pytest.raises(SeatingError) as e:
        Seating(("甲", "甲", "丙", "丁"))
    assert "重複" in e.value.reason_zh and "甲" in e.value.message
    with pytest.raises(SeatingError):
        Seating(("甲", "乙", "丙"))
    with pytest.raises(SeatingError):
        draw_seats(PLAYERS, thrower=0)  # neither draws nor an rng
    with pytest.raises(SeatingError) as e:
        draw_seats(PLAYERS, thrower=0, draws=[SeatDraw(1, (1, 1, 1), (E, S, W, N))])
    assert e.value.field == "draws[0].thrower"


def test_reprs_parse_back():
    ns = {"Wind": Wind, "Seating": Seating, "SeatDraw": SeatDraw, "DealerDraw": DealerDraw, "MatchState": MatchState,
          "HandOutcome": HandOutcome, "DealerRuling": DealerRuling}
    for obj in (Seating(PLAYERS, 2), SeatDraw(0, (1, 2, 3), (N, W, S, E)), DealerDraw(1, (6, 6, 6)),
                MatchState(1, 2, 3, Wind.WEST, 9),
                HandOutcome(0, 2, ruling=DealerRuling(True, False, "pen.false-win.3"))):
        assert eval(repr(obj), ns) == obj


# --- 定莊 ---------------------------------------------------------------------------------


def test_the_east_seat_throws_for_the_first_dealer():
    seating = Seating(PLAYERS, east=2)
    draw = draw_dealer(seating, dice=(3, 4, 4))  # 11: across from the East seat
    assert draw.thrower == 2 and draw.dealer == 0
    assert draw_dealer(seating, rng=random.Random(3)) == draw_dealer(seating, rng=random.Random(3))
    assert seat_winds(draw.dealer)[0] is Wind.EAST  # app.dealer: the first hand's dealer is East


# --- one 將 -------------------------------------------------------------------------------


def test_dealer_repeats_on_his_win_or_a_draw_and_passes_on_another_win():
    m = start_match(1)
    m = m.advance(HandOutcome(dealer=1, winner=1))
    assert (m.dealer, m.streak) == (1, 1)
    m = m.advance(HandOutcome(dealer=1, winner=None))
    assert (m.dealer, m.streak) == (1, 2)
    m = m.advance(HandOutcome(dealer=1, winner=3))
    assert (m.dealer, m.streak, m.round_wind) == (2, 0, Wind.EAST)


def test_the_round_turns_when_the_deal_comes_back_to_the_first_dealer_and_four_rounds_make_a_match():
    m = start_match(2)
    winds = []
    for _ in range(16):
        assert not m.over
        winds.append(m.round_wind)
        m = m.advance(HandOutcome(m.dealer, (m.dealer + 1) % 4))
    assert winds == [E] * 4 + [S] * 4 + [W] * 4 + [N] * 4
    assert m.over and m.hands == 16 and m.marker == (2, Wind.NORTH)
    with pytest.raises(MatchError) as e:
        m.advance(HandOutcome(m.dealer, None))
    assert "北風圈" in e.value.reason_zh


def test_an_outcome_with_the_wrong_dealer_is_refused():
    with pytest.raises(MatchError) as e:
        start_match(0).advance(HandOutcome(dealer=1, winner=1))
    assert e.value.field == "outcome.dealer"
    with pytest.raises(MatchError):
        HandOutcome(dealer=5)


def test_a_penalty_ruling_decides_instead_of_the_winner():
    # pen.false-win.3: a non-dealer's false win keeps the dealer without counting the streak
    m = play_match(0, [HandOutcome(0, 0)])
    kept = m.advance(HandOutcome(0, None, ruling=DealerRuling(True, False, "pen.false-win.3")))
    assert (kept.dealer, kept.streak) == (0, 1)
    passed = m.advance(HandOutcome(0, None, ruling=DealerRuling(False, False, "pen.false-win.3")))
    assert (passed.dealer, passed.streak) == (1, 0)


def test_several_winners_keep_the_deal_when_the_dealer_is_one():
    m = start_match(0)
    assert m.advance(HandOutcome(0, winners=(0, 2))).dealer == 0
    assert m.advance(HandOutcome(0, winners=(1, 2))).dealer == 1


def test_following_the_referees_next_hand():
    m = start_match(3)
    nxt = next_hand(3, 0, Wind.EAST, 3, repeats=False)
    assert m.follow(nxt) == MatchState(3, 0, 0, Wind.EAST, 1)
    with pytest.raises(MatchError):
        m.follow(next_hand(3, 0, Wind.EAST, 2, repeats=False))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.lists(st.sampled_from(["dealer", "draw", "other"]), min_size=1, max_size=80))
def test_a_match_is_over_exactly_after_sixteen_passes(first, kinds):
    m = start_match(first)
    passes = 0
    for kind in kinds:
        if m.over:
            break
        winner = {"dealer": m.dealer, "draw": None, "other": (m.dealer + 2) % 4}[kind]
        before = m
        m = m.advance(HandOutcome(m.dealer, winner))
        if kind == "other":
            passes += 1
            assert m.dealer == (before.dealer + 1) % 4 and m.streak == 0
        else:
            assert m.dealer == before.dealer and m.streak == before.streak + 1
        assert m.round_wind == Wind(min(passes // 4, 3))
    assert m.over == (passes == 16)


# --- a table through its 將 --------------------------------------------------------------


def _play_out(play, rng):
    while play.phase is TablePhase.PLAYING:
        d = play.match.dealer
        play = play.apply(HandPlayed(HandOutcome(d, rng.choice([None, d, (d + 1) % 4, (d + 3) % 4]))))
    return play


def test_a_table_plays_its_matches_with_seats_fixed_within_each():
    rng = random.Random(7)
    play = replay_table(PLAYERS, [], matches=2)
    assert next_thrower(play) is None
    play = play.apply(generate_seat_draw(play, rng, thrower=1))
    seating = play.seating
    play = play.apply(DealerDrawn(draw_dealer(seating, rng=rng)))
    play = _play_out(play, rng)
    assert play.seating == seating  # app.seating: 一將之內座位不變
    assert play.phase is TablePhase.SEAT_DRAW and next_thrower(play) == play.last_winner
    drawn = generate_seat_draw(play, rng)
    assert drawn.thrower == play.last_winner
    play = play.apply(drawn)
    assert play.match_no == 2 and not same_relative_order(seating.players, play.seating.players)
    play = _play_out(play.apply(DealerDrawn(draw_dealer(play.seating, rng=rng))), rng)
    assert play.phase is TablePhase.FINISHED


def test_table_events_out_of_turn_or_by_the_wrong_thrower_are_refused():
    rng = random.Random(1)
    play = replay_table(PLAYERS, [], matches=1)
    with pytest.raises(MatchError):
        play.apply(DealerDrawn(DealerDraw(0, (1, 1, 1))))
    play = play.apply(generate_seat_draw(play, rng, thrower=0))
    with pytest.raises(SeatingError) as e:
        play.apply(DealerDrawn(DealerDraw((play.seating.east + 1) % 4, (1, 1, 1))))
    assert e.value.field == "draw.thrower"
    play = play.apply(DealerDrawn(draw_dealer(play.seating, dice=(1, 1, 3))))
    stopped = play.apply(MatchStopped("time"))
    assert stopped.phase is TablePhase.FINISHED
    with pytest.raises(MatchError):
        stopped.apply(HandPlayed(HandOutcome(0)))


def test_after_a_stopped_match_the_last_dealer_throws_when_nobody_won():
    rng = random.Random(2)
    play = replay_table(PLAYERS, [], matches=2)
    play = play.apply(generate_seat_draw(play, rng, thrower=0))
    play = play.apply(DealerDrawn(draw_dealer(play.seating, dice=(2, 2, 1))))
    dealer = play.match.dealer
    play = play.apply(HandPlayed(HandOutcome(dealer, None))).apply(MatchStopped())
    assert next_thrower(play) == dealer
    with pytest.raises(SeatingError):
        play.apply(SeatsDrawn((dealer + 1) % 4, (SeatDraw((dealer + 1) % 4, (1, 1, 1), (E, S, W, N)),)))


def test_replaying_the_same_table_events_gives_the_same_state():
    rng = random.Random(5)
    play = replay_table(PLAYERS, [], matches=1)
    events = [generate_seat_draw(play, rng, thrower=2)]
    play = play.apply(events[-1])
    events.append(DealerDrawn(draw_dealer(play.seating, rng=rng)))
    play = play.apply(events[-1])
    for winner in (None, 1, 2, 3, 0):
        events.append(HandPlayed(HandOutcome(play.match.dealer, winner)))
        play = play.apply(events[-1])
    assert replay_table(PLAYERS, events) == play


# --- 連莊上限 in a tournament's 將 (issue #18 item 2) -------------------------------------------



def test_a_dealer_at_the_streak_cap_passes_the_deal_in_the_match():
    """seat.dealer, app.dealer-continue, seat.max_streak: with 連莊上限 2 the dealer repeats on his
    win and on a 荒局 until his streak is 2, then passes even on his own win; a repeat that does
    not count (pen.false-win.3) is not capped; with no cap he goes on."""
    wins = [HandOutcome(1, 1), HandOutcome(1, None)]
    capped = play_match(1, wins, max_streak=2)
    assert (capped.dealer, capped.streak) == (1, 2)
    capped = capped.advance(HandOutcome(1, 1))
    assert (capped.dealer, capped.streak, capped.max_streak) == (2, 0, 2)
    free = play_match(1, wins + [HandOutcome(1, 1)])
    assert (free.dealer, free.streak) == (1, 3)
    kept = play_match(1, wins, max_streak=2)
    kept = kept.advance(HandOutcome(1, 3, ruling=DealerRuling(True, False, "pen.false-win.3")))
    assert (kept.dealer, kept.streak) == (1, 2)
    with pytest.raises(MatchError) as err:
        MatchState(0, 0, max_streak=-1)
    assert err.value.field == "max_streak"
    assert max_streak_of("competition") == 0 and max_streak_of(None) == 0


@pytest.mark.parametrize("cap", [0, 1, 2])
def test_the_match_follows_the_streak_cap_as_the_referee_does(cap):
    """seat.max_streak: for generated hands (dealer wins, other wins, 荒局) at every streak, the
    match's next dealer and streak under the ruleset's cap are the referee's own Outcome.next."""
    checked = capped = 0
    for seed in range(40):
        streak = seed % 4
        events = generate_hand(seed, rules={"seat.max_streak": cap} if cap else None, streak=streak)
        ref = Referee()
        ref.apply_all(events)
        outcome = ref.finish().outcome
        if outcome.kind not in (OutcomeKind.WIN, OutcomeKind.EXHAUSTIVE_DRAW):
            continue
        setup = ref.state.setup
        before = MatchState(setup.first_dealer, setup.dealer, setup.streak, setup.round_wind, max_streak=cap)
        played = HandOutcome(setup.dealer, winners=tuple(w.claim.seat for w in outcome.wins))
        after = before.advance(played)
        nxt = outcome.next
        assert (after.dealer, after.streak, after.round_wind, after.over) == (
            nxt.dealer, nxt.streak, nxt.round_wind, nxt.match_over), (seed, cap)
        checked += 1
        capped += played.dealer_repeats and 0 < cap <= setup.streak
    assert checked >= 30
    assert capped >= 5 or not cap  # the cap decided some of them


def test_the_entry_paths_pass_the_streak_cap_on():
    """seat.max_streak through what the scorer's entry, the typed check, the clock and the sheet
    use: the dealer (seat 0) won three times; with 連莊上限 2 the fourth hand is seat 1's."""
    from tournament.clock import match_from_results
    from tournament.entry import deal_after
    from tournament.printouts import dealers
    from tournament.results import HandResult, Win
    from tournament.typed import next_deal

    won = HandResult((300, -100, -100, -100), (Win(0, 0),))
    results = [won, won, won]
    assert (deal_after(0, results).dealer, deal_after(0, results).streak) == (0, 3)
    assert (deal_after(0, results, max_streak=2).dealer, deal_after(0, results, max_streak=2).streak) == (1, 0)
    assert match_from_results(0, results, max_streak=2).dealer == 1
    assert dealers(0, dict(enumerate(results, 1)), max_streak=2)[4].dealer == 1
    assert dealers(0, dict(enumerate(results, 1)))[4].dealer == 0
    assert next_deal(0, 2, won, max_streak=2) == (1, 0) and next_deal(0, 2, won) == (0, 3)

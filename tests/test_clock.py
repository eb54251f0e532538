"""The round clock's pure domain (tournament/clock.py): settings, the fold, what is due when."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tiles import Wind
from tournament import codec
from tournament.clock import (
    ClockConfigured, ClockError, ClockPaused, ClockResumed, ClockSettings, ReminderGiven, RoundClosed, RoundStarted,
    SeatingPublished, TableReported, TimeCalled, apply_clock, check_tables, clock_state, due, format_time,
    match_from_results, may_start_hand, next_due, pending, table_may_start_hand,
)
from tournament.events import EventCreated, EventSettings, HandRecorded, PlayerRegistered, Record, RoundSeated, replay
from tournament.match import HandOutcome, play_match
from tournament.results import HandResult, Win
from tournament.schedule import make_schedule

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=timezone(timedelta(hours=8)))
PLAYERS = [f"選手{k:02d}" for k in range(8)]


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def event_log(rounds: int = 2, seated: int | None = None) -> list[Record]:
    """An 8-player event (two tables a round), ``seated`` rounds seated."""
    events = [EventCreated(EventSettings("時鐘盃", rounds))] + [PlayerRegistered(p, p) for p in PLAYERS]
    plans = make_schedule(PLAYERS, rounds, seed=1).rounds
    events += [RoundSeated(plan) for plan in plans[: rounds if seated is None else seated]]
    return [Record(k + 1, e) for k, e in enumerate(events)]


def settings_(**kw) -> ClockSettings:
    base = dict(round_seconds=60, first_start=format_time(at(10)), interval_seconds=120, reminders=(30, 10))
    return ClockSettings(**{**base, **kw})


class Log:
    """A growing log: the event's records, then clock events appended at given times."""

    def __init__(self, rounds: int = 2, seated: int | None = None, **kw):
        self.records = event_log(rounds, seated)
        self.add(ClockConfigured(settings_(**kw), format_time(at(0))))

    def add(self, *events) -> None:
        for e in events:
            self.records.append(Record(len(self.records) + 1, e))

    @property
    def state(self):
        return clock_state(self.records)

    @property
    def event_state(self):
        return replay(self.records)

    def run(self, seconds: float) -> list:
        """What is due at ``at(seconds)``, recorded."""
        events = due(self.state, self.event_state, at(seconds))
        self.add(*events)
        return events


def kinds(events) -> list[str]:
    return [type(e).__name__ + (f"({e.seconds_left})" if isinstance(e, ReminderGiven) else f"({e.round})")
            for e in events]


# --- settings -----------------------------------------------------------------------------


def test_settings_validate_and_name_the_field():
    with pytest.raises(ClockError) as exc:
        ClockSettings(round_seconds=0)
    assert exc.value.field == "round_seconds"
    with pytest.raises(ClockError) as exc:
        ClockSettings(60, first_start="2026-11-29T09:00:00")
    assert exc.value.field == "first_start" and "時區" in exc.value.reason_zh
    with pytest.raises(ClockError) as exc:
        ClockSettings(60, at_time="finish_round")
    assert exc.value.field == "at_time"
    with pytest.raises(ClockError) as exc:
        ClockSettings(60, reminders=(10, 10))
    assert exc.value.field == "reminders"
    with pytest.raises(ClockError) as exc:
        ClockSettings(60, interval_seconds=30)
    assert exc.value.field == "first_start"
    with pytest.raises(ClockError) as exc:
        ClockSettings(60, starts=("2026-11-29T09:00:00Z",), first_start="2026-11-29T09:00:00Z")
    assert exc.value.field == "starts"


def test_start_times_from_a_list_or_a_first_start_and_interval():
    listed = ClockSettings(60, starts=("2026-11-29T09:00:00+08:00", "2026-11-29T11:00:00+08:00"))
    assert listed.start_of(2) == datetime(2026, 11, 29, 3, 0, tzinfo=timezone.utc)
    assert listed.start_of(3) is None
    spaced = ClockSettings(60, first_start="2026-11-29T01:00:00Z", interval_seconds=3600)
    assert spaced.start_of(3) == datetime(2026, 11, 29, 3, 0, tzinfo=timezone.utc)
    assert ClockSettings(60).start_of(1) is None


def test_clock_events_round_trip_through_the_codec():
    events = [ClockConfigured(settings_(), "2026-11-29T01:00:00.000Z"),
              RoundStarted(1, "2026-11-29T01:00:00Z", "", True),
              ReminderGiven(1, 30, "x"), TimeCalled(1, "x", "finish_circle"), TableReported(1, 2, "x"),
              RoundClosed(1, "x", "all_reported"), SeatingPublished(2, "x"), ClockPaused(1, "x", "停電"),
              ClockResumed(1, "x")]
    for event in events:
        assert codec.decode(codec.encode(event)) == event
    # the main fold passes over them
    assert replay(event_log() + [Record(len(event_log()) + 1 + k, e) for k, e in enumerate(events[:2])]).last_seq


# --- the fold refuses what cannot happen ---------------------------------------------------


def test_fold_refuses_events_out_of_order():
    log = Log()
    with pytest.raises(ClockError, match="has not started"):
        clock_state(log.records + [Record(len(log.records) + 1, TimeCalled(1, format_time(at(5))))])
    log.add(RoundStarted(1, format_time(at(10))))
    with pytest.raises(ClockError, match="already started") as exc:
        clock_state(log.records + [Record(len(log.records) + 1, RoundStarted(1, format_time(at(11))))])
    assert exc.value.field == "round" and "第" in exc.value.reason_zh
    with pytest.raises(ClockError, match="round 1 is not closed"):
        apply_clock(log.state, RoundStarted(2, format_time(at(11))))
    state = apply_clock(log.state, TableReported(1, 1, format_time(at(20))))
    with pytest.raises(ClockError, match="already reported"):
        apply_clock(state, TableReported(1, 1, format_time(at(21))))
    with pytest.raises(ClockError, match="no table 9"):
        check_tables(log.event_state, [TableReported(1, 9, format_time(at(21)))])
    with pytest.raises(ClockError, match="has 2 rounds"):
        check_tables(log.event_state, [RoundStarted(3, format_time(at(21)))])
    with pytest.raises(ClockError, match="not configured"):
        apply_clock(clock_state([]), RoundStarted(1, format_time(at(0))))


# --- what is due --------------------------------------------------------------------------


def test_nothing_before_the_start_then_the_round_runs_its_clock():
    log = Log()
    # round 1's seating goes up when the clock is configured (publish on close; round 1 has no previous round)
    assert kinds(log.run(0)) == ["SeatingPublished(1)"]
    assert log.run(9.9) == []
    assert next_due(log.state, log.event_state, at(9.9)) == at(10)
    started = log.run(10)
    assert kinds(started) == ["RoundStarted(1)"] and started[0].late is False
    assert log.run(39) == []
    assert kinds(log.run(40)) == ["ReminderGiven(30)"]
    assert kinds(log.run(60)) == ["ReminderGiven(10)"]
    called = log.run(70)
    assert kinds(called) == ["TimeCalled(1)"] and called[0].policy == "finish_hand"
    assert log.run(75) == []
    state = log.state
    assert state.round(1).reminders == (30, 10) and state.round(1).time_called
    assert state.time_left(at(75)) == timedelta(seconds=-5)


def test_auto_close_when_every_table_reported_then_next_seating_and_start():
    log = Log()
    log.run(10)
    log.add(TableReported(1, 1, format_time(at(50))))
    assert [e for e in log.run(51) if isinstance(e, RoundClosed)] == []
    log.add(TableReported(1, 2, format_time(at(55))))
    events = log.run(56)
    assert kinds(events) == ["RoundClosed(1)", "SeatingPublished(2)"]
    assert events[0].reason == "all_reported"
    # round 2 starts at its time (first start + interval), not at the close
    assert log.run(129) == []
    assert kinds(log.run(130)) == ["RoundStarted(2)"]


def test_auto_close_off_waits_for_an_official_and_the_next_start_waits_for_the_close():
    log = Log(auto_close=False)
    log.run(10)
    log.add(TableReported(1, 1, format_time(at(20))), TableReported(1, 2, format_time(at(21))))
    assert kinds(log.run(200)) == ["TimeCalled(1)"]  # reminders passed over: time is up
    log.add(RoundClosed(1, format_time(at(300)), "official"))
    events = log.run(300)
    assert kinds(events) == ["SeatingPublished(2)", "RoundStarted(2)"]
    assert events[1].late is False and events[1].due == format_time(at(300))


def test_catch_up_after_a_long_outage_is_marked_late_and_gives_only_what_makes_sense():
    log = Log()
    log.run(0)
    events = log.run(45)  # the server was down at the start
    assert kinds(events) == ["RoundStarted(1)"]
    assert events[0].late and events[0].due == format_time(at(10)) and events[0].at == format_time(at(45))
    # the round's time runs from its recorded start (the hall learns of it from the service)
    assert log.state.round(1).time_at(log.state.settings) == at(105)
    events = log.run(97)  # past both reminders' times, before time: only the nearest reminder
    assert kinds(events) == ["ReminderGiven(10)"]


# --- a pause (R-tour-29) -----------------------------------------------------------------


def test_a_pause_moves_reminders_and_time_later_by_its_length():
    log = Log()
    log.run(10)  # round 1: 60 s, reminders at 30 and 10 s before time (40, 60), time at 70
    log.add(ClockPaused(1, format_time(at(35)), "停電 power cut"))
    state = log.state
    assert state.round(1).paused and state.round(1).paused_reason == "停電 power cut"
    # the time left stands still while paused, and nothing falls due
    assert state.time_left(at(35)) == state.time_left(at(500)) == timedelta(seconds=35)
    assert log.run(500) == [] and next_due(log.state, log.event_state, at(500)) is None
    log.add(ClockResumed(1, format_time(at(100))))  # paused 65 s: time at 135
    assert log.state.round(1).time_at(log.state.settings) == at(135)
    assert log.state.time_left(at(100)) == timedelta(seconds=35)
    assert next_due(log.state, log.event_state, at(100)) == at(105)
    assert log.run(104) == []
    assert kinds(log.run(105)) == ["ReminderGiven(30)"]
    assert kinds(log.run(125)) == ["ReminderGiven(10)"]
    assert log.run(134.9) == []
    assert kinds(log.run(135)) == ["TimeCalled(1)"]


def test_pauses_add_up_and_the_status_while_paused_says_since_when():
    log = Log()
    log.run(10)
    log.add(ClockPaused(1, format_time(at(20))), ClockResumed(1, format_time(at(25))),
            ClockPaused(1, format_time(at(30.5))))
    rnd = log.state.round(1)
    assert rnd.paused_seconds == 5 and rnd.paused_since == format_time(at(30.5))
    # as if the clock ran again now: the time falls later while the pause lasts
    assert rnd.time_at(log.state.settings, at(40.5)) == at(85)
    assert rnd.seconds_left(log.state.settings, at(99)) == 44.5


def test_a_catch_up_after_an_outage_reads_the_pause_from_the_log():
    log = Log()
    log.run(10)
    log.add(ClockPaused(1, format_time(at(20))), ClockResumed(1, format_time(at(50))))
    # the server was down from 15 until 200: time was at 100 (70 + 30 paused), called once, late
    events = log.run(200)
    assert kinds(events) == ["TimeCalled(1)"] and events[0].late and events[0].due == format_time(at(100))


def test_a_last_report_during_a_pause_closes_the_round_when_the_clock_runs_again():
    log = Log()
    log.run(10)
    log.add(ClockPaused(1, format_time(at(20))), TableReported(1, 1, format_time(at(21))),
            TableReported(1, 2, format_time(at(22))))
    assert [e for e in log.run(30) if isinstance(e, RoundClosed)] == []
    log.add(ClockResumed(1, format_time(at(40))))
    closed = [e for e in log.run(40) if isinstance(e, RoundClosed)]
    assert len(closed) == 1 and closed[0].due == format_time(at(40))


def test_no_hand_starts_while_the_round_is_paused():
    log = Log()
    log.run(10)
    match = match_from_results(0, [])
    log.add(ClockPaused(1, format_time(at(20))))
    assert may_start_hand(log.state, 1, match) is False
    log.add(ClockResumed(1, format_time(at(30))))
    assert may_start_hand(log.state, 1, match) is True


def test_a_pause_is_refused_before_the_start_after_time_and_twice_and_a_resume_when_not_paused():
    log = Log()
    with pytest.raises(ClockError, match="has not started") as exc:
        apply_clock(log.state, ClockPaused(1, format_time(at(5))))
    assert exc.value.field == "round" and "尚未開始" in exc.value.reason_zh
    log.run(10)
    with pytest.raises(ClockError, match="round 1 is not paused") as exc:
        apply_clock(log.state, ClockResumed(1, format_time(at(15))))
    assert exc.value.field == "round" and "並未暫停" in exc.value.reason_zh
    with pytest.raises(ClockError, match="before round 1's start") as exc:
        apply_clock(log.state, ClockPaused(1, format_time(at(9))))
    assert exc.value.field == "at"
    paused = apply_clock(log.state, ClockPaused(1, format_time(at(20))))
    with pytest.raises(ClockError, match="already paused") as exc:
        apply_clock(paused, ClockPaused(1, format_time(at(21))))
    assert exc.value.field == "round" and "已自" in exc.value.reason_zh
    with pytest.raises(ClockError, match="resume the clock before calling time"):
        apply_clock(paused, TimeCalled(1, format_time(at(21))))
    with pytest.raises(ClockError, match="before the pause") as exc:
        apply_clock(paused, ClockResumed(1, format_time(at(19))))
    assert exc.value.field == "at"
    with pytest.raises(ClockError) as exc:
        apply_clock(log.state, ClockPaused(1, format_time(at(20)), "x" * 501))
    assert exc.value.field == "reason"
    log.run(70)  # time called
    with pytest.raises(ClockError, match="no time left to pause") as exc:
        apply_clock(log.state, ClockPaused(1, format_time(at(71))))
    assert exc.value.field == "round" and "已於" in exc.value.reason_zh and "宣布時間到" in exc.value.reason_zh


def test_a_round_closed_while_paused_ends_the_pause():
    log = Log(auto_close=False)
    log.run(10)
    log.add(ClockPaused(1, format_time(at(20))), RoundClosed(1, format_time(at(30))))
    rnd = log.state.round(1)
    assert rnd.closed and not rnd.paused and rnd.paused_seconds == 10


def test_a_reminder_skipped_is_never_given_later():
    log = Log()
    log.run(10)
    assert kinds(log.run(62)) == ["ReminderGiven(10)"]  # the 30 s one passed over
    assert log.run(63) == [] and [a.kind for a in pending(log.state, log.event_state)] == ["call_time"]


def test_publish_before_start_and_an_unseated_round_waits():
    log = Log(publish="before_start", publish_before_seconds=20, seated=1)
    published = log.run(0)  # 20 s before a start at 10 s: already due at 0 s, so a catch-up
    assert kinds(published) == ["SeatingPublished(1)"] and published[0].late
    assert kinds(log.run(10)) == ["RoundStarted(1)"]
    log.add(TableReported(1, 1, format_time(at(30))), TableReported(1, 2, format_time(at(31))))
    assert kinds(log.run(40)) == ["RoundClosed(1)"]  # round 2 is not seated yet
    assert log.run(200) == []
    plan = make_schedule(PLAYERS, 2, seed=1).rounds[1]
    log.add(RoundSeated(plan))
    assert kinds(log.run(201)) == ["SeatingPublished(2)", "RoundStarted(2)"]


def test_a_round_seated_again_after_its_publication_is_no_longer_published():
    """R-tour-31: re-seating a published round withdraws its publication, until it is published again."""
    log = Log(first_start=None, interval_seconds=None)
    log.add(SeatingPublished(1, format_time(at(1))), SeatingPublished(2, format_time(at(2))))
    assert log.state.published.round == 2
    plans = make_schedule(PLAYERS, 2, seed=7).rounds
    log.records.append(Record(len(log.records) + 1, RoundSeated(plans[1]), at=format_time(at(3))))
    state = log.state
    assert state.round(2).published_at is None and state.round(2).unpublished_at == format_time(at(3))
    assert state.published.round == 1  # the hall falls back to what the players were told
    assert state.round(1).unpublished_at is None
    log.add(SeatingPublished(2, format_time(at(4))))
    assert log.state.published.round == 2 and log.state.round(2).unpublished_at is None


def test_official_start_without_scheduled_times():
    log = Log(first_start=None, interval_seconds=None)
    assert kinds(log.run(1000)) == ["SeatingPublished(1)"]
    assert next_due(log.state, log.event_state, at(1000)) is None
    log.add(RoundStarted(1, format_time(at(1000))))
    assert kinds(log.run(1000 + 30)) == ["ReminderGiven(30)"]


def test_due_needs_an_aware_time():
    log = Log()
    with pytest.raises(ClockError):
        due(log.state, log.event_state, datetime(2026, 11, 29, 9, 0))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=400, allow_nan=False), min_size=1, max_size=12),
       st.lists(st.tuples(st.integers(1, 2), st.floats(min_value=0, max_value=400)), max_size=4),
       st.sampled_from(["on_close", "before_start"]), st.booleans())
def test_due_actions_never_repeat_once_recorded(times, reports, publish, auto_close):
    """Whatever the times asked and the reports in between: the log always folds, no
    scheduled action is recorded twice, due at the same time again gives nothing."""
    log = Log(publish=publish, publish_before_seconds=15, auto_close=auto_close)
    reports = sorted(reports, key=lambda r: r[1])
    for now in sorted(times):
        while reports and reports[0][1] <= now:
            table, when = reports.pop(0)
            rnd = log.state.current
            if rnd is not None and not rnd.closed and table not in rnd.reported_tables:
                log.add(TableReported(rnd.round, table, format_time(at(when))))
        log.run(now)
        assert due(log.state, log.event_state, at(now)) == []
    clock_state(log.records)  # folds
    seen = [(type(r.event).__name__, r.event.round, getattr(r.event, "seconds_left", None))
            for r in log.records if isinstance(r.event, (RoundStarted, ReminderGiven, TimeCalled, SeatingPublished,
                                                            RoundClosed))]
    assert len(seen) == len(set(seen))


# --- tables under the clock ---------------------------------------------------------------


def test_finish_hand_stops_new_hands_once_time_is_called():
    log = Log()
    log.run(10)
    match = play_match(0, [HandOutcome(0, winner=1)])
    assert may_start_hand(log.state, 1, match)
    log.run(70)
    assert not may_start_hand(log.state, 1, match, at_call=match)


def test_finish_circle_plays_to_the_end_of_the_circle_in_play():
    log = Log(at_time="finish_circle")
    log.run(10)
    at_call = play_match(0, [HandOutcome(0, winner=1)])  # East round, dealer seat 1
    log.run(70)
    assert log.state.round(1).policy == "finish_circle"
    same_circle = play_match(0, [HandOutcome(0, winner=1), HandOutcome(1, winner=2)])
    assert same_circle.round_wind is Wind.EAST and may_start_hand(log.state, 1, same_circle, at_call)
    turned = play_match(0, [HandOutcome(0, winner=1), HandOutcome(1, winner=2), HandOutcome(2, winner=3),
                            HandOutcome(3, winner=0)])
    assert turned.round_wind is Wind.SOUTH and not may_start_hand(log.state, 1, turned, at_call)
    assert not may_start_hand(log.state, 1, same_circle, None)


def test_table_may_start_hand_reads_the_hands_recorded_before_the_call():
    log = Log(at_time="finish_circle")
    log.run(10)
    plan = log.event_state.round(1).tables[0]
    def win(seat, deal_in):
        return HandResult(tuple(100 if s == seat else -100 if s == deal_in else 0 for s in range(4)),
                          (Win(seat, 1, deal_in),))
    log.add(HandRecorded((1, plan.table, 1, 1), win(1, 0)))  # dealer 0 loses the deal: seat 1 deals
    log.run(70)
    assert table_may_start_hand(log.records, log.state, 1, plan.table, 1, first_dealer=0)
    for hand, (seat, deal_in) in enumerate([(2, 1), (3, 2)], start=2):
        log.add(HandRecorded((1, plan.table, 1, hand), win(seat, deal_in)))
    assert table_may_start_hand(log.records, log.state, 1, plan.table, 1, first_dealer=0)  # seat 3 deals, East
    log.add(HandRecorded((1, plan.table, 1, 4), win(0, 3)))  # the deal returns to seat 0: South would begin
    assert not table_may_start_hand(log.records, log.state, 1, plan.table, 1, first_dealer=0)
    assert match_from_results(0, [win(0, 1)]).streak == 1


def test_a_table_whose_hands_end_every_match_is_reported_from_them():
    log = Log()
    log.run(10)
    plans = log.event_state.round(1).tables
    first_dealer = {plans[0].table: 1, plans[1].table: 2}
    dealer_of = lambda r, t, m: first_dealer.get(t) if r == 1 else None  # noqa: E731
    dealer = 1
    for hand in range(1, 17):  # sixteen non-dealer wins: the deal goes round four times, the 將 is over
        winner, dealer = (dealer + 1) % 4, (dealer + 1) % 4
        payments = tuple(100 if s == winner else -100 if s == (winner + 1) % 4 else 0 for s in range(4))
        log.add(HandRecorded((1, plans[0].table, 1, hand), HandResult(payments, (Win(winner, 1, (winner + 1) % 4),))))
        events = due(log.state, log.event_state, at(20), dealer_of=dealer_of)
        assert (hand == 16) == bool(events), hand
    assert events == [TableReported(1, plans[0].table, format_time(at(20)), derived=True)]
    log.add(*events)
    assert due(log.state, log.event_state, at(21), dealer_of=dealer_of) == []  # the other table plays on
    assert due(log.state, log.event_state, at(21), dealer_of=lambda r, t, m: None) == []  # no 定莊: no derivation

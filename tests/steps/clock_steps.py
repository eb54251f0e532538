"""Steps for features/tournament_clock.feature (issue #7: the round clock).

Every step text starts with 「賽事：時鐘」. The steps drive the real domain code:
:mod:`tournament.clock` (settings, :func:`~tournament.clock.due`, the fold,
:func:`~tournament.clock.may_start_hand`) on an 8-player event's log (two tables a round)
and :mod:`tournament.match` for a table's 將. Times are 2026-12-01 in Taipei (+08:00);
the clock is set at 07:00. Durations in the steps are minutes (the settings hold seconds).
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from pytest_bdd import given, parsers, then, when

from tournament.clock import (
    ClockConfigured, ClockError, ClockPaused, ClockResumed, ClockSettings, ExtraTime, ReminderGiven, RoundClosed,
    RoundStarted, SeatingPublished, TableReported, TimeCalled, clock_state, due, format_time, may_start_hand,
    parse_time,
)
from tournament.events import EventCreated, EventSettings, PlayerRegistered, Record, RoundSeated, replay
from tournament.match import HandOutcome, start_match
from tournament.schedule import make_schedule

TAIPEI = timezone(timedelta(hours=8))
POLICIES = {"打完本盤": "finish_hand", "打完本圈": "finish_circle"}
POLICY_ZH = {v: k for k, v in POLICIES.items()}
PLAYERS = [f"選手{k}" for k in range(1, 9)]


def _at(hhmm: str) -> datetime:
    hours, minutes = (int(x) for x in hhmm.split(":"))
    return datetime(2026, 12, 1, hours, minutes, tzinfo=TAIPEI)


def _describe(event) -> str:
    if isinstance(event, SeatingPublished):
        return f"公布第 {event.round} 輪座位"
    if isinstance(event, RoundStarted):
        return f"第 {event.round} 輪開始"
    if isinstance(event, ReminderGiven):
        return f"第 {event.round} 輪剩 {event.seconds_left // 60} 分鐘提醒"
    if isinstance(event, TimeCalled):
        return f"第 {event.round} 輪時間到（{POLICY_ZH[event.policy]}）"
    if isinstance(event, RoundClosed):
        return f"第 {event.round} 輪結束"
    return type(event).__name__


@pytest.fixture
def clock():
    """The scenario's clock: the settings being written, the log, what the last step recorded,
    a table's 將 now and at the time call."""
    return {"settings": {"reminders": ()}, "records": None, "last": [], "match": None, "at_call": None, "refused": None}


def _records(clock: dict) -> list[Record]:
    if clock["records"] is None:
        events = [EventCreated(EventSettings("時鐘盃", 2))] + [PlayerRegistered(p, p) for p in PLAYERS]
        events += [RoundSeated(plan) for plan in make_schedule(PLAYERS, 2, seed=7).rounds]
        events.append(ClockConfigured(ClockSettings(**clock["settings"]), format_time(_at("07:00"))))
        clock["records"] = [Record(k + 1, e) for k, e in enumerate(events)]
    return clock["records"]


def _add(clock: dict, *events) -> None:
    records = _records(clock)
    for event in events:
        records.append(Record(len(records) + 1, event))
    clock_state(records)  # every step leaves a log that folds


@given(parsers.parse("賽事：時鐘設定每輪 {minutes:d} 分鐘，第一輪 {start} 開始，每 {interval:d} 分鐘一輪"))
def clock_settings(clock, minutes, start, interval):
    clock["settings"].update(round_seconds=minutes * 60, first_start=format_time(_at(start)),
                             interval_seconds=interval * 60)


@given(parsers.parse("賽事：時鐘提醒在時間到前 {minutes} 分鐘"))
def clock_reminders(clock, minutes):
    clock["settings"]["reminders"] = tuple(int(m) * 60 for m in re.split("[、,，]", minutes))


@given(parsers.parse("賽事：時鐘時間到的處理為{policy}"))
def clock_policy(clock, policy):
    clock["settings"]["at_time"] = POLICIES[policy]


@given("賽事：時鐘不自動結束")
def clock_no_auto_close(clock):
    clock["settings"]["auto_close"] = False


@given(parsers.parse("賽事：時鐘在開始前 {minutes:d} 分鐘公布座位"))
def clock_publish_before(clock, minutes):
    clock["settings"].update(publish="before_start", publish_before_seconds=minutes * 60)


@given(parsers.parse("賽事：時鐘桌上的將由 {seat:d} 號座起莊"))
def clock_table_match(clock, seat):
    clock["match"] = start_match(seat)


@when(parsers.parse("賽事：時鐘到 {hhmm}"))
def clock_run(clock, hhmm):
    records = _records(clock)
    events = due(clock_state(records), replay(records), _at(hhmm))
    _add(clock, *events)
    clock["last"] = events
    if any(isinstance(e, TimeCalled) for e in events) and clock["match"] is not None:
        clock["at_call"] = clock["match"]  # the 將 as it stood when time was called


@when(parsers.parse("賽事：時鐘第 {table:d} 桌於 {hhmm} 回報完賽"))
def clock_report(clock, table, hhmm):
    state = clock_state(_records(clock))
    _add(clock, TableReported(state.current.round, table, format_time(_at(hhmm))))


@when(parsers.parse("賽事：時鐘由裁判於 {hhmm} 結束第 {number:d} 輪"))
def clock_official_close(clock, hhmm, number):
    _add(clock, RoundClosed(number, format_time(_at(hhmm)), "official"))


def _extra(clock: dict, event) -> None:
    try:
        _add(clock, event)
        clock["refused"] = None
    except ClockError as exc:
        clock["refused"] = exc
        clock["records"].pop()  # nothing recorded


@when(parsers.parse("賽事：時鐘由裁判於 {hhmm} 延長第 {number:d} 輪 {minutes:d} 分鐘"))
def clock_extra_all(clock, hhmm, number, minutes):
    _extra(clock, ExtraTime(number, minutes * 60, format_time(_at(hhmm)), reason="爭議"))


@when(parsers.parse("賽事：時鐘由裁判於 {hhmm} 延長第 {table:d} 桌 {minutes:d} 分鐘"))
def clock_extra_table(clock, hhmm, table, minutes):
    state = clock_state(_records(clock))
    _extra(clock, ExtraTime(state.current.round, minutes * 60, format_time(_at(hhmm)), table, "爭議"))


@then(parsers.parse("賽事：時鐘拒絕延長：{reason}"))
def clock_extra_refused(clock, reason):
    assert clock["refused"] is not None and reason in clock["refused"].reason_zh


@then(parsers.parse("賽事：時鐘第 {table:d} 桌於 {hhmm} {answer}再開新的一盤"))
def clock_table_may_start(clock, table, hhmm, answer):
    state = clock_state(_records(clock))
    allowed = may_start_hand(state, state.current.round, clock["match"], clock["at_call"], table=table, now=_at(hhmm))
    assert allowed is {"可以": True, "不可": False}[answer]


@when(parsers.parse("賽事：時鐘桌上閒家連胡 {count:d} 盤"))
def clock_table_hands(clock, count):
    match = clock["match"]
    for _ in range(count):
        match = match.advance(HandOutcome(match.dealer, winner=(match.dealer + 1) % 4))
    clock["match"] = match


@when(parsers.parse("賽事：時鐘於 {hhmm} 重新排第 {number:d} 輪座位"))
def clock_reseat(clock, hhmm, number):
    """R-tour-31: the round seated again (another schedule's round) at ``hhmm``."""
    _reseat(clock, hhmm, number, seed=8)


def _reseat(clock, hhmm: str, number: int, seed: int) -> None:
    """Round ``number`` seated at ``hhmm`` as the schedule of *seed* seats it (7: as it was)."""
    records = _records(clock)
    plan = make_schedule(PLAYERS, 2, seed=seed).rounds[number - 1]
    records.append(Record(len(records) + 1, RoundSeated(plan), at=format_time(_at(hhmm))))
    clock_state(records)


@when(parsers.parse("賽事：時鐘於 {hhmm} 以相同座位重新排第 {number:d} 輪座位"))
def clock_reseat_same(clock, hhmm, number):
    """R-tour-31: the round seated again at ``hhmm`` with the very seats it had."""
    _reseat(clock, hhmm, number, seed=7)


@then(parsers.parse("賽事：時鐘第 {number:d} 輪座位仍於 {hhmm} 公布"))
def clock_still_published(clock, number, hhmm):
    rnd = clock_state(_records(clock)).round(number)
    assert rnd.published_at == format_time(_at(hhmm)) and rnd.unpublished_at is None


@then(parsers.parse("賽事：時鐘第 {number:d} 輪座位未公布，公布於 {hhmm} 撤回"))
def clock_unpublished(clock, number, hhmm):
    rnd = clock_state(_records(clock)).round(number)
    assert rnd.published_at is None and rnd.unpublished_at == format_time(_at(hhmm))


@then(parsers.parse("賽事：時鐘記錄 {items}"))
def clock_recorded(clock, items):
    assert [_describe(e) for e in clock["last"]] == [i.strip() for i in items.split("、")]


@then("賽事：時鐘沒有記錄任何事")
def clock_nothing(clock):
    assert clock["last"] == []


@then(parsers.parse("賽事：時鐘第 {number:d} 輪的開始記為遲到，原定 {hhmm}"))
def clock_start_late(clock, number, hhmm):
    started = next(e for e in clock["last"] if isinstance(e, RoundStarted) and e.round == number)
    assert started.late and parse_time(started.due) == _at(hhmm)


@then(parsers.parse("賽事：時鐘此桌{answer}再開新的一盤"))
def clock_may_start(clock, answer):
    state = clock_state(_records(clock))
    allowed = may_start_hand(state, state.current.round, clock["match"], clock["at_call"])
    assert allowed is {"可以": True, "不可": False}[answer]


# --- a pause (R-tour-29) -------------------------------------------------------------------


@when(parsers.parse("賽事：時鐘由裁判於 {hhmm} 暫停第 {number:d} 輪（{reason}）"))
def clock_pause(clock, hhmm, number, reason):
    _extra(clock, ClockPaused(number, format_time(_at(hhmm)), reason))


@when(parsers.parse("賽事：時鐘由裁判於 {hhmm} 恢復第 {number:d} 輪計時"))
def clock_resume(clock, hhmm, number):
    _extra(clock, ClockResumed(number, format_time(_at(hhmm))))


@then(parsers.parse("賽事：時鐘拒絕暫停：{reason}"))
def clock_pause_refused(clock, reason):
    assert clock["refused"] is not None and reason in clock["refused"].reason_zh, clock["refused"]


@then(parsers.parse("賽事：時鐘第 {number:d} 輪剩 {minutes:d} 分鐘"))
def clock_time_left(clock, number, minutes):
    state = clock_state(_records(clock))
    last = max(parse_time(getattr(r.event, "at", "") or "2026-12-01T00:00:00Z") for r in _records(clock)
               if getattr(r.event, "at", ""))
    # frozen while paused: the same at any later time
    for later in (last, last + timedelta(hours=3)):
        assert state.round(number).seconds_left(state.settings, later) == minutes * 60

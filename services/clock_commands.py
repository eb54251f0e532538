"""The round clock's writes and status, shared by the API (:mod:`api.clocks`) and the clock page
(:mod:`web.clock_page`): an official's clock events recorded with whatever the clock then has
due (:func:`services.clock_log.record_clock`), the scheduler woken, and the clock's status as
the API answers it (issue #7; issue #15 item 5; issue #19 item 1).
"""
from __future__ import annotations

import os
from datetime import datetime, timedelta

from flask import current_app

from services import clock_service, idempotency
from services.clock_log import dealer_of, late_tolerance, record_clock
from services.problems import ApiProblem, not_found
from store import get_db
from store import tournaments as tstore
from tournament.clock import (
    ClockConfigured, ClockError, ClockPaused, ClockResumed, ClockSettings, ClockState, ExtraTime, RoundClock,
    RoundClosed, RoundStarted, SeatingPublished, TableReported, TimeCalled, clock_state, format_time, pending,
)
from tournament.errors import EventLogError
from tournament.events import EventState, replay


def clock_now() -> datetime:
    return current_app.config["CLOCK"].now()  # the app's one clock (tournament.clocksource)


def clock_tolerance() -> timedelta:
    return late_tolerance(current_app.config)


def load_clock(tournament_id: str) -> tuple[list, EventState, ClockState]:
    db = get_db()
    if tstore.get_tournament(db, tournament_id) is None:
        raise not_found("tournament", "賽事", tournament_id, "tournament_id")
    records = tstore.load_records(db, tournament_id)
    return records, replay(records), clock_state(records)


def refused(exc: EventLogError | ClockError) -> ApiProblem:
    return ApiProblem(409, "event_refused", exc.message, exc.reason_zh, field=exc.field)


def write_clock(tournament_id: str, events: list, actor: int | None):
    """Record an official's clock events and answer the clock's status, made in the same
    transaction (so that an ``Idempotency-Key`` stores it with the events: :mod:`services.idempotency`)."""
    now, tolerance = clock_now(), clock_tolerance()  # read config here: the writer may run the job in its own thread
    scheduler = scheduler_view()

    def work(tx):
        record_clock(tx.db, tournament_id, events, now=now, tolerance=tolerance, actor=actor)
        records = tstore.load_records(tx.db, tournament_id)
        body = status(tournament_id, records, replay(records), clock_state(records), now)
        body["scheduler"] = scheduler
        return 200, body, {}

    try:
        result = idempotency.submit(tournament_id, work)
    except (ClockError, EventLogError) as exc:
        raise refused(exc) from None
    if not result[3]:
        clock_service.notify(tournament_id)
    return idempotency.respond(*result)


def no_round(detail: str, detail_zh: str) -> ApiProblem:
    return ApiProblem(409, "no_round", detail, detail_zh, field="round")


def current_round(state: ClockState, given: int | None) -> int:
    if given is not None:
        return given
    current = state.current
    if current is None or current.closed:
        raise no_round("no round is under way: name the round", "目前沒有進行中的一輪：請指定輪次")
    return current.round


def next_round(state: ClockState, given: int | None) -> int:
    if given is not None:
        return given
    current = state.current
    return 1 if current is None else current.round + 1


def round_view(rnd: RoundClock, state: ClockState, event_state: EventState, now: datetime) -> dict:
    plan = event_state.round(rnd.round)
    tables = [t.table for t in plan.tables] if plan else []
    # while paused (R-tour-29): the time as if the clock ran again now, the time left frozen
    time_at = rnd.time_at(state.settings, now) if state.settings and rnd.started else None
    running = rnd.started and not rnd.closed
    left = rnd.seconds_left(state.settings, now) if time_at and running else None
    return {
        "round": rnd.round,
        "started_at": rnd.started_at,
        "start_due": rnd.start_due or None,
        "start_late": rnd.start_late,
        "time_at": format_time(time_at) if time_at else None,
        "seconds_left": round(left, 1) if left is not None else None,
        "paused": rnd.paused,
        "paused_since": rnd.paused_since,
        "paused_reason": rnd.paused_reason if rnd.paused else None,
        "paused_seconds": round(rnd.paused_seconds, 1),
        "reminders_given": list(rnd.reminders),
        "time_called_at": rnd.time_called_at,
        "policy": rnd.policy,
        "tables": tables,
        "reported": [{"table": t, "at": at} for t, at in sorted(rnd.reported)],
        "waiting": [t for t in tables if t not in rnd.reported_tables],
        "closed_at": rnd.closed_at,
        "close_reason": rnd.close_reason,
        "seating_published_at": rnd.published_at,
        # seated again after its publication, not published since (R-tour-31): publish it again
        "seating_withdrawn_at": rnd.unpublished_at,
        "extra": [{"table": t, "seconds": s} for t, s in rnd.extra],
        "table_time_at": {str(t): format_time(rnd.table_time_at(state.settings, t)) for t in rnd.extended_tables}
        if state.settings and rnd.started else {},
    }


def action_view(action) -> dict:
    return {"kind": action.kind, "round": action.round, "at": format_time(action.due_at),
            "seconds_left": action.seconds_left}


def status(tournament_id: str, records: list, event_state: EventState, state: ClockState, now: datetime) -> dict:
    """The clock's status as the API answers it (also what a page may show)."""
    settings = state.settings
    actions = pending(state, event_state, dealer_of(records))
    upcoming = [a for a in actions if a.due_at > now]
    current = state.current
    published = state.published
    return {
        "tournament": tournament_id,
        "now": format_time(now),
        "configured": settings is not None,
        "settings": None if settings is None else {
            "round_seconds": settings.round_seconds, "starts": list(settings.starts),
            "first_start": settings.first_start,
            "interval_seconds": settings.interval_seconds, "at_time": settings.at_time,
            "reminders": list(settings.reminders), "auto_close": settings.auto_close, "publish": settings.publish,
            "publish_before_seconds": settings.publish_before_seconds},
        "round": None if current is None else round_view(current, state, event_state, now),
        "rounds": [round_view(r, state, event_state, now) for r in state.rounds],
        "published_round": None if published is None else published.round,
        "next_due": action_view(upcoming[0]) if upcoming else None,
        "overdue": [action_view(a) for a in actions if a.due_at <= now],
    }


def scheduler_view() -> dict:
    """The process that answered: its scheduler's role and pid."""
    service = clock_service.scheduler()
    role = "off" if service is None else "leader" if service.leading else "standby"
    return {"role": role, "pid": os.getpid()}


def official_action(tournament_id: str, make, *, actor: int | None) -> object:
    """An official's clock action now: ``make(clock state, now)`` gives the event (the API's
    start, call-time, report, close, publish, extra time, pause, resume and the clock page alike).

    :raises ApiProblem: 409 ``clock_not_configured``; 409 ``event_refused`` naming the field.
    """
    _records, _event_state, state = load_clock(tournament_id)
    if state.settings is None:
        raise ApiProblem(409, "clock_not_configured", "the tournament's clock is not configured",
                         "此賽事尚未設定時鐘", field="clock")
    return write_clock(tournament_id, [make(state, format_time(clock_now()))], actor)


#: what an official's clock action records: its event from the clock's state, the time and the
#: request's fields (``round``; ``table``, ``minutes``, ``reason`` for the actions that take them)
ACTION_EVENTS = {
    "start": lambda s, at, d: RoundStarted(next_round(s, d["round"]), at),
    "call-time": lambda s, at, d: TimeCalled(current_round(s, d["round"]), at, s.settings.at_time),
    "report": lambda s, at, d: TableReported(current_round(s, d["round"]), d["table"], at),
    "close": lambda s, at, d: RoundClosed(current_round(s, d["round"]), at),
    "publish": lambda s, at, d: SeatingPublished(next_round(s, d["round"]), at),
    "extra-time": lambda s, at, d: ExtraTime(current_round(s, d["round"]), d["minutes"] * 60, at, d["table"],
                                             d["reason"]),
    "pause": lambda s, at, d: ClockPaused(current_round(s, d["round"]), at, d["reason"]),
    "resume": lambda s, at, d: ClockResumed(current_round(s, d["round"]), at, d["reason"]),
}


def act(tournament_id: str, action: str, data: dict, *, actor: int | None) -> object:
    """The official's clock *action* (a key of :data:`ACTION_EVENTS`) now, with the request's
    *data*: the API's and the clock page's alike (:func:`official_action`)."""
    make = ACTION_EVENTS[action]
    return official_action(tournament_id, lambda s, at: make(s, at, data), actor=actor)


def configure(tournament_id: str, data: dict, *, actor: int | None):
    """Set the clock (``data`` as :class:`services.clock_schemas.ClockSettingsSchema` loads it):
    the round length defaults to the event's ``round_minutes``; setting it again applies from then on.

    :raises ApiProblem: 409 ``invalid_clock`` when neither gives the round length.
    """
    _records, event_state, _state = load_clock(tournament_id)
    if data["round_seconds"] is None:
        minutes = event_state.settings.round_minutes if event_state.settings else None
        if minutes is None:
            raise ApiProblem(409, "invalid_clock", "round_seconds is required: the event has no round_minutes",
                             "須設定每輪時間 round_seconds（賽事未設定每輪分鐘數）", field="round_seconds")
        data = {**data, "round_seconds": minutes * 60}
    settings = ClockSettings(**{**data, "starts": tuple(data["starts"]), "reminders": tuple(data["reminders"])})
    return write_clock(tournament_id, [ClockConfigured(settings, format_time(clock_now()))], actor)


__all__ = ["ACTION_EVENTS", "act", "configure", "current_round", "load_clock", "clock_now", "next_round",
           "official_action", "scheduler_view", "status", "write_clock"]

"""A tournament's round clock over HTTP (issue #7): settings, status, an official's actions,
and the published seating the hall screen shows.

=============================================================  ===============  ==========================
``PUT  /api/v1/tournaments/{id}/clock``                         official         set the clock (again)
``GET  /api/v1/tournaments/{id}/clock``                         ``tournaments``  status: round, time left …
``POST /api/v1/tournaments/{id}/clock/start``                   official         start a round now
``POST /api/v1/tournaments/{id}/clock/call-time``               official         call time now
``POST /api/v1/tournaments/{id}/clock/reports``                 official         a table has finished
``POST /api/v1/tournaments/{id}/clock/close``                   official         close a round
``POST /api/v1/tournaments/{id}/clock/publish``                 official         publish a round's seating
``GET  /api/v1/tournaments/{id}/seating/published``             ``tournaments``  the latest published seating
=============================================================  ===============  ==========================

Every write is a clock event appended to the tournament's log with whatever the clock then
has due (:func:`services.clock_log.record_clock`: a last table's report closes the round at once
when auto-close is on), and wakes the scheduler. An action the clock does not allow now (a
round started twice, time called before the start, a table reported twice) is a **409**
``event_refused`` naming the field, nothing written; a malformed body or a setting that
cannot be (a start time without its time zone) a **400** naming the field.
"""
from __future__ import annotations

import os
from datetime import datetime, timedelta

from flask import current_app, jsonify
from marshmallow import Schema, fields, validate

from services import clock_service
from api import auth, idempotency
from api.openapi import BEARER, MAYBE_BEARER, Blueprint
from services.problems import ApiProblem, not_found
from services.schemas import StrictBoolean
from services.clock_log import dealer_of, late_tolerance, record_clock
from store import get_db
from store import tournaments as tstore
from tournament.clock import (
    AT_TIME_POLICIES, MAX_INTERVAL_SECONDS, MAX_ROUND_SECONDS, PUBLISH_POLICIES, ClockConfigured, ClockError,
    ClockSettings, ClockState, RoundClock,
    RoundClosed, RoundStarted, SeatingPublished, TableReported, TimeCalled, clock_state, format_time, pending,
)
from tournament.errors import EventLogError
from tournament.events import EventState, replay
from referee.tiles import Wind

blp = Blueprint("clocks", __name__, url_prefix="/api/v1/tournaments",
                description="賽事時鐘 Round clocks: start times, reminders, time, closing, published seating")
auth.guard(blp)  # auth first: officials, checked before the body is read (issue #12 item 5)


# --- schemas ------------------------------------------------------------------------------

# the bounds of tournament.clock.ClockSettings, with their reasons (every time worked out from them is a datetime)
_ROUND = validate.Range(1, MAX_ROUND_SECONDS, error="須為 {min}–{max} 秒：一輪一次打完，至多 24 小時 "
                                                     "must be {min}–{max} s: a round is played in one sitting, at most 24 h")
_INTERVAL = validate.Range(1, MAX_INTERVAL_SECONDS, error="須為 {min}–{max} 秒：輪與輪至多相隔一年 "
                                                           "must be {min}–{max} s: rounds at most a year apart")
_AHEAD = validate.Range(0, MAX_INTERVAL_SECONDS, error="須為 {min}–{max} 秒：至多提前一年 must be {min}–{max} s: "
                                                        "at most a year ahead")


class ClockSettingsSchema(Schema):
    round_seconds = fields.Integer(load_default=None, allow_none=True, strict=True, validate=_ROUND,
                                   metadata={"description": "每輪時間（秒，省略：賽事的 round_minutes）round length in "
                                                            "seconds, e.g. 5400 (default: the event's round_minutes)"})
    starts = fields.List(fields.String(metadata={"format": "date-time"}), load_default=list,
                         metadata={"description": "各輪開始時間 ISO 8601 含時區 each round's start, with offset"})
    first_start = fields.String(load_default=None, allow_none=True,
                                metadata={"format": "date-time",
                                          "description": "第一輪開始時間 first round's start (with interval_seconds)"})
    interval_seconds = fields.Integer(load_default=None, allow_none=True, strict=True, validate=_INTERVAL,
                                      metadata={"description": "輪與輪開始的間隔（秒）seconds between starts"})
    at_time = fields.String(load_default="finish_hand", validate=validate.OneOf(AT_TIME_POLICIES),
                            metadata={"description": "時間到：finish_hand 打完本盤 / finish_circle 打完本圈"})
    reminders = fields.List(fields.Integer(strict=True, validate=_ROUND), load_default=lambda: [900, 300],
                            metadata={"description": "時間到前幾秒提醒 reminders, seconds before time"})
    auto_close = StrictBoolean(load_default=True, metadata={"description": "各桌回報完賽即結束本輪 auto-close"})
    publish = fields.String(load_default="on_close", validate=validate.OneOf(PUBLISH_POLICIES),
                            metadata={"description": "公布下一輪座位：on_close 本輪結束時 / before_start 開始前"})
    publish_before_seconds = fields.Integer(load_default=0, strict=True, validate=_AHEAD,
                                            metadata={"description": "before_start：開始前幾秒公布 seconds before"})


class RoundArgSchema(Schema):
    round = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(1, 100),
                           metadata={"description": "輪次（省略：目前這一輪／下一輪）round (default: the current / next)"})


class ReportSchema(RoundArgSchema):
    table = fields.Integer(required=True, strict=True, validate=validate.Range(1, 10000), metadata={"description": "桌號 table"})


class ClockStatusSchema(Schema):
    tournament = fields.String()
    now = fields.String()
    configured = fields.Boolean()
    settings = fields.Dict(allow_none=True)
    round = fields.Dict(allow_none=True, metadata={"description": "目前這一輪 the current round"})
    rounds = fields.List(fields.Dict())
    published_round = fields.Integer(allow_none=True)
    next_due = fields.Dict(allow_none=True)
    overdue = fields.List(fields.Dict(), metadata={"description": "已到時而未記錄（排程器未執行）due, not yet recorded"})
    scheduler = fields.Dict(metadata={"description": "回答此請求的程序：leader 執行排程 / standby 待命 / off 未啟動"})


class PublishedSeatingSchema(Schema):
    tournament = fields.String()
    round = fields.Integer(allow_none=True, metadata={"description": "公布的輪次（null：尚未公布）null: none yet"})
    published_at = fields.String(allow_none=True)
    tables = fields.List(fields.Dict())


# --- helpers ------------------------------------------------------------------------------


def _now() -> datetime:
    return current_app.config["CLOCK"].now()  # the app's one clock (tournament.clocksource)


def _tolerance() -> timedelta:
    return late_tolerance(current_app.config)


def _load(tournament_id: str) -> tuple[list, EventState, ClockState]:
    db = get_db()
    if tstore.get_tournament(db, tournament_id) is None:
        raise not_found("tournament", "賽事", tournament_id, "tournament_id")
    records = tstore.load_records(db, tournament_id)
    return records, replay(records), clock_state(records)


def _refused(exc: EventLogError | ClockError) -> ApiProblem:
    return ApiProblem(409, "event_refused", exc.message, exc.reason_zh, field=exc.field)


def _write(tournament_id: str, events: list, actor: int):
    """Record an official's clock events and answer the clock's status, made in the same
    transaction (so that an ``Idempotency-Key`` stores it with the events: :mod:`api.idempotency`)."""
    now, tolerance = _now(), _tolerance()  # read config here: the writer may run the job in its own thread
    scheduler = _scheduler_view()

    def work(tx):
        record_clock(tx.db, tournament_id, events, now=now, tolerance=tolerance, actor=actor)
        records = tstore.load_records(tx.db, tournament_id)
        body = status(tournament_id, records, replay(records), clock_state(records), now)
        body["scheduler"] = scheduler
        return 200, body, {}

    try:
        result = idempotency.submit(tournament_id, work)
    except (ClockError, EventLogError) as exc:
        raise _refused(exc) from None
    if not result[3]:
        clock_service.notify(tournament_id)
    return idempotency.respond(*result)


def _no_round(detail: str, detail_zh: str) -> ApiProblem:
    return ApiProblem(409, "no_round", detail, detail_zh, field="round")


def _current_round(state: ClockState, given: int | None) -> int:
    if given is not None:
        return given
    current = state.current
    if current is None or current.closed:
        raise _no_round("no round is under way: name the round", "目前沒有進行中的一輪：請指定輪次")
    return current.round


def _next_round(state: ClockState, given: int | None) -> int:
    if given is not None:
        return given
    current = state.current
    return 1 if current is None else current.round + 1


def _round_view(rnd: RoundClock, state: ClockState, event_state: EventState, now: datetime) -> dict:
    plan = event_state.round(rnd.round)
    tables = [t.table for t in plan.tables] if plan else []
    time_at = rnd.time_at(state.settings) if state.settings and rnd.started else None
    running = rnd.started and not rnd.closed
    return {
        "round": rnd.round,
        "started_at": rnd.started_at,
        "start_due": rnd.start_due or None,
        "start_late": rnd.start_late,
        "time_at": format_time(time_at) if time_at else None,
        "seconds_left": round((time_at - now).total_seconds(), 1) if time_at and running else None,
        "reminders_given": list(rnd.reminders),
        "time_called_at": rnd.time_called_at,
        "policy": rnd.policy,
        "tables": tables,
        "reported": [{"table": t, "at": at} for t, at in sorted(rnd.reported)],
        "waiting": [t for t in tables if t not in rnd.reported_tables],
        "closed_at": rnd.closed_at,
        "close_reason": rnd.close_reason,
        "seating_published_at": rnd.published_at,
    }


def _action_view(action) -> dict:
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
            "round_seconds": settings.round_seconds, "starts": list(settings.starts), "first_start": settings.first_start,
            "interval_seconds": settings.interval_seconds, "at_time": settings.at_time,
            "reminders": list(settings.reminders), "auto_close": settings.auto_close, "publish": settings.publish,
            "publish_before_seconds": settings.publish_before_seconds},
        "round": None if current is None else _round_view(current, state, event_state, now),
        "rounds": [_round_view(r, state, event_state, now) for r in state.rounds],
        "published_round": None if published is None else published.round,
        "next_due": _action_view(upcoming[0]) if upcoming else None,
        "overdue": [_action_view(a) for a in actions if a.due_at <= now],
    }


# --- views --------------------------------------------------------------------------------


#: a write: ``Idempotency-Key`` read, checked and documented (:mod:`api.idempotency`)
_idempotent = idempotency.documented(blp)


@blp.put("/<tournament_id>/clock")
@blp.arguments(ClockSettingsSchema, required=False)  # no body: every setting its default
@blp.response(200, ClockStatusSchema)
@blp.doc(security=BEARER)
@_idempotent
def configure_clock(data: dict, tournament_id: str):
    """設定賽事時鐘 Set the clock (official): start times, round length, at-time policy, reminders,
    auto-close, publication. Setting it again applies from then on."""
    principal = auth.require("official", "admin")
    _records, event_state, _state = _load(tournament_id)
    if data["round_seconds"] is None:
        minutes = event_state.settings.round_minutes if event_state.settings else None
        if minutes is None:
            raise ApiProblem(409, "invalid_clock", "round_seconds is required: the event has no round_minutes",
                             "須設定每輪時間 round_seconds（賽事未設定每輪分鐘數）", field="round_seconds")
        data = {**data, "round_seconds": minutes * 60}
    settings = ClockSettings(**{**data, "starts": tuple(data["starts"]), "reminders": tuple(data["reminders"])})
    return _write(tournament_id, [ClockConfigured(settings, format_time(_now()))], principal.id)


@blp.get("/<tournament_id>/clock")
@blp.response(200, ClockStatusSchema)
@blp.doc(security=MAYBE_BEARER)
def get_clock(tournament_id: str):
    """時鐘狀態 The clock: the round, its start, time left, reminders given, time called,
    tables reported, closed, the published seating, what is due next."""
    auth.check_read("tournaments")
    return _status_response(tournament_id)


def _status_response(tournament_id: str):
    records, event_state, state = _load(tournament_id)
    body = status(tournament_id, records, event_state, state, _now())
    body["scheduler"] = _scheduler_view()
    return jsonify(body)


def _scheduler_view() -> dict:
    """The process that answered: its scheduler's role and pid."""
    service = clock_service.scheduler()
    role = "off" if service is None else "leader" if service.leading else "standby"
    return {"role": role, "pid": os.getpid()}


def _official_action(tournament_id: str, make) -> object:
    principal = auth.require("official", "admin")
    _records, _event_state, state = _load(tournament_id)
    if state.settings is None:
        raise ApiProblem(409, "clock_not_configured", "the tournament's clock is not configured",
                         "此賽事尚未設定時鐘", field="clock")
    return _write(tournament_id, [make(state, format_time(_now()))], principal.id)


@blp.post("/<tournament_id>/clock/start")
@blp.arguments(RoundArgSchema, required=False)
@blp.response(200, ClockStatusSchema)
@blp.doc(security=BEARER)
@_idempotent
def start_round(data: dict, tournament_id: str):
    """開始一輪 Start a round now (official; default: the next round)."""
    return _official_action(tournament_id, lambda s, at: RoundStarted(_next_round(s, data["round"]), at))


@blp.post("/<tournament_id>/clock/call-time")
@blp.arguments(RoundArgSchema, required=False)
@blp.response(200, ClockStatusSchema)
@blp.doc(security=BEARER)
@_idempotent
def call_time(data: dict, tournament_id: str):
    """宣布時間到 Call time now (official; the clock's at-time policy applies)."""
    return _official_action(tournament_id, lambda s, at: TimeCalled(_current_round(s, data["round"]), at,
                                                                     s.settings.at_time))


@blp.post("/<tournament_id>/clock/reports")
@blp.arguments(ReportSchema)
@blp.response(200, ClockStatusSchema)
@blp.doc(security=BEARER)
@_idempotent
def report_table(data: dict, tournament_id: str):
    """回報完賽 A table has finished the round (official / the table's scorer through an official token)."""
    return _official_action(tournament_id, lambda s, at: TableReported(_current_round(s, data["round"]),
                                                                        data["table"], at))


@blp.post("/<tournament_id>/clock/close")
@blp.arguments(RoundArgSchema, required=False)
@blp.response(200, ClockStatusSchema)
@blp.doc(security=BEARER)
@_idempotent
def close_round(data: dict, tournament_id: str):
    """結束一輪 Close a round now (official)."""
    return _official_action(tournament_id, lambda s, at: RoundClosed(_current_round(s, data["round"]), at))


@blp.post("/<tournament_id>/clock/publish")
@blp.arguments(RoundArgSchema, required=False)
@blp.response(200, ClockStatusSchema)
@blp.doc(security=BEARER)
@_idempotent
def publish_seating(data: dict, tournament_id: str):
    """公布座位 Publish a round's seating now (official; default: the next round)."""
    return _official_action(tournament_id, lambda s, at: SeatingPublished(_next_round(s, data["round"]), at))


@blp.get("/<tournament_id>/seating/published")
@blp.response(200, PublishedSeatingSchema)
@blp.doc(security=MAYBE_BEARER)
def published_seating(tournament_id: str):
    """公布的座位 The latest published round's tables: players' names by wind (the hall screen);
    ``round: null`` and no tables before any round's seating is published."""
    auth.check_read("tournaments")
    _records, event_state, state = _load(tournament_id)
    shown = state.published
    plan = event_state.round(shown.round) if shown is not None else None
    if plan is None:  # the tournament is there, its published seating empty: not a 404 (issue #12 item 6)
        return jsonify({"tournament": tournament_id, "round": None, "published_at": None, "tables": []})
    return jsonify({"tournament": tournament_id, "round": shown.round, "published_at": shown.published_at,
                    "tables": seating_view(event_state, plan)})


def seating_view(event_state: EventState, plan) -> list[dict]:
    """A round's tables: each seat's wind (東南西北), player id and name (``None``: 替補)."""
    out = []
    for table in plan.tables:
        seats = []
        for wind, pid in zip(Wind, table.seats):
            player = event_state.player(pid) if pid is not None else None
            seats.append({"wind": wind.name, "wind_zh": wind.zh, "player_id": pid,
                          "name": player.name if player else "替補", "substitute": pid is None})
        out.append({"table": table.table, "seats": seats})
    return out

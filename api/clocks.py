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
``POST /api/v1/tournaments/{id}/clock/extra-time``              official         extra time: every table, or one
``POST /api/v1/tournaments/{id}/clock/pause``                   official         pause the round's time (a reason)
``POST /api/v1/tournaments/{id}/clock/resume``                  official         the round's time runs again
``GET  /api/v1/tournaments/{id}/seating/published``             ``tournaments``  the latest published seating
=============================================================  ===============  ==========================

The views are thin: the writes and the status are :mod:`services.clock_commands` (shared with
the clock page), the schemas :mod:`services.clock_schemas`.

Every write is a clock event appended to the tournament's log with whatever the clock then
has due (:func:`services.clock_log.record_clock`: a last table's report closes the round at once
when auto-close is on), and wakes the scheduler. An action the clock does not allow now (a
round started twice, time called before the start, a table reported twice) is a **409**
``event_refused`` naming the field, nothing written; a malformed body or a setting that
cannot be (a start time without its time zone) a **400** naming the field.
"""
from __future__ import annotations

from flask import jsonify

from services.clock_commands import act, clock_now, configure, load_clock, scheduler_view, status
from services.clock_schemas import (
    ClockSettingsSchema, ClockStatusSchema, ExtraTimeSchema, PauseSchema, PublishedSeatingSchema, ReportSchema,
    ResumeSchema, RoundArgSchema,
)
from api import auth, idempotency
from api.openapi import MAYBE_BEARER, Blueprint
from tournament.events import EventState
from referee.tiles import Wind

blp = Blueprint("clocks", __name__, url_prefix="/api/v1/tournaments",
                description="賽事時鐘 Round clocks: start times, reminders, time, closing, published seating")
auth.guard(blp)  # auth first: officials, checked before the body is read (issue #12 item 5)


# --- views --------------------------------------------------------------------------------


def _write(method: str, rule: str, body: type, *, required: bool = True):
    """A clock write: answered with the clock's status; ``Idempotency-Key`` read, checked and
    documented (:func:`api.idempotency.write`)."""
    return idempotency.write(blp, method, rule, body, ClockStatusSchema, required=required)


def _actor() -> int:
    """Who acts: an official (checked first, before the log is read)."""
    return auth.require("official", "admin").id


@_write("put", "/<tournament_id>/clock", ClockSettingsSchema, required=False)  # no body: every setting its default
def configure_clock(data: dict, tournament_id: str):
    """設定賽事時鐘 Set the clock (official): start times, round length, at-time policy, reminders,
    auto-close, publication. Setting it again applies from then on."""
    return configure(tournament_id, data, actor=_actor())


@blp.get("/<tournament_id>/clock")
@blp.response(200, ClockStatusSchema)
@blp.doc(security=MAYBE_BEARER)
def get_clock(tournament_id: str):
    """時鐘狀態 The clock: the round, its start, time left, reminders given, time called,
    tables reported, closed, the published seating, what is due next."""
    auth.check_read("tournaments")
    return _status_response(tournament_id)


def _status_response(tournament_id: str):
    records, event_state, state = load_clock(tournament_id)
    body = status(tournament_id, records, event_state, state, clock_now())
    body["scheduler"] = scheduler_view()
    return jsonify(body)


@_write("post", "/<tournament_id>/clock/start", RoundArgSchema, required=False)
def start_round(data: dict, tournament_id: str):
    """開始一輪 Start a round now (official; default: the next round)."""
    return act(tournament_id, "start", data, actor=_actor())


@_write("post", "/<tournament_id>/clock/call-time", RoundArgSchema, required=False)
def call_time(data: dict, tournament_id: str):
    """宣布時間到 Call time now (official; the clock's at-time policy applies)."""
    return act(tournament_id, "call-time", data, actor=_actor())


@_write("post", "/<tournament_id>/clock/reports", ReportSchema)
def report_table(data: dict, tournament_id: str):
    """回報完賽 A table has finished the round (official / the table's scorer through an official token)."""
    return act(tournament_id, "report", data, actor=_actor())


@_write("post", "/<tournament_id>/clock/close", RoundArgSchema, required=False)
def close_round(data: dict, tournament_id: str):
    """結束一輪 Close a round now (official)."""
    return act(tournament_id, "close", data, actor=_actor())


@_write("post", "/<tournament_id>/clock/publish", RoundArgSchema, required=False)
def publish_seating(data: dict, tournament_id: str):
    """公布座位 Publish a round's seating now (official; default: the next round)."""
    return act(tournament_id, "publish", data, actor=_actor())


@_write("post", "/<tournament_id>/clock/extra-time", ExtraTimeSchema)
def extra_time(data: dict, tournament_id: str):
    """延長時間 Extra time (official, R-tour-27): for every table (no ``table``; before time is
    called), or for one table held up by a dispute (it may start hands until its own later time)."""
    return act(tournament_id, "extra-time", data, actor=_actor())


@_write("post", "/<tournament_id>/clock/pause", PauseSchema)
def pause_clock(data: dict, tournament_id: str):
    """暫停計時 Pause the round's time for the whole hall (official, R-tour-29; a reason: 停電, a
    hall-wide dispute): time, reminders and auto-close fall later by the pause. Refused (409,
    ``round``) before the round starts, once time is called, or when already paused."""
    return act(tournament_id, "pause", data, actor=_actor())


@_write("post", "/<tournament_id>/clock/resume", ResumeSchema, required=False)
def resume_clock(data: dict, tournament_id: str):
    """恢復計時 The paused round's time runs again (official, R-tour-29); 409 (``round``) when not paused."""
    return act(tournament_id, "resume", data, actor=_actor())


@blp.get("/<tournament_id>/seating/published")
@blp.response(200, PublishedSeatingSchema)
@blp.doc(security=MAYBE_BEARER)
def published_seating(tournament_id: str):
    """公布的座位 The latest published round's tables: players' names by wind (the hall screen);
    ``round: null`` and no tables before any round's seating is published."""
    auth.check_read("tournaments")
    _records, event_state, state = load_clock(tournament_id)
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

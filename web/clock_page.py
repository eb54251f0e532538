"""The organisers' clock page (issue #15 item 5): set the round clock, start a round, call time,
record a table's finish, close a round, publish the next round's seating — what the clock API
does (``/api/v1/tournaments/{id}/clock…``, :mod:`api.clocks`), from a browser.

==================================  ===========================================================
``/t/<tid>/clock``                  the clock's status (round, time at, time left, tables
                                    reported and waiting, what is due next) and its forms
``/t/<tid>/clock/settings``         set the clock (again): round length, at-time policy,
                                    reminders, auto-close, when seating is published
``/t/<tid>/clock/<action>``         ``start`` · ``call-time`` · ``report`` · ``close`` · ``publish`` ·
                                    ``extra-time`` (every table, or one held up: R-tour-27) ·
                                    ``pause`` · ``resume`` (the whole hall's time: R-tour-29)
==================================  ===========================================================

Officials and admins, on the console's sign-in and form token. Each form is turned into the
API's body, loaded by the API's schema (:mod:`services.clock_schemas`) and written by the API's
own command (:mod:`services.clock_commands`): the same checks, errors (409 naming the field)
and log. Times are shown in the app's ``TIME_ZONE`` (:mod:`web.times`), never as raw ISO.
"""
from __future__ import annotations

import re

from flask import Blueprint, redirect, render_template, request, url_for
from marshmallow import ValidationError

from services.clock_commands import act, clock_now, configure, load_clock, status
from referee.errors import MjrefError
from services.clock_schemas import (
    ClockSettingsSchema, ExtraTimeSchema, PauseSchema, ReportSchema, ResumeSchema, RoundArgSchema,
)
from services.problems import ApiProblem
from services.validation import first_error, reason_zh
from web import console
from web.errors import PageError
from web.setup import _official
from web.times import show_in

bp = Blueprint("clock_page", __name__, url_prefix="/t/<tid>/clock", template_folder="templates")
bp.before_request(console._session_first)  # who is signed in; a POST's form token (CSRF)
bp.register_error_handler(PageError, console._page_error)
bp.register_error_handler(console.SignInNeeded, console._sign_in)
bp.register_error_handler(ApiProblem, console._problem)

AT_TIME_TEXT = {"finish_hand": ("打完本盤", "finish the hand"), "finish_circle": ("打完本圈", "finish the 圈")}
PUBLISH_TEXT = {"on_close": ("本輪結束時", "on close"), "before_start": ("下一輪開始前", "before the start")}
#: the actions' buttons (what each records: services.clock_commands.ACTION_EVENTS)
ACTIONS = {
    "start": ("開始", "Start"), "call-time": ("宣布時間到", "Call time"), "report": ("回報完賽", "Report a table"),
    "close": ("結束本輪", "Close the round"), "publish": ("公布座位", "Publish seating"),
    "extra-time": ("延長時間", "Extra time"), "pause": ("暫停計時", "Pause"), "resume": ("恢復計時", "Resume"),
}


def _status(tid: str) -> tuple[dict, object]:
    records, event_state, state = load_clock(tid)
    return status(tid, records, event_state, state, clock_now()), event_state


def _page(tid: str, *, errors=None, values=None, status_code: int = 200):
    body, event_state = _status(tid)
    show_in(event_state.settings)  # the event's times in its own zone
    settings = body["settings"] or {}
    minutes = (settings.get("round_seconds") or (event_state.settings.round_minutes or 0) * 60) // 60 or ""
    defaults = {"round_minutes": str(minutes), "at_time": settings.get("at_time", "finish_hand"),
                "reminders": ",".join(str(s // 60) for s in settings.get("reminders", [900, 300])),
                "auto_close": "1" if settings.get("auto_close", True) else "",
                "publish": settings.get("publish", "on_close"),
                "publish_before_minutes": str((settings.get("publish_before_seconds") or 0) // 60)}
    return render_template("clock_page.html", tid=tid, name=event_state.settings.name, clock=body,
                           values={**defaults, **(values or {})}, errors=errors or {}, at_time_text=AT_TIME_TEXT,
                           publish_text=PUBLISH_TEXT, actions=ACTIONS,
                           rounds=range(1, event_state.settings.rounds + 1),
                           done=request.args.get("done")), status_code


@bp.get("")
def clock(tid: str):
    """時鐘 The round clock: its status and the official's actions."""
    _official()
    return _page(tid)


def _minutes(raw: str):
    raw = raw.strip()
    return int(raw) * 60 if re.fullmatch(r"\d{1,7}", raw) else raw or None


def settings_body(form) -> dict:
    """The API's ``PUT …/clock`` body a settings form stands for (minutes as seconds)."""
    body: dict = {"at_time": form.get("at_time", "finish_hand"), "auto_close": form.get("auto_close") == "1",
                  "publish": form.get("publish", "on_close")}
    seconds = _minutes(form.get("round_minutes", ""))
    if seconds is not None:
        body["round_seconds"] = seconds
    before = _minutes(form.get("publish_before_minutes", "0") or "0")
    body["publish_before_seconds"] = before if before is not None else 0
    reminders = [r.strip() for r in re.split(r"[,、\s]+", form.get("reminders", "")) if r.strip()]
    body["reminders"] = [int(r) * 60 if r.isdigit() else r for r in reminders]
    return body


#: the form's field an API field's error shows at
SETTINGS_FIELDS = {"round_seconds": "round_minutes", "publish_before_seconds": "publish_before_minutes",
                   "reminders": "reminders", "at_time": "at_time", "publish": "publish", "auto_close": "auto_close"}


@bp.post("/settings")
def settings_post(tid: str):
    person = _official()
    values = {k: v for k, v in request.form.items() if k != "csrf_token"}
    values.setdefault("auto_close", "")
    try:
        data = ClockSettingsSchema().load(settings_body(request.form))
        configure(tid, data, actor=person.principal.id)
    except ValidationError as error:
        field, message = first_error(error.messages)
        return _page(tid, values=values, status_code=400,
                     errors={SETTINGS_FIELDS.get(field.split("[")[0].split(".")[0], "round_minutes"):
                             (reason_zh(message), message)})
    except ApiProblem as problem:
        return _page(tid, values=values, status_code=problem.code,
                     errors={SETTINGS_FIELDS.get(problem.field or "", "round_minutes"):
                             (problem.detail_zh, problem.detail)})
    except MjrefError as exc:  # a setting the clock refuses (tournament.clock.ClockSettings)
        return _page(tid, values=values, status_code=400,
                     errors={SETTINGS_FIELDS.get(exc.field or "", "round_minutes"): (exc.reason_zh, exc.message)})
    return redirect(url_for("clock_page.clock", tid=tid, done="settings"))


@bp.post("/<action>")
def action_post(tid: str, action: str):
    """An official's action now: start, call time, a table's report, close, publish, extra time, pause, resume."""
    person = _official()
    if action not in ACTIONS:
        raise PageError(404, "沒有此時鐘操作。", "There is no such clock action.", field="action")
    round_raw = request.form.get("round", "").strip()
    body: dict = {"round": int(round_raw) if round_raw.isdigit() else (round_raw or None)}
    schema = RoundArgSchema()
    if action in ("report", "extra-time"):
        table = request.form.get("table", "").strip()
        body["table"] = int(table) if table.isdigit() else (table or None)
        schema = ReportSchema()
    if action == "extra-time":
        minutes = request.form.get("minutes", "").strip()
        body.update(minutes=int(minutes) if minutes.isdigit() else minutes,
                    reason=request.form.get("reason", "").strip())
        schema = ExtraTimeSchema()
    if action in ("pause", "resume"):
        body["reason"] = request.form.get("reason", "").strip()
        schema = PauseSchema() if action == "pause" else ResumeSchema()
    try:
        act(tid, action, schema.load(body), actor=person.principal.id)
    except ValidationError as error:
        field, message = first_error(error.messages)
        return _page(tid, status_code=400,
                     errors={f"{action}": (f"「{field}」{reason_zh(message)}", f"{field}: {message}")})
    except ApiProblem as problem:
        return _page(tid, status_code=problem.code, errors={action: (problem.detail_zh, problem.detail)})
    return redirect(url_for("clock_page.clock", tid=tid, done=action))


def init_app(app) -> None:
    app.register_blueprint(bp)

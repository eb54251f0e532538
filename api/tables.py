"""Tables: create, read, live ingest, history and replay (issue #6).

=====================================================  ==========  =========================
``POST /api/v1/tables``                                 official    create a table
``GET  /api/v1/tables``                                 ``tables``  list (a table token: its own)
``GET  /api/v1/tables/{id}``                            ``tables``  settings, head, totals per seat
``POST /api/v1/tables/{id}/events``                     table       live ingest: one event or a batch
``GET  /api/v1/tables/{id}/events``                     ``events``  the log, with each answer
``GET  /api/v1/tables/{id}/state``                      ``events``  the current hand as the referee sees it
``GET  /api/v1/tables/{id}/hands``                      ``tables``  hand history: counts, outcome, money
``GET  /api/v1/tables/{id}/hands/{hand}``               ``events``  one hand: events, rulings, overrides
``GET  /api/v1/tables/{id}/hands/{hand}/replay``        ``events``  replay a stored hand (``?upto=SEQ``)
=====================================================  ==========  =========================

The second column is who may: a role, or the read area (``api/auth.py``: public or not
by configuration; a table token reads only its own table). Ingest: see :mod:`services.live`
and docs/api.md — idempotent by ``(hand, seq)``, all or nothing, 409 naming the expected
position on a gap or a clash, each event's verdict and any rulings in the answer.
"""
from __future__ import annotations

import functools
import io
import re

import click
from flask import Flask, current_app, jsonify, request
from flask.cli import AppGroup
from marshmallow import Schema, fields, validate
from werkzeug.exceptions import HTTPException

from api import auth, intake
from api.clikit import emit
from services.schemas import OpenSchema
from services.seat_names import table_names
from services.live import (FIRST_HAND, FIRST_SEQ, MAX_BATCH, MAX_INT, LiveService, RevocationsMoved, replay_hand,
                           service, table_totals)
from api.openapi import BEARER, MAYBE_BEARER, Blueprint, link, links
from services.problems import ApiProblem, bad_request, not_found
from services.schemas import params_property, profile_property
from services.tournament_schemas import TOURNAMENT_ID
from referee.errors import MjrefError
from referee.events import EventType
from referee.ruleset import Ruleset
from store import StoreUnavailableError, get_db, get_writer
from store.db import reader, release_reader
from store.dialect import DATABASE_ERRORS
from store import tables as ts

blp = Blueprint("tables", __name__, url_prefix="/api/v1/tables", description="桌與即時事件 Tables and live events")
# auth first, before the body is read (issue #12 item 5): officials create tables; a table posts its events
auth.guard(blp, endpoints={"post_events": auth.ROLES})

TABLE_ID = validate.Regexp(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
                           error="桌號：1–64 個英數字、. _ -，英數字開頭 a table id: 1–64 of A-Z a-z 0-9 . _ -")


# --- schemas ------------------------------------------------------------------------------


class CreateTableSchema(Schema):
    id = fields.String(required=True, validate=TABLE_ID, metadata={"description": "桌號 table id, e.g. A1"})
    name = fields.String(load_default="", validate=validate.Length(max=200), metadata={"description": "名稱 name"})
    mode = fields.String(load_default="digital", validate=validate.OneOf(["digital", "physical"]),
                         metadata={"description": "digital（電子桌：牌牆已知）或 physical（實體桌）"})
    ruleset = fields.String(load_default="competition",
                            metadata={"description": "規則組 ruleset profile", **profile_property()})
    params = fields.Dict(keys=fields.String(), load_default=dict,
                         metadata={"description": "參數覆寫 overrides", **params_property()})
    tournament = fields.String(load_default=None, allow_none=True, validate=TOURNAMENT_ID,
                               metadata={"description": "賽事 tournament id (an existing one: else 404)"})


class TableSchema(OpenSchema):
    id = fields.String()
    name = fields.String()
    mode = fields.String()
    ruleset = fields.String()
    params = fields.Dict()
    tournament = fields.String(allow_none=True)
    created_at = fields.String()
    created_by = fields.Integer(allow_none=True)


class PositionSchema(Schema):
    hand = fields.Integer()
    seq = fields.Integer()


class TableDetailSchema(TableSchema):
    next = fields.Nested(PositionSchema, metadata={"description": "下一個應收的事件 the position expected next"})
    hands = fields.Integer(metadata={"description": "盤數 hands with events"})
    totals = fields.List(fields.Integer(), metadata={"description": "各家輸贏 money per seat, overrides applied"})


class TableListSchema(Schema):
    tables = fields.List(fields.Nested(TableSchema))


class EventSchema(OpenSchema):
    """一個事件 One event of the protocol (docs/protocol.md); which fields a type uses is
    checked by the referee's reader, naming the field at fault."""

    type = fields.String(required=True, validate=validate.OneOf([t.wire for t in EventType]))
    hand = fields.Integer(required=True, validate=validate.Range(0, MAX_INT), metadata={"description": "盤號 hand"})
    seq = fields.Integer(required=True, validate=validate.Range(0, MAX_INT),
                         metadata={"description": "序號 within the hand"})
    ts = fields.Integer(validate=validate.Range(min=0), metadata={"description": "時間 ms"})
    table = fields.String(validate=TABLE_ID, metadata={"description": "桌號（可省略；須與網址相同）"})
    seat = fields.Integer(validate=validate.Range(0, 3))
    tiles = fields.Raw(metadata={"description": "牌 tile notation or a list"})
    tile = fields.Raw()
    count = fields.Integer()
    kind = fields.String()
    dice = fields.List(fields.Integer())
    v = fields.Integer()


class EventBatchSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True, validate=validate.Length(min=1, max=MAX_BATCH))


class EventAnswerSchema(OpenSchema):
    hand = fields.Integer()
    seq = fields.Integer()
    verdict = fields.String(metadata={"description": "accepted / rejected / irregular"})
    irregularities = fields.List(fields.Dict())
    rulings = fields.List(fields.Dict())
    outcome = fields.Dict()
    duplicate = fields.Boolean(metadata={"description": "已收過（冪等重送）a resend: the stored answer"})


class IngestAnswerSchema(Schema):
    table = fields.String()
    stored = fields.Integer(metadata={"description": "新存入 events stored now"})
    duplicates = fields.Integer(metadata={"description": "重送 resends answered from the log"})
    results = fields.List(fields.Nested(EventAnswerSchema))
    rulings = fields.List(fields.Dict())
    next = fields.Nested(PositionSchema)


class HistoryQuerySchema(Schema):
    hand = fields.Integer(validate=validate.Range(0, MAX_INT), metadata={"description": "只看這一盤 one hand"})
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_INT), metadata={"description": "log id 之後"})
    limit = fields.Integer(load_default=1000, validate=validate.Range(1, 10000))
    stream = fields.String(load_default="play", validate=validate.OneOf(["play", "official", "all"]))


class LoggedEventSchema(OpenSchema):
    id = fields.Integer()
    stream = fields.String()
    hand = fields.Integer()
    seq = fields.Integer()
    type = fields.String()
    body = fields.Dict()
    answer = fields.Dict()
    actor = fields.Integer(allow_none=True)
    received_at = fields.String()


class HistorySchema(Schema):
    table = fields.String()
    events = fields.List(fields.Nested(LoggedEventSchema))


class HandSummarySchema(OpenSchema):
    hand = fields.Integer()
    events = fields.Integer()
    first_seq = fields.Integer()
    last_seq = fields.Integer()
    ended = fields.Boolean()
    outcome = fields.Raw(allow_none=True)
    payments = fields.List(fields.Integer())


class HandListSchema(Schema):
    table = fields.String()
    hands = fields.List(fields.Nested(HandSummarySchema))
    totals = fields.List(fields.Integer())


class HandDetailSchema(OpenSchema):
    table = fields.String()
    hand = fields.Integer()
    events = fields.List(fields.Nested(LoggedEventSchema))
    rulings = fields.List(fields.Dict())
    overrides = fields.List(fields.Dict())
    ended = fields.Boolean()
    outcome = fields.Raw(allow_none=True)
    payments = fields.List(fields.Integer())


class ReplayQuerySchema(Schema):
    upto = fields.Integer(validate=validate.Range(0, MAX_INT),
                          metadata={"description": "重播到此 seq replay up to this seq"})


class ReplaySchema(OpenSchema):
    table = fields.String()
    hand = fields.Integer()
    answers = fields.List(fields.Dict())
    state = fields.Dict()
    ended = fields.Boolean()
    outcome = fields.Raw(allow_none=True)
    rulings = fields.List(fields.Dict())


class StateSchema(OpenSchema):
    table = fields.String()
    hand = fields.Integer(allow_none=True)
    seq = fields.Integer(allow_none=True)
    state = fields.Dict()


# --- helpers ------------------------------------------------------------------------------


def _table_or_404(table_id: str) -> dict:
    row = ts.get_table(get_db(), table_id)
    if row is None:
        raise not_found("table", "桌", table_id, "table_id")
    return row


def _hand_or_404(table_id: str, hand: int) -> list[dict]:
    bodies = list(ts.play_bodies(get_db(), table_id, hand))
    if not bodies:
        raise not_found("hand", "盤", hand, "hand")
    return bodies


# --- views --------------------------------------------------------------------------------


@blp.post("")
@blp.arguments(CreateTableSchema)
@blp.response(201, TableSchema)
@blp.doc(security=BEARER)
@blp.doc(**links(201, **{name: link(f"/api/v1/tables/{{table_id}}{tail}", method, table_id="$response.body#/id")
                         for name, tail, method in (
                             ("GetTable", "", "get"), ("PostEvents", "/events", "post"),
                             ("GetEvents", "/events", "get"),
                             ("GetState", "/state", "get"), ("GetHands", "/hands", "get"),
                             ("GetRulings", "/rulings", "get"), ("PostOverride", "/overrides", "post"),
                             ("GetOverrides", "/overrides", "get"))}))
def create_table(data: dict):
    """開桌 Create a table (official)."""
    principal = auth.require("official", "admin")
    Ruleset.load(data["ruleset"], data["params"] or None)  # a bad profile or parameter: 400 naming it
    row = service().create_table(data["id"], actor=principal.id, name=data["name"], mode=data["mode"],
                                 ruleset=data["ruleset"], params=data["params"], tournament_id=data["tournament"])
    response = jsonify(row)
    response.status_code = 201
    response.headers["Location"] = f"/api/v1/tables/{row['id']}"
    return response


@blp.get("")
@blp.response(200, TableListSchema)
@blp.doc(security=MAYBE_BEARER)
def list_tables():
    """桌的清單 Every table (a table token sees its own)."""
    principal = auth.check_read("tables")
    rows = ts.list_tables(get_db())
    if principal is not None and principal.role == "table":
        rows = [r for r in rows if r["id"] == principal.table]
    return jsonify({"tables": rows})


@blp.get("/<table_id>")
@blp.response(200, TableDetailSchema)
@blp.doc(security=MAYBE_BEARER)
def get_table(table_id: str):
    """一張桌 A table: settings, the position expected next, money per seat."""
    auth.check_read("tables", table_id)
    row = _table_or_404(table_id)
    db = get_db()
    head = ts.stream_head(db, table_id)
    nxt = (FIRST_HAND, FIRST_SEQ) if head is None else (head[0], head[1] + 1)
    hands = ts.hand_count(db, table_id)
    return jsonify({**row, "next": {"hand": nxt[0], "seq": nxt[1]}, "hands": hands,
                    "totals": table_totals(db, table_id)})


@blp.post("/<table_id>/events")
@blp.response(200, IngestAnswerSchema)
@blp.doc(
    security=BEARER,
    requestBody={
        "required": True,
        "content": {"application/json": {"schema": {"oneOf": [{"$ref": "#/components/schemas/Event"},
                                                              {"$ref": "#/components/schemas/EventBatch"}]}}},
        "description": "一個事件，或 {\"events\": [...]} 一批（全收或全不收）one event, or a batch (all or nothing)",
    },
)
@blp.alt_response(409, description="序號缺漏或衝突 a gap or a clash: "
                                   "expected_hand / expected_seq name the position expected")
@blp.doc(**links(200, **{name: link(f"/api/v1/tables/{{table_id}}/hands/{{hand}}{tail}", "get",
                                    table_id="$request.path.table_id", hand="$response.body#/results/0/hand")
                         for name, tail in (("GetHand", ""), ("ReplayHand", "/replay"))}))
def post_events(table_id: str):
    """即時事件 Live ingest: one event or a batch; each event's verdict and any rulings.

    Idempotent by (hand, seq): the same event again gets the stored answer (``duplicate``);
    another body at a stored position, or a gap, is a 409 naming the position expected.
    """
    principal = auth.check_post_events(table_id)
    live = service()
    table = live.table_row(table_id, get_db)
    raws, batch = split_body(request.get_json(silent=True))
    answer = live.ingest(table_id, table, raws, batch=batch, actor=principal.id, open_db=get_db)
    return current_app.response_class(answer.to_json(), mimetype="application/json")


def split_body(body: object) -> tuple[list, bool]:
    """The posted events and whether they came as a batch.

    :raises ApiProblem: 400 for a body that is neither an event nor ``{"events": [...]}``.
    """
    if isinstance(body, dict) and "events" in body and "type" not in body:
        raws = body["events"]
        if not isinstance(raws, list) or not raws:
            raise bad_request("invalid_body", "events", "events must be a non-empty list",
                              "events 須為非空的清單")
        if len(raws) > MAX_BATCH:
            raise bad_request("batch_too_large", "events", f"at most {MAX_BATCH} events in one request",
                              f"一次最多 {MAX_BATCH} 個事件")
        return raws, True
    if isinstance(body, dict):
        return [body], False
    raise bad_request("invalid_body", "body", "the body must be one event (a JSON object) or {\"events\": [...]}",
                      "請求內容須為一個事件（JSON 物件）或 {\"events\": [...]}")


@blp.get("/<table_id>/events")
@blp.arguments(HistoryQuerySchema, location="query")
@blp.response(200, HistorySchema)
@blp.doc(security=MAYBE_BEARER)
def table_events(query: dict, table_id: str):
    """事件紀錄 The table's log in arrival order, each event with the answer it got."""
    auth.check_read("events", table_id)
    _table_or_404(table_id)
    stream = None if query["stream"] == "all" else query["stream"]
    rows = ts.events(get_db(), table_id, hand=query.get("hand"), stream=stream, after_id=query["after"],
                     limit=query["limit"])
    return jsonify({"table": table_id, "events": rows})


@blp.get("/<table_id>/state")
@blp.response(200, StateSchema)
@blp.doc(security=MAYBE_BEARER)
def table_state(table_id: str):
    """目前狀態 The current hand as the referee sees it (replayed from the log)."""
    auth.check_read("events", table_id)
    table = _table_or_404(table_id)
    head = ts.stream_head(get_db(), table_id)
    if head is None:
        return jsonify({"table": table_id, "hand": None, "seq": None, "state": {}})
    referee, _ = replay_hand(table, head[0], ts.play_bodies(get_db(), table_id, head[0]))
    return jsonify({"table": table_id, "hand": head[0], "seq": head[1], "state": referee.snapshot(),
                    "ended": referee.ended, "outcome": referee.outcome})


@blp.get("/<table_id>/hands")
@blp.response(200, HandListSchema)
@blp.doc(security=MAYBE_BEARER)
def table_hands(table_id: str):
    """牌局紀錄 Hand history: each hand's events, outcome and money (overrides applied)."""
    auth.check_read("tables", table_id)
    _table_or_404(table_id)
    db = get_db()
    projected = ts.hands(db, table_id)
    hands = []
    for entry in ts.hand_index(db, table_id):
        p = projected.get(entry["hand"], {"ended": False, "outcome": None, "payments": [0, 0, 0, 0]})
        hands.append({**entry, "ended": p["ended"], "outcome": p["outcome"], "payments": p["payments"]})
    return jsonify({"table": table_id, "hands": hands, "totals": table_totals(db, table_id)})


@blp.get("/<table_id>/hands/<int(max=2147483647):hand>")
@blp.response(200, HandDetailSchema)
@blp.doc(security=MAYBE_BEARER)
def table_hand(table_id: str, hand: int):
    """一盤 One hand: its events with their answers, rulings (after overrides), overrides, money."""
    auth.check_read("events", table_id)
    _table_or_404(table_id)
    _hand_or_404(table_id, hand)
    db = get_db()
    p = ts.hands(db, table_id).get(hand, {"ended": False, "outcome": None, "payments": [0, 0, 0, 0]})
    return jsonify({"table": table_id, "hand": hand, "events": ts.events(db, table_id, hand=hand, stream=None),
                    "rulings": ts.rulings(db, table_id=table_id, hand=hand),
                    "overrides": ts.overrides(db, table_id, hand=hand), **p})


@blp.get("/<table_id>/hands/<int(max=2147483647):hand>/replay")
@blp.arguments(ReplayQuerySchema, location="query")
@blp.response(200, ReplaySchema)
@blp.doc(security=MAYBE_BEARER)
def replay(query: dict, table_id: str, hand: int):
    """重播 Replay a stored hand through the referee (up to ``upto``): answers, state, outcome."""
    auth.check_read("events", table_id)
    table = _table_or_404(table_id)
    bodies = _hand_or_404(table_id, hand)
    referee, answers = replay_hand(table, hand, bodies, upto=query.get("upto"), names=table_names(get_db(), table))
    return jsonify({"table": table_id, "hand": hand, "answers": answers, "state": referee.snapshot(),
                    "ended": referee.ended, "outcome": referee.outcome, "rulings": referee.rulings})


# --- CLI ----------------------------------------------------------------------------------

tables_cli = AppGroup("tables", help="桌與事件紀錄 Tables and the event log.")


@tables_cli.command("rebuild")
@click.option("--table", "table_id", default=None, help="只重建這張桌 one table only")
def rebuild_command(table_id: str | None) -> None:
    """由事件紀錄重建投影（盤、裁定、覆判、金額）。Rebuild the projections (hands, rulings,
    overrides, money) by replaying the event log."""

    emit(get_writer().submit(lambda tx: service().rebuild(tx.db, table_id)))


# --- the live-ingest fast path ----------------------------------------------------------------

_EVENTS_PATH = re.compile(r"^/api/v1/tables/([^/]+)/events$")


class IngestFastPath:
    """WSGI middleware in front of Flask for ``POST /api/v1/tables/{id}/events`` only.

    Why: live ingest is the one hot request (issue #6: 1,500 events/s on two cores), and
    Flask's request and response machinery (context, routing, flask-smorest wrappers,
    werkzeug request and response objects) costs about as much CPU as the ingest itself.
    This does what :func:`post_events` does with the same functions — token (cached by
    hash), table, :func:`split_body`, :meth:`services.live.LiveService.ingest` — straight on
    the WSGI environ.

    Anything unusual goes to Flask unchanged, so every answer but the plain 200 comes from
    the one place it always did: no or a bad ``Authorization``, another content type, a
    body not JSON (:func:`api.intake.loads`: too deep, a lone surrogate ...) or neither an
    event nor a batch, an unknown table. The token is checked before the body is read
    (auth first, issue #12 item 5): a refused request goes to Flask with its body unread.
    A body over ``MAX_CONTENT_LENGTH`` never gets here (:class:`api.intake.BodyLimit`, in
    front). An error raised by the ingest itself (409, a 400 naming the event's field, 503)
    is answered by :func:`api.handle_error`, the app's one problem+json handler.
    """

    def __init__(self, app: Flask, wsgi_app):
        self.app = app
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict, start_response):
        if environ.get("REQUEST_METHOD") != "POST":
            return self.wsgi_app(environ, start_response)
        match = _EVENTS_PATH.match(environ.get("PATH_INFO", ""))
        if match is None or environ.get("SCRIPT_NAME"):
            return self.wsgi_app(environ, start_response)
        try:
            return self._ingest(match.group(1), environ, start_response)
        finally:
            release_reader(self.app)  # a pooled (PostgreSQL) connection goes back to the pool

    def _ingest(self, table_id: str, environ: dict, start_response):
        app = self.app
        header = environ.get("HTTP_AUTHORIZATION")
        ctype = environ.get("CONTENT_TYPE", "")
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            length = -1
        if (header is None or not 0 < length <= app.config["MAX_CONTENT_LENGTH"]
                or environ.get("HTTP_TRANSFER_ENCODING")
                or ctype.partition(";")[0].strip().lower() != "application/json"):
            return self.wsgi_app(environ, start_response)
        live: LiveService = app.extensions["mjref.live"]
        open_db = functools.partial(reader, app, check=False)  # the token's read checks it (store.db.reader)
        # the token first: a request refused (401, 403) is refused before its body is read.
        # A token the cache holds is taken without reading the revocation count (PostgreSQL):
        # the write reads it in its own transaction and refuses if it moved since the cache
        # was checked (RevocationsMoved, below) — one round trip and one pooled read
        # connection less per post (issue #16 item 5), a revoked token still refused at once.
        cached = auth.cached_principal(header, app)
        principal, revocations = cached if cached is not None else (None, None)
        try:
            if principal is None:
                principal = auth.principal_of(header, app, open_db)
        except (ApiProblem, *DATABASE_ERRORS):
            return self.wsgi_app(environ, start_response)  # 401 (or 503: the database gone) from Flask
        if principal.role not in ("table", "official", "admin") or (
                principal.role == "table" and principal.table != table_id):
            return self.wsgi_app(environ, start_response)  # 403 from Flask
        data = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(data)  # Flask reads the same body if the request falls back
        try:
            table = live.table_row(table_id, open_db)
            raws, batch = split_body(intake.loads(data))  # too deep, a lone surrogate: Flask's 400 names it
        except (ValueError, ApiProblem, *DATABASE_ERRORS):  # not JSON, no such table, a bad body; Flask answers
            return self.wsgi_app(environ, start_response)
        try:
            answer = live.ingest(table_id, table, raws, batch=batch, actor=principal.id, open_db=open_db,
                                 revocations=revocations)
        except RevocationsMoved:  # nothing stored: Flask reads the count, drops the cache, and answers
            return self.wsgi_app(environ, start_response)
        except (MjrefError, HTTPException, StoreUnavailableError) as error:
            if not self._still_valid(header, revocations, open_db):
                return self.wsgi_app(environ, start_response)  # revoked since it was cached: Flask's 401
            from api import handle_error

            with app.app_context():
                response = handle_error(error)
            return response(environ, start_response)
        except Exception:  # noqa: BLE001 - a bug: Flask runs the request again and answers it (500, logged)
            return self.wsgi_app(environ, start_response)
        if not answer.stored and not self._still_valid(header, revocations, open_db):
            return self.wsgi_app(environ, start_response)  # revoked since it was cached: Flask's 401
        body = answer.to_json().encode("utf-8")
        start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
        return [body]


    def _still_valid(self, header: str, revocations: int | None, open_db) -> bool:
        """Whether a post that wrote nothing may be answered here: its token was read this
        request (*revocations* ``None``), or, taken from the cache without a read, it is still
        live now. A post answered without a write (resends only, answered from the log; a 400
        or 409 from the ingest) has no write batch to compare the revocation count
        (``Tx.revocations``): without this a token revoked through another server would be
        answered the table's stored answers or head until its cache entry expired."""
        if revocations is None:
            return True
        try:
            auth.principal_of(header, self.app, open_db)  # reads the count; looks the token up if it moved
        except (ApiProblem, *DATABASE_ERRORS):
            return False
        return True


def init_app(app: Flask, api) -> None:
    app.wsgi_app = IngestFastPath(app, app.wsgi_app)
    app.extensions["mjref.live"] = LiveService(get_writer(app))
    api.spec.defer(lambda: api.spec.components.schema("Event", schema=EventSchema))
    api.spec.defer(lambda: api.spec.components.schema("EventBatch", schema=EventBatchSchema))

"""HTTP and CLI surface of mjref: blueprints, ``flask`` commands, the one error handler.

Every error leaves as ``application/problem+json`` (RFC 9457)::

    {"type", "title", "status", "code", "field", "detail", "detail_zh"}

A :class:`referee.errors.MjrefError` (bad input caught by the domain code) is a 400;
werkzeug's HTTP errors (404, 405, a malformed JSON body...) keep their status; an
:class:`services.problems.ApiProblem` (401, 403, 409 ...) carries its own members; a body or
query that fails a flask-smorest schema is a 400 naming the field, like a
:class:`marshmallow.ValidationError`; a database that cannot commit is a 503.

Before any of that a request passes :mod:`api.intake` (its body within
``MAX_CONTENT_LENGTH`` or a 413 unread; JSON bodies decoded by one decoder refusing depth
past 32, lone surrogates, ``NaN``) and its blueprint's :func:`api.auth.guard` (the token
checked before the body is read or validated: 401, 403).

The OpenAPI spec is served at ``/openapi.json`` and Swagger UI at ``/docs`` (:mod:`api.openapi`).
flask-smorest's ``Api`` registers its own HTTPException handler: ours is registered
after it, so ours wins.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from services.validation import first_error, reason_zh
from referee.errors import MjrefError

if TYPE_CHECKING:  # imported where used: ``mjref analyze|score`` (the calculators) needs neither Flask nor OpenAPI
    from flask import Flask, Response
    from marshmallow import ValidationError
    from werkzeug.exceptions import HTTPException

    from store import StoreUnavailableError

#: zh-TW titles of the HTTP errors we expect; others fall back to werkzeug's English name
_HTTP_TITLES_ZH = {
    400: "請求錯誤",
    404: "找不到資源",
    405: "不允許的方法",
    413: "請求內容過大",
    415: "不支援的內容類型",
    422: "內容無法處理",
    500: "伺服器內部錯誤",
}


def problem(exc: MjrefError | HTTPException) -> tuple[dict, int]:
    """The problem+json body and status for an error."""
    from services.problems import ApiProblem
    from store import StoreUnavailableError

    if isinstance(exc, ApiProblem):
        return exc.body(), exc.code
    if isinstance(exc, StoreUnavailableError):
        return {
            "type": "urn:mjref:problem:store_unavailable",
            "title": "服務暫時無法使用 Service Unavailable",
            "status": 503,
            "code": "store_unavailable",
            "field": None,
            "detail": "the database could not commit; nothing of this request was stored, retry it",
            "detail_zh": "資料庫暫時無法寫入；此請求未儲存任何內容，請重送",
        }, 503
    if isinstance(exc, MjrefError):
        return {
            "type": f"urn:mjref:problem:{exc.code}",
            "title": "輸入無效 Invalid input",
            "status": 400,
            **exc.to_dict(),
        }, 400
    status = exc.code or 500
    title_zh = _HTTP_TITLES_ZH.get(status, exc.name)
    body = {
        "type": "about:blank",
        "title": f"{title_zh} {exc.name}",
        "status": status,
        "code": exc.name.lower().replace(" ", "_").replace("'", ""),
        "field": None,
        "detail": exc.description,
        "detail_zh": title_zh,
    }
    messages = (getattr(exc, "data", None) or {}).get("messages")
    if messages:  # webargs/flask-smorest validation errors: name the field, like ValidationError
        return _webargs_problem(messages, status)
    return body, status


def _webargs_problem(messages: dict, status: int) -> tuple[dict, int]:
    """webargs nests messages under the location (``{"json": {"tiles": [...]}}``); the field
    is named without it, a body that is not an object is ``body``."""
    from marshmallow import ValidationError

    inner = messages
    if isinstance(messages, dict) and len(messages) == 1:
        location, inner = next(iter(messages.items()))
        if not isinstance(inner, dict):
            inner = {"body" if location == "json" else location: inner}
    if isinstance(inner, dict) and "_schema" in inner:
        inner = {"body": inner["_schema"], **{k: v for k, v in inner.items() if k != "_schema"}}
    body, _ = validation_problem(ValidationError(inner))
    body["status"] = status
    return body, status


def validation_problem(exc: ValidationError) -> tuple[dict, int]:
    """The problem+json body for a body that fails its schema: 400, naming the field
    (``tables[0].seats``) and the reason in zh-TW and English (:mod:`services.validation`)."""
    messages = exc.normalized_messages()
    field, reason = first_error(messages)
    return {
        "type": "urn:mjref:problem:invalid_body",
        "title": "輸入無效 Invalid input",
        "status": 400,
        "code": "invalid_body",
        "field": field,
        "detail": f"invalid field {field!r}: {reason}",
        "detail_zh": f"欄位「{field}」：{reason_zh(reason)}",
        "errors": messages,
    }, 400


def handle_error(exc: MjrefError | HTTPException | ValidationError | StoreUnavailableError) -> Response:
    from flask import jsonify
    from marshmallow import ValidationError
    from werkzeug.exceptions import HTTPException

    from store import StoreUnavailableError

    body, status = validation_problem(exc) if isinstance(exc, ValidationError) else problem(exc)
    response = jsonify(body)
    response.status_code = status
    response.mimetype = "application/problem+json"
    if isinstance(exc, StoreUnavailableError):
        response.headers["Retry-After"] = "1"
    if isinstance(exc, HTTPException):
        for name, value in exc.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value  # e.g. Allow on a 405
    return response


def init_app(app: Flask) -> None:
    from marshmallow import ValidationError
    from werkzeug.exceptions import HTTPException

    from api import adjudications, analysis, auth, cli, clocks, health, intake, openapi, overrides, rulesets, rulings
    from api import scoring, tables, tournament_matches, tournaments
    from services.schemas import register_components
    from store import StoreUnavailableError
    from store.dialect import CONNECTION_ERRORS

    intake.init_app(app)  # MAX_CONTENT_LENGTH, and the one JSON decoder of request bodies
    spec = openapi.configure(app)  # flask-smorest: /openapi.json, /docs (its error handler is replaced below)
    auth.init_app(app)
    tables.init_app(app, spec)  # the live-ingest fast path in front of Flask
    app.wsgi_app = intake.BodyLimit(app, app.wsgi_app)  # in front of both: 413 before a body is read
    app.register_blueprint(health.bp)
    spec.register_blueprint(analysis.bp)
    spec.register_blueprint(rulesets.bp)
    spec.register_blueprint(scoring.bp)
    spec.spec.defer(lambda: spec.spec.components.schema("Score", schema=scoring.ScoreSchema))
    spec.spec.defer(lambda: register_components(spec.spec))  # RulesetParams, PatternCode (services.schemas)
    spec.register_blueprint(auth.blp)
    spec.register_blueprint(tables.blp)
    spec.register_blueprint(overrides.blp)
    spec.register_blueprint(rulings.bp)  # POST /api/v1/rulings (issue #5, penalties)
    spec.register_blueprint(adjudications.bp)  # POST /api/v1/adjudications (issue #4, referee)
    spec.register_blueprint(clocks.blp)  # /api/v1/tournaments/{id}/clock (issue #7, clocks)
    spec.register_blueprint(tournaments.blp)  # /api/v1/tournaments (issue #7)
    spec.register_blueprint(tournament_matches.blp)  # a 將's 圈, dealer and streak (issue #15)
    app.register_error_handler(StoreUnavailableError, handle_error)
    for lost in CONNECTION_ERRORS:  # a read that finds PostgreSQL gone: 503 too (store.dialect)
        app.register_error_handler(lost, lambda exc: handle_error(StoreUnavailableError(exc)))
    app.register_error_handler(MjrefError, handle_error)
    app.register_error_handler(ValidationError, handle_error)
    app.register_error_handler(HTTPException, handle_error)
    cli.init_app(app)

"""OpenAPI 3 from the marshmallow schemas (flask-smorest), and the docs page.

* ``GET /openapi.json`` — the spec, generated from the blueprints' schemas;
* ``GET /docs`` — Swagger UI; its assets are served from the ``swagger-ui-bundle``
  package at ``/docs/assets/`` (no CDN: the page works offline). The page is ours
  (:data:`SWAGGER_PAGE`), not flask-smorest's, whose inline script the pages' Content-Security-Policy
  (:mod:`web.headers`) would refuse: Swagger UI starts from ``/docs/init.js``
  (``api/static/swagger-init.js``), its settings in the page as data.

Blueprints that want to be in the spec use :class:`Blueprint` from here (flask-smorest's,
with validation errors as 400 like the rest of the API) and are registered with
:func:`register`. Errors are documented as ``application/problem+json``
(:class:`ProblemSchema`); the one error handler in :mod:`api` writes them.
"""
from __future__ import annotations

import http
import threading
from typing import Any
from functools import partial
from pathlib import Path

import apispec
import flask_smorest
from apispec import BasePlugin
from flask import Flask, abort, render_template_string, send_from_directory, url_for
from flask_smorest.utils import prepare_response
from marshmallow import Schema, fields, validate
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request

from api import intake

API_VERSION = "1"
PROBLEM_JSON = "application/problem+json"
#: the security requirement of endpoints that need a token
BEARER = [{"bearerAuth": []}]
#: endpoints whose reads are public or not, as configured (``PUBLIC_READS``)
MAYBE_BEARER = [{}, {"bearerAuth": []}]


class ProblemSchema(Schema):
    """錯誤 An error (RFC 9457 problem+json), in zh-TW and English."""

    type = fields.String(required=True, metadata={"description": "問題種類 URI, e.g. urn:mjref:problem:seq_gap"})
    title = fields.String(required=True, metadata={"description": "標題 title, zh-TW then English"})
    status = fields.Integer(required=True, metadata={"description": "HTTP status"})
    code = fields.String(required=True, validate=validate.Length(min=1),
                         metadata={"description": "穩定代碼 stable ASCII code"})
    field = fields.String(required=True, allow_none=True, metadata={"description": "出錯的欄位 the field at fault"})
    detail = fields.String(required=True, validate=validate.Length(min=1), metadata={"description": "English reason"})
    detail_zh = fields.String(required=True, validate=validate.Length(min=1),
                              metadata={"description": "中文說明 zh-TW reason"})
    errors = fields.Dict(metadata={"description": "每個欄位的錯誤 every invalid field"})
    expected_seq = fields.Integer(metadata={"description": "409: 應收到的 seq the seq expected next"})
    expected_hand = fields.Integer(metadata={"description": "409: 應收到的 hand the hand expected"})


class SchemaRulesPlugin(BasePlugin):
    """apispec plugin: a marshmallow schema's ``OPENAPI_RULES`` (JSON Schema keywords such
    as ``anyOf`` / ``oneOf``) join its component, for the rules its ``@validates_schema``
    checks across fields, so that the spec calls valid only what the server accepts."""

    def schema_helper(self, name, definition, **kwargs):
        schema = kwargs.get("schema")
        cls = schema if isinstance(schema, type) else type(schema)
        return dict(getattr(cls, "OPENAPI_RULES", None) or {}) or None


class _Parser(FlaskParser):
    #: a body or query that fails its schema is a 400 naming the field, like every bad input
    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req):
        """The body through the API's one JSON decoder (:func:`api.intake.loads`: too deep,
        a lone surrogate ... a 400 naming the field)."""
        if not is_json_request(req):
            return missing
        return intake.loads(req.get_data(cache=True))


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with the API's validation status (400); an error response
    documented with :meth:`alt_response` is problem+json unless told otherwise."""

    ARGUMENTS_PARSER = _Parser()

    def register_views_in_doc(self, api, app, spec, *, name, parameters):
        """Written into the spec when it is first read (:class:`DeferredSpec`), not now."""
        spec.defer(partial(super().register_views_in_doc, api, app, spec, name=name, parameters=parameters))

    def alt_response(self, status_code, response=None, *, schema=None, content_type=None, **kwargs):
        if response is None and schema is None and int(status_code) >= 400:
            schema, content_type = ProblemSchema, content_type or PROBLEM_JSON
        return super().alt_response(status_code, response, schema=schema, content_type=content_type, **kwargs)


def link(path: str, method: str, description: str = "", **parameters: str) -> dict:
    """An OpenAPI link to the operation *method* *path*, its parameters taken from this
    response or request (``table_id="$response.body#/id"``): the stateful checks follow
    them (create a table, then post its events, read it ...)."""
    pointer = path.replace("~", "~0").replace("/", "~1")
    out = {"operationRef": f"#/paths/{pointer}/{method.lower()}", "parameters": parameters}
    if description:
        out["description"] = description
    return out


def links(status: int, **named: dict) -> dict:
    """``@blp.doc(**links(201, GetTable=link(...)))``: links on one response."""
    return {"responses": {status: {"links": named}}}


class DeferredSpec(apispec.APISpec):
    """apispec's spec, whose views and components are written in when it is first read.

    Writing the documentation of every route resolves each marshmallow schema into JSON
    Schema: about half of :func:`app.create_app`'s time, paid by every server process, every
    CLI command and every test, while the spec is read only by ``GET /openapi.json``,
    ``/docs`` and ``flask openapi``. So :class:`Blueprint` and :func:`api.init_app` hand their
    parts to :meth:`defer`, and :meth:`to_dict` (the one way in for every reader) writes them
    in first, in the order they came: the document is the one written at once (checked
    equal as JSON when this was made; only flask-smorest's ``PaginationMetadata`` component
    now comes first). ``tests/test_app.py`` checks that start-up leaves it unwritten and
    that, once read, it has every ``/api`` route and the components."""

    def defer(self, step) -> None:
        """Run ``step()`` (a part of the spec's writing) before the spec is first read."""
        self._deferred.append(step)

    def write_deferred(self) -> None:
        """Write in every deferred part now (once; safe from several threads)."""
        with self._deferred_lock:
            while self._deferred:
                self._deferred.pop(0)()

    def to_dict(self) -> dict:
        self.write_deferred()
        return without_nul(super().to_dict())


#: what a free text may hold: anything but U+0000 (PostgreSQL cannot store it; the server refuses
#: it on both backends, ``api.intake``, ``nul_character``)
NUL_FREE = r"^[^\u0000]*$"


def without_nul(spec: Any) -> Any:
    """*spec* with :data:`NUL_FREE` as the ``pattern`` of every free-text string schema (one with
    no ``enum``, ``const``, ``pattern`` or ``format`` of its own), so the spec calls valid only
    what the server accepts. Changes *spec* in place; returns it."""
    if isinstance(spec, dict):
        if spec.get("type") == "string" and not spec.keys() & {"enum", "const", "pattern", "format"}:
            spec["pattern"] = NUL_FREE
        for value in spec.values():
            without_nul(value)
    elif isinstance(spec, list):
        for value in spec:
            without_nul(value)
    return spec


class Api(flask_smorest.Api):
    """flask-smorest's Api documenting errors as problem+json, its spec a :class:`DeferredSpec`."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self):
        # flask-smorest calls this as it makes the spec: the moment to make the spec ours
        # (a subclass with no other state than its deferred parts)
        self.spec.__class__ = DeferredSpec
        self.spec._deferred = []
        self.spec._deferred_lock = threading.Lock()
        self.spec.defer(self._write_responses)

    def _write_responses(self):
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "錯誤 Error (problem+json)", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


_DESCRIPTION = """臺灣十六張麻將裁判與賽事服務。A referee and tournament service for Taiwanese 16-tile mahjong.

認證 Auth: `Authorization: Bearer <token>`; tokens come from `flask --app app tokens create --role ...`
(roles `table`, `official`, `admin`). Which reads need no token is configuration (`MJREF_PUBLIC_READS`).
Errors are `application/problem+json` with `code`, `field`, `detail` (English) and `detail_zh`.
See docs/api.md."""


STATIC = Path(__file__).resolve().parent / "static"

#: the /docs page: Swagger UI's files and our start-up script, no inline script or style
SWAGGER_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}</title>
<link href="{{ assets }}swagger-ui.css" rel="stylesheet">
</head>
<body>
<div id="swagger-ui-container" data-config="{{ config | tojson | forceescape }}"></div>
<script src="{{ assets }}swagger-ui-bundle.js"></script>
<script src="{{ assets }}swagger-ui-standalone-preset.js"></script>
<script src="{{ url_for('swagger_ui_init') }}"></script>
</body>
</html>
"""


def configure(app: Flask) -> Api:
    """Set the OpenAPI config (unless given) and create the :class:`Api`."""
    defaults = {
        "API_TITLE": "mjref 麻將裁判 API",
        "API_VERSION": API_VERSION,
        "OPENAPI_VERSION": "3.0.3",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        "OPENAPI_SWAGGER_UI_PATH": "/docs",
        "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",
        "API_SPEC_OPTIONS": {
            "info": {"description": _DESCRIPTION},
            "components": {
                "securitySchemes": {
                    "bearerAuth": {"type": "http", "scheme": "bearer", "description": "mjref API token"}
                }
            },
        },
    }
    for key, value in defaults.items():
        app.config.setdefault(key, value)
    api = Api(app, spec_kwargs={"extra_plugins": [SchemaRulesPlugin()]})

    @app.get("/docs/assets/<path:filename>")
    def swagger_ui_assets(filename: str):
        """Swagger UI's files, from the swagger-ui-bundle package."""
        try:
            from swagger_ui_bundle import swagger_ui_path
        except ImportError:  # pragma: no cover - a broken install
            abort(404)
        return send_from_directory(str(swagger_ui_path), filename, max_age=86400)

    @app.get("/docs/init.js")
    def swagger_ui_init():
        """The script that starts Swagger UI on /docs (a file: no inline script runs)."""
        return send_from_directory(STATIC, "swagger-init.js", mimetype="text/javascript")

    def swagger_ui():
        config = {"url": url_for("api-docs.openapi_json"), "validatorUrl": None,
                  **app.config.get("OPENAPI_SWAGGER_UI_CONFIG", {})}
        return render_template_string(SWAGGER_PAGE, title=app.config["API_TITLE"],
                                      assets=app.config["OPENAPI_SWAGGER_UI_URL"], config=config)

    app.view_functions["api-docs.openapi_swagger_ui"] = swagger_ui
    return api

"""Hostile and careless clients (issue #12 items 3–5): the body limit, inputs that gave a 500
or a dropped connection, and auth before anything reads a body.

The real app on a real SQLite file; the WSGI app called directly where a test must see
whether the body was read; a real server (``python -m mjref.serve``: uWSGI and the
live-ingest fast path) for what only a server shows.
"""
from __future__ import annotations

import io
import json
import re
import socket
import time

import pytest
from hypothesis import given, settings, strategies as st
from werkzeug.test import EnvironBuilder, run_wsgi_app

from api import intake
from api.intake import MAX_JSON_DEPTH, check_json_text
from api.openapi import NUL_FREE
from app import create_app
from tests.servicekit import (  # noqa: F401
    sql_rows,
    admin, bearer, create_table, free_port, hand_events, make_token, official, request, start_server,
)

LIMIT = 4 * 1024 * 1024
DEEP = "[" * 100_000 + "]" * 100_000


class Untouchable(io.RawIOBase):
    """A request body that must not be read: reading it fails the test."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise AssertionError("the body was read")


class Endless(io.RawIOBase):
    """A streaming body that never ends; counts what was read."""

    def __init__(self):
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = len(buffer)
        buffer[:n] = b" " * n
        self.read_bytes += n
        if self.read_bytes > 64 * 1024 * 1024:
            raise AssertionError("the whole streaming body was read")
        return n


def call(app, path: str, *, method: str = "POST", headers: dict | None = None, body=None, length: int | None = None,
         chunked: bool = False) -> tuple[int, dict, dict]:
    """Call the app's WSGI entry with a body stream of our own: the status, headers, JSON answer."""
    environ = EnvironBuilder(path=path, method=method, headers={"Content-Type": "application/json", **(headers or {})},
                             data=b"").get_environ()
    environ["wsgi.input"] = body if body is not None else io.BytesIO()
    if chunked:
        environ.pop("CONTENT_LENGTH", None)
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        environ["wsgi.input_terminated"] = True  # as werkzeug's server says of the chunks it decodes
    elif length is not None:
        environ["CONTENT_LENGTH"] = str(length)
    app_iter, status, response_headers = run_wsgi_app(app, environ, buffered=True)
    payload = b"".join(app_iter)
    return int(status.split()[0]), dict(response_headers), json.loads(payload) if payload else {}


def stored(app, sql: str) -> list:
    return sql_rows(app.config["DATABASE"], sql)


# ==========================================================================================
# 3. The body limit
# ==========================================================================================


def test_the_documented_default_limit_holds_and_is_configurable(tmp_path):
    assert create_app({"DATABASE": str(tmp_path / "a.sqlite3")}).config["MAX_CONTENT_LENGTH"] == LIMIT
    assert create_app({"DATABASE": str(tmp_path / "b.sqlite3"), "MAX_CONTENT_LENGTH": 1000}).config[
        "MAX_CONTENT_LENGTH"] == 1000
    with pytest.raises(ValueError, match="MAX_CONTENT_LENGTH"):
        create_app({"DATABASE": str(tmp_path / "c.sqlite3"), "MAX_CONTENT_LENGTH": "big"})


@pytest.mark.parametrize("method, path", [
    ("POST", "/api/v1/tables"),
    ("POST", "/api/v1/tables/T1/events"),  # the live-ingest fast path
    ("POST", "/api/v1/analyze"),
    ("POST", "/api/v1/adjudications"),
    ("PUT", "/api/v1/tournaments/t1/clock"),
    ("GET", "/health"),
])
def test_a_body_over_the_limit_is_a_413_problem_and_is_not_read(app, official, client, method, path):
    create_table(client, official, "T1")
    status, headers, problem = call(app, path, method=method, headers=official, body=Untouchable(), length=LIMIT + 1)
    assert status == 413 and headers["Content-Type"] == "application/problem+json"
    assert problem["code"] == "body_too_large" and problem["field"] == "body" and str(LIMIT) in problem["detail"]
    assert problem["detail_zh"].startswith("請求內容超過") and headers["Connection"] == "close"


def test_the_limit_is_the_configured_one(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "m.sqlite3"), "MAX_CONTENT_LENGTH": 1000})
    headers = bearer(make_token(app.config["DATABASE"], "official"))
    body = b'{"id": "T1"}'.ljust(1000)  # JSON may end in white space
    assert app.test_client().post("/api/v1/tables", data=body, headers={**headers, "Content-Type": "application/json"}
                                  ).status_code == 201
    too_big = b'{"id": "T2"}'.ljust(1001)
    response = app.test_client().post("/api/v1/tables", data=too_big,
                                      headers={**headers, "Content-Type": "application/json"})
    assert response.status_code == 413 and response.get_json()["code"] == "body_too_large"
    assert [r[0] for r in stored(app, "SELECT id FROM tables")] == ["T1"]


def test_a_streaming_body_past_the_limit_is_refused_without_reading_it_all(app, official):
    endless = Endless()
    status, _headers, problem = call(app, "/api/v1/tables", headers=official, body=endless, chunked=True)
    assert status == 413 and problem["code"] == "body_too_large"
    assert LIMIT < endless.read_bytes <= LIMIT + 65536  # stopped at the limit


def test_a_streaming_body_within_the_limit_is_read(app, official):
    body = io.BytesIO(json.dumps({"id": "T7", "name": "串流"}).encode())
    status, _headers, row = call(app, "/api/v1/tables", headers=official, body=body, chunked=True)
    assert status == 201 and row["id"] == "T7" and row["name"] == "串流"


# ==========================================================================================
# 4. Inputs that gave a 500 or a dropped connection
# ==========================================================================================


def test_a_lone_surrogate_is_a_400_naming_the_field_and_nothing_is_stored(client, official, app):
    for raw, field in [('{"id": "T1", "name": "\\ud800"}', "name"),
                       ('{"id": "T1", "name": "ok \\udc00 tail"}', "name"),
                       ('{"id": "T1", "params": {"x": ["\\ud83c"]}}', "params.x[0]")]:
        response = client.post("/api/v1/tables", data=raw, headers={**official, "Content-Type": "application/json"})
        problem = response.get_json()
        assert response.status_code == 400 and problem["code"] == "lone_surrogate" and problem["field"] == field, raw
        assert problem["detail_zh"].startswith(field)
    assert stored(app, "SELECT id FROM tables") == []
    # a pair is a character (🀄, U+1F004), and an escaped backslash is no escape at all
    ok = client.post("/api/v1/tables", data='{"id": "T1", "name": "\\ud83c\\udc04 \\\\ud800"}',
                     headers={**official, "Content-Type": "application/json"})
    assert ok.status_code == 201 and ok.get_json()["name"] == "🀄 \\ud800"


@pytest.mark.parametrize("path, raw, field", [
    ("/api/v1/tables", '{"id": "T2", "name": "a\\u0000b"}', "name"),
    ("/api/v1/tables", '{"id": "T2", "params": {"x": ["\\u0000"]}}', "params.x[0]"),
    ("/api/v1/tournaments", '{"id": "K1", "name": "盃\\u0000", "rounds": 1}', "name"),
    ("/api/v1/tokens", '{"role": "official", "label": "\\u0000"}', "label"),
    ("/api/v1/tables/T1/events", '{"events": [{"type": "note", "seq": 1, "hand": 1, "ts": 1, "note": "\\u0000"}]}',
     "events[0].note"),
    ("/api/v1/rulings", '{"type": "hand_start"}\n{"note": "x\\u0000"}\n', "line 2.note"),
])
def test_a_nul_character_is_a_400_naming_the_field_and_nothing_is_stored(client, official, admin, app, path, raw,
                                                                         field):
    """U+0000 in text: PostgreSQL cannot store it in a text column (a 500 there before), SQLite could:
    refused alike on both backends, naming the field (docs/api.md, Limits)."""
    create_table(client, official, "T1")
    before = {table: stored(app, f"SELECT COUNT(*) FROM {table}") for table in ("tables", "tokens", "events",
                                                                                "tournaments")}
    response = client.post(path, data=raw, headers={**admin, "Content-Type": "application/json"})
    problem = response.get_json()
    assert response.status_code == 400 and problem["code"] == "nul_character" and problem["field"] == field, raw
    assert problem["detail_zh"].startswith(field) and "NUL" in problem["detail"]
    assert before == {table: stored(app, f"SELECT COUNT(*) FROM {table}") for table in before}
    # an escaped backslash then text is no NUL
    ok = client.post("/api/v1/tables", data='{"id": "T3", "name": "\\\\u0000"}',
                     headers={**official, "Content-Type": "application/json"})
    assert ok.status_code == 201 and ok.get_json()["name"] == "\\u0000"


@pytest.mark.parametrize("method, path, field", [
    ("GET", "/api/v1/tables/a%00b", "path"), ("GET", "/api/v1/tournaments/a%00b", "path"),
    ("POST", "/api/v1/tables/a%00b/events", "path"),  # the live-ingest fast path
    ("GET", "/api/v1/rulings?table=a%00b", "table"), ("GET", "/api/v1/tables/T1/events?stream=x%00", "stream"),
])
def test_a_nul_character_in_the_url_is_a_400_naming_where(client, official, app, method, path, field):
    """U+0000 in the path or a query parameter: on PostgreSQL every route, reads included, was a
    500 (it cannot compare text holding one); a 400 naming the path or the parameter, on both."""
    create_table(client, official, "T1")
    response = client.open(path, method=method, headers=official, json={"events": []} if method == "POST" else None)
    problem = response.get_json()
    assert response.status_code == 400 and problem["code"] == "nul_character" and problem["field"] == field
    assert stored(app, "SELECT COUNT(*) FROM tables") == [(1,)]


@pytest.mark.parametrize("path, field", [("/t/a%00b/", "path"), ("/t/taipei/standings?x%00=1", "x\\u0000"),
                                         ("/tables/a%00b/", "path"), ("/?q=%00", "q")])
def test_a_nul_character_in_a_pages_url_is_its_error_page_naming_where(client, official, app, path, field):
    """The pages refuse a NUL in their URL as the API does, with their own error page (zh-TW first)."""
    response = client.get(path)
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and response.mimetype == "text/html"
    assert f"{field}：文字不得含 NUL 字元" in page


def test_the_spec_says_free_text_holds_no_nul(client):
    """The spec calls valid only what the server accepts (the API fuzz holds them together): every
    free-text string (no enum, const, format or pattern of its own) is NUL-free, path parameters too."""
    spec = client.get("/openapi.json").get_json()
    free = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") == "string" and not node.keys() & {"enum", "const", "format"}:
                free.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    assert len(free) > 50 and not any(re.search(node["pattern"], "a\x00b") for node in free)  # its own pattern too
    assert all(re.search(node["pattern"], "王小明 🀄") for node in free if node["pattern"] == NUL_FREE)
    (table_id,) = spec["paths"]["/api/v1/tables/{table_id}"]["parameters"]
    assert table_id["schema"]["pattern"] == NUL_FREE == "^[^\\u0000]*$"


def test_a_lone_surrogate_in_an_event_is_refused_by_the_fast_path_too(client, official, app):
    create_table(client, official, "T1")
    first = dict(hand_events(1)[0])
    raw = json.dumps(first)[:-1] + ', "note": "\\udfff"}'
    response = client.post("/api/v1/tables/T1/events", data=raw,
                           headers={**official, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.get_json()["field"] == "note"
    batch = '{"events": [%s]}' % raw
    response = client.post("/api/v1/tables/T1/events", data=batch,
                           headers={**official, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.get_json()["field"] == "events[0].note"
    assert stored(app, "SELECT COUNT(*) FROM events")[0][0] == 0


@pytest.mark.parametrize("path, body, field", [
    ("/api/v1/tables/T1/events", DEEP, "body"),
    ("/api/v1/tables/T1/events", '{"events": %s}' % DEEP, "events"),
    ("/api/v1/analyze", '{"tiles": %s}' % DEEP, "tiles"),
    ("/api/v1/analyze", DEEP, "body"),
    ("/api/v1/score", DEEP, "body"),
    ("/api/v1/tables", '{"id": "T2", "params": {"a": %s}}' % DEEP, "params.a"),
    ("/api/v1/adjudications", DEEP, "body"),
    ("/api/v1/rulings", '{"type": "hand_start"}\n{"deep": %s}\n' % DEEP, "line 2.deep"),
])
def test_json_nested_too_deep_is_a_400_naming_the_field(client, official, app, path, body, field):
    create_table(client, official, "T1")
    response = client.post(path, data=body, headers={**official, "Content-Type": "application/json"})
    problem = response.get_json()
    assert response.status_code == 400 and problem["code"] == "json_too_deep" and problem["field"] == field
    assert str(MAX_JSON_DEPTH) in problem["detail"] and "巢狀" in problem["detail_zh"]
    assert stored(app, "SELECT COUNT(*) FROM events")[0][0] == 0 and len(stored(app, "SELECT id FROM tables")) == 1


def test_a_query_parameter_read_as_json_is_checked_the_same(client):
    deep = client.get("/api/v1/rulesets/competition?hands.ligu=" + "[" * 5000 + "]" * 5000)
    assert deep.status_code == 400 and deep.get_json()["field"] == "params.hands.ligu"
    lone = client.get('/api/v1/rulesets/competition?hands.ligu=["\\ud800"]')
    assert lone.status_code == 400 and lone.get_json()["field"] == "params.hands.ligu[0]"
    assert client.get("/api/v1/rulesets/competition?hands.ligu=true").status_code == 200


def test_a_cli_label_that_is_not_text_is_refused_naming_it(app):
    result = app.test_cli_runner().invoke(args=["tokens", "create", "--role", "admin", "--label", "x\udcff"])
    assert result.exit_code == 2 and json.loads(result.stderr)["field"] == "label"
    assert stored(app, "SELECT COUNT(*) FROM tokens")[0][0] == 0


def test_nesting_up_to_the_limit_is_json_like_any_other(client, official):
    deepest = "[" * (MAX_JSON_DEPTH - 2) + "1" + "]" * (MAX_JSON_DEPTH - 2)  # in the body and params: 32 deep
    response = client.post("/api/v1/tables", data='{"id": "T3", "params": {"a": %s}}' % deepest,
                           headers={**official, "Content-Type": "application/json"})
    assert response.get_json()["code"] != "json_too_deep"  # the ruleset's own answer: no such parameter
    too_deep = "[" + deepest + "]"
    response = client.post("/api/v1/tables", data='{"id": "T3", "params": {"a": %s}}' % too_deep,
                           headers={**official, "Content-Type": "application/json"})
    assert response.get_json()["code"] == "json_too_deep"


def test_nan_and_infinity_are_not_json(client, official):
    response = client.post("/api/v1/tournaments", data='{"id": "E1", "name": "x", "rounds": 2, "base": NaN}',
                           headers={**official, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_json"


def test_a_body_that_is_not_utf8_is_a_400(client, official):
    response = client.post("/api/v1/tables", data=b'{"id": "T1", "name": "\xed\xa0\x80"}',  # a surrogate, CESU-8
                           headers={**official, "Content-Type": "application/json"})
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_encoding"


def _seeded_tournament(client, official) -> None:
    assert client.post("/api/v1/tournaments", json={"id": "t1", "name": "時鐘盃", "rounds": 2},
                       headers=official).status_code == 201
    players = [{"id": f"p{k}", "name": f"選手{k}"} for k in range(8)]
    assert client.post("/api/v1/tournaments/t1/players", json={"players": players}, headers=official).status_code == 201
    assert client.post("/api/v1/tournaments/t1/schedule", json={"seed": 1}, headers=official).status_code in (200, 201)


@pytest.mark.parametrize("settings_, field", [
    ({"round_seconds": 9668475699085288}, "round_seconds"),
    ({"round_seconds": 86401}, "round_seconds"),
    ({"round_seconds": 5400, "first_start": "2026-12-01T09:00:00+08:00", "interval_seconds": 10**15},
     "interval_seconds"),
    ({"round_seconds": 5400, "reminders": [10**15]}, "reminders"),
    ({"round_seconds": 5400, "publish": "before_start", "publish_before_seconds": 10**15,
      "first_start": "2026-12-01T09:00:00+08:00"}, "publish_before_seconds"),
    ({"round_seconds": 5400, "first_start": "9999-12-31T23:59:59+00:00"}, "first_start"),
    ({"round_seconds": 5400, "starts": ["0001-01-01T00:00:00+14:00"]}, "starts[0]"),
])
def test_clock_settings_that_overflow_a_time_are_a_400_and_not_stored(client, official, settings_, field):
    _seeded_tournament(client, official)
    response = client.put("/api/v1/tournaments/t1/clock", json=settings_, headers=official)
    problem = response.get_json()
    assert response.status_code == 400 and problem["field"].startswith(field.partition("[")[0]), problem
    assert client.get("/api/v1/tournaments/t1/clock").get_json()["configured"] is False
    # and the round starts as ever
    assert client.put("/api/v1/tournaments/t1/clock", json={"round_seconds": 86400},
                      headers=official).status_code == 200
    started = client.post("/api/v1/tournaments/t1/clock/start", json={}, headers=official)
    assert started.status_code == 200 and started.get_json()["round"]["round"] == 1


def test_the_domain_bounds_the_clock_with_its_reasons():
    from tournament.clock import ClockError, ClockSettings, parse_time

    with pytest.raises(ClockError) as error:
        ClockSettings(round_seconds=9668475699085288)
    assert error.value.field == "round_seconds" and "one sitting" in error.value.message
    with pytest.raises(ClockError) as error:
        parse_time("9999-12-31T23:59:59+00:00", "first_start")
    assert error.value.field == "first_start"


# -- the one JSON check against a slower reference ---------------------------------------------

#: text with the characters that matter: quotes, backslashes and brackets inside strings,
#: both halves of a pair (🀄 is \ud83c\udc04) and lone ones
_text = st.text(st.sampled_from(["a", "中", '"', "\\", "[", "{", "]", "\ud83c", "\udc04", "\ud800", "\udfff"]),
                max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=60,
)


def _reference(value, depth: int = 0) -> tuple[int, bool]:
    """(deepest nesting, holds a lone surrogate) by walking the value."""
    if isinstance(value, (list, dict)):
        items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
        deepest, lone = depth + 1, False
        for key, item in items:
            d, s = _reference(item, depth + 1)
            deepest, lone = max(deepest, d), lone or s or (key is not None and _lone(key))
        return deepest, lone
    return depth, isinstance(value, str) and _lone(value)


def _lone(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


@settings(max_examples=300, deadline=None)
@given(json_values, st.integers(0, 40))
def test_the_text_checks_agree_with_walking_the_value(value, wrap):
    for _ in range(wrap):
        value = [value]
    text = json.dumps(value)  # surrogates written as \\uXXXX escapes, as a client would
    deepest, lone = _reference(json.loads(text))  # what the text says (two escapes in a row may be a pair)
    try:
        check_json_text(text)
    except intake.ApiProblem as problem:
        assert (problem.problem_code == "json_too_deep" and deepest > MAX_JSON_DEPTH) or (
            problem.problem_code == "lone_surrogate" and lone and deepest <= MAX_JSON_DEPTH)
    else:
        assert deepest <= MAX_JSON_DEPTH and not lone


def test_json_lines_name_the_line():
    with pytest.raises(intake.ApiProblem) as problem:
        check_json_text('{"a": 1}\n\n{"b": [{"c": "\\ud800"}]}\n', lines=True)
    assert problem.value.field == "line 3.b[0].c"


# ==========================================================================================
# 5. Auth first
# ==========================================================================================


def test_an_override_without_a_token_and_a_bad_body_is_a_401(client, official, app):
    create_table(client, official, "T1")
    response = client.post("/api/v1/tables/T1/overrides", json={"hand": "x"})
    assert response.status_code == 401 and response.get_json()["code"] == "token_required"
    table_token = bearer(make_token(app.config["DATABASE"], "table", table="T1"))
    response = client.post("/api/v1/tables/T1/overrides", json={"hand": "x"}, headers=table_token)
    assert response.status_code == 403 and response.get_json()["code"] == "role_forbidden"
    response = client.post("/api/v1/tables/T1/overrides", json={"hand": "x"}, headers=bearer("mjref_nope"))
    assert response.status_code == 401 and response.get_json()["code"] == "invalid_token"


def _operations(client):
    spec = client.get("/openapi.json").get_json()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method.upper() in ("POST", "PUT", "PATCH", "DELETE"):
                concrete = path
                for parameter in [p for p in item.get("parameters", []) + operation.get("parameters", [])
                                  if p["in"] == "path"]:
                    value = "1" if parameter.get("schema", {}).get("type") == "integer" else "T1"
                    concrete = concrete.replace("{" + parameter["name"] + "}", value)
                yield method.upper(), concrete, operation.get("security")


def test_every_write_refuses_a_missing_or_bad_token_before_it_reads_the_body(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "m.sqlite3"), "PUBLIC_READS": "rulesets"})
    client = app.test_client()
    official_ = bearer(make_token(app.config["DATABASE"], "official"))
    create_table(client, official_, "T1")
    table_token = bearer(make_token(app.config["DATABASE"], "table", table="T1"))
    seen = 0
    for method, path, security in _operations(client):
        seen += 1
        for headers, code in [({}, 401), (bearer("mjref_unknown"), 401), ({"Authorization": "Basic x"}, 401)]:
            status, _h, problem = call(app, path, method=method, headers=headers, body=Untouchable(), length=20)
            assert status == code and problem["field"] == "Authorization", (method, path, headers, problem)
        if security == [{"bearerAuth": []}] and path != "/api/v1/tables/T1/events":
            status, _h, problem = call(app, path, method=method, headers=table_token, body=Untouchable(), length=20)
            assert status == 403 and problem["code"] == "role_forbidden", (method, path, problem)
        if path.startswith("/api/v1/tokens"):
            status, _h, problem = call(app, path, method=method, headers=official_, body=Untouchable(), length=20)
            assert status == 403, (method, path, problem)
    assert seen >= 25  # every write operation of the spec


def test_the_fast_path_checks_the_token_before_it_reads_the_body(app, client, official):
    create_table(client, official, "T1")
    other = create_table(client, official, "T2")["id"]
    other_token = bearer(make_token(app.config["DATABASE"], "table", table=other))
    for headers, code in [(bearer("mjref_unknown"), 401), ({}, 401), (other_token, 403)]:
        status, answer_headers, problem = call(app, "/api/v1/tables/T1/events", headers=headers, body=Untouchable(),
                                               length=200)
        assert status == code, (headers, problem)
        assert answer_headers["Connection"] == "close"  # the body was left unread: a new connection next


# ==========================================================================================
# The same through a real server (uWSGI, the fast path)
# ==========================================================================================


@pytest.fixture(scope="module")
def server(tmp_path_factory, server_database):
    database = server_database(tmp_path_factory.mktemp("hardening"), "hardening")
    port = free_port()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MJREF_MAX_CONTENT_LENGTH", "20000")
        proc = start_server(database, port, processes=1, threads=8)
    try:
        official_ = bearer(make_token(database, "official"))
        status, _ = request(port, "POST", "/api/v1/tables", {"id": "T1"}, official_)
        assert status == 201
        yield port, database, official_
    finally:
        proc.kill()
        proc.wait()


def _raw(port: int, head: bytes, body: bytes = b"", timeout: float = 10) -> tuple[int, dict, float]:
    """Send a request head (and whatever body) on a new connection; the status, the JSON answer
    and how long it took to come."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        try:
            conn.sendall(head + body)
        except OSError:
            pass  # refused while sending: the answer is still there to read
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            assert chunk, f"the connection closed with no answer: {data!r}"
            data += chunk
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        while len(rest) < length:
            chunk = conn.recv(65536)
            assert chunk
            rest += chunk
    return int(header.split()[1]), json.loads(rest[:length]), time.monotonic() - start


def _head(path: str, headers: dict, extra: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: test", "Content-Type: application/json",
             *(f"{k}: {v}" for k, v in headers.items()), extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_the_server_refuses_a_large_body_at_once_without_waiting_for_it(server):
    port, _database, official_ = server
    for path in ("/api/v1/tables/T1/events", "/api/v1/tables", "/health"):
        status, problem, took = _raw(port, _head(path, official_, "Content-Length: 10000000"), b"{")
        assert status == 413 and problem["code"] == "body_too_large" and "20000" in problem["detail"]
        assert took < 8  # not the 30 s a read of the missing body would wait


def test_the_server_reads_a_chunked_body_up_to_the_limit_only(server):
    port, _database, official_ = server
    body = json.dumps({"id": "T9", "name": "分塊"}).encode()
    status, row, _took = _raw(port, _head("/api/v1/tables", official_, "Transfer-Encoding: chunked"),
                              b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
    assert status == 201 and row["name"] == "分塊"
    piece = b"x" * 8000
    status, problem, took = _raw(port, _head("/api/v1/tables", official_, "Transfer-Encoding: chunked"),
                                 (b"%x\r\n%s\r\n" % (len(piece), piece)) * 3)  # 24,000 bytes and no end
    assert status == 413 and problem["code"] == "body_too_large" and took < 8


def test_the_server_answers_deep_json_and_lone_surrogates_on_the_fast_path(server):
    port, database, official_ = server
    for body, code in [(DEEP[:9000] + DEEP[-9000:], "json_too_deep"), ('{"type": "hand_start", "x": "\\ud800"}',
                                                                       "lone_surrogate")]:
        status, problem, _took = _raw(port, _head("/api/v1/tables/T1/events", official_,
                                                  f"Content-Length: {len(body)}"), body.encode())
        assert status == 400 and problem["code"] == code
    assert sql_rows(database, "SELECT COUNT(*) FROM events") == [(0,)]


def test_the_server_refuses_a_bad_token_before_reading_the_body(server):
    """Behind nginx the edge takes the body in (bounded: MAX_CONTENT_LENGTH, 10 s a read, and no
    worker held meanwhile — tests/test_slow_clients.py); the app refuses the token without reading
    it (the in-process tests above show the body unread)."""
    port, _database, _official = server
    body = b'{"events": [' + b'{"type": "note"},' * 500 + b'{"type": "note"}]}'
    status, problem, took = _raw(port, _head("/api/v1/tables/T1/events", bearer("mjref_unknown"),
                                             f"Content-Length: {len(body)}"), body)
    assert status == 401 and problem["code"] == "invalid_token" and took < 8

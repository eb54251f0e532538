"""The app factory, the database file and the error handler, through the real app."""
from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import uuid

import pytest
from flask import Blueprint

from app import create_app
from referee.errors import InvalidTileError
from store import SCHEMA_VERSION
from store.dialect import public_name
from tests.servicekit import bearer, make_token, sql_rows, stored_rows


@pytest.mark.sqlite_only
def test_health_creates_wal_database(app, client, tmp_path):
    response = client.get("/health")

    assert response.status_code == 200
    assert response.json == {"status": "ok"}  # public: no file named
    path = tmp_path / "mjref.sqlite3"
    assert path.exists()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)


def test_database_from_environment(monkeypatch, tmp_path):
    path = tmp_path / "env" / "from-env.sqlite3"
    monkeypatch.setenv("MJREF_DATABASE", str(path))

    app = create_app({"TESTING": True})
    response = app.test_client().get("/health", headers=bearer(make_token(path, "admin")))

    assert response.json == {"status": "ok", "database": str(path)}
    assert path.exists()


def test_health_names_the_file_only_to_officials(app, client):
    database = app.config["DATABASE"]
    official = bearer(make_token(database, "official"))
    assert client.post("/api/v1/tables", json={"id": "T1"}, headers=official).status_code == 201
    table = bearer(make_token(database, "table", "T1"))

    assert client.get("/health", headers=table).json == {"status": "ok"}
    assert client.get("/health", headers=official).json == {"status": "ok", "database": public_name(database)}
    assert client.get("/health", headers=bearer("mjref_not-a-token")).status_code == 401
    # the check committed, through the app's writer
    assert sql_rows(database, "SELECT value FROM meta WHERE key = 'health_checked_at'") == [
        (app.config["CLOCK"].now().isoformat(),)]


@pytest.fixture()
def tiny_disk(tmp_path):
    """A 2 MiB filesystem of its own (tmpfs; mounting needs root, as make test runs in CI)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a filesystem of its own needs root (mount -t tmpfs)")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", f"mjref-test-{uuid.uuid4().hex[:8]}",
                           str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(folder) -> None:
    """Write to *folder* until its disk is full."""
    try:
        with open(folder / "filler", "wb") as f:
            while True:
                f.write(b"\0" * 65536)
                f.flush()
    except OSError:
        pass


def test_health_is_degraded_when_the_disk_is_full(tiny_disk, app_clock):
    database = tiny_disk / "mjref.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(database), "CLOCK": app_clock, "HEALTH_CHECK_SECONDS": 0})
    client = app.test_client()
    admin = bearer(make_token(database, "admin"))
    assert client.get("/health").status_code == 200

    _fill(tiny_disk)
    response = client.get("/health")
    assert response.status_code == 503
    assert response.headers["Retry-After"]
    assert response.json == {"status": "degraded", "code": "disk_full", "reason": "no room left on the database's disk",
                             "reason_zh": "資料庫所在磁碟已無空間"}
    assert str(tiny_disk) not in response.get_data(as_text=True)  # public: no path
    inside = client.get("/health", headers=admin).json
    assert inside["database"] == str(database) and "No space left" in inside["error"]
    # and the writes it stands for are refused the same way, nothing half stored
    assert client.post("/api/v1/tables", json={"id": "T9"}, headers=admin).status_code in (201, 503)

    (tiny_disk / "filler").unlink()
    assert client.get("/health").json == {"status": "ok"}


def test_health_checks_at_most_once_a_window(tiny_disk, app_clock):
    database = tiny_disk / "mjref.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(database), "CLOCK": app_clock, "HEALTH_CHECK_SECONDS": 3600})
    client = app.test_client()
    assert client.get("/health").status_code == 200
    _fill(tiny_disk)
    assert client.get("/health").status_code == 200  # the check of a moment ago stands: no commit per call
    app.config["HEALTH_CHECK_SECONDS"] = 0
    assert client.get("/health").status_code == 503


def test_restart_keeps_the_database(tmp_path):
    config = {"TESTING": True, "DATABASE": str(tmp_path / "mjref.sqlite3")}
    create_app(config)
    assert create_app(config).test_client().get("/health").status_code == 200


def test_unknown_route_is_problem_json_404(client):
    response = client.get("/no-such-thing")

    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["status"] == 404
    assert body["code"] == "not_found"
    assert body["detail_zh"]
    assert set(body) >= {"type", "title", "status", "code", "field", "detail", "detail_zh"}


def test_wrong_method_is_problem_json_405(client):
    response = client.delete("/health")

    assert response.status_code == 405
    assert response.mimetype == "application/problem+json"
    assert "GET" in response.headers["Allow"]


def test_domain_error_is_problem_json_400(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "mjref.sqlite3")})
    throwaway = Blueprint("throwaway", __name__)

    @throwaway.get("/boom")
    def boom():
        raise InvalidTileError("unknown tile '0z'", field="tiles", reason_zh="無法辨識的牌「0z」")

    app.register_blueprint(throwaway)
    response = app.test_client().get("/boom")

    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    assert response.json == {
        "type": "urn:mjref:problem:invalid_tile",
        "title": "輸入無效 Invalid input",
        "status": 400,
        "code": "invalid_tile",
        "field": "tiles",
        "detail": "unknown tile '0z'",
        "detail_zh": "無法辨識的牌「0z」",
    }


def test_malformed_json_body_is_problem_json_400(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "mjref.sqlite3")})
    throwaway = Blueprint("throwaway", __name__)

    @throwaway.post("/echo")
    def echo():
        from flask import request

        return request.get_json()

    app.register_blueprint(throwaway)
    response = app.test_client().post("/echo", data="{not json", content_type="application/json")

    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"


def test_the_spec_is_written_when_first_read_and_whole(app, client):
    """The OpenAPI documentation waits until it is read (api.openapi.DeferredSpec) and then is
    the whole of it: every /api route of the app is in it, with its components."""
    spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec
    assert spec._deferred, "written at start-up: create_app pays for the spec again"
    assert not spec._paths

    doc = client.get("/openapi.json").get_json()

    assert not spec._deferred
    routes = {re.sub(r"<(?:[^:>]+:)?(\w+)>", r"{\1}", rule.rule) for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/api/")}
    assert set(doc["paths"]) == routes
    for name in ("Problem", "Score", "RulesetParams", "PatternCode", "Event", "EventBatch"):
        assert name in doc["components"]["schemas"]
    assert {"BAD_REQUEST", "DEFAULT_ERROR"} <= set(doc["components"]["responses"])
    assert client.get("/openapi.json").get_json() == doc  # read again: the same, nothing written twice


def test_lazy_url_builders_build_what_werkzeug_builds(app):
    """services.routing.LazyRule compiles a route's URL builder on first use: every route of
    the app builds the same URL as werkzeug's own Rule, with and without extra arguments."""
    from werkzeug.routing import Map, Rule

    from services.routing import LazyRule

    rules = list(app.url_map.iter_rules())
    # all but /static/<path>, which Flask adds as the app is made, before its rule class is set
    assert {rule.endpoint for rule in rules if not isinstance(rule, LazyRule)} == {"static"}
    eager = Map([Rule(r.rule, endpoint=r.endpoint, methods=r.methods, defaults=r.defaults) for r in rules],
                converters=app.url_map.converters, strict_slashes=app.url_map.strict_slashes)
    ours, theirs = app.url_map.bind("mjref.test"), eager.bind("mjref.test")
    built = 0
    for rule in rules:
        values = {name: (7 if type(rule._converters[name]).__name__ == "IntegerConverter" else "東-1 a/b")
                  for name in rule.arguments if name not in (rule.defaults or {})}
        for extra in ({}, {"lang": "en", "q": "七 搶一"}):
            expected = theirs.build(rule.endpoint, {**values, **extra}, method=sorted(rule.methods)[0])
            assert ours.build(rule.endpoint, {**values, **extra}, method=sorted(rule.methods)[0]) == expected
            built += 1
    assert built >= 2 * 100


def test_an_app_that_stores_nothing_is_checked_to_have_stored_nothing(stateless_app, tmp_path, sqlite_template):
    """``stateless_app`` (the app of the modules the PostgreSQL pass leaves out) fails a test that
    stores: its check finds a table's row, and only ``meta`` is the app's own."""
    assert stored_rows(stateless_app.config["DATABASE"]) == {}
    copy = tmp_path / "stored.sqlite3"
    shutil.copyfile(sqlite_template, copy)
    make_token(str(copy), "official")
    assert stored_rows(copy) == {"tokens": 1}

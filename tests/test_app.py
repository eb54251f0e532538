"""The app factory, the database file and the error handler, through the real app."""
from __future__ import annotations

import sqlite3

from flask import Blueprint

from app import create_app
from referee.errors import InvalidTileError
from store import SCHEMA_VERSION


def test_health_creates_wal_database(app, client, tmp_path):
    response = client.get("/health")

    assert response.status_code == 200
    assert response.json == {"status": "ok", "database": str(tmp_path / "mjref.sqlite3")}
    path = tmp_path / "mjref.sqlite3"
    assert path.exists()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)


def test_database_from_environment(monkeypatch, tmp_path):
    path = tmp_path / "env" / "from-env.sqlite3"
    monkeypatch.setenv("MJREF_DATABASE", str(path))

    response = create_app({"TESTING": True}).test_client().get("/health")

    assert response.json["database"] == str(path)
    assert path.exists()


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

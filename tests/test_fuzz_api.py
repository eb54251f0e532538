"""Fuzz the API from its own OpenAPI spec (schemathesis): valid and invalid requests for
every operation, with and without a token, never a 5xx; every error is problem+json.

Bounded: a fixed number of examples per run, derandomized, no example database, so
the test takes seconds and fails the same way twice.
"""
from __future__ import annotations

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from app import create_app
from tests.servicekit import bearer, create_table, hand_events, make_token

EXAMPLES = 20  # per operation and run


@pytest.fixture()
def fuzzed(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "fuzz.sqlite3")})
    admin = bearer(make_token(app.config["DATABASE"], "admin"))
    client = app.test_client()
    create_table(client, admin, "F1")
    client.post("/api/v1/tables/F1/events", json={"events": hand_events(11)}, headers=admin)
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    return app, schema, admin


def _run(app, strategy, examples: int = EXAMPLES) -> None:
    failures: list[str] = []

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def check(case):
        response = case.call()
        if response.status_code >= 500:
            failures.append(f"{case.method} {case.formatted_path} {case.body!r}: {response.status_code} "
                            f"{response.text[:300]}")
        elif response.status_code >= 400:
            content_type = {k.lower(): v for k, v in response.headers.items()}.get("content-type", [""])
            content_type = content_type[0] if isinstance(content_type, list) else content_type
            if content_type.split(";")[0] != "application/problem+json":
                failures.append(f"{case.method} {case.formatted_path}: {response.status_code} not problem+json")
            body = json.loads(response.content)
            if not (body.get("detail") and body.get("detail_zh") and body.get("code")):
                failures.append(f"{case.method} {case.formatted_path}: incomplete problem {body}")

    try:
        check()
    except Unsatisfiable:  # nothing to make invalid (an operation without inputs)
        pass
    assert not failures, "\n".join(failures[:10])


def test_the_spec_is_openapi_3_with_every_route(fuzzed):
    app, schema, _admin = fuzzed
    spec = app.test_client().get("/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/v1/tables/{table_id}/events", "/api/v1/tables/{table_id}/overrides", "/api/v1/tokens",
            "/api/v1/analyze", "/api/v1/rulesets"} <= set(spec["paths"])
    assert spec["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    docs = app.test_client().get("/docs")
    assert docs.status_code == 200 and b"/docs/assets/swagger-ui-bundle.js" in docs.data
    assert b"cdn" not in docs.data.lower() and b"https://" not in docs.data
    asset = app.test_client().get("/docs/assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.data) > 100_000


def _operations(schema):
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_fuzz_every_operation_with_an_admin_token_never_5xx(fuzzed, mode):
    app, schema, admin = fuzzed
    for operation in _operations(schema):
        _run(app, operation.as_strategy(mode, headers=admin), EXAMPLES if mode.is_positive else EXAMPLES // 2)


def test_fuzz_every_operation_on_a_real_table_never_5xx(fuzzed):
    app, schema, admin = fuzzed
    for operation in _operations(schema):
        if "{table_id}" in operation.path:
            _run(app, operation.as_strategy(GenerationMode.POSITIVE, headers=admin, path_parameters={"table_id": "F1"}))


def test_fuzz_every_operation_without_a_token_never_5xx(fuzzed):
    app, schema, _admin = fuzzed
    for operation in _operations(schema):
        _run(app, operation.as_strategy(GenerationMode.POSITIVE), EXAMPLES // 3)

"""The API keeps its own spec (issue #12 item 6): schemathesis over ``/openapi.json``.

Every operation, every phase — examples, coverage, fuzzing (positive and negative) and
the stateful phase (links: create a table, a tournament, a token, then use what came
back) — with an official's token and with a table's, against the real Flask app (WSGI)
on a real database of the pass's backend (a SQLite file; in the PostgreSQL pass a database of
a cluster of its own), with **every** check schemathesis has: no 5xx, statuses,
content types and bodies as documented (every error a complete problem+json, CSV where
``text/csv`` is documented), schema-valid requests accepted, schema-invalid ones
rejected, a missing token refused before the body is read, a created resource found.

Bounded so that CI can afford it (``schemathesis.toml``: a few examples per operation,
a fixed seed, no example database): the same run fails the same way twice. The CLI runs
the same checks at full size against a server (docs/api.md, "Checking the spec").
"""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import hypothesis
import pytest
import schemathesis
from schemathesis.generation.meta import TestPhase

from app import create_app
from tests.conftest import BACKEND
from tests.servicekit import bearer, create_table, hand_events, make_token

#: the stateful phase's size: scenarios (each up to a few linked calls) per role
STATEFUL_EXAMPLES = 40


#: the PostgreSQL pass keeps this module (conftest.pytest_collection_modifyitems): it stores on
#: the pass's backend through a database of its own
pytestmark = pytest.mark.own_database


def _fresh_app():
    """The real app on a fresh database of the pass's backend: a SQLite file, or (with
    ``MJREF_TEST_DATABASE=postgresql``) a database of a throwaway cluster of this module's own
    (:class:`tests.pgcluster.Cluster`), each removed at exit. Made at import — schemathesis
    builds one test per operation from the spec when the module is collected — so before any
    fixture, the ``pg_cluster`` fixture's cluster included. On PostgreSQL it found U+0000 in
    text and in URLs answered with a 500 (now a 400, ``nul_character``)."""
    if BACKEND == "postgresql":
        from tests.pgcluster import Cluster

        cluster = Cluster().start()
        atexit.register(cluster.remove)
        cluster.create_template()
        return create_app({"TESTING": True, "DATABASE": cluster.new_database("fuzz")})
    directory = tempfile.mkdtemp(prefix="mjref-fuzz-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return create_app({"TESTING": True, "DATABASE": os.path.join(directory, "fuzz.sqlite3")})


APP = _fresh_app()
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP)  # schemathesis.toml: size, seed, checks


@pytest.fixture(scope="module")
def service():
    """The app with a table F1 that has a played hand, and the tokens: an official's and F1's."""
    database = APP.config["DATABASE"]
    admin = bearer(make_token(database, "admin"))
    client = APP.test_client()
    create_table(client, admin, "F1")
    client.post("/api/v1/tables/F1/events", json={"events": hand_events(11)}, headers=admin)
    tokens = {"official": bearer(make_token(database, "official")),
              "table": bearer(make_token(database, "table", table="F1"))}
    return APP, tokens


def _table_token_meets(case) -> bool:
    """Whether *case* is sent with table F1's token too. Every case of an operation on a table
    (``/api/v1/tables/{table_id}…``) is, and every operation's examples and fuzzed cases. The
    coverage phase's hundreds of body and parameter variants of any other operation are sent
    with the official's token only: there a table's token is refused (403) before the body or
    the parameters are read (``api.auth.guard``; :func:`test_a_table_token_is_refused_before_the_body_is_read`),
    or, where any token may call (the calculators), reaches the same code as the official's.
    A read scoped to a table by its query (``GET /api/v1/rulings?table=``: a table token reads
    only its own table, another is a 403) is a table operation too: its every case is sent."""
    return (_table_scoped(case.operation) or case._meta is None
            or case._meta.phase.name != TestPhase.COVERAGE)


def _table_scoped(operation) -> bool:
    """An operation on one table: by its path (``{table_id}``) or by a ``table`` query parameter."""
    return "{table_id}" in operation.path or any(p.name == "table" for p in operation.query)


@schema.parametrize()
def test_every_operation_keeps_the_spec_with_an_official_and_a_table_token(case, service):
    """One generated case, sent with each token: every check (schemathesis.toml) on each answer.
    The cases are made once for both (their making is about half of this test's time)."""
    case.call_and_validate(headers=service[1]["official"])
    if _table_token_meets(case):
        case.call_and_validate(headers=service[1]["table"])  # table F1's: other tables are 403s


def test_a_read_scoped_to_a_table_by_its_query_gets_every_case_with_the_table_token():
    """GET /api/v1/rulings takes its table from the query (a table token: its own, another a
    403, api/overrides.py): its coverage cases meet the table's token as a path's do."""
    assert _table_scoped(schema["/api/v1/rulings"]["GET"])
    assert _table_scoped(schema["/api/v1/tables/{table_id}/events"]["POST"])
    assert not _table_scoped(schema["/api/v1/tournaments"]["POST"])


def test_a_table_token_is_refused_before_the_body_is_read(service):
    app, tokens = service
    answer = app.test_client().post("/api/v1/tournaments", data=b"{not json", headers=tokens["table"],
                                    content_type="application/json")
    assert answer.status_code == 403 and answer.is_json and "body" not in answer.get_data(as_text=True)


@pytest.mark.parametrize("role", ["official", "table"])
def test_stateful_sequences_keep_the_spec(role, service):
    """Chains of calls along the spec's links (a table created, then its events posted and
    read ...), every response checked as above."""
    _app, tokens = service
    failures: list[BaseException] = []

    class Machine(schema.as_state_machine()):
        def get_call_kwargs(self, case):
            return {"headers": tokens[role]}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # the token is the caller's (explicit), not generated: the auth checks then
            # probe without it and with a bad one, as for the single operations
            try:
                case.validate_response(response, additional_checks=additional_checks, headers=tokens[role],
                                       transport_kwargs=kwargs or None, recorder=self.recorder)
            except Exception as failure:
                failures.append(failure)
                raise

    try:
        Machine.run(settings=hypothesis.settings(
            max_examples=STATEFUL_EXAMPLES, stateful_step_count=6, phases=[hypothesis.Phase.generate],
            deadline=None, database=None, derandomize=True, suppress_health_check=list(hypothesis.HealthCheck)))
    except hypothesis.errors.Flaky:
        # The app keeps what each scenario created, so a scenario replayed may go another way
        # (a table that was new is now a 409): as schemathesis's own runner, that is no
        # failure — but every response that failed a check is one.
        if failures:
            raise failures[0] from None


def test_the_spec_is_openapi_3_with_every_route(service):
    app, _tokens = service
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

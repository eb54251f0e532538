"""The sample streams data/samples/pen_*.jsonl: up to date, one for every pen.* and prio.*
clause, each ruled as expected, and the CLI and the API give the same rulings."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from penalties import rule
from testkit.penalty_samples import SAMPLES, SAMPLES_DIR
from tests.clause_coverage import read_tsv

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "rulebook" / "clauses.tsv"
CLAUSES = ROOT / "data" / "clauses.tsv"


def _ids() -> list[str]:
    rows = read_tsv(SHARED if SHARED.exists() else CLAUSES)
    return [r["id"] for r in rows if r["id"].startswith(("pen.", "prio"))]


def test_every_pen_and_prio_clause_has_a_sample():
    covered = {c for s in SAMPLES for c in s.clauses}
    missing = [c for c in _ids() if c not in covered]
    assert not missing, f"clauses without a sample stream: {missing}"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_file_is_up_to_date(sample):
    assert sample.path.exists(), f"{sample.path} missing: run python -m testkit.penalty_samples"
    assert sample.path.read_text(encoding="utf-8") == sample.text(), \
        "stale sample: run python -m testkit.penalty_samples"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_is_ruled_as_expected(sample):
    rulings = rule(sample.path.read_text(encoding="utf-8"))
    codes = iter(rulings.codes)
    assert all(any(c == want for c in codes) for want in sample.expect), (sample.expect, rulings.codes)
    assert not rulings.unruled, rulings.unruled
    if sample.payments is not None:
        assert rulings.payments == sample.payments
    assert sum(rulings.payments) + sum(v for _k, v in rulings.outside) == 0
    for r in rulings.rulings:
        assert r.clause.startswith(("pen.", "prio", "score.streak-marker", "bet.chahua")), r.clause


def test_no_stray_pen_samples():
    names = {s.name for s in SAMPLES}
    stray = [p.name for p in SAMPLES_DIR.glob("pen_*.jsonl") if p.stem not in names]
    assert not stray, stray


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_cli_and_api_give_the_same_rulings(sample, app, client):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["rule", str(sample.path)])
    assert result.exit_code == 0, result.output
    cli = json.loads(result.output)
    response = client.post("/api/v1/rulings", data=sample.path.read_bytes(), content_type="application/x-ndjson")
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == cli
    hand = cli["hands"][0]
    assert [r["code"] for r in hand["rulings"]] == list(rule(sample.text()).codes)


def test_api_takes_an_events_object_with_a_ruleset(client):
    sample = SAMPLES[0]
    events = [json.loads(line) for line in sample.text().splitlines()]
    response = client.post("/api/v1/rulings", json={"events": events, "ruleset": "competition"})
    assert response.status_code == 200
    assert response.get_json()["hands"][0]["rulings"][0]["code"] == "unfulfilled_call"


@pytest.mark.parametrize("body, field", [
    ('{"events": 5}', "events"),
    ("", "events"),
    ('{"type": "nonsense", "seq": 1}', "events[0].type"),
])
def test_api_refuses_what_is_not_a_stream(client, body, field):
    response = client.post("/api/v1/rulings", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["field"] == field


def test_cli_reports_a_bad_stream_as_problem_json(app, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense", "seq": 1}\n', encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["rule", str(bad)])
    assert result.exit_code == 2
    assert "events[0].type" in result.output


@pytest.mark.parametrize("sample", SAMPLES[::5], ids=lambda s: s.name)
def test_the_adjudication_carries_the_same_rulings(sample, client):
    body = sample.path.read_bytes()
    adjudication = client.post("/api/v1/adjudications", data=body, content_type="application/x-ndjson").get_json()
    rulings = client.post("/api/v1/rulings", data=body, content_type="application/x-ndjson").get_json()
    for adj_hand, hand in zip(adjudication["hands"], rulings["hands"]):
        assert adj_hand["penalties"] == {k: v for k, v in hand.items()
                                         if k not in ("table", "hand", "mode", "ruleset", "outcome", "closed_at")}
        assert adj_hand["outcome"] == hand["outcome"]

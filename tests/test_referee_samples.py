"""The referee's sample streams (data/samples/{win,draw,deal,play,ready,prio}_*.jsonl): up to
date, adjudicated as stated, the same through the CLI and the API (issue #4)."""
from __future__ import annotations

import json

import pytest

from referee.events import to_jsonl
from referee.replay import adjudicate_text
from testkit.referee_samples import SAMPLES, SAMPLES_DIR

PREFIXES = ("win_", "draw_", "deal_", "play_", "ready_", "prio_")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_file_is_up_to_date(sample):
    assert sample.path.exists(), f"{sample.path} missing: run python -m testkit.referee_samples"
    assert sample.path.read_text(encoding="utf-8") == to_jsonl(sample.events()), \
        "stale sample: run python -m testkit.referee_samples"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_sample_adjudicates_as_stated(sample):
    doc = adjudicate_text(sample.path.read_text(encoding="utf-8"))
    (hand,) = doc["hands"]
    outcome = hand["outcome"]
    assert outcome["kind"] == sample.outcome
    assert tuple(i["code"] for i in hand["irregularities"]) == sample.codes
    assert tuple(w["source"] for w in outcome["wins"]) == sample.sources
    assert sum(outcome["payments"]) == 0
    for w in outcome["wins"]:
        assert "unscored" not in w and w["settlement"]["payments"]
    extra = sample.extra
    if "winners" in extra:
        assert [w["seat"] for w in outcome["wins"]] == extra["winners"]
    for key in ("flower_win", "first_turn", "readiness"):
        if key in extra:
            assert outcome["wins"][0][key] == extra[key]
    for irr in hand["irregularities"]:
        assert irr["clause"] and irr["detail_zh"] and irr["detail"] and irr["evidence"][0] == irr["seq"]


def test_every_kind_of_win_and_the_draw_have_a_sample():
    sources = {s for sample in SAMPLES for s in sample.sources}
    assert {"wall", "discard", "robbing_kong", "kong_replacement", "flower_replacement", "last_tile",
            "last_discard", "flower_win"} <= sources
    flowers = {sample.extra.get("flower_win") for sample in SAMPLES}
    assert {"eight_flowers", "seven_rob_one", "seven_rob_one_drawn"} <= flowers
    assert any(sample.outcome == "exhaustive_draw" for sample in SAMPLES)


def test_every_restriction_has_a_sample():
    clauses = {c for sample in SAMPLES for c in sample.clauses}
    assert {f"play.restrict.{n}" for n in range(1, 9)} <= clauses


def test_no_stray_samples():
    names = {s.name for s in SAMPLES}
    stray = [p.name for p in SAMPLES_DIR.glob("*.jsonl") if p.name.startswith(PREFIXES) and p.stem not in names]
    assert not stray, stray


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.name)
def test_cli_and_api_give_the_same_adjudication(sample, app, client):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["replay", str(sample.path)])
    assert result.exit_code == 0, result.output
    cli = json.loads(result.output)
    response = client.post("/api/v1/adjudications", data=sample.path.read_bytes(),
                           content_type="application/x-ndjson")
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == cli


def test_api_takes_an_array_or_an_object_with_options(client):
    sample = SAMPLES[0]
    events = [json.loads(line) for line in sample.path.read_text(encoding="utf-8").splitlines()]
    as_array = client.post("/api/v1/adjudications", json=events).get_json()
    as_object = client.post("/api/v1/adjudications", json={"events": events, "mode": "digital"}).get_json()
    assert as_array == as_object
    assert as_array["hands"][0]["outcome"]["kind"] == "win"


def test_api_names_the_bad_field(client):
    response = client.post("/api/v1/adjudications", json=[{"type": "hand_start", "seq": 1, "dealer": 9}])
    assert response.status_code == 400
    body = response.get_json()
    assert body["field"] == "events[0].dealer" and body["detail_zh"]
    response = client.post("/api/v1/adjudications", json=[{"type": "draw", "seq": 1, "seat": 0}])
    assert response.status_code == 400 and response.get_json()["code"] == "invalid_stream"


def test_cli_reports_errors_as_problem_json(app, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "discard", "seq": 1, "seat": 0, "tile": "9x"}\n', encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["replay", str(path)])
    assert result.exit_code == 2

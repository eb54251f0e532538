"""``POST /api/v1/analyze`` and ``GET /api/v1/rulesets``: the real app, a real SQLite file."""
from __future__ import annotations

import pytest


def test_analyze_waits(client):
    response = client.post("/api/v1/analyze", json={"tiles": "1112m", "melds": "123p 456p 789p 111s"})
    assert response.status_code == 200
    body = response.get_json()
    assert [w["tile"] for w in body["waits"]] == ["2m", "3m"] and body["ruleset"] == "competition"


def test_analyze_with_ruleset_override(client):
    hand = {"tiles": "1122m 3344p 5566s 77z EEE"}
    assert client.post("/api/v1/analyze", json=hand).get_json()["winning"] is False
    body = client.post("/api/v1/analyze", json={**hand, "ruleset": "app", "params": {"hands.ligu": True}}).get_json()
    assert body["winning"] is True and body["ruleset"] == "app"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"tiles": "123x"}, "tiles"),
        ({"tiles": "11m", "melds": "912m"}, "melds[0]"),
        ({"melds": "123m"}, "tiles"),
        ({"tiles": 5}, "tiles"),
        ({"tiles": "11m", "params": {"nope": 1}}, "params.nope"),
        ({"tiles": "11m", "params": {"hands.ligu": "maybe"}}, "params.hands.ligu"),
        ({"tiles": "11m", "ruleset": "house"}, "ruleset"),
        ([1, 2], "body"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, field):
    response = client.post("/api/v1/analyze", json=body)
    assert response.status_code == 400
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["field"] == field and problem["detail_zh"]


def test_rulesets_listed_and_shown_with_overrides(client):
    names = [p["profile"] for p in client.get("/api/v1/rulesets").get_json()["profiles"]]
    assert {"competition", "competition-000", "app"} <= set(names)
    body = client.get("/api/v1/rulesets/competition-000?hands.ligu=true").get_json()
    assert body["values"]["tai.five_concealed_pungs"] == 12 and body["values"]["hands.ligu"] is True
    assert body["overrides"] == {"hands.ligu": True}
    missing = client.get("/api/v1/rulesets/house")
    assert missing.status_code == 404 and missing.get_json()["field"] == "profile"  # no such resource

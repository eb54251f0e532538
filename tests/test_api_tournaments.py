"""The tournament API (/api/v1/tournaments) through the real app on a real SQLite file:
every write an event in the log, refused whole (problem+json naming the field) when it
does not fold; official writes, configurable public reads."""
from __future__ import annotations

import csv
import io

import pytest

from app import create_app
from tests.servicekit import sql_rows, admin, bearer, create_table  # noqa: F401 - fixtures
from tests.servicekit import hand_events, make_token, official  # noqa: F401 - fixtures
from tournament.seating import same_relative_order

BASE = "/api/v1/tournaments"
PLAYERS = [{"id": f"P{i}", "name": name} for i, name in enumerate(
    ["王小明", "李大華", "陳美玲", "林志強", "張家豪", "黃淑芬", "吳建國", "劉雅婷"], 1)]


def log_length(app, tid: str) -> int:
    return sql_rows(app.config["DATABASE"], "SELECT COUNT(*) FROM tournament_events WHERE tournament_id = ?",
                    (tid,))[0][0]


def problem(response, status: int, field: str | None) -> dict:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    body = response.get_json()
    assert body["field"] == field, body
    assert body["detail"] and body["detail_zh"]
    return body


def create(client, headers, tid="T1", **settings) -> dict:
    body = {"id": tid, "name": "台北盃", "rounds": 3, "matches_per_round": 2, **settings}
    response = client.post(BASE, json=body, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture()
def event(client, official):
    """T1: 8 players (two tables), 3 rounds of 2 將, scheduled."""
    create(client, official)
    assert client.post(f"{BASE}/T1/players", json={"players": PLAYERS}, headers=official).status_code == 201
    response = client.post(f"{BASE}/T1/schedule", json={"seed": 5}, headers=official)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def table_seats(client, round_no=1, table=1) -> list[str]:
    body = client.get(f"{BASE}/T1/rounds/{round_no}").get_json()
    return next(t for t in body["tables"] if t["table"] == table)["seats"]


# --- create, list, get --------------------------------------------------------------------------


def test_create_list_and_get(client, official):
    response = client.post(BASE, json={"id": "T1", "name": "台北盃", "rounds": 15, "base": 50, "per_tai": 10,
                                       "round_minutes": 90}, headers=official)
    assert response.status_code == 201 and response.headers["Location"] == "/api/v1/tournaments/T1"
    body = response.get_json()
    assert body["settings"] == {"name": "台北盃", "rounds": 15, "matches_per_round": 1, "base": 50, "per_tai": 10,
                                "ruleset": "competition", "round_minutes": 90, "time_zone": None}
    assert body["last_seq"] == 1 and body["players"] == 0 and body["balanced"] is True
    assert [t["id"] for t in client.get(BASE).get_json()["tournaments"]] == ["T1"]
    assert client.get(f"{BASE}/T1").get_json()["name"] == "台北盃"
    log = client.get(f"{BASE}/T1/log").get_json()["records"]
    assert [r["event"]["type"] for r in log] == ["EventCreated"]


@pytest.mark.parametrize("body, field", [
    ({"name": "x", "rounds": 3}, "id"),
    ({"id": "bad id!", "name": "x", "rounds": 3}, "id"),
    ({"id": "T2", "rounds": 3}, "name"),
    ({"id": "T2", "name": "x", "rounds": 0}, "rounds"),
    ({"id": "T2", "name": "x", "rounds": 3, "ruleset": "house"}, "ruleset"),
    ({"id": "T2", "name": "x", "rounds": 3, "base": -1}, "base"),
    ([1], "body"),
])
def test_a_bad_event_is_a_400_naming_the_field(client, official, body, field):
    problem(client.post(BASE, json=body, headers=official), 400, field)
    assert client.get(BASE).get_json()["tournaments"] == []


def test_an_id_is_taken_once(client, official):
    create(client, official)
    problem(client.post(BASE, json={"id": "T1", "name": "again", "rounds": 2}, headers=official), 409, "id")
    assert client.get(f"{BASE}/T1").get_json()["name"] == "台北盃"


def test_unknown_tournament_is_a_404(client, official):
    problem(client.get(f"{BASE}/nope"), 404, "tournament_id")
    problem(client.post(f"{BASE}/nope/players", json={"players": PLAYERS}, headers=official), 404, "tournament_id")


# --- auth ------------------------------------------------------------------------------------------


def test_writes_need_an_official(app, client, official):
    create(client, official)
    create_table(client, official, "A1")
    table_token = bearer(make_token(app.config["DATABASE"], "table", "A1"))
    problem(client.post(BASE, json={"id": "T2", "name": "x", "rounds": 1}, headers=table_token), 403, "Authorization")
    problem(client.post(BASE, json={"id": "T2", "name": "x", "rounds": 1}), 401, "Authorization")
    problem(client.post(f"{BASE}/T1/players", json={"players": PLAYERS}, headers=table_token), 403, "Authorization")
    problem(client.post(f"{BASE}/T1/reverts", json={"seq": 1, "reason": "x"}, headers=table_token), 403,
            "Authorization")
    assert log_length(app, "T1") == 1
    admin_token = bearer(make_token(app.config["DATABASE"], "admin"))
    assert client.post(f"{BASE}/T1/players", json={"players": PLAYERS[:1]}, headers=admin_token).status_code == 201


def test_reads_are_public_by_default(client, official, event):
    for path in ("", "/T1", "/T1/players", "/T1/schedule", "/T1/rounds/1", "/T1/hands", "/T1/standings",
                 "/T1/log", "/T1/balance", "/T1/links", "/T1/advancement?round=1"):
        assert client.get(BASE + path).status_code == 200, path


def test_reads_can_be_made_private(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "private.sqlite3"), "PUBLIC_READS": "rulesets"})
    client = app.test_client()
    headers = bearer(make_token(app.config["DATABASE"], "official"))
    create(client, headers)
    problem(client.get(f"{BASE}/T1"), 401, "Authorization")
    problem(client.get(f"{BASE}/T1/standings"), 401, "Authorization")
    assert client.get(f"{BASE}/T1", headers=headers).status_code == 200


# --- players ---------------------------------------------------------------------------------------


def test_register_players_in_a_batch_with_substitutes(app, client, official):
    create(client, official)
    response = client.post(f"{BASE}/T1/players", json={"players": [*PLAYERS, {"id": "S1", "name": "替補甲",
                                                                              "substitute": True}]}, headers=official)
    assert response.status_code == 201
    players = client.get(f"{BASE}/T1/players").get_json()["players"]
    assert [p["name"] for p in players][:3] == ["王小明", "李大華", "陳美玲"]
    assert players[-1] == {"id": "S1", "name": "替補甲", "substitute": True, "withdrawn_before": None, "team": None,
                           "teams_before": []}
    body = client.get(f"{BASE}/T1").get_json()
    assert (body["players"], body["substitutes"]) == (8, 1)


def test_a_refused_batch_writes_nothing(app, client, official):
    create(client, official)
    client.post(f"{BASE}/T1/players", json={"players": PLAYERS[:2]}, headers=official)
    before = log_length(app, "T1")
    body = problem(client.post(f"{BASE}/T1/players", json={"players": PLAYERS[2:4] + PLAYERS[:1]}, headers=official),
                   409, "player_id")
    assert body["code"] == "event_refused" and "已報名" in body["detail_zh"]
    problem(client.post(f"{BASE}/T1/players", json={"players": [PLAYERS[5], PLAYERS[5]]}, headers=official),
            400, "players[1].id")
    problem(client.post(f"{BASE}/T1/players", json={"players": [{"id": "P9"}]}, headers=official), 400,
            "players[0].name")
    assert log_length(app, "T1") == before
    assert len(client.get(f"{BASE}/T1/players").get_json()["players"]) == 2


# --- schedule, rounds, substitutes, withdrawals ------------------------------------------------------


def test_schedule_and_its_quality(client, official, event):
    assert event["quality"]["ok"] and event["quality"]["rounds"] == 3 and event["quality"]["max_meetings"] >= 2
    assert [r["round"] for r in event["rounds"]] == [1, 2, 3]
    schedule = client.get(f"{BASE}/T1/schedule").get_json()
    assert schedule["quality"] == event["quality"]
    first = schedule["rounds"][0]["tables"][0]
    assert len(first["seats"]) == 4 and first["names"][0] in {p["name"] for p in PLAYERS}


def test_seat_a_round_by_hand(app, client, official, event):
    ids = [p["id"] for p in PLAYERS]
    body = {"tables": [{"table": 1, "seats": ids[:4]}, {"table": 2, "seats": ids[4:]}]}
    response = client.put(f"{BASE}/T1/rounds/2", json=body, headers=official)
    assert response.status_code == 200, response.get_json()
    assert table_seats(client, 2) == ids[:4]
    before = log_length(app, "T1")
    problem(client.put(f"{BASE}/T1/rounds/2", json={"tables": [{"table": 1, "seats": ["P1", "P2", "P3", "XX"]}]},
                       headers=official), 409, "tables")
    problem(client.put(f"{BASE}/T1/rounds/2", json={"tables": [{"table": 1, "seats": ["P1", "P2"]}]},
                       headers=official), 400, "tables[0].seats")
    body = client.put(f"{BASE}/T1/rounds/2", json={"tables": [{"table": 1, "seats": ["P1"]}]},
                      headers=official).get_json()
    # one path spelling (as the domain's items[1].code), and the reason in zh-TW before marshmallow's English
    assert body["detail_zh"] == "欄位「tables[0].seats」：長度須為 4（Length must be 4.）", body
    assert log_length(app, "T1") == before


def test_a_substitute_takes_a_free_seat(client, official):
    create(client, official, rounds=2, matches_per_round=1)
    players = PLAYERS[:7] + [{"id": "S1", "name": "替補甲", "substitute": True}]
    client.post(f"{BASE}/T1/players", json={"players": players}, headers=official)
    rounds = client.post(f"{BASE}/T1/schedule", json={"seed": 1}, headers=official).get_json()["rounds"]
    table = next(t for t in rounds[0]["tables"] if None in t["seats"])
    wind = ["東", "南", "西", "北"][table["seats"].index(None)]
    response = client.post(f"{BASE}/T1/rounds/1/substitutes", json={"table": table["table"], "wind": wind,
                                                                    "player_id": "S1"}, headers=official)
    assert response.status_code == 201, response.get_json()
    assert "S1" in table_seats(client, 1, table["table"])
    # the same again is a resend (issue #12 item 7): answered as a duplicate, nothing written
    again = client.post(f"{BASE}/T1/rounds/1/substitutes", json={"table": table["table"], "wind": wind,
                                                                 "player_id": "S1"}, headers=official)
    assert again.status_code == 200 and again.get_json() == {**response.get_json(), "duplicate": True}
    # the seat is taken: another seat for S1 is refused
    other = ["東", "南", "西", "北"][(table["seats"].index(None) + 1) % 4]
    problem(client.post(f"{BASE}/T1/rounds/1/substitutes", json={"table": table["table"], "wind": other,
                                                                "player_id": "S1"}, headers=official), 409, "wind")
    problem(client.post(f"{BASE}/T1/rounds/1/substitutes", json={"table": 1, "wind": "中", "player_id": "S1"},
                        headers=official), 400, "wind")


def test_a_withdrawal_reseats_the_later_rounds_and_keeps_the_past(client, official, event):
    client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": [0, 0, 0, 0]}, headers=official)
    round_one = client.get(f"{BASE}/T1/rounds/1").get_json()
    gone = table_seats(client, 1)[0]
    problem(client.post(f"{BASE}/T1/withdrawals", json={"player_id": gone, "before_round": 1}, headers=official),
            409, "before_round")
    response = client.post(f"{BASE}/T1/withdrawals", json={"player_id": gone, "before_round": 2, "reason": "身體不適"},
                           headers=official)
    assert response.status_code == 201, response.get_json()
    assert client.get(f"{BASE}/T1/rounds/1").get_json() == round_one
    for r in (2, 3):
        seated = [p for t in client.get(f"{BASE}/T1/rounds/{r}").get_json()["tables"] for p in t["seats"]]
        assert gone not in seated and None in seated
    players = {p["id"]: p for p in client.get(f"{BASE}/T1/players").get_json()["players"]}
    assert players[gone]["withdrawn_before"] == 2
    problem(client.post(f"{BASE}/T1/withdrawals", json={"player_id": "nobody", "before_round": 2},
                        headers=official), 409, "player_id")


# --- 搬風 and 定莊 -------------------------------------------------------------------------------------


def test_generated_draw_and_the_redraw_rule_of_the_second_match(client, official, event):
    first = client.post(f"{BASE}/T1/rounds/1/tables/1/matches/1/draw", json={"seed": 3}, headers=official)
    assert first.status_code == 201, first.get_json()
    first = first.get_json()
    assert sorted(first["seats"]) == sorted(table_seats(client))
    assert first["generated"] and 0 <= first["dealer"] <= 3 and first["dealer_draw"]["thrower"] == first["east"]
    client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "match": 1, "payments": [0, 0, 0, 0]},
                headers=official)
    pay = [0, 0, 0, 0]
    pay[2], pay[3] = 120, -120
    client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "match": 1, "payments": pay,
                                          "wins": [{"seat": 2, "tai": 1, "deal_in": 3}]}, headers=official)
    problem(client.post(f"{BASE}/T1/rounds/1/tables/1/matches/2/draw", json={"seed": 1, "thrower": 0},
                        headers=official), 400, "thrower")
    for seed in range(6):
        second = client.post(f"{BASE}/T1/rounds/1/tables/1/matches/2/draw", json={"seed": seed}, headers=official)
        assert second.status_code == 201, second.get_json()
        second = second.get_json()
        assert second["draws"][0]["thrower"] == 2
        assert not same_relative_order(first["seats"], second["seats"])
    matches = client.get(f"{BASE}/T1/rounds/1").get_json()["tables"][0]["matches"]
    assert matches[1]["seats"] == second["seats"] and matches[1]["dealer"] == second["dealer"]


def test_a_recorded_draw(client, official, event):
    body = {"thrower": 1, "draws": [{"thrower": 1, "dice": [1, 2, 3], "tiles": ["南", "東", "北", "西"]}],
            "dealer_dice": [3, 4, 4]}
    response = client.post(f"{BASE}/T1/rounds/1/tables/2/matches/1/draw", json=body, headers=official)
    assert response.status_code == 201, response.get_json()
    out = response.get_json()
    assert out["generated"] is False and out["draws"] == [{"thrower": 1, "dice": [1, 2, 3],
                                                           "tiles": ["SOUTH", "EAST", "NORTH", "WEST"]}]
    assert out["dealer_draw"] == {"thrower": out["east"], "dice": [3, 4, 4]}
    problem(client.post(f"{BASE}/T1/rounds/1/tables/2/matches/1/draw", json={**body, "dealer_dice": None},
                        headers=official), 400, "dealer_dice")
    problem(client.post(f"{BASE}/T1/rounds/1/tables/2/matches/1/draw",
                        json={**body, "draws": [{**body["draws"][0], "thrower": 2}]}, headers=official),
            400, "draws[0].thrower")
    problem(client.post(f"{BASE}/T1/rounds/9/tables/2/matches/1/draw", json={"seed": 1}, headers=official), 409,
            "table")
    unrecorded = {"draws": [{"thrower": 3, "dice": [6, 6, 6], "tiles": ["東", "南", "西", "北"]}],
                  "dealer_dice": [1, 1, 2]}
    assert client.post(f"{BASE}/T1/rounds/1/tables/1/matches/1/draw", json=unrecorded,
                       headers=official).get_json()["draws"][0]["thrower"] == 3
    # the first 將 has no hand yet: who throws for the second cannot be known
    problem(client.post(f"{BASE}/T1/rounds/1/tables/2/matches/2/draw", json={"seed": 1}, headers=official), 400,
            "thrower")


# --- results -------------------------------------------------------------------------------------------


def test_typed_results(app, client, official, event):
    ok = client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": [-260, 260, 0, 0],
                                               "wins": [{"seat": 1, "tai": 8, "deal_in": 0}]}, headers=official)
    assert ok.status_code == 201 and ok.get_json()["key"] == [1, 1, 1, 1]
    before = log_length(app, "T1")
    problem(client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": [-260, 250, 0, 0]},
                        headers=official), 400, "payments")
    problem(client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "hand": 3, "payments": [0, 0, 0, 0]},
                        headers=official), 409, "key")
    problem(client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "hand": 1, "payments": [0, 0, 0, 0]},
                        headers=official), 409, "key")
    problem(client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 7, "payments": [0, 0, 0, 0]},
                        headers=official), 409, "table")
    problem(client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": [0, 0, 0]},
                        headers=official), 400, "payments")
    assert log_length(app, "T1") == before
    hands = client.get(f"{BASE}/T1/hands").get_json()["hands"]
    assert hands[0]["key"] == [1, 1, 1, 1] and hands[0]["payments"] == [-260, 260, 0, 0]
    assert client.get(f"{BASE}/T1/hands?round=1&table=1").get_json()["hands"] == hands
    assert client.get(f"{BASE}/T1/hands?table=2").get_json()["hands"] == []
    problem(client.get(f"{BASE}/T1/hands?round=x"), 400, "round")
    assert hands[0]["players"] == table_seats(client)


def test_scorer_entry_by_tai_items(app, client, official, event):
    drawn = client.post(f"{BASE}/T1/rounds/1/tables/1/matches/1/draw", json={"seed": 2}, headers=official).get_json()
    dealer = drawn["dealer"]
    winner, deal_in = (dealer + 1) % 4, (dealer + 2) % 4
    body = {"round": 1, "table": 1, "dealer": dealer, "winner": winner, "deal_in": deal_in,
            "items": ["concealed_hand", {"code": "full_flush", "tai": 12}], "tai": 13}
    response = client.post(f"{BASE}/T1/hands/entry", json=body, headers=official)
    assert response.status_code == 201, response.get_json()
    out = response.get_json()
    expected = [0, 0, 0, 0]
    expected[winner], expected[deal_in] = 360, -360
    assert out["result"]["payments"] == expected and out["settlement"]["tai"] == 13
    before = log_length(app, "T1")
    # the dealer passed to the winner: the same dealer again is refused, naming the field
    problem(client.post(f"{BASE}/T1/hands/entry", json=body, headers=official), 400, "dealer")
    bad = {**body, "dealer": winner, "items": ["full_flush", "half_flush"], "tai": None}
    assert problem(client.post(f"{BASE}/T1/hands/entry", json=bad, headers=official), 400,
                   "items[1].code")["code"] == "invalid_entry"
    problem(client.post(f"{BASE}/T1/hands/entry", json={**bad, "items": ["大車輪"]}, headers=official), 400,
            "items[0].code")
    problem(client.post(f"{BASE}/T1/hands/entry", json={**bad, "items": [7]}, headers=official), 400, "items[0]")
    assert log_length(app, "T1") == before
    trail = client.get(f"{BASE}/T1/hands/1/1/1/1/audit").get_json()["trail"]
    assert trail[0]["entry"]["items"][1] == {"code": "full_flush", "count": 1, "tai": 12}


def test_corrections_reverts_and_the_audit_trail(app, client, official, event):
    client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 2, "payments": [0, 0, 0, 0]}, headers=official)
    problem(client.post(f"{BASE}/T1/hands/1/2/1/1/corrections", json={"payments": [10, -10, 0, 0]},
                        headers=official), 400, "reason")
    problem(client.post(f"{BASE}/T1/hands/1/2/1/2/corrections", json={"reason": "x", "payments": [0, 0, 0, 0]},
                        headers=official), 409, "key")
    fixed = client.post(f"{BASE}/T1/hands/1/2/1/1/corrections",
                        json={"reason": "計分員誤記為荒局", "payments": [120, -120, 0, 0],
                              "wins": [{"seat": 0, "tai": 1, "deal_in": 1}]}, headers=official)
    assert fixed.status_code == 201
    seq = fixed.get_json()["records"][0]["seq"]
    assert client.get(f"{BASE}/T1/hands").get_json()["hands"][0]["payments"] == [120, -120, 0, 0]
    problem(client.post(f"{BASE}/T1/reverts", json={"seq": 1, "reason": "x"}, headers=official), 409, "seq")
    problem(client.post(f"{BASE}/T1/reverts", json={"seq": seq}, headers=official), 400, "reason")
    undo = client.post(f"{BASE}/T1/reverts", json={"seq": seq, "reason": "更正有誤"}, headers=official)
    assert undo.status_code == 201
    assert client.get(f"{BASE}/T1/hands").get_json()["hands"][0]["payments"] == [0, 0, 0, 0]
    trail = client.get(f"{BASE}/T1/hands/1/2/1/1/audit").get_json()["trail"]
    assert [(e["kind"], e["in_effect"], e["reason"]) for e in trail] == [
        ("HandRecorded", True, ""), ("HandCorrected", False, "計分員誤記為荒局"), ("Reverted", True, "更正有誤")]
    assert all(e["by_role"] == "official" and e["at"] for e in trail)
    problem(client.get(f"{BASE}/T1/hands/1/2/1/9/audit"), 404, "hand")


def test_correct_by_a_scorers_entry(client, official, event):
    client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": [0, 0, 0, 0]}, headers=official)
    response = client.post(f"{BASE}/T1/hands/1/1/1/1/corrections",
                           json={"reason": "補登", "entry": {"dealer": 0, "winner": 3, "items": ["self_draw"]}},
                           headers=official)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["result"]["payments"] == [-140, -120, -120, 380]


# --- referee tables ----------------------------------------------------------------------------------------


def test_link_and_sync_a_referee_table(app, client, official, event):
    create_table(client, official, "R1", tournament="T1")
    create_table(client, official, "X1")
    problem(client.post(f"{BASE}/T1/links", json={"table_id": "X1", "round": 1, "table": 1}, headers=official),
            409, "table_id")
    problem(client.post(f"{BASE}/T1/links", json={"table_id": "nope", "round": 1, "table": 1}, headers=official),
            404, "table_id")
    problem(client.post(f"{BASE}/T1/links", json={"table_id": "R1", "round": 1, "table": 9}, headers=official),
            409, "table")
    assert client.post(f"{BASE}/T1/links", json={"table_id": "R1", "round": 1, "table": 2},
                       headers=official).status_code == 201
    problem(client.post(f"{BASE}/T1/links", json={"table_id": "R1", "round": 1, "table": 1}, headers=official),
            409, "table_id")
    for hand in (1, 2):
        posted = client.post("/api/v1/tables/R1/events", json={"events": hand_events(20 + hand, hand=hand)},
                             headers=official)
        assert posted.status_code == 200
    referee_hands = client.get("/api/v1/tables/R1/hands").get_json()["hands"]
    synced = client.post(f"{BASE}/T1/sync", headers=official).get_json()
    assert synced["problems"] == []
    recorded = [r["event"] for r in synced["recorded"] if r["event"]["type"] == "HandRecorded"]
    assert [e["key"] for e in recorded] == [[1, 2, 1, 1], [1, 2, 1, 2]]
    assert [e["result"]["payments"] for e in recorded] == [h["payments"] for h in referee_hands]
    assert client.post(f"{BASE}/T1/sync", headers=official).get_json()["recorded"] == []
    assert client.get(f"{BASE}/T1/links").get_json()["links"] == [
        {"table_id": "R1", "round": 1, "table": 2, "match": 1}]


# --- standings, log, balance -----------------------------------------------------------------------------


def test_standings_csv_advancement_log_and_balance(client, official, event):
    seats = table_seats(client)
    client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": [-260, 260, 0, 0],
                                          "wins": [{"seat": 1, "tai": 8, "deal_in": 0}]}, headers=official)
    rows = client.get(f"{BASE}/T1/standings").get_json()
    assert rows["tie_breaks"] == ["fewer_deal_ins", "more_self_draws", "more_wins", "more_tai"]
    assert rows["standings"][0]["player_id"] == seats[1] and rows["standings"][0]["points"] == 260
    assert rows["standings"][-1]["player_id"] == seats[0]
    chained = client.get(f"{BASE}/T1/standings?tie_breaks=more_tai,fewer_hands&rounds=1").get_json()
    assert chained["tie_breaks"] == ["more_tai", "fewer_hands"]
    luck = problem(client.get(f"{BASE}/T1/standings?tie_breaks=luck"), 400, "tie_breaks")
    assert "more_tai" in luck["detail"]  # the known names
    problem(client.get(f"{BASE}/T1/standings?rounds=one"), 400, "rounds")
    response = client.get(f"{BASE}/T1/standings?format=csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.data.startswith(b"\xef\xbb\xbf")  # a BOM: Excel on zh-TW Windows reads the names as UTF-8
    table = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert table[0][:4] == ["名次 Rank", "代號 ID", "姓名 Name", "總分 Points"] and table[1][1] == seats[1]
    adv = client.get(f"{BASE}/T1/advancement?round=1&take=2").get_json()
    first = next(t for t in adv["tables"] if t["table"] == 1)
    assert first["advancing"][0] == seats[1] and len(first["advancing"]) + len(first["tie_at_cut"]) >= 2
    problem(client.get(f"{BASE}/T1/advancement?round=1&take=3"), 400, "take")
    log = client.get(f"{BASE}/T1/log?after=1").get_json()
    assert log["records"][0]["seq"] == 2 and log["records"][-1]["event"]["type"] == "HandRecorded"
    assert client.get(f"{BASE}/T1/balance").get_json() == {"ok": True, "hands": 1, "problems": []}


def test_the_endpoints_are_in_openapi(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    for path in ("/api/v1/tournaments", "/api/v1/tournaments/{tid}/hands/entry", "/api/v1/tournaments/{tid}/sync",
                 "/api/v1/tournaments/{tid}/standings"):
        assert path in paths


def test_a_hand_that_cannot_be_synced_is_reported_and_nothing_of_it_written(app, client, official, event):
    create_table(client, official, "R2", tournament="T1")
    client.post(f"{BASE}/T1/links", json={"table_id": "R2", "round": 1, "table": 2}, headers=official)
    client.post("/api/v1/tables/R2/events", json={"events": hand_events(31, hand=1)}, headers=official)
    ids = [p["id"] for p in PLAYERS]
    ok = client.put(f"{BASE}/T1/rounds/1", json={"tables": [{"table": 1, "seats": ids[:4]}]}, headers=official)
    assert ok.status_code == 200
    before = log_length(app, "T1")
    synced = client.post(f"{BASE}/T1/sync", headers=official).get_json()
    assert synced["recorded"] == []
    assert [(p["table_id"], p["hand"], p["field"]) for p in synced["problems"]] == [("R2", 1, "table")]
    assert log_length(app, "T1") == before


def test_the_record_cache_keeps_committed_records_only(app, client, official, event):
    """``store.tournaments.load_records`` reuses decoded committed records; a write rolled back
    never shows, a later one does."""
    from store import connect
    from store.tournaments import append_events, load_records
    from tournament.events import PlayerRegistered

    db = connect(app.config["DATABASE"])
    try:
        count = len(load_records(db, "T1"))
        with pytest.raises(RuntimeError):
            with db.atomic():
                append_events(db, "T1", [PlayerRegistered("Z1", "趙一")])
                raise RuntimeError("rolled back")
        assert len(load_records(db, "T1")) == count
        with db.atomic():
            append_events(db, "T1", [PlayerRegistered("Z2", "趙二")])
        records = load_records(db, "T1")
        assert len(records) == count + 1 and records[-1].event.player_id == "Z2"
    finally:
        db.close()
    assert [p["id"] for p in client.get(f"{BASE}/T1/players").get_json()["players"]][-1] == "Z2"


def physical_hand(seed: int, hand: int, shown: bool = True) -> list[dict]:
    """A generated hand as a physical table records it; ``shown=False``: the winner never
    showed his hand, so the referee cannot score the win."""
    from dataclasses import replace

    from referee.events import EventType, event_to_dict
    from referee.generator import generate_hand, physical_view

    events = physical_view(generate_hand(seed, hand=hand, table="x"))
    if not shown:
        events = [replace(e, tiles=None) if e.type is EventType.WIN else e for e in events]
    out = [event_to_dict(e) for e in events]
    for seq, e in enumerate(out, 1):  # the wall event is not sent: number the rest without a gap
        e.pop("table", None)
        e["seq"] = seq
    return out


def test_an_unscored_referee_hand_is_entered_by_items_and_the_sync_goes_on(app, client, official, event):
    create_table(client, official, "P1", tournament="T1", mode="physical")
    client.post(f"{BASE}/T1/links", json={"table_id": "P1", "round": 1, "table": 1}, headers=official)
    for hand, seed, shown in ((1, 2, False), (2, 5, True)):
        posted = client.post("/api/v1/tables/P1/events", json={"events": physical_hand(seed, hand, shown)},
                             headers=official)
        assert posted.status_code == 200, posted.get_json()
    stuck = client.post(f"{BASE}/T1/sync", headers=official).get_json()
    assert stuck["recorded"] == [] and [(p["hand"], p["field"]) for p in stuck["problems"]] == [(1, "outcome")]
    win = client.get("/api/v1/tables/P1/hands").get_json()["hands"][0]["outcome"]["wins"][0]
    entry = {"round": 1, "table": 1, "dealer": 0, "winner": win["seat"], "deal_in": win["discarder"],
             "items": ["self_draw"] if win["discarder"] is None else ["single_wait"], "referee_hand": 1}
    problem(client.post(f"{BASE}/T1/hands/entry", json={**entry, "table": 2}, headers=official), 409, "referee_hand")
    assert client.post(f"{BASE}/T1/hands/entry", json=entry, headers=official).status_code == 201
    problem(client.post(f"{BASE}/T1/hands/entry", json=entry, headers=official), 409, "referee_hand")
    # naming its hand, the same entry is a resend: a duplicate with the records it made (issue #12 item 7)
    dup = client.post(f"{BASE}/T1/hands/entry", json={**entry, "hand": 1}, headers=official)
    assert dup.status_code == 200 and dup.get_json()["duplicate"] is True
    assert [r["event"]["type"] for r in dup.get_json()["records"]] == ["HandRecorded", "ScorerEntered",
                                                                       "RefereeHandSynced"]
    synced = client.post(f"{BASE}/T1/sync", headers=official).get_json()
    assert synced["problems"] == []
    assert [r["event"]["key"] for r in synced["recorded"] if r["event"]["type"] == "HandRecorded"] == [[1, 1, 1, 2]]


# --- what the spec says, the server does (issue #12 item 6) ------------------------------------


def test_a_step_the_events_state_refuses_is_a_409_and_a_round_not_seated_a_404(client, official):
    create(client, official)
    client.post(f"{BASE}/T1/players", json={"players": PLAYERS[:2]}, headers=official)
    # two players registered: the event's state, not the body, stops the schedule
    problem(client.post(f"{BASE}/T1/schedule", json={"seed": 1}, headers=official), 409, "players")
    problem(client.get(f"{BASE}/T1/advancement?round=2"), 404, "round")
    assert log_length(client.application, "T1") == 3  # created and two players: nothing else written


def test_a_withdrawal_leaving_too_few_to_seat_is_a_409(client, official, event):
    for k in range(1, 5):  # 8 players: the fifth withdrawal would leave 3
        withdrew = client.post(f"{BASE}/T1/withdrawals", json={"player_id": f"P{k}", "before_round": 2},
                               headers=official)
        assert withdrew.status_code == 201, withdrew.get_json()
    before = log_length(client.application, "T1")
    problem(client.post(f"{BASE}/T1/withdrawals", json={"player_id": "P5", "before_round": 2}, headers=official),
            409, "withdrawn")
    assert log_length(client.application, "T1") == before


@pytest.mark.parametrize("body, field", [
    ({"players": [{"id": "P1", "name": "王", "substitute": 0}]}, "players[0].substitute"),
    ({"players": [{"id": "P1", "name": "王", "substitute": "yes"}]}, "players[0].substitute"),
])
def test_a_boolean_is_a_json_boolean(client, official, body, field):
    create(client, official)
    problem(client.post(f"{BASE}/T1/players", json=body, headers=official), 400, field)


@pytest.mark.parametrize("body, field", [
    ({"per_tai": 2.5}, "per_tai"),
    ({"per_tai": 1e-42}, "per_tai"),
    ({"rounds": "3"}, "rounds"),
])
def test_an_integer_is_a_json_integer(client, official, body, field):
    response = client.post(BASE, json={"id": "T9", "name": "盃", "rounds": 3, **body}, headers=official)
    problem(response, 400, field)
    assert client.get(f"{BASE}/T9").status_code == 404


def test_the_seating_published_of_a_new_tournament_is_empty(client, official):
    create(client, official)
    shown = client.get(f"{BASE}/T1/seating/published")
    assert shown.status_code == 200 and shown.get_json()["round"] is None and shown.get_json()["tables"] == []


def test_an_entry_with_several_winners_on_one_discard(app, client, official):
    """一炮多響 by items (issue #15): taken where ``play.multiple_wins`` (taida-cup), each winner
    settled with the discarder; refused naming ``also`` under ``competition``, nothing written."""
    for tid, ruleset in (("M1", "taida-cup"), ("C1", "competition")):
        create(client, official, tid=tid, ruleset=ruleset)
        assert client.post(f"{BASE}/{tid}/players", json={"players": PLAYERS}, headers=official).status_code == 201
        assert client.post(f"{BASE}/{tid}/schedule", json={"seed": 5}, headers=official).status_code == 201
    body = {"round": 1, "table": 1, "dealer": 3, "winner": 0, "deal_in": 2, "items": ["concealed_hand"],
            "also": [{"winner": 1, "items": ["full_flush"]}]}
    response = client.post(f"{BASE}/M1/hands/entry", json=body, headers=official)
    assert response.status_code == 201, response.get_json()
    out = response.get_json()
    assert [w["seat"] for w in out["result"]["wins"]] == [0, 1]
    assert out["result"]["payments"][2] == -sum(out["result"]["payments"][s] for s in (0, 1))
    assert [w["winner"] for w in out["settlement"]["wins"]] == [0, 1]
    trail = client.get(f"{BASE}/M1/hands/1/1/1/1/audit").get_json()["trail"]
    assert trail[0]["entry"]["also"][0]["winner"] == 1  # the log keeps every winner's items
    before = log_length(app, "C1")
    problem(client.post(f"{BASE}/C1/hands/entry", json=body, headers=official), 400, "also")
    assert log_length(app, "C1") == before


# --- team events (issue #15 item 4, R-tour-30) -------------------------------------------------------------


def test_players_register_with_a_team_and_the_teams_are_ranked(app, client, official):
    create(client, official, rounds=1, matches_per_round=1)
    teams = ["台北隊", "台北隊", " 高雄隊 ", "高雄隊"]
    players = [{**p, "team": t} for p, t in zip(PLAYERS[:4], teams)]
    assert client.post(f"{BASE}/T1/players", json={"players": players}, headers=official).status_code == 201
    listed = client.get(f"{BASE}/T1/players").get_json()["players"]
    assert [p["team"] for p in listed] == ["台北隊", "台北隊", "高雄隊", "高雄隊"]  # stripped
    ids = [p["id"] for p in PLAYERS[:4]]
    client.put(f"{BASE}/T1/rounds/1", json={"tables": [{"table": 1, "seats": ids}]}, headers=official)
    response = client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": [0, 0, 260, -260],
                                                     "wins": [{"seat": 2, "tai": 8, "deal_in": 3}]}, headers=official)
    assert response.status_code == 201, response.get_json()
    body = client.get(f"{BASE}/T1/standings/teams").get_json()
    assert [(t["rank"], t["team"], t["points"], t["members"]) for t in body["teams"]] == [
        (1, "台北隊", 0, ["P1", "P2"]), (2, "高雄隊", 0, ["P3", "P4"])]  # equal points: fewer 放槍 first
    assert not any(t["tied"] for t in body["teams"]) and body["teams"][0]["names"] == ["王小明", "李大華"]
    assert body["teams"][1]["deal_ins"] == 1 and body["teams"][1]["wins"] == 1
    response = client.get(f"{BASE}/T1/standings/teams?format=csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8" and response.data.startswith(b"\xef\xbb\xbf")
    table = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert table[0][:3] == ["名次 Rank", "隊名 Team", "隊員 Members"] and table[1][1:3] == ["台北隊", "王小明、李大華"]
    problem(client.get(f"{BASE}/T1/standings/teams?tie_breaks=luck"), 400, "tie_breaks")
    problem(client.get(f"{BASE}/T1/standings/teams?rounds=one"), 400, "rounds")


def test_an_event_without_teams_has_no_team_standings(client, official, event):
    assert client.get(f"{BASE}/T1/standings/teams").get_json()["teams"] == []
    assert {p["team"] for p in client.get(f"{BASE}/T1/players").get_json()["players"]} == {None}


@pytest.mark.parametrize("team", ["   ", "", "隊" * 41, 7, ["台北隊"]])
def test_a_bad_team_is_refused_naming_the_field(app, client, official, team):
    create(client, official)
    before = log_length(app, "T1")
    body = problem(client.post(f"{BASE}/T1/players", json={"players": [PLAYERS[0], {**PLAYERS[1], "team": team}]},
                               headers=official), 400, "players[1].team")
    assert "隊名" in body["detail_zh"] or "字串" in body["detail_zh"] or "string" in body["detail"].lower()
    assert log_length(app, "T1") == before


def test_a_players_team_is_changed_then_cleared_and_the_team_standings_follow(app, client, official):
    """R-tour-32: ``POST …/players/{pid}/team``: TeamChanged with the reason; the same again writes nothing."""
    create(client, official, rounds=1, matches_per_round=1)
    players = [{**p, "team": t} for p, t in zip(PLAYERS[:4], ["台北隊", "台北隊", "高雄隊", "高雄隊"])]
    assert client.post(f"{BASE}/T1/players", json={"players": players}, headers=official).status_code == 201
    moved = client.post(f"{BASE}/T1/players/P2/team", json={"team": " 高雄隊 ", "reason": "轉隊"}, headers=official)
    assert moved.status_code == 201, moved.get_json()
    assert moved.get_json()["records"][0]["event"] == {"type": "TeamChanged", "player_id": "P2", "team": "高雄隊",
                                                       "reason": "轉隊", "from_round": None}
    members = {t["team"]: t["members"] for t in client.get(f"{BASE}/T1/standings/teams").get_json()["teams"]}
    assert members == {"台北隊": ["P1"], "高雄隊": ["P2", "P3", "P4"]}
    before = log_length(app, "T1")
    again = client.post(f"{BASE}/T1/players/P2/team", json={"team": "高雄隊"}, headers=official)
    assert again.status_code == 200 and log_length(app, "T1") == before  # so already: nothing written
    cleared = client.post(f"{BASE}/T1/players/P1/team", json={"team": None}, headers=official)
    assert cleared.status_code == 201
    assert [t["team"] for t in client.get(f"{BASE}/T1/standings/teams").get_json()["teams"]] == ["高雄隊"]
    before = log_length(app, "T1")
    problem(client.post(f"{BASE}/T1/players/P1/team", json={"team": "隊" * 41}, headers=official), 400, "team")
    problem(client.post(f"{BASE}/T1/players/NOPE/team", json={"team": "甲隊"}, headers=official), 409, "player_id")
    problem(client.post(f"{BASE}/T1/players/P1/team", json={}, headers=official), 400, "team")
    assert client.post(f"{BASE}/T1/players/P1/team", json={"team": "甲隊"}).status_code == 401
    assert client.post(f"{BASE}/NOPE/players/P1/team", json={"team": "甲隊"}, headers=official).status_code == 404
    assert log_length(app, "T1") == before


def test_a_player_moved_from_round_2_leaves_round_1_with_his_old_team(app, client, official):
    """R-tour-32: ``from_round``: a move counts from that round; round 1's team totals stay as played."""
    create(client, official, rounds=2, matches_per_round=1)
    players = [{**p, "team": t} for p, t in zip(PLAYERS[:4], ["台北隊", "台北隊", "高雄隊", "高雄隊"])]
    assert client.post(f"{BASE}/T1/players", json={"players": players}, headers=official).status_code == 201
    seats = {"tables": [{"table": 1, "seats": ["P1", "P2", "P3", "P4"]}]}
    for r in (1, 2):
        assert client.put(f"{BASE}/T1/rounds/{r}", json=seats, headers=official).status_code in (200, 201)
    hand = {"round": 1, "table": 1, "match": 1, "hand": 1, "payments": [-120, 0, 0, 120],
            "wins": [{"seat": 3, "tai": 1, "deal_in": 0}]}
    assert client.post(f"{BASE}/T1/hands", json=hand, headers=official).status_code == 201
    def points():
        return {t["team"]: t["points"] for t in client.get(f"{BASE}/T1/standings/teams").get_json()["teams"]}

    assert points() == {"台北隊": -120, "高雄隊": 120}
    moved = client.post(f"{BASE}/T1/players/P1/team", json={"team": "高雄隊", "reason": "轉隊", "from_round": 2},
                        headers=official)
    assert moved.status_code == 201, moved.get_json()
    assert moved.get_json()["records"][0]["event"]["from_round"] == 2
    assert points() == {"台北隊": -120, "高雄隊": 120}  # round 1 was played for 台北隊
    p1 = next(p for p in client.get(f"{BASE}/T1/players").get_json()["players"] if p["id"] == "P1")
    assert p1["team"] == "高雄隊" and p1["teams_before"] == [{"until_round": 2, "team": "台北隊"}]  # the history shown
    before = log_length(app, "T1")
    again = client.post(f"{BASE}/T1/players/P1/team", json={"team": "高雄隊", "from_round": 2}, headers=official)
    assert again.status_code == 200 and log_length(app, "T1") == before
    problem(client.post(f"{BASE}/T1/players/P1/team", json={"team": "甲隊", "from_round": 3}, headers=official),
            400, "from_round")
    problem(client.post(f"{BASE}/T1/players/P1/team", json={"team": "甲隊", "from_round": "2"}, headers=official),
            400, "from_round")
    problem(client.post(f"{BASE}/T1/players/P1/team", json={"team": "甲隊", "reason": "x" * 501}, headers=official),
            400, "reason")
    assert log_length(app, "T1") == before
    fixed = client.post(f"{BASE}/T1/players/P1/team", json={"team": "高雄隊", "reason": "報名誤植"}, headers=official)
    assert fixed.status_code == 201 and points() == {"台北隊": 0, "高雄隊": 0}  # every round: P1 was 高雄隊's

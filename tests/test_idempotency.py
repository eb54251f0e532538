"""Resending a tournament write is safe (issue #12 item 7), through the real app on a real
SQLite file: ``Idempotency-Key`` answers a resend with the original answer (stored with the
events, in their transaction), a key reused for another request is a 422 naming the header,
keys are the token's own; a request that names its effect (a hand's key, a tournament's
id, players' ids, a link) and finds it recorded so is answered as a duplicate, not a 409."""
from __future__ import annotations

import json
import threading

import pytest

from api.idempotency import HEADER, REPLAYED
from store.dialect import INTEGRITY_ERRORS
from tests.servicekit import sql_rows, bearer, create_table, make_token, official  # noqa: F401 - fixtures
from tests.test_api_tournaments import BASE, PLAYERS, create, log_length, problem

HAND = {"round": 1, "table": 1, "payments": [-260, 260, 0, 0], "wins": [{"seat": 1, "tai": 8, "deal_in": 0}]}


@pytest.fixture()
def event(client, official):
    """T1: 8 players, 3 rounds of 2 將, scheduled (as tests/test_api_tournaments.py's)."""
    create(client, official)
    assert client.post(f"{BASE}/T1/players", json={"players": PLAYERS}, headers=official).status_code == 201
    assert client.post(f"{BASE}/T1/schedule", json={"seed": 5}, headers=official).status_code == 201


def keyed(headers: dict, key: str) -> dict:
    return {**headers, HEADER: key}


def stored_keys(app) -> list[tuple]:
    return sql_rows(app.config["DATABASE"], "SELECT principal, key, status, first_seq, last_seq, tournament_id "
                    "FROM idempotency_keys ORDER BY created_at, principal, key")


# --- Idempotency-Key -------------------------------------------------------------------------------


def test_a_resend_with_its_key_gets_the_original_answer_and_writes_nothing(app, client, official, event):
    first = client.post(f"{BASE}/T1/hands", json=HAND, headers=keyed(official, "hand-1"))
    assert first.status_code == 201 and REPLAYED not in first.headers
    assert first.get_json()["key"] == [1, 1, 1, 1]
    length = log_length(app, "T1")
    # another hand meanwhile: the resend is not "the next hand" again, it is the first answer
    assert client.post(f"{BASE}/T1/hands", json=HAND, headers=official).get_json()["key"] == [1, 1, 1, 2]
    # the same body with its keys in another order and other spacing is the same request
    text = json.dumps(dict(reversed(list(HAND.items()))), indent=2)
    again = client.post(f"{BASE}/T1/hands", data=text, content_type="application/json",
                        headers=keyed(official, "hand-1"))
    assert again.status_code == 201 and again.headers[REPLAYED] == "true"
    assert again.get_json() == first.get_json()
    assert log_length(app, "T1") == length + 1  # only the other hand
    [row] = [r for r in stored_keys(app) if r[1] == "hand-1"]
    assert row[2:] == (201, first.get_json()["records"][0]["seq"], first.get_json()["records"][-1]["seq"], "T1")


def test_the_same_key_for_another_request_is_a_422_naming_the_header(app, client, official, event):
    assert client.post(f"{BASE}/T1/hands", json=HAND, headers=keyed(official, "k")).status_code == 201
    length = log_length(app, "T1")
    other = {**HAND, "table": 2}
    body = problem(client.post(f"{BASE}/T1/hands", json=other, headers=keyed(official, "k")), 422, HEADER)
    assert body["code"] == "idempotency_key_reused"
    # another path with the key: the same
    problem(client.post(f"{BASE}/T1/reverts", json={"seq": 3, "reason": "x"}, headers=keyed(official, "k")), 422,
            HEADER)
    assert log_length(app, "T1") == length


def test_keys_are_each_tokens_own(app, client, official, event):
    other = bearer(make_token(app.config["DATABASE"], "official", label="第二位裁判"))
    assert client.post(f"{BASE}/T1/hands", json=HAND, headers=keyed(official, "same")).get_json()["key"] == [1, 1, 1, 1]
    second = client.post(f"{BASE}/T1/hands", json=HAND, headers=keyed(other, "same"))
    assert second.status_code == 201 and REPLAYED not in second.headers
    assert second.get_json()["key"] == [1, 1, 1, 2]  # another official's write, not a replay of the first
    assert len(stored_keys(app)) == 2


@pytest.mark.parametrize("key", ["", "x" * 256, "鍵", "a\tb"])
def test_a_malformed_key_is_a_400_naming_the_header(app, client, official, event, key):
    length = log_length(app, "T1")
    body = problem(client.post(f"{BASE}/T1/hands", json=HAND, headers=keyed(official, key)), 400, HEADER)
    assert body["code"] == "invalid_idempotency_key"
    assert log_length(app, "T1") == length and stored_keys(app) == []


def test_a_key_needs_a_token_first(app, client, official, event):
    problem(client.post(f"{BASE}/T1/hands", json=HAND, headers={HEADER: "k"}), 401, "Authorization")
    problem(client.post(f"{BASE}/T1/hands", json=HAND, headers={HEADER: ""}), 401, "Authorization")  # before the key
    assert stored_keys(app) == []


def test_a_refused_write_stores_no_key_and_its_resend_is_judged_again(app, client, official, event):
    early = {**HAND, "hand": 2}
    problem(client.post(f"{BASE}/T1/hands", json=early, headers=keyed(official, "early")), 409, "key")
    assert stored_keys(app) == []
    client.post(f"{BASE}/T1/hands", json=HAND, headers=official)  # hand 1: now hand 2 can be recorded
    again = client.post(f"{BASE}/T1/hands", json=early, headers=keyed(official, "early"))
    assert again.status_code == 201 and REPLAYED not in again.headers and again.get_json()["key"] == [1, 1, 1, 2]


def test_every_tournament_write_replays_with_its_key(app, client, official):
    """Each POST/PUT under /api/v1/tournaments: sent twice with one key, one write, one answer."""
    writes = [
        ("POST", BASE, {"id": "T1", "name": "台北盃", "rounds": 3, "matches_per_round": 2, "round_minutes": 90}),
        ("POST", f"{BASE}/T1/players", {"players": PLAYERS + [{"id": "S1", "name": "替補甲", "substitute": True}]}),
        ("POST", f"{BASE}/T1/schedule", {"seed": 5, "rounds": [2, 3]}),
        ("PUT", f"{BASE}/T1/rounds/1", {"tables": [{"table": 1, "seats": ["P1", "P2", "P3", "P4"]},
                                                   {"table": 2, "seats": ["P5", "P6", "P7", "P8"]}]}),
        ("POST", f"{BASE}/T1/rounds/1/tables/1/matches/1/draw", {"seed": 3}),
        ("POST", f"{BASE}/T1/hands", HAND),
        ("POST", f"{BASE}/T1/hands/1/1/1/1/corrections", {"reason": "點錯", "payments": [-300, 300, 0, 0],
                                                          "wins": [{"seat": 1, "tai": 10, "deal_in": 0}]}),
        ("POST", f"{BASE}/T1/reverts", lambda last: {"seq": last["records"][0]["seq"], "reason": "更正撤回"}),
        ("POST", f"{BASE}/T1/withdrawals", {"player_id": "P8", "before_round": 3, "reason": "身體不適"}),
        ("POST", f"{BASE}/T1/sync", None),
        ("PUT", f"{BASE}/T1/clock", {"round_seconds": 5400, "starts": []}),
        ("POST", f"{BASE}/T1/clock/start", {}),
        ("POST", f"{BASE}/T1/clock/pause", {"reason": "停電"}),
        ("POST", f"{BASE}/T1/clock/resume", {}),
        ("POST", f"{BASE}/T1/clock/reports", {"table": 1}),
        ("POST", f"{BASE}/T1/clock/call-time", {}),
        ("POST", f"{BASE}/T1/clock/close", {}),
        ("POST", f"{BASE}/T1/clock/publish", {}),
    ]
    last: dict = {}
    for n, (method, path, body) in enumerate(writes):
        body = body(last) if callable(body) else body  # the revert: of the correction just made
        headers = keyed(official, f"write-{n}")
        first = client.open(path, method=method, json=body, headers=headers)
        assert first.status_code in (200, 201), (path, first.get_json())
        length = log_length(app, "T1")
        again = client.open(path, method=method, json=body, headers=headers)
        assert again.status_code == first.status_code and again.headers[REPLAYED] == "true", path
        assert again.get_json() == first.get_json(), path
        assert again.headers.get("Location") == first.headers.get("Location")
        assert log_length(app, "T1") == length, path
        last = first.get_json()
    assert len(stored_keys(app)) == len(writes)


def test_a_clock_action_resent_with_its_key_is_not_the_next_round(app, client, official, event):
    assert client.put(f"{BASE}/T1/clock", json={"round_seconds": 5400}, headers=official).status_code == 200
    first = client.post(f"{BASE}/T1/clock/start", json={}, headers=keyed(official, "start"))
    assert first.status_code == 200 and first.get_json()["round"]["round"] == 1
    again = client.post(f"{BASE}/T1/clock/start", json={}, headers=keyed(official, "start"))
    assert again.get_json() == first.get_json() and again.headers[REPLAYED] == "true"
    # without the key, the same request is another action: "start the next round", refused now
    problem(client.post(f"{BASE}/T1/clock/start", json={}, headers=official), 409, "round")


def test_concurrent_requests_with_one_key_write_once(app, official, event):
    answers = []

    def post():
        answers.append(app.test_client().post(f"{BASE}/T1/hands", json=HAND, headers=keyed(official, "race")))

    length = log_length(app, "T1")
    threads = [threading.Thread(target=post) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert log_length(app, "T1") == length + 1
    assert {a.status_code for a in answers} == {201}
    assert len({json.dumps(a.get_json(), sort_keys=True) for a in answers}) == 1
    assert sum(REPLAYED not in a.headers for a in answers) == 1  # one wrote, the others were answered from the store


def _resent(app, send, status: int):
    """*send()* twice: the first answered *status*, the resend 200 with the same answer and
    ``"duplicate": true``, nothing more written to T1's log; the first answer."""
    first = send()
    assert first.status_code == status, first.get_json()
    length = log_length(app, "T1")
    again = send()
    assert again.status_code == 200 and again.get_json() == {**first.get_json(), "duplicate": True}
    assert log_length(app, "T1") == length
    return first


# --- a request that names its effect: a duplicate, not a 409 ---------------------------------------


def test_a_hand_named_by_its_key_resent_is_a_duplicate(app, client, official, event):
    body = {**HAND, "hand": 1}
    first = _resent(app, lambda: client.post(f"{BASE}/T1/hands", json=body, headers=official), 201)
    # another body at that key is still the 409 it was
    problem(client.post(f"{BASE}/T1/hands", json={**body, "payments": [0, 0, 0, 0], "wins": []}, headers=official),
            409, "key")
    # corrected since: the resend still names the record it made
    client.post(f"{BASE}/T1/hands/1/1/1/1/corrections", json={"reason": "r", "payments": [0, 0, 0, 0]},
                headers=official)
    assert client.post(f"{BASE}/T1/hands", json=body, headers=official).get_json()["records"] == \
        first.get_json()["records"]
    # another official resending the same hand: the effect asked for is there, recorded by the first
    other = bearer(make_token(app.config["DATABASE"], "official"))
    assert client.post(f"{BASE}/T1/hands", json=body, headers=other).status_code == 200


def test_a_scorers_entry_named_by_its_key_resent_is_a_duplicate(app, client, official, event):
    drawn = client.post(f"{BASE}/T1/rounds/1/tables/1/matches/1/draw", json={"seed": 2}, headers=official).get_json()
    dealer = drawn["dealer"]
    body = {"round": 1, "table": 1, "hand": 1, "dealer": dealer, "winner": (dealer + 1) % 4,
            "deal_in": (dealer + 2) % 4, "items": ["concealed_hand", {"code": "full_flush", "tai": 12}], "tai": 13}
    _resent(app, lambda: client.post(f"{BASE}/T1/hands/entry", json=body, headers=official), 201)
    length = log_length(app, "T1")
    # the same payments by other items is another entry: refused
    problem(client.post(f"{BASE}/T1/hands/entry", json={**body, "items": ["full_flush", "concealed_hand"], "tai": 13},
                        headers=official), 409, "key")
    assert log_length(app, "T1") == length


def test_a_tournament_created_again_exactly_so_is_a_duplicate(client, official):
    first = create(client, official)
    again = client.post(BASE, json={"id": "T1", "name": "台北盃", "rounds": 3, "matches_per_round": 2},
                        headers=official)
    assert again.status_code == 200 and again.get_json() == {**first, "duplicate": True}
    assert again.headers["Location"] == "/api/v1/tournaments/T1"
    problem(client.post(BASE, json={"id": "T1", "name": "台北盃", "rounds": 4, "matches_per_round": 2},
                        headers=official), 409, "id")


def test_players_registered_again_exactly_so_are_a_duplicate(app, client, official):
    create(client, official)
    first = client.post(f"{BASE}/T1/players", json={"players": PLAYERS}, headers=official)
    again = client.post(f"{BASE}/T1/players", json={"players": PLAYERS}, headers=official)
    assert again.status_code == 200 and again.get_json() == {**first.get_json(), "duplicate": True}
    renamed = [{**PLAYERS[0], "name": "別人"}]
    problem(client.post(f"{BASE}/T1/players", json={"players": renamed}, headers=official), 409, "player_id")
    assert log_length(app, "T1") == 1 + len(PLAYERS)


def test_a_round_put_as_it_is_seated_writes_nothing(app, client, official, event):
    plan = {"tables": [{"table": 1, "seats": ["P1", "P2", "P3", "P4"]},
                       {"table": 2, "seats": ["P5", "P6", "P7", "P8"]}]}
    _resent(app, lambda: client.put(f"{BASE}/T1/rounds/2", json=plan, headers=official), 200)


def test_a_link_made_again_is_a_duplicate(app, client, official, event):
    create_table(client, official, "R1", tournament="T1")
    link = {"table_id": "R1", "round": 1, "table": 1, "match": 1}
    first = client.post(f"{BASE}/T1/links", json=link, headers=official)
    assert first.status_code == 201
    again = client.post(f"{BASE}/T1/links", json=link, headers=official)
    assert again.status_code == 200 and again.get_json() == {**first.get_json(), "duplicate": True}
    problem(client.post(f"{BASE}/T1/links", json={**link, "match": 2}, headers=official), 409, "table_id")


def test_a_schedule_made_again_from_its_seed_is_a_duplicate(app, client, official, event):
    length = log_length(app, "T1")
    again = client.post(f"{BASE}/T1/schedule", json={"seed": 5}, headers=official)
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    assert [r["event"]["type"] for r in again.get_json()["records"]] == ["RoundSeated"] * 3
    assert log_length(app, "T1") == length
    # another seed is another schedule: written (its rounds have no results yet)
    assert client.post(f"{BASE}/T1/schedule", json={"seed": 6}, headers=official).status_code == 201


def test_a_draw_again_from_its_seed_is_a_duplicate_another_is_a_redraw(app, client, official, event):
    path = f"{BASE}/T1/rounds/1/tables/1/matches/1/draw"
    _resent(app, lambda: client.post(path, json={"seed": 2}, headers=official), 201)
    assert client.post(path, json={"seed": 9}, headers=official).status_code == 201  # a new draw, as before


def test_a_correction_or_revert_resent_is_a_duplicate(app, client, official, event):
    client.post(f"{BASE}/T1/hands", json=HAND, headers=official)
    fix = {"reason": "台數算錯", "payments": [-300, 300, 0, 0], "wins": [{"seat": 1, "tai": 10, "deal_in": 0}]}
    first = _resent(app, lambda: client.post(f"{BASE}/T1/hands/1/1/1/1/corrections", json=fix, headers=official),
                    201)
    length = log_length(app, "T1")
    undo = {"seq": first.get_json()["records"][0]["seq"], "reason": "更正有誤"}
    reverted = client.post(f"{BASE}/T1/reverts", json=undo, headers=official)
    assert reverted.status_code == 201
    again = client.post(f"{BASE}/T1/reverts", json=undo, headers=official)
    assert again.status_code == 200 and again.get_json() == {**reverted.get_json(), "duplicate": True}
    assert log_length(app, "T1") == length + 1
    # the correction again now that it is reverted: the same body is a new correction, in effect again
    assert client.post(f"{BASE}/T1/hands/1/1/1/1/corrections", json=fix, headers=official).status_code == 201
    assert client.get(f"{BASE}/T1/hands").get_json()["hands"][0]["payments"] == [-300, 300, 0, 0]


# --- the store and the spec ----------------------------------------------------------------------------


def test_stored_answers_are_append_only(app, client, official, event):
    client.post(f"{BASE}/T1/hands", json=HAND, headers=keyed(official, "k"))
    for sql in ("UPDATE idempotency_keys SET status = 200", "DELETE FROM idempotency_keys"):
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            sql_rows(app.config["DATABASE"], sql)


def test_every_tournament_write_documents_the_header(client):
    spec = client.get("/openapi.json").get_json()
    writes = [(path, method, op) for path, item in spec["paths"].items() if path.startswith(BASE)
              for method, op in item.items() if method in ("post", "put")]
    assert len(writes) >= 19
    for path, method, op in writes:
        names = [p["name"] for p in op.get("parameters", []) if p["in"] == "header"]
        assert HEADER in names and "422" in op["responses"], (method, path)

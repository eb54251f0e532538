"""A 48-player event end to end, all through the HTTP API on a real SQLite file.

Created; 48 players (Chinese names) and two 替補 registered; seated for 15 rounds with no
pair meeting twice and every player on each wind 3 or 4 times — checked on the API's own
answers; round 1 played: four tables as referee tables (generated legal streams posted to
the tables API, linked, synced), seven by the scorers' 台 items (dealer and streak
following the 將), one typed in; a hand corrected and the correction reverted; a player
withdrawn before round 2 and a 替補 seated in his place; ranked
(JSON, CSV, 四取一), balances checked. A few hands per table keep it short.
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from itertools import combinations

import pytest

from tests.servicekit import bearer, create_table, hand_events, make_token
from tournament import codec, provenance  # noqa: F401 - provenance registers its side events
from tournament.events import Record, Reverted, replay, replay_kept, replay_more
from tournament.standings import standings as rank_standings

BASE = "/api/v1/tournaments/E48"
SURNAMES = "陳林黃張李王吳劉蔡楊許鄭"
GIVEN = "志明美玲家豪淑芬"
PLAYERS = [{"id": f"p{i:02d}", "name": SURNAMES[i % 12] + GIVEN[(i // 12) * 2: (i // 12) * 2 + 2]}
           for i in range(48)]


@pytest.fixture()
def official(app):
    return bearer(make_token(app.config["DATABASE"], "official", label="裁判長"))


def ok(response, status=201) -> dict:
    assert response.status_code == status, response.get_json()
    return response.get_json()


def test_a_48_player_event_from_creation_to_standings(app, client, official):
    # --- created, registered --------------------------------------------------------------------
    ok(client.post("/api/v1/tournaments", json={"id": "E48", "name": "全國個人賽", "rounds": 15, "base": 100,
                                                "per_tai": 20, "ruleset": "competition"}, headers=official))
    subs = [{"id": "s1", "name": "替補一", "substitute": True}, {"id": "s2", "name": "替補二", "substitute": True}]
    ok(client.post(f"{BASE}/players", json={"players": PLAYERS + subs}, headers=official))
    assert len({p["name"] for p in PLAYERS}) == 48

    # --- seated for 15 rounds: no repeated meeting, winds balanced (from the answers) ------------
    made = ok(client.post(f"{BASE}/schedule", json={"seed": 48}, headers=official))
    assert made["quality"]["repeats"] == 0 and made["quality"]["winds_balanced"]
    rounds = ok(client.get(f"{BASE}/schedule"), 200)["rounds"]
    assert [r["round"] for r in rounds] == list(range(1, 16))
    met: Counter = Counter()
    winds: dict[str, Counter] = {p["id"]: Counter() for p in PLAYERS}
    for rnd in rounds:
        assert len(rnd["tables"]) == 12
        seated = [p for t in rnd["tables"] for p in t["seats"]]
        assert sorted(seated) == sorted(p["id"] for p in PLAYERS)
        for t in rnd["tables"]:
            met.update(frozenset(pair) for pair in combinations(t["seats"], 2))
            for wind, player in enumerate(t["seats"]):
                winds[player][wind] += 1
    assert max(met.values()) == 1 and len(met) == 48 * 3 * 15 // 2
    # 15 rounds over 4 winds: each wind ⌊15/4⌋ = 3 or ⌈15/4⌉ = 4 times, so one wind 3, the others 4
    assert all(sorted(c[w] for w in range(4)) == [3, 4, 4, 4] for c in winds.values())

    # --- round 1: 搬風 and 定莊 at every table ------------------------------------------------------
    dealers = {}
    for t in range(1, 13):
        drawn = ok(client.post(f"{BASE}/rounds/1/tables/{t}/matches/1/draw", json={"seed": 100 + t}, headers=official))
        dealers[t] = drawn["dealer"]

    # --- tables 1–4: referee tables; their closed hands synced ---------------------------------------
    referee_money = {}
    for t in range(1, 5):
        create_table(client, official, f"E48-{t}", tournament="E48")
        ok(client.post(f"{BASE}/links", json={"table_id": f"E48-{t}", "round": 1, "table": t}, headers=official))
        for hand in (1, 2):
            ok(client.post(f"/api/v1/tables/E48-{t}/events", json={"events": hand_events(7 * t + hand, hand=hand)},
                           headers=official), 200)
        referee_money[t] = [h["payments"] for h in ok(client.get(f"/api/v1/tables/E48-{t}/hands"), 200)["hands"]]
    synced = ok(client.post(f"{BASE}/sync", headers=official), 200)
    assert synced["problems"] == [] and len(synced["recorded"]) == 16
    assert ok(client.post(f"{BASE}/sync", headers=official), 200)["recorded"] == []

    # --- tables 5–11: the scorers' 台 items, the deal following the 將 ------------------------------
    for t in range(5, 12):
        d = dealers[t]
        entries = [
            # a non-dealer wins on a discard: the deal passes
            {"dealer": d, "winner": (d + 1) % 4, "deal_in": (d + 2) % 4, "items": ["concealed_hand", "single_wait"]},
            # 荒局: the new dealer repeats
            {"dealer": (d + 1) % 4},
            # the dealer self-draws on his first repeat: 作莊 + 連1拉1 from all three
            {"dealer": (d + 1) % 4, "streak": 1, "winner": (d + 1) % 4,
             "items": ["self_draw", {"code": "dragon_pung", "count": 2}, "dealer", "streak_per_n"], "tai": 3},
        ]
        for entry in entries:
            ok(client.post(f"{BASE}/hands/entry", json={"round": 1, "table": t, **entry}, headers=official))
    wrong = client.post(f"{BASE}/hands/entry", json={"round": 1, "table": 5, "dealer": dealers[5], "winner": 0,
                                                     "deal_in": 1, "items": ["concealed_hand"]}, headers=official)
    assert wrong.status_code == 400 and wrong.get_json()["field"] in ("dealer", "streak")

    # --- table 12: typed in ----------------------------------------------------------------------------
    # (seat 3 self-draws 1 台; the 將's dealer pays 作莊 on top: 100 + 20 + 20)
    typed = [-140 if s == dealers[12] else -120 for s in range(3)] + [380]
    assert dealers[12] != 3
    ok(client.post(f"{BASE}/hands", json={"round": 1, "table": 12, "payments": typed,
                                          "wins": [{"seat": 3, "tai": 1}]}, headers=official))
    # payments that do not follow the 台 and the stakes are refused, naming them, unless a house arrangement
    made_up = {"round": 1, "table": 12, "payments": [-999, 999, 0, 0], "wins": [{"seat": 1, "tai": 1, "deal_in": 0}]}
    refused = client.post(f"{BASE}/hands", json=made_up, headers=official)
    assert refused.status_code == 400 and refused.get_json()["field"] == "payments", refused.get_json()

    # --- a correction, reverted ------------------------------------------------------------------------
    hands = ok(client.get(f"{BASE}/hands"), 200)["hands"]
    assert len(hands) == 4 * 2 + 7 * 3 + 1
    original = next(h for h in hands if h["key"] == [1, 5, 1, 1])
    d = dealers[5]
    fix = ok(client.post(f"{BASE}/hands/1/5/1/1/corrections",
                         json={"reason": "漏記清一色",
                               "entry": {"dealer": d, "winner": (d + 1) % 4, "deal_in": (d + 2) % 4,
                                         "items": ["concealed_hand", "single_wait", "full_flush"]}},
                         headers=official))
    assert fix["result"]["payments"][(d + 1) % 4] == 100 + 14 * 20
    ok(client.post(f"{BASE}/reverts", json={"seq": fix["records"][0]["seq"], "reason": "原紀錄無誤"}, headers=official))
    again = next(h for h in ok(client.get(f"{BASE}/hands"), 200)["hands"] if h["key"] == [1, 5, 1, 1])
    assert again["payments"] == original["payments"]
    trail = ok(client.get(f"{BASE}/hands/1/5/1/1/audit"), 200)["trail"]
    assert [(e["kind"], e["in_effect"]) for e in trail] == [("HandRecorded", True), ("HandCorrected", False),
                                                            ("Reverted", True)]
    assert {e["by_label"] for e in trail} == {"裁判長"} and trail[1]["reason"] == "漏記清一色"

    # --- a withdrawal before round 2: a 替補 takes the seat, the past kept, still no repeat ---------------
    round_one = ok(client.get(f"{BASE}/rounds/1"), 200)
    left = ok(client.post(f"{BASE}/withdrawals", json={"player_id": "p47", "before_round": 2, "reason": "家中有事"},
                          headers=official))
    assert [r["round"] for r in left["rounds"]] == list(range(2, 16)) and left["quality"]["repeats"] == 0
    assert ok(client.get(f"{BASE}/rounds/1"), 200) == round_one
    free = next(t for t in ok(client.get(f"{BASE}/rounds/2"), 200)["tables"] if None in t["seats"])
    wind = ["EAST", "SOUTH", "WEST", "NORTH"][free["seats"].index(None)]
    ok(client.post(f"{BASE}/rounds/2/substitutes", json={"table": free["table"], "wind": wind, "player_id": "s1"},
                   headers=official))
    assert "s1" in next(t for t in ok(client.get(f"{BASE}/rounds/2"), 200)["tables"]
                        if t["table"] == free["table"])["seats"]

    # --- ranked ----------------------------------------------------------------------------------------
    hands = ok(client.get(f"{BASE}/hands"), 200)["hands"]
    for t in range(1, 5):
        assert [h["payments"] for h in hands if h["key"][1] == t] == referee_money[t]
    points: Counter = Counter()
    for h in hands:
        for player, paid in zip(h["players"], h["payments"]):
            points[player] += paid
    standings = ok(client.get(f"{BASE}/standings"), 200)["standings"]
    assert len(standings) == 48 and sum(s["points"] for s in standings) == 0
    assert {s["player_id"]: s["points"] for s in standings} == {p["id"]: points[p["id"]] for p in PLAYERS}
    assert [s["points"] for s in standings] == sorted((s["points"] for s in standings), reverse=True)
    assert standings[0]["rank"] == 1
    response = client.get(f"{BASE}/standings?format=csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0][0] == "名次 Rank" and len(rows) == 49 and rows[1][2] == standings[0]["name"]
    advancing = ok(client.get(f"{BASE}/advancement?round=1&take=1"), 200)["tables"]
    assert len(advancing) == 12 and all(len(t["advancing"]) + len(t["tie_at_cut"]) >= 1 for t in advancing)
    assert ok(client.get(f"{BASE}/balance"), 200) == {"ok": True, "hands": len(hands), "problems": []}
    summary = ok(client.get(BASE), 200)
    assert summary["players"] == 48 and summary["substitutes"] == 2 and summary["hands"] == len(hands)

    # --- the log is the truth: its records, replayed, give the same standings ------------------------
    records = ok(client.get(f"{BASE}/log"), 200)["records"]
    log = [Record(r["seq"], codec.decode(r["event"]), r["by"], r["at"]) for r in records]
    state = replay(log)
    assert [(s.totals.player_id, s.totals.points, s.rank) for s in rank_standings(state)] == [
        (s["player_id"], s["points"], s["rank"]) for s in standings]
    # the replay carried on over the records appended since (services.tournament_log.load) is the
    # replay from the start, wherever the log is cut: registrations, seatings, synced and entered
    # hands, a correction and its revert, a withdrawal, a substitute
    assert any(isinstance(r.event, Reverted) for r in log)
    whole = provenance.fold(log)
    for cut in range(len(log) + 1):
        done = replay_more(replay_kept(log[:cut]), log)
        assert done.state == state, cut
        assert provenance.fold(log[cut:], provenance.fold(log[:cut])) == whole, cut

    # --- 時鐘 clocks: round 1 started, time called, every table reported → closed, round 2 published -----
    # (the scheduler's own jobs, and its calls of sync_table_results, are in tests/test_clocks_*.py)
    ok(client.put(f"{BASE}/clock", json={"round_seconds": 5400, "at_time": "finish_hand"}, headers=official), 200)
    ok(client.post(f"{BASE}/clock/start", json={"round": 1}, headers=official), 200)
    ok(client.post(f"{BASE}/clock/call-time", json={"round": 1}, headers=official), 200)
    for t in range(1, 13):
        clock = ok(client.post(f"{BASE}/clock/reports", json={"table": t}, headers=official), 200)
    assert clock["rounds"][0]["close_reason"] == "all_reported" and clock["published_round"] == 2
    hall = ok(client.get(f"{BASE}/seating/published"), 200)
    names = {p["id"]: p["name"] for p in PLAYERS + subs}
    round_two = ok(client.get(f"{BASE}/rounds/2"), 200)["tables"]
    assert hall["round"] == 2
    assert [[s["name"] for s in t["seats"]] for t in hall["tables"]] == [
        [names[p] for p in t["seats"]] for t in round_two]

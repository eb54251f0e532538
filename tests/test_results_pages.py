"""The organisers' results pages (issue #15 item 3) through Flask's test client: a scorer's
entry by 台 items (with the table's PIN, or as an official), the preview, 一炮多響 and 七搶一,
corrections and reverts with a reason, which tables owe results. In Chromium:
tests/test_results_browser.py."""
from __future__ import annotations

import re

import pytest

from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.table import table_for
from tests.servicekit import bearer, create_table, make_token
from tests.test_console import CSRF, form_token, issue_pin, sign_in
from tournament.results import Win
from tournament.typed import expected_payments

BASE = "/api/v1/tournaments"
PLAYERS = [{"id": f"P{i}", "name": name} for i, name in enumerate(
    ["王小明", "李大華", "陳美玲", "林志強", "張家豪", "黃淑芬", "吳建國", "劉雅婷"], 1)]
PAGE = "/t/M1/results/1/1/1"


@pytest.fixture()
def official_secret(app):
    return make_token(app.config["DATABASE"], "official", label="王裁判")


@pytest.fixture()
def event(client, official_secret):
    """M1 under taida-cup (一炮多響 on): 8 players, 2 rounds of 1 將, scheduled; referee table
    R1 linked to round 1 table 1 (its PIN is that table's scorer's)."""
    headers = bearer(official_secret)
    body = {"id": "M1", "name": "台大盃", "rounds": 2, "matches_per_round": 1, "ruleset": "taida-cup"}
    assert client.post(BASE, json=body, headers=headers).status_code == 201
    assert client.post(f"{BASE}/M1/players", json={"players": PLAYERS}, headers=headers).status_code == 201
    assert client.post(f"{BASE}/M1/schedule", json={"seed": 5}, headers=headers).status_code == 201
    create_table(client, headers, "R1", tournament="M1")
    create_table(client, headers, "R2", tournament="M1")
    assert client.post(f"{BASE}/M1/links", json={"table_id": "R1", "round": 1, "table": 1},
                       headers=headers).status_code == 201
    return headers


def scorer(app, client, table="R1"):
    pin, _row = issue_pin(app, table)
    response = client.post("/signin", data={"csrf_token": form_token(client), "how": "pin", "table": table,
                                            "pin": pin})
    assert response.status_code == 302
    return client


def post(client, path, data):
    token = CSRF.search(client.get(PAGE).get_data(as_text=True)).group(1)
    return client.post(path, data={"csrf_token": token, **data})


def api_hands(client, headers):
    return client.get(f"{BASE}/M1/hands", headers=headers).get_json()["hands"]


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)))


def test_the_pages_need_a_sign_in_and_the_right_table(app, client, event):
    assert client.get(PAGE).status_code == 302 and "/signin" in client.get(PAGE).headers["Location"]
    scorer(app, client, "R2")  # R2 plays no 將 of this event
    assert client.get(PAGE).status_code == 403
    scorer(app, client, "R1")
    assert client.get(PAGE).status_code == 200
    assert client.get("/t/M1/results/1/2/1").status_code == 403  # another table's 將
    # the form token: a post without it is refused, nothing written
    assert client.post(PAGE, data={"dealer": "0", "winner": "1", "deal_in": "2", "item": "concealed_hand",
                                   "action": "record"}).status_code == 400
    assert api_hands(client, event) == []


def test_a_scorer_enters_a_hand_by_items_and_the_preview_is_what_is_recorded(app, client, event):
    scorer(app, client)
    form = {"dealer": "0", "streak": "0", "outcome": "win", "winner": "1", "deal_in": "0",
            "item": ["concealed_hand", "full_flush"]}
    shown = post(client, f"{PAGE}/preview", form).get_json()
    table, stakes = table_for(Ruleset.load("taida-cup")), Stakes(100, 20)  # the event's default stakes
    assert shown["ok"]
    faces = table.tai[3] + table.tai[14]  # 門清 + 清一色
    want = list(expected_payments([Win(1, faces, 0)], 0, 0, table, stakes))
    assert shown["payments"] == want and want[1] > 0 > want[0]
    assert "王小明" in shown["html"] or "李大華" in shown["html"]  # by name
    # the preview button (no script) shows the same, nothing written
    page = post(client, PAGE, {**form, "action": "preview"})
    assert page.status_code == 200 and f"{want[1]:+d}" in text(page) and api_hands(client, event) == []
    done = post(client, PAGE, {**form, "action": "record"})
    assert done.status_code == 302 and "recorded=1" in done.headers["Location"]
    hands = api_hands(client, event)
    assert [h["payments"] for h in hands] == [want]
    # the next hand: 下莊 to seat 1, offered on the page; the old dealer again is refused at the field
    html = client.get(PAGE).get_data(as_text=True)
    assert 'name="dealer" value="1" checked' in html
    bad = post(client, PAGE, {**form, "action": "record"})
    assert bad.status_code == 400 and 'id="dealer-error"' in bad.get_data(as_text=True)
    assert len(api_hands(client, event)) == 1


def test_an_impossible_entry_is_refused_at_the_item(app, client, event):
    scorer(app, client)
    form = {"dealer": "0", "winner": "1", "deal_in": "0", "item": ["full_flush", "half_flush"], "action": "record"}
    response = post(client, PAGE, form)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="items-error"' in html and "湊一色" in html
    shown = post(client, f"{PAGE}/preview", form).get_json()
    assert not shown["ok"] and 'data-field="items"' in shown["html"]
    assert api_hands(client, event) == []


def test_two_winners_on_one_discard_and_seven_rob_one(app, client, event):
    sign_in(client, make_token(app.config["DATABASE"], "official"))
    form = {"dealer": "3", "winner": "0", "deal_in": "2", "item": "concealed_hand", "also1_winner": "1",
            "also1_item": "full_flush", "action": "record"}
    assert post(client, PAGE, form).status_code == 302
    hand = api_hands(client, event)[0]
    assert [w["seat"] for w in hand["wins"]] == [0, 1] and hand["payments"][3] == 0
    assert hand["payments"][2] == -(hand["payments"][0] + hand["payments"][1])
    # 七搶一 on a self-drawn replacement: the robbed seat pays 七搶一's 台 beside its share
    rob = {"dealer": "0", "winner": "0", "deal_in": "self", "robbed": "2",
           "item": ["self_draw", "kong_replacement_win", "seven_rob_one"], "action": "record"}
    assert post(client, PAGE, rob).status_code == 302
    second = api_hands(client, event)[1]["payments"]
    table = table_for(Ruleset.load("taida-cup"))
    assert second[1] == second[3] and -second[2] == -second[1] + table.tai[table.seven_rob_one_idx] * 20


def test_corrections_and_reverts_with_a_reason_and_who_owes(app, client, event):
    sign_in(client, make_token(app.config["DATABASE"], "official"))
    overview = client.get("/t/M1/results/")
    assert overview.status_code == 200
    assert "尚欠 2 桌" in text(overview)  # round 1: both tables owe their 將
    assert post(client, PAGE, {"dealer": "0", "winner": "1", "deal_in": "0", "item": "concealed_hand",
                               "action": "record"}).status_code == 302
    # correct hand 1 by items: the form comes filled with its entry; a reason is needed
    filled = client.get(f"{PAGE}?correct=1").get_data(as_text=True)
    assert 'name="correct" value="1"' in filled and 'value="concealed_hand" checked' in filled
    fix = {"correct": "1", "dealer": "0", "winner": "1", "deal_in": "0", "item": ["concealed_hand", "full_flush"],
           "action": "record"}
    refused = post(client, PAGE, fix)
    assert refused.status_code == 400 and 'id="reason-error"' in refused.get_data(as_text=True)
    assert post(client, PAGE, {**fix, "reason": "漏記清一色"}).status_code == 302
    hands = api_hands(client, event)
    assert hands[0]["corrected"] and hands[0]["wins"][0]["tai"] > 1
    trail = client.get(f"{BASE}/M1/hands/1/1/1/1/audit").get_json()["trail"]
    assert trail[-1]["reason"] == "漏記清一色"
    # revert the correction, then the record: the hand is owed again
    seq = str(hands[0]["seq"])
    assert post(client, f"{PAGE}/1/revert", {"reason": "", "seq": seq}).status_code == 400
    assert post(client, f"{PAGE}/1/revert", {"reason": "更正有誤", "seq": seq}).status_code == 302
    assert post(client, f"{PAGE}/1/revert", {"reason": "更正有誤", "seq": seq}).status_code == 409  # sent twice
    restored = api_hands(client, event)[0]
    assert not restored["corrected"]
    assert f'name="seq" value="{restored["seq"]}"' in client.get(PAGE).get_data(as_text=True)
    assert post(client, f"{PAGE}/1/revert", {"reason": "整盤重記", "seq": str(restored["seq"])}).status_code == 302
    assert api_hands(client, event) == []
    # a scorer may enter but not correct
    scorer(app, client)
    assert post(client, f"{PAGE}/1/revert", {"reason": "x", "seq": "1"}).status_code == 403
    assert "第 1 將" in text(client.get("/t/M1/results/")) and "第 2 桌" not in text(client.get("/t/M1/results/"))


def test_previews_on_the_replay_carried_on_are_those_of_a_replay_from_the_start(app, client, event):
    """The preview after each hand recorded reads the log's replay carried on over the records
    appended since (services.tournament_log.load, docs/performance.md 「成績預覽」): the same
    answers, hand after hand, as on a replay from the start (the kept replay dropped)."""
    from services.tournament_log import load, replayed
    from store import get_db

    scorer(app, client)
    forms = [{"dealer": "0", "streak": "0", "outcome": "win", "winner": "1", "deal_in": "0",
              "item": ["concealed_hand"]},
             {"dealer": "1", "streak": "0", "outcome": "win", "winner": "1", "deal_in": "self",
              "item": ["self_draw", "full_flush"]},
             {"dealer": "1", "streak": "1", "outcome": "draw"},
             {"dealer": "1", "streak": "2", "outcome": "win", "winner": "3", "deal_in": "1", "item": ["half_flush"]},
             {"dealer": "2", "streak": "0", "outcome": "win", "winner": "1", "deal_in": "self", "item": ["full_flush"]}]
    recorded = [forms[0], forms[1], forms[2]]  # 下莊 to seat 1, 連莊 by 自摸, 連莊 by a draw
    for hand in [None, *recorded]:
        if hand is not None:
            done = post(client, PAGE, {**hand, "action": "record"})
            assert done.status_code == 302, text(done)[-1500:]
        carried = [post(client, f"{PAGE}/preview", f).get_json() for f in forms]
        with app.test_request_context():
            kept = load("M1")
            assert kept.replay is not None and kept.state == replayed(get_db(), "M1").state
        app.extensions["mjref.tournaments"][0].clear()  # a replay from the start
        assert [post(client, f"{PAGE}/preview", f).get_json() for f in forms] == carried
    assert len(api_hands(client, event)) == 3 and carried[4]["ok"] is False and carried[0]["ok"] is True

"""A player's page and the standings' per-round columns (issue #15 item 4) through Flask's test
client: a player's points by round, wins, 自摸, 放槍 and 台 by pattern agree with the standings
(:func:`tournament.standings.totals`) and with what the scorer entered. In Chromium:
tests/test_organiser_browser.py."""
from __future__ import annotations

import re

import pytest

from tests.servicekit import make_token
from tests.test_console import CSRF, sign_in
from tournament.player_record import player_record
from tournament.standings import totals
from web.loading import load

BASE = "/api/v1/tournaments"
NAMES = ["王小明", "李大華", "陳美玲", "林志強"]


@pytest.fixture()
def played(app, client):
    """E1: 4 players, 2 rounds; round 1: seat 1 wins on seat 0's discard (門清, 清一色), then seat 2
    self-draws (門清自摸 is 自摸 + 門清); round 2: seat 3 wins on seat 1's discard (單吊)."""
    secret = make_token(app.config["DATABASE"], "official", label="王裁判")
    headers = {"Authorization": f"Bearer {secret}"}
    players = [{"id": f"P{i}", "name": n} for i, n in enumerate(NAMES, 1)]
    for path, body in ((BASE, {"id": "E1", "name": "台北盃", "rounds": 2, "matches_per_round": 1}),
                       (f"{BASE}/E1/players", {"players": players}), (f"{BASE}/E1/schedule", {"seed": 1})):
        assert client.post(path, json=body, headers=headers).status_code == 201
    entries = [{"round": 1, "table": 1, "dealer": 0, "winner": 1, "deal_in": 0,
                "items": ["concealed_hand", "full_flush"]},
               {"round": 1, "table": 1, "dealer": 1, "winner": 2, "deal_in": None,
                "items": ["self_draw", "concealed_hand"]},
               {"round": 2, "table": 1, "dealer": 0, "winner": 3, "deal_in": 1, "items": ["single_wait"]}]
    for body in entries:
        answer = client.post(f"{BASE}/E1/hands/entry", json=body, headers=headers)
        assert answer.status_code == 201, answer.get_json()
    return {"client": client, "headers": headers, "secret": secret}


def seats(client, headers, r) -> list[str]:
    return client.get(f"{BASE}/E1/rounds/{r}", headers=headers).get_json()["tables"][0]["seats"]


def test_a_players_page_agrees_with_the_standings(app, played):
    client, headers = played["client"], played["headers"]
    with app.test_request_context():
        t = load("E1")
        expected = totals(t.state)
        for pid in expected:
            record = player_record(t.state, pid)
            row = expected[pid]
            assert (record.points, len(record.hands), record.wins, record.self_draws, record.deal_ins, record.tai) == \
                (row.points, row.hands, row.wins, row.self_draws, row.deal_ins, row.tai)
            assert sum(p for _r, p in record.by_round) == row.points
    winner = seats(client, headers, 1)[1]  # won hand 1 with 門清 + 清一色
    page = client.get(f"/t/E1/players/{winner}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'data-code="full_flush"' in html and 'data-code="concealed_hand"' in html
    row = re.search(r'data-code="full_flush">.*?</th><td class="num">(\d+)</td><td class="num">(\d+)</td>', html)
    assert row and row.group(1) == "1" and int(row.group(2)) > 0
    assert f'id="wins">{expected[winner].wins}<' in html and f'id="points">{expected[winner].points}<' in html
    drawer = seats(client, headers, 1)[2]
    assert 'id="self-draws">1<' in client.get(f"/t/E1/players/{drawer}").get_data(as_text=True)
    assert client.get("/t/E1/players/nobody").status_code == 404


def test_the_standings_have_a_column_per_round_and_link_the_players(app, played):
    client, headers = played["client"], played["headers"]
    html = client.get("/t/E1/standings").get_data(as_text=True)
    assert "第 1 輪" in html and "第 2 輪" in html
    with app.test_request_context():
        t = load("E1")
        first = totals(t.state, rounds=[1])
    pid = seats(client, headers, 1)[1]
    assert f'href="/t/E1/players/{pid}"' in html
    assert re.search(rf'/t/E1/players/{pid}".*?</th>\s*<td class="num points">-?\d+</td>\s*'
                     rf'<td class="num detail round" data-label="第 1 輪">{first[pid].points}</td>',
                     html, re.S)


def test_advancement_a_tie_at_the_cut_and_an_officials_decision(app, played):
    """Round 2's 四取二: one hand (seat 3 wins on seat 1's discard) leaves seats 0 and 2 tied at 0
    on every tie-break: the page shows the tie; an official picks one, with the reason (R-tour-10)."""
    client, headers = played["client"], played["headers"]
    page = "/t/E1/advancement?round=2&take=2"
    shown = client.get(page)
    assert shown.status_code == 200 and "同分待決" in shown.get_data(as_text=True)
    assert 'id="decide-1-form"' not in shown.get_data(as_text=True)  # the decision is an official's
    sign_in(client, played["secret"])
    html = client.get(page).get_data(as_text=True)
    assert 'id="decide-1-form"' in html
    csrf = CSRF.search(html).group(1)
    tied = client.get(f"{BASE}/E1/advancement?round=2&take=2", headers=headers).get_json()["tables"][0]["tie_at_cut"]
    assert len(tied) == 2
    form = {"csrf_token": csrf, "round": "2", "take": "2", "table": "1", "reason": "抽籤"}
    empty = client.post("/t/E1/advancement/decisions", data=form)
    assert empty.status_code == 400 and 'id="decide-1-error"' in empty.get_data(as_text=True)
    both = client.post("/t/E1/advancement/decisions", data={**form, "advancing": tied})
    assert both.status_code == 409  # two picked for one place: refused by the API's check
    done = client.post("/t/E1/advancement/decisions", data={**form, "advancing": tied[0]})
    assert done.status_code == 302
    after = client.get(f"{BASE}/E1/advancement?round=2&take=2", headers=headers).get_json()["tables"][0]
    assert tied[0] in after["advancing"] and after["decision_reason"] == "抽籤" and after["tie_at_cut"] == []
    assert "裁定" in client.get(page).get_data(as_text=True)
    assert 'href="/t/E1/advancement"' in client.get("/t/E1/standings").get_data(as_text=True)

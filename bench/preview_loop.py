"""``python -m bench.preview_loop N [--profile]``: the scorer's page's live preview of payments
(``POST /t/<tid>/results/<r>/<t>/<m>/preview``, web/results.py) N times through Flask's test
client, on a real SQLite file holding a 48-player, 4-round event (12 tables, 2 將 a round)
with round 1's first 將 played at every table (:data:`HANDS` hands each), signed in as an official.

The previews cycle through :data:`FORMS` (a discard win, a self-draw, a draw, 一炮多響 where the
ruleset allows it, a bad item). ``--busy``: each preview after another table's hand is recorded
(:func:`previews`). ``--profile`` prints cProfile's top functions by cumulative time; without it, the
time per preview (docs/performance.md, "成績預覽").
"""
from __future__ import annotations

import cProfile
import os
import pstats
import re
import shutil
import sys
import tempfile
import time

from app import create_app
from store import close_app
from tests.servicekit import bearer, make_token

BASE = "/api/v1/tournaments"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
PAGE = "/t/B1/results/1/1/2"
#: hands entered at each table's first 將 of round 1
HANDS = int(os.environ.get("HANDS", "8"))
#: what a scorer taps, in turn (the 將 at table 1 of round 1, match 2: dealer drawn as seat 0)
FORMS = [
    {"dealer": "0", "streak": "0", "outcome": "win", "winner": "1", "deal_in": "0",
     "item": ["concealed_hand", "full_flush"]},
    {"dealer": "0", "streak": "1", "outcome": "win", "winner": "2", "deal_in": "self", "item": ["concealed_hand"]},
    {"dealer": "0", "streak": "0", "outcome": "draw"},
    {"dealer": "0", "streak": "2", "outcome": "win", "winner": "3", "deal_in": "1",
     "item": ["half_flush", "no_flowers"]},
    {"dealer": "0", "streak": "0", "outcome": "win", "winner": "1", "deal_in": "0", "item": ["no_such_item"]},
]


def build(folder: str):
    """The app and a signed-in test client on the event described above."""
    path = os.path.join(folder, "bench.sqlite3")
    app = create_app({"TESTING": True, "DATABASE": path})
    secret = make_token(path, "official", label="王裁判")
    headers = bearer(secret)
    client = app.test_client()
    players = [{"id": f"P{i:02d}", "name": f"選手{i:02d}"} for i in range(1, 49)]
    for url, body in ((BASE, {"id": "B1", "name": "基準盃", "rounds": 4, "matches_per_round": 2}),
                      (f"{BASE}/B1/players", {"players": players}), (f"{BASE}/B1/schedule", {"seed": 3})):
        response = client.post(url, json=body, headers=headers)
        assert response.status_code == 201, (url, response.get_json())
    for table in range(1, 13):
        for hand in range(HANDS):  # 下莊 each hand: the seat after the dealer wins on the dealer's discard
            body = {"round": 1, "table": table, "match": 1, "dealer": hand % 4, "streak": 0, "winner": (hand + 1) % 4,
                    "deal_in": hand % 4, "items": ["concealed_hand"]}
            response = client.post(f"{BASE}/B1/hands/entry", json=body, headers=headers)
            assert response.status_code == 201, response.get_json()
    page = client.get("/signin")
    response = client.post("/signin", data={"csrf_token": CSRF.search(page.get_data(as_text=True)).group(1),
                                            "how": "token", "token": secret, "next": ""})
    assert response.status_code == 302
    token = CSRF.search(client.get(PAGE).get_data(as_text=True)).group(1)
    return app, client, token, headers


def previews(client, token: str, n: int, *, busy=None, clock=None) -> list[dict]:
    """N previews; ``busy`` (the official's headers): each after another table's hand is
    recorded, as in a hall where every table enters hands (the log has grown since the last
    read); ``clock``: a list the time of each preview alone is added to."""
    out = []
    for i in range(n):
        if busy is not None:  # tables 2–12 of round 1, their second 將, 下莊 each hand
            table, hand = 2 + i % 11, i // 11
            body = {"round": 1, "table": table, "match": 2, "dealer": hand % 4, "streak": 0,
                    "winner": (hand + 1) % 4, "deal_in": hand % 4, "items": ["concealed_hand"]}
            assert client.post(f"{BASE}/B1/hands/entry", json=body, headers=busy).status_code == 201
        start = time.perf_counter()
        response = client.post(f"{PAGE}/preview", data={"csrf_token": token, **FORMS[i % len(FORMS)]})
        if clock is not None:
            clock.append(time.perf_counter() - start)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        out.append(response.get_json())
    return out


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv and argv[0].isdigit() else 50
    folder = tempfile.mkdtemp(prefix="mjref-preview-")
    try:
        app, client, token, headers = build(folder)
        previews(client, token, len(FORMS))  # warm: templates, rulesets, the log's replay
        busy = headers if "--busy" in argv else None
        if "--profile" in argv:
            profile = cProfile.Profile()
            profile.enable()
            previews(client, token, n, busy=busy)
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(int(os.environ.get("TOP", "35")))
        else:
            times: list[float] = []
            previews(client, token, n, busy=busy, clock=times)
            records = len(client.get(f"{BASE}/B1/log", headers=headers).get_json()["records"])
            print(f"{sum(times) / n * 1000:.2f} ms per preview ({n}; {records} records in the log at the end)")
        close_app(app)
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main(sys.argv[1:])

"""The organisers' seating and clock pages (issue #15 items 2 and 5) through Flask's test client:
a round seated by hand and from a CSV file (errors by line, nothing written), a 將's 搬風 as its
table drew it, a round's seating published, the clock set, started, time called, a table
reported, closed. In Chromium: tests/test_organiser_browser.py."""
from __future__ import annotations

import io
from datetime import datetime, timedelta

import pytest

from tests.servicekit import make_token
from tests.test_console import CSRF, sign_in
from tournament.events import Player
from services.clock_commands import ACTION_EVENTS
from web.clock_page import ACTIONS
from web.seating_admin import parse_seating, resolve
from web.setup import LineError

BASE = "/api/v1/tournaments"
NAMES = ["王小明", "李大華", "陳美玲", "林志強", "張家豪", "黃淑芬", "吳建國", "劉雅婷"]


@pytest.fixture()
def event(app, client):
    """E1: 8 players and a substitute, 2 rounds of 2 將, 90-minute rounds; an official signed in."""
    secret = make_token(app.config["DATABASE"], "official", label="王裁判")
    headers = {"Authorization": f"Bearer {secret}"}
    players = [{"id": f"P{i}", "name": n}
               for i, n in enumerate(NAMES, 1)] + [{"id": "S1", "name": "周替補", "substitute": True}]
    for path, body in ((BASE, {"id": "E1", "name": "台北盃", "rounds": 2, "matches_per_round": 2, "round_minutes": 90}),
                       (f"{BASE}/E1/players", {"players": players})):
        assert client.post(path, json=body, headers=headers).status_code == 201
    sign_in(client, secret)
    return {"client": client, "headers": headers}


def token(client, path) -> str:
    return CSRF.search(client.get(path).get_data(as_text=True)).group(1)


def post(client, path, page=None, **form):
    return client.post(path, data={"csrf_token": token(client, page or path), **form})


def rounds(event) -> dict:
    return event["client"].get(f"{BASE}/E1/schedule", headers=event["headers"]).get_json()


PLAYERS = [Player(f"P{i}", n) for i, n in enumerate(NAMES, 1)] + [Player("P9", "王小明")]


def test_a_seat_names_a_player_by_id_or_by_a_name_only_one_has():
    assert resolve("P2", PLAYERS) == "P2" and resolve("李大華", PLAYERS) == "P2"
    assert resolve("替補", PLAYERS) is None and resolve("", PLAYERS) is None
    with pytest.raises(ValueError, match="同名"):
        resolve("王小明", PLAYERS)
    with pytest.raises(ValueError, match="不是已登錄"):
        resolve("趙六", PLAYERS)


def test_parse_a_seating_its_header_and_errors_by_line():
    tables, lines = parse_seating("桌號,東,南,西,北\n1,P1,李大華,陳美玲,林志強\n\n2\tP5\tP6\tP7\t替補\n", PLAYERS)
    assert tables == [{"table": 1, "seats": ["P1", "P2", "P3", "P4"]}, {"table": 2, "seats": ["P5", "P6", "P7", None]}]
    assert lines == [2, 4]
    with pytest.raises(LineError) as bad:
        parse_seating("1,P1,P2,P3,P4\n2,P5,P6,趙六,P8\n", PLAYERS)
    assert bad.value.line == 2 and bad.value.zh.startswith("西：「趙六」")
    with pytest.raises(LineError) as short:
        parse_seating("1,P1,P2,P3\n", PLAYERS)
    assert short.value.line == 1 and "五欄" in short.value.zh
    with pytest.raises(LineError) as twice:
        parse_seating("1,P1,P2,P3,P4\n1,P5,P6,P7,P8\n", PLAYERS)
    assert twice.value.line == 2 and "第 1 桌已在第 1 行" in twice.value.zh
    with pytest.raises(LineError) as table:
        parse_seating("一,P1,P2,P3,P4\n", PLAYERS)
    assert "桌號" in table.value.zh


def test_seat_a_round_by_hand_then_from_a_csv_file(event):
    client = event["client"]
    page = "/t/E1/seating/1/edit"
    assert client.get(page).status_code == 200
    bad = post(client, page, list="1,P1,P2,P3,P4\n2,P5,P6,P7,P1\n")
    assert bad.status_code == 400 and "第 2 行：北：「P1」已排在第 1 行" in bad.get_data(as_text=True)
    assert rounds(event)["rounds"] == []  # nothing written
    missing = post(client, page, list="1,P1,P2,P3,P4\n2,P5,P6,趙六,P8\n")
    assert missing.status_code == 400 and "第 2 行" in missing.get_data(as_text=True)
    done = post(client, page, list="1,王小明,李大華,陳美玲,林志強\n2,P5,P6,P7,替補\n")
    assert done.status_code == 302 and done.headers["Location"].endswith("/t/E1/seating?seated=1#round-1")
    seated = rounds(event)["rounds"][0]["tables"]
    assert [t["seats"] for t in seated] == [["P1", "P2", "P3", "P4"], ["P5", "P6", "P7", None]]
    # the 替補 seat (table 2, 北) taken by the registered substitute, from the seating page
    shown = client.get("/t/E1/seating").get_data(as_text=True)
    assert 'id="sub-1-2-3"' in shown and "周替補" in shown
    wrong = post(client, "/t/E1/seating/1/2/3/substitute", page="/t/E1/seating", player_id="P1")
    assert wrong.status_code in (400, 409) and 'id="sub-1-2-3-error"' in wrong.get_data(as_text=True)
    assert post(client, "/t/E1/seating/1/2/3/substitute", page="/t/E1/seating", player_id="S1").status_code == 302
    assert rounds(event)["rounds"][0]["tables"][1]["seats"] == ["P5", "P6", "P7", "S1"]
    csv = "\ufeff桌號,東,南,西,北\n1,P8,P7,P6,P5\n2,P4,P3,P2,P1\n".encode("utf-8")
    upload = client.post("/t/E1/seating/2/edit", data={"csrf_token": token(client, "/t/E1/seating/2/edit"), "list": "",
                                                       "file": (io.BytesIO(csv), "round2.csv")},
                         content_type="multipart/form-data")
    assert upload.status_code == 302
    assert [t["seats"] for t in rounds(event)["rounds"][1]["tables"]] == [["P8", "P7", "P6", "P5"],
                                                                          ["P4", "P3", "P2", "P1"]]
    assert "P8,P7,P6,P5" in client.get("/t/E1/seating/2/edit").get_data(as_text=True)  # the form shows it again


def test_a_tables_banfeng_recorded_from_the_page(event):
    client = event["client"]
    assert post(client, "/t/E1/seating", seed="3").status_code == 302
    page = "/t/E1/seating/1/1/1/banfeng"
    assert "搬風" in client.get(page).get_data(as_text=True)
    bad = post(client, page, thrower="0", dice="3 4", tile0="EAST", tile1="SOUTH", tile2="WEST", tile3="NORTH",
               dealer_dice="2 2 6", action="record")
    assert bad.status_code == 400 and 'id="dice-error"' in bad.get_data(as_text=True)
    twice = post(client, page, thrower="0", dice="3 4 5", tile0="EAST", tile1="EAST", tile2="WEST", tile3="NORTH",
                 dealer_dice="2 2 6", action="record")
    assert twice.status_code == 400 and 'id="tile0-error"' in twice.get_data(as_text=True)
    done = post(client, page, thrower="0", dice="3 4 5", tile0="SOUTH", tile1="EAST", tile2="NORTH", tile3="WEST",
                dealer_dice="2 2 6", action="record")
    assert done.status_code == 302, done.get_data(as_text=True)
    match = rounds(event)["rounds"][0]["tables"][0]["matches"][0]
    plan = rounds(event)["rounds"][0]["tables"][0]["seats"]
    # SeatDraw's doctest: tiles 南東北西 seat the players 3 2 1 0 (seat.banfeng)
    assert match["seats"] == [plan[3], plan[2], plan[1], plan[0]]
    assert match["dealer"] is not None
    shown = client.get(page).get_data(as_text=True)
    assert 'id="drawn"' in shown and "2 2 6" in shown
    generated = post(client, "/t/E1/seating/1/2/1/banfeng", action="generate")
    assert generated.status_code == 302
    assert rounds(event)["rounds"][0]["tables"][1]["matches"][0]["dealer"] is not None


def test_publish_a_round_and_run_the_clock(event):
    client = event["client"]
    assert post(client, "/t/E1/seating", seed="3").status_code == 302
    refused = post(client, "/t/E1/seating/2/publish", page="/t/E1/seating")
    assert refused.status_code == 409 and "尚未設定時鐘" in refused.get_data(as_text=True)
    clock = "/t/E1/clock"
    assert "時鐘尚未設定" in client.get(clock).get_data(as_text=True)
    bad = post(client, f"{clock}/settings", page=clock, round_minutes="0", at_time="finish_hand", reminders="15,5",
               auto_close="1", publish="on_close", publish_before_minutes="0")
    assert bad.status_code == 400 and 'id="round_minutes-error"' in bad.get_data(as_text=True)
    ok = post(client, f"{clock}/settings", page=clock, round_minutes="60", at_time="finish_circle", reminders="15,5",
              auto_close="1", publish="on_close", publish_before_minutes="0")
    assert ok.status_code == 302
    status = client.get(f"{BASE}/E1/clock", headers=event["headers"]).get_json()
    assert status["settings"]["round_seconds"] == 3600 and status["settings"]["at_time"] == "finish_circle"
    assert status["settings"]["reminders"] == [900, 300]
    early = post(client, f"{clock}/call-time", page=clock)
    assert early.status_code == 409 and 'id="call-time-error"' in early.get_data(as_text=True)
    assert post(client, f"{clock}/start", page=clock).status_code == 302
    # extra time for every table (R-tour-27): time is called 10 minutes later
    before = client.get(f"{BASE}/E1/clock", headers=event["headers"]).get_json()["round"]["time_at"]
    assert post(client, f"{clock}/extra-time", page=clock, minutes="0").status_code == 400
    assert post(client, f"{clock}/extra-time", page=clock, minutes="10", reason="停電").status_code == 302
    after = client.get(f"{BASE}/E1/clock", headers=event["headers"]).get_json()["round"]
    assert datetime.fromisoformat(after["time_at"]) - datetime.fromisoformat(before) == timedelta(minutes=10)
    assert after["extra"] == [{"table": None, "seconds": 600}]
    # a pause of the whole hall's time (R-tour-29): a reason needed; the page and the hall say 暫停,
    # the countdown frozen
    no_reason = post(client, f"{clock}/pause", page=clock, reason=" ")
    assert no_reason.status_code == 400 and 'id="pause-error"' in no_reason.get_data(as_text=True)
    assert post(client, f"{clock}/pause", page=clock, reason="停電").status_code == 302
    page = client.get(clock).get_data(as_text=True)
    assert '暫停 <span lang="en">Paused</span>' in page and 'id="paused"' in page and 'id="resume-button"' in page
    assert "pause-button" not in page
    hall = client.get("/t/E1/hall").get_data(as_text=True)
    assert "暫停 <span lang=\"en\">Paused</span>" in hall and "countdown frozen" in hall
    assert "data-seconds-left" not in hall
    twice = client.post(f"{BASE}/E1/clock/pause", json={"reason": "停電"}, headers=event["headers"])
    assert twice.status_code == 409 and twice.get_json()["field"] == "round"
    assert post(client, f"{clock}/resume", page=clock).status_code == 302
    again = post(client, f"{clock}/resume", page=clock)
    assert again.status_code == 409 and "並未暫停" in again.get_data(as_text=True)
    assert "data-seconds-left" in client.get("/t/E1/hall").get_data(as_text=True)
    assert post(client, "/t/E1/seating/2/publish", page="/t/E1/seating").status_code == 302
    assert post(client, f"{clock}/call-time", page=clock).status_code == 302
    late = post(client, f"{clock}/extra-time", page=clock, minutes="5")
    assert late.status_code == 409 and "已宣布時間到" in late.get_data(as_text=True)  # every table: before time only
    assert post(client, f"{clock}/extra-time", page=clock, minutes="15", table="2", reason="爭議").status_code == 302
    extended = client.get(f"{BASE}/E1/clock", headers=event["headers"]).get_json()["round"]
    assert datetime.fromisoformat(extended["table_time_at"]["2"]) - datetime.fromisoformat(extended["time_at"]) \
        == timedelta(minutes=15)
    assert 'id="extra"' in client.get(clock).get_data(as_text=True)
    api = client.post(f"{BASE}/E1/clock/extra-time", json={"minutes": 5, "table": 9}, headers=event["headers"])
    assert api.status_code == 409 and api.get_json()["field"] == "table"  # no table 9 in round 1
    assert post(client, f"{clock}/report", page=clock, table="1").status_code == 302
    page = client.get(clock).get_data(as_text=True)
    assert 'id="reported">第 1 桌' in page and "第 2 桌" in page
    status = client.get(f"{BASE}/E1/clock", headers=event["headers"]).get_json()
    assert status["round"]["round"] == 1 and status["round"]["time_called_at"] and status["published_round"] == 2
    assert [r["table"] for r in status["round"]["reported"]] == [1]
    assert post(client, f"{clock}/close", page=clock).status_code == 302
    assert client.get(f"{BASE}/E1/clock", headers=event["headers"]).get_json()["round"]["closed_at"]
    assert 'id="published-2"' in client.get("/t/E1/seating").get_data(as_text=True)
    # round 2 re-seated after its publication (R-tour-31): the clock's page and API say it must be published again
    tables = client.get(f"{BASE}/E1/rounds/2", headers=event["headers"]).get_json()["tables"]
    seats = [{"table": t["table"], "seats": t["seats"][::-1]} for t in tables]
    assert client.put(f"{BASE}/E1/rounds/2", json={"tables": seats}, headers=event["headers"]).status_code in (200, 201)
    rounds = {r["round"]: r for r in client.get(f"{BASE}/E1/clock", headers=event["headers"]).get_json()["rounds"]}
    assert rounds[2]["seating_published_at"] is None and rounds[2]["seating_withdrawn_at"]
    assert rounds[1]["seating_withdrawn_at"] is None
    page = client.get(clock).get_data(as_text=True)
    assert 'id="reseated-2"' in page and "第 2 輪座位公布後已重排" in page and "publish it again" in page
    assert post(client, "/t/E1/seating/2/publish", page="/t/E1/seating").status_code == 302
    assert 'id="reseated-2"' not in client.get(clock).get_data(as_text=True)


def test_every_clock_button_records_its_event():
    """The clock page's buttons are the actions the API has (each one's event made once:
    services.clock_commands.ACTION_EVENTS)."""
    assert list(ACTIONS) == list(ACTION_EVENTS)


def test_a_player_withdraws_from_the_seating_page(event):
    client = event["client"]
    assert post(client, "/t/E1/seating", seed="3").status_code == 302
    assert 'id="withdraw-player"' in client.get("/t/E1/seating").get_data(as_text=True)
    nobody = post(client, "/t/E1/seating/withdraw", page="/t/E1/seating", player_id="X9", before_round="2")
    assert nobody.status_code == 409 and 'id="withdraw-error"' in nobody.get_data(as_text=True)
    done = post(client, "/t/E1/seating/withdraw", page="/t/E1/seating", player_id="P1", before_round="2",
                reason="身體不適")
    assert done.status_code == 302
    players = {p["id"]: p for p in client.get(f"{BASE}/E1/players", headers=event["headers"]).get_json()["players"]}
    assert players["P1"]["withdrawn_before"] == 2
    later = rounds(event)["rounds"][1]["tables"]
    assert all("P1" not in t["seats"] for t in later)  # re-seated without them
    assert "P1" in sum((t["seats"] for t in rounds(event)["rounds"][0]["tables"]), [])  # round 1 kept
    assert 'id="withdrawn"' in client.get("/t/E1/seating").get_data(as_text=True)


def test_a_final_round_seated_by_the_standings(event):
    """R-tour-28: round 2 by round 1's standings — the top four at table 1 (the API's
    ``POST …/rounds/2/by-standings`` and the seating page's button are the same command)."""
    client, headers = event["client"], event["headers"]
    assert post(client, "/t/E1/seating/1/edit", list="1,P1,P2,P3,P4\n2,P5,P6,P7,P8\n").status_code == 302
    for table, (winner, deal_in) in ((1, (1, 0)), (2, (2, 3))):
        body = {"round": 1, "table": table, "dealer": 0, "winner": winner, "deal_in": deal_in, "items": ["full_flush"]}
        assert client.post(f"{BASE}/E1/hands/entry", json=body, headers=headers).status_code == 201
    early = post(client, "/t/E1/seating/1/by-standings", page="/t/E1/seating")
    assert early.status_code == 400 and 'id="standings-1-error"' in early.get_data(as_text=True)
    assert "之前沒有成績可依" in early.get_data(as_text=True)  # round 1 has no round before it to rank by
    done = post(client, "/t/E1/seating/2/by-standings", page="/t/E1/seating")
    assert done.status_code == 302
    ranked = [r["player_id"]
              for r in client.get(f"{BASE}/E1/standings?rounds=1", headers=headers).get_json()["standings"]]
    seated = [t["seats"] for t in client.get(f"{BASE}/E1/rounds/2", headers=headers).get_json()["tables"]]
    assert seated == [ranked[:4], ranked[4:8]]
    assert set(ranked[:2]) == {"P2", "P7"}  # the two winners head table 1
    api = client.post(f"{BASE}/E1/rounds/2/by-standings", json={"rounds": [2]}, headers=headers)
    assert api.status_code == 400 and api.get_json()["field"] == "rounds[0]"

"""The organisers' setup pages (issue #15 item 2) through Flask's test client: create an event,
import players from a pasted list or a CSV file (Chinese names, substitutes, errors by line).
In Chromium: tests/test_setup_browser.py."""
from __future__ import annotations

import io
import re

import pytest

from tests.servicekit import make_token
from tests.test_console import CSRF, sign_in
from web.setup import LineError, parse_players

BASE = "/api/v1/tournaments"


@pytest.fixture()
def signed_in(app, client):
    sign_in(client, make_token(app.config["DATABASE"], "official", label="王裁判"))
    return client


def token(client, path="/t/new") -> str:
    return CSRF.search(client.get(path).get_data(as_text=True)).group(1)


def create(client, **fields):
    body = {"id": "E1", "name": "台北盃", "ruleset": "competition", "base": "100", "per_tai": "20", "rounds": "4",
            "matches_per_round": "2", **fields}
    return client.post("/t/new", data={"csrf_token": token(client), **body})


def test_creating_an_event_needs_an_official(app, client):
    assert client.get("/t/new").status_code == 302
    official = make_token(app.config["DATABASE"], "official")
    sign_in(client, official)
    assert client.post("/api/v1/tables", json={"id": "R1"},
                       headers={"Authorization": f"Bearer {official}"}).status_code == 201
    sign_in(client, make_token(app.config["DATABASE"], "table", table="R1"))
    assert client.get("/t/new").status_code == 403


def test_create_an_event_and_its_errors_at_the_field(signed_in):
    bad = create(signed_in, rounds="0")
    assert bad.status_code == 400 and 'id="rounds-error"' in bad.get_data(as_text=True)
    assert create(signed_in, base="一百").status_code == 400
    assert signed_in.get(f"{BASE}/E1").status_code == 404  # nothing written
    done = create(signed_in, round_minutes="90")
    assert done.status_code == 302 and done.headers["Location"].endswith("/t/E1/players/import?created=1")
    event = signed_in.get(f"{BASE}/E1").get_json()
    assert event["settings"]["rounds"] == 4 and event["settings"]["matches_per_round"] == 2
    assert event["settings"]["round_minutes"] == 90
    taken = create(signed_in)
    assert taken.status_code == 409 and 'id="id-error"' in taken.get_data(as_text=True)


def test_parse_a_pasted_list():
    text = "代號,姓名,替補\nA1,王小明\n\n# 備註\nA2\t李大華\n陳美玲\n林志強,替補\nA9,張家豪,替補\n"
    players, lines = parse_players(text, {"P001"})
    assert players == [{"id": "A1", "name": "王小明", "substitute": False},
                       {"id": "A2", "name": "李大華", "substitute": False},
                       {"id": "P002", "name": "陳美玲", "substitute": False},
                       {"id": "P003", "name": "林志強", "substitute": True},
                       {"id": "A9", "name": "張家豪", "substitute": True}]
    assert lines == [2, 5, 6, 7, 8]
    with pytest.raises(LineError) as info:
        parse_players("王小明\nA1,李大華,隊長\n", set())
    assert info.value.line == 2
    with pytest.raises(LineError) as info:
        parse_players("a,b,c,d", set())
    assert info.value.line == 1


def test_import_players_from_a_list_and_a_csv_file(signed_in):
    create(signed_in)
    page = "/t/E1/players/import"
    response = signed_in.post(page, data={"csrf_token": token(signed_in, page), "list": "王小明\n李大華\n陳美玲,替補"})
    assert response.status_code == 200 and 'id="added"' in response.get_data(as_text=True)
    players = signed_in.get(f"{BASE}/E1/players").get_json()["players"]
    assert [(p["id"], p["name"], p["substitute"]) for p in players] == [
        ("P001", "王小明", False), ("P002", "李大華", False), ("P003", "陳美玲", True)]
    # a file as Excel saves it (UTF-8 with a BOM), and one in Big5
    for raw, pid in (("\ufeffid,name\nB1,林志強\n".encode("utf-8"), "B1"), ("B2,張家豪\n".encode("cp950"), "B2")):
        response = signed_in.post(page, data={"csrf_token": token(signed_in, page),
                                              "file": (io.BytesIO(raw), "players.csv")},
                                  content_type="multipart/form-data")
        assert response.status_code == 200, response.get_data(as_text=True)
        assert pid in [p["id"] for p in signed_in.get(f"{BASE}/E1/players").get_json()["players"]]
    # errors by line, nothing written
    before = len(signed_in.get(f"{BASE}/E1/players").get_json()["players"])
    for text, line in (("黃淑芬\nC1,吳建國,隊長", 2), ("C1,吳建國\nC1,劉雅婷", 2),
                       ("C2,劉雅婷\n\nC3," + "長" * 101, 3)):
        response = signed_in.post(page, data={"csrf_token": token(signed_in, page), "list": text})
        assert response.status_code == 400, text
        assert f'data-line="{line}"' in response.get_data(as_text=True), text
        assert text.splitlines()[0] in response.get_data(as_text=True)  # the list kept to fix it
    assert len(signed_in.get(f"{BASE}/E1/players").get_json()["players"]) == before


def test_seating_the_schedule_its_quality_and_the_first_dealer(signed_in):
    create(signed_in, matches_per_round="1")
    page = "/t/E1/players/import"
    names = "\n".join("王李陳林張黃吳劉"[i] + "小明" for i in range(8))
    assert signed_in.post(page, data={"csrf_token": token(signed_in, page), "list": names}).status_code == 200
    seating = "/t/E1/seating"
    assert signed_in.post(seating, data={"csrf_token": token(signed_in, seating), "seed": "x"}).status_code == 400
    assert signed_in.post(seating, data={"csrf_token": token(signed_in, seating), "seed": "7"}).status_code == 302
    html = signed_in.get(seating).get_data(as_text=True)
    schedule = signed_in.get(f"{BASE}/E1/schedule").get_json()
    assert f'<span id="repeats">{schedule["quality"]["repeats"]}</span>' in html
    assert len(schedule["rounds"]) == 4 and "王小明" in html
    # 定莊: dice recorded (three of 1–6), or drawn here; a bad throw named at its field
    draw = "/t/E1/seating/1/1/1/draw"
    bad = signed_in.post(draw, data={"csrf_token": token(signed_in, seating), "dice": "7 1"})
    assert bad.status_code == 400 and 'id="dice-1-1-1-error"' in bad.get_data(as_text=True)
    assert signed_in.post(draw, data={"csrf_token": token(signed_in, seating), "dice": "3 4 5"}).status_code == 302
    assert signed_in.post("/t/E1/seating/1/2/1/draw", data={"csrf_token": token(signed_in, seating)}).status_code == 302
    log = signed_in.get(f"{BASE}/E1/log").get_json()
    drawn = [r for r in log["records"] if r["event"]["type"] == "MatchDrawn"]
    assert [d["event"]["table"] for d in drawn] == [1, 2]
    assert drawn[0]["event"]["dealer_draw"]["dice"] == [3, 4, 5]
    assert "莊 " in signed_in.get(seating).get_data(as_text=True)


def test_an_event_has_its_own_time_zone_and_its_pages_show_times_in_it(app, signed_in):
    """``time_zone`` (issue #15 item 1): an IANA name, refused at the field otherwise (nothing
    written); the event's pages show its times there, not in the service's ``TIME_ZONE``."""
    import re
    from datetime import datetime
    from zoneinfo import ZoneInfo

    bad = create(signed_in, id="L0", time_zone="Mars/Olympus")
    assert bad.status_code == 400 and 'id="time_zone-error"' in bad.get_data(as_text=True)
    assert "IANA" in bad.get_data(as_text=True)
    assert signed_in.get(f"{BASE}/L0").status_code == 404
    assert create(signed_in, id="L1", time_zone="Europe/London", round_minutes="60").status_code == 302
    assert create(signed_in, id="T2", round_minutes="60").status_code == 302
    assert signed_in.get(f"{BASE}/L1").get_json()["settings"]["time_zone"] == "Europe/London"
    assert signed_in.get(f"{BASE}/T2").get_json()["settings"]["time_zone"] is None
    shown = {}
    for tid in ("L1", "T2"):
        players = f"/t/{tid}/players/import"
        assert signed_in.post(players, data={"csrf_token": token(signed_in, players),
                                             "list": "王小明\n李大華\n陳美玲\n林志強"}).status_code == 200
        seating = f"/t/{tid}/seating"
        assert signed_in.post(seating, data={"csrf_token": token(signed_in, seating), "seed": "1"}).status_code == 302
        page = f"/t/{tid}/clock"
        assert signed_in.post(f"{page}/settings", data={"csrf_token": token(signed_in, page), "round_minutes": "60",
                                                        "at_time": "finish_hand", "reminders": "5", "auto_close": "1",
                                                        "publish": "on_close"}).status_code == 302
        assert signed_in.post(f"{page}/start", data={"csrf_token": token(signed_in, page)}).status_code == 302
        html = signed_in.get(page).get_data(as_text=True)
        when, text = re.search(r'<time datetime="([^"]+)">([^<]+)</time>', html).groups()
        shown[tid] = (datetime.fromisoformat(when), text)
    london = shown["L1"][0].astimezone(ZoneInfo("Europe/London"))
    taipei = shown["T2"][0].astimezone(ZoneInfo(app.config.get("TIME_ZONE") or "Asia/Taipei"))
    assert shown["L1"][1].endswith(f"{london.hour:02d}:{london.minute:02d}")
    assert shown["T2"][1].endswith(f"{taipei.hour:02d}:{taipei.minute:02d}")
    assert shown["L1"][1] != shown["T2"][1]
    assert "Europe/London" in signed_in.get("/t/L1/").get_data(as_text=True)


def test_parse_a_list_with_teams():
    """團體賽 (R-tour-30): a fourth field, or a header naming a team column."""
    players, lines = parse_players("A1,王小明,,台北隊\nA2,李大華,替補,台北隊\nA3,陳美玲\n", set())
    assert players == [{"id": "A1", "name": "王小明", "substitute": False, "team": "台北隊"},
                       {"id": "A2", "name": "李大華", "substitute": True, "team": "台北隊"},
                       {"id": "A3", "name": "陳美玲", "substitute": False}]
    players, lines = parse_players("姓名,隊伍\n王小明,台北隊\n李大華\n陳美玲,高雄隊\n", set())
    assert [(p["id"], p["name"], p.get("team")) for p in players] == [
        ("P001", "王小明", "台北隊"), ("P002", "李大華", None), ("P003", "陳美玲", "高雄隊")]
    assert lines == [2, 3, 4]
    players, _ = parse_players("隊伍\t代號\t姓名\t替補\n高雄隊\tK1\t林志強\t替補\n", set())
    assert players == [{"id": "K1", "name": "林志強", "substitute": True, "team": "高雄隊"}]
    for text, line in (("姓名,隊伍,電話\n王小明,台北隊,0912\n", 1), ("姓名,隊伍\n王小明,台北隊,多一欄\n", 2),
                       ("隊伍,姓名\n台北隊\n", 2), ("A1,王小明,隊長,台北隊\n", 1)):
        with pytest.raises(LineError) as info:
            parse_players(text, set())
        assert info.value.line == line, text


def test_import_players_with_teams_and_a_bad_team_by_line(signed_in):
    create(signed_in)
    page = "/t/E1/players/import"
    long_team = "隊" * 41
    response = signed_in.post(page, data={"csrf_token": token(signed_in, page),
                                          "list": f"姓名,隊伍\n王小明,台北隊\n李大華,{long_team}\n"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    error = re.search(r'<p class="field-error" data-line="3">(.*?)</p>', html, re.S)
    assert error and "隊名" in error.group(1) and "team name" in error.group(1), html
    assert signed_in.get(f"{BASE}/E1/players").get_json()["players"] == []  # all or nothing
    raw = "\ufeff代號,姓名,隊伍\nA1,王小明,台北隊\nA2,陳美玲,高雄隊\nA3,李大華,\n".encode("utf-8")
    response = signed_in.post(page, data={"csrf_token": token(signed_in, page), "file": (io.BytesIO(raw), "teams.csv")},
                              content_type="multipart/form-data")
    assert response.status_code == 200, response.get_data(as_text=True)
    players = signed_in.get(f"{BASE}/E1/players").get_json()["players"]
    assert [(p["id"], p["team"]) for p in players] == [("A1", "台北隊"), ("A2", "高雄隊"), ("A3", None)]
    assert '<td class="team">台北隊</td>' in response.get_data(as_text=True)


def test_a_players_team_is_changed_on_the_players_page(signed_in):
    """R-tour-32: an official sets, changes and clears a player's team; a bad name is refused at the field."""
    create(signed_in)
    page = "/t/E1/players/import"
    signed_in.post(page, data={"csrf_token": token(signed_in, page), "list": "姓名,隊伍\n王小明,台北隊\n李大華,\n"})
    ids = {p["name"]: p["id"] for p in signed_in.get(f"{BASE}/E1/players").get_json()["players"]}
    post = "/t/E1/players/team"
    done = signed_in.post(post, data={"csrf_token": token(signed_in, page), "player_id": ids["李大華"],
                                      "team": " 台北隊 ", "reason": "報名漏填"})
    assert done.status_code == 302 and done.headers["Location"].endswith(f"team_changed={ids['李大華']}#players")
    teams = {p["name"]: p["team"] for p in signed_in.get(f"{BASE}/E1/players").get_json()["players"]}
    assert teams == {"王小明": "台北隊", "李大華": "台北隊"}
    shown = signed_in.get(done.headers["Location"]).get_data(as_text=True)
    assert 'id="team-changed"' in shown and "已將李大華改入「台北隊」" in shown
    bad = signed_in.post(post,
                         data={"csrf_token": token(signed_in, page), "player_id": ids["王小明"], "team": "隊" * 41})
    html = bad.get_data(as_text=True)
    assert bad.status_code == 400 and 'id="team-error"' in html and "隊名" in html and "team name" in html
    unknown = signed_in.post(post, data={"csrf_token": token(signed_in, page), "player_id": "NOPE", "team": "甲"})
    assert unknown.status_code == 409 and "未報名" in unknown.get_data(as_text=True)
    cleared = signed_in.post(post, data={"csrf_token": token(signed_in, page), "player_id": ids["王小明"], "team": ""})
    assert cleared.status_code == 302
    log = signed_in.get(f"{BASE}/E1/log").get_json()
    changes = [r["event"] for r in log["records"] if r["event"]["type"] == "TeamChanged"]
    assert changes == [{"type": "TeamChanged", "player_id": ids["李大華"], "team": "台北隊", "reason": "報名漏填",
                        "from_round": None},
                       {"type": "TeamChanged", "player_id": ids["王小明"], "team": None, "reason": "",
                        "from_round": None}]
    again = signed_in.post(post, data={"csrf_token": token(signed_in, page), "player_id": ids["王小明"], "team": ""})
    assert again.status_code == 302  # already so: nothing written
    assert len(signed_in.get(f"{BASE}/E1/log").get_json()["records"]) == len(log["records"])


def test_a_player_moved_from_a_round_on_the_players_page(signed_in):
    """R-tour-32: the form's 「自第 N 輪起」 records a move (``from_round``); the table shows both teams;
    a bad round is refused at its field with the form kept."""
    create(signed_in)
    page = "/t/E1/players/import"
    signed_in.post(page,
                   data={"csrf_token": token(signed_in, page), "list": "姓名,隊伍\n王小明,台北隊\n李大華,高雄隊\n"})
    ids = {p["name"]: p["id"] for p in signed_in.get(f"{BASE}/E1/players").get_json()["players"]}
    form = signed_in.get(page).get_data(as_text=True)
    assert 'id="team-from"' in form and "自第 4 輪起" in form and "自第 5 輪起" not in form and "every round" in form
    post = "/t/E1/players/team"
    done = signed_in.post(post, data={"csrf_token": token(signed_in, page), "player_id": ids["王小明"],
                                      "team": "高雄隊", "reason": "轉隊", "from_round": "3"})
    assert done.status_code == 302
    log = signed_in.get(f"{BASE}/E1/log").get_json()
    assert log["records"][-1]["event"] == {"type": "TeamChanged", "player_id": ids["王小明"], "team": "高雄隊",
                                           "reason": "轉隊", "from_round": 3}
    shown = signed_in.get(done.headers["Location"]).get_data(as_text=True)
    assert "台北隊（至第 2 輪" in shown and "→ 高雄隊" in shown
    for start, code in (("9", 400), ("x", 400)):
        bad = signed_in.post(post, data={"csrf_token": token(signed_in, page), "player_id": ids["李大華"],
                                         "team": "台北隊", "reason": "轉隊", "from_round": start})
        html = bad.get_data(as_text=True)
        assert bad.status_code == code and 'id="team-from-error"' in html and "轉隊輪次" in html, html
        assert 'value="轉隊"' in html  # the reason typed is kept
    assert len(signed_in.get(f"{BASE}/E1/log").get_json()["records"]) == len(log["records"])

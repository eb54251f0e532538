"""Rulings name the players (issue #13 item 4, 「裁定中的稱呼」 in docs/rulings.md): at a
referee table linked to a tournament's 將, live ingest names the 將's players beside their
winds (「南家 李大華」); the console's names win seat by seat; ``POST /api/v1/rulings``,
``POST /api/v1/adjudications`` and ``flask rule`` take the names (``names``, ``--names``).
Streams of our own through the real app on a real SQLite file."""
from __future__ import annotations

import json

import pytest

from tests.servicekit import create_table, official  # noqa: F401 - fixtures
from tests.test_api_tournaments import BASE, PLAYERS, event, problem, table_seats  # noqa: F401 - fixtures
from testkit.script import Script

NAMES = {p["id"]: p["name"] for p in PLAYERS}


def false_win_stream() -> Script:
    """A 相公 reported on seat 1 (南家: the dealer, seat 0, is 東), who then declares a win:
    a dead hand at the report, a false win at the declaration (pen.dead-hand, pen.false-win.1)."""
    s = Script(dealer=0).deal().discard(0, "5m").report("dead_hand", 1, "peeked").draw(1)
    return s.win(1, "123m456m789m123p789p5s5s")


def bodies(script: Script) -> list[dict]:
    out = []
    for item in script.items:
        item = dict(item)
        item.pop("table", None)
        out.append(item)
    return out


def linked_table(client, official, table_id: str = "R1", table: int = 2) -> list[str]:  # noqa: F811
    """A physical referee table of T1 linked to round 1's table *table*: its players by seat."""
    create_table(client, official, table_id, tournament="T1", mode="physical")
    linked = client.post(f"{BASE}/T1/links", json={"table_id": table_id, "round": 1, "table": table},
                         headers=official)
    assert linked.status_code == 201, linked.get_json()
    return [NAMES[p] for p in table_seats(client, 1, table)]


def texts(rulings: list[dict]) -> dict[str, str]:
    """code → the words read out (a projection's ruling carries them under ``ruling``)."""
    out = {}
    for r in rulings:
        r = r.get("ruling", r)
        out[r["code"]] = r.get("text_zh") or r.get("detail_zh")
    return out


def stored_texts(client, table_id: str) -> dict[str, str]:
    return texts(client.get(f"/api/v1/tables/{table_id}/rulings").get_json()["rulings"])


def test_live_rulings_at_a_tournament_table_name_the_players(client, official, event):  # noqa: F811
    names = linked_table(client, official)
    stream = false_win_stream()
    report_seq = next(i["seq"] for i in stream.items if i["type"] == "report")
    answers = []
    for body in bodies(stream):  # one event at a time, as a table posts them
        posted = client.post("/api/v1/tables/R1/events", json=body, headers=official)
        assert posted.status_code == 200, posted.get_json()
        answers.append(posted.get_json())
    # the 相公 is ruled at its report, naming the player
    at_report = texts(answers[report_seq - 1]["rulings"])
    assert at_report["dead_hand"].startswith(f"南家 {names[1]}"), at_report
    stored = stored_texts(client, "R1")
    assert stored["false_win"].startswith(f"南家 {names[1]}詐胡"), stored
    # the referee's own irregularities name the player too (a false win declared)
    assert stored.get("false_win") and all("號座" not in t for t in stored.values() if t), stored


def test_a_table_not_linked_names_the_winds_only(client, official, event):  # noqa: F811
    create_table(client, official, "R9", tournament="T1", mode="physical")
    for body in bodies(false_win_stream()):
        assert client.post("/api/v1/tables/R9/events", json=body, headers=official).status_code == 200
    stored = stored_texts(client, "R9")
    assert stored["false_win"].startswith("南家詐胡"), stored
    assert not any(name in t for t in stored.values() if t for name in NAMES.values())


def test_the_console_names_win_seat_by_seat_and_a_link_names_the_hand_in_play(  # noqa: F811
        app, client, official, event):
    """Linked after the hand started: the hand in play is replayed with the 將's players; a
    name the officials wrote at the table for seat 1 (a substitute) wins over the plan."""
    from store import connect
    from store import pins as pin_store

    create_table(client, official, "R2", tournament="T1", mode="physical")
    stream = bodies(false_win_stream())
    split = next(i for i, b in enumerate(stream) if b["type"] == "report")
    assert client.post("/api/v1/tables/R2/events", json={"events": stream[:split]}, headers=official).status_code == 200
    db = connect(app.config["DATABASE"])
    try:
        with db.atomic():
            pin_store.set_seat_names(db, "R2", ["", "替補 趙一", "", ""])
    finally:
        db.close()
    assert client.post(f"{BASE}/T1/links", json={"table_id": "R2", "round": 1, "table": 1},
                       headers=official).status_code == 201
    names = [NAMES[p] for p in table_seats(client, 1, 1)]
    posted = client.post("/api/v1/tables/R2/events", json={"events": stream[split:]}, headers=official)
    assert posted.status_code == 200, posted.get_json()
    stored = stored_texts(client, "R2")
    assert stored["dead_hand"].startswith("南家 替補 趙一"), stored
    outcome = client.get("/api/v1/tables/R2/hands").get_json()["hands"][0]["outcome"]
    assert names[1] not in json.dumps(outcome, ensure_ascii=False)


NAMED = ["王小明", "李大華", "陳美玲", "林志強"]


@pytest.mark.parametrize("path", ["/api/v1/rulings", "/api/v1/adjudications"])
def test_the_stream_endpoints_take_the_names(client, official, path):  # noqa: F811
    events = [json.loads(line) for line in false_win_stream().jsonl().splitlines()]
    answer = client.post(path, json={"events": events, "names": NAMED}, headers=official)
    assert answer.status_code == 200, answer.get_json()
    (hand,) = answer.get_json()["hands"]
    rulings = hand["rulings"] if "rulings" in hand else hand["penalties"]["rulings"]
    words = texts(rulings)
    assert words["false_win"].startswith("南家 李大華詐胡") and words["dead_hand"].startswith("南家 李大華")
    assert hand["outcome"]["detail_zh"].startswith("本盤因違規終止：南家 李大華詐胡"), hand["outcome"]
    plain = client.post(path, json={"events": events}, headers=official).get_json()["hands"][0]
    plain_rulings = plain["rulings"] if "rulings" in plain else plain["penalties"]["rulings"]
    assert texts(plain_rulings)["false_win"].startswith("南家詐胡")
    # the same money with or without names
    assert plain["outcome"]["payments"] == hand["outcome"]["payments"]


@pytest.mark.parametrize("names, field", [
    (["王小明", "李大華", "陳美玲"], "names"),
    ("王小明,李大華,陳美玲,林志強", "names"),
    (["王小明", "李大華", 7, "林志強"], "names[2]"),
    (["王小明", "x" * 41, "陳美玲", "林志強"], "names[1]"),
    (["王小明\n", "李大華", "陳美\x07玲", "林志強"], "names[2]"),
])
def test_bad_names_are_a_400_naming_the_field(client, official, names, field):  # noqa: F811
    events = [json.loads(line) for line in false_win_stream().jsonl().splitlines()]
    for path in ("/api/v1/rulings", "/api/v1/adjudications"):
        body = problem(client.post(path, json={"events": events, "names": names}, headers=official), 400, field)
        assert field in body["detail"] and field in body["detail_zh"]


def test_flask_rule_takes_the_names(app, tmp_path):
    log = tmp_path / "hand.jsonl"
    log.write_text(false_win_stream().jsonl(), encoding="utf-8")
    runner = app.test_cli_runner()
    done = runner.invoke(args=["rule", str(log), "--jobs", "1", "--names", "王小明,李大華,,林志強"])
    assert done.exit_code == 0, done.output
    words = texts(json.loads(done.output)["hands"][0]["rulings"])
    assert words["false_win"].startswith("南家 李大華詐胡")
    as_json = runner.invoke(args=["rule", str(log), "--jobs", "1", "--names", json.dumps(NAMED, ensure_ascii=False)])
    assert as_json.exit_code == 0, as_json.output
    assert texts(json.loads(as_json.output)["hands"][0]["rulings"])["false_win"].startswith("南家 李大華詐胡")
    bad = runner.invoke(args=["rule", str(log), "--jobs", "1", "--names", "王小明,李大華"])
    assert bad.exit_code == 2
    problem_body = json.loads(bad.output[bad.output.index("{"):])
    assert problem_body["field"] == "--names" and "--names" in problem_body["detail_zh"]


# --- the words: codes by their names, melds in Chinese, seats by wind (issue #13 item 4) --------------


def test_every_code_an_official_sees_has_a_name_in_words():
    """The console titles a ruling and an event line by the code's name (「相公」), never the
    ASCII code: every ruling, irregularity and report code has one, in Chinese."""
    from penalties.codes import CODES as RULING_CODES
    from penalties.rule import REPORTS
    from penalties.titles import report_title, title
    from referee.verdicts import CODES as REFEREE_CODES

    for code in [*RULING_CODES, *REFEREE_CODES, *REPORTS, "win", "exhaustive_draw", "ended_by_irregularity", "void"]:
        zh, en = title(code)
        assert (zh, en) != (code, code) and any("\u4e00" <= ch <= "\u9fff" for ch in zh), code
        assert "_" not in zh and en, code
    assert report_title("stolen_tile") == ("相公：偷牌", "a dead hand: took a tile it was not owed")
    assert report_title("dead_hand")[0] == "判相公"
    assert title("wrong_kong_melded_call_previous")[0] == "錯明槓（上家之牌）"
    assert title("no_such_code") == ("no_such_code", "no_such_code")  # a page never fails on a new code


def test_an_exposed_discards_meld_is_in_chinese_in_the_facts():
    """exposed_discard's ``meld`` fact as an official reads it (「碰 五五五萬」), its tiles beside it."""
    from penalties.adjudicator import adjudicate_hands

    s = Script(dealer=0).deal().discard(0, "5m").pung(1, "5m5m5m").discard(1, "5m", exposed=True)
    (hand,) = adjudicate_hands(s.end().jsonl())
    (irr,) = [i.to_dict() for i in hand.adjudication.irregularities if i.code == "exposed_discard"]
    assert irr["facts"]["meld"] == "碰 五五五萬" and irr["facts"]["meld_tiles"] == [4, 4, 4]
    assert "號座" not in irr["detail_zh"] and irr["detail_zh"].startswith("南家")


def test_a_lost_priority_win_and_the_winners_are_named_by_wind():
    """prio.2: a win that lost priority (a self-draw declared after another's win on the tile
    in play) is read out by wind and name (not 「N 號座」), and so are the winners in the
    referee's outcome (「南家 李大華胡牌」 …)."""
    from referee.outcome import _winner_names, resolve_wins
    from referee.scoring.context import WinSource
    from referee.winning import WinClaim

    on_tile = WinClaim(1, 10, 1000, WinSource.DISCARD, 4, 0, 9, None)
    own = WinClaim(3, 11, 2000, WinSource.WALL, 4, None, None, None)
    winners, lost = resolve_wins([on_tile, own], False, east=2, names=NAMED)
    assert winners == [on_tile]
    (irr,) = lost
    assert irr.seat == 3 and irr.detail_zh == "南家 林志強喪失優先權後仍胡牌", irr.detail_zh
    (irr,) = resolve_wins([on_tile, own], False, east=2)[1]
    assert irr.detail_zh == "南家喪失優先權後仍胡牌"
    assert _winner_names([on_tile], 2)[0] == f"北家{WinSource.DISCARD.zh}"
    assert _winner_names([on_tile], 2, NAMED)[0] == f"北家 李大華{WinSource.DISCARD.zh}"

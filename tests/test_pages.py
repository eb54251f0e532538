"""The tournament pages (web/) through the real app and a real SQLite file: status codes,
content, 404 and 401 pages in zh-TW and English, escaping, the CSV; the browser tests are
in tests/test_pages_browser.py.

The tournament is written with the store's own function (``store.tournaments.append_events``,
which folds the log before writing), the way the API writes it.
"""
from __future__ import annotations

import csv
import html
import io
import os
import random
import re

import pytest

from store import connect, init_db
from store import tournaments as tournament_store
from tournament.events import (
    EventCreated, EventSettings, HandRecorded, MatchSeated, PlayerRegistered, RoundSeated, replay,
)
from tournament.provenance import MatchDrawn, fold
from tournament.results import HandResult, Win
from tournament.schedule import make_schedule
from tournament.seating import draw_dealer, draw_seats
from tournament.standings import standings, to_csv

#: eight players with Chinese names; one name a script tag, to see it escaped
PLAYERS = {
    "p1": "王小明", "p2": "李美玲", "p3": "陳大文", "p4": "林志豪",
    "p5": "張雅婷", "p6": "黃建國", "p7": "<script>alert(1)</script>", "p8": "吳佩珊",
}
EVENT_NAME = "台北盃 & 測試"


def seed_tournament(database: str | os.PathLike, tournament_id: str = "taipei", *, rounds: int = 2,
                    matches: int = 1, players: dict[str, str] = PLAYERS, with_results: bool = True) -> list:
    """A tournament with players, a schedule and (``with_results``) results in round 1,
    written to the file; its records."""
    init_db(database)
    schedule = make_schedule(list(players), rounds, seed=3)
    events = [EventCreated(EventSettings(EVENT_NAME, rounds, matches_per_round=matches, round_minutes=90))]
    events += [PlayerRegistered(pid, name) for pid, name in players.items()]
    events += [RoundSeated(plan) for plan in schedule.rounds]
    if with_results:
        events += round_one_results(schedule)
    db = connect(database)
    try:
        with db.atomic():
            tournament_store.create_tournament(db, tournament_id, name=EVENT_NAME)
            tournament_store.append_events(db, tournament_id, events)
        return tournament_store.load_records(db, tournament_id)
    finally:
        db.close()


def round_one_results(schedule) -> list:
    """Three hands on table 1; table 2 seated by 搬風 and 定莊 (as the API records them:
    ``seat.banfeng``, ``seat.dealer``) and one hand."""
    t1, t2 = schedule.rounds[0].tables[:2]
    rng = random.Random(4)  # East at seat 1, the first dealer seat 3
    drawn = draw_seats(t2.seats, thrower=0, rng=rng)
    return [
        HandRecorded((1, t1.table, 1, 1), HandResult((-260, 260, 0, 0), (Win(1, 8, deal_in=0),))),
        HandRecorded((1, t1.table, 1, 2), HandResult((-140, -140, 420, -140), (Win(2, 2),))),
        HandRecorded((1, t1.table, 1, 3), HandResult((0, 0, 0, 0))),
        MatchSeated(1, t2.table, 1, drawn.seating),
        MatchDrawn(1, t2.table, 1, drawn.attempts, draw_dealer(drawn.seating, rng=rng), generated=True),
        HandRecorded((1, t2.table, 1, 1), HandResult((0, 0, 500, -500), (Win(2, 10, deal_in=3),))),
    ]


@pytest.fixture()
def seeded(app):
    return replay(seed_tournament(app.config["DATABASE"]))


@pytest.fixture()
def records(app):
    return seed_tournament(app.config["DATABASE"])


def text(response) -> str:
    return response.get_data(as_text=True)


def label(player: str) -> str:
    """A player as the pages print it (name and id), HTML-escaped."""
    return html.escape(f"{PLAYERS[player]}（{player}）", quote=False)


def test_index_lists_settings_rounds_and_links(client, seeded):
    r = client.get("/t/taipei/")
    assert r.status_code == 200 and r.mimetype == "text/html"
    body = text(r)
    assert '<html lang="zh-Hant-TW">' in body
    assert "台北盃 &amp; 測試" in body and "90 分鐘" in body
    for n in (1, 2):
        assert f'href="/t/taipei/rounds/{n}/"' in body
        assert f'href="/t/taipei/rounds/{n}/cards"' in body
        assert f'href="/t/taipei/rounds/{n}/sheets"' in body
    assert 'href="/t/taipei/standings"' in body


def test_tournament_list(client, seeded):
    r = client.get("/t/")
    assert r.status_code == 200 and 'href="/t/taipei/"' in text(r)


def test_seating_shows_every_table_in_wind_order(client, seeded):
    body = text(client.get("/t/taipei/rounds/2/"))
    for plan in seeded.round(2).tables:
        assert f"<caption>第 {plan.table} 桌" in body
        for wind, p in zip("東南西北", plan.seats):
            assert f'<th scope="row" class="wind">{wind}</th><td>{label(p)}</td>' in body


def test_names_are_escaped(client, seeded):
    for path in ("/t/taipei/rounds/1/", "/t/taipei/rounds/1/cards", "/t/taipei/rounds/1/sheets",
                 "/t/taipei/standings"):
        body = text(client.get(path))
        assert "<script>alert(1)</script>" not in body, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body, path


def test_table_cards_one_article_per_table_and_page_breaks(client, seeded):
    body = text(client.get("/t/taipei/rounds/1/cards"))
    assert body.count('<article class="card"') == len(seeded.round(1).tables)
    css = text(client.get("/t/static/pages.css"))
    assert "break-after: page" in css and "@page card" in css and "A5 landscape" in css


def test_one_table_card(client, seeded):
    plan = seeded.round(1).tables[1]
    body = text(client.get(f"/t/taipei/rounds/1/tables/{plan.table}/card"))
    assert body.count('<article class="card"') == 1 and f"第 {plan.table} 桌" in body


def test_score_sheet_with_recorded_hands_and_totals(client, seeded):
    t1 = seeded.round(1).tables[0]
    body = text(client.get(f"/t/taipei/rounds/1/tables/{t1.table}/sheets/1?hands=5"))
    assert body.count('<article class="sheet"') == 1
    assert body.count('<tr class="recorded">') == 3 and body.count('<tr class="blank">') == 2
    # totals per seat over the three hands: -400, 120, 420, -140 — and they sum to 0
    for total in (-400, 120, 420, -140):
        assert f'<td class="num total">{total}</td>' in body
    assert "四家合計須為 0" in body and "已核對" in body
    assert "自摸 self-draw" in body and "荒局 draw" in body


def test_score_sheet_after_banfeng_uses_the_seats_played(client, records):
    state = replay(records)
    t2 = state.round(1).tables[1]
    seating = dict(state.match_seatings)[(1, t2.table, 1)]
    body = text(client.get(f"/t/taipei/rounds/1/tables/{t2.table}/sheets/1"))
    heads = [f'<th scope="col" class="player"><span class="wind">{seating.wind_of(s).zh}</span> '
             f'{label(p)}</th>' for s, p in enumerate(seating.players)]
    positions = [body.index(h) for h in heads]
    assert positions == sorted(positions)  # a column per physical seat, each with its wind after 搬風
    assert '<td class="num total">500</td>' in body and '<td class="num total">-500</td>' in body
    # 莊: the 定莊 throw's dealer deals hand 1; seat 2 beat seat 3 — the dealer repeats only if he was seat 2
    dealer = fold(records).dealer_of(1, t2.table, 1)
    rows = body.split('<th scope="row">')
    assert rows[1].startswith(f"1</th><td>東圈 {label(seating.players[dealer])}</td>")
    second = seating.players[dealer if dealer == 2 else (dealer + 1) % 4]
    assert rows[2].startswith(f"2</th><td>東圈 {label(second)}" + (" 連1" if dealer == 2 else "") + "</td>")
    assert rows[3].startswith("3</th><td></td>")  # beyond the next hand: for the scorer


def test_round_sheets_one_per_table_and_match(client, app):
    seed_tournament(app.config["DATABASE"], "two", matches=2)
    body = text(client.get("/t/two/rounds/1/sheets"))
    assert body.count('<article class="sheet"') == 2 * 2  # two tables, two 將 each
    assert body.count('<tr class="blank">') >= 4 * 16 - 4


def test_standings_order_matches_the_domain(client, seeded):
    body = text(client.get("/t/taipei/standings"))
    rows = standings(seeded)
    positions = [body.index(f"<code>{s.totals.player_id}</code>") for s in rows]
    assert positions == sorted(positions)
    assert '<th scope="col">放槍 <span lang="en">Deal-ins</span></th>' in body


def test_standings_csv(client, seeded):
    r = client.get("/t/taipei/standings.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    assert "attachment" in r.headers["Content-Disposition"]
    data = r.get_data(as_text=True)
    assert data == "\ufeff" + to_csv(standings(seeded))  # the BOM: Excel on zh-TW Windows reads it as UTF-8
    rows = list(csv.reader(io.StringIO(data.lstrip("\ufeff"))))
    assert rows[0][0] == "名次 Rank" and len(rows) == 1 + len(PLAYERS)


@pytest.mark.parametrize("path, what", [
    ("/t/nope/", "nope"),
    ("/t/taipei/rounds/9/", "第 9 輪"),
    ("/t/taipei/rounds/1/cards/extra", "此頁面"),
    ("/t/taipei/rounds/1/tables/99/card", "第 99 桌"),
    ("/t/taipei/rounds/1/tables/1/sheets/2", "第 2 將"),
    ("/t/taipei/rounds/x/", "此頁面"),
    ("/t/nope/standings", "nope"),
    ("/t/nope/standings.csv", "nope"),
])
def test_unknown_is_a_404_page(client, seeded, path, what):
    r = client.get(path)
    assert r.status_code == 404 and r.mimetype == "text/html"
    body = text(r)
    assert "找不到頁面" in body and "Not found" in body and what in body


def test_bad_hands_parameter_is_a_400_page(client, seeded):
    r = client.get("/t/taipei/rounds/1/sheets?hands=abc")
    assert r.status_code == 400 and r.mimetype == "text/html" and "hands" in text(r)


def test_not_public_is_a_401_page(tmp_path):
    from app import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3"), "PUBLIC_READS": "rulesets"})
    seed_tournament(app.config["DATABASE"])
    client = app.test_client()
    for path in ("/t/", "/t/taipei/", "/t/taipei/rounds/1/cards", "/t/taipei/standings.csv", "/t/nope/"):
        r = client.get(path)
        assert r.status_code == 401 and r.mimetype == "text/html", path
        assert "需要授權" in text(r) and "Unauthorized" in text(r) and "MJREF_PUBLIC_READS" in text(r)
        assert "台北盃" not in text(r)


def test_a_token_in_the_header_still_reads(tmp_path):
    from app import create_app
    from tests.servicekit import bearer, make_token

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3"), "PUBLIC_READS": "rulesets"})
    seed_tournament(app.config["DATABASE"])
    r = app.test_client().get("/t/taipei/", headers=bearer(make_token(app.config["DATABASE"], "official")))
    assert r.status_code == 200 and "台北盃" in text(r)


def test_tournament_without_a_log(client, app):
    db = connect(app.config["DATABASE"])
    with db.atomic():
        tournament_store.create_tournament(db, "empty", name="空的賽事")
    db.close()
    body = text(client.get("/t/empty/"))
    assert "空的賽事" in body and "賽制尚未設定" in body and "尚未排座" in body
    assert client.get("/t/empty/standings").status_code == 200
    assert client.get("/t/empty/rounds/1/").status_code == 404


def test_csv_link_is_the_api_endpoint_with_the_same_chain(client, seeded):
    body = text(client.get("/t/taipei/standings?tie_breaks=more_tai,fewer_deal_ins&rounds=1"))
    link = "/api/v1/tournaments/taipei/standings?format=csv&amp;tie_breaks=more_tai,fewer_deal_ins&amp;rounds=1"
    assert f'href="{link}"' in body
    r = client.get(html.unescape(link))
    assert r.status_code == 200
    assert r.get_data(as_text=True) == "\ufeff" + to_csv(standings(seeded, ["more_tai", "fewer_deal_ins"], rounds=[1]))


def test_standings_with_a_chain_and_rounds(client, seeded):
    body = text(client.get("/t/taipei/standings?tie_breaks=more_tai&rounds=2"))
    assert "第 2 輪" in body and "台多" in body
    heads = [body.index(f'<th scope="col">{zh} ') for zh in ("台", "放槍", "自摸", "胡", "盤數")]
    assert heads == sorted(heads)  # the chain's column first
    rows = standings(seeded, ["more_tai"], rounds=[2])
    assert all(s.totals.points == 0 for s in rows)  # nothing played in round 2
    for path in ("/t/taipei/standings?tie_breaks=bogus", "/t/taipei/standings?rounds=a",
                 "/t/taipei/standings.csv?tie_breaks=bogus"):
        r = client.get(path)
        assert r.status_code == 400 and r.mimetype == "text/html", path


def test_hall_screen_shows_the_round_in_play_and_reloads(client, seeded):
    body = text(client.get("/t/taipei/hall"))
    assert '<meta http-equiv="refresh" content="30">' in body and "第 1 輪座位表" in body
    assert '<meta http-equiv="refresh"' not in text(client.get("/t/taipei/rounds/1/"))


def test_the_hall_shows_the_round_in_play_though_the_next_is_published(client, app, seeded):
    """POST …/clock/publish {} while round 1 is in play: the hall keeps round 1 (with a link to
    round 2's seating) until round 1 closes."""
    from tournament import clock as tclock

    def add(*events):
        db = connect(app.config["DATABASE"])
        with db.atomic():
            tournament_store.append_events(db, "taipei", list(events))
        db.close()

    add(tclock.ClockConfigured(tclock.ClockSettings(round_seconds=5400), "2026-11-29T09:00:00Z"),
        tclock.SeatingPublished(1, "2026-11-29T09:00:00Z"), tclock.RoundStarted(1, "2026-11-29T09:05:00Z"),
        tclock.SeatingPublished(2, "2026-11-29T09:30:00Z"))
    body = text(client.get("/t/taipei/hall"))
    assert "第 1 輪座位表" in body and "第 2 輪座位已公布" in body and 'href="/t/taipei/rounds/2/"' in body
    add(tclock.RoundClosed(1, "2026-11-29T10:40:00Z"))
    body = text(client.get("/t/taipei/hall"))
    assert "第 2 輪座位表" in body and "第 2 輪座位已公布" not in body


def test_clock_panel_when_a_clock_runs(client, app, seeded, app_clock):
    from datetime import datetime, timezone

    from tournament import clock as tclock

    db = connect(app.config["DATABASE"])
    with db.atomic():
        tournament_store.append_events(db, "taipei", [
            tclock.ClockConfigured(tclock.ClockSettings(round_seconds=5400, at_time=tclock.FINISH_CIRCLE),
                                  "2026-11-29T09:00:00Z"),
            tclock.SeatingPublished(1, "2026-11-29T09:00:00Z"),
            tclock.RoundStarted(1, "2026-11-29T09:05:00Z"),
            tclock.TableReported(1, 2, "2026-11-29T10:20:00Z"),
        ])
    db.close()
    for path in ("/t/taipei/", "/t/taipei/rounds/1/", "/t/taipei/standings"):
        body = text(client.get(path))
        assert "計時" in body and "第 1 輪" in body and "時間到打完本圈" in body, path
        # 90 minutes after the recorded start, shown in Taipei time (TIME_ZONE), on another day than the clock's
        assert '<time datetime="2026-11-29T10:35:00+00:00">11月29日 18:35</time>' in body
        # the time left is counted from the app's clock (CLOCK), not the machine's
        assert 'data-seconds-left="2100"' not in body
    app_clock.set(datetime(2026, 11, 29, 10, 0, tzinfo=timezone.utc))
    for path in ("/t/taipei/", "/t/taipei/rounds/1/", "/t/taipei/standings"):
        body = text(client.get(path))
        assert 'data-seconds-left="2100" aria-live="off">35:00<' in body, path
        assert '<time datetime="2026-11-29T10:35:00+00:00">18:35</time>' in body, path  # the same day: the time only
    assert "<dt>已回報完賽 <span lang=\"en\">Tables reported</span></dt><dd>2</dd>" in text(client.get("/t/taipei/"))


def test_no_clock_panel_without_a_clock(client, seeded):
    assert 'class="clock"' not in text(client.get("/t/taipei/"))


@pytest.mark.parametrize("etype, body", [
    ("NoSuchEvent", {}),  # the codec does not know it
    ("Reverted", {"seq": 1, "reason": "x"}),  # EventCreated cannot be reverted: the log does not fold
])
def test_a_log_that_does_not_replay_is_a_409_page(client, app, seeded, etype, body):
    db = connect(app.config["DATABASE"])
    with db.atomic():  # written past append_events' checks, as a hand-edited file would be
        tournament_store.append_tournament_event(db, "taipei", etype, body)
    db.close()
    r = client.get("/t/taipei/standings")
    assert r.status_code == 409 and r.mimetype == "text/html"
    assert "賽事紀錄無法重播" in text(r) and "does not replay" in text(r)


def test_the_read_check_comes_before_the_parameters(tmp_path):
    from app import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3"), "PUBLIC_READS": "rulesets"})
    seed_tournament(app.config["DATABASE"])
    client = app.test_client()
    assert client.get("/t/taipei/rounds/1/sheets?hands=abc").status_code == 401
    assert client.get("/t/static/pages.css").status_code == 200  # the 401 page's own stylesheet


def test_a_bad_token_is_named_on_the_401_page(tmp_path):
    from app import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "p.sqlite3"), "PUBLIC_READS": "rulesets"})
    seed_tournament(app.config["DATABASE"])
    r = app.test_client().get("/t/taipei/", headers={"Authorization": "Bearer mjref_not-a-token"})
    assert r.status_code == 401 and "權杖無效或已撤銷" in text(r) and "unknown or revoked token" in text(r)


def test_substitute_seats_and_substitutes(client, app):
    from referee.tiles import Wind
    from tournament.events import SubstituteSeated

    seven = {k: v for k, v in PLAYERS.items() if k != "p8"}
    records = seed_tournament(app.config["DATABASE"], "seven", players=seven, with_results=False)
    state = replay(records)
    table = next(t for t in state.round(2).tables if None in t.seats)
    wind = table.seats.index(None)
    body = text(client.get(f"/t/seven/rounds/2/tables/{table.table}/card"))
    assert f'<th scope="row" class="wind">{"東南西北"[wind]}</th><td>（替補 substitute）</td>' in body
    db = connect(app.config["DATABASE"])
    with db.atomic():
        tournament_store.append_events(db, "seven", [PlayerRegistered("s1", "替補甲", substitute=True),
                                                     SubstituteSeated(2, table.table, Wind(wind), "s1")])
    db.close()
    body = text(client.get("/t/seven/rounds/2/"))
    assert f'<th scope="row" class="wind">{"東南西北"[wind]}</th><td>替補甲（s1）</td>' in body
    assert "<code>s1</code>" not in text(client.get("/t/seven/standings"))  # substitutes are not ranked


def test_score_sheet_names_the_dealer_a_scorer_entered(client, app):
    """No 定莊 recorded: the 莊 column shows the dealer (and 連) the scorer's entries name."""
    from tests.servicekit import bearer, make_token

    records = seed_tournament(app.config["DATABASE"], with_results=False)
    t1 = replay(records).round(1).tables[0]
    official = bearer(make_token(app.config["DATABASE"], "official"))
    entry = {"round": 1, "table": t1.table, "dealer": 1, "winner": 1, "deal_in": 3,
             "items": ["concealed_hand", {"code": "full_flush", "tai": 12}], "tai": 13}
    for body in (entry, {**entry, "streak": 1}):
        answer = client.post("/api/v1/tournaments/taipei/hands/entry", json=body, headers=official)
        assert answer.status_code == 201, answer.get_json()
    page = text(client.get(f"/t/taipei/rounds/1/tables/{t1.table}/sheets/1"))
    rows = page.split('<th scope="row">')
    assert rows[1].startswith(f"1</th><td>{label(t1.seats[1])}</td>")
    assert rows[2].startswith(f"2</th><td>{label(t1.seats[1])} 連1</td>")
    assert rows[3].startswith("3</th><td></td>")


def test_find_your_seat_is_sorted_by_name_in_strokes(client, seeded):
    """R-tour-33: by strokes — 王 4, 吳 7 and 李 7 (by radical: 口 before 木), 林 8, 張 11 and
    陳 11 (弓 before 阜), 黃 12; a name that starts with a symbol first (ICU's order)."""
    body = text(client.get("/t/taipei/rounds/1/"))
    finder = body[body.index('class="grid finder"'):]
    shown = [pid for pid in re.findall(r"（(p\d)）", finder)]
    assert shown == ["p7", "p1", "p8", "p2", "p4", "p5", "p3", "p6"]
    assert shown != sorted(PLAYERS, key=lambda pid: PLAYERS[pid])  # not by code point


def test_team_standings_beside_the_players_and_their_csv(client, app):
    """團體賽 (issue #15 item 4, R-tour-30): the team table when players have teams, its CSV
    (UTF-8 with a BOM) from the pages' own route too."""
    from tournament.standings import team_standings, teams_to_csv

    database = app.config["DATABASE"]
    init_db(database)
    schedule = make_schedule(list(PLAYERS), 1, seed=3)
    teams = {pid: ("甲隊" if k % 2 else "乙隊") for k, pid in enumerate(PLAYERS)}
    events = [EventCreated(EventSettings("聯賽", 1)),
              *[PlayerRegistered(pid, name, team=teams[pid]) for pid, name in PLAYERS.items()],
              RoundSeated(schedule.rounds[0]), *round_one_results(schedule)]
    db = connect(database)
    with db.atomic():
        tournament_store.create_tournament(db, "league", name="聯賽")
        tournament_store.append_events(db, "league", events)
    state = replay(tournament_store.load_records(db, "league"))
    db.close()
    ranked = team_standings(state)
    assert len(ranked) == 2 and sum(s.totals.points for s in ranked) == 0
    body = text(client.get("/t/league/standings"))
    assert 'id="teams"' in body and "隊伍排名" in body
    positions = [body.index(f'data-team="{s.totals.team}"') for s in ranked]
    assert positions == sorted(positions) and body.index('data-team=') > body.index("<code>p1</code>")
    assert "&lt;script&gt;" in body and "<script>alert" not in body  # a member's name escaped there too
    r = client.get("/t/league/standings-teams.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv" and "attachment" in r.headers["Content-Disposition"]
    assert r.get_data(as_text=True) == "\ufeff" + teams_to_csv(ranked)
    seed_tournament(database)  # an event without teams: no team table
    assert "<code>p1</code>" in (plain := text(client.get("/t/taipei/standings"))) and 'id="teams"' not in plain

"""Team events in a real browser (issue #15 item 4, R-tour-30): Debian's Chromium through
Playwright (tests/browser_kit.py) against the real server. An official pastes a team event's
players with a 隊伍 column (a bad team name refused by line first, nothing written); hands are
recorded; the standings page shows the team standings beside the players', their CSV (with a
BOM) downloads, the print view keeps the table and drops the links. 390 px legible, no request
off 127.0.0.1, no CSP violation or page error. Screenshots: teams-*.png in browser_kit.artifacts_dir("console")."""
from __future__ import annotations

import csv
import io

import pytest

from tests import browser_kit
from tests.servicekit import official_server, request

ARTIFACTS = browser_kit.artifacts_dir("console")

BASE = "/api/v1/tournaments"
NAMES = ["王小明", "李大華", "陳美玲", "林志強", "張家豪", "黃淑芬", "吳建國", "劉雅婷"]
TEAMS = ["台北隊", "台北隊", "高雄隊", "高雄隊"] * 2


def shoot(page, name: str) -> None:
    """Screenshots at 1366 px and 390 px (kept as artifacts); the page never wider than 390 px."""
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        if width == 390:
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, (name, wide)
    page.set_viewport_size({"width": 1366, "height": 900})


@pytest.fixture(scope="module")
def service(tmp_path_factory, server_database):
    """The server; event L1 (1 round of 1 將), no players yet; an official's token."""
    folder = tmp_path_factory.mktemp("teams")
    with official_server(folder, server_database(folder, "teams")) as service:
        status, answer = request(service["port"], "POST", BASE, {"id": "L1", "name": "北高聯賽", "rounds": 1},
                                 service["headers"])
        assert status == 201, answer
        yield service


def test_import_players_in_teams_and_see_the_team_standings(service):
    with browser_kit.chromium() as record:
        page = record["context"].new_page()
        base = service["base"]
        browser_kit.sign_in(page, base, "/t/L1/players/import", service["secret"])
        rows = [f"P{i},{n},{t}" for i, (n, t) in enumerate(zip(NAMES, TEAMS), 1)]
        page.fill("#list", "\n".join(["代號,姓名,隊伍", *rows[:2], "P3,陳美玲," + "隊" * 41, *rows[3:]]))
        page.get_by_role("button", name="登錄 Register").click()
        errors = page.locator("#list-errors").inner_text()
        assert "第 4 行" in errors and "隊名" in errors, errors  # the header is line 1
        status, body = request(service["port"], "GET", f"{BASE}/L1/players", None, service["headers"])
        assert body["players"] == []
        page.fill("#list", "\n".join(["代號,姓名,隊伍", *rows]))
        page.get_by_role("button", name="登錄 Register").click()
        assert "已登錄 8 位" in page.locator("#added").inner_text()
        assert page.locator("#players tr[data-id='P3'] td.team").inner_text() == "高雄隊"
        shoot(page, "teams-import")
        # round 1 seated and three hands typed in (8 台 discard wins, no dealer involved: 260 each)
        headers = service["headers"]
        status, body = request(service["port"], "PUT", f"{BASE}/L1/rounds/1", {"tables": [
            {"table": 1, "seats": ["P1", "P2", "P3", "P4"]}, {"table": 2, "seats": ["P5", "P6", "P7", "P8"]}]}, headers)
        assert status == 200, body
        for table, pay, seat, deal_in in ((1, [0, -260, 260, 0], 2, 1), (1, [0, -260, 0, 260], 3, 1),
                                          (2, [0, 260, 0, -260], 1, 3)):
            status, body = request(service["port"], "POST", f"{BASE}/L1/hands", {
                "round": 1, "table": table, "payments": pay, "wins": [{"seat": seat, "tai": 8, "deal_in": deal_in}]},
                headers)
            assert status == 201, body
        page.goto(base + "/t/L1/standings")
        teams = page.locator("#teams table.team-standings tbody tr")
        assert teams.count() == 2
        assert teams.nth(0).get_attribute("data-team") == "高雄隊"
        first = teams.nth(0).locator("td").all_inner_texts()
        assert first[:2] == ["1", "260"], first  # rank, points (the team's name is the row header)
        assert teams.nth(1).locator("td").all_inner_texts()[:2] == ["2", "-260"]
        assert "陳美玲、林志強、吳建國、劉雅婷" == teams.nth(0).locator("td.members").inner_text()
        # the players' standings are still there, beside the teams'
        assert page.locator("table.standings").count() == 2
        assert page.get_by_role("heading", name="隊伍排名 Team standings").is_visible()
        shoot(page, "teams-standings")
        # the teams' CSV: UTF-8 with a byte-order mark, one row per team
        href = page.get_by_role("link", name="下載隊伍 CSV Download the teams' CSV").get_attribute("href")
        response = record["context"].request.get(base + href)
        assert response.ok and response.body().startswith(b"\xef\xbb\xbf")
        table = list(csv.reader(io.StringIO(response.body().decode("utf-8-sig"))))
        assert table[0][:3] == ["名次 Rank", "隊名 Team", "隊員 Members"] and table[1][:2] == ["1", "高雄隊"]
        # printed: the team table stays, the links go
        page.emulate_media(media="print")
        assert page.locator("#teams table").is_visible()
        assert not page.get_by_role("link", name="下載隊伍 CSV Download the teams' CSV").is_visible()
        page.emulate_media(media="screen")
        # an event without teams shows none
        status, _ = request(service["port"], "POST", BASE, {"id": "L2", "name": "個人賽", "rounds": 1}, headers)
        page.goto(base + "/t/L2/standings")
        assert page.locator("#teams").count() == 0
        assert browser_kit.external(record["requests"]) == []
        # the refused import's 400 is the page's answer, not a problem (as tests/test_console_browser.py)
        assert [p for p in record["problems"] if "status of 400" not in p] == []

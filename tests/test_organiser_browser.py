"""The organisers' seating and clock pages in a real browser (issue #15 items 2 and 5): Debian's
Chromium through Playwright (tests/browser_kit.py) against the real server (uWSGI, a real SQLite
file). An official seats round 1 by hand (an error by line first, nothing written), uploads
round 2 as a CSV file, records a table's 搬風 and 定莊 as drawn, sets the clock, starts round 1,
publishes round 2's seating from the seating page — and the hall screen (1920×1080) keeps round
1 while it is played — gives every table extra time, pauses the hall's time (the hall screen shows
暫停 Paused, its countdown frozen) and resumes it, calls time, gives one table extra time,
reports a table, and a player withdraws. 390 px legible, no request off 127.0.0.1,
no CSP violation or page error. Screenshots: organiser-*.png in browser_kit.artifacts_dir("console")."""
from __future__ import annotations

import pytest

from tests import browser_kit
from tests.servicekit import official_server, request
from tests.test_console_browser import ARTIFACTS, shoot

BASE = "/api/v1/tournaments"
NAMES = ["王小明", "李大華", "陳美玲", "林志強", "張家豪", "黃淑芬", "吳建國", "劉雅婷"]


@pytest.fixture(scope="module")
def service(tmp_path_factory, server_database):
    """The server; event O1 (8 players, 2 rounds of 2 將, 60-minute rounds), not seated; an official's token."""
    folder = tmp_path_factory.mktemp("organiser")
    with official_server(folder, server_database(folder, "organiser")) as service:
        players = [{"id": f"P{i}", "name": n} for i, n in enumerate(NAMES, 1)] + [
            {"id": "S1", "name": "周替補", "substitute": True}]
        for path, body in ((BASE, {"id": "O1", "name": "台北公開賽", "rounds": 2, "matches_per_round": 2,
                                   "round_minutes": 60}), (f"{BASE}/O1/players", {"players": players})):
            status, answer = request(service["port"], "POST", path, body, service["headers"])
            assert status == 201, (path, answer)
        yield service


def api(service, path: str) -> dict:
    status, body = request(service["port"], "GET", BASE + "/O1" + path, None, service["headers"])
    assert status == 200, body
    return body


def test_seat_by_hand_and_csv_record_a_banfeng_run_the_clock_and_publish(service):
    with browser_kit.chromium() as record:
        page = record["context"].new_page()
        base = service["base"]
        browser_kit.sign_in(page, base, "/t/O1/seating/1/edit", service["secret"])
        # round 1 by hand: a player seated twice is refused by line, nothing written
        page.fill("#list", "1,王小明,李大華,陳美玲,林志強\n2,張家豪,黃淑芬,吳建國,王小明\n")
        page.get_by_role("button", name="儲存第 1 輪座位 Save round 1's seating").click()
        assert "第 2 行" in page.locator("#list-errors").inner_text()
        assert page.locator("#list").get_attribute("aria-invalid") == "true"
        assert api(service, "/schedule")["rounds"] == []
        shoot(page, "organiser-seating-edit-error")
        page.fill("#list", "1,王小明,李大華,陳美玲,林志強\n2,張家豪,黃淑芬,吳建國,劉雅婷\n")
        page.get_by_role("button", name="儲存第 1 輪座位 Save round 1's seating").click()
        page.wait_for_selector("#seated")
        assert [t["seats"] for t in api(service, "/rounds/1")["tables"]] == [["P1", "P2", "P3", "P4"],
                                                                             ["P5", "P6", "P7", "P8"]]
        # round 2 from a CSV file (Excel's UTF-8 with a byte-order mark)
        page.locator("#edit-2").click()
        csv = service["tmp"] / "round2.csv"
        csv.write_bytes("\ufeff桌號,東,南,西,北\n1,P1,P5,P2,P6\n2,P3,P7,P4,替補\n".encode("utf-8"))
        page.set_input_files("#file", str(csv))
        page.get_by_role("button", name="儲存第 2 輪座位 Save round 2's seating").click()
        page.wait_for_selector("#seated")
        assert api(service, "/rounds/2")["tables"][0]["seats"] == ["P1", "P5", "P2", "P6"]
        # round 2 table 2's 替補 seat (北) taken by the registered substitute
        page.select_option("#sub-2-2-3", "S1")
        page.locator("#r2t2 form.sub").get_by_role("button", name="入座 Seat").click()
        page.wait_for_url("**/t/O1/seating#r2t2")
        assert api(service, "/rounds/2")["tables"][1]["seats"] == ["P3", "P7", "P4", "S1"]
        # round 1 table 1 將 1: the table's 搬風 as drawn (南東北西: the players 3 2 1 0) and its 定莊 dice
        page.locator("#r1t1").get_by_role("link", name="記錄實際搬風 Record the table's 搬風").first.click()
        page.wait_for_selector("#banfeng")
        page.fill("#dice", "3 4 5")
        for seat, tile in enumerate(("SOUTH", "EAST", "NORTH", "WEST")):
            page.select_option(f"#tile{seat}", tile)
        page.fill("#dealer_dice", "2 2")
        page.get_by_role("button", name="記錄搬風與定莊 Record the draw").click()
        assert page.locator("#dealer_dice").get_attribute("aria-invalid") == "true"  # two dice: refused at the field
        shoot(page, "organiser-banfeng-error")
        page.fill("#dealer_dice", "2 2 6")
        page.get_by_role("button", name="記錄搬風與定莊 Record the draw").click()
        page.wait_for_url("**/t/O1/seating#r1t1")
        match = api(service, "/rounds/1")["tables"][0]["matches"][0]
        assert match["seats"] == ["P4", "P3", "P2", "P1"] and match["dealer"] is not None
        page.goto(base + "/t/O1/seating/1/1/1/banfeng")
        assert page.locator("#dealer").inner_text() != ""
        shoot(page, "organiser-banfeng")
        # publishing needs the clock: refused with the reason on the seating page
        page.goto(base + "/t/O1/seating")
        page.locator("#publish-2-button").click()
        assert "尚未設定時鐘" in page.locator("main").inner_text()
        # the clock: set, start round 1
        page.goto(base + "/t/O1/clock")
        assert page.locator("#not-configured").is_visible()
        page.fill("#round_minutes", "0")
        page.locator("#settings-button").click()
        assert page.locator("#round_minutes").get_attribute("aria-invalid") == "true"
        page.fill("#round_minutes", "60")
        page.select_option("#at_time", "finish_circle")
        page.locator("#settings-button").click()
        page.wait_for_selector("#done")
        page.locator("#start-button").click()
        page.wait_for_selector("#round")
        assert "第 1 輪" in page.locator("#round").inner_text()
        # round 2's seating published from the seating page while round 1 is in play
        page.goto(base + "/t/O1/seating")
        page.locator("#publish-2-button").click()
        page.wait_for_selector("#published-2")
        shoot(page, "organiser-seating")
        assert api(service, "/seating/published")["round"] == 2
        hall = record["context"].new_page()
        hall.set_viewport_size({"width": 1920, "height": 1080})
        hall.goto(base + "/t/O1/hall")
        assert "第 1 輪座位表" in hall.locator("h1").inner_text()  # the round in play, not the one published
        assert "第 2 輪座位已公布" in hall.locator("main").inner_text()
        hall.screenshot(path=str(ARTIFACTS / "organiser-hall-1920.png"))
        hall.close()
        # time called, a table reported
        page.goto(base + "/t/O1/clock")
        page.fill("#extra-minutes", "10")  # extra time for every table, before time is called (R-tour-27)
        page.fill("#extra-reason", "停電")
        page.locator("#extra-time-button").click()
        page.wait_for_selector("#extra")
        assert "全部各桌 +10 分" in page.locator("#extra").inner_text()
        # the whole hall's time paused (R-tour-29): a reason first, then 暫停 on the page and the hall screen, frozen
        page.locator("#pause-button").click()
        assert page.locator("#pause-reason").get_attribute("aria-invalid") == "true"
        page.fill("#pause-reason", "停電 power cut")
        page.locator("#pause-button").click()
        page.wait_for_selector("#paused")
        assert "暫停" in page.locator("#phase").inner_text() and "停電" in page.locator("#paused").inner_text()
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=str(ARTIFACTS / "organiser-clock-paused-390.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / "organiser-clock-paused-390-top.png"))  # the first screen, at full size
        assert page.evaluate("document.documentElement.scrollWidth <= 390")
        page.set_viewport_size({"width": 1280, "height": 900})
        hall = record["context"].new_page()
        hall.set_viewport_size({"width": 1920, "height": 1080})
        hall.goto(base + "/t/O1/hall")
        assert "暫停 Paused" in hall.locator(".clock").inner_text()
        shown = hall.locator("output.countdown").inner_text()
        hall.wait_for_timeout(2100)  # the page's script would have counted down two seconds by now
        assert hall.locator("output.countdown").inner_text() == shown
        hall.screenshot(path=str(ARTIFACTS / "organiser-hall-paused-1920.png"))
        hall.close()
        assert api(service, "/clock")["round"]["paused"]
        page.locator("#resume-button").click()
        page.wait_for_selector("#pause-button")
        assert "進行中" in page.locator("#phase").inner_text()
        assert api(service, "/clock")["round"]["paused_seconds"] > 0
        page.locator("#call-time-button").click()
        page.wait_for_selector("#done")
        assert "時間到" in page.locator("#phase").inner_text()
        page.fill("#extra-minutes", "5")  # after time: one table held up by a dispute
        page.select_option("#extra-table", "1")
        page.locator("#extra-time-button").click()
        page.wait_for_selector("#done")
        assert "第 1 桌 +5 分" in page.locator("#extra").inner_text()
        page.select_option("#table", "2")
        page.locator("#report-button").click()
        page.wait_for_selector("#done")
        assert page.locator("#reported").inner_text() == "第 2 桌"
        assert page.locator("#waiting").inner_text() == "第 1 桌"
        shoot(page, "organiser-clock")
        status = api(service, "/clock")
        assert status["round"]["time_called_at"] and [r["table"] for r in status["round"]["reported"]] == [2]
        assert status["round"]["extra"] == [{"table": None, "seconds": 600}, {"table": 1, "seconds": 300}]
        # a player withdraws before round 2: round 2 re-seated without them
        page.goto(base + "/t/O1/seating")
        page.select_option("#withdraw-player", "P8")
        page.select_option("#before_round", "2")
        page.fill("#withdraw-reason", "身體不適")
        page.locator("#withdraw-button").click()
        page.wait_for_selector("#withdrew")
        assert "劉雅婷" in page.locator("#withdrawn").inner_text()
        assert all("P8" not in t["seats"] for t in api(service, "/rounds/2")["tables"])
        # round 2 was published, then re-seated: no longer published (R-tour-31), until published again
        assert page.locator("#unpublished-2").is_visible() and page.locator("#published-2").count() == 0
        assert api(service, "/seating/published")["round"] != 2
        hall = record["context"].new_page()
        hall.goto(base + "/t/O1/hall")
        hall.set_viewport_size({"width": 1920, "height": 1080})
        assert "第 2 輪座位公布後已重排" in hall.locator("#reseated-2").inner_text()
        hall.screenshot(path=str(ARTIFACTS / "organiser-hall-reseated-1920.png"))
        hall.close()
        shoot(page, "organiser-seating-reseated")
        page.locator("#publish-2-button").click()
        page.wait_for_selector("#published-2")
        assert page.locator("#unpublished-2").count() == 0 and api(service, "/seating/published")["round"] == 2
        shoot(page, "organiser-seating-withdrawn")
        # round 2 seated by round 1's standings instead (R-tour-28): the seven who still play, 1–4 at table 1
        page.locator("#standings-2-button").click()
        page.wait_for_selector("#seated")
        status, ranked = request(service["port"], "GET", f"{BASE}/O1/standings?rounds=1", None, service["headers"])
        order = [r["player_id"] for r in ranked["standings"] if r["player_id"] != "P8"]
        tables = api(service, "/rounds/2")["tables"]
        assert [t["seats"] for t in tables] == [order[:4], order[4:] + [None]]
        assert browser_kit.external(record["requests"]) == []
        # the refused forms' 400/409 answers are logged by Chromium as failed loads: expected, not problems
        problems = [p for p in record["problems"] if "status of 40" not in p]
        assert problems == [], problems


def test_standings_a_players_page_and_the_links_to_every_page(service):
    """Event O2 played through the API (two hands entered by 台 items); the standings' round
    columns, a player's page, and the links from / and the event's page, read in Chromium."""
    port, headers = service["port"], service["headers"]
    players = [{"id": f"Q{i}", "name": n} for i, n in enumerate(NAMES[:4], 1)]
    for path, body in ((BASE, {"id": "O2", "name": "台中聯賽", "rounds": 2, "matches_per_round": 1}),
                       (f"{BASE}/O2/players", {"players": players}), (f"{BASE}/O2/schedule", {"seed": 1}),
                       (f"{BASE}/O2/hands/entry", {"round": 1, "table": 1, "dealer": 0, "winner": 1, "deal_in": 0,
                                                   "items": ["concealed_hand", "full_flush"]}),
                       (f"{BASE}/O2/hands/entry", {"round": 2, "table": 1, "dealer": 0, "winner": 2, "deal_in": None,
                                                   "items": ["self_draw"]})):
        status, answer = request(port, "POST", path, body, headers)
        assert status == 201, (path, answer)
    status, seated = request(port, "GET", f"{BASE}/O2/rounds/1", None, headers)
    winner = seated["tables"][0]["seats"][1]
    with browser_kit.chromium() as record:
        page = record["context"].new_page()
        base = service["base"]
        page.goto(base + "/")
        page.get_by_role("link", name="主辦：建立賽事").click()
        page.wait_for_url("**/signin**")  # an official's page: sign in first
        page.fill("#token", service["secret"])
        page.get_by_role("button", name=browser_kit.SIGN_IN).click()
        page.wait_for_url(base + "/t/new")
        page.goto(base + "/t/O2/")
        links = page.locator("#organiser-links a")
        hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
        assert hrefs == ["/t/O2/players/import", "/t/O2/seating", "/t/O2/seating/1/edit", "/t/O2/seating/2/edit",
                         "/t/O2/results/", "/t/O2/clock"]
        shoot(page, "organiser-event")
        page.get_by_role("link", name="成績排名 Standings").first.click()
        page.wait_for_selector("table.standings")
        heads = page.locator("table.standings thead th").all_inner_texts()
        assert any(h.startswith("第 1 輪") for h in heads) and any(h.startswith("第 2 輪") for h in heads)
        shoot(page, "organiser-standings")
        page.locator(f"table.standings a[href='/t/O2/players/{winner}']").click()
        page.wait_for_selector("#patterns")
        assert page.locator("#wins").inner_text() == "1"
        assert page.locator("#patterns tr[data-code='full_flush'] td").first.inner_text() == "1"
        shoot(page, "organiser-player")
        # 四取二 of round 2: one self-draw leaves the three others tied for the second place
        page.goto(base + "/t/O2/advancement?round=2&take=2")
        assert "同分待決" in page.locator("#table-1").inner_text()
        form = page.locator("#decide-1-form")
        form.locator("input[name=advancing]").first.check()
        form.locator("input[name=reason]").fill("抽籤")
        form.get_by_role("button", name="記錄裁定 Record the decision").click()
        page.wait_for_selector("#table-1 >> text=裁定理由")
        status, advance = request(port, "GET", f"{BASE}/O2/advancement?round=2&take=2", None, headers)
        assert len(advance["tables"][0]["advancing"]) == 2 and advance["tables"][0]["decision_reason"] == "抽籤"
        shoot(page, "organiser-advancement")
        page.goto(base + f"/t/O2/players/{winner}")
        pdf = service["tmp"] / "player.pdf"
        page.pdf(path=str(pdf), format="A4")
        assert pdf.stat().st_size > 1000  # printable
        assert browser_kit.external(record["requests"]) == []
        problems = [p for p in record["problems"] if "status of 40" not in p]
        assert problems == [], problems

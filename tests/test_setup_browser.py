"""The organisers' setup pages in a real browser (issue #15 item 2): Debian's Chromium driven by
Playwright against the real server, one server and one browser for the module, as
tests/test_console_browser.py. An official creates an event, pastes a list of 48 Chinese names
(an error by line first), uploads a CSV of substitutes, makes the schedule and sees its quality,
records a table's 定莊 dice; 390 px legible, no request leaves
127.0.0.1, no CSP violation or page error."""
from __future__ import annotations

import pytest

from tests.browser_kit import sign_in
from tests.servicekit import official_server, request
from tests.test_console_browser import _context, _external, chromium, shoot  # noqa: F401 (the module's browser)

SURNAMES = "王李陳林張黃吳劉蔡楊許鄭"
GIVEN = "小明 大華 美玲 志強"


@pytest.fixture(scope="module")
def service(tmp_path_factory, server_database):
    folder = tmp_path_factory.mktemp("setup")
    with official_server(folder, server_database(folder, "setup")) as service:
        yield service


def test_create_an_event_and_import_its_players(chromium, service, tmp_path):
    record = _context(chromium)
    page = record["context"].new_page()
    try:
        sign_in(page, service["base"], "/t/new", service["secret"])
        page.fill("#id", "taipei48")
        page.fill("#name", "台北四十八人賽")
        page.select_option("#ruleset", "competition")
        page.fill("#rounds", "0")
        page.get_by_role("button", name="建立 Create").click()
        assert page.locator("#rounds").get_attribute("aria-invalid") == "true"
        page.fill("#rounds", "4")
        page.fill("#time_zone", "Mars/Olympus")  # the event's own time zone: an IANA name or nothing
        page.get_by_role("button", name="建立 Create").click()
        assert page.locator("#time_zone").get_attribute("aria-invalid") == "true"
        assert "IANA" in page.locator("#time_zone-error").inner_text()
        shoot(page, "setup-event-error")
        page.fill("#time_zone", "Asia/Taipei")
        page.get_by_role("button", name="建立 Create").click()
        page.wait_for_url("**/t/taipei48/players/import?created=1")
        names = [s + g for s in SURNAMES for g in GIVEN.split()]
        assert len(names) == 48
        page.fill("#list", "\n".join(names[:10] + [f"X1,{names[10]},隊長"] + names[11:]))
        page.get_by_role("button", name="登錄 Register").click()
        assert "第 11 行" in page.locator("#list-errors").inner_text()  # the line at fault, nothing written
        status, body = request(service["port"], "GET", "/api/v1/tournaments/taipei48/players", None, service["headers"])
        assert body["players"] == []
        page.fill("#list", "\n".join(names))
        page.get_by_role("button", name="登錄 Register").click()
        assert "已登錄 48 位" in page.locator("#added").inner_text()
        csv = tmp_path / "subs.csv"
        csv.write_bytes("\ufeff代號,姓名,替補\nS1,周替補,替補\nS2,謝替補,替補\n".encode("utf-8"))
        page.set_input_files("#file", str(csv))
        page.get_by_role("button", name="登錄 Register").click()
        assert "已登錄 50 位" in page.locator("main").inner_text()
        assert page.locator("#players tr[data-id='S1'] td").nth(2).inner_text() == "替補"
        shoot(page, "setup-players")
        status, body = request(service["port"], "GET", "/api/v1/tournaments/taipei48/players", None, service["headers"])
        assert len(body["players"]) == 50 and sum(p["substitute"] for p in body["players"]) == 2
        # seating: the schedule and its quality, a table's 定莊 dice recorded
        page.goto(service["base"] + "/t/taipei48/seating")
        page.fill("#seed", "11")
        page.get_by_role("button", name="排座 Make the schedule").click()
        page.wait_for_selector("#quality")
        status, schedule = request(service["port"], "GET", "/api/v1/tournaments/taipei48/schedule", None,
                                   service["headers"])
        assert page.locator("#repeats").inner_text() == str(schedule["quality"]["repeats"])
        assert page.locator("#r1t1 td").count() == 5  # 東南西北 and the 定莊
        page.fill("#dice-1-1-1", "2 2 6")
        page.locator("#r1t1").get_by_role("button", name="定莊 Draw").click()
        page.wait_for_selector("#r1t1 .draw:has-text('莊')")
        assert page.locator("#r1t1 .dice").inner_text() == "2 2 6"  # the dice as recorded
        shoot(page, "setup-seating")
        status, event = request(service["port"], "GET", "/api/v1/tournaments/taipei48", None, service["headers"])
        assert event["settings"]["time_zone"] == "Asia/Taipei"
        assert _external(record["requests"]) == [] and record["problems"] == [], record["problems"]
    finally:
        record["context"].close()

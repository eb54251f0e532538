"""The organisers' results pages in a real browser (issue #15 item 3): Debian's Chromium driven
by Playwright against the real server (uWSGI, a real SQLite file), one server and one browser
for the module, as tests/test_console_browser.py. The table's scorer signs in with its PIN on a
390 px phone, taps a hand's 台 items, sees the payments update as they tap (the live preview,
no inline script: the CSP holds), records it; an official corrects and reverts with a reason
and sees which tables owe results. No request leaves 127.0.0.1; no CSP violation or page error.
"""
from __future__ import annotations

import pytest

from tests.browser_kit import sign_in
from tests.servicekit import official_server, request, scorer_pin
from tests.test_console_browser import _context, _external, chromium, shoot  # noqa: F401 (the module's browser)

BASE = "/api/v1/tournaments"
PLAYERS = [{"id": f"P{i}", "name": name} for i, name in enumerate(
    ["王小明", "李大華", "陳美玲", "林志強", "張家豪", "黃淑芬", "吳建國", "劉雅婷"], 1)]
PAGE = "/t/M1/results/1/1/1"
#: the preview's state (``data-ok``: true, false while an entry cannot be; set by web/static/results.js)
#: the preview answers the form's latest change (not an earlier answer still on screen), and says *want*
OK = ("(want) => { const p = document.querySelector('#preview');"
      " return p.dataset.asked === p.dataset.shown && p.dataset.ok === want; }")


@pytest.fixture(scope="module")
def service(tmp_path_factory, server_database):
    """The server; event M1 (taida-cup: 一炮多響 on) seated, referee table R1 linked to round 1
    table 1 with a scorer's PIN; an official's token."""
    folder = tmp_path_factory.mktemp("results")
    with official_server(folder, server_database(folder, "results")) as service:
        body = {"id": "M1", "name": "台大盃", "rounds": 2, "matches_per_round": 1, "ruleset": "taida-cup"}
        for path, payload in ((BASE, body), (f"{BASE}/M1/players", {"players": PLAYERS}),
                              (f"{BASE}/M1/schedule", {"seed": 5}),
                              ("/api/v1/tables", {"id": "R1", "tournament": "M1"}),
                              (f"{BASE}/M1/links", {"table_id": "R1", "round": 1, "table": 1})):
            status, answer = request(service["port"], "POST", path, payload, service["headers"])
            assert status == 201, (path, answer)
        yield {**service, "pin": scorer_pin(service["database"], "R1")}


def hands(service) -> list[dict]:
    status, body = request(service["port"], "GET", f"{BASE}/M1/hands", None, service["headers"])
    assert status == 200
    return body["hands"]


def test_a_scorer_enters_a_hand_on_a_phone_then_an_official_corrects_and_reverts(chromium, service):
    scorer = _context(chromium)
    page = scorer["context"].new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.goto(service["base"] + PAGE)
        assert page.url.startswith(service["base"] + "/signin")  # a sign-in first, back here after
        page.fill("#table", "R1")
        page.fill("#pin", service["pin"])
        page.get_by_role("button", name="以 PIN 登入 Sign in with the PIN").click()
        page.wait_for_url(service["base"] + PAGE)
        # tap the hand: dealer 0, seat 1 wins on seat 0's discard, 門清 + 清一色
        page.locator("#dealer input[value='0']").check()
        page.locator("#winner input[value='1']").check()
        page.locator("#deal_in input[value='0']").check()
        page.locator("#items input[value='concealed_hand']").check()
        page.wait_for_function(OK, arg="true")
        first = page.locator("#preview-payments tr[data-seat='1'] td.num").inner_text()
        page.locator("#items input[value='full_flush']").check()
        page.wait_for_function("([s, t]) => { const e = document.querySelector(s); return e && e.innerText !== t; }",
                               arg=["#preview-payments tr[data-seat='1'] td.num", first])  # it follows each tap
        page.wait_for_function(OK, arg="true")  # and shows the answer to the last one
        shown = [page.locator(f"#preview-payments tr[data-seat='{s}'] td.num").inner_text() for s in range(4)]
        # an impossible item: the preview says why, at once
        page.locator("#items input[value='half_flush']").check()
        page.wait_for_function(OK, arg="false")
        assert "湊一色" in page.locator("#preview").inner_text()
        page.locator("#items input[value='half_flush']").uncheck()
        page.wait_for_function(OK, arg="true")
        shoot(page, "results-entry")
        page.get_by_role("button", name="記錄 Record").click()
        page.wait_for_url("**recorded=1")
        recorded = hands(service)
        assert [f"{a:+d}" if a else "0" for a in recorded[0]["payments"]] == shown  # what the preview said
        assert page.locator("#dealer input[value='1']").is_checked()  # 下莊: seat 1 deals next
        assert page.locator("details.revert").count() == 0  # a scorer enters; officials correct
        assert _external(scorer["requests"]) == [] and scorer["problems"] == [], scorer["problems"]
    finally:
        scorer["context"].close()

    official = _context(chromium)
    page = official["context"].new_page()
    try:
        sign_in(page, service["base"], "/signin", service["secret"], lands="/")
        page.goto(service["base"] + "/t/M1/results/")
        assert "尚欠 2 桌" in page.locator("main").inner_text()
        shoot(page, "results-overview")
        page.goto(service["base"] + PAGE)
        page.locator("details.revert summary").first.click()
        page.get_by_role("link", name="以台數更正 Correct by items").click()
        assert page.locator("#items input[value='full_flush']").is_checked()  # the entry as it was
        page.locator("#items input[value='full_flush']").uncheck()
        page.get_by_role("button", name="更正 Correct").click()
        assert page.locator("#reason-error").is_visible()  # a correction needs its reason
        page.fill("#reason", "誤記清一色")
        page.get_by_role("button", name="更正 Correct").click()
        page.wait_for_url("**corrected=1")
        assert hands(service)[0]["corrected"]
        page.locator("details.revert summary").first.click()
        page.fill("#reason-1", "更正有誤")
        page.get_by_role("button", name="撤銷 Revert").click()
        page.wait_for_load_state()
        assert not hands(service)[0]["corrected"]
        shoot(page, "results-match")
        assert _external(official["requests"]) == [] and official["problems"] == [], official["problems"]
    finally:
        official["context"].close()

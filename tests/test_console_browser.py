"""The officials' console in a real browser (issue #14): Debian's Chromium (/usr/bin/chromium)
driven by Playwright against the real server (``python -m mjref.serve``: uWSGI as ``make run``
starts it, two worker processes, a real SQLite file), as tests/test_pages_browser.py does.

One server and one browser per module; a browser context per person (the official, a table
scorer). Every request a page makes is recorded (none may leave 127.0.0.1), and every CSP
violation, console error and page error (none allowed). Screenshots at 1366 px and 390 px go
to ``browser_kit.artifacts_dir("console")``, where every browser test keeps its own; no page is
wider than 390 px.
Waits poll the page (``wait_for_function``), never fixed sleeps.
"""
from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

import pytest
from playwright import sync_api

from store import connect
from store import pins as pin_store
from tests.servicekit import (
    bearer,
    hand_events,
    make_token,
    official_server,
    request,
    scorer_pin,
)
from tests.test_console import physical_events
from tests.browser_kit import CHROMIUM, CHROMIUM_ARGS, SIGN_IN, artifacts_dir, sign_in
from tests.test_pages_browser import _pdf_pages

ARTIFACTS = artifacts_dir("console")
#: A4 and A5 portrait in PostScript points
A4 = (595.3, 841.9)
A5 = (419.5, 595.3)
#: events of the generated hand posted before the pages open (the rest arrive during the tests)
FIRST = 60


@pytest.fixture(scope="module")
def service(tmp_path_factory, server_database):
    """The server, an official's token, table T1 mid-hand and T2 empty, a PIN for T1."""
    folder = tmp_path_factory.mktemp("console")
    with official_server(folder, server_database(folder, "console")) as service:
        port, headers = service["port"], service["headers"]
        for table in ("T1", "T2"):
            assert request(port, "POST", "/api/v1/tables", {"id": table}, headers)[0] == 201
        assert request(port, "POST", "/api/v1/tables", {"id": "P3", "mode": "physical"}, headers)[0] == 201
        physical = physical_events()
        cut = next(i for i, e in enumerate(physical) if i >= 40 and e["type"] == "discard")
        status, _ = request(port, "POST", "/api/v1/tables/P3/events", {"events": physical[:cut]}, headers)
        assert status == 200
        events = hand_events(3)
        status, _ = request(port, "POST", "/api/v1/tables/T1/events", {"events": events[:FIRST]}, headers)
        assert status == 200
        yield {**service, "events": events, "posted": FIRST, "pin": scorer_pin(service["database"], "T1"),
               "scorer_pin": scorer_pin(service["database"], "P3", "林計分"), "physical": physical, "cut": cut}


def post_next(service, n: int = 1) -> list[dict]:
    """Post the hand's next *n* events to T1 (as the table would); their answers."""
    batch = service["events"][service["posted"]:service["posted"] + n]
    status, body = request(service["port"], "POST", "/api/v1/tables/T1/events", {"events": batch},
                           service["headers"])
    assert status == 200, body
    service["posted"] += n
    return body["results"]


@pytest.fixture(scope="module")
def chromium():
    assert CHROMIUM.exists(), "Chromium is missing: `make test` installs it (apt-get install chromium)"
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _context(chromium):
    context = chromium.new_context(locale="zh-TW", viewport={"width": 1366, "height": 900})
    record = {"context": context, "requests": [], "problems": []}
    context.on("request", lambda r: record["requests"].append(r.url))
    context.add_init_script("""document.addEventListener("securitypolicyviolation", e =>
        console.error("CSP violation: " + e.violatedDirective + " blocked " + e.blockedURI));""")
    context.on("console", lambda m: record["problems"].append(f"{m.page.url if m.page else ''}: {m.text}")
               if m.type == "error" and "status of 40" not in m.text else None)
    context.on("weberror", lambda e: record["problems"].append(f"page error: {e.error}"))
    context.route(re.compile(r"^(?!http://127\.0\.0\.1[:/])[a-z]+://.*"), lambda route: route.abort())
    context.set_default_timeout(10_000)
    return record


@pytest.fixture(scope="module")
def official(chromium, service):
    """The official's browser, signed in (through the form: test_sign_in shows the steps)."""
    record = _context(chromium)
    page = record["context"].new_page()
    sign_in(page, service["base"], "/signin", service["secret"], lands="/")
    page.close()
    yield record
    assert _external(record["requests"]) == []
    assert record["problems"] == [], record["problems"]
    record["context"].close()


@pytest.fixture()
def page(official):
    page = official["context"].new_page()
    yield page
    page.close()


def _external(urls: list[str]) -> list[str]:
    return [u for u in urls if urlsplit(u).scheme in ("http", "https", "ws", "wss")
            and urlsplit(u).hostname != "127.0.0.1"]


def shoot(page, name: str) -> None:
    """Screenshots at 1366 px and 390 px (kept as artifacts); the page never wider than 390 px."""
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}-top.png"))  # the first screen, at full size
        if width == 390:
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, (name, wide)
    page.set_viewport_size({"width": 1366, "height": 900})


def field_error(page, field: str) -> str:
    """The error shown at the field: the element its aria-describedby names."""
    control = page.locator(f"#{field}")
    assert control.get_attribute("aria-invalid") == "true", field
    return page.locator(f"#{control.get_attribute('aria-describedby')}").inner_text()


# --- sign-in ----------------------------------------------------------------------------------------


def test_sign_in_with_a_token_its_error_at_the_field_and_the_home_page(chromium, service):
    record = _context(chromium)
    page = record["context"].new_page()
    try:
        page.goto(service["base"] + "/hall")
        assert urlsplit(page.url).path == "/signin"  # the hall needs a sign-in: events are private
        page.fill("#token", "mjref_wrong")
        page.get_by_role("button", name=SIGN_IN).click()
        assert field_error(page, "token").startswith("權杖無效或已撤銷")
        shoot(page, "signin-error")
        page.fill("#token", service["secret"])
        page.get_by_role("button", name=SIGN_IN).click()
        page.wait_for_url(service["base"] + "/hall")
        assert "王裁判" in page.locator("header.site").inner_text()
        page.goto(service["base"] + "/")
        assert page.locator("h1").inner_text().startswith("mjref 裁判台")
        for name in ("大廳", "賽事", "API 說明文件"):
            assert page.get_by_role("link", name=re.compile(name)).first.is_visible()
        shoot(page, "home")
        cookies = {c["name"]: c for c in record["context"].cookies()}
        assert cookies["mjref_session"]["httpOnly"] and cookies["mjref_session"]["sameSite"] == "Lax"
        assert page.evaluate("document.cookie") == ""  # the page's scripts cannot read it
        page.get_by_role("button", name="登出 Sign out").click()
        assert "已登出" in page.locator("main").inner_text()
        page.goto(service["base"] + "/hall")
        assert urlsplit(page.url).path == "/signin"
        assert _external(record["requests"]) == [] and record["problems"] == [], record["problems"]
    finally:
        record["context"].close()


def test_revoking_the_token_ends_the_session_of_a_page_left_open(chromium, service, tmp_path):
    database = service["database"]
    secret = make_token(database, "official", label="趙裁判")
    admin = bearer(make_token(database, "admin"))
    record = _context(chromium)
    page = record["context"].new_page()
    try:
        sign_in(page, service["base"], "/signin", secret, lands="/")
        page.goto(service["base"] + "/hall")
        page.wait_for_function("() => document.querySelector('#hall').dataset.version")
        _status, who = request(service["port"], "GET", "/api/v1/whoami", None, bearer(secret))
        assert request(service["port"], "DELETE", f"/api/v1/tokens/{who['token']}", None, admin)[0] == 200
        page.wait_for_url("**/signin?**", timeout=5000)  # the hall's next poll finds the session ended
        assert "已被撤銷" in page.locator("main").inner_text()
        assert record["problems"] == [], record["problems"]
    finally:
        record["context"].close()


def test_a_scorer_signs_in_with_a_pin(chromium, service):
    record = _context(chromium)
    page = record["context"].new_page()
    try:
        page.goto(service["base"] + "/signin")
        page.fill("#table", "T1")
        page.fill("#pin", "12")
        page.get_by_role("button", name="以 PIN 登入 Sign in with the PIN").click()
        assert field_error(page, "pin").startswith("PIN 為 6 位數字")
        assert page.locator("#table").input_value() == "T1"  # kept; the PIN is never sent back
        page.fill("#pin", service["pin"])
        page.get_by_role("button", name="以 PIN 登入 Sign in with the PIN").click()
        page.wait_for_url(service["base"] + "/")
        page.goto(service["base"] + "/hall")
        assert page.locator("article.table-card").count() == 1 and page.locator("#table-T1").is_visible()
        assert "陳計分" in page.locator("header.site").inner_text()
        assert record["problems"] == [], record["problems"]
    finally:
        record["context"].close()


def test_a_forged_form_is_refused_with_a_page(chromium, service):
    record = _context(chromium)
    page = record["context"].new_page()
    try:
        page.goto(service["base"] + "/signin")
        page.eval_on_selector_all("input[name=csrf_token]", "els => els.forEach(e => e.value = 'forged')")
        page.fill("#token", service["secret"])
        with page.expect_response(lambda r: r.request.method == "POST") as info:
            page.get_by_role("button", name=SIGN_IN).click()
        assert info.value.status == 400
        text = page.locator("main").inner_text()
        assert "表單驗證失敗" in text and "CSRF" in text
        shoot(page, "csrf-refused")
        assert "王裁判" not in page.locator("header.site").inner_text()  # not signed in
    finally:
        record["context"].close()


# --- the hall and a table, live ----------------------------------------------------------------------


def _wait_changed(page, selector: str, before: str, timeout: float = 2000) -> float:
    """Poll the page until *selector*'s text differs from *before*; the seconds it took."""
    start = time.monotonic()
    page.wait_for_function("([s, t]) => { const e = document.querySelector(s); return e && e.innerText !== t; }",
                           arg=[selector, before], timeout=timeout, polling=50)
    return time.monotonic() - start


def test_the_hall_updates_itself_within_2_s(page, service):
    page.goto(service["base"] + "/hall")
    card = page.locator("#table-T1")
    assert card.locator(".hand").inner_text().startswith("第 1 盤")
    start = service["events"][0]  # hand_start: round wind south, dealer seat 1
    assert start["round_wind"] == "south" and start["dealer"] == 1
    assert card.locator(".round").inner_text().startswith("南風圈")
    assert "1 號座" in card.locator(".dealer").inner_text()
    assert "剛剛" in card.locator(".ago").inner_text() or "前" in card.locator(".ago").inner_text()
    assert "尚未開局" in page.locator("#table-T2").inner_text()
    page.wait_for_function("() => document.querySelector('#hall').dataset.version")  # the script is polling
    shoot(page, "hall")
    before = card.locator(".turn").inner_text() + card.locator(".wall").inner_text()
    post_next(service, 2)
    took = _wait_changed(page, "#table-T1 dl.facts", page.locator("#table-T1 dl.facts").inner_text())
    assert took < 2.0, took
    assert card.locator(".turn").inner_text() + card.locator(".wall").inner_text() != before


def test_a_table_shows_the_seats_and_updates_itself_within_2_s(page, service):
    page.goto(service["base"] + "/tables/T1/")
    seats = page.locator("section.seat")
    assert seats.count() == 4
    assert page.locator("section.seat.turn").count() == 1
    # an official may see the concealed tiles: each seat shows its tiles by name
    assert all(seats.nth(k).locator(".concealed .tile-text:not(.tile-back), .concealed img.tile:not(.tile-back)")
               .count() > 0 for k in range(4))
    assert "可摸" in page.locator(".wall").first.inner_text()
    rows = page.locator("table.events tbody tr")
    top = rows.first.get_attribute("data-seq")
    assert int(top) == service["posted"]
    assert rows.first.locator(".verdict").inner_text() in ("合規", "違規", "拒絕")
    page.wait_for_function("() => document.querySelector('#table-live').dataset.version")
    shoot(page, "table")
    post_next(service)
    took = _wait_changed(page, "table.events tbody tr:first-child td.num", top)
    assert took < 2.0, took
    assert int(rows.first.get_attribute("data-seq")) == service["posted"]


def test_the_names_form_error_at_the_field_then_saved(page, service):
    page.goto(service["base"] + "/tables/T1/")
    page.locator("details summary").click()
    for seat, name in enumerate(("王小明", "李大華", "陳美玲", "林志強")):
        page.fill(f"#name{seat}", name)
    page.fill("#name2", "名" * 41)
    page.get_by_role("button", name="儲存名單 Save the names").click()
    assert field_error(page, "name2").startswith("名字最多 40 字")
    page.fill("#name2", "陳美玲")
    page.get_by_role("button", name="儲存名單 Save the names").click()
    page.wait_for_url(service["base"] + "/tables/T1/")
    assert "陳美玲" in page.locator("#seat-2 h3").inner_text()


# --- a replay ------------------------------------------------------------------------------------------


def test_a_hand_is_replayed_step_by_step(page, service):
    page.goto(service["base"] + "/tables/T1/hands/1/replay")
    title = page.locator("#step-title")
    assert title.inner_text().startswith("seq 1：開局")
    assert page.locator("#step-prev").count() == 0
    for seq in (2, 3, 4):
        page.locator("#step-next").click()
        page.wait_for_url(f"**/replay?upto={seq}")
        assert title.inner_text().startswith(f"seq {seq}：")
        assert page.locator("#step-verdict").inner_text().startswith("合規")
    page.locator("#step-prev").click()
    page.wait_for_url("**/replay?upto=3")
    # the slider: to seq 40, where seats hold tiles and have discarded
    page.eval_on_selector("#upto", "e => { e.value = 40; e.dispatchEvent(new Event('change')); }")
    page.wait_for_url("**/replay?upto=40")
    assert title.inner_text().startswith("seq 40：")
    assert page.locator(".discards").count() > 0
    shoot(page, "replay")
    response = page.goto(service["base"] + "/tables/T1/hands/1/replay?upto=abc")
    assert response.status == 400 and "upto" in page.locator("main").inner_text()


# --- report, rule, overrule, print ---------------------------------------------------------------------


def test_a_report_is_ruled_at_once_then_overruled_and_printed(page, service, tmp_path):
    # the seats' names, as the names form saves them (its own test may run in another worker's server)
    db = connect(service["database"])
    try:
        pin_store.set_seat_names(db, "T1", ["王小明", "李大華", "陳美玲", "林志強"])
        db.conn.commit()
    finally:
        db.close()
    page.goto(service["base"] + "/tables/T1/")
    page.get_by_role("link", name="報告違規 Report an irregularity").click()
    page.wait_for_url("**/tables/T1/report")
    assert page.locator("input[name=code]").count() >= 10  # every report code, with its meaning
    assert "相公：偷牌" in page.locator("#report").inner_text()
    shoot(page, "report")
    page.get_by_role("button", name="送出報告 Send the report").click()  # no code chosen
    assert page.locator("#code-error").inner_text().startswith("請選擇報告代碼")
    page.locator("input[name=code][value=stolen_tile]").check()
    page.select_option("#seat", "1")
    page.fill("#note", "北家目擊偷牌")
    page.get_by_role("button", name="送出報告 Send the report").click()
    # the ruling at once: a dead hand for the seat
    ruling = page.locator(f"tr[data-ruling='pen.{service['posted'] + 1}.dead_hand']")
    assert "判相公" in ruling.inner_text()
    service["posted"] += 1  # the report took the next seq of the hand
    recorded = page.locator("main p").first.inner_text()
    assert "相公：偷牌（西家（1 號座，李大華））" in recorded, recorded  # the report by its name, the seat by wind
    shoot(page, "reported")
    ruling.get_by_role("link").click()
    page.wait_for_url("**/rulings/pen.*.dead_hand")
    read_out = page.locator("#read-out").inner_text()
    # by wind (and by name once the hand in play has been read with the names: R-words-2)
    assert read_out.startswith("西家") and "偷牌，判相公" in read_out and "號座" not in read_out
    text = page.locator("article.ruling-sheet").inner_text()
    assert "pen.dead-hand" in text and "相公" in text and "李大華" in text  # the clause; payments by name
    # the code by its name, in the page's title and heading; the report by its name and the seat by wind
    heading = page.locator("h1").inner_text()
    assert "罰則 · 相公" in heading and "dead_hand" not in heading and "相公" in page.title()
    assert "dead_hand" not in page.title()
    happened = page.locator("ul.happened").inner_text()
    assert "報告 西家 李大華 相公：偷牌；註記：北家目擊偷牌" in happened and "stolen_tile" not in happened
    # overrule without a reason: the error at the field
    page.locator("input[name=decision][value=overrule]").check()
    page.get_by_role("button", name="送出覆判 Record the override").click()
    assert field_error(page, "reason_zh").startswith("覆判須寫明理由")
    # amend with payments not summing to 0: the error at the first amount
    page.locator("input[name=decision][value=amend]").check()
    page.fill("#p0", "100")
    page.fill("#reason_zh", "改判")
    page.get_by_role("button", name="送出覆判 Record the override").click()
    assert "總和須為 0" in field_error(page, "p0")
    page.fill("#p0", "0")
    page.locator("input[name=decision][value=overrule]").check()
    page.fill("#reason_zh", "經查證未偷牌，撤銷相公")
    page.get_by_role("button", name="送出覆判 Record the override").click()
    page.wait_for_url("**?done=1")
    assert page.locator("#status").inner_text().startswith("已撤銷")
    assert "經查證未偷牌" in page.locator("ol.audit").inner_text() and "王裁判" in page.locator("ol.audit").inner_text()
    shoot(page, "ruling")
    page.emulate_media(media="print")
    assert page.locator("form#override").is_hidden() and page.locator("header.site").is_hidden()
    page.screenshot(path=str(ARTIFACTS / "ruling-print.png"), full_page=True)
    for size, (w, h), most in (("A4", A4, 1), ("A5", A5, 2)):
        pdf = page.pdf(format=size, print_background=True)
        (ARTIFACTS / f"ruling-{size}.pdf").write_bytes(pdf)
        sizes = _pdf_pages(pdf)
        assert 1 <= len(sizes) <= most, (size, sizes)
        assert all(abs(pw - w) < 2 and abs(ph - h) < 2 for pw, ph in sizes), sizes
    page.emulate_media(media="screen")
    # reinstated from the same form
    page.locator("input[name=decision][value=reinstate]").check()
    page.fill("#reason_zh", "複查後恢復原判")
    page.get_by_role("button", name="送出覆判 Record the override").click()
    page.wait_for_url("**?done=1")
    assert page.locator("#status").inner_text().startswith("維持")
    assert page.locator("ol.audit li").count() == 2


def test_the_console_pages_pass_their_policy_and_fit_a_phone(page, service, official):
    start = len(official["problems"])
    for path in ("/", "/signin", "/hall", "/tables/T1/", "/tables/T2/", "/tables/T1/hands/1/replay?upto=20",
                 "/tables/T1/report", "/tables/T9/"):
        response = page.goto(service["base"] + path, wait_until="load")
        assert response.status == (404 if path == "/tables/T9/" else 200), path
        policy = response.all_headers()["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert page.locator("script:not([src])").count() == 0
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        page.set_viewport_size({"width": 1366, "height": 900})
    assert official["problems"][start:] == []


# --- a physical table's scorer page ---------------------------------------------------------------------


def test_a_scorer_taps_a_discard_on_a_phone(chromium, service):
    record = _context(chromium)
    page = record["context"].new_page()
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(service["base"] + "/signin")
        page.fill("#table", "P3")
        page.fill("#pin", service["scorer_pin"])
        page.get_by_role("button", name="以 PIN 登入 Sign in with the PIN").click()
        page.wait_for_url(service["base"] + "/")
        page.get_by_role("link", name=re.compile("計分：桌 P3")).click()
        page.wait_for_url("**/tables/P3/score")
        event = service["physical"][service["cut"]]
        assert event["type"] == "discard"
        assert f"下一個 seq {event['seq']}" in page.locator("#position").inner_text()
        page.locator("label.tap", has_text="打牌").click()
        page.get_by_role("button", name="記錄 Record").click()  # no seat chosen
        assert field_error(page, "seat").startswith("請選擇座位")
        page.locator("label.tap", has_text="打牌").click()
        page.locator(f"input[name=seat][value='{event['seat']}'] + span").click()
        page.locator(f"button.pick[data-tile='{event['tiles']}']").click()  # the tile, tapped
        assert page.locator("#tiles").input_value() == event["tiles"]
        shoot(page, "scorer")
        page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_role("button", name="記錄 Record").click()
        page.wait_for_url(f"**/tables/P3/score?posted=1.{event['seq']}")
        notice = page.locator("#posted").inner_text()
        assert f"seq {event['seq']}" in notice and "合規" in notice
        _status, body = request(service["port"], "GET", "/api/v1/tables/P3/events?hand=1", None, service["headers"])
        last = body["events"][-1]
        assert last["body"]["type"] == "discard" and last["body"]["seat"] == event["seat"]
        assert last["body"]["tiles"] == event["tiles"]
        shoot(page, "scorer-posted")  # at 390 px too: no wider than the phone
        assert _external(record["requests"]) == [] and record["problems"] == [], record["problems"]
    finally:
        record["context"].close()

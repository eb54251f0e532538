"""The calculators in Debian's Chromium (issue #14 item 8), against the real server (uWSGI
behind nginx, as ``make run``): tiles picked by tapping their pictures give the answer the API
gives; a bad field shows its error at the field; no page is wider than a 390 px phone; no
request leaves 127.0.0.1; nothing breaks the Content-Security-Policy. Screenshots at 1366 and
390 px are kept (tests/browser_kit.artifacts_dir) to be looked at."""
from __future__ import annotations

import pytest

from tests.browser_kit import artifacts_dir, chromium, external
from tests.servicekit import free_port, request, start_server
from tests.test_pages_browser import _pdf_pages

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("calculators")
    port = free_port()
    proc = start_server(tmp / "mjref.sqlite3", port, threads=4, processes=1, log=tmp / "server.log")
    yield {"base": f"http://127.0.0.1:{port}", "port": port}
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    with chromium(PHONE) as b:
        yield b


@pytest.fixture()
def page(browser):
    page = browser["context"].new_page()
    page.set_viewport_size(PHONE)
    yield page
    page.close()


def _tap(page, names: str) -> None:
    """Tap each tile picture (by its Chinese name) in the picker."""
    for name in names.split():
        page.locator("[data-picker] .palette").get_by_role("button", name=name, exact=True).click()


def _problems(browser, start: int) -> list[str]:
    # a 400 page's own status is logged by the console; nothing else may be
    return [p for p in browser["problems"][start:] if "status of 400" not in p]


def test_ready_by_tapping_tiles(server, browser, page):
    start = len(browser["problems"])
    page.goto(server["base"] + "/tools/ready")
    assert page.locator("[data-picker]").is_visible()  # the script ran: the picker is shown
    # 123456789m 12p 789s 55z: tap the 16 tiles
    _tap(page, "一萬 二萬 三萬 四萬 五萬 六萬 七萬 八萬 九萬 一筒 二筒 七條 八條 九條 中 中")
    assert page.locator("#f-tiles").input_value() == "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 7s 8s 9s 7z 7z"
    assert page.locator("[data-preview=tiles] img").count() == 16
    page.get_by_role("button", name="刪最後一張 Undo").click()
    _tap(page, "中")
    page.get_by_role("button", name="看答案 Check").click()
    page.wait_for_url("**/tools/ready?*#result")
    # the answer is on the screen at once (the form is long on a phone)
    assert 0 <= page.evaluate("document.getElementById('answer').getBoundingClientRect().top") < 844
    _, api = request(server["port"], "POST", "/api/v1/analyze", {"tiles": "123456789m 12p 789s 77z"})
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "ready"
    shown = page.locator("tr[data-wait]").evaluate_all("rows => rows.map(r => r.dataset.wait)")
    assert shown == [w["tile"] for w in api["waits"]] == ["3p"]
    assert "邊張" in page.locator("tr[data-wait='3p']").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots = artifacts_dir("calculators")
    page.screenshot(path=str(shots / "ready-390.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(shots / "ready-1366.png"), full_page=True)
    assert _problems(browser, start) == []


def test_not_ready_says_how_far(server, page):
    page.goto(server["base"] + "/tools/ready?tiles=123456789m+147p+789s+5z")
    _, api = request(server["port"], "POST", "/api/v1/analyze", {"tiles": "123456789m 147p 789s 5z"})
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "not-ready"
    assert page.locator("[data-shanten]").get_attribute("data-shanten") == str(api["shanten"]) == "2"
    assert "向聽數 2" in page.locator(".shanten").inner_text()


def test_score_by_tapping_tiles_and_melds(server, browser, page):
    start = len(browser["problems"])
    page.goto(server["base"] + "/tools/score")
    _tap(page, "一萬 一萬 二筒 三筒 四筒 五筒 六筒 七筒")
    page.get_by_role("button", name="副露 melds").click()
    _tap(page, "五條 五條 五條")
    page.get_by_role("button", name="下一副副露 Next meld").click()
    _tap(page, "七萬 八萬 九萬")
    page.get_by_role("button", name="暗槓 Concealed kong").click()
    _tap(page, "東 東 東 東")
    page.get_by_role("button", name="胡牌張 winning tile").click()
    _tap(page, "一萬")
    _tap(page, "春")  # a flower goes to the flowers, whatever field is chosen
    assert page.locator("#f-melds").input_value() == "5s5s5s 7m8m9m concealed:1z1z1z1z"
    assert page.locator("#f-winning_tile").input_value() == "1m"
    assert page.locator("#f-flowers").input_value() == "1f"
    page.select_option("#f-source", "discard")
    page.select_option("#f-discarder", "3")
    page.select_option("#f-winner", "2")
    page.select_option("#f-dealer", "3")
    page.get_by_role("button", name="算台 Score").click()
    page.wait_for_url("**/tools/score?*#result")
    assert 0 <= page.evaluate("document.getElementById('answer').getBoundingClientRect().top") < 844
    _, api = request(server["port"], "POST", "/api/v1/score", {
        "tiles": "1m 1m 2p 3p 4p 5p 6p 7p", "melds": "5s5s5s 7m8m9m concealed:1z1z1z1z", "flowers": "1f",
        "winning_tile": "1m", "source": "discard", "discarder": 3, "winner": 2, "dealer": 3})
    assert page.locator("[data-tai]").get_attribute("data-tai") == str(api["tai"])
    codes = page.locator("tr[data-pattern]").evaluate_all("rows => rows.map(r => r.dataset.pattern)")
    assert codes == [p["code"] for p in api["patterns"]]
    clauses = page.locator("tr[data-pattern] code").all_inner_texts()
    assert clauses == [p["clause"] for p in api["patterns"]]
    sentences = page.locator("ul.payments li").all_inner_texts()
    assert len(sentences) == len(api["settlement"]["transfers"]) == 1
    payer, payee, amount = (api["settlement"]["transfers"][0][k] for k in ("payer", "payee", "amount"))
    assert sentences[0].startswith(f"{payer} 號座（")
    assert f"付給 {payee} 號座" in sentences[0] and str(amount) in sentences[0]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shots = artifacts_dir("calculators")
    page.screenshot(path=str(shots / "score-390.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(shots / "score-1366.png"), full_page=True)
    assert _problems(browser, start) == []


def test_a_bad_tile_is_shown_at_its_field(server, browser, page):
    start = len(browser["problems"])
    page.goto(server["base"] + "/tools/ready")
    page.fill("#f-tiles", "123456789m 12p 789s 5x")
    page.get_by_role("button", name="看答案 Check").click()
    page.wait_for_url("**/tools/ready?*")
    field = page.locator("#f-tiles")
    assert field.get_attribute("aria-invalid") == "true" and field.input_value() == "123456789m 12p 789s 5x"
    error = page.locator("#e-tiles")
    assert error.is_visible() and "第 21 個字元" in error.inner_text() and "position 21" in error.inner_text()
    # the error sits with its field (right below it), not only at the top of the page
    field_box, error_box = field.bounding_box(), error.bounding_box()
    assert 0 <= error_box["y"] - (field_box["y"] + field_box["height"]) < 120
    assert page.locator("[data-verdict]").count() == 0
    page.screenshot(path=str(artifacts_dir("calculators") / "ready-error-390.png"), full_page=True)
    page.goto(server["base"] + "/tools/score?tiles=123m456m789p234s55s+SSS&winning_tile=S&source=discard")
    assert page.locator("#f-discarder").get_attribute("aria-invalid") == "true"
    assert "放銃" in page.locator("#e-discarder").inner_text()
    assert _problems(browser, start) == []


@pytest.mark.parametrize("path", [
    "/tools/", "/tools/ready", "/tools/score", "/tiles", "/tools/ready?tiles=123456789m+124p+789s+55z",
    "/tools/score?tiles=123m456m789p234s55s+SSS&winning_tile=S&winner=0&dealer=0&streak=3", "/tools/score?tiles=1x"])
def test_no_calculator_is_wider_than_a_phone(server, browser, page, path):
    start = len(browser["problems"])
    response = page.goto(server["base"] + path, wait_until="load")
    assert response.status in (200, 400)
    policy = response.all_headers()["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert page.locator("script:not([src])").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    assert _problems(browser, start) == []


def test_typing_works_without_the_script(server, page):
    """Progressive enhancement: when the script does not run (here: served empty), the picker
    stays hidden and the typed form answers."""
    page.route("**/t/static/tools.js", lambda route: route.fulfill(status=200, content_type="text/javascript", body=""))
    page.goto(server["base"] + "/tools/ready")
    assert page.locator("[data-picker]").is_hidden()
    page.fill("#f-tiles", "一萬二萬三萬 四萬五萬六萬 七萬八萬九萬 一筒二筒 七條八條九條 中中")
    page.get_by_role("button", name="看答案 Check").click()
    page.wait_for_url("**/tools/ready?*")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "ready"
    assert page.locator("tr[data-wait]").evaluate_all("rows => rows.map(r => r.dataset.wait)") == ["3p"]


def test_the_answer_prints_without_the_form(server, page):
    page.goto(server["base"] + "/tools/score?tiles=123m456m789p234s55s+SSS&winning_tile=S&winner=0&dealer=0&streak=1")
    page.emulate_media(media="print")
    assert page.locator("form.calc").is_hidden() and page.locator("#result").is_visible()
    assert page.locator("ul.payments li").count() == 3
    pages = _pdf_pages(page.pdf(prefer_css_page_size=True, print_background=True))
    assert len(pages) == 1 and all(abs(w - 595.3) < 2 and abs(h - 841.9) < 2 for w, h in pages), pages  # one A4 page


def test_no_request_leaves_the_machine(server, browser):
    assert any(u.endswith("/t/static/tools.js") for u in browser["requests"])
    assert any("/t/static/tiles/" in u for u in browser["requests"])
    assert external(browser["requests"]) == []

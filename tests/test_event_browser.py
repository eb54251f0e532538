"""A 48-player, 4-round team event run end to end from a browser (issue #15, "done when"):
Debian's Chromium through Playwright (tests/browser_kit.py) against the real server (uWSGI,
nginx, a real SQLite file), one server and one browser for the module.

An official creates the event on its page, pastes 48 Chinese names in 12 teams, moves a player
to another team, makes the schedule and reads its quality, issues a table's scorer a PIN, sets
the clock and publishes round 1 (the hall screen at 1920×1080 shows it). Each round is started,
every table's hand entered through the results page — on a 390 px phone by the table's scorer
(signed in with the PIN) and by the official tapping the same form, the other tables through
the same form posted with its form token (not the API) — then time is called and the round
closed and the next round published. A hand is corrected with a reason; a typed result whose
payments contradict its 台 is refused and reaches no standings. The standings (stacked on a
phone), team standings, a player's page; the CSV read back as UTF-8 with a BOM; table cards,
the seating, score sheets and standings printed as PDFs (pages counted, pdftotext: no table
split across pages). No request off 127.0.0.1, no CSP violation or page error.
Screenshots: event-*.png in browser_kit.artifacts_dir("event").
"""
from __future__ import annotations

import csv
import io
import re
import subprocess

import pytest

from tests import browser_kit
from tests.servicekit import official_server, request, scorer_pin
from tests.test_console_browser import _context, chromium  # noqa: F401 (the module's browser)
from tests.test_pages_browser import _pdf_pages

ARTIFACTS = browser_kit.artifacts_dir("event")
BASE = "/api/v1/tournaments"
TID = "open48"
ROUNDS = 4
TABLES = 12
NAMES = [s + g for s in "王李陳林張黃吳劉蔡楊許鄭" for g in ("小明", "大華", "美玲", "志強")]
TEAMS = ["台北隊", "新北隊", "桃園隊", "台中隊", "台南隊", "高雄隊", "基隆隊", "新竹隊", "嘉義隊", "宜蘭隊", "花蓮隊",
         "台東隊"]
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
PHONE = {"width": 390, "height": 844}
#: the preview answers the form's latest change (not an earlier answer still on screen), and says *want*
OK = ("(want) => { const p = document.querySelector('#preview');"
      " return p.dataset.asked === p.dataset.shown && p.dataset.ok === want; }")


def shoot(page, name: str) -> None:
    """Screenshots at 1366 px and 390 px, looked at; the page never wider than 390 px."""
    size = page.viewport_size
    for width in (1366, 390):
        page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
        page.screenshot(path=str(ARTIFACTS / f"event-{name}-{width}.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / f"event-{name}-{width}-top.png"))  # the first screen, full size
        if width == 390:
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, (name, wide)
    page.set_viewport_size(size)


def pdf_text_pages(path) -> list[str]:
    """The text of each page of a PDF (poppler's pdftotext; pages end with a form feed)."""
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return out.split("\f")[:-1]


@pytest.fixture(scope="module")
def service(tmp_path_factory, server_database):
    folder = tmp_path_factory.mktemp("event48")
    with official_server(folder, server_database(folder, "event48")) as service:
        yield service


def api(service, path: str):
    status, body = request(service["port"], "GET", f"{BASE}/{TID}{path}", None, service["headers"])
    assert status == 200, (path, body)
    return body


def outcome(r: int, t: int) -> dict:
    """The hand a table plays in a round: dealer 0; odd tables a discard win on 門清, even ones a 自摸."""
    winner = (r + t) % 4
    if t % 2:
        return {"dealer": "0", "winner": str(winner), "deal_in": str((winner + 1) % 4), "item": "concealed_hand"}
    return {"dealer": "0", "winner": str(winner), "deal_in": "self", "item": "self_draw"}


def tap_hand(page, hand: dict) -> None:
    """The hand tapped on the results page, waiting for the live preview to agree."""
    for field in ("dealer", "winner", "deal_in"):
        page.locator(f"#{field} input[value='{hand[field]}']").check()
    page.locator(f"#items input[value='{hand['item']}']").check()
    page.wait_for_function(OK, arg="true")


def send_form(context, base: str, path: str, token: str, fields: dict, then: str) -> None:
    """A page's own form sent as the page sends it — its fields and the session's form token (read
    from a page) — answered by the page's redirect (to an address with ``then`` in it)."""
    sent = context.request.post(base + path, form={"csrf_token": token, **fields}, max_redirects=0)
    assert sent.status == 302 and then in sent.headers["location"], (path, sent.status, sent.text()[:2000])


def post_form(context, base: str, path: str, token: str, hand: dict) -> None:
    """A hand sent by the results page's form, as it sends it."""
    send_form(context, base, path, token, {"streak": "0", "outcome": "win", "action": "record", **hand}, "recorded=")


def clock_action(page, base: str, action: str, token: str | None = None) -> None:
    """A clock action from the clock page: its button clicked, or (``token``) its form sent."""
    if token is not None:
        send_form(page.context, base, f"/t/{TID}/clock/{action}", token, {"round": ""}, f"done={action}")
        return
    page.goto(f"{base}/t/{TID}/clock")
    page.locator(f"#{action}-button").click()
    page.wait_for_url(f"**/t/{TID}/clock?done={action}")


def test_a_48_player_event_from_setup_to_printed_standings(chromium, service):
    base = service["base"]
    record, phone = _context(chromium), _context(chromium)
    try:
        context = record["context"]
        page = context.new_page()
        # --- setup: the event, 48 players in 12 teams, one moved ------------------------------------
        browser_kit.sign_in(page, base, "/t/new", service["secret"])
        for field, value in (("id", TID), ("name", "全國四十八人團體賽"), ("rounds", str(ROUNDS)),
                             ("matches_per_round", "1"), ("round_minutes", "60"), ("time_zone", "Asia/Taipei")):
            page.fill(f"#{field}", value)
        page.select_option("#ruleset", "competition")
        page.get_by_role("button", name="建立 Create").click()
        page.wait_for_url(f"**/t/{TID}/players/import?created=1")
        page.fill("#list", "\n".join(["姓名,隊伍", *(f"{n},{TEAMS[k // 4]}" for k, n in enumerate(NAMES))]))
        page.get_by_role("button", name="登錄 Register").click()
        assert "已登錄 48 位" in page.locator("#added").inner_text()
        ids = {p["name"]: p["id"] for p in api(service, "/players")["players"]}
        assert len(ids) == 48
        page.select_option("#team-player", ids["鄭志強"])
        page.fill("#team", "花蓮隊")
        page.fill("#team-reason", "報名表誤植")
        page.locator("#team-button").click()
        page.wait_for_selector("#team-changed")
        assert page.locator(f"#players tr[data-id='{ids['鄭志強']}'] td.team").inner_text() == "花蓮隊"
        teams = {p["id"]: p["team"] for p in api(service, "/players")["players"]}
        assert teams[ids["鄭志強"]] == "花蓮隊"
        listed = page.locator("#players tbody tr td:nth-child(2)").all_inner_texts()
        assert listed[:4] == ["王大華", "王小明", "王志強", "王美玲"] and listed[-1].startswith("鄭")  # by strokes
        shoot(page, "players")
        page.locator("#team-form").screenshot(path=str(ARTIFACTS / "event-team-form-1366.png"))
        # --- seating: the schedule and its quality ---------------------------------------------------
        page.goto(f"{base}/t/{TID}/seating")
        page.fill("#seed", "48")
        page.get_by_role("button", name="排座 Make the schedule").click()
        page.wait_for_selector("#quality")
        schedule = api(service, "/schedule")
        assert len(schedule["rounds"]) == ROUNDS and all(len(r["tables"]) == TABLES for r in schedule["rounds"])
        assert page.locator("#repeats").inner_text() == str(schedule["quality"]["repeats"])
        # a referee table for round 1 table 1, linked, and its scorer's PIN (as an admin issues it)
        for path, body in (("/api/v1/tables", {"id": "R1", "tournament": TID}),
                           (f"{BASE}/{TID}/links", {"table_id": "R1", "round": 1, "table": 1})):
            status, answer = request(service["port"], "POST", path, body, service["headers"])
            assert status == 201, answer
        pin = scorer_pin(service["database"], "R1")
        # --- the clock, round 1 published, the hall screen -------------------------------------------
        page.goto(f"{base}/t/{TID}/clock")
        page.fill("#round_minutes", "60")
        page.select_option("#at_time", "finish_hand")
        page.locator("#settings-button").click()
        page.wait_for_url("**done=settings")
        page.goto(f"{base}/t/{TID}/seating")
        page.locator("#publish-1-button").click()
        page.wait_for_selector("#published-1")
        token = CSRF.search(page.content()).group(1)  # the session's form token, as every form carries it
        shoot(page, "seating")
        hall = context.new_page()
        hall.set_viewport_size({"width": 1920, "height": 1080})
        hall.goto(f"{base}/t/{TID}/hall")
        assert "第 1 輪座位表" in hall.locator("h1").inner_text()
        assert hall.locator("table.seats").count() == TABLES
        bottom = hall.locator(f"#table-{TABLES}").evaluate("t => t.getBoundingClientRect().bottom")
        assert bottom <= 1080, bottom  # every table on the projector's one screen, nothing to scroll
        hall.screenshot(path=str(ARTIFACTS / "event-hall-1920.png"))
        finder = hall.locator("table.finder tbody th").all_inner_texts()
        assert finder[0].startswith("王") and finder[-1].startswith("鄭") and len(finder) == 48  # by strokes
        shoot(hall, "hall")
        # the scorer of round 1 table 1 signs in on a phone
        scorer = phone["context"].new_page()
        # --- four rounds: start, every table's hand, time, close, the next round published -------------
        for r in range(1, ROUNDS + 1):
            by_hand = r == 1  # round 1 by the pages' buttons and taps; later rounds by the same forms, sent
            clock_action(page, base, "start", None if by_hand else token)
            assert api(service, "/clock")["round"]["round"] == r
            for t in range(1, TABLES + 1):
                path = f"/t/{TID}/results/{r}/{t}/1"
                hand = outcome(r, t)
                if (r, t) == (1, 1):  # the table's scorer, with the PIN, on a phone
                    scorer.set_viewport_size(PHONE)
                    scorer.goto(base + path)
                    if "/signin" in scorer.url:
                        scorer.fill("#table", "R1")
                        scorer.fill("#pin", pin)
                        scorer.get_by_role("button", name="以 PIN 登入 Sign in with the PIN").click()
                        scorer.wait_for_url(base + path)
                    tap_hand(scorer, hand)
                    seated = scorer.locator("#seats").inner_text()  # each seat's team beside the name
                    assert all(teams[p] in seated for p in api(service, "/rounds/1")["tables"][0]["seats"]), seated
                    shoot(scorer, "scorer")
                    scorer.get_by_role("button", name="記錄 Record").click()
                    scorer.wait_for_url("**recorded=1")
                elif t == 2 and by_hand:  # the official taps the same form on a phone
                    page.set_viewport_size(PHONE)
                    page.goto(base + path)
                    assert CSRF.search(page.content()).group(1) == token  # the session's form token
                    tap_hand(page, hand)
                    page.get_by_role("button", name="記錄 Record").click()
                    page.wait_for_url("**recorded=1")
                    page.set_viewport_size({"width": 1366, "height": 900})
                else:
                    post_form(context, base, path, token, hand)
            if r == ROUNDS:
                # a typed result contradicting its 台 (1 台 on a discard: 120, not 999) is refused, by field
                before = api(service, "/standings")["standings"]
                status, problem = request(service["port"], "POST", f"{BASE}/{TID}/hands", {
                    "round": r, "table": 1, "payments": [-999, 999, 0, 0],
                    "wins": [{"seat": 1, "tai": 1, "deal_in": 0}]}, service["headers"])
                assert status == 400 and "payments" in problem["field"], problem
                assert api(service, "/standings")["standings"] == before
            clock_action(page, base, "call-time", None if by_hand else token)
            clock_action(page, base, "close", None if by_hand else token)
            if r < ROUNDS:
                if by_hand:
                    page.goto(f"{base}/t/{TID}/seating")
                    page.locator(f"#publish-{r + 1}-button").click()
                    page.wait_for_selector(f"#published-{r + 1}")
                else:
                    send_form(context, base, f"/t/{TID}/seating/{r + 1}/publish", token, {}, "published=")
                hall.reload()
                assert f"第 {r + 1} 輪座位表" in hall.locator("h1").inner_text()  # between rounds: the next one
        hands = api(service, "/hands")["hands"]
        assert len(hands) == ROUNDS * TABLES and all(sum(h["payments"]) == 0 for h in hands)
        # --- a correction, with its reason ------------------------------------------------------------
        page.goto(f"{base}/t/{TID}/results/1/3/1")
        page.locator("details.revert summary").first.click()
        page.get_by_role("link", name="以台數更正 Correct by items").click()
        page.locator("#items input[value='concealed_hand']").uncheck()
        page.locator("#items input[value='full_flush']").check()
        page.fill("#reason", "誤記：應為清一色")
        page.get_by_role("button", name="更正 Correct").click()
        page.wait_for_url("**corrected=1")
        corrected = next(h for h in api(service, "/hands")["hands"] if h["key"][:3] == [1, 3, 1])
        assert corrected["corrected"] and max(corrected["payments"]) > 120
        # --- standings, teams, a player's page ---------------------------------------------------------
        hands = api(service, "/hands")["hands"]
        expected = api(service, "/standings")["standings"]
        page.goto(f"{base}/t/{TID}/standings")
        rows = page.locator("table.standings:not(.team-standings) tbody tr")
        assert rows.count() == 48
        assert page.locator("table.standings:not(.team-standings) tbody th code").all_inner_texts() == [
            s["player_id"] for s in expected]
        assert sum(int(p)
                   for p in page.locator("table.standings:not(.team-standings) td.points").all_inner_texts()) == 0
        heads = page.locator("table.standings:not(.team-standings) thead th").all_inner_texts()
        assert [h.split()[0] for h in heads if h.startswith("第")] == ["第"] * ROUNDS  # a column per round
        by_seats = {}
        for h in hands:  # each player's points from the hands themselves
            for pid, amount in zip(h["players"], h["payments"]):
                by_seats[pid] = by_seats.get(pid, 0) + amount
        assert {s["player_id"]: s["points"] for s in expected} == by_seats
        assert page.locator("#teams table.team-standings tbody tr").count() == 12
        shoot(page, "standings")
        page.set_viewport_size(PHONE)
        page.locator("#teams").screenshot(path=str(ARTIFACTS / "event-teams-390.png"))
        first = page.locator("table.standings:not(.team-standings) tbody tr").first
        assert first.evaluate("tr => getComputedStyle(tr).display") == "flex"  # stacked on a phone
        assert page.locator("table.standings thead").first.evaluate("h => h.getBoundingClientRect().width") <= 1
        page.set_viewport_size({"width": 1366, "height": 900})
        # the CSV, as Excel on zh-TW Windows reads it
        href = page.get_by_role("link", name="下載 CSV Download CSV").get_attribute("href")
        got = context.request.get(base + href)
        assert got.ok and got.body().startswith(b"\xef\xbb\xbf")
        table = list(csv.reader(io.StringIO(got.body().decode("utf-8-sig"))))
        column = next(k for k, head in enumerate(table[0]) if head.startswith("姓名"))
        assert len(table) == 49 and sorted(row[column] for row in table[1:]) == sorted(NAMES)
        moved = ids["鄭志強"]
        page.goto(f"{base}/t/{TID}/players/{moved}")
        assert page.locator("#team").inner_text() == "花蓮隊"
        assert page.locator("#points").inner_text() == str(by_seats[moved])
        shoot(page, "player")
        # --- printouts as PDFs ---------------------------------------------------------------------------
        page.emulate_media(media="print")
        page.goto(f"{base}/t/{TID}/rounds/1/cards")
        assert len(_pdf_pages(page.pdf(prefer_css_page_size=True))) == TABLES  # a card a page
        page.goto(f"{base}/t/{TID}/rounds/4/sheets")
        assert len(_pdf_pages(page.pdf(prefer_css_page_size=True))) == TABLES  # a sheet per table and 將
        seating_pdf = service["tmp"] / "seating.pdf"
        page.goto(f"{base}/t/{TID}/rounds/1/")
        page.pdf(path=str(seating_pdf), prefer_css_page_size=True)
        pages = pdf_text_pages(seating_pdf)
        assert len(pages) == len(_pdf_pages(seating_pdf.read_bytes())) >= 1
        plan = api(service, "/rounds/1")["tables"]
        names = {p["id"]: p["name"] for p in api(service, "/players")["players"]}
        for t in plan:  # every table whole on one page: its caption and its four names
            holding = [k for k, text in enumerate(pages) if f"第 {t['table']} 桌" in text]
            assert holding, t["table"]
            assert any(all(names[p] in pages[k] for p in t["seats"]) for k in holding), (t, holding)
        standings_pdf = service["tmp"] / "standings.pdf"
        page.goto(f"{base}/t/{TID}/standings")
        page.pdf(path=str(standings_pdf), prefer_css_page_size=True)
        pages = pdf_text_pages(standings_pdf)
        assert 1 <= len(pages) == len(_pdf_pages(standings_pdf.read_bytes())) <= 3  # 48 players and 12 teams
        for s in expected:  # a player's row whole on one page: the name and the id together
            assert any(s["name"] in text and s["player_id"] in text for text in pages), s
        assert all("名次" in text for text in pages if "第 1 輪" in text)  # headers repeated
        page.emulate_media(media="screen")
        for who in (record, phone):
            assert browser_kit.external(who["requests"]) == []
            assert who["problems"] == [], who["problems"]
    finally:
        record["context"].close()
        phone["context"].close()

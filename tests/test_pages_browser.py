"""The pages in a real browser: Debian's Chromium (/usr/bin/chromium) driven by Playwright,
against the real server process (uWSGI as make run starts it, a real SQLite file).

One browser and one server per module (fixtures); a second server with reads not public for
the 401 page. Every request the browser makes is recorded: the pages and the /docs page
(Swagger UI, served locally) must not leave 127.0.0.1. Every Content-Security-Policy
violation and console error is recorded too: no page may have one (issue #12 item 8). ``make test``
installs Chromium when it is missing (the Makefile); Playwright's own browser downloads are not used.
"""
from __future__ import annotations

import csv
import io
import re
import struct
import time
import zlib
from datetime import datetime, timezone
from pathlib import Path

import pytest

from store import connect
from store import tournaments as tournament_store
from tests.browser_kit import chromium, external
from tests.servicekit import free_port, start_server
from tests.test_pages import PLAYERS, seed_tournament
from tournament import clock as tclock
from tournament.events import replay
from tournament.standings import standings, to_csv

#: A5 landscape in PostScript points (210 mm × 148 mm)
A5_LANDSCAPE = (595.3, 419.5)

#: the time the servers' clock reads at the start of the module (MJREF_CLOCK_OFFSET_SECONDS):
#: 35 minutes before round 1 of the tournament "clocked" is up
SERVER_NOW = datetime(2026, 11, 29, 10, 0, tzinfo=timezone.utc)


def _seed_clocked(database: str) -> None:
    """A second tournament whose round 1 runs on the clock (the pages show a countdown)."""
    seed_tournament(database, "clocked", with_results=False)
    db = connect(database)
    try:
        with db.atomic():
            tournament_store.append_events(db, "clocked", [
                tclock.ClockConfigured(tclock.ClockSettings(round_seconds=5400, at_time=tclock.FINISH_CIRCLE),
                                       "2026-11-29T09:00:00Z"),
                tclock.SeatingPublished(1, "2026-11-29T09:00:00Z"),
                tclock.RoundStarted(1, "2026-11-29T09:05:00Z"),
            ])
    finally:
        db.close()


def _server(tmp: Path, database: str, name: str, env: dict[str, str]):
    records = seed_tournament(database)
    _seed_clocked(database)
    env = {"MJREF_CLOCK_OFFSET_SECONDS": repr(SERVER_NOW.timestamp() - time.time()), **env}
    port = free_port()
    with pytest.MonkeyPatch.context() as mp:  # start_server passes os.environ on to the server
        for key, value in env.items():
            mp.setenv(key, value)
        proc = start_server(database, port, threads=8, log=tmp / f"{name}.log")
    return proc, port, records


@pytest.fixture(scope="module")
def servers(tmp_path_factory, server_database):
    """Two servers: reads public (the default), and tournament reads needing a token
    (``MJREF_PUBLIC_READS=rulesets``). One after the other: each takes its environment
    from ``os.environ`` when it starts."""
    tmp = tmp_path_factory.mktemp("pages")
    started = [_server(tmp, server_database(tmp, "public"), "public", {})]
    try:
        started.append(_server(tmp, server_database(tmp, "private"), "private", {"MJREF_PUBLIC_READS": "rulesets"}))
    except BaseException:
        started[0][0].terminate()
        raise
    yield started
    for proc, _, _ in started:
        proc.terminate()
    for proc, _, _ in started:
        proc.wait(10)


@pytest.fixture(scope="module")
def server(servers):
    """The server with public reads: its base URL and the seeded log."""
    _, port, records = servers[0]
    return {"port": port, "records": records, "base": f"http://127.0.0.1:{port}"}


@pytest.fixture(scope="module")
def private_server(servers):
    """The server whose tournament reads need a token: its base URL."""
    return f"http://127.0.0.1:{servers[1][1]}"


@pytest.fixture(scope="module")
def browser():
    """A Chromium context on a fresh profile; ``requests`` lists every URL it asked for."""
    with chromium({"width": 1200, "height": 900}, accept_downloads=True) as context:
        yield context


@pytest.fixture()
def page(browser):
    page = browser["context"].new_page()
    yield page
    page.close()


def _pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size (width, height in points) from the page objects of a PDF."""
    sizes = []
    for match in re.finditer(rb"<<(?:(?!>>).)*?/Type\s*/Page(?![a-zA-Z])(?:(?!endobj).)*", pdf, re.S):
        box = re.search(rb"/MediaBox\s*\[\s*([\d.\-]+)\s+([\d.\-]+)\s+([\d.\-]+)\s+([\d.\-]+)", match.group(0))
        sizes.append((float(box.group(3)) - float(box.group(1)), float(box.group(4)) - float(box.group(2)))
                     if box else (0.0, 0.0))
    return sizes


def _png_pixels(data: bytes, step: int = 7) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and every ``step``-th pixel's RGB (8-bit RGB or RGBA,
    non-interlaced: what Chromium writes), unfiltered with the standard's five filters."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    # bytewise a + b mod 256 on whole rows at once (no carry between bytes), for the Up filter
    low, high = int.from_bytes(b"\x7f" * stride, "big"), int.from_bytes(b"\x80" * stride, "big")
    pixels, prev = [], bytes(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if kind == 2:
            a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
            line = (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big")
        elif kind in (1, 3, 4):
            out = bytearray(line)
            for i in range(stride):
                a = out[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                if kind == 1:
                    out[i] = (out[i] + a) & 0xFF
                elif kind == 3:
                    out[i] = (out[i] + (a + b) // 2) & 0xFF
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    out[i] = (out[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
            line = bytes(out)
        pixels += [line[i:i + 3] for i in range((y * 3 % step) * bpp, stride, step * bpp)]
        prev = line
    return width, height, pixels


def test_index_and_seating_in_zh_tw(server, page):
    state = replay(server["records"])
    page.goto(server["base"] + "/t/taipei/")
    assert page.locator("html").get_attribute("lang") == "zh-Hant-TW"
    assert page.locator("h1").inner_text() == "台北盃 & 測試"
    page.get_by_role("link", name="座位表 Seating").first.click()
    page.wait_for_url("**/t/taipei/rounds/1/")
    for plan in state.round(1).tables:
        table = page.locator(f"#table-{plan.table}")
        assert table.locator("caption").inner_text() == f"第 {plan.table} 桌 Table {plan.table}"
        rows = [r.split("\t") for r in table.locator("tbody").inner_text().splitlines()]
        assert rows == [[w, f"{PLAYERS[p]}（{p}）"] for w, p in zip("東南西北", plan.seats)]
    # the name with a script tag is shown as text, not run
    assert page.get_by_text("<script>alert(1)</script>（p7）").first.is_visible()
    assert page.evaluate("typeof window.alert") == "function"


def test_table_cards_print_one_per_page(server, page, tmp_path):
    state = replay(server["records"])
    tables = state.round(1).tables
    page.goto(server["base"] + "/t/taipei/rounds/1/cards")
    cards = page.locator("article.card")
    assert cards.count() == len(tables)
    for k, plan in enumerate(tables):
        text = cards.nth(k).inner_text()
        assert f"第 {plan.table} 桌" in text and "第 1 輪" in text
        assert all(PLAYERS[p] in text for p in plan.seats)

    shot = tmp_path / "cards.png"
    page.screenshot(path=str(shot), full_page=True)
    width, height, pixels = _png_pixels(shot.read_bytes())
    assert width >= 1000 and height >= 900
    background = max(set(pixels[::13]), key=pixels[::13].count)
    inked = sum(1 for px in pixels if px != background) / len(pixels)
    assert len(set(pixels)) > 20 and 0.01 < inked < 0.9, (len(set(pixels)), inked)

    page.emulate_media(media="print")
    assert page.locator(".toolbar").is_hidden()
    styles = cards.evaluate_all("cards => cards.map(c => getComputedStyle(c).breakAfter)")
    assert styles[:-1] == ["page"] * (len(tables) - 1)
    pdf = page.pdf(prefer_css_page_size=True, print_background=True)
    sizes = _pdf_pages(pdf)
    assert len(sizes) == len(tables)
    assert all(abs(w - A5_LANDSCAPE[0]) < 2 and abs(h - A5_LANDSCAPE[1]) < 2 for w, h in sizes), sizes


def test_score_sheets_one_per_table_and_match(server, page):
    state = replay(server["records"])
    page.goto(server["base"] + "/t/taipei/rounds/1/sheets")
    sheets = page.locator("article.sheet")
    assert sheets.count() == len(state.round(1).tables) * state.settings.matches_per_round
    first = sheets.first
    heads = first.locator("thead th").all_inner_texts()
    assert heads[:5] == ["盤 Hand", "莊 Dealer", "胡 Winner", "放槍 Deal-in", "台 Tai"]
    totals = first.locator("tfoot td.total").all_inner_texts()
    assert totals == ["-400", "120", "420", "-140"]
    assert "四家合計須為 0" in first.locator(".rule").inner_text()
    assert first.locator("tbody tr").count() == 24  # 16 deals and room for 連莊
    page.emulate_media(media="print")
    assert len(_pdf_pages(page.pdf(prefer_css_page_size=True))) == sheets.count()


def test_standings_order_and_csv_download(server, page, tmp_path):
    state = replay(server["records"])
    expected = standings(state)
    page.goto(server["base"] + "/t/taipei/standings")
    ids = page.locator("table.standings tbody th code").all_inner_texts()
    assert ids == [s.totals.player_id for s in expected]
    points = page.locator("table.standings tbody tr td:nth-child(3)").all_inner_texts()
    assert points == [str(s.totals.points) for s in expected]
    with page.expect_download() as info:
        page.get_by_role("link", name="下載 CSV Download CSV").click()
    path = tmp_path / "standings.csv"
    info.value.save_as(path)
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM, as Excel on zh-TW Windows needs
    text = raw.decode("utf-8-sig")
    assert text == to_csv(expected)
    rows = list(csv.reader(io.StringIO(text)))
    assert [r[1] for r in rows[1:]] == ids


def test_unknown_ids_show_the_404_page(server, page):
    for path in ("/t/nope/", "/t/taipei/rounds/7/cards", "/t/taipei/rounds/1/tables/42/sheets/1"):
        response = page.goto(server["base"] + path)
        assert response.status == 404
        assert "找不到頁面" in page.locator("h1").inner_text() and "Not found" in page.locator("h1").inner_text()


def test_reads_not_public_show_the_401_page(private_server, page):
    response = page.goto(private_server + "/t/taipei/rounds/1/cards")
    assert response.status == 401
    assert page.locator("h1").inner_text().startswith("需要授權 Unauthorized")
    assert "MJREF_PUBLIC_READS" in page.locator("main").inner_text()
    assert page.locator("article.card").count() == 0


def test_pages_make_no_external_request(server, browser, page):
    for path in ("/t/", "/t/taipei/", "/t/taipei/rounds/1/", "/t/taipei/standings"):
        page.goto(server["base"] + path, wait_until="load")
    assert any(u.endswith("/t/static/pages.css") for u in browser["requests"])
    assert external(browser["requests"]) == []


def test_docs_page_lists_the_operations_offline(server, browser, page):
    spec = page.request.get(server["base"] + "/openapi.json").json()
    operations = {(method.upper(), path) for path, item in spec["paths"].items() for method in item
                  if method in ("get", "post", "put", "patch", "delete")}
    start = len(browser["requests"])
    # Swagger UI's bundle is over 1 MB of script: a busy machine may take more than the
    # default 10 s to load and run it (it once did), so this page alone gets 30 s
    page.goto(server["base"] + "/docs", wait_until="networkidle", timeout=30_000)
    page.wait_for_selector(".opblock", timeout=30_000)
    shown = {(method.strip(), path) for method, path in page.eval_on_selector_all(
        ".opblock-summary", """blocks => blocks.map(b => [b.querySelector(".opblock-summary-method").innerText,
            b.querySelector(".opblock-summary-path").getAttribute("data-path")])""")}
    assert shown == operations
    made = browser["requests"][start:]
    assert any(u.endswith("/openapi.json") for u in made)
    assert external(made) == [], external(made)


def _pages(state) -> list[str]:
    """Every kind of page: the tournaments, one tournament, a round's seating, the hall
    screen, the cards and sheets (all and one), the standings, the clock's countdown."""
    table = state.round(1).tables[0].table
    return ["/t/", "/t/taipei/", "/t/taipei/rounds/1/", "/t/taipei/hall", "/t/taipei/rounds/1/cards",
            f"/t/taipei/rounds/1/tables/{table}/card", "/t/taipei/rounds/1/sheets",
            f"/t/taipei/rounds/1/tables/{table}/sheets/1", "/t/taipei/standings", "/t/clocked/"]


def _assert_secured(response, path: str) -> None:
    headers = response.all_headers()
    policy = headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, (path, policy)
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, (path, policy)
    assert headers.get("x-content-type-options") == "nosniff", path


def test_every_page_passes_its_content_security_policy(server, private_server, browser, page):
    start = len(browser["problems"])
    for path in [*_pages(replay(server["records"])), "/t/nope/"]:
        response = page.goto(server["base"] + path, wait_until="load")
        assert response.status == (404 if path == "/t/nope/" else 200), path
        _assert_secured(response, path)
    response = page.goto(private_server + "/t/taipei/", wait_until="load")
    assert response.status == 401
    _assert_secured(response, "401")
    # the console counts a 404/401 page's status as an error; only those may be there
    problems = [p for p in browser["problems"][start:] if "status of 40" not in p]
    assert problems == [], problems


def test_countdown_runs_from_a_script_file(server, browser, page):
    start = len(browser["problems"])
    page.goto(server["base"] + "/t/clocked/", wait_until="load")
    out = page.locator("output.countdown")
    first = out.inner_text()
    seconds = int(out.get_attribute("data-seconds-left"))
    assert 0 < seconds <= 2100 and first == f"{seconds // 60}:{seconds % 60:02d}"
    page.wait_for_function("t => document.querySelector('output.countdown').textContent !== t", arg=first,
                           timeout=3000)  # counting down: the script ran
    assert page.locator("script:not([src])").count() == 0
    assert browser["problems"][start:] == []


def test_docs_page_works_under_its_content_security_policy(server, browser, page):
    start = len(browser["problems"])
    response = page.goto(server["base"] + "/docs", wait_until="networkidle")
    _assert_secured(response, "/docs")
    page.wait_for_selector(".opblock")
    assert page.locator("script:not([src])").count() == 0
    # an operation opens and is tried from the page: Swagger UI's scripts run under the policy
    block = page.locator(".opblock-get", has=page.locator(".opblock-summary-path[data-path='/api/v1/rulesets']"))
    block.locator(".opblock-summary").click()
    block.get_by_role("button", name="Try it out").click()
    block.get_by_role("button", name="Execute").click()
    status = block.locator(".live-responses-table tbody .response-col_status").first
    status.wait_for()
    assert status.inner_text().strip() == "200"
    assert browser["problems"][start:] == []


PAGES = ["/t/", "/t/taipei/", "/t/taipei/rounds/1/", "/t/taipei/hall", "/t/taipei/rounds/1/cards",
         "/t/taipei/rounds/1/sheets", "/t/taipei/standings"]


@pytest.mark.parametrize("path", PAGES)
def test_no_page_is_wider_than_a_phone(server, browser, path):
    """Legible on a 390 px phone: the page never scrolls sideways (a wide table scrolls in its own box)."""
    page = browser["context"].new_page()
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(server["base"] + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    finally:
        page.close()


def test_number_columns_are_right_aligned(server, page):
    page.goto(server["base"] + "/t/taipei/standings")
    aligns = page.eval_on_selector_all("table.grid td.num", "cells => cells.map(c => getComputedStyle(c).textAlign)")
    assert aligns and set(aligns) == {"right"}
    page.goto(server["base"] + "/t/taipei/rounds/1/sheets")
    aligns = page.eval_on_selector_all("table.score td.num", "cells => cells.map(c => getComputedStyle(c).textAlign)")
    assert aligns and set(aligns) == {"right"}


def test_the_seating_prints_whole_tables_in_dark_headers(server, page):
    """On paper: no table split across pages, headers not light-on-dark (printers drop backgrounds)."""
    page.goto(server["base"] + "/t/taipei/rounds/1/")
    page.emulate_media(media="print")
    styles = page.eval_on_selector_all("table.seats", """tables => tables.map(t => {
        const cap = t.querySelector('caption'), en = cap.querySelector('[lang=en]');
        return [getComputedStyle(t).breakInside, getComputedStyle(cap).color, getComputedStyle(en).color]; })""")
    assert styles
    for brk, caption, english in styles:
        assert brk == "avoid"
        for color in (caption, english):
            r, g, b = (int(x) for x in re.findall(r"\d+", color)[:3])
            assert max(r, g, b) <= 0x40, color  # dark ink on white paper

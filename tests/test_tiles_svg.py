"""The tile pictures (issue #14 item 3): all 42 faces and the back, valid SVG, drawn by
web/tiles_svg.py (the committed files are what it writes), shown with Chinese alt texts,
and legible on a 390 px phone in Chromium."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from flask import render_template_string

from referee.errors import InvalidTileError
from referee.melds import Meld, MeldKind
from referee.tiles import ALL_TILES, parse_tiles, tile_name
from tests.browser_kit import artifacts_dir, chromium, external
from tests.servicekit import free_port, start_server
from web import tiles_svg
from web.tiles import SIZES, as_tiles, meld_view, tile_alt

SVG = "{http://www.w3.org/2000/svg}"
NAMES_ZH = ([f"{n}萬" for n in "一二三四五六七八九"] + [f"{n}筒" for n in "一二三四五六七八九"]
            + [f"{n}條" for n in "一二三四五六七八九"] + list("東南西北白發中") + list("春夏秋冬梅蘭菊竹"))


def test_every_face_and_the_back_exist_and_parse():
    files = sorted(p.name for p in tiles_svg.TILES_DIR.glob("*.svg"))
    assert files == sorted([f"{tile_name(t)}.svg" for t in ALL_TILES] + ["back.svg"])
    assert len(files) == 43
    for t in ALL_TILES:
        root = ET.parse(tiles_svg.TILES_DIR / f"{tile_name(t)}.svg").getroot()
        assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 60 80"
        assert root.find(f"{SVG}title").text == NAMES_ZH[t] == tile_alt(t)
        drawn = [e for e in root.iter() if e.tag in (f"{SVG}path", f"{SVG}circle", f"{SVG}rect")]
        assert len(drawn) >= 3, tile_name(t)  # the face, its rim and something on it
        # self-contained: no text needing a font, no link to anything, no script
        tags = {e.tag for e in root.iter()}
        assert not tags & {f"{SVG}text", f"{SVG}script", f"{SVG}image", f"{SVG}use", f"{SVG}style"}, tile_name(t)
        assert not any(k.endswith("href") for e in root.iter() for k in e.attrib), tile_name(t)


def test_faces_differ_from_each_other():
    bodies = {tiles_svg.tile_svg(t).split("</title>", 1)[1] for t in ALL_TILES}
    assert len(bodies) == 42


def test_the_committed_files_are_what_the_generator_draws(tmp_path):
    pytest.importorskip("fontTools", reason="fonttools (requirements.txt) draws the characters")
    assert tiles_svg.FONT_FILE.exists(), "fonts-noto-cjk is missing: `make test` installs it"
    written = tiles_svg.write(tmp_path)
    assert len(written) == 43
    for path in written:
        assert path.read_text(encoding="utf-8") == (tiles_svg.TILES_DIR / path.name).read_text(encoding="utf-8"), \
            f"{path.name} differs: run python -m web.tiles_svg"


def test_the_macros_give_chinese_alt_texts_and_sizes(app):
    with app.test_request_context():
        html = render_template_string(
            '{% from "_tile.html" import tile, tiles, meld, melds, back %}'
            '{{ tile(4) }}|{{ tiles("19m 東 中") }}|{{ meld(m) }}|{{ melds(api, "s") }}|{{ back("l") }}',
            m=Meld(MeldKind.CHOW, 3, claimed=4), api=[{"kind": "pung", "tiles": "555p"},
                                                        {"kind": "concealed_kong", "tiles": [27] * 4}])
    one, hand, chow, exposed, down = html.split("|")
    assert one == ('<img class="tile tile-m" src="/t/static/tiles/5m.svg" alt="五萬" title="五萬 5m" '
                   'width="30" height="40">')
    assert [a.split('"')[0] for a in hand.split('alt="')[1:]] == ["一萬", "九萬", "東", "中"]
    assert 'aria-label="吃 四萬 五萬 六萬"' in chow and chow.count("claimed") == 1
    assert 'alt="五萬" title="五萬 5m"' in chow
    assert 'aria-label="碰 五筒 五筒 五筒"' in exposed and 'aria-label="暗槓 東 東 東 東"' in exposed
    assert exposed.count('class="tile tile-s"') == 7
    assert 'src="/t/static/tiles/back.svg" alt="牌背"' in down and 'width="45" height="60"' in down


def test_a_whole_hand_in_one_row(app):
    with app.test_request_context():
        html = render_template_string('{% from "_tile.html" import hand %}{{ hand("19m", melds, "1f 5f", hidden=2) }}',
                                      melds=[Meld(MeldKind.PUNG, 27)])
    alts = [a.split('"')[0] for a in html.split('alt="')[1:]]
    assert alts == ["一萬", "九萬", "牌背", "牌背", "東", "東", "東", "春", "梅"]
    assert html.count('class="tile tile-s"') == 2  # the flowers small, beside the hand


def test_helpers_refuse_bad_tiles_and_kinds():
    with pytest.raises(InvalidTileError, match="position 1"):
        as_tiles("1x")
    with pytest.raises(InvalidTileError):
        as_tiles([42])
    with pytest.raises(ValueError, match="unknown meld kind 'triple'"):
        meld_view({"kind": "triple", "tiles": "555p"})
    assert meld_view({"kind": "added", "tiles": "5555p", "claimed": "5p"}) == {
        "kind": "added_kong", "kind_zh": "加槓", "tiles": parse_tiles("5555p"), "claimed": 13}
    assert set(SIZES) == {"s", "m", "l"}


def test_the_legend_page_lists_every_tile_and_serves_its_pictures(client):
    page = client.get("/tiles")
    assert page.status_code == 200 and "script-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    alts = [a.split('"')[0] for a in html.split('alt="')[1:]]
    assert alts == NAMES_ZH + ["牌背"]
    for t in ALL_TILES:
        picture = client.get(f"/t/static/tiles/{tile_name(t)}.svg")
        assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tiles")
    port = free_port()
    proc = start_server(tmp / "mjref.sqlite3", port, threads=4, processes=1, log=tmp / "server.log")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(10)


def test_every_tile_is_drawn_on_a_phone(server):
    """At 390 px: every picture loads (an <img> the browser decoded), none is blank, the page
    does not scroll sideways, no request leaves 127.0.0.1, nothing breaks the CSP. The
    screenshots are kept to be looked at."""
    shots = artifacts_dir("tiles")
    with chromium({"width": 390, "height": 844}) as browser:
        page = browser["context"].new_page()
        page.goto(server + "/tiles", wait_until="load")
        sizes = page.eval_on_selector_all("img.tile", "imgs => imgs.map(i => [i.alt, i.naturalWidth, i.width])")
        assert [s[0] for s in sizes] == NAMES_ZH + ["牌背"]
        assert all(natural > 0 and width == 45 for _, natural, width in sizes), sizes
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(shots / "tiles-390.png"), full_page=True)
        page.set_viewport_size({"width": 1366, "height": 900})
        page.screenshot(path=str(shots / "tiles-1366.png"), full_page=True)
        assert external(browser["requests"]) == []
        assert browser["problems"] == []

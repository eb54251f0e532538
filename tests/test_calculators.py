"""The calculators' pages (issue #14 item 8) against the API: for the same input the page
shows what POST /api/v1/analyze and POST /api/v1/score answer (the pages call the same code;
these tests hold them to the API's answers over HTTP, not to numbers written here alone).
Bad input is shown at the field, zh-TW and English, never a 500."""
from __future__ import annotations

import random
import re
from html import unescape
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.handgen import random_hand, waiting_hand, winning_hand
from referee.hand import Hand
from referee.tiles import format_tiles
from tests.servicekit import app_storing_nothing  # noqa: F401  (the app here: these tests store nothing)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _attrs(html: str, name: str) -> list[str]:
    return [unescape(v) for v in re.findall(rf'{name}="([^"]*)"', html)]


def _field_error(html: str, field: str) -> str | None:
    match = re.search(rf'<p class="field-error" id="e-{field}">(.*?)</p>', html, re.S)
    return _text(match.group(1)).strip() if match else None


def _ready(client, **args):
    page = client.get("/tools/ready?" + urlencode(args))
    api = client.post("/api/v1/analyze", json={k: v for k, v in args.items()})
    return page, api


def _hand_text(counts, melds) -> dict:
    hand = Hand(tuple(counts), melds)
    return {"tiles": format_tiles(hand.tiles()), "melds": " ".join(str(m) for m in melds)}


def test_the_index_links_every_calculator(client):
    page = client.get("/tools/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'href="/tools/ready"' in html and 'href="/tools/score"' in html and 'href="/tiles"' in html
    assert "聽牌了嗎？" in html and "幾台？誰付多少？" in html


@pytest.mark.parametrize("seed", range(12))
def test_ready_answers_as_the_api_does(client, seed):
    rng = random.Random(seed)
    kind = seed % 3
    if kind == 0:
        counts, melds = waiting_hand(rng, melds=seed % 4)
    elif kind == 1:
        counts, melds = random_hand(rng, 16, melds=seed % 3)
    else:
        counts, melds = winning_hand(rng, melds=seed % 4)
    page, api = _ready(client, **_hand_text(counts, melds))
    assert page.status_code == api.status_code == 200
    html, report = page.get_data(as_text=True), api.get_json()
    if report["size"] == 16:
        verdict = "ready" if report["ready"] else "not-ready"
        assert _attrs(html, "data-verdict") == [verdict]
        assert _attrs(html, "data-wait") == [w["tile"] for w in report["waits"]]
        for w in report["waits"]:
            row = re.search(rf'<tr data-wait="{w["tile"]}">(.*?)</tr>', html, re.S).group(1)
            assert f'alt="{w["tile_zh"]}"' in row and "、".join(w["shapes_zh"]) in row
        if not report["ready"]:
            assert _attrs(html, "data-shanten") == [str(report["shanten"])] and report["shanten"] > 0
    else:
        assert _attrs(html, "data-verdict") == ["winning"]
        assert _text(html).count("拆法") == len(report["decompositions"])


def test_a_seventeen_tile_hand_that_does_not_win_lists_its_discards(client):
    page, api = _ready(client, tiles="123456789m 124p 789s 55z")
    html, report = page.get_data(as_text=True), api.get_json()
    assert _attrs(html, "data-verdict") == ["not-winning"]
    assert _attrs(html, "data-discard") == list(report["ready_after_discard"]) == ["1p", "4p"]
    assert _attrs(html, "data-shanten") == [str(report["shanten"])] == ["0"]


def test_ready_plays_ligu_when_asked(client):
    eight_pairs = "1122m 3344p 5566s 7799s"
    for ligu in (False, True):
        page = client.get("/tools/ready?" + urlencode({"tiles": eight_pairs, **({"ligu": "1"} if ligu else {})}))
        api = client.post("/api/v1/analyze",
                          json={"tiles": eight_pairs, **({"params": {"hands.ligu": True}} if ligu else {})})
        report = api.get_json()
        assert report["ready"] is ligu
        html = page.get_data(as_text=True)
        assert _attrs(html, "data-verdict") == ["ready" if ligu else "not-ready"]
        assert _attrs(html, "data-wait") == [w["tile"] for w in report["waits"]]


SCORES = [
    dict(tiles="123m456m789p234s55s SSS", winning_tile="S", source="discard", discarder="2", winner="1", dealer="0",
         flowers="2f"),
    dict(tiles="123m456m789p234s55s SSS", winning_tile="S", source="wall", winner="0", dealer="0", streak="2",
         flowers="1f"),
    dict(tiles="11m 234p 567p", melds="pung:555s chow:789m 1111z", winning_tile="1m", source="discard", discarder="3",
         winner="2", dealer="3", round_wind="S", streak="1", base="50", per_tai="10"),
    dict(tiles="111222333m 456m 789m 55z", winning_tile="5z", source="wall", winner="1", dealer="2", ruleset="app"),
    dict(tiles="", source="flower_win", flower_win="eight_flowers", flowers="1f2f3f4f5f6f7f8f", winner="1", dealer="0"),
    dict(tiles="123m456m789p234s55s SSS", winning_tile="S", source="wall", winner="1", dealer="0", wall_break="1",
         streak="1", streak_marker="2"),
]


def _api_body(args: dict) -> dict:
    body = {k: v for k, v in args.items() if k not in ("base", "per_tai")}
    for k in ("winner", "dealer", "discarder", "streak", "wall_break", "liable", "streak_marker"):
        if k in body:
            body[k] = int(body[k])
    body["stakes"] = {"base": int(args.get("base", 100)), "per_tai": int(args.get("per_tai", 20))}
    return body


@pytest.mark.parametrize("args", SCORES)
def test_score_answers_as_the_api_does(client, args):
    page = client.get("/tools/score?" + urlencode(args))
    api = client.post("/api/v1/score", json=_api_body(args))
    assert api.status_code == 200, api.get_json()
    assert page.status_code == 200, _text(page.get_data(as_text=True))[-600:]
    html, report = page.get_data(as_text=True), api.get_json()
    assert _attrs(html, "data-tai") == [str(report["tai"])]
    assert _attrs(html, "data-dealer-tai") == [str(report["dealer_tai"])]
    # every pattern with its 台 and clause, in the API's order
    rows = re.findall(r'<tr data-pattern="([^"]+)" data-scope="([^"]+)"><td>(.*?)</td><td class="num">(-?\d+)</td>'
                      r'<td><code>([^<]+)</code>', html, re.S)
    assert [(code, scope, int(tai), clause) for code, scope, _, tai, clause in rows] == [
        (p["code"], p["scope"], p["tai"], p["clause"]) for p in report["patterns"]]
    assert [p["zh"] in _text(zh) for (_, _, zh, _, _), p in zip(rows, report["patterns"])] == [True] * len(rows)
    # the payments: one sentence per transfer, the net by seat
    paid = re.findall(r'<li data-payer="(\d)" data-payee="(\d)" data-amount="(-?\d+)">(.*?)</li>', html, re.S)
    transfers = report["settlement"]["transfers"]
    assert [(int(a), int(b), int(c)) for a, b, c, _ in paid] == [(t["payer"], t["payee"], t["amount"])
                                                                 for t in transfers]
    for (payer, payee, amount, words), t in zip(paid, transfers):
        assert f"{payer} 號座" in words and f"付給 {payee} 號座" in words and str(amount) in words
    net = re.findall(r'<tr data-seat="(\d)"><td>([^<]*)</td><td class="num">([^<]+)</td>', html)
    assert [int(v) for _, _, v in net] == report["settlement"]["payments"]
    east = int(args.get("wall_break", args["dealer"]))  # East is the wall break, else the dealer's seat
    assert [name for _, name, _ in net] == [f"{seat} 號座（{'東南西北'[(seat - east) % 4]}家）" for seat in range(4)]
    assert sum(report["settlement"]["payments"]) == 0


@pytest.mark.parametrize("args, field, words", [
    (dict(tiles="123x"), "tiles", "「123x」第 3 個字元"),
    (dict(tiles="123m"), "tiles", "缺張"),
    (dict(tiles="1m", melds="912m 123p 456p 789p 111s"), "melds", "9-1-2"),
    (dict(tiles="55555m 123456789p 12s"), "tiles", "第五張"),
    (dict(tiles="1f 123456789m 123p 789s 5z"), "tiles", "花牌"),
    (dict(tiles="123456789m 12p 789s 55z", flowers="1m"), "flowers", "不是花牌"),
    (dict(tiles="123456789m 12p 789s 55z", ruleset="nope"), "ruleset", "nope"),
    (dict(tiles=""), "tiles", "請輸入"),
])
def test_ready_shows_a_bad_field_at_the_field(client, args, field, words):
    page, api = _ready(client, **args)
    html = page.get_data(as_text=True)
    assert page.status_code == 400
    error = _field_error(html, field)
    assert error is not None and words in error, (error, _text(html)[:400])
    assert re.search(rf'id="f-{field}"[^>]*aria-invalid="true"', html)
    assert f'<a href="#f-{field}">' in html  # the list at the top leads to the field
    if args["tiles"]:
        assert api.status_code == 400 and api.get_json()["field"].split("[")[0] == field
        assert api.get_json()["detail_zh"] in error  # the API's own words, at the field
    assert f'value="{args["tiles"]}"' in html  # what was typed is kept


@pytest.mark.parametrize("change, field, words", [
    (dict(streak="x"), "streak", "連莊數須為整數"),
    (dict(winner="9"), "winner", "0–3"),
    (dict(base="-1"), "base", "須大於或等於 0"),
    (dict(winning_tile="Q"), "winning_tile", "「Q」第 0 個字元"),
    (dict(tiles="123m456m789p234s56s SSS"), "tiles", "win.shape"),
    (dict(source="discard"), "discarder", "放銃"),
    (dict(source="nope"), "source", "須為下列之一"),
    (dict(round_wind="X"), "round_wind", "東南西北"),
    (dict(melds="pung:5p"), "melds", "5p"),
    (dict(liable="2"), "liable", "不玩包牌"),  # the ruleset's settle.liability is none
    (dict(liable="x"), "liable", "包牌者須為整數"),
    (dict(source="kong_replacement", replaced_kong="melded"), "replaced_kong", "沒有明槓"),
])
def test_score_shows_a_bad_field_at_the_field(client, change, field, words):
    args = {**SCORES[1], **change}
    page = client.get("/tools/score?" + urlencode(args))
    html = page.get_data(as_text=True)
    assert page.status_code == 400, _text(html)[-400:]
    error = _field_error(html, field)
    assert error is not None and words in error, (error, _text(html)[:600])
    assert 'data-tai=' not in html
    assert f'<a href="#f-{field}">' in html  # the list at the top leads to the field
    if "須為整數" not in words:  # the page reads integers itself; the rest the API judges
        api = client.post("/api/v1/score", json=_api_body(args))
        assert api.status_code == 400 and api.get_json()["field"].split("[")[0].removeprefix("stakes.") == field


def test_calculators_follow_the_tools_read_area(tmp_path, app_clock):
    from app import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3"), "CLOCK": app_clock,
                      "PUBLIC_READS": "rulesets,tournaments"})
    client = app.test_client()
    for path in ("/tools/", "/tools/ready?tiles=123m", "/tools/score"):
        page = client.get(path)
        assert page.status_code == 401 and "MJREF_PUBLIC_READS" in page.get_data(as_text=True), path
    assert client.get("/tiles").status_code == 200  # the pictures' legend holds no data


_VALUES = st.one_of(st.text(max_size=30), st.sampled_from(["", "0", "3", "-1", "9", "x", "1m", "S", "1f", "wall",
                                                            "discard", "flower_win", "eight_flowers", "melded", "app"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(["tiles", "melds", "flowers", "winning_tile", "source", "discarder", "winner",
                                        "dealer", "round_wind", "streak", "base", "per_tai", "ruleset", "readiness",
                                        "first_turn", "wall_break", "liable", "streak_marker", "flower_win",
                                        "robbed_flower", "replaced_kong", "bao", "ligu", "dealt_flower_win"]),
                       _VALUES, max_size=10))
def test_no_input_makes_a_500(client, args):
    for path in ("/tools/ready", "/tools/score"):
        page = client.get(path + "?" + urlencode(args))
        assert page.status_code in (200, 400), (path, args, page.status_code)
        if page.status_code == 400:
            assert 'class="field-error"' in page.get_data(as_text=True)

"""Steps for features/hand_shape.feature: winning shape, waits, decompositions (issue #2)."""
from __future__ import annotations

import json

import pytest
from pytest_bdd import given, parsers, then, when

from referee.analysis import analyze
from referee.errors import MjrefError
from referee.hand import Hand
from referee.ruleset import Ruleset
from referee.tiles import Wind, flower_seat, parse_tiles, tile_name


@pytest.fixture
def shape():
    """What the scenario builds up: the written hand, the ruleset, the outcome."""
    return {"ruleset": None}


@given(parsers.re(r'暗牌 "(?P<tiles>[^"]*)" 與副露 "(?P<melds>[^"]*)"'))
def written_hand(shape, tiles, melds):
    shape["tiles"], shape["melds"] = tiles, melds


@given(parsers.re(r'規則為 "(?P<profile>[^"]+)"，參數 "(?P<name>[^"]+)" 設為 "(?P<value>[^"]+)"'))
def ruleset_with_override(shape, profile, name, value):
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value  # a bare enum word
    shape["ruleset"] = Ruleset.load(profile, {name: parsed})


@given(parsers.re(r'規則為 "(?P<profile>[^",]+)"$'))
def ruleset_profile(shape, profile):
    shape["ruleset"] = Ruleset.load(profile)


def _check(shape, ligu: bool) -> None:
    try:
        hand = Hand.parse(shape["tiles"], shape["melds"])
    except MjrefError as error:
        shape["error"], shape["report"] = error, None
        return
    shape["hand"], shape["error"] = hand, None
    shape["report"] = analyze(hand, ligu=ligu)


@when("檢查牌型")
def check_shape(shape):
    _check(shape, ligu=False)


@when("依規則檢查牌型")
def check_shape_by_ruleset(shape):
    _check(shape, ligu=bool(shape["ruleset"].values["hands.ligu"]))


@then(parsers.re(r"判定為(?P<verdict>胡牌|未胡)$"))
def verdict_is(shape, verdict):
    assert shape["error"] is None, shape["error"]
    assert shape["report"]["winning"] is (verdict == "胡牌")


@then(parsers.parse("拆解共 {count:d} 種"))
def decomposition_count(shape, count):
    assert len(shape["report"]["decompositions"]) == count


@then(parsers.parse("手牌計為 {count:d} 張"))
def counted_size(shape, count):
    assert shape["error"] is None, shape["error"]
    assert shape["hand"].size == count


@then(parsers.parse("實體牌共 {count:d} 張"))
def physical_tiles(shape, count):
    hand = shape["hand"]
    assert sum(hand.concealed) + sum(len(m.tiles) for m in hand.melds) == count


@then(parsers.re(r'判定為錯誤，欄位為 "(?P<field>[^"]+)"，說明含 "(?P<words>[^"]+)"'))
def error_names_field(shape, field, words):
    error = shape["error"]
    assert error is not None, "expected an error"
    assert error.field == field
    assert words in error.reason_zh, error.reason_zh


@then(parsers.re(r'聽 "(?P<tiles>[^"]+)"'))
def waits_are(shape, tiles):
    assert [w["tile"] for w in shape["report"]["waits"]] == [tile_name(t) for t in parse_tiles(tiles)]


@then(parsers.re(r'"(?P<tile>[^"]+)" 的聽型為 "(?P<shape_zh>[^"]+)"'))
def wait_shape_is(shape, tile, shape_zh):
    (wait,) = [w for w in shape["report"]["waits"] if w["tile"] == tile]
    assert wait["shapes_zh"] == shape_zh.split()


@then("沒有聽牌")
def not_ready(shape):
    assert shape["report"]["ready"] is False and shape["report"]["waits"] == []


@then(parsers.re(r"向聽數為 (?P<count>-?\d+)$"))
def shanten_is(shape, count):
    assert shape["error"] is None, shape["error"]
    assert shape["report"]["shanten"] == int(count)


@then(parsers.re(r'花牌 "(?P<flower>[^"]+)" 屬於(?P<wind>[東南西北])位'))
def flower_belongs_to(shape, flower, wind):
    (tile,) = parse_tiles(flower)
    assert flower_seat(tile, shape["ruleset"].values["flowers.numbering"]) is Wind("東南西北".index(wind))


@then(parsers.re(r'花牌編號參數為 "(?P<value>[^"]+)"'))
def flower_numbering_is(shape, value):
    assert shape["ruleset"].values["flowers.numbering"] == value

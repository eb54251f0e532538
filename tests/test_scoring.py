"""Scoring (issue #3): the pattern registry, the per-ruleset tables, the best reading,
errors, and the JSON interfaces (library, ``flask score``, ``POST /api/v1/score``).

The rulebook cases themselves are the scenarios of features/scoring*.feature.
"""
from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from bench.handgen import winning_hand
from referee.errors import MjrefError, RulesetError
from referee.hand import Hand
from referee.melds import MeldKind
from referee.ruleset import Ruleset, available_profiles, parameters
from referee.scoring import (
    ContextError, FirstTurn, FlowerWin, NotWinningError, Readiness, Stakes, WinContext, WinSource, score,
)
from referee.scoring.facts import Facts, flower_facts, hand_facts, set_reading
from referee.scoring.patterns import BY_PARAM, FAMILIES, PATTERNS
from referee.scoring.scorer import _evaluate, _keys
from referee.scoring.table import ScoringTable, table_for
from referee.tiles import Wind, parse_tiles
from tests.servicekit import app_storing_nothing  # noqa: F401  (the app here: these tests store nothing)

ROOT = Path(__file__).resolve().parent.parent
CLAUSES = {row["id"] for row in csv.DictReader((ROOT / "data" / "clauses.tsv").read_text(encoding="utf-8").splitlines(),
                                               delimiter="\t")}


def ctx(**kw) -> WinContext:
    kw.setdefault("winner", 1)
    kw.setdefault("dealer", 0)
    kw.setdefault("round_wind", Wind.EAST)
    if isinstance(kw.get("winning_tile"), str):
        kw["winning_tile"] = parse_tiles(kw["winning_tile"])[0]
    return WinContext(**kw)


# ---- the registry ---------------------------------------------------------------------------


def test_every_pattern_docstring_starts_with_zh_name_clause_and_english():
    for p in PATTERNS:
        head = p.fn.__doc__.strip().splitlines()[0]
        assert head == f"{p.zh} · {p.clause} · {p.en}"
        assert p.clause in CLAUSES, p.code
        assert p.family in FAMILIES, p.code


def test_every_tai_parameter_has_a_pattern_and_back():
    tai_params = {name[4:] for name, d in parameters().items() if name.startswith("tai.") and d.type == "int"}
    assert tai_params == set(BY_PARAM)


def test_every_tai_clause_has_a_pattern_or_is_a_win_rule():
    clauses = {p.clause for p in PATTERNS}
    # tai.27 (花胡), tai.30.1/.2 (七搶一 ways) and the alt copies are rules about
    # patterns that exist; the rest name one
    wanted = {c for c in CLAUSES if c.startswith("tai.") and c.count(".") == 1 and c not in ("tai.rule", "tai.27")}
    assert wanted <= clauses


@pytest.mark.parametrize("profile", available_profiles())
def test_tables_build_for_every_profile(profile):
    table = table_for(Ruleset.load(profile))
    assert table.tai[PATTERNS.index(next(p for p in PATTERNS if p.code == "self_draw"))] == 1
    assert table is table_for(Ruleset.load(profile))  # cached


def test_unknown_pattern_in_exclusions_is_a_ruleset_error():
    values = dict(Ruleset.load("competition").values)
    values["tai.exclusions"] = [{"pattern": "nope", "excludes": ["self_draw"], "clause": "tai.rule"}]
    with pytest.raises(RulesetError) as err:
        ScoringTable(values)
    assert err.value.field == "params.tai.exclusions[0]"


def test_a_pattern_worth_zero_neither_scores_nor_excludes():
    # competition: 見花見台 is 0, so it must not drop 正花 or the wind pungs
    result = score(Hand.parse("123m456m789p234s55sSSS", "", "2f"),
                   ctx(source=WinSource.DISCARD, discarder=2, winning_tile="4s"),
                   Ruleset.load("competition"))
    assert result.pattern_tai() == {"seat_wind_pung": 1, "concealed_hand": 1, "own_flower_seasons": 1}
    assert result.to_dict()["excluded"] == []


# ---- the memo is only a cache ---------------------------------------------------------------


def _direct(table: ScoringTable, families, f: Facts) -> list[tuple[int, int]]:
    common, rare = families
    out = []
    for _gate, _key, found, _memo in common + rare:
        for i, fn in found:
            c = fn(f)
            if c:
                out.append((i, c))
    return sorted(out)


@pytest.mark.parametrize("profile", ["competition", "app"])
def test_family_gates_and_memo_give_what_every_pattern_says(profile):
    rng = random.Random(7)
    # the optional patterns of issue #18 on too, so their families are held to the memo as well
    rules = Ruleset.load(profile, {"tai.see_flower_see_tai": 1, "tai.see_wind_see_tai": 1, "tai.no_flowers": 1,
                                   "tai.no_honours_no_flowers": 2, "tai.melded_kong": 1, "tai.concealed_kong": 2,
                                   "tai.four_kongs": 8, "tai.five_kongs": 16})
    table = table_for(rules)
    for _ in range(1500):
        counts, melds = winning_hand(rng)
        hand = Hand(tuple(counts), melds, tuple(sorted(rng.sample(range(34, 42), rng.randrange(6)))))
        tile = rng.choice([t for t in range(34) if counts[t]])
        source = rng.choice(list(WinSource)[:6])
        winner = rng.randrange(4)
        discarder = ((winner + rng.randrange(1, 4)) % 4
                     if source in (WinSource.DISCARD, WinSource.LAST_DISCARD) else None)
        c = ctx(winner=winner, dealer=rng.randrange(4), round_wind=Wind(rng.randrange(4)), source=source,
                winning_tile=tile, discarder=discarder, streak=rng.randrange(3))
        f = Facts()
        keys = _keys(hand.concealed)
        hand_facts(f, hand.concealed, keys, hand.melds, c, ligu=False)
        flower_facts(f, hand.flowers, table.numbering)
        assert sorted(_evaluate(table.hand_level, f)) == _direct(table, table.hand_level, f)
        from referee.hand import decompositions_keys

        for groups in decompositions_keys(keys):
            set_reading(f, groups, tile, f.self_drawn)
            assert sorted(_evaluate(table.reading_level, f)) == _direct(table, table.reading_level, f)


# ---- readings, waits, concealed pungs --------------------------------------------------------


def test_single_wait_needs_exactly_one_waiting_tile():
    rules = Ruleset.load("competition")
    two = score(Hand.parse("123m456m789p99p234s555s"), ctx(source=WinSource.DISCARD, discarder=2, winning_tile="9p"),
                rules)
    assert "single_wait" not in two.pattern_tai()  # waited on 6p and 9p
    one = score(Hand.parse("123m456m789p234s555sEE"), ctx(source=WinSource.DISCARD, discarder=2, winning_tile="E"),
                rules)
    assert one.pattern_tai()["single_wait"] == 1


def test_a_wait_whose_four_copies_are_in_the_hand_is_no_wait():
    # 23s waits 1s and 4s, but the hand holds all four 4s: only 1s is left (獨聽)
    rules = Ruleset.load("competition")
    hand = Hand.parse("123s456m789p99p", "concealed:4444s pung:EEE")
    result = score(hand, ctx(source=WinSource.DISCARD, discarder=2, winning_tile="1s"), rules)
    assert result.pattern_tai().get("single_wait") == 1


def test_best_reading_is_reported():
    rules = Ruleset.load("competition")
    result = score(Hand.parse("111m222m333m456p789p55s"), ctx(source=WinSource.WALL, winning_tile="3m"), rules)
    groups = result.to_dict()["decomposition"]["groups"]
    assert [g["tiles"] for g in groups if g["kind"] == "pung"] == ["111m", "222m", "333m"]
    assert result.tai == 5


# ---- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tiles, melds, context, field, error",
    [
        ("123m456m789p234s56sSSS", "", {"source": WinSource.WALL, "winning_tile": "4s"}, "tiles", NotWinningError),
        ("123m456m789p234s555s99p", "", {"source": WinSource.WALL, "winning_tile": "9m"}, "winning_tile",
         NotWinningError),
        ("123m456m789p234s9p", "pung:555s", {"source": WinSource.WALL, "winning_tile": "4s"}, "tiles", NotWinningError),
        ("123m456m789p234s555s99p", "",
         {"source": WinSource.WALL, "winning_tile": "4s", "readiness": Readiness.DECLARED},
         "readiness", ContextError),
        ("123m456m789p234s99p", "pung:555s",
         {"source": WinSource.WALL, "winning_tile": "4s", "first_turn": FirstTurn.EARTHLY_WIN},
         "first_turn", ContextError),
    ],
)
def test_impossible_wins_name_the_field(tiles, melds, context, field, error):
    with pytest.raises(error) as err:
        score(Hand.parse(tiles, melds), ctx(**context), Ruleset.load("competition"))
    assert err.value.field == field and err.value.reason_zh


@pytest.mark.parametrize(
    "kw, field",
    [
        ({"winner": 4}, "winner"),
        ({"source": WinSource.DISCARD}, "discarder"),
        ({"discarder": 2}, "discarder"),
        ({"source": WinSource.DISCARD, "discarder": 1}, "discarder"),
        ({"winning_tile": 34}, "winning_tile"),
        ({"winning_tile": None}, "winning_tile"),
        ({"flower_win": FlowerWin.EIGHT_FLOWERS}, "source"),
        ({"dealt_flower_win": True}, "dealt_flower_win"),
        ({"first_turn": FirstTurn.HEAVENLY_WIN}, "first_turn"),
        ({"streak": -1}, "streak"),
        ({"bao": (1, 2, 3, 4, 5, 6)}, "bao"),
        ({"robbed_flower": 3}, "robbed_flower"),
        ({"replaced_kong": MeldKind.PUNG, "source": WinSource.KONG_REPLACEMENT}, "replaced_kong"),
        ({"replaced_kong": MeldKind.CONCEALED_KONG}, "replaced_kong"),
    ],
)
def test_impossible_contexts_name_the_field(kw, field):
    base = {"source": WinSource.WALL, "winning_tile": 3}
    with pytest.raises(ContextError) as err:
        ctx(**{**base, **kw})
    assert err.value.field == field and isinstance(err.value, MjrefError)


@pytest.mark.parametrize("source",
                         [WinSource.KONG_REPLACEMENT, WinSource.FLOWER_REPLACEMENT, WinSource.LAST_TILE,
                          WinSource.DISCARD])
def test_heavenly_win_is_the_dealt_hand_not_a_replacement(source):
    """tai.33: 莊家於配牌補花後即胡牌 — a kong's replacement is 槓上開花, never 天胡."""
    extra = {"discarder": 2} if source is WinSource.DISCARD else {}
    hand = Hand.parse("123m456m789p234s99p", "concealed:5555s")
    with pytest.raises(ContextError) as err:
        score(hand, ctx(winner=0, source=source, winning_tile="4s", first_turn=FirstTurn.HEAVENLY_WIN, **extra),
              Ruleset.load("competition"))
    assert err.value.field == "first_turn" and "tai.33" in err.value.reason_zh
    ok = score(Hand.parse("123m456m789p234s555s99p"), ctx(winner=0, source=WinSource.WALL, winning_tile="4s",
                                                          first_turn=FirstTurn.HEAVENLY_WIN),
               Ruleset.load("competition"))
    assert ok.tai == 16


@pytest.mark.parametrize(
    "melds, replaced, allowed, field",
    [
        ("kong:5555s", None, False, "replaced_kong"),          # only a melded kong: it was that one
        ("kong:5555s", MeldKind.MELDED_KONG, False, "replaced_kong"),
        ("kong:5555s", MeldKind.CONCEALED_KONG, False, "replaced_kong"),  # no such kong among the melds
        ("kong:5555s", None, True, None),
        ("kong:5555s concealed:1111z", None, False, None),     # not said, and a concealed kong is there
        ("kong:5555s concealed:1111z", MeldKind.MELDED_KONG, False, "replaced_kong"),
        ("kong:5555s concealed:1111z", MeldKind.CONCEALED_KONG, False, None),
        ("added:5555s", MeldKind.ADDED_KONG, False, None),
    ],
)
def test_a_melded_kongs_replacement_does_not_self_draw(melds, replaced, allowed, field):
    """play.restrict.2, app.kong.limits: 明槓補的牌不能自摸 unless the ruleset allows it."""
    tiles = "123m456m789p234s99p" if "1111z" not in melds else "123m456m234s99p"
    rules = Ruleset.load("app", {"play.melded_kong_replacement_self_draw": allowed})
    context = ctx(source=WinSource.KONG_REPLACEMENT, winning_tile="4s", replaced_kong=replaced)
    if field is None:
        assert score(Hand.parse(tiles, melds), context, rules).tai > 0
    else:
        with pytest.raises(ContextError) as err:
            score(Hand.parse(tiles, melds), context, rules)
        assert err.value.field == field and err.value.reason_zh


def test_api_names_the_replaced_kong(client):
    body = {**EXAMPLE, "tiles": "123m456m789p234s99p", "melds": "kong:5555s", "source": "kong_replacement",
            "winning_tile": "4s"}
    for kong, status in (("melded", 400), ("明槓", 400), ("concealed", 400), (None, 400), ("sideways", 400)):
        response = client.post("/api/v1/score", json={**body, "replaced_kong": kong})
        assert response.status_code == status and response.get_json()["field"] == "replaced_kong", response.get_json()
    response = client.post("/api/v1/score", json={**body, "melds": "added:5555s", "replaced_kong": "added"})
    assert response.status_code == 200, response.get_json()


def test_stakes_must_be_whole_and_non_negative():
    with pytest.raises(ContextError) as err:
        Stakes(-1, 20)
    assert err.value.field == "stakes.base"


# ---- JSON interfaces --------------------------------------------------------------------------

EXAMPLE = {"ruleset": "app", "tiles": "123m456m789p234s55s SSS", "winner": 1, "dealer": 0, "round_wind": "E",
           "source": "wall", "winning_tile": "S", "streak": 1, "stakes": {"base": 100, "per_tai": 20}}


def test_api_scores_the_app_example(client):
    response = client.post("/api/v1/score", json=EXAMPLE)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["tai"] == 4 and body["dealer_tai"] == 3
    assert body["settlement"]["payments"] == [-240, 600, -180, -180]
    assert {p["zh"]: p["clause"] for p in body["patterns"]}["門清"] == "tai.03"
    assert body["ruleset"] == "app" and body["seat_wind"] == "南"


def test_api_flower_win_without_tiles(client):
    body = {"ruleset": "app", "flowers": "1f2f3f4f5f6f7f8f", "winner": 1, "dealer": 0, "source": "flower_win",
            "flower_win": "eight_flowers", "dealt_flower_win": True}
    answer = client.post("/api/v1/score", json=body).get_json()
    assert answer["tai"] == 12 and answer["decomposition"] is None
    assert answer["settlement"]["payments"] == [-360, 1040, -340, -340]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"tiles": "11111m456m789p234s55s"}, "tiles"),
        ({"tiles": "123m456m789p234s555s99p1s"}, "tiles"),
        ({"tiles": "123m456m789p55s", "melds": "chow:ESW"}, "melds[0]"),
        ({"tiles": "123m456m789p55s", "melds": "concealed:1112z"}, "melds[0]"),
        ({"tiles": "123m456m789p234s55s1f", "melds": "pung:555s"}, "tiles"),
        ({"winner": 5}, "winner"),
        ({"winner": "south"}, "winner"),
        ({"source": "teleport"}, "source"),
        ({"round_wind": "up"}, "round_wind"),
        ({"winning_tile": "4x"}, "winning_tile"),
        ({"source": "discard"}, "discarder"),
        ({"stakes": {"base": -5}}, "stakes.base"),
        ({"params": {"scoring.cap": "high"}}, "params.scoring.cap"),
        ({"ruleset": "house"}, "ruleset"),
        ({"tiles": ""}, "tiles"),
    ],
)
def test_api_bad_input_is_a_400_naming_the_field(client, change, field):
    response = client.post("/api/v1/score", json={**EXAMPLE, **change})
    assert response.status_code == 400, response.get_json()
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["field"] == field and problem["detail_zh"]


def test_api_rejects_a_body_that_is_not_an_object(client):
    response = client.post("/api/v1/score", data="[1]", content_type="application/json")
    assert response.status_code == 400 and response.get_json()["field"] == "body"


def test_cli_and_api_agree(app, client, tmp_path):
    path = tmp_path / "win.json"
    path.write_text(json.dumps(EXAMPLE, ensure_ascii=False), encoding="utf-8")
    runner = app.test_cli_runner()
    from_file = runner.invoke(args=["score", str(path)])
    from_stdin = runner.invoke(args=["score", "-"], input=json.dumps(EXAMPLE))
    assert from_file.exit_code == 0, from_file.output
    from_api = client.post("/api/v1/score", json=EXAMPLE).get_json()
    assert json.loads(from_file.output) == json.loads(from_stdin.output) == from_api


@pytest.mark.parametrize(
    "text, field",
    [
        (json.dumps({**EXAMPLE, "tiles": "123m456m789p234s55s SSSS"}), "tiles"),
        (json.dumps({**EXAMPLE, "winner": 9}), "winner"),
        ("{not json", "body"),
    ],
)
def test_cli_errors_exit_non_zero_with_problem_json(app, text, field):
    runner = app.test_cli_runner(mix_stderr=False) if _mix_stderr_supported() else app.test_cli_runner()
    result = runner.invoke(args=["score", "-"], input=text)
    assert result.exit_code == 2
    problem = json.loads(result.stderr if hasattr(result, "stderr") and result.stderr else result.output)
    assert problem["field"] == field


def _mix_stderr_supported() -> bool:
    import inspect

    from click.testing import CliRunner

    return "mix_stderr" in inspect.signature(CliRunner.__init__).parameters


def test_all_chows_cannot_both_require_and_forbid_concealed():
    rules = Ruleset.load("competition", {"scoring.all_chows_requires_concealed": True,
                                         "scoring.all_chows_forbids_concealed": True})
    with pytest.raises(RulesetError) as err:
        score(Hand.parse("123m456m789p234s567s99p"), ctx(source=WinSource.DISCARD, discarder=2, winning_tile="4s"),
              rules)
    assert err.value.field == "params.scoring.all_chows_forbids_concealed" and err.value.reason_zh


@pytest.mark.parametrize("min_tai, zero_tai_win, ok",
                         [(0, True, True), (0, False, False), (1, True, False), (2, True, False)])
def test_min_tai_and_zero_tai_win_together(min_tai, zero_tai_win, ok):
    """起胡 (scoring.min_tai) and 屁胡 (scoring.zero_tai_win): the stricter holds; a 0-台 hand here."""
    rules = Ruleset.load("competition", {"scoring.min_tai": min_tai, "scoring.zero_tai_win": zero_tai_win})
    hand = Hand.parse("456m789p234s567s99p", "123m", "3f")
    context = ctx(source=WinSource.DISCARD, discarder=2, winning_tile="4s")
    if ok:
        assert score(hand, context, rules).tai == 0
    else:
        with pytest.raises(NotWinningError) as err:
            score(hand, context, rules)
        assert err.value.field == "tiles" and ("app.zero-tai" in err.value.reason_zh
                                               or "scoring.min_tai" in err.value.reason_zh)


def test_api_liable_seat(client):
    body = {"ruleset": "competition", "params": {"settle.liability": "feeder"}, "tiles": "123m456m99p",
            "melds": "pung:PPP pung:FFF pung:CCC", "winner": 1, "dealer": 0, "source": "wall", "winning_tile": "9p"}
    answer = client.post("/api/v1/score", json={**body, "liable": 3}).get_json()
    assert answer["settlement"]["payments"] == [0, 920, 0, -920]
    assert {t.get("on_behalf_of") for t in answer["settlement"]["transfers"]} == {0, 2, None}
    for bad in (5, 1, "north"):
        response = client.post("/api/v1/score", json={**body, "liable": bad})
        assert response.status_code == 400 and response.get_json()["field"] == "liable", response.get_json()


# ---- play without flowers (issue #18 item 3, tiles.flowers) -----------------------------------


def test_play_without_flowers_scores_no_flower_tai_and_refuses_flowers():
    """tai.26, deal.walls, tiles.flowers: without flowers no flower pattern is active (無花 and
    無字無花 neither: every hand would have them), a hand holding a flower, a flower's
    replacement and a flower win are refused with the field named."""
    rules = Ruleset.load("app", {"tiles.flowers": False, "tai.no_flowers": 1, "tai.see_flower_see_tai": 1})
    table = table_for(rules)
    assert not table.flowers
    for code in ("own_flower", "flower_set", "all_flowers", "eight_flowers", "seven_rob_one", "dealt_flower_win",
                 "see_flower_see_tai", "no_flowers", "no_honours_no_flowers"):
        assert not any((table.active_mask >> i) & 1 for i in BY_PARAM[code]), code
    hand = Hand.parse("456m789p234s567s99p", "123m")
    win = ctx(source=WinSource.DISCARD, discarder=2, winning_tile="4s")
    assert score(hand, win, rules).tai == score(hand, win, Ruleset.load("app", {"tiles.flowers": False})).tai
    assert "no_flowers" not in score(hand, win, rules).pattern_tai()
    assert score(hand, win, Ruleset.load("app", {"tai.no_flowers": 1})).pattern_tai()["no_flowers"] == 1
    with pytest.raises(ContextError) as err:
        score(Hand.parse("456m789p234s567s99p", "123m", "2f"), win, rules)
    assert err.value.field == "flowers" and "136" in err.value.message
    with pytest.raises(ContextError) as err:
        score(hand, ctx(source=WinSource.FLOWER_REPLACEMENT, winning_tile="4s"), rules)
    assert err.value.field == "source"
    with pytest.raises(ContextError) as err:
        score(None, ctx(source=WinSource.FLOWER_WIN, flower_win=FlowerWin.EIGHT_FLOWERS), rules,
              flowers=range(34, 42))
    assert err.value.field == "source"


def test_the_decompositions_set_and_meld_texts_equal_the_reference():
    """The score's decomposition writes each set's and meld's kind, Chinese name and tiles
    once per kind and tile, then looks them up (issue #17): the same texts as writing them
    afresh, for every set and meld there is, met twice, a chow meld claimed on another tile
    included (the claimed tile is not written)."""
    from referee.melds import Group, GroupKind, Meld
    from referee.scoring import scorer

    groups = [Group(kind, t) for kind in GroupKind for t in range(34)
              if kind is not GroupKind.CHOW or (t < 27 and t % 9 < 7)]
    melds = [Meld(kind, t, claimed) for kind in MeldKind for t in range(34)
             if kind is not MeldKind.CHOW or (t < 27 and t % 9 < 7)
             for claimed in ((None,) if kind is MeldKind.CONCEALED_KONG
                             else (None, t, t + 2) if kind is MeldKind.CHOW else (None, t))]
    for _ in range(2):
        for g in groups:
            assert scorer.group_texts(g) == scorer.group_texts_reference(g)
        for m in melds:
            assert scorer.meld_texts(m) == scorer.meld_texts_reference(m)
    assert scorer.group_texts(Group(GroupKind.CHOW, 2)) == ("chow", "順子", "345m")
    assert scorer.meld_texts(Meld(MeldKind.CONCEALED_KONG, 27)) == ("concealed_kong", "暗槓", "1111z")

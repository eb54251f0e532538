"""Named profiles (issue #18): each one conforms to the public table it names.

The engine tables below are transcribed from the public repository
``yuweiiihuang/mahjong16`` (``configs/scoring/profiles/*.json``, data only): each engine
key is mapped to mjref's parameters (``ENGINE_KEYS``), and every profile must give
exactly those values. The seed-003 profiles (台大盃, 神來也) are held to the sentences
of seed 003 they cite. The scenarios of features/profiles.feature score hands under
each profile.
"""
from __future__ import annotations

import pytest

from referee.hand import Hand
from referee.ruleset import Ruleset, available_profiles, profile_info, value_sources
from referee.scoring import FirstTurn, WinContext, WinSource, score
from referee.tiles import Wind, parse_tiles

#: mahjong16 key → mjref ``tai.*`` code (``menqing_zimo`` and ``qi_qiang_yi`` are mapped below)
ENGINE_KEYS = {
    "dealer": "dealer", "quan_feng_ke": "round_wind_pung", "men_feng_ke": "seat_wind_pung", "zheng_hua": "own_flower",
    "hua_gang": "flower_set", "zimo": "self_draw", "menqing": "concealed_hand", "ping_hu": "all_chows",
    "dragon_pung": "dragon_pung", "san_an_ke": "three_concealed_pungs", "si_an_ke": "four_concealed_pungs",
    "wu_an_ke": "five_concealed_pungs", "peng_peng_hu": "all_pungs", "hun_yi_se": "half_flush",
    "qing_yi_se": "full_flush",
    "zi_yi_se": "all_honours", "xiao_san_yuan": "small_three_dragons", "da_san_yuan": "big_three_dragons",
    "xiao_si_xi": "small_four_winds", "da_si_xi": "big_four_winds", "du_ting": "single_wait", "ting": "declared_ready",
    "quan_qiu_ren": "all_claimed", "he_di": "last_discard_win", "hai_di": "last_tile_self_draw",
    "qiang_gang": "robbing_kong", "gang_shang": "kong_replacement_win", "ba_xian": "eight_flowers",
    "di_ting": "earthly_ready", "tian_ting": "heavenly_ready", "ren_hu": "human_win", "di_hu": "earthly_win",
    "tian_hu": "heavenly_win",
}
_BASE = dict(dealer=1, quan_feng_ke=1, men_feng_ke=1, zheng_hua=1, hua_gang=2, zimo=1, menqing=1, menqing_zimo=3,
             ping_hu=2, dragon_pung=1, san_an_ke=2, si_an_ke=5, wu_an_ke=8, peng_peng_hu=4, hun_yi_se=4, qing_yi_se=8,
             zi_yi_se=0, xiao_san_yuan=4, da_san_yuan=8, xiao_si_xi=8, da_si_xi=16, du_ting=1, ting=0, quan_qiu_ren=1,
             he_di=1, hai_di=1, qiang_gang=1, gang_shang=2, qi_qiang_yi=8, ba_xian=8, di_ting=8, tian_ting=16, ren_hu=0,
             di_hu=16, tian_hu=32)
#: profile → the engine table it follows (taiwan_base, and the others as the engine's files give them)
ENGINE_TABLES = {
    "mahjong16": _BASE,
    "star31": {**_BASE, "ting": 1, "he_di": 0, "qi_qiang_yi": 0, "di_ting": 4, "tian_ting": 8, "tian_hu": 24},
    "mahjong-masters": {**_BASE, "hua_gang": 1, "zi_yi_se": 16, "hai_di": 2, "qi_qiang_yi": 0, "di_ting": 4,
                        "tian_ting": 8, "ren_hu": 16, "tian_hu": 16},
    "mahjong16-zhonghua": {**_BASE, "zi_yi_se": 8, "quan_qiu_ren": 2, "qi_qiang_yi": 0, "di_ting": 4, "tian_ting": 8,
                           "ren_hu": 16, "tian_hu": 16},
    "mj888": {**_BASE, "hua_gang": 1, "zi_yi_se": 8, "qi_qiang_yi": 0, "tian_ting": 0, "tian_hu": 24},
}
#: constraints.json: 平胡 needs a two-sided wait in these
TWO_SIDED = {"mahjong16-zhonghua", "mj888"}
NAMED = tuple(ENGINE_TABLES) + ("taida-cup", "shenlaiye")


def test_the_named_profiles_exist():
    assert set(NAMED) <= set(available_profiles())


@pytest.mark.parametrize("profile", tuple(ENGINE_TABLES))
def test_engine_profile_conforms_to_its_table(profile):
    table = ENGINE_TABLES[profile]
    r = Ruleset.load(profile)
    got = {key: r[f"tai.{code}"] for key, code in ENGINE_KEYS.items()}
    # gang_shang 「已含自摸」: 槓上開花 excludes 自摸 and 不求, so its 台 are the engine's whole 2
    want = {key: table[key] for key in ENGINE_KEYS}
    assert got == want
    # 門清自摸 3 = 門清 + 不求 + 自摸 (app.menqing-zimo)
    assert r["tai.concealed_hand"] + r["tai.no_claims_self_draw"] + r["tai.self_draw"] == table["menqing_zimo"]
    assert r["hands.seven_rob_one"] is (table["qi_qiang_yi"] > 0)
    if table["qi_qiang_yi"]:
        assert r["tai.seven_rob_one"] == table["qi_qiang_yi"]
    assert r["scoring.all_chows_requires_two_sided_wait"] is (profile in TWO_SIDED)
    kong = [e for e in r.exclusions if e.pattern == "kong_replacement_win"]
    assert kong and set(kong[0].excludes) == {"self_draw", "no_claims_self_draw"}


@pytest.mark.parametrize("profile", NAMED)
def test_every_value_that_differs_from_its_parent_cites_a_clause_or_a_source(profile):
    info = profile_info(profile)
    r, parent = Ruleset.load(profile), Ruleset.load(info.extends)
    cited = value_sources(profile)
    for name, value in r.values.items():
        if value != parent.values[name]:
            assert name in cited or r.sources[name], name


def test_seed_003_profiles():
    # app.priority: 少數牌桌（例如台大盃）讓幾家同時胡; app.replaces.18: 台大盃等少數牌桌不另計
    taida = Ruleset.load("taida-cup")
    assert taida["play.multiple_wins"] is True and taida["scoring.small_four_winds_adds_winds"] is False
    assert taida.source("play.multiple_wins") == ("app.priority",)
    # app.flower-numbering: 神來也…是菊 3、竹 4；明星3缺1…是竹 3、菊 4
    assert Ruleset.load("shenlaiye")["flowers.numbering"] == "ju3-zhu4"
    assert Ruleset.load("star31")["flowers.numbering"] == "zhu3-ju4"
    # app.seven-rob-one: 麻將大師…不玩七搶一
    assert Ruleset.load("mahjong-masters").source("hands.seven_rob_one") == ("app.seven-rob-one",)


def _ctx(**kw):
    kw.setdefault("round_wind", Wind.EAST)
    kw["winning_tile"] = parse_tiles(kw["winning_tile"])[0]
    return WinContext(**kw)


@pytest.mark.parametrize("profile", NAMED)
def test_each_profile_scores_a_dealers_heavenly_win(profile):
    """天胡 on the dealt hand: the face is the profile's 天胡 alone (app.replaces.13, tai.33)."""
    r = Ruleset.load(profile)
    result = score(Hand.parse("123m456m789p234s555s99p"),
                   _ctx(winner=0, dealer=0, source=WinSource.WALL, winning_tile="4s",
                        first_turn=FirstTurn.HEAVENLY_WIN), r)
    want = ENGINE_TABLES[profile]["tian_hu"] if profile in ENGINE_TABLES else 16
    assert result.tai == want and result.dealer_tai == 1


@pytest.mark.parametrize("profile", NAMED)
def test_random_wins_score_or_fail_cleanly_and_settle_to_zero(profile):
    """Every named profile scores random winning hands (or refuses with a clear error naming
    a field), and every settlement sums to zero (settle.formula)."""
    import random

    from bench.handgen import winning_hand
    from referee.errors import MjrefError
    from referee.scoring import Stakes, settle

    rng = random.Random(18)
    r = Ruleset.load(profile)
    scored = 0
    for _ in range(300):
        counts, melds = winning_hand(rng)
        hand = Hand(tuple(counts), melds, tuple(sorted(rng.sample(range(34, 42), rng.randrange(4)))))
        tile = rng.choice([t for t in range(34) if counts[t]])
        source = rng.choice((WinSource.WALL, WinSource.DISCARD, WinSource.LAST_TILE, WinSource.LAST_DISCARD))
        winner = rng.randrange(4)
        discarder = ((winner + rng.randrange(1, 4)) % 4
                     if source in (WinSource.DISCARD, WinSource.LAST_DISCARD) else None)
        ctx = WinContext(winner=winner, dealer=rng.randrange(4), round_wind=Wind(rng.randrange(4)), source=source,
                         winning_tile=tile, discarder=discarder, streak=rng.randrange(3))
        try:
            result = score(hand, ctx, r)
        except MjrefError as exc:
            assert exc.field and exc.reason_zh
            continue
        scored += 1
        assert sum(settle(result, Stakes(100, 20)).payments) == 0
    assert scored > 250

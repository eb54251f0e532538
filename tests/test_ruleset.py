"""Rulesets as data (``data/rulesets``, :mod:`referee.ruleset`).

Most tests here assert *data*: each profile is complete, cites clauses that exist, and
says what the rule texts say (五暗坎 13 vs 五暗刻 12, 地聽 4 vs 6, the app's 七搶一 ...).
The rest pin the loader: overrides, errors naming the field, caching, the generated docs.
"""
from __future__ import annotations

import csv
import json
import re
import shutil
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import ruleset as rs
from referee import ruleset_docs
from referee.errors import RulesetError
from referee.ruleset import Exclusion, ParameterDef, Ruleset, available_profiles, parameters

ROOT = Path(__file__).resolve().parent.parent
CLAUSES = ROOT.parent / "shared" / "rulebook" / "clauses.tsv"
PROFILES = ("competition", "competition-000", "app")

# The pattern codes every scorer may rely on (tai.<code>).
PATTERN_CODES = """
seat_wind_pung round_wind_pung dragon_pung concealed_hand no_claims_self_draw all_claimed
half_claimed all_chows all_pungs dealer streak_per_n single_wait robbing_kong all_honours
full_flush half_flush three_concealed_pungs four_concealed_pungs five_concealed_pungs
big_four_winds small_four_winds big_three_dragons small_three_dragons self_draw
kong_replacement_win last_tile_self_draw last_discard_win own_flower flower_set all_flowers
dealt_flower_win eight_flowers seven_rob_one heavenly_ready earthly_ready heavenly_win
earthly_win human_win ligu declared_ready bao see_flower_see_tai see_wind_see_tai
no_flowers no_honours_no_flowers melded_kong concealed_kong four_kongs five_kongs
""".split()


@pytest.fixture(scope="module")
def rules() -> dict[str, Ruleset]:
    return {p: Ruleset.load(p) for p in PROFILES}


@pytest.fixture(scope="module")
def clause_ids() -> set[str]:
    if not CLAUSES.exists():
        pytest.skip(f"{CLAUSES} not present")
    with open(CLAUSES, encoding="utf-8", newline="") as f:
        return {row["id"] for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}


def cited_clauses() -> dict[str, set[str]]:
    """clause id → where it is cited (parameter definitions, profile values, exclusion entries)."""
    where: dict[str, set[str]] = {}
    for name, defn in parameters().items():
        for c in defn.clauses:
            where.setdefault(c, set()).add(f"parameters.json {name}")
    for p in available_profiles():
        r = Ruleset.load(p)
        for name, source in r.sources.items():
            for c in source:
                where.setdefault(c, set()).add(f"{p}.json {name}")
        for e in r.values["tai.exclusions"]:
            where.setdefault(e.clause, set()).add(f"{p}.json tai.exclusions {e.pattern}")
    return where


# --- every profile loads, complete and consistent --------------------------------------


def test_the_three_profiles_exist():
    assert set(PROFILES) <= set(available_profiles())


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_is_complete(profile):
    r = Ruleset.load(profile)
    assert list(r.values) == list(parameters())
    assert r.profile == profile and dict(r.overrides) == {}
    for name in parameters():
        assert r.sources[name], f"{profile}: {name} has no clause"
        assert r.sources[name][0] in r.describe(name).clauses


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_round_trips_through_its_json_form(profile):
    r = Ruleset.load(profile)
    as_json = json.loads(json.dumps(r.to_dict(), ensure_ascii=False))
    assert Ruleset.load(profile, as_json) == r
    assert hash(Ruleset.load(profile, as_json)) == hash(r)


def test_parameter_names_are_dotted_ascii_and_patterns_are_ints():
    for name, defn in parameters().items():
        assert re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+", name), name
        assert defn.meaning_zh and defn.meaning_en and defn.term and defn.clauses
        if name.startswith("tai.") and name != "tai.exclusions":
            assert defn.type == "int" and defn.min == 0, name


def test_every_pattern_code_is_a_parameter():
    assert {f"tai.{c}" for c in PATTERN_CODES} <= set(parameters())
    assert set(PATTERN_CODES) == set(Ruleset.load().patterns)


def test_every_cited_clause_exists(clause_ids):
    missing = {c: sorted(w) for c, w in cited_clauses().items() if c not in clause_ids}
    assert not missing, f"cited clause ids not in {CLAUSES}: {missing}"


def test_every_scoring_pattern_clause_is_cited(clause_ids):
    cited = cited_clauses()
    scoring = sorted(c for c in clause_ids if re.fullmatch(r"tai\.\d\d(\.alt)?|tai\.rule|app\.replaces\.\d+", c))
    assert scoring and [c for c in scoring if c not in cited] == []


# --- the known differences (data, not code) ---------------------------------------------


def test_five_concealed_pungs_13_in_002_and_12_in_000(rules):
    assert rules["competition"]["tai.five_concealed_pungs"] == 13
    assert rules["competition"].source("tai.five_concealed_pungs") == ("tai.18.alt",)
    assert rules["competition-000"]["tai.five_concealed_pungs"] == 12
    assert rules["competition-000"].source("tai.five_concealed_pungs") == ("tai.18",)


def test_earthly_ready_4_in_002_6_in_000_4_in_the_app(rules):
    assert rules["competition"]["tai.earthly_ready"] == 4
    assert rules["competition"].source("tai.earthly_ready") == ("tai.32.alt",)
    assert rules["competition-000"]["tai.earthly_ready"] == 6
    assert rules["competition-000"].source("tai.earthly_ready") == ("tai.32",)
    assert rules["app"]["tai.earthly_ready"] == 4
    assert all(r["tai.heavenly_ready"] == 8 for r in rules.values())


def test_the_two_rulebook_copies_differ_only_in_those_two_values(rules):
    a, b = rules["competition"].to_dict(), rules["competition-000"].to_dict()
    assert {k for k in a if a[k] != b[k]} == {"tai.five_concealed_pungs", "tai.earthly_ready"}


def test_seven_rob_one_is_played_in_all_three(rules):
    for r in rules.values():
        assert r["hands.seven_rob_one"] is True and r["tai.seven_rob_one"] == 8
    assert rules["competition"].source("hands.seven_rob_one") == ("tai.30",)
    assert rules["app"].source("hands.seven_rob_one") == ("app.seven-rob-one",)


def test_menqing_yimosan_is_three_and_streak_is_2n_plus_1(rules):
    for r in rules.values():
        assert r.tai("concealed_hand") + r.tai("no_claims_self_draw") + r.tai("self_draw") == 3
        n = 3
        assert r.tai("dealer") + n * r.tai("streak_per_n") == 2 * n + 1


def test_app_only_patterns(rules):
    comp, app = rules["competition"], rules["app"]
    assert (comp["tai.last_discard_win"], app["tai.last_discard_win"]) == (0, 1)
    assert (comp["tai.dealt_flower_win"], app["tai.dealt_flower_win"]) == (0, 4)
    assert (comp["play.declared_ready"], app["play.declared_ready"]) == (False, True)
    assert app["tai.declared_ready"] == 1
    assert (comp["tai.all_flowers"], app["tai.all_flowers"]) == (8, 0)


def test_options_off_everywhere_by_default(rules):
    for r in rules.values():
        assert r["hands.ligu"] is False and r["tai.ligu"] == 8
        assert r["bao.enabled"] is False and r["bao.max_tiles"] == 5 and r["tai.bao"] == 1
        assert r["tai.see_flower_see_tai"] == 0
        assert r["play.multiple_wins"] is False
        assert r["scoring.cap"] == 0 and r["scoring.zero_tai_win"] is True
        assert r["wall.dead_wall"] == 16 and r["wall.dead_wall_per_kong"] == 0
        assert r["play.last_tiles_no_claims"] == 3
        assert r["play.melded_kong_replacement_self_draw"] is False
        assert r["play.rob_concealed_kong"] is False
        assert r["settle.mutual_pay"] is False
        # issue #18: every new convention defaults to what the referee did before
        assert r["scoring.min_tai"] == 0 and r["seat.max_streak"] == 0
        assert not any(r[f"scoring.all_chows_{x}"] for x in (
            "allows_honours", "allows_flowers", "allows_self_draw", "forbids_concealed", "requires_two_sided_wait"))
        assert r["scoring.discard_tile_completes_pung"] is False
        assert all(r[f"tai.{code}"] == 0 for code in (
            "see_wind_see_tai", "no_flowers", "no_honours_no_flowers", "melded_kong", "concealed_kong", "four_kongs",
            "five_kongs"))
        assert r["play.pung.forbidden_discards"] == "same" and r["play.multiple_wins_limit"] == "all"


def test_play_rules_where_the_app_differs(rules):
    comp, app = rules["competition"], rules["app"]
    pairs = {
        "play.passed_win.concealed_kong_releases": (False, True),
        "play.melded_kong_from_previous_player": (True, False),
        "flowers.unreplaced": ("dead_hand", "exhaustive_draw"),
        "ready.heavenly_declare_at": ("after_flower_replacement", "first_discard"),
        "ready.earthly_dealer_discard": (1, 2),
        "ready.requires_no_prior_claims": (False, True),
    }
    assert {k: (comp[k], app[k]) for k in pairs} == pairs
    # 「同(絡)牌」 (play.chi, play.restrict.6) read as the app does: R-set-13, issue #13
    assert comp["play.chow.forbidden_discards"] == app["play.chow.forbidden_discards"] == "same_and_other_end"
    assert comp.describe("flowers.numbering").values == ("ju3-zhu4", "zhu3-ju4")


def test_flower_numbering_values_are_those_of_referee_tiles():
    from referee.tiles import FLOWER_NUMBERING

    assert set(parameters()["flowers.numbering"].values) == set(FLOWER_NUMBERING)


# --- exclusions --------------------------------------------------------------------------


def test_all_claimed_adds_single_wait_in_the_rulebook_not_in_the_app(rules):
    present = {"all_claimed", "single_wait"}
    assert rules["competition"].apply_exclusions(present).kept == present  # tai.05: 加計獨聽
    result = rules["app"].apply_exclusions(present)
    assert result.kept == {"all_claimed"}
    assert result.dropped["single_wait"].clause == "app.replaces.1"


def test_all_honours_minus_four_only_in_the_rulebook(rules):
    present = {"all_honours", "all_pungs", "big_three_dragons", "dragon_pung", "small_four_winds"}
    comp = rules["competition"].apply_exclusions(present)
    assert comp.kept == {"all_honours", "big_three_dragons", "small_four_winds"}
    assert comp.adjust == -4 and [a.clause for a in comp.adjustments] == ["tai.13"]  # once, not per pattern
    app = rules["app"].apply_exclusions(present)
    assert app.kept == {"all_honours", "big_three_dragons", "small_four_winds"} and app.adjust == 0


def test_five_concealed_pungs_drops_concealed_hand_and_all_pungs_only_in_the_rulebook(rules):
    present = {"five_concealed_pungs", "four_concealed_pungs", "three_concealed_pungs", "concealed_hand", "all_pungs"}
    assert rules["competition-000"].apply_exclusions(present).kept == {"five_concealed_pungs"}
    assert rules["app"].apply_exclusions(present).kept == {"five_concealed_pungs", "concealed_hand", "all_pungs"}


def test_every_rulebook_not_counted_clause_has_an_entry(rules):
    by_clause: dict[str, set[str]] = {}
    for e in rules["competition"].exclusions:
        by_clause.setdefault(e.clause, set()).update(e.excludes)
    expected = {
        "tai.13": {"all_pungs"}, "tai.18": {"concealed_hand", "all_pungs"},
        "tai.19": {"round_wind_pung", "seat_wind_pung"}, "tai.21": {"dragon_pung"}, "tai.22": {"dragon_pung"},
        "tai.31": {"concealed_hand"}, "tai.32": {"concealed_hand"},
        "tai.33": {"concealed_hand", "no_claims_self_draw", "self_draw"},
        "tai.34": {"heavenly_ready", "concealed_hand"}, "tai.35": {"earthly_ready", "concealed_hand"},
    }
    assert {c: by_clause.get(c) for c in expected} == expected


def test_app_exclusions_are_exactly_the_replaces_list(rules):
    clauses = {e.clause for e in rules["app"].exclusions if e not in rs.IMPLIED_EXCLUSIONS}
    assert clauses == {f"app.replaces.{i}" for i in range(1, 20)} - {"app.replaces.18"}


def test_optional_patterns_that_contain_one_another_exclude_in_every_profile(rules):
    for r in rules.values():
        result = r.apply_exclusions({"no_flowers", "no_honours_no_flowers"})
        assert result.kept == {"no_honours_no_flowers"} and result.dropped["no_flowers"].clause == "tai.rule"
    assert rules["app"].source("tai.exclusions") == ("app.no-cap",)


def test_small_four_winds_keeps_the_wind_pungs_unless_switched(rules):
    present = {"small_four_winds", "round_wind_pung", "seat_wind_pung"}
    for r in rules.values():
        assert r.apply_exclusions(present).kept == present  # tai.20, app.replaces.18
    taida = Ruleset.load("app", {"scoring.small_four_winds_adds_winds": False})
    result = taida.apply_exclusions(present)
    assert result.kept == {"small_four_winds"} and result.dropped["seat_wind_pung"].clause == "app.replaces.18"


def test_flower_group_entries_are_left_to_the_scorer(rules):
    # 花槓 replaces the own flower of its own group only: not applied hand-wide.
    r = rules["competition"]
    assert r.apply_exclusions({"flower_set", "own_flower"}).kept == {"flower_set", "own_flower"}
    assert [e.clause for e in r.exclusions if e.scope == "flower_group"] == ["tai.26"]


def test_apply_exclusions_rejects_unknown_codes(rules):
    with pytest.raises(RulesetError) as err:
        rules["competition"].apply_exclusions({"self_drawn"})
    assert err.value.field == "patterns" and "self_draw" in err.value.message


# --- overrides and errors -----------------------------------------------------------------


def test_overrides_apply_without_touching_the_profile():
    base = Ruleset.load("competition")
    r = Ruleset.load("competition", {"scoring.cap": 8, "hands.ligu": True})
    assert (r["scoring.cap"], r["hands.ligu"]) == (8, True)
    assert dict(r.overrides) == {"scoring.cap": 8, "hands.ligu": True}
    assert r.source("scoring.cap") == () and r.source("tai.self_draw") == ("tai.23",)
    assert base["scoring.cap"] == 0 and Ruleset.load("competition") is base
    assert r.with_overrides({"scoring.cap": 10})["scoring.cap"] == 10
    assert r.with_overrides({"scoring.cap": 10})["hands.ligu"] is True
    assert r != base and Ruleset.load("competition", {}) is base


def test_exclusions_can_be_overridden():
    r = Ruleset.load("competition",
                     {"tai.exclusions": [{"pattern": "all_claimed", "excludes": ["single_wait"],
                                          "clause": "app.replaces.1"}]})
    assert r.exclusions == (Exclusion("all_claimed", "app.replaces.1",
                                      excludes=("single_wait",)),) + rs.IMPLIED_EXCLUSIONS
    kept = r.apply_exclusions({"all_claimed", "single_wait", "all_honours", "all_pungs"}).kept
    assert kept == {"all_claimed", "all_honours", "all_pungs"}


@pytest.mark.parametrize(
    ("overrides", "field", "shown"),
    [
        ({"tai.five_concealed_pung": 12}, "params.tai.five_concealed_pung", "tai.five_concealed_pungs"),
        ({"five_concealed_pungs": 12}, "params.five_concealed_pungs", "tai.five_concealed_pungs"),
        ({"tai.five_concealed_pungs": "12"}, "params.tai.five_concealed_pungs", "'12'"),
        ({"tai.five_concealed_pungs": 12.0}, "params.tai.five_concealed_pungs", "12.0"),
        ({"tai.five_concealed_pungs": True}, "params.tai.five_concealed_pungs", "True"),
        ({"tai.five_concealed_pungs": -1}, "params.tai.five_concealed_pungs", "-1"),
        ({"tai.five_concealed_pungs": 99}, "params.tai.five_concealed_pungs", "99"),
        ({"hands.ligu": 1}, "params.hands.ligu", "1"),
        ({"flowers.numbering": "ju3"}, "params.flowers.numbering", "'ju3'"),
        ({"play.chow.forbidden_discards": "SAME"}, "params.play.chow.forbidden_discards", "'SAME'"),
        ({"tai.exclusions": "none"}, "params.tai.exclusions", "'none'"),
        ({"tai.exclusions": [{"pattern": "all_honor", "excludes": ["all_pungs"], "clause": "tai.13"}]},
         "params.tai.exclusions[0].pattern", "all_honours"),
        ({"tai.exclusions": [{"pattern": "all_honours", "excludes": ["all_pungs"]}]}, "params.tai.exclusions[0].clause",
         "None"),
        ({"tai.exclusions": [{"pattern": "all_honours", "with_any": ["big_three_dragons"], "adjust": 0,
                              "clause": "tai.13"}]}, "params.tai.exclusions[0].adjust", "0"),
        ({"tai.exclusions": [{"pattern": "all_honours", "clause": "tai.13"}]}, "params.tai.exclusions[0]", "excludes"),
    ],
)
def test_bad_overrides_name_the_field(overrides, field, shown):
    with pytest.raises(RulesetError) as err:
        Ruleset.load("competition", overrides)
    assert err.value.field == field
    assert shown in err.value.message
    assert re.search(r"[\u4e00-\u9fff]", err.value.reason_zh)
    assert err.value.to_dict()["code"] == "invalid_ruleset"


@pytest.mark.parametrize("profile", ["competitoin", "", "../parameters", None, 3, ["app"]])
def test_unknown_profile(profile):
    with pytest.raises(RulesetError) as err:
        Ruleset.load(profile)  # type: ignore[arg-type]
    assert err.value.field == "ruleset" and "available: app, competition, competition-000" in err.value.message


def test_parameters_json_is_not_a_profile():
    assert "parameters" not in available_profiles()
    with pytest.raises(RulesetError):
        Ruleset.load("parameters")


def test_overrides_must_be_a_mapping():
    with pytest.raises(RulesetError) as err:
        Ruleset.load("app", [("scoring.cap", 8)])  # type: ignore[arg-type]
    assert err.value.field == "params"


def test_lookup_of_an_unknown_name_raises_with_a_suggestion():
    r = Ruleset.load("app")
    with pytest.raises(RulesetError) as err:
        r["tai.selfdraw"]
    assert err.value.field == "params.tai.selfdraw" and "tai.self_draw" in err.value.message
    with pytest.raises(RulesetError):
        r.get("tai.selfdraw")
    with pytest.raises(RulesetError):
        r.describe("tai.selfdraw")
    assert r.get("tai.selfdraw", None) is None and r.get("tai.self_draw") == 1
    assert "tai.self_draw" in r and "tai.selfdraw" not in r


def test_rulesets_are_immutable():
    r = Ruleset.load("competition")
    with pytest.raises(TypeError):
        r.values["tai.self_draw"] = 5  # type: ignore[index]
    with pytest.raises(FrozenInstanceError):
        r.profile = "app"  # type: ignore[misc]
    assert isinstance(r["tai.exclusions"], tuple)
    with pytest.raises(FrozenInstanceError):
        r["tai.exclusions"][0].clause = "x"
    assert Ruleset.load("competition")["tai.self_draw"] == 1


def test_describe():
    d = Ruleset.load().describe("tai.five_concealed_pungs")
    assert isinstance(d, ParameterDef)
    assert (d.type, d.clauses, d.default_clause, d.term) == ("int", ("tai.18", "tai.18.alt"), "tai.18",
                                                             "五暗刻（五暗坎）")
    assert Ruleset.load().describe("settle.streak_marker").describe_type() == "enum: dealer_bears_error | actual"


def _valid_value(defn: ParameterDef) -> st.SearchStrategy:
    if defn.type == "int":
        return st.integers(defn.min, defn.max)
    if defn.type == "bool":
        return st.booleans()
    if defn.type == "enum":
        return st.sampled_from(defn.values)
    return st.just([])


@settings(max_examples=60, deadline=None)
@given(data=st.data(), profile=st.sampled_from(PROFILES))
def test_any_valid_override_is_taken(data, profile):
    name = data.draw(st.sampled_from(sorted(parameters())))
    value = data.draw(_valid_value(parameters()[name]))
    r = Ruleset.load(profile, {name: value})
    assert r.to_dict()[name] == value and r.source(name) == ()


@settings(max_examples=60, deadline=None)
@given(name=st.text(min_size=1, max_size=30))
def test_any_unknown_name_is_refused(name):
    if name in parameters():
        return
    with pytest.raises(RulesetError) as err:
        Ruleset.load("competition", {name: 1})
    assert err.value.field == f"params.{name}"


# --- the loader checks the data files -----------------------------------------------------


@pytest.fixture()
def data_copy(tmp_path, monkeypatch):
    """A writable copy of data/rulesets that the loader reads instead."""
    target = tmp_path / "rulesets"
    shutil.copytree(rs.DATA_DIR, target)
    monkeypatch.setattr(rs, "DATA_DIR", target)
    rs.clear_cache()
    yield target
    monkeypatch.undo()
    rs.clear_cache()


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        ("competition.json", lambda d: d["values"].pop("tai.dealer"), "incomplete"),
        ("competition.json", lambda d: d["values"].update({"tai.dealr": 1}), "tai.dealer"),
        ("competition.json", lambda d: d["values"].update({"tai.dealer": {"value": 1, "clause": "tai.10"}}),
         "not among"),
        ("competition.json", lambda d: d["values"].update({"tai.dealer": "1"}), "must be an integer"),
        ("competition.json", lambda d: d.update({"extends": "app"}), "extends itself"),
        ("app.json", lambda d: d.update({"profile": "apps"}), "file name"),
        ("parameters.json", lambda d: d["parameters"].append(dict(d["parameters"][0])), "defined twice"),
        ("parameters.json", lambda d: d["parameters"][0].update({"clauses": []}), "clauses"),
    ],
)
def test_broken_data_is_refused(data_copy, file, change, message):
    _edit(data_copy / file, change)
    with pytest.raises(RulesetError) as err:
        for p in PROFILES:
            Ruleset.load(p)
    assert err.value.field == "ruleset" and message in err.value.message


def test_duplicate_keys_in_a_profile_are_refused(data_copy):
    path = data_copy / "competition-000.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"values": {',
                                                             '"values": {"tai.dealer": 1, "tai.dealer": 2,'),
                    encoding="utf-8")
    with pytest.raises(RulesetError, match="given twice"):
        Ruleset.load("competition-000")


# --- cached, docs in step (load speed: bench/bench_ruleset.py) -------------------------------


def test_loading_is_cached():
    rs.clear_cache()
    first = Ruleset.load("app")
    assert Ruleset.load("app") is first
    assert Ruleset.load("app", {"scoring.cap": 8}).values["scoring.cap"] == 8
    assert Ruleset.load("app") is first  # an override never touches the cached profile


def test_docs_are_up_to_date():
    current = ruleset_docs.DOCS_FILE.read_text(encoding="utf-8")
    assert current == ruleset_docs.render(), "docs/rulesets.md is stale: run python -m referee.ruleset_docs"


def test_docs_mark_the_differences():
    text = ruleset_docs.render()
    row = next(line for line in text.splitlines() if "`tai.five_concealed_pungs`" in line and line.startswith("|"))
    assert row.startswith("| ⚠︎") and "**13** ‹tai.18.alt›" in row and "**12**" in row
    same = next(line for line in text.splitlines() if "`tai.self_draw`" in line and line.startswith("|"))
    assert "⚠︎" not in same

"""Every rulebook clause is either covered by a tagged scenario or out of scope with a reason."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.clause_coverage import (
    check_code_column,
    code_files,
    check_no_tagged_out_of_scope,
    check_rows,
    check_same_ids,
    check_scenarios_present,
    check_tags_known,
    parse_features,
    read_tsv,
)

ROOT = Path(__file__).resolve().parent.parent
FEATURES = ROOT / "features"
CLAUSES = ROOT / "data" / "clauses.tsv"
SHARED_CLAUSES = ROOT.parent / "shared" / "rulebook" / "clauses.tsv"


def _report(problems: list[str]) -> str:
    return "\n".join(problems)


# --- the project's own data ------------------------------------------------------------


@pytest.fixture(scope="module")
def rows():
    return read_tsv(CLAUSES)


@pytest.fixture(scope="module")
def scenarios():
    return parse_features(FEATURES)


def test_a_scenario_clauses_have_a_tagged_scenario(rows, scenarios):
    problems = check_scenarios_present(rows, scenarios)
    assert not problems, _report(problems)


def test_b_clause_tags_exist(rows, scenarios):
    problems = check_tags_known(rows, scenarios)
    assert not problems, _report(problems)


def test_c_rows_valid_and_out_of_scope_has_reason(rows):
    problems = check_rows(rows)
    assert not problems, _report(problems)


def test_d_tagged_clause_is_not_out_of_scope(rows, scenarios):
    problems = check_no_tagged_out_of_scope(rows, scenarios)
    assert not problems, _report(problems)


@pytest.mark.skipif(not SHARED_CLAUSES.exists(), reason="shared rulebook not present")
def test_f_every_clause_names_the_code_that_decides_it(rows):
    problems = check_code_column(rows, code_files(ROOT))
    assert not problems, _report(problems)


def test_f_detects_a_code_file_that_does_not_cite_its_clause(rows):
    files = code_files(ROOT)
    broken = [dict(row) for row in rows]
    row = next(r for r in broken if r["id"] == "tai.07")
    row["code"] = "referee/tiles.py referee/nowhere.py"
    problems = check_code_column(broken, files)
    assert problems == ["tai.07: referee/tiles.py does not cite tai.07",
                        "tai.07: code referee/nowhere.py does not exist under ('referee', 'penalties', 'tournament', "
                        "'data/rulesets')"]
    row["code"] = ""
    assert check_code_column(broken, files)[0].startswith("tai.07: no code listed")


def test_e_same_ids_as_shared_rulebook(rows):
    problems = check_same_ids(rows, read_tsv(SHARED_CLAUSES))
    assert not problems, _report(problems)


# --- the checks themselves can fail ----------------------------------------------------

FAKE_TSV = (
    "id\tsection\tstatus\treason\n"
    "tai.01\t風字刻\tscenario\t\n"
    "tai.02\t箭字刻\tscenario\t\n"
    "pen.peek\t眼牌\tout-of-scope\tscheduled: issue #5\n"
    "prio\t優先\tout-of-scope\t\n"
    "play.win\t胡牌\tlater\tx\n"
    "play.win\t胡牌\tout-of-scope\tdup\n"
)

FAKE_FEATURE = '''\
# language: zh-TW
@tai.01 @wip
功能: 風字刻

  場景: 東風刻
    假設 一手牌
    """
    @tai.02 inside a docstring is not a tag
    """

  @tai.99 @pen.peek
  場景大綱: 箭字刻 <牌>
    當 檢查

    @prio.9
    例子:
      | 牌 |
      | 中 |
'''


@pytest.fixture()
def fake(tmp_path):
    (tmp_path / "features" / "sub").mkdir(parents=True)
    (tmp_path / "features" / "sub" / "x.feature").write_text(FAKE_FEATURE, encoding="utf-8")
    (tmp_path / "clauses.tsv").write_text(FAKE_TSV, encoding="utf-8")
    return read_tsv(tmp_path / "clauses.tsv"), parse_features(tmp_path / "features")


def test_parse_features_inherits_feature_and_examples_tags(fake):
    _, scenarios = fake
    assert [(s.name, s.tags) for s in scenarios] == [
        ("東風刻", {"tai.01", "wip"}),
        ("箭字刻 <牌>", {"tai.01", "wip", "tai.99", "pen.peek", "prio.9"}),
    ]


def test_a_detects_missing_scenario(fake):
    rows, scenarios = fake
    assert check_scenarios_present(rows, scenarios) == [
        "tai.02: status is scenario but no scenario in features/ is tagged @tai.02"
    ]


def test_b_detects_unknown_clause_tag(fake):
    rows, scenarios = fake
    problems = check_tags_known(rows, scenarios)
    assert [p.split()[0] for p in problems] == ["@prio.9", "@tai.99"]  # @wip is not a clause tag


def test_c_detects_bad_rows(fake):
    rows, _ = fake
    assert check_rows(rows) == [
        "prio: out-of-scope without a reason",
        "play.win: status 'later' is not one of ('scenario', 'out-of-scope')",
        "play.win: duplicate id",
    ]


def test_d_detects_tagged_out_of_scope(fake):
    rows, scenarios = fake
    assert check_no_tagged_out_of_scope(rows, scenarios) == [
        "pen.peek: tagged in features/ but marked out-of-scope; set its status to scenario"
    ]


def test_e_detects_id_lists_differing(fake):
    rows, _ = fake
    shared = [{"id": i} for i in ("tai.01", "tai.02", "pen.peek", "prio", "play.win", "play.draw")]
    assert check_same_ids(rows, shared) == ["play.draw: in the shared rulebook, missing from data/clauses.tsv"]
    assert check_same_ids(rows, shared[:3]) == [
        "prio: in data/clauses.tsv, not in the shared rulebook",
        "play.win: in data/clauses.tsv, not in the shared rulebook",
    ]

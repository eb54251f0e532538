"""``flask analyze``: JSON out, exact on random hands, clear errors (issue #2, item 6)."""
from __future__ import annotations

import json
import random

import pytest

from bench.handgen import waiting_hand, winning_hand
from referee.hand import Hand
from referee.tiles import format_tiles, tile_name
from tests.test_hand import ref_decompositions, ref_waits
from tests.servicekit import app_storing_nothing  # noqa: F401  (the app here: these tests store nothing)


@pytest.fixture
def analyze(app):
    runner = app.test_cli_runner()

    def run(*args: str):
        result = runner.invoke(args=["analyze", *args])
        return result.exit_code, result.output

    return run


def _args(counts, melds) -> list[str]:
    hand = Hand(tuple(counts), melds)
    return [format_tiles(hand.tiles()), "--melds", " ".join(str(m) for m in melds)]


@pytest.mark.parametrize("seed", range(40))
def test_exact_on_random_hands(analyze, seed):
    rng = random.Random(seed)
    counts, melds = (winning_hand if seed % 2 else waiting_hand)(rng, melds=seed % 5)
    code, out = analyze(*_args(counts, melds))
    assert code == 0, out
    report = json.loads(out)
    if seed % 2:
        assert report["winning"] is True
        assert len(report["decompositions"]) == len(ref_decompositions(counts))
    else:
        expected = ref_waits(counts, melds)
        assert [w["tile"] for w in report["waits"]] == [tile_name(t) for t in sorted(expected)]
        assert report["single_wait"] is (len(expected) == 1)


def test_not_winning_lists_discards_that_leave_it_ready(analyze):
    code, out = analyze("123456789m 124p 789s 55z")
    report = json.loads(out)
    assert code == 0 and report["winning"] is False
    assert set(report["ready_after_discard"]) == {"1p", "4p"}


def test_ruleset_option_enables_ligu(analyze):
    hand = "1122m 3344p 5566s 77z EEE"
    assert json.loads(analyze(hand)[1])["winning"] is False
    assert json.loads(analyze(hand, "--set", "hands.ligu=true")[1])["winning"] is True


@pytest.mark.parametrize(
    "args, field, words",
    [
        (["912m"], "tiles", "缺張"),
        (["11m", "--melds", "912m 123p 456p 789p 111s"], "melds[0]", "9-1-2"),
        (["55555m 123456789p 12s"], "tiles", "第五張"),
        (["1f 123456789m 123p 789s 5z"], "tiles", "花牌"),
        (["11m", "--set", "bogus=1"], "params.bogus", "bogus"),
        (["11m", "--ruleset", "nope"], "ruleset", "nope"),
    ],
)
def test_errors_exit_non_zero_with_problem_json(analyze, args, field, words):
    code, out = analyze(*args)
    assert code == 2
    problem = json.loads(out[out.index("{"):])
    assert problem["field"] == field and words in problem["detail_zh"]

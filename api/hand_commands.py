"""The hand calculators as commands: ``analyze`` and ``score`` (issues #2, #3).

Registered on the app (``flask --app app analyze …``, :mod:`api.cli`) and runnable without
it, for a one-hand answer at the speed of a calculator (issue #17): ``mjref analyze
TILES`` / ``mjref score FILE`` (:mod:`mjref.cli`) import neither Flask nor the OpenAPI machinery (0.2 s
of CPU from process start instead of 0.6 s: ``docs/performance.md``). The answers are the
same either way.
"""
from __future__ import annotations

import json

import click
from marshmallow import ValidationError

from api.clikit import emit, reports_errors, ruleset_options
from referee.analysis import analyze
from referee.hand import Hand
from referee.ruleset import Ruleset


@click.command("analyze")
@click.argument("tiles")
@click.option("--melds", default="", help='副露 exposed melds, e.g. "pung:555p concealed:1111z 123s"')
@click.option("--flowers", default="", help='花牌 flowers laid out, e.g. "1f 5f"')
@reports_errors
@ruleset_options
def analyze_command(tiles: str, melds: str, flowers: str, ruleset: Ruleset) -> None:
    """分析手牌：是否胡牌、聽哪些牌與聽型、所有拆法。Analyse a hand: winning or not,
    waits with their shapes, every decomposition (win.shape, play.ready)."""
    hand = Hand.parse(tiles, melds, flowers)
    report = analyze(hand, ligu=bool(ruleset.values["hands.ligu"]))
    report["ruleset"] = ruleset.profile
    emit(report)


@click.command("score")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@reports_errors
def score_command(file) -> None:
    """計台與結算：讀 JSON（檔案或 - 為標準輸入），輸出台數、名堂與各家收付。Score and
    settle a win: the body of POST /api/v1/score in, its answer out (tai.*, settle.*)."""
    from services.score_body import score_body

    try:
        body = json.load(file)
    except json.JSONDecodeError as error:
        raise ValidationError({"body": [f"不是有效的 JSON not valid JSON: {error}"]}) from None
    emit(score_body(body))

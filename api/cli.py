"""``flask`` CLI commands of mjref (``flask --app app <command>``).

Every command prints JSON on stdout; errors leave as problem JSON on stderr with
exit status 2 (:mod:`api.clikit`, which holds the pieces commands share). This module
holds the hand commands and :func:`init_app`, the one place commands are registered.
"""
from __future__ import annotations

import json

import click
from flask import Flask
from marshmallow import ValidationError

from api import auth, batch, tables
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
    from api.scoring import score_body

    try:
        body = json.load(file)
    except json.JSONDecodeError as error:
        raise ValidationError({"body": [f"不是有效的 JSON not valid JSON: {error}"]}) from None
    emit(score_body(body))


def init_app(app: Flask) -> None:
    """Register every mjref command on ``app.cli``."""
    # ---- registration point: add commands here, one line each ----------------
    app.cli.add_command(analyze_command)
    app.cli.add_command(score_command)
    app.cli.add_command(auth.tokens_cli)  # flask tokens create|list|revoke
    app.cli.add_command(tables.tables_cli)  # flask tables rebuild
    app.cli.add_command(batch.rule_command)  # flask rule FILES... (issue #5 penalties, #17 batch)
    app.cli.add_command(batch.replay_command)  # flask replay FILES... (issue #4 referee, #17 batch)
    # ---------------------------------------------------------------------------

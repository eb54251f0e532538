"""``flask`` CLI commands of mjref (``flask --app app <command>``).

Every command prints JSON on stdout. A :class:`referee.errors.MjrefError` is
reported as problem JSON on stderr (the same body the HTTP handler sends) and the
command exits with status 2, like a usage error.

Shared pieces for commands: :func:`ruleset_options` (``--ruleset NAME`` and
``--set NAME=VALUE``, giving a ``ruleset`` argument), :func:`emit` and
:func:`reports_errors`.
"""
from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable

import click
from flask import Flask

from api import adjudications, auth, rulings, tables
from referee.analysis import analyze
from referee.errors import MjrefError, RulesetError
from referee.hand import Hand
from referee.ruleset import Ruleset


def emit(data: object) -> None:
    """Print *data* as indented JSON, zh-TW text unescaped."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def reports_errors(command: Callable) -> Callable:
    """Turn a domain error into problem JSON on stderr and exit status 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except MjrefError as error:
            from api import problem  # the HTTP handler's body, one definition

            body, _status = problem(error)
            click.echo(json.dumps(body, ensure_ascii=False, indent=2), err=True)
            sys.exit(2)

    return wrapper


def _parse_override(text: str) -> tuple[str, object]:
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise RulesetError(
            f"--set needs NAME=VALUE, got {text!r}", field="--set", reason_zh=f"--set 須寫成 名稱=值，收到 {text!r}"
        )
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw  # a bare word such as an enum value
    return name, value


def ruleset_options(command: Callable) -> Callable:
    """Add ``--ruleset`` and repeatable ``--set NAME=VALUE`` (values in JSON, bare words
    as strings); the command receives the loaded ``ruleset``."""

    @click.option("--ruleset", "profile", default="competition", show_default=True, help="規則組 ruleset profile")
    @click.option("--set", "overrides", multiple=True, metavar="NAME=VALUE", help="覆寫參數 override a parameter")
    @functools.wraps(command)
    def wrapper(*args, profile: str, overrides: tuple[str, ...], **kwargs):
        ruleset = Ruleset.load(profile, dict(_parse_override(o) for o in overrides) or None)
        return command(*args, ruleset=ruleset, **kwargs)

    return wrapper


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
    from marshmallow import ValidationError

    from api import validation_problem
    from api.scoring import score_body

    try:
        body = json.load(file)
    except json.JSONDecodeError as error:
        body = None
        detail = str(error)
    else:
        detail = None
    try:
        if detail is not None:
            raise ValidationError({"body": [f"不是有效的 JSON not valid JSON: {detail}"]})
        emit(score_body(body))
    except ValidationError as error:
        problem_body, _status = validation_problem(error)
        click.echo(json.dumps(problem_body, ensure_ascii=False, indent=2), err=True)
        sys.exit(2)


def init_app(app: Flask) -> None:
    """Register every mjref command on ``app.cli``."""
    # ---- registration point: add commands here, one line each ----------------
    app.cli.add_command(analyze_command)
    app.cli.add_command(score_command)
    app.cli.add_command(auth.tokens_cli)  # flask tokens create|list|revoke
    app.cli.add_command(tables.tables_cli)  # flask tables rebuild
    app.cli.add_command(rulings.rule_command)  # flask rule FILE|- (issue #5, penalties)
    app.cli.add_command(adjudications.replay_command)  # flask replay FILE|- (issue #4, referee)
    # ---------------------------------------------------------------------------

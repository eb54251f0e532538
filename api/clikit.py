"""Pieces every ``flask`` command shares: JSON out, errors as problem JSON, ruleset options.

A :class:`referee.errors.MjrefError` or a :class:`marshmallow.ValidationError` is
reported on stderr with the body the HTTP handler would send, and the command exits
with status 2, like a usage error. Nothing here imports a command module, so any
module may use these at import time.
"""
from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable

import click

from referee.errors import MjrefError, RulesetError
from referee.ruleset import DEFAULT_PROFILE, Ruleset


def emit(data: object) -> None:
    """Print *data* as indented JSON, zh-TW text unescaped."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def reports_errors(command: Callable) -> Callable:
    """Turn a domain or body error into problem JSON on stderr and exit status 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except Exception as error:
            # a ValidationError comes only from marshmallow once loaded: commands that never load it
            # (``mjref replay``: 40 ms of its start) do not import it for this check
            marshmallow = sys.modules.get("marshmallow")
            body_error = marshmallow is not None and isinstance(error, marshmallow.ValidationError)
            if not body_error and not isinstance(error, MjrefError):
                raise
            from api import problem, validation_problem  # the HTTP handler's bodies, one definition

            body, _status = validation_problem(error) if body_error else problem(error)
            click.echo(json.dumps(body, ensure_ascii=False, indent=2), err=True)
            sys.exit(2)

    return wrapper


def parse_override(text: str) -> tuple[str, object]:
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
        ruleset = Ruleset.load(profile, dict(parse_override(o) for o in overrides) or None)
        return command(*args, ruleset=ruleset, **kwargs)

    return wrapper


def stream_ruleset_options(command: Callable) -> Callable:
    """Like :func:`ruleset_options` for commands that read streams: without ``--ruleset``
    or ``--set`` the command receives ``ruleset=None``, meaning the profile each
    ``hand_start`` names."""

    @click.option("--ruleset", "profile", default=None,
                  help="規則組 ruleset profile (default: the one hand_start names)")
    @click.option("--set", "overrides", multiple=True, metavar="NAME=VALUE", help="覆寫參數 override a parameter")
    @functools.wraps(command)
    def wrapper(*args, profile: str | None, overrides: tuple[str, ...], **kwargs):
        ruleset = None
        if profile or overrides:
            ruleset = Ruleset.load(profile or DEFAULT_PROFILE, dict(parse_override(o) for o in overrides) or None)
        return command(*args, ruleset=ruleset, **kwargs)

    return wrapper


def cli_db():
    """A connection to the app's database for a command (``flask tokens …``); the caller closes it."""
    from flask import current_app  # here: the calculators (mjref analyze|score) load no Flask

    from store import connect

    return connect(current_app.config["DATABASE"])


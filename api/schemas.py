"""Marshmallow pieces shared by the blueprints: choosing a ruleset, loading a body.

Every request that depends on the rules names a profile and may override parameters::

    {"ruleset": "app", "params": {"hands.ligu": true}}

An unknown profile or parameter, or a bad value, is a 400 problem naming
``ruleset`` or ``params.<name>`` (raised by :meth:`referee.ruleset.Ruleset.load`).
"""
from __future__ import annotations

import json
from typing import Any

from marshmallow import Schema, ValidationError, fields

from referee.ruleset import DEFAULT_PROFILE, Ruleset


class RulesetSelectionSchema(Schema):
    """``ruleset`` (profile name) and ``params`` (overrides)."""

    ruleset = fields.String(load_default=DEFAULT_PROFILE, metadata={"description": "規則組 ruleset profile"})
    params = fields.Dict(keys=fields.String(), load_default=dict, metadata={"description": "覆寫參數 overrides"})


def load_ruleset(data: dict) -> Ruleset:
    """The ruleset a loaded body selects."""
    return Ruleset.load(data["ruleset"], data["params"] or None)


def load_json(schema: Schema) -> dict:
    """Validate the request's JSON body with *schema*.

    :raises ValidationError: for a missing or non-object body too, so every bad body
        gets the same problem+json answer.
    """
    from flask import request  # here: the CLI's calculators read these schemas without Flask

    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ValidationError({"body": ["請求內容須為 JSON 物件 The body must be a JSON object."]})
    return schema.load(body)


def read_stream_body(text: str) -> tuple[Any, Ruleset | None, Any]:
    """Read a whole-stream request body: JSON Lines, a JSON array of events, or an object
    ``{"events": [...], "ruleset": "...", "params": {...}, "mode": "..."}``.

    Returns ``(source, ruleset, mode)``: the stream for :func:`referee.replay.adjudicate_text`
    and :func:`penalties.rule_stream`, the ruleset the object names (``None``: the one each
    ``hand_start`` names), and the raw ``mode`` (``None`` when not given).

    :raises referee.errors.RulesetError: an unknown profile or parameter, naming it.
    """
    from api.intake import check_json_text, loads  # here: the calculators (python -m api) load no Flask

    stripped = text.strip()
    one_object = stripped.startswith("{") and "\n{" not in stripped
    check_json_text(text, lines=not (one_object or stripped.startswith("[")))  # too deep, a lone surrogate: 400
    if one_object:
        try:
            data = loads(stripped)
        except json.JSONDecodeError:
            data = None  # not one object: let the stream parser name the bad line
        if isinstance(data, dict) and "events" in data:
            ruleset = None
            if data.get("ruleset") or data.get("params"):
                ruleset = Ruleset.load(data.get("ruleset") or DEFAULT_PROFILE, data.get("params") or None)
            return data["events"], ruleset, data.get("mode")
    return text, None, None

"""Marshmallow pieces shared by the blueprints: choosing a ruleset, loading a body.

Every request that depends on the rules names a profile and may override parameters::

    {"ruleset": "app", "params": {"hands.ligu": true}}

An unknown profile or parameter, or a bad value, is a 400 problem naming
``ruleset`` or ``params.<name>`` (raised by :meth:`referee.ruleset.Ruleset.load`).
"""
from __future__ import annotations

from flask import request
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
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ValidationError({"body": ["請求內容須為 JSON 物件 The body must be a JSON object."]})
    return schema.load(body)

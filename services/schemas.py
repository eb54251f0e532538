"""Marshmallow pieces shared by the API and the pages (issue #19 item 1): choosing a ruleset, loading a body.

Every request that depends on the rules names a profile and may override parameters::

    {"ruleset": "app", "params": {"hands.ligu": true}}

An unknown profile or parameter, or a bad value, is a 400 problem naming
``ruleset`` or ``params.<name>`` (raised by :meth:`referee.ruleset.Ruleset.load`).
"""
from __future__ import annotations


from marshmallow import INCLUDE, Schema, ValidationError, fields

from referee.ruleset import DEFAULT_PROFILE, SCOPES, Ruleset, available_profiles, parameters


class OpenSchema(Schema):
    """An object whose fields here are documented, and more may come: they pass through
    (``unknown = INCLUDE``; the spec says ``additionalProperties: true``)."""

    class Meta:
        unknown = INCLUDE


# --- what the spec says a ruleset choice is (issue #12 item 6) ------------------------------
# Generated from the data (data/rulesets/): a profile name is one of the profiles, an
# override names a parameter of parameters.json with a value of its type and range, so a
# request the spec calls valid is one Ruleset.load accepts. Validation stays Ruleset.load's
# (its errors name ``ruleset`` / ``params.<name>``); these only document it.


def profile_property() -> dict:
    """The JSON Schema of a profile name: one of the profiles."""
    return {"type": "string", "enum": list(available_profiles())}


def time_zone_property() -> dict:
    """The JSON Schema of an event's time zone: an IANA name this machine's zone database
    holds (:func:`zoneinfo.available_timezones`, what the event's check loads), or null."""
    from zoneinfo import available_timezones

    return {"type": "string", "enum": [*sorted(available_timezones()), None]}


def _parameter_property(defn) -> dict:
    described = {"description": f"{defn.term}: {defn.meaning_en} ({', '.join(defn.clauses)})"}
    if defn.type == "int":
        return {"type": "integer", "minimum": defn.min, "maximum": defn.max, **described}
    if defn.type == "bool":
        return {"type": "boolean", **described}
    if defn.type == "enum":
        return {"type": "string", "enum": list(defn.values), **described}
    return {**described, **_exclusions_property()}


PATTERN_CODE = "#/components/schemas/PatternCode"


def pattern_codes() -> list[str]:
    """The 名堂 codes: ``tai.<code>`` parameters (what an exclusion entry names)."""
    return sorted(name[4:] for name, d in parameters().items() if name.startswith("tai.") and d.type == "int")


def _exclusions_property() -> dict:
    """``tai.exclusions``: entries of a pattern and the patterns it excludes (or, with
    ``with_any``, adjusts), as Ruleset.load reads them: one branch per pattern, as an
    entry may not list its own pattern."""
    clause = {"type": "string", "pattern": r"^[a-z]+(\.[a-z0-9]+(-[a-z0-9]+)*)*$"}
    branches = []
    for code in pattern_codes():
        others = {"type": "array", "minItems": 1, "uniqueItems": True,
                  "items": {"allOf": [{"$ref": PATTERN_CODE}, {"not": {"enum": [code]}}]}}
        common = {"pattern": {"type": "string", "enum": [code]}, "clause": clause, "note": {"type": "string"}}
        branches.append({"type": "object", "additionalProperties": False, "required": ["pattern", "clause", "excludes"],
                         "properties": {**common, "excludes": others,
                                        "scope": {"type": "string", "enum": list(SCOPES)}}})
        branches.append({"type": "object", "additionalProperties": False,
                         "required": ["pattern", "clause", "with_any", "adjust"],
                         "properties": {**common, "with_any": others, "scope": {"type": "string", "enum": ["hand"]},
                                        "adjust": {"type": "integer", "not": {"enum": [0]}}}})
    return {"type": "array", "items": {"oneOf": branches}}


RULESET_PARAMS = "#/components/schemas/RulesetParams"


def params_component() -> dict:
    """The JSON Schema of ``params``: parameter name → a value of its type."""
    return {"type": "object", "additionalProperties": False,
            "properties": {name: _parameter_property(defn) for name, defn in parameters().items()}}


def params_property() -> dict:
    """``params`` in a schema: the ``RulesetParams`` component (:func:`register_components`)."""
    return {"allOf": [{"$ref": RULESET_PARAMS}]}


def register_components(spec) -> None:
    """The components the properties above refer to."""
    spec.components.schema("PatternCode", component={"type": "string", "enum": pattern_codes()})
    spec.components.schema("RulesetParams", component=params_component())


def params_query_parameters() -> list[dict]:
    """``?NAME=VALUE`` overrides in a query (``GET /rulesets/{profile}``): values in JSON,
    so an integer or ``true``/``false`` or an enum word; ``tai.exclusions`` is a body's."""
    out = []
    for name, defn in parameters().items():
        if defn.type == "int":
            schema = {"type": "integer", "minimum": defn.min, "maximum": defn.max}
        elif defn.type == "bool":
            schema = {"type": "string", "enum": ["true", "false"]}
        elif defn.type == "enum":
            schema = {"type": "string", "enum": list(defn.values)}
        else:
            continue
        out.append({"in": "query", "name": name, "required": False, "schema": schema,
                    "description": f"{defn.term}: {defn.meaning_en}"})
    return out


class StrictBoolean(fields.Boolean):
    """A JSON ``true`` or ``false`` in a body: ``0``, ``1`` or ``"yes"`` are not booleans
    (marshmallow's Boolean takes them; the spec says ``boolean``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


class RulesetSelectionSchema(Schema):
    """``ruleset`` (profile name) and ``params`` (overrides)."""

    ruleset = fields.String(load_default=DEFAULT_PROFILE,
                            metadata={"description": "規則組 ruleset profile", **profile_property()})
    params = fields.Dict(keys=fields.String(), load_default=dict,
                         metadata={"description": "覆寫參數 overrides", **params_property()})


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

"""``GET /api/v1/rulesets[/<profile>]``: the profiles and their parameters (issue #2).

``GET /api/v1/rulesets/app?hands.ligu=true`` shows a profile with overrides applied
(query values in JSON; bare words are strings), so a client can check a ruleset
before using it.
"""
from __future__ import annotations

import json

from flask import jsonify, request
from marshmallow import Schema, fields

from api import auth, intake
from api.openapi import MAYBE_BEARER, Blueprint
from services.problems import not_found
from services.schemas import OpenSchema, params_query_parameters, profile_property
from referee.ruleset import Ruleset, available_profiles, profile_info

bp = Blueprint("rulesets", __name__, url_prefix="/api/v1/rulesets", description="規則組 Rulesets (issue #2)")
auth.guard(bp)  # a token given must be valid, checked first (issue #12 item 5)


class ProfileSchema(OpenSchema):
    profile = fields.String()
    extends = fields.String(allow_none=True)
    title_zh = fields.String()
    title = fields.String()
    description_zh = fields.String()
    description = fields.String()


class ProfileListSchema(Schema):
    profiles = fields.List(fields.Nested(ProfileSchema))


class ProfileValuesSchema(ProfileSchema):
    overrides = fields.Dict(metadata={"description": "覆寫 the overrides applied"})
    values = fields.Dict(metadata={"description": "每個參數的值 every parameter's value"})


def _json_or_word(name: str, raw: str) -> object:
    """A query parameter's value: JSON (through the API's one decoder, :func:`api.intake.loads`:
    too deep or a lone surrogate is a 400 naming ``params.NAME``), else the bare word."""
    try:
        return intake.loads(raw, root=f"params.{name}")
    except json.JSONDecodeError:
        return raw


@bp.get("")
@bp.response(200, ProfileListSchema)
@bp.doc(security=MAYBE_BEARER)
@auth.read_access("rulesets")
def list_profiles():
    """規則組清單 The ruleset profiles."""
    return jsonify({"profiles": [_info(name) for name in available_profiles()]})


@bp.get("/<profile>")
@bp.response(200, ProfileValuesSchema)
@bp.doc(
    security=MAYBE_BEARER,
    parameters=[{"in": "path", "name": "profile", "required": True, "schema": profile_property()},
                *params_query_parameters()],
)
@auth.read_access("rulesets")
def show_profile(profile: str):
    """一個規則組及其參數值 One profile with every parameter's value, overrides applied."""
    if profile not in available_profiles():
        raise not_found("ruleset profile", "規則組", profile, "profile")
    overrides = {name: _json_or_word(name, raw) for name, raw in request.args.items()}
    ruleset = Ruleset.load(profile, overrides or None)
    return jsonify({**_info(profile), "overrides": dict(ruleset.overrides), "values": ruleset.to_dict()})


def _info(name: str) -> dict:
    info = profile_info(name)
    return {
        "profile": name,
        "extends": info.extends,
        "title_zh": info.title_zh,
        "title": info.title_en,
        "description_zh": info.description_zh,
        "description": info.description_en,
    }

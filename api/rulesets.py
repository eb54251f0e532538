"""``GET /api/v1/rulesets[/<profile>]``: the profiles and their parameters (issue #2).

``GET /api/v1/rulesets/app?hands.ligu=true`` shows a profile with overrides applied
(query values in JSON; bare words are strings), so a client can check a ruleset
before using it.
"""
from __future__ import annotations

import json

from flask import Blueprint, request

from referee.ruleset import Ruleset, available_profiles, profile_info

bp = Blueprint("rulesets", __name__, url_prefix="/api/v1/rulesets")


def _json_or_word(raw: str) -> object:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


@bp.get("")
def list_profiles():
    return {"profiles": [_info(name) for name in available_profiles()]}


@bp.get("/<profile>")
def show_profile(profile: str):
    overrides = {name: _json_or_word(raw) for name, raw in request.args.items()}
    ruleset = Ruleset.load(profile, overrides or None)
    return {**_info(profile), "overrides": dict(ruleset.overrides), "values": ruleset.to_dict()}


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

"""``POST /api/v1/analyze``: the hand analysis of ``flask analyze`` over HTTP (issue #2).

Body: ``{"tiles": "1112345678999m", "melds": "EEE", "flowers": "", "ruleset": "app",
"params": {}}``; answer: :func:`referee.analysis.analyze`'s report.
"""
from __future__ import annotations

from flask import Blueprint
from marshmallow import fields

from api.schemas import RulesetSelectionSchema, load_json, load_ruleset
from referee.analysis import analyze
from referee.hand import Hand

bp = Blueprint("analysis", __name__, url_prefix="/api/v1")


class AnalyzeSchema(RulesetSelectionSchema):
    tiles = fields.String(required=True, metadata={"description": "暗牌 concealed tiles, e.g. 123m456p"})
    melds = fields.String(load_default="", metadata={"description": "副露 melds, e.g. pung:555p concealed:1111z"})
    flowers = fields.String(load_default="", metadata={"description": "花牌 flowers, e.g. 1f 5f"})


@bp.post("/analyze")
def analyze_hand():
    data = load_json(AnalyzeSchema())
    ruleset = load_ruleset(data)
    report = analyze(Hand.parse(data["tiles"], data["melds"], data["flowers"]), ligu=bool(ruleset.values["hands.ligu"]))
    report["ruleset"] = ruleset.profile
    return report

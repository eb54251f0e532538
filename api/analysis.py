"""``POST /api/v1/analyze``: the hand analysis of ``flask analyze`` over HTTP (issue #2).

Body: ``{"tiles": "1112345678999m", "melds": "EEE", "flowers": "", "ruleset": "app",
"params": {}}``; answer: :func:`referee.analysis.analyze`'s report (:func:`analysis_body`,
which the calculator page 「聽牌了嗎？」 calls too: web/tools.py).
"""
from __future__ import annotations

from flask import jsonify
from marshmallow import INCLUDE, Schema, ValidationError, fields

from api import auth
from api.openapi import MAYBE_BEARER, Blueprint
from api.schemas import RulesetSelectionSchema, load_ruleset
from referee.analysis import analyze
from referee.hand import Hand

bp = Blueprint("analysis", __name__, url_prefix="/api/v1", description="手牌分析 Hand analysis (issue #2)")
auth.guard(bp, area="tools")  # auth first: the token checked before the body is read (issue #12 item 5)


class AnalyzeSchema(RulesetSelectionSchema):
    tiles = fields.String(required=True, metadata={"description": "暗牌 concealed tiles, e.g. 123m456p"})
    melds = fields.String(load_default="", metadata={"description": "副露 melds, e.g. pung:555p concealed:1111z"})
    flowers = fields.String(load_default="", metadata={"description": "花牌 flowers, e.g. 1f 5f"})


class AnalysisReportSchema(Schema):
    """分析結果 The analysis report (more members than shown: see docs)."""

    class Meta:
        unknown = INCLUDE

    winning = fields.Boolean(metadata={"description": "是否胡牌 a winning hand"})
    waits = fields.List(fields.Dict(), metadata={"description": "聽牌與聽型 waits with their shapes"})
    ruleset = fields.String()


@bp.post("/analyze")
@bp.arguments(AnalyzeSchema)
@bp.response(200, AnalysisReportSchema)
@bp.doc(security=MAYBE_BEARER)
@auth.read_access("tools")
def analyze_hand(data: dict):
    """分析手牌 Analyse a hand: winning or not, waits, every decomposition."""
    return jsonify(analysis_report(data))


def analysis_report(data: dict) -> dict:
    """The report on a loaded body (:class:`AnalyzeSchema`): the hand under its ruleset.

    :raises referee.errors.MjrefError: a bad hand or ruleset, naming the field.
    """
    ruleset = load_ruleset(data)
    report = analyze(Hand.parse(data["tiles"], data["melds"], data["flowers"]), ligu=bool(ruleset.values["hands.ligu"]))
    report["ruleset"] = ruleset.profile
    return report


def analysis_body(body: object) -> dict:
    """Validate a body (:class:`AnalyzeSchema`) and analyse it: the JSON answer.

    :raises marshmallow.ValidationError: a field of the wrong type, or a missing ``tiles``.
    :raises referee.errors.MjrefError: an impossible hand or ruleset.
    """
    if not isinstance(body, dict):
        raise ValidationError({"body": ["請求內容須為 JSON 物件 The body must be a JSON object."]})
    return analysis_report(AnalyzeSchema().load(body))

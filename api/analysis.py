"""``POST /api/v1/analyze``: the hand analysis of ``flask analyze`` over HTTP (issue #2).

Body: ``{"tiles": "1112345678999m", "melds": "EEE", "flowers": "", "ruleset": "app",
"params": {}}``; answer: :func:`referee.analysis.analyze`'s report (:mod:`services.analysis`, which the
calculator page 「聽牌了嗎？」 calls too: web/tools.py).
"""
from __future__ import annotations

from flask import jsonify
from marshmallow import fields

from api import auth
from api.openapi import MAYBE_BEARER, Blueprint
from services.analysis import AnalyzeSchema, analysis_report
from services.schemas import OpenSchema

bp = Blueprint("analysis", __name__, url_prefix="/api/v1", description="手牌分析 Hand analysis (issue #2)")
auth.guard(bp, area="tools")  # auth first: the token checked before the body is read (issue #12 item 5)


class AnalysisReportSchema(OpenSchema):
    """分析結果 The analysis report (more members than shown: see docs)."""

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

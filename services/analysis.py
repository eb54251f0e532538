"""The hand analysis as asked by a body (``POST /api/v1/analyze``) or a form (the calculator
「聽牌了嗎？」, web/tools.py): one schema, one answer (issue #2, issue #14 item 8)."""
from __future__ import annotations

from marshmallow import ValidationError, fields

from referee.analysis import analyze
from referee.hand import Hand
from services.schemas import RulesetSelectionSchema, load_ruleset


class AnalyzeSchema(RulesetSelectionSchema):
    tiles = fields.String(required=True, metadata={"description": "暗牌 concealed tiles, e.g. 123m456p"})
    melds = fields.String(load_default="", metadata={"description": "副露 melds, e.g. pung:555p concealed:1111z"})
    flowers = fields.String(load_default="", metadata={"description": "花牌 flowers, e.g. 1f 5f"})


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


__all__ = ["AnalyzeSchema", "analysis_body", "analysis_report"]

"""An official's override of a ruling, as asked (issue #6; the pages' form, issue #14): one
schema for the API's body and the console's form, so both refuse the same things alike."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from services.live import DECISIONS, MAX_INT, MAX_MONEY


class OverrideRequestSchema(Schema):
    hand = fields.Integer(required=True, strict=True, validate=validate.Range(0, MAX_INT),
                          metadata={"description": "盤號 hand"})
    ruling = fields.String(required=True, validate=validate.Length(min=1, max=200),
                           metadata={"description": "裁定編號 ruling id, e.g. 57.false_win or outcome"})
    decision = fields.String(required=True, validate=validate.OneOf(DECISIONS),
                             metadata={"description": "overrule 撤銷 / amend 改判 / reinstate 恢復原判"})
    payments = fields.List(fields.Integer(strict=True, validate=validate.Range(-MAX_MONEY, MAX_MONEY)),
                           load_default=None, allow_none=True,
                           validate=validate.Length(equal=4),
                           metadata={"description": "amend: 四家收付 payments per seat, summing to zero"})
    reason = fields.String(load_default="", validate=validate.Length(max=2000),
                           metadata={"description": "理由 (English)"})
    reason_zh = fields.String(load_default="", validate=validate.Length(max=2000),
                              metadata={"description": "理由（中文）"})

    #: the spec says what _check does, but for the sum of an amend's payments (a 400)
    OPENAPI_RULES = {
            "anyOf": [{"required": ["reason"], "properties": {"reason": {"pattern": r"\S"}}},
                      {"required": ["reason_zh"], "properties": {"reason_zh": {"pattern": r"\S"}}}],
            "oneOf": [{"required": ["payments"], "properties": {"decision": {"enum": ["amend"]},
                                                                "payments": {"type": "array"}}},
                      {"properties": {"decision": {"enum": [d for d in DECISIONS if d != "amend"]},
                                      "payments": {"enum": [None]}}}],
        }

    @validates_schema
    def _check(self, data: dict, **kwargs) -> None:
        if not data.get("reason", "").strip() and not data.get("reason_zh", "").strip():
            raise ValidationError("覆判須寫明理由 an override needs a reason (reason_zh or reason)", "reason_zh")
        payments = data.get("payments")
        if data.get("decision") == "amend":
            if payments is None:
                raise ValidationError("改判須給四家收付 amend needs payments for the four seats", "payments")
            if sum(payments) != 0:
                raise ValidationError(f"四家收付總和須為 0 payments must sum to zero (sum {sum(payments)})", "payments")
        elif payments is not None:
            raise ValidationError("只有 amend 可給收付 only amend takes payments", "payments")


__all__ = ["OverrideRequestSchema"]

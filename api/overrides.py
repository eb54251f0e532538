"""Rulings and the officials' overrides (issue #6).

=================================================  ===========  ================================
``GET  /api/v1/rulings``                            ``rulings``  every ruling (filter: table, hand, status)
``GET  /api/v1/tables/{id}/rulings``                ``rulings``  one table's rulings, overrides applied
``POST /api/v1/tables/{id}/overrides``              official     overrule / amend / reinstate a ruling
``GET  /api/v1/tables/{id}/overrides``              ``rulings``  the audit trail: who, when, why
=================================================  ===========  ================================

An override is an event of the table's ``official`` stream (the log is the truth): it
names the hand and the ruling, the ``decision`` and the ``reason`` (zh-TW and/or English;
at least one). ``overrule`` sets the ruling aside (its payments count nothing);
``amend`` replaces its payments (four seats, summing to zero); ``reinstate`` returns to
the referee's ruling. The hand is then replayed from the log and its rulings, money and
the table's totals are recomputed; the answer shows them.
"""
from __future__ import annotations

from flask import jsonify
from marshmallow import Schema, fields, validate

from api import auth
from services.live import MAX_INT
from api.openapi import BEARER, MAYBE_BEARER, Blueprint
from services.problems import not_found
from services.schemas import OpenSchema
from services.live import service
from services.overrides import OverrideRequestSchema
from store import get_db
from store import tables as ts

blp = Blueprint("overrides", __name__, url_prefix="/api/v1", description="裁定與覆判 Rulings and overrides")
auth.guard(blp)  # auth first: officials, checked before the body is read (issue #12 item 5)


class RulingSchema(OpenSchema):
    table = fields.String()
    hand = fields.Integer()
    id = fields.String()
    seq = fields.Integer(allow_none=True)
    kind = fields.String()
    code = fields.String()
    clause = fields.String(allow_none=True)
    seat = fields.Integer(allow_none=True)
    status = fields.String(metadata={"description": "standing 維持 / overruled 撤銷 / amended 改判"})
    ruling = fields.Dict(metadata={"description": "裁判原判 the referee's ruling"})
    effective = fields.Dict(metadata={"description": "生效內容 what stands after overrides"})


class RulingListSchema(Schema):
    rulings = fields.List(fields.Nested(RulingSchema))


class RulingQuerySchema(Schema):
    table = fields.String(metadata={"description": "桌號 table id"})
    hand = fields.Integer(validate=validate.Range(0, MAX_INT))
    status = fields.String(validate=validate.OneOf(["standing", "overruled", "amended"]))


class OverrideSchema(OpenSchema):
    event_id = fields.Integer()
    table = fields.String()
    hand = fields.Integer()
    ruling = fields.String()
    decision = fields.String()
    reason = fields.String()
    reason_zh = fields.String()
    by = fields.Dict(metadata={"description": "誰 who: token id, role, label"})
    at = fields.String(metadata={"description": "何時 when (UTC)"})


class OverrideListSchema(Schema):
    overrides = fields.List(fields.Nested(OverrideSchema))


class OverrideAnswerSchema(Schema):
    override = fields.Nested(OverrideSchema)
    hand = fields.Dict(metadata={"description": "重算後的這一盤 the hand recomputed: rulings, payments"})
    totals = fields.List(fields.Integer(), metadata={"description": "桌的各家總輸贏 the table's totals"})


def _table_or_404(table_id: str) -> dict:
    row = ts.get_table(get_db(), table_id)
    if row is None:
        raise not_found("table", "桌", table_id, "table_id")
    return row


@blp.get("/rulings")
@blp.arguments(RulingQuerySchema, location="query")
@blp.response(200, RulingListSchema)
@blp.doc(security=MAYBE_BEARER)
def list_rulings(query: dict):
    """裁定清單 Every ruling, overrides applied (a table token: its own table's)."""
    principal = auth.check_read("rulings", query.get("table"))
    table = query.get("table")
    if principal is not None and principal.role == "table":
        table = principal.table
    return jsonify({"rulings": ts.rulings(get_db(), table_id=table, hand=query.get("hand"),
                                          status=query.get("status"))})


@blp.get("/tables/<table_id>/rulings")
@blp.response(200, RulingListSchema)
@blp.doc(security=MAYBE_BEARER)
def table_rulings(table_id: str):
    """一張桌的裁定 A table's rulings, overrides applied."""
    auth.check_read("rulings", table_id)
    _table_or_404(table_id)
    return jsonify({"rulings": ts.rulings(get_db(), table_id=table_id)})


@blp.post("/tables/<table_id>/overrides")
@auth.requires("official", "admin")  # before the body is read: no token, no 400 (issue #12 item 5)
@blp.arguments(OverrideRequestSchema)
@blp.response(201, OverrideAnswerSchema)
@blp.doc(security=BEARER)
def create_override(data: dict, table_id: str):
    """覆判 Overrule, amend or reinstate a ruling (official); the hand's money is recomputed."""
    principal = auth.require("official", "admin")
    answer = service().override(table_id, hand=data["hand"], ruling=data["ruling"], decision=data["decision"],
                                reason=data["reason"], reason_zh=data["reason_zh"], payments=data["payments"],
                                principal=principal)
    response = jsonify(answer)
    response.status_code = 201
    return response


@blp.get("/tables/<table_id>/overrides")
@blp.response(200, OverrideListSchema)
@blp.doc(security=MAYBE_BEARER)
def list_overrides(table_id: str):
    """覆判紀錄 The audit trail of a table: who overruled what, when and why."""
    auth.check_read("rulings", table_id)
    _table_or_404(table_id)
    return jsonify({"overrides": ts.overrides(get_db(), table_id)})

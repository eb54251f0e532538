"""Rulings on whole streams (issue #5): ``POST /api/v1/rulings``; ``flask rule`` answers each
hand of a log the same way, hand by hand (:mod:`api.batch`, issue #17).

Both take a stream (JSON Lines, or a JSON array of events; over HTTP also
``{"events": [...], "ruleset": "...", "params": {...}}``) and answer the same document::

    {"protocol": 1,
     "hands": [{"table": "t1", "hand": 1,
                "outcome": {...the referee's outcome...},
                "rulings": [...], "transfers": [...], "payments": [0, 0, 0, 0], "outside": {},
                "hand_ended": false, "next_dealer": 1, "next_streak": 0, "next": {...}, "unruled": []}]}

:func:`rulings_document` is the one function both call; the referee's adjudication
document may embed :func:`hand_rulings` per hand (``penalties`` key).
"""
from __future__ import annotations

from typing import Any

from flask import jsonify, request

from api import auth
from api.openapi import MAYBE_BEARER, Blueprint
from api.schemas import read_stream_body
from penalties import rule_stream
from referee.events import PROTOCOL_VERSION
from referee.ruleset import Ruleset

bp = Blueprint("rulings", __name__, url_prefix="/api/v1", description="罰則裁定 Penalty rulings (issue #5)")
auth.guard(bp, area="tools")  # auth first: the token checked before the body is read (issue #12 item 5)


def hand_rulings(record, rulings) -> dict[str, Any]:
    """One hand's answer: the referee's outcome and the rulings (JSON-ready)."""
    adj = record.adjudication
    return {"table": adj.table, "hand": adj.hand, "mode": adj.mode, "ruleset": adj.ruleset,
            "outcome": adj.outcome.to_dict(), **rulings.to_dict()}


def rulings_document(source: Any, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """A whole stream in, the rulings document out (see the module docstring).

    :raises referee.errors.MjrefError: an unreadable event or stream, naming its field.
    """
    return {"protocol": PROTOCOL_VERSION,
            "hands": [hand_rulings(record, rulings) for record, rulings in rule_stream(source, ruleset)]}


def add_rulings(document: dict[str, Any], source: Any, ruleset: Ruleset | None = None, mode: Any = None) -> dict[str, Any]:
    """Put each hand's rulings into the referee's adjudication document (key ``penalties``:
    :meth:`penalties.Rulings.to_dict`). Called by :func:`api.adjudications.adjudication_document`."""
    for hand, (_record, rulings) in zip(document.get("hands", []), rule_stream(source, ruleset, mode=mode)):
        hand["penalties"] = rulings.to_dict()
    return document


@bp.post("/rulings")
@bp.doc(security=MAYBE_BEARER, description="一整段事件流（JSON Lines、事件陣列或 {events, ruleset, params}）的罰則裁定與最終收付。"
        " A whole stream (JSON Lines, an array of events, or {events, ruleset, params}) in; rulings and the final payments out.")
@auth.read_access("tools")
def post_rulings():
    """罰則裁定 Rule on a whole stream: rulings with clause ids, effects, payments."""
    source, ruleset, _mode = read_stream_body(request.get_data(as_text=True))
    return jsonify(rulings_document(source, ruleset))

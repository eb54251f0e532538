"""Rulings on whole streams (issue #5): ``POST /api/v1/rulings``; ``flask rule`` answers each
hand of a log the same way, hand by hand (:mod:`api.batch`, issue #17).

Both take a stream (JSON Lines, or a JSON array of events; over HTTP also
``{"events": [...], "ruleset": "...", "params": {...}}``) and answer the same document::

    {"protocol": 1,
     "hands": [{"table": "t1", "hand": 1,
                "outcome": {...the referee's outcome...},
                "rulings": [...], "transfers": [...], "payments": [0, 0, 0, 0], "outside": {},
                "hand_ended": false, "next_dealer": 1, "next_streak": 0, "next": {...}, "unruled": []}]}

:func:`rulings_document` is the one function both call; it and the adjudication document
(:mod:`api.adjudications`) translate the same :class:`penalties.adjudicator.HandResult`.
"""
from __future__ import annotations

from typing import Any

from flask import jsonify, request

from api import auth
from api.openapi import MAYBE_BEARER, Blueprint
from api.intake import read_stream_body
from penalties.adjudicator import adjudicate_hands
from referee.events import PROTOCOL_VERSION, Mode
from referee.ruleset import Ruleset

bp = Blueprint("rulings", __name__, url_prefix="/api/v1", description="罰則裁定 Penalty rulings (issue #5)")
auth.guard(bp, area="tools")  # auth first: the token checked before the body is read (issue #12 item 5)


def hand_rulings(hand) -> dict[str, Any]:
    """One hand's answer (JSON-ready): the one outcome and the rulings, each with its id and
    the seq it was given at (:class:`penalties.adjudicator.HandResult`)."""
    doc = hand.to_dict()
    return {"table": doc["table"], "hand": doc["hand"], "mode": doc["mode"], "ruleset": doc["ruleset"],
            "outcome": doc["outcome"], "closed_at": doc["closed_at"], **doc["penalties"]}


def rulings_document(source: Any, ruleset: Ruleset | None = None, mode: Mode | None = None,
                     names: Any = None) -> dict[str, Any]:
    """A whole stream in, the rulings document out (see the module docstring): every hand
    through the one adjudicator (:func:`penalties.adjudicator.adjudicate_hands`); *names*
    (the players by seat) are named in the rulings' words (「東家 王小明」).

    :raises referee.errors.MjrefError: an unreadable event or stream, naming its field.
    """
    return {"protocol": PROTOCOL_VERSION,
            "hands": [hand_rulings(hand) for hand in adjudicate_hands(source, ruleset, mode, names=names)]}


@bp.post("/rulings")
@bp.doc(security=MAYBE_BEARER,
        description="一整段事件流（JSON Lines、事件陣列或 {events, ruleset, params, names}）的罰則裁定與最終收付。"
        " A whole stream (JSON Lines, an array of events, or {events, ruleset, params, names}: names = the 4 seats'"
        " players, seat 0 first, named in the words) in; rulings and the final payments out.")
@auth.read_access("tools")
def post_rulings():
    """罰則裁定 Rule on a whole stream: rulings with clause ids, effects, payments."""
    source, ruleset, _mode, names = read_stream_body(request.get_data(as_text=True))
    return jsonify(rulings_document(source, ruleset, names=names))

"""Adjudication of whole streams (issue #4): ``POST /api/v1/adjudications``; ``flask replay``
answers each hand of a log the same way, hand by hand (:mod:`api.batch`, issue #17).

Both take a stream — JSON Lines, or a JSON array of events; over HTTP also
``{"events": [...], "ruleset": "...", "params": {...}, "mode": "digital|physical"}`` — and
answer the same document (``docs/protocol.md``)::

    {"protocol": 1,
     "hands": [{"table": "t1", "hand": 1, "mode": "digital", "ruleset": "competition",
                "outcome": {"kind": "win", "wins": [...], "payments": [...], "next": {...}},
                "irregularities": [...], "verdicts": [{"seq": 1, "verdict": "accepted"}, ...],
                "final": {...}}]}

:func:`adjudication_document` answers a whole stream; :func:`api.batch.replay_answer` is
the same answer for one hand, so the CLI and the API agree (``tests/test_batch.py``).
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

bp = Blueprint("adjudications", __name__, url_prefix="/api/v1",
               description="裁判 Adjudication of event streams (issue #4)")
auth.guard(bp, area="tools")  # auth first: the token checked before the body is read (issue #12 item 5)

_MODES = {m.value: m for m in Mode}


def adjudication_document(source: Any, ruleset: Ruleset | None = None, mode: Mode | None = None,
                          names: Any = None) -> dict[str, Any]:
    """A whole stream in, the adjudication document out (see the module docstring): every
    hand through the one adjudicator (:func:`penalties.adjudicator.adjudicate_hands`), so
    its ``outcome`` is the hand's one result and ``penalties`` its rulings; *names* (the
    players by seat) are named in the words (「東家 王小明」).

    :raises referee.errors.MjrefError: an unreadable event or stream, naming its field.
    """
    return {"protocol": PROTOCOL_VERSION,
            "hands": [hand.to_dict() for hand in adjudicate_hands(source, ruleset, mode, names=names)]}


def _mode(value: Any) -> Mode | None:
    if value in (None, ""):
        return None
    from referee.events import EventError

    if value not in _MODES:
        raise EventError(f"mode must be one of {sorted(_MODES)}: {value!r}", field="mode",
                         reason_zh=f"mode 須為 {sorted(_MODES)} 之一")
    return _MODES[value]


@bp.post("/adjudications")
@bp.doc(security=MAYBE_BEARER,
        description="一整段事件流（JSON Lines、事件陣列或 {events, ruleset, params, mode, names}）"
        "逐一判定，並給出本盤結果、收付與下一盤莊家。A whole stream (JSON Lines, an array of events, or "
        "{events, ruleset, params, mode, names}: names = the 4 seats' players, seat 0 first, named in the words) in: "
        "a verdict per event, the irregularities with their clauses, the outcome, payments and next dealer out.")
@auth.read_access("tools")
def post_adjudications():
    """裁判一整段事件流 Adjudicate a whole stream: verdicts, irregularities, outcome."""
    source, ruleset, mode, names = read_stream_body(request.get_data(as_text=True))
    return jsonify(adjudication_document(source, ruleset, _mode(mode), names))

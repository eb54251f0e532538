"""Adjudication of whole streams (issue #4): ``flask replay FILE|-`` and
``POST /api/v1/adjudications``.

Both take a stream — JSON Lines, or a JSON array of events; over HTTP also
``{"events": [...], "ruleset": "...", "params": {...}, "mode": "digital|physical"}`` — and
answer the same document (``docs/protocol.md``)::

    {"protocol": 1,
     "hands": [{"table": "t1", "hand": 1, "mode": "digital", "ruleset": "competition",
                "outcome": {"kind": "win", "wins": [...], "payments": [...], "next": {...}},
                "irregularities": [...], "verdicts": [{"seq": 1, "verdict": "accepted"}, ...],
                "final": {...}}]}

:func:`adjudication_document` is the one function both call, so the CLI and the API give
the same answer for the same stream.
"""
from __future__ import annotations

from typing import Any

import click
from flask import jsonify, request

from api import auth
from api.clikit import emit, reports_errors, stream_ruleset_options
from api.openapi import MAYBE_BEARER, Blueprint
from api.schemas import read_stream_body
from penalties.adjudicator import adjudicate_hands
from referee.events import PROTOCOL_VERSION, Mode
from referee.ruleset import Ruleset

bp = Blueprint("adjudications", __name__, url_prefix="/api/v1", description="裁判 Adjudication of event streams (issue #4)")

_MODES = {m.value: m for m in Mode}


def adjudication_document(source: Any, ruleset: Ruleset | None = None, mode: Mode | None = None) -> dict[str, Any]:
    """A whole stream in, the adjudication document out (see the module docstring): every
    hand through the one adjudicator (:func:`penalties.adjudicator.adjudicate_hands`), so
    its ``outcome`` is the hand's one result and ``penalties`` its rulings.

    :raises referee.errors.MjrefError: an unreadable event or stream, naming its field.
    """
    return {"protocol": PROTOCOL_VERSION,
            "hands": [hand.to_dict() for hand in adjudicate_hands(source, ruleset, mode)]}


def _mode(value: Any) -> Mode | None:
    if value in (None, ""):
        return None
    from referee.events import EventError

    if value not in _MODES:
        raise EventError(f"mode must be one of {sorted(_MODES)}: {value!r}", field="mode",
                         reason_zh=f"mode 須為 {sorted(_MODES)} 之一")
    return _MODES[value]


@bp.post("/adjudications")
@bp.doc(security=MAYBE_BEARER, description="一整段事件流（JSON Lines、事件陣列或 {events, ruleset, params, mode}）"
        "逐一判定，並給出本盤結果、收付與下一盤莊家。A whole stream (JSON Lines, an array of events, or "
        "{events, ruleset, params, mode}) in: a verdict per event, the irregularities with their clauses, "
        "the outcome, payments and next dealer out.")
@auth.read_access("tools")
def post_adjudications():
    """裁判一整段事件流 Adjudicate a whole stream: verdicts, irregularities, outcome."""
    source, ruleset, mode = read_stream_body(request.get_data(as_text=True))
    return jsonify(adjudication_document(source, ruleset, _mode(mode)))


@click.command("replay")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--mode", type=click.Choice(sorted(_MODES)), default=None, help="牌桌模式 digital|physical (default: hand_start's)")
@reports_errors
@stream_ruleset_options
def replay_command(file, ruleset: Ruleset | None, mode: str | None) -> None:
    """裁判：讀事件流（檔案或 - 為標準輸入），逐一判定並輸出每盤結果。Replay a stream:
    JSON Lines in, each hand's verdicts, irregularities (with clause ids) and outcome out."""
    emit(adjudication_document(file.read(), ruleset, _mode(mode)))

"""``POST /api/v1/score``: score and settle a win (issue #3); ``flask score`` uses the same body.

Body (every field but ``tiles``, ``winner``, ``dealer``, ``source`` is optional)::

    {"ruleset": "app", "params": {},
     "tiles": "123m456m789p234s55s SSS", "melds": "", "flowers": "2f",
     "winner": 1, "dealer": 0, "round_wind": "E", "source": "wall", "winning_tile": "S",
     "discarder": null, "wall_break": null, "streak": 1, "streak_marker": null,
     "flower_win": "none", "dealt_flower_win": false, "readiness": "none",
     "first_turn": "none", "bao": "", "robbed_flower": null, "replaced_kong": null, "liable": null,
     "stakes": {"base": 100, "per_tai": 20}}

Answer: :meth:`referee.scoring.Score.to_dict` (``tai``, ``dealer_tai``, ``patterns``,
``excluded``, ``decomposition`` ...) with ``settlement`` (``payments`` per seat,
``transfers``). See docs/scoring.md for every field, with examples.

A bad field is a 400 problem+json naming it (``tiles``, ``melds[0]``, ``winning_tile``,
``discarder``, ``stakes.base``, ``params.<name>`` ...).
"""
from __future__ import annotations

from flask import request

from api import auth
from api.openapi import MAYBE_BEARER, Blueprint
from services.score_body import ScoreSchema, score_body  # noqa: F401 — the spec names ScoreSchema (api.init_app)

bp = Blueprint("scoring", __name__, url_prefix="/api/v1", description="計台與結算 Scoring and settlement (issue #3)")
auth.guard(bp, area="tools")  # auth first: the token checked before the body is read (issue #12 item 5)


@bp.post("/score")
@bp.doc(
    security=MAYBE_BEARER,
    requestBody={"required": True, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Score"}}}},
    responses={"200": {"description": "台數、名堂與各家收付 tai, patterns and the settlement (docs/scoring.md)",
                       "content": {"application/json": {"schema": {"type": "object"}}}}},
)
@auth.read_access("tools")
def score_win():
    """計台與結算 Score and settle a win."""
    return score_body(request.get_json(silent=True))

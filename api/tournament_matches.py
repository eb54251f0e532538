"""A 將's state over HTTP (issue #15): the table's current 圈, dealer and streak, as the score
sheet shows them — so a scorer's app or a hall screen need not work them out.

==========================================================================  ===============
``GET /api/v1/tournaments/{id}/rounds/{r}/tables/{t}/matches/{m}``             ``tournaments``
==========================================================================  ===============

From the log (:func:`tournament.typed.deal_of`): with the 將's 定莊 recorded, its state after
every hand recorded (round wind, dealer, streak, hands, over); without one, the dealer and
streak the previous hand's scorer entry gives; otherwise ``known: false``.
"""
from __future__ import annotations

from flask import jsonify

from api import auth
from api.openapi import MAYBE_BEARER, Blueprint
from services.problems import not_found
from services.tournament_schemas import AnySchema
from services.tournament_log import load
from tournament.match import MatchState
from tournament.typed import deal_of

INT = "int(max=2147483647)"

blp = Blueprint("tournament_matches", __name__, url_prefix="/api/v1/tournaments",
                description="將的狀態 A 將's state: the current 圈, dealer and streak")
auth.guard(blp)  # a token given must be valid, checked first (issue #12 item 5)


@blp.get(f"/<tid>/rounds/<{INT}:round_no>/tables/<{INT}:table>/matches/<{INT}:match>")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def match_state(tid: str, round_no: int, table: int, match: int):
    """將的狀態 A 將 now: hands recorded, and who deals the next hand — its 圈 (round wind),
    dealer seat and streak — where the log knows it (定莊, or the previous scorer entry)."""
    auth.check_read("tournaments")
    loaded = load(tid)
    state = loaded.state
    plan = state.round(round_no)
    if plan is None or all(t.table != table for t in plan.tables):
        raise not_found("table", "桌", f"round {round_no} table {table}", "table")
    settings = state.settings
    if not 1 <= match <= settings.matches_per_round:
        raise not_found("match", "將", match, "match")
    hands = sorted(h.key[3] for h in state.hands if h.key[:3] == (round_no, table, match))
    deal = deal_of(state, loaded.provenance, (round_no, table, match, len(hands) + 1))
    body = {"round": round_no, "table": table, "match": match, "hands": len(hands),
            "first_dealer": loaded.provenance.dealer_of(round_no, table, match), "known": deal is not None}
    if isinstance(deal, MatchState):
        body.update(over=deal.over, round_wind=deal.round_wind.name, round_wind_zh=deal.round_wind.zh,
                    dealer=None if deal.over else deal.dealer, streak=None if deal.over else deal.streak,
                    describe_zh=deal.describe())
    elif deal is not None:
        dealer, streak = deal
        body.update(over=False, round_wind=None, round_wind_zh=None, dealer=dealer, streak=streak,
                    describe_zh=f"莊家 {dealer} 號座" + (f"，連 {streak}" if streak else ""))
    else:
        body.update(over=None, round_wind=None, round_wind_zh=None, dealer=None, streak=None,
                    describe_zh="尚未定莊，無從得知莊家" if not hands
                    else "無從得知莊家（未定莊，前一盤未以台數項目輸入）")
    return jsonify(body)


__all__ = ["blp"]

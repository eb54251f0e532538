"""The organisers' results pages (issue #15 item 3): a scorer enters each hand by 台 items.

==============================================  =================================================================
``/t/<tid>/results/``                           which tables still owe results, at a glance (officials; a table's
                                                scorer sees their own)
``/t/<tid>/results/<r>/<t>/<m>``                a 將's hands and the next hand's entry by 台 items (the table's
                                                scorer — its PIN — or an official); ``…/preview`` the payments
(the same form, ``correct=<h>``)               correct a hand by items, with a reason (officials)
``/t/<tid>/results/<r>/<t>/<m>/<h>/revert``     revert the hand's record in effect, with a reason (officials)
==============================================  =================================================================

Signed in as on the officials' console (:mod:`web.signin`: a token, or a table's PIN); every
form carries the session's form token (the console's own check, before the request). A table
scorer may enter the 將s played at their table: the referee table their PIN stands for is
linked to (round, table, 將) (``POST /api/v1/tournaments/{id}/links``, R-tour-18).

What a form says is turned into the API's own request body and loaded by the API's schema
(:class:`services.tournament_schemas.EntryResultSchema`), then recorded by the API's own command
(:func:`services.tournament_commands.post_entry` → :func:`services.tournament_write.write`): the
checks, the 409s and the log are the API's. The preview settles the same entry
(:func:`services.tournament_commands.settle_for`, the referee's settlement) and shows the payments the
typed-result check expects of its wins (:func:`tournament.typed.expected_payments`,
:func:`tournament.typed.win_payments` for 七搶一 →2). Corrections and reverts are the API's
events (``HandCorrected`` with a ``ScorerEntered``, ``Reverted``), each with its reason.
"""
from __future__ import annotations

from typing import Any

from flask import Blueprint, g, jsonify, redirect, render_template, request, url_for
from marshmallow import ValidationError

from services import tournament_commands as commands
from services.tournament_schemas import CorrectionSchema, EntryResultSchema
from services.tournament_write import load
from services.validation import first_error, reason_zh
from referee.errors import MjrefError
from referee.play_rules import PlayRules
from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.patterns import PATTERNS
from referee.scoring.table import table_for
from services.problems import ApiProblem
from tournament.entry import MAX_COUNT, deal_after
from tournament.match import event_max_streak
from tournament.typed import expected_payments, win_payments
from web import console, signin
from web.errors import PageError

bp = Blueprint("results", __name__, url_prefix="/t/<tid>/results", template_folder="templates")
bp.before_request(console._session_first)  # who is signed in; a POST's form token (CSRF)
bp.register_error_handler(PageError, console._page_error)
bp.register_error_handler(console.SignInNeeded, console._sign_in)
bp.register_error_handler(ApiProblem, console._problem)

SEATS = (0, 1, 2, 3)
#: the most other winners on one discard a form offers (一炮三響: three in all)
MAX_ALSO = 2
MAX_REASON = 500
WINDS_ZH = ("東", "南", "西", "北")


# --- who may enter ----------------------------------------------------------------------------


def _person() -> signin.Person:
    person = g.get("person")
    if person is None:
        raise console.SignInNeeded()
    return person


def _may_enter(loaded, key3: tuple[int, int, int]) -> signin.Person:
    """An official, or the scorer of the referee table linked to this 將."""
    person = _person()
    if person.is_official:
        return person
    if person.role == "table" and loaded.provenance.linked.get(key3) == person.table:
        return person
    raise PageError(403, f"此 將 不是您的桌（{person.table or person.role}）的；請由裁判輸入。",
                    f"This 將 is not played at your table ({person.table or person.role}); ask an official.",
                    field="table")


def _official() -> signin.Person:
    person = _person()
    if not person.is_official:
        raise PageError(403, "更正與撤銷限裁判（official）或管理者（admin）。",
                        "Corrections and reverts are for officials and admins.", field="role")
    return person


# --- what the log says of a 將 -------------------------------------------------------------------


def _key3(loaded, r: int, t: int, m: int) -> tuple[int, int, int]:
    rnd = loaded.state.round(r)
    if rnd is None or not any(p.table == t for p in rnd.tables):
        raise PageError(404, f"第 {r} 輪沒有第 {t} 桌（或尚未排座）。",
                        f"Round {r} has no table {t} (or is not seated).",
                        field="table")
    if not 1 <= m <= loaded.settings.matches_per_round:
        raise PageError(404, f"每輪只有 {loaded.settings.matches_per_round} 將。",
                        f"A round has {loaded.settings.matches_per_round} 將.", field="match")
    return r, t, m


def match_status(loaded, key3: tuple[int, int, int]) -> dict:
    """A 將's hands in effect, who deals next (with what streak) and whether it is over:
    from its 定莊 (``seat.dealer``) or, without one, its first hand's entered dealer, and the
    hands since (``app.dealer-continue``, :func:`tournament.entry.deal_after`); ``over`` also
    when a later 將 of the table is drawn or has hands (``app.rounds``)."""
    state, prov = loaded.state, loaded.provenance
    hands = sorted((h for h in state.hands if h.key[:3] == key3), key=lambda h: h.key)
    first = prov.dealer_of(*key3)
    if first is None and hands:
        entered = prov.entry_with(hands[0].seq, hands[0].key)
        first = entered.entry.dealer if entered is not None else None
    cap = event_max_streak(loaded.settings)
    deal = deal_after(first, [h.result for h in hands], max_streak=cap) if first is not None else None
    later = any((r, t) == key3[:2] and m > key3[2] for (r, t, m) in prov.draws) or any(
        h.key[:2] == key3[:2] and h.key[2] > key3[2] for h in state.hands)
    over = later or (deal is not None and deal.over)
    return {"hands": hands, "deal": deal, "over": over,
            "drawn": first is not None and prov.dealer_of(*key3) is not None}


def _teams(loaded, key3) -> list[str | None]:
    """Each seat's team in the round (R-tour-30; a move from a later round not yet, R-tour-32),
    ``None`` for none or an empty 替補 seat."""
    players = [loaded.state.player(pid) if pid else None for pid in loaded.state.seats(*key3)]
    return [p.team_in(key3[0]) if p else None for p in players]


def _names(loaded, key3) -> list[str]:
    seats = loaded.state.seats(*key3)
    out = []
    for pid in seats:
        player = loaded.state.player(pid) if pid else None
        out.append(player.name if player else (pid or "（替補）"))
    return out


# --- the overview -----------------------------------------------------------------------------------


@bp.get("/")
def overview(tid: str):
    """成績輸入總覽 Which tables still owe results, round by round."""
    person = _person()
    loaded = load(tid)
    rounds = []
    for rnd in loaded.state.rounds:
        rows = []
        for plan in rnd.tables:
            cells = []
            for m in range(1, loaded.settings.matches_per_round + 1):
                key3 = (rnd.round, plan.table, m)
                if not person.is_official and loaded.provenance.linked.get(key3) != person.table:
                    continue
                status = match_status(loaded, key3)
                cells.append({"match": m, "hands": len(status["hands"]), "over": status["over"]})
            if cells:
                rows.append({"table": plan.table, "cells": cells, "owes": not all(c["over"] for c in cells)})
        if rows:
            rounds.append({"round": rnd.round, "rows": rows, "owing": sum(1 for r in rows if r["owes"])})
    return render_template("results_overview.html", tid=tid, name=loaded.settings.name, rounds=rounds)


# --- the form ----------------------------------------------------------------------------------


def _patterns(ruleset) -> list[dict]:
    """The 台 items the ruleset scores (not 作莊 / 連N拉N: they follow from the dealer and streak)."""
    table = table_for(ruleset)
    out = []
    for i, p in enumerate(PATTERNS):
        if p.scope == "dealer" or not (table.active_mask >> i) & 1:
            continue
        out.append({"code": p.code, "zh": p.zh, "en": p.en, "tai": table.tai[i], "most": MAX_COUNT.get(p.code, 1)})
    return out


def _seat(form, name: str) -> int | None:
    raw = form.get(name, "")
    return int(raw) if raw in ("0", "1", "2", "3") else None


def _items(form, prefix: str, patterns: list[dict]) -> list[dict]:
    items = []
    chosen = set(form.getlist(f"{prefix}item"))
    for p in patterns:
        if p["code"] not in chosen:
            continue
        count = form.get(f"{prefix}count_{p['code']}", "1").strip() or "1"
        items.append({"code": p["code"], "count": int(count) if count.isdigit() else count})
    return items


def body_of(form, key3: tuple[int, int, int], patterns: list[dict]) -> dict:
    """The API's request body (``POST …/hands/entry``) a form stands for."""
    body: dict[str, Any] = {"round": key3[0], "table": key3[1], "match": key3[2]}
    streak = form.get("streak", "0").strip() or "0"
    body["dealer"] = _seat(form, "dealer")
    body["streak"] = int(streak) if streak.isdigit() else streak
    if form.get("outcome") == "draw":
        body["winner"] = None
        return body
    body["winner"] = _seat(form, "winner")
    body["deal_in"] = _seat(form, "deal_in")  # "self": 自摸
    robbed = _seat(form, "robbed")
    if robbed is not None:
        body["robbed"] = robbed
    body["items"] = _items(form, "", patterns)
    also = []
    for k in range(1, MAX_ALSO + 1):
        seat = _seat(form, f"also{k}_winner")
        if seat is not None:
            also.append({"winner": seat, "items": _items(form, f"also{k}_", patterns)})
    if also:
        body["also"] = also
    return body


def _load_body(body: dict) -> tuple[dict | None, dict]:
    """The body as the API's schema loads it, or the errors by field (zh-TW, English)."""
    if body.get("dealer") is None:
        return None, {"dealer": ("請選擇莊家", "choose the dealer")}
    if "winner" in body and body["winner"] is None and body.get("items") is not None:
        return None, {"winner": ("請選擇胡牌者，或選「荒局」", "choose the winner, or 'exhaustive draw'")}
    try:
        return EntryResultSchema().load(body), {}
    except ValidationError as error:
        field, message = first_error(error.messages)
        return None, {_form_field(field): (f"欄位「{field}」：{reason_zh(message)}", f"{field}: {message}")}


def _form_field(field: str | None) -> str:
    """Where a field's error shows on the form: ``items[2].code`` at the items, ``also[0]…`` at that winner."""
    field = (field or "").removeprefix("entry.")
    if field.startswith("also"):
        k = field[5:6]
        return f"also{int(k) + 1}" if k.isdigit() else "also1"
    head = field.split("[")[0].split(".")[0]
    return head if head in ("dealer", "streak", "winner", "deal_in", "robbed", "stakes", "key", "match") else "items"


def preview(loaded, data: dict) -> dict:
    """What the entry pays, by seat: settled by the API's own settlement (the items checked),
    the payments as the typed-result check expects them of its wins."""
    entry = commands.entry_of(data)
    settled = commands.settle_for(loaded.settings, entry)
    ruleset = Ruleset.load(loaded.settings.ruleset)
    table, stakes = table_for(ruleset), Stakes(loaded.settings.base, loaded.settings.per_tai)
    wins = settled.result.wins
    if not wins:
        payments = (0, 0, 0, 0)
    elif entry.robbed is not None:
        payments = win_payments(wins[0], entry.dealer, entry.streak, table, stakes, entry.robbed)
    else:
        payments = expected_payments(wins, entry.dealer, entry.streak, table, stakes)
    parts = settled.parts or (settled,)
    return {"payments": list(payments), "wins": [{"seat": w.seat, "tai": w.tai, "deal_in": w.deal_in} for w in wins],
            "dealer_tai": settled.dealer_tai, "items": [p.item_tai for p in parts],
            "settled": list(settled.result.payments)}


def _page(tid: str, key3, *, values=None, errors=None, shown=None, status: int = 200, recorded=None):
    loaded = load(tid)
    person = _may_enter(loaded, key3)
    ruleset = Ruleset.load(loaded.settings.ruleset)
    state = match_status(loaded, key3)
    names = _names(loaded, key3)
    deal = state["deal"]
    defaults = {"dealer": str(deal.dealer) if deal is not None else "", "streak": str(deal.streak) if deal else "0"}
    rows = []
    for h in state["hands"]:
        entered = loaded.provenance.entry_with(h.seq, h.key)
        rows.append({"hand": h.key[3], "result": h.result, "corrected": h.corrected, "seq": h.seq,
                     "entry": entered.entry if entered is not None else None})
    return render_template(
        "results_match.html", tid=tid, key3=key3, name=loaded.settings.name, names=names, rows=rows, state=state,
        teams=_teams(loaded, key3),
        patterns=_patterns(ruleset), multiple=PlayRules.of(ruleset).multiple_wins, max_also=MAX_ALSO,
        seven_rob_one=table_for(ruleset).seven_rob_one, values=values if values is not None else defaults,
        errors=errors or {}, shown=shown, recorded=recorded, official=person.is_official, winds=WINDS_ZH,
        hand_no=len(state["hands"]) + 1, zh={p.code: p.zh for p in PATTERNS}), status


def _values(form) -> dict:
    values = {k: v for k, v in form.items() if k != signin.CSRF_FIELD}
    for k in form:
        if k.endswith("item"):
            values[k] = form.getlist(k)
    return values


def _entry_error(exc: Exception) -> dict:
    field = getattr(exc, "field", None)
    zh = getattr(exc, "reason_zh", None) or getattr(exc, "detail_zh", None) or str(exc)
    en = getattr(exc, "message", None) or getattr(exc, "detail", None) or str(exc)
    return {_form_field(field): (zh, en)}


@bp.get("/<int:r>/<int:t>/<int:m>")
def match_page(tid: str, r: int, t: int, m: int):
    """一將的成績 A 將's hands, and the next hand's entry by 台 items."""
    loaded = load(tid)
    key3 = _key3(loaded, r, t, m)
    correct = request.args.get("correct", "")
    if correct:
        _official()
        entry = loaded.state.hand((*key3, int(correct))) if correct.isdigit() else None
        if entry is None:
            raise PageError(404, f"沒有第 {correct} 盤的紀錄。", f"Hand {correct!r} has no record.", field="correct")
        return _page(tid, key3, values=values_of(loaded, entry))
    return _page(tid, key3, recorded=request.args.get("recorded"))


def values_of(loaded, hand) -> dict:
    """The form's values for correcting a recorded hand: its scorer's entry, if it had one."""
    values: dict[str, Any] = {"correct": str(hand.key[3])}
    entered = loaded.provenance.entry_with(hand.seq, hand.key)
    if entered is None:
        return values
    e = entered.entry
    values.update(dealer=str(e.dealer), streak=str(e.streak), outcome="win" if e.winner is not None else "draw",
                  winner="" if e.winner is None else str(e.winner),
                  deal_in="self" if e.deal_in is None else str(e.deal_in),
                  robbed="" if e.robbed is None else str(e.robbed), item=[i.code for i in e.items])
    values.update({f"count_{i.code}": str(i.count) for i in e.items})
    for k, a in enumerate(e.also, 1):
        values[f"also{k}_winner"] = str(a.winner)
        values[f"also{k}_item"] = [i.code for i in a.items]
    return values


@bp.post("/<int:r>/<int:t>/<int:m>")
def match_post(tid: str, r: int, t: int, m: int):
    """Record the hand (``action=record``) or show what it pays (``action=preview``, also without script)."""
    loaded = load(tid)
    key3 = _key3(loaded, r, t, m)
    person = _may_enter(loaded, key3)
    patterns = _patterns(Ruleset.load(loaded.settings.ruleset))
    raw = body_of(request.form, key3, patterns)
    data, errors = _load_body(raw)
    values = _values(request.form)
    if errors:
        return _page(tid, key3, values=values, errors=errors, status=400)
    correct = request.form.get("correct", "").strip()
    if correct and request.form.get("action") == "record":
        if not correct.isdigit():
            raise PageError(400, "要更正的盤號須為整數。", "The hand to correct is a whole number.", field="correct")
        return _correct(tid, loaded, key3, int(correct), raw, values)
    try:
        shown = preview(loaded, data)
        if request.form.get("action") != "record":
            return _page(tid, key3, values=values, shown=shown)
        response = commands.post_entry(tid, data, actor=person.principal.id)
    except (MjrefError, ApiProblem) as exc:
        return _page(tid, key3, values=values, errors=_entry_error(exc), status=400 if isinstance(exc, MjrefError)
                     else exc.code)
    key = response.get_json()["key"]
    return redirect(url_for("results.match_page", tid=tid, r=r, t=t, m=m, recorded=key[3]))


@bp.post("/<int:r>/<int:t>/<int:m>/preview")
def match_preview(tid: str, r: int, t: int, m: int):
    """The live preview: the payments part of the page, re-rendered (``web/static/results.js``)."""
    loaded = load(tid)
    key3 = _key3(loaded, r, t, m)
    _may_enter(loaded, key3)
    patterns = _patterns(Ruleset.load(loaded.settings.ruleset))
    data, errors = _load_body(body_of(request.form, key3, patterns))
    shown = None
    if not errors:
        try:
            shown = preview(loaded, data)
        except MjrefError as exc:
            errors = _entry_error(exc)
    html = render_template("_results_preview.html", shown=shown, errors=errors, names=_names(loaded, key3),
                           winds=WINDS_ZH)
    response = jsonify({"html": html, "ok": shown is not None, "payments": shown and shown["payments"]})
    response.headers["Cache-Control"] = "no-store"
    return response


# --- corrections and reverts ---------------------------------------------------------------------


def _reason(form) -> str:
    reason = form.get("reason", "").strip()
    if not reason or len(reason) > MAX_REASON:
        raise PageError(400, f"請填寫理由（最多 {MAX_REASON} 字）。",
                        f"Give the reason (at most {MAX_REASON} characters).",
                        field="reason")
    return reason


@bp.post("/<int:r>/<int:t>/<int:m>/<int:h>/revert")
def revert_post(tid: str, r: int, t: int, m: int, h: int):
    """撤銷 Revert the hand's record in effect (``Reverted``, with the reason): the hand is then owed again."""
    person = _official()
    loaded = load(tid)
    key3 = _key3(loaded, r, t, m)
    reason = _reason(request.form)
    entry = loaded.state.hand((r, t, m, h))
    if entry is None:
        raise PageError(404, f"第 {h} 盤沒有紀錄。", f"Hand {h} has no record.", field="hand")
    sent = request.form.get("seq", "")
    if sent != str(entry.seq):  # the form was for a record no longer in effect (sent twice?): nothing reverted
        raise PageError(409, f"第 {h} 盤的紀錄已變更（現為第 {entry.seq} 筆），請重新整理後再撤銷。",
                        f"Hand {h}'s record changed (now record {entry.seq}): reload, then revert.", field="seq")
    commands.revert_for(tid, {"seq": entry.seq, "reason": reason}, actor=person.principal.id)
    return redirect(url_for("results.match_page", tid=tid, r=key3[0], t=key3[1], m=key3[2]))


def _correct(tid: str, loaded, key3, h: int, raw: dict, values: dict):
    """更正 Correct hand ``h`` by its 台 items, with the reason: the API's correction
    (``HandCorrected`` + ``ScorerEntered``, :func:`services.tournament_commands.post_correction`)."""
    person = _official()
    if loaded.state.hand((*key3, h)) is None:
        raise PageError(404, f"第 {h} 盤沒有紀錄。", f"Hand {h} has no record.", field="correct")
    reason = request.form.get("reason", "").strip()
    if not reason or len(reason) > MAX_REASON:
        return _page(tid, key3, values=values, status=400,
                     errors={"reason": (f"更正須填寫理由（最多 {MAX_REASON} 字）",
                                        f"a correction needs its reason (at most {MAX_REASON} characters)")})
    fields = {k: v for k, v in raw.items() if k not in ("round", "table", "match")}
    try:
        data = CorrectionSchema().load({"reason": reason, "entry": fields})
        commands.post_correction(tid, (*key3, h), data, actor=person.principal.id)
    except ValidationError as error:
        field, message = first_error(error.messages)
        return _page(tid, key3, values=values, status=400,
                     errors={_form_field(field): (f"欄位「{field}」：{reason_zh(message)}", f"{field}: {message}")})
    except (MjrefError, ApiProblem) as exc:
        return _page(tid, key3, values=values, errors=_entry_error(exc), status=400)
    return redirect(url_for("results.match_page", tid=tid, r=key3[0], t=key3[1], m=key3[2], corrected=h))


def init_app(app) -> None:
    app.register_blueprint(bp)

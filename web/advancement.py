"""四取一 / 四取二 (issue #15 item 4): who goes on from each table of a round, by that round's
totals and the tie-break chain, and an official's decision of a tie at the cut (R-tour-10).

==================================================  =====================================================
``/t/<tid>/advancement?round=<r>&take=<1|2>``       each table's ranking, who goes on, a tie at the cut
                                                    (readers of the event; the decision form: officials)
``/t/<tid>/advancement/decisions`` (POST)            decide a tie: who of the tied go on, and why
==================================================  =====================================================

The ranking is :func:`tournament.standings.advancement` (as the API's ``GET …/advancement``);
a decision is written by the API's own command (:func:`services.tournament_commands.decide_cut_for`).
"""
from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, request, url_for
from marshmallow import ValidationError

from services import tournament_commands as commands
from services.problems import ApiProblem
from services.tournament_schemas import CutDecisionSchema
from services.tournament_write import load as loaded_log
from services.validation import first_error, reason_zh
from tournament import standings as st
from tournament.errors import StandingsError
from web import console
from web.errors import PageError
from web.loading import load
from web.setup import _official

bp = Blueprint("advancement", __name__, url_prefix="/t/<tid>/advancement", template_folder="templates")
bp.before_request(console._session_first)  # who is signed in; a POST's form token (CSRF)
bp.register_error_handler(PageError, console._page_error)
bp.register_error_handler(console.SignInNeeded, console._sign_in)
bp.register_error_handler(ApiProblem, console._problem)


def _int_arg(name: str, default: int | None, allowed=None) -> int | None:
    raw = request.args.get(name, request.form.get(name, ""))
    if raw == "":
        return default
    if not raw.isdigit() or (allowed is not None and int(raw) not in allowed):
        raise PageError(400, f"參數 {name} 不正確：{raw!r}", f"The parameter {name} is not valid: {raw!r}", field=name)
    return int(raw)


def _page(tid: str, round_no: int | None, take: int, *, errors=None, values=None, status: int = 200):
    t = load(tid)
    seated = [p.round for p in t.state.rounds]
    if round_no is None:
        played = sorted({h.key[0] for h in t.state.hands})
        round_no = played[-1] if played else (seated[0] if seated else None)
    if round_no is None:
        raise PageError(404, "尚未排座，沒有晉級可看。", "No round is seated yet.", field="round")
    loaded = loaded_log(tid)
    try:
        tables = st.advancement(t.state, round_no, take, st.DEFAULT_TIE_BREAKS,
                                commands.cut_decisions(loaded, round_no, take))
    except StandingsError as exc:
        raise PageError(404, exc.reason_zh, exc.message, field=exc.field) from None
    person = g.get("person")
    return render_template("advancement.html", t=t, tid=tid, round_no=round_no, take=take, tables=tables,
                           rounds=seated, chain=st.DEFAULT_TIE_BREAKS, may_decide=bool(person and person.is_official),
                           errors=errors or {}, values=values or {}), status


@bp.get("")
def page(tid: str):
    """晉級 四取一 / 四取二 of a round, table by table."""
    return _page(tid, _int_arg("round", None), _int_arg("take", 1, (1, 2)))


@bp.post("/decisions")
def decide(tid: str):
    """同分裁定 Decide a tie at a table's cut (officials)."""
    person = _official()
    round_no, take, table = _int_arg("round", None), _int_arg("take", 1, (1, 2)), _int_arg("table", None)
    values = {"reason": request.form.get("reason", ""), "table": table}
    field = f"decide-{table}"
    try:
        data = CutDecisionSchema().load({"round": round_no, "table": table, "take": take,
                                         "advancing": request.form.getlist("advancing"),
                                         "reason": request.form.get("reason", "").strip()})
        commands.decide_cut_for(tid, data, actor=person.principal.id)
    except ValidationError as error:
        name, message = first_error(error.messages)
        zh = {"advancing": "請勾選晉級者", "reason": "請填寫理由（例如抽籤）"}.get(name, f"「{name}」")
        return _page(tid, round_no, take, status=400, values=values,
                     errors={field: (f"{zh}：{reason_zh(message)}", f"{name}: {message}")})
    except ApiProblem as problem:
        return _page(tid, round_no, take, status=problem.code, values=values,
                     errors={field: (problem.detail_zh, problem.detail)})
    return redirect(url_for("advancement.page", tid=tid, round=round_no, take=take) + f"#table-{table}")


def init_app(app) -> None:
    app.register_blueprint(bp)

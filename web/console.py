"""The officials' console (issue #14): refereeing in a browser, in zh-TW, without writing JSON.

==================================================  ===================================================
``/``                                                the home page: everything below, the tournaments
``/signin`` · ``/signout``                           sign-in with a token or a table's PIN (:mod:`web.signin`)
``/hall`` (``/hall/live``)                           every table at a glance, live
``/tables/<id>/`` (``…/live``)                       one table: seats, wall, events with verdicts, rulings
``/tables/<id>/names``                               the players' names at the seats (officials; a form)
``/tables/<id>/hands/<n>/replay?upto=SEQ``           a stored hand, step by step
``/tables/<id>/hands/<n>/rulings/<ruling>``          a ruling, printable; overrule / amend / reinstate
``/tables/<id>/report``                              report an irregularity: the ruling at once
==================================================  ===================================================

Who may see what is the API's rule (:func:`api.caller.check_read` on the signed-in person's
principal): the hall and a table's play come from its events (the ``events`` read area,
private by default), so reading them needs a sign-in unless the deployment made events
public; a table scorer sees their own table only. Forms that act (override, report, names)
are an official's or an admin's. The pages do what the API does with the same code:
:meth:`services.live.LiveService.ingest` for a report, :meth:`services.live.LiveService.override`
with :class:`api.overrides.OverrideRequestSchema`'s checks for an override.

Every form carries the session's form token (:mod:`web.signin`); ``…/live`` answer
``{"version", "html"}``: the page's live part, re-rendered, which ``web/static/console.js``
swaps in when it changed (polling every second: no inline script, the CSP holds).
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from marshmallow import ValidationError

from services import caller
from services.live import replay_hand, service, table_totals
from services.seat_names import table_names as players_at
from services.overrides import OverrideRequestSchema
from services.pins import create_pin
from services.problems import ApiProblem
from services.validation import first_error, reason_zh
from penalties.clauses import cite_zh, clauses
from penalties.rule import REPORTS
from penalties.titles import report_title, title
from penalties.rulings import EFFECTS
from penalties.words import WINDS_EN, WINDS_ZH, seat_wind
from referee.errors import MjrefError
from store import get_db, get_writer
from store import pins as pin_store
from store import tables as ts
from web import signin
from web.errors import PageError, from_problem, refuse_nul, render_error
from web.tablestate import (
    KIND_ZH,
    STATUS_ZH,
    VERDICT_ZH,
    event_row,
    hand_view,
    open_rulings,
    seat_label,
    seat_label_en,
)
from web.times import ago

bp = Blueprint("console", __name__, template_folder="templates")

#: the latest events a table page lists (``?events=all``: every one)
EVENTS_SHOWN = 40
#: most characters in a seat's name
MAX_NAME = 40
#: most characters in a report's note or an override's reason
MAX_TEXT = 2000
DECISIONS_ZH = {"overrule": ("撤銷", "overrule"), "amend": ("改判", "amend"), "reinstate": ("恢復原判", "reinstate")}


class SignInNeeded(Exception):
    """A page that needs a signed-in person: the sign-in page, coming back here after."""


@bp.errorhandler(PageError)
def _page_error(error: PageError):
    return render_error(error)


@bp.errorhandler(SignInNeeded)
def _sign_in(_error: SignInNeeded):
    return redirect(url_for("console.signin_page", next=_here(), ended=g.get("session_ended")))


@bp.errorhandler(ApiProblem)
def _problem(problem: ApiProblem):
    if problem.code == 401:
        return _sign_in(SignInNeeded())
    return render_error(from_problem(problem))


def _here() -> str:
    path = request.full_path
    return path.removesuffix("?")


@bp.before_request
def _session_first() -> Any:
    """Who is signed in (checked now: live token, not expired), then the form token of a POST,
    and no NUL in its URL or any field of its form (:func:`services.problems.nul_character`)."""
    refuse_nul()
    signin.current_person()
    if request.method == "POST" and not signin.csrf_ok(request.form.get(signin.CSRF_FIELD)):
        raise PageError(400,
                        "表單驗證失敗：此表單已過期，或不是由本網站送出（CSRF 防護）。請重新整理頁面後再送出一次。",
                        "The form was refused: it has expired, or it was not sent from this site (CSRF "
                        "protection). Reload the page and send it again.", field=signin.CSRF_FIELD)
    if request.method == "POST":
        refuse_nul(form=True)
    return None


@bp.app_context_processor
def _console_context() -> dict:
    """What every page may show: the signed-in person, the form token; ``code_title`` names
    a ruling's code in words (「相公」, :func:`penalties.titles.title`)."""
    return {"person": g.get("person"), "code_title": title}


# --- access ---------------------------------------------------------------------------------


def _read(area: str, table: str | None = None) -> None:
    """The API's read rule for the signed-in person (:func:`api.caller.check_read`)."""
    caller.check_read(area, table)  # a 401 becomes the sign-in page, a 403 the error page (handlers above)


def _may(area: str, table: str | None = None) -> bool:
    try:
        caller.check_read(area, table)
    except ApiProblem:
        return False
    return True


def _official() -> signin.Person:
    person = g.get("person")
    if person is None:
        raise SignInNeeded()
    if not person.is_official:
        raise PageError(403, f"此操作限裁判（official）或管理者（admin）；您以 {person.role} 身分登入。",
                        f"This is for officials and admins; you are signed in as {person.role}.", field="role")
    return person


def _table(table_id: str) -> dict:
    row = ts.get_table(get_db(), table_id)
    if row is None:
        raise PageError(404, f"找不到桌「{table_id}」。", f"No table {table_id!r}.", field="table_id")
    return row


def _now() -> datetime:
    return current_app.config["CLOCK"].now()


def _ago(when: str | None) -> tuple[str, str]:
    if not when:
        return "—", "—"
    then = datetime.fromisoformat(when)
    return ago((_now() - then).total_seconds())


# --- home, sign-in ----------------------------------------------------------------------------


@bp.get("/")
def home():
    """首頁 The console's home: where everything is, and the tables (for whoever may read them)."""
    tables = ts.list_tables(get_db()) if _may("tables") else []
    person = g.get("person")
    if person is not None and person.role == "table":
        tables = [t for t in tables if t["id"] == person.table]
    return render_template("console_home.html", tools=_tool_links(), tables=tables)


def _tool_links() -> list[tuple[str, str, str]]:
    """The calculators (issue #14 item 8) and the tile legend, when the app has them."""
    out = []
    for endpoint, zh, en in (("tools.ready", "聽牌了嗎？", "Is it ready?"), ("tools.score", "幾台？誰付多少？",
                                                                              "How many 台? Who pays?"),
                             ("tiles.tiles_page", "牌的圖例", "The tiles")):
        if endpoint in current_app.view_functions:
            out.append((url_for(endpoint), zh, en))
    return out


def _safe_next(target: str | None) -> str:
    """Where to go after signing in: a path of this site only (never another host)."""
    if not target:
        return url_for("console.home")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return url_for("console.home")
    return target


@bp.get("/signin")
def signin_page():
    """登入 Sign in: a token (officials, admins) or a table and its PIN (table scorers)."""
    ended = request.args.get("ended") or g.get("session_ended")
    return render_template("console_signin.html", errors={}, values={}, next=request.args.get("next", ""),
                           ended=ended)


@bp.post("/signin")
def signin_post():
    form = request.form
    how = form.get("how", "token")
    try:
        if how == "pin":
            principal, pin = signin.sign_in_pin(form.get("table", ""), form.get("pin", ""))
        else:
            principal, pin = signin.sign_in_token(form.get("token", "")), None
    except signin.SignInError as error:
        values = {"table": form.get("table", "")}  # a token or a PIN is never sent back into the page
        return render_template("console_signin.html", errors={error.field: error}, values=values,
                               next=form.get("next", ""), ended=None, how=how), 400
    signin.start_session(principal, pin)
    return redirect(_safe_next(form.get("next")))


@bp.post("/signout")
def signout():
    """登出 Sign out."""
    signin.end_session()
    return redirect(url_for("console.signin_page", ended="signed_out"))


# --- the hall ---------------------------------------------------------------------------------

#: (table, hand, last seq) → the hand's view: a replay per change, not per poll (per process)
_VIEWS: dict[tuple, Any] = {}
_VIEWS_MAX = 512


def _hand_state(table: dict, hand: int, last_seq: int, names: list[str], concealed: bool):
    """The referee after the hand's events so far, and its view (cached by the log's head)."""
    key = (table["id"], hand, last_seq, tuple(names), concealed)
    cached = _VIEWS.get(key)
    if cached is None:
        referee, _ = replay_hand(table, hand, ts.play_bodies(get_db(), table["id"], hand))
        state = referee.referee.state
        cached = (state.east if state is not None else 0,
                  hand_view(state, hand, ended=referee.ended, concealed=concealed, names=names))
        if len(_VIEWS) >= _VIEWS_MAX:
            _VIEWS.clear()
        _VIEWS[key] = cached
    return cached


def table_summary(table: dict) -> dict:
    """One table as the hall shows it: the hand in play, its round wind, dealer, whose turn,
    the time since the last event, the open rulings."""
    db = get_db()
    index = ts.hand_index(db, table["id"])
    names = pin_store.seat_names(db, table["id"])
    if not index:
        return {"table": table, "view": None, "ago": ("—", "—"), "open": [], "last_at": None}
    last = index[-1]
    _east, view = _hand_state(table, last["hand"], last["last_seq"], names, False)
    rulings = ts.rulings(db, table_id=table["id"], hand=last["hand"])
    return {"table": table, "view": view, "ago": _ago(last["last_at"]), "open": open_rulings(rulings, last["hand"]),
            "last_at": last["last_at"]}


def _hall_tables() -> list[dict]:
    _read("events")
    rows = ts.list_tables(get_db())
    person = g.get("person")
    if person is not None and person.role == "table":
        rows = [r for r in rows if r["id"] == person.table]
    return [table_summary(r) for r in rows]


@bp.get("/hall")
def hall():
    """大廳 Every table at a glance, updating itself."""
    return render_template("console_hall.html", rows=_hall_tables())


@bp.get("/hall/live")
def hall_live():
    return _live(render_template("_console_hall_rows.html", rows=_hall_tables()))


def _live(html: str):
    response = jsonify({"version": hashlib.sha256(html.encode()).hexdigest()[:16], "html": html})
    response.headers["Cache-Control"] = "no-store"
    return response


# --- a table ----------------------------------------------------------------------------------


def _table_page_data(table_id: str) -> dict:
    table = _table(table_id)
    _read("events", table_id)
    db = get_db()
    names = pin_store.seat_names(db, table_id)
    index = ts.hand_index(db, table_id)
    hand = int(request.args.get("hand", 0) or 0) or (index[-1]["hand"] if index else None)
    if hand is not None and not any(h["hand"] == hand for h in index):
        raise PageError(404, f"桌「{table_id}」沒有第 {hand} 盤。", f"Table {table_id!r} has no hand {hand}.",
                        field="hand")
    data = {"table": table, "names": names, "hands": index, "hand": hand, "view": None, "events": [], "rulings": [],
            "overrides": [], "ago": ("—", "—"), "totals": table_totals(db, table_id)}
    if hand is None:
        return data
    entry = next(h for h in index if h["hand"] == hand)
    east, view = _hand_state(table, hand, entry["last_seq"], names, True)
    logged = ts.events(db, table_id, hand=hand, stream=None)
    shown = logged if request.args.get("events") == "all" else logged[-EVENTS_SHOWN:]
    data.update(view=view, east=east, ago=_ago(entry["last_at"]), event_total=len(logged),
                events=[event_row(e, east, names, True) for e in shown],
                rulings=[ruling_summary(r, east, names) for r in ts.rulings(db, table_id=table_id, hand=hand)])
    return data


def ruling_summary(r: Mapping[str, Any], east: int, names: list[str]) -> dict:
    ruling = r["ruling"]
    named = title(r["code"])
    return {**r, "kind_zh": KIND_ZH.get(r["kind"], (r["kind"], ""))[0], "status_zh": STATUS_ZH[r["status"]][0],
            "title_zh": named[0], "title_en": named[1],
            "status_en": STATUS_ZH[r["status"]][1], "seat_zh": seat_label(r.get("seat"), east, names),
            "text_zh": ruling.get("text_zh") or ruling.get("detail_zh") or "",
            "text": ruling.get("text") or ruling.get("detail") or "",
            "open": bool(open_rulings([r], r["hand"]))}


@bp.get("/tables/<table_id>/")
def table_page(table_id: str):
    """一桌 A table: each seat, the wall, the events with their verdicts, the rulings; live."""
    return render_template("console_table.html", **_table_page_data(table_id), verdicts=VERDICT_ZH)


@bp.get("/tables/<table_id>/live")
def table_live(table_id: str):
    return _live(render_template("_console_table_live.html", **_table_page_data(table_id), verdicts=VERDICT_ZH))


@bp.post("/tables/<table_id>/names")
def table_names(table_id: str):
    """座位名單 The players' names at the seats (officials)."""
    _official()
    _table(table_id)
    names, errors = [], {}
    for seat in range(4):
        name = request.form.get(f"name{seat}", "").strip()
        if len(name) > MAX_NAME:
            errors[f"name{seat}"] = (f"名字最多 {MAX_NAME} 字", f"at most {MAX_NAME} characters")
        names.append(name)
    if errors:
        data = _table_page_data(table_id)
        data["names"] = names
        return render_template("console_table.html", **data, verdicts=VERDICT_ZH, name_errors=errors), 400
    get_writer().submit(lambda tx: pin_store.set_seat_names(tx.db, table_id, names))
    service().forget(table_id)  # the hand in play is replayed with the names: its next rulings name them
    return redirect(url_for("console.table_page", table_id=table_id))


# --- a hand's replay ----------------------------------------------------------------------------


@bp.get("/tables/<table_id>/hands/<int:hand>/replay")
def replay_page(table_id: str, hand: int):
    """重播 A stored hand, one event at a time: the state and the verdict at each step."""
    table = _table(table_id)
    _read("events", table_id)
    db = get_db()
    bodies = list(ts.play_bodies(db, table_id, hand))
    if not bodies:
        raise PageError(404, f"桌「{table_id}」沒有第 {hand} 盤。", f"Table {table_id!r} has no hand {hand}.",
                        field="hand")
    seqs = [b["seq"] for b in bodies]
    raw = request.args.get("upto")
    if raw in (None, ""):
        upto = seqs[0]
    else:
        try:
            upto = int(raw)
        except ValueError:
            upto = -1
        if upto not in seqs:
            raise PageError(400, f"參數 upto 須為本盤的一個 seq（{seqs[0]}–{seqs[-1]}），收到「{raw}」",
                            f"upto must be a seq of this hand ({seqs[0]}–{seqs[-1]}), got {raw!r}", field="upto")
    names = pin_store.seat_names(db, table_id)
    referee, answers = replay_hand(table, hand, bodies, upto=upto, names=players_at(db, table))
    state = referee.referee.state
    east = state.east if state is not None else 0
    view = hand_view(state, hand, ended=referee.ended, concealed=True, names=names)
    at = seqs.index(upto)
    body = bodies[at]
    step = event_row({"stream": "play", "seq": upto, "type": body["type"], "body": body, "answer": answers[-1],
                      "received_at": None}, east, names, True)
    if body["type"] in ("draw", "tail_draw") and not step["tile_list"] and state is not None \
            and state.drawn is not None:
        step.update(tile_list=[state.drawn], tiles=_tile_zh(state.drawn))  # a digital table's wall knew it
    given = [ruling_summary({"table": table_id, "hand": hand, "id": r["id"], "seq": r.get("seq"), "kind": r["kind"],
                             "code": r["code"], "clause": r.get("clause"), "seat": r.get("seat"),
                             "status": "standing", "ruling": r, "effective": {"payments": r.get("payments")}},
                            east, names) for r in referee.rulings]
    return render_template("console_replay.html", table=table, hand=hand, seqs=seqs, upto=upto, at=at, view=view,
                           step=step, answer=answers[-1], rulings=given, verdicts=VERDICT_ZH,
                           prev=seqs[at - 1] if at > 0 else None, next=seqs[at + 1] if at + 1 < len(seqs) else None)


# --- a ruling -----------------------------------------------------------------------------------


def _ruling(table_id: str, hand: int, ruling_id: str) -> dict:
    found = ts.rulings(get_db(), table_id=table_id, hand=hand, ruling_id=ruling_id)
    if not found:
        raise PageError(404, f"桌「{table_id}」第 {hand} 盤沒有裁定「{ruling_id}」。",
                        f"Table {table_id!r} hand {hand} has no ruling {ruling_id!r}.", field="ruling")
    return found[0]


def _hand_east(table: dict, hand: int) -> int:
    referee, _ = replay_hand(table, hand, ts.play_bodies(get_db(), table["id"], hand))
    state = referee.referee.state
    return state.east if state is not None else 0


def ruling_page_data(table: dict, hand: int, ruling_id: str) -> dict:
    """Everything the ruling page prints: what happened, the clause, the words to read out,
    the effects, the payments by wind and name, the audit trail."""
    db = get_db()
    r = _ruling(table["id"], hand, ruling_id)
    names = [n or "" for n in players_at(db, table) or ("", "", "", "")]  # the console's, else the 將's
    east = _hand_east(table, hand)
    ruling = r["ruling"]
    clause = r.get("clause") or ruling.get("clause")
    heading, text = clauses().get(clause, ("", "")) if clause else ("", "")
    seqs = sorted(set(ruling.get("evidence") or ([r["seq"]] if r.get("seq") is not None else [])))
    events = {e["seq"]: e for e in ts.events(db, table["id"], hand=hand)}
    happened = [event_row(events[s], east, names, True) for s in seqs if s in events]
    effects = [{"zh": e.get("zh") or EFFECTS.get(e.get("kind"), ("", ""))[0],
                "en": e.get("en") or EFFECTS.get(e.get("kind"), ("", ""))[1],
                "seat": seat_label(e.get("seat"), east, names) if isinstance(e.get("seat"), int) else ""}
               for e in ruling.get("effects") or ()]
    original = list(ruling.get("payments") or (0, 0, 0, 0))
    effective = list(r["effective"].get("payments") or (0, 0, 0, 0))
    seats = [{"seat": s, "wind_zh": WINDS_ZH[seat_wind(s, east)], "wind_en": WINDS_EN[seat_wind(s, east)],
              "name": names[s], "original": original[s], "effective": effective[s]}
             for s in sorted(range(4), key=lambda s: seat_wind(s, east))]  # 東 南 西 北
    audit = ts.overrides(db, table["id"], hand=hand, ruling_id=ruling_id)
    return {"table": table, "hand": hand, "r": ruling_summary(r, east, names), "ruling": ruling, "clause": clause,
            "heading": heading, "clause_text": text, "cite": cite_zh(clause) if clause else "", "happened": happened,
            "effects": effects, "seats": seats, "audit": audit, "seqs": seqs,
            "decisions": DECISIONS_ZH}


@bp.get("/tables/<table_id>/hands/<int:hand>/rulings/<ruling_id>")
def ruling_page(table_id: str, hand: int, ruling_id: str):
    """裁定 A ruling, to read out and print; an official overrules, amends or reinstates it here."""
    table = _table(table_id)
    _read("rulings", table_id)
    data = ruling_page_data(table, hand, ruling_id)
    data["may_override"] = (g.get("person") is not None and g.person.is_official)
    return render_template("console_ruling.html", **data, errors={}, values={})


@bp.post("/tables/<table_id>/hands/<int:hand>/rulings/<ruling_id>")
def override_post(table_id: str, hand: int, ruling_id: str):
    person = _official()
    table = _table(table_id)
    _ruling(table_id, hand, ruling_id)
    form = request.form
    values = {k: form.get(k, "") for k in ("decision", "reason_zh", "reason", "p0", "p1", "p2", "p3")}
    errors: dict[str, tuple[str, str]] = {}
    body: dict[str, Any] = {"hand": hand, "ruling": ruling_id, "decision": values["decision"],
                            "reason_zh": values["reason_zh"], "reason": values["reason"]}
    if values["decision"] == "amend":
        payments = []
        for seat in range(4):
            raw = values[f"p{seat}"].strip()
            try:
                payments.append(int(raw))
            except ValueError:
                errors[f"p{seat}"] = ("須為整數（付出為負）", "a whole number (negative when paying)")
        body["payments"] = payments
    if not errors:
        try:
            data = OverrideRequestSchema().load(body)  # the API's own checks (api/overrides.py)
        except ValidationError as error:
            errors = _form_errors(error.normalized_messages())
    if errors:
        page = ruling_page_data(table, hand, ruling_id)
        return render_template("console_ruling.html", **page, may_override=True, errors=errors, values=values), 400
    service().override(table_id, hand=data["hand"], ruling=data["ruling"], decision=data["decision"],
                       reason=data["reason"], reason_zh=data["reason_zh"], payments=data["payments"],
                       principal=person.principal)
    return redirect(url_for("console.ruling_page", table_id=table_id, hand=hand, ruling_id=ruling_id, done=1))


def _form_errors(messages: dict) -> dict[str, tuple[str, str]]:
    """The schema's messages by the form's fields (``payments`` → the first amount), each in
    zh-TW and English (:func:`services.validation.reason_zh`, as the API's problems say them)."""
    out: dict[str, tuple[str, str]] = {}
    for name, message in messages.items():
        _path, text = first_error(message)
        field = {"payments": "p0", "reason": "reason_zh", "_schema": "decision"}.get(name, name)
        out.setdefault(field, _split_bilingual(reason_zh(text)))
    return out


def _split_bilingual(text: str) -> tuple[str, str]:
    """「覆判須寫明理由 an override needs a reason」 → its zh-TW and English parts (a text with
    no English part is both)."""
    m = re.search(r"[（(]?[A-Za-z][^\u2e80-\u9fff]*$", text)
    if m is None or m.start() == 0:
        return text, text
    english = m.group(0).strip()
    if english.startswith("（") and english.endswith("）"):
        english = english[1:-1]
    return text[:m.start()].strip(), english


# --- report an irregularity ---------------------------------------------------------------------


def report_codes() -> list[dict]:
    return [{"code": code, "clause": clause, "zh": zh, "en": en} for code, (clause, zh, en) in REPORTS.items()]


def _report_context(table: dict) -> dict:
    db = get_db()
    index = ts.hand_index(db, table["id"])
    hand = index[-1]["hand"] if index else None
    names = pin_store.seat_names(db, table["id"])
    east = _hand_east(table, hand) if hand is not None else 0
    seats = [(s, seat_label(s, east, names), seat_label_en(s, east, names)) for s in range(4)]
    return {"table": table, "hand": hand, "codes": report_codes(), "seats": seats,
            "next_seq": index[-1]["last_seq"] + 1 if index else None}


@bp.get("/tables/<table_id>/report")
def report_page(table_id: str):
    """報告違規 Report an irregularity (officials): the code, the seat, the evidence."""
    _official()
    table = _table(table_id)
    return render_template("console_report.html", **_report_context(table), errors={}, values={})


@bp.post("/tables/<table_id>/report")
def report_post(table_id: str):
    person = _official()
    table = _table(table_id)
    form = request.form
    values = {k: form.get(k, "") for k in ("code", "seat", "note")}
    context = _report_context(table)
    errors: dict[str, tuple[str, str]] = {}
    if values["code"] not in REPORTS:
        errors["code"] = ("請選擇報告代碼", "choose a report code")
    seat = None
    if values["seat"] != "":
        try:
            seat = int(values["seat"])
        except ValueError:
            seat = -1
        if seat not in range(4):
            errors["seat"] = ("座位須為 0–3", "the seat is 0–3")
    if len(values["note"]) > MAX_TEXT:
        errors["note"] = (f"證據說明最多 {MAX_TEXT} 字", f"the evidence is at most {MAX_TEXT} characters")
    if context["hand"] is None:
        errors["code"] = ("此桌尚無牌局，無從報告", "the table has no hand yet to report on")
    if not errors:
        raw: dict[str, Any] = {"type": "report", "hand": context["hand"], "seq": context["next_seq"],
                               "code": values["code"], "clause": REPORTS[values["code"]][0]}
        if seat is not None:
            raw["seat"] = seat
        if values["note"].strip():
            raw["note"] = values["note"].strip()
        try:
            answer = service().ingest(table_id, service().table_row(table_id, get_db), [raw], batch=False,
                                      actor=person.principal.id, open_db=get_db)
        except (ApiProblem, MjrefError) as error:
            field = getattr(error, "field", "") or ""
            reason = (getattr(error, "detail_zh", None) or getattr(error, "reason_zh", None) or str(error),
                      getattr(error, "detail", None) or str(error))
            errors["seat" if "seat" in field else "code"] = reason
        else:
            result = answer.results[0]
            rulings = result.get("rulings") or []
            east = _hand_east(table, context["hand"])
            names = pin_store.seat_names(get_db(), table_id)
            shown = [ruling_summary(r, east, names) for r in ts.rulings(get_db(), table_id=table_id,
                                                                         hand=context["hand"])
                     if r["id"] in {x["id"] for x in rulings}]
            code_zh, code_en = report_title(values["code"])
            seat = values.get("seat")
            who = seat_label(int(seat), east, names) if str(seat or "").isdigit() and int(seat) < 4 else ""
            return render_template("console_reported.html", table=table, hand=context["hand"], result=result,
                                   rulings=shown, verdicts=VERDICT_ZH, code=values["code"], code_zh=code_zh,
                                   code_en=code_en, who=who)
    return render_template("console_report.html", **context, errors=errors, values=values), 400


def _tile_zh(tile: Any) -> str:
    from referee.tiles import tile_name

    return tile_name(int(tile), "zh")


def init_app(app) -> None:
    signin.init_app(app)
    app.register_blueprint(bp)
    app.add_template_filter(_tile_zh, "tile_zh")
    app.add_template_global(signin.csrf_token, "csrf_token")  # globals: imported macros see them too
    app.add_template_global(signin.CSRF_FIELD, "CSRF_FIELD")


# --- a physical table's scorer page (issue #14 item 7) ----------------------------------------------

#: the events a scorer taps, in the order play needs them: (wire type, zh-TW, English)
SCORER_EVENTS = (
    ("hand_start", "開局", "start a hand"), ("break_dice", "開門骰", "break dice"), ("deal", "配牌", "deal"),
    ("flower", "補花", "flower"), ("draw", "摸牌", "draw"), ("tail_draw", "槓尾補牌", "replacement"),
    ("discard", "打牌", "discard"), ("chow", "吃", "chow"), ("pung", "碰", "pung"), ("kong", "槓", "kong"),
    ("ready", "聽", "ready"), ("pass", "不要", "pass"), ("win", "胡", "win"), ("call", "喊牌", "call"),
    ("touch_wall", "伸手摸牌", "reaches to the wall"), ("place", "靠張", "places the drawn tile"),
    ("reveal", "亮牌", "shows tiles"), ("skip_last_tile", "海底棄摸", "skips the last tile"),
    ("hand_end", "結束", "end the hand"),
)
_SCORER_TYPES = {t for t, _zh, _en in SCORER_EVENTS}
_KINDS = {"kong": (("melded", "明槓"), ("added", "加槓"), ("concealed", "暗槓")),
          "ready": (("declared", "宣告聽牌"), ("heavenly", "天聽"), ("earthly", "地聽")),
          "call": (("pung", "喊碰"), ("chow", "喊吃"), ("kong", "喊槓"), ("win", "喊胡"))}
_ROUND_WINDS = (("east", "東風圈"), ("south", "南風圈"), ("west", "西風圈"), ("north", "北風圈"))
#: an event's fields the referee may name, and the form's field showing the error
_FIELD_OF = {"tiles": "tiles", "tile": "tiles", "seat": "seat", "count": "count", "kind": "kind", "dice": "dice",
             "dealer": "seat", "round_wind": "round_wind", "streak": "streak"}


def _scorer(table_id: str) -> signin.Person:
    """The table's own scorer (its table token, or a PIN standing for it) or an official."""
    person = g.get("person")
    if person is None:
        raise SignInNeeded()
    caller.check_post_events(table_id)  # the API's rule: 403 for another table's token
    return person


def _scorer_context(table: dict) -> dict:
    db = get_db()
    index = ts.hand_index(db, table["id"])
    names = pin_store.seat_names(db, table["id"])
    hand = index[-1]["hand"] if index else None
    east, view = (_hand_state(table, hand, index[-1]["last_seq"], names, True) if index else (0, None))
    recent = [event_row(e, east, names, True) for e in ts.events(db, table["id"], hand=hand)[-6:]] if index else []
    seats = [(s, f"{WINDS_ZH[seat_wind(s, east)]}家", WINDS_EN[seat_wind(s, east)], names[s]) for s in range(4)]
    if view is not None:
        seats.sort(key=lambda row: seat_wind(row[0], east))
    return {"table": table, "hand": hand, "view": view, "recent": recent, "seats": seats,
            "next": (index[-1]["hand"], index[-1]["last_seq"] + 1) if index else None,
            "events": SCORER_EVENTS, "kinds": _KINDS, "round_winds": _ROUND_WINDS, "verdicts": VERDICT_ZH,
            "all_tiles": list(range(42))}


@bp.get("/tables/<table_id>/score")
def scorer_page(table_id: str):
    """計分 A physical table's scorer page: tap what happens, the protocol's events are posted."""
    table = _table(table_id)
    _scorer(table_id)
    return render_template("console_score.html", **_scorer_context(table), errors={}, values={},
                           posted=request.args.get("posted"))


def scorer_event(form: Mapping[str, str], head: tuple[int, int] | None, ts_ms: int) -> tuple[dict, dict]:
    """The protocol event a scorer's form stands for, at the position after *head* (a
    ``hand_start`` opens the next hand), and the form's errors by field (zh-TW, English)."""
    errors: dict[str, tuple[str, str]] = {}
    etype = form.get("type", "")
    if etype not in _SCORER_TYPES:
        return {}, {"type": ("請選擇事件", "choose what happened")}
    if etype == "hand_start":
        hand, seq = (1 if head is None else head[0] + 1), 1
    elif head is None:
        return {}, {"type": ("請先開局", "start a hand first")}
    else:
        hand, seq = head[0], head[1] + 1
    raw: dict[str, Any] = {"type": etype, "hand": hand, "seq": seq, "ts": ts_ms}
    seat_text = form.get("seat", "")
    seat = int(seat_text) if seat_text in ("0", "1", "2", "3") else None
    if seat_text and seat is None:
        errors["seat"] = ("座位須為 0–3", "the seat is 0–3")
    if etype == "hand_start":
        if seat is None:
            errors.setdefault("seat", ("請選擇莊家", "choose the dealer"))
        raw["dealer"] = seat
        raw["round_wind"] = form.get("round_wind") or "east"
        streak = form.get("streak", "0").strip() or "0"
        if not streak.isdigit():
            errors["streak"] = ("連莊須為 0 以上的整數", "the streak is a whole number ≥ 0")
        else:
            raw["streak"] = int(streak)
    elif etype != "hand_end" and etype != "break_dice":
        if seat is None:
            errors.setdefault("seat", ("請選擇座位", "choose the seat"))
        raw["seat"] = seat
    tiles = form.get("tiles", "").strip()
    if tiles:
        raw["tiles"] = tiles
    count = form.get("count", "").strip()
    if count:
        if not count.isdigit():
            errors["count"] = ("張數須為整數", "the count is a whole number")
        else:
            raw["count"] = int(count)
    elif etype in ("deal", "draw", "tail_draw") and not tiles:
        raw["count"] = 4 if etype == "deal" else 1  # unseen tiles (a physical table)
    if etype in _KINDS:
        raw["kind"] = form.get("kind") or _KINDS[etype][0][0]
    if etype == "break_dice":
        dice = form.get("dice", "").replace(",", " ").split()
        if not dice or not all(d.isdigit() for d in dice):
            errors["dice"] = ("請填骰子點數，如 3 4 5", "enter the dice, e.g. 3 4 5")
        else:
            raw["dice"] = [int(d) for d in dice]
        if seat is not None:
            raw["seat"] = seat
    return raw, errors


@bp.post("/tables/<table_id>/score")
def scorer_post(table_id: str):
    table = _table(table_id)
    person = _scorer(table_id)
    head = ts.stream_head(get_db(), table_id)
    raw, errors = scorer_event(request.form, head, int(_now().timestamp() * 1000))
    if not errors:
        try:
            service().ingest(table_id, service().table_row(table_id, get_db), [raw], batch=False,
                             actor=person.principal.id, open_db=get_db)
        except (ApiProblem, MjrefError) as error:
            field = (getattr(error, "field", None) or "").rpartition(".")[2]
            errors[_FIELD_OF.get(field, "type")] = (
                getattr(error, "detail_zh", None) or getattr(error, "reason_zh", None) or str(error),
                getattr(error, "detail", None) or str(error))
        else:
            return redirect(url_for("console.scorer_page", table_id=table_id, posted=f"{raw['hand']}.{raw['seq']}"))
    values = {k: request.form.get(k, "") for k in ("type", "seat", "tiles", "count", "kind", "dice", "round_wind",
                                                   "streak")}
    return render_template("console_score.html", **_scorer_context(table), errors=errors, values=values,
                           posted=None), 400


# --- PINs for a table's scorers (admins) ------------------------------------------------------------


def _admin() -> signin.Person:
    person = g.get("person")
    if person is None:
        raise SignInNeeded()
    if person.role != "admin":
        raise PageError(403, f"此操作限管理者（admin）；您以 {person.role} 身分登入。",
                        f"This is for admins; you are signed in as {person.role}.", field="role")
    return person


def _pins_page(table: dict, *, issued: dict | None = None, errors: dict | None = None, values: dict | None = None,
               status: int = 200):
    pins = [p for p in pin_store.list_pins(get_db()) if p["table"] == table["id"]]
    return render_template("console_pins.html", table=table, pins=pins, issued=issued, errors=errors or {},
                           values=values or {}), status


@bp.get("/tables/<table_id>/pins")
def pins_page(table_id: str):
    """計分員 PIN A table's scorers' PINs (admins): issue one (shown once), revoke one."""
    _admin()
    return _pins_page(_table(table_id))


@bp.post("/tables/<table_id>/pins")
def pins_post(table_id: str):
    _admin()
    table = _table(table_id)
    label = request.form.get("label", "").strip()
    if not label or len(label) > MAX_NAME:
        return _pins_page(table, errors={"label": (f"請填寫持有人（最多 {MAX_NAME} 字）",
                                                   f"name who holds it (at most {MAX_NAME} characters)")},
                          values={"label": label}, status=400)
    pin, row = get_writer().submit(lambda tx: create_pin(tx.db, table=table_id, label=label))
    return _pins_page(table, issued={**row, "pin": pin})


@bp.post("/tables/<table_id>/pins/<int:pin_id>/revoke")
def pins_revoke(table_id: str, pin_id: int):
    _admin()
    _table(table_id)
    row = pin_store.get_pin(get_db(), pin_id)
    if row is None or row["table"] != table_id:
        raise PageError(404, f"桌「{table_id}」沒有 PIN {pin_id}。", f"Table {table_id!r} has no PIN {pin_id}.",
                        field="pin_id")
    get_writer().submit(lambda tx: pin_store.revoke_pin(tx.db, pin_id))
    return redirect(url_for("console.pins_page", table_id=table_id))

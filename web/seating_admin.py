"""The organisers' seating pages (issue #15 item 2): a round seated by hand or from a CSV file,
a 將's 搬風 recorded from its table, a round's seating published.

==========================================  ======================================================================
``/t/<tid>/seating/<r>/edit``               seat round ``r`` by hand: one line a table, ``桌號,東,南,西,北``
                                            (選手代號或姓名；``替補`` or blank: a substitute's seat), pasted or
                                            uploaded as CSV (UTF-8, Big5); errors by line, nothing written
``/t/<tid>/seating/<r>/<t>/<m>/banfeng``    搬風 of a 將 as its table drew it (``seat.banfeng``: the thrower, the
                                            dice, the wind tiles in drawing order) and its 定莊 dice
                                            (``seat.dealer``), or both drawn here
``/t/<tid>/seating/<r>/<t>/<w>/substitute``  a registered 替補 takes table ``t``'s substitute seat at wind ``w``
``/t/<tid>/seating/<r>/by-standings``       seat round ``r`` by the standings of the rounds before it (R-tour-28)
``/t/<tid>/seating/withdraw``               a player withdraws before a round (later rounds re-seated)
``/t/<tid>/seating/<r>/publish``            publish round ``r``'s seating on the hall screen now (the clock's
                                            ``SeatingPublished``; the clock must be set, ``/t/<tid>/clock``)
==========================================  ======================================================================

Officials and admins, on the console's sign-in and form token (:mod:`web.signin`). Every form
is turned into the API's request body, loaded by the API's schema and written by the API's own
command (:func:`services.tournament_commands.seat_round_for`, :func:`~services.tournament_commands.draw_for`,
:func:`services.clock_commands.official_action`): the same checks, errors and log.
"""
from __future__ import annotations

import csv
import io
import re

from flask import Blueprint, redirect, render_template, request, url_for
from marshmallow import ValidationError

from referee.errors import MjrefError
from referee.tiles import Wind
from services import tournament_commands as commands
from services.clock_commands import official_action
from services.problems import ApiProblem
from services.tournament_schemas import (
    ByStandingsSchema, MatchDrawSchema, RoundSeatsSchema, SubstituteSchema, WithdrawalSchema,
)
from services.tournament_write import load
from services.validation import first_error, reason_zh
from tournament.clock import SeatingPublished
from web import console
from web.errors import PageError
from web.setup import LineError, _official, posted_list, refusal, render_seating

bp = Blueprint("seating_admin", __name__, url_prefix="/t/<tid>/seating", template_folder="templates")
bp.before_request(console._session_first)  # who is signed in; a POST's form token (CSRF)
bp.register_error_handler(PageError, console._page_error)
bp.register_error_handler(console.SignInNeeded, console._sign_in)
bp.register_error_handler(ApiProblem, console._problem)

#: what stands for a substitute's seat (``null`` in the API's seats)
SUBSTITUTE_CELLS = {"", "替補", "（替補）", "替补", "-", "—", "substitute", "sub"}
HEADER_CELLS = {"桌", "桌號", "table", "東", "east"}
WINDS_ZH = [w.zh for w in Wind]
WINDS_EN = ["East", "South", "West", "North"]


def _round(loaded, r: int):
    if not 1 <= r <= loaded.settings.rounds:
        raise PageError(404, f"沒有第 {r} 輪（共 {loaded.settings.rounds} 輪）。",
                        f"There is no round {r} (of {loaded.settings.rounds}).", field="round")
    return loaded.state.round(r)


# --- a round seated by hand, or from a CSV file ------------------------------------------------------


def resolve(cell: str, players) -> str | None:
    """The player a cell names: an id, else a name that only one player has; ``None`` for a
    substitute's seat.

    :raises ValueError: ``(zh, en)`` when the cell names nobody, or a name two players share.
    """
    text = cell.strip()
    if text.lower() in SUBSTITUTE_CELLS:
        return None
    by_id = [p for p in players if p.player_id == text]
    if by_id:
        return text
    named = [p for p in players if p.name == text]
    if len(named) == 1:
        return named[0].player_id
    if named:
        raise ValueError(f"「{text}」有 {len(named)} 位同名選手，請用代號（{'、'.join(p.player_id for p in named)}）",
                         f"{len(named)} players are called {text!r}: use the id")
    raise ValueError(f"「{text}」不是已登錄選手的代號或姓名", f"{text!r} is no registered player's id or name")


def parse_seating(text: str, players) -> tuple[list[dict], list[int]]:
    """The tables a list seats (``桌號,東,南,西,北`` a line; commas, tabs or 、), and the line of each.

    :raises LineError: a line that is not a table number and four seats, a seat naming nobody, a
        player or a table on two lines (the round's other checks are the API's, by the table's line).
    """
    tables, lines = [], []
    seen: dict[str, int] = {}  # player → the line seating them
    tables_at: dict[int, int] = {}  # table → its line
    rows = csv.reader(io.StringIO(text.replace("\t", ",").replace("、", ",")))
    for index, row in enumerate(rows, 1):
        cells = [c.strip() for c in row]
        while len(cells) > 5 and cells[-1] == "":
            cells.pop()
        if not any(cells) or cells[0].startswith("#"):
            continue
        if not tables and cells[0].lower() in HEADER_CELLS:
            continue  # a header
        if len(cells) != 5:
            raise LineError(index, f"每行須為 桌號,東,南,西,北 五欄，此行有 {len(cells)} 欄",
                            f"a line is table,east,south,west,north: five fields, this one has {len(cells)}")
        if not cells[0].isdigit():
            raise LineError(index, f"桌號須為正整數，收到「{cells[0]}」",
                            f"the table is a whole number, got {cells[0]!r}")
        number = int(cells[0])
        if number in tables_at:
            raise LineError(index, f"第 {number} 桌已在第 {tables_at[number]} 行",
                            f"table {number} is on line {tables_at[number]} already")
        tables_at[number] = index
        seats = []
        for wind, wind_en, cell in zip(WINDS_ZH, WINDS_EN, cells[1:]):
            try:
                seat = resolve(cell, players)
            except ValueError as exc:
                zh, en = exc.args
                raise LineError(index, f"{wind}：{zh}", f"{wind_en}: {en}") from None
            if seat is not None and seat in seen:
                raise LineError(index, f"{wind}：「{cell}」已排在第 {seen[seat]} 行",
                                f"{wind_en}: {cell!r} is seated on line {seen[seat]} already")
            if seat is not None:
                seen[seat] = index
            seats.append(seat)
        tables.append({"table": number, "seats": seats})
        lines.append(index)
    if not tables:
        raise LineError(0, "座位表是空的", "the seating is empty")
    return tables, lines


def seating_text(loaded, plan) -> str:
    """A round's seating as the form's lines (ids), for editing."""
    if plan is None:
        return ""
    return "\n".join(",".join([str(t.table)] + [p or "替補" for p in t.seats]) for t in plan.tables)


def _edit_page(tid: str, r: int, *, values=None, errors=None, status: int = 200):
    loaded = load(tid)
    plan = _round(loaded, r)
    names = {p.player_id: p.name for p in loaded.state.players}
    return render_template("seating_edit.html", tid=tid, name=loaded.settings.name, r=r, plan=plan, names=names,
                           values=values or {"list": seating_text(loaded, plan)}, errors=errors or [],
                           players=loaded.state.players), status


@bp.get("/<int:r>/edit")
def edit_page(tid: str, r: int):
    """手動排座 Seat a round by hand, or upload its seating."""
    _official()
    return _edit_page(tid, r)


@bp.post("/<int:r>/edit")
def edit_post(tid: str, r: int):
    person = _official()
    loaded = load(tid)
    _round(loaded, r)
    values = {"list": request.form.get("list", "")}
    try:
        text = posted_list()
        values = {"list": text}  # a file's text shown back in the form
        tables, lines = parse_seating(text, loaded.state.players)
    except LineError as error:
        return _edit_page(tid, r, values=values, errors=[(error.line, error.zh, error.en)], status=400)
    try:
        data = RoundSeatsSchema().load({"tables": tables})
        commands.seat_round_for(tid, r, data, actor=person.principal.id)
    except ValidationError as error:
        field, message = first_error(error.messages)
        return _edit_page(tid, r, values=values, status=400,
                          errors=[(_line_of(field, lines), reason_zh(message), message)])
    except ApiProblem as problem:
        return _edit_page(tid, r, values=values, status=problem.code,
                          errors=[(_line_of(problem.field, lines), problem.detail_zh, problem.detail)])
    return redirect(url_for("setup.seating_page", tid=tid, seated=r) + f"#round-{r}")


def _line_of(field: str | None, lines: list[int]) -> int:
    """The line a field path names (``tables[2].seats`` → the 3rd table's line); 0 if none."""
    m = re.match(r"tables\[(\d+)\]", field or "")
    return lines[int(m.group(1))] if m and int(m.group(1)) < len(lines) else 0


# --- 搬風 of a 將, as its table drew it ----------------------------------------------------------------


def _draw_context(loaded, r: int, t: int, m: int) -> dict:
    state = loaded.state
    plan = _round(loaded, r)
    table = next((x for x in plan.tables if x.table == t), None) if plan else None
    if table is None:
        raise PageError(404, f"第 {r} 輪沒有第 {t} 桌。", f"Round {r} has no table {t}.", field="table")
    if not 1 <= m <= state.settings.matches_per_round:
        raise PageError(404, f"沒有第 {m} 將。", f"There is no 將 {m}.", field="match")
    names = {p.player_id: p.name for p in state.players}
    if m == 1:
        seats = list(table.seats)
        thrower = None
    else:
        previous, thrower = commands.previous_match(loaded, r, t, m)
        seats = list(previous.players)
    drawn = loaded.provenance.draws.get((r, t, m))
    now = dict(state.match_seatings).get((r, t, m))
    return {"r": r, "table": t, "m": m,
            "seats": [(k, WINDS_ZH[k], names.get(p, "替補") if p else "替補") for k, p in enumerate(seats)],
            "rule_thrower": thrower, "drawn": drawn,
            "now": [(WINDS_ZH[k], names.get(p, p)) for k, p in enumerate(now.players)] if now else None,
            "dealer_name": names.get(now.players[drawn.dealer_draw.dealer]) if drawn and now else None}


def _banfeng_page(tid: str, r: int, t: int, m: int, *, values=None, errors=None, status: int = 200):
    loaded = load(tid)
    context = _draw_context(loaded, r, t, m)
    return render_template("seating_banfeng.html", tid=tid, name=loaded.settings.name, winds=WINDS_ZH,
                           values=values or {}, errors=errors or {}, **context), status


@bp.get("/<int:r>/<int:t>/<int:m>/banfeng")
def banfeng_page(tid: str, r: int, t: int, m: int):
    """搬風 Record a 將's 搬風 and 定莊 as the table drew them, or draw them here."""
    _official()
    return _banfeng_page(tid, r, t, m)


def _numbers(raw: str) -> list:
    return [int(d) if d.isdigit() else d for d in raw.replace(",", " ").replace("、", " ").split()]


def banfeng_body(form) -> dict:
    """The API's ``POST …/draw`` body a 搬風 form stands for: the recorded draw (thrower, dice,
    tiles in drawing order) and the 定莊 dice; ``action=generate``: both drawn here."""
    thrower = form.get("thrower", "").strip()
    body: dict = {"thrower": int(thrower) if thrower.isdigit() else (thrower or None)}
    if form.get("action") == "generate":
        return body
    tiles = [form.get(f"tile{k}", "") for k in range(4)]
    rule = form.get("rule_thrower", "").strip()
    # blank: the rule's thrower (the previous 將's last winner), at the first 將 seat 0 (the schedule's East)
    draw_thrower = body["thrower"] if body["thrower"] is not None else int(rule) if rule.isdigit() else 0
    body["draws"] = [{"thrower": draw_thrower, "dice": _numbers(form.get("dice", "")), "tiles": tiles}]
    body["dealer_dice"] = _numbers(form.get("dealer_dice", ""))
    return body


#: the form's fields as the page names them (zh-TW, English)
FIELD_LABELS = {"thrower": ("擲骰者", "the thrower"),
                "dice": ("搬風骰子須為三顆 1–6", "the draw's dice are three of 1–6"),
                "tile0": ("風牌", "the wind tiles"),
                "dealer_dice": ("定莊骰子須為三顆 1–6", "the 定莊 dice are three of 1–6")}
#: where a draw's error shows on the form
FORM_FIELDS = {"thrower": "thrower", "draws": "dice", "dice": "dice", "tiles": "tile0", "dealer_dice": "dealer_dice"}


def _form_field(field: str | None) -> str:
    field = field or "dice"
    for part in reversed(field.replace("[", ".").replace("]", "").split(".")):
        if part in FORM_FIELDS:
            return FORM_FIELDS[part]
    return "dice"


@bp.post("/<int:r>/<int:t>/<int:m>/banfeng")
def banfeng_post(tid: str, r: int, t: int, m: int):
    person = _official()
    values = {k: v for k, v in request.form.items() if k != "csrf_token"}
    try:
        data = MatchDrawSchema().load(banfeng_body(request.form))
        commands.draw_for(tid, r, t, m, data, actor=person.principal.id)
    except ValidationError as error:
        field, message = first_error(error.messages)
        label = FIELD_LABELS.get(_form_field(field), ("", ""))
        return _banfeng_page(tid, r, t, m, values=values, status=400,
                             errors={_form_field(field): (f"{label[0]}：{reason_zh(message)}",
                                                          f"{label[1]}: {message}")})
    except (ApiProblem, MjrefError) as problem:
        zh, en, status = refusal(problem)
        return _banfeng_page(tid, r, t, m, values=values, status=status, errors={_form_field(problem.field): (zh, en)})
    return redirect(url_for("setup.seating_page", tid=tid) + f"#r{r}t{t}")


# --- a substitute takes a 替補 seat ---------------------------------------------------------------------


@bp.post("/<int:r>/<int:t>/<int:wind>/substitute")
def substitute_post(tid: str, r: int, t: int, wind: int):
    """替補入座 A registered substitute takes round ``r`` table ``t``'s 替補 seat at ``wind`` (0 東 … 3 北)."""
    person = _official()
    _round(load(tid), r)
    field = f"sub-{r}-{t}-{wind}"
    if not 0 <= wind <= 3:
        raise PageError(404, "沒有此風位。", "There is no such wind.", field="wind")
    try:
        data = SubstituteSchema().load({"table": t, "wind": Wind(wind).name,
                                        "player_id": request.form.get("player_id", "")})
        commands.substitute_for(tid, r, data, actor=person.principal.id)
    except ValidationError as error:
        name, message = first_error(error.messages)
        return render_seating(tid, errors={field: (f"「{name}」{reason_zh(message)}", f"{name}: {message}")},
                              status=400)
    except (ApiProblem, MjrefError) as problem:
        zh, en, status = refusal(problem)
        return render_seating(tid, errors={field: (zh, en)}, status=status)
    return redirect(url_for("setup.seating_page", tid=tid) + f"#r{r}t{t}")


# --- a (final) round seated by the standings -----------------------------------------------------------


@bp.post("/<int:r>/by-standings")
def by_standings_post(tid: str, r: int):
    """依成績排座 Seat round ``r`` by the standings of the rounds before it (R-tour-28): the top
    four at table 1, and so on; a round with results is refused as when seated by hand."""
    person = _official()
    _round(load(tid), r)
    try:
        commands.seat_by_standings(tid, r, ByStandingsSchema().load({}), actor=person.principal.id)
    except ApiProblem as problem:
        return render_seating(tid, errors={f"standings-{r}": (problem.detail_zh, problem.detail)}, status=problem.code)
    return redirect(url_for("setup.seating_page", tid=tid, seated=r) + f"#round-{r}")


# --- a player withdraws ---------------------------------------------------------------------------------


@bp.post("/withdraw")
def withdraw_post(tid: str):
    """退賽 A player withdraws before a round: the later rounds are re-seated (``reseat``), the earlier kept."""
    person = _official()
    form = request.form
    before = form.get("before_round", "").strip()
    body = {"player_id": form.get("player_id", ""), "before_round": int(before) if before.isdigit() else before,
            "reason": form.get("reason", "").strip()}
    try:
        data = WithdrawalSchema().load(body)
        commands.withdraw_for(tid, data, actor=person.principal.id)
    except ValidationError as error:
        name, message = first_error(error.messages)
        return render_seating(tid, errors={"withdraw": (f"「{name}」{reason_zh(message)}", f"{name}: {message}")},
                              status=400, values=dict(form))
    except ApiProblem as problem:
        return render_seating(tid, errors={"withdraw": (problem.detail_zh, problem.detail)}, status=problem.code,
                              values=dict(form))
    return redirect(url_for("setup.seating_page", tid=tid, withdrew=body["player_id"]) + "#withdraw")


# --- publish a round's seating ------------------------------------------------------------------------


@bp.post("/<int:r>/publish")
def publish_post(tid: str, r: int):
    """公布座位 Publish round ``r``'s seating now: the hall screen shows it between rounds (the
    round in play stays on the screen while it is played)."""
    person = _official()
    _round(load(tid), r)
    try:
        official_action(tid, actor=person.principal.id, make=lambda _state, at: SeatingPublished(r, at))
    except ApiProblem as problem:
        return render_seating(tid, errors={f"publish-{r}": (problem.detail_zh, problem.detail)}, status=problem.code)
    return redirect(url_for("setup.seating_page", tid=tid, published=r) + f"#round-{r}")


def init_app(app) -> None:
    app.register_blueprint(bp)

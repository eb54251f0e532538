"""The organisers' setup pages (issue #15 item 1): create an event, import its players.

==============================  =====================================================================
``/t/new``                      create an event: id, name, ruleset, stakes 底/台, rounds, 將 per round,
                                round time (officials)
``/t/<tid>/players/import``     the players, and an import from a CSV file or a pasted list
                                (Chinese names; 替補 substitutes; errors by line) (officials)
``/t/<tid>/seating``            make the schedule (a seed) and see its quality (repeats, wind
                                balance); each table's 搬風 / 定莊 drawn, or its 定莊 dice recorded
                                (officials; :func:`services.tournament_commands.schedule_event`, ``draw_for``)
==============================  =====================================================================

On the officials' console's sign-in and form token (:mod:`web.signin`, the console's own
check before the request). A form is turned into the API's request body, loaded by the API's
schema (:class:`services.tournament_schemas.CreateTournamentSchema`, :class:`PlayersSchema`) and
written by the API's own commands (:func:`services.tournament_commands.create_event`, ``register`` …
→ :func:`services.tournament_write.write`): all or nothing, the same checks and errors.

A list's lines: ``名字``, or ``代號,名字``, or ``代號,名字,替補`` (``替補``/``substitute``/``1``/``是``
mark a substitute), or ``代號,名字,替補,隊伍`` (the 替補 field may be blank; the team of a team
event, R-tour-30); commas, tabs or 、 between fields; a first line ``代號,姓名…`` / ``id,name…`` is
a header; one that names a team column (隊伍/隊名/team) sets the columns of the rows below it
(代號, 姓名, 替補, 隊伍 in any order, any but 姓名 left out: ``姓名,隊伍``); blank lines and ``#``
comments are skipped. Without ids, players are numbered after those registered (``P001`` …). A file
is read as UTF-8 (a byte-order mark allowed, as Excel writes it), else Big5 (cp950, older zh-TW
Windows).
"""
from __future__ import annotations

import csv
import io
import re

from flask import Blueprint, current_app, g, redirect, render_template, request, url_for
from marshmallow import ValidationError

from services import tournament_commands as commands
from services.tournament_schemas import CreateTournamentSchema, MatchDrawSchema, PlayersSchema, ScheduleRequestSchema
from services.tournament_views import quality
from services.tournament_write import load
from services.validation import first_error, reason_zh
from tournament.clock import clock_state
from referee.errors import MjrefError
from referee.ruleset import available_profiles
from services.problems import ApiProblem, bad_request
from web import console
from web.errors import PageError
from web.times import DEFAULT_TIME_ZONE, ZONES

bp = Blueprint("setup", __name__, template_folder="templates")
bp.before_request(console._session_first)  # who is signed in; a POST's form token (CSRF)
bp.register_error_handler(PageError, console._page_error)
bp.register_error_handler(console.SignInNeeded, console._sign_in)
bp.register_error_handler(ApiProblem, console._problem)

INTEGERS = ("rounds", "matches_per_round", "base", "per_tai", "round_minutes")
SUBSTITUTE_WORDS = {"替補", "替补", "substitute", "sub", "1", "是", "y", "yes", "true"}
#: a header row's column names: what each column holds (R-tour-30 adds the team)
COLUMN_WORDS = {
    "id": {"id", "代號", "編號"},
    "name": {"name", "姓名", "名字"},
    "substitute": {"替補", "替补", "substitute", "sub"},
    "team": {"隊伍", "隊名", "隊", "team"},
}
HEADER_WORDS = COLUMN_WORDS["id"] | COLUMN_WORDS["name"]
#: the most bytes of a file read (2000 players fit many times over)
MAX_FILE = 512 * 1024


def _official():
    person = g.get("person")
    if person is None:
        raise console.SignInNeeded()
    return console._official()


def refusal(problem: ApiProblem | MjrefError) -> tuple[str, str, int]:
    """What a page says of a refused write: (zh-TW, English, status) — the API's problem as it
    is, a domain error (an impossible draw, entry …) as a 400."""
    if isinstance(problem, ApiProblem):
        return problem.detail_zh, problem.detail, problem.code
    return problem.reason_zh, problem.message, 400


def _schema_error(error: ValidationError) -> dict:
    field, message = first_error(error.messages)
    return {field: (reason_zh(message), message)}


# --- create an event ------------------------------------------------------------------------------


def event_body(form) -> dict:
    """The API's ``POST /tournaments`` body a form stands for (numbers as numbers, blank left out)."""
    body: dict = {}
    for name in ("id", "name", "ruleset", "time_zone", *INTEGERS):
        raw = form.get(name, "").strip()
        if raw == "":
            continue
        body[name] = int(raw) if name in INTEGERS and re.fullmatch(r"\d{1,12}", raw) else raw
    return body


def _event_form(values: dict, errors: dict, status: int = 200):
    return render_template("setup_event.html", values=values, errors=errors, profiles=available_profiles(),
                           zones=ZONES, default_zone=current_app.config.get("TIME_ZONE") or DEFAULT_TIME_ZONE), status


@bp.get("/t/new")
def new_event():
    """建立賽事 Create an event."""
    _official()
    return _event_form({"ruleset": "competition", "base": "100", "per_tai": "20", "rounds": "4",
                        "matches_per_round": "1"}, {})


@bp.post("/t/new")
def new_event_post():
    person = _official()
    values = {k: v for k, v in request.form.items() if k != "csrf_token"}
    try:
        data = CreateTournamentSchema().load(event_body(request.form))
        commands.create_event(data, actor=person.principal.id)
    except ValidationError as error:
        return _event_form(values, _schema_error(error), 400)
    except ApiProblem as problem:
        return _event_form(values, {problem.field or "id": (problem.detail_zh, problem.detail)}, problem.code)
    except MjrefError as exc:  # settings the event refuses (tournament.events.EventSettings: a time zone unknown)
        return _event_form(values, {exc.field or "id": (exc.reason_zh, exc.message)}, 400)
    return redirect(url_for("setup.players_page", tid=data["id"], created=1))


# --- players -----------------------------------------------------------------------------------------


class LineError(Exception):
    def __init__(self, line: int, zh: str, en: str):
        super().__init__(en)
        self.line, self.zh, self.en = line, zh, en


def read_file(data: bytes) -> str:
    """A CSV file's text: UTF-8 (with or without a BOM), else Big5 (cp950)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return data.decode("cp950")
        except UnicodeDecodeError:
            raise LineError(0, "檔案不是 UTF-8 或 Big5 文字", "the file is neither UTF-8 nor Big5 text") from None


def posted_list() -> str:
    """The list a form posted: the chosen file's text (at most :data:`MAX_FILE` bytes, UTF-8
    or Big5) when a file was chosen, else the text pasted into ``list``.

    :raises LineError: the file is too big or not text.
    """
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        data = upload.read(MAX_FILE + 1)
        if len(data) > MAX_FILE:
            raise LineError(0, f"檔案太大（上限 {MAX_FILE // 1024} KB）",
                            f"the file is too big (at most {MAX_FILE // 1024} KB)")
        return read_file(data)
    return request.form.get("list", "")


def parse_players(text: str, taken: set[str]) -> tuple[list[dict], list[int]]:
    """The players a list names, and the line of each (see the module docstring).

    :raises LineError: a line with no name, with more fields than 代號, 名字, 替補, 隊伍 (or
        than its header names), or a header naming a column this import does not know.
    """
    players, lines = [], []
    rows = csv.reader(io.StringIO(text.replace("\t", ",").replace("、", ",")))
    number = len(taken)
    columns: list[str] | None = None
    for index, row in enumerate(rows, 1):
        cells = [c.strip() for c in row]
        while cells and cells[-1] == "":
            cells.pop()
        if not cells or cells[0].startswith("#"):
            continue
        if not players and columns is None and {c.lower() for c in cells} & HEADER_WORDS:
            # a header: skipped, unless it names a team column; then the rows follow its columns
            if {c.lower() for c in cells} & COLUMN_WORDS["team"]:
                columns = _header(index, cells)
            continue
        if columns is not None:
            pid, name, substitute, team = _by_header(index, cells, columns)
        else:
            pid, name, substitute, team = _by_position(index, cells)
        if pid is None:
            number += 1
            while f"P{number:03d}" in taken:
                number += 1
            pid = f"P{number:03d}"
        if not name:
            raise LineError(index, "缺少名字", "the name is missing")
        taken = taken | {pid}
        player = {"id": pid, "name": name, "substitute": substitute}
        if team:
            player["team"] = team
        players.append(player)
        lines.append(index)
    return players, lines


def _header(index: int, cells: list[str]) -> list[str]:
    """What each column of a header row holds (``代號,姓名,隊伍`` → id, name, team)."""
    columns = []
    for cell in cells:
        kind = next((k for k, words in COLUMN_WORDS.items() if cell.lower() in words), None)
        if kind is None:
            raise LineError(index, f"不明的欄名「{cell}」：可用 代號、姓名、替補、隊伍",
                            f"unknown column {cell!r}: the columns are id, name, substitute, team")
        columns.append(kind)
    if "name" not in columns:
        raise LineError(index, "標題列缺少「姓名」欄", "the header has no name column")
    return columns


def _substitute(index: int, cell: str) -> bool:
    if cell and cell.lower() not in SUBSTITUTE_WORDS:
        raise LineError(index, f"替補欄須為「替補」或空白，收到「{cell}」",
                        f"the substitute field is 替補 (substitute) or blank, got {cell!r}")
    return bool(cell)


def _by_header(index: int, cells: list[str], columns: list[str]) -> tuple[str | None, str, bool, str | None]:
    if len(cells) > len(columns):
        raise LineError(index, f"欄位太多（{len(cells)}）：標題列只有 {len(columns)} 欄",
                        f"too many fields ({len(cells)}): the header names {len(columns)}")
    values = dict(zip(columns, cells))
    return (values.get("id") or None, values.get("name", ""), _substitute(index, values.get("substitute", "")),
            values.get("team") or None)


def _by_position(index: int, cells: list[str]) -> tuple[str | None, str, bool, str | None]:
    """名字 / 代號,名字 / 代號,名字,替補 / 代號,名字,替補,隊伍 (替補 may be blank) / 名字,替補."""
    if len(cells) > 4:
        raise LineError(index, f"欄位太多（{len(cells)}）：每行為 名字，或 代號,名字[,替補][,隊伍]",
                        f"too many fields ({len(cells)}): a line is name, or id,name[,substitute][,team]")
    team = cells.pop() or None if len(cells) == 4 else None
    substitute = False
    if len(cells) == 3 or (len(cells) == 2 and cells[1].lower() in SUBSTITUTE_WORDS and not _looks_like_id(cells[0])):
        if cells[-1] and cells[-1].lower() not in SUBSTITUTE_WORDS:
            raise LineError(index, f"第三欄須為「替補」或空白，收到「{cells[-1]}」",
                            f"the third field is 替補 (substitute) or blank, got {cells[-1]!r}")
        substitute = cells[-1].lower() in SUBSTITUTE_WORDS
        cells = cells[:-1]
    if len(cells) == 1:
        return None, cells[0], substitute, team
    return cells[0] or None, cells[1], substitute, team


def _looks_like_id(cell: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9_-]+", cell))


def _players_page(tid: str, *, values=None, errors=None, status: int = 200, added=None, team_error=None):
    loaded = load(tid)
    changed = loaded.state.player(request.args.get("team_changed", ""))
    return render_template("setup_players.html", tid=tid, name=loaded.settings.name, players=loaded.state.players,
                           rounds=loaded.settings.rounds,
                           values=values or {}, errors=errors or [], added=added, team_error=team_error,
                           team_changed=changed, created=request.args.get("created")), status


@bp.get("/t/<tid>/players/import")
def players_page(tid: str):
    """選手名單 The players; import a CSV file or a pasted list."""
    _official()
    return _players_page(tid)


@bp.post("/t/<tid>/players/import")
def players_post(tid: str):
    person = _official()
    loaded = load(tid)
    values = {"list": request.form.get("list", "")}
    try:
        text = posted_list()
        players, lines = parse_players(text, {p.player_id for p in loaded.state.players})
        if not players:
            raise LineError(0, "名單是空的", "the list is empty")
    except LineError as error:
        return _players_page(tid, values=values, errors=[(error.line, error.zh, error.en)], status=400)
    try:
        data = PlayersSchema().load({"players": players})
        commands.register(tid, data, actor=person.principal.id)
    except ValidationError as error:
        field, message = first_error(error.messages)
        return _players_page(tid, values=values, errors=[(_line_of(field, lines), reason_zh(message), message)],
                             status=400)
    except ApiProblem as problem:
        return _players_page(tid, values=values, errors=[(_line_of(problem.field, lines), problem.detail_zh,
                                                          problem.detail)], status=problem.code)
    return _players_page(tid, added=len(players))


@bp.post("/t/<tid>/players/team")
def team_post(tid: str):
    """改隊伍 A player's team set, changed or cleared (R-tour-32), from the players' page."""
    person = _official()
    player_id = request.form.get("player_id", "")
    team = request.form.get("team", "")
    reason = request.form.get("reason", "").strip()
    start = request.form.get("from_round", "").strip()  # blank: every round (the registration corrected)
    values = {"team_player": player_id, "team": team, "reason": reason, "from_round": start}
    try:
        if start and not start.isdigit():
            raise bad_request("bad_round", "from_round", f"from_round must be a round number, got {start!r}",
                              f"轉隊輪次須為輪次數字，收到「{start}」")
        commands.change_team(tid, player_id, team, reason, actor=person.principal.id,
                             from_round=int(start) if start else None)
    except ApiProblem as problem:
        return _players_page(tid, values=values, team_error=(problem.detail_zh, problem.detail, problem.field),
                             status=problem.code)
    return redirect(url_for("setup.players_page", tid=tid, team_changed=player_id) + "#players")


def _line_of(field: str | None, lines: list[int]) -> int:
    """The list's line a field path names (``players[3].name`` → the 4th player's line); 0 if none."""
    m = re.match(r"players\[(\d+)\]", field or "")
    return lines[int(m.group(1))] if m and int(m.group(1)) < len(lines) else 0


# --- seating ---------------------------------------------------------------------------------------


def render_seating(tid: str, *, errors=None, status: int = 200, values=None):
    loaded = load(tid)
    state = loaded.state
    seated = bool(state.rounds)
    names = {p.player_id: p.name for p in state.players}
    rounds = []
    for rnd in state.rounds:
        tables = []
        for plan in rnd.tables:
            draws = []
            for m in range(1, state.settings.matches_per_round + 1):
                drawn = loaded.provenance.draws.get((rnd.round, plan.table, m))
                seats = dict(state.match_seatings).get((rnd.round, plan.table, m))
                draws.append({"match": m, "dealer": drawn.dealer_draw.dealer if drawn else None,
                              "dice": " ".join(map(str, drawn.dealer_draw.dice)) if drawn else "",
                              "generated": drawn.generated if drawn else None,
                              "dealer_name": (names.get(seats.players[drawn.dealer_draw.dealer], "")
                                              if drawn and seats else "")})
            tables.append({"table": plan.table,
                           "seats": [names.get(p, "（替補）") if p else "（替補）" for p in plan.seats],
                           "draws": draws})
        rounds.append({"round": rnd.round, "tables": tables})
    check = quality(commands.schedule_of(loaded)) if seated else None
    seated_ids = {p for rnd in state.rounds for t in rnd.tables for p in t.seats if p}
    substitutes = [p for p in state.players if p.substitute and p.withdrawn_before is None]
    return render_template("setup_seating.html", tid=tid, name=state.settings.name, rounds=rounds, check=check,
                           substitutes=substitutes, seated_ids=seated_ids,
                           withdrew=names.get(request.args.get("withdrew", ""), request.args.get("withdrew")),
                           active=[p for p in state.players if p.withdrawn_before is None],
                           withdrawn=[p for p in state.players if p.withdrawn_before is not None],
                           players=len([p for p in state.players if not p.substitute and p.withdrawn_before is None]),
                           errors=errors or {},
                           values=values or {}, all_rounds=range(1, state.settings.rounds + 1),
                           published=_published(loaded.records), seated_round=request.args.get("seated"),
                           published_now=request.args.get("published")), status


def _published(records) -> dict:
    """The clock's publication: ``configured`` (a clock is set, so publishing is possible),
    ``round`` (the latest published), ``at`` (when), and ``withdrawn``: the rounds seated again
    after their seating was published, to be published again (R-tour-31), from
    :func:`tournament.clock.clock_state`."""
    try:
        clock = clock_state(records)
    except ValueError:  # clock events that do not fold: the page still shows the seating
        return {"configured": False, "round": None, "at": None, "withdrawn": set()}
    shown = clock.published
    return {"configured": clock.settings is not None, "round": shown.round if shown else None,
            "at": shown.published_at if shown else None,
            "withdrawn": {r.round for r in clock.rounds if r.unpublished_at is not None}}


@bp.get("/t/<tid>/seating")
def seating_page(tid: str):
    """排座 The schedule, its quality, and each table's 定莊."""
    _official()
    return render_seating(tid)


@bp.post("/t/<tid>/seating")
def seating_post(tid: str):
    person = _official()
    raw = request.form.get("seed", "0").strip() or "0"
    try:
        data = ScheduleRequestSchema().load({"seed": int(raw) if raw.isdigit() else raw})
        commands.schedule_event(tid, data, actor=person.principal.id)
    except ValidationError as error:
        return render_seating(tid, errors=_schema_error(error), status=400, values={"seed": raw})
    except ApiProblem as problem:
        return render_seating(tid, errors={"seed": (problem.detail_zh, problem.detail)}, status=problem.code,
                             values={"seed": raw})
    return redirect(url_for("setup.seating_page", tid=tid))


@bp.post("/t/<tid>/seating/<int:r>/<int:t>/<int:m>/draw")
def draw_post(tid: str, r: int, t: int, m: int):
    """定莊 Draw a 將's seats and dealer, or record its 定莊 dice (三顆骰子, ``seat.dealer``)."""
    person = _official()
    dice = request.form.get("dice", "").replace(",", " ").split()
    body: dict = {}
    if dice:
        body["dealer_dice"] = [int(d) if d.isdigit() else d for d in dice]
    field = f"dice-{r}-{t}-{m}"
    try:
        data = MatchDrawSchema().load(body)
        commands.draw_for(tid, r, t, m, data, actor=person.principal.id)
    except ValidationError as error:
        _field, message = first_error(error.messages)
        return render_seating(tid, errors={field: (f"定莊骰子須為三顆 1–6：{reason_zh(message)}",
                                                  f"the 定莊 dice are three of 1–6: {message}")}, status=400)
    except (ApiProblem, MjrefError) as problem:
        zh, en, _status = refusal(problem)
        return render_seating(tid, errors={field: (zh, en)}, status=400)
    return redirect(url_for("setup.seating_page", tid=tid) + f"#r{r}t{t}")


def init_app(app) -> None:
    app.register_blueprint(bp)

"""The tournament pages (issue #7): index, a round's seating, table cards, score sheets, standings.

Every page reads the tournament's log and folds it (:mod:`web.loading`), then prints what the
domain says: :mod:`tournament.printouts` for cards and sheets, :mod:`tournament.standings`
for the standings. Routes (``<tid>`` a tournament id, ``<r>`` a round, ``<t>`` a table,
``<m>`` a 將):

* ``/t/`` — the tournaments;
* ``/t/<tid>/`` — the tournament: settings, rounds, links;
* ``/t/<tid>/rounds/<r>/`` — the round's seating, for the hall screen;
* ``/t/<tid>/hall`` — the hall screen: the current round's seating (:func:`hall_round`), reloading;
* ``/t/<tid>/rounds/<r>/cards`` — the table cards, one per printed page
  (``/t/<tid>/rounds/<r>/tables/<t>/card``: one table's);
* ``/t/<tid>/rounds/<r>/sheets`` — the score sheets, one per table and 將 and printed page
  (``/t/<tid>/rounds/<r>/tables/<t>/sheets/<m>``: one); ``?hands=N`` rows (default 24);
* ``/t/<tid>/players/<pid>`` — a player's record: points by round, every hand, wins, 自摸,
  放槍, 台 by pattern (:mod:`tournament.player_record`);
* ``/t/<tid>/standings`` — the standings, a column per round (``?tie_breaks=…&rounds=…`` as the API reads them),
  with a link to the CSV: the API's ``/api/v1/tournaments/<tid>/standings?format=csv`` when
  the app has it, else ``/t/<tid>/standings.csv``.

zh-TW first, English second. Errors are HTML pages (:mod:`web.errors`).
"""
from __future__ import annotations


from flask import Blueprint, current_app, render_template, request, url_for

from referee.scoring.patterns import PATTERNS
from services.downloads import csv_download
from services.tournament_commands import settle_for
from tournament.player_record import player_record, won_items
from tournament.printouts import card, sheet
from tournament.errors import StandingsError
from tournament.match import event_max_streak
from tournament.standings import (
    DEFAULT_TIE_BREAKS, has_teams, standings, team_standings, team_totals, teams_to_csv_file, tie_breaks, to_csv_file,
    totals,
)
from web.clock_panel import clock_panel
from web.errors import PageError, not_found, refuse_nul, render_error
from web.loading import Tournament, check_access, list_all, load
from web.name_order import name_key


def _now():
    """The app's clock (``CLOCK``, tournament.clocksource): what the clock panel counts from."""
    return current_app.config["CLOCK"].now()


bp = Blueprint("pages", __name__, url_prefix="/t", template_folder="templates", static_folder="static",
               static_url_path="/static")

#: rows of a score sheet: a 將's 16 deals and room for 連莊 (32 fit one A4 page), and the most
DEFAULT_HANDS = 24
MAX_HANDS = 64


@bp.errorhandler(PageError)
def _page_error(error: PageError):
    return render_error(error)


@bp.before_request
def _reads_allowed() -> None:
    """No NUL in the URL, then the read check, before any parameter is looked at (the stylesheet is
    always served)."""
    refuse_nul()
    if request.endpoint != "pages.static":
        check_access()


def _hands_param() -> int:
    raw = request.args.get("hands")
    if raw is None:
        return DEFAULT_HANDS
    try:
        hands = int(raw)
    except ValueError:
        hands = 0
    if not 1 <= hands <= MAX_HANDS:
        raise PageError(400, f"參數 hands 須為 1–{MAX_HANDS} 的整數，收到「{raw}」",
                        f"the parameter hands must be an integer 1–{MAX_HANDS}, got {raw!r}", field="hands")
    return hands


def _list_param(name: str) -> list[str] | None:
    raw = request.args.get(name)
    return None if raw is None else [part.strip() for part in raw.split(",") if part.strip()]


def _chain():
    """The tie-break chain: ``?tie_breaks=fewer_deal_ins,more_tai`` (as the API reads it), else the default."""
    names = _list_param("tie_breaks")
    if not names:
        return DEFAULT_TIE_BREAKS
    try:
        return tie_breaks(names)
    except StandingsError as exc:
        raise PageError(400, f"參數 tie_breaks：{exc.reason_zh}", f"the parameter tie_breaks: {exc.message}",
                        field="tie_breaks") from None


def _rounds() -> list[int] | None:
    """``?rounds=1,2,3``: the standings over these rounds only (all by default)."""
    parts = _list_param("rounds")
    if parts is None:
        return None
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise PageError(400, f"參數 rounds 須為以逗號分隔的輪次，收到「{request.args['rounds']}」",
                        f"the parameter rounds is round numbers separated by commas, got {request.args['rounds']!r}",
                        field="rounds") from None


#: the standings' count columns: zh-TW, English, the :class:`tournament.standings.Totals` field
_COLUMN_LABELS = {
    "deal_ins": ("放槍", "Deal-ins"),
    "self_draws": ("自摸", "Self-draws"),
    "wins": ("胡", "Wins"),
    "tai": ("台", "Tai"),
    "hands": ("盤數", "Hands"),
}


def _columns(chain) -> list[tuple[str, str, str]]:
    """The tie-break columns in the chain's order, then the other counts."""
    fields = [c.value[0] for c in chain]
    fields += [f for f in _COLUMN_LABELS if f not in fields]
    return [(*_COLUMN_LABELS[f], f) for f in fields]


def _sheet(t: Tournament, round_no: int, table: int, match: int, hands: int):
    """The score sheet of a 將: the seats it is played in (after 搬風, when recorded) and the
    hands recorded so far."""
    seating = dict(t.state.match_seatings).get((round_no, table, match))
    seats = seating.players if seating is not None else t.table(round_no, table).seats
    east = seating.east if seating is not None else 0
    results = {h.key[3]: h.result for h in t.state.hands if h.key[:3] == (round_no, table, match)}
    entered = {key[3]: dealt for key, dealt in t.entered_dealers.items() if key[:3] == (round_no, table, match)}
    return sheet(t.name, round_no, table, match, seats, t.names, hands=hands, results=results, east=east,
                 first_dealer=t.first_dealers.get((round_no, table, match)) if seating is not None else None,
                 entered=entered, max_streak=event_max_streak(t.settings))


#: the API's standings endpoint (``?format=csv``), when the app has it (api/tournaments.py)
API_STANDINGS = "tournaments.get_standings"
API_TEAM_STANDINGS = "tournaments.get_team_standings"


def csv_url(tournament_id: str) -> str:
    """Where the standings CSV is downloaded, with the page's own ``tie_breaks`` and ``rounds``:
    the API's endpoint (``?format=csv``) when the app has it, else this blueprint's."""
    query = {k: request.args[k] for k in ("tie_breaks", "rounds") if request.args.get(k)}
    if API_STANDINGS in current_app.view_functions:
        return url_for(API_STANDINGS, tid=tournament_id, format="csv", **query)
    return url_for("pages.standings_csv", tournament_id=tournament_id, **query)


def team_csv_url(tournament_id: str) -> str:
    """Where the team standings CSV is downloaded (R-tour-30), as :func:`csv_url`."""
    query = {k: request.args[k] for k in ("tie_breaks", "rounds") if request.args.get(k)}
    if API_TEAM_STANDINGS in current_app.view_functions:
        return url_for(API_TEAM_STANDINGS, tid=tournament_id, format="csv", **query)
    return url_for("pages.team_standings_csv", tournament_id=tournament_id, **query)


@bp.get("/")
def tournaments():
    """賽事列表 The tournaments."""
    return render_template("tournaments.html", tournaments=list_all())


@bp.get("/<tournament_id>/")
def index(tournament_id: str):
    """賽事首頁 A tournament: settings, rounds, links."""
    t = load(tournament_id)
    return render_template("index.html", t=t, csv_url=csv_url(tournament_id), clock=clock_panel(t.records, _now()))


@bp.get("/<tournament_id>/rounds/<int:round_no>/")
def seating(tournament_id: str, round_no: int):
    """座位表 A round's seating (the hall screen)."""
    return _seating(load(tournament_id), round_no)


def _seating(t: Tournament, round_no: int, refresh: int | None = None):
    plan = t.round(round_no)
    cards = [card(t.name, round_no, table, t.names) for table in plan.tables]
    # "find your seat": by name in Taiwan's order, by strokes (R-tour-33), as a player looks
    # for it; namesakes by id
    finder = sorted(((s.label, s.player, c.table, s.wind) for c in cards for s in c.seats if s.player is not None),
                    key=lambda row: (name_key(t.names.get(row[1], row[0])), row[1]))
    return render_template("seating.html", t=t, round_no=round_no, cards=cards, finder=finder, refresh=refresh,
                           clock=clock_panel(t.records, _now()))


#: seconds between reloads of the hall screen
HALL_REFRESH = 30


def hall_round(t: Tournament) -> int | None:
    """The round the hall screen shows: the round in play while it is (players look for the
    table they play at, even when the next round's seating is already published); between
    rounds the latest whose seating the clock published, else the clock's last round, else the
    latest round with a result, else the first seated. A round seated again after its seating
    was published is not published until it is published again (R-tour-31): the screen says so."""
    clock = clock_panel(t.records, _now())
    if clock is not None and clock.round is not None and not clock.closed:
        return clock.round
    if clock is not None and clock.published_round is not None:
        return clock.published_round
    if clock is not None and clock.round is not None:
        return clock.round
    played = [h.key[0] for h in t.state.hands]
    if played:
        return max(played)
    return t.state.rounds[0].round if t.state.rounds else None


@bp.get("/<tournament_id>/hall")
def hall(tournament_id: str):
    """大廳看板 The hall screen: the current round's seating, reloading itself every 30 s."""
    t = load(tournament_id)
    round_no = hall_round(t)
    if round_no is None:
        raise not_found("已排座的輪次", "round seated yet")
    return _seating(t, round_no, refresh=HALL_REFRESH)


@bp.get("/<tournament_id>/rounds/<int:round_no>/cards")
def cards(tournament_id: str, round_no: int):
    """桌卡 The round's table cards, one per printed page."""
    t = load(tournament_id)
    plan = t.round(round_no)
    return render_template("cards.html", t=t, round_no=round_no,
                           cards=[card(t.name, round_no, table, t.names) for table in plan.tables])


@bp.get("/<tournament_id>/rounds/<int:round_no>/tables/<int:table>/card")
def table_card(tournament_id: str, round_no: int, table: int):
    """桌卡 One table's card."""
    t = load(tournament_id)
    plan = t.table(round_no, table)
    return render_template("cards.html", t=t, round_no=round_no, cards=[card(t.name, round_no, plan, t.names)])


@bp.get("/<tournament_id>/rounds/<int:round_no>/sheets")
def sheets(tournament_id: str, round_no: int):
    """計分表 The round's score sheets: one per table and 將, one per printed page."""
    hands = _hands_param()
    t = load(tournament_id)
    plan = t.round(round_no)
    out = [_sheet(t, round_no, table.table, m, hands) for table in plan.tables for m in range(1, t.matches + 1)]
    return render_template("sheets.html", t=t, round_no=round_no, sheets=out)


@bp.get("/<tournament_id>/rounds/<int:round_no>/tables/<int:table>/sheets/<int:match>")
def table_sheet(tournament_id: str, round_no: int, table: int, match: int):
    """計分表 One table's score sheet for one 將."""
    hands = _hands_param()
    t = load(tournament_id)
    t.table(round_no, table)
    t.check_match(match)
    return render_template("sheets.html", t=t, round_no=round_no, sheets=[_sheet(t, round_no, table, match, hands)])


@bp.get("/<tournament_id>/standings")
def standings_page(tournament_id: str):
    """成績排名 The standings."""
    chain, rounds = _chain(), _rounds()
    t = load(tournament_id)
    every = range(1, (t.settings.rounds if t.settings else 0) + 1)
    played = sorted({h.key[0] for h in t.state.hands} & set(rounds or every))
    by_round = {r: {pid: row.points for pid, row in totals(t.state, rounds=[r]).items()} for r in played}
    teams = team_standings(t.state, chain, rounds=rounds) if has_teams(t.state) else []  # R-tour-30
    team_by_round = {r: {name: row.points for name, row in team_totals(t.state, rounds=[r]).items()}
                     for r in played} if teams else {}
    return render_template("standings.html", t=t, rows=standings(t.state, chain, rounds=rounds), chain=chain,
                           rounds=rounds, columns=_columns(chain), csv_url=csv_url(tournament_id),
                           clock=clock_panel(t.records, _now()), played=played, by_round=by_round,
                           teams=teams, team_by_round=team_by_round,
                           team_of={p.player_id: p.team for p in t.state.players if p.team},
                           team_csv_url=team_csv_url(tournament_id) if teams else None)


@bp.get("/<tournament_id>/players/<player_id>")
def player_page(tournament_id: str, player_id: str):
    """選手成績 A player's record: points by round, every hand, wins, 自摸, 放槍, 台 by pattern."""
    t = load(tournament_id)
    items = {}
    for key, entry in t.entries.items():
        try:
            settled = settle_for(t.settings, entry)
        except ValueError:  # an entry its ruleset no longer settles: its hand counts, without patterns
            continue
        for seat, won in won_items(entry, settled.parts or (settled,)).items():
            items[(key, seat)] = won
    record = player_record(t.state, player_id, items)
    if record is None:
        raise not_found(f"選手「{player_id}」", f"player {player_id!r}")
    names = {p.code: (p.zh, p.en) for p in PATTERNS}
    registered = t.state.player(player_id)
    return render_template("player.html", t=t, p=record, names=names, winds="東南西北",
                           team=registered.team if registered else None)


@bp.get("/<tournament_id>/standings.csv")
def standings_csv(tournament_id: str):
    """成績 CSV The standings as CSV (``tournament.standings.to_csv_file``, UTF-8 with a BOM), the same as the
    API's ``?format=csv``; the pages link here only when the app has no API endpoint for it."""
    return _standings_csv(tournament_id, "standings", standings, to_csv_file)


@bp.get("/<tournament_id>/standings-teams.csv")
def team_standings_csv(tournament_id: str):
    """隊伍成績 CSV The team standings as CSV (R-tour-30; UTF-8 with a BOM), as the API's
    ``…/standings/teams?format=csv``; linked only when the app has no API endpoint for it."""
    return _standings_csv(tournament_id, "team-standings", team_standings, teams_to_csv_file)


def _standings_csv(tournament_id: str, name: str, ranked, to_file):
    """A standings CSV download, ``<name>-<id>.csv``: *ranked* (``standings`` or ``team_standings``)
    under the query's tie-break chain and rounds, written by *to_file*."""
    chain, rounds = _chain(), _rounds()
    t = load(tournament_id)
    return csv_download(to_file(ranked(t.state, chain, rounds=rounds)),
                        f"{name}-{_ascii(tournament_id)}.csv", f"{name}-{tournament_id}.csv")


@bp.get("/<path:rest>")
def unknown(rest: str):
    """Any other address under ``/t/``: the 404 page, not the API's JSON."""
    raise not_found("此頁面", "such page")


def _ascii(text: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in text)

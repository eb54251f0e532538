"""The tournament pages (issue #7): index, a round's seating, table cards, score sheets, standings.

Every page reads the tournament's log and folds it (:mod:`web.loading`), then prints what the
domain says: :mod:`tournament.printouts` for cards and sheets, :mod:`tournament.standings`
for the standings. Routes (``<tid>`` a tournament id, ``<r>`` a round, ``<t>`` a table,
``<m>`` a 將):

* ``/t/`` — the tournaments;
* ``/t/<tid>/`` — the tournament: settings, rounds, links;
* ``/t/<tid>/rounds/<r>/`` — the round's seating, for the hall screen;
* ``/t/<tid>/rounds/<r>/cards`` — the table cards, one per printed page
  (``/t/<tid>/rounds/<r>/tables/<t>/card``: one table's);
* ``/t/<tid>/rounds/<r>/sheets`` — the score sheets, one per table and 將 and printed page
  (``/t/<tid>/rounds/<r>/tables/<t>/sheets/<m>``: one); ``?hands=N`` rows (default 16);
* ``/t/<tid>/standings`` — the standings; ``/t/<tid>/standings.csv`` — as CSV.

zh-TW first, English second. Errors are HTML pages (:mod:`web.errors`).
"""
from __future__ import annotations

from flask import Blueprint, Response, render_template, request, url_for

from tournament.printouts import card, sheet
from tournament.standings import DEFAULT_TIE_BREAKS, standings, tie_breaks, to_csv
from web.clock_panel import clock_panel
from web.errors import PageError, not_found, render_error
from web.loading import Tournament, list_all, load

bp = Blueprint("pages", __name__, url_prefix="/t", template_folder="templates", static_folder="static",
               static_url_path="/static")

#: rows of a blank score sheet, and the most a sheet prints
DEFAULT_HANDS = 16
MAX_HANDS = 64


@bp.errorhandler(PageError)
def _page_error(error: PageError):
    return render_error(error)


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


def _chain(t: Tournament):
    """The tie-break chain: the tournament's ``config.tie_breaks`` when it names one, else the default."""
    names = (t.row.get("config") or {}).get("tie_breaks")
    if isinstance(names, list) and names:
        try:
            return tie_breaks(names)
        except ValueError:
            pass
    return DEFAULT_TIE_BREAKS


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
    return sheet(t.name, round_no, table, match, seats, t.names, hands=hands, results=results, east=east)


def csv_url(tournament_id: str) -> str:
    """Where the standings CSV is downloaded: the API's endpoint when the app has one, else this
    blueprint's."""
    from flask import current_app

    for rule in current_app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.rule.endswith("/standings.csv") and "GET" in rule.methods:
            args = {name: tournament_id for name in rule.arguments}
            return url_for(rule.endpoint, **args)
    return url_for("pages.standings_csv", tournament_id=tournament_id)


@bp.get("/")
def tournaments():
    """賽事列表 The tournaments."""
    return render_template("tournaments.html", tournaments=list_all())


@bp.get("/<tournament_id>/")
def index(tournament_id: str):
    """賽事首頁 A tournament: settings, rounds, links."""
    t = load(tournament_id)
    return render_template("index.html", t=t, csv_url=csv_url(tournament_id), clock=clock_panel(t.records))


@bp.get("/<tournament_id>/rounds/<int:round_no>/")
def seating(tournament_id: str, round_no: int):
    """座位表 A round's seating (the hall screen)."""
    t = load(tournament_id)
    plan = t.round(round_no)
    cards = [card(t.name, round_no, table, t.names) for table in plan.tables]
    finder = sorted(((s.label, s.player, c.table, s.wind) for c in cards for s in c.seats if s.player is not None),
                    key=lambda row: (row[1]))
    return render_template("seating.html", t=t, round_no=round_no, cards=cards, finder=finder,
                           clock=clock_panel(t.records))


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
    t = load(tournament_id)
    chain = _chain(t)
    return render_template("standings.html", t=t, rows=standings(t.state, chain), chain=chain,
                           columns=_columns(chain),
                           csv_url=csv_url(tournament_id), clock=clock_panel(t.records))


@bp.get("/<tournament_id>/standings.csv")
def standings_csv(tournament_id: str):
    """成績 CSV The standings as CSV (``tournament.standings.to_csv``), UTF-8 with a BOM for
    spreadsheets."""
    t = load(tournament_id)
    body = "\ufeff" + to_csv(standings(t.state, _chain(t)))
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename=\"standings-{_ascii(tournament_id)}.csv\"; "
                               f"filename*=UTF-8''standings-{_quote(tournament_id)}.csv"})


@bp.get("/<path:rest>")
def unknown(rest: str):
    """Any other address under ``/t/``: the 404 page, not the API's JSON."""
    raise not_found("此頁面", "such page")


def _ascii(text: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in text)


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")

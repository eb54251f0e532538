"""Tournaments (issue #7): every write an event appended to the tournament's log.

=========================================================  ===============  ============================================
``POST /api/v1/tournaments``                               official         create an event (EventCreated)
``GET  /api/v1/tournaments``                               ``tournaments``  list, each with its summary
``GET  /api/v1/tournaments/{id}``                          ``tournaments``  settings and state summary
``POST /api/v1/tournaments/{id}/players``                  official         register players / 替補 (batch)
``GET  /api/v1/tournaments/{id}/players``                  ``tournaments``  the players
``POST /api/v1/tournaments/{id}/schedule``                 official         make the schedule, seat its rounds
``GET  /api/v1/tournaments/{id}/schedule``                 ``tournaments``  the rounds seated and their quality
``PUT  /api/v1/tournaments/{id}/rounds/{r}``               official         seat a round by hand
``POST /api/v1/tournaments/{id}/rounds/{r}/by-standings``  official         seat a round by the standings
``GET  /api/v1/tournaments/{id}/rounds/{r}``               ``tournaments``  a round: tables, each 將's seats
``POST /api/v1/tournaments/{id}/rounds/{r}/substitutes``   official         a 替補 takes a substitute's seat
``POST /api/v1/tournaments/{id}/withdrawals``              official         a player withdraws; later rounds re-seated
``POST /api/v1/tournaments/{id}/players/{pid}/team``       official         a player's team set, changed or cleared
``POST …/rounds/{r}/tables/{t}/matches/{m}/draw``          official         搬風 and 定莊 (recorded or generated)
``POST /api/v1/tournaments/{id}/hands``                    official         a hand's payments and wins typed in
``POST /api/v1/tournaments/{id}/hands/entry``              official         a scorer's entry by 台 items
``GET  /api/v1/tournaments/{id}/hands``                    ``tournaments``  the hands in effect
``POST …/hands/{r}/{t}/{m}/{h}/corrections``               official         correct a hand (with a reason)
``GET  …/hands/{r}/{t}/{m}/{h}/audit``                     ``tournaments``  who recorded, corrected, reverted: when, why
``POST /api/v1/tournaments/{id}/reverts``                  official         revert a hand record, correction or revert
``POST /api/v1/tournaments/{id}/links``                    official         link a referee table to (round, table, 將)
``GET  /api/v1/tournaments/{id}/links``                    ``tournaments``  the links
``POST /api/v1/tournaments/{id}/sync``                     official         record the linked tables' closed hands
``GET  /api/v1/tournaments/{id}/standings``                ``tournaments``  standings (``?format=csv``), tie-break chain
``GET  /api/v1/tournaments/{id}/standings/teams``          ``tournaments``  team standings (R-tour-30, ``?format=csv``)
``GET  /api/v1/tournaments/{id}/advancement``              ``tournaments``  四取一 / 四取二 of a round
``GET  /api/v1/tournaments/{id}/log``                      ``tournaments``  the event log
``GET  /api/v1/tournaments/{id}/balance``                  ``tournaments``  every hand, 將 and table sums to zero
=========================================================  ===============  ============================================

Errors are problem+json naming the field: a malformed body 400; an event the log refuses
(does not fold) **409** ``event_refused``, nothing written (:mod:`services.tournament_write`).
The views are thin: each write is a command of :mod:`services.tournament_commands`, shared
with the organisers' pages.

Resending is safe (issue #12 item 7, :mod:`services.idempotency`, :mod:`api.idempotency`): every write takes an
``Idempotency-Key`` — its answer is made and stored in the transaction of its events, and
a resend gets it again (``Idempotent-Replayed: true``) — and a write that names its effect
(a hand by its key, a tournament by its id, players by theirs, a round's seats, a seeded
schedule or draw, a substitute, a correction, a revert, a link) resent without one is
answered **200** ``"duplicate": true`` with the records that made it.
"""
from __future__ import annotations


from flask import jsonify

from api import auth, idempotency
from services.downloads import csv_download
from services.idempotency import Duplicate
from api.openapi import MAYBE_BEARER, Blueprint, link, links
from services.live import service as live_service
from services.problems import ApiProblem, bad_request, not_found
from services.tournament_results import sync_report
from services.tournament_schemas import (
    AdvancementQuerySchema, AnySchema, ByStandingsSchema, CorrectionSchema, CreateTournamentSchema, CutDecisionSchema,
    EntryResultSchema, HandsQuerySchema, LinkSchema, LogQuerySchema, MatchDrawSchema, PlayersSchema, RevertSchema,
    RoundSeatsSchema, ScheduleRequestSchema, StandingsQuerySchema, SubstituteSchema, TeamChangeSchema,
    TeamStandingsQuerySchema, TypedResultSchema, WithdrawalSchema,
)
from services.tournament_commands import (
    change_team, chain_of, create_event, cut_decisions, decide_cut_for, draw_for, encode_draw, last_group, player_dict,
    post_correction, post_entry, record_typed, records_of, register, revert_for, schedule_event, schedule_of,
    seat_by_standings, seat_round_for, substitute_for, table_plan, withdraw_for,
)
from services.tournament_write import load, refused, write
from services.tournament_views import audit_dict, hand_dict, plan_dict, quality, record_dict, summary
from store import get_db
from store import tables as table_store
from store import tournaments as tstore
from tournament import standings as st
from tournament.errors import EventLogError
from tournament.events import audit, replay
from tournament.provenance import TableLinked, fold
from tournament.results import check_balances

blp = Blueprint("tournaments", __name__, url_prefix="/api/v1/tournaments",
                description="賽事 Tournaments: seating, results, standings (issue #7)")
auth.guard(blp)  # auth first: officials, checked before the body is read (issue #12 item 5)

INT = "int(max=2147483647)"


def _official() -> auth.Principal:
    return auth.require("official", "admin")


def _read() -> None:
    auth.check_read("tournaments")


def _write(method: str, rule: str, body: type | None, *, status: int = 200, required: bool = True,
           duplicates: bool = False):
    """An official's write, answered with what it recorded: ``Idempotency-Key`` read, checked and
    documented (:func:`api.idempotency.write`); *duplicates* for a write whose request names its
    effect: a resend of it is answered as a duplicate (200)."""
    return idempotency.write(blp, method, rule, body, AnySchema, status=status, required=required,
                             duplicates=duplicates)


def _view(rule: str, query: type | None = None):
    """A read: ``GET`` *rule* (with the *query* schema's parameters, if any), answered 200; a
    token needed unless reads are public (the view checks, :func:`_read`)."""

    def decorator(view):
        view = blp.doc(security=MAYBE_BEARER)(blp.response(200, AnySchema)(view))
        if query is not None:
            view = blp.arguments(query, location="query")(view)
        return blp.get(rule)(view)

    return decorator


# --- the event ------------------------------------------------------------------------------


@_write("post", "", CreateTournamentSchema, status=201, duplicates=True)
@blp.doc(**links(201, **{
    name: link(f"/api/v1/tournaments/{{{param}}}{tail}", method, **{param: "$response.body#/id"})
    for name, param, tail, method in (
        ("GetTournament", "tid", "", "get"), ("PostPlayers", "tid", "/players", "post"),
        ("GetPlayers", "tid", "/players", "get"), ("PostSchedule", "tid", "/schedule", "post"),
        ("GetSchedule", "tid", "/schedule", "get"), ("PostWithdrawal", "tid", "/withdrawals", "post"),
        ("PostHand", "tid", "/hands", "post"), ("PostEntry", "tid", "/hands/entry", "post"),
        ("GetHands", "tid", "/hands", "get"), ("PostRevert", "tid", "/reverts", "post"),
        ("PostLink", "tid", "/links", "post"), ("GetLinks", "tid", "/links", "get"),
        ("PostSync", "tid", "/sync", "post"),
        ("GetStandings", "tid", "/standings", "get"),
        ("GetTeamStandings", "tid", "/standings/teams", "get"), ("GetLog", "tid", "/log", "get"),
        ("GetBalance", "tid", "/balance", "get"), ("PutClock", "tournament_id", "/clock", "put"),
        ("GetClock", "tournament_id", "/clock", "get"), ("StartRound", "tournament_id", "/clock/start", "post"),
        ("CallTime", "tournament_id", "/clock/call-time", "post"),
        ("ReportTable", "tournament_id", "/clock/reports", "post"),
        ("CloseRound", "tournament_id", "/clock/close", "post"), ("Publish", "tournament_id", "/clock/publish", "post"),
        ("GetPublished", "tournament_id", "/seating/published", "get"))}))
@blp.alt_response(409, description="代號已用 the id is taken")
def create_tournament(data: dict):
    """建立賽事 Create an event (official): rounds, 將 per round, stakes 底/台, ruleset, round time."""
    return create_event(data, actor=_official().id)


@_view("")
def list_tournaments():
    """賽事清單 Every event with its summary."""
    _read()
    return jsonify({"tournaments": [summary(load(row["id"])) for row in tstore.list_tournaments(get_db())]})


@_view("/<tid>")
def get_tournament(tid: str):
    """一場賽事 An event: settings, players, rounds seated, hands, last seq."""
    _read()
    return jsonify(summary(load(tid)))


# --- players ----------------------------------------------------------------------------------


@_write("post", "/<tid>/players", PlayersSchema, status=201, duplicates=True)
def register_players(data: dict, tid: str):
    """報名 Register players and substitutes (替補), all or none."""
    return register(tid, data, actor=_official().id)


@_view("/<tid>/players")
def list_players(tid: str):
    """選手 The players and substitutes."""
    _read()
    return jsonify({"players": [player_dict(p) for p in load(tid).state.players]})


# --- schedule and rounds -------------------------------------------------------------------------


@_write("post", "/<tid>/schedule", ScheduleRequestSchema, status=201, duplicates=True)
def make_event_schedule(data: dict, tid: str):
    """排座 Make the schedule (``tournament.schedule.make_schedule``) and seat its rounds (RoundSeated each)."""
    return schedule_event(tid, data, actor=_official().id)


@_view("/<tid>/schedule")
def get_schedule(tid: str):
    """賽程 The rounds seated and their quality (repeats, wind balance: ``check_schedule``)."""
    _read()
    loaded = load(tid)
    return jsonify({"rounds": [plan_dict(loaded, p) for p in loaded.state.rounds],
                    "quality": quality(schedule_of(loaded))})


@_write("put", f"/<tid>/rounds/<{INT}:round_no>", RoundSeatsSchema)
def seat_round(data: dict, tid: str, round_no: int):
    """手動排座 Seat a round by hand (until it has results)."""
    return seat_round_for(tid, round_no, data, actor=_official().id)


@_write("post", f"/<tid>/rounds/<{INT}:round_no>/by-standings", ByStandingsSchema, required=False)
def seat_round_by_standings(data: dict, tid: str, round_no: int):
    """依成績排座 Seat a (final) round by the standings (R-tour-28): the top four at table 1, and
    so on (``rounds``: the rounds ranked by, default every round before; ``tie_breaks``)."""
    return seat_by_standings(tid, round_no, data, actor=_official().id)


@_view(f"/<tid>/rounds/<{INT}:round_no>")
def get_round(tid: str, round_no: int):
    """一輪 A round: its tables, each 將's seats (after 搬風) and the 定莊."""
    _read()
    loaded = load(tid)
    plan = loaded.state.round(round_no)
    if plan is None:
        raise not_found("round", "輪次", round_no, "round")
    return jsonify(plan_dict(loaded, plan))


@_write("post", f"/<tid>/rounds/<{INT}:round_no>/substitutes", SubstituteSchema, status=201, duplicates=True)
def seat_substitute(data: dict, tid: str, round_no: int):
    """替補入座 A registered substitute takes a round's 替補 seat."""
    return substitute_for(tid, round_no, data, actor=_official().id)


@_write("post", "/<tid>/withdrawals", WithdrawalSchema, status=201)
def withdraw(data: dict, tid: str):
    """退賽 A player withdraws before a round: later rounds re-seated (``reseat``), earlier ones kept."""
    return withdraw_for(tid, data, actor=_official().id)


@_write("post", "/<tid>/players/<player_id>/team", TeamChangeSchema, status=201)
@blp.alt_response(200, description="隊伍已是如此，未記錄 the team is so already: nothing recorded")
def change_player_team(data: dict, tid: str, player_id: str):
    """改隊伍 A player's team set, changed or cleared (R-tour-32): a ``TeamChanged`` record with the
    reason: every round (``from_round`` null, the registration corrected) or from ``from_round`` on (a
    move: the rounds before stay with the team he played them for). 409 for a player not registered."""
    return change_team(tid, player_id, data["team"], data["reason"], actor=_official().id,
                       from_round=data["from_round"])


# --- 搬風 and 定莊 ---------------------------------------------------------------------------------


@_write("post", f"/<tid>/rounds/<{INT}:round_no>/tables/<{INT}:table>/matches/<{INT}:match>/draw", MatchDrawSchema,
        status=201, duplicates=True)
def draw_match(data: dict, tid: str, round_no: int, table: int, match: int):
    """搬風與定莊 The seats of a 將 (``seat.banfeng``) and its first dealer (``seat.dealer``):
    recorded at a physical table (``draws``, ``dealer_dice``) or generated (``seed``); from the
    second 將 a draw repeating the previous order is redrawn."""
    return draw_for(tid, round_no, table, match, data, actor=_official().id)


# --- results ---------------------------------------------------------------------------------------


#: a hand recorded: its audit trail, a correction, a revert
HAND_LINKS = {**{name: link(f"/api/v1/tournaments/{{tid}}/hands/{{r}}/{{t}}/{{m}}/{{h}}/{tail}", method,
                            tid="$request.path.tid", r="$response.body#/key/0", t="$response.body#/key/1",
                            m="$response.body#/key/2", h="$response.body#/key/3")
                 for name, tail, method in (("GetAudit", "audit", "get"), ("PostCorrection", "corrections", "post"))},
     "PostRevert": link("/api/v1/tournaments/{tid}/reverts", "post", tid="$request.path.tid")}


@_write("post", "/<tid>/hands", TypedResultSchema, status=201, duplicates=True)
@blp.alt_response(409, description="紀錄不合（已記錄、未排座、盤號不連續）the log refuses it")
@blp.doc(**links(201, **HAND_LINKS))
def record_hand(data: dict, tid: str):
    """記錄一盤 A hand's payments and wins typed in (HandRecorded): they must agree with the wins'
    台 and the stakes (tournament.typed), or be entered as a house arrangement with its reason."""
    return record_typed(tid, data, actor=_official().id)


@_write("post", "/<tid>/hands/entry", EntryResultSchema, status=201, duplicates=True)
@blp.alt_response(409, description="紀錄不合 the log refuses it")
@blp.doc(**links(201, **HAND_LINKS))
def enter_hand(data: dict, tid: str):
    """計分員輸入 A scorer's entry by 台 items: payments computed by the referee's settlement
    under the event's stakes and ruleset; impossible combinations refused naming the item."""
    return post_entry(tid, data, actor=_official().id)


@_view("/<tid>/hands", HandsQuerySchema)
def list_hands(query: dict, tid: str):
    """成績 The hands in effect (corrections applied, reverted records left out), players by seat;
    ``?round=&table=`` to narrow."""
    _read()
    loaded = load(tid)
    entries = {h.key: h for h in loaded.state.hands}
    rows = [{"key": list(key), "players": list(seats), "seq": entries[key].seq, "corrected": entries[key].corrected,
             **hand_dict(result)} for key, seats, result in loaded.state.hand_rows()
            if query["round"] in (None, key[0]) and query["table"] in (None, key[1])]
    return jsonify({"hands": rows})


HAND = f"/<tid>/hands/<{INT}:r>/<{INT}:t>/<{INT}:m>/<{INT}:h>"


@_write("post", HAND + "/corrections", CorrectionSchema, status=201, duplicates=True)
def correct_hand(data: dict, tid: str, r: int, t: int, m: int, h: int):
    """更正 Correct a hand (HandCorrected, with the reason): payments and wins, or a scorer's entry."""
    return post_correction(tid, (r, t, m, h), data, actor=_official().id)


@_view(HAND + "/audit")
def hand_audit(tid: str, r: int, t: int, m: int, h: int):
    """稽核紀錄 Every record about a hand: who, when, why, and whether it is in effect."""
    _read()
    loaded = load(tid)
    entries = audit(loaded.records, (r, t, m, h))
    if not entries:
        raise not_found("hand", "盤", f"{r}-{t}-{m}-{h}", "hand")
    return jsonify({"key": [r, t, m, h], "trail": audit_dict(loaded, entries)})


@_write("post", "/<tid>/reverts", RevertSchema, status=201, duplicates=True)
def revert(data: dict, tid: str):
    """撤銷 Revert a hand record, a correction or a revert (Reverted, with the reason)."""
    return revert_for(tid, data, actor=_official().id)


# --- referee tables ----------------------------------------------------------------------------------


@_write("post", "/<tid>/links", LinkSchema, status=201, duplicates=True)
def link_table(data: dict, tid: str):
    """連結裁判桌 Link a referee table (created with this tournament's id) to a (round, table, 將):
    its closed hands become the 將's hands (:func:`services.tournament_results.sync_table_results`)."""
    principal = _official()
    load(tid)
    key = (data["round"], data["table"], data["match"])

    def events(db):
        row = table_store.get_table(db, data["table_id"])
        if row is None:
            raise not_found("table", "桌", data["table_id"], "table_id")
        if row["tournament"] != tid:
            raise ApiProblem(409, "table_not_in_tournament", f"table {data['table_id']!r} was not created for {tid!r}",
                             f"桌「{data['table_id']}」不屬於賽事「{tid}」（開桌時須指定 tournament）",
                             field="table_id")
        records = tstore.load_records(db, tid)
        state, prov = replay(records), fold(records)
        if prov.links.get(data["table_id"]) == key:  # linked so already: a resend
            raise Duplicate(answer(last_group(records, [TableLinked(data["table_id"], *key)]) or []))
        if data["table_id"] in prov.links:
            raise refused(EventLogError(f"table {data['table_id']!r} is already linked", field="table_id",
                                        reason_zh=f"桌「{data['table_id']}」已連結"))
        if key in prov.linked:
            raise refused(EventLogError(f"{key} is already played at table {prov.linked[key]!r}", field="table",
                                        reason_zh=f"{key} 已連結裁判桌「{prov.linked[key]}」"))
        table_plan(state, data["round"], data["table"])
        if not 1 <= data["match"] <= state.settings.matches_per_round:
            raise refused(EventLogError(f"match {data['match']} is outside 1–{state.settings.matches_per_round}",
                                        field="match",
                                        reason_zh=f"將 {data['match']} 不在 1–{state.settings.matches_per_round}"))
        return [TableLinked(data["table_id"], *key)]

    def answer(records: list) -> dict:
        return {"table_id": data["table_id"], "round": key[0], "table": key[1], "match": key[2],
                "records": records_of(records)}

    written = write(tid, events, actor=principal.id, answer=lambda w: answer(w.added))
    live_service().forget(data["table_id"])  # the hand in play is replayed with the 將's players: its rulings name them
    return written


@_view("/<tid>/links")
def list_links(tid: str):
    """裁判桌連結 The referee tables linked to (round, table, 將)."""
    _read()
    loaded = load(tid)
    return jsonify({"links": [{"table_id": k, "round": v[0], "table": v[1], "match": v[2]}
                              for k, v in sorted(loaded.provenance.links.items(), key=lambda x: x[1])]})


@_write("post", "/<tid>/sync", None)
def sync(tid: str):
    """同步裁判成績 Record the linked tables' closed hands not yet in the log (idempotent)."""
    principal = _official()
    load(tid)

    def work(tx):
        report = sync_report(tx.db, tid, actor=principal.id)
        return 200, {"recorded": records_of(report.recorded), "problems": [p.to_dict() for p in report.problems]}, {}

    return idempotency.respond(*idempotency.submit(tid, work))


# --- standings, log, balance -----------------------------------------------------------------------------


def _rounds(raw: str | None):
    if raw is None:
        return None
    try:
        return [int(part) for part in raw.split(",") if part.strip()]
    except ValueError:
        raise bad_request("invalid_query", "rounds", f"rounds are numbers separated by commas, got {raw!r}",
                          f"輪次須為以逗號分隔的數字，收到 {raw!r}") from None


def _standing(s) -> dict:
    t = s.totals
    return {"rank": s.rank, "tied": s.tied, "player_id": t.player_id, "name": t.name, "points": t.points,
            "hands": t.hands, "wins": t.wins, "self_draws": t.self_draws, "deal_ins": t.deal_ins, "tai": t.tai,
            "withdrawn": t.withdrawn}


@blp.get("/<tid>/standings")
@blp.arguments(StandingsQuerySchema, location="query")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER, responses={200: {"content": {"text/csv": {  # ?format=csv
    "schema": {"type": "string", "description": "?format=csv: 名次 Rank,代號 ID,姓名 Name,… one line per player"}}}}})
def get_standings(query: dict, tid: str):
    """排名 Standings: points, then the tie-break chain (``?tie_breaks=fewer_deal_ins,more_tai``);
    ``?format=csv`` for a CSV file (zh-TW/English headers)."""
    _read()
    loaded = load(tid)
    chain = chain_of(query["tie_breaks"])
    rows = st.standings(loaded.state, chain, rounds=_rounds(query["rounds"]),
                        include_substitutes=query["include_substitutes"])
    if query["format"] == "csv":
        return csv_download(st.to_csv_file(rows), "standings.csv", f"{tid}-standings.csv")
    return jsonify({"tie_breaks": [c.name.lower() for c in chain], "standings": [_standing(s) for s in rows]})


def _team_standing(s) -> dict:
    t = s.totals
    return {"rank": s.rank, "tied": s.tied, "team": t.team, "members": list(t.members), "names": list(t.names),
            "points": t.points, "hands": t.hands, "wins": t.wins, "self_draws": t.self_draws, "deal_ins": t.deal_ins,
            "tai": t.tai}


@blp.get("/<tid>/standings/teams")
@blp.arguments(TeamStandingsQuerySchema, location="query")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER, responses={200: {"content": {"text/csv": {  # ?format=csv
    "schema": {"type": "string",
               "description": "?format=csv: 名次 Rank,隊名 Team,隊員 Members,… one line per team"}}}}})
def get_team_standings(query: dict, tid: str):
    """隊伍排名 Team standings (團體賽, R-tour-30): each team's members' points summed, then the
    tie-break chain on the sums; ``teams`` is empty when no player has a team. ``?format=csv``
    for a CSV file with a byte-order mark."""
    _read()
    loaded = load(tid)
    chain = chain_of(query["tie_breaks"])
    rows = st.team_standings(loaded.state, chain, rounds=_rounds(query["rounds"]))
    if query["format"] == "csv":
        return csv_download(st.teams_to_csv_file(rows), "team-standings.csv", f"{tid}-team-standings.csv")
    return jsonify({"tie_breaks": [c.name.lower() for c in chain], "teams": [_team_standing(s) for s in rows]})


@_view("/<tid>/advancement", AdvancementQuerySchema)
def get_advancement(query: dict, tid: str):
    """晉級 四取一 (``take=1``) / 四取二 (``take=2``) per table of a round, by that round's totals."""
    _read()
    loaded = load(tid)
    if loaded.state.round(query["round"]) is None:
        raise not_found("round", "輪次", query["round"], "round")
    out = st.advancement(loaded.state, query["round"], query["take"], chain_of(query["tie_breaks"]),
                         cut_decisions(loaded, query["round"], query["take"]))
    return jsonify({"round": query["round"], "take": query["take"], "tables": [
        {"table": a.table, "advancing": list(a.advancing), "tie_at_cut": list(a.tie_at_cut),
         "decided": list(a.decided), "decision_reason": a.decision_reason or None,
         "ranking": [_standing(s) for s in a.ranking]} for a in out]})


@_write("post", "/<tid>/advancement/decisions", CutDecisionSchema, status=201, duplicates=True)
@blp.alt_response(409, description="此桌晉級線上沒有同分，或所選不合 no tie there, or the pick does not fill the cut")
def decide_cut(data: dict, tid: str):
    """晉級同分裁定 An official decides a tie at the 四取一 / 四取二 cut that the tie-break chain
    could not break (R-tour-10): who of the tied players goes on, with the reason (CutDecided)."""
    return decide_cut_for(tid, data, actor=_official().id)


@_view("/<tid>/log", LogQuerySchema)
def get_log(query: dict, tid: str):
    """事件紀錄 The event log (the truth every view is replayed from)."""
    _read()
    loaded = load(tid)
    return jsonify({"tournament": tid, "last_seq": loaded.state.last_seq,
                    "records": [record_dict(r) for r in loaded.records if r.seq > query["after"]]})


@_view("/<tid>/balance")
def get_balance(tid: str):
    """收支檢查 Every hand, 將 and table sums to zero (``check_balances``)."""
    _read()
    loaded = load(tid)
    rows = [(key, result.payments) for key, _, result in loaded.state.hand_rows()]
    problems = check_balances(rows)
    return jsonify({"ok": not problems, "hands": len(rows),
                    "problems": [{"level": p.level, "key": list(p.key), "total": p.total, "detail_zh": p.describe()}
                                 for p in problems]})


__all__ = ["blp", "encode_draw"]

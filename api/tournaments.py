"""Tournaments (issue #7): every write an event appended to the tournament's log.

=============================================================  ===============  ==========================================
``POST /api/v1/tournaments``                                    official         create an event (EventCreated)
``GET  /api/v1/tournaments``                                    ``tournaments``  list, each with its summary
``GET  /api/v1/tournaments/{id}``                               ``tournaments``  settings and state summary
``POST /api/v1/tournaments/{id}/players``                       official         register players / 替補 (batch)
``GET  /api/v1/tournaments/{id}/players``                       ``tournaments``  the players
``POST /api/v1/tournaments/{id}/schedule``                      official         make the schedule, seat its rounds
``GET  /api/v1/tournaments/{id}/schedule``                      ``tournaments``  the rounds seated and their quality
``PUT  /api/v1/tournaments/{id}/rounds/{r}``                    official         seat a round by hand
``GET  /api/v1/tournaments/{id}/rounds/{r}``                    ``tournaments``  a round: tables, each 將's seats
``POST /api/v1/tournaments/{id}/rounds/{r}/substitutes``        official         a 替補 takes a substitute's seat
``POST /api/v1/tournaments/{id}/withdrawals``                   official         a player withdraws; later rounds re-seated
``POST …/rounds/{r}/tables/{t}/matches/{m}/draw``               official         搬風 and 定莊 (recorded or generated)
``POST /api/v1/tournaments/{id}/hands``                         official         a hand's payments and wins typed in
``POST /api/v1/tournaments/{id}/hands/entry``                   official         a scorer's entry by 台 items
``GET  /api/v1/tournaments/{id}/hands``                         ``tournaments``  the hands in effect
``POST …/hands/{r}/{t}/{m}/{h}/corrections``                    official         correct a hand (with a reason)
``GET  …/hands/{r}/{t}/{m}/{h}/audit``                          ``tournaments``  who recorded, corrected, reverted: when, why
``POST /api/v1/tournaments/{id}/reverts``                       official         revert a hand record, correction or revert
``POST /api/v1/tournaments/{id}/links``                         official         link a referee table to (round, table, 將)
``GET  /api/v1/tournaments/{id}/links``                         ``tournaments``  the links
``POST /api/v1/tournaments/{id}/sync``                          official         record the linked tables' closed hands
``GET  /api/v1/tournaments/{id}/standings``                     ``tournaments``  standings (``?format=csv``), tie-break chain
``GET  /api/v1/tournaments/{id}/advancement``                   ``tournaments``  四取一 / 四取二 of a round
``GET  /api/v1/tournaments/{id}/log``                           ``tournaments``  the event log
``GET  /api/v1/tournaments/{id}/balance``                       ``tournaments``  every hand, 將 and table sums to zero
=============================================================  ===============  ==========================================

Errors are problem+json naming the field: a malformed body 400; an event the log refuses
(does not fold) **409** ``event_refused``, nothing written (:mod:`api.tournament_state`).

Resending is safe (issue #12 item 7, :mod:`api.idempotency`): every write takes an
``Idempotency-Key`` — its answer is made and stored in the transaction of its events, and
a resend gets it again (``Idempotent-Replayed: true``) — and a write that names its effect
(a hand by its key, a tournament by its id, players by theirs, a round's seats, a seeded
schedule or draw, a substitute, a correction, a revert, a link) resent without one is
answered **200** ``"duplicate": true`` with the records that made it.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from urllib.parse import quote

from flask import Response, jsonify

from api import auth, idempotency
from api.idempotency import Duplicate
from api.openapi import BEARER, MAYBE_BEARER, Blueprint, link, links
from services.live import service as live_service
from services.problems import ApiProblem, bad_request, not_found
from services.tournament_results import sync_report
from api.tournament_schemas import (
    AdvancementQuerySchema, AnySchema, CorrectionSchema, CreateTournamentSchema, CutDecisionSchema, EntryResultSchema,
    HandsQuerySchema,
    LinkSchema,
    LogQuerySchema, MatchDrawSchema, PlayersSchema, RevertSchema, RoundSeatsSchema, ScheduleRequestSchema,
    StandingsQuerySchema, SubstituteSchema, TypedResultSchema, WithdrawalSchema,
)
from api.tournament_state import Loaded, Written, load, refused, replayed, write
from api.tournament_views import (
    audit_dict, hand_dict, plan_dict, quality, record_dict, summary, wind_of,
)
from referee.play_rules import PlayRules
from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.table import table_for
from store import get_db
from store import tables as table_store
from store import tournaments as tstore
from tournament import standings as st
from tournament.entry import AlsoWon, ScorerEntry, TaiItem, check_deal, deal_after, settle_entry
from tournament.errors import EventLogError, ScheduleError, StandingsError
from tournament.events import (
    EventCreated, EventSettings, EventState, HandCorrected, HandRecorded, MatchSeated, PlayerRegistered, PlayerWithdrew,
    Reverted, RoundSeated, SubstituteSeated, audit, replay, reverted,
)
from tournament.match import MatchState
from tournament.provenance import (
    CutDecided, HouseArrangement, MatchDrawn, Provenance, RefereeHandSynced, ScorerEntered, TableLinked, fold,
)
from tournament.results import HandResult, Win, check_balances
from tournament.typed import check_typed, deal_of
from tournament.schedule import RoundPlan, Schedule, TablePlan, make_schedule, reseat
from tournament.seating import SeatDraw, Seating, draw_dealer, draw_seats

blp = Blueprint("tournaments", __name__, url_prefix="/api/v1/tournaments",
                description="賽事 Tournaments: seating, results, standings (issue #7)")
auth.guard(blp)  # auth first: officials, checked before the body is read (issue #12 item 5)

INT = "int(max=2147483647)"


def _official() -> auth.Principal:
    return auth.require("official", "admin")


def _read() -> None:
    auth.check_read("tournaments")


def _records(added) -> list[dict]:
    return [record_dict(r) for r in added]


def _group(records, seq: int, events: list) -> list | None:
    """The records from *seq* on if they are *events*, written together (one request)."""
    group = list(records[seq - 1:seq - 1 + len(events)])
    if [r.event for r in group] == list(events) and len({(r.by, r.at) for r in group}) == 1:
        return group
    return None


def _last_group(records, events: list) -> list | None:
    """The last records written together that are exactly *events* (a request's, resent)."""
    for record in reversed(records):
        if record.event == events[0]:
            group = _group(records, record.seq, events)
            if group is not None:
                return group
    return None


#: a write: ``Idempotency-Key`` read, checked and documented (:mod:`api.idempotency`)
_idempotent = idempotency.documented(blp)
#: a write whose request names its effect: a resend of it is answered as a duplicate (200)
_idempotent_or_duplicate = idempotency.documented(blp, duplicates=True)


# --- the event ------------------------------------------------------------------------------


@blp.post("")
@blp.arguments(CreateTournamentSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@blp.doc(**links(201, **{
    name: link(f"/api/v1/tournaments/{{{param}}}{tail}", method, **{param: "$response.body#/id"})
    for name, param, tail, method in (
        ("GetTournament", "tid", "", "get"), ("PostPlayers", "tid", "/players", "post"),
        ("GetPlayers", "tid", "/players", "get"), ("PostSchedule", "tid", "/schedule", "post"),
        ("GetSchedule", "tid", "/schedule", "get"), ("PostWithdrawal", "tid", "/withdrawals", "post"),
        ("PostHand", "tid", "/hands", "post"), ("PostEntry", "tid", "/hands/entry", "post"),
        ("GetHands", "tid", "/hands", "get"), ("PostRevert", "tid", "/reverts", "post"),
        ("PostLink", "tid", "/links", "post"), ("GetLinks", "tid", "/links", "get"), ("PostSync", "tid", "/sync", "post"),
        ("GetStandings", "tid", "/standings", "get"), ("GetLog", "tid", "/log", "get"),
        ("GetBalance", "tid", "/balance", "get"), ("PutClock", "tournament_id", "/clock", "put"),
        ("GetClock", "tournament_id", "/clock", "get"), ("StartRound", "tournament_id", "/clock/start", "post"),
        ("CallTime", "tournament_id", "/clock/call-time", "post"), ("ReportTable", "tournament_id", "/clock/reports", "post"),
        ("CloseRound", "tournament_id", "/clock/close", "post"), ("Publish", "tournament_id", "/clock/publish", "post"),
        ("GetPublished", "tournament_id", "/seating/published", "get"))}))
@blp.alt_response(409, description="代號已用 the id is taken")
@_idempotent_or_duplicate
def create_tournament(data: dict):
    """建立賽事 Create an event (official): rounds, 將 per round, stakes 底/台, ruleset, round time."""
    principal = _official()
    return create_event(data, actor=principal.id)


def create_event(data: dict, *, actor: int | None) -> Response:
    """Create an event (``data`` as :class:`CreateTournamentSchema` loads it) for ``actor``:
    the API's ``POST /tournaments`` and the setup page (web/setup.py) alike.

    :raises ApiProblem: 409 the id is taken; an unknown ruleset 400.
    """
    Ruleset.load(data["ruleset"])  # an unknown profile: 400 naming ruleset
    settings = EventSettings(data["name"], data["rounds"], data["matches_per_round"], data["base"], data["per_tai"],
                             data["ruleset"], data["round_minutes"])

    location = f"/api/v1/tournaments/{data['id']}"

    def work(tx):
        row = tstore.create_tournament(tx.db, data["id"], name=data["name"], config={}, created_by=actor)
        if row is None:
            existing = replayed(tx.db, data["id"])
            if existing.records and existing.records[0].event == EventCreated(settings) \
                    and existing.row["name"] == data["name"]:
                raise Duplicate(summary(existing))  # created so already: a resend
            raise ApiProblem(409, "tournament_exists", f"tournament {data['id']!r} already exists",
                             f"賽事「{data['id']}」已存在", field="id")
        tstore.append_events(tx.db, data["id"], [EventCreated(settings)], actor=actor)
        return 201, summary(replayed(tx.db, data["id"])), {"Location": location}

    try:
        return idempotency.respond(*idempotency.submit(data["id"], work))
    except Duplicate as dup:
        return idempotency.respond(200, dup.body, {"Location": location})


@blp.get("")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def list_tournaments():
    """賽事清單 Every event with its summary."""
    _read()
    return jsonify({"tournaments": [summary(load(row["id"])) for row in tstore.list_tournaments(get_db())]})


@blp.get("/<tid>")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def get_tournament(tid: str):
    """一場賽事 An event: settings, players, rounds seated, hands, last seq."""
    _read()
    return jsonify(summary(load(tid)))


# --- players ----------------------------------------------------------------------------------


@blp.post("/<tid>/players")
@blp.arguments(PlayersSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent_or_duplicate
def register_players(data: dict, tid: str):
    """報名 Register players and substitutes (替補), all or none."""
    principal = _official()
    return register(tid, data, actor=principal.id)


def register(tid: str, data: dict, *, actor: int | None) -> Response:
    """Register players (``data`` as :class:`PlayersSchema` loads it) for ``actor``, all or
    none: the API's ``POST …/players`` and the setup page's import alike.

    :raises ApiProblem: 400 naming ``players[k].id`` for an id listed twice; 409 registered already.
    """
    load(tid)
    ids = [p["id"] for p in data["players"]]
    dup = next((k for k, p in enumerate(ids) if p in ids[:k]), None)
    if dup is not None:
        raise bad_request("duplicate_player", f"players[{dup}].id", f"{ids[dup]!r} is listed twice",
                          f"選手代號「{ids[dup]}」重複")
    wanted = [PlayerRegistered(p["id"], p["name"], p["substitute"]) for p in data["players"]]

    def answer(records, state) -> dict:
        return {"registered": ids, "records": _records(records), "players": [_player(p) for p in state.players]}

    def events(db):
        loaded = replayed(db, tid)
        if all(loaded.state.player(i) is not None for i in ids):  # all registered: exactly so, a resend
            found = {r.event.player_id: r for r in loaded.records if isinstance(r.event, PlayerRegistered)}
            if [found[i].event for i in ids] == wanted:
                raise Duplicate(answer([found[i] for i in ids], loaded.state))
        return wanted

    return write(tid, events, actor=actor, answer=lambda w: answer(w.added, w.loaded.state))


def _player(p) -> dict:
    return {"id": p.player_id, "name": p.name, "substitute": p.substitute, "withdrawn_before": p.withdrawn_before}


@blp.get("/<tid>/players")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def list_players(tid: str):
    """選手 The players and substitutes."""
    _read()
    return jsonify({"players": [_player(p) for p in load(tid).state.players]})


# --- schedule and rounds -------------------------------------------------------------------------


def _schedule_of(loaded: Loaded) -> Schedule:
    state = loaded.state
    return Schedule(tuple(p.player_id for p in state.players), state.rounds)


@blp.post("/<tid>/schedule")
@blp.arguments(ScheduleRequestSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent_or_duplicate
def make_event_schedule(data: dict, tid: str):
    """排座 Make the schedule (``tournament.schedule.make_schedule``) and seat its rounds (RoundSeated each)."""
    principal = _official()
    return schedule_event(tid, data, actor=principal.id)


def schedule_event(tid: str, data: dict, *, actor: int | None) -> Response:
    """Make the schedule and seat its rounds (``data`` as :class:`ScheduleRequestSchema` loads
    it) for ``actor``: the API's ``POST …/schedule`` and the seating page alike."""
    loaded = load(tid)
    state = loaded.state
    players = [p.player_id for p in state.players if not p.substitute and p.withdrawn_before is None]
    try:
        schedule = make_schedule(players, state.settings.rounds, seed=data["seed"])
    except ScheduleError as exc:  # too few players registered yet: the event's state, not the body (409)
        raise refused(exc) from None
    wanted = data["rounds"] or [p.round for p in schedule.rounds]
    bad = next((k for k, r in enumerate(wanted) if not 1 <= r <= state.settings.rounds), None)
    if bad is not None:
        raise bad_request("invalid_round", f"rounds[{bad}]", f"round {wanted[bad]} is outside 1–{state.settings.rounds}",
                          f"輪次 {wanted[bad]} 不在 1–{state.settings.rounds}")
    plans = [p for p in schedule.rounds if p.round in set(wanted)]

    def answer(w: Written) -> dict:
        after = w.loaded
        return {"method": schedule.method, "seed": schedule.seed, "records": _records(w.added),
                "rounds": [plan_dict(after, p) for p in after.state.rounds], "quality": quality(_schedule_of(after))}

    def events(db):
        now = replayed(db, tid)
        if plans and all(now.state.round(p.round) == p for p in plans):  # seated so already: a resend
            found = [_last_group(now.records, [RoundSeated(p)]) for p in plans]
            raise Duplicate(answer(Written(db, tid, [g[0] for g in found if g], now)))
        return [RoundSeated(p) for p in plans]

    return write(tid, events, actor=actor, answer=answer)


@blp.get("/<tid>/schedule")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def get_schedule(tid: str):
    """賽程 The rounds seated and their quality (repeats, wind balance: ``check_schedule``)."""
    _read()
    loaded = load(tid)
    return jsonify({"rounds": [plan_dict(loaded, p) for p in loaded.state.rounds],
                    "quality": quality(_schedule_of(loaded))})


@blp.put(f"/<tid>/rounds/<{INT}:round_no>")
@blp.arguments(RoundSeatsSchema)
@blp.response(200, AnySchema)
@blp.doc(security=BEARER)
@_idempotent
def seat_round(data: dict, tid: str, round_no: int):
    """手動排座 Seat a round by hand (until it has results)."""
    principal = _official()
    load(tid)
    plan = RoundPlan(round_no, tuple(TablePlan(t["table"], tuple(t["seats"])) for t in data["tables"]))

    def answer(records, after: Loaded) -> dict:
        return {"round": plan_dict(after, after.state.round(round_no)), "records": _records(records),
                "quality": quality(_schedule_of(after))}

    def events(db):
        now = replayed(db, tid)
        if now.state.round(round_no) == plan:  # a PUT of what is seated: nothing to write
            raise Duplicate(answer(_last_group(now.records, [RoundSeated(plan)]) or [], now))
        return [RoundSeated(plan)]

    return write(tid, events, actor=principal.id, answer=lambda w: answer(w.added, w.loaded), status=200)


@blp.get(f"/<tid>/rounds/<{INT}:round_no>")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def get_round(tid: str, round_no: int):
    """一輪 A round: its tables, each 將's seats (after 搬風) and the 定莊."""
    _read()
    loaded = load(tid)
    plan = loaded.state.round(round_no)
    if plan is None:
        raise not_found("round", "輪次", round_no, "round")
    return jsonify(plan_dict(loaded, plan))


@blp.post(f"/<tid>/rounds/<{INT}:round_no>/substitutes")
@blp.arguments(SubstituteSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent_or_duplicate
def seat_substitute(data: dict, tid: str, round_no: int):
    """替補入座 A registered substitute takes a round's 替補 seat."""
    principal = _official()
    load(tid)
    seated = [SubstituteSeated(round_no, data["table"], wind_of(data["wind"]), data["player_id"])]

    def answer(w: Written) -> dict:
        return {"round": plan_dict(w.loaded, w.loaded.state.round(round_no)), "records": _records(w.added)}

    def events(db):
        now = replayed(db, tid)
        plan = now.state.round(round_no)
        table = next((t for t in plan.tables if t.table == data["table"]), None) if plan else None
        found = _last_group(now.records, seated)
        if table is not None and table.seats[seated[0].wind] == data["player_id"] and found:  # sits there already
            raise Duplicate(answer(Written(db, tid, found, now)))
        return seated

    return write(tid, events, actor=principal.id, answer=answer)


@blp.post("/<tid>/withdrawals")
@blp.arguments(WithdrawalSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent
def withdraw(data: dict, tid: str):
    """退賽 A player withdraws before a round: later rounds re-seated (``reseat``), earlier ones kept."""
    principal = _official()
    loaded = load(tid)
    state = loaded.state
    if state.player(data["player_id"]) is None:
        raise refused(EventLogError(f"{data['player_id']!r} is not registered", field="player_id",
                                    reason_zh=f"{data['player_id']!r} 未報名"))
    later = [p for p in state.rounds if p.round >= data["before_round"]]
    reseated: tuple[RoundPlan, ...] = ()
    if later:
        try:
            schedule = reseat(_schedule_of(loaded), withdrawn=[data["player_id"]], from_round=data["before_round"],
                              seed=data["seed"])
        except ScheduleError as exc:  # too few players would be left, a round past the schedule: 409
            raise refused(exc) from None
        reseated = tuple(p for p in schedule.rounds if p.round >= data["before_round"])
    events = [PlayerWithdrew(data["player_id"], data["before_round"], reseated, data["reason"])]
    return write(tid, events, actor=principal.id,
                 answer=lambda w: {"records": _records(w.added), "rounds": [plan_dict(w.loaded, p) for p in reseated],
                                   "quality": quality(_schedule_of(w.loaded))})


# --- 搬風 and 定莊 ---------------------------------------------------------------------------------


def _table_plan(state, round_no: int, table: int) -> TablePlan:
    plan = state.round(round_no)
    found = next((t for t in plan.tables if t.table == table), None) if plan else None
    if found is None:
        raise refused(EventLogError(f"round {round_no} has no table {table}", field="table",
                                    reason_zh=f"第 {round_no} 輪沒有第 {table} 桌"))
    return found


def _previous_match(loaded: Loaded, round_no: int, table: int, match: int) -> tuple[Seating, int | None]:
    """The previous 將's seating and who throws the next 搬風 (R-tour-2, ``table.next_thrower``):
    the winner of its last hand; with no winner there, that hand's dealer (known when the
    previous 將's 定莊 is recorded); ``None`` when unknown."""
    state = loaded.state
    seating = dict(state.match_seatings).get((round_no, table, match - 1))
    if seating is None:
        seating = Seating(tuple(_table_plan(state, round_no, table).seats), 0)
    hands = sorted((h for h in state.hands if h.key[:3] == (round_no, table, match - 1)), key=lambda h: h.key)
    if not hands:
        return seating, None
    if hands[-1].result.wins:
        return seating, hands[-1].result.wins[0].seat
    first = loaded.provenance.dealer_of(round_no, table, match - 1)
    before = deal_after(first, [h.result for h in hands[:-1]]) if first is not None else None
    return seating, before.dealer if before is not None else None


@blp.post(f"/<tid>/rounds/<{INT}:round_no>/tables/<{INT}:table>/matches/<{INT}:match>/draw")
@blp.arguments(MatchDrawSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent_or_duplicate
def draw_match(data: dict, tid: str, round_no: int, table: int, match: int):
    """搬風與定莊 The seats of a 將 (``seat.banfeng``) and its first dealer (``seat.dealer``):
    recorded at a physical table (``draws``, ``dealer_dice``) or generated (``seed``); from the
    second 將 a draw repeating the previous order is redrawn."""
    principal = _official()
    return draw_for(tid, round_no, table, match, data, actor=principal.id)


def draw_for(tid: str, round_no: int, table: int, match: int, data: dict, *, actor: int | None) -> Response:
    """搬風 and 定莊 of a 將 (``data`` as :class:`MatchDrawSchema` loads it) for ``actor``: the
    API's ``POST …/draw`` and the seating page alike."""
    loaded = load(tid)
    state = loaded.state
    plan = _table_plan(state, round_no, table)
    if not 1 <= match <= state.settings.matches_per_round:
        raise refused(EventLogError(f"match {match} is outside 1–{state.settings.matches_per_round}", field="match",
                                    reason_zh=f"將 {match} 不在 1–{state.settings.matches_per_round}"))
    if match == 1:
        if None in plan.seats:
            raise refused(EventLogError("a substitute's seat is not filled yet", field="table",
                                        reason_zh=f"第 {table} 桌的替補席尚未有人入座"))
        players, previous, last_winner = tuple(plan.seats), None, None
    else:
        previous, last_winner = _previous_match(loaded, round_no, table, match)
        players = previous.players
    thrower = data["thrower"]
    if last_winner is not None and thrower is not None and thrower != last_winner:
        raise bad_request("wrong_thrower", "thrower",
                          f"the previous 將's last winner (or its dealer: seat {last_winner}) throws, not seat {thrower}",
                          f"應由前一將末盤胡牌者（或其莊家，{last_winner} 號座）擲骰，不是 {thrower} 號座")
    generated = data["draws"] is None
    if thrower is None:
        thrower = last_winner
    if thrower is None and match == 1:  # anyone at the first 將: the recorded thrower, else seat 0 (the schedule's East)
        thrower = data["draws"][0]["thrower"] if data["draws"] else 0
    if thrower is None:
        raise bad_request("invalid_body", "thrower",
                          "the previous 將's last winner (or dealer) is not known: give the thrower",
                          "無法由前一將得知擲骰者（末盤胡牌者或莊家），請填寫 thrower")
    rng = random.Random(data["seed"] if data["seed"] is not None else secrets.randbits(64))
    if generated:
        result = draw_seats(players, thrower=thrower, previous=previous, rng=rng)
    else:
        draws = [SeatDraw(d["thrower"], tuple(d["dice"]), tuple(wind_of(w) for w in d["tiles"])) for d in data["draws"]]
        if not draws:
            raise bad_request("invalid_body", "draws", "no draw recorded", "未記錄任何搬風")
        result = draw_seats(players, thrower=thrower, previous=previous, draws=draws)
        if data["dealer_dice"] is None:
            raise bad_request("invalid_body", "dealer_dice", "recorded draws need the 定莊 dice too",
                              "記錄實際搬風時須一併記錄定莊骰子")
    dealer = draw_dealer(result.seating, dice=tuple(data["dealer_dice"])) if data["dealer_dice"] else \
        draw_dealer(result.seating, rng=rng)
    drawn = [MatchSeated(round_no, table, match, result.seating),
             MatchDrawn(round_no, table, match, result.attempts, dealer, generated)]

    def answer(records: list) -> dict:
        return {"round": round_no, "table": table, "match": match, "seats": list(result.seating.players),
                "east": result.seating.east, "winds": result.seating.describe(), "dealer": dealer.dealer,
                "redraws": result.redraws, "generated": generated, "draws": [encode_draw(d) for d in result.attempts],
                "dealer_draw": {"thrower": dealer.thrower, "dice": list(dealer.dice)}, "records": _records(records)}

    def events(db):
        # the same draw again (recorded, or generated from the same seed) while it stands: a resend
        now = replayed(db, tid)
        if dict(now.state.match_seatings).get((round_no, table, match)) == result.seating \
                and now.provenance.draws.get((round_no, table, match)) == drawn[1]:
            found = _last_group(now.records, drawn)
            if found is not None:
                raise Duplicate(answer(found))
        return drawn

    return write(tid, events, actor=actor, answer=lambda w: answer(w.added))


def encode_draw(d: SeatDraw) -> dict:
    return {"thrower": d.thrower, "dice": list(d.dice), "tiles": [w.name for w in d.tiles]}


# --- results ---------------------------------------------------------------------------------------


def _key_events(tid: str, data: dict, events_at: Callable[[tuple], list],
                check: Callable[[tuple, EventState, Provenance], None], answer: Callable[[list], dict]) -> Callable:
    """The events for a hand at ``data``'s key — ``events_at(key)``, once ``check(key, state,
    provenance)`` passes — the hand number defaulting to the 將's next, decided inside the
    write transaction from the log as it is then.

    A request naming its hand (``hand`` given) whose events are already the record of that
    hand in effect — the same result (and entry, and referee hand) — is a resend:
    :class:`api.idempotency.Duplicate`, answered by ``answer(those records)``; another body
    there is still refused (409 ``key``)."""

    def events(db):
        records = tstore.load_records(db, tid)
        state = replay(records)
        hand = data["hand"]
        if hand is None:
            hand = 1 + sum(1 for h in state.hands if h.key[:3] == (data["round"], data["table"], data["match"]))
        key = (data["round"], data["table"], data["match"], hand)
        prov = fold(records)
        if data["hand"] is not None and state.hand(key) is not None:
            table_id = prov.linked.get(key[:3])
            expected = events_at(key) + ([RefereeHandSynced(table_id, data["referee_hand"], key)]
                                         if data["referee_hand"] is not None and table_id is not None else [])
            group = _recorded_as(records, key, expected)
            if group is not None:
                raise Duplicate(answer(group))
        drawn = [m for (r, t, m) in prov.draws if (r, t) == key[:2] and m > key[2]]
        if drawn:  # the next 將's 定莊 is recorded: this one is over (app.rounds)
            raise refused(EventLogError(
                f"match {key[2]} of round {key[0]} table {key[1]} is over: match {max(drawn)} is drawn",
                field="match", reason_zh=f"第 {key[0]} 輪第 {key[1]} 桌第 {key[2]} 將已結束：第 {max(drawn)} 將已擲骰定莊"))
        synced = _referee_hand(prov, key, data["referee_hand"])  # a hand recorded already: refused before its checks
        check(key, state, prov)
        return events_at(key) + synced

    return events


def _recorded_as(records: list, key: tuple, expected: list) -> list | None:
    """The records of the write that recorded hand *key* (in effect), if they are *expected*."""
    for entry in audit(records, key):
        if entry.kind == "HandRecorded" and entry.in_effect:
            return _group(records, entry.seq, expected)
    return None


def _referee_hand(prov: Provenance, key: tuple, referee_hand: int | None) -> list:
    """A hand entered for a referee hand the sync could not record: mark it synced (R-tour-18)."""
    if referee_hand is None:
        return []
    table_id = prov.linked.get(tuple(key[:3]))
    if table_id is None:
        raise refused(EventLogError(f"{key[:3]} is not played at a linked referee table", field="referee_hand",
                                    reason_zh=f"{key[:3]} 沒有連結裁判桌"))
    if (table_id, referee_hand) in prov.synced:
        raise refused(EventLogError(f"referee hand {referee_hand} of {table_id!r} is already recorded as "
                                    f"{list(prov.synced[(table_id, referee_hand)])}", field="referee_hand",
                                    reason_zh=f"裁判桌「{table_id}」第 {referee_hand} 盤已記錄"))
    return [RefereeHandSynced(table_id, referee_hand, key)]


#: a hand recorded: its audit trail, a correction, a revert
HAND_LINKS = {**{name: link(f"/api/v1/tournaments/{{tid}}/hands/{{r}}/{{t}}/{{m}}/{{h}}/{tail}", method, tid="$request.path.tid",
                     r="$response.body#/key/0", t="$response.body#/key/1", m="$response.body#/key/2",
                     h="$response.body#/key/3") for name, tail, method in (("GetAudit", "audit", "get"),
                                                                           ("PostCorrection", "corrections", "post"))},
     "PostRevert": link("/api/v1/tournaments/{tid}/reverts", "post", tid="$request.path.tid")}


def _typed(data: dict) -> HandResult:
    return HandResult(tuple(data["payments"]), tuple(Win(w["seat"], w["tai"], w["deal_in"]) for w in data["wins"]),
                      data["penalty"])


def _check_typed(loaded: Loaded, state, prov: Provenance, key: tuple, result: HandResult) -> None:
    """A typed hand must agree with its 台, the stakes and the 將 (tournament.typed); a house
    arrangement (``house_arrangement``, recorded beside the hand for the audit) is not checked."""
    settings = loaded.settings
    ruleset = Ruleset.load(settings.ruleset)
    rules = PlayRules.of(ruleset)  # play.multiple_wins, play.multiple_wins_limit as the referee reads them
    check_typed(result, table_for(ruleset), Stakes(settings.base, settings.per_tai), multiple_wins=rules.multiple_wins,
                deal=deal_of(state, prov, key), max_winners=rules.multiple_wins_limit)


@blp.post("/<tid>/hands")
@blp.arguments(TypedResultSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@blp.alt_response(409, description="紀錄不合（已記錄、未排座、盤號不連續）the log refuses it")
@_idempotent_or_duplicate
@blp.doc(**links(201, **HAND_LINKS))
def record_hand(data: dict, tid: str):
    """記錄一盤 A hand's payments and wins typed in (HandRecorded): they must agree with the wins'
    台 and the stakes (tournament.typed), or be entered as a house arrangement with its reason."""
    principal = _official()
    loaded = load(tid)
    result = _typed(data)

    arrangement = data["house_arrangement"]

    def answer(records: list) -> dict:
        return {"key": list(records[0].event.key), "result": hand_dict(records[0].event.result),
                "records": _records(records)}

    def events_at(key: tuple) -> list:
        return [HandRecorded(key, result)] + ([HouseArrangement(key, arrangement)] if arrangement is not None else [])

    def check(key: tuple, state, prov: Provenance) -> None:
        if arrangement is None:
            _check_typed(loaded, state, prov, key, result)

    return write(tid, _key_events(tid, data, events_at, check, answer), actor=principal.id,
                 answer=lambda w: answer(w.added))


def _items(raw: list) -> tuple[TaiItem, ...]:
    return tuple(TaiItem(i["code"], i["count"], i["tai"]) for i in raw)


def _entry(data: dict) -> ScorerEntry:
    return ScorerEntry(dealer=data["dealer"], winner=data["winner"], deal_in=data["deal_in"], streak=data["streak"],
                       items=_items(data["items"]), tai=data["tai"], streak_marker=data["streak_marker"],
                       robbed=data.get("robbed"),
                       also=tuple(AlsoWon(a["winner"], _items(a["items"]), a["tai"]) for a in data.get("also", ())))


def settle_for(settings, entry: ScorerEntry):
    """A scorer's entry settled under the event's ruleset and stakes; 一炮多響 as the referee
    reads ``play.multiple_wins`` / ``play.multiple_wins_limit`` (the pages preview with it too)."""
    ruleset = Ruleset.load(settings.ruleset)
    rules = PlayRules.of(ruleset)
    return settle_entry(entry, ruleset, Stakes(settings.base, settings.per_tai), multiple_wins=rules.multiple_wins,
                        max_winners=rules.multiple_wins_limit)


def _settle(loaded: Loaded, entry: ScorerEntry):
    return settle_for(loaded.settings, entry)


def _check_deal(state, prov, key: tuple, entry: ScorerEntry) -> None:
    """The dealer and streak entered must follow from the 將's 定莊 and earlier hands, or,
    with no 定莊 recorded, from the previous hand's entry (``seat.dealer``,
    ``app.dealer-continue``, ``tai.10``)."""
    expected = deal_of(state, prov, key)
    if isinstance(expected, tuple):  # no 定莊: the previous hand's entry says who deals now
        dealer, streak = expected
        expected = MatchState(dealer, dealer, streak)
    if expected is not None:
        check_deal(entry, expected, key[3])


@blp.post("/<tid>/hands/entry")
@blp.arguments(EntryResultSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@blp.alt_response(409, description="紀錄不合 the log refuses it")
@_idempotent_or_duplicate
@blp.doc(**links(201, **HAND_LINKS))
def enter_hand(data: dict, tid: str):
    """計分員輸入 A scorer's entry by 台 items: payments computed by the referee's settlement
    under the event's stakes and ruleset; impossible combinations refused naming the item."""
    principal = _official()
    return post_entry(tid, data, actor=principal.id)


def post_entry(tid: str, data: dict, *, actor: int | None) -> Response:
    """Record a scorer's entry (``data`` as :class:`EntryResultSchema` loads it) for ``actor``:
    the API's ``POST …/hands/entry`` and the scorer's results page (web/results.py) alike.

    :raises EntryError: an impossible entry (400 naming the item), before anything is written.
    :raises ApiProblem: 404 no such event; 409 the log refuses it.
    """
    loaded = load(tid)
    entry = _entry(data)
    settled = _settle(loaded, entry)  # 400 naming the item before anything is written

    def answer(records: list) -> dict:
        return {"key": list(records[0].event.key), "result": hand_dict(settled.result),
                "settlement": settled.to_dict(), "records": _records(records)}

    events = _key_events(tid, data, lambda key: [HandRecorded(key, settled.result), ScorerEntered(key, entry)],
                         lambda key, state, prov: _check_deal(state, prov, key, entry), answer)
    return write(tid, events, actor=actor, answer=lambda w: answer(w.added))


@blp.get("/<tid>/hands")
@blp.arguments(HandsQuerySchema, location="query")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
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


@blp.post(HAND + "/corrections")
@blp.arguments(CorrectionSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent_or_duplicate
def correct_hand(data: dict, tid: str, r: int, t: int, m: int, h: int):
    """更正 Correct a hand (HandCorrected, with the reason): payments and wins, or a scorer's entry."""
    principal = _official()
    return post_correction(tid, (r, t, m, h), data, actor=principal.id)


def post_correction(tid: str, key: tuple, data: dict, *, actor: int | None) -> Response:
    """Correct hand ``key`` (``data`` as :class:`CorrectionSchema` loads it) for ``actor``: the
    API's ``POST …/corrections`` and the results page's correction alike.

    :raises EntryError: an impossible entry; :raises ApiProblem: 400 / 409 naming the field.
    """
    loaded = load(tid)
    if data["entry"] is not None:
        entry = _entry(data["entry"])
        settled = _settle(loaded, entry)
        _check_deal(loaded.state, loaded.provenance, key, entry)
        result = settled.result
        events = [HandCorrected(key, result, data["reason"]), ScorerEntered(key, entry)]
    elif data["payments"] is not None:
        result = _typed(data)
        arrangement = data["house_arrangement"]
        if arrangement is None:
            _check_typed(loaded, loaded.state, loaded.provenance, key, result)
        events = [HandCorrected(key, result, data["reason"])] + \
            ([HouseArrangement(key, arrangement)] if arrangement is not None else [])
    else:
        raise bad_request("invalid_body", "payments", "a correction gives payments (and wins) or an entry",
                          "更正須填寫金額（與胡牌）或台數項目")

    def answer(records: list) -> dict:
        return {"key": list(key), "result": hand_dict(result), "records": _records(records)}

    def corrected(db):
        # the correction in effect is this one already: a resend (correcting to the same again changes nothing)
        records = tstore.load_records(db, tid)
        entry = replay(records).hand(key)
        found = _group(records, entry.seq, events) if entry is not None and entry.corrected else None
        if found is not None:
            raise Duplicate(answer(found))
        return events

    return write(tid, corrected, actor=actor, answer=lambda w: answer(w.added))


@blp.get(HAND + "/audit")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def hand_audit(tid: str, r: int, t: int, m: int, h: int):
    """稽核紀錄 Every record about a hand: who, when, why, and whether it is in effect."""
    _read()
    loaded = load(tid)
    entries = audit(loaded.records, (r, t, m, h))
    if not entries:
        raise not_found("hand", "盤", f"{r}-{t}-{m}-{h}", "hand")
    return jsonify({"key": [r, t, m, h], "trail": audit_dict(loaded, entries)})


@blp.post("/<tid>/reverts")
@blp.arguments(RevertSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent_or_duplicate
def revert(data: dict, tid: str):
    """撤銷 Revert a hand record, a correction or a revert (Reverted, with the reason)."""
    principal = _official()
    load(tid)
    wanted = [Reverted(data["seq"], data["reason"])]

    def events(db):
        # the record is reverted, by a revert like this one still in effect: a resend
        records = tstore.load_records(db, tid)
        undone = reverted(records)
        found = _last_group(records, wanted) if data["seq"] in undone else None
        if found is not None and found[0].seq not in undone:
            raise Duplicate({"records": _records(found)})
        return wanted

    return write(tid, events, actor=principal.id, answer=lambda w: {"records": _records(w.added)})


# --- referee tables ----------------------------------------------------------------------------------


@blp.post("/<tid>/links")
@blp.arguments(LinkSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@_idempotent_or_duplicate
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
                             f"桌「{data['table_id']}」不屬於賽事「{tid}」（開桌時須指定 tournament）", field="table_id")
        records = tstore.load_records(db, tid)
        state, prov = replay(records), fold(records)
        if prov.links.get(data["table_id"]) == key:  # linked so already: a resend
            raise Duplicate(answer(_last_group(records, [TableLinked(data["table_id"], *key)]) or []))
        if data["table_id"] in prov.links:
            raise refused(EventLogError(f"table {data['table_id']!r} is already linked", field="table_id",
                                        reason_zh=f"桌「{data['table_id']}」已連結"))
        if key in prov.linked:
            raise refused(EventLogError(f"{key} is already played at table {prov.linked[key]!r}", field="table",
                                        reason_zh=f"{key} 已連結裁判桌「{prov.linked[key]}」"))
        _table_plan(state, data["round"], data["table"])
        if not 1 <= data["match"] <= state.settings.matches_per_round:
            raise refused(EventLogError(f"match {data['match']} is outside 1–{state.settings.matches_per_round}",
                                        field="match", reason_zh=f"將 {data['match']} 不在 1–{state.settings.matches_per_round}"))
        return [TableLinked(data["table_id"], *key)]

    def answer(records: list) -> dict:
        return {"table_id": data["table_id"], "round": key[0], "table": key[1], "match": key[2],
                "records": _records(records)}

    written = write(tid, events, actor=principal.id, answer=lambda w: answer(w.added))
    live_service().forget(data["table_id"])  # the hand in play is replayed with the 將's players: its rulings name them
    return written


@blp.get("/<tid>/links")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def list_links(tid: str):
    """裁判桌連結 The referee tables linked to (round, table, 將)."""
    _read()
    loaded = load(tid)
    return jsonify({"links": [{"table_id": k, "round": v[0], "table": v[1], "match": v[2]}
                              for k, v in sorted(loaded.provenance.links.items(), key=lambda x: x[1])]})


@blp.post("/<tid>/sync")
@blp.response(200, AnySchema)
@blp.doc(security=BEARER)
@_idempotent
def sync(tid: str):
    """同步裁判成績 Record the linked tables' closed hands not yet in the log (idempotent)."""
    principal = _official()
    load(tid)

    def work(tx):
        report = sync_report(tx.db, tid, actor=principal.id)
        return 200, {"recorded": _records(report.recorded), "problems": [p.to_dict() for p in report.problems]}, {}

    return idempotency.respond(*idempotency.submit(tid, work))


# --- standings, log, balance -----------------------------------------------------------------------------


def _chain(raw: str | None):
    if raw is None:
        return st.DEFAULT_TIE_BREAKS
    return st.tie_breaks([part.strip() for part in raw.split(",") if part.strip()])


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
    chain = _chain(query["tie_breaks"])
    rows = st.standings(loaded.state, chain, rounds=_rounds(query["rounds"]),
                        include_substitutes=query["include_substitutes"])
    if query["format"] == "csv":
        response = Response(st.to_csv_file(rows), content_type="text/csv; charset=utf-8")  # BOM: Excel
        # RFC 6266: an ASCII fallback name and the UTF-8 one (ids may be Chinese)
        response.headers["Content-Disposition"] = (f'attachment; filename="standings.csv"; '
                                                   f"filename*=UTF-8''{quote(tid)}-standings.csv")
        return response
    return jsonify({"tie_breaks": [c.name.lower() for c in chain], "standings": [_standing(s) for s in rows]})


@blp.get("/<tid>/advancement")
@blp.arguments(AdvancementQuerySchema, location="query")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def get_advancement(query: dict, tid: str):
    """晉級 四取一 (``take=1``) / 四取二 (``take=2``) per table of a round, by that round's totals."""
    _read()
    loaded = load(tid)
    if loaded.state.round(query["round"]) is None:
        raise not_found("round", "輪次", query["round"], "round")
    out = st.advancement(loaded.state, query["round"], query["take"], _chain(query["tie_breaks"]),
                         _cut_decisions(loaded, query["round"], query["take"]))
    return jsonify({"round": query["round"], "take": query["take"], "tables": [
        {"table": a.table, "advancing": list(a.advancing), "tie_at_cut": list(a.tie_at_cut),
         "decided": list(a.decided), "decision_reason": a.decision_reason or None,
         "ranking": [_standing(s) for s in a.ranking]} for a in out]})


def _cut_decisions(loaded: Loaded, round_no: int, take: int) -> dict[int, tuple[tuple[str, ...], str]]:
    return {t: (d.advancing, d.reason) for (r, t, k), d in loaded.provenance.cuts.items() if (r, k) == (round_no, take)}


@blp.post("/<tid>/advancement/decisions")
@blp.arguments(CutDecisionSchema)
@blp.response(201, AnySchema)
@blp.doc(security=BEARER)
@blp.alt_response(409, description="此桌晉級線上沒有同分，或所選不合 no tie there, or the pick does not fill the cut")
@_idempotent_or_duplicate
def decide_cut(data: dict, tid: str):
    """晉級同分裁定 An official decides a tie at the 四取一 / 四取二 cut that the tie-break chain
    could not break (R-tour-10): who of the tied players goes on, with the reason (CutDecided)."""
    principal = _official()
    round_no, table, take = data["round"], data["table"], data["take"]
    event = CutDecided(round_no, table, take, tuple(data["advancing"]), data["reason"])

    def events(db):
        now = replayed(db, tid)
        try:
            tables = st.advancement(now.state, round_no, take, _chain(data["tie_breaks"]))
            advance = next((a for a in tables if a.table == table), None)
            if advance is None:
                raise StandingsError(f"round {round_no} has no table {table}", field="table",
                                     reason_zh=f"第 {round_no} 輪沒有第 {table} 桌")
            st.check_cut_decision(advance, take, event.advancing)
        except StandingsError as exc:  # the state refuses it: 409 naming the field
            raise refused(EventLogError(exc.message, field=exc.field, reason_zh=exc.reason_zh)) from None
        return [event]

    def answer(records: list) -> dict:
        return {"round": round_no, "table": table, "take": take, "advancing": list(event.advancing),
                "reason": event.reason, "records": _records(records)}

    return write(tid, events, actor=principal.id, answer=lambda w: answer(w.added))


@blp.get("/<tid>/log")
@blp.arguments(LogQuerySchema, location="query")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
def get_log(query: dict, tid: str):
    """事件紀錄 The event log (the truth every view is replayed from)."""
    _read()
    loaded = load(tid)
    return jsonify({"tournament": tid, "last_seq": loaded.state.last_seq,
                    "records": [record_dict(r) for r in loaded.records if r.seq > query["after"]]})


@blp.get("/<tid>/balance")
@blp.response(200, AnySchema)
@blp.doc(security=MAYBE_BEARER)
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

"""A tournament's writes, shared by the API and the organisers' pages (issues #7, #15; #19 item 1).

Each command takes the body as the API's schema loads it (:mod:`services.tournament_schemas`)
and the actor, and writes through :func:`services.tournament_write.write`: all or nothing,
the answer made in the same transaction (stored with an ``Idempotency-Key`` when the API's
request carries one, :mod:`services.idempotency`); a resend of a request that names its effect
is answered as a :class:`~services.idempotency.Duplicate` (200, ``"duplicate": true``).
The API's views (:mod:`api.tournaments`) and the pages (:mod:`web.setup`, :mod:`web.results`)
call the same command: the same checks, errors and log.

==============================  ==================================================================
:func:`create_event`            ``POST /tournaments``: EventCreated
:func:`register`                ``POST …/players``: PlayerRegistered each, all or none
:func:`change_team`             the players' page: TeamChanged (R-tour-32)
:func:`schedule_event`          ``POST …/schedule``: the schedule's rounds, RoundSeated each
:func:`seat_round_for`          ``PUT …/rounds/{r}``: a round seated by hand
:func:`seat_by_standings`       ``POST …/rounds/{r}/by-standings``: a (final) round seated by the standings
:func:`substitute_for`          ``POST …/rounds/{r}/substitutes``: a 替補 takes a seat
:func:`withdraw_for`            ``POST …/withdrawals``: PlayerWithdrew, later rounds re-seated
:func:`draw_for`                ``POST …/draw``: 搬風 and 定莊 of a 將 (``seat.banfeng``, ``seat.dealer``)
:func:`record_typed`            ``POST …/hands``: payments and wins typed in (checked, R-tour-25)
:func:`post_entry`              ``POST …/hands/entry``: a scorer's entry by 台 items
:func:`post_correction`         ``POST …/corrections``: HandCorrected with the reason
:func:`revert_for`              ``POST …/reverts``: Reverted with the reason
:func:`decide_cut_for`          ``POST …/advancement/decisions``: a tie at the 四取一/四取二 cut decided
==============================  ==================================================================
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Callable

from flask import Response

from referee.play_rules import PlayRules
from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.table import table_for
from services import idempotency
from services.idempotency import Duplicate
from services.problems import ApiProblem, bad_request
from services.tournament_views import hand_dict, plan_dict, quality, record_dict, summary, wind_of
from services.tournament_write import Loaded, Written, load, refused, replayed, write
from store import tournaments as tstore
from tournament.entry import AlsoWon, ScorerEntry, TaiItem, check_deal, deal_after, settle_entry
from tournament import standings as st
from tournament.errors import EventLogError, ScheduleError, StandingsError
from tournament.events import (
    EventCreated, EventSettings, EventState, HandCorrected, HandRecorded, MatchSeated, PlayerRegistered, PlayerWithdrew,
    TEAM_MAX, Reverted, RoundSeated, SubstituteSeated, TeamChanged, audit, replay, reverted,
)
from tournament.match import MatchState, event_max_streak
from tournament.provenance import (
    CutDecided, HouseArrangement, MatchDrawn, Provenance, RefereeHandSynced, ScorerEntered, fold,
)
from tournament.results import HandResult, Win
from tournament.schedule import RoundPlan, Schedule, TablePlan, by_standings, make_schedule, reseat
from tournament.seating import SeatDraw, Seating, draw_dealer, draw_seats
from tournament.typed import check_typed, deal_of


def records_of(added) -> list[dict]:
    return [record_dict(r) for r in added]


def group_at(records, seq: int, events: list) -> list | None:
    """The records from *seq* on if they are *events*, written together (one request)."""
    group = list(records[seq - 1:seq - 1 + len(events)])
    if [r.event for r in group] == list(events) and len({(r.by, r.at) for r in group}) == 1:
        return group
    return None


def last_group(records, events: list) -> list | None:
    """The last records written together that are exactly *events* (a request's, resent)."""
    for record in reversed(records):
        if record.event == events[0]:
            group = group_at(records, record.seq, events)
            if group is not None:
                return group
    return None


def create_event(data: dict, *, actor: int | None) -> Response:
    """Create an event (``data`` as :class:`CreateTournamentSchema` loads it) for ``actor``:
    the API's ``POST /tournaments`` and the setup page (web/setup.py) alike.

    :raises ApiProblem: 409 the id is taken; an unknown ruleset 400.
    """
    Ruleset.load(data["ruleset"])  # an unknown profile: 400 naming ruleset
    settings = EventSettings(data["name"], data["rounds"], data["matches_per_round"], data["base"], data["per_tai"],
                             data["ruleset"], data["round_minutes"], data.get("time_zone"))

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
    wanted = [PlayerRegistered(p["id"], p["name"], p["substitute"], _team(p.get("team"))) for p in data["players"]]

    def answer(records, state) -> dict:
        return {"registered": ids, "records": records_of(records), "players": [player_dict(p) for p in state.players]}

    def events(db):
        loaded = replayed(db, tid)
        if all(loaded.state.player(i) is not None for i in ids):  # all registered: exactly so, a resend
            found = {r.event.player_id: r for r in loaded.records if isinstance(r.event, PlayerRegistered)}
            if [found[i].event for i in ids] == wanted:
                raise Duplicate(answer([found[i] for i in ids], loaded.state))
        return wanted

    return write(tid, events, actor=actor, answer=lambda w: answer(w.added, w.loaded.state))


def change_team(tid: str, player_id: str, team: str | None, reason: str, *, actor: int | None,
                from_round: int | None = None) -> Response:
    """A player's team set, changed or cleared (R-tour-32): a :class:`TeamChanged` record for
    ``actor`` (the players' page and ``POST …/players/{pid}/team``), every round when
    ``from_round`` is ``None`` (the registration corrected), else from that round on (a move:
    the rounds before stay with the team he played them for). Nothing is written when the
    teams are already so (200).

    :raises ApiProblem: 404 no such event; 400 naming ``team`` for a name too long, ``reason``
        for a reason too long, ``from_round`` for a round the event does not have; 409 for a
        player not registered.
    """
    load(tid)
    team = _team(team)
    if team is not None and len(team) > TEAM_MAX:
        raise bad_request("bad_team", "team", f"a team name is 1–{TEAM_MAX} characters, got {len(team)}",
                          f"隊名須為 1–{TEAM_MAX} 個字，收到 {len(team)} 個字")
    if len(reason) > REASON_MAX:
        raise bad_request("bad_reason", "reason", f"a reason is at most {REASON_MAX} characters, got {len(reason)}",
                          f"理由至多 {REASON_MAX} 個字，收到 {len(reason)} 個字")

    def events(db):
        loaded = replayed(db, tid)
        rounds = loaded.settings.rounds
        if from_round is not None and not 1 <= from_round <= rounds:
            raise bad_request("bad_round", "from_round", f"from_round must be 1–{rounds}, got {from_round}",
                              f"轉隊輪次須為第 1–{rounds} 輪，收到 {from_round}")
        player = loaded.state.player(player_id)
        if player is None:
            raise refused(EventLogError(f"{player_id!r} is not registered", field="player_id",
                                        reason_zh=f"選手「{player_id}」未報名"))
        if player.moved(team, from_round) == player:
            raise Duplicate({"records": [], "players": [player_dict(p) for p in loaded.state.players]})
        return [TeamChanged(player_id, team, reason, from_round)]

    return write(tid, events, actor=actor,
                 answer=lambda w: {"records": records_of(w.added),
                                   "players": [player_dict(p) for p in w.loaded.state.players]})


#: the longest reason a team change takes (as ``TeamChangeSchema``)
REASON_MAX = 500


def _team(name: str | None) -> str | None:
    """A team name as registered: stripped; blank or none → no team (R-tour-30)."""
    return name.strip() or None if isinstance(name, str) else None


def player_dict(p) -> dict:
    """A player as the API shows it; ``teams_before``: the teams he played for before a move
    (R-tour-32), each for the rounds before ``until_round`` (and from the previous one's)."""
    return {"id": p.player_id, "name": p.name, "substitute": p.substitute, "withdrawn_before": p.withdrawn_before,
            "team": p.team, "teams_before": [{"until_round": until, "team": team} for until, team in p.teams_before]}


def schedule_of(loaded: Loaded) -> Schedule:
    state = loaded.state
    return Schedule(tuple(p.player_id for p in state.players), state.rounds)


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
        raise bad_request("invalid_round", f"rounds[{bad}]",
                          f"round {wanted[bad]} is outside 1–{state.settings.rounds}",
                          f"輪次 {wanted[bad]} 不在 1–{state.settings.rounds}")
    plans = [p for p in schedule.rounds if p.round in set(wanted)]

    def answer(w: Written) -> dict:
        after = w.loaded
        return {"method": schedule.method, "seed": schedule.seed, "records": records_of(w.added),
                "rounds": [plan_dict(after, p) for p in after.state.rounds], "quality": quality(schedule_of(after))}

    def events(db):
        now = replayed(db, tid)
        if plans and all(now.state.round(p.round) == p for p in plans):  # seated so already: a resend
            found = [last_group(now.records, [RoundSeated(p)]) for p in plans]
            raise Duplicate(answer(Written(db, tid, [g[0] for g in found if g], now)))
        return [RoundSeated(p) for p in plans]

    return write(tid, events, actor=actor, answer=answer)


def seat_round_for(tid: str, round_no: int, data: dict, *, actor: int | None) -> Response:
    """Seat round *round_no* by hand (``data`` as :class:`RoundSeatsSchema` loads it) for ``actor``,
    until it has results: the API's ``PUT …/rounds/{r}`` and the seating page alike."""
    load(tid)
    plan = RoundPlan(round_no, tuple(TablePlan(t["table"], tuple(t["seats"])) for t in data["tables"]))

    def answer(records, after: Loaded) -> dict:
        return {"round": plan_dict(after, after.state.round(round_no)), "records": records_of(records),
                "quality": quality(schedule_of(after))}

    def events(db):
        now = replayed(db, tid)
        if now.state.round(round_no) == plan:  # a PUT of what is seated: nothing to write
            raise Duplicate(answer(last_group(now.records, [RoundSeated(plan)]) or [], now))
        return [RoundSeated(plan)]

    return write(tid, events, actor=actor, answer=lambda w: answer(w.added, w.loaded), status=200)


def substitute_for(tid: str, round_no: int, data: dict, *, actor: int | None) -> Response:
    """A registered substitute takes a round's 替補 seat (``data`` as :class:`SubstituteSchema`
    loads it) for ``actor``: the API's ``POST …/substitutes`` and the seating page alike."""
    load(tid)
    seated = [SubstituteSeated(round_no, data["table"], wind_of(data["wind"]), data["player_id"])]

    def answer(w: Written) -> dict:
        return {"round": plan_dict(w.loaded, w.loaded.state.round(round_no)), "records": records_of(w.added)}

    def events(db):
        now = replayed(db, tid)
        plan = now.state.round(round_no)
        table = next((t for t in plan.tables if t.table == data["table"]), None) if plan else None
        found = last_group(now.records, seated)
        if table is not None and table.seats[seated[0].wind] == data["player_id"] and found:  # sits there already
            raise Duplicate(answer(Written(db, tid, found, now)))
        return seated

    return write(tid, events, actor=actor, answer=answer)


def withdraw_for(tid: str, data: dict, *, actor: int | None) -> Response:
    """A player withdraws before a round (``data`` as :class:`WithdrawalSchema` loads it) for
    ``actor``: later rounds re-seated (``reseat``), earlier ones kept."""
    loaded = load(tid)
    state = loaded.state
    if state.player(data["player_id"]) is None:
        raise refused(EventLogError(f"{data['player_id']!r} is not registered", field="player_id",
                                    reason_zh=f"{data['player_id']!r} 未報名"))
    later = [p for p in state.rounds if p.round >= data["before_round"]]
    reseated: tuple[RoundPlan, ...] = ()
    if later:
        try:
            schedule = reseat(schedule_of(loaded), withdrawn=[data["player_id"]], from_round=data["before_round"],
                              seed=data["seed"])
        except ScheduleError as exc:  # too few players would be left, a round past the schedule: 409
            raise refused(exc) from None
        reseated = tuple(p for p in schedule.rounds if p.round >= data["before_round"])
    events = [PlayerWithdrew(data["player_id"], data["before_round"], reseated, data["reason"])]
    return write(tid, events, actor=actor,
                 answer=lambda w: {"records": records_of(w.added), "rounds": [plan_dict(w.loaded, p) for p in reseated],
                                   "quality": quality(schedule_of(w.loaded))})


def table_plan(state, round_no: int, table: int) -> TablePlan:
    plan = state.round(round_no)
    found = next((t for t in plan.tables if t.table == table), None) if plan else None
    if found is None:
        raise refused(EventLogError(f"round {round_no} has no table {table}", field="table",
                                    reason_zh=f"第 {round_no} 輪沒有第 {table} 桌"))
    return found


def previous_match(loaded: Loaded, round_no: int, table: int, match: int) -> tuple[Seating, int | None]:
    """The previous 將's seating and who throws the next 搬風 (R-tour-2, ``table.next_thrower``):
    the winner of its last hand; with no winner there, that hand's dealer (known when the
    previous 將's 定莊 is recorded); ``None`` when unknown."""
    state = loaded.state
    seating = dict(state.match_seatings).get((round_no, table, match - 1))
    if seating is None:
        seating = Seating(tuple(table_plan(state, round_no, table).seats), 0)
    hands = sorted((h for h in state.hands if h.key[:3] == (round_no, table, match - 1)), key=lambda h: h.key)
    if not hands:
        return seating, None
    if hands[-1].result.wins:
        return seating, hands[-1].result.wins[0].seat
    first = loaded.provenance.dealer_of(round_no, table, match - 1)
    cap = event_max_streak(loaded.settings)
    before = deal_after(first, [h.result for h in hands[:-1]], max_streak=cap) if first is not None else None
    return seating, before.dealer if before is not None else None


def draw_for(tid: str, round_no: int, table: int, match: int, data: dict, *, actor: int | None) -> Response:
    """搬風 and 定莊 of a 將 (``data`` as :class:`MatchDrawSchema` loads it) for ``actor``: the
    API's ``POST …/draw`` and the seating page alike."""
    loaded = load(tid)
    state = loaded.state
    plan = table_plan(state, round_no, table)
    if not 1 <= match <= state.settings.matches_per_round:
        raise refused(EventLogError(f"match {match} is outside 1–{state.settings.matches_per_round}", field="match",
                                    reason_zh=f"將 {match} 不在 1–{state.settings.matches_per_round}"))
    if match == 1:
        if None in plan.seats:
            raise refused(EventLogError("a substitute's seat is not filled yet", field="table",
                                        reason_zh=f"第 {table} 桌的替補席尚未有人入座"))
        players, previous, last_winner = tuple(plan.seats), None, None
    else:
        previous, last_winner = previous_match(loaded, round_no, table, match)
        players = previous.players
    thrower = data["thrower"]
    if last_winner is not None and thrower is not None and thrower != last_winner:
        raise bad_request("wrong_thrower", "thrower",
                          f"the previous 將's last winner (or its dealer: seat {last_winner}) throws, not seat "
                          f"{thrower}",
                          f"應由前一將末盤胡牌者（或其莊家，{last_winner} 號座）擲骰，不是 {thrower} 號座")
    generated = data["draws"] is None
    if thrower is None:
        thrower = last_winner
    # anyone at the first 將: the recorded thrower, else seat 0 (the schedule's East)
    if thrower is None and match == 1:
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
                "dealer_draw": {"thrower": dealer.thrower, "dice": list(dealer.dice)}, "records": records_of(records)}

    def events(db):
        # the same draw again (recorded, or generated from the same seed) while it stands: a resend
        now = replayed(db, tid)
        if dict(now.state.match_seatings).get((round_no, table, match)) == result.seating \
                and now.provenance.draws.get((round_no, table, match)) == drawn[1]:
            found = last_group(now.records, drawn)
            if found is not None:
                raise Duplicate(answer(found))
        return drawn

    return write(tid, events, actor=actor, answer=lambda w: answer(w.added))


def encode_draw(d: SeatDraw) -> dict:
    return {"thrower": d.thrower, "dice": list(d.dice), "tiles": [w.name for w in d.tiles]}


def key_events(tid: str, data: dict, events_at: Callable[[tuple], list],
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
            group = recorded_as(records, key, expected)
            if group is not None:
                raise Duplicate(answer(group))
        drawn = [m for (r, t, m) in prov.draws if (r, t) == key[:2] and m > key[2]]
        if drawn:  # the next 將's 定莊 is recorded: this one is over (app.rounds)
            raise refused(EventLogError(
                f"match {key[2]} of round {key[0]} table {key[1]} is over: match {max(drawn)} is drawn",
                field="match",
                reason_zh=f"第 {key[0]} 輪第 {key[1]} 桌第 {key[2]} 將已結束：第 {max(drawn)} 將已擲骰定莊"))
        # a hand recorded already: refused before its checks
        synced = synced_referee_hand(prov, key, data["referee_hand"])
        check(key, state, prov)
        return events_at(key) + synced

    return events


def recorded_as(records: list, key: tuple, expected: list) -> list | None:
    """The records of the write that recorded hand *key* (in effect), if they are *expected*."""
    for entry in audit(records, key):
        if entry.kind == "HandRecorded" and entry.in_effect:
            return group_at(records, entry.seq, expected)
    return None


def synced_referee_hand(prov: Provenance, key: tuple, referee_hand: int | None) -> list:
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


def typed_result(data: dict) -> HandResult:
    return HandResult(tuple(data["payments"]), tuple(Win(w["seat"], w["tai"], w["deal_in"]) for w in data["wins"]),
                      data["penalty"])


def check_typed_hand(loaded: Loaded, state, prov: Provenance, key: tuple, result: HandResult) -> None:
    """A typed hand must agree with its 台, the stakes and the 將 (tournament.typed); a house
    arrangement (``house_arrangement``, recorded beside the hand for the audit) is not checked."""
    settings = loaded.settings
    ruleset = Ruleset.load(settings.ruleset)
    rules = PlayRules.of(ruleset)  # play.multiple_wins, play.multiple_wins_limit as the referee reads them
    check_typed(result, table_for(ruleset), Stakes(settings.base, settings.per_tai), multiple_wins=rules.multiple_wins,
                deal=deal_of(state, prov, key), max_winners=rules.multiple_wins_limit)


def record_typed(tid: str, data: dict, *, actor: int | None) -> Response:
    """Record a hand typed in as payments and wins (``data`` as :class:`TypedResultSchema` loads
    it) for ``actor``: they must agree with the wins' 台 and the stakes (tournament.typed), or be a
    house arrangement with its reason."""
    loaded = load(tid)
    result = typed_result(data)

    arrangement = data["house_arrangement"]

    def answer(records: list) -> dict:
        return {"key": list(records[0].event.key), "result": hand_dict(records[0].event.result),
                "records": records_of(records)}

    def events_at(key: tuple) -> list:
        return [HandRecorded(key, result)] + ([HouseArrangement(key, arrangement)] if arrangement is not None else [])

    def check(key: tuple, state, prov: Provenance) -> None:
        if arrangement is None:
            check_typed_hand(loaded, state, prov, key, result)

    return write(tid, key_events(tid, data, events_at, check, answer), actor=actor,
                 answer=lambda w: answer(w.added))


def items_of(raw: list) -> tuple[TaiItem, ...]:
    return tuple(TaiItem(i["code"], i["count"], i["tai"]) for i in raw)


def entry_of(data: dict) -> ScorerEntry:
    return ScorerEntry(dealer=data["dealer"], winner=data["winner"], deal_in=data["deal_in"], streak=data["streak"],
                       items=items_of(data["items"]), tai=data["tai"], streak_marker=data["streak_marker"],
                       robbed=data.get("robbed"),
                       also=tuple(AlsoWon(a["winner"], items_of(a["items"]), a["tai"]) for a in data.get("also", ())))


def settle_for(settings, entry: ScorerEntry):
    """A scorer's entry settled under the event's ruleset and stakes; 一炮多響 as the referee
    reads ``play.multiple_wins`` / ``play.multiple_wins_limit`` (the pages preview with it too)."""
    ruleset = Ruleset.load(settings.ruleset)
    rules = PlayRules.of(ruleset)
    return settle_entry(entry, ruleset, Stakes(settings.base, settings.per_tai), multiple_wins=rules.multiple_wins,
                        max_winners=rules.multiple_wins_limit)


def settle_in(loaded: Loaded, entry: ScorerEntry):
    return settle_for(loaded.settings, entry)


def check_entry_deal(state, prov, key: tuple, entry: ScorerEntry) -> None:
    """The dealer and streak entered must follow from the 將's 定莊 and earlier hands, or,
    with no 定莊 recorded, from the previous hand's entry (``seat.dealer``,
    ``app.dealer-continue``, ``tai.10``)."""
    expected = deal_of(state, prov, key)
    if isinstance(expected, tuple):  # no 定莊: the previous hand's entry says who deals now
        dealer, streak = expected
        expected = MatchState(dealer, dealer, streak)
    if expected is not None:
        check_deal(entry, expected, key[3])


def post_entry(tid: str, data: dict, *, actor: int | None) -> Response:
    """Record a scorer's entry (``data`` as :class:`EntryResultSchema` loads it) for ``actor``:
    the API's ``POST …/hands/entry`` and the scorer's results page (web/results.py) alike.

    :raises EntryError: an impossible entry (400 naming the item), before anything is written.
    :raises ApiProblem: 404 no such event; 409 the log refuses it.
    """
    loaded = load(tid)
    entry = entry_of(data)
    settled = settle_in(loaded, entry)  # 400 naming the item before anything is written

    def answer(records: list) -> dict:
        return {"key": list(records[0].event.key), "result": hand_dict(settled.result),
                "settlement": settled.to_dict(), "records": records_of(records)}

    events = key_events(tid, data, lambda key: [HandRecorded(key, settled.result), ScorerEntered(key, entry)],
                         lambda key, state, prov: check_entry_deal(state, prov, key, entry), answer)
    return write(tid, events, actor=actor, answer=lambda w: answer(w.added))


def post_correction(tid: str, key: tuple, data: dict, *, actor: int | None) -> Response:
    """Correct hand ``key`` (``data`` as :class:`CorrectionSchema` loads it) for ``actor``: the
    API's ``POST …/corrections`` and the results page's correction alike.

    :raises EntryError: an impossible entry; :raises ApiProblem: 400 / 409 naming the field.
    """
    loaded = load(tid)
    if data["entry"] is not None:
        entry = entry_of(data["entry"])
        settled = settle_in(loaded, entry)
        check_entry_deal(loaded.state, loaded.provenance, key, entry)
        result = settled.result
        events = [HandCorrected(key, result, data["reason"]), ScorerEntered(key, entry)]
    elif data["payments"] is not None:
        result = typed_result(data)
        arrangement = data["house_arrangement"]
        if arrangement is None:
            check_typed_hand(loaded, loaded.state, loaded.provenance, key, result)
        events = [HandCorrected(key, result, data["reason"])] + \
            ([HouseArrangement(key, arrangement)] if arrangement is not None else [])
    else:
        raise bad_request("invalid_body", "payments", "a correction gives payments (and wins) or an entry",
                          "更正須填寫金額（與胡牌）或台數項目")

    def answer(records: list) -> dict:
        return {"key": list(key), "result": hand_dict(result), "records": records_of(records)}

    def corrected(db):
        # the correction in effect is this one already: a resend (correcting to the same again changes nothing)
        records = tstore.load_records(db, tid)
        entry = replay(records).hand(key)
        found = group_at(records, entry.seq, events) if entry is not None and entry.corrected else None
        if found is not None:
            raise Duplicate(answer(found))
        return events

    return write(tid, corrected, actor=actor, answer=lambda w: answer(w.added))


def revert_for(tid: str, data: dict, *, actor: int | None) -> Response:
    """Revert the record ``data["seq"]`` (a hand record, correction or revert) with the reason
    (``data`` as :class:`RevertSchema` loads it) for ``actor``: the API and the results page alike."""
    load(tid)
    wanted = [Reverted(data["seq"], data["reason"])]

    def events(db):
        # the record is reverted, by a revert like this one still in effect: a resend
        records = tstore.load_records(db, tid)
        undone = reverted(records)
        found = last_group(records, wanted) if data["seq"] in undone else None
        if found is not None and found[0].seq not in undone:
            raise Duplicate({"records": records_of(found)})
        return wanted

    return write(tid, events, actor=actor, answer=lambda w: {"records": records_of(w.added)})


def chain_of(raw: str | None):
    """The tie-break chain a query names (comma-separated), else the default (R-tour-10)."""
    if raw is None:
        return st.DEFAULT_TIE_BREAKS
    return st.tie_breaks([part.strip() for part in raw.split(",") if part.strip()])


def cut_decisions(loaded: Loaded, round_no: int, take: int) -> dict[int, tuple[tuple[str, ...], str]]:
    """The officials' decisions of ties at round ``round_no``'s 四取一 / 四取二 cut, by table."""
    return {t: (d.advancing, d.reason) for (r, t, k), d in loaded.provenance.cuts.items() if (r, k) == (round_no, take)}


def decide_cut_for(tid: str, data: dict, *, actor: int | None) -> Response:
    """An official decides a tie at the 四取一 / 四取二 cut that the tie-break chain could not
    break (``data`` as :class:`CutDecisionSchema` loads it; R-tour-10): the API and the
    advancement page alike.

    :raises ApiProblem: 409 ``event_refused`` naming the field (no tie there, a pick that does not fill it).
    """
    round_no, table, take = data["round"], data["table"], data["take"]
    event = CutDecided(round_no, table, take, tuple(data["advancing"]), data["reason"])

    def events(db):
        now = replayed(db, tid)
        try:
            tables = st.advancement(now.state, round_no, take, chain_of(data["tie_breaks"]))
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
                "reason": event.reason, "records": records_of(records)}

    return write(tid, events, actor=actor, answer=lambda w: answer(w.added))


def seat_by_standings(tid: str, round_no: int, data: dict, *, actor: int | None) -> Response:
    """Seat round ``round_no`` by the standings over ``data["rounds"]`` (default: every round
    before it) and the tie-break chain (``data`` as :class:`ByStandingsSchema` loads it;
    :func:`tournament.schedule.by_standings`, R-tour-28): the players who still play (not
    withdrawn by then, substitutes apart), the top four at table 1 and so on.

    :raises ApiProblem: 400 naming ``rounds`` for a round not before this one; 409 as for a round seated by hand.
    """
    loaded = load(tid)
    state = loaded.state
    ranked_rounds = data["rounds"] if data["rounds"] is not None else list(range(1, round_no))
    if not ranked_rounds:
        raise bad_request("invalid_round", "rounds", f"round {round_no} has no round before it to rank by",
                          f"第 {round_no} 輪之前沒有成績可依")
    bad = next((k for k, r in enumerate(ranked_rounds) if not 1 <= r < round_no), None)
    if bad is not None:
        raise bad_request("invalid_round", f"rounds[{bad}]",
                          f"round {ranked_rounds[bad]} is not before round {round_no}",
                          f"第 {ranked_rounds[bad]} 輪不在第 {round_no} 輪之前")
    playing = {p.player_id for p in state.players
               if not p.substitute and (p.withdrawn_before is None or p.withdrawn_before > round_no)}
    order = [s.totals.player_id for s in st.standings(state, chain_of(data["tie_breaks"]), rounds=ranked_rounds)
             if s.totals.player_id in playing]
    try:
        plan = by_standings(order, round_no)
    except ScheduleError as exc:
        raise refused(exc) from None
    return seat_round_for(tid, round_no, {"tables": [{"table": t.table, "seats": list(t.seats)} for t in plan.tables]},
                          actor=actor)


__all__ = ["chain_of", "check_entry_deal", "create_event", "cut_decisions", "decide_cut_for", "draw_for", "encode_draw",
           "entry_of", "key_events", "last_group", "player_dict", "post_correction", "post_entry", "record_typed",
           "records_of", "register", "revert_for", "schedule_event", "schedule_of", "seat_by_standings",
           "seat_round_for", "settle_for", "substitute_for", "table_plan", "withdraw_for"]

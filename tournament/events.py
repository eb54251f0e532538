"""An event's whole life as a log of records, folded into its state by a pure function.

Each :class:`Record` wraps one event with its sequence number (1, 2, 3 … with no gap),
who recorded it and when (given by the caller: the domain reads no clock). The events:

* :class:`EventCreated` — name, rounds, 將 per round, stakes, ruleset, round time;
* :class:`PlayerRegistered` — a player (Chinese names welcome) or a substitute (替補),
  optionally of a team (團體賽; ``team`` absent in older logs reads as none, R-tour-30);
* :class:`RoundSeated` — a round's tables (:class:`tournament.schedule.RoundPlan`); a round
  may be seated again until a result is recorded in it;
* :class:`SubstituteSeated` — a registered substitute takes a round's 替補 seat;
* :class:`MatchSeated` — the seats a 將 was played in after 搬風 (by physical seat); without
  it a table's seats are the schedule's, 東 at seat 0;
* :class:`HandRecorded` — a hand's :class:`tournament.results.HandResult`;
* :class:`HandCorrected` — a hand's result replaced, with the reason;
* :class:`PlayerWithdrew` — a player leaves before a round; the event carries the later
  rounds re-seated (:func:`tournament.schedule.reseat`), the rounds before stay;
* :class:`Reverted` — a correction (or a recorded hand, or a revert) undone: the log
  folds as if the reverted record were not there, and keeps it for the audit trail.

:func:`replay` folds a whole log; :func:`append` adds an event and refuses it (with a
narrow :class:`tournament.errors.EventLogError`) when the log would not fold; :func:`audit`
lists every record that touched a hand, reverted or not.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from referee.errors import MjrefError
from referee.tiles import Wind

from .errors import EventLogError
from .results import HandResult
from .schedule import RoundPlan, TablePlan
from .seating import Seating

HandKey = tuple[int, int, int, int]  # (round, table, match, hand)

#: the longest team name (隊名) a registration takes
TEAM_MAX = 40


def _fail(message: str, zh: str, field: str = "event") -> EventLogError:
    return EventLogError(message, field=field, reason_zh=zh)


def _check_team(team: object) -> None:
    """A team name (R-tour-30): ``None`` (no team) or 1–:data:`TEAM_MAX` characters, not blank."""
    if team is not None and (not isinstance(team, str) or not team.strip() or len(team) > TEAM_MAX):
        raise _fail(f"a team name is 1–{TEAM_MAX} characters, not blank, got {team!r}",
                    f"隊名須為 1–{TEAM_MAX} 個字且不可空白，收到 {team!r}", "team")


@dataclass(frozen=True, slots=True)
class EventSettings:
    """What an event is played as: name, rounds, 將 per round, stakes (底 / 台), ruleset
    profile, round time in minutes (``None``: untimed), and the IANA time zone its times are
    shown in (``None``: the service's ``TIME_ZONE``; an event abroad names its own)."""

    name: str
    rounds: int
    matches_per_round: int = 1
    base: int = 100
    per_tai: int = 20
    ruleset: str = "competition"
    round_minutes: int | None = None
    time_zone: str | None = None

    def __post_init__(self) -> None:
        if self.time_zone is not None and not _is_zone(self.time_zone):
            raise _fail(f"time_zone must name an IANA time zone (e.g. Asia/Taipei), got {self.time_zone!r}",
                        f"時區須為 IANA 時區名稱（例如 Asia/Taipei），收到 {self.time_zone!r}", "time_zone")
        if not isinstance(self.name, str) or not self.name.strip():
            raise _fail(f"an event needs a name, got {self.name!r}", "賽事須有名稱", "name")
        for name in ("rounds", "matches_per_round"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise _fail(f"{name} must be at least 1, got {value!r}", f"{name} 至少為 1，收到 {value!r}", name)
        for name in ("base", "per_tai"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise _fail(f"{name} must be ≥ 0, got {value!r}", f"{name} 須為 0 以上，收到 {value!r}", name)


def _is_zone(name: object) -> bool:
    """Whether *name* is an IANA time zone this system knows (``Asia/Taipei``)."""
    if not isinstance(name, str) or not name or len(name) > 64:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


class SideEvent:
    """Base of events another fold reads (the clocks', :mod:`tournament.clock`): they sit in
    the same log, keep their sequence numbers, and :func:`replay` passes over them."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class EventCreated:
    settings: EventSettings


@dataclass(frozen=True, slots=True)
class PlayerRegistered:
    player_id: str
    name: str
    substitute: bool = False
    #: the team (隊名) the player plays for in a team event; ``None``: no team (R-tour-30)
    team: str | None = None


@dataclass(frozen=True, slots=True)
class RoundSeated:
    plan: RoundPlan


@dataclass(frozen=True, slots=True)
class SubstituteSeated:
    round: int
    table: int
    wind: Wind
    player_id: str


@dataclass(frozen=True, slots=True)
class MatchSeated:
    round: int
    table: int
    match: int
    seating: Seating


@dataclass(frozen=True, slots=True)
class HandRecorded:
    key: HandKey
    result: HandResult


@dataclass(frozen=True, slots=True)
class HandCorrected:
    key: HandKey
    result: HandResult
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerWithdrew:
    player_id: str
    before_round: int
    reseated: tuple[RoundPlan, ...] = ()
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TeamChanged:
    """A registered player's team (隊名) set, changed or cleared (``None``) by an official
    (R-tour-32). ``from_round`` ``None``: the registration corrected (a misspelt team, the
    wrong team typed), every round counts for the new team; a round number: the player moves
    from that round on, the rounds before it stay with the team he played them for (their
    team totals were announced)."""

    player_id: str
    team: str | None
    reason: str = ""
    from_round: int | None = None


@dataclass(frozen=True, slots=True)
class Reverted:
    seq: int
    reason: str


Event = (EventCreated | PlayerRegistered | RoundSeated | SubstituteSeated | MatchSeated | HandRecorded
         | HandCorrected | PlayerWithdrew | TeamChanged | Reverted)

#: the records a :class:`Reverted` may undo
REVERTIBLE = (HandRecorded, HandCorrected, Reverted)


@dataclass(frozen=True, slots=True)
class Record:
    """One entry of the log: its sequence number, the event, who and when (ISO 8601)."""

    seq: int
    event: Event
    by: str = ""
    at: str = ""


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    name: str
    substitute: bool = False
    #: the first round the player no longer plays, after a withdrawal
    withdrawn_before: int | None = None
    #: the team the player plays for (R-tour-30), ``None`` outside team events
    team: str | None = None
    #: the teams he played for before a move (R-tour-32): ``(until_round, team)`` pairs in
    #: order, ``team`` for the rounds before ``until_round`` (and from the previous pair's)
    teams_before: tuple[tuple[int, str | None], ...] = ()

    def team_in(self, round_no: int) -> str | None:
        """The team the player's hands in round ``round_no`` count for (R-tour-32)."""
        for until, team in self.teams_before:
            if round_no < until:
                return team
        return self.team

    def moved(self, team: str | None, from_round: int | None = None) -> "Player":
        """The player after a :class:`TeamChanged` to ``team`` from ``from_round`` (``None``:
        every round, the registration corrected)."""
        if from_round is None or from_round <= 1:
            return replace(self, team=team, teams_before=())
        pairs = [(until, t) for until, t in self.teams_before if until < from_round]
        pairs.append((from_round, self.team_in(from_round - 1)))
        merged: list[tuple[int, str | None]] = []
        for until, t in pairs:  # a segment of the same team as the next is one segment
            if merged and merged[-1][1] == t:
                merged[-1] = (until, t)
            else:
                merged.append((until, t))
        if merged and merged[-1][1] == team:
            merged.pop()
        return replace(self, team=team, teams_before=tuple(merged))


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A hand's result in effect, the record that set it, and whether it was corrected."""

    key: HandKey
    result: HandResult
    seq: int
    corrected: bool = False


@dataclass(frozen=True, slots=True)
class EventState:
    """What the log says now."""

    settings: EventSettings | None = None
    players: tuple[Player, ...] = ()
    rounds: tuple[RoundPlan, ...] = ()
    match_seatings: tuple[tuple[tuple[int, int, int], Seating], ...] = ()
    hands: tuple[HandEntry, ...] = ()
    last_seq: int = 0

    def player(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.player_id == player_id), None)

    def round(self, number: int) -> RoundPlan | None:
        return next((r for r in self.rounds if r.round == number), None)

    def hand(self, key: Sequence[int]) -> HandEntry | None:
        key = tuple(key)
        return next((h for h in self.hands if h.key == key), None)

    def seats(self, round_no: int, table: int, match: int) -> tuple[str | None, str | None, str | None, str | None]:
        """The players by physical seat for a 將: its :class:`MatchSeated` seating, else the
        round's table in wind order (東 at seat 0); ``None`` for an unfilled 替補 seat."""
        for key, seating in self.match_seatings:
            if key == (round_no, table, match):
                return seating.players
        rnd = self.round(round_no)
        plan = next((t for t in rnd.tables if t.table == table), None) if rnd else None
        if plan is None:
            raise _fail(f"round {round_no} has no table {table}", f"第 {round_no} 輪沒有第 {table} 桌", "table")
        return plan.seats

    def hand_rows(self) -> Iterator[tuple[HandKey, tuple[str | None, ...], HandResult]]:
        """Every hand in effect, in key order, with the players by seat."""
        for entry in sorted(self.hands, key=lambda h: h.key):
            r, t, m, _ = entry.key
            yield entry.key, self.seats(r, t, m), entry.result


class _Fold:
    """The mutable fold behind :func:`replay` (the state it returns is frozen)."""

    def __init__(self) -> None:
        self.settings: EventSettings | None = None
        self.players: dict[str, Player] = {}
        self.rounds: dict[int, RoundPlan] = {}
        self.seatings: dict[tuple[int, int, int], Seating] = {}
        self.hands: dict[HandKey, HandEntry] = {}
        #: hands recorded per (round, table, match), and rounds with any result
        self.counts: dict[tuple[int, int, int], int] = {}
        self.played: set[int] = set()
        self.seq = 0

    def copy(self) -> "_Fold":
        """A fold that goes on from this one, this one unchanged (its values are frozen)."""
        out = _Fold()
        out.settings, out.seq = self.settings, self.seq
        out.players, out.rounds, out.seatings = dict(self.players), dict(self.rounds), dict(self.seatings)
        out.hands, out.counts, out.played = dict(self.hands), dict(self.counts), set(self.played)
        return out

    def freeze(self, last_seq: int) -> EventState:
        return EventState(self.settings, tuple(self.players.values()),
                          tuple(self.rounds[k] for k in sorted(self.rounds)),
                          tuple(sorted(self.seatings.items())), tuple(self.hands[k] for k in sorted(self.hands)),
                          last_seq)

    # --- checks -------------------------------------------------------------------------

    def _round(self, number: int) -> RoundPlan:
        rnd = self.rounds.get(number)
        if rnd is None:
            raise _fail(f"round {number} is not seated", f"第 {number} 輪尚未排座", "round")
        return rnd

    def _table(self, number: int, table: int) -> TablePlan:
        plan = next((t for t in self._round(number).tables if t.table == table), None)
        if plan is None:
            raise _fail(f"round {number} has no table {table}", f"第 {number} 輪沒有第 {table} 桌", "table")
        return plan

    def _played(self, number: int) -> bool:
        return number in self.played

    def _check_plan(self, plan: RoundPlan) -> None:
        if not 1 <= plan.round <= self.settings.rounds:
            raise _fail(f"round {plan.round} is outside 1–{self.settings.rounds}",
                        f"輪次 {plan.round} 不在 1–{self.settings.rounds}", "round")
        numbers = [t.table for t in plan.tables]
        if len(set(numbers)) != len(numbers):
            raise _fail(f"round {plan.round} numbers a table twice: {numbers}", f"第 {plan.round} 輪桌號重複", "tables")
        seen: set[str] = set()
        for t in plan.tables:
            if len(t.seats) != 4:
                raise _fail(f"table {t.table} has {len(t.seats)} seats", f"第 {t.table} 桌不是四個座位", "tables")
            for p in t.players:
                player = self.players.get(p)
                if player is None:
                    raise _fail(f"{p!r} is not registered", f"{p!r} 未報名", "tables")
                if player.withdrawn_before is not None and plan.round >= player.withdrawn_before:
                    raise _fail(f"{p!r} withdrew before round {player.withdrawn_before}",
                                f"{p!r} 已於第 {player.withdrawn_before} 輪前退賽", "tables")
                if p in seen:
                    raise _fail(f"{p!r} is seated twice in round {plan.round}", f"{p!r} 於第 {plan.round} 輪重複排座",
                                "tables")
                seen.add(p)

    def _check_key(self, key: HandKey) -> None:
        if len(key) != 4 or any(type(k) is not int for k in key):
            raise _fail(f"a hand key is (round, table, match, hand), got {key!r}", f"盤號格式錯誤：{key!r}", "key")
        r, t, m, h = key
        self._table(r, t)
        if not 1 <= m <= self.settings.matches_per_round:
            raise _fail(f"match {m} is outside 1–{self.settings.matches_per_round}",
                        f"將 {m} 不在 1–{self.settings.matches_per_round}", "key")
        if h < 1:
            raise _fail(f"hand numbers start at 1, got {h}", f"盤號自 1 起，收到 {h}", "key")

    # --- events -------------------------------------------------------------------------

    def apply(self, record: Record) -> None:
        event = record.event
        if isinstance(event, SideEvent):
            return
        if self.settings is None and not isinstance(event, EventCreated):
            raise _fail("the log must start with EventCreated", "事件紀錄須以建立賽事開始")
        handler = getattr(self, "_on_" + type(event).__name__, None)
        if handler is None:
            raise _fail(f"not an event: {event!r}", f"不是賽事事件：{event!r}")
        handler(event)

    def _on_EventCreated(self, e: EventCreated) -> None:
        if self.settings is not None:
            raise _fail("the event is already created", "賽事已建立")
        self.settings = e.settings

    def _on_PlayerRegistered(self, e: PlayerRegistered) -> None:
        if not isinstance(e.player_id, str) or not e.player_id or not isinstance(e.name, str) or not e.name.strip():
            raise _fail(f"a player needs an id and a name, got {e.player_id!r} {e.name!r}", "選手須有代號與姓名",
                        "player_id")
        if e.player_id in self.players:
            raise _fail(f"{e.player_id!r} is already registered", f"{e.player_id!r} 已報名", "player_id")
        _check_team(e.team)
        self.players[e.player_id] = Player(e.player_id, e.name, e.substitute, team=e.team)

    def _on_TeamChanged(self, e: TeamChanged) -> None:
        player = self.players.get(e.player_id) if isinstance(e.player_id, str) else None
        if player is None:
            raise _fail(f"{e.player_id!r} is not registered", f"{e.player_id!r} 未報名", "player_id")
        _check_team(e.team)
        if not isinstance(e.reason, str):
            raise _fail(f"reason must be text, got {e.reason!r}", f"理由須為文字，收到 {e.reason!r}", "reason")
        rounds = self.settings.rounds
        if e.from_round is not None and (type(e.from_round) is not int or not 1 <= e.from_round <= rounds):
            raise _fail(f"from_round must be 1–{rounds} or none, got {e.from_round!r}",
                        f"轉隊輪次須為 1–{rounds} 或不填（更正報名），收到 {e.from_round!r}", "from_round")
        self.players[e.player_id] = player.moved(e.team, e.from_round)

    def _on_RoundSeated(self, e: RoundSeated) -> None:
        self._check_plan(e.plan)
        if self._played(e.plan.round):
            raise _fail(f"round {e.plan.round} has results; it cannot be seated again",
                        f"第 {e.plan.round} 輪已有成績，不能重新排座", "round")
        for p in e.plan.tables:
            for q in p.players:
                if self.players[q].substitute:
                    raise _fail(f"{q!r} is a substitute: seat substitutes with SubstituteSeated",
                                f"{q!r} 為替補選手，請以替補入座登錄", "tables")
        self.rounds[e.plan.round] = e.plan
        for key in [k for k in self.seatings if k[0] == e.plan.round]:
            del self.seatings[key]

    def _on_SubstituteSeated(self, e: SubstituteSeated) -> None:
        plan = self._table(e.round, e.table)
        sub = self.players.get(e.player_id)
        if sub is None or not sub.substitute:
            raise _fail(f"{e.player_id!r} is not a registered substitute", f"{e.player_id!r} 不是已報名的替補選手",
                        "player_id")
        wind = Wind(e.wind)
        if plan.seats[wind] is not None:
            raise _fail(f"the {wind.name} seat of table {e.table} is {plan.seats[wind]!r}'s, not a substitute's",
                        f"第 {e.table} 桌{wind.zh}位為 {plan.seats[wind]!r}，不是替補席", "wind")
        rnd = self.rounds[e.round]
        if rnd.table_of(e.player_id) is not None:
            raise _fail(f"{e.player_id!r} already sits in round {e.round}", f"{e.player_id!r} 已於第 {e.round} 輪入座",
                        "player_id")
        seats = list(plan.seats)
        seats[wind] = e.player_id
        tables = tuple(TablePlan(t.table, tuple(seats)) if t.table == e.table else t for t in rnd.tables)
        self.rounds[e.round] = RoundPlan(rnd.round, tables)

    def _on_MatchSeated(self, e: MatchSeated) -> None:
        plan = self._table(e.round, e.table)
        if not 1 <= e.match <= self.settings.matches_per_round:
            raise _fail(f"match {e.match} is outside 1–{self.settings.matches_per_round}",
                        f"將 {e.match} 不在 1–{self.settings.matches_per_round}", "match")
        if sorted(e.seating.players) != sorted(p for p in plan.seats if p is not None) or None in plan.seats:
            raise _fail(f"the seating {list(e.seating.players)!r} is not table {e.table}'s players "
                        f"{list(plan.seats)!r}", f"入座名單與第 {e.table} 桌選手不符", "seating")
        if self.counts.get((e.round, e.table, e.match)):
            raise _fail("the 將 has hands recorded; its seats cannot change", "本將已有成績，不能更換座位", "seating")
        self.seatings[(e.round, e.table, e.match)] = e.seating

    def _on_HandRecorded(self, e: HandRecorded) -> None:
        key = tuple(e.key)
        self._check_key(key)
        if key in self.hands:
            raise _fail(f"hand {key} is already recorded: correct it instead", f"第 {key} 盤已記錄，請改用更正", "key")
        later = [m for (r, t, m) in self.counts if (r, t) == key[:2] and m > key[2]]
        if later:  # a 將 is played through before the next begins (app.rounds)
            raise _fail(f"match {key[2]} of round {key[0]} table {key[1]} is over: match {max(later)} has hands",
                        f"第 {key[0]} 輪第 {key[1]} 桌第 {key[2]} 將已結束：第 {max(later)} 將已有紀錄", "key")
        expected = self.counts.get(key[:3], 0) + 1
        if key[3] != expected:
            raise _fail(f"the next hand of {key[:3]} is {expected}, not {key[3]}",
                        f"{key[:3]} 的下一盤應為第 {expected} 盤，不是第 {key[3]} 盤", "key")
        self.hands[key] = HandEntry(key, e.result, self.seq)
        self.counts[key[:3]] = expected
        self.played.add(key[0])

    def _on_HandCorrected(self, e: HandCorrected) -> None:
        key = tuple(e.key)
        if key not in self.hands:
            raise _fail(f"hand {key} is not recorded; nothing to correct", f"第 {key} 盤尚未記錄，無從更正", "key")
        if not isinstance(e.reason, str) or not e.reason.strip():
            raise _fail("a correction needs a reason", "更正須註明理由", "reason")
        self.hands[key] = HandEntry(key, e.result, self.seq, corrected=True)

    def _on_PlayerWithdrew(self, e: PlayerWithdrew) -> None:
        player = self.players.get(e.player_id)
        if player is None:
            raise _fail(f"{e.player_id!r} is not registered", f"{e.player_id!r} 未報名", "player_id")
        if player.withdrawn_before is not None:
            raise _fail(f"{e.player_id!r} already withdrew", f"{e.player_id!r} 已退賽", "player_id")
        if type(e.before_round) is not int or not 1 <= e.before_round <= self.settings.rounds + 1:
            raise _fail(f"before_round must be 1–{self.settings.rounds + 1}, got {e.before_round!r}",
                        f"退賽輪次須為 1–{self.settings.rounds + 1}", "before_round")
        later = sorted(r for r in self.rounds if r >= e.before_round)
        played = [r for r in later if self._played(r)]
        if played:
            raise _fail(f"round {played[0]} already has results", f"第 {played[0]} 輪已有成績，退賽須自下一輪起",
                        "before_round")
        self.players[e.player_id] = replace(player, withdrawn_before=e.before_round)
        given = sorted(p.round for p in e.reseated)
        if given != later:
            raise _fail(f"the withdrawal must re-seat rounds {later}, it gives {given}",
                        f"退賽須重排第 {later} 輪，收到 {given}", "reseated")
        for plan in e.reseated:
            self._check_plan(plan)
            self.rounds[plan.round] = plan
            for key in [k for k in self.seatings if k[0] == plan.round]:
                del self.seatings[key]


def _in_effect(records: Sequence[Record]) -> tuple[list[Record], set[int]]:
    """The records that fold (reverted ones and the Reverted records themselves left out),
    and the set of reverted sequence numbers."""
    by_seq = {r.seq: r for r in records}
    cancelled: set[int] = set()
    for record in reversed(records):
        if record.seq in cancelled:
            continue
        event = record.event
        if isinstance(event, Reverted):
            target = by_seq.get(event.seq)
            if target is None or event.seq >= record.seq:
                raise _at_record(record.seq, _fail(f"record {event.seq} is not an earlier record to revert",
                                                   f"撤銷的第 {event.seq} 筆不是先前的紀錄", "seq"))
            if not isinstance(target.event, REVERTIBLE):
                raise _at_record(record.seq, _fail(
                    f"record {event.seq} ({type(target.event).__name__}) cannot be reverted",
                    f"第 {event.seq} 筆（{type(target.event).__name__}）不可撤銷", "seq"))
            if not isinstance(event.reason, str) or not event.reason.strip():
                raise _at_record(record.seq, _fail("a revert needs a reason", "撤銷須註明理由", "reason"))
            cancelled.add(event.seq)
    return [r for r in records if r.seq not in cancelled and not isinstance(r.event, Reverted)], cancelled


def reverted(records: Sequence[Record]) -> set[int]:
    """The sequence numbers of the records a :class:`Reverted` in effect undoes."""
    return _in_effect(list(records))[1]


def replay(records: Iterable[Record]) -> EventState:
    """Fold a log into its state (pure: the same records, the same state).

    :raises EventLogError: a gap in the sequence numbers, or an event that does not apply;
        the message names the record.
    """
    return replay_kept(records).state


@dataclass(frozen=True, slots=True)
class Replay:
    """A log's state and the fold that made it, which :func:`replay_more` carries on over the
    records appended since (the fold is never changed once made: it is copied first)."""

    state: EventState
    fold: "_Fold"


def replay_kept(records: Iterable[Record]) -> Replay:
    """:func:`replay`, keeping the fold for :func:`replay_more`."""
    records = list(records)
    for n, record in enumerate(records, 1):
        if record.seq != n:
            raise _fail(f"record {n} has sequence number {record.seq}", f"第 {n} 筆紀錄序號為 {record.seq}", "seq")
    effective, _ = _in_effect(records)
    fold = _Fold()
    _fold_all(fold, effective)
    return Replay(fold.freeze(len(records)), fold)


def replay_more(done: Replay, records: Sequence[Record]) -> Replay:
    """The replay of ``records``, a log whose first ``done.state.last_seq`` records ``done``
    replayed (the log is append-only): only the records after them are folded — the same
    state as :func:`replay` of them all (``tests/test_tournament_events.py`` holds it to it).
    A :class:`Reverted` among them undoes an earlier record, so the log is then replayed
    from the start.

    :raises EventLogError: as :func:`replay`.
    """
    start = done.state.last_seq
    added = list(records[start:])
    if len(records) < start or any(isinstance(r.event, Reverted) for r in added) \
            or any(r.seq != start + k for k, r in enumerate(added, 1)):
        return replay_kept(records)
    fold = done.fold.copy()
    _fold_all(fold, added)
    return Replay(fold.freeze(len(records)), fold)


def _fold_all(fold: "_Fold", records: Iterable[Record]) -> None:
    for record in records:
        fold.seq = record.seq
        try:
            fold.apply(record)
        except MjrefError as exc:
            raise _at_record(record.seq, exc) from (None if isinstance(exc, EventLogError) else exc)


def _at_record(seq: int, exc: MjrefError) -> EventLogError:
    """A stored log's refusal names its record (``第 11 筆：``); ``event_error`` keeps the
    event's own words, for a refusal of events not yet written (:func:`append`)."""
    out = EventLogError(f"record {seq}: {exc.message}", field=exc.field, reason_zh=f"第 {seq} 筆：{exc.reason_zh}")
    out.record_seq = seq
    out.event_error = exc
    return out


def append(records: Sequence[Record], *events: Event, by: str = "", at: str = "") -> tuple[Record, ...]:
    """The log with ``events`` added as the next records — refused (nothing added) when it
    would not fold."""
    start = len(records) + 1
    log = tuple(records) + tuple(Record(start + k, e, by, at) for k, e in enumerate(events))
    try:
        replay(log)
    except EventLogError as exc:
        # a new event refused: say why in its own words (a record number means nothing to who sent it)
        if getattr(exc, "record_seq", 0) >= start:
            cause = exc.event_error
            raise EventLogError(cause.message, field=cause.field, reason_zh=cause.reason_zh) from None
        raise
    return log


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """A record that touched a hand, and whether it is in effect."""

    seq: int
    kind: str
    by: str
    at: str
    in_effect: bool
    result: HandResult | None = None
    reason: str = ""


def audit(records: Sequence[Record], key: Sequence[int]) -> list[AuditEntry]:
    """Every record about hand ``key`` — recorded, corrected, reverted — in log order."""
    key = tuple(key)
    _, cancelled = _in_effect(list(records))
    touching: set[int] = set()
    out = []
    for record in records:
        event = record.event
        if isinstance(event, (HandRecorded, HandCorrected)) and tuple(event.key) == key:
            touching.add(record.seq)
            out.append(AuditEntry(record.seq, type(event).__name__, record.by, record.at,
                                  record.seq not in cancelled, event.result, getattr(event, "reason", "")))
        elif isinstance(event, Reverted) and event.seq in touching:
            touching.add(record.seq)
            out.append(AuditEntry(record.seq, "Reverted", record.by, record.at, record.seq not in cancelled,
                                  reason=event.reason))
    return out


__all__ = [
    "AuditEntry", "Event", "EventCreated", "EventSettings", "EventState", "HandCorrected", "HandEntry", "HandRecorded",
    "MatchSeated", "Player", "PlayerRegistered", "TEAM_MAX", "PlayerWithdrew", "Record", "Reverted", "RoundSeated",
    "Replay", "SubstituteSeated", "TeamChanged", "append", "audit", "replay", "replay_kept", "replay_more",
]

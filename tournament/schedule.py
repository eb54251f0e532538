"""Tournament schedules: who sits at which table, in which wind, each round.

:func:`make_schedule` assigns players to tables of four for ``R`` rounds so that no two meet
twice for as many rounds as possible — a construction from :mod:`tournament.designs` where
one exists for the number of seats (the best known counts for 16–64 players), local search
(:mod:`tournament.pairing`) past it, fewest repeated meetings — and then seats each table's
four in winds so that everyone sits each wind ⌊R/4⌋ or ⌈R/4⌉ times (:mod:`tournament.winds`).
When the players are not a multiple of four, substitute seats (替補, ``None``) fill the last
tables, two of them never at one table when that can be avoided.

:func:`reseat` re-seats the rounds after a withdrawal: the rounds played stay as they were,
the leaving players' seats go to substitutes, and when a whole table can go the later rounds
are re-seated around the meetings already played. :func:`check_schedule` verifies a schedule
and reports its repeats and wind balance. :func:`by_standings` seats a (final) round by the
standings instead: the top four at table 1, and so on.

Everything depends only on the arguments: the same players, rounds and seed give the same
schedule.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from referee.tiles import Wind

from .designs import best_design
from .errors import ScheduleError
from .pairing import Meetings, anneal_round, extend, polish
from .winds import balance, is_balanced, wind_counts

#: a seat left for a substitute (替補)
SUBSTITUTE = None

Seat = str | None


@dataclass(frozen=True, slots=True)
class TablePlan:
    """One table in one round: its number (from 1) and its players in wind order 東 南 西 北
    (``None``: a substitute's seat)."""

    table: int
    seats: tuple[Seat, Seat, Seat, Seat]

    def player_of(self, wind: Wind) -> Seat:
        return self.seats[Wind(wind)]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if p is not None)

    def describe(self) -> str:
        """``第 1 桌：東 甲、南 乙、西 丙、北 替補``."""
        seats = "、".join(f"{w.zh} {p if p is not None else '替補'}" for w, p in zip(Wind, self.seats))
        return f"第 {self.table} 桌：{seats}"


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """A round's tables."""

    round: int
    tables: tuple[TablePlan, ...]

    def table_of(self, player: str) -> TablePlan | None:
        return next((t for t in self.tables if player in t.seats), None)


@dataclass(frozen=True, slots=True)
class Schedule:
    """The rounds of an event, and how they were made (``method``; the ``seed``)."""

    players: tuple[str, ...]
    rounds: tuple[RoundPlan, ...]
    seed: int = 0
    method: str = ""


@dataclass(frozen=True, slots=True)
class ScheduleCheck:
    """What :func:`check_schedule` found.

    ``problems`` lists what makes the schedule wrong (a player twice in a round, a table
    not of four seats, someone not in the event); the rest measures its quality:
    ``repeats`` = Σ (meetings − 1) over pairs meeting more than once, ``repeat_free_rounds``
    the rounds from the first before any pair meets twice, ``winds_balanced`` whether everyone
    sat each wind within one of the others.
    """

    problems: tuple[str, ...]
    rounds: int
    repeats: int
    max_meetings: int
    repeat_free_rounds: int
    winds_balanced: bool
    substitute_pairs: int = 0
    wind_counts: dict[str, tuple[int, int, int, int]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not self.problems


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    players = tuple(players)
    if len(players) < 4:
        raise ScheduleError(f"a schedule needs at least 4 players, got {len(players)}: {list(players)!r}",
                            field="players", reason_zh=f"排賽程至少需 4 位選手，收到 {len(players)} 位")
    bad = [p for p in players if not isinstance(p, str) or not p]
    if bad:
        raise ScheduleError(f"player ids must be non-empty strings, got {bad!r}", field="players",
                            reason_zh=f"選手代號須為非空字串，收到 {bad!r}")
    twice = sorted(p for p, c in Counter(players).items() if c > 1)
    if twice:
        raise ScheduleError(f"players listed twice: {twice!r}", field="players", reason_zh=f"選手重複列出：{twice!r}")
    return players


def _seats(n: int) -> int:
    return -(-n // 4) * 4


def _substitute_points(rounds: Sequence[Sequence[Sequence[int]]], v: int, count: int) -> list[int]:
    """``count`` points that meet each other as little as possible in ``rounds``."""
    if count == 0:
        return []
    met = Meetings(v)
    met.add(rounds)
    chosen = [v - 1]
    while len(chosen) < count:
        rest = [p for p in range(v) if p not in chosen]
        chosen.append(min(rest, key=lambda p: (sum(met.count[p][c] for c in chosen), -p)))
    return chosen


#: up to this many seats the tuned constructions always run (each within seconds)
TUNED_UP_TO = 64


def _repeat_free_prefix(rounds: Sequence[Sequence[Sequence[int]]], v: int) -> int:
    met = [[0] * v for _ in range(v)]
    for r, tables in enumerate(rounds):
        for table in tables:
            for a, b in combinations(table, 2):
                if met[a][b]:
                    return r
                met[a][b] = met[b][a] = 1
    return len(rounds)


def _core_rounds(v: int, rounds: int, subs: int, rng: random.Random) -> tuple[list[list[list[int]]], list[int], str]:
    """Rounds over points ``0…v−1``, the points given to substitutes, and how they were made.

    A construction when it applies (always up to :data:`TUNED_UP_TO` seats, the closed
    forms at any size); larger events try local search first and run the searched
    constructions only when local search leaves repeats they would avoid.
    """
    design = best_design(v) if v <= TUNED_UP_TO else best_design(v, closed_only=True)
    local: list[list[list[int]]] | None = None
    if v > TUNED_UP_TO and (design is None or len(design.rounds) < rounds):
        local_rng = random.Random(rng.random())
        local = extend(Meetings(v, range(v - subs, v)), list(range(v)), rounds, local_rng)
        free = _repeat_free_prefix(local, v)
        if free < rounds:
            searched = best_design(v)
            if searched is not None and len(searched.rounds) > free:
                design = searched
        if design is None or len(design.rounds) <= free:
            return local, list(range(v - subs, v)), "local search"
    if design is None:
        if local is None:
            local = extend(Meetings(v, range(v - subs, v)), list(range(v)), rounds, rng)
        return local, list(range(v - subs, v)), "local search"
    base = [[list(t) for t in r] for r in design.rounds]
    rng.shuffle(base)
    chosen = base[:rounds]
    sub_points = _substitute_points(chosen, v, subs)
    method = design.method
    if len(chosen) < rounds:
        meetings = Meetings(v, sub_points)
        meetings.add(chosen)
        chosen += extend(meetings, list(range(v)), rounds - len(chosen), rng)
        method += f", then local search for rounds {len(design.rounds) + 1}–{rounds}"
    return chosen, sub_points, method


def make_schedule(players: Sequence[str], rounds: int, *, seed: int = 0) -> Schedule:
    """Seat ``players`` for ``rounds`` rounds (see the module docstring).

    :raises ScheduleError: fewer than 4 players, a player twice, or ``rounds`` < 1.
    """
    players = _check_players(players)
    if type(rounds) is not int or rounds < 1:
        raise ScheduleError(f"rounds must be at least 1, got {rounds!r}", field="rounds",
                            reason_zh=f"輪數至少為 1，收到 {rounds!r}")
    rng = random.Random(seed)
    v = _seats(len(players))
    core, sub_points, method = _core_rounds(v, rounds, v - len(players), rng)
    order = list(players)
    rng.shuffle(order)
    label: dict[int, Seat] = dict.fromkeys(sub_points, SUBSTITUTE)
    rest = iter(order)
    for p in range(v):
        if p not in label:
            label[p] = next(rest)
    seated = balance(core)
    plans = []
    for r, tables in enumerate(seated):
        rng.shuffle(tables)
        plans.append(RoundPlan(r + 1, tuple(
            TablePlan(t + 1, (label[a], label[b], label[c], label[d])) for t, (a, b, c, d) in enumerate(tables))))
    return Schedule(players, tuple(plans), seed, method)


def by_standings(ranked: Sequence[str], round_no: int) -> RoundPlan:
    """A round seated by the standings (issue #15 item 6, R-tour-28), as final rounds are: the
    first four at table 1, the next four at table 2, and so on; a last table short of four has
    substitute seats (替補, ``None``). Within a table the seats are in standings order — where
    each sits is the 將's 搬風 (``seat.banfeng``).

    :raises ScheduleError: fewer than 4 players, a player listed twice.
    """
    players = _check_players(ranked)
    seats: list[Seat] = [*players, *[SUBSTITUTE] * (_seats(len(players)) - len(players))]
    return RoundPlan(round_no, tuple(TablePlan(k // 4 + 1, tuple(seats[k:k + 4])) for k in range(0, len(seats), 4)))


def meeting_counts(rounds: Iterable[RoundPlan]) -> Counter:
    """How often each pair of players (a ``frozenset``) sat at one table."""
    met: Counter = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            for a, b in combinations(sorted(set(table.players)), 2):
                met[frozenset((a, b))] += 1
    return met


def check_schedule(schedule: Schedule) -> ScheduleCheck:
    """Verify ``schedule`` and measure it (see :class:`ScheduleCheck`)."""
    known = set(schedule.players)
    problems = []
    met: Counter = Counter()
    repeat_free = None
    sub_pairs = 0
    for index, rnd in enumerate(schedule.rounds):
        seen: Counter = Counter()
        for table in rnd.tables:
            if len(table.seats) != 4:
                problems.append(f"round {rnd.round} table {table.table} has {len(table.seats)} seats")
            if sum(1 for p in table.seats if p is None) >= 2:
                sub_pairs += 1
            for p in table.players:
                seen[p] += 1
                if p not in known:
                    problems.append(f"round {rnd.round} table {table.table}: {p!r} is not in the event")
            for a, b in combinations(sorted(set(table.players)), 2):
                met[frozenset((a, b))] += 1
                if repeat_free is None and met[frozenset((a, b))] > 1:
                    repeat_free = index
        problems += [f"round {rnd.round}: {p!r} is seated {c} times" for p, c in sorted(seen.items()) if c > 1]
    counts = wind_counts([[t.seats for t in rnd.tables] for rnd in schedule.rounds])
    counts.pop(None, None)
    return ScheduleCheck(
        problems=tuple(problems),
        rounds=len(schedule.rounds),
        repeats=sum(c - 1 for c in met.values() if c > 1),
        max_meetings=max(met.values(), default=0),
        repeat_free_rounds=len(schedule.rounds) if repeat_free is None else repeat_free,
        winds_balanced=is_balanced(counts),
        substitute_pairs=sub_pairs,
        wind_counts={p: tuple(c) for p, c in counts.items()},
    )


def reseat(schedule: Schedule, *, withdrawn: Iterable[str], from_round: int, seed: int = 0) -> Schedule:
    """The schedule after ``withdrawn`` leave before round ``from_round``.

    Rounds before ``from_round`` are kept as they were. In the later rounds the leaving
    players' seats go to substitutes — nothing else moves, so a repeat-free schedule stays
    repeat-free. When that would leave four or more substitute seats in a round, tables are
    dropped (the emptiest) and their players take the free seats elsewhere; those rounds
    are then re-seated by local search around every meeting already in the schedule (past
    rounds included), and their winds evened out with the winds already sat.

    :raises ScheduleError: a withdrawn player not in the event, or a round out of range.
    """
    leaving = set(withdrawn)
    unknown = sorted(leaving - set(schedule.players))
    if unknown:
        raise ScheduleError(f"not in the event: {unknown!r}", field="withdrawn",
                            reason_zh=f"不是本賽事的選手：{unknown!r}")
    if type(from_round) is not int or not 1 <= from_round <= len(schedule.rounds) + 1:
        raise ScheduleError(f"from_round must be 1–{len(schedule.rounds) + 1}, got {from_round!r}", field="from_round",
                            reason_zh=f"重排起始輪須為 1–{len(schedule.rounds) + 1}，收到 {from_round!r}")
    past = schedule.rounds[:from_round - 1]
    future = schedule.rounds[from_round - 1:]
    if not future:
        return schedule
    rng = random.Random(seed)
    active = sorted({p for rnd in future for t in rnd.tables for p in t.players} - leaving)
    if len(active) < 4:
        raise ScheduleError(f"only {len(active)} players would be left", field="withdrawn",
                            reason_zh=f"退賽後僅剩 {len(active)} 位選手，無法成桌")
    v = _seats(len(active))
    index = {p: i for i, p in enumerate(active)}
    subs = list(range(len(active), v))
    meetings = Meetings(v, subs)
    meetings.add([[[index[p] for p in t.players if p in index] for t in rnd.tables] for rnd in past])
    new_rounds: list[list[list[int]]] = []
    dropped = False
    for rnd in future:
        tables = [[index.get(p) for p in t.seats] for t in rnd.tables]  # None: a substitute's seat now
        if len(tables) > v // 4:
            dropped = True
            # a table can go: keep the fullest, seat the others' players in their free seats
            keep = sorted(tables, key=lambda t: sum(1 for p in t if p is None))[:v // 4]
            kept = {p for t in keep for p in t if p is not None}
            loose = [p for t in tables for p in t if p is not None and p not in kept]
            tables = [list(t) for t in keep]
            fill = iter(loose)
            for t in tables:
                for k, p in enumerate(t):
                    if p is None:
                        t[k] = next(fill, None)
        free = iter(subs)
        tables = [[p if p is not None else next(free) for p in t] for t in tables]
        tables = anneal_round(meetings, tables, rng, min(30_000, 300 * v))
        meetings.add([tables])
        new_rounds.append(tables)
    if dropped:
        new_rounds = polish(meetings, new_rounds, rng)
    label: dict[int, Seat] = {i: p for p, i in index.items()}
    label.update(dict.fromkeys(subs, SUBSTITUTE))

    def people(seats: Iterable[Seat]) -> list[str]:
        return sorted(p if p is not None and p not in leaving else "" for p in seats)

    unchanged = all(len(new) == len(rnd.tables) and all(
        people(label[p] for p in n) == people(o.seats) for n, o in zip(new, rnd.tables))
        for new, rnd in zip(new_rounds, future))
    if unchanged:  # only the leaving players' seats changed hands: keep every wind
        plans = [RoundPlan(rnd.round, tuple(TablePlan(t.table, tuple(
            p if p not in leaving else SUBSTITUTE for p in t.seats)) for t in rnd.tables)) for rnd in future]
    else:
        prior_rounds = [[t.seats for t in rnd.tables] for rnd in past]
        prior = {index[p]: c for p, c in wind_counts(prior_rounds).items() if p in index}
        plans = [RoundPlan(rnd.round, tuple(
            TablePlan(t + 1, (label[a], label[b], label[c], label[d])) for t, (a, b, c, d) in enumerate(tables)))
            for rnd, tables in zip(future, balance(new_rounds, prior=prior))]
    method = schedule.method + f"; re-seated from round {from_round} after {', '.join(sorted(leaving))} withdrew"
    return Schedule(schedule.players, tuple(past) + tuple(plans), schedule.seed, method)


__all__ = [
    "SUBSTITUTE", "RoundPlan", "Schedule", "ScheduleCheck", "TablePlan", "by_standings", "check_schedule",
    "make_schedule", "meeting_counts", "reseat",
]

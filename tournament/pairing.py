"""Local search for table assignments where no construction reaches: fewest repeated meetings.

Points are ``0…n−1`` (``n`` a multiple of 4); a round is a list of tables of four. The cost
of a schedule is ``Σ C(m, 2)`` over pairs meeting ``m`` times — zero when nobody meets
twice, and for two meetings exactly the number of repeats — so repeats are spread before
any pair meets a third time. Pairs of substitute seats weigh :data:`SUBSTITUTE_WEIGHT`
times more, keeping two substitutes from one table.

New rounds are built one at a time (:func:`extend`): a greedy seating given everyone's
meetings so far, then simulated annealing on swaps of two players between tables. All
randomness comes from the ``random.Random`` passed in and every loop is bounded by
iteration counts, so the result depends on the seed alone.
"""
from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

#: how much more two substitute seats meeting costs than two players meeting
SUBSTITUTE_WEIGHT = 50


class Meetings:
    """Pair meeting counts ``count[p][q]`` and pair weights over points ``0…n−1``."""

    def __init__(self, n: int, substitutes: Iterable[int] = ()) -> None:
        self.n = n
        self.count = [[0] * n for _ in range(n)]
        subs = set(substitutes)
        self.weight = [[SUBSTITUTE_WEIGHT if (p in subs and q in subs) else 1 for q in range(n)] for p in range(n)]

    def add(self, rounds: Iterable[Sequence[Sequence[int]]], sign: int = 1) -> None:
        count = self.count
        for tables in rounds:
            for table in tables:
                for i, p in enumerate(table):
                    for q in table[i + 1:]:
                        count[p][q] += sign
                        count[q][p] += sign

    def cost_of(self, tables: Sequence[Sequence[int]]) -> int:
        """What seating ``tables`` adds to the schedule's cost (counts not yet including them)."""
        count, weight = self.count, self.weight
        return sum(weight[p][q] * count[p][q] for table in tables for i, p in enumerate(table) for q in table[i + 1:])


def greedy_round(meetings: Meetings, points: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Seat ``points`` at tables of four one by one, each at the open table where it has met
    (weighted) the fewest already seated."""
    order = list(points)
    rng.shuffle(order)
    tables: list[list[int]] = [[] for _ in range(len(order) // 4)]
    count, weight = meetings.count, meetings.weight
    for p in order:
        cp, wp = count[p], weight[p]
        best, best_cost = None, None
        for table in tables:
            if len(table) < 4:
                cost = sum(wp[x] * cp[x] for x in table)
                if best_cost is None or cost < best_cost:
                    best, best_cost = table, cost
                    if cost == 0 and not table:
                        break
        best.append(p)
    return tables


def anneal_round(meetings: Meetings, tables: list[list[int]], rng: random.Random, iterations: int,
                 t_start: float = 1.5, t_end: float = 0.05) -> list[list[int]]:
    """Improve one round by swapping players between its tables (the counts exclude it)."""
    count, weight = meetings.count, meetings.weight
    k = len(tables)
    if k < 2:
        return tables
    cost = meetings.cost_of(tables)
    best_cost, best = cost, [t[:] for t in tables]
    if cost == 0:
        return best
    ratio = (t_end / t_start) ** (1 / max(1, iterations))
    temp = t_start
    rand, randrange = rng.random, rng.randrange
    for _ in range(iterations):
        temp *= ratio
        ta = randrange(k)
        tb = randrange(k - 1)
        if tb >= ta:
            tb += 1
        A, B = tables[ta], tables[tb]
        ia, ib = randrange(4), randrange(4)
        a, b = A[ia], B[ib]
        ca, cb, wa, wb = count[a], count[b], weight[a], weight[b]
        delta = 0
        for x in A:
            if x != a:
                delta += wb[x] * cb[x] - wa[x] * ca[x]
        for y in B:
            if y != b:
                delta += wa[y] * ca[y] - wb[y] * cb[y]
        if delta <= 0 or rand() < math.exp(-delta / temp):
            A[ia], B[ib] = b, a
            cost += delta
            if cost < best_cost:
                best_cost, best = cost, [t[:] for t in tables]
                if cost == 0:
                    break
    return best


def extend(meetings: Meetings, points: Sequence[int], count: int, rng: random.Random, *,
           iterations: int | None = None) -> list[list[list[int]]]:
    """``count`` new rounds seating ``points``, each chosen to add the least cost given the
    meetings so far (which this updates)."""
    rounds = []
    its = iterations if iterations is not None else min(60_000, 300 * len(points))
    for _ in range(count):
        tables = greedy_round(meetings, points, rng)
        tables = anneal_round(meetings, tables, rng, its)
        meetings.add([tables])
        rounds.append(tables)
    return rounds


def polish(meetings: Meetings, rounds: list[list[list[int]]], rng: random.Random, passes: int = 2,
           iterations: int | None = None) -> list[list[list[int]]]:
    """Re-anneal each of ``rounds`` against all the others (counts include every round)."""
    for _ in range(passes):
        for r in range(len(rounds)):
            meetings.add([rounds[r]], -1)
            its = iterations if iterations is not None else min(30_000, 150 * 4 * len(rounds[r]))
            rounds[r] = anneal_round(meetings, rounds[r], rng, its)
            meetings.add([rounds[r]])
    return rounds


__all__ = ["Meetings", "SUBSTITUTE_WEIGHT", "anneal_round", "extend", "greedy_round", "polish"]

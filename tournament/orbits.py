"""Backtracking search for base parallel classes under a group (the engine behind
:mod:`tournament.designs`).

A schedule with no repeated meeting is a *resolvable packing*: rounds (parallel classes)
of 4-sets (tables, blocks) in which every pair of points meets at most once. Many of the
best ones are *developed*: a group ``D`` of permutations (the translations of a cyclic
group, say) moves one base class onto the others, so only the base class is searched and
a pair is tracked by its ``D``-orbit (its "difference"): the developed rounds repeat no
pair exactly when the base class uses no pair orbit twice and no orbit shorter than
``|D|``. A further group ``H`` of symmetries can be imposed on a base class: choosing a
block adds all its images, which cuts the search by ``|H|``.

:func:`search` fills one or more base classes (sharing the pair orbits), each under its own
``H``; :func:`find` runs it with Luby restarts under a node budget, so the result depends
only on its arguments (never on the clock).
"""
from __future__ import annotations

import random
from collections.abc import Sequence

Perm = Sequence[int]


class NodeLimit(Exception):
    """The search used its node budget (a restart follows)."""


def pair_orbits(n: int, group: Sequence[Perm], holes: Sequence[tuple[int, int]] = ()) -> tuple[list[list[int]], int]:
    """The ``D``-orbit of every pair: ``table[p][q]`` is an orbit id, or −1 when the pair may
    not meet (a hole, or an orbit shorter than ``|D|``: developing it would repeat pairs)."""
    size = len(group)
    table = [[-1] * n for _ in range(n)]
    seen = [[False] * n for _ in range(n)]
    forbidden = {(min(p, q), max(p, q)) for p, q in holes}
    count = 0
    for p in range(n):
        for q in range(p + 1, n):
            if seen[p][q]:
                continue
            orbit = set()
            for g in group:
                a, b = g[p], g[q]
                orbit.add((a, b) if a < b else (b, a))
            for a, b in orbit:
                seen[a][b] = seen[b][a] = True
            if len(orbit) < size or orbit & forbidden:
                continue
            for a, b in orbit:
                table[a][b] = table[b][a] = count
            count += 1
    return table, count


def search(n: int, orbit: list[list[int]], n_orbits: int, symmetries: Sequence[Sequence[Perm]], *,
           rng: random.Random, node_limit: int, first: Sequence[int] = (), breaksym: bool = False
           ) -> list[list[tuple[int, ...]]] | None:
    """Fill ``len(symmetries)`` base classes on points ``0…n−1``: each a partition into
    4-sets closed under its group ``symmetries[k]`` (given as all its elements), all of
    them together using each pair orbit at most once.

    :param first: points to cover first (the most constrained: fixed points of ``D``).
    :param breaksym: the classes are interchangeable (same group): first give point 0 its
        block in every class, class ``k`` taking the smallest partner still free (this
        fixes the classes' order and, with it, point 0's whole neighbourhood early).
    :returns: the blocks of each class, or ``None`` when no such classes exist.
    :raises NodeLimit: after ``node_limit`` nodes.
    """
    used = bytearray(n_orbits)
    classes = len(symmetries)
    covered = [bytearray(n) for _ in range(classes)]
    rest = [p for p in range(n) if p not in first]
    orders = []
    for _ in range(classes):
        rng.shuffle(rest)
        orders.append(list(first) + rest[:])
    chosen: list[list[tuple[int, ...]]] = [[] for _ in range(classes)]
    nodes = 0

    def images(k: int, block: tuple[int, int, int, int]):
        cov = covered[k]
        blocks: list[tuple[int, ...]] = []
        for h in symmetries[k]:
            image = tuple(sorted((h[block[0]], h[block[1]], h[block[2]], h[block[3]])))
            if image not in blocks:
                blocks.append(image)
        points: set[int] = set()
        for b in blocks:
            for x in b:
                if x in points or cov[x]:
                    return None
                points.add(x)
        orbits: set[int] = set()
        for a, b, c, d in blocks:
            oa, ob, oc = orbit[a], orbit[b], orbit[c]
            for o in (oa[b], oa[c], oa[d], ob[c], ob[d], oc[d]):
                if o < 0 or used[o] or o in orbits:
                    return None
                orbits.add(o)
        return blocks, points, orbits

    def pick():
        if breaksym:
            for k in range(classes):
                if not covered[k][0]:
                    row = orbit[0]
                    partner = next((q for q in range(1, n) if row[q] >= 0 and not used[row[q]]), None)
                    return k, 0, partner
        for k in range(classes):
            cov = covered[k]
            for p in orders[k]:
                if not cov[p]:
                    return k, p, None
        return None

    def rec() -> bool:
        nonlocal nodes
        step = pick()
        if step is None:
            return True
        nodes += 1
        if nodes > node_limit:
            raise NodeLimit
        k, p, forced = step
        cov = covered[k]
        row = orbit[p]
        cand = [q for q in orders[k] if q != p and not cov[q] and row[q] >= 0 and not used[row[q]]]
        if forced is not None:
            if forced not in cand:
                return False
            cand.remove(forced)
            cand.insert(0, forced)
        count = len(cand)
        for i in range(1 if forced is not None else count):
            q = cand[i]
            opq = row[q]
            rq = orbit[q]
            for j in range(i + 1, count):
                r = cand[j]
                opr, oqr = row[r], rq[r]
                if oqr < 0 or used[oqr] or opr == opq or oqr == opq or oqr == opr:
                    continue
                rr = orbit[r]
                for m in range(j + 1, count):
                    s = cand[m]
                    ops, oqs, ors = row[s], rq[s], rr[s]
                    if oqs < 0 or ors < 0 or used[oqs] or used[ors]:
                        continue
                    if len({opq, opr, oqr, ops, oqs, ors}) < 6:
                        continue
                    found = images(k, (p, q, r, s))
                    if found is None:
                        continue
                    blocks, points, orbits = found
                    for x in points:
                        cov[x] = 1
                    for o in orbits:
                        used[o] = 1
                    chosen[k].extend(blocks)
                    if rec():
                        return True
                    del chosen[k][len(chosen[k]) - len(blocks):]
                    for x in points:
                        cov[x] = 0
                    for o in orbits:
                        used[o] = 0
        return False

    return chosen if rec() else None


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby restart sequence 1 1 2 1 1 2 4 1 1 2 …"""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def find(n: int, orbit: list[list[int]], n_orbits: int, symmetries: Sequence[Sequence[Perm]], *, seed: int = 0,
         base: int = 50, budget: int = 2_000_000, first: Sequence[int] = (), breaksym: bool = False
         ) -> list[list[tuple[int, ...]]] | None:
    """:func:`search` with Luby restarts (``base`` × luby(i) nodes each), seeded; ``None``
    when no classes exist or ``budget`` nodes are spent first."""
    spent, i = 0, 1
    while spent < budget:
        limit = base * luby(i)
        try:
            return search(n, orbit, n_orbits, symmetries, rng=random.Random(seed * 1_000_003 + i),
                          node_limit=limit, first=first, breaksym=breaksym)
        except NodeLimit:
            spent += limit
            i += 1
    return None


__all__ = ["NodeLimit", "find", "luby", "pair_orbits", "search"]

"""Seat winds for a schedule: each player sits each wind ⌊R/4⌋ or ⌈R/4⌉ times over R rounds.

Players and tables form a bipartite graph, one edge per (player, table sat at); a wind
assignment colours the edges with 東 南 西 北, each table seeing each colour once. An
equitable colouring always exists (de Werra): split the edges in two halves so that every
vertex keeps half of its edges, ±1 — walk Euler circuits and alternate, after joining the
odd-degree players to one dummy table so that every degree is even (the graph stays
bipartite, so every circuit is even and alternates cleanly) — then split each half again.
Tables have 4 edges, so each half gives them exactly 2, then 1: one of each wind. A player
with ``d`` rounds ends with ⌊d/4⌋ or ⌈d/4⌉ of each wind, because
``⌊⌊d/2⌋/2⌋ = ⌊d/4⌋`` and ``⌈⌈d/2⌉/2⌉ = ⌈d/4⌉``.

:func:`balance` does that for a fresh schedule; given the winds already sat
(``prior``, after a withdrawal re-seats the later rounds), it then swaps winds within
tables while that brings everyone's totals closer to even.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

Table = Sequence[int]


def _halve(edges: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Split edge indices (``(player, table)``) in two, each vertex keeping ⌊d/2⌋ or ⌈d/2⌉
    in each half. Tables must have even degree."""
    adj: dict[tuple[str, int], list[tuple[int, tuple[str, int]]]] = {}
    ends = []
    for e, (p, t) in enumerate(edges):
        u, v = ("p", p), ("t", t)
        ends.append((u, v))
        adj.setdefault(u, []).append((e, v))
        adj.setdefault(v, []).append((e, u))
    dummy = ("t", -1)
    extra = len(edges)
    for u in [u for u, lst in adj.items() if u[0] == "p" and len(lst) % 2]:
        adj[u].append((extra, dummy))
        adj.setdefault(dummy, []).append((extra, u))
        extra += 1
    used = bytearray(extra)
    pointer = dict.fromkeys(adj, 0)
    colour: dict[int, int] = {}
    for start in adj:
        if pointer[start] >= len(adj[start]):
            continue
        # Hierholzer: the circuit as a sequence of edges
        stack: list[tuple[tuple[str, int], int]] = [(start, -1)]
        circuit: list[int] = []
        while stack:
            v, via = stack[-1]
            lst = adj[v]
            i = pointer[v]
            while i < len(lst) and used[lst[i][0]]:
                i += 1
            pointer[v] = i
            if i == len(lst):
                stack.pop()
                if via >= 0:
                    circuit.append(via)
            else:
                e, w = lst[i]
                used[e] = 1
                stack.append((w, e))
        for k, e in enumerate(circuit):
            colour[e] = k % 2
    first = [e for e in range(len(edges)) if colour[e] == 0]
    second = [e for e in range(len(edges)) if colour[e] == 1]
    return first, second


def balance(rounds: Sequence[Sequence[Table]], *, prior: dict[int, Sequence[int]] | None = None
            ) -> list[list[tuple[int, int, int, int]]]:
    """Each table's players in wind order (東, 南, 西, 北), every player's count of each wind
    within one of the others (⌊d/4⌋ or ⌈d/4⌉ over the ``d`` rounds played here).

    :param prior: winds already sat per player (counts of 東 南 西 北), for a re-seating of
        later rounds: the result then also evens out the totals as far as swaps allow.
    """
    edges: list[tuple[int, int]] = []
    table_ids: list[tuple[int, int]] = []
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            tid = len(table_ids)
            table_ids.append((r, t))
            for p in table:
                edges.append((p, tid))
    seats: list[list[int | None]] = [[None] * 4 for _ in table_ids]
    half_x, half_y = _halve(edges)
    for half, winds in ((half_x, (0, 2)), (half_y, (1, 3))):
        sub = [edges[e] for e in half]
        a, b = _halve(sub)
        for part, wind in ((a, winds[0]), (b, winds[1])):
            for i in part:
                p, tid = sub[i]
                seats[tid][wind] = p
    out: list[list[tuple[int, int, int, int]]] = [[] for _ in rounds]
    for tid, (r, t) in enumerate(table_ids):
        s = seats[tid]
        out[r].append((s[0], s[1], s[2], s[3]))
    if prior:
        _even_out(out, prior)
    return out


def wind_counts(rounds: Sequence[Sequence[Sequence[int]]]) -> dict[int, list[int]]:
    """How often each player sat 東 南 西 北 (tables given in wind order)."""
    counts: dict[int, list[int]] = {}
    for tables in rounds:
        for table in tables:
            for w, p in enumerate(table):
                counts.setdefault(p, [0, 0, 0, 0])[w] += 1
    return counts


def is_balanced(counts: dict[int, Sequence[int]]) -> bool:
    """Every player's wind counts within one of each other."""
    return all(max(c) - min(c) <= 1 for c in counts.values())


_PERMUTATIONS = tuple(permutations(range(4)))


def _even_out(rounds: list[list[tuple[int, int, int, int]]], prior: dict[int, Sequence[int]]) -> None:
    """Re-order tables' seats while that lowers Σ count² over everyone's wind totals
    (``prior`` included): each table in turn takes the best of its 24 orders."""
    totals = {p: list(c) for p, c in prior.items()}
    for tables in rounds:
        for table in tables:
            for w, p in enumerate(table):
                totals.setdefault(p, [0, 0, 0, 0])[w] += 1
    improved = True
    while improved:
        improved = False
        for tables in rounds:
            for t, table in enumerate(tables):
                for w, p in enumerate(table):
                    totals[p][w] -= 1
                best = min(_PERMUTATIONS, key=lambda order: sum(
                    2 * totals[table[order[w]]][w] for w in range(4)))
                seat = tuple(table[best[w]] for w in range(4))
                if seat != tuple(table) and sum(totals[seat[w]][w] for w in range(4)) < sum(
                        totals[table[w]][w] for w in range(4)):
                    tables[t] = seat
                    table = seat
                    improved = True
                for w, p in enumerate(table):
                    totals[p][w] += 1


__all__ = ["balance", "is_balanced", "wind_counts"]

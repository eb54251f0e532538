"""Repeat-free schedules built by construction: resolvable designs and packings of 4-sets.

For ``v`` players at tables of four, no two meeting twice, a player meets three new people
a round, so at most ``⌊(v−1)/3⌋`` rounds exist. These constructions reach the best known
counts; each is computed at run time and returned as rounds of tables over points
``0…v−1`` (the checker :func:`check_rounds` verifies it):

* ``AG(k,4)`` — ``v = 4^k``: the lines of the affine space over GF(4), one round per
  direction: 16 → 5, 64 → 21 (:func:`affine`).
* 1-rotational, closed form — ``v = 3q+1``, ``q ≡ 1 (mod 4)`` a prime power: points
  ``GF(q) × {0,1,2} ∪ {∞}``; with ``i`` a square root of −1 and ``T`` a transversal of
  ``⟨i⟩`` in GF(q)*, the base round is ``{∞,0₀,0₁,0₂}`` and
  ``{x_a, −x_a, (ix)_{a+1}, (−ix)_{a+1}}`` (``a ∈ Z₃, x ∈ T``); its ``q`` translates are a
  resolvable 2-(v,4,1) design: 28 → 9, 40 → 13, 52 → 17 (:func:`rotational`).
* Searched base rounds (:mod:`tournament.orbits`), the group chosen so that a solution
  exists and the search is short:

  - ``v = 3m+3``, ``m ≡ 3 (mod 4)``: ``Z_m × {0,1,2} ∪ {∞₀,∞₁,∞₂}``; players
    ``{x₀,x₁,x₂}`` and the three ∞ never meet (a resolvable group divisible design of
    type 3^(m+1)); the base round is invariant under turning the levels and the ∞ one
    step, and also, when ``Z_m*`` has an element ``μ`` of order 3, under multiplying by
    ``μ`` while turning the ∞: 24 → 7, 36 → 11, 48 → 15, 60 → 19 (:func:`gdd3`);
  - ``v = 3m+2``, ``m ≡ 2 (mod 4)``, ``μ ∈ Z_m*`` of order 3: ``Z_m × {0,1,2} ∪ {∞₀,∞₁}``;
    ``x_a`` and ``(x+m/2)_a`` never meet (type 2^(v/2)); base round invariant under
    ``x_a ↦ (μx)_{a+1}``: 44 → 14, 56 → 18 (:func:`gdd2`);
  - ``v = 32``: ``Z₂³ × {0,1,2,3}``, ten rounds each invariant under the translations
    of ``Z₂³``, ``g_a`` never meeting ``(g+1)_a`` — the structure of the known 8-4-10
    solutions: 32 → 10 (:func:`elementary32`);
  - ``v = 4m``, ``m`` odd: ``Z_m × {0,1,2,3}``, one base round, a packing: 20 → 5
    (:func:`cyclic_packing`).

:func:`best_design` picks the construction with the most rounds for ``v`` (cached).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import gcd

from .galois import field, prime_power
from .orbits import find, pair_orbits

Block = tuple[int, ...]
Round = tuple[Block, ...]


@dataclass(frozen=True)
class Design:
    """Rounds of 4-sets over points ``0…points−1``, none repeating a pair; ``method`` says how."""

    points: int
    rounds: tuple[Round, ...]
    method: str


def check_rounds(points: int, rounds: Sequence[Sequence[Sequence[int]]]) -> list[str]:
    """Every problem of a schedule as text (empty when it is a repeat-free resolvable packing):
    a round that is not a partition of the points into 4-sets, a pair that meets twice."""
    problems = []
    met: dict[tuple[int, int], int] = {}
    for r, rnd in enumerate(rounds):
        seen = sorted(x for block in rnd for x in block)
        if seen != list(range(points)):
            problems.append(f"round {r + 1} does not seat every point exactly once")
        for block in rnd:
            if len(block) != 4:
                problems.append(f"round {r + 1} has a table of {len(block)}: {tuple(block)}")
            for a, b in combinations(sorted(block), 2):
                if (a, b) in met:
                    problems.append(f"{a} and {b} meet in rounds {met[(a, b)] + 1} and {r + 1}")
                met[(a, b)] = r
    return problems


def _develop(base: Sequence[Block], group: Sequence[Sequence[int]]) -> tuple[Round, ...]:
    return tuple(tuple(tuple(sorted(g[x] for x in block)) for block in base) for g in group)


# --- AG(k, 4) ------------------------------------------------------------------------------


def affine(k: int) -> Design:
    """The lines of AG(k,4): ``4^k`` points, ``(4^k−1)/3`` rounds (one per direction)."""
    F = field(4)
    n = 4 ** k

    def vec(index: int) -> tuple[int, ...]:
        return tuple((index >> (2 * i)) & 3 for i in range(k))

    def idx(v: Sequence[int]) -> int:
        return sum(c << (2 * i) for i, c in enumerate(v))

    directions = [d for d in map(vec, range(1, n)) if next(c for c in d if c) == 1]
    rounds = []
    for d in directions:
        seen: set[int] = set()
        lines = []
        for x in range(n):
            if x in seen:
                continue
            xv = vec(x)
            line = tuple(sorted(idx([F.add(a, F.mul(lam, b)) for a, b in zip(xv, d)]) for lam in range(4)))
            seen.update(line)
            lines.append(line)
        rounds.append(tuple(lines))
    return Design(n, tuple(rounds), f"AG({k},4)")


# --- 1-rotational 2-(3q+1, 4, 1), q ≡ 1 mod 4 a prime power ------------------------------------


def rotational(q: int) -> Design:
    """The resolvable 2-(3q+1,4,1) design developed from one base round over GF(q)."""
    F = field(q)
    i = F.power((q - 1) // 4)  # i² = −1
    inf = 3 * q

    def pt(x: int, level: int) -> int:
        return (level % 3) * q + x

    base = [(inf, pt(0, 0), pt(0, 1), pt(0, 2))]
    for a in range(3):
        for j in range((q - 1) // 4):
            x = F.power(j)
            ix = F.mul(i, x)
            base.append((pt(x, a), pt(F.neg(x), a), pt(ix, a + 1), pt(F.neg(ix), a + 1)))
    group = [[(p // q) * q + F.add(p % q, g) for p in range(3 * q)] + [inf] for g in range(q)]
    return Design(3 * q + 1, _develop(base, group), f"1-rotational over GF({q})")


# --- searched base rounds ------------------------------------------------------------------------


def _translations(m: int, levels: int, fixed: int) -> list[list[int]]:
    n = levels * m
    return [[(p // m) * m + (p % m + t) % m for p in range(n)] + list(range(n, n + fixed)) for t in range(m)]


def _closure(gens: Sequence[Sequence[int]], n: int) -> list[list[int]]:
    elements = [list(range(n))]
    seen = {tuple(range(n))}
    frontier = list(elements)
    while frontier:
        fresh = []
        for g in frontier:
            for s in gens:
                h = [s[x] for x in g]
                if tuple(h) not in seen:
                    seen.add(tuple(h))
                    elements.append(h)
                    fresh.append(h)
        frontier = fresh
    return elements


def _order3_units(m: int) -> list[int]:
    return [u for u in range(2, m) if gcd(u, m) == 1 and u * u % m != 1 and pow(u, 3, m) == 1]


def _searched(n: int, group: list[list[int]], holes: list[tuple[int, int]], symmetries: list[list[list[int]]],
              *, first: Sequence[int] = (), breaksym: bool = False, budget: int, base: int, method: str
              ) -> Design | None:
    orbit, count = pair_orbits(n, group, holes)
    found = find(n, orbit, count, symmetries, first=first, breaksym=breaksym, budget=budget, base=base)
    if found is None:
        return None
    rounds = tuple(r for blocks in found for r in _develop(blocks, group))
    return Design(n, rounds, method)


def gdd3(m: int, *, budget: int = 3_000_000) -> Design | None:
    """``3m+3`` players, ``m`` rounds (``m ≡ 3 mod 4``): a resolvable GDD of type 3^(m+1)."""
    n = 3 * m + 3
    group = _translations(m, 3, 3)
    turn = [((p // m + 1) % 3) * m + p % m for p in range(3 * m)] + [3 * m + (a + 1) % 3 for a in range(3)]
    gens = [turn]
    units = _order3_units(m)
    if units:
        mu = units[0]
        gens.append([(p // m) * m + mu * (p % m) % m for p in range(3 * m)] + [3 * m + (a + 1) % 3 for a in range(3)])
    holes = [(a * m + x, b * m + x) for x in range(m) for a, b in ((0, 1), (0, 2), (1, 2))]
    holes += [(3 * m, 3 * m + 1), (3 * m, 3 * m + 2), (3 * m + 1, 3 * m + 2)]
    sym = "σ, μ" if units else "σ"
    return _searched(n, group, holes, [_closure(gens, n)], first=range(3 * m, n), budget=budget, base=50,
                     method=f"Z_{m} × 3 ∪ 3∞, base round under ⟨{sym}⟩ (resolvable GDD 3^{m + 1})")


def gdd2(m: int, *, budget: int = 3_000_000) -> Design | None:
    """``3m+2`` players, ``m`` rounds (``m ≡ 2 mod 4``, a unit of order 3 mod m): type 2^((3m+2)/2)."""
    units = _order3_units(m)
    if m % 4 != 2 or not units:
        return None
    n = 3 * m + 2
    group = _translations(m, 3, 2)
    mu = units[0]
    psi = [((p // m + 1) % 3) * m + mu * (p % m) % m for p in range(3 * m)] + [3 * m, 3 * m + 1]
    half = m // 2
    holes = [(a * m + x, a * m + x + half) for a in range(3) for x in range(half)] + [(3 * m, 3 * m + 1)]
    return _searched(n, group, holes, [_closure([psi], n)], first=(3 * m, 3 * m + 1), budget=budget, base=100,
                     method=f"Z_{m} × 3 ∪ 2∞, base round under x_a ↦ ({mu}x)_(a+1) (resolvable GDD 2^{n // 2})")


def rotational_search(m: int, *, budget: int = 3_000_000) -> Design | None:
    """``3m+1`` players, ``m`` rounds (``m ≡ 1 mod 4``, no field of order m): searched 1-rotational."""
    n = 3 * m + 1
    group = _translations(m, 3, 1)
    turn = [((p // m + 1) % 3) * m + p % m for p in range(3 * m)] + [3 * m]
    return _searched(n, group, [], [_closure([turn], n)], first=(3 * m,), budget=budget, base=50,
                     method=f"Z_{m} × 3 ∪ ∞, base round under σ (resolvable 2-({n},4,1))")


def elementary32(*, budget: int = 3_000_000) -> Design | None:
    """32 players, 10 rounds, each round invariant under the translations of Z₂³."""
    n = 32
    translations = [[8 * (p // 8) + ((p % 8) ^ t) for p in range(n)] for t in range(8)]
    holes = [(8 * a + g, 8 * a + (g ^ 1)) for a in range(4) for g in range(0, 8, 2)]
    return _searched(n, [list(range(n))], holes, [translations] * 10, breaksym=True, budget=budget, base=100,
                     method="Z₂³ × 4, ten rounds invariant under Z₂³ (resolvable GDD 2^16)")


def cyclic_packing(m: int, *, budget: int = 1_000_000) -> Design | None:
    """``4m`` players, ``m`` rounds (``m`` odd): one base round over ``Z_m × 4`` levels."""
    if m % 2 == 0:
        return None
    n = 4 * m
    return _searched(n, _translations(m, 4, 0), [], [[list(range(n))]], budget=budget, base=200,
                     method=f"Z_{m} × 4, one base round (packing)")


# --- choosing ----------------------------------------------------------------------------------


def candidates(v: int) -> list[tuple[int, str]]:
    """The constructions that apply to ``v`` players, as (rounds, name), most rounds first."""
    out = []
    if v >= 16 and v & (v - 1) == 0 and (v.bit_length() - 1) % 2 == 0:
        out.append(((v - 1) // 3, "affine"))
    if v % 12 == 4 and v > 4:
        q = (v - 1) // 3
        out.append((q, "rotational" if prime_power(q) else "rotational_search"))
    if v % 12 == 0 and v >= 24:
        out.append((v // 3 - 1, "gdd3"))
    if v % 12 == 8 and v >= 32:
        m = (v - 2) // 3
        if v == 32:
            out.append((10, "elementary32"))
        elif _order3_units(m):
            out.append((m, "gdd2"))
    if v % 8 == 4 and v >= 12:
        out.append((v // 4, "cyclic_packing"))
    return sorted(out, key=lambda c: -c[0])


#: node budget of a searched construction up to 64 players (the searches there are tuned and
#: finish in seconds); beyond, a node costs ~v³ and the budget shrinks to a few seconds' worth
SEARCH_BUDGET = 3_000_000


def search_budget(v: int) -> int:
    return SEARCH_BUDGET if v <= 64 else int(5e10 / v ** 3)


CLOSED_FORMS = ("affine", "rotational")


def _build(v: int, name: str) -> Design | None:
    budget = search_budget(v)
    if name == "affine":
        return affine((v.bit_length() - 1) // 2)
    if name == "rotational":
        return rotational((v - 1) // 3)
    if name == "rotational_search":
        return rotational_search((v - 1) // 3, budget=budget)
    if name == "gdd3":
        return gdd3(v // 3 - 1, budget=budget)
    if name == "gdd2":
        return gdd2((v - 2) // 3, budget=budget)
    if name == "elementary32":
        return elementary32(budget=budget)
    if name == "cyclic_packing":
        return cyclic_packing(v // 4, budget=budget)
    raise ValueError(name)  # pragma: no cover


@lru_cache(maxsize=64)
def best_design(v: int, *, closed_only: bool = False) -> Design | None:
    """The construction with the most rounds for ``v`` players, or ``None`` when none applies
    (or every search ran out of budget). Deterministic: searches count nodes, not seconds.
    ``closed_only``: only the constructions that need no search (instant at any size)."""
    for _, name in candidates(v):
        if closed_only and name not in CLOSED_FORMS:
            continue
        design = _build(v, name)
        if design is not None:
            return design
    return None


__all__ = [
    "Design", "affine", "best_design", "candidates", "check_rounds", "cyclic_packing", "elementary32", "gdd2", "gdd3",
    "rotational", "rotational_search", "search_budget",
]

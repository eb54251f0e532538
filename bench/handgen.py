"""Random hands for benchmarks and property tests: winning, waiting, heavy in one suit."""
from __future__ import annotations

import random

from referee.melds import Meld, MeldKind
from referee.tiles import KINDS


def _sets(rng: random.Random, counts: list[int], n: int, suits: tuple[int, ...]) -> list[tuple[str, int]] | None:
    out = []
    for _ in range(n):
        for _try in range(50):
            suit = rng.choice(suits)
            if suit < 3 and rng.random() < 0.6:
                t = suit * 9 + rng.randrange(7)
                if all(counts[t + i] < 4 for i in range(3)):
                    for i in range(3):
                        counts[t + i] += 1
                    out.append(("chow", t))
                    break
            else:
                t = 27 + rng.randrange(7) if suit == 3 else suit * 9 + rng.randrange(9)
                if counts[t] <= 1:
                    counts[t] += 3
                    out.append(("pung", t))
                    break
        else:
            return None
    return out


def winning_hand(rng: random.Random, *, melds: int | None = None, suits: tuple[int, ...] = (0, 1, 2, 3)):
    """(concealed counts, melds) of a random 17-tile winning hand."""
    while True:
        n_melds = rng.randrange(0, 5) if melds is None else melds
        counts = [0] * KINDS
        sets = _sets(rng, counts, 5, suits)
        if sets is None:
            continue
        pair_suit = rng.choice(suits)
        t = 27 + rng.randrange(7) if pair_suit == 3 else pair_suit * 9 + rng.randrange(9)
        if counts[t] > 2:
            continue
        counts[t] += 2
        exposed = []
        for kind, tile in sets[:n_melds]:
            if kind == "chow":
                for i in range(3):
                    counts[tile + i] -= 1
                exposed.append(Meld(MeldKind.CHOW, tile))
            else:
                counts[tile] -= 3
                exposed.append(Meld(MeldKind.PUNG, tile))
        return counts, tuple(exposed)


def waiting_hand(rng: random.Random, **kw):
    """(counts, melds) of a 16-tile hand one tile short of a winning one."""
    counts, melds = winning_hand(rng, **kw)
    t = rng.choice([t for t in range(KINDS) if counts[t]])
    counts[t] -= 1
    return counts, melds


def random_hand(rng: random.Random, size: int, *, melds: int = 0, suits: tuple[int, ...] = (0, 1, 2, 3)):
    """(counts, melds) of random tiles: mostly neither winning nor ready."""
    pool = [t for t in range(KINDS) if (t // 9 if t < 27 else 3) in suits for _ in range(4)]
    counts = [0] * KINDS
    exposed = []
    for _ in range(melds):
        t = rng.choice([t for t in pool if counts[t] == 0 and pool.count(t) >= 3])
        counts[t] += 3
        exposed.append(Meld(MeldKind.PUNG, t))
    rng.shuffle(pool)
    taken = 0
    for t in pool:
        if taken == size - 3 * melds:
            break
        if counts[t] < 4:
            counts[t] += 1
            taken += 1
    for m in exposed:
        counts[m.tile] -= 3
    return counts, tuple(exposed)

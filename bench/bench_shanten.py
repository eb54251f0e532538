"""向聽數 speed (issue #14 item 8): :func:`referee.shanten.shanten` on random hands, the first
time a hand's suits are seen and again (the suit tails are remembered), and its share of
:func:`referee.analysis.analyze` (the answer of ``POST /api/v1/analyze`` and the calculator page).

Run: ``.venv/bin/python -m bench.bench_shanten``. Medians over hands of the per-hand time, µs;
the share is measured in turn in one run (a ratio: the machine is shared).
"""
from __future__ import annotations

import random
import statistics
import time

from bench.handgen import random_hand, waiting_hand
from referee.analysis import analyze
from referee.hand import Hand
from referee.shanten import _tail, shanten

HANDS = 400


def _hands(rng: random.Random, size: int) -> list[Hand]:
    out = []
    for k in range(HANDS):
        if size == 16 and k % 2:
            counts, melds = waiting_hand(rng, melds=k % 3)
            counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
            counts[rng.randrange(27)] += 1
            try:
                out.append(Hand(tuple(counts), melds))
                continue
            except Exception:  # noqa: BLE001 - a fifth copy (any refusal): take a random hand instead
                pass
        counts, melds = random_hand(rng, size, melds=k % 3)
        out.append(Hand(tuple(counts), melds))
    return out


def timed(fn, hands) -> float:
    times = []
    for h in hands:
        t0 = time.perf_counter()
        fn(h)
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.median(times)


def main() -> None:
    rng = random.Random(2026)
    for size in (16, 17):
        hands = _hands(rng, size)
        _tail.cache_clear()
        cold = timed(shanten, hands)
        warm = timed(shanten, hands)
        full = timed(analyze, hands)
        print(f"{size} tiles: shanten first sight {cold:8.1f} µs, seen before {warm:6.1f} µs; "
              f"analyze (with shanten, suits seen) {full:8.1f} µs")


if __name__ == "__main__":
    main()

"""Full scoring speed: analysis, best reading, every pattern, settlement (issue #3 target ≤ 25 µs).

Run: ``.venv/bin/python -m bench.bench_scoring`` (``--profile app`` for another ruleset).

Random winning hands (``bench.handgen.winning_hand``: 0–4 exposed melds, with random
flowers) get a random context (winner, dealer, winds, streak, how the tile came) built
beforehand; the timed call is ``settle(score(hand, ctx, rules), stakes)``. The figure is
the median over hands of the per-hand time, each hand timed over a batch of repeats,
after a first pass that fills the lazy per-suit tables as a running service would.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.handgen import winning_hand
from referee.hand import Hand
from referee.ruleset import Ruleset
from referee.scoring import Stakes, WinContext, WinSource, score, settle
from referee.tiles import Wind

HANDS = 2000
REPEAT = 50
_SOURCES = (WinSource.WALL, WinSource.DISCARD, WinSource.DISCARD, WinSource.KONG_REPLACEMENT,
            WinSource.FLOWER_REPLACEMENT, WinSource.LAST_TILE, WinSource.LAST_DISCARD)


def random_case(rng: random.Random) -> tuple[Hand, WinContext]:
    """A random winning hand with flowers and a context that fits it."""
    counts, melds = winning_hand(rng)
    flowers = tuple(sorted(rng.sample(range(34, 42), rng.choice((0, 0, 1, 2, 3, 4)))))
    hand = Hand(tuple(counts), melds, flowers)
    tile = rng.choice([t for t in range(34) if counts[t]])
    winner, dealer = rng.randrange(4), rng.randrange(4)
    source = rng.choice(_SOURCES)
    discarder = None
    if source in (WinSource.DISCARD, WinSource.LAST_DISCARD):
        discarder = rng.choice([s for s in range(4) if s != winner])
    ctx = WinContext(winner=winner, dealer=dealer, round_wind=Wind(rng.randrange(4)), source=source,
                     winning_tile=tile, discarder=discarder, wall_break=rng.choice((None, rng.randrange(4))),
                     streak=rng.choice((0, 0, 1, 2)))
    return hand, ctx


def per_hand(cases, rules, stakes, clock=time.perf_counter) -> float:
    """Median over hands of the time for score + settle, in µs.

    *clock* ``time.perf_counter`` is wall time; ``time.process_time`` counts only this
    process's CPU time, so other processes loading the machine do not inflate it.
    """
    times = []
    for hand, ctx in cases:
        t0 = clock()
        for _ in range(REPEAT):
            settle(score(hand, ctx, rules), stakes)
        times.append((clock() - t0) / REPEAT * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="competition")
    args = parser.parse_args()
    rng = random.Random(2026)
    rules = Ruleset.load(args.profile)
    stakes = Stakes(100, 20)
    cases = [random_case(rng) for _ in range(HANDS)]
    for hand, ctx in cases:  # fill the lazy tables
        settle(score(hand, ctx, rules), stakes)
    wall = per_hand(cases, rules, stakes)
    cpu = per_hand(cases, rules, stakes, time.process_time)
    print(f"full scoring + settlement ({args.profile:11})  wall {wall:6.2f} µs/hand  cpu {cpu:6.2f} µs/hand"
          "  target ≤ 25")


if __name__ == "__main__":
    main()

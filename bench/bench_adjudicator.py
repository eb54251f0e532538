"""Replay + adjudication with penalties against the referee alone, in one run (issue #13 speed).

Run: ``.venv/bin/python -m bench.bench_adjudicator [HANDS] [ROUNDS]``. Generated legal hands
(:mod:`referee.generator`, seeds 0…HANDS-1) are replayed ROUNDS times each way — the referee
alone (``Referee.apply_all`` + ``finish``, as :mod:`bench.bench_replay`), through
:class:`penalties.adjudicator.HandAdjudicator` (the short cuts on), and through the
adjudicator with ``reference=True`` (the full penalty walk every hand) — in CPU time
(``time.process_time``), best round each; the ratios are what a shared, noisy machine can
measure (docs/performance.md). Hands per second follow from the referee's own figure.
"""
from __future__ import annotations

import gc
import sys
import time

from penalties.adjudicator import HandAdjudicator
from referee.generator import generate_hand
from referee.machine import Referee


def _referee(events) -> None:
    ref = Referee()
    ref.apply_all(events)
    ref.finish()


def _best(hands, one, rounds: int) -> float:
    best = None
    for _ in range(rounds):
        t0 = time.process_time()
        for events in hands:
            one(events)
        dt = time.process_time() - t0
        best = dt if best is None or dt < best else best
    return best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    hands = [generate_hand(seed) for seed in range(n)]
    ways = {"referee": _referee, "adjudicator": lambda e: HandAdjudicator().feed_all(e),
            "reference": lambda e: HandAdjudicator(reference=True).feed_all(e)}
    for one in ways.values():
        for events in hands:
            one(events)
    gc.collect()
    gc.freeze()
    times = {}
    for _ in range(2):  # interleaved, so a busy spell hurts each way alike
        for name, one in ways.items():
            t = _best(hands, one, rounds)
            times[name] = min(times.get(name, t), t)
    ref = times["referee"]
    for name, t in times.items():
        print(f"{name:12s} {n / t:8.0f} hands/s  {t / n * 1e3:.3f} ms/hand  ×{t / ref:.3f} of the referee alone")


if __name__ == "__main__":
    main()

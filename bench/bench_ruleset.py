"""Ruleset loading speed: a cold load from the JSON files, and a load with overrides.

Run: ``.venv/bin/python -m bench.bench_ruleset``.
"""
from __future__ import annotations

import statistics
import time

import referee.ruleset as rs
from referee.ruleset import Ruleset


def main() -> None:
    cold = []
    for _ in range(20):
        rs.clear_cache()
        t0 = time.perf_counter()
        Ruleset.load("app")
        cold.append(time.perf_counter() - t0)
    Ruleset.load("app")
    t0 = time.perf_counter()
    for _ in range(1000):
        Ruleset.load("app", {"scoring.cap": 8})
    per_override = (time.perf_counter() - t0) / 1000
    print(f"cold load of a profile      {statistics.median(cold) * 1000:6.2f} ms   target ≤ 20 ms")
    print(f"load with overrides (cached) {per_override * 1e6:6.1f} µs")


if __name__ == "__main__":
    main()

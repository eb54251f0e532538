"""Schedule quality and speed (issue #7): repeat-free rounds reached for 16–64 players.

Run: ``.venv/bin/python -m bench.bench_schedule`` (add ``--sizes 68,100,200`` and
``--rounds 12`` for other events). Each size runs in a fresh process pinned to one core:
it builds the schedule for the target number of rounds from nothing (construction
searches included, no cache), checks it (no pair twice, everyone once a round, winds
within ⌊R/4⌋…⌈R/4⌉) and reports the seconds taken.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

#: best known repeat-free round counts (the issue's table)
TARGETS = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 36: 11, 40: 13, 44: 14, 48: 15, 52: 17, 56: 18, 60: 19, 64: 21}

CHILD = """
import json, os, sys, time
try:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
except (AttributeError, OSError):
    pass
from tournament.schedule import make_schedule, check_schedule
n, rounds = int(sys.argv[1]), int(sys.argv[2])
players = [f"選手{i:03d}" for i in range(n)]
t0 = time.perf_counter()
schedule = make_schedule(players, rounds, seed=1)
seconds = time.perf_counter() - t0
check = check_schedule(schedule)
print(json.dumps({"n": n, "rounds": rounds, "seconds": seconds, "ok": check.ok, "repeats": check.repeats,
                  "repeat_free": check.repeat_free_rounds, "winds": check.winds_balanced, "method": schedule.method}))
"""


def run(n: int, rounds: int) -> dict:
    out = subprocess.check_output([sys.executable, "-c", CHILD, str(n), str(rounds)],
                                  cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", help="comma-separated player counts (default: the issue's table)")
    parser.add_argument("--rounds", type=int, help="rounds for --sizes (default: (n-1)//3)")
    args = parser.parse_args()
    if args.sizes:
        sizes = {int(s): args.rounds or (int(s) - 1) // 3 for s in args.sizes.split(",")}
    else:
        sizes = TARGETS
    print("| players | target | rounds | repeat-free | repeats | winds balanced | seconds | method |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    worst = 0.0
    for n, rounds in sizes.items():
        r = run(n, rounds)
        worst = max(worst, r["seconds"])
        target = TARGETS.get(n, "—")
        mark = "" if not isinstance(target, int) or r["repeat_free"] >= target else " ✗"
        print(f"| {n} | {target} | {rounds} | {r['repeat_free']}{mark} | {r['repeats']} | "
              f"{'yes' if r['winds'] else 'NO'} | {r['seconds']:.2f} | {r['method']} |", flush=True)
    print(f"\nslowest: {worst:.2f} s")


if __name__ == "__main__":
    main()

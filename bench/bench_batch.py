"""Batch re-validation speed and memory (issue #17): ``flask replay`` over a generated JSON Lines log.

Run: ``.venv/bin/python -m bench.bench_batch [HANDS ...] [--jobs 1,2] [--command replay|rule] [--distinct 300]``.

A log of HANDS hands is written to a temporary file (``--distinct`` generated hands,
:mod:`referee.generator`, repeated in turn: generating 100,000 hands would take longer than
judging them), then the real command runs in a fresh process, ``flask --app app replay LOG
--jobs J --quiet > /dev/null``, once per size and job count. Shown: hands/s over the wall
clock, the CPU of the command and its workers (user + system, ``getrusage`` of the
children), and the peak resident memory of the largest process (``ru_maxrss``: the parent and
each worker are separate processes; with ``--jobs 2`` the figure is the largest of the three).
The machine is shared: compare job counts and sizes within one run.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

from referee.events import to_jsonl
from referee.generator import generate_hands


def write_log(path: str, hands: int, distinct: int) -> int:
    texts = [to_jsonl(events) for events in generate_hands(distinct, seed=0)]
    with open(path, "w", encoding="utf-8") as f:
        for i in range(hands):
            f.write(texts[i % distinct])
    return os.path.getsize(path)


def run(log: str, jobs: int, command: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MB) of one command in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(os.devnull, "w") as out:
        subprocess.run([sys.executable, "-m", "flask", "--app", "app", command, log, "--jobs", str(jobs), "--quiet"],
                       stdout=out, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def main() -> None:
    args = sys.argv[1:]
    opts = {a.split("=")[0]: a.split("=")[1] for a in args if a.startswith("--") and "=" in a}
    for flag in ("--jobs", "--command", "--distinct"):
        if flag in args:
            opts[flag] = args[args.index(flag) + 1]
    sizes = [int(a) for a in args if a.isdigit() and (args.index(a) == 0 or not args[args.index(a) - 1].startswith("--"))]
    sizes = sizes or [1000, 10000]
    jobs = [int(j) for j in opts.get("--jobs", "1,2").split(",")]
    command = opts.get("--command", "replay")
    distinct = int(opts.get("--distinct", 300))
    print(f"command: flask {command}; log: {distinct} distinct generated hands repeated; load average "
          f"{os.getloadavg()[0]:.1f}")
    print("| hands | jobs | wall s | hands/s | CPU s | CPU ms/hand | peak RSS MB (largest process) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for hands in sizes:
            log = os.path.join(tmp, f"log{hands}.jsonl")
            size = write_log(log, hands, distinct)
            for j in jobs:
                wall, cpu, rss = run(log, j, command)
                print(f"| {hands:,} | {j} | {wall:.2f} | {hands / wall:,.0f} | {cpu:.2f} | {cpu / hands * 1e3:.3f} | "
                      f"{rss:.0f} |", flush=True)
            print(f"(log of {hands:,} hands: {size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()

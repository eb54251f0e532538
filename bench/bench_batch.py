"""Batch re-validation speed and memory (issue #17): ``flask replay`` over a generated JSON Lines log.

Run: ``.venv/bin/python -m bench.bench_batch [HANDS ...] [--jobs 1,2] [--command replay|rule] [--distinct 300]
[--cli flask|mjref]`` (``mjref``: ``python -m mjref replay …``, the command without the app's imports).

A log of HANDS hands is written to a temporary file (``--distinct`` generated hands,
:mod:`referee.generator`, repeated in turn: generating 100,000 hands would take longer than
judging them), then the real command runs in a fresh process, ``flask --app app replay LOG
--jobs J --quiet > /dev/null``, once per size and job count. Shown: hands/s over the wall
clock, the CPU of the command and its workers (user + system, ``getrusage`` of the
children), and the peak resident memory of the largest process of that run (``ru_maxrss`` of a
wrapper process that runs only it: the parent and each worker are separate processes; with
``--jobs 2`` the figure is the largest of the three). Time linear in hands: the CPU per hand
of each size divided by the smallest size's (1.00: linear).
The machine is shared: compare job counts and sizes within one run. The project's bytecode
is written first (:func:`compile_bytecode`), as ``make run`` and ``make test`` do.
"""
from __future__ import annotations

import os
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


#: runs the command as its own child and prints its CPU and peak memory: each run's figures are
#: its own (``RUSAGE_CHILDREN`` of this bench would keep the largest process of every earlier run)
_MEASURE = """
import resource, subprocess, sys
with open(sys.argv[1], "w") as out:
    subprocess.run(sys.argv[2:], stdout=out, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime, r.ru_maxrss)
"""


def run(log: str, jobs: int, command: str, out: str = os.devnull, cli: str = "flask") -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MB) of one command in a fresh process."""
    start = ["mjref"] if cli == "mjref" else ["flask", "--app", "app"]
    args = [sys.executable, "-m", *start, command, log, "--quiet", "--jobs", str(jobs)]
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURE, out, *args], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    cpu, rss = done.stdout.split()
    return wall, float(cpu), int(rss) / 1024


def compile_bytecode() -> None:
    """The project's bytecode written where out of date, as ``make run`` and ``make test`` do
    (``make bytecode``): with ``PYTHONDONTWRITEBYTECODE`` set (this machine), a command
    without it compiles every module it imports at each start."""
    import compileall
    import re

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    compileall.compile_dir(root, quiet=1, rx=re.compile(r"/\.venv/"), workers=0)


def main() -> None:
    compile_bytecode()
    args = sys.argv[1:]
    opts = {a.split("=")[0]: a.split("=")[1] for a in args if a.startswith("--") and "=" in a}
    for flag in ("--jobs", "--command", "--distinct", "--cli"):
        if flag in args:
            opts[flag] = args[args.index(flag) + 1]
    sizes = [int(a) for a in args if a.isdigit()
             and (args.index(a) == 0 or not args[args.index(a) - 1].startswith("--"))]
    sizes = sizes or [1000, 10000]
    jobs = [int(j) for j in opts.get("--jobs", "1,2").split(",")]
    command = opts.get("--command", "replay")
    distinct = int(opts.get("--distinct", 300))
    cli = opts.get("--cli", "flask")
    print(f"command: {cli} {command}; log: {distinct} distinct generated hands repeated; load average "
          f"{os.getloadavg()[0]:.1f}")
    print("| hands | jobs | wall s | hands/s | CPU s | CPU ms/hand | CPU/hand ÷ smallest size's "
          "| peak RSS MB (largest process) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    first: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for hands in sizes:
            log = os.path.join(tmp, f"log{hands}.jsonl")
            size = write_log(log, hands, distinct)
            for j in jobs:
                wall, cpu, rss = run(log, j, command, cli=cli)
                per = cpu / hands * 1e3
                first.setdefault(j, per)
                print(f"| {hands:,} | {j} | {wall:.2f} | {hands / wall:,.0f} | {cpu:.2f} | {per:.3f} | "
                      f"{per / first[j]:.2f} | {rss:.0f} |", flush=True)
            print(f"(log of {hands:,} hands: {size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main()

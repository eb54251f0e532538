"""Referee replay for instruction counts: replay the same generated hands ROUNDS times.

Run under callgrind twice, with ROUNDS 1 and 2; the difference of the two totals is one
replay of the hands, whatever the start-up costs (imports, generating the hands)::

    for r in 1 2; do PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.replay_loop $r 2>&1 | grep Collected; done

(second total − first total) / HANDS = instructions per hand replayed and adjudicated
(:mod:`bench.bench_replay` does the same in CPU time). With ``--no-finish`` the hands are
replayed without :meth:`Referee.finish` (scoring, settlement): the difference is its cost.
Instruction counts do not move with
the machine's load, so two builds can be compared on a busy machine. The collector is
frozen and then disabled, as the hands are input and a replay allocates little.
"""
from __future__ import annotations

import gc
import sys

from referee.generator import generate_hand
from referee.machine import Referee

HANDS = 100


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    rounds = int(args[0]) if args else 1
    finish = "--no-finish" not in sys.argv
    hands = [generate_hand(seed) for seed in range(HANDS)]
    for events in hands:  # warm the lazy lookup tables, as a running service has them
        ref = Referee()
        ref.apply_all(events)
        ref.finish()
    gc.collect()
    gc.freeze()
    gc.disable()
    for _ in range(rounds - 1):
        for events in hands:
            ref = Referee()
            ref.apply_all(events)
            if finish:
                ref.finish()


if __name__ == "__main__":
    main()

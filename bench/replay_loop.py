"""Referee replay for instruction counts: replay the same generated hands ROUNDS times.

Run under callgrind twice, with ROUNDS 1 and 2; the difference of the two totals is one
replay of the hands, whatever the start-up costs (imports, generating the hands)::

    for r in 1 2; do PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.replay_loop $r 2>&1 | grep Collected; done

(second total − first total) / HANDS = instructions per hand replayed and adjudicated
(:mod:`bench.bench_replay` does the same in CPU time). With ``--no-finish`` the hands are
replayed without :meth:`Referee.finish` (scoring, settlement): the difference is its cost.
With ``--adjudicator`` each hand goes through :class:`penalties.adjudicator.HandAdjudicator`
(the referee, the wall after each event, penalties at the close: what live ingest, ``flask
rule`` and the API run); with ``--rule`` through the path before issue #13 (a replay by
:func:`penalties.record.build`, then :func:`penalties.rule.rule_record`). With ``--irregular``
the hands have two irregularities injected each (:func:`testkit.irregular.irregular_hand`,
physical and digital in turn; those the referee cannot follow left out): the path where
penalties rule at the moment (issue #13 item 2).
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
    one = _one("--adjudicator" in sys.argv, "--rule" in sys.argv, finish)
    hands = _irregular(one) if "--irregular" in sys.argv else [generate_hand(seed) for seed in range(HANDS)]
    for events in hands:  # warm the lazy lookup tables, as a running service has them
        one(events)
    gc.collect()
    gc.freeze()
    gc.disable()
    for _ in range(rounds - 1):
        for events in hands:
            one(events)


def _irregular(one) -> list:
    """:data:`HANDS` generated hands with two irregularities each, those the referee can follow."""
    from penalties.adjudicator import _events
    from referee.errors import MjrefError
    from testkit.irregular import irregular_hand

    hands = []
    seed = 0
    while len(hands) < HANDS:
        events = _events(irregular_hand(seed, seed + 1, 2, physical=seed % 2 == 0))
        seed += 1
        try:
            one(events)
        except MjrefError:
            continue
        hands.append(events)
    return hands


def _one(adjudicator: bool, rule: bool, finish: bool):
    """What is done to one hand."""
    if adjudicator:
        from penalties.adjudicator import HandAdjudicator

        return lambda events: HandAdjudicator().feed_all(events)
    if rule:
        from penalties.record import build
        from penalties.rule import rule_record

        return lambda events: rule_record(build(events))

    def referee(events):
        ref = Referee()
        ref.apply_all(events)
        if finish:
            ref.finish()

    return referee


if __name__ == "__main__":
    main()

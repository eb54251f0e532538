"""The moment rulings on irregular hands without and with a replay, in one run (issue #13 item 2).

Run: ``.venv/bin/python -m bench.bench_moments [HANDS] [ROUNDS]``. Generated hands with two
irregularities injected each (:func:`testkit.irregular.irregular_hand`, physical and digital
in turn; those the referee cannot follow left out) go through
:class:`penalties.adjudicator.HandAdjudicator` (the rulings at a moment on the live referee
closed provisionally, ``Referee.provisional``) and through :class:`Replaying`, the adjudicator
as it was (a second referee fed the events so far at each moment: what
``tests/test_adjudicator_facts.py`` holds the first to), interleaved, best of ROUNDS in CPU
time (``time.process_time``): a ratio a busy machine can measure (docs/performance.md).
"""
from __future__ import annotations

import gc
import sys
import time

from penalties.adjudicator import HandAdjudicator, _events
from penalties.record import hand_record
from penalties.rule import rule_record
from referee.errors import MjrefError
from referee.machine import Referee
from testkit.irregular import irregular_hand


class Replaying(HandAdjudicator):
    """Each moment's rulings on a replay of the events so far (before issue #13 item 2)."""

    __slots__ = ()

    def _rule_prefix(self):
        ref = Referee(self.ruleset, self.mode, names=self.names)
        ref.apply_all(self.events)
        record = hand_record(self.events, ref, self.moments, stakes=self.stakes, mode=self.mode, names=self.names)
        return rule_record(record, side_stakes=self.side_stakes)


def hands(count: int) -> list:
    out, seed = [], 0
    while len(out) < count:
        events = _events(irregular_hand(seed, seed + 1, 2, physical=seed % 2 == 0))
        seed += 1
        try:
            HandAdjudicator().feed_all(events)
        except MjrefError:
            continue
        out.append(events)
    return out


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    played = hands(count)
    best = {"provisional": None, "replay": None}
    gc.collect()
    gc.freeze()
    for _ in range(rounds):
        for name, cls in (("provisional", HandAdjudicator), ("replay", Replaying)):
            start = time.process_time()
            for events in played:
                cls().feed_all(events)
            took = time.process_time() - start
            best[name] = took if best[name] is None else min(best[name], took)
    print(f"{count} irregular hands, best of {rounds}: provisional {best['provisional']:.3f} s, "
          f"replay {best['replay']:.3f} s, ratio {best['provisional'] / best['replay']:.3f}")


if __name__ == "__main__":
    main()

"""Hand analysis speed: win check, all waits, all decompositions (issue #2 targets).

Run: ``.venv/bin/python -m bench.bench_hand``. Each figure is the median over
random hands of the per-hand time, each hand timed over a batch of repeats, with
hands held in their working representation (four suit keys).

``--public`` (issue #17 item 6): the same work through the public API on :class:`Hand`
(``is_winning(hand)``, ``waits(hand)``, ``decompositions(hand)``) against the keys path on the
same hands, measured in turn in one run, as ratios (target ≤ 1.5); and ``Hand.parse`` of a
17-tile hand written in compact notation (target ≤ 5 µs).
"""
from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time

from bench.handgen import random_hand, waiting_hand, winning_hand
from referee.hand import (
    Hand, decompositions, decompositions_keys, is_winning, is_winning_keys, keys_of, waits, waits_keys,
)
from referee.tiles import format_tiles


HANDS = 2000
REPEAT = 50


def per_hand(fn, keys_list) -> float:
    """Median over hands of the time per call, in µs."""
    times = []
    for keys in keys_list:
        t0 = time.perf_counter()
        for _ in range(REPEAT):
            fn(keys)
        times.append((time.perf_counter() - t0) / REPEAT * 1e6)
    return statistics.median(times)


def start_cost() -> float:
    """Seconds a fresh process pays to import the analysis and build its tables."""
    code = "import time; t=time.perf_counter(); import referee.hand; print(time.perf_counter()-t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code])) for _ in range(5)]
    return statistics.median(runs)


def public() -> None:
    rng = random.Random(2026)
    win = [Hand(tuple(c), m) for c, m in (winning_hand(rng) for _ in range(HANDS))]
    mixed = win[: HANDS // 2] + [Hand(tuple(c), m) for c, m in (random_hand(rng, 17, melds=k)
                                                               for k in (rng.randrange(3) for _ in range(HANDS // 2)))]
    ready = [Hand(tuple(c), m) for c, m in (waiting_hand(rng) for _ in range(HANDS))]
    for h in win + ready:  # fill the lazy per-key tables
        waits_keys(h.keys), decompositions_keys(h.keys)
    rows = [("win check", is_winning, is_winning_keys, mixed), ("all waits", waits, waits_keys, ready),
            ("all decompositions", decompositions, decompositions_keys, win)]
    for name, api, internal, hands in rows:
        keys = [h.keys for h in hands]
        pub, ref = [], []
        for _ in range(3):  # in turn, so both see the same load
            pub.append(per_hand(api, hands))
            ref.append(per_hand(internal, keys))
        print(f"{name:20s} Hand {min(pub):5.2f} µs, keys {min(ref):5.2f} µs, ratio {min(pub) / min(ref):4.2f}"
              "  target ≤ 1.5")
    texts = [format_tiles(h.tiles()) for h in win if not h.melds][:500]
    parse = [per_hand(Hand.parse, texts) for _ in range(3)]
    print(f"Hand.parse (17 tiles, compact)  {min(parse):5.2f} µs/hand  target ≤ 5")


def main() -> None:
    if "--public" in sys.argv:
        public()
        return
    rng = random.Random(2026)

    mixed_win = [keys_of(winning_hand(rng)[0]) for _ in range(HANDS // 2)]
    mixed_win += [keys_of(random_hand(rng, 17 - 3 * m, melds=0)[0])
                  for m in (rng.randrange(5) for _ in range(HANDS // 2))]
    waiting = [keys_of(waiting_hand(rng)[0]) for _ in range(HANDS)]
    winning = [keys_of(winning_hand(rng)[0]) for _ in range(HANDS)]
    one_suit = [keys_of(winning_hand(rng, melds=0, suits=(rng.randrange(3),))[0]) for _ in range(HANDS)]
    # first pass fills the lazy per-key tables, as a running service would have
    for ks in (mixed_win, waiting, winning, one_suit):
        for k in ks:
            waits_keys(k), decompositions_keys(k)
    print(f"win check (half winning, half random)  {per_hand(is_winning_keys, mixed_win):6.2f} µs/hand  target ≤ 1")
    print(f"all waits (ready hands)                 {per_hand(waits_keys, waiting):6.2f} µs/hand  target ≤ 2")
    print(f"all decompositions (winning hands)      {per_hand(decompositions_keys, winning):6.2f} µs/hand  target ≤ 3")
    print(f"all decompositions (one-suit winning)   {per_hand(decompositions_keys, one_suit):6.2f} µs/hand  target ≤ 3")
    print(f"start: import + build tables            {start_cost() * 1000:6.1f} ms       target ≤ 200")


if __name__ == "__main__":
    main()

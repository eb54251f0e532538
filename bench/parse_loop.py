"""``Hand.parse`` of 17 tiles for instruction counts (issue #17 item 6): the 500 texts of
:mod:`bench.bench_hand` ``--public`` parsed ROUNDS times.

Run under callgrind with ROUNDS 1 and 3; the difference of the totals over 1,000 is one parse::

    for r in 1 3; do PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.parse_loop $r 2>&1 | grep Collected; done
"""
from __future__ import annotations

import gc
import random
import sys

from referee.hand import Hand
from referee.tiles import format_tiles
from bench.handgen import winning_hand


def texts() -> list[str]:
    from bench.bench_hand import HANDS

    rng = random.Random(2026)
    win = [Hand(tuple(c), m) for c, m in (winning_hand(rng) for _ in range(HANDS))]
    return [format_tiles(h.tiles()) for h in win if not h.melds][:500]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    items = texts()
    parse = Hand.parse
    for text in items:  # warm the token table
        parse(text)
    gc.collect()
    gc.freeze()
    for _ in range(rounds - 1):
        for text in items:
            parse(text)
    print(f"texts: {len(items)}", file=sys.stderr)


if __name__ == "__main__":
    main()

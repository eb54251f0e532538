"""Event decoding speed (issue #17 item 5: ≤ 2 µs per event): a JSON Lines line in, an
:class:`referee.events.Event` out.

Run: ``.venv/bin/python -m bench.bench_decode [HANDS]``: the lines of HANDS generated hands
(:mod:`referee.generator`, about 151 events each) decoded by the fast path
(:func:`referee.events.read_line` + :func:`referee.events.parse_event`) and by the reference
(:func:`json.loads` + :func:`referee.events.parse_event_reference`), and by the batch's loop
(:func:`referee.events.read_events`, what ``flask replay`` runs: the usual lines by their pieces,
:func:`referee.events.read_usual_line`, the rest as the fast path), in turn, in one process:
µs per event (CPU time, best of 5 rounds) and the ratio, which the machine's load moves less.

The batch's loop is given each hand's lines as ``flask replay`` reads them (:func:`api.batch.read_hands`:
bytes, each ending in ``\\n``), so its usual lines are read by their pieces; the fast path and the
reference are given the lines as text (``parse_stream``'s and a caller's ``parse_event``).

Instruction counts (callgrind; the difference between decoding the lines once and twice is one
decoding, whatever the start-up), for this tree or another (run from the other tree's directory
with this file copied there: ``python -m`` puts the current directory first on ``sys.path``)::

    for r in 1 2; do PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.bench_decode --loop $r 2>&1 | grep Collected; done

``--loop`` uses ``read_line`` when the tree has it, else ``json.loads`` (an older tree).
``--loop R --batch``: the batch's loop instead (:func:`referee.events.read_events` over each hand's
bytes lines, warmed by one pass as a long batch has its tables filled). Both print the number
of events on stderr.
``--cpu``: the same loop timed (CPU, best of 5 rounds, µs per event), to run in this tree and
in an older checkout back to back (copy this file there).
"""
from __future__ import annotations

import gc
import json
import sys
import time

from referee import events as ev
from referee.events import to_jsonl
from referee.generator import generate_hands

ROUNDS = 5


def lines_of(hands: int) -> list[str]:
    return [line for events in generate_hands(hands, seed=0) for line in to_jsonl(events).splitlines()]


def batch_hands(lines: list[str]) -> list[list[bytes]]:
    """*lines* cut by hand, each line as :func:`api.batch.read_hands` gives it (bytes and ``\\n``)."""
    return [[line.encode() + b"\n" for line in hand] for hand in by_hand(lines)]


def decode_fast(lines: list[str]) -> float:
    read, parse = ev.read_line, ev.parse_event
    t0 = time.process_time()
    for n, line in enumerate(lines):
        parse(read(line, n), index=n)
    return time.process_time() - t0


def decode_batch(hands: list[list[bytes]]) -> float:
    """The batch's loop (``flask replay``): :func:`referee.events.read_events` over each
    hand's lines (the hand's events dropped before the next, as the batch does)."""
    read_events = ev.read_events
    t0 = time.process_time()
    for lines in hands:
        read_events(lines)
    return time.process_time() - t0


def by_hand(lines: list[str]) -> list[list[str]]:
    hands: list[list[str]] = []
    for line in lines:
        if '"hand_start"' in line or not hands:
            hands.append([])
        hands[-1].append(line)
    return hands


def decode_reference(lines: list[str]) -> float:
    loads, parse = json.loads, ev.parse_event_reference
    t0 = time.process_time()
    for n, line in enumerate(lines):
        parse(loads(line), index=n)
    return time.process_time() - t0


def loop(rounds: int) -> None:
    lines = lines_of(100)
    print(f"events: {len(lines)}", file=sys.stderr)
    if "--batch" in sys.argv:
        hands = batch_hands(lines)
        decode_batch(hands)
        gc.collect()
        gc.freeze()
        gc.disable()
        for _ in range(rounds):
            decode_batch(hands)
        return
    read = getattr(ev, "read_line", None)
    parse = ev.parse_event
    gc.collect()
    gc.freeze()
    gc.disable()
    for _ in range(rounds):
        for n, line in enumerate(lines):
            parse(read(line, n) if read else json.loads(line), index=n)


def cpu() -> None:
    lines = lines_of(100)
    read = getattr(ev, "read_line", None)
    parse = ev.parse_event

    def once() -> None:
        for n, line in enumerate(lines):
            parse(read(line, n) if read else json.loads(line), index=n)

    once()
    best = 1e9
    for _ in range(ROUNDS):
        t0 = time.process_time()
        once()
        best = min(best, time.process_time() - t0)
    print(f"{'read_line' if read else 'json.loads'} + parse_event: {best / len(lines) * 1e6:.2f} µs/event")


def main() -> None:
    if "--cpu" in sys.argv:
        cpu()
        return
    if "--loop" in sys.argv:
        loop(int(sys.argv[sys.argv.index("--loop") + 1]))
        return
    args = [a for a in sys.argv[1:] if a.isdigit()]
    lines = lines_of(int(args[0]) if args else 300)
    decode_fast(lines)
    decode_reference(lines)  # warm both (the tile text cache is shared)
    fast, ref, whole = [], [], []
    hands = batch_hands(lines)
    decode_batch(hands)
    for _ in range(ROUNDS):
        fast.append(decode_fast(lines))
        ref.append(decode_reference(lines))
        whole.append(decode_batch(hands))
    n = len(lines)
    f, r, b = min(fast) / n * 1e6, min(ref) / n * 1e6, min(whole) / n * 1e6
    print(f"events: {n:,}")
    print(f"the batch's loop (read_events, bytes lines): {b:.2f} µs/event (reference / batch: {r / b:.2f})")
    print(f"fast path (read_line + parse_event): {f:.2f} µs/event")
    print(f"reference (json.loads + parse_event_reference): {r:.2f} µs/event")
    print(f"ratio reference / fast: {r / f:.2f}")


if __name__ == "__main__":
    main()

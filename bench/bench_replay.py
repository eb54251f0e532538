"""Referee speed: replaying and adjudicating generated hands (issue #4 target: ≥ 3,000 hands/s
on one core, about 0.3 ms for a hand of ~150 events).

Run: ``.venv/bin/python -m bench.bench_replay [HANDS]``. Hands are generated first (digital
mode, :mod:`referee.generator`, seeds 0…HANDS-1, the ``competition`` ruleset), then every
hand is replayed — each event applied to a fresh :class:`referee.machine.Referee`, then
``finish()``: the outcome decided, wins scored and settled — once to warm the lazy
lookup tables as a running service would have them, then timed over several rounds. The
figure is the best round (least disturbed by other processes). Also shown: the median per
hand, µs per event, and the cost with JSON parsing in front (the API path).
"""
from __future__ import annotations

import statistics
import sys
import time

from referee.events import parse_stream, to_jsonl
from referee.generator import generate_hand
from referee.machine import Referee

ROUNDS = 5


def replay_all(hands) -> float:
    t0 = time.process_time()
    for events in hands:
        ref = Referee()
        apply = ref.apply
        for ev in events:
            apply(ev)
        ref.finish()
    return time.process_time() - t0


def per_hand(hands) -> list[float]:
    times = []
    for events in hands:
        t0 = time.process_time()
        ref = Referee()
        apply = ref.apply
        for ev in events:
            apply(ev)
        ref.finish()
        times.append(time.process_time() - t0)
    return times


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    hands = [generate_hand(seed) for seed in range(count)]
    events = sum(len(h) for h in hands)
    replay_all(hands)  # warm the lazy tables
    best = min(replay_all(hands) for _ in range(ROUNDS))
    median = statistics.median(per_hand(hands))
    texts = [to_jsonl(h) for h in hands[:200]]
    t0 = time.process_time()
    for text in texts:
        ref = Referee()
        for ev in parse_stream(text):
            ref.apply(ev)
        ref.finish()
    with_json = (time.process_time() - t0) / len(texts)
    print(f"hands: {count}, events per hand: {events / count:.0f}")
    print(f"replay + adjudicate: {count / best:,.0f} hands/s, {best / count * 1e3:.3f} ms/hand, "
          f"{best / events * 1e6:.2f} µs/event (best of {ROUNDS} rounds)")
    print(f"median per hand: {median * 1e3:.3f} ms")
    print(f"with JSON Lines parsing in front: {with_json * 1e3:.3f} ms/hand")


if __name__ == "__main__":
    main()

"""Where a hand's time goes in ``flask replay`` / ``flask rule`` (issue #17): each phase of
:func:`api.batch.answer_hand` timed alone, in turn, in one process (CPU time, the best of
ROUNDS rounds over HANDS generated hands; the machine's load moves every phase alike).

Run: ``.venv/bin/python -m bench.batch_phases [HANDS] [ROUNDS] [--command replay|rule]``.

Phases: ``read`` (the log cut into hands, :func:`api.batch.read_hands`), ``decode`` (lines to
events, :func:`api.batch.decode`), ``judge`` (the hand adjudicator), ``answer`` (the answer's
dict), ``dumps`` (its compact JSON), and ``answer_hand`` (decode + judge + answer + dumps as
the command runs them).
"""
from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time

from referee.events import to_jsonl
from referee.generator import generate_hands


def main() -> None:
    args = [a for a in sys.argv[1:] if a.isdigit()]
    n = int(args[0]) if args else 200
    rounds = int(args[1]) if len(args) > 1 else 7
    command = sys.argv[sys.argv.index("--command") + 1] if "--command" in sys.argv else "replay"
    from api import batch

    text = "".join(to_jsonl(events) for events in generate_hands(n, seed=0)).encode()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "log.jsonl")
        with open(path, "wb") as f:
            f.write(text)
        hands = list(batch.read_hands([path]))
        settings = batch.Settings(command)
        events = [batch.decode(h) for h in hands]
        results = [batch.judge(e) for e in events]
        answer = batch.ANSWERS[command]
        dicts = [answer(r) for r in results]
        dumps = json.dumps
        phases = {
            "read": lambda: list(batch.read_hands([path])),
            "decode": lambda: [batch.decode(h) for h in hands],
            "judge": lambda: [batch.judge(e) for e in events],
            "answer": lambda: [answer(r) for r in results],
            "dumps": lambda: [dumps(d, ensure_ascii=False, separators=(",", ":")) for d in dicts],
            "answer_hand": lambda: [batch.answer_hand(h, settings) for h in hands],
        }
        gc.collect()
        gc.freeze()
        best = dict.fromkeys(phases, 1e9)
        for _ in range(rounds):
            for name, run in phases.items():
                t0 = time.process_time()
                run()
                best[name] = min(best[name], time.process_time() - t0)
    count = sum(len(e) for e in events)
    print(f"flask {command}: {len(hands)} hands, {count} events; CPU ms/hand, best of {rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f}")
    for name, seconds in best.items():
        extra = f" ({seconds / count * 1e6:.2f} µs/event)" if name == "decode" else ""
        print(f"  {name:12s} {seconds / len(hands) * 1e3:7.3f}{extra}")
    print(f"  hands/s (answer_hand alone): {len(hands) / best['answer_hand']:,.0f}")


if __name__ == "__main__":
    main()

"""One hand of a log answered, for instruction counts (issue #17): the batch path against the
whole-stream path it replaces.

Run under callgrind with ROUNDS 1 and 2; the difference of the totals is one answering of
HANDS hands, whatever the start-up::

    for r in 1 2; do PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.batch_loop $r 2>&1 | grep Collected; done

Default (``--path batch``): each hand's JSON Lines through :func:`api.batch.answer_hand` (decode
once, referee and penalties in one pass, compact JSON). ``--path document``: each hand's text
through :func:`api.adjudications.adjudication_document` and indented JSON, as ``flask replay``
answered before (the stream parsed and replayed twice: once for the referee, once for penalties);
run it in an older tree too (``PYTHONPATH`` or a checkout) to compare with before.

``--phase decode|judge|answer|dumps|text|line``: only that part of the batch path, repeated (the
hands decoded, judged and answered once before, outside the difference): where a hand's
instructions go. ``answer`` and ``dumps`` are the answer's dict and its ``json.dumps``;
``text`` is what ``answer_hand`` runs instead of both (:func:`api.batch.replay_text`), ``line``
what it runs for :class:`api.batch.Lines` (:func:`api.batch.replay_line`). The same hands
(:data:`HANDS`, seed 0) as the default.

``--path run``: the command's whole path in this process — :func:`api.batch.run` over the
hands written once to a JSON Lines file, ``--jobs 1``, the output to ``os.devnull`` — so the
reading, the cut into hands and the writing are counted with the hand's work (run it in an
older tree too: ``run`` has had this signature since the batch began).

``--time``: no callgrind; both paths timed in this process in turn (CPU time, best of 3
rounds over the hands), ms per hand and their ratio — the machine's load moves both alike.
"""
from __future__ import annotations

import gc
import json
import sys

from referee.events import to_jsonl
from referee.generator import generate_hands

HANDS = 40


def timed() -> None:
    import time

    from api.adjudications import adjudication_document

    try:
        from api import batch
    except ImportError:  # an older tree: the whole-stream path only
        batch = None
    texts = [to_jsonl(events) for events in generate_hands(HANDS * 5, seed=0)]
    if batch is not None:
        hands = [batch.HandText("-", 1, 0, tuple(line.encode("utf-8") + b"\n" for line in text.splitlines()))
                 for text in texts]
        settings = batch.Settings("replay")
    best = {"batch": 1e9, "document": 1e9}
    for _ in range(3):
        if batch is not None:
            t0 = time.process_time()
            for hand in hands:
                batch.answer_hand(hand, settings)
            best["batch"] = min(best["batch"], time.process_time() - t0)
        t0 = time.process_time()
        for text in texts:
            json.dumps(adjudication_document(text), ensure_ascii=False, indent=2)
        best["document"] = min(best["document"], time.process_time() - t0)
    n = len(texts)
    if batch is None:
        print(f"hands: {n}; whole-stream document {best['document'] / n * 1e3:.3f} ms/hand")
        return
    print(f"hands: {n}; batch path {best['batch'] / n * 1e3:.3f} ms/hand, whole-stream document "
          f"{best['document'] / n * 1e3:.3f} ms/hand, ratio {best['document'] / best['batch']:.2f}")


def _phase(name: str, texts: list[str]):
    """One part of :func:`api.batch.answer_hand` over the hands, its inputs made beforehand."""
    from api import batch

    hands = [batch.HandText("-", 1, 0, tuple(line.encode("utf-8") + b"\n" for line in text.splitlines()))
             for text in texts]
    events = [batch.decode(hand) for hand in hands]
    results = [batch.judge(evs) for evs in events]
    answers = [batch.replay_answer(result) for result in results]
    parts = {
        "decode": lambda: [batch.decode(hand) for hand in hands],
        "judge": lambda: [batch.judge(evs) for evs in events],
        "answer": lambda: [batch.replay_answer(result) for result in results],
        "dumps": lambda: [json.dumps(answer, ensure_ascii=False, separators=(",", ":")) for answer in answers],
        # what answer_hand runs for the two above: the answer's text, its verdicts written as text
        "text": lambda: [batch.replay_text(result) for result in results],
        # the same answer as its line in UTF-8 bytes, as Lines are written (api.batch.replay_line)
        "line": lambda: [batch.replay_line(result) for result in results],
    }
    run = parts[name]
    return lambda: run() and None


def _whole_run(texts: list[str]):
    """``flask replay LOG --jobs 1 --quiet > /dev/null`` in this process, the log written once."""
    import os
    import tempfile

    from api import batch

    log = os.path.join(tempfile.mkdtemp(prefix="batch_loop"), "log.jsonl")
    with open(log, "w", encoding="utf-8") as f:
        f.write("".join(texts))
    settings = batch.Settings("replay")

    def once() -> None:
        stdout = sys.stdout
        with open(os.devnull, "w", encoding="utf-8") as sys.stdout:
            try:
                batch.run([log], settings, jobs=1, quiet=True)
            finally:
                sys.stdout = stdout

    return once


def main() -> None:
    if "--time" in sys.argv:
        timed()
        return
    args = [a for a in sys.argv[1:] if a.isdigit()]
    rounds = int(args[0]) if args else 1
    path = sys.argv[sys.argv.index("--path") + 1] if "--path" in sys.argv else "batch"
    texts = [to_jsonl(events) for events in generate_hands(HANDS, seed=0)]
    if "--phase" in sys.argv:
        once = _phase(sys.argv[sys.argv.index("--phase") + 1], texts)
    elif path == "run":
        once = _whole_run(texts)
    elif path == "batch":
        from api import batch

        settings = batch.Settings("replay")
        hands = [batch.HandText("-", 1, 0, tuple(line.encode("utf-8") + b"\n" for line in text.splitlines()))
                 for text in texts]

        def once() -> None:
            for hand in hands:
                batch.answer_hand(hand, settings)
    else:
        from api.adjudications import adjudication_document

        def once() -> None:
            for text in texts:
                json.dumps(adjudication_document(text), ensure_ascii=False, indent=2)

    once()  # warm the lazy tables and caches, as a long batch has them
    gc.collect()
    gc.freeze()
    for _ in range(rounds - 1):
        once()


if __name__ == "__main__":
    main()

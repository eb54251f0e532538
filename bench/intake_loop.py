"""The cost of the request JSON checks (issue #12 item 4): decode one body *n* times with
:func:`api.intake.loads` or the standard ``json.loads``, for callgrind to count.

    for n in 0 2000; do PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.intake_loop intake one $n 2>&1 | grep Collected; done

The difference between the two counts over *n* is the instructions per body; ``json``
instead of ``intake`` gives the reference. Bodies: ``one`` (an event, as a table posts it),
``b8`` (a batch of 8), ``b500`` (the largest batch), from one generated hand.
"""
from __future__ import annotations

import json
import sys

from api import intake
from tests.servicekit import hand_events


def bodies() -> dict[str, bytes]:
    events = hand_events(7)
    return {"one": json.dumps(events[5]).encode(), "b8": json.dumps({"events": events[:8]}).encode(),
            "b500": json.dumps({"events": (events * 10)[:500]}).encode()}


def main(argv: list[str]) -> None:
    decoder, body, n = argv[0], argv[1], int(argv[2])
    data = bodies()[body]
    decode = json.loads if decoder == "json" else intake.loads
    for _ in range(n):
        decode(data)


if __name__ == "__main__":
    main(sys.argv[1:])

"""``flask tables revalidate`` speed (issue #17 item 4): a deployment's stored hands replayed and compared.

Run: ``.venv/bin/python -m bench.bench_revalidate [HANDS] [--tables 4]``.

A fresh app on a temporary SQLite file; HANDS generated hands (:mod:`referee.generator`) are
posted through the real ingest (a whole hand per post, spread over ``--tables`` tables); then,
in turn, best of 3 rounds of CPU (``time.process_time``):

- **replay only**: each stored hand read from the log and replayed (:func:`services.live.replay_hand`),
  nothing compared — the floor;
- **revalidate**: :func:`api.revalidate.revalidate`, the command's work (reads, replay with
  overrides, comparison of every answer, ruling and payment).

The ratio of the two is the cost of the reads and comparisons; the machine is shared, so the
figures of one run are compared with each other.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time


def main() -> None:
    args = sys.argv[1:]
    hands = int(next((a for a in args if a.isdigit() and (args.index(a) == 0 or args[args.index(a) - 1] != "--tables")),
                     200))
    tables = int(args[args.index("--tables") + 1]) if "--tables" in args else 4

    from api.auth import create_token
    from services.live import replay_hand
    from api.revalidate import revalidate
    from app import create_app
    from referee.events import event_to_dict
    from referee.generator import generate_hand
    from store import connect
    from store import tables as ts

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.sqlite3")
        app = create_app({"TESTING": True, "DATABASE": path, "SQLITE_SYNCHRONOUS": "OFF"})
        db = connect(path)
        with db.atomic():
            secret, _ = create_token(db, role="official", label="bench")
        client = app.test_client()
        headers = {"Authorization": f"Bearer {secret}"}
        for t in range(tables):
            assert client.post("/api/v1/tables", json={"id": f"T{t}"}, headers=headers).status_code == 201
        for i in range(hands):
            table, hand = f"T{i % tables}", i // tables + 1
            events = [{k: v for k, v in event_to_dict(e).items() if k != "table"}
                      for e in generate_hand(i, hand=hand, table="x")]
            response = client.post(f"/api/v1/tables/{table}/events", json={"events": events}, headers=headers)
            assert response.status_code == 200, response.get_json()
        events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]

        def replay_only() -> None:
            for tid, hand in ts.stored_hands(db):
                replay_hand(ts.get_table(db, tid), hand, ts.play_bodies(db, tid, hand))

        def full() -> None:
            report = revalidate(db)
            assert report["hands"] == hands and report["differing"] == 0, report["differences"][:1]

        best = {}
        for _round in range(3):
            for name, work in (("replay only", replay_only), ("revalidate", full)):
                t0 = time.process_time()
                work()
                best[name] = min(best.get(name, float("inf")), time.process_time() - t0)
        print(f"{hands} hands ({events:,} events) at {tables} tables; load average {os.getloadavg()[0]:.1f}")
        print("| | CPU ms/hand (best of 3) | hands/s of CPU | ÷ replay only |")
        print("| --- | --- | --- | --- |")
        for name, seconds in best.items():
            print(f"| {name} | {seconds / hands * 1e3:.2f} | {hands / seconds:,.0f} | "
                  f"{seconds / best['replay only']:.2f} |")


if __name__ == "__main__":
    main()

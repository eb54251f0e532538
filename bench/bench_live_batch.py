"""Live = batch over thousands of hands, through the HTTP API (issue #13 item 3).

Generates HANDS hands (:func:`testkit.irregular.irregular_hand`: legal generated hands,
half as a physical table records them, half digital, with 1–4 irregular acts or officials'
reports injected each), posts each to its own table **one event per POST** (``POST
/api/v1/tables/{id}/events``), then posts the whole stream once to ``POST
/api/v1/rulings`` and once to ``POST /api/v1/adjudications``, and compares: the table's
hand (``GET /api/v1/tables/{id}/hands/1``: money, next hand, each penalty ruling's id,
code and payments) against both documents. Streams the referee cannot follow must be
refused by all three. Prints the counts and the first disagreements; exit status 1 if any.

The app is the real one (``create_app``, a fresh SQLite file, the real blueprints, auth and
problem handler) driven through its WSGI interface by Flask's test client: every request
goes through routing, token check, JSON parsing and the error handler as over a socket;
only the socket is left out (the service's own figures are ``bench/bench_ingest.py``'s).
SQLite runs with ``synchronous=OFF``: this measures agreement, not durability.

    .venv/bin/python -m bench.bench_live_batch 5000        # the issue's figure (docs/performance.md)
    .venv/bin/python -m bench.bench_live_batch 200 --seed 7
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", type=int, nargs="?", default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    from api.auth import create_token
    from app import create_app
    from testkit.irregular import irregular_hand
    from store import connect

    tmp = Path(tempfile.mkdtemp(prefix="mjref-live-batch-"))
    database = tmp / "mjref.sqlite3"
    app = create_app({"TESTING": True, "DATABASE": str(database), "SQLITE_SYNCHRONOUS": "OFF"})
    client = app.test_client()
    with app.app_context():
        pass
    client.get("/health")
    db = connect(database)
    with db.atomic():
        secret, _row = create_token(db, role="official", label="bench")
    db.close()
    headers = {"Authorization": f"Bearer {secret}"}

    rng = random.Random(args.seed)
    agreed = refused = 0
    disagreements: list[str] = []
    posts = 0
    t0 = time.perf_counter()
    for i in range(args.hands):
        physical = i % 2 == 0
        events = irregular_hand(rng.randrange(400), args.seed * 1_000_003 + i, 1 + i % 4, physical=physical)
        mode = "physical" if physical else "digital"
        table = f"t{i}"
        r = client.post("/api/v1/tables", json={"id": table, "mode": mode}, headers=headers)
        assert r.status_code == 201, r.get_json()
        live_refused = False
        for body in events:
            body = {k: v for k, v in body.items() if k != "table"}
            r = client.post(f"/api/v1/tables/{table}/events", json=body, headers=headers)
            posts += 1
            if r.status_code == 400:
                live_refused = True
                break
            if r.status_code not in (200, 201):
                disagreements.append(f"hand {i}: live POST {r.status_code} {r.get_json()}")
                live_refused = True
                break
        stream = "\n".join(json.dumps(e) for e in events)
        rul = client.post("/api/v1/rulings", data=stream, content_type="application/x-ndjson")
        adj = client.post("/api/v1/adjudications", data=stream, content_type="application/x-ndjson")
        if live_refused or rul.status_code != 200 or adj.status_code != 200:
            if not (live_refused and rul.status_code == 400 and adj.status_code == 400):
                disagreements.append(f"hand {i}: refused live={live_refused} rulings={rul.status_code} "
                                     f"adjudications={adj.status_code}")
            else:
                refused += 1
            continue
        hand = client.get(f"/api/v1/tables/{table}/hands/1", headers=headers).get_json()
        rh, ah = rul.get_json()["hands"][0], adj.get_json()["hands"][0]
        live_rulings = sorted((x["id"], x["code"], x["effective"]["payments"]) for x in hand["rulings"]
                              if x["kind"] == "penalty")
        batch_rulings = sorted((x["id"], x["code"], x["net"]) for x in rh["rulings"])
        same = (hand["ended"] and hand["payments"] == rh["payments"] == ah["outcome"]["payments"]
                and hand["outcome"]["next"] == rh["next"] == ah["outcome"]["next"]
                and hand["outcome"]["kind"] == rh["outcome"]["kind"] == ah["outcome"]["kind"]
                and live_rulings == batch_rulings and ah["penalties"]["rulings"] == rh["rulings"])
        if same:
            agreed += 1
        else:
            disagreements.append(f"hand {i} ({mode}): live {hand['payments']} {live_rulings} / batch "
                                 f"{rh['payments']} {batch_rulings}")
        if (i + 1) % 250 == 0:
            print(f"  {i + 1} hands: {agreed} agreed, {refused} refused by all, {len(disagreements)} disagreed; "
                  f"{posts} event POSTs, {time.perf_counter() - t0:.0f} s, {time.process_time():.0f} s CPU",
                  file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - t0
    print(json.dumps({"hands": args.hands, "agreed": agreed, "refused_by_all": refused,
                      "disagreed": len(disagreements), "event_posts": posts, "seconds": round(elapsed, 1)}))
    for line in disagreements[:20]:
        print(line)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

"""``flask tables revalidate`` (issue #17 item 4): stored hands replayed under today's code,
differences reported. Hands are played through the real app on a real SQLite file; the
differences are planted through store/ (as an older mjref would have written them)."""
from __future__ import annotations

import json
import threading

import pytest

from store import connect
from store import tables as ts
from testkit.irregular import irregular_hand
from tests.servicekit import admin, create_table, hand_events, official  # noqa: F401 - fixtures

EVENTS = "/api/v1/tables/{}/events"


def post(client, headers, table, events):
    response = client.post(EVENTS.format(table), json={"events": events}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def revalidate(app, *args):
    result = app.test_cli_runner().invoke(args=["tables", "revalidate", *args])
    report = json.loads(result.stdout) if result.stdout.strip() else None
    return result, report


def renumber(events, hand):
    return [{**e, "hand": hand} for e in events]


def with_a_win(client, headers, table, hand=1):
    """Post a generated hand with a win (money to compare); its events."""
    for seed in range(1, 40):
        events = renumber(hand_events(seed), hand)
        if any(e["type"] == "win" for e in events):
            post(client, headers, table, events)
            return events
    raise AssertionError("no generated hand with a win")


@pytest.fixture()
def deployment(app, client, official):
    """Table A1 (digital): a hand with a win, then one with an amended outcome; table P1
    (physical): two generated hands with irregularities (rulings with money)."""
    create_table(client, official, "A1")
    create_table(client, official, "P1", mode="physical")
    with_a_win(client, official, "A1", hand=1)
    with_a_win(client, official, "A1", hand=2)
    paid = ts.stored_hand(connect(app.config["DATABASE"]), "A1", 2)["payments"]
    response = client.post("/api/v1/tables/A1/overrides", headers=official, json={
        "hand": 2, "ruling": "outcome", "decision": "amend", "payments": [p * 2 for p in paid],
        "reason_zh": "台數計算有誤，改判"})
    assert response.status_code == 201, response.get_json()
    for hand, seed in ((1, 5), (2, 8)):
        events = [{k: v for k, v in e.items() if k != "table"} for e in irregular_hand(seed, 7, 4, hand=hand)]
        post(client, official, "P1", events)
    return app


def test_a_clean_deployment_reports_nothing(deployment):
    result, report = revalidate(deployment)
    assert result.exit_code == 0, result.output
    assert report["hands"] == 4 and report["tables"] == 2
    assert report["differing"] == 0 and report["differences"] == []
    assert "revalidated 4 hands at 2 tables; 0 differ" in result.stderr
    db = connect(deployment.config["DATABASE"])
    assert any(r["kind"] == "irregularity" for r in ts.rulings(db, table_id="P1"))  # the check had rulings to compare
    assert any(r["status"] == "amended" for r in ts.rulings(db, table_id="A1"))


def test_a_planted_ruling_and_payment_difference_is_reported(deployment):
    db = connect(deployment.config["DATABASE"])
    stored = ts.rulings(db, table_id="A1", hand=1)
    hand = ts.stored_hand(db, "A1", 1)
    assert hand["ended"] and any(hand["payments"])
    wrong = [0, 0, 0, 0]
    with db.conn:  # as an older mjref would have projected it: the outcome paid nothing
        ts.replace_rulings(db, "A1", 1, [
            {**r, "effective": {"payments": wrong}} if r["id"] == "outcome" else r for r in stored])
        ts.save_hand(db, "A1", 1, ended=True, outcome=hand["outcome"], payments=wrong)
    result, report = revalidate(deployment)
    assert result.exit_code == 1, result.output
    assert report["differing"] == 1
    [found] = report["differences"]
    assert (found["table"], found["hand"]) == ("A1", 1)
    by_what = {(d["what"], d.get("id") or d.get("field")): d for d in found["differences"]}
    assert set(by_what) == {("ruling", "outcome"), ("hand", "payments")}
    assert by_what["hand", "payments"] == {"what": "hand", "field": "payments", "stored": wrong,
                                           "now": hand["payments"]}
    ruling = by_what["ruling", "outcome"]
    assert ruling["stored"]["effective"] == {"payments": wrong}
    assert ruling["now"]["effective"] == {"payments": hand["payments"]}
    assert "differences: hand 1, ruling 1" in result.stderr
    # one table only: the other is not replayed; rebuilding the projections clears it
    result, report = revalidate(deployment, "--table", "P1")
    assert result.exit_code == 0 and report["hands"] == 2
    assert deployment.test_cli_runner().invoke(args=["tables", "rebuild", "--table", "A1"]).exit_code == 0
    assert revalidate(deployment)[0].exit_code == 0


def test_a_ruling_stored_that_today_s_code_does_not_give_is_reported(deployment):
    db = connect(deployment.config["DATABASE"])
    stored = ts.rulings(db, table_id="P1", hand=2)
    extra = {"id": "9.extra", "seq": 9, "kind": "irregularity", "code": "extra", "clause": "pen.x", "seat": 1,
             "status": "standing", "ruling": {"id": "9.extra"}, "effective": {"payments": [0, 0, 0, 0]}}
    with db.conn:
        ts.replace_rulings(db, "P1", 2, [*stored, extra])
    result, report = revalidate(deployment, "--quiet")
    assert result.exit_code == 1 and result.stderr == ""
    [found] = report["differences"]
    assert found["differences"] == [{"what": "ruling", "id": "9.extra", "now": None,
                                     "stored": {k: extra[k] for k in ("seq", "kind", "code", "clause", "seat",
                                                                      "status", "ruling", "effective")}}]


def test_a_verdict_stored_otherwise_is_reported_by_its_seq(app, client, official):
    """A table whose log an older mjref acknowledged otherwise: its events stored through
    store/ with the answers of the live table, one of them changed (reported), another
    written with its keys in another order (the same answer: not reported)."""
    create_table(client, official, "A1")
    create_table(client, official, "B1")
    events = with_a_win(client, official, "A1")
    db = connect(app.config["DATABASE"])
    rows = [(e["hand"], e["seq"], e["type"], e["body"], e["answer"]) for e in ts.events(db, "A1")]
    changed = 10
    answer = rows[changed][4]
    rows[changed] = (*rows[changed][:4], {**answer, "verdict": "rejected"})
    reordered = dict(reversed(list(rows[3][4].items())))  # the same answer, its keys written in another order
    assert ts.dumps(reordered) != ts.dumps(rows[3][4])
    rows[3] = (*rows[3][:4], reordered)
    with db.conn:
        ts.append_events(db, "B1", [(h, s, t, ts.canonical(b), ts.dumps(a)) for h, s, t, b, a in rows])
        ts.replace_rulings(db, "B1", 1, ts.rulings(db, table_id="A1", hand=1))
        a1 = ts.stored_hand(db, "A1", 1)
        ts.save_hand(db, "B1", 1, ended=a1["ended"], outcome=a1["outcome"], payments=a1["payments"])
    result, report = revalidate(app)
    assert result.exit_code == 1, result.output
    assert report["hands"] == 2
    [found] = report["differences"]
    assert found["table"] == "B1"
    assert found["differences"] == [{"what": "verdict", "seq": events[changed]["seq"],
                                     "stored": rows[changed][4], "now": answer}]


def test_since_takes_only_the_hands_received_from_then(app, client, official):
    create_table(client, official, "A1")
    with_a_win(client, official, "A1", hand=1)
    threading.Event().wait(0.01)  # the store's times are in milliseconds
    with_a_win(client, official, "A1", hand=2)
    index = ts.hand_index(connect(app.config["DATABASE"]), "A1")
    second = index[1]["started_at"]
    assert second > index[0]["last_at"]
    result, report = revalidate(app, "--since", second)
    assert result.exit_code == 0, result.output
    assert report["hands"] == 1 and report["since"] == second
    # the same moment written in Taipei time
    from datetime import datetime, timedelta, timezone

    taipei = datetime.fromisoformat(second).astimezone(timezone(timedelta(hours=8))).isoformat(timespec="milliseconds")
    assert revalidate(app, "--since", taipei)[1]["hands"] == 1
    assert revalidate(app, "--since", index[0]["started_at"])[1]["hands"] == 2


@pytest.mark.parametrize("args, option", [(["--since", "yesterday"], "--since"), (["--since", "2026-13-01"], "--since"),
                                          (["--table", "none-such"], "--table")])
def test_a_bad_option_is_a_clear_error_naming_it(deployment, args, option):
    result, report = revalidate(deployment, *args)
    assert result.exit_code == 2 and report is None
    assert f"'{option}'" in result.output and "—" in result.output  # zh-TW, then English


def test_the_mjref_command_has_it(deployment):
    from click.testing import CliRunner

    from mjref.cli import main

    result = CliRunner().invoke(main, ["tables", "revalidate", "--quiet"],
                                env={"MJREF_DATABASE": deployment.config["DATABASE"]})
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hands"] == 4

"""Re-validate a deployment (issue #17 item 4): ``flask tables revalidate [--table …] [--since …]``.

Every stored hand (:func:`store.tables.stored_hands`) is replayed from its event log under
today's code and rulesets — the very replay the service does after an override
(:func:`services.live.replay_hand`, the one hand adjudicator), with the officials' overrides of
the hand applied as the live projection applies them (:func:`services.live.apply_overrides`) —
and compared with what the service stored when the hand was played:

- **verdicts**: each play event's stored answer (verdict, irregularities, rulings given at
  that event, outcome) against the answer the replay gives it;
- **rulings**: the hand's rulings projection (one row per ruling id: status, ruling,
  effective payments) against the replay's;
- **the hand**: ``ended``, ``outcome`` and ``payments`` of the hands projection.

A hand whose log today's referee can no longer read is a difference too (its problem
body). The answer is one JSON document on stdout (:func:`api.clikit.emit`) listing only the
hands that differ, with each difference's ``stored`` and ``now`` values; progress (tqdm,
on a terminal, not with ``--quiet``) and a summary on stderr. Exit status: 0 when every
hand agrees, 1 when some hand differs, 2 for a bad option.

Nothing is written: to bring the projections in line with today's code, ``flask tables
rebuild``.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

import click
from flask.cli import with_appcontext

from api.clikit import emit
from store import tables as ts

#: the fields of a ruling row compared (the rest are keys: table, hand, id)
RULING_FIELDS = ("seq", "kind", "code", "clause", "seat", "status", "ruling", "effective")
HAND_FIELDS = ("ended", "outcome", "payments")


def _plain(value: Any) -> Any:
    """*value* as it reads back from the store (JSON: tuples are lists, keys strings)."""
    return json.loads(ts.dumps(value))


def parse_since(text: str) -> str:
    """``--since`` as the store writes times (UTC, ``2026-11-29T18:30:00.000Z``): an ISO 8601
    date (``2026-11-29``, midnight UTC) or date and time (``2026-11-29T18:30``, ``…+08:00``,
    ``…Z``; without an offset, UTC).

    :raises click.BadParameter: not such a date, naming ``--since``.
    """
    try:
        at = datetime.fromisoformat(text.strip())
    except ValueError:
        raise click.BadParameter(
            f"「{text}」不是 ISO 8601 日期或時間（例 2026-11-29 或 2026-11-29T18:30+08:00） — "
            f"{text!r} is not an ISO 8601 date or time (e.g. 2026-11-29 or 2026-11-29T18:30+08:00)",
            param_hint="'--since'") from None
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def hand_differences(table: Mapping[str, Any], hand: int, events: Iterable[Mapping[str, Any]],
                     rulings: Iterable[Mapping[str, Any]], stored: Mapping[str, Any] | None,
                     overrides: Iterable[Mapping[str, Any]], names: Any = None) -> list[dict]:
    """What differs between one hand as stored and its replay today (*names*: the players by
    seat the replay names, :func:`services.seat_names.table_names`).

    :param events: the hand's play events as :func:`store.tables.hand_log` gives them: (body,
        the answer's stored JSON text).
    :param rulings: its rulings projection (:func:`store.tables.rulings`).
    :param stored: its hands projection row (:func:`store.tables.stored_hand`), or None.
    :param overrides: its officials' overrides (``_override_from_event`` of its official stream).
    :returns: each difference: ``{"what": "verdict", "seq", "stored", "now"}``,
        ``{"what": "ruling", "id", "stored", "now"}`` (``None``: no such ruling),
        ``{"what": "hand", "field", "stored", "now"}``, or ``{"what": "replay_error", "problem"}``.
    """
    from api import problem
    from services.live import HandReferee, apply_overrides, hand_payments, parse
    from referee.errors import MjrefError

    referee = HandReferee(table, hand, names)
    out: list[dict] = []
    for body, stored_answer in events:
        try:
            answer = ts.dumps(referee.apply(parse(body, table, None), "event"))
        except MjrefError as error:
            out.append({"what": "replay_error", "seq": body.get("seq"), "problem": problem(error)[0]})
            return out
        if answer != stored_answer:  # the same text is the same answer; other text may be too (key order)
            was, now = json.loads(stored_answer), json.loads(answer)
            if was != now:
                out.append({"what": "verdict", "seq": body.get("seq"), "stored": was, "now": now})
    effective = _plain(apply_overrides(referee.rulings, overrides))
    now_rulings = {r["id"]: {k: r.get(k) for k in RULING_FIELDS} for r in effective}
    stored_rulings = {r["id"]: {k: r.get(k) for k in RULING_FIELDS} for r in rulings}
    for rid in [*now_rulings, *(r for r in stored_rulings if r not in now_rulings)]:
        if now_rulings.get(rid) != stored_rulings.get(rid):
            out.append({"what": "ruling", "id": rid, "stored": stored_rulings.get(rid), "now": now_rulings.get(rid)})
    now_hand = _plain({"ended": referee.ended, "outcome": referee.outcome, "payments": hand_payments(effective)})
    for name in HAND_FIELDS:
        was = None if stored is None else stored[name]
        if was != now_hand[name]:
            out.append({"what": "hand", "field": name, "stored": was, "now": now_hand[name]})
    return out


def revalidate(db: Any, *, table_id: str | None = None, since: str | None = None, progress: bool = False) -> dict:
    """Replay every stored hand (of one table, received since a time) and list those that differ.

    :returns: ``{"table", "since", "tables", "hands", "differing", "differences": [{"table",
        "hand", "differences": [...]}, ...]}`` (see :func:`hand_differences`).
    """
    from services.live import _override_from_event
    from services.seat_names import table_names

    total = ts.count_stored_hands(db, table_id=table_id, since=since)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=total, unit=" hands", file=sys.stderr, dynamic_ncols=True, desc="重驗 revalidate")
    tables: dict[str, dict | None] = {}
    seen: set[str] = set()
    differing: list[dict] = []
    hands = 0
    try:
        for tid, hand in ts.stored_hands(db, table_id=table_id, since=since):
            if tid not in tables:
                tables.clear()  # hands come table by table: keep one table's row
                tables[tid] = ts.get_table(db, tid)
                seen.add(tid)
            table = tables[tid]
            hands += 1
            if table is None:  # the log names a table never created: nothing to replay it under
                differing.append({"table": tid, "hand": hand, "differences": [{"what": "unknown_table"}]})
            else:
                found = hand_differences(
                    table, hand, ts.hand_log(db, tid, hand),
                    ts.rulings(db, table_id=tid, hand=hand, limit=10**9), ts.stored_hand(db, tid, hand),
                    [_override_from_event(r) for r in ts.events(db, tid, hand=hand, stream=ts.OFFICIAL)
                     if r["body"].get("type") == "override"], table_names(db, table))
                if found:
                    differing.append({"table": tid, "hand": hand, "differences": found})
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return {"table": table_id, "since": since, "tables": len(seen), "hands": hands, "differing": len(differing),
            "differences": differing}


def summary(report: Mapping[str, Any]) -> str:
    """The closing summary, zh-TW first, English second."""
    n, k = report["hands"], report["differing"]
    head = (f"重驗 {n} 盤（{report['tables']} 桌），{k} 盤與紀錄不同 — revalidated {n} hands at "
            f"{report['tables']} tables; {k} differ from what is stored")
    kinds: dict[str, int] = {}
    for hand in report["differences"]:
        for d in hand["differences"]:
            kinds[d["what"]] = kinds.get(d["what"], 0) + 1
    if kinds:
        head += "\n不同之處 differences: " + ", ".join(f"{w} {c}" for w, c in sorted(kinds.items()))
    return head


@click.command("revalidate")
@with_appcontext
@click.option("--table", "table_id", default=None, help="只重驗這張桌 one table only")
@click.option("--since", default=None, metavar="WHEN",
              help="只重驗此後收到事件的盤 only hands with an event received at or after WHEN "
                   "(ISO 8601; UTC if no offset)")
@click.option("--quiet", "-q", is_flag=True, help="不顯示進度與摘要 no progress bar, no summary")
def revalidate_command(table_id: str | None, since: str | None, quiet: bool) -> None:
    """以今日的程式與規則組重驗已存的盤，列出判定、裁定或收付與紀錄不同者。Replay the stored
    logs under today's code and rulesets; report each hand whose verdicts, rulings or payments
    differ from what is stored (exit status 1 when some hand differs)."""
    from store import get_db

    db = get_db()
    when = parse_since(since) if since is not None else None
    if table_id is not None and ts.get_table(db, table_id) is None:
        raise click.BadParameter(f"沒有桌「{table_id}」 — no table {table_id!r}", param_hint="'--table'")
    report = revalidate(db, table_id=table_id, since=when, progress=not quiet and sys.stderr.isatty())
    emit(report)
    if not quiet:
        click.echo(summary(report), err=True)
    if report["differing"]:
        sys.exit(1)

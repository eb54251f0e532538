"""The live service: ingest a table's events in order, once, durably; rule on them; keep
the projections (hands, rulings, money) that the log rebuilds.

Two parts:

* **The seam to the adjudicator** — :class:`HandReferee`, the only code here that knows the
  domain's :class:`penalties.adjudicator.HandAdjudicator` (``feed(event) -> Step``: the
  verdict, the rulings final at that event, and at the close the hand's one result). It
  translates what it says into plain dicts: each event's answer, the hand's rulings (each
  with ``payments`` per seat), the outcome.
* **The service** — :class:`LiveService` (one per app): sequencing (idempotent by
  ``(hand, seq)``; a gap or a clash is a 409 naming the expected position), the group-
  committed write (:mod:`store.writer`), an in-memory referee per table (checked against
  the log's head on every write, rebuilt by replay when it differs), and the recompute
  of a hand from the log after an override.

Sequencing of a table's play stream: hands are numbered from :data:`FIRST_HAND`, seqs
within a hand from :data:`FIRST_SEQ`, each event exactly one after the last stored; the
first event of the next hand may follow at any time (an unfinished hand stays as it is).

No Flask here beyond raising :class:`services.problems.ApiProblem`; ``api/tables.py`` and
``api/overrides.py`` are the HTTP side.
"""
from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask import Flask, current_app

from services.problems import ApiProblem, bad_request, not_found
from services.seat_names import table_names
from penalties.adjudicator import CLOSING, HandAdjudicator
from referee.errors import MjrefError
from referee.events import Event, Mode, parse_event
from store import tables as ts
from store.writer import Declared, GroupCommitter, Tx

_log = logging.getLogger("mjref.live")

FIRST_HAND = 1
FIRST_SEQ = 1
#: most events in one POST
MAX_BATCH = 500
#: largest hand or seq number (SQLite stores 64-bit integers; 32 bits is plenty)
MAX_INT = 2**31 - 1
#: largest amount of one seat's payment in an override
MAX_MONEY = 10**9
NO_PAYMENTS = (0, 0, 0, 0)
DECISIONS = ("overrule", "amend", "reinstate")


# ==========================================================================================
# The seam to the referee
# ==========================================================================================


def prepare_raw(raw: Mapping[str, Any], table: Mapping[str, Any]) -> dict:
    """The event as the referee should read it: a ``hand_start`` takes the table's mode,
    ruleset and parameters unless it names its own (the stored body stays as posted)."""
    if raw.get("type") != "hand_start":
        return raw  # type: ignore[return-value]
    filled = dict(raw)
    filled.setdefault("mode", table["mode"])
    filled.setdefault("ruleset", table["ruleset"])
    if table["params"] and "rules" not in filled:
        filled["rules"] = table["params"]
    return filled


def parse(raw: Any, table: Mapping[str, Any], index: int | None) -> Event:
    """Read one posted event for *table*.

    :raises referee.errors.MjrefError: naming the field (``events[3].tiles``).
    """
    return parse_event(prepare_raw(raw, table) if isinstance(raw, Mapping) else raw, index=index)


class HandReferee:
    """One hand at one table, as the service keeps it: the domain's
    :class:`penalties.adjudicator.HandAdjudicator` (the one adjudicator ``flask replay``,
    ``flask rule`` and the stream endpoints use too), translated into plain dicts.

    Each event gets the adjudicator's verdict; each irregularity the referee reports becomes
    a ruling of kind ``irregularity`` (no money); each ruling final at that event (a 相公, a
    詐胡, a priority conflict resolved …) a ruling of kind ``penalty`` (id ``pen.<seq>.<code>``)
    with its payments. When the hand closes (``hand_end``, ``skip_last_tile``) the rulings
    are given in full with their payments in effect, and the ``outcome`` ruling carries the
    standing wins' share of the money (a void win pays nothing, 代位賠付 moves who pays);
    the hand's money is the sum of its rulings' payments, so an official can overrule or
    amend each one.

    *names*: the players by seat (:func:`services.seat_names.table_names`), named in the
    rulings' and the outcome's words (「東家 王小明」).
    """

    __slots__ = ("adjudicator", "hand", "rulings", "outcome", "ended", "penalties", "_index")

    def __init__(self, table: Mapping[str, Any], hand: int, names: Sequence[str | None] | None = None):
        self.adjudicator = HandAdjudicator(mode=Mode(table["mode"]), names=names)
        self.hand = hand
        #: the rulings on this hand so far, before overrides (a penalty given at its moment
        #: and again at the close is kept once, as given last)
        self.rulings: list[dict] = []
        self._index: dict[str, int] = {}
        self.outcome: dict | None = None  # set when the hand closes (hand_end, skip_last_tile)
        self.ended = False
        #: penalties' answer when the hand closed (payments, next dealer ...), or why it could not
        self.penalties: dict | None = None

    @property
    def referee(self) -> Any:
        return self.adjudicator.referee

    @property
    def events(self) -> list[Event]:
        return self.adjudicator.events

    def apply(self, event: Event, field_prefix: str) -> dict:
        """Apply one event: its answer ``{hand, seq, verdict, irregularities?, rulings?, outcome?}``.

        :raises MjrefError: the referee cannot follow the stream (no ``hand_start`` first ...),
            with the field prefixed by *field_prefix*; nothing changed.
        """
        try:
            step = self.adjudicator.feed(event)
        except MjrefError as error:
            if error.field and not error.field.startswith(field_prefix):
                error.field = f"{field_prefix}.{error.field}"
            raise
        except Exception as error:  # noqa: BLE001 - a penalties bug must not stop a table's ingest
            if event.type not in CLOSING or self.ended:
                raise
            return self._failed(event, error)
        answer: dict[str, Any] = {"hand": self.hand, **step.verdict.to_dict(event.seq)}
        new = [self._irregularity(irr) for irr in step.verdict.irregularities]
        new.extend(self._irregularity(irr) for irr in step.findings)
        if step.result is None:
            new.extend(self._penalty(g, event.seq) for g in step.rulings)
        else:
            self.ended = True
            new.extend(self._close(step.result, event.seq))
            answer["outcome"] = self.outcome
        if new:
            answer["rulings"] = new
        return answer

    def snapshot(self) -> dict[str, Any]:
        """The table as the referee sees it now (JSON-ready)."""
        state = self.referee.state
        if state is None:
            return {}
        return _jsonable(state.snapshot())

    # -- helpers ------------------------------------------------------------------------

    def _failed(self, event: Event, error: Exception) -> dict:
        """Penalties could not rule at the close: the referee's outcome stands (logged)."""
        _log.exception("penalties could not rule on a hand; the referee's settlement stands")
        verdict = self.referee.verdicts[-1][1] if len(self.referee.verdicts) else None
        answer: dict[str, Any] = {"hand": self.hand, **(verdict.to_dict(event.seq) if verdict else {"seq": event.seq})}
        self.ended = True
        outcome = _jsonable(self.referee.finish().outcome.to_dict())
        self.penalties = {"error": f"{type(error).__name__}: {error}"}
        self.outcome = {**outcome, "penalties": self.penalties}
        ruling = self._keep(self._outcome_ruling(outcome, event.seq, outcome.get("payments") or NO_PAYMENTS))
        answer["outcome"] = self.outcome
        answer["rulings"] = [ruling]
        return answer

    def _close(self, hand: Any, seq: int) -> list[dict]:
        """The rulings given at the close: each penalty not given before (the projection keeps
        every one with its final payments), and the outcome."""
        result = _jsonable(hand.result.to_dict())
        self.penalties = {k: v for k, v in _jsonable(hand.rulings.to_dict()).items() if k != "rulings"}
        self.outcome = {**result, "penalties": self.penalties}
        closing = []
        for g in hand.given:  # a ruling given at its moment is not given twice (unless it changed)
            before = self.rulings[self._index[g.id]] if g.id in self._index else None
            ruling = self._penalty(g, seq)
            if ruling != before:
                closing.append(ruling)
        closing.append(self._keep(self._outcome_ruling(result, seq, hand.result.win_payments)))
        return closing

    def _keep(self, ruling: dict) -> dict:
        at = self._index.get(ruling["id"])
        if at is None:
            self._index[ruling["id"]] = len(self.rulings)
            self.rulings.append(ruling)
        else:
            self.rulings[at] = ruling
        return ruling

    def _unique(self, base: str) -> str:
        rid, n = base, 2
        while rid in self._index:
            rid, n = f"{base}.{n}", n + 1
        return rid

    def _penalty(self, given: Any, seq: int) -> dict:
        data = _jsonable(given.ruling.to_dict())
        evidence = data.get("evidence") or [seq]
        return self._keep({"id": given.id, "hand": self.hand, "kind": "penalty", "seq": evidence[0],
                           "seat": data.get("offender") if isinstance(data.get("offender"), int) else None,
                           "at": given.at, **data, "cite_zh": given.cite_zh, "payments": list(given.payments)})

    def _irregularity(self, irr: Any) -> dict:
        """The ruling on one irregularity (recorded in :attr:`rulings`); its id is
        ``<seq>.<code>`` (``.2``, ``.3`` for repeats), the same on every replay."""
        data = irr.to_dict()
        rid = self._unique(f"{data['seq']}.{data['code']}")
        return self._keep({"id": rid, "hand": self.hand, "kind": "irregularity", **data,
                           "payments": list(NO_PAYMENTS)})

    def _outcome_ruling(self, outcome: dict, seq: int, payments: Sequence[int]) -> dict:
        """The outcome as a ruling (id ``outcome``): an official may amend its payments."""
        return {"id": "outcome", "hand": self.hand, "kind": "outcome", "code": str(outcome.get("kind", "outcome")),
                "clause": outcome.get("clause"), "seq": seq, "seat": None,
                "detail_zh": outcome.get("detail_zh", "本盤結果"),
                "detail": outcome.get("detail", "the hand's outcome"),
                "payments": [int(x) for x in payments]}


def _jsonable(value: Any) -> Any:
    """Enums to their names, tuples to lists, recursively (for snapshots and outcomes)."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return _jsonable(value.to_dict())
    if hasattr(value, "name") and hasattr(value, "value") and not isinstance(value, (int, str)):
        return value.name.lower()
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return value
    if isinstance(value, int):
        return int(value)
    return str(value)


def replay_hand(table: Mapping[str, Any], hand: int, bodies: Iterable[Mapping[str, Any]],
                upto: int | None = None, names: Sequence[str | None] | None = None) -> tuple[HandReferee, list[dict]]:
    """Replay one stored hand: the referee after it and each event's answer (*names*: the
    players by seat, as :class:`HandReferee`)."""
    referee = HandReferee(table, hand, names)
    answers = []
    for body in bodies:
        if upto is not None and body.get("seq", 0) > upto:
            break
        answers.append(referee.apply(parse(body, table, None), "event"))
    return referee, answers


# ==========================================================================================
# Rulings, overrides, money — pure functions over the log
# ==========================================================================================


def apply_overrides(rulings: Sequence[dict], overrides: Iterable[Mapping[str, Any]]) -> list[dict]:
    """Each ruling with its ``status`` and ``effective`` form after the officials'
    overrides, taken in log order (the last word on a ruling stands)."""
    out = {r["id"]: {"id": r["id"], "seq": r.get("seq"), "kind": r["kind"], "code": r["code"],
                     "clause": r.get("clause"), "seat": r.get("seat"), "status": "standing", "ruling": r,
                     "effective": {"payments": list(r.get("payments", NO_PAYMENTS))}, "overrides": []}
           for r in rulings}
    for o in overrides:
        target = out.get(o["ruling"])
        if target is None:
            continue  # a ruling the referee no longer gives: the override is kept in the log only
        target["overrides"].append(o.get("event_id"))
        decision = o["decision"]
        if decision == "overrule":
            target["status"] = "overruled"
            target["effective"] = {"payments": list(NO_PAYMENTS), "reason": o.get("reason"),
                                   "reason_zh": o.get("reason_zh")}
        elif decision == "amend":
            target["status"] = "amended"
            target["effective"] = {"payments": list(o["payments"]), "reason": o.get("reason"),
                                   "reason_zh": o.get("reason_zh")}
        else:  # reinstate
            target["status"] = "standing"
            target["effective"] = {"payments": list(target["ruling"].get("payments", NO_PAYMENTS))}
    return list(out.values())


def hand_payments(effective: Iterable[Mapping[str, Any]]) -> list[int]:
    total = [0, 0, 0, 0]
    for r in effective:
        for seat, amount in enumerate(r["effective"]["payments"]):
            total[seat] += amount
    return total


def _override_from_event(row: Mapping[str, Any]) -> dict:
    body = row["body"]
    return {"event_id": row["id"], "ruling": body["ruling"], "decision": body["decision"],
            "payments": body.get("payments"), "reason": body.get("reason", ""), "reason_zh": body.get("reason_zh", "")}


# ==========================================================================================
# The service
# ==========================================================================================


class _Live:
    """A table in memory: its settings, the head of its play stream, the current hand's
    referee. A cache of the log: :meth:`LiveService.ingest` checks it against the stored
    head inside every write, and reloads it from the log when another process (or a
    failed commit) left it behind. ``lock`` orders one table's posts within the process."""

    __slots__ = ("table", "head", "referee", "loaded", "lock")

    def __init__(self, table: dict):
        self.table = table
        self.head: tuple[int, int] | None = None
        self.referee: HandReferee | None = None
        #: head and referee reflect the log (False: reload before use)
        self.loaded = False
        self.lock = threading.Lock()


class RevocationsMoved(Exception):
    """A post let in by a cached token (:func:`services.caller.cached_principal`) met a
    revocation count in its write's transaction other than the one the cache was checked at:
    some token was revoked since. Nothing was written; the request is to be authenticated
    again, with a read of the count (the live-ingest fast path hands it to Flask)."""


class _Stale(Exception):
    """The stored head is not the one the in-memory referee worked from: another process
    wrote to the table. Nothing was written; the table is reloaded and the post tried again."""


#: how many times a post is tried again after finding its table changed by another process
_STALE_RETRIES = 5


def conflict(code: str, index_field: str, detail: str, detail_zh: str, expected: tuple[int, int]) -> ApiProblem:
    hand, seq = expected
    return ApiProblem(409, code, f"{detail}; expected hand {hand} seq {seq}",
                      f"{detail_zh}；應為第 {hand} 盤 seq {seq}", field=index_field,
                      extra={"expected_hand": hand, "expected_seq": seq})


class IngestAnswer:
    """What an ingest answers: :meth:`to_dict`, or :meth:`to_json` assembled from the
    answers' JSON as stored (no second encoding on the hot path)."""

    __slots__ = ("table", "stored", "duplicates", "results", "texts", "rulings", "next")

    def __init__(self, table: str, stored: int, duplicates: int, results: list[dict], texts: list[str],
                 rulings: list[dict], nxt: tuple[int, int]):
        self.table, self.stored, self.duplicates = table, stored, duplicates
        self.results, self.texts, self.rulings, self.next = results, texts, rulings, nxt

    def to_dict(self) -> dict:
        return {"table": self.table, "stored": self.stored, "duplicates": self.duplicates, "results": self.results,
                "rulings": self.rulings, "next": {"hand": self.next[0], "seq": self.next[1]}}

    def to_json(self) -> str:
        return (f'{{"table":{json.dumps(self.table, ensure_ascii=False)},"stored":{self.stored},'
                f'"duplicates":{self.duplicates},"results":[{",".join(self.texts)}],'
                f'"rulings":{ts.dumps(self.rulings)},"next":{{"hand":{self.next[0]},"seq":{self.next[1]}}}}}')


class LiveService:
    """Ingest and recompute for one app (``app.extensions["mjref.live"]``)."""

    def __init__(self, writer: GroupCommitter):
        self.writer = writer
        self._tables: dict[str, _Live] = {}
        self._rows: dict[str, dict] = {}
        self._lock = threading.Lock()  # guards _tables' membership (the writer serialises the rest)

    @staticmethod
    def warm_up() -> None:
        """Referee and penalise one generated hand, as the service would a posted one.

        Why: the first hand a process sees pays one-time costs (modules imported on first
        use, tables of waits and scores filled on first sight, rulesets loaded): tens of
        milliseconds holding the interpreter, which would stall every table posting to a
        freshly started server at once. Paid here, at start, instead.
        """
        from referee.events import event_to_dict
        from referee.generator import generate_hand

        table = {"mode": "digital", "ruleset": "competition", "params": {}}
        try:
            for seed in (1, 2):
                replay_hand(table, 1, [event_to_dict(e) for e in generate_hand(seed, hand=1, table="warm-up")])
        except Exception:  # noqa: BLE001 - only a warm-up: the real hands will say what is wrong
            _log.warning("warm-up hand failed", exc_info=True)

    # -- tables ---------------------------------------------------------------------------

    def table_row(self, table_id: str, open_db: Any) -> dict:
        """A table's settings (written once, so kept in memory); *open_db* gives a read
        connection on a miss.

        :raises ApiProblem: 404 for an unknown table.
        """
        row = self._rows.get(table_id)
        if row is None:
            row = ts.get_table(open_db(), table_id)
            if row is None:
                raise not_found("table", "桌", table_id, "table_id")
            self._rows[table_id] = row
        return row

    def create_table(self, table_id: str, *, actor: int | None, **settings: Any) -> dict:
        def work(tx: Tx) -> dict:
            tournament = settings.get("tournament_id")
            if tournament is not None:
                from store.tournaments import get_tournament

                if get_tournament(tx.db, tournament) is None:
                    raise ApiProblem(404, "unknown_tournament", f"no tournament {tournament!r}",
                                     f"沒有賽事「{tournament}」", field="tournament")
            row = ts.create_table(tx.db, table_id, created_by=actor, **settings)
            if row is None:
                raise ApiProblem(409, "table_exists", f"table {table_id!r} already exists", f"桌「{table_id}」已存在",
                                 field="id")
            return row

        return self.writer.submit(work)

    # -- ingest ---------------------------------------------------------------------------

    def ingest(self, table_id: str, table: dict, raws: list[Any], *, batch: bool, actor: int | None,
               open_db: Any, revocations: int | None = None) -> IngestAnswer:
        """Store and rule on posted events (all or nothing); the answer for each.

        *revocations*: the token revocation count the caller's cached token was last checked
        at, when the caller read none itself (PostgreSQL's live-ingest fast path): the write
        checks it against the count its own transaction reads (``Tx.revocations``, after its
        locks) and stores nothing when it moved (:class:`RevocationsMoved`).

        *table* is the table's row; *open_db* gives a read connection (duplicates and
        reloads read the log through it). The referee rules on the events **outside** the
        write lock, under the table's own lock (a table's posts come one after another,
        so it is rarely waited for): the group commit then holds only the inserts, and
        the CPU work of one post (parsing, the referee, penalties at the end of a hand)
        overlaps other posts' commits — and other processes' writes, when the service runs
        several. The write checks that the stored head is still the one the referee
        worked from; if another process wrote to the table meanwhile, the table is
        reloaded from the log and the post tried again.
        """
        prepared = []
        for i, raw in enumerate(raws):
            where = f"events[{i}]" if batch else "event"
            if not isinstance(raw, Mapping):
                raise bad_request("invalid_event", where, "an event is a JSON object", "事件須為 JSON 物件")
            for key in ("hand", "seq"):
                value = raw.get(key)
                if type(value) is not int or not 0 <= value <= MAX_INT:
                    raise bad_request("invalid_event", f"{where}.{key}",
                                      f"{key} must be an integer 0–{MAX_INT} (required here)",
                                      f"{key} 為必填，須為 0–{MAX_INT} 的整數")
            if "table" in raw and raw["table"] != table_id:
                raise bad_request("wrong_table", f"{where}.table",
                                  f"the event names table {raw['table']!r}, posted to {table_id!r}",
                                  f"事件寫的是桌「{raw['table']}」，卻送到桌「{table_id}」")
            event = parse(raw, table, i if batch else None)
            prepared.append((where, raw["hand"], raw["seq"], event, ts.canonical(raw)))
        live = self._entry(table_id, table)
        with live.lock:
            for attempt in range(_STALE_RETRIES + 1):
                if not live.loaded:
                    self._load(live, table_id, open_db())
                try:
                    return self._ingest(live, table_id, prepared, actor, open_db, verify=attempt < _STALE_RETRIES,
                                        revocations=revocations)
                except _Stale:
                    live.loaded = False
        raise AssertionError("unreachable: the last attempt does not raise _Stale")  # pragma: no cover

    def _ingest(self, live: _Live, table_id: str, prepared: list[tuple], actor: int | None, open_db: Any,
                verify: bool, revocations: int | None = None) -> IngestAnswer:
        """One attempt, under the table's lock: sequence and rule in memory, then write.

        :raises _Stale: the in-memory head was behind the log (only when *verify*).
        :raises RevocationsMoved: see :meth:`ingest`.
        """
        base = head = live.head
        results: list[dict] = []
        new_rows: list[tuple] = []
        touched: dict[int, HandReferee] = {}
        texts: list[str] = []  # each answer's JSON, as stored (the reply is assembled from them)
        started: list[int] = []
        try:
            for where, hand, seq, event, text in prepared:
                expected = (FIRST_HAND, FIRST_SEQ) if head is None else (head[0], head[1] + 1)
                if head is not None and (hand, seq) <= head:
                    if new_rows:  # a resend after new events in one batch: out of order
                        raise conflict("seq_clash", f"{where}.seq", "events of a batch must be in order",
                                       "同一批事件須依序排列", expected)
                    stored = ts.stored_event(open_db(), table_id, hand, seq)
                    if stored is None:
                        raise conflict("seq_stale", f"{where}.seq",
                                       f"hand {hand} seq {seq} comes after its hand was left",
                                       f"第 {hand} 盤 seq {seq} 在該盤之後才送達", expected)
                    if stored["body"] != text:
                        raise conflict("seq_clash", f"{where}.seq",
                                       f"hand {hand} seq {seq} is already stored with another body",
                                       f"第 {hand} 盤 seq {seq} 已存有不同的內容", expected)
                    results.append({**stored["answer"], "duplicate": True})
                    texts.append(ts.dumps(results[-1]))
                    continue
                next_hand = (FIRST_HAND if head is None else head[0] + 1, FIRST_SEQ)
                if (hand, seq) != expected and (hand, seq) != next_hand:
                    if head is not None and hand > head[0]:
                        expected = next_hand  # a new hand starts at its first seq
                    raise conflict("seq_gap", f"{where}.seq" if hand == expected[0] else f"{where}.hand",
                                   f"hand {hand} seq {seq} leaves a gap", f"第 {hand} 盤 seq {seq} 造成缺漏",
                                   expected)
                if live.referee is None or live.referee.hand != hand:
                    # the hand left stays as it was; the new one names who sits at it now
                    live.referee = HandReferee(live.table, hand, table_names(open_db(), live.table))
                    started.append(hand)
                answer = live.referee.apply(event, where)
                if "rulings" in answer or "outcome" in answer:
                    touched[hand] = live.referee
                head = (hand, seq)
                results.append(answer)
                new_rows.append((hand, seq, event.type.wire, text, ts.dumps(answer)))
                texts.append(new_rows[-1][4])
        except BaseException as error:
            if new_rows or started or not isinstance(error, ApiProblem):
                live.loaded = False  # the referee may be part way through the batch: reload it
            if verify and isinstance(error, ApiProblem) and error.code == 409 \
                    and ts.stream_head(open_db(), table_id) != base:
                raise _Stale from error  # judged on an old head: reload, judge again
            raise
        if new_rows:
            def work(tx: Tx) -> None:
                if revocations is not None and tx.revocations is not None and tx.revocations != revocations:
                    raise RevocationsMoved  # a token was revoked since the cache was checked: maybe this one
                db = tx.db
                if not ts.append_events_at(db, table_id, base, new_rows, actor=actor):  # one statement on PG
                    raise _Stale
                for hand in started:
                    if hand not in touched:
                        ts.save_hand(db, table_id, hand, ended=False, outcome=None, payments=NO_PAYMENTS)
                for hand, referee in sorted(touched.items()):
                    self._project(db, table_id, hand, referee)

            declared = None
            if not started and not touched and self.writer.pipeline:  # the common post: one statement
                sql, params = ts.append_events_at_statement(table_id, base, new_rows, actor=actor,
                                                            revocations=revocations)

                def outcome(ran: Any) -> None:  # the statement's answer: what work would have raised
                    appended, count = ts.appended_at(ran, new_rows)
                    if revocations is not None and count != revocations:
                        raise RevocationsMoved
                    if not appended:
                        raise _Stale

                declared = Declared(sql, params, outcome)
            try:
                # one table's writes in order; a batch of declared writes in one round trip (PostgreSQL)
                self.writer.submit(work, keys=(f"table:{table_id}",), declared=declared)
            except _Stale:
                if verify:
                    raise
                live.loaded = False
                raise conflict("seq_clash", "event.seq" if len(prepared) == 1 else "events[0].seq",
                               "the table is being written by another client at the same time",
                               "此桌同時有其他用戶端寫入", base or (FIRST_HAND, FIRST_SEQ)) from None
            except BaseException:
                live.loaded = False  # not stored: the referee ran ahead of the log
                raise
            live.head = head
        rulings = [r for a in results for r in a.get("rulings", ())]
        nxt = (FIRST_HAND, FIRST_SEQ) if head is None else (head[0], head[1] + 1)
        return IngestAnswer(table_id, len(new_rows), len(results) - len(new_rows), results, texts, rulings, nxt)

    def _entry(self, table_id: str, table: dict) -> _Live:
        live = self._tables.get(table_id)
        if live is None:
            with self._lock:
                live = self._tables.setdefault(table_id, _Live(table))
        return live

    @staticmethod
    def _load(live: _Live, table_id: str, db: Any) -> None:
        """Read the table's head from the log and replay its current hand."""
        head = ts.stream_head(db, table_id)
        live.referee = None
        if head is not None:
            bodies = list(ts.play_bodies(db, table_id, head[0]))
            live.referee, _ = replay_hand(live.table, head[0], bodies, names=table_names(db, live.table))
            head = (head[0], bodies[-1]["seq"]) if bodies else head
        live.head = head
        live.loaded = True

    def forget(self, table_id: str) -> None:
        """Drop a table's in-memory state (rebuilt from the log on next use)."""
        with self._lock:
            self._tables.pop(table_id, None)

    # -- projections ----------------------------------------------------------------------

    def _project(self, db: Any, table_id: str, hand: int, referee: HandReferee) -> dict:
        """Write one hand's projections: rulings after overrides, payments."""
        overrides = [_override_from_event(row) for row in ts.events(db, table_id, hand=hand, stream=ts.OFFICIAL)]
        effective = apply_overrides(referee.rulings, overrides)
        ts.replace_rulings(db, table_id, hand, effective)
        payments = hand_payments(effective)
        ts.save_hand(db, table_id, hand, ended=referee.ended, outcome=referee.outcome, payments=payments)
        return {"hand": hand, "ended": referee.ended, "outcome": referee.outcome, "rulings": effective,
                "payments": payments}

    def recompute_hand(self, db: Any, table: dict, hand: int) -> dict:
        """Replay one hand from the log and rewrite its projections (after an override)."""
        referee, _ = replay_hand(table, hand, ts.play_bodies(db, table["id"], hand), names=table_names(db, table))
        return self._project(db, table["id"], hand, referee)

    def rebuild(self, db: Any, table_id: str | None = None) -> dict:
        """Drop the projections (all, or one table's) and rebuild them from the log."""
        ts.clear_projections(db, table_id)
        ids = [table_id] if table_id is not None else ts.tables_with_events(db)
        hands = 0
        for tid in ids:
            table = ts.get_table(db, tid)
            if table is None:
                continue
            for entry in ts.hand_index(db, tid):
                self.recompute_hand(db, table, entry["hand"])
                hands += 1
            for row in ts.events(db, tid, stream=ts.OFFICIAL):
                body = row["body"]
                if body.get("type") == "override":
                    ts.add_override(db, event_id=row["id"], table_id=tid, hand=row["hand"], ruling_id=body["ruling"],
                                    decision=body["decision"], reason=body.get("reason", ""),
                                    reason_zh=body.get("reason_zh", ""), actor=row["actor"],
                                    actor_label=body.get("by", {}).get("label", ""), created_at=row["received_at"])
            self.forget(tid)
        return {"tables": len(ids), "hands": hands}

    # -- overrides ------------------------------------------------------------------------

    def override(self, table_id: str, *, hand: int, ruling: str, decision: str, reason: str, reason_zh: str,
                 payments: list[int] | None, principal: Any) -> dict:
        """Record an official's override as an event, then recompute the hand from the log."""

        def work(tx: Tx) -> dict:
            db = tx.db
            table = ts.get_table(db, table_id)
            if table is None:
                raise not_found("table", "桌", table_id, "table_id")
            referee, _ = replay_hand(table, hand, ts.play_bodies(db, table_id, hand), names=table_names(db, table))
            if not any(r["id"] == ruling for r in referee.rulings):
                known = [r["id"] for r in referee.rulings]
                raise ApiProblem(404, "unknown_ruling", f"hand {hand} has no ruling {ruling!r} (it has {known})",
                                 f"第 {hand} 盤沒有裁定「{ruling}」（現有 {known}）", field="ruling")
            body = {"type": "override", "hand": hand, "ruling": ruling, "decision": decision, "reason": reason,
                    "reason_zh": reason_zh, "by": principal.to_dict()}
            if payments is not None:
                body["payments"] = payments
            seq = ts.next_seq(db, table_id, hand, ts.OFFICIAL)
            event_id = ts.append_event(db, table_id, hand, seq, "override", body, stream=ts.OFFICIAL,
                                       actor=principal.id, answer={"accepted": True})
            at = ts.received_at(db, event_id)
            ts.add_override(db, event_id=event_id, table_id=table_id, hand=hand, ruling_id=ruling, decision=decision,
                            reason=reason, reason_zh=reason_zh, actor=principal.id, actor_label=principal.label,
                            created_at=at)
            projected = self._project(db, table_id, hand, referee)
            return {"override": {"event_id": event_id, "table": table_id, "hand": hand, "seq": seq, "ruling": ruling,
                                 "decision": decision, "payments": payments, "reason": reason, "reason_zh": reason_zh,
                                 "by": principal.to_dict(), "at": at},
                    "hand": projected, "totals": table_totals(db, table_id)}

        return self.writer.submit(work, keys=(f"table:{table_id}",))


def table_totals(db: Any, table_id: str) -> list[int]:
    """Money per seat over every hand of the table (from the hands projection)."""
    total = [0, 0, 0, 0]
    for entry in ts.hands(db, table_id).values():
        for seat, amount in enumerate(entry["payments"]):
            total[seat] += amount
    return total


def service(app: Flask | None = None) -> LiveService:
    """This app's live service (``app.extensions["mjref.live"]``, made by :func:`api.tables.init_app`)."""
    return (app or current_app).extensions["mjref.live"]


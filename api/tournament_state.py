"""A tournament's state for the service: its log replayed (cached by last seq), and appends.

The log is the truth (``tournament_events``); every read replays it with
:func:`tournament.events.replay` and folds the side events with
:func:`tournament.provenance.fold`. A replay is kept per tournament and reused while the
log's last sequence number is unchanged (the log is append-only: same number, same log).

Writes go through the group-committed writer (:func:`store.tournaments.append_events`),
their answer made in the same transaction (:func:`write`, :mod:`api.idempotency`):
an event that would not fold is refused whole — nothing written — as a **409**
``event_refused`` naming the field (the request was well formed but conflicts with the
log: a hand already recorded, a round already played, a player not registered …).
Bodies that are malformed are 400s before anything reaches the writer.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app

from api import idempotency
from api.problems import ApiProblem, not_found
from store import get_db
from store import tournaments as tstore
from referee.errors import MjrefError
from tournament.errors import EventLogError
from tournament.events import EventState, Record, replay
from tournament.provenance import Provenance, fold


@dataclass(frozen=True, slots=True)
class Loaded:
    """A tournament as its log says now: the row, the records, the state, the side events."""

    row: dict
    records: tuple[Record, ...]
    state: EventState
    provenance: Provenance

    @property
    def settings(self):
        return self.state.settings


def _cache() -> tuple[dict, threading.Lock]:
    ext = current_app.extensions
    if "mjref.tournaments" not in ext:
        ext["mjref.tournaments"] = ({}, threading.Lock())
    return ext["mjref.tournaments"]


def load(tournament_id: str, db=None) -> Loaded:
    """The tournament replayed (404 when there is none)."""
    db = db or get_db()
    row = tstore.get_tournament(db, tournament_id)
    if row is None:
        raise not_found("tournament", "賽事", tournament_id, "tournament_id")
    last = tstore.last_seq(db, tournament_id)
    entries, lock = _cache()
    hit = entries.get(tournament_id)
    if hit is not None and hit.records and hit.records[-1].seq == last and hit.row["created_at"] == row["created_at"]:
        return hit
    records = tuple(tstore.load_records(db, tournament_id))
    loaded = Loaded(row, records, replay(records), fold(records))
    with lock:
        entries[tournament_id] = loaded
    return loaded


def refused(exc: MjrefError) -> ApiProblem:
    """The 409 for events the log refuses, or a step the event's state does not allow yet (nothing was written)."""
    return ApiProblem(409, "event_refused", exc.message, exc.reason_zh, field=exc.field)


class Written:
    """What a write's answer is made from, inside its transaction: the records it added and
    the tournament as the log then says (replayed from the transaction's connection, never
    cached: the transaction may yet roll back)."""

    __slots__ = ("db", "tournament_id", "added", "_loaded")

    def __init__(self, db, tournament_id: str, added: list[Record], loaded: Loaded | None = None):
        self.db, self.tournament_id, self.added = db, tournament_id, added
        self._loaded = loaded

    @property
    def loaded(self) -> Loaded:
        if self._loaded is None:
            self._loaded = replayed(self.db, self.tournament_id)
        return self._loaded


def replayed(db, tournament_id: str) -> Loaded:
    """The tournament as *db* sees it (inside a transaction too), past the cache."""
    records = tuple(tstore.load_records(db, tournament_id))
    return Loaded(tstore.get_tournament(db, tournament_id), records, replay(records), fold(records))


def _keep(loaded: Loaded) -> None:
    """Cache a replay made inside a transaction once it is committed (its last seq names it)."""
    entries, lock = _cache()
    with lock:
        entries[loaded.row["id"]] = loaded


def write(tournament_id: str, events: list | Callable[[Any], list], *, actor: int | None,
          answer: Callable[[Written], dict], status: int = 201, headers: dict | None = None) -> Response:
    """Append events (or the events ``events(db)`` computes inside the transaction, from the
    log as it is then) all or nothing, and answer: ``answer(written)`` makes the body inside
    the same transaction, so that with an ``Idempotency-Key`` it is stored with the events
    (:mod:`api.idempotency`) and a resend gets it again.

    ``events`` may raise :class:`api.idempotency.Duplicate` (the effect is already recorded):
    the answer is then its body, 200, nothing written.

    :raises ApiProblem: 409 ``event_refused`` naming the field when the log would not fold;
        422 for an idempotency key used with another request.
    """
    kept: list[Loaded] = []

    def work(tx):
        batch = events(tx.db) if callable(events) else events
        added = tstore.append_events(tx.db, tournament_id, list(batch), actor=actor)
        written = Written(tx.db, tournament_id, added)
        body = answer(written)
        if written._loaded is not None:
            kept.append(written._loaded)
        return status, body, dict(headers or {})

    try:
        result = idempotency.submit(tournament_id, work)
    except EventLogError as exc:
        raise refused(exc) from None
    except idempotency.Duplicate as dup:
        return idempotency.respond(200, dup.body)
    if kept and not result[3]:
        _keep(kept[0])  # committed: the next read need not replay it again
    return idempotency.respond(*result)


__all__ = ["Loaded", "Written", "load", "refused", "replayed", "write"]

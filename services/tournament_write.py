"""A tournament's appends for the API and the pages: the events written, the answer made in the same transaction.

Reads are :mod:`services.tournament_log` (the log replayed, cached by its last seq), shared
with the pages and the clocks; this module re-exports :func:`load` and :func:`replayed`.

Writes go through the group-committed writer (:func:`store.tournaments.append_events`),
their answer made in the same transaction (:func:`write`, :mod:`services.idempotency`):
an event that would not fold is refused whole — nothing written — as a **409**
``event_refused`` naming the field (the request was well formed but conflicts with the
log: a hand already recorded, a round already played, a player not registered …).
Bodies that are malformed are 400s before anything reaches the writer.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response

from services import idempotency
from referee.errors import MjrefError
from services.problems import ApiProblem
from services.tournament_log import Loaded, keep, load, replayed
from store import tournaments as tstore
from tournament.errors import EventLogError
from tournament.events import Record


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


def write(tournament_id: str, events: list | Callable[[Any], list], *, actor: int | None,
          answer: Callable[[Written], dict], status: int = 201, headers: dict | None = None) -> Response:
    """Append events (or the events ``events(db)`` computes inside the transaction, from the
    log as it is then) all or nothing, and answer: ``answer(written)`` makes the body inside
    the same transaction, so that with an ``Idempotency-Key`` it is stored with the events
    (:mod:`services.idempotency`) and a resend gets it again.

    ``events`` may raise :class:`services.idempotency.Duplicate` (the effect is already recorded):
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
        keep(kept[0])  # committed: the next read need not replay it again
    return idempotency.respond(*result)


__all__ = ["Loaded", "Written", "load", "refused", "replayed", "write"]

"""A tournament's state for the service: its log replayed (cached by last seq), and appends.

The log is the truth (``tournament_events``); every read replays it with
:func:`tournament.events.replay` and folds the side events with
:func:`tournament.provenance.fold`. A replay is kept per tournament and reused while the
log's last sequence number is unchanged (the log is append-only: same number, same log).

Appends go through the group-committed writer (:func:`store.tournaments.append_events`):
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

from flask import current_app

from api.problems import ApiProblem, not_found
from store import get_db, get_writer
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


def append(tournament_id: str, events: list | Callable[[Any], list], *, actor: int | None) -> list[Record]:
    """Append events (or the events ``events(db)`` computes inside the transaction, from the
    log as it is then) all or nothing.

    :raises ApiProblem: 409 ``event_refused`` naming the field when the log would not fold.
    """

    def work(tx):
        batch = events(tx.db) if callable(events) else events
        return tstore.append_events(tx.db, tournament_id, list(batch), actor=actor)

    try:
        return get_writer().submit(work)
    except EventLogError as exc:
        raise refused(exc) from None


__all__ = ["Loaded", "append", "load", "refused"]

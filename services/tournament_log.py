"""A tournament's log loaded and replayed for the service (the API, the pages and the clocks).

The log is the truth (``tournament_events``); every read replays it with
:func:`tournament.events.replay` and folds the side events with
:func:`tournament.provenance.fold`. A replay is kept per tournament and reused while the
log's last sequence number is unchanged (the log is append-only: same number, same log);
when records were appended since, only those are folded onto it
(:func:`tournament.events.replay_more`): in a hall where every table enters hands, a read
(the scorer's preview, a page) would otherwise replay the whole event after each write.
Appends are :func:`services.tournament_write.write` (the API's and the pages').
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

from flask import current_app

from services.problems import not_found
from store import get_db
from store import tournaments as tstore
from tournament.events import EventState, Record, Replay, replay_kept, replay_more
from tournament.provenance import Provenance, fold


@dataclass(frozen=True, slots=True)
class Loaded:
    """A tournament as its log says now: the row, the records, the state, the side events."""

    row: dict
    records: tuple[Record, ...]
    state: EventState
    provenance: Provenance
    #: the replay's fold, carried on by the next :func:`load` (not part of what is compared)
    replay: Replay | None = field(default=None, compare=False, repr=False)

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
    if hit is not None and hit.replay is not None and hit.row["created_at"] == row["created_at"] \
            and len(records) >= len(hit.records) \
            and (not hit.records or records[len(hit.records) - 1] == hit.records[-1]):
        done = replay_more(hit.replay, records)  # only the records appended since
        provenance = fold(records[len(hit.records):], hit.provenance)
    else:
        done, provenance = replay_kept(records), fold(records)
    loaded = Loaded(row, records, done.state, provenance, done)
    with lock:
        entries[tournament_id] = loaded
    return loaded


def replayed(db, tournament_id: str) -> Loaded:
    """The tournament as *db* sees it (inside a transaction too), past the cache."""
    records = tuple(tstore.load_records(db, tournament_id))
    done = replay_kept(records)
    return Loaded(tstore.get_tournament(db, tournament_id), records, done.state, fold(records), done)


def keep(loaded: Loaded) -> None:
    """Cache a replay made inside a transaction once it is committed (its last seq names it)."""
    entries, lock = _cache()
    with lock:
        entries[loaded.row["id"]] = loaded



__all__ = ["Loaded", "keep", "load", "replayed"]

"""The clock's writes: check an official's clock events, append them and whatever is due.

:func:`record_clock` runs inside the writer's transaction (``get_writer().submit``), so
reading the log, deciding and appending cannot interleave with another write: a job that
fires twice, or a scheduler job racing an official's action, re-reads the log and finds
the action already recorded — :func:`tournament.clock.due` never gives it again. That makes
every job idempotent (never a second ``RoundStarted``).
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from store.tables import Database
from store.tournaments import append_events, load_records
from tournament.clock import ClockEvent, apply_clock, check_tables, clock_state, due, format_time
from tournament import provenance
from tournament.events import Record, replay


def dealer_of(records: Sequence[Record]):
    """Each 將's first dealer by its recorded 定莊 (:mod:`tournament.provenance`): what lets
    the clock see from the hands that a table has finished."""
    return provenance.fold(records).dealer_of


def record_clock(db: Database, tournament_id: str, events: Sequence[ClockEvent] = (), *,
                 now: datetime, tolerance: timedelta = timedelta(seconds=5), actor: int | None = None) -> list[Record]:
    """Append ``events`` (an official's: checked against the clock and the event's rounds and
    tables), then what the clock has due at ``now`` (recorded by nobody: the clock).

    :raises tournament.clock.ClockError: an event the clock does not allow (nothing written).
    :raises tournament.errors.EventLogError: the log would not fold (nothing written).
    """
    records = load_records(db, tournament_id)
    event_state = replay(records)
    state = clock_state(records)
    added: list[Record] = []
    if events:
        check_tables(event_state, events)
        for event in events:
            state = apply_clock(state, event)
        added += append_events(db, tournament_id, list(events), actor=actor, at=format_time(now))
    owed = due(state, event_state, now, tolerance=tolerance, dealer_of=dealer_of(records))
    if owed:
        added += append_events(db, tournament_id, owed, at=format_time(now))
    return added


def late_tolerance(config) -> timedelta:
    """``CLOCK_LATE_SECONDS`` (default 5): an action recorded later than this after its time is marked late."""
    return timedelta(seconds=float(config.get("CLOCK_LATE_SECONDS", 5)))

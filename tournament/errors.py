"""Narrow exceptions of the tournament domain.

Each derives from :class:`referee.errors.MjrefError` (``field``, ``reason_zh``, ``code``)
and from ``ValueError``, so the one problem+json handler reports them without knowing
the subclasses, and callers may catch either.
"""
from __future__ import annotations

from referee.errors import MjrefError


class TournamentError(MjrefError, ValueError):
    """Base of the tournament errors."""

    code = "tournament_error"


class SeatingError(TournamentError):
    """A 搬風 or 定莊 that cannot have happened: not four players, a player twice, drawn
    tiles that are not the four winds, a redraw that was not needed (``seat.banfeng``)."""

    code = "invalid_seating"


class MatchError(TournamentError):
    """A hand outcome that does not fit the 將 it is recorded in: the wrong dealer, a
    seat outside 0–3, a hand after the North round ended (``seat.dealer``, ``app.rounds``)."""

    code = "invalid_match"


class ScheduleError(TournamentError):
    """A schedule that cannot be made or checked: fewer than four players, no rounds,
    a player twice, a withdrawal of someone not in the event."""

    code = "invalid_schedule"


class ResultError(TournamentError):
    """A hand result that cannot be: payments not summing to zero, a winner paying,
    a bystander paying for a win on a discard."""

    code = "invalid_result"


class EventLogError(TournamentError):
    """An event that does not apply to the event log's state: a result for a table that
    was never seated, a correction of nothing, a second registration."""

    code = "invalid_event"
    #: the stored record a log's refusal is about (0: none), and the event's own error
    record_seq: int = 0
    event_error: Exception | None = None


class StandingsError(TournamentError):
    """A tie-break key or an advancement count the standings do not know."""

    code = "invalid_standings"


def check_seat(value: object, field: str, error: type[TournamentError] = TournamentError) -> int:
    """``value`` when it is a seat 0–3 (a plain int), else ``error`` naming ``field``."""
    if type(value) is not int or not 0 <= value < 4:
        raise error(f"{field} must be a seat 0–3, got {value!r}", field=field,
                    reason_zh=f"{field} 須為 0–3 號座，收到 {value!r}")
    return value

"""The round clock on the pages, from :mod:`tournament.clock`.

The pages show a clock panel when the log has a configured clock; otherwise none. The panel is what the log
says (started, time, reported tables, closed) plus the time left at the server's clock when the page was
made; a small inline script counts it down.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tournament.clock import FINISH_CIRCLE, FINISH_HAND, clock_state

POLICY_TEXT = {
    FINISH_HAND: ("時間到打完本盤", "at time: finish the hand"),
    FINISH_CIRCLE: ("時間到打完本圈", "at time: finish the 圈"),
}


@dataclass(frozen=True, slots=True)
class ClockPanel:
    """What the panel prints for the current round (``round``: ``None`` before any start)."""

    round: int | None
    policy_zh: str
    policy_en: str
    started_at: str | None = None
    time_at: str | None = None
    seconds_left: int | None = None
    time_called: bool = False
    closed: bool = False
    reported: tuple[int, ...] = ()
    published_round: int | None = None
    #: the round's time stands still (R-tour-29): ``seconds_left`` is frozen, the countdown too
    paused: bool = False
    #: rounds seated again after their seating was published, not yet published again (R-tour-31)
    withdrawn_rounds: tuple[int, ...] = ()


def clock_panel(records, now: datetime) -> ClockPanel | None:
    """The panel for a tournament's log at ``now`` (the app's clock), or ``None`` (no clock
    configured, or clock events that do not fold — the pages still show everything else)."""
    try:
        state = clock_state(records)
    except ValueError:  # ClockError / EventLogError
        return None
    settings = state.settings
    if settings is None:
        return None
    zh, en = POLICY_TEXT[settings.at_time]
    published = state.published.round if state.published is not None else None
    withdrawn = tuple(r.round for r in state.rounds if r.unpublished_at is not None)
    current = state.current
    if current is None:
        return ClockPanel(None, zh, en, published_round=published, withdrawn_rounds=withdrawn)
    time_at = current.time_at(settings, now)  # paused: as if it ran again now
    left = None if current.closed or time_at is None else int(current.seconds_left(settings, now))
    return ClockPanel(current.round, zh, en, current.started_at, time_at.isoformat() if time_at else None, left,
                      current.time_called, current.closed, current.reported_tables, published,
                      current.paused and not current.closed, withdrawn)

"""Where "now" comes from: the one clock a deployment reads, injectable for tests.

:mod:`tournament.clock` never reads a clock; everything that needs the time — the clock API
(``api/clocks.py``), the pages' clock panel (``web/clock_panel.py``), the scheduler
(``clocks/scheduler.py``) — asks the app's clock, ``app.config["CLOCK"]``, which
:func:`clock_from_config` makes once in ``create_app``:

``CLOCK``
    a clock object (anything with ``now() -> datetime``, aware): tests pass a
    :class:`FixedClock`; default the system's clock.
``CLOCK_OFFSET_SECONDS`` (env ``MJREF_CLOCK_OFFSET_SECONDS``)
    the system's clock shifted by this many seconds (:class:`OffsetClock`): every server
    process of a test given the same offset reads the same time, running at real speed.

A test that depends on the time sets its own clock, so that no test depends on today's date.
"""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from typing import Protocol


class Clock(Protocol):
    """A source of the current time (aware, UTC)."""

    def now(self) -> datetime: ...


class ClockSourceError(ValueError):
    """A ``CLOCK`` / ``CLOCK_OFFSET_SECONDS`` setting that is not a clock (named in the message)."""


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        return datetime.now(timezone.utc)

    def __repr__(self) -> str:
        return "SystemClock()"


class OffsetClock:
    """The machine's clock shifted by ``offset``: real speed, another date."""

    def __init__(self, offset: timedelta):
        self.offset = offset

    @classmethod
    def starting_at(cls, when: datetime) -> OffsetClock:
        """A clock that reads ``when`` now and runs on from there."""
        return cls(_aware(when, "when") - datetime.now(timezone.utc))

    def now(self) -> datetime:
        return datetime.now(timezone.utc) + self.offset

    def __repr__(self) -> str:
        return f"OffsetClock({self.offset!r})"


class FixedClock:
    """A clock that reads what it was set to until it is moved (tests)."""

    def __init__(self, at: datetime):
        self.at = _aware(at, "at")

    def now(self) -> datetime:
        return self.at

    def set(self, at: datetime) -> None:
        self.at = _aware(at, "at")

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at

    def __repr__(self) -> str:
        return f"FixedClock({self.at!r})"


def _aware(when: object, name: str) -> datetime:
    if not isinstance(when, datetime) or when.tzinfo is None:
        raise ClockSourceError(f"{name} must be an aware datetime, got {when!r}")
    return when.astimezone(timezone.utc)


_CENTURY = 100 * 365.25 * 86400


def clock_from_config(config: Mapping) -> Clock:
    """The app's clock from its settings (``CLOCK``, ``CLOCK_OFFSET_SECONDS``; see the module).

    :raises ClockSourceError: ``CLOCK`` without ``now()``, or an offset that is not a number.
    """
    given = config.get("CLOCK")
    if given is not None:
        if not callable(getattr(given, "now", None)):
            raise ClockSourceError(f"CLOCK must have a now() method, got {given!r}")
        return given
    offset = config.get("CLOCK_OFFSET_SECONDS")
    if offset in (None, "", 0):
        return SystemClock()
    try:
        seconds = float(offset)
    except (TypeError, ValueError):
        raise ClockSourceError(f"CLOCK_OFFSET_SECONDS must be a number of seconds, got {offset!r}") from None
    if not -_CENTURY <= seconds <= _CENTURY:  # also NaN and ±inf
        raise ClockSourceError(f"CLOCK_OFFSET_SECONDS must be within a century, got {offset!r}")
    return OffsetClock(timedelta(seconds=seconds))


__all__ = ["Clock", "ClockSourceError", "FixedClock", "OffsetClock", "SystemClock", "clock_from_config"]

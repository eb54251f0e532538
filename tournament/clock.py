"""The round clock of an event: start times, reminders, time called, closing, the next seating.

Pure domain code: the clocks' events sit in the tournament's one log as
:class:`tournament.events.SideEvent` subclasses (the main fold passes over them), this
module folds them (:func:`clock_state`) and says what is due at a time it is given
(:func:`due`) — it never reads a clock. The service (``clocks/``, APScheduler) asks
:func:`due` at the right moments and appends what it returns; the API lets an official
do the same by hand.

Settings (:class:`ClockSettings`, durations in seconds so that tests may run a round in
seconds): the rounds' start times (a list, or a first start and an interval), the round's
length, what happens at time (``at_time``), reminders before time, auto-close, when the
next round's seating is published.

At time (``TimeCalled``) a table plays on by the policy (docs/rulings.md R-tour-20):

``finish_hand``
    the hand in play is finished, no further hand starts: the 將 ends there
    (:class:`tournament.table.MatchStopped`);
``finish_circle``
    the table plays on to the end of the current 圈 — the 圈風 marker's wind of the hand in
    play at the call (``app.rounds``, ``seat.dealer``: the marker turns when the deal comes
    back to the 起莊位) — and stops when the marker would turn, or the 將 ends.

:func:`may_start_hand` answers "may this table start another hand?" for both.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone

from .codec import register
from .errors import MatchError, TournamentError
from .events import EventState, HandRecorded, PlayerWithdrew, Record, RoundSeated, SideEvent, replay
from .match import DealerRuling, HandOutcome, MatchState, event_max_streak, start_match
from .results import HandResult
from .schedule import RoundPlan

FINISH_HAND = "finish_hand"
FINISH_CIRCLE = "finish_circle"
AT_TIME_POLICIES = (FINISH_HAND, FINISH_CIRCLE)
PUBLISH_ON_CLOSE = "on_close"
PUBLISH_BEFORE_START = "before_start"
PUBLISH_POLICIES = (PUBLISH_ON_CLOSE, PUBLISH_BEFORE_START)
#: why a round closed
CLOSED_ALL_REPORTED = "all_reported"
CLOSED_BY_OFFICIAL = "official"

# Bounds of the settings, so that every time the clock works out (a start plus rounds of
# intervals, a start plus the round, a reminder or a publication before one) is a time a
# datetime holds: an unbounded ``round_seconds`` was stored and every round start then
# failed (OverflowError; issue #12 item 4).
#: longest round: a round is played in one sitting (the event's ``round_minutes`` is at most 24 h too)
MAX_ROUND_SECONDS = 24 * 3600
#: longest time between two rounds' starts, and longest publication ahead of a start: a year
MAX_INTERVAL_SECONDS = 366 * 24 * 3600
#: the years a clock's time may fall in: far beyond any event, and 100 rounds a year apart
#: from the last one still a datetime (year 9999 at most)
MIN_YEAR, MAX_YEAR = 1970, 9000


class ClockError(TournamentError):
    """A clock setting or a clock event that cannot be: a start time without a time zone,
    a round started twice, time called before the start, a report of an unknown table."""

    code = "invalid_clock"


def _fail(message: str, zh: str, field_name: str = "event") -> ClockError:
    return ClockError(message, field=field_name, reason_zh=zh)


# --- time ---------------------------------------------------------------------------------


def parse_time(value: str, field_name: str = "at") -> datetime:
    """An ISO 8601 time with its offset (``2026-11-29T09:00:00+08:00``, ``…Z``) as an aware datetime."""
    if not isinstance(value, str):
        raise _fail(f"{field_name} must be an ISO 8601 time, got {value!r}",
                    f"{field_name} 須為 ISO 8601 時間，收到 {value!r}",
                    field_name)
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        raise _fail(f"{field_name} is not an ISO 8601 time: {value!r}", f"{field_name} 不是 ISO 8601 時間：{value!r}",
                    field_name) from None
    if when.tzinfo is None:
        raise _fail(f"{field_name} needs a time zone offset (e.g. +08:00): {value!r}",
                    f"{field_name} 須含時區（例如 +08:00）：{value!r}", field_name)
    if not MIN_YEAR <= when.year <= MAX_YEAR:
        raise _fail(f"{field_name} must fall in the years {MIN_YEAR}–{MAX_YEAR}: {value!r}",
                    f"{field_name} 須在 {MIN_YEAR}–{MAX_YEAR} 年之間：{value!r}", field_name)
    return when


def format_time(when: datetime) -> str:
    """UTC, milliseconds, ``Z`` — the store's format."""
    return when.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# --- settings and events ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockSettings:
    """How an event's rounds are timed (durations in seconds).

    Start times: ``starts[r-1]`` for round ``r``, or ``first_start + (r-1) × interval_seconds``;
    a round with neither is started by an official. ``reminders``: seconds before time
    (e.g. ``(900, 300)`` for 15 and 5 minutes). ``publish``: the next round's seating goes up
    when the current round closes (``on_close``), or ``publish_before_seconds`` before the
    next round's start (``before_start``).
    """

    round_seconds: int
    starts: tuple[str, ...] = ()
    first_start: str | None = None
    interval_seconds: int | None = None
    at_time: str = FINISH_HAND
    reminders: tuple[int, ...] = (900, 300)
    auto_close: bool = True
    publish: str = PUBLISH_ON_CLOSE
    publish_before_seconds: int = 0

    def __post_init__(self) -> None:
        if type(self.round_seconds) is not int or not 1 <= self.round_seconds <= MAX_ROUND_SECONDS:
            raise _fail(f"round_seconds must be 1–{MAX_ROUND_SECONDS} (a round is played in one sitting, at most "
                        f"24 h), got {self.round_seconds!r}",
                        f"每輪時間（秒）須為 1–{MAX_ROUND_SECONDS}（一輪一次打完，至多 24 小時），收到 "
                        f"{self.round_seconds!r}",
                        "round_seconds")
        object.__setattr__(self, "starts", tuple(self.starts))
        for k, start in enumerate(self.starts):
            parse_time(start, f"starts[{k}]")
        if self.first_start is not None:
            parse_time(self.first_start, "first_start")
        if self.interval_seconds is not None:
            if type(self.interval_seconds) is not int or not 1 <= self.interval_seconds <= MAX_INTERVAL_SECONDS:
                raise _fail(f"interval_seconds must be 1–{MAX_INTERVAL_SECONDS} (rounds at most a year apart), "
                            f"got {self.interval_seconds!r}",
                            f"輪與輪的間隔（秒）須為 1–{MAX_INTERVAL_SECONDS}（至多相隔一年），收到 "
                            f"{self.interval_seconds!r}",
                            "interval_seconds")
            if self.first_start is None:
                raise _fail("interval_seconds needs first_start", "設定間隔須同時設定第一輪開始時間 first_start",
                            "first_start")
        if self.starts and self.first_start is not None:
            raise _fail("give either starts or first_start (+ interval_seconds), not both",
                        "開始時間請擇一：starts 清單，或 first_start（加 interval_seconds）", "starts")
        if self.at_time not in AT_TIME_POLICIES:
            raise _fail(f"at_time must be one of {list(AT_TIME_POLICIES)}, got {self.at_time!r}",
                        f"時間到的處理須為 finish_hand（打完本盤）或 finish_circle（打完本圈），收到 {self.at_time!r}",
                        "at_time")
        reminders = tuple(self.reminders)
        if any(type(r) is not int or not 1 <= r <= MAX_ROUND_SECONDS for r in reminders) \
                or len(set(reminders)) != len(reminders):
            raise _fail(f"reminders must be distinct seconds 1–{MAX_ROUND_SECONDS} before time, got "
                        f"{list(reminders)!r}",
                        f"提醒須為時間到之前的秒數（1–{MAX_ROUND_SECONDS}，不重複），收到 {list(reminders)!r}",
                        "reminders")
        object.__setattr__(self, "reminders", tuple(sorted(reminders, reverse=True)))
        if type(self.auto_close) is not bool:
            raise _fail(f"auto_close must be true or false, got {self.auto_close!r}",
                        f"auto_close 須為 true 或 false，收到 {self.auto_close!r}", "auto_close")
        if self.publish not in PUBLISH_POLICIES:
            raise _fail(f"publish must be one of {list(PUBLISH_POLICIES)}, got {self.publish!r}",
                        "公布座位須為 on_close（本輪結束時）或 before_start（下一輪開始前）之一，收到 "
                        f"{self.publish!r}",
                        "publish")
        if type(self.publish_before_seconds) is not int or not 0 <= self.publish_before_seconds <= MAX_INTERVAL_SECONDS:
            raise _fail(f"publish_before_seconds must be 0–{MAX_INTERVAL_SECONDS} (at most a year ahead), "
                        f"got {self.publish_before_seconds!r}",
                        f"publish_before_seconds 須為 0–{MAX_INTERVAL_SECONDS}（至多提前一年），收到 "
                        f"{self.publish_before_seconds!r}",
                        "publish_before_seconds")

    def start_of(self, round_no: int) -> datetime | None:
        """The scheduled start of round ``round_no`` (from 1), ``None`` when an official starts it."""
        if self.starts:
            return parse_time(self.starts[round_no - 1]) if round_no <= len(self.starts) else None
        if self.first_start is None:
            return None
        if round_no == 1:
            return parse_time(self.first_start)
        if self.interval_seconds is None:
            return None
        return parse_time(self.first_start) + timedelta(seconds=self.interval_seconds * (round_no - 1))


class ClockEvent(SideEvent):
    """Base of the clock's events (in the tournament's log, folded by :func:`clock_state`)."""

    __slots__ = ()


@register
@dataclass(frozen=True, slots=True)
class ClockConfigured(ClockEvent):
    """The clock set (or set again: the latest settings apply from then on)."""

    settings: ClockSettings
    at: str = ""


@register
@dataclass(frozen=True, slots=True)
class RoundStarted(ClockEvent):
    """A round began. ``due``: when it was scheduled (``""``: an official started it);
    ``late``: recorded after its time (a server down at the time catches up at start-up)."""

    round: int
    at: str
    due: str = ""
    late: bool = False


@register
@dataclass(frozen=True, slots=True)
class ReminderGiven(ClockEvent):
    """``seconds_left`` before time (e.g. 900: 「還有 15 分鐘」)."""

    round: int
    seconds_left: int
    at: str
    due: str = ""
    late: bool = False


@register
@dataclass(frozen=True, slots=True)
class TimeCalled(ClockEvent):
    """Time: from now tables play on by ``policy`` (finish the hand / finish the 圈)."""

    round: int
    at: str
    policy: str = FINISH_HAND
    due: str = ""
    late: bool = False


@register
@dataclass(frozen=True, slots=True)
class TableReported(ClockEvent):
    """A table of the round has finished: its scorer or an official says so, or
    (``derived``) its recorded hands show every 將 of the round played to its end."""

    round: int
    table: int
    at: str
    derived: bool = False


@register
@dataclass(frozen=True, slots=True)
class RoundClosed(ClockEvent):
    """The round is over: every table reported (``all_reported``, ``due`` when the last one
    did) or an official closed it."""

    round: int
    at: str
    reason: str = CLOSED_BY_OFFICIAL
    due: str = ""
    late: bool = False


@register
@dataclass(frozen=True, slots=True)
class SeatingPublished(ClockEvent):
    """Round ``round``'s seating is shown (the hall screen)."""

    round: int
    at: str
    due: str = ""
    late: bool = False


#: the most extra time one grant gives (a dispute's hold-up, not a second round)
MAX_EXTRA_SECONDS = 4 * 3600


@register
@dataclass(frozen=True, slots=True)
class ExtraTime(ClockEvent):
    """An official gives a round extra time (R-tour-27): every table (``table`` ``None``) — time
    is then called ``seconds`` later — or one table held up by a dispute, which may start hands
    until its own later time while the others stop at the round's; ``reason`` for the record."""

    round: int
    seconds: int
    at: str
    table: int | None = None
    reason: str = ""


#: the longest reason an official gives for a pause or extra time
MAX_REASON_CHARS = 500


@register
@dataclass(frozen=True, slots=True)
class ClockPaused(ClockEvent):
    """An official stops the round's clock for the whole hall (R-tour-29): a power cut, a
    hall-wide dispute. While paused the round's time does not run — time, its reminders and
    the auto-close fall later by the paused duration — and no table starts a hand."""

    round: int
    at: str
    reason: str = ""


@register
@dataclass(frozen=True, slots=True)
class ClockResumed(ClockEvent):
    """The paused round's clock runs again (R-tour-29): its time is later by the pause."""

    round: int
    at: str
    reason: str = ""


CLOCK_EVENTS = (ClockConfigured, RoundStarted, ReminderGiven, TimeCalled, TableReported, RoundClosed,
                SeatingPublished, ExtraTime, ClockPaused, ClockResumed)


# --- the fold -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundClock:
    """One round as the clock sees it. ``time_at``: when time is (or was) up, the round's
    length after its recorded start (R-tour-21: a start recorded late — after an outage, or
    waiting for the previous round or the seating — gives the round its full time, since the
    hall learns of the start from the service)."""

    round: int
    started_at: str | None = None
    start_due: str = ""
    start_late: bool = False
    reminders: tuple[int, ...] = ()
    time_called_at: str | None = None
    policy: str | None = None
    time_called_seq: int | None = None
    reported: tuple[tuple[int, str], ...] = ()
    closed_at: str | None = None
    close_reason: str | None = None
    close_due: str = ""
    published_at: str | None = None
    #: when the round was seated again after its seating was published (R-tour-31): the
    #: publication is withdrawn (``published_at`` cleared) until the seating is published again
    unpublished_at: str | None = None
    #: extra time granted: (table, seconds) each, ``None`` for every table (R-tour-27)
    extra: tuple[tuple[int | None, int], ...] = ()
    #: the pauses ended so far, in seconds (R-tour-29); ``paused_since``: the pause under way
    paused_seconds: float = 0.0
    paused_since: str | None = None
    paused_reason: str = ""
    resumed_at: str | None = None

    @property
    def started(self) -> bool:
        return self.started_at is not None

    @property
    def closed(self) -> bool:
        return self.closed_at is not None

    @property
    def time_called(self) -> bool:
        return self.time_called_at is not None

    @property
    def reported_tables(self) -> tuple[int, ...]:
        return tuple(sorted(t for t, _ in self.reported))

    def closed_from(self) -> datetime | None:
        """When the round ended: when it was due to close (the last report), else when it was closed."""
        if self.closed_at is None:
            return None
        return parse_time(self.close_due or self.closed_at)

    def clock_from(self) -> datetime | None:
        if self.started_at is None:
            return None
        return parse_time(self.started_at)

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    def time_at(self, settings: ClockSettings, now: datetime | None = None) -> datetime | None:
        """When time is up for every table: the round's length, plus the extra time given to all,
        plus the pauses ended (R-tour-29). While paused, with ``now``: the time as if the clock ran
        again at ``now`` (without ``now``: as if the pause had ended as it began)."""
        start = self.clock_from()
        if start is None:
            return None
        extra = sum(s for t, s in self.extra if t is None)
        when = start + timedelta(seconds=settings.round_seconds + extra + self.paused_seconds)
        if self.paused and now is not None:
            when += max(now - parse_time(self.paused_since), timedelta(0))
        return when

    def seconds_left(self, settings: ClockSettings, now: datetime) -> float | None:
        """Time left at ``now`` in seconds (negative past time); frozen while paused: what was
        left when the pause began (R-tour-29)."""
        time_at = self.time_at(settings)
        if time_at is None:
            return None
        return (time_at - (parse_time(self.paused_since) if self.paused else now)).total_seconds()

    def table_time_at(self, settings: ClockSettings, table: int) -> datetime | None:
        """When time is up for one table: the round's time plus the extra time given to that table."""
        time_at = self.time_at(settings)
        extra = sum(s for t, s in self.extra if t == table)
        return None if time_at is None else time_at + timedelta(seconds=extra)

    @property
    def extended_tables(self) -> tuple[int, ...]:
        return tuple(sorted({t for t, _ in self.extra if t is not None}))


@dataclass(frozen=True, slots=True)
class ClockState:
    """What the clock's events say: the settings (``None``: no clock), when they were set,
    each round touched so far."""

    settings: ClockSettings | None = None
    configured_at: str | None = None
    rounds: tuple[RoundClock, ...] = ()

    def round(self, number: int) -> RoundClock:
        return next((r for r in self.rounds if r.round == number), RoundClock(number))

    @property
    def current(self) -> RoundClock | None:
        """The last round started (closed or not); ``None`` before the first start."""
        started = [r for r in self.rounds if r.started]
        return max(started, key=lambda r: r.round) if started else None

    @property
    def published(self) -> RoundClock | None:
        """The latest round whose seating is published."""
        shown = [r for r in self.rounds if r.published_at is not None]
        return max(shown, key=lambda r: r.round) if shown else None

    def time_left(self, now: datetime) -> timedelta | None:
        """Time left in the current round (negative past time); ``None`` with no round running."""
        current = self.current
        if self.settings is None or current is None or current.closed:
            return None
        return timedelta(seconds=current.seconds_left(self.settings, now))

    def with_round(self, clock: RoundClock) -> ClockState:
        others = tuple(r for r in self.rounds if r.round != clock.round)
        return replace(self, rounds=tuple(sorted(others + (clock,), key=lambda r: r.round)))


def _check_round(value: object, field_name: str = "round") -> int:
    if type(value) is not int or value < 1:
        raise _fail(f"{field_name} must be a round number ≥ 1, got {value!r}", f"輪次須為 1 以上的整數，收到 {value!r}",
                    field_name)
    return value


def _check_reason(reason: object) -> None:
    if not isinstance(reason, str) or len(reason) > MAX_REASON_CHARS:
        raise _fail(f"reason must be text of at most {MAX_REASON_CHARS} characters, got {reason!r}",
                    f"理由須為至多 {MAX_REASON_CHARS} 字的文字，收到 {reason!r}", "reason")


def _resumed(rnd: RoundClock, at: str) -> RoundClock:
    """The round with its pause ended at ``at``: the pause's length added to the round's time."""
    length = (parse_time(at) - parse_time(rnd.paused_since)).total_seconds()
    return replace(rnd, paused_seconds=rnd.paused_seconds + max(length, 0.0), paused_since=None, resumed_at=at)


def apply_clock(state: ClockState, event: ClockEvent, seq: int = 0) -> ClockState:
    """The clock after one more of its events.

    :raises ClockError: an event the clock does not allow now (named in the message).
    """
    if isinstance(event, ClockConfigured):
        at = event.at or None
        if at:
            parse_time(at, "at")
        return replace(state, settings=event.settings, configured_at=at or state.configured_at)
    if not isinstance(event, ClockEvent):
        return state
    if state.settings is None:
        raise _fail("the clock is not configured", "尚未設定賽事時鐘", "clock")
    number = _check_round(event.round)
    parse_time(event.at, "at")
    rnd = state.round(number)
    if isinstance(event, RoundStarted):
        if rnd.started:
            raise _fail(f"round {number} already started at {rnd.started_at}",
                        f"第 {number} 輪已於 {rnd.started_at} 開始", "round")
        if number > 1 and not state.round(number - 1).closed:
            raise _fail(f"round {number - 1} is not closed; round {number} cannot start",
                        f"第 {number - 1} 輪尚未結束，第 {number} 輪不能開始", "round")
        if event.due:
            parse_time(event.due, "due")
        return state.with_round(replace(rnd, started_at=event.at, start_due=event.due, start_late=event.late))
    if isinstance(event, SeatingPublished):
        return state.with_round(replace(rnd, published_at=event.at, unpublished_at=None))
    if not rnd.started:
        raise _fail(f"round {number} has not started", f"第 {number} 輪尚未開始", "round")
    if rnd.closed:
        raise _fail(f"round {number} is closed", f"第 {number} 輪已結束", "round")
    if isinstance(event, ReminderGiven):
        if type(event.seconds_left) is not int or event.seconds_left < 1:
            raise _fail(f"seconds_left must be ≥ 1, got {event.seconds_left!r}",
                        f"剩餘秒數須為 1 以上，收到 {event.seconds_left!r}", "seconds_left")
        if event.seconds_left in rnd.reminders:
            raise _fail(f"the {event.seconds_left} s reminder of round {number} was already given",
                        f"第 {number} 輪剩 {event.seconds_left} 秒的提醒已發出", "seconds_left")
        return state.with_round(replace(rnd, reminders=rnd.reminders + (event.seconds_left,)))
    if isinstance(event, TimeCalled):
        if rnd.time_called:
            raise _fail(f"time was already called in round {number}", f"第 {number} 輪已宣布時間到", "round")
        if rnd.paused:
            raise _fail(f"round {number} is paused since {rnd.paused_since}: resume the clock before calling time",
                        f"第 {number} 輪自 {rnd.paused_since} 起暫停：請先恢復計時再宣布時間到", "round")
        if event.policy not in AT_TIME_POLICIES:
            raise _fail(f"policy must be one of {list(AT_TIME_POLICIES)}, got {event.policy!r}",
                        f"時間到的處理須為 finish_hand 或 finish_circle，收到 {event.policy!r}", "policy")
        return state.with_round(replace(rnd, time_called_at=event.at, policy=event.policy, time_called_seq=seq))
    if isinstance(event, TableReported):
        if type(event.table) is not int or event.table < 1:
            raise _fail(f"table must be a table number ≥ 1, got {event.table!r}",
                        f"桌號須為 1 以上，收到 {event.table!r}",
                        "table")
        if event.table in rnd.reported_tables:
            raise _fail(f"table {event.table} already reported in round {number}",
                        f"第 {number} 輪第 {event.table} 桌已回報完賽", "table")
        return state.with_round(replace(rnd, reported=rnd.reported + ((event.table, event.at),)))
    if isinstance(event, RoundClosed):
        if event.reason not in (CLOSED_ALL_REPORTED, CLOSED_BY_OFFICIAL):
            raise _fail(f"reason must be all_reported or official, got {event.reason!r}",
                        f"結束原因須為 all_reported 或 official，收到 {event.reason!r}", "reason")
        if event.due:
            parse_time(event.due, "due")
        if rnd.paused:  # closed while paused: the pause ends with the round
            rnd = _resumed(rnd, event.at)
        return state.with_round(replace(rnd, closed_at=event.at, close_reason=event.reason, close_due=event.due))
    if isinstance(event, ClockPaused):
        _check_reason(event.reason)
        if rnd.time_called:
            raise _fail(f"time was already called in round {number} at {rnd.time_called_at}: there is no time left to "
                        "pause",
                        f"第 {number} 輪已於 {rnd.time_called_at} 宣布時間到：沒有剩餘時間可暫停", "round")
        if rnd.paused:
            raise _fail(f"round {number} is already paused since {rnd.paused_since}",
                        f"第 {number} 輪已自 {rnd.paused_since} 起暫停", "round")
        if parse_time(event.at) < parse_time(rnd.started_at):
            raise _fail(f"a pause at {event.at} is before round {number}'s start at {rnd.started_at}",
                        f"暫停時間 {event.at} 早於第 {number} 輪開始 {rnd.started_at}", "at")
        return state.with_round(replace(rnd, paused_since=event.at, paused_reason=event.reason))
    if isinstance(event, ClockResumed):
        _check_reason(event.reason)
        if not rnd.paused:
            raise _fail(f"round {number} is not paused", f"第 {number} 輪並未暫停", "round")
        if parse_time(event.at) < parse_time(rnd.paused_since):
            raise _fail(f"a resume at {event.at} is before the pause at {rnd.paused_since}",
                        f"恢復時間 {event.at} 早於暫停時間 {rnd.paused_since}", "at")
        return state.with_round(_resumed(rnd, event.at))
    if isinstance(event, ExtraTime):
        if type(event.seconds) is not int or not 1 <= event.seconds <= MAX_EXTRA_SECONDS:
            raise _fail(f"seconds must be 1–{MAX_EXTRA_SECONDS}, got {event.seconds!r}",
                        f"延長秒數須為 1–{MAX_EXTRA_SECONDS}，收到 {event.seconds!r}", "seconds")
        if event.table is None and rnd.time_called:
            raise _fail(f"time was already called in round {number}: give the extra time to a table",
                        f"第 {number} 輪已宣布時間到，不能延長全部各桌；請為個別桌延長", "table")
        if event.table is not None and (type(event.table) is not int or event.table < 1):
            raise _fail(f"table must be a table number ≥ 1, got {event.table!r}",
                        f"桌號須為 1 以上，收到 {event.table!r}",
                        "table")
        if event.table is not None and event.table in rnd.reported_tables:
            raise _fail(f"table {event.table} has reported its finish in round {number}",
                        f"第 {number} 輪第 {event.table} 桌已回報完賽", "table")
        return state.with_round(replace(rnd, extra=rnd.extra + ((event.table, event.seconds),)))
    raise _fail(f"not a clock event: {event!r}", f"不是時鐘事件：{event!r}")


def clock_state(records: Iterable[Record]) -> ClockState:
    """Fold the clock's events of a tournament's log (other events are passed over).

    :raises ClockError: an event that does not apply, naming its record.
    """
    state = ClockState()
    plans: dict[int, RoundPlan] = {}  # each round's seating so far (R-tour-31)
    for record in records:
        if isinstance(record.event, (RoundSeated, PlayerWithdrew)):
            state = reseated(state, record, plans)
            continue
        if not isinstance(record.event, ClockEvent):
            continue
        try:
            state = apply_clock(state, record.event, record.seq)
        except ClockError as exc:
            raise ClockError(f"record {record.seq}: {exc.message}", field=exc.field,
                             reason_zh=f"第 {record.seq} 筆：{exc.reason_zh}") from None
    return state


def reseated(state: ClockState, record: Record, plans: dict[int, RoundPlan]) -> ClockState:
    """The clock after a round was seated again (``RoundSeated``, or the rounds a withdrawal
    re-seats): a round whose seating was already published is no longer (R-tour-31) — the
    hall would show seats the players were not told of as if they had been — until it is
    published again (by hand, or by the clock when its publication is due). A seating that
    leaves every seat as it was (the same plan again, e.g. by the standings when they give
    the same tables) moves no one: its publication stands. *plans*: each round's plan so far,
    brought up to date here."""
    event = record.event
    for plan in [event.plan] if isinstance(event, RoundSeated) else event.reseated:
        rnd = state.round(plan.round)
        if rnd.published_at is not None and plans.get(plan.round) != plan:
            state = state.with_round(replace(rnd, published_at=None, unpublished_at=record.at or rnd.published_at))
        plans[plan.round] = plan
    return state


def check_tables(event_state: EventState, events: Sequence[ClockEvent]) -> None:
    """Clock events that name a round or table the event does not have are refused."""
    rounds = event_state.settings.rounds if event_state.settings else 0
    for event in events:
        number = getattr(event, "round", None)
        if number is None:
            continue
        if type(number) is int and number > rounds:
            raise _fail(f"the event has {rounds} rounds, not {number}", f"賽事共 {rounds} 輪，沒有第 {number} 輪",
                        "round")
        if isinstance(event, (RoundStarted, SeatingPublished)) and event_state.round(number) is None:
            raise _fail(f"round {number} is not seated yet", f"第 {number} 輪尚未排座位", "round")
        if isinstance(event, TableReported) or (isinstance(event, ExtraTime) and event.table is not None):
            plan = event_state.round(number)
            tables = [t.table for t in plan.tables] if plan else []
            if event.table not in tables:
                raise _fail(f"round {number} has no table {event.table}", f"第 {number} 輪沒有第 {event.table} 桌",
                            "table")


# --- what is due --------------------------------------------------------------------------

START, REMIND, CALL_TIME, REPORT, CLOSE, PUBLISH = "start", "remind", "call_time", "report", "close", "publish"
_KIND_ORDER = {REPORT: 0, CLOSE: 1, PUBLISH: 2, START: 3, REMIND: 4, CALL_TIME: 5}

#: ``dealer_of(round, table, match)``: a 將's first dealer (起莊位) by its recorded 定莊, or ``None``
DealerOf = Callable[[int, int, int], "int | None"]


@dataclass(frozen=True, slots=True)
class Action:
    """Something the clock does at ``due_at``: start a round, give a reminder, call time,
    close a round, publish a round's seating."""

    kind: str
    round: int
    due_at: datetime
    seconds_left: int | None = None
    table: int | None = None

    def sort_key(self) -> tuple:
        return self.due_at, self.round, _KIND_ORDER[self.kind], -(self.seconds_left or 0), self.table or 0

    def event(self, state: ClockState, now: datetime, late: bool = False) -> ClockEvent:
        """The event recording this action done at ``now``."""
        at, due_text = format_time(now), format_time(self.due_at)
        if self.kind == START:
            return RoundStarted(self.round, at, due_text, late)
        if self.kind == REMIND:
            return ReminderGiven(self.round, self.seconds_left, at, due_text, late)
        if self.kind == CALL_TIME:
            return TimeCalled(self.round, at, state.settings.at_time, due_text, late)
        if self.kind == REPORT:
            return TableReported(self.round, self.table, at, derived=True)
        if self.kind == CLOSE:
            return RoundClosed(self.round, at, CLOSED_ALL_REPORTED, due_text, late)
        return SeatingPublished(self.round, at, due_text, late)


def table_finished(event_state: EventState, round_no: int, table: int, dealer_of: DealerOf) -> bool:
    """Has the table played every 將 of the round to its end (``app.rounds``: past the North
    round)? Read from its recorded hands and each 將's first dealer (R-tour-23); ``False``
    when a 將's 定莊 is not recorded (only a report can say then)."""
    matches = event_state.settings.matches_per_round if event_state.settings else 1
    for match in range(1, matches + 1):
        first = dealer_of(round_no, table, match)
        if first is None:
            return False
        results = [h.result for h in sorted(event_state.hands, key=lambda h: h.key)
                   if h.key[:3] == (round_no, table, match)]
        try:
            if not match_from_results(first, results, max_streak=event_max_streak(event_state.settings)).over:
                return False
        except MatchError:  # a hand past the North round: the 將 is over all the more
            continue
    return True


def pending(state: ClockState, event_state: EventState, dealer_of: DealerOf | None = None) -> list[Action]:
    """Every action the clock will take by itself from this state, each at its time (past
    or future), earliest first; reminders already passed over are not listed. Actions that
    depend on others (a round's reminders on its start) appear once those are recorded.
    With ``dealer_of``, a table whose hands show every 將 over is reported (derived)."""
    settings = state.settings
    if settings is None or event_state.settings is None:
        return []
    actions: list[Action] = []
    configured = parse_time(state.configured_at) if state.configured_at else None
    for number in range(1, event_state.settings.rounds + 1):
        rnd = state.round(number)
        plan = event_state.round(number)
        previous = state.round(number - 1) if number > 1 else None
        previous_close = previous.closed_from() if previous is not None else None
        start = settings.start_of(number)
        if plan is not None and rnd.published_at is None:
            if settings.publish == PUBLISH_BEFORE_START and start is not None:
                when = start - timedelta(seconds=settings.publish_before_seconds)
            else:
                when = previous_close if number > 1 else configured
            if rnd.started:  # the hall must see a round's seating once it is under way
                started = parse_time(rnd.started_at)
                when = started if when is None else min(when, started)
            if when is not None:
                actions.append(Action(PUBLISH, number, when))
        if not rnd.started:
            if plan is not None and start is not None and (number == 1 or previous_close is not None):
                actions.append(Action(START, number, max(start, previous_close) if previous_close else start))
            continue
        if rnd.closed:
            continue
        time_at = rnd.time_at(settings)
        if rnd.paused:  # the round's time stands still: nothing falls due by it until it runs again (R-tour-29)
            time_at = None
        if not rnd.time_called and time_at is not None:
            given = min(rnd.reminders, default=None)
            for left in settings.reminders:
                if left < settings.round_seconds and (given is None or left < given):
                    actions.append(Action(REMIND, number, time_at - timedelta(seconds=left), left))
            actions.append(Action(CALL_TIME, number, time_at))
        if dealer_of is not None and plan is not None:
            for t in plan.tables:
                if t.table not in rnd.reported_tables and table_finished(event_state, number, t.table, dealer_of):
                    actions.append(Action(REPORT, number, parse_time(rnd.started_at), table=t.table))
        if settings.auto_close and plan is not None and not rnd.paused:
            tables = {t.table for t in plan.tables}
            if tables and tables <= set(rnd.reported_tables):
                last = max(parse_time(at) for t, at in rnd.reported if t in tables)
                # a last report during a pause closes the round when the clock runs again (R-tour-29)
                resumed = parse_time(rnd.resumed_at) if rnd.resumed_at else last
                actions.append(Action(CLOSE, number, max(last, resumed, parse_time(rnd.started_at))))
    return sorted(actions, key=Action.sort_key)


def _due_now(state: ClockState, event_state: EventState, now: datetime, dealer_of: DealerOf | None) -> Action | None:
    ready = [a for a in pending(state, event_state, dealer_of) if a.due_at <= now]
    if not ready:
        return None
    first = ready[0]
    if first.kind == REMIND:
        # of the reminders passed, only the nearest to time is given; none once time is up
        rnd = state.round(first.round)
        if rnd.time_at(state.settings) <= now:
            return next(a for a in ready if a.kind == CALL_TIME and a.round == first.round)
        passed = [a for a in ready if a.kind == REMIND and a.round == first.round]
        return min(passed, key=lambda a: a.seconds_left)
    return first


def due(state: ClockState, event_state: EventState, now: datetime, *,
        tolerance: timedelta = timedelta(seconds=5), dealer_of: DealerOf | None = None) -> list[ClockEvent]:
    """The clock's events due at ``now``, in the order they happen, each recorded at ``now``
    and marked late when its time passed more than ``tolerance`` ago (a catch-up).

    Deterministic: the same log and ``now``, the same events; once they are recorded,
    :func:`due` at the same ``now`` gives none of them again.
    """
    if now.tzinfo is None:
        raise _fail("now needs a time zone", "now 須含時區", "now")
    out: list[ClockEvent] = []
    tables = sum(len(r.tables) for r in event_state.rounds)
    for _ in range(8 * (len(event_state.rounds) + 2) + tables
                   + 8 * len(state.settings.reminders if state.settings else ())):
        action = _due_now(state, event_state, now, dealer_of)
        if action is None:
            break
        event = action.event(state, now, late=action.kind != REPORT and now - action.due_at > tolerance)
        state = apply_clock(state, event)
        out.append(event)
    return out


def next_due(state: ClockState, event_state: EventState, now: datetime,
             dealer_of: DealerOf | None = None) -> datetime | None:
    """The earliest time after ``now`` at which something will be due (``None``: nothing
    will be by itself) — when the service should look again."""
    times = [a.due_at for a in pending(state, event_state, dealer_of) if a.due_at > now]
    return min(times) if times else None


# --- the tables under the clock -----------------------------------------------------------


def match_from_results(first_dealer: int, results: Iterable[HandResult], *, max_streak: int = 0) -> MatchState:
    """A 將's :class:`MatchState` from its recorded results and its 起莊位 (the log's
    results do not carry the dealer: the caller knows the first dealer). A hand ruled by a
    penalty keeps the dealer without counting a streak (the ruling is not in the result).
    *max_streak* is the event ruleset's 連莊上限 (``seat.max_streak``)."""
    state = start_match(first_dealer, max_streak=max_streak)
    for result in results:
        winners = tuple(w.seat for w in result.wins)
        ruling = DealerRuling(True, False) if result.penalty is not None else None
        state = state.advance(HandOutcome(state.dealer, winners=winners, ruling=ruling))
    return state


def may_start_hand(state: ClockState, round_no: int, now_match: MatchState,
                   at_call: MatchState | None = None, *, table: int | None = None, now: datetime | None = None) -> bool:
    """May a table of round ``round_no`` start another hand of its 將 (R-tour-20)?

    ``now_match``: the 將 after every hand recorded; ``at_call``: the 將 as it stood when
    time was called (after the hands finished before the call: its round wind is the 圈 in
    play), ``None`` when the table was not in a 將 then.

    Not before the round starts, never after it closes, while it is paused (R-tour-29) or once
    the 將 is over. Before time:
    yes. A ``table`` given extra time (R-tour-27) plays on as before time while ``now`` is before
    its own time. After time, ``finish_hand``: no (the hand in play at the call is finished and
    recorded, none starts after it). ``finish_circle``: while the 圈風 marker still shows
    the wind of the 圈 in play at the call (``app.rounds``, ``seat.dealer``).
    """
    rnd = state.round(round_no)
    if not rnd.started or rnd.closed or now_match.over or rnd.paused:  # paused: the hall waits (R-tour-29)
        return False
    if not rnd.time_called:
        return True
    if table is not None and now is not None and state.settings is not None and table in rnd.extended_tables \
            and now < rnd.table_time_at(state.settings, table):
        return True  # held up by a dispute: its extra time runs on after the round's (R-tour-27)
    if rnd.policy == FINISH_HAND or at_call is None or at_call.over:
        return False
    return (now_match.first_dealer == at_call.first_dealer and now_match.hands >= at_call.hands
            and now_match.round_wind == at_call.round_wind)


def table_may_start_hand(records: Sequence[Record], state: ClockState, round_no: int, table: int, match: int,
                         first_dealer: int) -> bool:
    """:func:`may_start_hand` for a table's 將 from the log: its results in effect, the hands
    recorded before the :class:`TimeCalled` record giving the 將 at the call."""
    where = (round_no, table, match)
    recorded: dict[int, int] = {}
    for record in records:  # a hand's last HandRecorded is the one in effect (an earlier one was reverted)
        event = record.event
        if isinstance(event, HandRecorded) and tuple(event.key[:3]) == where:
            recorded[event.key[3]] = record.seq
    event_state = replay(records)
    cap = event_max_streak(event_state.settings)
    hands = sorted((h for h in event_state.hands if h.key[:3] == where), key=lambda h: h.key)
    now_match = match_from_results(first_dealer, [h.result for h in hands], max_streak=cap)
    called = state.round(round_no).time_called_seq
    at_call = None
    if called is not None:
        at_call = match_from_results(first_dealer, [h.result for h in hands if recorded.get(h.key[3], h.seq) < called],
                                     max_streak=cap)
    return may_start_hand(state, round_no, now_match, at_call)


__all__ = [
    "AT_TIME_POLICIES", "Action", "CLOCK_EVENTS", "ClockConfigured", "ClockError", "ClockEvent", "ClockSettings",
    "ClockPaused", "ClockResumed", "ClockState", "ExtraTime", "MAX_REASON_CHARS", "FINISH_CIRCLE", "MAX_EXTRA_SECONDS",
    "FINISH_HAND", "PUBLISH_BEFORE_START", "PUBLISH_ON_CLOSE", "ReminderGiven",
    "RoundClock", "RoundClosed", "RoundStarted", "SeatingPublished", "TableReported", "TimeCalled", "apply_clock",
    "check_tables", "clock_state", "due", "format_time", "match_from_results", "may_start_hand", "next_due",
    "parse_time", "pending", "table_finished", "table_may_start_hand",
]

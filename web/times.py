"""Times on the pages as people read them: in the event's time zone, ``16:38`` on the day,
``12月1日 16:38`` on another — never raw ISO (the ``<time datetime>`` attribute keeps that).

``TIME_ZONE`` (app config, env ``MJREF_TIME_ZONE``): an IANA zone name, default ``Asia/Taipei``.
"""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import g

DEFAULT_TIME_ZONE = "Asia/Taipei"
#: the zones the setup page offers first (any IANA name is accepted)
ZONES = ("Asia/Taipei", "Asia/Hong_Kong", "Asia/Shanghai", "Asia/Singapore", "Asia/Kuala_Lumpur", "Asia/Tokyo",
         "America/Los_Angeles", "America/New_York", "America/Toronto", "Europe/London", "Europe/Paris",
         "Australia/Sydney", "UTC")


class TimeZoneError(ValueError):
    """A ``TIME_ZONE`` setting that names no zone (named in the message)."""


def time_zone(name: str | None) -> ZoneInfo:
    """The zone called ``name`` (``None``/empty: Asia/Taipei).

    :raises TimeZoneError: no such zone.
    """
    try:
        return ZoneInfo(name or DEFAULT_TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        raise TimeZoneError(f"TIME_ZONE is not a time zone name (e.g. Asia/Taipei): {name!r}") from None


def show_in(settings) -> None:
    """This request's pages show times in the event's zone (``settings.time_zone``), when it names one."""
    name = getattr(settings, "time_zone", None)
    g.time_zone = time_zone(name) if name else None


def local_time(when: datetime | str | None, zone: ZoneInfo, now: datetime) -> str:
    """``when`` (aware, or ISO 8601 with its offset) in ``zone``: ``HH:MM`` on ``now``'s day
    there, ``M月D日 HH:MM`` on another; ``""`` for ``None``."""
    if when is None:
        return ""
    if isinstance(when, str):
        when = datetime.fromisoformat(when.replace("Z", "+00:00"))
    here = when.astimezone(zone)
    clock = f"{here.hour:02d}:{here.minute:02d}"
    if here.date() == now.astimezone(zone).date():
        return clock
    return f"{here.month}月{here.day}日 {clock}"


def minutes_left(seconds: int | None) -> str:
    """「剩 12 分」: the time left in whole minutes, rounded up (``剩不到 1 分`` under a minute)."""
    if seconds is None:
        return ""
    if seconds <= 0:
        return "時間到"
    if seconds < 60:
        return "剩不到 1 分"
    return f"剩 {-(-seconds // 60)} 分"


def ago(seconds: float) -> tuple[str, str]:
    """How long ago, as people say it: 「剛剛」, 「40 秒前」, 「3 分鐘前」, 「2 小時前」, 「3 天前」
    (zh-TW, English); whole units, rounded down; a time ahead of ``now`` (clocks apart) is 「剛剛」."""
    s = int(seconds)
    if s < 10:
        return "剛剛", "just now"
    if s < 60:
        return f"{s} 秒前", f"{s} s ago"
    if s < 3600:
        return f"{s // 60} 分鐘前", f"{s // 60} min ago"
    if s < 86400:
        return f"{s // 3600} 小時前", f"{s // 3600} h ago"
    return f"{s // 86400} 天前", f"{s // 86400} days ago"


__all__ = ["DEFAULT_TIME_ZONE", "ZONES", "show_in", "TimeZoneError", "ago", "local_time", "minutes_left", "time_zone"]

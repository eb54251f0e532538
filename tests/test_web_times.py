"""Times on the pages (web/times.py): the event's zone, for people, never raw ISO."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from app import create_app
from web.times import TimeZoneError, local_time, minutes_left, time_zone

TAIPEI = time_zone(None)
NOW = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)  # 16:00 in Taipei


@pytest.mark.parametrize("when, shown", [
    ("2026-12-01T08:38:38.407000+00:00", "16:38"),  # the example
    ("2026-12-01T16:30:00Z", "12月2日 00:30"),  # past midnight in Taipei: another day
    ("2026-12-01T09:05:00+08:00", "09:05"),
    (datetime(2026, 11, 30, 15, 59, tzinfo=timezone.utc), "11月30日 23:59"),  # the day before in Taipei
    (None, ""),
])
def test_local_time(when, shown):
    assert local_time(when, TAIPEI, NOW) == shown


def test_another_zone():
    assert local_time("2026-12-01T08:38:00Z", time_zone("Europe/London"), NOW) == "08:38"


@pytest.mark.parametrize("seconds, shown", [(720, "剩 12 分"), (661, "剩 12 分"), (59, "剩不到 1 分"), (0, "時間到"),
                                            (None, "")])
def test_minutes_left(seconds, shown):
    assert minutes_left(seconds) == shown


def test_a_bad_zone_is_named_when_the_app_starts(tmp_path):
    with pytest.raises(TimeZoneError, match="Asia/Taipe'"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "z.sqlite3"), "TIME_ZONE": "Asia/Taipe"})

"""The app's one clock (tournament.clocksource): injected by config, read by the clock API,
the pages and the scheduler; no test depends on today's date."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app import create_app
from tests.servicekit import bearer, make_token
from tournament.clocksource import ClockSourceError, FixedClock, OffsetClock, SystemClock, clock_from_config

AT = datetime(2031, 5, 4, 3, 2, 1, tzinfo=timezone.utc)


def test_the_config_chooses_the_clock():
    assert isinstance(clock_from_config({}), SystemClock)
    fixed = FixedClock(AT)
    assert clock_from_config({"CLOCK": fixed}) is fixed
    shifted = clock_from_config({"CLOCK_OFFSET_SECONDS": "-86400"})
    assert isinstance(shifted, OffsetClock) and shifted.offset == timedelta(days=-1)
    assert abs(shifted.now() - (datetime.now(timezone.utc) - timedelta(days=1))) < timedelta(seconds=5)


@pytest.mark.parametrize("config, word", [
    ({"CLOCK": "2026-12-01"}, "now()"), ({"CLOCK_OFFSET_SECONDS": "soon"}, "number"),
    ({"CLOCK_OFFSET_SECONDS": "nan"}, "century"), ({"CLOCK_OFFSET_SECONDS": 1e300}, "century")])
def test_a_bad_clock_setting_is_named(config, word):
    with pytest.raises(ClockSourceError, match=word):
        clock_from_config(config)


def test_fixed_and_offset_clocks():
    fixed = FixedClock(AT)
    assert fixed.now() == AT and fixed.advance(90) == AT + timedelta(seconds=90) == fixed.now()
    with pytest.raises(ClockSourceError, match="aware"):
        FixedClock(datetime(2031, 5, 4))
    started = OffsetClock.starting_at(AT)
    assert timedelta(0) <= started.now() - AT < timedelta(seconds=5)
    assert repr(fixed).startswith("FixedClock(")


def test_the_clock_api_reads_the_apps_clock(tmp_path):
    from tests.test_clocks_service import seed

    clock = FixedClock(AT)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite3"), "CLOCK": clock})
    seed(app.config["DATABASE"])
    official = bearer(make_token(app.config["DATABASE"], "official"))
    client = app.test_client()
    first = (AT + timedelta(hours=1)).isoformat()
    body = client.put("/api/v1/tournaments/t1/clock", headers=official,
                      json={"round_seconds": 600, "first_start": first, "interval_seconds": 3600}).get_json()
    assert body["now"] == "2031-05-04T03:02:01.000Z" and body["next_due"]["at"] == "2031-05-04T04:02:01.000Z"
    clock.advance(3600)
    started = client.post("/api/v1/tournaments/t1/clock/start", json={}, headers=official).get_json()
    assert started["round"]["started_at"] == "2031-05-04T04:02:01.000Z" and started["round"]["seconds_left"] == 600
    clock.advance(150)
    assert client.get("/api/v1/tournaments/t1/clock", headers=official).get_json()["round"]["seconds_left"] == 450

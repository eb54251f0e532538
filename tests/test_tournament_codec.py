"""tournament.codec: every event round-trips through JSON; bad dicts name the field."""
from __future__ import annotations

import json

import pytest

from referee.tiles import Wind
from tournament.codec import EVENT_TYPES, decode, encode
from tournament.errors import EventLogError
from tournament.events import (EventCreated, EventSettings, HandCorrected, HandRecorded, MatchSeated, PlayerRegistered,
                               PlayerWithdrew, Reverted, RoundSeated, SubstituteSeated)
from tournament.results import HandResult, Win
from tournament.schedule import make_schedule
from tournament.seating import Seating

PLAYERS = [f"p{i}" for i in range(16)]
SCHEDULE = make_schedule(PLAYERS, 3)
EVENTS = [
    EventCreated(EventSettings("測試盃", 3, round_minutes=90)),
    PlayerRegistered("p0", "王小明"),
    PlayerRegistered("s1", "替補一", substitute=True),
    RoundSeated(SCHEDULE.rounds[0]),
    MatchSeated(1, 1, 1, Seating(SCHEDULE.rounds[0].tables[0].seats, east=2)),
    HandRecorded((1, 1, 1, 1), HandResult((-260, 260, 0, 0), (Win(1, 8, deal_in=0),))),
    HandCorrected((1, 1, 1, 1), HandResult((-100, 300, -100, -100), (Win(1, 8),)), "自摸誤記為放槍"),
    Reverted(6, "更正有誤"),
    SubstituteSeated(1, 1, Wind.NORTH, "s1"),
    PlayerWithdrew("p3", 2, (SCHEDULE.rounds[1],), "身體不適"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_round_trip_through_json(event):
    data = json.loads(json.dumps(encode(event), ensure_ascii=False))
    assert data["type"] == type(event).__name__
    assert decode(data) == event


def test_every_core_event_type_is_covered():
    assert {type(e).__name__ for e in EVENTS} <= set(EVENT_TYPES)
    assert {type(e).__name__ for e in EVENTS} >= {"EventCreated", "PlayerRegistered", "RoundSeated", "SubstituteSeated",
                                                 "MatchSeated", "HandRecorded", "HandCorrected", "PlayerWithdrew",
                                                 "Reverted"}


@pytest.mark.parametrize("data, field", [
    ({"type": "Nope"}, "type"),
    ("HandRecorded", "event"),
    ({"type": "HandRecorded", "key": [1, 1, 1], "result": {"payments": [0, 0, 0, 0]}}, "key"),
    ({"type": "HandRecorded", "key": [1, 1, 1, 1], "result": {"payments": [1, 0, 0, 0]}}, "result.payments"),
    ({"type": "HandRecorded", "key": [1, 1, 1, 1],
      "result": {"payments": [0, 0, 0, 0], "wins": [{"seat": 1, "tai": -1}]}},
     "result.wins[0].tai"),
    ({"type": "Reverted", "seq": "3", "reason": "x"}, "seq"),
    ({"type": "Reverted", "seq": True, "reason": "x"}, "seq"),
    ({"type": "Reverted", "seq": 3}, "reason"),
    ({"type": "Reverted", "seq": 3, "reason": "x", "extra": 1}, "extra"),
    ({"type": "SubstituteSeated", "round": 1, "table": 1, "wind": "XX", "player_id": "a"}, "wind"),
])
def test_bad_input_names_the_field(data, field):
    with pytest.raises(EventLogError) as caught:
        decode(data)
    assert caught.value.field == field
    assert caught.value.reason_zh


def test_the_store_refuses_an_event_that_would_not_read_back(tmp_path):
    """A plain int where a Wind belongs folds (IntEnum) but would be stored as ``2`` and break
    every later read of the log: append_events refuses it and writes nothing."""
    from store.db import connect, init_db
    from store.tournaments import append_events, create_tournament, load_records

    path = tmp_path / "t.sqlite3"
    init_db(path)
    db = connect(path)
    create_tournament(db, "t1", name="測試")
    players = PLAYERS[:15]  # one 替補 seat
    plan = make_schedule(players, 1).rounds[0]
    table, wind = next((t.table, w) for t in plan.tables for w, p in enumerate(t.seats) if p is None)
    with db.conn:
        append_events(db, "t1", [EventCreated(EventSettings("測試盃", 1)), *(PlayerRegistered(p, p) for p in players),
                                 PlayerRegistered("s1", "替補一", substitute=True), RoundSeated(plan)])
    before = load_records(db, "t1")
    with pytest.raises(EventLogError) as caught, db.conn:
        append_events(db, "t1", [SubstituteSeated(1, table, wind, "s1")])  # wind an int, not a Wind
    assert caught.value.field == "wind"
    assert load_records(db, "t1") == before
    with db.conn:
        append_events(db, "t1", [SubstituteSeated(1, table, Wind(wind), "s1")])
    assert load_records(db, "t1")[-1].event == SubstituteSeated(1, table, Wind(wind), "s1")

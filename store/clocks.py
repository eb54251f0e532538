"""The clocks' reads of the tournament log (issue #7, :mod:`clocks`)."""
from __future__ import annotations

import sqlite_utils


def clocked_tournaments(db: sqlite_utils.Database) -> list[str]:
    """The tournaments whose log has a clock configured (a ``ClockConfigured`` record)."""
    return [r[0] for r in db.execute("SELECT DISTINCT tournament_id FROM tournament_events "
                                     "WHERE type = 'ClockConfigured' ORDER BY tournament_id")]


def tournament_ids(db: sqlite_utils.Database) -> list[str]:
    """Every tournament's id (the results sync looks at each)."""
    return [r[0] for r in db.execute("SELECT id FROM tournaments ORDER BY id")]

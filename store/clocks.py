"""The clocks' reads of the tournament log (issue #7, :mod:`clocks`)."""
from __future__ import annotations

from store.tables import Database


def clocked_tournaments(db: Database) -> list[str]:
    """The tournaments whose log has a clock configured (a ``ClockConfigured`` record)."""
    return [r[0] for r in db.execute("SELECT DISTINCT tournament_id FROM tournament_events "
                                     "WHERE type = 'ClockConfigured' ORDER BY tournament_id")]


def linked_tournaments(db: Database) -> list[str]:
    """The tournaments with referee tables linked to them (``TableLinked``): the results sync's."""
    return [r[0] for r in db.execute("SELECT DISTINCT tournament_id FROM tournament_events "
                                     "WHERE type = 'TableLinked' ORDER BY tournament_id")]

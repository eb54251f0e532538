"""Who sits at a referee table's seats, for the words an official reads out (issue #13 item 4).

A referee table linked to a tournament's 將 (:class:`tournament.provenance.TableLinked`)
plays that 將's seating: referee seat ``s`` is the player at
:meth:`tournament.events.EventState.seats` ``[s]`` (``services/tournament_results.py``).
An official may also write the names at the table on the console (``seat_names``,
:mod:`store.pins`); a name written there wins for its seat (a substitute sat down, the
plan was wrong), the 將's seating fills the others (``docs/rulings.md``, 「裁定中的稱呼」).

:func:`table_names` is read when a hand starts (live ingest, a replay from the log): the
hand's rulings name the players who sit at it then.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from store import pins as pin_store
from store import tournaments as tstore
from tournament.errors import TournamentError
from tournament.events import replay
from tournament.provenance import fold

Names = tuple[str | None, str | None, str | None, str | None]


def tournament_names(db: Any, table: Mapping[str, Any]) -> Names | None:
    """The players at *table*'s seats by its tournament 將's seating, or None (no tournament,
    not linked, no seating yet). Read once per hand (the log's records are decoded once,
    :func:`store.tournaments.load_records`; replayed only for a linked table)."""
    tid = table.get("tournament")
    if tid is None:
        return None
    records = tstore.load_records(db, tid)
    link = fold(records).links.get(table["id"]) if records else None
    if link is None:
        return None
    state = replay(records)
    try:
        seats = state.seats(*link)
    except TournamentError:
        return None  # the round is not seated (yet)
    names = []
    for pid in seats:
        player = state.player(pid) if pid is not None else None
        names.append(player.name if player is not None else None)
    return (names[0], names[1], names[2], names[3])


def table_names(db: Any, table: Mapping[str, Any]) -> Names | None:
    """The players at *table*'s seats (module docstring): the console's names, the 將's
    seating where the console has none; None when no seat has a name."""
    written = pin_store.seat_names(db, table["id"])
    planned = tournament_names(db, table) or (None, None, None, None)
    names = tuple((w or "").strip() or p or None for w, p in zip(written, planned))
    return names if any(names) else None  # type: ignore[return-value]


__all__ = ["Names", "table_names", "tournament_names"]

"""The log's side events the pages read: the clocks' (:mod:`tournament.clock`) and where
seats and results came from (:mod:`tournament.provenance`, the 搬風 and 定莊 draws).

Both modules are other engineers'; the clock is imported guarded. Importing them registers their
events with :mod:`tournament.codec`: a log holding them can be decoded only after that, so
:func:`register` runs before every read of a log.
"""
from __future__ import annotations

import importlib
from types import ModuleType

MODULES = ("tournament.clock", "tournament.provenance")


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def register() -> None:
    """Import the side events' modules (those present), so that the codec knows their events."""
    for name in MODULES:
        _module(name)


def first_dealers(provenance) -> dict[tuple[int, int, int], int]:
    """(round, table, 將) → the 將's first dealer (起莊位, by physical seat) from its recorded
    定莊 throw (``seat.dealer``), from the log's side events folded by
    :func:`tournament.provenance.fold`."""
    return {key: drawn.dealer_draw.dealer for key, drawn in provenance.draws.items()}

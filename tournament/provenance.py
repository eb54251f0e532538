"""Where a tournament's seats and results came from: side events kept in the same log.

:func:`tournament.events.replay` passes over them (they are :class:`SideEvent`); the
service folds them itself (:func:`fold`) to know

* :class:`TableLinked` — which referee table (issue #6, created through the tables API
  with the tournament's id) plays which (round, table, 將). Its seats are the 將's
  physical seats: referee seat ``s`` is the player at ``EventState.seats(...)[s]``.
* :class:`RefereeHandSynced` — a referee hand already recorded as a tournament hand
  (``key``): syncing the referee's results again records it no second time.
* :class:`ScorerEntered` — the table scorer's 台 items behind a recorded or corrected hand
  (:mod:`tournament.entry`), for the audit trail: the payments are the hand record's.
* :class:`MatchDrawn` — the 搬風 draws and the 定莊 throw behind a :class:`MatchSeated`
  (``seat.banfeng``, ``seat.dealer``): recorded at a physical table or generated, kept
  for the audit trail; ``generated`` says which.

Registered with :mod:`tournament.codec` on import.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from . import codec
from .events import Record, SideEvent
from .entry import ScorerEntry
from .seating import DealerDraw, SeatDraw


@codec.register
@dataclass(frozen=True, slots=True)
class TableLinked(SideEvent):
    table_id: str
    round: int
    table: int
    match: int = 1


@codec.register
@dataclass(frozen=True, slots=True)
class RefereeHandSynced(SideEvent):
    table_id: str
    hand: int
    key: tuple[int, int, int, int]


@codec.register
@dataclass(frozen=True, slots=True)
class MatchDrawn(SideEvent):
    round: int
    table: int
    match: int
    draws: tuple[SeatDraw, ...]
    dealer_draw: DealerDraw
    generated: bool = False


@codec.register
@dataclass(frozen=True, slots=True)
class ScorerEntered(SideEvent):
    key: tuple[int, int, int, int]
    entry: ScorerEntry


@codec.register
@dataclass(frozen=True, slots=True)
class HouseArrangement(SideEvent):
    """A typed hand whose payments do not follow its 台 and the stakes, entered so on purpose,
    with the reason (tournament.typed): written right after its HandRecorded / HandCorrected."""

    key: tuple[int, int, int, int]
    reason: str


@codec.register
@dataclass(frozen=True, slots=True)
class CutDecided(SideEvent):
    """An official's decision of a tie at the 四取一 / 四取二 cut that the tie-break chain could
    not break (R-tour-10): who of the tied players goes on, and why. A later decision for the
    same table and cut replaces it."""

    round: int
    table: int
    take: int
    advancing: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Provenance:
    """The side events folded: links both ways, the synced referee hands, the draws."""

    links: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    linked: dict[tuple[int, int, int], str] = field(default_factory=dict)
    synced: dict[tuple[str, int], tuple[int, int, int, int]] = field(default_factory=dict)
    draws: dict[tuple[int, int, int], MatchDrawn] = field(default_factory=dict)
    #: record seq → the scorer's entry it was entered with
    entries: dict[int, ScorerEntered] = field(default_factory=dict)
    #: record seq → the house arrangement a typed hand was entered with
    arrangements: dict[int, HouseArrangement] = field(default_factory=dict)
    #: (round, table, take) → the official's decision of a tie at that cut
    cuts: dict[tuple[int, int, int], CutDecided] = field(default_factory=dict)

    def entry_with(self, seq: int, key) -> ScorerEntered | None:
        """The scorer's entry written with the hand record *seq* of hand *key* (the API
        appends it right after that record), if any."""
        entered = self.entries.get(seq + 1)
        return entered if entered is not None and tuple(entered.key) == tuple(key) else None

    def arrangement_with(self, seq: int, key) -> HouseArrangement | None:
        """The house arrangement written with the hand record *seq* of hand *key*, if any."""
        arranged = self.arrangements.get(seq + 1)
        return arranged if arranged is not None and tuple(arranged.key) == tuple(key) else None

    def dealer_of(self, round_no: int, table: int, match: int) -> int | None:
        """The 將's first dealer by its 定莊 throw, if recorded."""
        drawn = self.draws.get((round_no, table, match))
        return drawn.dealer_draw.dealer if drawn else None


def fold(records: Iterable[Record], base: Provenance | None = None) -> Provenance:
    """The side events of a log (a later :class:`MatchDrawn` replaces an earlier one); with
    ``base``, of the log ``base`` was folded from followed by ``records`` (``base`` unchanged)."""
    out = Provenance(*(dict(getattr(base, f.name)) for f in fields(Provenance))) if base is not None else Provenance()
    for record in records:
        e = record.event
        if isinstance(e, TableLinked):
            out.links[e.table_id] = (e.round, e.table, e.match)
            out.linked[(e.round, e.table, e.match)] = e.table_id
        elif isinstance(e, RefereeHandSynced):
            out.synced[(e.table_id, e.hand)] = tuple(e.key)
        elif isinstance(e, MatchDrawn):
            out.draws[(e.round, e.table, e.match)] = e
        elif isinstance(e, ScorerEntered):
            out.entries[record.seq] = e
        elif isinstance(e, HouseArrangement):
            out.arrangements[record.seq] = e
        elif isinstance(e, CutDecided):
            out.cuts[(e.round, e.table, e.take)] = e
    return out


__all__ = ["CutDecided", "HouseArrangement", "MatchDrawn", "Provenance", "RefereeHandSynced", "ScorerEntered",
           "TableLinked", "fold"]

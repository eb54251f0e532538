"""Hand results from the referee's tables into a tournament's log (no request context needed).

A referee table (issue #6) created with ``"tournament": <id>`` and linked to a (round,
table, 將) by a :class:`tournament.provenance.TableLinked` record plays that 將: referee
seat ``s`` is the 將's physical seat ``s``. :func:`sync_table_results` records every
closed hand of such tables not yet in the log as a ``HandRecorded`` (with a
``RefereeHandSynced`` beside it, which makes the sync idempotent), in the referee's hand
order, numbered after the 將's hands already recorded.

* the payments are the hand's projected money (``store.tables.hands``: overrides applied);
  the wins, their 台 and discarders come from the stored outcome
  (:meth:`tournament.results.HandResult.from_outcome`, ``settle.formula``);
* when an override or a penalty (issue #5) makes the money disagree with the wins, the
  result is kept as ruled by that penalty (its clause, or ``override``), which only has to
  sum to zero;
* a void hand (the stream stopped, ``OutcomeKind.VOID``) is no hand of the 將 and is
  skipped; the first hand still open stops that table's sync;
* a win the referee could not score (the hand never shown) stops the table's sync and is
  reported (:class:`UnscoredHand`): the scorer enters it by 台 items (or typed) naming
  ``referee_hand``, which marks it synced, and the next sync goes on from there.

Call it inside the writer's transaction — ``get_writer().submit(lambda tx:
sync_table_results(tx.db, tid))`` — the clocks' periodic job does so.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from store import tables as table_store
from store import tournaments as tstore
from store.tables import Database
from tournament.errors import TournamentError
from tournament.events import HandRecorded, Record, replay
from tournament.provenance import RefereeHandSynced, fold
from tournament.results import HandResult

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SyncProblem:
    """A referee hand that could not be recorded, and why (the table's later hands wait)."""

    table_id: str
    hand: int
    field: str | None
    detail: str
    detail_zh: str

    def to_dict(self) -> dict:
        return {"table_id": self.table_id, "hand": self.hand, "field": self.field, "detail": self.detail,
                "detail_zh": self.detail_zh}


@dataclass(slots=True)
class SyncReport:
    recorded: list[Record] = field(default_factory=list)
    problems: list[SyncProblem] = field(default_factory=list)


def _outcome(stored: dict) -> Any:
    """The stored outcome dict (``Outcome.to_dict``) as what ``from_outcome`` reads."""
    wins = [SimpleNamespace(claim=SimpleNamespace(seat=w["seat"], discarder=w.get("discarder")),
                            score=SimpleNamespace(tai=w["score"]["tai"]) if w.get("score") else None)
            for w in stored.get("wins") or ()]
    return SimpleNamespace(kind=stored.get("kind"), wins=wins, payments=tuple(stored.get("payments") or (0, 0, 0, 0)),
                           clause=stored.get("clause"))


class UnscoredHand(TournamentError):
    """A referee hand whose win the referee could not score (a physical table that never
    showed the hand): the table's scorer enters it by 台 items, naming the referee hand."""

    code = "unscored_hand"


def result_of(outcome: dict, payments: list[int]) -> HandResult:
    """A closed referee hand as a tournament result (see the module docstring).

    :raises UnscoredHand: a win the referee could not score and no money for it.
    """
    unscored = [w.get("unscored") for w in outcome.get("wins") or () if w.get("unscored")]
    if unscored and not any(payments):
        raise UnscoredHand(f"the referee could not score the win ({unscored[0]}): enter it by 台 items with "
                           "referee_hand", field="outcome",
                           reason_zh=f"裁判無法計台（{unscored[0]}）：請以台數項目輸入，並填 referee_hand")
    from_referee = HandResult.from_outcome(_outcome(outcome))
    paid = tuple(int(p) for p in payments)
    if paid == from_referee.payments:
        return from_referee
    try:
        return HandResult(paid, from_referee.wins)
    except TournamentError:
        penalties = outcome.get("penalties") or []
        clause = next((p.get("clause") for p in penalties if isinstance(p, dict) and p.get("clause")), None)
        return HandResult(paid, from_referee.wins, penalty=clause or "override")


def _pending(db: Database, table_id: str, done: dict) -> list[tuple[int, dict]]:
    """The table's closed hands not synced yet, in order, up to its first open hand; void hands left out."""
    out = []
    for hand, projected in sorted(table_store.hands(db, table_id).items()):
        if (table_id, hand) in done:
            continue
        if not projected["ended"]:
            break
        if (projected["outcome"] or {}).get("kind") == "void":
            continue
        out.append((hand, projected))
    return out


def sync_report(db: Database, tournament_id: str, *, actor: int | None = None) -> SyncReport:
    """:func:`sync_table_results` with the hands it could not record and why.

    Each table's new hands are appended in one batch (one replay of the log); when the batch
    is refused they go one by one, so the hands before the failing one are kept and the
    failing one is reported (R-tour-18).
    """
    report = SyncReport()
    records = tstore.load_records(db, tournament_id)
    if not records:
        return report
    side = fold(records)
    state = replay(records)
    for table_id, (r, t, m) in sorted(side.links.items(), key=lambda x: x[1]):
        if table_store.get_table(db, table_id) is None:
            continue
        pending = _pending(db, table_id, side.synced)
        if not pending:
            continue
        count = sum(1 for h in state.hands if h.key[:3] == (r, t, m))

        def pair(k: int, hand: int, projected: dict) -> list:
            key = (r, t, m, count + 1 + k)
            return [HandRecorded(key, result_of(projected["outcome"] or {}, projected["payments"])),
                    RefereeHandSynced(table_id, hand, key)]

        try:
            batch = [e for k, (hand, projected) in enumerate(pending) for e in pair(k, hand, projected)]
            added = tstore.append_events(db, tournament_id, batch, actor=actor)
        except TournamentError:
            added = []
            for k, (hand, projected) in enumerate(pending):
                try:
                    added += tstore.append_events(db, tournament_id, pair(k, hand, projected), actor=actor)
                except TournamentError as exc:
                    report.problems.append(SyncProblem(table_id, hand, exc.field, exc.message, exc.reason_zh))
                    log.warning("tournament %s: referee table %s hand %s not recorded: %s", tournament_id, table_id,
                                hand, exc.message)
                    break
        report.recorded += added
        if added:
            records = records + added
            state = replay(records)
    return report


def sync_table_results(db: Database, tournament_id: str) -> list[Record]:
    """Record every closed hand of the tournament's linked referee tables not yet in its log;
    the records added (``HandRecorded`` and ``RefereeHandSynced`` pairs). Idempotent: a
    second call adds nothing until a table closes another hand.

    Call inside the writer's transaction (``get_writer().submit(lambda tx: sync_table_results(tx.db, tid))``).
    """
    return sync_report(db, tournament_id).recorded


__all__ = ["SyncProblem", "SyncReport", "UnscoredHand", "result_of", "sync_report", "sync_table_results"]

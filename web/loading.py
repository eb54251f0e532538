"""A tournament as the pages read it: its row, its log replayed, its players' names.

The event log is the source of truth: every page reads it (``store.tournaments.load_records``)
and folds it (``tournament.events.replay``) — through :func:`services.tournament_log.load`,
which keeps the fold while the log is unchanged, shared with the API. Reads follow the
``tournaments`` read area of :mod:`api.auth`; lookups that miss raise
:class:`web.errors.PageError` (404), never a 500.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from services.caller import check_read
from services.problems import ApiProblem
from services.tournament_log import load as replayed
from referee.errors import MjrefError
from store import get_db
from store import tournaments as tournament_store
from tournament.events import EventSettings, EventState, Record
from tournament.schedule import RoundPlan, TablePlan
from web.errors import PageError, from_problem, not_found
from web.times import show_in

READ_AREA = "tournaments"


@dataclass(frozen=True, slots=True)
class Tournament:
    """One tournament read for a page."""

    id: str
    row: dict
    records: tuple[Record, ...]
    state: EventState
    #: (round, table, 將) → its first dealer's seat, where a 定莊 throw is recorded
    first_dealers: dict[tuple[int, int, int], int]
    #: (round, table, 將, hand) → (dealer seat, streak) as the scorer entered the hand in effect
    entered_dealers: dict[tuple[int, int, int, int], tuple[int, int]] = field(default_factory=dict)
    #: (round, table, 將, hand) → the scorer's entry of the hand in effect (its 台 items)
    entries: dict = field(default_factory=dict)

    @property
    def settings(self) -> EventSettings | None:
        return self.state.settings

    @property
    def name(self) -> str:
        if self.state.settings is not None:
            return self.state.settings.name
        return self.row.get("name") or self.id

    @property
    def names(self) -> dict[str, str]:
        """player id → name, for every registered player and substitute."""
        return {p.player_id: p.name for p in self.state.players}

    @property
    def matches(self) -> int:
        return self.state.settings.matches_per_round if self.state.settings else 1

    def round(self, number: int) -> RoundPlan:
        plan = self.state.round(number)
        if plan is None:
            raise not_found(f"第 {number} 輪的座位（尚未排座或不存在）",
                            f"seating for round {number} (not seated yet, or no such round)")
        return plan

    def table(self, number: int, table: int) -> TablePlan:
        plan = next((t for t in self.round(number).tables if t.table == table), None)
        if plan is None:
            raise not_found(f"第 {number} 輪第 {table} 桌", f"table {table} in round {number}")
        return plan

    def check_match(self, match: int) -> int:
        if not 1 <= match <= self.matches:
            raise not_found(f"第 {match} 將（每輪 {self.matches} 將）", f"match {match} (a round has {self.matches})")
        return match


def check_access() -> None:
    """May the caller read tournaments? (401 page when the area is not public.)"""
    try:
        check_read(READ_AREA)
    except ApiProblem as problem:
        raise from_problem(problem) from None


def load(tournament_id: str) -> Tournament:
    """The tournament, its log folded; after the read check. The replay is the API's
    (:func:`services.tournament_log.load`: ``load_records`` + ``replay``, kept while the log's last
    sequence number is unchanged), so pages and API share one cached fold per tournament.

    :raises PageError: 401/403 (reads), 404 (no such tournament), 409 (a log that does not fold).
    """
    check_access()
    try:
        loaded = replayed(tournament_id)
    except ApiProblem as problem:
        if problem.code == 404:
            raise not_found(f"賽事「{tournament_id}」", f"tournament {tournament_id!r}") from None
        raise from_problem(problem) from None
    except MjrefError as exc:
        raise PageError(409, f"賽事紀錄無法重播：{exc.reason_zh}",
                        f"The tournament's log does not replay: {exc.message}",
                        field=exc.field) from None
    show_in(loaded.state.settings)  # the event's times in its own zone
    # 定莊 (seat.dealer): each 將's first dealer, from its recorded throw
    first_dealers = {key: drawn.dealer_draw.dealer for key, drawn in loaded.provenance.draws.items()}
    entered = {h.key: e.entry for h in loaded.state.hands if (e := loaded.provenance.entry_with(h.seq, h.key))}
    return Tournament(tournament_id, loaded.row, loaded.records, loaded.state, first_dealers,
                      {key: (entry.dealer, entry.streak) for key, entry in entered.items()}, entered)


def list_all() -> list[dict]:
    """Every tournament's row (for the list page), after the read check."""
    check_access()
    return tournament_store.list_tournaments(get_db())

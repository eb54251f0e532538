"""Standings: totals per player, a configurable tie-break chain, 四取一 / 四取二, CSV.

Totals come from the hands in effect in an event's state (:mod:`tournament.events`): the
points (net payments, 總分), hands played, wins (胡), self-draws (自摸), deal-ins (放槍) and
the 台 of the wins. Players rank by points, then by the tie-break chain — by default fewer
放槍, more 自摸, more 胡, more 台 — and players equal on all of it share a rank (並列).
Substitutes (替補) play for their tables but are not ranked unless asked.

Team events (團體賽, R-tour-30): :func:`team_standings` ranks the teams by the sum of their
members' totals — every hand a player registered with the team sat in, the team's own
substitutes' included, a withdrawn member's before he left; a substitute of no team scores for
no team — then by the same chain on those sums; teams equal on all of it share a rank.

:func:`advancement` takes the top one or two of every table in a round (四取一 / 四取二),
ranked by that round's totals with the same chain; a tie at the cut that the chain cannot
break is reported, not decided.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .errors import StandingsError
from .events import EventState


@dataclass(frozen=True, slots=True)
class Totals:
    """One player's totals."""

    player_id: str
    name: str
    points: int = 0
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    tai: int = 0
    withdrawn: bool = False


#: the counts a player's and a team's totals both keep (:class:`Totals`, :class:`TeamTotals`)
COUNTS = ("points", "hands", "wins", "self_draws", "deal_ins", "tai")


class TieBreak(Enum):
    """A criterion of the chain: the :class:`Totals` field and whether more is better."""

    FEWER_DEAL_INS = ("deal_ins", False, "放槍少")
    MORE_SELF_DRAWS = ("self_draws", True, "自摸多")
    MORE_WINS = ("wins", True, "胡多")
    MORE_TAI = ("tai", True, "台多")
    FEWER_HANDS = ("hands", False, "盤數少")

    def __repr__(self) -> str:
        return f"TieBreak.{self.name}"

    @property
    def zh(self) -> str:
        return self.value[2]

    def key(self, totals: Totals) -> int:
        field, more, _ = self.value
        value = getattr(totals, field)
        return -value if more else value


DEFAULT_TIE_BREAKS = (TieBreak.FEWER_DEAL_INS, TieBreak.MORE_SELF_DRAWS, TieBreak.MORE_WINS, TieBreak.MORE_TAI)


def tie_breaks(names: Iterable[str | TieBreak]) -> tuple[TieBreak, ...]:
    """A chain from names (``"fewer_deal_ins"``, ``"MORE_TAI"`` …) or members.

    :raises StandingsError: an unknown name.
    """
    out = []
    for k, name in enumerate(names):
        if isinstance(name, TieBreak):
            out.append(name)
            continue
        try:
            out.append(TieBreak[str(name).upper()])
        except KeyError:
            known = ", ".join(t.name.lower() for t in TieBreak)
            raise StandingsError(f"unknown tie-break {name!r}; known: {known}", field=f"tie_breaks[{k}]",
                                 reason_zh=f"未知的同分比較項目 {name!r}；可用：{known}") from None
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Standing:
    """A ranked row: the rank (shared by ties), the totals, and whether it is a tie."""

    rank: int
    totals: Totals
    tied: bool = False


def totals(state: EventState, *, rounds: Iterable[int] | None = None,
           include_substitutes: bool = False) -> dict[str, Totals]:
    """Every player's totals over ``rounds`` (all when ``None``)."""
    only = set(rounds) if rounds is not None else None
    acc: dict[str, dict[str, int]] = {}
    for p in state.players:
        if include_substitutes or not p.substitute:
            acc[p.player_id] = dict.fromkeys(COUNTS, 0)
    for key, seats, result in state.hand_rows():
        if only is not None and key[0] not in only:
            continue
        for seat, player in enumerate(seats):
            row = acc.get(player) if player is not None else None
            if row is None:
                continue
            row["points"] += result.payments[seat]
            row["hands"] += 1
            for win in result.wins:
                if win.seat == seat:
                    row["wins"] += 1
                    row["tai"] += win.tai
                    row["self_draws"] += win.self_draw
            # one discard is one 放槍, however many win on it (一炮多響)
            if any(win.deal_in == seat for win in result.wins):
                row["deal_ins"] += 1
    names = {p.player_id: p for p in state.players}
    return {pid: Totals(pid, names[pid].name, withdrawn=names[pid].withdrawn_before is not None, **row)
            for pid, row in acc.items()}


def _ranked(rows: Iterable, chain: Sequence[TieBreak | str], ident) -> list[tuple[int, object, bool]]:
    """(rank, row, tied) by points, then the chain; rows equal on everything share a rank,
    listed by ``ident(row)``."""
    chain = tie_breaks(chain)

    def key(t) -> tuple[int, ...]:
        return (-t.points, *(c.key(t) for c in chain))

    ordered = sorted(rows, key=lambda t: (key(t), ident(t)))
    out: list[tuple[int, object, bool]] = []
    for i, t in enumerate(ordered):
        same_prev = i > 0 and key(ordered[i - 1]) == key(t)
        same_next = i + 1 < len(ordered) and key(ordered[i + 1]) == key(t)
        out.append((out[-1][0] if same_prev else i + 1, t, same_prev or same_next))
    return out


def rank(rows: Iterable[Totals], chain: Sequence[TieBreak | str] = DEFAULT_TIE_BREAKS) -> list[Standing]:
    """Rank by points, then the chain; equal on everything → same rank, listed by id."""
    return [Standing(r, t, tied) for r, t, tied in _ranked(rows, chain, lambda t: t.player_id)]


def standings(state: EventState, chain: Sequence[TieBreak | str] = DEFAULT_TIE_BREAKS, *,
              rounds: Iterable[int] | None = None, include_substitutes: bool = False) -> list[Standing]:
    """The event's standings (over ``rounds``, all by default)."""
    return rank(totals(state, rounds=rounds, include_substitutes=include_substitutes).values(), chain)


@dataclass(frozen=True, slots=True)
class TeamTotals:
    """One team's totals (R-tour-30): the sums of its members' :class:`Totals`; ``members``
    and ``names`` list everyone registered with it (substitutes too), in registration order."""

    team: str
    members: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    points: int = 0
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    tai: int = 0


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A ranked team: the rank (shared by ties), the totals, and whether it is a tie."""

    rank: int
    totals: TeamTotals
    tied: bool = False


def has_teams(state: EventState) -> bool:
    """Whether any registered player belongs to a team (a team event)."""
    return any(p.team is not None for p in state.players)


def team_totals(state: EventState, *, rounds: Iterable[int] | None = None) -> dict[str, TeamTotals]:
    """Every team's totals over ``rounds`` (all when ``None``), by team name (R-tour-30).

    A team's points are its members' points as played: a substitute registered with the team
    counts for it, one of no team for nobody; a withdrawn member's hands before he left stay;
    a player moved from a round on (R-tour-32) counts for the team he played each round for
    (:meth:`~tournament.events.Player.team_in`). ``members`` are the players of the team now
    and those who played for it in ``rounds``, in registration order."""
    only = set(rounds) if rounds is not None else None
    played = sorted({key[0] for key, _, _ in state.hand_rows() if only is None or key[0] in only})
    acc: dict[str, dict] = {}
    for p in state.players:
        for name in dict.fromkeys([p.team, *(p.team_in(r) for r in played)]):
            if name is not None:
                team = acc.setdefault(name, {"members": [], "names": [], **dict.fromkeys(COUNTS, 0)})
                team["members"].append(p.player_id)
                team["names"].append(p.name)
    for r in played:
        rows = totals(state, rounds=[r], include_substitutes=True)
        for p in state.players:
            name = p.team_in(r)
            if name is not None:
                for field in COUNTS:
                    acc[name][field] += getattr(rows[p.player_id], field)
    return {name: TeamTotals(name, tuple(t.pop("members")), tuple(t.pop("names")), **t) for name, t in acc.items()}


def rank_teams(rows: Iterable[TeamTotals], chain: Sequence[TieBreak | str] = DEFAULT_TIE_BREAKS) -> list[TeamStanding]:
    """Rank teams by points, then the chain on the team's sums; equal on everything → the same
    rank (並列), listed by team name (R-tour-30)."""
    return [TeamStanding(r, t, tied) for r, t, tied in _ranked(rows, chain, lambda t: t.team)]


def team_standings(state: EventState, chain: Sequence[TieBreak | str] = DEFAULT_TIE_BREAKS, *,
                   rounds: Iterable[int] | None = None) -> list[TeamStanding]:
    """The event's team standings (over ``rounds``, all by default); empty outside team events."""
    return rank_teams(team_totals(state, rounds=rounds).values(), chain)


@dataclass(frozen=True, slots=True)
class TableAdvance:
    """One table's outcome: who goes on, the table's ranking, and players tied at the cut
    that the chain could not separate (an official's decision)."""

    table: int
    advancing: tuple[str, ...]
    ranking: tuple[Standing, ...]
    tie_at_cut: tuple[str, ...] = ()
    #: the tied players an official's decision sent on (then ``tie_at_cut`` is empty), and why
    decided: tuple[str, ...] = ()
    decision_reason: str = ""


def check_cut_decision(advance: TableAdvance, take: int, chosen: Sequence[str]) -> None:
    """An official's decision of a tie at the cut must pick, from the players tied there, as
    many as the cut has room for (R-tour-10).

    :raises StandingsError: no tie at this table's cut, or a pick that does not fill it.
    """
    room = take - len(advance.advancing)
    if not advance.tie_at_cut:
        raise StandingsError(f"table {advance.table} has no tie at the cut to decide", field="table",
                             reason_zh=f"第 {advance.table} 桌晉級線上沒有同分待決")
    chosen = list(chosen)
    outside = [p for p in chosen if p not in advance.tie_at_cut]
    if outside or len(set(chosen)) != len(chosen) or len(chosen) != room:
        raise StandingsError(f"pick {room} of the players tied at the cut {list(advance.tie_at_cut)}, got {chosen}",
                             field="advancing",
                             reason_zh=f"請自同分的 {list(advance.tie_at_cut)} 中選出 {room} 位晉級，收到 {chosen}")


def advancement(state: EventState, round_no: int, take: int = 1,
                chain: Sequence[TieBreak | str] = DEFAULT_TIE_BREAKS,
                decisions: Mapping[int, tuple[Sequence[str], str]] | None = None) -> tuple[TableAdvance, ...]:
    """四取一 (``take=1``) or 四取二 (``take=2``): the top of every table of ``round_no`` by
    that round's totals. ``decisions``: table → (the tied players an official sent on, the
    reason); one that no longer fits the tie (a result corrected since) is not applied, and the
    tie is reported again.

    :raises StandingsError: ``take`` not 1 or 2, or the round not seated.
    """
    if take not in (1, 2):
        raise StandingsError(f"take must be 1 (四取一) or 2 (四取二), got {take!r}", field="take",
                             reason_zh=f"晉級人數須為 1（四取一）或 2（四取二），收到 {take!r}")
    plan = state.round(round_no)
    if plan is None:
        raise StandingsError(f"round {round_no} is not seated", field="round", reason_zh=f"第 {round_no} 輪尚未排座")
    rows = totals(state, rounds=[round_no], include_substitutes=True)
    out = []
    for table in plan.tables:
        ranking = rank([rows[p] for p in table.players if p in rows], chain)
        cut = [s for s in ranking if s.rank <= take]
        tie = ()
        if len(cut) > take:
            last = cut[-1].rank
            tie = tuple(s.totals.player_id for s in cut if s.rank == last)
            cut = [s for s in cut if s.rank < last]
        advance = TableAdvance(table.table, tuple(s.totals.player_id for s in cut), tuple(ranking), tie)
        decision = (decisions or {}).get(table.table)
        if tie and decision is not None:
            chosen, reason = decision
            try:
                check_cut_decision(advance, take, chosen)
            except StandingsError:
                pass  # stale: the tie is reported again for a new decision
            else:
                advance = TableAdvance(table.table, advance.advancing + tuple(chosen), advance.ranking, (),
                                       tuple(chosen), reason)
        out.append(advance)
    return tuple(out)


#: the CSV columns: header (zh-TW, then English) and the value of each row
CSV_COLUMNS = (
    ("名次 Rank", lambda s: s.rank),
    ("代號 ID", lambda s: s.totals.player_id),
    ("姓名 Name", lambda s: s.totals.name),
    ("總分 Points", lambda s: s.totals.points),
    ("胡 Wins", lambda s: s.totals.wins),
    ("自摸 Self-draws", lambda s: s.totals.self_draws),
    ("放槍 Deal-ins", lambda s: s.totals.deal_ins),
    ("台 Tai", lambda s: s.totals.tai),
    ("盤數 Hands", lambda s: s.totals.hands),
    ("備註 Note", lambda s: "並列 tied" if s.tied else ("退賽 withdrew" if s.totals.withdrawn else "")),
)


def _csv_text(columns: tuple, rows: Iterable) -> str:
    """*rows* as CSV text under *columns* (pairs of a header and what a row shows there)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([h for h, _ in columns])
    for s in rows:
        writer.writerow([f(s) for _, f in columns])
    return buf.getvalue()


def to_csv(rows: Iterable[Standing]) -> str:
    """The standings as CSV (UTF-8 text, a header row, one row per player)."""
    return _csv_text(CSV_COLUMNS, rows)


#: the byte-order mark that makes Excel (zh-TW Windows) read a CSV file as UTF-8, not Big5
CSV_BOM = "\ufeff"


def to_csv_file(rows: Iterable[Standing]) -> str:
    """The standings as a CSV file to download: :func:`to_csv` after a byte-order mark, so that
    Excel shows the players' Chinese names (without it, it guesses the locale's code page)."""
    return CSV_BOM + to_csv(rows)


#: the team standings' CSV columns (R-tour-30)
TEAM_CSV_COLUMNS = (
    ("名次 Rank", lambda s: s.rank),
    ("隊名 Team", lambda s: s.totals.team),
    ("隊員 Members", lambda s: "、".join(s.totals.names)),
    ("總分 Points", lambda s: s.totals.points),
    ("胡 Wins", lambda s: s.totals.wins),
    ("自摸 Self-draws", lambda s: s.totals.self_draws),
    ("放槍 Deal-ins", lambda s: s.totals.deal_ins),
    ("台 Tai", lambda s: s.totals.tai),
    ("盤數 Hands", lambda s: s.totals.hands),
    ("備註 Note", lambda s: "並列 tied" if s.tied else ""),
)


def teams_to_csv(rows: Iterable[TeamStanding]) -> str:
    """The team standings as CSV (a header row, one row per team)."""
    return _csv_text(TEAM_CSV_COLUMNS, rows)


def teams_to_csv_file(rows: Iterable[TeamStanding]) -> str:
    """:func:`teams_to_csv` after the byte-order mark Excel needs (as :func:`to_csv_file`)."""
    return CSV_BOM + teams_to_csv(rows)


__all__ = [
    "CSV_BOM", "CSV_COLUMNS", "DEFAULT_TIE_BREAKS", "check_cut_decision", "Standing", "TableAdvance", "TieBreak",
    "Totals", "advancement", "rank",
    "standings", "tie_breaks", "to_csv", "to_csv_file", "totals",
    "TEAM_CSV_COLUMNS", "TeamStanding", "TeamTotals", "has_teams", "rank_teams", "team_standings", "team_totals",
    "teams_to_csv", "teams_to_csv_file",
]

"""Printable table cards and score sheets (zh-TW), as data and as plain text.

:func:`card` and :func:`sheet` build what a printout says — frozen dataclasses, no markup —
so that the plain-text renderers here (:func:`table_card`, :func:`score_sheet`) and the
service's HTML pages (:mod:`web`) print the same thing. A score sheet is blank for the
scorer's pen, or carries the hands already recorded (their payments per seat and totals:
"四家合計須為 0", the four totals of a 將 sum to zero — ``settle.formula``).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.tiles import Wind

from .errors import MatchError
from .match import HandOutcome, MatchState, start_match
from .results import HandResult
from .schedule import TablePlan

#: how a substitute's seat (替補) prints
SUBSTITUTE_LABEL = "（替補 substitute）"
#: the footer of every score sheet
SUM_RULE = "四家合計須為 0 (the four totals sum to 0)"


def _name(player: str | None, names: Mapping[str, str]) -> str:
    if player is None:
        return SUBSTITUTE_LABEL
    name = names.get(player, "")
    return f"{name}（{player}）" if name and name != player else player


@dataclass(frozen=True, slots=True)
class CardSeat:
    """One line of a table card: the wind, the player's id (``None``: 替補) and printed name."""

    wind: Wind
    player: str | None
    label: str


@dataclass(frozen=True, slots=True)
class TableCard:
    """What the card on a table says: event, round, table, who sits in each wind (東 南 西 北)."""

    event: str
    round_no: int
    table: int
    seats: tuple[CardSeat, CardSeat, CardSeat, CardSeat]
    #: what the four do on sitting down (搬風 then 定莊 for the first 將)
    note: str = "入座後搬風定莊 (seat.banfeng, seat.dealer)"


def card(event: str, round_no: int, plan: TablePlan, names: Mapping[str, str]) -> TableCard:
    """The card of ``plan``'s table in round ``round_no`` (``names``: player id → name)."""
    seats = tuple(CardSeat(w, p, _name(p, names)) for w, p in zip(Wind, plan.seats))
    return TableCard(event, round_no, plan.table, seats)  # type: ignore[arg-type]


def table_card(event: str, round_no: int, plan: TablePlan, names: Mapping[str, str]) -> str:
    """The card on a table: event, round, table, and who sits in each wind."""
    c = card(event, round_no, plan, names)
    lines = [c.event, f"第 {c.round_no} 輪　第 {c.table} 桌 (round {c.round_no}, table {c.table})", ""]
    lines += [f"{s.wind.zh}　{s.label}" for s in c.seats]
    lines += ["", c.note]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One hand's row: its number, 莊, 胡, 放槍, 台 (text; empty for the scorer to write) and
    the four seats' payments (``None``: not recorded)."""

    hand: int
    dealer: str = ""
    winners: str = ""
    deal_in: str = ""
    tai: str = ""
    payments: tuple[int | None, int | None, int | None, int | None] = (None, None, None, None)

    @property
    def recorded(self) -> bool:
        return any(p is not None for p in self.payments)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A score sheet for one 將 of one table: a column per seat, a row per hand, totals."""

    event: str
    round_no: int
    table: int
    match: int
    #: the column heads, one per seat: the player's printed name
    columns: tuple[str, str, str, str]
    #: each seat's wind as the sheet labels it (the table's seats, 東 first by default)
    winds: tuple[Wind, Wind, Wind, Wind]
    rows: tuple[SheetRow, ...]
    #: the four seats' totals over the recorded hands (``None`` when nothing is recorded)
    totals: tuple[int, int, int, int] | None = None

    @property
    def title(self) -> str:
        return f"{self.event}　第 {self.round_no} 輪　第 {self.table} 桌　第 {self.match} 將"

    @property
    def balanced(self) -> bool | None:
        """Do the totals sum to 0 (``None``: nothing recorded)?"""
        return None if self.totals is None else sum(self.totals) == 0


def _row(hand: int, result: HandResult, labels: Sequence[str]) -> SheetRow:
    if result.penalty is not None:
        winners, deal_in, tai = f"罰則 penalty（{result.penalty}）", "", ""
    elif not result.wins:
        winners, deal_in, tai = "荒局 draw", "", ""
    else:
        winners = "、".join(labels[w.seat] for w in result.wins)
        first = result.wins[0]
        deal_in = "自摸 self-draw" if first.self_draw else labels[first.deal_in]
        tai = "、".join(str(w.tai) for w in result.wins)
    return SheetRow(hand, "", winners, deal_in, tai, tuple(result.payments))  # type: ignore[arg-type]


def dealers(first_dealer: int, results: Mapping[int, HandResult], *, max_streak: int = 0) -> dict[int, MatchState]:
    """Who deals each hand of a 將 (hand number → the :class:`MatchState` it is dealt in),
    from its 起莊位 and its results (``seat.dealer``, ``app.dealer-continue``): the recorded
    hands and the next one. A hand ruled by a penalty does not say whether the dealer
    repeats (its :class:`tournament.match.DealerRuling` is not in the result), so the
    dealers after it are left for the scorer; so is everything after the 將 is over.
    *max_streak* is the event ruleset's 連莊上限 (``seat.max_streak``)."""
    state = start_match(first_dealer, max_streak=max_streak)
    out = {1: state}
    for hand in range(1, max(results, default=0) + 1):
        result = results.get(hand)
        if result is None or result.penalty is not None:
            break
        try:
            state = state.advance(HandOutcome(state.dealer, winners=tuple(w.seat for w in result.wins)))
        except MatchError:
            break
        if state.over:
            break
        out[hand + 1] = state
    return out


def _dealer_label(state: MatchState, labels: Sequence[str]) -> str:
    streak = f" 連{state.streak}" if state.streak else ""
    return f"{state.round_wind.zh}圈 {labels[state.dealer]}{streak}"


def sheet(event: str, round_no: int, table: int, match: int, seats: Sequence[str | None],
          names: Mapping[str, str], *, hands: int = 16, results: Mapping[int, HandResult] | None = None,
          east: int = 0, first_dealer: int | None = None,
          entered: Mapping[int, tuple[int, int]] | None = None, max_streak: int = 0) -> ScoreSheet:
    """The score sheet of a 將: ``seats`` are the players by seat (a table plan's wind order,
    or a :class:`tournament.seating.Seating`'s seats with the East seat ``east``);
    ``results`` the hands recorded so far (hand number → result). The sheet has at least
    ``hands`` rows, one per recorded hand and blank ones after. 莊 is filled when the 將's
    first dealer (定莊, ``first_dealer``) is known — for the recorded hands and the next
    (:func:`dealers`); else, for a hand a scorer entered, from the entry (``entered``: hand
    number → the dealer's seat and streak as entered); and left for the scorer otherwise.
    ``max_streak``: the event ruleset's 連莊上限 (``seat.max_streak``)."""
    labels = [_name(p, names) for p in seats]
    results = dict(results or {})
    last = max(results, default=0)
    dealt = dealers(first_dealer, results, max_streak=max_streak) if first_dealer is not None else {}
    rows = []
    for h in range(1, max(hands, last) + 1):
        row = _row(h, results[h], labels) if h in results else SheetRow(h)
        if h in dealt:
            row = SheetRow(row.hand, _dealer_label(dealt[h], labels), row.winners, row.deal_in, row.tai, row.payments)
        elif entered and h in entered:
            dealer, streak = entered[h]
            label = labels[dealer] + (f" 連{streak}" if streak else "")
            row = SheetRow(row.hand, label, row.winners, row.deal_in, row.tai, row.payments)
        rows.append(row)
    rows = tuple(rows)
    totals = None
    if results:
        totals = tuple(sum(r.payments[s] for r in results.values()) for s in range(4))
    winds = tuple(Wind((s - east) % 4) for s in range(4))
    return ScoreSheet(event, round_no, table, match, tuple(labels), winds, rows, totals)  # type: ignore[arg-type]


def score_sheet(event: str, round_no: int, plan: TablePlan, match: int, names: Mapping[str, str],
                hands: int = 16) -> str:
    """A blank score sheet for one 將: a row per hand, a column per player, totals."""
    s = sheet(event, round_no, plan.table, match, plan.seats, names, hands=hands)
    head = ["盤 Hand", "莊 Dealer", "胡 Winner", "放槍 Deal-in", "台 Tai", *s.columns]
    lines = [f"{s.title} (score sheet)", "", " | ".join(head), " | ".join("---" for _ in head)]
    lines += [" | ".join([str(r.hand), r.dealer, r.winners, r.deal_in, r.tai]
                         + ["" if p is None else str(p) for p in r.payments]) for r in s.rows]
    total = [""] * 4 if s.totals is None else [str(t) for t in s.totals]
    lines += [" | ".join(["合計 Total", "", "", "", ""] + total), "", SUM_RULE]
    return "\n".join(lines) + "\n"


__all__ = ["CardSeat", "ScoreSheet", "SheetRow", "SUBSTITUTE_LABEL", "SUM_RULE", "TableCard", "card", "dealers",
           "score_sheet", "sheet", "table_card"]

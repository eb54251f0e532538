"""Hand results: what each seat won or paid, who won, who dealt in, with how many 台.

A :class:`HandResult` is what a tournament keeps of a hand: the net payment of each of
the four seats (+ received, − paid, summing to zero), and each win — the winner's seat,
the 台 (牌面) it was paid on, and the discarder (放槍) or ``None`` for a self-draw (自摸).
It comes from the referee's settlement (:meth:`HandResult.from_outcome`,
:meth:`HandResult.from_settlement`) or is entered by a table scorer as payments; either way
it is checked: payments sum to zero (``settle.formula``: every transfer is one payer's loss
and the winner's gain); a winner does not pay; on a discard only the discarder pays
(``app.no-mutual-pay``); on a self-draw the three others pay; an exhaustive draw pays
nothing (``play.exhausted``). A result ruled by a penalty (issue #5: 包賠, 詐胡 …) is
marked with its clause and only has to sum to zero.

:func:`check_balances` re-checks sums at every level (hand, 將, table) — a guard against
a log edited by hand, since every entry was already checked.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ResultError, check_seat


@dataclass(frozen=True, slots=True)
class Win:
    """One win: the winner's seat, the 台 paid on, the discarder (``None``: 自摸)."""

    seat: int
    tai: int = 0
    deal_in: int | None = None

    def __post_init__(self) -> None:
        check_seat(self.seat, "seat", ResultError)
        if type(self.tai) is not int or self.tai < 0:
            raise ResultError(f"tai must be a count ≥ 0, got {self.tai!r}", field="tai",
                              reason_zh=f"台數須為 0 以上的整數，收到 {self.tai!r}")
        if self.deal_in is not None:
            check_seat(self.deal_in, "deal_in", ResultError)
            if self.deal_in == self.seat:
                raise ResultError(f"seat {self.seat} cannot deal in to itself", field="deal_in",
                                  reason_zh=f"{self.seat} 號座不能放槍給自己")

    @property
    def self_draw(self) -> bool:
        return self.deal_in is None


@dataclass(frozen=True, slots=True)
class HandResult:
    """A hand's payments per seat and its wins (see the module docstring).

    >>> HandResult((-260, 260, 0, 0), (Win(1, 8, deal_in=0),)).describe()
    '1 號座胡（0 號座放槍，8 台）；0 號座 -260、1 號座 +260、2 號座 0、3 號座 0'
    """

    payments: tuple[int, int, int, int]
    wins: tuple[Win, ...] = ()
    #: the clause of the penalty ruling that produced these payments (issue #5), if any
    penalty: str | None = None

    def __post_init__(self) -> None:
        pay = tuple(self.payments)
        if len(pay) != 4 or any(type(x) is not int for x in pay):
            raise ResultError(f"payments must be four integers (one per seat), got {list(self.payments)!r}",
                              field="payments", reason_zh=f"須為四個座位的整數金額，收到 {self.payments!r}")
        object.__setattr__(self, "payments", pay)
        object.__setattr__(self, "wins", tuple(self.wins))
        if sum(pay) != 0:
            raise ResultError(f"payments {list(pay)} sum to {sum(pay)}, not 0", field="payments",
                              reason_zh=f"四家金額 {list(pay)} 合計 {sum(pay)}，應為 0")
        if self.penalty is not None:
            return
        seats = [w.seat for w in self.wins]
        if len(set(seats)) != len(seats):
            raise ResultError(f"a seat wins twice in one hand: {seats}", field="wins",
                              reason_zh=f"同一盤同一家胡兩次：{seats}")
        if not self.wins:
            if any(pay):
                raise ResultError(f"an exhaustive draw pays nothing, got {list(pay)}", field="payments",
                                  reason_zh=f"荒局不付，收到 {list(pay)}")
            return
        if len(self.wins) > 1 and any(w.self_draw for w in self.wins):
            raise ResultError("only wins on one discard can be several (一炮多響); a self-draw is alone",
                              field="wins", reason_zh="一炮多響限於同一張捨牌；自摸只能一家")
        if len({w.deal_in for w in self.wins}) > 1:
            raise ResultError("several wins must be on the same discard", field="wins",
                              reason_zh="多家胡牌須為同一放槍者")
        winners = set(seats)
        for w in self.wins:
            if pay[w.seat] <= 0:
                raise ResultError(f"winner seat {w.seat} must receive, got {pay[w.seat]} in {list(pay)}",
                                  field=f"payments[{w.seat}]",
                                  reason_zh=f"胡牌的 {w.seat} 號座應收錢，卻記為 {pay[w.seat]}")
        deal_in = self.wins[0].deal_in
        if deal_in is None:
            payers = [s for s in range(4) if s not in winners]
            bad = [s for s in payers if pay[s] >= 0]
            if bad:
                raise ResultError(f"on a self-draw the other three pay; seat {bad[0]} shows {pay[bad[0]]} in "
                                  f"{list(pay)}",
                                  field=f"payments[{bad[0]}]",
                                  reason_zh=f"自摸由其他三家付，{bad[0]} 號座卻記為 {pay[bad[0]]}")
        else:
            if deal_in in winners:
                raise ResultError(f"the discarder seat {deal_in} also wins", field="wins",
                                  reason_zh=f"放槍的 {deal_in} 號座不能同時胡牌")
            if pay[deal_in] >= 0:
                raise ResultError(f"the discarder seat {deal_in} must pay, got {pay[deal_in]} in {list(pay)}",
                                  field=f"payments[{deal_in}]",
                                  reason_zh=f"放槍的 {deal_in} 號座應付錢，卻記為 {pay[deal_in]}")
            bystanders = [s for s in range(4) if s not in winners and s != deal_in and pay[s] != 0]
            if bystanders:
                s = bystanders[0]
                raise ResultError(f"on a discard only the discarder pays; seat {s} shows {pay[s]} in {list(pay)}",
                                  field=f"payments[{s}]",
                                  reason_zh=f"胡別人打的牌只有放槍者付，{s} 號座卻記為 {pay[s]}（app.no-mutual-pay）")

    @property
    def exhaustive_draw(self) -> bool:
        return not self.wins and self.penalty is None

    def describe(self) -> str:
        if self.penalty is not None:
            head = f"罰則（{self.penalty}）"
        elif not self.wins:
            head = "荒局"
        else:
            head = "、".join(
                f"{w.seat} 號座{'自摸' if w.self_draw else '胡'}"
                f"（{'' if w.self_draw else f'{w.deal_in} 號座放槍，'}{w.tai} 台）"
                for w in self.wins)
        money = "、".join(f"{s} 號座 {p:+d}" if p else f"{s} 號座 0" for s, p in enumerate(self.payments))
        return f"{head}；{money}"

    @classmethod
    def from_settlement(cls, settlement: Any, *, winner: int, tai: int, deal_in: int | None = None) -> HandResult:
        """From a :class:`referee.scoring.Settlement` (anything with ``payments`` by seat)."""
        return cls(tuple(settlement.payments), (Win(winner, tai, deal_in),))

    @classmethod
    def from_outcome(cls, outcome: Any) -> HandResult:
        """From the referee's :class:`referee.outcome.Outcome` of a hand: its payments and,
        for each win, the winner, the discarder and the scored 台 (0 when unscored)."""
        kind = getattr(outcome.kind, "value", outcome.kind)
        if kind == "win":
            wins = tuple(Win(w.claim.seat, w.score.tai if w.score is not None else 0, w.claim.discarder)
                         for w in outcome.wins)
            return cls(tuple(outcome.payments), wins)
        if kind in ("exhaustive_draw", "void"):
            return cls(tuple(outcome.payments))
        return cls(tuple(outcome.payments), penalty=getattr(outcome, "clause", None) or kind)


@dataclass(frozen=True, slots=True)
class Imbalance:
    """A hand, 將 or table whose payments do not sum to zero."""

    level: str  # "hand" | "match" | "table"
    key: tuple[int, ...]
    total: int

    def describe(self) -> str:
        what = {"hand": "盤", "match": "將", "table": "桌"}[self.level]
        return f"{what} {self.key} 合計 {self.total:+d}，應為 0"


def check_balances(hands: Iterable[tuple[Sequence[int], Sequence[int]]]) -> list[Imbalance]:
    """Every hand, 將 and table (round, table) whose payments do not sum to zero.

    :param hands: ``(key, payments)`` with ``key = (round, table, match, hand)``.
    """
    by_match: dict[tuple[int, ...], int] = {}
    by_table: dict[tuple[int, ...], int] = {}
    problems = []
    for key, payments in hands:
        key = tuple(key)
        total = sum(payments)
        if total:
            problems.append(Imbalance("hand", key, total))
        by_match[key[:3]] = by_match.get(key[:3], 0) + total
        by_table[key[:2]] = by_table.get(key[:2], 0) + total
    problems += [Imbalance("match", k, t) for k, t in by_match.items() if t]
    problems += [Imbalance("table", k, t) for k, t in by_table.items() if t]
    return problems


__all__ = ["HandResult", "Imbalance", "Win", "check_balances"]

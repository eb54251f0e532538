"""Payment arithmetic: pure functions over transfers, each summing to zero by construction.

Every amount is ``base + tai × per_tai`` (``settle.formula``); the dealer's 台 (作莊 +
連N拉N = ``tai.dealer + tai.streak_per_n × N``, ``tai.09``, ``tai.10``, ``settle.streak``)
count only between the dealer and his counterpart, and a streak marker that differs from
the real streak counts against the dealer (``score.streak-marker``): he collects by the
lower N and pays by the higher, unless ``settle.streak_marker`` is ``actual``.

A :class:`~penalties.rulings.Payment` is one transfer, so any tuple of them nets to zero;
:func:`net` and :func:`check_zero` show it.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from referee.scoring.context import Stakes

from .errors import RulingError
from .rulings import Party, Payment


def _values(ruleset: Any) -> Mapping[str, Any]:
    return ruleset.values if hasattr(ruleset, "values") and not isinstance(ruleset, Mapping) else ruleset


def streak_for(*, dealer_collects: bool, streak: int, marker: int | None, ruleset: Any) -> int:
    """The N of 連N拉N used in one payment with the dealer (``score.streak-marker``):
    the dealer collects by ``min(real, marker)`` and pays by ``max(real, marker)``."""
    if marker is None or _values(ruleset)["settle.streak_marker"] == "actual":
        return streak
    return min(streak, marker) if dealer_collects else max(streak, marker)


def dealer_tai(streak: int, ruleset: Any) -> int:
    """作莊 + 連N拉N in 台 (``tai.09``, ``tai.10``): ``tai.dealer + tai.streak_per_n × N``."""
    v = _values(ruleset)
    return v["tai.dealer"] + v["tai.streak_per_n"] * streak


def share(payer: int, payee: int, *, face: int, dealer: int, streak: int, marker: int | None,
          stakes: Stakes, ruleset: Any, kind: str) -> Payment:
    """One payer's share of a settlement-like payment: ``base + (face + dealer's 台) × per_tai``,
    the dealer's 台 counted when the dealer is payer or payee (``settle.formula``)."""
    extra = 0
    if dealer in (payer, payee):
        n = streak_for(dealer_collects=payee == dealer, streak=streak, marker=marker, ruleset=ruleset)
        extra = dealer_tai(n, ruleset)
    tai = face + extra
    return Payment(payer, payee, stakes.base + tai * stakes.per_tai, base=stakes.base, tai=tai, kind=kind)


def pay_all(offender: int, *, face: int, dealer: int, streak: int, marker: int | None, stakes: Stakes,
            ruleset: Any) -> tuple[Payment, ...]:
    """包賠 (``pen.pay-all``): the offender pays each of the three others the base plus the
    face value; the dealer's 台 (莊連拉) go with the dealer as in any settlement — paid to
    the dealer alone when a non-dealer offends, to all three when the dealer does
    (``pen.false-win.1``; ``pen.peek``: 莊連拉照算). Side stakes are added by
    :mod:`penalties.side_stakes`."""
    _check_seat(offender, "offender")
    if face < 0:
        raise RulingError(f"a face value is ≥ 0 台, got {face}", field="face", reason_zh="牌面台數不得為負")
    return tuple(
        share(offender, p, face=face, dealer=dealer, streak=streak, marker=marker, stakes=stakes, ruleset=ruleset,
              kind="pay_all")
        for p in _others(offender)
    )


def fine(payer: int, payee: int, *, tai: int, stakes: Stakes, kind: str = "fine") -> Payment:
    """A fine of *tai* 台, no base (喊碰未碰 1 台 ``pen.unfulfilled-call``; 眼牌 1 台 ``pen.peek``;
    錯打明牌 1 台 to each claimant ``pen.exposed-discard.2``)."""
    _check_seat(payer, "payer")
    _check_seat(payee, "payee")
    return Payment(payer, payee, tai * stakes.per_tai, base=0, tai=tai, kind=kind)


def split(amount: int, offenders: Sequence[int]) -> list[tuple[int, int]]:
    """Split *amount* equally among *offenders* (共同平均賠付, ``pen.wrong-kong.concealed.1``);
    the remainder goes one unit each to the first offenders listed. Sums to *amount*."""
    if not offenders:
        raise RulingError("nobody to split a payment among", field="offenders", reason_zh="沒有分攤的人")
    q, r = divmod(amount, len(offenders))
    return [(o, q + (1 if i < r else 0)) for i, o in enumerate(offenders)]


def substitute(transfers: Iterable[Payment],
               offenders: Sequence[int]) -> tuple[tuple[Payment, ...], tuple[Payment, ...]]:
    """代位賠付 (``pen.substitute``): the offenders pay, shared equally, every transfer of a
    win instead of its usual payer.

    Returns ``(replaced, payments)``: the transfers the caller cancels, and the payments
    that take their place (kind ``substitute``, ``instead_of`` the usual payer; an
    offender's part of a split of his own share names nobody). A transfer the only
    liable offender already pays stays as it is. The winner is never liable for his own
    win (the caller leaves him out of *offenders*)."""
    replaced: list[Payment] = []
    out: list[Payment] = []
    for t in transfers:
        payers = [o for o in offenders if o != t.payee]
        if not payers or payers == [t.payer]:
            continue
        replaced.append(t)
        for offender, amount in split(t.amount, payers):
            if amount == 0:
                continue
            instead = None if offender == t.payer or not isinstance(t.payer, int) else t.payer
            out.append(Payment(offender, t.payee, amount, base=t.base, tai=t.tai, kind="substitute",
                               instead_of=instead))
    return tuple(replaced), tuple(out)


def net(payments: Iterable[Payment]) -> dict[Party, int]:
    """Net per party (+ received, − paid); the values sum to zero."""
    out: dict[Party, int] = {}
    for p in payments:
        out[p.payer] = out.get(p.payer, 0) - p.amount
        out[p.payee] = out.get(p.payee, 0) + p.amount
    return out


def seat_totals(payments: Iterable[Payment]) -> tuple[int, int, int, int]:
    """Net per seat 0–3 (outside parties left out)."""
    n = net(payments)
    return (n.get(0, 0), n.get(1, 0), n.get(2, 0), n.get(3, 0))


def check_zero(payments: Iterable[Payment]) -> None:
    """:raises RulingError: if the payments do not net to zero (they always do: each is a
    transfer; this guards hand-built data)."""
    total = sum(net(payments).values())
    if total:
        raise RulingError(f"payments net to {total}, not 0", field="payments", reason_zh=f"付款合計為 {total}，不為零")


def _others(seat: int) -> tuple[int, int, int]:
    return ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)


def _check_seat(seat: object, name: str) -> None:
    if type(seat) is not int or not 0 <= seat < 4:
        raise RulingError(f"{name} must be a seat 0–3, got {seat!r}", field=name, reason_zh=f"{name} 須為座位 0–3")


__all__ = ["check_zero", "dealer_tai", "fine", "net", "pay_all", "seat_totals", "share", "split", "streak_for",
           "substitute"]

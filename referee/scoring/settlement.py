"""Settlement: who pays the winner what (``settle.formula``, ``settle.streak``).

Every payer pays the winner ``base + tai × per_tai`` (1底 + 牌面台數), where:

* the payers are the discarder alone for a win on a discard, the last discard, a
  robbed kong (``app.rob-kong``: the kong player pays alone, no 自摸) or a 七搶一
  (``tai.30.1``, ``tai.30.2``: the robbed player); all three for a self-draw and for
  八仙過海 (``tai.29``). 七搶一 →2 won on the replacement tile is paid as a self-draw,
  the robbed player adding the 8 台 alone (``tai.30.2``).
* between the dealer and his counterpart — the dealer winning, or paying — the 台
  grow by 作莊 + 連N拉N = 2N+1 (``tai.09``, ``tai.10``, ``settle.streak``); the other
  payers never pay it.
* a streak marker that differs from the real streak counts against the dealer
  (``score.streak-marker``): shown low, he collects as shown and pays as real; shown
  high, he collects as real and pays as shown. So the dealer collects with the lower
  N and pays with the higher (``settle.streak_marker = "actual"``: always the real N).
* non-winners never pay each other (``app.no-mutual-pay``); an exhaustive draw pays
  nothing (``play.exhausted``).
* 包牌 (``settle.liability``): the seat that fed the last set of 大三元 / 大四喜
  (``WinContext.liable``) pays what the others owed — on a self-draw all three
  payments, on a discard win the discarder's (or half of it, ``shared``).

Every settlement sums to zero: each transfer is one payer's loss and the winner's gain.
"""
from __future__ import annotations

from typing import NamedTuple

from .context import Stakes
from .scorer import Score


class Transfer(NamedTuple):
    """One payment: ``payer`` gives ``payee`` ``amount`` = ``base + (tai + dealer_tai) × per_tai``.

    ``streak`` is the N used for 連N拉N in this payment (after the marker rule).
    ``on_behalf_of``: under 包牌 (``settle.liability``) the liable seat pays what this seat
    owed (all of it, or half on a shared discard win); ``None`` otherwise.
    """

    payer: int
    payee: int
    amount: int
    base: int
    tai: int
    dealer_tai: int
    streak: int
    on_behalf_of: int | None = None

    def to_dict(self) -> dict:  # type: ignore[override]
        out = {"payer": self.payer, "payee": self.payee, "amount": self.amount, "base": self.base,
               "tai": self.tai, "dealer_tai": self.dealer_tai, "streak": self.streak}
        if self.on_behalf_of is not None:
            out["on_behalf_of"] = self.on_behalf_of
        return out


class Settlement(NamedTuple):
    """Net result per seat (``payments[seat]``, + received, − paid; sums to 0) and the transfers."""

    payments: tuple[int, int, int, int]
    transfers: tuple[Transfer, ...] = ()

    def to_dict(self) -> dict:  # type: ignore[override]
        return {"payments": list(self.payments), "transfers": [t.to_dict() for t in self.transfers]}


def settle(result: Score, stakes: Stakes) -> Settlement:
    """Settle a scored win (``settle.formula``)."""
    ctx = result.ctx
    winner = ctx.winner
    dealer = ctx.dealer
    discarder = ctx.discarder
    base = stakes.base
    per_tai = stakes.per_tai
    face = result.tai
    robbed = result.robbed_tai
    payers = _OTHERS[winner] if discarder is None or robbed else (discarder,)
    real = ctx.streak
    marker = ctx.streak_marker
    table = result.table
    if marker is None or table.streak_marker == "actual":
        marker = real
    involved = result.dealer_involved
    dealer_unit, streak_unit = table.dealer_unit, table.streak_unit  # Score.dealer_unit, Score.streak_unit
    payments = [0, 0, 0, 0]
    transfers = []
    new = tuple.__new__
    for p in payers:
        tai = face + robbed if p == discarder else face
        if involved and (p == dealer or winner == dealer):
            # the dealer collects with the lower N and pays with the higher (score.streak-marker)
            n = (real if real < marker else marker) if winner == dealer else (real if real > marker else marker)
            dealer_tai = dealer_unit + streak_unit * n
        else:
            n = dealer_tai = 0
        amount = base + (tai + dealer_tai) * per_tai
        payments[p] -= amount
        payments[winner] += amount
        transfers.append(new(Transfer, (p, winner, amount, base, tai, dealer_tai, n, None)))
    liable = getattr(ctx, "liable", None)  # a scorer's entry (tournament.entry) names no liable seat
    if liable is not None and table.liability != "none":
        transfers = _liable(transfers, liable, discarder is not None and not robbed, table.liability == "shared")
        payments = [0, 0, 0, 0]
        for t in transfers:
            payments[t.payer] -= t.amount
            payments[t.payee] += t.amount
    return new(Settlement, ((payments[0], payments[1], payments[2], payments[3]), tuple(transfers)))


def _liable(transfers: list, liable: int, discard_win: bool, shared: bool) -> list:
    """包牌 (``settle.liability``): the liable seat takes over each payment of another seat;
    on a discard win shared with the discarder, it takes half (and any odd unit)."""
    out = []
    for t in transfers:
        if t.payer == liable:
            out.append(t)
        elif discard_win and shared:
            keep = t.amount // 2
            out.append(t._replace(amount=keep))
            out.append(t._replace(payer=liable, amount=t.amount - keep, on_behalf_of=t.payer))
        else:
            out.append(t._replace(payer=liable, on_behalf_of=t.payer))
    return out


_OTHERS = tuple(tuple(s for s in range(4) if s != w) for w in range(4))


def settle_draw() -> Settlement:
    """An exhaustive draw (荒局 ``play.exhausted``, ``app.exhausted``): nobody pays."""
    return Settlement((0, 0, 0, 0), ())


__all__ = ["Settlement", "Transfer", "settle", "settle_draw"]

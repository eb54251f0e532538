"""代位賠付 (``pen.substitute``): liability windows opened by an irregularity that changed the
turn order, settled by themselves when a later win falls inside one.

「發生錯槓、錯碰、錯打明牌等致使行牌順序因而改變時，應對約定時段內因受行牌順序改變之影響而發生的胡牌代替應付者支付。」

A window (:class:`penalties.docket.Liability`) covers a win by another seat that comes
after it opened:

* ``next_draws`` — a self-draw whose winning draw is among the next *draws* tiles drawn
  from the wall (摸序; replacements from the tail in that time count as inside it);
* ``kong_tail`` — a self-draw on a tail tile (a kong's or a flower's replacement, 槓上開花),
  or a win on a discard that was a tail tile discarded as drawn (原牌打出: not placed into
  the hand first), for the rest of the hand;
* ``tail_tile`` — the same, for the next tail tile only (the one put back);
* ``any_win`` — every later win.

The offender then pays each of the win's transfers in place of its payer; when several
windows of different offenders cover one win, they share each transfer equally (as
wrong concealed kongs do, ``pen.wrong-kong.concealed.1``; R-pen-5).
"""
from __future__ import annotations

from referee.events import EventType

from .docket import Docket, Liability
from .payments import substitute
from .rulings import Payment

_TAIL_SOURCES = frozenset({"kong_replacement", "flower_replacement"})


def _tail_win(docket: Docket, win, only_next: int | None = None) -> bool:
    """The win is on a tail tile: self-drawn from the tail, or a deal-in with a tail tile
    discarded as drawn. *only_next*: the tail count before the tile in question."""
    record = docket.record
    claim = win.claim
    if claim.source.is_self_draw:
        if claim.source.value not in _TAIL_SOURCES:
            return False
        if only_next is None:
            return True
        prev = _previous(record, claim.seq)
        return prev is not None and record.moment(prev).tail == only_next + 1
    if claim.window_seq is None or claim.source.value not in ("discard", "last_discard"):
        return False
    discard = record.event(claim.window_seq)
    prev = _previous(record, discard.seq)
    if prev is None:
        return False
    m = record.moment(prev)
    if not m.from_tail or m.placed or m.turn != discard.seat:
        return False
    if m.drawn is not None and discard.tile is not None and m.drawn != discard.tile:
        return False
    return only_next is None or m.tail == only_next + 1


def _previous(record, seq: int) -> int | None:
    for ev in record.before(seq):
        if ev.type is not EventType.REPORT:
            return ev.seq
    return None


def covers(docket: Docket, liability: Liability, win) -> bool:
    """Does *liability* cover *win*?"""
    claim = win.claim
    if claim.seq <= liability.opened or claim.seat == liability.offender:
        return False
    kind = liability.kind
    if kind == "any_win":
        return True
    if kind == "next_draws":
        return claim.source.is_self_draw and \
            docket.record.front_draws_between(liability.opened, claim.seq) <= (liability.draws or 0)
    if kind == "kong_tail":
        return _tail_win(docket, win)
    if kind == "tail_tile":
        return _tail_win(docket, win, only_next=liability.tail_at)
    return False


def settle_win(docket: Docket, win, transfers: tuple[Payment, ...]) -> tuple[tuple[Payment, ...], tuple[Payment, ...]]:
    """The liabilities covering *win*: a ruling, and ``(replaced, payments)``."""
    found = [lia for lia in docket.liabilities if covers(docket, lia, win)]
    if not found or not transfers:
        return (), ()
    offenders: list[int] = []
    for lia in found:
        if lia.offender not in offenders:
            offenders.append(lia.offender)
    replaced, payments = substitute(transfers, offenders)
    if not payments:
        return (), ()
    claim = win.claim
    concealed = all(lia.code == "wrong_kong_concealed" for lia in found)
    self_drawn = claim.source.is_self_draw
    win_zh, win_en = (claim.source.zh, claim.source.value.replace("_", " ")) if not self_drawn else \
        ("槓上開花" if claim.source.value in _TAIL_SOURCES else "自摸", "self-draw")
    payers = sorted({t.payer for t in replaced if isinstance(t.payer, int)})
    amount = sum(p.amount for p in payments if p.instead_of is not None)
    evidence = (claim.seq, *sorted({lia.opened for lia in found}))
    cites = tuple(dict.fromkeys(lia.clause for lia in found if lia.clause))
    if concealed:
        share_zh = "，共同平均賠付" if len(offenders) > 1 else ""
        share_en = ", shared equally" if len(offenders) > 1 else ""
        for o in offenders:
            mine = tuple(p for p in payments if p.payer == o)
            docket.make("wrong_kong_concealed", offender=o, evidence=evidence, payments=mine,
                        cites=("pen.substitute",), win_zh=win_zh, win=win_en, share_zh=share_zh, share=share_en)
        return replaced, payments
    window_zh = "；".join(dict.fromkeys(_window_zh(lia) for lia in found))
    window_en = "; ".join(dict.fromkeys(_window_en(lia) for lia in found))
    docket.make("substitute_liability", offender=offenders[0], evidence=evidence, payments=payments,
                effects=tuple(lia.effect() for lia in found), cites=cites, payee=claim.seat, win_zh=win_zh, win=win_en,
                window_zh=window_zh, window=window_en, amount=amount,
                payers_zh="、".join(docket.seat_zh(p) for p in payers) if payers else "原應付者",
                payers=", ".join(f"seat {p}" for p in payers) or "the usual payers")
    return replaced, payments


def _window_zh(lia: Liability) -> str:
    from .rulings import WINDOWS

    return WINDOWS[lia.kind][0].format(draws=lia.draws)


def _window_en(lia: Liability) -> str:
    from .rulings import WINDOWS

    return WINDOWS[lia.kind][1].format(draws=lia.draws)


__all__ = ["covers", "settle_win"]

"""錯碰 (``pen.wrong-pon.1``–``.2``), and a wrong chow that changed the turn order
(``pen.dead-hand`` 錯吃, ``pen.substitute``).

* ``pen.wrong-pon.1`` 錯碰未遂: the discard made after the wrong pung drew no reaction and
  the error was found before the next player drew a tile into the hand: restored, dead hand.
* ``pen.wrong-pon.2`` 錯碰既遂: that discard was claimed and the claimer discarded, or the
  next player drew into the hand: dead hand, and liable for others' self-draws within the
  next eight draws (代位賠付).

A wrong pung is any pung the referee found irregular (not alike, 過水碰, the last three
tiles, revealed tiles, a tile not held ...), except one made after losing priority
(``prio.penalty.2``, :mod:`penalties.priority`) and one made by a dead hand (a second
violation, :mod:`penalties.dead_hand`).

A wrong chow is 錯吃 (a dead hand). A chow from a seat other than the discarder's 下家
changes the turn order; when it stood it carries the same liability as a completed wrong
pung (``pen.substitute``: 錯槓、錯碰、錯打明牌**等**致使行牌順序因而改變; R-pen-7).
"""
from __future__ import annotations

from referee.events import Event

from .dead_hand import REFEREE_CAUSES, violate
from .docket import Docket, Liability
from .rulings import Effect
from .stages import claim_completed

#: draws a completed wrong pung is liable for (pen.wrong-pon.2: 其後摸序八張)
DRAWS = 8


def rule_pung(docket: Docket, ev: Event, codes: tuple[str, ...]) -> None:
    seat = ev.seat
    completed, caught, seqs = claim_completed(docket.record, seat, ev.seq)
    if completed:
        r = violate(docket, seat, ev.seq, (ev.seq, *seqs), code="wrong_pung_completed", cause="wrong_claim",
                    effects=(Effect("order_changed"), Liability(seat, "next_draws", ev.seq, "wrong_pung_completed",
                                                                  "pen.wrong-pon.2", DRAWS).effect()),
                    cites=("pen.dead-hand", "pen.substitute"))
        if r.code == "wrong_pung_completed":
            docket.open(Liability(seat, "next_draws", ev.seq, r.code, r.clause, DRAWS))
    else:
        evidence = (ev.seq, caught) if caught is not None else (ev.seq,)
        violate(docket, seat, ev.seq, evidence, code="wrong_pung_caught", cause="wrong_claim",
                effects=(Effect("restore", seat=seat), Effect("order_kept")), cites=("pen.dead-hand",))


def rule_chow(docket: Docket, ev: Event, codes: tuple[str, ...]) -> None:
    seat = ev.seat
    if "chow_wrong_seat" in codes:
        completed, _caught, seqs = claim_completed(docket.record, seat, ev.seq)
        if completed:
            r = violate(docket, seat, ev.seq, (ev.seq, *seqs), code="wrong_chow_completed", cause="wrong_claim",
                        effects=(Effect("order_changed"), Liability(seat, "next_draws", ev.seq, "wrong_chow_completed",
                                                                      "pen.substitute", DRAWS).effect()),
                        cites=("pen.dead-hand",))
            if r.code == "wrong_chow_completed":
                docket.open(Liability(seat, "next_draws", ev.seq, r.code, r.clause, DRAWS))
            return
    cause = next((REFEREE_CAUSES[c] for c in codes if c in REFEREE_CAUSES and REFEREE_CAUSES[c] != "wrong_claim"),
                 "wrong_claim")
    violate(docket, seat, ev.seq, (ev.seq,), cause=cause)


__all__ = ["DRAWS", "rule_chow", "rule_pung"]

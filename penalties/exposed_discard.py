"""錯打明牌 (``pen.exposed-discard``, ``.1``–``.4``): a discard taken from an exposed chow or
pung that the hand cannot put right with the same tile. The principle: keep the turn order.

What followed the wrong discard decides the case (before the next discard):

1. nobody claimed or won on it and it was caught: dead hand; the meld is restored and a
   correct tile discarded instead (the drawn tile, if he has none), facing claims as usual;
2. someone claimed it (a chow, pung or kong, or a call with the tiles shown): dead hand;
   restored and discarded again as in 1; each player who showed tiles to claim it gets
   1 台; the wrong discard may not be claimed;
3. someone won on it: he pays that win (the referee's settlement); the meld is restored
   and he must discard the tile he drew; if that deals in too he pays again and the hand
   ends. A hand ended by the exposed discard: the dealer passes if he made it, otherwise
   keeps the deal without counting the streak;
4. nobody corrected it and play went on (the next player drew): liable for others'
   self-draws within the next eight draws (代位賠付). No dead hand (the clause names none:
   R-pen-9).
"""
from __future__ import annotations

from referee.events import Call, Event, EventType
from referee.melds import MeldKind

from .dead_hand import violate
from .docket import Docket, Liability
from .extra_wins import discard_win
from .extra_wins import transfers as win_transfers
from .payments import fine
from .rulings import Effect
from .stages import CATCH_CODES

#: draws a wrong discard nobody corrected is liable for (其後摸序八張以內)
DRAWS = 8

_WORDS = {"why_zh": "錯打明牌", "why": "discarded a tile from an exposed meld (錯打明牌)"}


def rule(docket: Docket, ev: Event) -> None:
    record = docket.record
    seat, tile, d = ev.seat, ev.tile, ev.seq
    docket.ruled.add(d)
    wins: list[Event] = []
    claims: dict[int, int] = {}
    calls: dict[int, int] = {}
    caught = continued = None
    for e in record.after(d):
        if e.type is EventType.REPORT:
            if e.code in CATCH_CODES and e.seat in (seat, None):
                caught = e.seq
                break
            if e.code == "pair_exposed" and e.seat in calls:
                claims.setdefault(e.seat, e.seq)
            continue
        if e.seat == seat and e.type is not EventType.DISCARD:
            continue
        if e.type is EventType.WIN:
            wins.append(e)
        elif e.type in (EventType.CHOW, EventType.PUNG) or (
                e.type is EventType.KONG and e.kind is MeldKind.MELDED_KONG):
            claims.setdefault(e.seat, e.seq)
        elif e.type is EventType.CALL and e.kind in (Call.CHOW, Call.PUNG, Call.KONG):
            calls.setdefault(e.seat, e.seq)
        elif e.type is EventType.REVEAL and e.seat in calls and not e.by_other:
            claims.setdefault(e.seat, e.seq)
        elif e.type is EventType.DRAW and e.seat == (seat + 1) % 4 and not claims and not wins:
            continued = e.seq
            break
        elif e.type is EventType.DISCARD:
            break
    restore = (Effect("restore", seat=seat), Effect("must_discard", seat=seat), Effect("order_kept"))
    wins = [w for w in wins if not _false(record, w.seq)]
    docket.excused.add(d)
    if wins:
        _won(docket, ev, wins[0])
    elif claims:
        payments = tuple(fine(seat, c, tai=1, stakes=record.stakes) for c in sorted(claims))
        violate(docket, seat, d, (d, *sorted(claims.values()), *((caught,) if caught else ())),
                code="exposed_discard_claimed", cause="exposed_discard", tile=tile, payments=payments,
                effects=(*restore[:2], Effect("no_claim", tiles=(tile,)), restore[2]), cites=("pen.dead-hand",),
                **_WORDS)
    elif continued is not None and caught is None:
        liability = Liability(seat, "next_draws", d, "exposed_discard_unnoticed", "pen.exposed-discard.4", DRAWS)
        docket.open(liability)
        docket.make("exposed_discard_unnoticed", offender=seat, evidence=(d, continued), tile=tile,
                    effects=(liability.effect(),), cites=("pen.substitute",))
    else:
        violate(docket, seat, d, (d, caught) if caught else (d,), code="exposed_discard_restored",
                cause="exposed_discard", tile=tile, effects=restore, cites=("pen.dead-hand",),
                instead_zh="正確的牌（拿不出則打出摸來的牌）", instead="a correct tile (the tile it drew, if it has "
                                                                       "none)", **_WORDS)


def _false(record, seq: int) -> bool:
    """The win declared at *seq* cannot stand (the referee found it irregular)."""
    return any(i.code != "after_hand_end" for i in record.irregularities_at(seq))


def _won(docket: Docket, ev: Event, first: Event) -> None:
    """Case 3: the offender pays the deal-in, restores the meld and discards the tile he
    drew; a second deal-in on it is paid again and ends the hand. Both wins are scored here
    (the referee's hand ended at the first), replacing the referee's settlement."""
    record = docket.record
    seat = ev.seat
    redo = second = None
    for e in record.after(first.seq):
        if e.type is EventType.DISCARD:
            if e.seat == seat and redo is None:
                redo = e
                continue
            break
        if redo is not None and e.type is EventType.WIN and e.seat != seat:
            second = e
            break
    for w in record.wins:
        if w.claim.seq > ev.seq:
            docket.superseded.add(w.claim.seq)
    docket.ruled.add(first.seq)
    for i in record.irregularities_at(first.seq):
        docket.used.add((i.seq, i.code))
    first_paid = discard_win(record, first, seat, ev.tile)
    if first_paid is None:
        first_paid = next((win_transfers(w.settlement) for w in record.wins
                           if w.claim.seq == first.seq and w.settlement is not None), ())
    effects = [Effect("restore", seat=seat), Effect("must_discard", seat=seat), Effect("order_kept")]
    if second is None:
        effects += docket.dealer_effects(seat)
        docket.make("exposed_discard_won", offender=seat, evidence=(ev.seq, first.seq), tile=ev.tile, payee=first.seat,
                    effects=tuple(effects), payments=first_paid, **docket.dealer_words(seat))
        return
    docket.make("exposed_discard_won", offender=seat, evidence=(ev.seq, first.seq), tile=ev.tile, payee=first.seat,
                effects=tuple(effects), payments=first_paid)
    for s in (redo.seq, second.seq):
        docket.ruled.add(s)
        for i in record.irregularities_at(s):
            docket.used.add((i.seq, i.code))
    payments = discard_win(record, second, seat, redo.tile) or ()
    docket.make("exposed_discard_won_twice", offender=seat, evidence=(redo.seq, second.seq), payee=second.seat,
                payments=payments, effects=docket.dealer_effects(seat), **docket.dealer_words(seat))


__all__ = ["DRAWS", "rule"]

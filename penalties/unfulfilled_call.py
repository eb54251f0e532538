"""喊碰未碰 (``pen.unfulfilled-call``).

「已為碰牌之意思表示(不限於喊碰)而未履行，罰1台付予打出該牌(上家之舍牌除外)者；惟如已亮出同牌之對牌則必須履行碰牌。」

* a pung (or melded-kong) call not carried out: 1 台 (no base) to the discarder;
* not when the discarder is the caller's 上家 (he might have meant a chow);
* a caller who showed the pair (a ``reveal`` of two or more of the tile, or an official's
  ``pair_exposed`` report, after the call) must make the pung: no fine, the pung is forced.

A chow call not carried out is not fined (the clause names 碰 only; R-pen-6); a win call
not carried out is a 詐胡 or a passed win, not this.
"""
from __future__ import annotations

from referee.events import EventType

from .docket import Docket
from .payments import fine
from .rulings import Effect, Ruling


def pair_shown(docket: Docket, seat: int, tile: int | None, call_seq: int) -> int | None:
    """The seq of a reveal (or ``pair_exposed`` report) by *seat* showing the pair after the
    call and before the next discard closes the window."""
    for ev in docket.record.after(call_seq):
        if ev.type is EventType.DISCARD:
            return None
        if ev.seat != seat:
            continue
        if ev.type is EventType.REVEAL and not ev.by_other and ev.tiles and (tile is None or ev.tiles.count(tile) >= 2):
            return ev.seq
        if ev.type is EventType.REPORT and ev.code == "pair_exposed":
            return ev.seq
    return None


def rule_call(docket: Docket, *, seat: int, seq: int, discarder: int | None, tile: int | None, call: str = "pung",
              evidence: tuple[int, ...] = (), code: str = "unfulfilled_call",
              cites: tuple[str, ...] = ()) -> Ruling | None:
    """Rule on a pung (or melded-kong) call *seat* made at event *seq* and did not carry out."""
    if call not in ("pung", "kong"):
        return None
    evidence = evidence or (seq,)
    shown = pair_shown(docket, seat, tile, seq)
    if shown is not None:
        return docket.make("unfulfilled_call_forced", offender=seat, evidence=(*evidence, shown), tile=tile,
                           effects=(Effect("forced_pung", seat=seat, tiles=(tile,) if tile is not None else ()),),
                           cites=cites)
    if discarder is None:
        return None
    if discarder == (seat - 1) % 4:  # 上家之舍牌除外 (pen.unfulfilled-call)
        if code != "unfulfilled_call":  # a wrong kong caught in time: restored, the call not fined
            return docket.make(f"{code}_previous", offender=seat, evidence=evidence, cites=cites,
                               effects=(Effect("restore", seat=seat),))
        return docket.make("unfulfilled_call_previous", offender=seat, evidence=evidence, tile=tile, cites=cites)
    r = docket.record
    payment = fine(seat, discarder, tai=1, stakes=r.stakes)
    if code == "unfulfilled_call":
        return docket.make(code, offender=seat, evidence=evidence, tile=tile, payee=discarder, payments=(payment,),
                           cites=cites)
    return docket.make(code, offender=seat, evidence=evidence, payments=(payment,), cites=cites,
                       effects=(Effect("restore", seat=seat),),
                       payee_zh=f"付予打出該牌的{docket.seat_zh(discarder)}", payee_en=f" to seat {discarder}, who "
                                                                                       f"discarded the tile")


__all__ = ["pair_shown", "rule_call"]

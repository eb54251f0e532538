"""錯槓 (``pen.wrong-kong``): a kong of four tiles not all alike.

**錯暗槓** (``pen.wrong-kong.concealed``, presumed intentional): the offender is a dead hand
once it is found (``.3``) and

* ``.1`` pays in place of the usual payers when someone wins on a tail tile (槓上開花, on a
  kong's or a flower's replacement) or deals in with a tail tile discarded as drawn: the
  concealed kongs are inspected then; several wrong concealed kongs share equally;
* ``.3`` owes nothing for other wins — except a kong made within the wall's last eight
  drawable tiles, whose maker is liable for every later win (R-pen-8);
* ``.2`` such a kong found at an exhaustive draw: the maker pays all three (包賠).

**錯加槓** (``pen.wrong-kong.added``) by how far it got before it was caught: corrected
before the replacement — free (unless robbed: the robbing win stands and he pays it);
``.1`` the replacement not yet in the hand — restored, free (a dead hand where the ruleset
is strict: ``penalties.added_kong_peek_dead_hand``); ``.2`` in the hand, no discard yet —
the tile goes back (or, if it cannot be identified, another player draws one at random
and puts it back, and the offender is liable for that tail tile), dead hand, original
order; ``.3`` a tile discarded — it stands: dead hand, new order, liable for tail-tile
wins for the rest of the hand; within the last eight drawable tiles: 包賠 and the hand ends.

**錯碰槓** (``pen.wrong-kong.melded``): corrected before the replacement — fined as a pung
called and not made (``pen.unfulfilled-call``); ``.1`` the replacement back onto the
tail, dead hand, the pung stays exposed (見光死); ``.2`` in the hand: as ``.1`` if the tile
can be identified, otherwise one put back at random and liability for that tail tile;
``.3`` it stands: dead hand, new order, liable for others' self-draws within the next eight
draws and tail-tile wins for the rest of the hand; within the last eight: 包賠, hand ends.

"Within the last eight drawable tiles" (最後可摸之牌8張以內) is read on the wall when the
kong was declared: eight or fewer drawable tiles left (R-pen-8).
"""
from __future__ import annotations

from typing import Any

from referee.events import Event, EventType
from referee.melds import MeldKind

from .dead_hand import violate
from .docket import Docket, Liability
from .face import face_value
from .rulings import Effect
from .stages import Progress, progress
from .unfulfilled_call import rule_call

#: 末八張 / 最後可摸之牌8張以內
LAST_TILES = 8
#: the liability of a completed wrong melded kong for self-draws (其後暗牌8張以內)
DRAWS = 8

_KIND = {"concealed": MeldKind.CONCEALED_KONG, "added": MeldKind.ADDED_KONG, "melded": MeldKind.MELDED_KONG}


def live_at(docket: Docket, seq: int, facts_live: Any = None) -> int:
    """Drawable tiles left when the kong was declared."""
    if type(facts_live) is int:
        return facts_live
    prev = None
    for ev in docket.record.before(seq):
        prev = ev
        break
    return docket.record.moment(prev.seq).live if prev is not None else docket.record.moment(seq).live


def rule_kong(docket: Docket, ev: Event, facts: dict[str, Any]) -> None:
    """Rule on a wrong kong made at event *ev* (the referee's ``wrong_kong`` facts)."""
    kind = facts.get("kind") or {MeldKind.CONCEALED_KONG: "concealed",
                                 MeldKind.ADDED_KONG: "added"}.get(ev.kind, "melded")
    live = live_at(docket, ev.seq, facts.get("live"))
    if kind == "concealed":
        concealed(docket, ev.seat, ev.seq, (ev.seq,), live)
    elif kind == "added":
        added(docket, ev, live, facts)
    else:
        melded(docket, ev, live, facts)


def concealed(docket: Docket, seat: int, kong_seq: int, evidence: tuple[int, ...], live: int) -> None:
    """A wrong concealed kong found: dead hand (``.3``), liabilities (``.1``, ``.3`` last eight)."""
    last = live <= LAST_TILES
    tail = Liability(seat, "kong_tail", kong_seq, "wrong_kong_concealed", "pen.wrong-kong.concealed.1", shared=True)
    effects = [tail.effect()]
    if last:
        effects.append(Liability(seat, "any_win", kong_seq, "wrong_kong_concealed", "pen.wrong-kong.concealed.3",
                                 shared=True).effect())
        words = {"liability_zh": "有人槓上開花或槓底補牌原牌打出放銃時代位賠付；此槓在末八張內，"
                                 "其後他人之自摸與胡銃亦代位賠付，荒局則依牌面包賠三家。",
                 "liability": "it pays in place of others for wins on tail tiles; made within the last eight tiles, it "
                              "also pays for every later win, and for all three at an exhaustive draw."}
    else:
        words = {"liability_zh": "有人槓上開花或槓底補牌原牌打出放銃時代位賠付，其他胡牌無賠付責任。",
                 "liability": "it pays in place of others for wins on tail tiles, and owes nothing for other wins."}
    r = violate(docket, seat, evidence[-1], evidence, code="wrong_kong_concealed_found", cause="wrong_claim",
                effects=tuple(effects), cites=("pen.wrong-kong.concealed", "pen.wrong-kong.concealed.1"), **words)
    if r.has("hand_ended"):
        return
    docket.open(tail)
    if last:
        docket.open(Liability(seat, "any_win", kong_seq, "wrong_kong_concealed", "pen.wrong-kong.concealed.3",
                              shared=True))
        docket.last_concealed.append((seat, kong_seq))


def inspected(docket: Docket, report: Event) -> None:
    """An official's inspection found *report.seat*'s concealed kong wrong (``report``
    code ``wrong_kong``): the seat's last concealed kong before the report."""
    seat = report.seat
    kong = None
    for ev in docket.record.before(report.seq):
        if ev.type is EventType.KONG and ev.seat == seat and ev.kind is MeldKind.CONCEALED_KONG:
            kong = ev
            break
    if kong is None:
        return
    if kong.seq in docket.ruled:
        return
    docket.ruled.add(kong.seq)
    concealed(docket, seat, kong.seq, (kong.seq, report.seq), live_at(docket, kong.seq))


def _return_effects(seat: int, unidentifiable: bool, *, melded: bool) -> tuple[list[Effect], dict[str, str]]:
    effects: list[Effect] = []
    if unidentifiable:
        effects.append(Effect("random_tile_to_tail", seat=seat))
        words = {"return_zh": "無法確定哪張牌，由他人任抽一牌置回槓上，並對其後該張槓上牌發生的自摸、"
                              "原牌放銃負代位賠付責任",
                 "return_en": "the tile cannot be identified, so another player draws one at random and puts it back; "
                              "it is liable for a self-draw on that tail tile or a deal-in with it as drawn"}
    else:
        effects.append(Effect("tile_to_tail", seat=seat))
        if melded:
            effects.append(Effect("tiles_exposed", seat=seat))
        words = {"return_zh": "該牌強制歸回槓上" + ("，該刻子見光死亮出門前" if melded else ""),
                 "return_en": "the tile goes back onto the tail" + (" and the pung stays exposed" if melded else "")}
    effects.append(Effect("order_kept"))
    return effects, words


def added(docket: Docket, ev: Event, live: int, facts: dict[str, Any]) -> None:
    """A wrong added kong, by how far it got (the referee's fact, :func:`penalties.stages.progress`)."""
    seat = ev.seat
    p = progress(facts)
    ev_caught = (p.caught,) if p.caught is not None else ()
    if p.robbed is not None:
        docket.ruled.add(ev.seq)
        docket.make("wrong_kong_added_robbed", offender=seat, evidence=(ev.seq, p.robbed))
        return
    if p.stage == "declared":
        docket.ruled.add(ev.seq)
        docket.make("wrong_kong_added_corrected", offender=seat, evidence=(ev.seq, *ev_caught),
                    effects=(Effect("restore", seat=seat),))
        return
    if p.stage == "replaced":
        strict = bool(docket.record.ruleset.values["penalties.added_kong_peek_dead_hand"])
        effects = (Effect("tile_to_tail", seat=seat), Effect("restore", seat=seat), Effect("order_kept"))
        if strict:
            violate(docket, seat, ev.seq, (ev.seq, *p.seqs, *ev_caught), code="wrong_kong_added_restored",
                    cause="peeked", effects=effects, strict_zh="；較嚴的場合因偷窺槓上暗牌判相公",
                    strict="; the table is strict: peeking at the tail tile makes a dead hand")
        else:
            docket.ruled.add(ev.seq)
            docket.make("wrong_kong_added_restored", offender=seat, evidence=(ev.seq, *p.seqs, *ev_caught),
                        effects=effects, strict_zh="，免罰", strict=", no penalty")
        return
    if p.stage == "placed":
        _returned(docket, ev, p, ev_caught, "wrong_kong_added_returned", "pen.wrong-kong.added.2", melded=False)
        return
    _completed(docket, ev, p, live, "wrong_kong_added_completed", "wrong_kong_added_last_tiles",
               "pen.wrong-kong.added.3", draws=False)


def melded(docket: Docket, ev: Event, live: int, facts: dict[str, Any]) -> None:
    """A wrong melded kong, by how far it got (the referee's fact, :func:`penalties.stages.progress`)."""
    seat = ev.seat
    p = progress(facts)
    ev_caught = (p.caught,) if p.caught is not None else ()
    if p.stage == "declared":
        docket.ruled.add(ev.seq)
        discard = _claimed_discard(docket, ev)
        rule_call(docket, seat=seat, seq=ev.seq, discarder=discard.seat if discard is not None else None,
                  tile=discard.tile if discard is not None else None, call="kong", evidence=(ev.seq, *ev_caught),
                  code="wrong_kong_melded_call", cites=("pen.wrong-kong.melded", "pen.unfulfilled-call"))
        return
    if p.stage == "replaced" or (p.stage == "placed" and not p.unidentifiable):
        code = "wrong_kong_melded_restored" if p.stage == "replaced" else "wrong_kong_melded_returned"
        effects, words = _return_effects(seat, False, melded=True)
        violate(docket, seat, ev.seq, (ev.seq, *p.seqs, *ev_caught), code=code, cause="wrong_claim",
                effects=tuple(effects), cites=("pen.wrong-kong.melded.1",) if p.stage == "placed" else (), **words)
        return
    if p.stage == "placed":  # and cannot be told apart (else restored above)
        _returned(docket, ev, p, ev_caught, "wrong_kong_melded_returned", "pen.wrong-kong.melded.2", melded=True)
        return
    _completed(docket, ev, p, live, "wrong_kong_melded_completed", "wrong_kong_melded_last_tiles",
               "pen.wrong-kong.melded.3", draws=True)


def _completed(docket: Docket, ev: Event, p: Progress, live: int, code: str, last_code: str, clause: str, *,
               draws: bool) -> None:
    """A wrong added or melded kong completed (its replacement kept): within the last eight
    drawable tiles 包賠 and the hand ends (:func:`_aggravated`); otherwise the offender pays in
    place of others (代位賠付, ``pen.substitute``) for a win on the kong's tail and, for a melded
    kong, on the next draws (``pen.wrong-kong.added.3``, ``pen.wrong-kong.melded.3``)."""
    seat = ev.seat
    evidence = (ev.seq, *p.seqs)
    if live <= LAST_TILES:
        _aggravated(docket, seat, ev.seq, evidence, last_code)
        return
    liabilities = (Liability(seat, "next_draws", ev.seq, code, clause, DRAWS),) if draws else ()
    liabilities += (Liability(seat, "kong_tail", ev.seq, code, clause),)
    r = violate(docket, seat, ev.seq, evidence, code=code, cause="wrong_claim",
                effects=(Effect("order_changed"), *(li.effect() for li in liabilities)), cites=("pen.substitute",))
    if r.code == code:
        for liability in liabilities:
            docket.open(liability)


def _returned(docket: Docket, ev: Event, p: Progress, ev_caught: tuple[int, ...], code: str, clause: str, *,
              melded: bool) -> None:
    """A wrong added or melded kong whose replacement was placed into the hand: the tile goes
    back onto the tail (``pen.wrong-kong.added.2``, ``pen.wrong-kong.melded.2``); when it cannot
    be told apart, another player draws one at random for it and the offender pays in place of
    others for a win on that tail tile (代位賠付, ``pen.substitute``), from the moment it was caught."""
    seat = ev.seat
    effects, words = _return_effects(seat, p.unidentifiable, melded=melded)
    liability = None
    if p.unidentifiable:
        liability = _tail_tile(docket, seat, p.caught if p.caught is not None else p.seqs[-1], code, clause)
        effects.append(liability.effect())
    r = violate(docket, seat, ev.seq, (ev.seq, *p.seqs, *ev_caught), code=code, cause="wrong_claim",
                effects=tuple(effects), cites=("pen.substitute",) if liability else (), **words)
    if liability is not None and r.code == code:
        docket.open(liability)


def _tail_tile(docket: Docket, seat: int, at: int, code: str, clause: str) -> Liability:
    return Liability(seat, "tail_tile", at, code, clause, tail_at=docket.record.moment(at).tail)


def _aggravated(docket: Docket, seat: int, seq: int, evidence: tuple[int, ...], code: str) -> None:
    """A completed wrong added / melded kong within the last eight drawable tiles: 包賠, the hand ends."""
    docket.ruled.add(seq)
    docket.violations[seat] = docket.violations.get(seat, 0) + 1
    face, _how = face_value(docket.record, seat, evidence[-1])
    docket.make(code, offender=seat, evidence=evidence,
                effects=(Effect("dead_hand", seat=seat), *docket.dealer_effects(seat)),
                payments=docket.pay_all(seat, face), cites=("pen.pay-all",), face=face)


def _claimed_discard(docket: Docket, ev: Event) -> Event | None:
    for prev in docket.record.before(ev.seq):
        if prev.type is EventType.DISCARD:
            return prev
    return None


def exhausted(docket: Docket) -> None:
    """荒局 with a wrong concealed kong made within the last eight tiles: 包賠 (``.2``)."""
    for seat, kong_seq in docket.last_concealed:
        face, _how = face_value(docket.record, seat, docket.record.events[-1].seq + 1)
        docket.make("wrong_kong_concealed_exhausted", offender=seat, evidence=(kong_seq,),
                    payments=docket.pay_all(seat, face), cites=("pen.pay-all",), face=face)


__all__ = ["DRAWS", "LAST_TILES", "added", "concealed", "exhausted", "inspected", "melded", "rule_kong"]

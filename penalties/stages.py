"""How far an error got before it was caught (既遂 / 未遂, GLOSSARY: completed / caught).

The officials stop play with a ``report`` event (code ``caught``, ``seat`` the offender;
any report naming the offender's error by its code counts too). Without one, the error
got as far as the stream shows.

A wrong kong's stage is the referee's fact (:class:`referee.state.WrongKongProgress`, the
``wrong_kong`` irregularity's facts at the close): :func:`progress` reads it.
:func:`kong_progress` walks the events after the kong instead — the reference the tests
hold the referee's fact to (``tests/test_h13_streams.py``); penalties do not call it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typing import Any

from referee.events import Event, EventType
from referee.state import CATCH_CODES

from .record import HandRecord
from .rulings import Ruling

#: a kong's stages in order (the referee's ``stage`` fact uses the same words)
KONG_STAGES = ("declared", "replaced", "placed", "completed")


@dataclass(frozen=True, slots=True)
class Progress:
    """Where an error stood when it was caught (or the stream ended).

    :param stage: ``declared`` / ``replaced`` / ``placed`` / ``completed`` for a kong.
    :param caught: the seq of the report that caught it, or ``None``.
    :param seqs: the events that moved it on (the tail draw, the placing, the discard).
    :param robbed: for an added kong: the seq of a win robbing it before the replacement.
    :param unidentifiable: an official reported the placed tile cannot be identified.
    """

    stage: str
    caught: int | None
    seqs: tuple[int, ...] = ()
    robbed: int | None = None
    unidentifiable: bool = False


def progress(facts: dict[str, Any]) -> Progress:
    """A wrong kong's :class:`Progress` as the referee followed it (the ``wrong_kong``
    irregularity's facts: ``stage``, ``stage_seqs``, ``caught``, ``robbed``, ``unidentifiable``)."""
    return Progress(facts.get("stage", "declared"), facts.get("caught"), tuple(facts.get("stage_seqs", ())),
                    facts.get("robbed"), bool(facts.get("unidentifiable", False)))


def caught_at(record: HandRecord, seat: int, after: int, until: int | None = None) -> int | None:
    """The seq of the first report catching *seat*'s error after event *after*."""
    for ev in record.after(after, until):
        if ev.type is EventType.REPORT and ev.code in CATCH_CODES and ev.seat in (seat, None):
            return ev.seq
    return None


def kong_progress(record: HandRecord, seat: int, kong_seq: int) -> Progress:
    """A kong's stage: replacement drawn (``replaced``), placed into the hand (``placed``),
    a tile discarded after it (``completed``) — up to the report that caught it."""
    stage = "declared"
    seqs: list[int] = []
    robbed = None
    unidentifiable = False
    caught = None
    for ev in record.after(kong_seq):
        if ev.type is EventType.REPORT and ev.seat in (seat, None):
            if ev.code == "tile_unidentifiable":
                unidentifiable = True
            if ev.code in CATCH_CODES:
                caught = ev.seq
                break
        if ev.type is EventType.WIN and ev.seat != seat and stage == "declared":
            robbed = ev.seq
            break
        if ev.seat != seat:
            continue
        if ev.type is EventType.TAIL_DRAW and stage == "declared":
            stage = "replaced"
            seqs.append(ev.seq)
        elif ev.type is EventType.PLACE and stage == "replaced":
            stage = "placed"
            seqs.append(ev.seq)
        elif ev.type is EventType.DISCARD and stage in ("replaced", "placed"):
            stage = "completed"
            seqs.append(ev.seq)
            break
        elif ev.type is EventType.WIN:
            break
    if caught is not None and not unidentifiable:
        for ev in record.after(caught):
            if ev.type is EventType.REPORT and ev.code == "tile_unidentifiable" and ev.seat in (seat, None):
                unidentifiable = True
                break
            if ev.type is not EventType.REPORT:
                break
    return Progress(stage, caught, tuple(seqs), robbed, unidentifiable)


def claim_completed(record: HandRecord, seat: int, act_seq: int) -> tuple[bool, int | None, tuple[int, ...]]:
    """After a claim by *seat* (a wrong pung or chow, ``pen.wrong-pon``): did it stand?

    It stood (既遂) when the discard made after it was claimed and the claimer discarded in
    turn, or the next player drew and placed the tile into the hand (or discarded after
    drawing), before a report caught it. Returns ``(completed, caught seq, evidence)``.
    """
    discard = None
    for ev in record.after(act_seq):
        if ev.type is EventType.REPORT and ev.code in CATCH_CODES and ev.seat in (seat, None):
            return False, ev.seq, ()
        if ev.type is EventType.DISCARD and ev.seat == seat:
            discard = ev
            break
        if ev.type is EventType.WIN:
            return False, None, ()
    if discard is None:
        return False, None, ()
    nxt = (seat + 1) % 4
    claimer = None
    drew = None
    for ev in record.after(discard.seq):
        if ev.type is EventType.REPORT and ev.code in CATCH_CODES and ev.seat in (seat, None):
            return False, ev.seq, ()
        if ev.type in (EventType.CHOW, EventType.PUNG) or (ev.type is EventType.KONG and ev.seat != seat
                                                            and getattr(ev.kind, "name", "") == "MELDED_KONG"):
            if ev.seat != seat and claimer is None:
                claimer = ev
            continue
        if ev.type is EventType.DISCARD:
            if claimer is not None and ev.seat == claimer.seat:
                return True, None, (discard.seq, claimer.seq, ev.seq)
            if drew is not None and ev.seat == nxt:
                return True, None, (discard.seq, drew.seq, ev.seq)
            return False, None, ()
        if ev.type is EventType.DRAW and ev.seat == nxt and claimer is None:
            drew = ev
            continue
        if ev.type is EventType.PLACE and drew is not None and ev.seat == nxt:
            return True, None, (discard.seq, drew.seq, ev.seq)
        if ev.type is EventType.WIN:
            return False, None, ()
    return False, None, ()


#: rulings on how far an error got that the act ending its course settles: the last of
#: their evidence (a wrong concealed kong is what it is when made or inspected; a wrong kong
#: or pung completed; an exposed discard played past, ``pen.exposed-discard.4``)
SETTLED_BY_ACT = frozenset({
    "wrong_kong_concealed_found", "wrong_kong_added_completed", "wrong_kong_added_last_tiles",
    "wrong_kong_melded_completed", "wrong_kong_melded_last_tiles", "wrong_pung_completed", "wrong_chow_completed",
    "exposed_discard_unnoticed"})
#: rulings on how far an error got that the report catching it settles (the error goes no
#: further: ``pen.wrong-kong.added``/``.1``/``.2``, ``pen.wrong-kong.melded``/``.1``/``.2``,
#: ``pen.wrong-pon.1``, ``pen.exposed-discard.1``/``.2``)
SETTLED_BY_CATCH = frozenset({
    "wrong_kong_added_corrected", "wrong_kong_added_restored", "wrong_kong_added_returned", "wrong_kong_melded_call",
    "wrong_kong_melded_call_previous", "wrong_kong_melded_restored", "wrong_kong_melded_returned",
    "wrong_pung_caught", "exposed_discard_restored", "exposed_discard_claimed"})
#: rulings on how far an error got: given when :func:`settled` (:mod:`penalties.adjudicator`)
STAGED_CODES = SETTLED_BY_ACT | SETTLED_BY_CATCH


def is_staged(ruling: Ruling) -> bool:
    """A ruling on how far an error got: one of :data:`STAGED_CODES`, or a dead hand's exposed
    discard, whose violation :func:`penalties.dead_hand.violate` names a second one
    (``dead_hand_second_violation``, ``pen.pay-all``) whether the tile was restored or claimed;
    it is settled as those are (:func:`settled`)."""
    return ruling.code in STAGED_CODES or (ruling.code == "dead_hand_second_violation"
                                           and ruling.cause == "exposed_discard")


def settled(ruling: Ruling, events: Sequence[Event]) -> bool:
    """Is *ruling* (one of :data:`STAGED_CODES`, made on *events*, the hand so far) settled —
    can no later event move the error on, so the same ruling stands at the close?

    One of :data:`SETTLED_BY_ACT` is (its evidence ends with the act that ended the error's
    course). One of :data:`SETTLED_BY_CATCH` is once a report caught the error (it is among
    the evidence: :func:`kong_progress`, :func:`claim_completed` and the exposed discard's walk
    stop there) — a kong's replacement placed into the hand (``…_returned``) once it is also
    known whether the tile can be identified: a ``tile_unidentifiable`` report (the tile goes
    back at random) or an event after the catch other than a report (the reports right after
    it may still say so). An exposed discard claimed is settled by the next discard too; a
    dead hand's (:func:`is_staged`) as the discard's own ruling would be."""
    code = ruling.code
    if code == "dead_hand_second_violation":
        code = _exposed_course(ruling, events)
    if code in SETTLED_BY_ACT:
        return True
    if code not in SETTLED_BY_CATCH:
        return False
    by_seq = {ev.seq: ev for ev in events}
    catch = next((s for s in ruling.evidence if (ev := by_seq.get(s)) is not None and ev.type is EventType.REPORT
                  and ev.code in CATCH_CODES), None)
    if catch is None:
        first = ruling.evidence[0]
        return code == "exposed_discard_claimed" and any(
            ev.type is EventType.DISCARD and ev.seq > first for ev in events)
    if code.endswith("_returned") and not ruling.has("random_tile_to_tail"):
        return any(ev.seq > catch and ev.type is not EventType.REPORT for ev in events)
    return True


def _exposed_course(ruling: Ruling, events: Sequence[Event]) -> str:
    """A dead hand's exposed discard's ruling, by its evidence (:func:`penalties.exposed_discard.rule`:
    the discard, then the claims shown, then the report that caught it): claimed, or restored."""
    by_seq = {ev.seq: ev for ev in events}
    claimed = any((ev := by_seq.get(s)) is not None and not (ev.type is EventType.REPORT and ev.code in CATCH_CODES)
                  for s in ruling.evidence[1:])
    return "exposed_discard_claimed" if claimed else "exposed_discard_restored"


__all__ = ["CATCH_CODES", "KONG_STAGES", "SETTLED_BY_ACT", "SETTLED_BY_CATCH", "STAGED_CODES", "Progress",
           "caught_at", "claim_completed", "is_staged", "kong_progress", "progress", "settled"]

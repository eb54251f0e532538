"""The docket: what the officials have ruled so far in a hand, as the events are read in
order — rulings, who is a dead hand (相公) and how many violations each seat has, who walks
as the eye (眼牌), the liability windows open (代位賠付), the ruling that ended the hand.

Each ruling module reads and writes it; :func:`penalties.rule` settles the money at the
end. One docket per hand; nothing here is shared.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .codes import render
from .payments import pay_all
from .record import HandRecord
from .rulings import Effect, Payment, Ruling


@dataclass
class Liability:
    """A liability window (代位賠付, ``pen.substitute``): *offender* pays, instead of the
    usual payer, for wins that fall inside it.

    :param kind: ``next_draws`` (others' self-draws within the next *draws* draws),
        ``kong_tail`` (self-draws on a tail tile and deal-ins with a tail tile discarded as
        drawn, for the rest of the hand), ``tail_tile`` (only the next tail tile),
        ``any_win`` (every later win by another seat).
    :param opened: the seq after which it counts.
    :param code: / :param clause: the ruling that opened it.
    :param shared: wrong concealed kongs share equally (``pen.wrong-kong.concealed.1``).
    """

    offender: int
    kind: str
    opened: int
    code: str
    clause: str
    draws: int | None = None
    shared: bool = False
    #: for tail_tile: tail draws counted when it opened (it covers the next one)
    tail_at: int = 0

    def effect(self) -> Effect:
        return Effect("liability", seat=self.offender, window=self.kind, draws=self.draws, seq=self.opened)


@dataclass
class Docket:
    """The running record of rulings for one hand (see the module docstring)."""

    record: HandRecord
    rulings: list[Ruling] = field(default_factory=list)
    #: seat → seq of the ruling that made it a dead hand
    dead: dict[int, int] = field(default_factory=dict)
    #: seat → violations so far (a dead-hand cause, a walking-eye violation ...)
    violations: dict[int, int] = field(default_factory=dict)
    #: seat → seq its walking eye (眼牌) began
    walking: dict[int, int] = field(default_factory=dict)
    liabilities: list[Liability] = field(default_factory=list)
    #: the ruling that ended the hand, if any
    ended: Ruling | None = None
    #: WIN event seqs whose win is void
    void_wins: set[int] = field(default_factory=set)
    #: event seqs already ruled on as a whole (one ruling per act)
    ruled: set[int] = field(default_factory=set)
    #: (seq, code) of the referee's irregularities a ruling used
    used: set[tuple[int, str]] = field(default_factory=set)
    #: WIN event seqs whose referee settlement a ruling replaces with its own payments (錯打明牌 .3)
    superseded: set[int] = field(default_factory=set)
    #: WIN event seqs a priority ruling upheld and paid itself
    upheld: set[int] = field(default_factory=set)
    #: discard seqs whose claims are excused (錯打明牌: they may not be claimed, pen.exposed-discard.2)
    excused: set[int] = field(default_factory=set)
    #: (discard seq, seat): calls a priority decision upheld, or carried out on another tile
    excused_calls: set[tuple[int, int]] = field(default_factory=set)
    #: (claim seq, seat) of claims a priority decision upheld by the gestures' times (prio.3, prio.4)
    upheld_claims: set[tuple[int, int]] = field(default_factory=set)
    #: seat → seq of a claim that stood although the referee refused it (prio.penalty.2):
    #: its next discard's turn irregularities follow from it and are not ruled again
    stood: dict[int, int] = field(default_factory=dict)
    #: (seat, kong seq) of wrong concealed kongs made within the last eight tiles (pen.wrong-kong.concealed.2)
    last_concealed: list[tuple[int, int]] = field(default_factory=list)

    # ---- writing
    def add(self, ruling: Ruling) -> Ruling:
        self.rulings.append(ruling)
        if ruling.ends_hand and self.ended is None:
            self.ended = ruling
        if ruling.has("win_void") and ruling.evidence:
            self.void_wins.add(ruling.evidence[0])
        dead = ruling.effect("dead_hand")
        if dead is not None and dead.seat is not None:
            self.dead.setdefault(dead.seat, ruling.evidence[0] if ruling.evidence else 0)
        return ruling

    def make(self, code: str, *, offender: int | None, evidence: tuple[int, ...], effects: tuple[Effect, ...] = (),
             payments: tuple[Payment, ...] = (), cites: tuple[str, ...] = (), cause: str = "",
             clause: str | None = None, **words: Any) -> Ruling:
        """Build a ruling from the catalogue (:data:`penalties.codes.CODES`) and add it."""
        default_clause, zh, en = render(code, east=self.east, names=self.record.names, **{"seat": offender, **words})
        return self.add(Ruling(code, clause or default_clause, offender, tuple(dict.fromkeys(evidence)), tuple(effects),
                               tuple(payments), zh, en, tuple(c for c in cites if c != (clause or default_clause)),
                               cause))

    def open(self, liability: Liability) -> None:
        self.liabilities.append(liability)

    # ---- reading
    @property
    def east(self) -> int | None:
        """The hand's wall-break seat (開門位 = 東): seats are read out by wind from it."""
        state = self.record.adjudication.state
        return getattr(state, "east", None)

    def seat_zh(self, seat: int) -> str:
        """「東家」…: *seat* as the official names it (:func:`penalties.codes.seat_words`)."""
        from .codes import seat_words

        return seat_words(seat, self.east, self.record.names)[0]

    def is_dead(self, seat: int | None, seq: int) -> bool:
        """The seat was ruled a dead hand before event *seq*."""
        return seat is not None and seat in self.dead and self.dead[seat] < seq

    def pay_all(self, offender: int, face: int) -> tuple[Payment, ...]:
        r = self.record
        return pay_all(offender, face=face, dealer=r.dealer, streak=r.streak, marker=r.marker, stakes=r.stakes,
                       ruleset=r.ruleset)

    def dealer_effects(self, offender: int) -> tuple[Effect, ...]:
        """A hand ended by a penalty: the dealer passes if he offended, otherwise he keeps
        the deal without counting the streak (``pen.false-win.3``, ``pen.exposed-discard.3``;
        R-pen-3 for every 包賠)."""
        dealer = self.record.dealer
        if offender == dealer:
            return (Effect("hand_ended"), Effect("dealer_passes", seat=dealer))
        return (Effect("hand_ended"), Effect("dealer_keeps_no_streak", seat=dealer))

    def dealer_words(self, offender: int) -> dict[str, str]:
        dealer = self.record.dealer
        if offender == dealer:
            return {"dealer_zh": "莊家下莊", "dealer": "the dealer passes the deal"}
        return {"dealer_zh": "莊家續莊，但本盤不計連莊序", "dealer": "the dealer keeps the deal without counting this "
                                                                     "hand in the streak"}


__all__ = ["Docket", "Liability"]

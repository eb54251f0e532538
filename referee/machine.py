"""The referee's state machine: apply one event, get its verdict (``issue #4``).

:class:`Referee` keeps one hand's :class:`referee.state.TableState` and changes it in
place, event by event. Batch replay (:func:`referee.replay.replay`) is nothing but
:meth:`Referee.apply` on each event in turn, then :meth:`Referee.finish`: live and batch
agree by construction.

What it checks, by clause:

* setup: ``seat.dice.*`` / ``seat.banfeng`` (搬風 dice), ``seat.dealer`` (定莊 dice),
  ``deal.wall`` / ``deal.break`` (開門 dice, the deal in takes of four and the 門牌),
  ``deal.walls`` (a full set), ``deal.flowers`` / ``app.flowers.initial`` (replacement
  rounds);
* turns: ``play.draw`` (order, the wall's tile at a digital table), ``play.discard``,
  ``play.restrict`` (one intake per turn), ``deal.flowers`` / ``app.flowers.play``
  (flowers laid out and replaced at once), ``play.exhausted`` (the dead wall);
* claims: ``play.chi`` / ``app.chi`` (上家 only, a run), ``play.pon`` / ``app.pon``
  (過水碰), ``play.kong.*`` / ``app.kong`` / ``app.kong.limits``, ``play.restrict.1``–``8``,
  ``app.after-claim``, ``app.last-three``, priority between claims (``app.priority``,
  ``play.intercept``, ``prio.*``) from the order and timestamps of the gestures;
* wins: ``play.win`` (the hand shown must win), ``play.passed-win`` and its release
  (both variants), self-draw limits (``tai.23``, ``play.restrict.2``/``4``/``5``), 搶槓,
  flower wins (``tai.27``–``tai.30``);
* readiness: 天聽 / 地聽 / 宣告聽牌 (``tai.31``, ``tai.32``, ``app.ready``,
  ``app.heavenly-ready``).

Digital tables: an illegal act is rejected and changes nothing. Physical tables: it
happened; it stands as far as the tiles allow and is reported as an irregularity for
:mod:`penalties`.

The handlers live by concern in mixins: :mod:`referee.dealing` (dice, wall, deal,
flowers), :mod:`referee.turns` (draws, discards, claim windows), :mod:`referee.claims`
(chow, pung, kongs, priority), :mod:`referee.gestures` (calls, touches, reveals, reports,
ready declarations) and :mod:`referee.winning` (win declarations); :mod:`referee.table_ops`
keeps the seats' tile bookkeeping.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .events import Event, EventType, Mode
from .errors import MjrefError
from .kinds_fast import (
    ENDED_PHASE, HAND_START_EVENT, IRREGULAR_STATUS, MELDED_KONG_MELD, REJECTED_STATUS,
)
from .ruleset import Ruleset
from .state import Intake, Phase, TableState, WrongKongProgress
from .tiles import FLOWER_BASE
from .verdicts import ACCEPTED, Irregularity, irregularity, Verdict, VerdictLog
from .claims import ClaimsMixin
from .dealing import DealingMixin
from .gestures import GesturesMixin
from .outcome import adjudicate
from .turns import TurnsMixin
from .winning import check_win


class StreamError(MjrefError, ValueError):
    """A stream the referee cannot follow: no ``hand_start`` first, a second
    ``hand_start``, a ``seq`` that does not increase."""

    code = "invalid_stream"


class Referee(DealingMixin, TurnsMixin, ClaimsMixin, GesturesMixin):
    """Referee one hand, live or in batch.

    :param ruleset: overrides the ruleset named by ``hand_start`` (CLI ``--ruleset``).
    :param mode: overrides the table's mode.

    ``apply(event)`` returns the event's :class:`Verdict`; ``finish()`` closes the hand
    and returns its :class:`referee.outcome.Adjudication`.
    """

    __slots__ = ("state", "verdicts", "irregularities", "ruleset", "mode", "_finished", "findings", "names",
                 "claim_indices", "fast")

    #: take a legal draw and discard on the fast paths of :meth:`_draw` and :meth:`_discard`;
    #: :class:`ReferenceReferee` turns them off, and tests/test_fast_paths.py holds the two equal
    fast_paths = True

    def __init__(self, ruleset: Ruleset | None = None, mode: Mode | None = None, *, names: Any = None) -> None:
        self.state: TableState | None = None
        #: seat → player's name at a table whose players are known (a tournament's 將): the
        #: irregularities' words name them beside their winds (「南家 李大華」)
        self.names = names
        #: (seq, verdict) per event, in order
        self.verdicts = VerdictLog()
        #: every irregularity, in the order found (some are found after their event:
        #: a call not completed shows when its claim window closes)
        self.irregularities: list[Irregularity] = []
        self.ruleset = ruleset
        self.mode = mode
        self._finished = None
        self.findings: list[Irregularity] = []
        #: the index (among the events applied, as in :attr:`verdicts`) of each win, pung and
        #: kong, whatever its verdict: where a priority conflict may be
        #: (:func:`penalties.priority.contested`); kept by their handlers
        self.claim_indices: list[int] = []
        #: :attr:`fast_paths` as a slot, read by every draw and discard (CPython 3.11 does not
        #: specialise the load of a class attribute: a generic lookup each time)
        self.fast = self.fast_paths

    # ------------------------------------------------------------------ driving

    def apply(self, ev: Event) -> Verdict:
        """Apply one event; returns its verdict.

        :raises StreamError: no ``hand_start`` first, a second one, or a seq not above the last.
        """
        st = self.state
        seq = ev.seq
        if st is None or seq <= st.last_seq or ev.type is HAND_START_EVENT:
            self._check_order(st, ev)
        verdict = _DISPATCH[ev.type](self, st, ev)
        self.state.last_seq = seq
        self.verdicts.append((seq, verdict))
        return verdict

    def apply_all(self, events) -> None:
        """Apply events in turn: :meth:`apply` on each, without the per-call overhead
        (batch replay uses it; the verdicts are the same: tests/test_fast_paths.py)."""
        dispatch = _DISPATCH
        record = self.verdicts.seqs.append  # as VerdictLog.append, inline for speed
        odd = self.verdicts.odd
        accepted = ACCEPTED
        check = self._check_order
        events = iter(events)
        if self.state is None:  # the first event: hand_start sets up the state
            for ev in events:
                self.apply(ev)
                break
        st = self.state
        if st is None:
            return
        last = st.last_seq  # kept in a local, written back at the end, for speed
        try:
            for ev in events:
                seq = ev.seq
                if seq <= last:  # a second hand_start is refused by its handler
                    st.last_seq = last
                    check(st, ev)
                verdict = dispatch[ev.type](self, st, ev)
                last = seq
                record(seq)
                if verdict is not accepted:
                    odd[seq] = verdict
        finally:
            st.last_seq = last

    def _check_order(self, st: TableState | None, ev: Event) -> None:
        if st is None:
            if ev.type is not HAND_START_EVENT:
                raise StreamError(f"a hand's stream starts with hand_start, got {ev.type.wire} (seq {ev.seq})",
                                  field="type", reason_zh="每盤的事件流須以 hand_start 開始")
            return
        if ev.type is EventType.HAND_START:
            raise StreamError(f"a second hand_start (seq {ev.seq}): one referee per hand",
                              field="type", reason_zh="同一盤出現第二個 hand_start")
        raise StreamError(f"seq {ev.seq} after {st.last_seq}: seq strictly increases within a hand",
                          field="seq", reason_zh=f"seq {ev.seq} 不大於前一個 {st.last_seq}")

    def finish(self):
        """Close the hand (once): open claims are settled, the outcome decided and scored.

        Returns the :class:`referee.outcome.Adjudication`; later calls return the same one.
        """
        if self._finished is None:
            if self.state is None:
                raise StreamError("no events: a hand's stream starts with hand_start", field="events",
                                  reason_zh="沒有事件")
            self._close_window(self.state, self.state.window, None)
            self._finished = adjudicate(self)
        return self._finished

    @contextmanager
    def provisional(self) -> Iterator[Any]:
        """The hand as if it closed now, without closing it: yields the
        :class:`referee.outcome.Adjudication` :meth:`finish` would give after the events so
        far (the claim window closed, the calls never carried out found, the wins resolved
        and scored), then puts the referee back as it was, so the hand goes on.

        What closing changes is put back: the open window's ``closed``, each seat's
        ``passed`` (過水 found at the close), the irregularities found, the finished answer.
        The adjudicator's rulings at a moment are made on it (issue #13 item 2: the hand is
        not replayed by a second referee); ``tests/test_adjudicator_facts.py`` holds it to
        such a replay.
        """
        st = self.state
        if st is None or self._finished is not None:
            yield self.finish()
            return
        w = st.window
        closed = w.closed if w is not None else None
        passed = [seat.passed for seat in st.seats]
        irregularities, findings = len(self.irregularities), len(self.findings)
        try:
            yield self.finish()
        finally:
            self._finished = None
            if w is not None:
                w.closed = closed
            for seat, was in zip(st.seats, passed):
                seat.passed = was
            del self.irregularities[irregularities:]
            del self.findings[findings:]

    def probe(self, ev: Event) -> bool:
        """Would this claim, win or declaration be accepted now? Changes nothing.

        For ``chow``, ``pung``, ``kong`` (melded), ``win`` and ``ready`` events during play
        (the generator asks before acting); anything else answers False.
        """
        st = self.state
        if st is None or st.phase is not Phase.PLAY:
            return False
        t = ev.type
        if t is EventType.WIN:
            return check_win(self, st, ev, dry=True)
        if t is EventType.CHOW or t is EventType.PUNG:
            return self._claim_discard(st, ev, Intake.CHOW if t is EventType.CHOW else Intake.PUNG, dry=True)
        if t is EventType.KONG and ev.kind is MELDED_KONG_MELD:
            return self._claim_discard(st, ev, Intake.MELDED_KONG, dry=True)
        if t is EventType.READY:
            return self._ready(st, ev, dry=True)
        return False

    # ------------------------------------------------------------------ verdict helpers

    def _irr(self, ev: Event, code: str, seat: int | None = None, **facts) -> Irregularity:
        st = self.state
        return irregularity(code, ev.seq, ev.seat if seat is None else seat,
                            east=st.east if st is not None else None, names=self.names, **facts)

    def _reject(self, st: TableState, problems: list[Irregularity]) -> Verdict:
        """The act does not change the state: refused (digital) or not applicable (physical)."""
        self.irregularities.extend(problems)
        return Verdict(REJECTED_STATUS if st.mode_digital else IRREGULAR_STATUS, tuple(problems))

    def _no(self, st: TableState, dry: bool, problems: list[Irregularity]):
        """Refuse (see :meth:`_reject`), or answer False to a probe."""
        return False if dry else self._reject(st, problems)

    def _stands(self, problems: list[Irregularity]) -> Verdict:
        """The act was applied and is irregular (physical table)."""
        self.irregularities.extend(problems)
        return Verdict(IRREGULAR_STATUS, tuple(problems))

    def _track_wrong_kong(self, st: TableState, problems: list[Irregularity], seat: int) -> None:
        """Follow a wrong kong that stood (physical table) to see how far it got (pen.wrong-kong.*)."""
        base = len(self.irregularities)
        for i, p in enumerate(problems):
            if p.code == "wrong_kong":
                st.wrong_kongs.append(WrongKongProgress(base + i, seat))

    def _follow_wrong_kongs(self, st: TableState, ev: Event) -> None:
        """One more event for each wrong kong followed (:class:`referee.state.WrongKongProgress`);
        called first thing by the handlers of the events that move one on (reports, wins,
        tail draws, placings, discards), whatever their verdict."""
        position = len(self.verdicts.seqs)
        for k in st.wrong_kongs:
            k.follow(ev, position)

    def _unseen_copies(self, st: TableState, ev: Event, tiles) -> Irregularity | None:
        """Tiles a physical table reports from where nobody saw them (an unknown wall or hand):
        more copies than the set holds means the record is wrong (deal.walls); a set without
        flowers (tiles.flowers, 136 tiles) holds none."""
        need: dict[int, int] = {}
        for t in tiles:
            need[t] = need.get(t, 0) + 1
        flower_copies = 1 if st.rules.flowers else 0
        for t, n in need.items():
            limit = flower_copies if t >= FLOWER_BASE else 4
            seen = st.known_count(t)
            if seen + n > limit:
                return self._irr(ev, "too_many_copies", tile=t, seen=seen, limit=limit)
        return None

    def _found(self, irr: Irregularity) -> None:
        """An irregularity found after its event (a call never completed...)."""
        self.irregularities.append(irr)
        self.findings.append(irr)

    def _after_end(self, st: TableState, ev: Event) -> Verdict | None:
        if st.phase is ENDED_PHASE or st.wins:
            return self._reject(st, [self._irr(ev, "after_hand_end")])
        return None


    def _win(self, st: TableState, ev: Event) -> Verdict:
        """胡 (play.win, app.win-ways): on a discard, by self-draw, by robbing a kong, or by
        flowers; checked against the hand, 過水 and the self-draw limits."""
        self.claim_indices.append(len(self.verdicts.seqs))  # Referee.claim_indices
        if st.wrong_kongs:
            self._follow_wrong_kongs(st, ev)
        return check_win(self, st, ev)


#: the handler of each event type (a dict: an enum member indexes it faster than a tuple)
_DISPATCH = {
    EventType.HAND_START: Referee._hand_start, EventType.SEAT_DICE: Referee._seat_dice,
    EventType.DEALER_DICE: Referee._dealer_dice, EventType.BREAK_DICE: Referee._break_dice,
    EventType.WALL: Referee._wall, EventType.DEAL: Referee._deal, EventType.FLOWER: Referee._flower,
    EventType.DRAW: Referee._draw, EventType.TAIL_DRAW: Referee._tail_draw, EventType.DISCARD: Referee._discard,
    EventType.CHOW: Referee._claim, EventType.PUNG: Referee._claim, EventType.KONG: Referee._kong,
    EventType.READY: Referee._ready, EventType.WIN: Referee._win, EventType.PASS: Referee._pass,
    EventType.SKIP_LAST_TILE: Referee._skip_last, EventType.CALL: Referee._call,
    EventType.TOUCH_WALL: Referee._touch, EventType.PLACE: Referee._place, EventType.REVEAL: Referee._reveal,
    EventType.REPORT: Referee._report, EventType.HAND_END: Referee._hand_end,
}

class ReferenceReferee(Referee):
    """The referee with its fast paths off (``fast_paths = False``): every draw and discard
    checked rule by rule (:meth:`_checked_draw`, :meth:`_checked_discard`), and :meth:`apply_all` as plain
    :meth:`apply` calls. Slower, and the reference the tuned :class:`Referee` is held to:
    the same verdicts, irregularities, state and adjudication on every stream
    (tests/test_fast_paths.py; issue #19 item 3).
    """

    __slots__ = ()

    fast_paths = False

    def apply_all(self, events) -> None:
        for ev in events:
            self.apply(ev)


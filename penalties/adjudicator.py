"""One hand, one verdict (issue #13): the referee and the penalties as one adjudicator.

:class:`HandAdjudicator` is fed a hand's events one at a time. Each :meth:`~HandAdjudicator.feed`
answers a :class:`Step`: the referee's verdict on the event, the irregularities it found
after their event (a call never carried out), and the **rulings final at that moment** —
a reported or observed 相公 when it happens, a 詐胡 when declared, a 喊碰未碰 when the next
act shows it, a priority conflict when the claim window that held it closes, a liability
window when it opens. At the hand's close (``hand_end``, or ``skip_last_tile``: 海底 left
undrawn, ``tai.25``) — or, in batch, at the end of the hand's events — it gives **one
result** (:class:`HandResult`): who won or why not, one set of payments, the next dealer,
streak and round.

Live ingest (``services/live.py``), ``POST /api/v1/adjudications``, ``POST /api/v1/rulings``,
``flask replay``, ``flask rule`` and the tournament's sync (which reads the live service's
projections) all go through it: live and batch are the same code fed the same events, so
they agree by construction (``tests/test_adjudicator.py`` holds them to it).

Facts are computed once: the referee follows the hand (its wall after each event is kept
as a :class:`penalties.record.Moment`, a winner's and a reported seat's table as
:class:`referee.state.WinFace`), and penalties read that record
(:func:`penalties.rule.rule_record`); nothing replays the hand a second time — the moment
rulings below are made on the live referee closed provisionally. The one exception is the
wall in batch: :meth:`HandAdjudicator.feed_all` keeps none while the hand is quiet, and a
ruling that reads one of those (rare: nearly all are after the first irregularity) has them
rebuilt by a replay of the events up to it (:class:`penalties.record.WallLog`).

How a ruling is "final at the moment": after an event that may be ruled on (an
irregularity that stood, a finding, an official's ``report``), the rulings on the hand so
far are made on the events up to now. A ruling is given at once when no claim on the
tile in play can still change it: no claim window is open (a second win on the same
discard decides whether the first was a false win or a lost priority, ``prio.8``,
``prio.penalty.1``), or the ruling is one no claim changes (:data:`AT_ONCE`: a 相公, a
walking eye's violation, 包賠). A ruling that depends on how far an error gets (a wrong
kong's or pung's stage, an exposed discard's course: ``pen.wrong-kong.*``, ``pen.wrong-pon.*``,
``pen.exposed-discard.*``; :data:`penalties.stages.STAGED_CODES`) is given when that is
settled (:func:`penalties.stages.settled`): at the report that caught the error, or at the act
that ended its course (the discard completing a wrong kong, the next player's tile placed
after a wrong pung's discard, his draw past an exposed discard) — with the liability window it
opens (代位賠付, ``pen.substitute``); a claim on a tile discarded at or after its act changes it
no more. Until then it is looked at again at each event. What falls due only at the end
(代位賠付's money when a win falls in a window, the streak marker, side stakes) or depends on
a second deal-in (``pen.exposed-discard.3``) or on a robbing win standing (R-pen-20) is
given at the close: :data:`AT_CLOSE`. A ruling given at a moment is given again, unchanged,
at the close.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from referee.events import Event, EventType, Mode, parse_event, parse_stream
from referee.kinds_fast import (
    HAND_END_EVENT, HAND_START_EVENT, REJECTED_STATUS, REPORT_EVENT, SKIP_LAST_TILE_EVENT, WIN_OUTCOME,
)
from referee.state import CATCH_CODES
from referee.machine import _DISPATCH, Referee
from referee.outcome import Adjudication, NextHand, OutcomeKind, WinResult
from referee.replay import split_hands
from referee.ruleset import Ruleset
from referee.scoring.context import Stakes
from referee.verdicts import ACCEPTED, Irregularity, Verdict, VerdictLog

from .codes import seat_words
from .dead_hand import REFEREE_CAUSES
from .errors import AdjudicationError
from .record import HandRecord, hand_record
from .rule import rule_quiet, rule_record
from .rulings import Payment, Ruling, Rulings
from .side_stakes import SideStake
from .stages import is_staged, settled

#: events that close a hand: its result is made then (a later event gets a verdict only)
CLOSING = frozenset({EventType.HAND_END, EventType.SKIP_LAST_TILE})
#: rulings no later claim can change: given at their event even with a claim window open
AT_ONCE = frozenset({"dead_hand", "dead_hand_second_violation", "walking_eye_violation",
                     "walking_eye_second_violation", "pay_all"})
#: rulings that only the rest of the hand settles (what falls due at the end, a second
#: deal-in, a robbing win): given at the close. How far an error got is given when settled
#: (:data:`penalties.stages.STAGED_CODES`)
AT_CLOSE = frozenset({
    "walking_eye_fee", "walking_eye_passed_win", "substitute_liability", "streak_marker_low", "streak_marker_high",
    "side_stake", "side_stake_void", "wrong_kong_concealed", "wrong_kong_concealed_exhausted",
    "wrong_kong_added_robbed", "exposed_discard_won", "exposed_discard_won_twice",
})
#: :attr:`HandAdjudicator._deferred` when a ruling on how far an error got is not settled yet:
#: the rulings are looked at again at the next event
_AGAIN = -1

_ACCEPTED = ACCEPTED
_CLAIMS = frozenset({EventType.WIN, EventType.CHOW, EventType.PUNG, EventType.KONG})
_STAGED_ACTS = frozenset({EventType.CHOW, EventType.PUNG, EventType.KONG})
#: referee codes :func:`penalties.rule.rule_record` makes a ruling of on a non-claim event
_RULED = frozenset({*REFEREE_CAUSES, "wrong_kong", "exposed_discard", "lost_priority", "dead_hand_act",
                    "unfulfilled_call", "second_intake"})
_NO_PAYMENTS = (0, 0, 0, 0)
#: the referee's handler of each event type, for the batch loops' inline path; None for the
#: types that go :meth:`HandAdjudicator._feed`'s way whatever their verdict: those that may
#: close the hand or be ruled on whatever their verdict
_INLINE = {t: (None if t in (HAND_START_EVENT, REPORT_EVENT, HAND_END_EVENT, SKIP_LAST_TILE_EVENT) else h)
           for t, h in _DISPATCH.items()}


def seat_totals(payments: Iterable[Payment]) -> tuple[int, int, int, int]:
    """Net per seat of *payments* (outside side-stakers left out)."""
    total = [0, 0, 0, 0]
    for p in payments:
        if type(p.payer) is int:
            total[p.payer] -= p.amount
        if type(p.payee) is int:
            total[p.payee] += p.amount
    return (total[0], total[1], total[2], total[3])


def ruling_id(ruling: Ruling, taken: set[str]) -> str:
    """A ruling's stable id, ``pen.<first evidence seq>.<code>`` (``.2``, ``.3`` for a
    repeat); the same on every replay, so an official's override finds it again."""
    base = f"pen.{ruling.evidence[0] if ruling.evidence else 0}.{ruling.code}"
    rid, n = base, 2
    while rid in taken:
        rid, n = f"{base}.{n}", n + 1
    taken.add(rid)
    return rid


@dataclass(frozen=True, slots=True)
class Given:
    """A ruling as given: its id, when (the seq of the event that made it final), and its
    money in effect, net per seat."""

    id: str
    at: int
    ruling: Ruling
    payments: tuple[int, int, int, int]

    @property
    def cite_zh(self) -> str:
        """The clause as the official cites it: 「依〈錯碰之處理〉第 2 條：「…」」 (:mod:`penalties.clauses`)."""
        from .clauses import cite_zh

        return cite_zh(self.ruling.clause)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at, **self.ruling.to_dict(), "cite_zh": self.cite_zh,
                "net": list(self.payments)}


@dataclass(frozen=True, slots=True)
class VoidWin:
    """A win the referee scored that does not stand, and the ruling that says so."""

    seat: int
    seq: int
    ruling: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "seq": self.seq, "ruling": self.ruling}


@dataclass(frozen=True, slots=True)
class Result:
    """The hand's one outcome: how it ended, the wins that stand, the one set of payments
    (the wins' settlement as the rulings leave it, plus the rulings' money), who deals next.

    :param kind: ``win``, ``exhaustive_draw``, ``void`` (the stream stopped) or
        ``ended_by_irregularity`` (詐胡, 包賠 … ended it, or voided every win).
    :param win_payments: the standing wins' share of :attr:`payments` (net per seat).
    """

    kind: OutcomeKind
    clause: str
    seq: int | None
    detail_zh: str
    detail: str
    wins: tuple[WinResult, ...]
    voided: tuple[VoidWin, ...]
    upheld: tuple[int, ...]
    payments: tuple[int, int, int, int]
    win_payments: tuple[int, int, int, int]
    next: NextHand

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "clause": self.clause, "seq": self.seq, "detail_zh": self.detail_zh,
                "detail": self.detail, "wins": [w.to_dict() for w in self.wins],
                "voided": [v.to_dict() for v in self.voided], "upheld": list(self.upheld),
                "payments": list(self.payments), "win_payments": list(self.win_payments),
                "next": self.next.to_dict()}


class _ResultDraft:
    """A :class:`Result` being filled: the same slots, not frozen, so plain attribute stores
    fill it, then its ``__class__`` becomes :class:`Result` (as :func:`penalties.rulings.rulings_of`;
    a frozen dataclass's ``__init__`` calls ``object.__setattr__`` per field). :func:`one_result`
    makes one per hand; ``tests/test_penalties_rulings.py`` holds it to the constructor."""

    __slots__ = Result.__slots__

    def __init__(self, kind, clause, seq, detail_zh, detail, wins, voided, upheld, payments, win_payments, next):
        self.kind = kind
        self.clause = clause
        self.seq = seq
        self.detail_zh = detail_zh
        self.detail = detail
        self.wins = wins
        self.voided = voided
        self.upheld = upheld
        self.payments = payments
        self.win_payments = win_payments
        self.next = next


assert Result.__slots__ == ("kind", "clause", "seq", "detail_zh", "detail", "wins", "voided", "upheld", "payments",
                            "win_payments", "next")


def _result(kind: OutcomeKind, clause: str, seq: int | None, detail_zh: str, detail: str, wins: tuple,
            voided: tuple, upheld: tuple, payments: tuple, win_payments: tuple, next: NextHand) -> Result:
    """``Result(…)``, every field given in order, filled through :class:`_ResultDraft`
    (:class:`Result` has no checks to run)."""
    made = _ResultDraft(kind, clause, seq, detail_zh, detail, wins, voided, upheld, payments, win_payments, next)
    made.__class__ = Result
    return made


@dataclass(frozen=True)
class HandResult:
    """Everything said about one hand: the referee's adjudication (verdicts, irregularities,
    the final table), penalties' rulings, each ruling as given, and the one :class:`Result`.

    :param closed_at: the seq of the event that closed the hand (None: the stream stopped).
    """

    record: HandRecord
    rulings: Rulings
    given: tuple[Given, ...]
    result: Result
    closed_at: int | None

    @property
    def adjudication(self) -> Adjudication:
        return self.record.adjudication

    @property
    def payments(self) -> tuple[int, int, int, int]:
        return self.result.payments

    def to_dict(self) -> dict[str, Any]:
        """The hand as ``flask replay`` / ``flask rule`` and the API answer it: the referee's
        verdicts and irregularities, the rulings (each with its id and the seq it was given
        at), and the one outcome. The batch writes its JSON line from the same values
        (``api/answer_lines.py``, issue #17): a field added to this dict, or to the dicts it
        holds, is to be written there too — the tests compare the two (docs/protocol.md)."""
        adj = self.adjudication
        rulings = self.rulings.to_dict()
        rulings["rulings"] = [g.to_dict() for g in self.given]
        return {"table": adj.table, "hand": adj.hand, "mode": adj.mode, "ruleset": adj.ruleset,
                "outcome": self.result.to_dict(), "closed_at": self.closed_at,
                "irregularities": [i.to_dict() for i in adj.irregularities],
                "verdicts": _verdict_dicts(adj.verdicts), "final": adj.final,
                "penalties": rulings}


def _verdict_dicts(verdicts: Any) -> list[dict[str, Any]]:
    """Each event's verdict as the answer writes it (a :class:`~referee.verdicts.VerdictLog`
    writes its own, :meth:`~referee.verdicts.VerdictLog.to_dicts`)."""
    if type(verdicts) is VerdictLog:
        return verdicts.to_dicts()
    return [v.to_dict(seq) for seq, v in verdicts]


@dataclass(frozen=True, slots=True)
class Step:
    """The answer to one event: the verdict, irregularities found after their event, the
    rulings final now, and — at the close — the hand's result."""

    seq: int
    verdict: Verdict
    findings: tuple[Irregularity, ...] = ()
    rulings: tuple[Given, ...] = ()
    result: HandResult | None = None


_new = object.__new__
_SET_HAND_RESULT = HandResult.__dict__["__dict__"].__set__
_SET_SEQ, _SET_VERDICT, _SET_FINDINGS, _SET_RULINGS, _SET_RESULT = (Step.__dict__[n].__set__ for n in (
    "seq", "verdict", "findings", "rulings", "result"))


def _step(seq: int, verdict: Verdict, findings: tuple[Irregularity, ...]) -> Step:
    """``Step(seq, verdict, findings)``, its slots filled directly (an event with nothing to
    rule on, nearly every one: half the cost of the frozen dataclass's ``__init__``)."""
    step = _new(Step)
    _SET_SEQ(step, seq)
    _SET_VERDICT(step, verdict)
    _SET_FINDINGS(step, findings)
    _SET_RULINGS(step, ())
    _SET_RESULT(step, None)
    return step


class HandAdjudicator:
    """One hand, refereed and ruled on as its events come (see the module docstring).

    :param ruleset: / :param mode: override the stream's (``--ruleset``, ``--mode``).
    :param stakes: overrides the stakes of ``hand_start``.
    :param side_stakes: 插花 recorded outside the stream.
    :param names: seat → player's name at a tournament table: the rulings' words name the
        players (「南家 李大華」) beside their winds.
    :param reference: always rule through the full walk (:func:`penalties.rule.rule_record`),
        never the quiet hand's short cut (:func:`penalties.rule.rule_quiet`): the slow
        reference the tests hold the short cut to.
    """

    __slots__ = ("ruleset", "mode", "stakes", "side_stakes", "referee", "events", "moments", "closed",
                 "reference", "names", "_seen_findings", "_given", "_taken", "_deferred", "_ended", "_reported")

    def __init__(self, ruleset: Ruleset | None = None, mode: Mode | None = None, *, stakes: Stakes | None = None,
                 side_stakes: Iterable[SideStake] = (), reference: bool = False, names: Any = None) -> None:
        self.ruleset = ruleset
        self.reference = reference
        self.names = names
        self.mode = mode
        self.stakes = stakes
        self.side_stakes = tuple(side_stakes)
        self.referee = Referee(ruleset, mode, names=names)
        self.events: list[Event] = []
        #: the wall after each event (:func:`penalties.record.wall_facts`), in order; None
        #: for an event of :meth:`feed_all`'s quiet stretch (rebuilt when read,
        #: :class:`penalties.record.WallLog`)
        self.moments: list[tuple | None] = []
        #: the hand's result, once closed
        self.closed: HandResult | None = None
        self._seen_findings = 0
        #: ruling identity (code, offender, evidence) → (id, seq given at) for rulings given so far
        self._given: dict[tuple, tuple[str, int]] = {}
        self._taken: set[str] = set()
        #: the claim window (its seq) that held back a ruling: looked at again when it moves on
        #: (:data:`_AGAIN`: at the next event)
        self._deferred: int | None = None
        #: a ruling given at a moment ended the hand (詐胡, 包賠 …)
        self._ended = False
        #: a report event was fed (an official's: the quiet short cut does not apply)
        self._reported = False

    # ------------------------------------------------------------------ feeding

    def feed(self, event: Event) -> Step:
        """Apply one event: its :class:`Step`.

        :raises referee.machine.StreamError: a stream the referee cannot follow (nothing changed).
        """
        return self._feed(event, True)

    def feed_all(self, events: Iterable[Event]) -> HandResult:
        """Feed every event of one hand, then close it (batch): :meth:`feed` on each, the
        same work but for the :class:`Step` answers nobody reads.

        Events are applied here, inline, while the hand is quiet (:meth:`_feed_quiet`: every
        event accepted with nothing found), then, from the first finding or ruling held back
        for a claim window, by :meth:`_feed_rest`; an event that may close the hand or be
        ruled on whatever its verdict goes through :meth:`feed`'s own path. While the hand
        is quiet the wall after each event is not kept: it is rebuilt from the events if a
        ruling reads it (:class:`penalties.record.WallLog`). ``tests/test_penalties_fast.py``
        holds these loops to :meth:`feed` event by event."""
        source = events if type(events) is list or type(events) is tuple else list(events)
        it = iter(source)
        for ev in it:  # hand_start (and a stream that does not start with it) the usual way
            self._feed(ev, False)
            break
        if self.referee.state is not None and not self._feed_quiet(it, source, 1):
            self._feed_rest(it)
        return self.close()

    def _feed_quiet(self, it: Iterator[Event], source: Sequence[Event], start: int) -> bool:
        """:meth:`feed_all` while nothing was found and no ruling is held back: each event
        applied as :meth:`_feed` applies it, with one test on the common path (accepted,
        nothing found); True when *it* ran out, False after the event that ended the quiet
        (the rest goes to :meth:`_feed_rest`).

        The events applied here are recorded in :attr:`events` (from *source*, of which *it*
        is what is left from index *start*) only when the loop leaves or goes :meth:`_feed`'s
        way, and their walls as None (not kept: :class:`penalties.record.WallLog` rebuilds
        them from the events when a ruling reads one) but for the event that ends the
        quiet, whose wall is the state's now (:meth:`_catch_up`)."""
        ref = self.referee
        st = ref.state
        feed = self._feed
        after = self._after
        catch_up = self._catch_up
        inline = _INLINE
        log = ref.verdicts
        seqs = log.seqs
        record_seq = seqs.append
        odd = log.odd
        found = ref.findings
        accepted = _ACCEPTED
        last = st.last_seq
        # source[start + j] is the j-th event applied from here (each applied event adds one seq)
        mark = (start, len(seqs), len(self.events))
        try:
            for ev in it:
                seq = ev.seq
                handler = inline[ev.type]
                if handler is None or seq <= last:  # the long way (as _feed_rest)
                    st.last_seq = last
                    catch_up(source, mark, False)
                    feed(ev, False)
                    last = st.last_seq
                else:
                    verdict = handler(ref, st, ev)  # as _feed, inline
                    last = seq
                    record_seq(seq)
                    if verdict is accepted and not found:
                        continue
                    if verdict is not accepted:
                        odd[seq] = verdict
                    st.last_seq = last
                    catch_up(source, mark, True)
                    after(ev, verdict, False)
                if found or self._deferred is not None:
                    return False
            return True
        finally:
            st.last_seq = last
            catch_up(source, mark, False)

    def _catch_up(self, source: Sequence[Event], mark: tuple[int, int, int], current: bool) -> None:
        """:meth:`_feed_quiet`'s record brought up to the referee's log: the events applied
        since *mark* (their index in *source*, the log's length and :attr:`events`' then)
        and not yet in :attr:`events` appended, their walls None (rebuilt when read) but
        the last's when *current* (the state is right after it)."""
        start, seqs0, events0 = mark
        applied = len(self.referee.verdicts.seqs) - seqs0
        have = len(self.events) - events0
        if applied <= have:
            return
        self.events.extend(source[start + have:start + applied])
        moments = self.moments
        if current:
            moments.extend([None] * (applied - have - 1))
            st = self.referee.state
            w = st.wall  # wall_facts(st), inline
            moments.append((w.front, w._tail, w.end, st.turn, st.drawn, st.source, st.placed))
        else:
            moments.extend([None] * (applied - have))

    def _feed_rest(self, it: Iterator[Event]) -> None:
        """:meth:`feed_all` once something was found or a ruling is held back: an accepted
        event with nothing new found and no ruling held back is applied inline, any other
        goes through :meth:`_feed`'s own path."""
        ref = self.referee
        st = ref.state
        feed = self._feed
        inline = _INLINE
        log = ref.verdicts
        record_seq = log.seqs.append
        odd = log.odd
        record_event = self.events.append
        record_wall = self.moments.append
        found = ref.findings
        for ev in it:
            seq = ev.seq
            handler = inline[ev.type]
            if handler is None or seq <= st.last_seq or self._deferred is not None:
                feed(ev, False)
                continue
            verdict = handler(ref, st, ev)  # as _feed, inline
            st.last_seq = seq
            record_seq(seq)
            record_event(ev)
            w = st.wall  # wall_facts(st), inline
            record_wall((w.front, w._tail, w.end, st.turn, st.drawn, st.source, st.placed))
            if verdict is not _ACCEPTED:
                odd[seq] = verdict
                self._after(ev, verdict, False)
            elif len(found) > self._seen_findings:
                self._after(ev, verdict, False)

    def _feed(self, event: Event, answer: bool) -> Step | None:
        """:meth:`feed`; with *answer* false the step is not made (rulings final at a moment
        are given all the same: their ids and seqs are the hand's)."""
        ref = self.referee
        st = ref.state
        seq = event.seq
        etype = event.type
        if st is None or seq <= st.last_seq or etype is HAND_START_EVENT:
            verdict = ref.apply(event)  # hand_start, and the stream-order checks
            st = ref.state
        else:  # as Referee.apply, inline (one call less per event)
            verdict = _DISPATCH[etype](ref, st, event)
            st.last_seq = seq
            log = ref.verdicts
            log.seqs.append(seq)
            if verdict is not _ACCEPTED:
                log.odd[seq] = verdict
        self.events.append(event)
        w = st.wall  # wall_facts(st), inline
        self.moments.append((w.front, w._tail, w.end, st.turn, st.drawn, st.source, st.placed))
        return self._after(event, verdict, answer)

    def _after(self, event: Event, verdict: Verdict, answer: bool) -> Step | None:
        """:meth:`feed` after the referee applied *event*: findings, the close, the rulings
        final now."""
        ref = self.referee
        st = ref.state
        seq = event.seq
        etype = event.type
        findings: tuple[Irregularity, ...] = ()
        if len(ref.findings) > self._seen_findings:
            findings = tuple(ref.findings[self._seen_findings:])
            self._seen_findings = len(ref.findings)
        if self.closed is not None:
            return _step(seq, verdict, findings) if answer else None
        if etype is HAND_END_EVENT or etype is SKIP_LAST_TILE_EVENT:  # CLOSING, by identity (an Enum's hash is slow)
            result = self.close(seq)
            more = tuple(ref.findings[self._seen_findings:])
            self._seen_findings = len(ref.findings)
            if not answer:  # feed_all: the result is all it reads, no step is made
                return None
            fresh = tuple(g for g in result.given if g.at == seq)
            return Step(seq, verdict, findings + more, fresh, result)
        if etype is REPORT_EVENT:
            self._reported = True
        elif self._ended:
            return _step(seq, verdict, findings) if answer else None  # after a ruling ended the hand only reports count
        ruled = findings or etype is REPORT_EVENT or (
            verdict is not _ACCEPTED and verdict.irregularities and verdict.status is not REJECTED_STATUS
            and _may_rule(event, verdict))
        if ruled or self._deferred is not None:
            win = st.window
            open_seq = win.seq if win is not None and not win.closed else None
            if ruled or open_seq != self._deferred:
                return Step(seq, verdict, findings, self._moment_rulings(seq, open_seq))
        return _step(seq, verdict, findings) if answer else None

    def close(self, seq: int | None = None) -> HandResult:
        """The hand's result (made once: at the closing event, or now, when the stream stopped).

        :raises penalties.errors.PenaltyError: a report that cannot be read (a side stake's note …).
        """
        if self.closed is not None:
            return self.closed
        if not self.events:
            raise AdjudicationError("a hand's events start with hand_start", field="events[0].type",
                                    reason_zh="每盤的事件須以 hand_start 開始")
        record = hand_record(self.events, self.referee, self.moments, stakes=self.stakes, mode=self.mode,
                             names=self.names)
        rulings = None
        if not self.reference and not self.side_stakes:
            rulings = rule_quiet(record, reported=self._reported)  # nothing to rule on: the short cut
        if rulings is None:
            rulings = rule_record(record, side_stakes=self.side_stakes)
        at = seq if seq is not None else self.events[-1].seq
        given = tuple(self._give(r, at, key) for r, key in _identities(rulings.rulings))
        # HandResult(…), its __dict__ set whole (as hand_record's HandRecord; the same test)
        closed = self.closed = _new(HandResult)
        _SET_HAND_RESULT(closed, {"record": record, "rulings": rulings, "given": given,
                                  "result": one_result(record, rulings, given), "closed_at": seq})
        return self.closed

    # ------------------------------------------------------------------ the moment's rulings

    def _moment_rulings(self, seq: int, open_seq: int | None) -> tuple[Given, ...]:
        """Rulings on the hand so far that are final now (module docstring): each that no
        claim on the tile in play can change — its acts all came before the claim window
        open now (the window they were made in has closed), or it is one no claim changes.
        Those held back are looked at again when the window moves on; one on how far an error
        got, once that is settled (:func:`penalties.stages.settled`; a claim on a tile discarded
        at or after its act does not change it), looked at again at each event until then."""
        self._deferred = None
        try:
            rulings = self._rule_prefix()
        except Exception:  # noqa: BLE001 - nothing is final yet; the close rules on the hand and says what is wrong
            return ()
        out = []
        again = False
        for r, key in _identities(rulings.rulings):
            if r.code in AT_CLOSE or key in self._given or self._staged(r):
                continue
            staged = is_staged(r)
            if staged and not settled(r, self.events):
                again = True
                continue
            if open_seq is not None and not (r.evidence and max(r.evidence) < open_seq) and not self._at_once(r) \
                    and not (staged and open_seq >= r.evidence[0]):
                self._deferred = open_seq
                continue
            out.append(self._give(r, seq, key))
            self._ended = self._ended or r.ends_hand
        if again:
            self._deferred = _AGAIN
        return tuple(out)

    def _staged(self, r: Ruling) -> bool:
        """A 相公 for a wrong claim (a chow, pung or kong that may not be made) not caught yet:
        how far it gets decides its ruling (``pen.wrong-pon.1``/``.2``, ``pen.substitute``), so
        it waits — until a report catches the seat's error after the act (it goes no further:
        :func:`penalties.stages.claim_completed` stops there; the report is an event the
        rulings are made at), or the close. (A dead hand's exposed discard, coded as a second
        violation that no claim changes, :data:`AT_ONCE`, waits instead until its course is
        settled, as every exposed discard's does: :func:`penalties.stages.is_staged`; played
        past unnoticed it is no violation at all, ``pen.exposed-discard.4``.)"""
        if r.code != "dead_hand" or not r.evidence:
            return False
        at = self._index(r.evidence[0])
        act = self.events[at]
        if act.type not in _STAGED_ACTS:
            return False
        return not any(ev.type is REPORT_EVENT and ev.code in CATCH_CODES and ev.seat in (act.seat, None)
                       for ev in self.events[at + 1:])

    def _at_once(self, r: Ruling) -> bool:
        """A ruling final while a claim window is open: one no claim changes (:data:`AT_ONCE`),
        or a false self-drawn win by the seat that took the window's tile in turn (a claim on
        that tile made later comes after the declaration, ``prio.2``)."""
        if r.code in AT_ONCE:
            return True
        w = self.referee.state.window
        if r.code == "false_win" and r.evidence and w is not None and w.taken is not None:
            ev = self.events[self._index(r.evidence[0])]
            return ev.type is EventType.WIN and ev.seat == w.taken.seat
        return False

    def _index(self, seq: int) -> int:
        for i in range(len(self.events) - 1, -1, -1):
            if self.events[i].seq == seq:
                return i
        raise LookupError(seq)

    def _rule_prefix(self) -> Rulings:
        """Penalties on the events so far, as if the hand closed now: on the live referee's
        own record, closed provisionally (:meth:`referee.machine.Referee.provisional`: its
        claim window stays open for what comes next) — the hand is not replayed."""
        with self.referee.provisional():
            record = hand_record(self.events, self.referee, self.moments, stakes=self.stakes, mode=self.mode,
                                 names=self.names)
            return rule_record(record, side_stakes=self.side_stakes)

    def _give(self, ruling: Ruling, seq: int, key: tuple) -> Given:
        seen = self._given.get(key)
        if seen is None:
            seen = self._given[key] = (ruling_id(ruling, self._taken), seq)
        return Given(seen[0], seen[1], ruling, seat_totals(ruling.payments))


def _may_rule(event: Event, verdict: Verdict) -> bool:
    """The referee's verdict on *event* is one penalties may rule on (as
    :func:`penalties.rule.rule_record` reads them): a claim or win that stood irregular,
    or an irregularity of a code it rules on (a 相公 cause, a wrong kong, a lost priority …);
    a data error alone (a tile the wall does not have) is not."""
    if not verdict.irregularities:
        return False
    if event.type in _CLAIMS:
        return True
    return any(i.code in _RULED for i in verdict.irregularities)


def _identities(rulings: Sequence[Ruling]) -> list[tuple[Ruling, tuple]]:
    """Each ruling with what identifies it from one moment to the next: its code, offender
    and evidence, and which of the rulings alike it is (three side stakes on one hand)."""
    count: dict[tuple, int] = {}
    out = []
    for r in rulings:
        base = (r.code, r.offender, r.evidence)
        n = count[base] = count.get(base, 0) + 1
        out.append((r, (*base, n)))
    return out


# ------------------------------------------------------------------ the one result


def one_result(record: HandRecord, rulings: Rulings, given: Sequence[Given]) -> Result:
    """The hand's one outcome from the referee's and the rulings: a win voided by a ruling
    is not a win (the hand ended on an irregularity), the money is penalties', who deals
    next is penalties' (``pen.false-win.3`` …)."""
    outcome = record.adjudication.outcome
    standing = set(rulings.standing)
    wins = tuple(w for w in outcome.wins if w.claim.seq in standing)
    by_evidence: dict[int, str] = {}
    for g in given:
        if g.ruling.evidence and (g.ruling.has("win_void") or g.ruling.has("passed_win")
                                  or g.ruling.ends_hand or g.ruling.code.startswith("lost_priority")):
            by_evidence.setdefault(g.ruling.evidence[0], g.id)
    voided = tuple(VoidWin(w.claim.seat, w.claim.seq, by_evidence.get(w.claim.seq) or _first_ending(given))
                   for w in outcome.wins if w.claim.seq not in standing)
    upheld = tuple(rulings.upheld)
    win_payments = seat_totals(rulings.win_transfers)
    nxt = rulings.next if rulings.next is not None else outcome.next
    if wins or upheld:
        names_zh, names = _names(record, wins, upheld)
        seq = wins[0].claim.seq if wins else upheld[0]
        return _result(WIN_OUTCOME, "play.win", seq, f"{names_zh}胡牌", f"won: {names}", wins, voided, upheld,
                       rulings.payments, win_payments, nxt)
    ending = next((g for g in given if g.ruling.ends_hand), None)
    if ending is None and voided:
        ending = next((g for g in given if g.id == voided[0].ruling), None)
    if ending is not None:
        r = ending.ruling
        return _result(OutcomeKind.ENDED_BY_IRREGULARITY, r.clause, ending.at, f"本盤因違規終止：{r.text_zh}",
                       f"the hand ended on an irregularity: {r.text}", (), voided, (), rulings.payments,
                       win_payments, nxt)
    return _result(outcome.kind, outcome.clause, outcome.seq, outcome.detail_zh, outcome.detail, (), voided, (),
                   rulings.payments, win_payments, nxt)


def _first_ending(given: Sequence[Given]) -> str | None:
    return next((g.id for g in given if g.ruling.ends_hand), None)


def _names(record: HandRecord, wins: Sequence[WinResult], upheld: Sequence[int]) -> tuple[str, str]:
    zh, en = [], []
    setup = record.setup
    east = record.adjudication.state.east if record.adjudication.state is not None else setup.dealer
    for w in wins:
        c = w.claim
        zh.append(f"{seat_words(c.seat, east, record.names)[0]}{c.source.zh}")
        en.append(f"seat {c.seat} ({c.source.value})")
    for seq in upheld:
        seat = record.event(seq).seat
        zh.append(f"{seat_words(seat, east, record.names)[0]}（依優先權）")
        en.append(f"seat {seat} (by priority)")
    return "、".join(zh), ", ".join(en)


# ------------------------------------------------------------------ whole streams


def _events(source: Any) -> list[Event]:
    if isinstance(source, (str, bytes)):
        return parse_stream(source)
    if isinstance(source, (list, tuple)):
        return [e if isinstance(e, Event) else parse_event(e, index=i) for i, e in enumerate(source)]
    raise AdjudicationError(f"a stream is JSON Lines text or a list of events, got {type(source).__name__}",
                            field="events", reason_zh="事件流須為 JSON Lines 文字或事件的清單")


def adjudicate_hands(source: Any, ruleset: Ruleset | None = None, mode: Mode | None = None, *,
                     stakes: Stakes | None = None, side_stakes: Iterable[SideStake] = (),
                     names: Sequence[str | None] | None = None) -> list[HandResult]:
    """Every hand of a stream through its own :class:`HandAdjudicator`, event by event
    (*names*: the players by seat, :func:`penalties.words.read_names`).

    :raises referee.errors.MjrefError: an unreadable event or a stream the referee cannot follow.
    """
    listed = tuple(side_stakes)
    return [HandAdjudicator(ruleset, mode, stakes=stakes, side_stakes=listed, names=names).feed_all(hand)
            for hand in split_hands(_events(source))]


__all__ = ["AT_CLOSE", "AT_ONCE", "CLOSING", "Given", "HandAdjudicator", "HandResult", "Result", "Step", "VoidWin",
           "adjudicate_hands", "one_result", "ruling_id", "seat_totals"]

"""What penalties reads about a hand: the events, the referee's adjudication of them, and
the wall at every event.

:func:`build` replays the events through the referee (:class:`referee.machine.Referee`,
the same code as ``flask replay``) and keeps, after each event, the wall's counts
(:class:`Moment`): how many tiles were drawn from the front (摸序, for the "next eight
draws" of 代位賠付), from the tail (槓尾), and how many drawable tiles are left (末八張).
Penalties never changes the referee's state; it reads.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from referee.events import Event, EventType, Setup
from referee.machine import Referee
from referee.outcome import Adjudication, OutcomeKind, WinResult, table_stakes
from referee.ruleset import Ruleset
from referee.scoring.context import Stakes
from referee.state import Source
from referee.verdicts import Irregularity, Status

from .errors import AdjudicationError


@dataclass(frozen=True, slots=True)
class Moment:
    """The wall right after an event: tiles drawn from the front (the deal included) and
    from the tail, and drawable tiles left (``play.exhausted``)."""

    front: int
    tail: int
    live: int
    #: the seat whose turn it is, and the tile it last took in (None when unknown)
    turn: int
    drawn: int | None
    #: the last tile taken in came from the tail (a kong's or a flower's replacement)
    from_tail: bool
    #: it was placed into the hand (靠張)
    placed: bool


@dataclass(frozen=True)
class HandRecord:
    """One hand as penalties sees it.

    :param events: the hand's events, ``hand_start`` first.
    :param adjudication: the referee's answer (verdicts, irregularities, outcome).
    :param moments: seq → :class:`Moment` after that event.
    :param ruleset: / :param stakes: what the hand is played and paid under.
    """

    events: tuple[Event, ...]
    adjudication: Adjudication
    moments: dict[int, Moment]
    ruleset: Ruleset
    stakes: Stakes
    #: seq → the event's index in :attr:`events` (:class:`SeqIndex`)
    index: Mapping[int, int] = field(default_factory=dict)
    #: the table mode forced on the replay (None: the stream's own)
    mode: Any = None
    #: seat → player's name at a tournament table (the rulings name the players), or None
    names: Any = None
    #: the indices in :attr:`events` of the wins, pungs and kongs, in order, as the referee
    #: kept them (:attr:`referee.machine.Referee.claim_indices`); None: found when needed
    #: (:func:`penalties.priority.contested`)
    claims: tuple[int, ...] | None = None

    # ---- the table
    @property
    def setup(self) -> Setup:
        return self.events[0].setup or Setup()

    @property
    def dealer(self) -> int:
        return self.setup.dealer

    @property
    def streak(self) -> int:
        return self.setup.streak

    @property
    def marker(self) -> int | None:
        return self.setup.streak_marker

    @property
    def digital(self) -> bool:
        return self.adjudication.mode == "digital"

    # ---- events
    def event(self, seq: int) -> Event:
        return self.events[self.index[seq]]

    def after(self, seq: int, until: int | None = None) -> Iterable[Event]:
        """Events after *seq* (up to and including *until*)."""
        start = self.index.get(seq, -1) + 1
        for ev in self.events[start:]:
            if until is not None and ev.seq > until:
                return
            yield ev

    def before(self, seq: int) -> Iterable[Event]:
        """Events before *seq*, latest first."""
        end = self.index.get(seq, len(self.events))
        return reversed(self.events[:end])

    def moment(self, seq: int) -> Moment:
        return self.moments[seq]

    def front_draws_between(self, start: int, end: int) -> int:
        """Tiles drawn from the front of the wall after event *start* up to event *end*."""
        return self.moments[end].front - self.moments[start].front

    def reports(self) -> list[Event]:
        return [e for e in self.events if e.type is EventType.REPORT]

    # ---- the referee's answer
    @property
    def irregularities(self) -> tuple[Irregularity, ...]:
        return self.adjudication.irregularities

    def rejected(self) -> set[tuple[int, str]]:
        """``(seq, code)`` of irregularities the referee refused outright (a digital
        table's illegal act: it changed nothing, so nothing is ruled on)."""
        out = set()
        for seq, verdict in self.adjudication.verdicts:
            if verdict.status is Status.REJECTED:
                out.update((seq, i.code) for i in verdict.irregularities)
        return out

    def irregularities_at(self, seq: int) -> list[Irregularity]:
        """The referee's irregularities of event *seq* that it did not refuse outright."""
        rejected = self.rejected()
        return [i for i in self.adjudication.irregularities if i.seq == seq and (i.seq, i.code) not in rejected
                and i.code != "reported"]

    @property
    def wins(self) -> tuple[WinResult, ...]:
        return self.adjudication.outcome.wins

    @property
    def exhausted(self) -> bool:
        return self.adjudication.outcome.kind is OutcomeKind.EXHAUSTIVE_DRAW


#: sets a :class:`HandRecord`'s ``__dict__`` whole (:func:`hand_record`)
_SET_RECORD = HandRecord.__dict__["__dict__"].__set__


def build(events: Sequence[Event], *, ruleset: Ruleset | None = None, stakes: Stakes | None = None,
          mode: Any = None) -> HandRecord:
    """Replay one hand's events through the referee and record the wall at each event
    (*ruleset* and *mode* override the stream's, as ``flask replay`` does).

    :raises AdjudicationError: no events, or the first is not ``hand_start``.
    :raises referee.machine.StreamError: a stream the referee cannot follow.
    """
    events = tuple(events)
    if not events or events[0].type is not EventType.HAND_START:
        raise AdjudicationError("a hand's events start with hand_start", field="events[0].type",
                                reason_zh="每盤的事件須以 hand_start 開始")
    ref = Referee(ruleset, mode)
    moments: dict[int, Moment] = {}
    for ev in events:
        ref.apply(ev)
        moments[ev.seq] = moment(ref.state)
    return hand_record(events, ref, moments, stakes=stakes, mode=mode)


#: where a tile taken in from the tail comes from (a kong's or a flower's replacement)
_TAIL_SOURCES = frozenset((Source.KONG, Source.MELDED_KONG, Source.FLOWER))


def moment(st: Any) -> Moment:
    """The wall and the turn in the referee's table state *st*, right after an event."""
    w = st.wall
    return Moment(w.front, w.tail, w.live, st.turn, st.drawn, st.source in _TAIL_SOURCES, st.placed)


def wall_facts(st: Any) -> tuple:
    """What :class:`Moment` is made of, as the referee's state holds it right after an event
    (a plain tuple: the adjudicator keeps one per event, a :class:`Moment` is made only when
    a ruling reads it, :class:`WallLog`; its batch loops build the same tuple inline)."""
    w = st.wall
    return (w.front, w._tail, w.end, st.turn, st.drawn, st.source, st.placed)


class SeqIndex(Mapping):
    """seq → the event's index in a hand's events, found by bisection in their seqs (which
    strictly increase: the referee refuses a seq not above the last before it is recorded,
    :class:`referee.machine.StreamError`). The same answers as ``{e.seq: i for i, e in
    enumerate(events)}``, without a dict made per hand (``tests/test_adjudicator_facts.py``
    holds the two equal).

    :param seqs: the events' seqs in order (copied).
    """

    __slots__ = ("_seqs",)

    def __init__(self, seqs: Sequence[int]) -> None:
        self._seqs = list(seqs)

    def __getitem__(self, seq: int) -> int:
        seqs = self._seqs
        i = bisect_left(seqs, seq)
        if i < len(seqs) and seqs[i] == seq:
            return i
        raise KeyError(seq)

    def get(self, seq: int, default: Any = None) -> Any:
        seqs = self._seqs
        i = bisect_left(seqs, seq)
        return i if i < len(seqs) and seqs[i] == seq else default

    def __contains__(self, seq: object) -> bool:
        return self.get(seq) is not None

    def __iter__(self):
        return iter(self._seqs)

    def __len__(self) -> int:
        return len(self._seqs)


#: the events at which :class:`penalties.adjudicator.HandAdjudicator` closes the hand
_CLOSING = frozenset({EventType.HAND_END, EventType.SKIP_LAST_TILE})


class WallLog(Mapping):
    """seq → :class:`Moment` after that event, from :func:`wall_facts` kept per event (the
    same moments :func:`moment` gives; made when read).

    An event whose facts were not kept (None: :meth:`penalties.adjudicator.HandAdjudicator.feed_all`
    keeps none while the hand is quiet) has them rebuilt from the events, the source of
    truth: the events up to the last such one replayed through a referee of the same
    *ruleset* and *mode* as the one that followed them, once (the facts are written back
    into *facts* when it is a list, so the adjudicator that keeps it has them too).
    ``tests/test_penalties_fast.py`` holds the rebuilt facts to those kept event by event.
    """

    __slots__ = ("_index", "_facts", "_events", "_ruleset", "_mode")

    def __init__(self, index: Mapping[int, int], facts: Sequence[tuple | None], events: Sequence[Event] = (),
                 ruleset: Ruleset | None = None, mode: Any = None) -> None:
        self._index = index
        self._facts = facts
        self._events = events
        self._ruleset = ruleset
        self._mode = mode

    def __getitem__(self, seq: int) -> Moment:
        i = self._index[seq]
        facts = self._facts[i]
        if facts is None:
            facts = self._rebuild()[i]
        front, tail, end, turn, drawn, source, placed = facts
        live = end - front
        return Moment(front, tail, live if live > 0 else 0, turn, drawn, source in _TAIL_SOURCES, placed)

    def facts(self) -> list[tuple]:
        """Every event's :func:`wall_facts`, in order, the missing ones rebuilt."""
        facts = self._facts
        return list(self._rebuild() if None in facts else facts)

    def _rebuild(self) -> Sequence[tuple]:
        """The facts with every None filled from a replay of the events up to the last one."""
        facts = self._facts
        if type(facts) is not list:
            facts = self._facts = list(facts)
        last = len(facts) - 1 - facts[::-1].index(None)
        ref = Referee(self._ruleset, self._mode)
        closed = False
        for i, ev in enumerate(self._events[:last + 1]):
            ref.apply(ev)
            if facts[i] is None:
                facts[i] = wall_facts(ref.state)
            if not closed and ev.type in _CLOSING:
                # the adjudicator closes the hand at its first hand_end or skip_last_tile
                # (HandAdjudicator._after): the events after it meet a finished referee
                # (its last claim window closed), so the replay closes there too
                ref.finish()
                closed = True
        return facts

    def __iter__(self):
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)


def hand_record(events: Sequence[Event], ref: Referee, moments: Mapping[int, Moment] | Sequence[tuple], *,
                stakes: Stakes | None = None, mode: Any = None, names: Any = None) -> HandRecord:
    """The closed hand's record from a referee that has followed *events* (the stakes, unless
    given, from its ``hand_start``); :func:`build` replays, live ingest keeps its own referee.
    *moments*: seq → :class:`Moment`, or :func:`wall_facts` after each event in order
    (None for one not kept: rebuilt from the events when read, :class:`WallLog`)."""
    events = tuple(events)
    setup = events[0].setup or Setup()
    seqs = ref.verdicts.seqs  # the referee's log holds each event's seq, in order: read, not made again
    claims = ref.claim_indices  # the wins', pungs' and kongs' indices, kept by the referee as well
    if len(seqs) != len(events) or (seqs and seqs[-1] != events[-1].seq):
        seqs = [e.seq for e in events]
        claims = None
    index = SeqIndex(seqs)
    if not isinstance(moments, Mapping):  # wall_facts per event, in the events' order (None: not kept)
        moments = WallLog(index, moments, events, ref.ruleset, ref.mode)
    # HandRecord(…), its __dict__ set whole: a frozen dataclass's __init__ sets each of the nine
    # fields through object.__setattr__ (tests/test_adjudicator_facts.py holds it to the constructor)
    record = object.__new__(HandRecord)
    # (the stakes from hand_start: one Stakes per pair of values, checked once, shared — frozen)
    _SET_RECORD(record, {"events": events, "adjudication": ref.finish(), "moments": moments,
                         "ruleset": ref.state.rules.ruleset,
                         "stakes": stakes or table_stakes(setup.base, setup.per_tai),
                         "index": index, "mode": mode, "names": names,
                         "claims": None if claims is None else tuple(claims)})  # copied: a live referee goes on
    return record


def state_before(record: HandRecord, seq: int) -> Any:
    """The referee's table state just before event *seq* (a fresh replay up to it): the slow
    reference the tests hold the referee's kept facts to (``tests/test_penalties_face.py``,
    ``tests/test_adjudicator_facts.py``); penalties never call it (issue #13 item 2)."""
    ref = Referee(record.ruleset, record.mode)
    for ev in record.events:
        if ev.seq >= seq:
            break
        ref.apply(ev)
    return ref.state


__all__ = ["HandRecord", "Moment", "SeqIndex", "WallLog", "build", "hand_record", "moment", "state_before",
           "wall_facts"]

"""Priority between conflicting acts on one discard (``prio.1``–``prio.8``), read from the
order and timestamps (``ts``) of the gestures in the stream, and the penalties for acting
after losing it (``prio.penalty.1``–``.2``).

The gestures: a call (``call`` events: 碰/槓/吃/胡 said or shown), the act itself (a
``pung``, ``chow``, ``kong``, ``win`` event), the discarder's next player (下家) drawing
(``draw``), placing the drawn tile into the hand (``place``) and discarding, a hand
reaching to the wall (``touch_wall``). An intent's time is its earliest gesture.

======  =============================  ==============================================================
clause  conflict                        who has priority
======  =============================  ==============================================================
prio.1  pung vs the next player's       the pung, if called before the self-draw was shown
        self-draw
prio.2  discard win vs self-draw        the discard win, if claimed before the self-draw was shown
prio.3  pung vs chow                    the chow, once it was exposed and a tile discarded
prio.4  pung vs draw                    the draw, once the drawn tile was placed into the hand
                                        (or discarded); before that the pung, and the tile goes back
prio.5  discard win vs pung             the pung, if the winner had reached to the wall and touched
                                        it (his win is passed)
prio.6  discard win vs chow             the chow, once it was exposed and a tile discarded
prio.7  discard win vs draw             the draw, once the next player drew and discarded
prio.8  discard win vs discard win      the later in turn order, if the nearer had reached to the wall
======  =============================  ==============================================================

Each conflict found is a ruling that blames nobody (its effects say who has priority and
what is undone). Penalties: laying down a winning hand after losing the self-draw or
discard-win priority voids the win and pays for all three (``prio.penalty.1``), except
win against win (``prio.8``: the win is void, nothing more); punging after losing the
pung priority makes a dead hand liable for others' self-draws within the next eight draws
(``prio.penalty.2``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from operator import attrgetter

from referee.events import Event, EventType
# the enum members read per event, as module globals (an enum member read off its class
# costs a Python-level __getattr__ in CPython 3.11: referee.kinds_fast)
from referee.kinds_fast import (
    CALL_EVENT, CHOW_EVENT, DISCARD_EVENT, DRAW_EVENT, KONG_CALL, KONG_EVENT, MELDED_KONG_MELD, PLACE_EVENT, PUNG_CALL,
    PUNG_EVENT, REJECTED_STATUS, TOUCH_WALL_EVENT, WIN_CALL, WIN_EVENT,
)

from .record import HandRecord
from .rulings import Effect


@dataclass(frozen=True, slots=True)
class Decision:
    """One priority conflict resolved.

    :param code: the ruling code (``pung_over_draw`` ...); :param clause: ``prio.N``.
    :param seat: who has priority; :param other: who lost it.
    :param lost: what the loser lost: ``self_draw``, ``win``, ``pung``, ``chow``, ``draw``.
    :param acts: the loser's acts made anyway (``win`` / ``pung`` / ``kong`` events): the
        penalties apply to them.
    :param discard: the seq of the discard the conflict was over.
    """

    code: str
    clause: str
    seat: int
    other: int
    evidence: tuple[int, ...]
    effects: tuple[Effect, ...]
    lost: str
    acts: tuple[int, ...] = ()
    discard: int = 0


def _t(ev: Event) -> tuple[int, int]:
    return (ev.ts, ev.seq)


class _Window:
    """The gestures around one discard."""

    def __init__(self, record: HandRecord, d: Event, refused: frozenset[int] = frozenset()) -> None:
        self.d = d
        D = d.seat
        t = d.tile
        self.n = N = (D + 1) % 4
        self.pung: dict[int, list[Event]] = {}  # pung intent gestures by seat
        self.pung_acts: dict[int, list[Event]] = {}
        self.win: dict[int, list[Event]] = {}  # discard-win intent gestures by seat
        self.win_acts: dict[int, list[Event]] = {}
        self.touch: dict[int, Event] = {}
        self.self_draw: list[Event] = []
        self.self_draw_acts: list[Event] = []
        self.chow: Event | None = None
        self.draw: Event | None = None
        self.place: Event | None = None
        self.n_discard: Event | None = None
        discards = 0
        later_tile = None
        for ev in record.after(d.seq):
            if ev.type is DISCARD_EVENT:
                discards += 1
                if discards == 1 and ev.seat == N and (self.draw is not None or self.chow is not None):
                    self.n_discard = ev
                if discards >= 2:
                    break
                later_tile = ev.tile
                continue
            if discards and ev.tiles and (later_tile in ev.tiles if ev.type is not WIN_EVENT
                                          else ev.tiles[-1] != t or later_tile == t):
                continue  # a claim of the later discard, not of this one (a win shows its tile last)
            if ev.seq in refused:
                continue  # a digital table refused it: it did not happen
            if ev.type is KONG_EVENT and ev.kind is not MELDED_KONG_MELD:
                break  # an added or concealed kong opens its own window (搶槓)
            s = ev.seat
            if s is None or s == D:
                continue
            if ev.type is WIN_EVENT and ev.tiles and ev.tiles[-1] != t and not (s == N and self.draw is not None):
                continue  # a win shown on another tile is not a claim of this discard
            late = discards > 0
            typ = ev.type
            if typ is CALL_EVENT:
                if ev.kind is PUNG_CALL or ev.kind is KONG_CALL:
                    self.pung.setdefault(s, []).append(ev)
                elif ev.kind is WIN_CALL and not late:
                    if s == N and self.draw is not None:
                        self.self_draw.append(ev)
                    else:
                        self.win.setdefault(s, []).append(ev)
            elif typ is PUNG_EVENT or (typ is KONG_EVENT and ev.kind is MELDED_KONG_MELD):
                if ev.tiles and t in ev.tiles:
                    self.pung.setdefault(s, []).append(ev)
                    self.pung_acts.setdefault(s, []).append(ev)
            elif typ is WIN_EVENT and (not late or (ev.tiles and ev.tiles[-1] == t)):
                if s == N and self.draw is not None:
                    self.self_draw.append(ev)
                    self.self_draw_acts.append(ev)
                else:
                    self.win.setdefault(s, []).append(ev)
                    self.win_acts.setdefault(s, []).append(ev)
            elif late:
                continue
            elif typ is CHOW_EVENT and s == N and ev.tiles and t in ev.tiles and self.chow is None:
                self.chow = ev
            elif typ is DRAW_EVENT and s == N and self.draw is None:
                self.draw = ev
            elif typ is PLACE_EVENT and s == N and self.draw is not None and self.place is None:
                self.place = ev
            elif typ is TOUCH_WALL_EVENT and s not in self.touch:
                self.touch[s] = ev

    @staticmethod
    def first(evs: list[Event]) -> Event | None:
        return min(evs, key=_t) if evs else None


def analyze(record: HandRecord) -> list[Decision]:
    """Every priority conflict in the hand, in the order of the discards.

    Only the discards whose window may hold a conflict are looked at (:func:`contested`);
    the same as
    :func:`analyze_all` (the reference, every discard: ``tests/test_penalties_fast.py``)."""
    return _analyze(record, contested(record.events, record.claims))


def analyze_all(record: HandRecord) -> list[Decision]:
    """:func:`analyze` over every discard's window (the slow reference)."""
    return _analyze(record, None)


def contested(events, claims: Sequence[int] | None = None) -> set[int]:
    """:func:`contested_reference`'s seqs, found from the claims: only a win, a pung or a
    kong marks a window (the last two discards' before it), so each claim's two discards are
    looked for back from it, and the 下家's draw or chow only in a window a pung marked and
    no win did. On a legal hand: a few claims, no walk over the ~150 events in Python
    (``tests/test_penalties_fast.py`` holds it to the reference on generated hands and on
    arbitrary event sequences).

    :param claims: the indices in *events* of its wins, pungs and kongs, in order, when the
        caller kept them (the adjudicator does, :attr:`penalties.record.HandRecord.claims`);
        found here otherwise (:func:`claim_indices`).
    """
    evs = events if isinstance(events, (list, tuple)) else list(events)
    if claims is None:
        claims = claim_indices(evs)
    won: set[int] = set()  # the discards' indices a win marks
    punged: set[int] = set()  # … a pung or kong of its tile by a seat neither the discarder nor its 下家
    # the previous claim's two discards: the walk back from the next claim stops at the
    # latest of them (the claims come in order; no discard lies between it and where it was)
    last = prior = -1
    for j in claims:
        ev = evs[j]
        for i in range(j - 1, last, -1):  # the last discard before the claim
            if evs[i].type is DISCARD_EVENT:
                break
        else:
            i = last
            if i < 0:
                continue
        if i != last:
            latest = i
            for i in range(latest - 1, last, -1):  # and the one before it
                if evs[i].type is DISCARD_EVENT:
                    break
            else:
                i = last
            before = i
            last, prior = latest, before
        else:
            latest, before = last, prior
        tiles = ev.tiles
        if ev.type is WIN_EVENT:  # in the window: any win; after the next discard: one shown on this tile
            won.add(latest)
            if before >= 0 and tiles:
                d = evs[before]
                if tiles[-1] == (d.tiles[0] if d.tiles else None):
                    won.add(before)
        elif tiles:
            s = ev.seat
            d = evs[latest]
            ds = d.seat
            if s != ds and (s != (ds + 1) % 4 if ds is not None else s is not None) \
                    and (d.tiles[0] if d.tiles else None) in tiles:
                punged.add(latest)
            if before >= 0:
                d = evs[before]
                ds = d.seat
                if s != ds and (s != (ds + 1) % 4 if ds is not None else s is not None) \
                        and (d.tiles[0] if d.tiles else None) in tiles:
                    punged.add(before)
    out = {evs[i].seq for i in won}
    for i in punged:
        if i not in won and _next_took(evs, i):
            out.add(evs[i].seq)
    return out


#: the claims that may mark a window: a win, a pung, a kong
CLAIMS = frozenset({EventType.WIN, EventType.PUNG, EventType.KONG})
_TYPE = attrgetter("type")
_CLAIM_KINDS = re.compile(b"[%s]" % re.escape(bytes(sorted(CLAIMS))))
#: the 下家's chow (prio.6) or draw (prio.7) against a win: (its act first, the win first)
_CHOW_VS_WIN = ("chow_over_win", "win_over_chow")
_DRAW_VS_WIN = ("draw_over_win", "win_over_draw")


def claim_indices(events: Sequence[Event]) -> list[int]:
    """The indices of the wins, pungs and kongs (:data:`CLAIMS`) in *events*, in order: the
    events' types read into bytes (an ``EventType`` is an ``IntEnum``), the claims found by a
    regular expression, in C."""
    return [m.start() for m in _CLAIM_KINDS.finditer(bytes(map(_TYPE, events)))]


def _next(seat: int | None) -> int | None:
    """The 下家 of *seat* (None when the discard's seat is unknown)."""
    return None if seat is None else (seat + 1) % 4


def _next_took(evs: Sequence[Event], i: int) -> bool:
    """The discarder's 下家 drew or chowed after the discard at *i*, before the next discard."""
    n = _next(evs[i].seat)
    for k in range(i + 1, len(evs)):
        ev = evs[k]
        t = ev.type
        if t is DISCARD_EVENT:
            return False
        if (t is DRAW_EVENT or t is CHOW_EVENT) and ev.seat == n:
            return True
    return False


def contested_reference(events) -> set[int]:
    """Seqs of the discards whose window (:class:`_Window`: the events up to the second
    discard after it) may hold a conflict (:func:`_decide`): a win in it (after the next
    discard, only one shown on this tile), or a pung or melded kong of its tile by a seat
    neither the discarder nor its 下家 while the 下家 drew or chowed before the next discard.
    Every other window decides nothing (no winner, no pung against a chow, a draw or a
    self-draw). One pass over the events, the last two discards' windows in locals: the plain
    reading of the rule above, that :func:`contested` is held to (``tests/test_penalties_fast.py``)."""
    out: set[int] = set()
    # the last discard's window (1) and the one before (2): seq, discarder, 下家, tile, a
    # win in it, a pung of its tile by another seat, the 下家 took a tile before the next discard
    s1 = d1 = n1 = x1 = s2 = d2 = n2 = x2 = None
    w1 = p1 = t1 = w2 = p2 = t2 = False
    for ev in events:
        t = ev.type
        if t is DISCARD_EVENT:
            if s2 is not None and (w2 or (p2 and t2)):
                out.add(s2)
            s2, d2, n2, x2, w2, p2, t2 = s1, d1, n1, x1, w1, p1, t1
            s1 = ev.seq
            d1 = ev.seat
            n1 = None if d1 is None else (d1 + 1) % 4
            x1 = ev.tiles[0] if ev.tiles else None
            w1 = p1 = t1 = False
        elif t is DRAW_EVENT or t is CHOW_EVENT:
            if ev.seat == n1 and s1 is not None:
                t1 = True
        elif t is WIN_EVENT:
            w1 = True
            if ev.tiles and ev.tiles[-1] == x2:  # after the next discard: a win shown on this tile
                w2 = True
        elif t is PUNG_EVENT or t is KONG_EVENT:
            s = ev.seat
            tiles = ev.tiles
            if tiles:
                if s != d1 and s != n1 and x1 in tiles:
                    p1 = True
                if s != d2 and s != n2 and x2 in tiles:
                    p2 = True
    for seq, w, p, tk in ((s1, w1, p1, t1), (s2, w2, p2, t2)):
        if seq is not None and (w or (p and tk)):
            out.add(seq)
    return out


def _analyze(record: HandRecord, only: set[int] | None) -> list[Decision]:
    out: list[Decision] = []
    if only is not None and not only:
        return out
    verdicts = record.adjudication.verdicts
    odd = getattr(verdicts, "odd", None)
    pairs = odd.items() if odd is not None else verdicts
    refused = frozenset(seq for seq, v in pairs if v.status is REJECTED_STATUS)
    discards = record.events if only is None else [record.event(seq) for seq in sorted(only)]
    for d in discards:
        if d.type is DISCARD_EVENT and d.seat is not None and d.seq not in refused:
            out.extend(replace(x, discard=d.seq) for x in _decide(_Window(record, d, refused)))
    return out


def _acts(evs: list[Event], after: tuple[int, int] | None = None) -> tuple[int, ...]:
    return tuple(e.seq for e in evs if after is None or _t(e) >= after)


def _decide(w: _Window) -> list[Decision]:
    out: list[Decision] = []
    N = w.n
    first = _Window.first
    S = first(w.self_draw)
    placed = w.place or (w.n_discard if w.draw is not None else None)
    for X, gestures in sorted(w.pung.items()):
        P = first(gestures)
        if X == N:
            continue
        if not w.pung_acts.get(X) and not (S is not None and w.self_draw_acts):
            continue  # a call never carried out is pen.unfulfilled-call, not a conflict
        if S is not None:  # prio.1
            if _t(P) < _t(S):
                out.append(Decision("pung_over_self_draw", "prio.1", X, N, (P.seq, S.seq),
                                    (Effect("priority", seat=X), Effect("drawn_tile_returned", seat=N)), "self_draw",
                                    _acts(w.self_draw_acts)))
            else:
                out.append(Decision("self_draw_over_pung", "prio.1", N, X, (S.seq, P.seq),
                                    (Effect("priority", seat=N),), "pung"))
            continue
        if w.chow is not None:  # prio.3
            done = w.n_discard
            if done is None or _t(P) < _t(done):
                out.append(Decision("pung_over_chow", "prio.3", X, N, (P.seq, w.chow.seq),
                                    (Effect("priority", seat=X), Effect("claim_undone", seat=N)), "chow"))
            else:
                out.append(Decision("chow_over_pung", "prio.3", N, X, (w.chow.seq, done.seq, P.seq),
                                    (Effect("priority", seat=N),), "pung", _acts(w.pung_acts.get(X, []))))
            continue
        if w.draw is not None:  # prio.4
            if placed is None or _t(P) < _t(placed):
                out.append(Decision("pung_over_draw", "prio.4", X, N, (P.seq, w.draw.seq),
                                    (Effect("priority", seat=X), Effect("drawn_tile_returned", seat=N)), "draw"))
            else:
                out.append(Decision("draw_over_pung", "prio.4", N, X, (w.draw.seq, placed.seq, P.seq),
                                    (Effect("priority", seat=N),), "pung", _acts(w.pung_acts.get(X, []))))
    if S is not None and not w.self_draw_acts and not w.win_acts and not w.pung_acts:
        S = None  # a self-draw shown and never laid down, against nothing laid down
    winners = sorted((s for s in w.win if w.win_acts.get(s)), key=lambda s: (s - w.d.seat) % 4)
    for X in winners:
        W = first(w.win[X])
        touched = w.touch.get(X)
        reached = touched is not None and _t(touched) < _t(W)
        if S is not None:  # prio.2
            if _t(W) < _t(S):
                out.append(Decision("win_over_self_draw", "prio.2", X, N, (W.seq, S.seq),
                                    (Effect("priority", seat=X), Effect("drawn_tile_returned", seat=N)), "self_draw",
                                    _acts(w.self_draw_acts)))
            else:
                out.append(Decision("self_draw_over_win", "prio.2", N, X, (S.seq, W.seq),
                                    (Effect("priority", seat=N), Effect("passed_win", seat=X)), "win",
                                    _acts(w.win_acts.get(X, []))))
            continue
        pungs = [(first(g), s) for s, g in w.pung.items() if s != X and (w.pung_acts.get(s) or w.win_acts.get(X))]
        if pungs:  # prio.5
            P, Y = min(pungs, key=lambda p: _t(p[0]))
            if reached:
                out.append(Decision("pung_over_win", "prio.5", Y, X, (touched.seq, W.seq, P.seq),
                                    (Effect("priority", seat=Y), Effect("passed_win", seat=X)), "win",
                                    _acts(w.win_acts.get(X, []))))
            else:
                out.append(Decision("win_over_pung", "prio.5", X, Y, (W.seq, P.seq), (Effect("priority", seat=X),),
                                    "pung"))
            continue
        if X != N and (w.chow is not None or w.draw is not None):
            # the 下家's chow (prio.6) or draw (prio.7) against a win: whoever finished first
            if w.chow is not None:
                act, kind, clause, codes, undone = w.chow, "chow", "prio.6", _CHOW_VS_WIN, "claim_undone"
            else:
                act, kind, clause, codes, undone = w.draw, "draw", "prio.7", _DRAW_VS_WIN, "drawn_tile_returned"
            done = w.n_discard
            if done is not None and _t(done) < _t(W):
                out.append(Decision(codes[0], clause, N, X, (act.seq, done.seq, W.seq),
                                    (Effect("priority", seat=N), Effect("passed_win", seat=X)), "win",
                                    _acts(w.win_acts.get(X, []))))
            else:
                out.append(Decision(codes[1], clause, X, N, (W.seq, act.seq),
                                    (Effect("priority", seat=X), Effect(undone, seat=N)), kind))
    if len(winners) >= 2:  # prio.8
        near = winners[0]
        W = first(w.win[near])
        touched = w.touch.get(near)
        if touched is not None and _t(touched) < _t(W):
            later = winners[1]
            out.append(Decision("later_win_over_touched", "prio.8", later, near,
                                (touched.seq, W.seq, first(w.win[later]).seq),
                                (Effect("priority", seat=later), Effect("passed_win", seat=near)), "win_vs_win",
                                _acts(w.win_acts.get(near, []))))
    return out


__all__ = ["CLAIMS", "Decision", "analyze", "analyze_all", "claim_indices", "contested", "contested_reference"]

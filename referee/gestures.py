"""Gestures, declarations and reports: calls, a hand reaching to the wall, the drawn tile
placed, passes, tiles revealed, officials' reports, the end of the hand, and ready
declarations (``prio.*``, ``play.restrict.8``, ``tai.31``, ``tai.32``, ``app.ready``, ``app.heavenly-ready``).

A mixin of :class:`referee.machine.Referee`: the methods use its verdict helpers
(``_irr``, ``_reject``, ``_stands``...).
"""
from __future__ import annotations

from .events import Event, ReadyKind
from .hand import waits_keys
from .kinds_fast import CONCEALED_KONG_MELD, DEALT_INTAKE, DISCARD_WINDOW, ENDED_PHASE, NONE_INTAKE
from .state import Phase, TableState, win_face
from .tiles import KINDS
from .verdicts import ACCEPTED, irregularity, Verdict
from .table_ops import _size, _READY_ZH


#: declarations that lapse when the drawn tile is placed into the hand (tai.31, tai.32)
_LAPSE_ON_PLACE = (ReadyKind.HEAVENLY, ReadyKind.EARTHLY)


class GesturesMixin:
    """Handlers of :class:`referee.machine.Referee` (see the module docstring)."""

    __slots__ = ()

    def _call(self, st: TableState, ev: Event) -> Verdict:
        """A call (喊碰、喊吃、喊槓、喊胡): the gesture the priority rules compare (prio.*)."""
        w = st.window
        if w is not None and not w.closed and ev.seat != w.seat:
            w.note_call(ev.seat, (ev.kind, ev.ts, ev.seq))
        return ACCEPTED

    def _touch(self, st: TableState, ev: Event) -> Verdict:
        """A hand reaching to the wall (play.passed-win, play.intercept, prio.5, prio.8)."""
        w = st.window
        if w is not None and not w.closed and w.kind is DISCARD_WINDOW and ev.seat != w.seat:
            self._reached(st, w, st.seats[ev.seat], ev)
        return ACCEPTED

    def _place(self, st: TableState, ev: Event) -> Verdict:
        """The drawn tile placed into the hand (靠張): no self-draw on it (tai.23), 天聽 /
        地聽 lapse (tai.31, tai.32), a late pung loses to it (prio.4)."""
        s = ev.seat
        if st.wrong_kongs:
            self._follow_wrong_kongs(st, ev)
        if s == st.turn and st.intake is not NONE_INTAKE:
            st.placed = True
            seat = st.seats[s]
            if seat.ready is not None and seat.ready in _LAPSE_ON_PLACE:
                seat.ready, seat.ready_lapsed = None, "placed"
            for win in (st.window, st.prev_window):
                if win is not None:
                    taken = win.taken
                    if taken is not None and taken.seat == s and taken.placed_ts is None:
                        taken.placed_ts = ev.ts
        return ACCEPTED

    def _pass(self, st: TableState, ev: Event) -> Verdict:
        """不要: declines the claimable tile (a winning tile let go is 過水 when the window closes)."""
        w = st.window
        if w is not None and not w.closed:
            w.note_pass(ev.seat)
        return ACCEPTED

    def _reveal(self, st: TableState, ev: Event) -> Verdict:
        """Concealed tiles shown or said aloud (play.restrict.8): by one's own fault, no
        claim or discard win on them this hand."""
        if not ev.by_other:
            seat = st.seats[ev.seat]
            seat.revealed.update(t for t in ev.tiles if t < KINDS)
            seat.revealed_sets.append(ev.tiles)
        return ACCEPTED

    def _report(self, st: TableState, ev: Event) -> Verdict:
        """An official's report of what the stream cannot show (a peek, a stolen tile, a dead
        hand ruled): recorded as an irregularity for penalties (pen.*)."""
        if st.wrong_kongs:
            self._follow_wrong_kongs(st, ev)
        irr = irregularity("reported", ev.seq, ev.seat, clause=ev.clause or "pen.dead-hand",
                           code_reported=ev.code, note=ev.note or "")
        if ev.seat is not None:
            seat = st.seats[ev.seat]
            st.report_faces[ev.seq] = win_face(st, seat)  # the seat's table at the report (penalties.peek)
            if ev.code == "dead_hand":
                seat.dead_hand = True
        return self._stands([irr])

    def _hand_end(self, st: TableState, ev: Event) -> Verdict:
        if st.phase is not ENDED_PHASE:
            self._close_window(st, st.window, ev)
            st.phase = ENDED_PHASE
            st.end_seq = ev.seq
        return ACCEPTED

    def _ready(self, st: TableState, ev: Event, dry: bool = False):
        """天聽 (tai.31), 地聽 (tai.32), 宣告聽牌 (app.ready, opt.declare-ready)."""
        if dry and (st.phase is Phase.ENDED or st.wins):
            return False
        done = self._after_end(st, ev)
        if done:
            return done
        s = ev.seat
        seat = st.seats[s]
        kind = ev.kind
        rules = st.rules
        problems = []
        with_discard = st.ready_discard_pending == s and st.window is not None and st.window.seat == s \
            and st.window.taken is None
        dealer = s == st.dealer
        if kind is ReadyKind.DECLARED:
            if not rules.declared_ready:
                problems.append(self._irr(ev, "ready_not_played"))
            elif not with_discard:
                problems.append(self._irr(ev, "ready_untimely", clause="app.ready", ready="declared ready",
                                          ready_zh="宣告聽牌", when="with a discard", when_zh="打牌時"))
        elif kind is ReadyKind.HEAVENLY:
            ok = not dealer or rules.heavenly_dealer
            if rules.heavenly_at_first_discard:
                ok = ok and with_discard and seat.discards == 1 and (
                    dealer or (st.last_discard(seat)[0] == seat.first_drawn and not st.placed))
                when, when_zh = "with the first discard, the dealt hand kept", "第一次打牌時（保留配牌）"
            else:
                ok = ok and st.discards_made == 0 and seat.drawn_count == 0 and not (dealer and st.phase is Phase.PLAY
                                                                                     and st.intake is not DEALT_INTAKE)
                when, when_zh = "right after the deal and flower replacement", "配牌補花後"
            if rules.ready_requires_no_prior_claims and st.claims_made:
                ok = False
            if not ok:
                problems.append(self._irr(ev, "ready_untimely", clause="tai.31", ready="heavenly ready",
                                          ready_zh="天聽", when=when, when_zh=when_zh))
        else:  # earthly
            nth = rules.earthly_dealer_discard if dealer else 1
            ok = with_discard and seat.discards == nth and all(m.kind is CONCEALED_KONG_MELD for m in seat.melds)
            if ok and not dealer and rules.earthly_requires_kept_draw and st.last_discard(seat)[0] == seat.first_drawn:
                ok = False
            if rules.ready_requires_no_prior_claims and st.claims_made:
                ok = False
            if not ok:
                problems.append(self._irr(ev, "ready_untimely", clause="tai.32", ready="earthly ready", ready_zh="地聽",
                                          when=f"with the discard no. {nth}, concealed",
                                          when_zh=f"第 {nth} 次打牌時，門清"))
        if seat.known and not problems:
            size = _size(seat)
            if size == 16 and not waits_keys(tuple(seat.keys)):
                problems.append(self._irr(ev, "ready_not_ready", ready=kind.value, ready_zh=_READY_ZH[kind]))
        if dry:
            return not problems
        if problems and st.mode_digital:
            return self._no(st, dry, problems)
        seat.ready = kind
        seat.ready_seq = ev.seq
        seat.ready_discards = seat.discards
        seat.ready_lapsed = None
        return self._stands(problems) if problems else ACCEPTED

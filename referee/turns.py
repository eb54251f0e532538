"""Turns: draws, replacements from the tail, discards, and the claim windows they open and
close (``play.draw``, ``play.discard``, ``play.restrict``, ``play.exhausted``, ``tai.25``, ``play.passed-win``).

A mixin of :class:`referee.machine.Referee`: the methods use its verdict helpers
(``_irr``, ``_reject``, ``_stands``...).
"""
from __future__ import annotations

from .events import Event
from .kinds_fast import (
    CONCEALED_KONG_MELD, DEALT_INTAKE, DECLARED_READY, DISCARD_WINDOW, DRAW_INTAKE, ENDED_PHASE, FLOWERS_PHASE,
    FLOWER_SOURCE, FLOWER_WINDOW, LAST_TILE_SOURCE, MELDED_KONG_SOURCE, NONE_INTAKE, PLAY_PHASE, WALL_SOURCE,
)
from .restrictions import SUIT_OF, UNIT_OF
from .state import (Intake, Phase, SeatState, Source, TableMeld, TableState, Taken, Window, _NO_DICT, _NO_LIST,
                    _NO_SET)
from .tiles import FLOWER_BASE, KINDS
from .verdicts import ACCEPTED, irregularity, Verdict
from .table_ops import _add, _UNREPLACED_CLAUSE, _CALL_ZH, _mark_waiters, _refresh_waits, _waits_of, _BINDING_CALLS

#: tail_index(k, size) is (size - 2) - k + 2 * (k % 2)

#: the seat after each (下家): the one to draw after its discard
_NEXT_SEAT = (1, 2, 3, 0)


class TurnsMixin:
    """Handlers of :class:`referee.machine.Referee` (see the module docstring)."""

    __slots__ = ()

    def _expected_drawer(self, st: TableState) -> int | None:
        w = st.window
        if (st.phase is Phase.PLAY and st.intake is NONE_INTAKE and w is not None and w.kind is DISCARD_WINDOW
                and w.taken is None):
            return (w.seat + 1) % 4
        return None

    def _draw(self, st: TableState, ev: Event) -> Verdict:
        """摸牌 (play.draw): the next player after the discarder, from the front of the wall;
        never from the dead wall (play.exhausted)."""
        # fast path: the expected draw of a legal hand, as _checked_draw would take it; each
        # test a guard with the checked draw next to it (a near jump: CPython 3.11 then
        # specialises the comparisons, which a jump past the whole path stops)
        w = st.window
        s = ev.seat
        if not (self.fast and w is not None and st.intake is NONE_INTAKE and w.taken is None and not w.closed
                and not st.wins and _NEXT_SEAT[w.seat] == s and w.kind is DISCARD_WINDOW and st.phase is PLAY_PHASE):
            return self._checked_draw(st, ev)
        wall = st.wall
        tiles = wall.tiles
        front = wall.front
        if tiles is not None:
            tile = tiles[front]
            given = ev.tiles
            if given is not None and given[0] != tile:
                return self._checked_draw(st, ev)
        else:
            tile = ev.tile
            if tile is not None:
                return self._checked_draw(st, ev)
        live = wall.end - front
        if live <= 0:
            return self._checked_draw(st, ev)
        seat = st.seats[s]
        if seat.passed is None:
            waits = seat.waits
            if waits is not None and w.tile in waits and not seat.dead_hand and w.tile not in seat.revealed:
                seat.passed = ev.seq
        wall.front = front + 1
        if tile is None:
            seat.unknown += 1
        elif tile >= FLOWER_BASE:
            seat.held_flowers.append(tile)
        else:
            seat.hand[tile] += 1
            seat.n += 1
            seat.keys[SUIT_OF[tile]] += UNIT_OF[tile]
            seat.waits = None
        seq = ev.seq
        # the turn begins: TableState.begin_turn(s, DRAW_INTAKE, seq), inline and writing only
        # what differs (2 % of a hand; tests/test_fast_paths.py compares every field)
        st.turn = s
        st.intake = DRAW_INTAKE
        if st.owed:
            st.owed = 0
            st.owed_kinds = []
        st.placed = False
        if st.kong_this_turn:  # the other kong flags are only ever set with it
            st.turn_kongs = 0
            st.melded_kong_turn = False
            st.placed_before_kong = False
            st.kong_this_turn = False
        if st.after_claim_tile is not None:
            st.after_claim_tile = None
            st.after_claim_forbidden = ()
        st.turn_start_seq = seq
        st.ready_discard_pending = None
        st.source = LAST_TILE_SOURCE if live == 1 else WALL_SOURCE
        st.drawn = tile
        if not seat.drawn_count:
            seat.first_drawn = tile
        seat.drawn_count += 1
        # the seat's record of its last draw, rewritten unless the previous window still holds it
        taken = seat.wall_draw
        pw = st.prev_window
        if taken is None or (pw is not None and pw.taken is taken):
            taken = seat.wall_draw = Taken(DRAW_INTAKE, s, seq, ev.ts, tile)
        else:
            taken.seq = seq
            taken.ts = ev.ts
            taken.tile = tile
            taken.placed_ts = None
        w.taken = taken
        return ACCEPTED

    def _checked_draw(self, st: TableState, ev: Event) -> Verdict:
        """A draw checked rule by rule: the reference that the fast path of :meth:`_draw`
        must agree with (:class:`referee.machine.ReferenceReferee`, tests/test_fast_paths.py)."""
        done = self._after_end(st, ev)
        if done:
            return done
        s = ev.seat
        problems = []
        wall = st.wall
        if wall.live <= 0:
            return self._reject(st, [self._irr(ev, "dead_wall_draw", reserve=wall.reserve)])
        if st.phase is not Phase.PLAY or self._expected_drawer(st) != s:
            w = st.window
            if st.phase is Phase.PLAY and st.turn == s and st.intake is not NONE_INTAKE:
                problems.append(self._irr(ev, "second_intake", kind="draw", kind_zh="摸牌"))
            else:
                problems.append(self._irr(ev, "out_of_turn_draw"))
            if st.mode_digital or st.phase is not Phase.PLAY:
                return self._reject(st, problems)
        tile, refused = self._drawn_tile(st, ev, wall.tiles[wall.front] if wall.known else None, problems)
        if refused is not None:
            return refused
        seat = st.seats[s]
        w = st.window
        reached = w is not None and w.kind is DISCARD_WINDOW and w.seat != s and not w.closed
        if reached:
            self._passed_by_reaching(seat, w.tile, ev.seq)
        wall.take_front(1)
        if tile is None:
            seat.unknown += 1
        elif tile >= FLOWER_BASE:
            seat.held_flowers.append(tile)
        else:
            _add(seat, tile)
        st.begin_turn(s, DRAW_INTAKE, ev.seq)
        st.source = Source.LAST_TILE if wall.live == 0 else Source.WALL
        st.drawn = tile
        seat.drawn_count += 1
        if seat.drawn_count == 1:
            seat.first_drawn = tile
        if w is not None and w.taken is None and not w.closed:
            w.taken = Taken(DRAW_INTAKE, s, ev.seq, ev.ts, tile)  # the draw that took the tile is its drawer's touch
        elif reached:  # a draw out of turn, after the tile was taken: a touch of the wall all the same
            w.note_touch(s, (ev.ts, ev.seq))
        return self._stands(problems) if problems else ACCEPTED

    def _reached(self, st: TableState, w: Window, seat: SeatState, ev: Event) -> None:
        """A hand reached to the wall while *w*'s tile could be claimed (觸牌 touch_wall): a
        win on it is passed (play.passed-win: 得胡牌者已伸手摸牌即視同過水; prio.5, prio.8)."""
        w.note_touch(seat.seat, (ev.ts, ev.seq))
        self._passed_by_reaching(seat, w.tile, ev.seq)

    @staticmethod
    def _passed_by_reaching(seat: SeatState, tile: int, seq: int) -> None:
        """過水 by reaching to the wall (play.passed-win): the seat could have won on *tile*."""
        if seat.passed is None:
            waits = seat.waits  # as _could_win, inline for speed
            if waits is not None and tile in waits and not seat.dead_hand and tile not in seat.revealed:
                seat.passed = seq

    def _drawn_tile(self, st: TableState, ev: Event, expected: int | None,
                    problems: list) -> tuple[int | None, Verdict | None]:
        """The tile a draw takes (play.draw): at a known wall the wall's own (*expected*; a
        different recorded tile is ``wrong_tile``), otherwise the recorded one, if any, checked
        against the copies already seen. Returns ``(tile, None)`` or ``(None, the rejection)``."""
        tile = ev.tile
        if expected is not None:
            if tile is not None and tile != expected:
                return None, self._reject(st, problems + [self._irr(ev, "wrong_tile", tile=tile, wall_tile=expected)])
            return expected, None
        if tile is not None:
            bad = self._unseen_copies(st, ev, (tile,))
            if bad:
                return None, self._reject(st, problems + [bad])
        return tile, None

    def _tail_draw(self, st: TableState, ev: Event) -> Verdict:
        """槓尾補牌: a replacement for a flower laid out or a kong (deal.flowers, app.kong)."""
        if st.wrong_kongs:
            self._follow_wrong_kongs(st, ev)
        phase = st.phase
        if phase is ENDED_PHASE or st.wins:
            return self._after_end(st, ev)
        s = ev.seat
        seat = st.seats[s]
        problems = []
        wall = st.wall
        w = st.window
        robbing = (w is not None and w.kind is FLOWER_WINDOW and w.seat != s and len(seat.flowers) == 7)
        in_phase = phase is PLAY_PHASE or phase is FLOWERS_PHASE
        if not robbing and (st.turn != s or st.owed <= 0 or not in_phase):
            problems.append(self._irr(ev, "unowed_replacement"))
            if st.mode_digital or not in_phase:
                return self._reject(st, problems)
        k = wall._tail  # the tail property, tail_index and take_tail's count, inline for speed
        size = wall.size  # 144, or 136 without flowers (tiles.flowers)
        if wall.front + k >= size:  # nothing left standing
            return self._reject(st, problems + [self._irr(ev, "dead_wall_draw", reserve=0)])
        if phase is PLAY_PHASE and wall.end <= wall.front:
            # the live wall is drawn out: a replacement would come out of the 16 tiles (+1 per
            # kong under 一槓一) that stay undrawn (play.exhausted, tai.25 殘牌固定保留8墩,
            # app.dead-wall); the hand is drawn (app.flowers.no-replace for a flower)
            return self._reject(st, problems + [self._irr(ev, "dead_wall_draw", reserve=wall.reserve)])
        tiles = wall.tiles
        expected = tiles[size - 2 - k + 2 * (k % 2)] if tiles is not None else None  # as tail_index
        given = ev.tiles
        if expected is not None and (not given or given[0] == expected):
            tile = expected  # the wall's own, as _drawn_tile gives it
        else:
            tile, refused = self._drawn_tile(st, ev, expected, problems)
            if refused is not None:
                return refused
        if w is not None and w.kind is not DISCARD_WINDOW and w.seat == s:
            self._close_window(st, w, ev)  # the kong stands: nobody robbed it
            st.window = st.prev_window if st.prev_window is not w else None
        wall._tail = k + 1  # as take_tail, inline for speed
        wall.end -= 1
        if tile is None:
            seat.unknown += 1
        elif tile >= FLOWER_BASE:
            seat.held_flowers.append(tile)
            if phase is FLOWERS_PHASE:
                seat.flower_round[tile] = st.flower_round + 1
        else:
            _add(seat, tile)
            if phase is FLOWERS_PHASE and s == st.dealer:
                st.door_tile = tile
        if robbing:
            st.flower_win_seat = s
            w.taken = Taken(DRAW_INTAKE, s, ev.seq, ev.ts, tile)
        elif not problems:
            owed_kinds = st.owed_kinds
            kind = owed_kinds.pop(0) if owed_kinds else FLOWER_SOURCE
            st.owed -= 1
            if phase is PLAY_PHASE:
                st.source = MELDED_KONG_SOURCE if st.melded_kong_turn else kind
                st.drawn = tile
                st.placed = False
        return self._stands(problems) if problems else ACCEPTED

    def _skip_last(self, st: TableState, ev: Event) -> Verdict:
        """海底牌得棄摸 (tai.25): the player due to draw the last tile leaves it; the hand is
        an exhaustive draw (play.exhausted)."""
        done = self._after_end(st, ev)
        if done:
            return done
        if (st.wall.live != 1 or self._expected_drawer(st) != ev.seat or not st.rules.last_tile_may_decline):
            return self._reject(st, [self._irr(ev, "skip_not_last", live=st.wall.live)])
        self._close_window(st, st.window, ev)
        st.skipped_last = True
        st.phase = Phase.ENDED
        st.end_seq = ev.seq
        return ACCEPTED

    def _discard(self, st: TableState, ev: Event) -> Verdict:
        """捨牌 (play.discard): one concealed tile, by the player whose turn it is, after the
        turn's intake and replacements; then the others may claim it."""
        if st.wrong_kongs:
            self._follow_wrong_kongs(st, ev)
        s = ev.seat
        seat = st.seats[s]
        x = ev.tiles[0]
        w = st.window  # the window the discard closes (and keeps as the previous one)
        # fast path: _apply_discard of a known tile in turn, no meld touched, no lapse (the
        # checked discard first: a near jump, see _draw)
        if not (self.fast and s == st.turn and st.phase is PLAY_PHASE and st.intake is not NONE_INTAKE and not st.owed
                and x < KINDS
                and seat.hand[x] and not st.wins and not ev.exposed and not seat.held_flowers
                and seat.ready is None and x not in st.after_claim_forbidden):
            verdict, applied = self._checked_discard(st, ev, seat, x)
            if not applied:
                return verdict
        else:
            if w is not None and not w.closed:
                wt = w.tile
                if w.calls or w.kind is not DISCARD_WINDOW or wt >= KINDS or st.waiters[wt]:
                    self._close_window(st, w, ev)
                else:  # nothing to settle: no call, nobody waiting on it
                    w.closed = True
            seat.hand[x] -= 1
            n = seat.n = seat.n - 1
            k = seat.keys
            k[SUIT_OF[x]] -= UNIT_OF[x]
            # the waits of the hand left (as _refresh_waits, inline for speed)
            if seat.unknown or n + 3 * len(seat.melds) != 16:
                seat.waits = None
            else:
                waits = seat.waits = _waits_of(k[0], k[1], k[2], k[3])
                if waits is not seat.waited:
                    _mark_waiters(st.waiters, seat, waits)
                if seat.passed is not None or x in waits:  # it held 17: 過水 at one's own discard
                    _passed_at_own_discard(st, seat, x, ev.seq)
            verdict = ACCEPTED
        # the discard lies in the pond: the turn ends and a claim window opens on it
        seq = ev.seq
        seat.pond.append(x)
        seat.discards += 1
        log = st.log
        seat.since = len(log)
        log.append((x, seq, s, True))
        wall = st.wall
        last = wall.end <= wall.front
        opened = seat.discard_window
        if opened is None or opened is w or opened is st.prev_window:  # still referred to: a new one
            opened = seat.discard_window = Window(DISCARD_WINDOW, s, x, seq, ev.ts, last)
        else:  # as Window.reopen, inline for speed (a seat's discard window stays a discard window)
            opened.tile = x
            opened.seq = seq
            opened.ts = ev.ts
            opened.last = last
            if opened.noted:
                opened.calls = opened.touched = _NO_DICT
                opened.wins = _NO_LIST
                opened.passes = opened.fulfilled = _NO_SET
                opened.noted = False
            opened.taken = None
            opened.closed = False
        st.prev_window = w
        st.window = opened
        st.intake = NONE_INTAKE
        st.drawn = None
        st.placed = False
        if st.after_claim_tile is not None:
            st.after_claim_tile = None
            st.after_claim_forbidden = ()
        if st.owed:
            st.owed = 0
            st.owed_kinds = []
        st.ready_discard_pending = s
        if seat.discards == 1 and 27 <= x < 31 and st.rules.abortive_four_winds:
            _four_winds(st, seq, x)
        elif st.kong_this_turn and st.wall.kongs >= 4 and st.rules.abortive_four_kongs:
            _four_kongs(st, seq)
        return verdict

    def _checked_discard(self, st: TableState, ev: Event, seat: SeatState, x: int) -> tuple[Verdict, bool]:
        """A discard off the fast path, checked rule by rule: ``(its verdict, applied?)``; an
        applied one still has to be laid in the pond (:meth:`_discard` does it)."""
        s = ev.seat
        done = self._after_end(st, ev)
        if done:
            return done, False
        problems = []
        if st.phase is FLOWERS_PHASE and s == st.dealer:
            problems += self._start_play(st, ev)
        if st.phase is not PLAY_PHASE:
            return self._reject(st, problems + [self._irr(ev, "out_of_turn_discard")]), False
        in_turn = s == st.turn and st.intake is not NONE_INTAKE
        if not in_turn:
            if s == st.turn or (self._expected_drawer(st) == s):
                problems.append(self._irr(ev, "discard_before_intake"))
            else:
                problems.append(self._irr(ev, "out_of_turn_discard"))
        if in_turn and st.owed > 0:
            kind = st.owed_kinds[0] if st.owed_kinds else Source.FLOWER
            problems.append(self._irr(ev, "missing_replacement",
                                      clause="deal.flowers" if kind is Source.FLOWER else "app.kong"))
        if seat.held_flowers and x < FLOWER_BASE:
            problems.append(self._irr(ev, "flower_not_replaced", tile=seat.held_flowers[0],
                                      clause=_UNREPLACED_CLAUSE[st.rules.unreplaced_ends_hand]))
        exposed_meld = None
        if x >= FLOWER_BASE:
            if x not in seat.held_flowers:
                if not seat.unknown:
                    return self._reject(st, problems + [self._irr(ev, "flower_not_held", tile=x)]), False
                bad = self._unseen_copies(st, ev, (x,))
                if bad:
                    return self._reject(st, problems + [bad]), False
            problems.append(self._irr(ev, "flower_discarded", tile=x))
        elif ev.exposed:
            for i, m in enumerate(seat.melds):
                if m.tiles and x in m.tiles and m.kind is not CONCEALED_KONG_MELD:
                    exposed_meld = i
                    break
            if exposed_meld is None:
                return self._reject(st, problems + [self._irr(ev, "tile_not_held", tile=x)]), False
            meld = seat.melds[exposed_meld]  # the facts: its words (「吃 六七八筒」) and its tiles
            problems.append(self._irr(ev, "exposed_discard", tile=x, meld=meld.zh, meld_tiles=tuple(meld.tiles),
                                      live=st.wall.live))
        elif not seat.hand[x]:
            if not seat.unknown:
                return self._reject(st, problems + [self._irr(ev, "tile_not_held", tile=x)]), False
            bad = self._unseen_copies(st, ev, (x,))
            if bad:
                return self._reject(st, problems + [bad]), False
        if in_turn and x in st.after_claim_forbidden and exposed_meld is None:
            if st.intake is Intake.CHOW:
                problems.append(self._irr(ev, "forbidden_discard_after_chow", tile=st.after_claim_tile, discard=x,
                                          clause=st.rules.chow_other_end_clause if x != st.after_claim_tile
                                          else "play.restrict.6"))
            else:
                problems.append(self._irr(ev, "forbidden_discard_after_pung", tile=x))
        ready = seat.ready
        # 天聽 / 地聽 lapse on 換牌 or 靠張 (tai.31, tai.32); 宣告聽牌 must discard the drawn tile (app.ready)
        changed = in_turn and st.drawn is not None and (x != st.drawn or st.placed)
        if ready is DECLARED_READY and in_turn and st.drawn is not None and x != st.drawn:
            problems.append(self._irr(ev, "ready_changed", drawn=st.drawn, tile=x))
        if problems and st.mode_digital:
            return self._reject(st, problems), False
        self._apply_discard(st, seat, ev, x, in_turn, exposed_meld, ready is not None and ready is not
                            DECLARED_READY and changed)
        return (self._stands(problems) if problems else ACCEPTED), True

    def _apply_discard(self, st: TableState, seat: SeatState, ev: Event, x: int, in_turn: bool,
                       exposed_meld: int | None, lapse: bool) -> None:
        """A discard that stands though irregular (physical table): out of the hand, an exposed
        meld or the unknown tiles; its window settled. :meth:`_discard` then lays it in the pond."""
        self._close_window(st, st.window, ev)
        known = not seat.unknown
        melds3 = 3 * len(seat.melds)
        full = in_turn and known and seat.n + melds3 == 17
        if lapse:
            seat.ready, seat.ready_lapsed = None, "changed" if not st.placed else "placed"
        if x >= FLOWER_BASE:
            if x in seat.held_flowers:
                seat.held_flowers.remove(x)
            else:
                seat.unknown -= 1
        elif exposed_meld is not None:
            m = seat.melds[exposed_meld]
            rest = list(m.tiles)
            rest.remove(x)
            seat.melds[exposed_meld] = TableMeld(m.kind, tuple(rest), m.claimed, m.from_seat, m.seq)
            seat.shown(ev.seq)
        elif seat.hand[x]:
            seat.hand[x] -= 1
            seat.n -= 1
            seat.keys[SUIT_OF[x]] -= UNIT_OF[x]
        else:
            seat.unknown -= 1
        if known:  # the waits of the hand left (no unknown tile came or went)
            _refresh_waits(seat, st.waiters)
        else:
            seat.waits = None
        if full and x < KINDS:
            _passed_at_own_discard(st, seat, x, ev.seq)
        st.turn = seat.seat  # a physical table's discard out of turn: the turn is the discarder's now

    def _replace_window(self, st: TableState, w: Window, ev: Event) -> None:
        old = st.window
        if old is not None and not old.closed:
            self._close_window(st, old, ev)
        st.prev_window = old
        st.window = w

    def _close_window(self, st: TableState, w: Window | None, ev: Event | None) -> None:
        """Nobody else can claim *w*'s tile any more: calls not carried out are reported
        (pen.unfulfilled-call); a seat that could have won on it and did not is passed
        (play.passed-win); one that could have punged it may not pung it again this
        go-around (過水碰, play.pon)."""
        if w is None or w.closed:
            return
        w.closed = True
        kind = w.kind
        if kind is FLOWER_WINDOW:
            return
        wins = w.wins
        if w.calls:
            self._unfulfilled(w)
        tile = w.tile
        if tile >= KINDS:
            return
        mask = st.waiters[tile]
        if not mask:  # nobody's known hand waits on it (the usual case)
            return
        wseq = w.seq
        ws = w.seat
        taken = w.taken
        taker = taken.seat if taken is not None else -1
        for seat in st.seats:
            s = seat.seat
            if not (mask >> s) & 1 or s == ws:
                continue
            if s == taker or (wins and any(c[0] == s for c in wins)):
                continue
            if seat.passed is None:
                waits = seat.waits
                if waits is not None and tile in waits and not seat.dead_hand and tile not in seat.revealed:
                    seat.passed = wseq

    def _unfulfilled(self, w: Window) -> None:
        winners = {c[0] for c in w.wins}
        for c, (call, ts, seq) in w.calls.items():
            if call in _BINDING_CALLS and c not in w.fulfilled and c not in winners:
                self._found(irregularity("unfulfilled_call", seq, c, evidence=(seq, w.seq), call=call.value,
                                         call_zh=_CALL_ZH[call], discarder=w.seat, tile=w.tile,
                                         from_previous_player=w.seat == (c - 1) % 4,
                                         east=self.state.east if self.state is not None else None,
                                         names=self.names))

    def _could_win(self, st: TableState, seat: SeatState, tile: int) -> bool:
        """The seat's known 16-tile hand wins on *tile* (a chance for 過水)."""
        waits = seat.waits
        return waits is not None and tile in waits and not seat.dead_hand and tile not in seat.revealed


def _passed_at_own_discard(st: TableState, seat: SeatState, x: int, seq: int) -> None:
    """過水 at one's own discard (play.passed-win, play.passed-win.release, app.passed-win):
    letting a complete hand go by discarding one of its winning tiles leaves the seat passed;
    a discard that is not a winning tile releases it. *seat*'s waits are the hand left."""
    waits = seat.waits
    if waits is not None and x in waits:
        if seat.passed is None and (st.intake is DRAW_INTAKE or st.intake is DEALT_INTAKE) and not st.melded_kong_turn:
            # the draw's seq: a DRAW turn began with it; a DEALT one has none (the discard's then)
            seat.passed = st.turn_start_seq if st.turn_start_seq is not None else seq
    elif seat.passed is not None:
        seat.passed = None


def _four_winds(st: TableState, seq: int, x: int) -> None:
    """四風連打 (``play.abortive_four_winds``): with no claim yet, the four first discards
    are one wind: the hand ends, drawn. No win is possible on the fourth: all four copies
    lie in the ponds."""
    if st.claims_made == 0 and all(o.discards == 1 and o.pond == [x] for o in st.seats):
        st.abortive = "four_winds"
        st.phase = Phase.ENDED
        st.end_seq = seq


def _four_kongs(st: TableState, seq: int) -> None:
    """四槓流局 (``play.abortive_four_kongs``): the discard after the fourth kong, the kongs
    made by two or more players, ends the hand unless someone wins on it
    (:func:`referee.winning.check_win` still takes a win on this discard)."""
    if st.abortive is None and sum(1 for o in st.seats if any(m.kind.is_kong for m in o.melds)) >= 2:
        st.abortive = "four_kongs"
        st.phase = Phase.ENDED
        st.end_seq = seq

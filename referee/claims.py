"""Claims and kongs: chow, pung, melded / added / concealed kong, and priority between claims
(``play.chi``, ``play.pon``, ``play.kong.*``, ``app.kong``, ``app.kong.limits``, ``play.restrict.1``–``8``,
``app.priority``, ``prio.3``, ``prio.4``).

A mixin of :class:`referee.machine.Referee`: the methods use its verdict helpers
(``_irr``, ``_reject``, ``_stands``...).
"""
from __future__ import annotations

from .events import Event
from .kinds_fast import (
    ADDED_KONG_MELD, ADDED_KONG_WINDOW, CHOW_EVENT, CHOW_INTAKE, CONCEALED_KONG_MELD, DEALT_SOURCE, DISCARD_WINDOW,
    DRAW_INTAKE, ENDED_PHASE, FLOWERS_PHASE, KONG_SOURCE, MELDED_KONG_INTAKE, MELDED_KONG_MELD, MELDED_KONG_SOURCE,
    NONE_INTAKE, PLAY_PHASE, PUNG_INTAKE, PUNG_MELD,
)
from .melds import MeldKind
from .restrictions import SUIT_OF, UNIT_OF, chow_forbidden_discards, chow_takes_own_discard, is_run, wins_with
from .state import Intake, Source, TableMeld, TableState, Taken, Window, WindowKind
from .tiles import FLOWER_BASE, KINDS
from .verdicts import ACCEPTED, Verdict
from .table_ops import _add, _remove, _holds, _refresh_waits, _from_unknown, _INTAKE_NAME, _INTAKE_ZH


_MELD_OF = {Intake.CHOW: MeldKind.CHOW, Intake.PUNG: MeldKind.PUNG, Intake.MELDED_KONG: MeldKind.MELDED_KONG}


def _holds_known(hand: list[int], tiles: list[int]) -> bool:
    """A fully known hand holds these tiles (two or three, mostly)."""
    if len(tiles) == 2:
        a, b = tiles
        if a >= KINDS or b >= KINDS:
            return False
        return hand[a] >= (2 if a == b else 1) and hand[b] >= 1
    need: dict[int, int] = {}
    for t in tiles:
        if t >= KINDS:
            return False
        need[t] = need.get(t, 0) + 1
    return all(hand[t] >= n for t, n in need.items())


def _without(tiles, t: int) -> tuple[int, int] | None:
    """The two of three *tiles* left when the first *t* is taken out (``list.remove``), or None."""
    a, b, c = tiles
    if a == t:
        return b, c
    if b == t:
        return a, c
    if c == t:
        return a, b
    return None


#: the seat after each (下家): the only one that may chow a discard (play.chi)
_NEXT_SEAT = (1, 2, 3, 0)


class ClaimsMixin:
    """Handlers of :class:`referee.machine.Referee` (see the module docstring)."""

    __slots__ = ()

    def _claim(self, st: TableState, ev: Event) -> Verdict:
        """吃 / 碰 on the latest discard (play.chi, play.pon, app.chi, app.pon).

        Fast path: the usual claim — a known hand's chow or pung of the open discard, nobody
        else in the window, nothing the rules forbid — applied as :meth:`_claim_discard`
        applies it; anything else, and every claim of :class:`referee.machine.ReferenceReferee`,
        is checked rule by rule there (tests/test_fast_paths.py holds the two equal). Each
        guard is a condition under which a rule the fast path does not check cannot apply."""
        if ev.type is CHOW_EVENT:
            intake = CHOW_INTAKE
        else:
            self.claim_indices.append(len(self.verdicts.seqs))  # a pung: Referee.claim_indices
            intake = PUNG_INTAKE
        w = st.window
        s = ev.seat
        seat = st.seats[s]
        # the window is the latest discard's, still open, untaken, unclaimed by a win (a taken
        # or won tile is a matter of priority: app.priority, prio.*); play goes on (play.win,
        # play.exhausted); the hand is known (no unseen copies: deal.walls), not 相公
        # (pen.dead-hand), shows nothing (play.restrict.8)
        if not (self.fast and w is not None and w.taken is None and not w.closed and not w.wins
                and w.kind is DISCARD_WINDOW and st.phase is PLAY_PHASE and not st.wins
                and not seat.unknown and not seat.dead_hand and not seat.revealed):
            return self._claim_discard(st, ev, intake)
        rules = st.rules
        wall = st.wall
        limit = rules.last_tiles_no_claims
        if limit and wall.end - wall.front <= limit:  # play.restrict.7: no claim in the last tiles
            return self._claim_discard(st, ev, intake)
        tiles = ev.tiles
        wt = w.tile
        hand = seat.hand
        if intake is CHOW_INTAKE:
            # play.chi: from the seat before (上家), a run of one suit holding the discard and
            # two tiles of the hand (is_run, _holds_known)
            if _NEXT_SEAT[w.seat] != s or len(tiles) != 3:
                return self._claim_discard(st, ev, intake)
            a, b, c = sorted(tiles)
            if not (c < 27 and a // 9 == c // 9 and b == a + 1 and c == b + 1):
                return self._claim_discard(st, ev, intake)
            hand_tiles = _without(tiles, wt)  # the hand's two, in the order given (as list.remove)
            if hand_tiles is None or not hand[hand_tiles[0]] or not hand[hand_tiles[1]]:
                return self._claim_discard(st, ev, intake)
            # app.after-claim, play.restrict.6: the tiles that may not be discarded now; the
            # seat's own last discard among them would be 同巡吃入同(絡)牌 (as
            # chow_takes_own_discard: the same tile, or with other_end the run's other end)
            # (chow_forbidden_discards, inline for speed: a < b < c one suit, so the run's
            # other end is c + 1 or a - 1 when it stays in the suit; tests/test_fast_paths.py)
            if not rules.chow_forbids_other_end or wt == b:
                forbidden = (wt,)
            elif wt == a:
                forbidden = (wt, c + 1) if c % 9 != 8 else (wt,)
            else:
                forbidden = (wt, a - 1) if a % 9 else (wt,)
            if rules.chow_forbid_own_recent and seat.discards and st.log[seat.since][0] in forbidden:
                return self._claim_discard(st, ev, intake)
        else:
            # play.pon: three alike, the discard and a pair of the hand, not one's own discard
            if (len(tiles) != 3 or tiles[0] != wt or tiles[1] != wt or tiles[2] != wt or wt >= KINDS
                    or s == w.seat or hand[wt] < 2):
                return self._claim_discard(st, ev, intake)
            # play.pon (過水碰): a pung of a tile the seat let go this go-around
            if rules.passed_pung and st.passed_pung_seq(seat, wt, w.seq) is not None:
                return self._claim_discard(st, ev, intake)
            hand_tiles = (wt, wt)
        # --- apply, as _claim_discard does with no problem and nothing to undo
        waits = seat.waits
        if seat.passed is None and waits and wt in waits:
            seat.passed = w.seq  # chose to claim rather than win: the win is passed (play.passed-win)
        keys = seat.keys
        for t in hand_tiles:
            hand[t] -= 1
            keys[SUIT_OF[t]] -= UNIT_OF[t]
        seat.n -= 2
        seat.waits = None
        pond = st.seats[w.seat].pond
        if pond and pond[-1] == wt:
            pond.pop()
        elif wt in pond:
            pond.remove(wt)
        seq = ev.seq
        meld = TableMeld(_MELD_OF[intake], tuple(tiles), wt, w.seat, seq)
        melds = seat.melds
        melds.append(meld)
        seat.shown_log.append((seq, tuple(seat.flowers), tuple(melds)))  # seat.shown(seq), inline
        # the turn begins: TableState.begin_turn(s, intake, seq), inline and writing only what
        # differs after a discard (as the fast draw does; tests/test_fast_paths.py compares every field)
        st.turn = s
        st.intake = intake
        if st.owed:
            st.owed = 0
            st.owed_kinds = []
        st.placed = False
        if st.kong_this_turn:  # the other kong flags are only ever set with it (a chow or pung is no melded kong)
            st.turn_kongs = 0
            st.melded_kong_turn = False
            st.placed_before_kong = False
            st.kong_this_turn = False
        st.turn_start_seq = seq
        st.ready_discard_pending = None
        st.drawn = None
        st.source = DEALT_SOURCE
        st.claims_made += 1
        w.taken = Taken(intake, s, seq, ev.ts, wt, meld, hand_tiles)
        if w.calls:
            w.note_fulfilled(s)
        if intake is CHOW_INTAKE:
            if rules.chow_restricts_discard:  # play.chow.forbidden_discards: none lifts it
                st.after_claim_tile = wt
                st.after_claim_forbidden = forbidden
            elif st.after_claim_tile is not None:  # as begin_turn
                st.after_claim_tile = None
                st.after_claim_forbidden = ()
        elif rules.pung_restricts_discard:  # play.pung.forbidden_discards: none lifts it
            st.after_claim_tile = wt
            st.after_claim_forbidden = (wt,)
        elif st.after_claim_tile is not None:  # as begin_turn
            st.after_claim_tile = None
            st.after_claim_forbidden = ()
        return ACCEPTED

    def _claim_discard(self, st: TableState, ev: Event, intake: Intake, dry: bool = False):
        if st.phase is ENDED_PHASE or st.wins:
            return False if dry else self._after_end(st, ev)
        s = ev.seat
        seat = st.seats[s]
        w = st.window
        tiles = ev.tiles
        kind_name = _INTAKE_NAME[intake]
        if st.phase is not PLAY_PHASE or w is None or w.kind is not DISCARD_WINDOW or w.closed:
            return self._no(st, dry, [self._irr(ev, "claim_nothing")])
        if dry and (w is None or w.kind is not DISCARD_WINDOW or w.closed or w.tile not in tiles or s == w.seat):
            return False
        if w.tile not in tiles:
            pw = st.prev_window
            if pw is not None and pw.kind is DISCARD_WINDOW and pw.tile in tiles and pw.seat != s:
                clause = "prio.3" if pw.taken is not None and pw.taken.intake is CHOW_INTAKE else "prio.4"
                return self._no(st, dry, [self._irr(ev, "lost_priority", clause=clause, kind=kind_name,
                                                   kind_zh=_INTAKE_ZH[intake], tile=pw.tile)])
        if w.tile not in tiles:
            return self._no(st, dry, [self._irr(ev, "claim_nothing", tile=w.tile)])
        if s == w.seat:
            return self._no(st, dry, [self._irr(ev, "claim_own_discard", tile=w.tile)])
        problems = []
        if seat.dead_hand:
            problems.append(self._irr(ev, "dead_hand_act", kind=kind_name, kind_zh=_INTAKE_ZH[intake]))
        # shape
        hand_tiles = list(tiles)
        if w.tile in hand_tiles:
            hand_tiles.remove(w.tile)
        run = intake is CHOW_INTAKE and is_run(tiles)
        if intake is CHOW_INTAKE:
            if s != (w.seat + 1) % 4:
                problems.append(self._irr(ev, "chow_wrong_seat", discarder=w.seat, tile=w.tile))
            if not run:
                problems.append(self._irr(ev, "chow_not_a_run", tiles=tuple(tiles), tile=w.tile))
        elif intake is PUNG_INTAKE:
            wt = w.tile
            if len(tiles) != 3 or tiles[0] != wt or tiles[1] != wt or tiles[2] != wt:
                problems.append(self._irr(ev, "pung_not_alike", tiles=tuple(tiles), tile=w.tile))
        else:  # melded kong
            if len(tiles) != 4 or any(t != w.tile for t in tiles):
                problems.append(self._irr(ev, "wrong_kong", clause="pen.wrong-kong.melded", tiles=tuple(tiles),
                                          kind="melded", live=st.wall.live, stage="declared"))
            if not st.rules.melded_kong_from_previous and w.seat == (s - 1) % 4:
                problems.append(self._irr(ev, "melded_kong_previous_player", discarder=w.seat))
        if not (seat.unknown == 0 and _holds_known(seat.hand, hand_tiles)) and (
                any(t >= FLOWER_BASE for t in hand_tiles) or not _holds(seat, hand_tiles)):
            if dry:
                return False
            return self._no(st, dry, problems + [self._irr(ev, "claim_tiles_not_held", tiles=tuple(tiles))])
        if seat.unknown and not dry:
            bad = self._unseen_copies(st, ev, _from_unknown(seat, hand_tiles))
            if bad:
                return self._reject(st, problems + [bad])
        # priority (app.priority, opt.priority-order: 胡 > 碰、槓 > 吃; prio.3, prio.4)
        undo = None
        taken = w.taken
        if w.wins:
            return self._no(st, dry, problems + [self._irr(ev, "lost_priority", clause="app.priority", kind=kind_name,
                                                          kind_zh=_INTAKE_ZH[intake], tile=w.tile)])
        if taken is not None:
            if taken.seat == s:
                return self._no(st, dry, problems + [self._irr(ev, "second_intake", kind=kind_name,
                                                              kind_zh=_INTAKE_ZH[intake])])
            call_ts = self._call_ts(w, s, ev)
            if intake is CHOW_INTAKE or taken.intake in (PUNG_INTAKE, Intake.MELDED_KONG):
                clause = "play.pon" if taken.intake is not DRAW_INTAKE else "prio.4"
                return self._no(st, dry, problems + [self._irr(ev, "lost_priority", clause=clause, kind=kind_name,
                                                              kind_zh=_INTAKE_ZH[intake], tile=w.tile)])
            if taken.intake is DRAW_INTAKE:
                if (taken.placed_ts is not None and taken.placed_ts <= call_ts) or self._turn_moved_on(st, taken):
                    return self._no(st, dry, problems + [self._irr(ev, "lost_priority", clause="prio.4", kind=kind_name,
                                                                  kind_zh=_INTAKE_ZH[intake], tile=w.tile)])
            elif taken.intake is CHOW_INTAKE and self._turn_moved_on(st, taken):
                return self._no(st, dry, problems + [self._irr(ev, "lost_priority", clause="prio.3", kind=kind_name,
                                                              kind_zh=_INTAKE_ZH[intake], tile=w.tile)])
            undo = taken
        # restrictions
        rules = st.rules
        limit = rules.last_tiles_no_claims
        if limit and st.wall.end - st.wall.front <= limit:  # as wall.live (without the property call, for speed)
            problems.append(self._irr(ev, "claim_in_last_tiles", limit=limit, live=st.wall.live,
                                      clause="play.restrict.7"))
        if seat.revealed and (w.tile in seat.revealed or any(t in seat.revealed for t in hand_tiles)):
            problems.append(self._irr(ev, "claim_revealed_tiles", revealed=tuple(sorted(seat.revealed))))
        if run and rules.chow_forbid_own_recent:
            own = st.last_discard(seat)
            if own is not None and chow_takes_own_discard(tiles, w.tile, own[0],
                                                          other_end=rules.chow_forbids_other_end):
                problems.append(self._irr(ev, "chow_own_recent_discard", own=own[0], tile=w.tile))
        first = st.passed_pung_seq(seat, w.tile, w.seq) if intake is PUNG_INTAKE and rules.passed_pung else None
        if first is not None:
            problems.append(self._irr(ev, "passed_pung", tile=w.tile, evidence=(ev.seq, first),
                                      clause="play.pon"))
        if dry:
            return not problems and (taken is None or undo is not None)
        if problems and st.mode_digital:
            return self._no(st, dry, problems)
        # --- apply
        if undo is not None:
            self._undo(st, w, undo, ev.seq)
        waits = seat.waits
        if seat.passed is None and waits and w.tile in waits and not seat.dead_hand and w.tile not in seat.revealed:
            seat.passed = w.seq  # chose to claim rather than win: the win is passed
        if seat.unknown:
            for t in hand_tiles:
                _remove(seat, t)
        else:  # a known hand that holds them (checked above): as _remove, inline for speed
            hand, keys = seat.hand, seat.keys
            for t in hand_tiles:
                hand[t] -= 1
                keys[SUIT_OF[t]] -= UNIT_OF[t]
            seat.n -= len(hand_tiles)
            seat.waits = None
        discarder = st.seats[w.seat]
        if discarder.pond and discarder.pond[-1] == w.tile:
            discarder.pond.pop()
        elif w.tile in discarder.pond:
            discarder.pond.remove(w.tile)
        meld = TableMeld(_MELD_OF[intake], tuple(tiles), w.tile, w.seat, ev.seq)
        seat.melds.append(meld)
        seat.shown(ev.seq)
        st.begin_turn(s, intake, ev.seq)
        st.drawn = None
        st.source = DEALT_SOURCE
        st.claims_made += 1
        w.taken = Taken(intake, s, ev.seq, ev.ts, w.tile, meld, tuple(hand_tiles))
        if w.calls:
            w.note_fulfilled(s)
        if intake is CHOW_INTAKE:
            if rules.chow_restricts_discard:  # play.chow.forbidden_discards: none lifts it
                st.after_claim_tile = w.tile
                st.after_claim_forbidden = chow_forbidden_discards(
                    tiles, w.tile, other_end=rules.chow_forbids_other_end) if run else (w.tile,)
        elif intake is PUNG_INTAKE:
            if rules.pung_restricts_discard:  # play.pung.forbidden_discards: none lifts it
                st.after_claim_tile = w.tile
                st.after_claim_forbidden = (w.tile,)
        else:
            st.owed = 1
            st.owed_kinds = [MELDED_KONG_SOURCE]
            st.wall.kongs += 1
            st.kong_this_turn = True
        if problems:
            self._track_wrong_kong(st, problems, s)
            return self._stands(problems)
        return ACCEPTED

    def _turn_moved_on(self, st: TableState, taken: Taken) -> bool:
        """The player who took the tile has done more than take it (kong, flower, a tail
        draw): too late to undo."""
        return st.turn != taken.seat or st.turn_start_seq != taken.seq or st.turn_kongs > 0 or taken.replaced \
            or bool(st.seats[taken.seat].flowers and st.owed) or st.wall.tail and st.source is Source.FLOWER

    def _call_ts(self, w: Window, s: int, ev: Event) -> int:
        call = w.calls.get(s)
        return min(call[1], ev.ts) if call is not None else ev.ts

    def _undo(self, st: TableState, w: Window, taken: Taken, seq: int) -> None:
        """A later claim had priority (prio.2–prio.7): the draw or chow that took the tile is
        put back: the tile to the wall or the pond, the hand as it was."""
        seat = st.seats[taken.seat]
        if taken.intake is DRAW_INTAKE:
            w.note_touch(taken.seat, (taken.ts, taken.seq))
            tile = taken.tile
            if tile is None:
                seat.unknown -= 1
            elif tile >= FLOWER_BASE:
                if tile in seat.held_flowers:
                    seat.held_flowers.remove(tile)
            else:
                _remove(seat, tile)
            st.wall.untake_front(1)
            seat.drawn_count -= 1
        else:
            meld = taken.meld
            if meld in seat.melds:
                seat.melds.remove(meld)
                seat.shown(seq)
            for t in taken.hand_tiles:
                _add(seat, t)
            st.seats[w.seat].pond.append(w.tile)
            st.claims_made -= 1
            if taken.intake is Intake.MELDED_KONG:
                st.wall.kongs -= 1
        _refresh_waits(seat, st.waiters)
        w.taken = None
        st.turn = w.seat
        st.intake = NONE_INTAKE

    def _kong(self, st: TableState, ev: Event) -> Verdict:
        """槓 (play.kong.concealed, play.kong.exposed, app.kong, app.kong.limits): a melded
        kong claims a discard; concealed and added kongs are made in one's own turn; every
        kong is replaced from the tail."""
        self.claim_indices.append(len(self.verdicts.seqs))  # Referee.claim_indices
        kind = ev.kind
        if kind is MELDED_KONG_MELD:
            return self._claim_discard(st, ev, MELDED_KONG_INTAKE)
        done = self._after_end(st, ev)
        if done:
            return done
        s = ev.seat
        seat = st.seats[s]
        problems = []
        if st.phase is FLOWERS_PHASE and s == st.dealer:
            problems += self._start_play(st, ev)
        wname = "concealed" if kind is CONCEALED_KONG_MELD else "added"
        clause = "pen.wrong-kong.concealed" if kind is CONCEALED_KONG_MELD else "pen.wrong-kong.added"
        if st.phase is not PLAY_PHASE or st.turn != s or st.intake is NONE_INTAKE:
            return self._reject(st, problems + [self._irr(ev, "kong_not_in_turn")])
        if seat.dead_hand and kind is ADDED_KONG_MELD:
            pass  # 相公 may still kong its own tiles (pen.dead-hand: 得自槓)
        if st.intake is CHOW_INTAKE or st.intake is PUNG_INTAKE:
            problems.append(self._irr(ev, "kong_after_claim", kind=wname))
        elif kind is CONCEALED_KONG_MELD and st.melded_kong_turn:
            problems.append(self._irr(ev, "concealed_kong_after_melded"))
        if st.owed > 0:
            problems.append(self._irr(ev, "missing_replacement", clause="app.kong"))
        tiles = ev.tiles
        added_to = None
        if kind is CONCEALED_KONG_MELD:
            if tiles is not None:
                if len(tiles) != 4 or len(set(tiles)) != 1:
                    problems.append(self._irr(ev, "wrong_kong", clause=clause, tiles=tuple(tiles), kind=wname,
                                              live=st.wall.live, stage="declared"))
                if any(t >= FLOWER_BASE for t in tiles) or not _holds(seat, list(tiles)):
                    return self._reject(st, problems + [self._irr(ev, "kong_tiles_not_held")])
                bad = self._unseen_copies(st, ev, _from_unknown(seat, tiles)) if seat.unknown else None
                if bad:
                    return self._reject(st, problems + [bad])
            elif seat.unknown < 4:
                return self._reject(st, problems + [self._irr(ev, "kong_tiles_not_held")])
            from_hand = list(tiles) if tiles is not None else []
        else:
            if tiles is None or not tiles:
                return self._reject(st, problems + [self._irr(ev, "added_kong_no_pung")])
            added = tiles[-1] if len(tiles) == 1 else None
            if added is None:
                # four tiles given: the pung's three and the added one
                for i, m in enumerate(seat.melds):
                    if m.kind is MeldKind.PUNG and m.tiles:
                        rest = list(tiles)
                        if all(t in rest and (rest.remove(t) or True) for t in m.tiles) and len(rest) == 1:
                            added_to, added = i, rest[0]
                            break
            else:
                for i, m in enumerate(seat.melds):
                    if m.kind is PUNG_MELD and m.tiles and m.tiles[0] == added:
                        added_to = i
                        break
            if added_to is None:
                return self._reject(st, problems + [self._irr(ev, "added_kong_no_pung")])
            pung = seat.melds[added_to]
            if added != pung.tiles[0]:
                problems.append(self._irr(ev, "wrong_kong", clause=clause, tiles=pung.tiles + (added,), kind=wname,
                                          live=st.wall.live, stage="declared"))
            if added >= FLOWER_BASE or not _holds(seat, [added]):
                return self._reject(st, problems + [self._irr(ev, "kong_tiles_not_held")])
            bad = self._unseen_copies(st, ev, _from_unknown(seat, [added])) if seat.unknown else None
            if bad:
                return self._reject(st, problems + [bad])
            from_hand = [added]
        if problems and st.mode_digital:
            return self._reject(st, problems)
        # --- apply
        w = st.window
        if w is not None and not w.closed:
            self._close_window(st, w, ev)
        placed = st.placed
        if kind is CONCEALED_KONG_MELD:
            for t in from_hand:
                _remove(seat, t)
            if tiles is None:
                seat.unknown -= 4
            seat.melds.append(TableMeld(CONCEALED_KONG_MELD, tuple(tiles) if tiles is not None else None, None, None,
                                        ev.seq))
            seat.shown(ev.seq)
            if st.rules.passed_win_concealed_kong_releases:
                seat.passed = None  # app.passed-win; not competition: 過水時之暗槓…非為解除過水
            st.placed_before_kong = placed
            st.own_kongs.append((st.turn_start_seq, False, tiles[0] if tiles is not None and len(set(tiles)) == 1
                                 else None, st.drawn))
        else:
            x = from_hand[0]
            st.own_kongs.append((st.turn_start_seq, True, x, st.drawn))
            _remove(seat, x)
            pung = seat.melds[added_to]
            seat.melds[added_to] = TableMeld(ADDED_KONG_MELD, pung.tiles + (x,), pung.claimed, pung.from_seat, ev.seq)
            seat.shown(ev.seq)
            # 加槓 releases 過水 when the added tile is 「一張非胡之牌」: not a tile the hand
            # left wins on (play.passed-win.release); unknown hands are judged at the win
            if seat.passed is not None and not (seat.unknown == 0 and seat.n + 3 * len(seat.melds) == 16
                                                and wins_with(seat.keys, x)):
                seat.passed = None
        st.owed += 1
        st.owed_kinds.append(KONG_SOURCE)
        st.wall.kongs += 1
        st.turn_kongs += 1
        st.kong_this_turn = True
        st.claims_made += 1
        st.placed = False
        if kind is ADDED_KONG_MELD:
            self._replace_window(st, Window(ADDED_KONG_WINDOW, s, from_hand[0], ev.seq, ev.ts), ev)
            st.log.append((from_hand[0], ev.seq, s, False))
        elif st.rules.rob_concealed_kong and tiles is not None:
            self._replace_window(st, Window(WindowKind.CONCEALED_KONG, s, tiles[0], ev.seq, ev.ts), ev)
            st.log.append((tiles[0], ev.seq, s, False))
        if problems:
            self._track_wrong_kong(st, problems, s)
            return self._stands(problems)
        return ACCEPTED

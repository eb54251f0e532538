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
"""
from __future__ import annotations

from .events import Call, Event, EventType, Mode, ReadyKind, Setup
from .errors import MjrefError
from .hand import waits_keys
from .melds import MeldKind
from .play_rules import PlayRules
from .tables import CODES as _CODES
from .restrictions import (
    SUIT_OF, UNIT_OF, chow_forbidden_discards, chow_takes_own_discard, is_complete, is_run, wins_with,
)
from .ruleset import Ruleset
from .state import _NO_DICT, Intake, Phase, SeatState, Source, TableMeld, TableState, Taken, Window, WindowKind
from .tiles import FLOWER_BASE, KINDS, full_set
from .verdicts import ACCEPTED, Irregularity, Status, Verdict, irregularity
from .wall import TILES, Wall, break_point, deal_takes
from .dice import counted_seat


class StreamError(MjrefError, ValueError):
    """A stream the referee cannot follow: no ``hand_start`` first, a second
    ``hand_start``, a ``seq`` that does not increase."""

    code = "invalid_stream"


_REJECTED = Status.REJECTED
_HAND_START = EventType.HAND_START
_DEAL_PHASE = Phase.DEAL
_PLAY = Phase.PLAY
_LAST_TILE = Source.LAST_TILE
_WALL_SOURCE = Source.WALL
_IRREGULAR = Status.IRREGULAR
_DRAW = Intake.DRAW
_DEALT = Intake.DEALT
_NONE = Intake.NONE
_DISCARD_W = WindowKind.DISCARD
_CONCEALED = MeldKind.CONCEALED_KONG
_ADDED = MeldKind.ADDED_KONG
_MELDED = MeldKind.MELDED_KONG


def _add(seat: SeatState, t: int) -> None:
    seat.hand[t] += 1
    seat.n += 1
    seat.keys[SUIT_OF[t]] += UNIT_OF[t]
    seat.waits = None


def _remove(seat: SeatState, t: int) -> bool:
    """Take a concealed tile out of the hand: a known one, else one of the unknown ones."""
    seat.waits = None
    if seat.hand[t]:
        seat.hand[t] -= 1
        seat.n -= 1
        seat.keys[SUIT_OF[t]] -= UNIT_OF[t]
        return True
    if seat.unknown:
        seat.unknown -= 1
        return True
    return False


def _holds(seat: SeatState, tiles: list[int] | tuple[int, ...]) -> bool:
    """The hand can give these concealed tiles (known ones, the rest from the unknown)."""
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    missing = 0
    for t, n in need.items():
        if t >= KINDS:
            missing += n
        elif seat.hand[t] < n:
            missing += n - seat.hand[t]
    return missing <= seat.unknown


def _refresh_waits(seat: SeatState) -> None:
    """The tiles a known 16-tile hand waits on (for 過水: could it have won?)."""
    if seat.unknown or seat.n + 3 * len(seat.melds) != 16:
        seat.waits = None
    else:
        key = tuple(seat.keys)
        found = _WAITS_CACHE.get(key)
        if found is None:
            found = _WAITS_CACHE[key] = frozenset(t for t, _ in waits_keys(key))
        seat.waits = found


#: suit keys → waiting tiles, shared by every hand (memoised like referee.tables)
_WAITS_CACHE: dict[tuple[int, int, int, int], frozenset[int]] = {}


def _from_unknown(seat: SeatState, tiles) -> list[int]:
    """Which of these concealed tiles the referee had not seen in the hand."""
    have = {}
    out = []
    for t in tiles:
        have[t] = have.get(t, 0) + 1
        if have[t] > seat.hand[t]:
            out.append(t)
    return out


def _size(seat: SeatState) -> int:
    return seat.n + seat.unknown + 3 * len(seat.melds)


class Referee:
    """Referee one hand, live or in batch.

    :param ruleset: overrides the ruleset named by ``hand_start`` (CLI ``--ruleset``).
    :param mode: overrides the table's mode.

    ``apply(event)`` returns the event's :class:`Verdict`; ``finish()`` closes the hand
    and returns its :class:`referee.outcome.Adjudication`.
    """

    __slots__ = ("state", "verdicts", "irregularities", "ruleset", "mode", "_finished", "findings")

    def __init__(self, ruleset: Ruleset | None = None, mode: Mode | None = None) -> None:
        self.state: TableState | None = None
        #: (seq, verdict) per event, in order
        self.verdicts: list[tuple[int, Verdict]] = []
        #: every irregularity, in the order found (some are found after their event:
        #: a call not completed shows when its claim window closes)
        self.irregularities: list[Irregularity] = []
        self.ruleset = ruleset
        self.mode = mode
        self._finished = None
        self.findings: list[Irregularity] = []

    # ------------------------------------------------------------------ driving

    def apply(self, ev: Event) -> Verdict:
        """Apply one event; returns its verdict.

        :raises StreamError: no ``hand_start`` first, a second one, or a seq not above the last.
        """
        st = self.state
        seq = ev.seq
        if st is None or seq <= st.last_seq or ev.type is _HAND_START:
            self._check_order(st, ev)
        verdict = _DISPATCH[ev.type](self, st, ev)
        self.state.last_seq = seq
        self.verdicts.append((seq, verdict))
        return verdict

    def _check_order(self, st: TableState | None, ev: Event) -> None:
        if st is None:
            if ev.type is not EventType.HAND_START:
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
            from .outcome import adjudicate

            if self.state is None:
                raise StreamError("no events: a hand's stream starts with hand_start", field="events",
                                  reason_zh="沒有事件")
            self._close_window(self.state, self.state.window, None)
            self._finished = adjudicate(self)
        return self._finished

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
            from .winning import check_win

            return check_win(self, st, ev, dry=True)
        if t is EventType.CHOW or t is EventType.PUNG:
            return self._claim_discard(st, ev, Intake.CHOW if t is EventType.CHOW else Intake.PUNG, dry=True)
        if t is EventType.KONG and ev.kind is _MELDED:
            return self._claim_discard(st, ev, Intake.MELDED_KONG, dry=True)
        if t is EventType.READY:
            return self._ready(st, ev, dry=True)
        return False

    # ------------------------------------------------------------------ verdict helpers

    def _irr(self, ev: Event, code: str, seat: int | None = None, **facts) -> Irregularity:
        return irregularity(code, ev.seq, ev.seat if seat is None else seat, **facts)

    def _reject(self, st: TableState, problems: list[Irregularity]) -> Verdict:
        """The act does not change the state: refused (digital) or not applicable (physical)."""
        self.irregularities.extend(problems)
        return Verdict(_REJECTED if st.mode_digital else _IRREGULAR, tuple(problems))

    def _no(self, st: TableState, dry: bool, problems: list[Irregularity]):
        """Refuse (see :meth:`_reject`), or answer False to a probe."""
        return False if dry else self._reject(st, problems)

    def _stands(self, problems: list[Irregularity]) -> Verdict:
        """The act was applied and is irregular (physical table)."""
        self.irregularities.extend(problems)
        return Verdict(_IRREGULAR, tuple(problems))

    def _track_wrong_kong(self, st: TableState, problems: list[Irregularity], seat: int) -> None:
        """Follow a wrong kong that stood (physical table) to see how far it got (pen.wrong-kong.*)."""
        base = len(self.irregularities)
        for i, p in enumerate(problems):
            if p.code == "wrong_kong":
                st.wrong_kongs.append([base + i, seat, "declared"])

    def _wrong_kong_stage(self, st: TableState, seat: int, before: tuple[str, ...], after: str) -> None:
        for entry in st.wrong_kongs:
            if entry[1] == seat and entry[2] in before:
                entry[2] = after

    def _unseen_copies(self, st: TableState, ev: Event, tiles) -> Irregularity | None:
        """Tiles a physical table reports from where nobody saw them (an unknown wall or hand):
        more copies than the set holds means the record is wrong (deal.walls)."""
        need: dict[int, int] = {}
        for t in tiles:
            need[t] = need.get(t, 0) + 1
        for t, n in need.items():
            limit = 1 if t >= FLOWER_BASE else 4
            seen = st.known_count(t)
            if seen + n > limit:
                return self._irr(ev, "too_many_copies", tile=t, seen=seen, limit=limit)
        return None

    def _found(self, irr: Irregularity) -> None:
        """An irregularity found after its event (a call never completed...)."""
        self.irregularities.append(irr)
        self.findings.append(irr)

    def _after_end(self, st: TableState, ev: Event) -> Verdict | None:
        if st.phase is Phase.ENDED or st.wins:
            return self._reject(st, [self._irr(ev, "after_hand_end")])
        return None

    # ------------------------------------------------------------------ setup

    def _hand_start(self, st: TableState | None, ev: Event) -> Verdict:
        setup = ev.setup or Setup()
        if self.mode is not None and self.mode is not setup.mode:
            from dataclasses import replace

            setup = replace(setup, mode=self.mode)
        ruleset = self.ruleset or Ruleset.load(setup.ruleset, dict(setup.rules) or None)
        self.state = TableState(setup, PlayRules(ruleset))
        self.state.last_seq = ev.seq
        self.state.table = ev.table
        self.state.hand_no = ev.hand
        return ACCEPTED

    def _seat_dice(self, st: TableState, ev: Event) -> Verdict:
        """搬風 (seat.banfeng): the dice point, from the thrower, at the seat that draws first
        and sits East (seat.dice.self / next / across / prev)."""
        st.seat_dice_east = counted_seat(ev.seat, sum(ev.dice))
        return ACCEPTED

    def _dealer_dice(self, st: TableState, ev: Event) -> Verdict:
        """定莊 (seat.dealer): the East seat throws; the seat pointed at deals first."""
        pointed = counted_seat(ev.seat, sum(ev.dice))
        if pointed != st.dealer:
            return self._stands([self._irr(ev, "dealer_dice_mismatch", pointed=pointed, dealer=st.dealer,
                                           total=sum(ev.dice))])
        return ACCEPTED

    def _break_dice(self, st: TableState, ev: Event) -> Verdict:
        """開門 (deal.wall, deal.break): the dealer throws; the seat pointed at is East of the
        hand and its wall opens after as many stacks as the dice show."""
        if st.phase is not Phase.SETUP:
            return self._reject(st, [self._irr(ev, "wall_after_deal")])
        total = sum(ev.dice)
        st.break_seat, st.break_skip = break_point(ev.seat, total)
        st.east = st.dealer if (st.setup.first_hand and st.rules.first_hand_east_is_dealer) else st.break_seat
        if ev.seat != st.dealer:
            return self._stands([self._irr(ev, "break_not_dealer", dealer=st.dealer)])
        return ACCEPTED

    def _wall(self, st: TableState, ev: Event) -> Verdict:
        """The wall as built (deal.walls): one full set of 144."""
        if st.phase is not Phase.SETUP:
            return self._reject(st, [self._irr(ev, "wall_after_deal")])
        if sorted(ev.tiles) != _FULL_SET:
            return self._reject(st, [self._irr(ev, "wall_not_a_set")])
        st.layout = ev.tiles
        return ACCEPTED

    def _open_wall(self, st: TableState) -> None:
        rules = st.rules
        if st.layout is not None:
            if st.break_seat is not None:
                st.wall = Wall.from_layout(st.layout, st.break_seat, st.break_skip,
                                           dead_wall=rules.dead_wall, per_kong=rules.dead_wall_per_kong)
            else:  # no break dice: the wall event lists the tiles in draw order
                st.wall = Wall(st.layout, dead_wall=rules.dead_wall, per_kong=rules.dead_wall_per_kong)
        st.phase = Phase.DEAL

    def _deal(self, st: TableState, ev: Event) -> Verdict:
        """配牌 (deal.wall): 4 tiles (2 stacks) at a time, dealer first, counterclockwise,
        four rounds; then the dealer's 門牌 (deal.hand-size)."""
        if st.phase is Phase.SETUP:
            self._open_wall(st)
        # fast path: the expected take, from a known wall
        wall = st.wall
        i = st.deal_index
        if st.phase is _DEAL_PHASE and wall.tiles is not None and i < 17:
            want_seat, want_n = _TAKES[st.dealer][i]
            s = ev.seat
            front = wall.front
            tiles = wall.tiles[front:front + want_n]
            given = ev.tiles
            if s == want_seat and (given is None and ev.count in (None, want_n) or given is not None
                                   and list(given) == tiles):
                wall.front = front + want_n
                seat = st.seats[s]
                hand, keys = seat.hand, seat.keys
                for t in tiles:
                    if t >= FLOWER_BASE:
                        seat.held_flowers.append(t)
                        seat.flower_round[t] = 1
                    else:
                        hand[t] += 1
                        keys[SUIT_OF[t]] += UNIT_OF[t]
                        seat.n += 1
                if s == st.dealer and tiles[-1] < FLOWER_BASE:
                    st.door_tile = tiles[-1]
                st.deal_index = i + 1
                if i == 16:
                    st.phase = Phase.FLOWERS
                    st.turn = st.dealer
                    st.flower_round, st.flower_rel = 1, -1
                return ACCEPTED
        problems = []
        takes = _TAKES[st.dealer]
        n = ev.size
        if st.phase is not Phase.DEAL or st.deal_index >= len(takes):
            return self._reject(st, [self._irr(ev, "deal_out_of_order", expected_seat="-", expected_count=0)])
        want_seat, want_n = takes[st.deal_index]
        if ev.seat != want_seat or n != want_n:
            problems.append(self._irr(ev, "deal_out_of_order", expected_seat=want_seat, expected_count=want_n))
        wall = st.wall
        if n > wall.remaining:
            return self._reject(st, problems + [self._irr(ev, "dead_wall_draw", reserve=wall.remaining)])
        tiles = ev.tiles
        if wall.known:
            expected = wall.tiles[wall.front:wall.front + n]
            if tiles is not None and list(tiles) != expected:
                problems.append(self._irr(ev, "wrong_tile", tile=tuple(tiles), wall_tile=tuple(expected)))
                return self._reject(st, problems)
            tiles = expected
        elif tiles is not None:
            bad = self._unseen_copies(st, ev, tiles)
            if bad:
                return self._reject(st, problems + [bad])
        if problems and st.mode_digital:
            return self._reject(st, problems)
        wall.take_front(n)
        seat = st.seats[ev.seat]
        if tiles is None:
            seat.unknown += n
        else:
            for t in tiles:
                if t >= FLOWER_BASE:
                    seat.held_flowers.append(t)
                    seat.flower_round[t] = 1
                else:
                    _add(seat, t)
        if ev.seat == st.dealer and tiles is not None and tiles[-1] < FLOWER_BASE:
            st.door_tile = tiles[-1]
        st.deal_index += 1
        if st.deal_index == len(takes):
            st.phase = Phase.FLOWERS
            st.turn = st.dealer
            st.flower_round, st.flower_rel = 1, -1
        return self._stands(problems) if problems else ACCEPTED

    # ------------------------------------------------------------------ flowers

    def _flower(self, st: TableState, ev: Event) -> Verdict:
        """Flowers laid out (deal.flowers, app.flowers.initial, app.flowers.play): at the start
        in rounds, dealer first, a flower drawn as a replacement waiting for the next round;
        during play at once, by the player who drew it."""
        done = self._after_end(st, ev)
        if done:
            return done
        s = ev.seat
        seat = st.seats[s]
        problems = []
        flowers = ev.tiles
        for f in flowers:
            if f < FLOWER_BASE:
                return self._reject(st, [self._irr(ev, "flower_not_held", tile=f)])
            if f not in seat.held_flowers:
                if not seat.unknown:
                    return self._reject(st, [self._irr(ev, "flower_not_held", tile=f)])
                bad = self._unseen_copies(st, ev, (f,))
                if bad:
                    return self._reject(st, [bad])
        if st.phase is Phase.DEAL or st.phase is Phase.SETUP:
            return self._reject(st, [self._irr(ev, "flower_out_of_order")])
        if st.phase is Phase.FLOWERS:
            if st.owed and st.turn != s:
                problems.append(self._irr(ev, "missing_replacement", seat=st.turn))
            rel = (s - st.dealer) % 4
            known = [seat.flower_round[f] for f in flowers if f in seat.flower_round]
            if known:
                rnd = max(known)
            else:  # drawn unseen (physical table): as late in the order as it needs to be
                rnd = st.flower_round if rel > st.flower_rel else st.flower_round + 1
            if (rnd, rel) < (st.flower_round, st.flower_rel):
                problems.append(self._irr(ev, "flower_out_of_order", round=rnd))
            elif rnd > st.flower_round and st.mode_digital:
                # a later round begins: nobody may still hold a flower of the earlier one
                for other in st.seats:
                    if other is not seat and any(other.flower_round.get(f, 1) <= st.flower_round
                                                 for f in other.held_flowers):
                        problems.append(self._irr(ev, "flower_out_of_order", round=rnd))
                        break
            if problems and st.mode_digital:
                return self._reject(st, problems)
            st.flower_round, st.flower_rel = max(rnd, st.flower_round), rel
            st.turn = s
        else:
            if s != st.turn or st.intake is _NONE:
                problems.append(self._irr(ev, "flower_out_of_order"))
                if st.mode_digital:
                    return self._reject(st, problems)
        for f in flowers:
            if f in seat.held_flowers:
                seat.held_flowers.remove(f)
            else:
                seat.unknown -= 1
            seat.flowers.append(f)
            seat.flower_round.pop(f, None)
        st.owed += len(flowers)
        st.owed_kinds.extend([Source.FLOWER] * len(flowers))
        if st.phase is Phase.PLAY:
            self._maybe_seven_rob(st, ev, s)
        return self._stands(problems) if problems else ACCEPTED

    def _maybe_seven_rob(self, st: TableState, ev: Event, s: int) -> None:
        """The eighth flower laid out while another seat holds the other seven (七搶一 →1,
        tai.30.1): that seat may rob it."""
        if not st.rules.seven_rob_one or len(st.seats[s].flowers) != 1:
            return
        for other in st.seats:
            if other.seat != s and len(other.flowers) == 7:
                w = Window(WindowKind.FLOWER, s, ev.tiles[-1], ev.seq, ev.ts)
                self._replace_window(st, w, ev)
                return

    # ------------------------------------------------------------------ starting play

    def _start_play(self, st: TableState, ev: Event) -> list[Irregularity]:
        """The replacement rounds are over: the dealer's first turn begins (its 17 dealt tiles
        count as the first draw, tai.32 注)."""
        problems = []
        if st.owed:
            problems.append(self._irr(ev, "missing_replacement", seat=st.turn))
        for seat in st.seats:
            _refresh_waits(seat)
            if seat.held_flowers:
                problems.append(self._irr(ev, "flower_not_replaced", seat=seat.seat, tile=seat.held_flowers[0],
                                          clause=_UNREPLACED_CLAUSE[st.rules.unreplaced_ends_hand]))
            seat.start_flowers = len(seat.flowers)
        st.phase = Phase.PLAY
        st.turn = st.dealer
        st.intake = _DEALT
        st.source = Source.DEALT
        st.owed = 0
        st.owed_kinds = []
        st.drawn = st.door_tile
        st.placed = False
        return problems

    # ------------------------------------------------------------------ drawing

    def _expected_drawer(self, st: TableState) -> int | None:
        w = st.window
        if st.phase is Phase.PLAY and st.intake is _NONE and w is not None and w.kind is _DISCARD_W and w.taken is None:
            return (w.seat + 1) % 4
        return None

    def _draw(self, st: TableState, ev: Event) -> Verdict:
        """摸牌 (play.draw): the next player after the discarder, from the front of the wall;
        never from the dead wall (play.exhausted)."""
        # fast path: the expected draw of a legal hand
        w = st.window
        s = ev.seat
        wall = st.wall
        if w is not None and st.intake is _NONE and w.taken is None and not w.closed and not st.wins \
                and (w.seat + 1) % 4 == s and w.kind is _DISCARD_W and st.phase is _PLAY:
            tiles = wall.tiles
            front = wall.front
            if tiles is not None:
                tile = tiles[front]
                given = ev.tiles
                ok = given is None or given[0] == tile
            else:
                tile = ev.tile
                ok = tile is None
            if ok and TILES - front - wall.tail - wall.dead_wall - wall.per_kong * wall.kongs > 0:
                seat = st.seats[s]
                if seat.passed is None:
                    waits = seat.waits
                    if waits is not None and w.tile in waits and not seat.dead_hand and w.tile not in seat.revealed:
                        seat.passed = ev.seq
                if w.touched is _NO_DICT or s not in w.touched:
                    w.note_touch(s, (ev.ts, ev.seq))
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
                self._begin_turn(st, s, _DRAW, ev.seq)
                st.source = _LAST_TILE if wall.live == 0 else _WALL_SOURCE
                st.drawn = tile
                st.last_drawn_seq = ev.seq
                seat.drawn_count += 1
                if seat.drawn_count == 1:
                    seat.first_drawn = tile
                w.taken = Taken(_DRAW, s, ev.seq, ev.ts, tile)
                return ACCEPTED
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
            if st.phase is Phase.PLAY and st.turn == s and st.intake is not _NONE:
                problems.append(self._irr(ev, "second_intake", kind="draw", kind_zh="摸牌"))
            else:
                problems.append(self._irr(ev, "out_of_turn_draw"))
            if st.mode_digital or st.phase is not Phase.PLAY:
                return self._reject(st, problems)
        tile = ev.tile
        if wall.known:
            expected = wall.tiles[wall.front]
            if tile is not None and tile != expected:
                return self._reject(st, problems + [self._irr(ev, "wrong_tile", tile=tile, wall_tile=expected)])
            tile = expected
        elif tile is not None:
            bad = self._unseen_copies(st, ev, (tile,))
            if bad:
                return self._reject(st, problems + [bad])
        seat = st.seats[s]
        w = st.window
        if w is not None and w.kind is _DISCARD_W and w.seat != s and not w.closed:
            self._reached(st, w, seat, ev)
        wall.take_front(1)
        if tile is None:
            seat.unknown += 1
        elif tile >= FLOWER_BASE:
            seat.held_flowers.append(tile)
        else:
            _add(seat, tile)
        self._begin_turn(st, s, _DRAW, ev.seq)
        st.source = Source.LAST_TILE if wall.live == 0 else Source.WALL
        st.drawn = tile
        st.last_drawn_seq = ev.seq
        seat.drawn_count += 1
        if seat.drawn_count == 1:
            seat.first_drawn = tile
        if w is not None and w.taken is None and not w.closed:
            w.taken = Taken(_DRAW, s, ev.seq, ev.ts, tile)
        return self._stands(problems) if problems else ACCEPTED

    def _begin_turn(self, st: TableState, s: int, intake: Intake, seq: int) -> None:
        st.turn = s
        st.intake = intake
        st.owed = 0
        st.owed_kinds = []
        st.placed = False
        st.turn_kongs = 0
        st.melded_kong_turn = intake is Intake.MELDED_KONG
        st.placed_before_kong = False
        st.kong_this_turn = False
        st.after_claim_tile = None
        st.after_claim_forbidden = ()
        st.turn_start_seq = seq
        st.ready_discard_pending = None

    def _reached(self, st: TableState, w: Window, seat: SeatState, ev: Event) -> None:
        """A hand reached to the wall while *w*'s tile could be claimed: a win on it is passed
        (play.passed-win: 得胡牌者已伸手摸牌即視同過水; prio.5, prio.8)."""
        w.note_touch(seat.seat, (ev.ts, ev.seq))
        if seat.passed is None and self._could_win(st, seat, w.tile):
            seat.passed = ev.seq

    def _tail_draw(self, st: TableState, ev: Event) -> Verdict:
        """槓尾補牌: a replacement for a flower laid out or a kong (deal.flowers, app.kong)."""
        done = self._after_end(st, ev)
        if done:
            return done
        s = ev.seat
        seat = st.seats[s]
        problems = []
        wall = st.wall
        w = st.window
        robbing = (w is not None and w.kind is WindowKind.FLOWER and w.seat != s and len(seat.flowers) == 7)
        if not robbing and (st.turn != s or st.owed <= 0 or st.phase not in (Phase.FLOWERS, Phase.PLAY)):
            problems.append(self._irr(ev, "unowed_replacement"))
            if st.mode_digital or st.phase not in (Phase.FLOWERS, Phase.PLAY):
                return self._reject(st, problems)
        if wall.remaining <= 0:
            return self._reject(st, problems + [self._irr(ev, "dead_wall_draw", reserve=0)])
        tile = ev.tile
        if wall.known:
            expected = wall.peek_tail()
            if tile is not None and tile != expected:
                return self._reject(st, problems + [self._irr(ev, "wrong_tile", tile=tile, wall_tile=expected)])
            tile = expected
        elif tile is not None:
            bad = self._unseen_copies(st, ev, (tile,))
            if bad:
                return self._reject(st, problems + [bad])
        if w is not None and w.kind is not _DISCARD_W and w.seat == s:
            self._close_window(st, w, ev)  # the kong stands: nobody robbed it
            st.window = st.prev_window if st.prev_window is not w else None
        wall.take_tail()
        if tile is None:
            seat.unknown += 1
        elif tile >= FLOWER_BASE:
            seat.held_flowers.append(tile)
            if st.phase is Phase.FLOWERS:
                seat.flower_round[tile] = st.flower_round + 1
        else:
            _add(seat, tile)
            if st.phase is Phase.FLOWERS and s == st.dealer:
                st.door_tile = tile
        if st.wrong_kongs:
            self._wrong_kong_stage(st, s, ("declared",), "replaced")
        if robbing:
            st.flower_win_seat = s
            w.taken = Taken(_DRAW, s, ev.seq, ev.ts, tile)
        elif not problems:
            kind = st.owed_kinds.pop(0) if st.owed_kinds else Source.FLOWER
            st.owed -= 1
            if st.phase is Phase.PLAY:
                st.source = Source.MELDED_KONG if st.melded_kong_turn else kind
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

    # ------------------------------------------------------------------ discarding

    def _discard(self, st: TableState, ev: Event) -> Verdict:
        """捨牌 (play.discard): one concealed tile, by the player whose turn it is, after the
        turn's intake and replacements; then the others may claim it."""
        s = ev.seat
        seat = st.seats[s]
        x = ev.tiles[0]
        if s == st.turn and st.phase is _PLAY and st.intake is not _NONE and not st.owed and x < KINDS \
                and seat.hand[x] and not st.wins and not ev.exposed and not seat.held_flowers \
                and seat.ready is None and x not in st.after_claim_forbidden:
            self._apply_discard(st, seat, ev, x, True, None, False)
            return ACCEPTED
        done = self._after_end(st, ev)
        if done:
            return done
        problems = []
        if st.phase is Phase.FLOWERS and s == st.dealer:
            problems += self._start_play(st, ev)
        if st.phase is not Phase.PLAY:
            return self._reject(st, problems + [self._irr(ev, "out_of_turn_discard")])
        in_turn = s == st.turn and st.intake is not _NONE
        if not in_turn:
            if s == st.turn or (self._expected_drawer(st) == s):
                problems.append(self._irr(ev, "discard_before_intake"))
            else:
                problems.append(self._irr(ev, "out_of_turn_discard"))
        if in_turn and st.owed > 0:
            kind = st.owed_kinds[0] if st.owed_kinds else Source.FLOWER
            problems.append(self._irr(ev, "missing_replacement", clause="deal.flowers" if kind is Source.FLOWER else "app.kong"))
        if seat.held_flowers and x < FLOWER_BASE:
            problems.append(self._irr(ev, "flower_not_replaced", tile=seat.held_flowers[0],
                                      clause=_UNREPLACED_CLAUSE[st.rules.unreplaced_ends_hand]))
        exposed_meld = None
        if x >= FLOWER_BASE:
            if x not in seat.held_flowers:
                if not seat.unknown:
                    return self._reject(st, problems + [self._irr(ev, "flower_not_held", tile=x)])
                bad = self._unseen_copies(st, ev, (x,))
                if bad:
                    return self._reject(st, problems + [bad])
            problems.append(self._irr(ev, "flower_discarded", tile=x))
        elif ev.exposed:
            for i, m in enumerate(seat.melds):
                if m.tiles and x in m.tiles and m.kind is not _CONCEALED:
                    exposed_meld = i
                    break
            if exposed_meld is None:
                return self._reject(st, problems + [self._irr(ev, "tile_not_held", tile=x)])
            problems.append(self._irr(ev, "exposed_discard", tile=x, meld=str(seat.melds[exposed_meld]),
                                      live=st.wall.live))
        elif not seat.hand[x]:
            if not seat.unknown:
                return self._reject(st, problems + [self._irr(ev, "tile_not_held", tile=x)])
            bad = self._unseen_copies(st, ev, (x,))
            if bad:
                return self._reject(st, problems + [bad])
        if in_turn and x in st.after_claim_forbidden and exposed_meld is None:
            if st.intake is Intake.CHOW:
                problems.append(self._irr(ev, "forbidden_discard_after_chow", tile=st.after_claim_tile, discard=x,
                                          clause="app.after-claim" if x != st.after_claim_tile else "play.restrict.6"))
            else:
                problems.append(self._irr(ev, "forbidden_discard_after_pung", tile=x))
        ready = seat.ready
        # 天聽 / 地聽 lapse on 換牌 or 靠張 (tai.31, tai.32); 宣告聽牌 must discard the drawn tile (app.ready)
        changed = in_turn and st.drawn is not None and (x != st.drawn or st.placed)
        if ready is ReadyKind.DECLARED and in_turn and st.drawn is not None and x != st.drawn:
            problems.append(self._irr(ev, "ready_changed", drawn=st.drawn, tile=x))
        if problems and st.mode_digital:
            return self._reject(st, problems)
        self._apply_discard(st, seat, ev, x, in_turn, exposed_meld, ready is not None and ready is not
                            ReadyKind.DECLARED and changed)
        return self._stands(problems) if problems else ACCEPTED

    def _apply_discard(self, st: TableState, seat: SeatState, ev: Event, x: int, in_turn: bool,
                       exposed_meld: int | None, lapse: bool) -> None:
        s = seat.seat
        w = st.window
        if w is not None and not w.closed:
            taken = w.taken
            if taken is not None and taken.seat == s:
                taken.discarded = True
            self._close_window(st, w, ev)
        full = in_turn and not seat.unknown and seat.n + 3 * len(seat.melds) == 17
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
        elif seat.hand[x]:
            seat.hand[x] -= 1
            seat.n -= 1
            seat.keys[SUIT_OF[x]] -= UNIT_OF[x]
        else:
            seat.unknown -= 1
        _refresh_waits(seat)
        if full and x < KINDS:
            # 過水 at one's own discard (play.passed-win, .release, app.passed-win): a discard
            # that is not a winning tile releases it; a complete hand let go leaves it passed
            waits = seat.waits
            if waits is not None and x in waits:
                if seat.passed is None and (st.intake is _DRAW or st.intake is _DEALT) and not st.melded_kong_turn:
                    seat.passed = st.last_drawn_seq if st.last_drawn_seq is not None else ev.seq
            elif seat.passed is not None:
                seat.passed = None
        if st.wrong_kongs:
            self._wrong_kong_stage(st, s, ("replaced", "placed"), "completed")
        seat.pond.append(x)
        seat.discards += 1
        seat.last_discard = x
        seat.last_discard_seq = ev.seq
        log = st.log
        seat.since = len(log)
        log.append((x, ev.seq, s, True))
        st.discards_made += 1
        wall = st.wall
        st.prev_window = w
        st.window = Window(_DISCARD_W, s, x, ev.seq, ev.ts,
                           TILES - wall.front - wall.tail - wall.dead_wall - wall.per_kong * wall.kongs <= 0)
        st.turn = s
        st.intake = _NONE
        st.drawn = None
        st.placed = False
        st.after_claim_tile = None
        st.after_claim_forbidden = ()
        if st.owed:
            st.owed = 0
            st.owed_kinds = []
        st.ready_discard_pending = s

    # ------------------------------------------------------------------ windows

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
        if kind is WindowKind.FLOWER:
            return
        wins = w.wins
        if w.calls:
            self._unfulfilled(w)
        tile = w.tile
        if tile >= KINDS:
            return
        wseq = w.seq
        ws = w.seat
        taken = w.taken
        taker = taken.seat if taken is not None else -1
        for seat in st.seats:
            s = seat.seat
            if s == ws:
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
            if call in (Call.PUNG, Call.KONG) and c not in w.fulfilled and c not in winners:
                self._found(irregularity("unfulfilled_call", seq, c, evidence=(seq, w.seq), call=call.value,
                                         call_zh=_CALL_ZH[call], discarder=w.seat, tile=w.tile,
                                         from_previous_player=w.seat == (c - 1) % 4))

    def _could_win(self, st: TableState, seat: SeatState, tile: int) -> bool:
        """The seat's known 16-tile hand wins on *tile* (a chance for 過水)."""
        waits = seat.waits
        return waits is not None and tile in waits and not seat.dead_hand and tile not in seat.revealed

    # ------------------------------------------------------------------ claims

    def _claim(self, st: TableState, ev: Event) -> Verdict:
        """吃 / 碰 on the latest discard (play.chi, play.pon, app.chi, app.pon)."""
        return self._claim_discard(st, ev, Intake.CHOW if ev.type is EventType.CHOW else Intake.PUNG)

    def _claim_discard(self, st: TableState, ev: Event, intake: Intake, dry: bool = False):
        if dry and (st.phase is Phase.ENDED or st.wins):
            return False
        done = self._after_end(st, ev)
        if done:
            return done
        s = ev.seat
        seat = st.seats[s]
        w = st.window
        tiles = ev.tiles
        kind_name = _INTAKE_NAME[intake]
        if st.phase is not Phase.PLAY or w is None or w.kind is not _DISCARD_W or w.closed:
            return self._no(st, dry, [self._irr(ev, "claim_nothing")])
        if dry and (w is None or w.kind is not _DISCARD_W or w.closed or w.tile not in tiles or s == w.seat):
            return False
        if w.tile not in tiles:
            pw = st.prev_window
            if pw is not None and pw.kind is _DISCARD_W and pw.tile in tiles and pw.seat != s:
                clause = "prio.3" if pw.taken is not None and pw.taken.intake is Intake.CHOW else "prio.4"
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
        if intake is Intake.CHOW:
            if s != (w.seat + 1) % 4:
                problems.append(self._irr(ev, "chow_wrong_seat", discarder=w.seat, tile=w.tile,
                                          clause="play.chi" if True else "app.chi"))
            if len(tiles) != 3 or w.tile not in tiles or not is_run(tiles):
                problems.append(self._irr(ev, "chow_not_a_run", tiles=tuple(tiles), tile=w.tile))
        elif intake is Intake.PUNG:
            if len(tiles) != 3 or any(t != w.tile for t in tiles):
                problems.append(self._irr(ev, "pung_not_alike", tiles=tuple(tiles), tile=w.tile))
        else:  # melded kong
            if len(tiles) != 4 or any(t != w.tile for t in tiles):
                problems.append(self._irr(ev, "wrong_kong", clause="pen.wrong-kong.melded", tiles=tuple(tiles),
                                          kind="melded", live=st.wall.live, stage="declared"))
            if not st.rules.melded_kong_from_previous and w.seat == (s - 1) % 4:
                problems.append(self._irr(ev, "melded_kong_previous_player", discarder=w.seat))
        if any(t >= FLOWER_BASE for t in hand_tiles) or not _holds(seat, hand_tiles):
            if dry:
                return False
            return self._no(st, dry, problems + [self._irr(ev, "claim_tiles_not_held", tiles=tuple(tiles))])
        if seat.unknown and not dry:
            bad = self._unseen_copies(st, ev, _from_unknown(seat, hand_tiles))
            if bad:
                return self._reject(st, problems + [bad])
        # priority (app.priority: 胡 > 碰、槓 > 吃; prio.3, prio.4)
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
            if intake is Intake.CHOW or taken.intake in (Intake.PUNG, Intake.MELDED_KONG):
                clause = "play.pon" if taken.intake is not _DRAW else "prio.4"
                return self._no(st, dry, problems + [self._irr(ev, "lost_priority", clause=clause, kind=kind_name,
                                                              kind_zh=_INTAKE_ZH[intake], tile=w.tile)])
            if taken.intake is _DRAW:
                if (taken.placed_ts is not None and taken.placed_ts <= call_ts) or self._turn_moved_on(st, taken):
                    return self._no(st, dry, problems + [self._irr(ev, "lost_priority", clause="prio.4", kind=kind_name,
                                                                  kind_zh=_INTAKE_ZH[intake], tile=w.tile)])
            elif taken.intake is Intake.CHOW and self._turn_moved_on(st, taken):
                return self._no(st, dry, problems + [self._irr(ev, "lost_priority", clause="prio.3", kind=kind_name,
                                                              kind_zh=_INTAKE_ZH[intake], tile=w.tile)])
            undo = taken
        # restrictions
        live = st.wall.live
        limit = st.rules.last_tiles_no_claims
        if limit and live <= limit:
            problems.append(self._irr(ev, "claim_in_last_tiles", limit=limit, live=live,
                                      clause="play.restrict.7"))
        if seat.revealed and (w.tile in seat.revealed or any(t in seat.revealed for t in hand_tiles)):
            problems.append(self._irr(ev, "claim_revealed_tiles", revealed=tuple(sorted(seat.revealed))))
        if intake is Intake.CHOW and st.rules.chow_forbid_own_recent and len(tiles) == 3 and is_run(tiles):
            if chow_takes_own_discard(tiles, w.tile, seat.last_discard, other_end=st.rules.chow_forbids_other_end) \
                    and seat.last_discard_seq is not None and seat.last_discard_seq > (st.seats[s].ready_seq or -1) \
                    and self._same_go_around(st, seat):
                problems.append(self._irr(ev, "chow_own_recent_discard", own=seat.last_discard, tile=w.tile))
        first = st.passed_pung_seq(seat, w.tile, w.seq) if intake is Intake.PUNG and st.rules.passed_pung else None
        if first is not None:
            problems.append(self._irr(ev, "passed_pung", tile=w.tile, evidence=(ev.seq, first),
                                      clause="play.pon"))
        if dry:
            return not problems and (taken is None or undo is not None)
        if problems and st.mode_digital:
            return self._no(st, dry, problems)
        # --- apply
        if undo is not None:
            self._undo(st, w, undo)
        if seat.passed is None and self._could_win(st, seat, w.tile):
            seat.passed = w.seq  # chose to claim rather than win: the win is passed
        for t in hand_tiles:
            _remove(seat, t)
        discarder = st.seats[w.seat]
        if discarder.pond and discarder.pond[-1] == w.tile:
            discarder.pond.pop()
        elif w.tile in discarder.pond:
            discarder.pond.remove(w.tile)
        kind = (MeldKind.CHOW, MeldKind.PUNG, _MELDED)[(Intake.CHOW, Intake.PUNG, Intake.MELDED_KONG).index(intake)]
        meld = TableMeld(kind, tuple(tiles), w.tile, w.seat, ev.seq)
        seat.melds.append(meld)
        self._begin_turn(st, s, intake, ev.seq)
        st.drawn = None
        st.source = Source.DEALT
        st.claims_made += 1
        w.taken = Taken(intake, s, ev.seq, ev.ts, w.tile, meld, tuple(hand_tiles))
        w.note_fulfilled(s)
        if intake is Intake.CHOW:
            st.after_claim_tile = w.tile
            st.after_claim_forbidden = chow_forbidden_discards(tiles, w.tile, other_end=st.rules.chow_forbids_other_end) \
                if is_run(tiles) else (w.tile,)
        elif intake is Intake.PUNG:
            st.after_claim_tile = w.tile
            st.after_claim_forbidden = (w.tile,)
        else:
            st.owed = 1
            st.owed_kinds = [Source.MELDED_KONG]
            st.wall.kongs += 1
            st.kong_this_turn = True
        if problems:
            self._track_wrong_kong(st, problems, s)
            return self._stands(problems)
        return ACCEPTED

    def _same_go_around(self, st: TableState, seat: SeatState) -> bool:
        """The seat has not taken a turn since its last discard (同巡)."""
        return seat.last_discard_seq is not None

    def _turn_moved_on(self, st: TableState, taken: Taken) -> bool:
        """The player who took the tile has done more than take it (kong, flower, a tail
        draw): too late to undo."""
        return st.turn != taken.seat or st.turn_start_seq != taken.seq or st.turn_kongs > 0 or taken.replaced \
            or bool(st.seats[taken.seat].flowers and st.owed) or st.wall.tail and st.source is Source.FLOWER

    def _call_ts(self, w: Window, s: int, ev: Event) -> int:
        call = w.calls.get(s)
        return min(call[1], ev.ts) if call is not None else ev.ts

    def _undo(self, st: TableState, w: Window, taken: Taken) -> None:
        """A later claim had priority (prio.2–prio.7): the draw or chow that took the tile is
        put back: the tile to the wall or the pond, the hand as it was."""
        seat = st.seats[taken.seat]
        if taken.intake is _DRAW:
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
            for t in taken.hand_tiles:
                _add(seat, t)
            st.seats[w.seat].pond.append(w.tile)
            st.claims_made -= 1
            if taken.intake is Intake.MELDED_KONG:
                st.wall.kongs -= 1
        _refresh_waits(seat)
        w.taken = None
        st.turn = w.seat
        st.intake = _NONE

    # ------------------------------------------------------------------ kongs

    def _kong(self, st: TableState, ev: Event) -> Verdict:
        """槓 (play.kong.concealed, play.kong.exposed, app.kong, app.kong.limits): a melded
        kong claims a discard; concealed and added kongs are made in one's own turn; every
        kong is replaced from the tail."""
        kind = ev.kind
        if kind is _MELDED:
            return self._claim_discard(st, ev, Intake.MELDED_KONG)
        done = self._after_end(st, ev)
        if done:
            return done
        s = ev.seat
        seat = st.seats[s]
        problems = []
        if st.phase is Phase.FLOWERS and s == st.dealer:
            problems += self._start_play(st, ev)
        wname = "concealed" if kind is _CONCEALED else "added"
        clause = "pen.wrong-kong.concealed" if kind is _CONCEALED else "pen.wrong-kong.added"
        if st.phase is not Phase.PLAY or st.turn != s or st.intake is _NONE:
            return self._reject(st, problems + [self._irr(ev, "kong_not_in_turn")])
        if seat.dead_hand and kind is _ADDED:
            pass  # 相公 may still kong its own tiles (pen.dead-hand: 得自槓)
        if st.intake in (Intake.CHOW, Intake.PUNG):
            problems.append(self._irr(ev, "kong_after_claim", kind=wname))
        elif kind is _CONCEALED and st.melded_kong_turn:
            problems.append(self._irr(ev, "concealed_kong_after_melded"))
        if st.owed > 0:
            problems.append(self._irr(ev, "missing_replacement", clause="app.kong"))
        tiles = ev.tiles
        added_to = None
        if kind is _CONCEALED:
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
                    if m.kind is MeldKind.PUNG and m.tiles and m.tiles[0] == added:
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
        if kind is _CONCEALED:
            for t in from_hand:
                _remove(seat, t)
            if tiles is None:
                seat.unknown -= 4
            seat.melds.append(TableMeld(_CONCEALED, tuple(tiles) if tiles is not None else None, None, None, ev.seq))
            if st.rules.passed_win_concealed_kong_releases:
                seat.passed = None
            st.placed_before_kong = placed
        else:
            _remove(seat, from_hand[0])
            pung = seat.melds[added_to]
            seat.melds[added_to] = TableMeld(_ADDED, pung.tiles + (from_hand[0],), pung.claimed, pung.from_seat, ev.seq)
            seat.passed = None  # 加槓 releases 過水 (play.passed-win.release, app.passed-win)
        st.owed += 1
        st.owed_kinds.append(Source.KONG)
        st.wall.kongs += 1
        st.turn_kongs += 1
        st.kong_this_turn = True
        st.claims_made += 1
        st.placed = False
        if kind is _ADDED:
            self._replace_window(st, Window(WindowKind.ADDED_KONG, s, from_hand[0], ev.seq, ev.ts), ev)
            st.log.append((from_hand[0], ev.seq, s, False))
        elif st.rules.rob_concealed_kong and tiles is not None:
            self._replace_window(st, Window(WindowKind.CONCEALED_KONG, s, tiles[0], ev.seq, ev.ts), ev)
            st.log.append((tiles[0], ev.seq, s, False))
        if problems:
            self._track_wrong_kong(st, problems, s)
            return self._stands(problems)
        return ACCEPTED

    # ------------------------------------------------------------------ gestures

    def _call(self, st: TableState, ev: Event) -> Verdict:
        """A call (喊碰、喊吃、喊槓、喊胡): the gesture the priority rules compare (prio.*)."""
        w = st.window
        if w is not None and not w.closed and ev.seat != w.seat:
            w.note_call(ev.seat, (ev.kind, ev.ts, ev.seq))
        return ACCEPTED

    def _touch(self, st: TableState, ev: Event) -> Verdict:
        """A hand reaching to the wall (play.passed-win, play.intercept, prio.5, prio.8)."""
        w = st.window
        if w is not None and not w.closed and w.kind is _DISCARD_W and ev.seat != w.seat:
            self._reached(st, w, st.seats[ev.seat], ev)
        return ACCEPTED

    def _place(self, st: TableState, ev: Event) -> Verdict:
        """The drawn tile placed into the hand (靠張): no self-draw on it (tai.23), 天聽 /
        地聽 lapse (tai.31, tai.32), a late pung loses to it (prio.4)."""
        s = ev.seat
        if s == st.turn and st.intake is not _NONE:
            st.placed = True
            if st.wrong_kongs:
                self._wrong_kong_stage(st, s, ("replaced",), "placed")
            seat = st.seats[s]
            if seat.ready in (ReadyKind.HEAVENLY, ReadyKind.EARTHLY):
                seat.ready, seat.ready_lapsed = None, "placed"
            w = st.prev_window if st.window is None or st.window.seat == s else st.window
            for win in (st.window, st.prev_window):
                if win is not None and win.taken is not None and win.taken.seat == s and win.taken.placed_ts is None:
                    win.taken.placed_ts = ev.ts
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
        irr = irregularity("reported", ev.seq, ev.seat, clause=ev.clause or "pen.dead-hand",
                           code_reported=ev.code, note=ev.note or "")
        if ev.code == "dead_hand" and ev.seat is not None:
            st.seats[ev.seat].dead_hand = True
        return self._stands([irr])

    def _hand_end(self, st: TableState, ev: Event) -> Verdict:
        if st.phase is not Phase.ENDED:
            self._close_window(st, st.window, ev)
            st.phase = Phase.ENDED
            st.end_seq = ev.seq
        return ACCEPTED

    # ------------------------------------------------------------------ readiness

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
                    dealer or (seat.last_discard == seat.first_drawn and not st.placed))
                when, when_zh = "with the first discard, the dealt hand kept", "第一次打牌時（保留配牌）"
            else:
                ok = ok and st.discards_made == 0 and seat.drawn_count == 0 and not (dealer and st.phase is Phase.PLAY
                                                                                     and st.intake is not _DEALT)
                when, when_zh = "right after the deal and flower replacement", "配牌補花後"
            if rules.ready_requires_no_prior_claims and st.claims_made:
                ok = False
            if not ok:
                problems.append(self._irr(ev, "ready_untimely", clause="tai.31", ready="heavenly ready",
                                          ready_zh="天聽", when=when, when_zh=when_zh))
        else:  # earthly
            nth = rules.earthly_dealer_discard if dealer else 1
            ok = with_discard and seat.discards == nth and all(m.kind is _CONCEALED for m in seat.melds)
            if ok and not dealer and rules.earthly_requires_kept_draw and seat.last_discard == seat.first_drawn:
                ok = False
            if rules.ready_requires_no_prior_claims and st.claims_made:
                ok = False
            if not ok:
                problems.append(self._irr(ev, "ready_untimely", clause="tai.32", ready="earthly ready", ready_zh="地聽",
                                          when=f"with the discard no. {nth}, concealed", when_zh=f"第 {nth} 次打牌時，門清"))
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

    # ------------------------------------------------------------------ winning

    def _win(self, st: TableState, ev: Event) -> Verdict:
        """胡 (play.win, app.win-ways): on a discard, by self-draw, by robbing a kong, or by
        flowers; checked against the hand, 過水 and the self-draw limits."""
        from .winning import check_win

        return check_win(self, st, ev)


_DISPATCH = tuple({
    EventType.HAND_START: Referee._hand_start, EventType.SEAT_DICE: Referee._seat_dice,
    EventType.DEALER_DICE: Referee._dealer_dice, EventType.BREAK_DICE: Referee._break_dice,
    EventType.WALL: Referee._wall, EventType.DEAL: Referee._deal, EventType.FLOWER: Referee._flower,
    EventType.DRAW: Referee._draw, EventType.TAIL_DRAW: Referee._tail_draw, EventType.DISCARD: Referee._discard,
    EventType.CHOW: Referee._claim, EventType.PUNG: Referee._claim, EventType.KONG: Referee._kong,
    EventType.READY: Referee._ready, EventType.WIN: Referee._win, EventType.PASS: Referee._pass,
    EventType.SKIP_LAST_TILE: Referee._skip_last, EventType.CALL: Referee._call,
    EventType.TOUCH_WALL: Referee._touch, EventType.PLACE: Referee._place, EventType.REVEAL: Referee._reveal,
    EventType.REPORT: Referee._report, EventType.HAND_END: Referee._hand_end,
}[t] for t in EventType)
_FULL_SET = sorted(full_set())
_C0, _C1, _C2, _C3 = _CODES
_TAKES = tuple(tuple(deal_takes(d)) for d in range(4))
_UNREPLACED_CLAUSE = {False: "pen.dead-hand", True: "app.flowers.no-replace"}
_CALL_ZH = {Call.CHOW: "吃", Call.PUNG: "碰", Call.KONG: "槓", Call.WIN: "胡"}
_INTAKE_NAME = {Intake.CHOW: "chow", Intake.PUNG: "pung", Intake.MELDED_KONG: "melded kong"}
_INTAKE_ZH = {Intake.CHOW: "吃牌", Intake.PUNG: "碰牌", Intake.MELDED_KONG: "碰槓"}
_READY_ZH = {ReadyKind.HEAVENLY: "天聽", ReadyKind.EARTHLY: "地聽", ReadyKind.DECLARED: "宣告聽牌"}

"""Setting up a hand: the dice, the wall, the deal and the flower rounds (``seat.dice.*``,
``seat.dealer``, ``deal.walls``, ``deal.wall``, ``deal.break``, ``deal.flowers``, ``app.flowers.initial``).

A mixin of :class:`referee.machine.Referee`: the methods use its verdict helpers
(``_irr``, ``_reject``, ``_stands``...).
"""
from __future__ import annotations

from .events import Event, Setup
from .kinds_fast import (
    DEALT_INTAKE, DEALT_SOURCE, DEAL_PHASE, ENDED_PHASE, FLOWERS_PHASE, FLOWER_SOURCE, NONE_INTAKE, PLAY_PHASE,
    SETUP_PHASE,
)
from .play_rules import PlayRules
from .restrictions import SUIT_OF, UNIT_OF
from .ruleset import Ruleset
from .state import Phase, SeatState, TableState, Window, WindowKind
from .tiles import FLOWER_BASE
from .verdicts import ACCEPTED, Irregularity, Verdict
from .wall import break_point, Wall
from .dice import counted_seat
from .table_ops import _refresh_waits, _FULL_SET, _FULL_SET_NO_FLOWERS, _TAKES, _UNREPLACED_CLAUSE


def _take_dealt(seat: SeatState, tiles) -> None:
    """Dealt tiles into a seat: tiles into its hand and suit keys, flowers set aside for the
    first 補花 round (``deal.flowers``)."""
    hand, keys = seat.hand, seat.keys
    if tiles and max(tiles) < FLOWER_BASE:  # no flower in the take (the usual case; max runs in C, for speed)
        for t in tiles:
            hand[t] += 1
            keys[SUIT_OF[t]] += UNIT_OF[t]
        seat.n += len(tiles)
    else:
        for t in tiles:
            if t >= FLOWER_BASE:
                seat.held_flowers.append(t)
                seat.flower_round[t] = 1
            else:
                hand[t] += 1
                keys[SUIT_OF[t]] += UNIT_OF[t]
                seat.n += 1
    seat.waits = None


class DealingMixin:
    """Handlers of :class:`referee.machine.Referee` (see the module docstring)."""

    __slots__ = ()

    def _hand_start(self, st: TableState | None, ev: Event) -> Verdict:
        if st is not None:  # a second hand_start (apply_all leaves this check to the handler)
            self._check_order(st, ev)
        setup = ev.setup or Setup()
        if self.mode is not None and self.mode is not setup.mode:
            from dataclasses import replace

            setup = replace(setup, mode=self.mode)
        ruleset = self.ruleset or Ruleset.load(setup.ruleset, dict(setup.rules) or None)
        self.state = TableState(setup, PlayRules.of(ruleset))
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
        if st.phase is not SETUP_PHASE:
            return self._reject(st, [self._irr(ev, "wall_after_deal")])
        total = sum(ev.dice)
        st.break_seat, st.break_skip = break_point(ev.seat, total)
        st.east = st.dealer if (st.setup.first_hand and st.rules.first_hand_east_is_dealer) else st.break_seat
        if ev.seat != st.dealer:
            return self._stands([self._irr(ev, "break_not_dealer", dealer=st.dealer)])
        return ACCEPTED

    def _wall(self, st: TableState, ev: Event) -> Verdict:
        """The wall as built (deal.walls): one full set of 144, or of 136 without flowers
        (tiles.flowers)."""
        if st.phase is not SETUP_PHASE:
            return self._reject(st, [self._irr(ev, "wall_after_deal")])
        flowers = st.rules.flowers
        if sorted(ev.tiles) != (_FULL_SET if flowers else _FULL_SET_NO_FLOWERS):
            return self._reject(st, [self._irr(ev, "wall_not_a_set", size=st.rules.tiles)])
        st.layout = ev.tiles
        return ACCEPTED

    def _open_wall(self, st: TableState) -> None:
        rules = st.rules
        if st.layout is not None:
            if st.break_seat is not None:
                st.wall = Wall.from_layout(st.layout, st.break_seat, st.break_skip, size=rules.tiles,
                                           dead_wall=rules.dead_wall, per_kong=rules.dead_wall_per_kong)
            else:  # no break dice: the wall event lists the tiles in draw order
                st.wall = Wall(st.layout, dead_wall=rules.dead_wall, per_kong=rules.dead_wall_per_kong,
                               size=rules.tiles)
        st.phase = DEAL_PHASE

    def _deal(self, st: TableState, ev: Event) -> Verdict:
        """配牌 (deal.wall): 4 tiles (2 stacks) at a time, dealer first, counterclockwise,
        four rounds; then the dealer's 門牌 (deal.hand-size)."""
        if st.phase is SETUP_PHASE:
            self._open_wall(st)
        # fast path: the expected take, from a known wall
        wall = st.wall
        i = st.deal_index
        tiles = wall.tiles
        if st.phase is DEAL_PHASE and tiles is not None and i < 17:
            want_seat, want_n = _TAKES[st.dealer][i]
            s = ev.seat
            front = wall.front
            tiles = tiles[front:front + want_n]
            given = ev.tiles
            if s == want_seat and (given is None and (ev.count is None or ev.count == want_n) or given == tiles):
                wall.front = front + want_n
                seat = st.seats[s]
                _take_dealt(seat, tiles)
                if tiles[-1] < FLOWER_BASE and s == st.dealer:
                    st.door_tile = tiles[-1]
                st.deal_index = i + 1
                if i == 16:
                    st.phase = FLOWERS_PHASE
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
            if tiles is not None and tuple(tiles) != expected:
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
            _take_dealt(seat, tiles)
        if ev.seat == st.dealer and tiles is not None and tiles[-1] < FLOWER_BASE:
            st.door_tile = tiles[-1]
        st.deal_index += 1
        if st.deal_index == len(takes):
            st.phase = Phase.FLOWERS
            st.turn = st.dealer
            st.flower_round, st.flower_rel = 1, -1
        return self._stands(problems) if problems else ACCEPTED

    def _flower(self, st: TableState, ev: Event) -> Verdict:
        """Flowers laid out (deal.flowers, app.flowers.initial, app.flowers.play): at the start
        in rounds, dealer first, a flower drawn as a replacement waiting for the next round;
        during play at once, by the player who drew it."""
        phase = st.phase
        if phase is ENDED_PHASE or st.wins:
            return self._after_end(st, ev)
        if not st.rules.flowers:  # tiles.flowers: a 136-tile set has no flower (deal.walls)
            return self._reject(st, [self._irr(ev, "no_flowers_in_play")])
        s = ev.seat
        seat = st.seats[s]
        held = seat.held_flowers
        problems = []
        flowers = ev.tiles
        for f in flowers:
            if f < FLOWER_BASE:
                return self._reject(st, [self._irr(ev, "flower_not_held", tile=f)])
            if f not in held:
                if not seat.unknown:
                    return self._reject(st, [self._irr(ev, "flower_not_held", tile=f)])
                bad = self._unseen_copies(st, ev, (f,))
                if bad:
                    return self._reject(st, [bad])
        if phase is DEAL_PHASE or phase is SETUP_PHASE:
            return self._reject(st, [self._irr(ev, "flower_out_of_order")])
        if phase is FLOWERS_PHASE:
            if st.owed and st.turn != s:
                problems.append(self._irr(ev, "missing_replacement", seat=st.turn))
            rel = (s - st.dealer) % 4
            current = st.flower_round
            rnd = 0  # the latest round of the flowers laid out (rounds count from 1)
            rounds = seat.flower_round
            for f in flowers:
                r = rounds.get(f)
                if r is not None and r > rnd:
                    rnd = r
            if not rnd:  # drawn unseen (physical table): as late in the order as it needs to be
                rnd = current if rel > st.flower_rel else current + 1
            if rnd < current or (rnd == current and rel < st.flower_rel):  # (round, seat) before the last one's
                problems.append(self._irr(ev, "flower_out_of_order", round=rnd))
            elif rnd > current and st.mode_digital:
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
            if s != st.turn or st.intake is NONE_INTAKE:
                problems.append(self._irr(ev, "flower_out_of_order"))
                if st.mode_digital:
                    return self._reject(st, problems)
        rounds = seat.flower_round
        for f in flowers:
            if f in held:
                held.remove(f)
            else:
                seat.unknown -= 1
            seat.flowers.append(f)
            if f in rounds:
                del rounds[f]
        seat.shown(ev.seq)
        n = len(flowers)
        st.owed += n
        st.owed_kinds += [FLOWER_SOURCE] * n
        if phase is PLAY_PHASE and len(seat.flowers) == 1 and st.rules.seven_rob_one:
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

    def _start_play(self, st: TableState, ev: Event) -> list[Irregularity]:
        """The replacement rounds are over: the dealer's first turn begins (its 17 dealt tiles
        count as the first draw, tai.32 注)."""
        problems = []
        if st.owed:
            problems.append(self._irr(ev, "missing_replacement", seat=st.turn))
        for seat in st.seats:
            _refresh_waits(seat, st.waiters)
            if seat.held_flowers:
                problems.append(self._irr(ev, "flower_not_replaced", seat=seat.seat, tile=seat.held_flowers[0],
                                          clause=_UNREPLACED_CLAUSE[st.rules.unreplaced_ends_hand]))
            seat.start_flowers = len(seat.flowers)
        st.phase = PLAY_PHASE
        st.turn = st.dealer
        st.intake = DEALT_INTAKE
        st.source = DEALT_SOURCE
        st.owed = 0
        st.owed_kinds = []
        st.drawn = st.door_tile
        st.placed = False
        return problems

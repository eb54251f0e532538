"""Random legal hands (digital mode) from a seed: for fuzzing, property tests, benchmarks.

:func:`generate_hand` shuffles a wall, throws the dice and plays a whole hand with a
simple policy, asking the referee itself what is legal (:meth:`Referee.probe`) and
applying every event as it goes, so each stream it returns is one the referee accepts
event by event. The policy wins when it can (mostly: a win let go now and then is a
legal 過水), claims sometimes, kongs often, discards the least connected tile and
otherwise keeps its hand ready; so streams cover self-draws, discard wins, robbed
kongs, kong and flower replacements, 海底 / 河底, flower wins and exhaustive draws.

Same seed, same stream: ``generate_hand(7) == generate_hand(7)``.
"""
from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .events import Call, Event, EventType, Mode, ReadyKind, Setup
from .hand import waits_keys
from .machine import Referee
from .melds import MeldKind
from .restrictions import chow_forbidden_discards, is_complete, is_run
from .state import Intake, Phase, WindowKind
from .tiles import KINDS, Wind, full_set
from .verdicts import Status


class GeneratorError(RuntimeError):
    """The referee refused an event the generator believed legal: a bug in one of them."""


@dataclass(frozen=True, slots=True)
class Policy:
    """How eagerly the generated players act (probabilities)."""

    win: float = 0.93
    pung: float = 0.45
    chow: float = 0.30
    kong: float = 0.75
    declare_ready: float = 0.3
    skip_last: float = 0.1
    random_discard: float = 0.08
    gestures: float = 0.15


class HandGenerator:
    """Plays one hand; :meth:`run` returns its events."""

    def __init__(self, seed: int, *, ruleset: str = "competition", rules: dict | None = None, table: str = "gen",
                 hand: int = 1, dealer: int | None = None, round_wind: Wind | None = None, streak: int | None = None,
                 policy: Policy = Policy()) -> None:
        self.rng = random.Random(seed)
        rng = self.rng
        self.policy = policy
        self.table = table
        self.hand = hand
        self.setup = Setup(
            mode=Mode.DIGITAL, ruleset=ruleset, rules=tuple(sorted((rules or {}).items())),
            dealer=rng.randrange(4) if dealer is None else dealer,
            round_wind=Wind(rng.randrange(4)) if round_wind is None else round_wind,
            streak=rng.choice((0, 0, 0, 1, 2)) if streak is None else streak,
        )
        self.ref = Referee()
        self.events: list[Event] = []
        self.seq = 0
        self.ts = 1_000

    # ------------------------------------------------------------------ emitting

    def emit(self, etype: EventType, seat: int | None = None, **fields) -> Status:
        self.seq += 1
        self.ts += self.rng.randrange(200, 1500)
        ev = Event(etype, self.seq, self.ts, seat, table=self.table, hand=self.hand, **fields)
        verdict = self.ref.apply(ev)
        if verdict.status is not Status.ACCEPTED:
            raise GeneratorError(f"the referee refused {ev!r}: {verdict.irregularities!r}")
        self.events.append(ev)
        return verdict.status

    # ------------------------------------------------------------------ the hand

    def run(self) -> list[Event]:
        rng = self.rng
        setup = self.setup
        self.emit(EventType.HAND_START, setup=setup)
        dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
        self.emit(EventType.BREAK_DICE, setup.dealer, dice=dice)
        tiles = full_set(self.ref.state.rules.flowers)  # 136 tiles without flowers (tiles.flowers)
        rng.shuffle(tiles)
        self.emit(EventType.WALL, tiles=tuple(tiles))
        for seat, n in _takes(setup.dealer):
            self.emit(EventType.DEAL, seat, count=n)
        st = self.ref.state
        self.replacement_rounds()
        self.play()
        if not st.ended:
            self.emit(EventType.HAND_END)
        return self.events

    def replacement_rounds(self) -> None:
        """補花 (deal.flowers): dealer first, round after round."""
        st = self.ref.state
        rnd = 1
        while True:
            laid = False
            for rel in range(4):
                s = (st.dealer + rel) % 4
                seat = st.seats[s]
                due = [f for f in seat.held_flowers if seat.flower_round.get(f, 1) <= rnd]
                if not due:
                    continue
                self.emit(EventType.FLOWER, s, tiles=tuple(due))
                for _ in due:
                    self.emit(EventType.TAIL_DRAW, s)
                laid = True
            if not any(seat.held_flowers for seat in st.seats):
                return
            if not laid:
                rnd += 1

    def play(self) -> None:
        st = self.ref.state
        rng = self.rng
        pol = self.policy
        dealer = st.dealer
        # 天胡 (tai.33): the dealer's dealt hand may already win
        seat = st.seats[dealer]
        if is_complete(seat.keys) and rng.random() < pol.win:
            self.emit(EventType.WIN, dealer)
            return
        self.maybe_heavenly_ready()
        self.turn(dealer)
        guard = 0
        while not st.ended and not st.wins:
            guard += 1
            if guard > 400:
                raise GeneratorError("the hand does not end")
            if not self.after_discard():
                return

    def maybe_heavenly_ready(self) -> None:
        st = self.ref.state
        if st.rules.heavenly_at_first_discard:
            return
        for s in range(4):
            ev = Event(EventType.READY, self.seq + 1, self.ts, s, kind=ReadyKind.HEAVENLY)
            if st.phase is Phase.PLAY and self.ref.probe(ev) and self.rng.random() < self.policy.declare_ready:
                self.emit(EventType.READY, s, kind=ReadyKind.HEAVENLY)

    # ------------------------------------------------------------------ a turn

    def turn(self, s: int) -> None:
        """The turn player has taken a tile in: flowers, self-draw, kongs, then a discard."""
        st = self.ref.state
        rng = self.rng
        pol = self.policy
        seat = st.seats[s]
        while True:
            if st.ended or st.wins:
                return
            if seat.held_flowers:
                f = seat.held_flowers[0]
                self.emit(EventType.FLOWER, s, tiles=(f,))
                if self.seven_rob(s):
                    return
                if st.wall.live <= 0:  # no replacement from the dead wall (play.exhausted, app.flowers.no-replace)
                    self.emit(EventType.HAND_END)
                    return
                self.emit(EventType.TAIL_DRAW, s)
                continue
            if self.probe(EventType.WIN, s) and rng.random() < pol.win:
                if rng.random() < pol.gestures:
                    self.emit(EventType.CALL, s, kind=Call.WIN)
                self.emit(EventType.WIN, s)
                return
            if st.intake in (Intake.DRAW, Intake.DEALT) and st.wall.live > st.wall.per_kong:
                kong = self.kong_choice(s)
                if kong is not None and rng.random() < pol.kong:
                    kind, tiles = kong
                    self.emit(EventType.KONG, s, kind=kind, tiles=tiles)
                    if kind is MeldKind.ADDED_KONG and self.rob_kong():
                        return
                    self.emit(EventType.TAIL_DRAW, s)
                    continue
            if rng.random() < pol.gestures and st.drawn is not None and st.intake is Intake.DRAW:
                self.emit(EventType.PLACE, s)
            x = self.choose_discard(s)
            self.emit(EventType.DISCARD, s, tiles=(x,))
            if st.rules.declared_ready and seat.ready is None and rng.random() < pol.declare_ready:
                for kind in (ReadyKind.EARTHLY, ReadyKind.HEAVENLY, ReadyKind.DECLARED):
                    if self.probe(EventType.READY, s, kind=kind):
                        self.emit(EventType.READY, s, kind=kind)
                        break
            elif seat.discards == 1 and rng.random() < pol.declare_ready and self.probe(
                    EventType.READY, s, kind=ReadyKind.EARTHLY):
                self.emit(EventType.READY, s, kind=ReadyKind.EARTHLY)
            return

    def probe(self, etype: EventType, seat: int, **fields) -> bool:
        return self.ref.probe(Event(etype, self.seq + 1, self.ts + 1, seat, **fields))

    def seven_rob(self, s: int) -> bool:
        """七搶一 →1 (tai.30.1): a seat holding seven flowers robs the eighth."""
        st = self.ref.state
        w = st.window
        if w is None or w.kind is not WindowKind.FLOWER or w.closed:
            return False
        for other in st.seats:
            if other.seat != s and len(other.flowers) == 7 and self.rng.random() < self.policy.win:
                self.emit(EventType.TAIL_DRAW, other.seat)
                while other.held_flowers:  # the replacement is a flower: not a win yet
                    return False
                if self.probe(EventType.WIN, other.seat):
                    self.emit(EventType.WIN, other.seat)
                    return True
        return False

    def kong_choice(self, s: int):
        st = self.ref.state
        seat = st.seats[s]
        if st.intake in (Intake.CHOW, Intake.PUNG):
            return None
        for t in range(KINDS):
            if seat.hand[t] == 4 and not st.melded_kong_turn:
                return MeldKind.CONCEALED_KONG, (t, t, t, t)
        for m in seat.melds:
            if m.kind is MeldKind.PUNG and m.tiles and seat.hand[m.tiles[0]]:
                return MeldKind.ADDED_KONG, (m.tiles[0],)
        return None

    def rob_kong(self) -> bool:
        """搶槓 (tai.12): someone wins on the added tile."""
        st = self.ref.state
        w = st.window
        won = False
        for k in range(1, 4):
            s = (w.seat + k) % 4
            if self.probe(EventType.WIN, s) and self.rng.random() < self.policy.win:
                self.emit(EventType.WIN, s)
                won = True
                if not st.rules.multiple_wins:
                    break
        return won

    def leaves_a_discard(self, s: int, given: Sequence[int], forbidden: Sequence[int]) -> bool:
        """After giving *given* from the hand into a claimed meld, the seat still holds a tile
        it may discard (play.restrict.6 forbids *forbidden* right after the claim): a player
        does not claim into a hand of forbidden tiles only, which it could not discard from."""
        left = list(self.ref.state.seats[s].hand)
        for t in given:
            left[t] -= 1
        return any(n > 0 and t not in forbidden for t, n in enumerate(left[:KINDS]))

    def choose_discard(self, s: int) -> int:
        st = self.ref.state
        seat = st.seats[s]
        hand = seat.hand
        if seat.ready is not None and st.drawn is not None and st.drawn < KINDS and hand[st.drawn] \
                and st.drawn not in st.after_claim_forbidden:
            return st.drawn
        candidates = [t for t in range(KINDS) if hand[t] and t not in st.after_claim_forbidden]
        if not candidates:
            candidates = [t for t in range(KINDS) if hand[t]]
        if self.rng.random() < self.policy.random_discard:
            return self.rng.choice(candidates)
        keys = seat.keys
        ready = []
        for t in candidates:
            k = list(keys)
            su = t // 9 if t < 27 else 3
            k[su] -= 1 << (3 * (t % 9 if t < 27 else t - 27))
            if waits_keys(tuple(k)):
                ready.append(t)
        if ready:
            return self.rng.choice(ready)
        return min(candidates, key=lambda t: (_use(hand, t), self.rng.random()))

    # ------------------------------------------------------------------ after a discard

    def after_discard(self) -> bool:
        """Claims on the discard, or the next draw. False when the hand is over."""
        st = self.ref.state
        rng = self.rng
        pol = self.policy
        w = st.window
        d, x = w.seat, w.tile
        # 胡: the nearest first (play.intercept); several with play.multiple_wins
        won = False
        for k in range(1, 4):
            s = (d + k) % 4
            if self.probe(EventType.WIN, s) and rng.random() < pol.win:
                if rng.random() < pol.gestures:
                    self.emit(EventType.CALL, s, kind=Call.WIN)
                self.emit(EventType.WIN, s)
                won = True
                if not st.rules.multiple_wins:
                    break
        if won:
            self.emit(EventType.HAND_END)
            return False
        # 碰 / 槓 (any seat), then 吃 (the next seat)
        for k in range(1, 4):
            s = (d + k) % 4
            seat = st.seats[s]
            if x < KINDS and seat.hand[x] >= 3 and rng.random() < pol.kong and st.wall.live > st.wall.per_kong \
                    and self.probe(EventType.KONG, s, kind=MeldKind.MELDED_KONG, tiles=(x, x, x, x)):
                self.emit(EventType.KONG, s, kind=MeldKind.MELDED_KONG, tiles=(x, x, x, x))
                self.emit(EventType.TAIL_DRAW, s)
                self.turn(s)
                return not (st.ended or st.wins)
            if x < KINDS and seat.hand[x] >= 2 and rng.random() < pol.pung \
                    and self.leaves_a_discard(s, (x, x), (x,) if st.rules.pung_restricts_discard else ()) \
                    and self.probe(EventType.PUNG, s, tiles=(x, x, x)):
                if rng.random() < pol.gestures:
                    self.emit(EventType.CALL, s, kind=Call.PUNG)
                self.emit(EventType.PUNG, s, tiles=(x, x, x))
                self.turn(s)
                return not (st.ended or st.wins)
        nxt = (d + 1) % 4
        if x < 27 and rng.random() < pol.chow:
            seat = st.seats[nxt]
            for run in _runs(x):
                forbidden = chow_forbidden_discards(run, x, other_end=st.rules.chow_forbids_other_end) \
                    if st.rules.chow_restricts_discard else ()
                if all(seat.hand[t] for t in run if t != x) \
                        and self.leaves_a_discard(nxt, [t for t in run if t != x], forbidden) \
                        and self.probe(EventType.CHOW, nxt, tiles=run):
                    self.emit(EventType.CHOW, nxt, tiles=run)
                    self.turn(nxt)
                    return not (st.ended or st.wins)
        if st.wall.live <= 0:
            self.emit(EventType.HAND_END)
            return False
        if st.wall.live == 1 and st.rules.last_tile_may_decline and rng.random() < pol.skip_last:
            self.emit(EventType.SKIP_LAST_TILE, nxt)
            return False
        if rng.random() < pol.gestures:
            self.emit(EventType.TOUCH_WALL, nxt)
        self.emit(EventType.DRAW, nxt)
        self.turn(nxt)
        return not (st.ended or st.wins)


def _takes(dealer: int) -> Iterator[tuple[int, int]]:
    from .wall import deal_takes

    return iter(deal_takes(dealer))


def _runs(x: int) -> list[tuple[int, int, int]]:
    out = []
    for start in (x - 2, x - 1, x):
        run = (start, start + 1, start + 2)
        if start >= 0 and is_run(run) and x in run:
            out.append(run)
    return out


def _use(hand: list[int], t: int) -> int:
    """How connected a tile is (lower: a better discard)."""
    c = hand[t]
    score = 3 * (c - 1)
    if t < 27:
        r = t % 9
        for step, weight in ((1, 2), (2, 1)):
            if r + step <= 8:
                score += weight * (hand[t + step] > 0)
            if r - step >= 0:
                score += weight * (hand[t - step] > 0)
    return score


def generate_hand(seed: int, **options) -> list[Event]:
    """One random legal hand's events (digital mode). Options: see :class:`HandGenerator`."""
    return HandGenerator(seed, **options).run()


def generate_hands(count: int, seed: int = 0, **options) -> Iterator[list[Event]]:
    """*count* hands from consecutive seeds."""
    for i in range(count):
        yield generate_hand(seed + i, hand=i + 1, **options)


def physical_view(events: list[Event]) -> list[Event]:
    """The same hand as a physical table records it: no wall, concealed tiles unknown
    (deal and draws counted), the winner's hand shown with the win. Concealed kongs keep
    their tiles: they are shown to the table when laid down (see docs/protocol.md)."""
    from dataclasses import replace

    from .machine import Referee

    out: list[Event] = []
    ref = Referee()
    for ev in events:
        t = ev.type
        if t is EventType.HAND_START:
            shown = replace(ev, setup=replace(ev.setup, mode=Mode.PHYSICAL))
        elif t is EventType.WALL:
            ref.apply(ev)
            continue
        elif t in (EventType.DEAL, EventType.DRAW, EventType.TAIL_DRAW):
            shown = replace(ev, tiles=None, count=ev.size or 1)
        elif t is EventType.WIN:
            shown = replace(ev, tiles=_shown_hand(ref, ev))
        else:
            shown = ev
        ref.apply(ev)
        out.append(shown)
    return out


def _shown_hand(ref: Referee, ev: Event) -> tuple[int, ...] | None:
    """The winner's concealed tiles, the winning tile last, as the digital referee knows them."""
    st = ref.state
    seat = st.seats[ev.seat]
    w = st.window
    tiles = [t for t in range(KINDS) for _ in range(seat.hand[t])]
    if w is not None and not w.closed and w.seat != ev.seat and w.kind is not WindowKind.FLOWER and \
            not (w.taken is not None and w.taken.seat == ev.seat):
        return tuple(tiles + [w.tile])
    last = st.drawn
    if last is not None and last < KINDS and last in tiles:
        tiles.remove(last)
        tiles.append(last)
    return tuple(tiles)

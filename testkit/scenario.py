"""Scripted hands: a stacked wall and a list of acts, as an event stream.

Features, sample streams and tests describe a hand the way an official would: each
seat's dealt tiles, the tiles the wall will give, then what each player did. A
:class:`Scenario` turns that into the protocol's events: ``hand_start``, the break dice,
the ``wall`` laid out so the deal and the draws come out as described (``deal.wall``),
the 17 takes of the deal, the flower replacement rounds (``deal.flowers``), then the
scripted acts with ``seq`` and ``ts`` filled in.

Acts are ``(seat, action, tiles)``; actions have zh-TW and English names
(:data:`ACTIONS`): ``打`` discard, ``摸`` draw, ``補`` tail draw, ``補花`` lay flowers,
``吃`` ``碰`` ``明槓`` ``暗槓`` ``加槓``, ``胡``, ``宣告聽牌`` ``天聽`` ``地聽``, ``喊碰``
``喊吃`` ``喊槓`` ``喊胡``, ``伸手`` (touch the wall), ``靠張`` (place the drawn tile),
``不要`` (pass), ``棄海底`` (leave the last tile), ``亮牌`` (reveal), ``打明牌`` (discard
from an exposed meld), ``報告`` (an official's report), ``結束`` (end of the hand), and
``摸打`` (draw and discard the tile drawn). At a digital table a draw or tail draw
written without tiles is written out with the tile the wall holds.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.errors import MjrefError
from referee.events import Call, Event, EventType, Mode, ReadyKind, Setup
from referee.melds import MeldKind
from referee.tiles import FLOWER_BASE, Wind, full_set, parse_tiles, set_size
from referee.wall import TILES, deal_takes, draw_order, tail_index


class ScenarioError(MjrefError, ValueError):
    """A scenario that cannot be built: more copies than the set holds, a hand of the
    wrong size, an unknown action."""

    code = "invalid_scenario"


#: action name → (event type, extra fields)
ACTIONS: dict[str, tuple[EventType, dict[str, Any]]] = {}
for _names, _etype, _extra in (
    (("打", "discard"), EventType.DISCARD, {}),
    (("打明牌", "exposed_discard"), EventType.DISCARD, {"exposed": True}),
    (("摸", "draw"), EventType.DRAW, {}),
    (("補", "槓尾補牌", "tail_draw"), EventType.TAIL_DRAW, {}),
    (("補花", "flower"), EventType.FLOWER, {}),
    (("吃", "chow"), EventType.CHOW, {}),
    (("碰", "pung"), EventType.PUNG, {}),
    (("明槓", "碰槓", "melded_kong"), EventType.KONG, {"kind": MeldKind.MELDED_KONG}),
    (("暗槓", "concealed_kong"), EventType.KONG, {"kind": MeldKind.CONCEALED_KONG}),
    (("加槓", "added_kong"), EventType.KONG, {"kind": MeldKind.ADDED_KONG}),
    (("胡", "win"), EventType.WIN, {}),
    (("宣告聽牌", "declare_ready"), EventType.READY, {"kind": ReadyKind.DECLARED}),
    (("天聽", "heavenly_ready"), EventType.READY, {"kind": ReadyKind.HEAVENLY}),
    (("地聽", "earthly_ready"), EventType.READY, {"kind": ReadyKind.EARTHLY}),
    (("喊碰", "call_pung"), EventType.CALL, {"kind": Call.PUNG}),
    (("喊吃", "call_chow"), EventType.CALL, {"kind": Call.CHOW}),
    (("喊槓", "call_kong"), EventType.CALL, {"kind": Call.KONG}),
    (("喊胡", "call_win"), EventType.CALL, {"kind": Call.WIN}),
    (("伸手", "伸手摸牌", "touch_wall"), EventType.TOUCH_WALL, {}),
    (("靠張", "place"), EventType.PLACE, {}),
    (("不要", "過", "pass"), EventType.PASS, {}),
    (("棄海底", "skip_last_tile"), EventType.SKIP_LAST_TILE, {}),
    (("亮牌", "reveal"), EventType.REVEAL, {}),
    (("被迫亮牌", "reveal_by_other"), EventType.REVEAL, {"by_other": True}),
    (("報告", "report"), EventType.REPORT, {}),
    (("結束", "hand_end"), EventType.HAND_END, {}),
):
    for _n in _names:
        ACTIONS[_n] = (_etype, _extra)

_UNSEATED = {EventType.HAND_END, EventType.REPORT}


def _tiles(value: str | Sequence[int] | None) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str):
        return parse_tiles(value)
    return list(value)


@dataclass
class Scenario:
    """A hand to script.

    :param hands: seat → its dealt tiles (16; the dealer's 17th is the 門牌). A hand given
        short, and the seats left out, are filled with random tiles (never flowers).
    :param draws: the tiles the wall's front gives after the deal, in order; or a mapping
        draw number (0 = the first draw after the deal) → tile, the others random.
    :param tail: the replacement tiles the tail gives, in order (槓尾).
    :param dice: the break dice; by default (1, 1, 3): five, the dealer's own wall, five
        stacks left standing (deal.wall).
    """

    hands: Mapping[int, str | Sequence[int]] = field(default_factory=dict)
    draws: str | Sequence[int] | Mapping[int, str | int] = ()
    tail: str | Sequence[int] = ()
    dealer: int = 0
    round_wind: Wind = Wind.EAST
    streak: int = 0
    ruleset: str = "competition"
    rules: Mapping[str, Any] = field(default_factory=dict)
    mode: Mode = Mode.DIGITAL
    dice: tuple[int, int, int] = (1, 1, 3)
    seed: int = 0
    table: str = "scenario"
    hand: int = 1
    first_dealer: int = 0
    base: int = 100
    per_tai: int = 20
    streak_marker: int | None = None
    #: replay the initial flower rounds automatically
    auto_flowers: bool = True
    #: 搬風 dice before the hand: (thrower, (d1, d2, d3)) (seat.banfeng, seat.dice.*)
    seat_dice: tuple[int, tuple[int, int, int]] | None = None
    #: 定莊 dice: (thrower, (d1, d2, d3)) (seat.dealer)
    dealer_dice: tuple[int, tuple[int, int, int]] | None = None
    first_hand: bool = False

    # ------------------------------------------------------------------ the wall

    @property
    def set_size(self) -> int:
        """The tiles of the set under the scenario's ruleset: 144, or 136 without flowers
        (``tiles.flowers``)."""
        from referee.ruleset import Ruleset

        return set_size(Ruleset.load(self.ruleset, dict(self.rules) or None)["tiles.flowers"])

    def draw_sequence(self) -> list[int]:
        """The 144 tiles (136 without flowers, ``tiles.flowers``) in draw order: the deal, then
        the draws; the tail from the end."""
        want_hands = {s: _tiles(t) for s, t in self.hands.items()}
        if isinstance(self.draws, Mapping):
            placed = {int(i): _tiles(t)[0] if not isinstance(t, int) else t for i, t in self.draws.items()}
            draws_at = placed
            draws = list(placed.values())
        else:
            draws = _tiles(self.draws)
            draws_at = dict(enumerate(draws))
        tail = _tiles(self.tail)
        n_tiles = self.set_size
        pool = full_set(n_tiles == TILES)
        used: list[int] = [t for tiles in want_hands.values() for t in tiles] + draws + tail
        for t in used:
            try:
                pool.remove(t)
            except ValueError:
                raise ScenarioError(f"more copies of tile {t} than the set holds", field="hands",
                                    reason_zh="牌張數超過整副牌") from None
        rng = random.Random(self.seed)
        plain = [t for t in pool if t < FLOWER_BASE]
        flowers = [t for t in pool if t >= FLOWER_BASE]
        rng.shuffle(plain)
        order: list[int | None] = [None] * n_tiles
        takes = deal_takes(self.dealer)
        pos = 0
        queues = {s: list(t) for s, t in want_hands.items()}
        for s, q in queues.items():
            size = 17 if s == self.dealer else 16
            if len(q) > size:
                raise ScenarioError(f"seat {s} is dealt {size} tiles, {len(q)} given", field=f"hands.{s}",
                                    reason_zh=f"{s} 號座配牌為 {size} 張")
        for seat, n in takes:
            for _ in range(n):
                q = queues.get(seat)
                order[pos] = q.pop(0) if q else None
                pos += 1
        for i, t in draws_at.items():
            order[pos + i] = t
        for k, t in enumerate(tail):
            order[tail_index(k, n_tiles)] = t
        # leftover flowers go deep into the dead wall, past the scripted replacements
        k = max(len(tail), 8)
        for f in flowers:
            while order[tail_index(k, n_tiles)] is not None:
                k += 1
            order[tail_index(k, n_tiles)] = f
            k += 1
        rest = iter(plain)
        return [t if t is not None else next(rest) for t in order]

    def layout(self) -> list[int]:
        """The wall as laid out (the ``wall`` event), for the break the dice give."""
        from referee.dice import counted_seat

        total = sum(self.dice)
        seat, skip = counted_seat(self.dealer, total), total
        sequence = self.draw_sequence()
        layout = [0] * self.set_size
        for i, pos in enumerate(draw_order(seat, skip, self.set_size)):
            layout[pos] = sequence[i]
        return layout

    # ------------------------------------------------------------------ events

    def setup(self) -> Setup:
        return Setup(mode=self.mode, ruleset=self.ruleset, rules=tuple(sorted(self.rules.items())),
                     dealer=self.dealer, round_wind=self.round_wind, streak=self.streak,
                     streak_marker=self.streak_marker, first_dealer=self.first_dealer, base=self.base,
                     per_tai=self.per_tai, first_hand=self.first_hand)

    def opening(self) -> list[Event]:
        """hand_start, dice, wall, the deal and the flower rounds."""
        digital = self.mode is Mode.DIGITAL
        sequence = self.draw_sequence()
        b = _Builder(self.table, self.hand, sequence, digital)
        b.add(EventType.HAND_START, setup=self.setup())
        if self.seat_dice is not None:
            b.add(EventType.SEAT_DICE, self.seat_dice[0], dice=tuple(self.seat_dice[1]))
        if self.dealer_dice is not None:
            b.add(EventType.DEALER_DICE, self.dealer_dice[0], dice=tuple(self.dealer_dice[1]))
        b.add(EventType.BREAK_DICE, self.dealer, dice=self.dice)
        if digital:
            b.add(EventType.WALL, tiles=tuple(self.layout()))
        pos = 0
        held: dict[int, list[int]] = {s: [] for s in range(4)}
        for seat, n in deal_takes(self.dealer):
            tiles = sequence[pos:pos + n]
            pos += n
            held[seat] += tiles
            b.add(EventType.DEAL, seat, tiles=tuple(tiles) if digital else None, count=None if digital else n)
        b.front = pos
        if self.auto_flowers:
            tail_k = 0
            rnd_flowers = {s: [t for t in held[s] if t >= FLOWER_BASE] for s in range(4)}
            while any(rnd_flowers.values()):
                nxt = {s: [] for s in range(4)}
                for rel in range(4):
                    s = (self.dealer + rel) % 4
                    fl = rnd_flowers[s]
                    if not fl:
                        continue
                    b.add(EventType.FLOWER, s, tiles=tuple(fl))
                    for _ in fl:
                        t = sequence[tail_index(tail_k, len(sequence))]
                        tail_k += 1
                        b.add(EventType.TAIL_DRAW, s, tiles=(t,) if digital else None,
                              count=None if digital else 1)
                        if t >= FLOWER_BASE:
                            nxt[s].append(t)
                rnd_flowers = nxt
            b.tail_k = tail_k
        self._builder = b
        return b.events

    def events(self, acts: Iterable[tuple[int | None, str, Any]] = ()) -> list[Event]:
        """The whole stream: the opening and then the acts."""
        self.opening()
        b = self._builder
        for act in acts:  # (seat, action, tiles) or (seat, action, tiles, {"ts": ...})
            if len(act) > 3:
                b.act(*act[:3], **act[3])
            else:
                b.act(*act)
        return b.events


class _Builder:
    def __init__(self, table: str, hand: int, sequence: list[int], digital: bool) -> None:
        self.events: list[Event] = []
        self.seq = 0
        self.ts = 0
        self.table = table
        self.hand = hand
        self.sequence = sequence
        self.digital = digital
        self.front = 0
        self.tail_k = 0
        #: a referee following along, so draws are written out with the tile the wall holds
        #: even after a refused act
        from referee.machine import Referee

        self.ref = Referee()

    def add(self, etype: EventType, seat: int | None = None, **fields) -> Event:
        self.seq += 1
        self.ts += 1000
        ev = Event(etype, self.seq, fields.pop("ts", self.ts), seat, table=self.table, hand=self.hand, **fields)
        self.events.append(ev)
        try:
            self.ref.apply(ev)
        except MjrefError:  # pragma: no cover - a scripted stream the referee cannot follow
            pass
        return ev

    def act(self, seat: int | None, action: str, tiles: Any = None, **extra) -> Event:
        if action in ("摸打", "draw_discard"):  # draw a tile and discard it as drawn (摸打)
            drawn = self.act(seat, "摸", tiles, **extra)
            return self.act(seat, "打", drawn.tiles if drawn.tiles else tiles)
        try:
            etype, fields = ACTIONS[action]
        except KeyError:
            raise ScenarioError(f"unknown action {action!r}; one of {sorted(ACTIONS)}", field="action",
                                reason_zh=f"不明的動作「{action}」") from None
        fields = dict(fields)
        fields.update(extra)
        if etype is EventType.REPORT:
            fields.setdefault("code", tiles or "reported")
            tiles = None
        t = tuple(_tiles(tiles)) if tiles not in (None, "") else None
        wall = self.ref.state.wall if self.ref.state is not None else None
        if t is None and self.digital and wall is not None and wall.known:
            if etype is EventType.DRAW and wall.live > 0:
                t = (wall.peek_front(),)
            elif etype is EventType.TAIL_DRAW and wall.remaining > 0:
                t = (wall.peek_tail(),)
        if t is not None:
            fields["tiles"] = t
        if etype in _UNSEATED and etype is not EventType.REPORT:
            seat = None
        return self.add(etype, seat, **fields)


def cycle(first: int, turns: int) -> list[tuple[int, str, None]]:
    """*turns* turns of 摸打 (draw, discard the tile drawn), seat after seat from *first*."""
    return [((first + i) % 4, "摸打", None) for i in range(turns)]


def stream(scenario: Scenario, acts: Iterable[tuple]) -> list[Event]:
    """Shorthand: ``stream(Scenario(...), [(0, "打", "E"), (1, "摸", None), ...])``."""
    return scenario.events(acts)


def with_mode(events: list[Event], mode: Mode) -> list[Event]:
    """The same events with the table's mode changed in ``hand_start``."""
    out = list(events)
    first = out[0]
    out[0] = replace(first, setup=replace(first.setup, mode=mode))
    return out

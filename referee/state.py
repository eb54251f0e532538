"""The table during a hand: wall, hands, melds, ponds, flowers, whose turn, open claims.

One mutable, slotted :class:`TableState` per hand, changed in place by the state machine
(:mod:`referee.machine`): no per-event copies. Concealed hands are count vectors over
the 34 kinds; a physical table's tiles nobody has seen are counted in
:attr:`SeatState.unknown` until they show (a discard, a meld, a flower, a win).

:meth:`TableState.census` accounts for all 144 tiles (``deal.walls``); the property
tests check it after every event. :meth:`TableState.snapshot` is a plain, comparable
picture of the state (live == replay).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from .events import EventType, ReadyKind, Setup
from .kinds import Intake, Phase, Source, WindowKind
from .kinds_fast import (
    CHOW_MELD, CONCEALED_KONG_MELD, DEALT_SOURCE, DIGITAL_MODE, MELDED_KONG_INTAKE, MELDED_KONG_MELD, NONE_INTAKE,
    SETUP_PHASE,
)
from .melds import Meld, MeldKind
from .play_rules import PlayRules
from .tiles import FLOWER_BASE, KINDS, Wind, format_tiles, tiles_zh
from .wall import Wall


class TableMeld(NamedTuple):
    """A meld as it lies on the table; its tiles may be unlike (a wrong kong stood at a
    physical table) or unknown (a concealed kong face down: ``tiles`` is ``None``).

    A named tuple: immutable, and made at every claim much faster than a frozen dataclass."""

    kind: MeldKind
    tiles: tuple[int, ...] | None
    claimed: int | None = None
    from_seat: int | None = None
    seq: int = 0

    @property
    def size(self) -> int:
        return 4 if self.kind.is_kong else 3

    def to_meld(self) -> Meld | None:
        """The :class:`referee.melds.Meld` for scoring, or ``None`` if the tiles are unknown or
        do not form the meld (a wrong kong, a tile taken away by 錯打明牌)."""
        tiles = self.tiles
        kind = self.kind
        if tiles is None or len(tiles) != (4 if kind >= MELDED_KONG_MELD else 3):  # as self.size
            return None
        if kind is CHOW_MELD:
            low, mid, high = sorted(tiles)
            if mid != low + 1 or high != low + 2 or low >= 27 or low % 9 > 6:  # one suit, no 9-1-2
                return None
        else:
            low = tiles[0]
            if tiles.count(low) != len(tiles):
                return None
        return Meld._shared(kind, low, self.claimed if kind is not CONCEALED_KONG_MELD else None)

    def __str__(self) -> str:
        return meld_text(self)

    def text_reference(self) -> str:
        """``str(meld)`` written afresh: its kind in Chinese, its tiles in their order (the
        reference :func:`meld_text` is held to)."""
        return f"{self.kind.zh}:{format_tiles(self.tiles, sort=False) if self.tiles else '????'}"

    @property
    def zh(self) -> str:
        """The meld as an official reads it out: 「碰 東東東」, 「吃 三四五萬」 (its tiles in
        their order; 「暗槓 ？」 when the table does not know them). Issue #13: not ``111z``."""
        return f"{self.kind.zh} {tiles_zh(self.tiles) if self.tiles else '？'}"


#: (kind, tiles) → the text of a meld of that kind and those tiles in that order, for the melds
#: met so far (a table's melds repeat hand after hand); emptied when full
_MELD_TEXTS: dict[tuple[MeldKind, tuple[int, ...] | None], str] = {}
_MELD_TEXTS_LIMIT = 4096


def meld_text(meld: TableMeld) -> str:
    """``str(meld)``: 「碰:111z」, 「暗槓:????」 — written once per kind and tiles
    (:meth:`TableMeld.text_reference`), then looked up (issue #17: every ``flask replay``
    answer writes the final table's melds). The text depends on the kind and the tiles alone;
    a text is kept only once written, so a meld whose tiles are not tiles raises as before
    (but for ones equal to tiles already written: ``True`` for 1, which the referee never
    holds — its melds' tiles are ints from parsed events)."""
    key = meld[:2]
    text = _MELD_TEXTS.get(key)
    if text is None:
        text = meld.text_reference()
        if len(_MELD_TEXTS) >= _MELD_TEXTS_LIMIT:
            _MELD_TEXTS.clear()
        _MELD_TEXTS[key] = text
    return text


class SeatState:
    """One seat's tiles and what the rules remember about it this hand."""

    __slots__ = (
        "seat", "hand", "keys", "n", "waits", "waited", "unknown", "melds", "flowers", "held_flowers", "pond",
        "discards",
        "passed", "revealed", "revealed_sets", "ready", "ready_seq",
        "ready_discards", "ready_lapsed", "dead_hand", "since", "drawn_count", "first_drawn", "start_flowers",
        "flower_round", "wall_draw", "discard_window", "shown_log",
    )

    def __init__(self, seat: int) -> None:
        self.seat = seat
        #: concealed tiles, a count per kind (0–33)
        self.hand = [0] * KINDS
        #: the same tiles as four suit keys (referee.tables), kept in step with ``hand``
        self.keys = [0, 0, 0, 0]
        #: how many known concealed tiles (the sum of ``hand``)
        self.n = 0
        #: the tiles a known 16-tile hand waits on (set at its discard), None otherwise
        self.waits: frozenset[int] | None = None
        #: the waits whose bits this seat set in TableState.waiters (cleared at the next refresh)
        self.waited: frozenset[int] = _NO_SET
        #: concealed tiles nobody has seen (physical table)
        self.unknown = 0
        self.melds: list[TableMeld] = []
        #: flowers laid out (deal.flowers)
        self.flowers: list[int] = []
        #: what the seat shows on the table, each time it changes: (seq, flowers, melds)
        #: (the face 牌面 of a hand that cannot win, penalties.face, read at any event)
        self.shown_log: list[tuple[int, tuple[int, ...], tuple[TableMeld, ...]]] = []
        #: flowers drawn and not yet laid out
        self.held_flowers: list[int] = []
        #: discards still lying in the pond (claimed ones leave it)
        self.pond: list[int] = []
        #: discards made this hand (the latest: TableState.last_discard)
        self.discards = 0
        #: seq of the chance that left this seat in 過水 (play.passed-win), None when free
        self.passed: int | None = None
        #: kinds shown or said aloud by its own fault (play.restrict.8)
        self.revealed: set[int] = set()
        self.revealed_sets: list[tuple[int, ...]] = []
        #: declared readiness still standing (天聽 地聽 宣告聽牌), when and after which discard
        self.ready: ReadyKind | None = None
        self.ready_seq: int | None = None
        self.ready_discards = 0
        #: why a declared readiness lapsed (換牌, 靠張, 過水)
        self.ready_lapsed: str | None = None
        #: 相公 (pen.dead-hand), set by an official's report or by penalties
        self.dead_hand = False
        #: where this seat's go-around begins in the table's claimable-tile log (its last
        #: discard): the chances since then (play.passed-win, 過水碰 play.pon)
        self.since = 0
        #: draws from the wall so far, and the first tile drawn (地聽 keeps it, app.heavenly-ready)
        self.drawn_count = 0
        self.first_drawn: int | None = None
        #: flowers held when play began (配牌花胡, tai.28)
        self.start_flowers = 0
        #: replacement round in which each held flower may be laid out (deal.flowers)
        self.flower_round: dict[int, int] = {}
        #: the record of this seat's latest draw from the wall (a :class:`Taken`), rewritten
        #: at its next draw once no window holds it any more (for speed: no new object per draw)
        self.wall_draw: Taken | None = None
        #: the window of this seat's latest discard, reused at its next discard once the table
        #: no longer refers to it (for speed: no new object per discard)
        self.discard_window: Window | None = None

    @property
    def concealed_count(self) -> int:
        return self.n + self.unknown

    @property
    def size(self) -> int:
        """Tiles toward win.shape: concealed + 3 per meld."""
        return self.n + self.unknown + 3 * len(self.melds)

    @property
    def known(self) -> bool:
        """Every concealed tile is known."""
        return self.unknown == 0

    def shown(self, seq: int) -> None:
        """Its flowers or melds changed at event *seq* (kept in :attr:`shown_log`)."""
        self.shown_log.append((seq, tuple(self.flowers), tuple(self.melds)))

    def shown_before(self, seq: int) -> tuple[tuple[int, ...], tuple[TableMeld, ...]]:
        """``(flowers, melds)`` the seat showed just before event *seq*."""
        flowers: tuple[int, ...] = ()
        melds: tuple[TableMeld, ...] = ()
        for at, f, m in self.shown_log:
            if at >= seq:
                break
            flowers, melds = f, m
        return flowers, melds

    def melds_for_scoring(self) -> tuple[Meld, ...] | None:
        out = []
        for m in self.melds:
            meld = m.to_meld()
            if meld is None:
                return None
            out.append(meld)
        return tuple(out)

    def snapshot(self) -> dict[str, Any]:
        return {
            "hand": tuple(self.hand), "unknown": self.unknown, "melds": tuple(self.melds),
            "flowers": tuple(self.flowers), "held_flowers": tuple(self.held_flowers), "pond": tuple(self.pond),
            "discards": self.discards, "passed": self.passed,
            "revealed": tuple(sorted(self.revealed)), "ready": self.ready, "ready_lapsed": self.ready_lapsed,
            "dead_hand": self.dead_hand, "since": self.since,
        }


class Taken:
    """Who took the turn after a claimable tile, and how (for priority, ``prio.*``)."""

    __slots__ = ("intake", "seat", "seq", "ts", "placed_ts", "tile", "meld", "hand_tiles", "replaced")

    def __init__(self, intake: Intake, seat: int, seq: int, ts: int, tile: int | None = None,
                 meld: TableMeld | None = None, hand_tiles: tuple[int, ...] = ()) -> None:
        self.intake = intake
        self.seat = seat
        self.seq = seq
        self.ts = ts
        #: when the drawn tile was placed into the hand (prio.4), None if not yet
        self.placed_ts: int | None = None
        self.tile = tile
        self.meld = meld
        #: tiles the claim took from the hand (known ones; None entries were unknown)
        self.hand_tiles = hand_tiles
        #: a melded kong's replacement was drawn (too late to undo)
        self.replaced = False


_NO_DICT: dict = {}
_NO_LIST: list = []
_NO_SET: frozenset = frozenset()


class Window:
    """A tile others may claim: a discard, an added kong, the eighth flower."""

    __slots__ = ("kind", "seat", "tile", "seq", "ts", "last", "calls", "wins", "taken", "touched", "passes",
                 "fulfilled", "closed", "noted")

    def __init__(self, kind: WindowKind, seat: int, tile: int, seq: int, ts: int, last: bool = False) -> None:
        self.reopen(kind, seat, tile, seq, ts, last)

    def reopen(self, kind: WindowKind, seat: int, tile: int, seq: int, ts: int, last: bool = False) -> Window:
        """Every field set as for a new window (a seat's discard window is reused once the
        table no longer refers to it: no new object per discard, for speed)."""
        self.kind = kind
        self.seat = seat
        self.tile = tile
        self.seq = seq
        self.ts = ts
        #: the discard after drawing the last tile (河底)
        self.last = last
        #: seat → (call kind, ts, seq), the earliest call of each seat
        self.calls: dict[int, tuple[Any, int, int]] = _NO_DICT
        #: (seat, seq, ts) of win declarations that stand so far
        self.wins: list[tuple[int, int, int]] = _NO_LIST
        self.taken: Taken | None = None
        #: seat → (ts, seq) of a hand reaching to the wall while this tile could be claimed
        self.touched: dict[int, tuple[int, int]] = _NO_DICT
        self.passes: frozenset[int] | set[int] = _NO_SET
        #: seats whose call was carried out (or lost to priority)
        self.fulfilled: frozenset[int] | set[int] = _NO_SET
        self.closed = False
        #: a ``note_*`` made one of the containers above writable (a reused window resets
        #: them only then: for speed)
        self.noted = False
        return self

    # the containers start as shared empty read-only values; these make them writable

    def note_call(self, seat: int, value: tuple[Any, int, int]) -> None:
        if self.calls is _NO_DICT:
            self.calls = {}
            self.noted = True
        self.calls.setdefault(seat, value)

    def note_touch(self, seat: int, value: tuple[int, int]) -> None:
        if self.touched is _NO_DICT:
            self.touched = {}
            self.noted = True
        self.touched.setdefault(seat, value)

    def note_pass(self, seat: int) -> None:
        if self.passes is _NO_SET:
            self.passes = set()
            self.noted = True
        self.passes.add(seat)

    def note_fulfilled(self, seat: int) -> None:
        if self.fulfilled is _NO_SET:
            self.fulfilled = set()
            self.noted = True
        self.fulfilled.add(seat)

    def note_win(self, value: tuple[int, int, int]) -> None:
        if self.wins is _NO_LIST:
            self.wins = []
            self.noted = True
        self.wins.append(value)


class WinFace(NamedTuple):
    """The winner's table just before a ``win`` event (the referee keeps it for every win
    declared, whether it stands or not): what the face of the win as declared is scored from
    (``pen.pay-all``, R-pen-1), and a win the referee did not score is scored from
    (:mod:`penalties.extra_wins`); also a reported seat's table at an official's ``report``
    (:attr:`TableState.report_faces`, for ``pen.peek``). *window*: ``(kind, seat, tile, last, taken seat)`` of the
    claim window then open, None when none was."""

    hand: tuple[int, ...]
    unknown: int
    #: the seat's melds as the table holds them (:meth:`TableMeld.to_meld` scores them)
    melds: tuple[TableMeld, ...]
    flowers: tuple[int, ...]
    window: tuple[Any, int, int, bool, int | None] | None
    turn: int
    drawn: int | None
    #: where the turn's last tile came from (self-draw: :data:`referee.win_context.SELF_DRAW_SOURCES`)
    source: Source
    east: int


def win_face(st: TableState, seat: SeatState) -> WinFace:
    """*seat*'s :class:`WinFace` in the state *st* (just before its win)."""
    w = st.window
    window = None if w is None or w.closed else (w.kind, w.seat, w.tile, w.last,
                                                 w.taken.seat if w.taken is not None else None)
    return WinFace(tuple(seat.hand), seat.unknown, tuple(seat.melds), tuple(seat.flowers), window,
                   st.turn, st.drawn, st.source, st.east)


#: report codes that stop play on a seat's pending error (a wrong kong, pung, exposed discard)
CATCH_CODES = frozenset({"caught", "wrong_kong", "wrong_pung", "exposed_discard", "tile_unidentifiable"})


class WrongKongProgress:
    """How far a wrong kong that stood got (既遂 / 未遂, ``pen.wrong-kong.*``), followed by the
    referee from the kong on, event by event (:meth:`follow`): its replacement drawn
    (``replaced``), placed into the hand (``placed``), a tile discarded after it
    (``completed``) — up to an official's report catching it (:data:`CATCH_CODES`), a win
    by another seat robbing it before the replacement, or the offender's own win. A
    ``tile_unidentifiable`` report (before the catch, or among the reports right after it)
    says the replacement in the hand cannot be identified.

    :param index: the wrong kong's place in the referee's irregularities.
    """

    __slots__ = ("index", "seat", "stage", "seqs", "caught", "robbed", "unidentifiable", "done", "run")

    def __init__(self, index: int, seat: int) -> None:
        self.index = index
        self.seat = seat
        self.stage = "declared"
        #: the events that moved it on (the tail draw, the placing, the discard)
        self.seqs: list[int] = []
        self.caught: int | None = None
        self.robbed: int | None = None
        self.unidentifiable = False
        #: it got as far as it will (caught, robbed, completed, or the offender won)
        self.done = False
        #: after the catch: the position of the last report of the reports right after it
        self.run: int | None = None

    def follow(self, ev: Any, position: int) -> None:
        """One more event (*position*: its place in the hand's stream)."""
        seat = self.seat
        t = ev.type
        if self.done:
            if self.run is not None:
                if t is EventType.REPORT and position == self.run + 1:
                    self.run = position
                    if ev.code == "tile_unidentifiable" and ev.seat in (seat, None):
                        self.unidentifiable = True
                        self.run = None
                else:
                    self.run = None
            return
        if t is EventType.REPORT and ev.seat in (seat, None):
            if ev.code == "tile_unidentifiable":
                self.unidentifiable = True
            if ev.code in CATCH_CODES:
                self.caught = ev.seq
                self.done = True
                self.run = None if self.unidentifiable else position
                return
        if t is EventType.WIN and ev.seat != seat and self.stage == "declared":
            self.robbed = ev.seq
            self.done = True
            return
        if ev.seat != seat:
            return
        stage = self.stage
        if t is EventType.TAIL_DRAW and stage == "declared":
            self.stage = "replaced"
            self.seqs.append(ev.seq)
        elif t is EventType.PLACE and stage == "replaced":
            self.stage = "placed"
            self.seqs.append(ev.seq)
        elif t is EventType.DISCARD and (stage == "replaced" or stage == "placed"):
            self.stage = "completed"
            self.seqs.append(ev.seq)
            self.done = True
        elif t is EventType.WIN:
            self.done = True

    def facts(self) -> dict[str, Any]:
        """The facts added to the ``wrong_kong`` irregularity at the close."""
        return {"stage": self.stage, "stage_seqs": tuple(self.seqs), "caught": self.caught, "robbed": self.robbed,
                "unidentifiable": self.unidentifiable}


class TableState:
    """Everything about the hand at one moment. Mutated in place by the referee."""

    __slots__ = (
        "setup", "rules", "mode_digital", "dealer", "east", "round_wind", "wall", "layout", "break_seat",
        "break_skip", "seats", "phase", "turn", "intake", "owed", "owed_kinds", "source", "drawn", "placed",
        "turn_kongs", "melded_kong_turn", "placed_before_kong", "kong_this_turn", "after_claim_tile",
        "after_claim_forbidden", "window", "prev_window", "deal_index", "flower_round", "flower_rel", "claims_made",
        "wins", "ended_by", "end_seq", "seat_dice_east", "last_seq", "events",
        "skipped_last", "unreplaced_end", "turn_start_seq", "ready_discard_pending", "flower_win_seat",
        "table", "hand_no", "wrong_kongs", "door_tile", "log", "waiters", "abortive", "own_kongs", "win_faces",
        "report_faces",
    )

    def __init__(self, setup: Setup, rules: PlayRules) -> None:
        self.setup = setup
        self.rules = rules
        self.mode_digital = setup.mode is DIGITAL_MODE
        self.dealer = setup.dealer
        #: East of this hand (開門位, deal.wall); the dealer until the break dice say otherwise
        self.east = setup.dealer
        self.round_wind: Wind = setup.round_wind
        self.wall = Wall(None, dead_wall=rules.dead_wall, per_kong=rules.dead_wall_per_kong, size=rules.tiles)
        #: the wall as laid out (the wall event), until the deal begins
        self.layout: tuple[int, ...] | None = None
        self.break_seat: int | None = None
        self.break_skip: int | None = None
        self.seats = [SeatState(s) for s in range(4)]
        self.phase = SETUP_PHASE
        self.begin_turn(setup.dealer, NONE_INTAKE, None)  # the per-turn facts, before the first turn
        self.source = DEALT_SOURCE
        #: the tile last taken into the turn's hand (摸打 / 靠張)
        self.drawn: int | None = None
        self.window: Window | None = None
        self.prev_window: Window | None = None
        self.deal_index = 0
        self.flower_round = 1
        self.flower_rel = -1
        #: chows, pungs and kongs made so far by anyone (天聽 / 地聽, app.heavenly-ready)
        self.claims_made = 0
        #: win declarations that stand (referee.winning.WinClaim)
        self.wins: list[Any] = []
        #: the irregularity that ended the hand (a false win at a physical table), if any
        self.ended_by: Any = None
        self.end_seq: int | None = None
        self.seat_dice_east: int | None = None
        self.last_seq: int | None = None
        self.events = 0
        self.skipped_last = False
        #: an abortive draw that ended the hand: "four_winds" or "four_kongs" (play.abortive_*)
        self.abortive: str | None = None
        #: the hand ended because a flower was not replaced (app.flowers.no-replace)
        self.unreplaced_end = False
        self.flower_win_seat: int | None = None
        self.table = ""
        self.hand_no = 0
        #: concealed and added kongs so far, for 過水 found at a win (play.passed-win.release):
        #: (the turn's first seq, added?, the kong's tile or None, the tile taken in just
        #: before it or None when not recorded)
        self.own_kongs: list[tuple[int | None, bool, int | None, int | None]] = []
        #: seq of each win declared → what the winner's table was just before it
        #: (:class:`WinFace`: the face 牌面 of a win that does not stand, penalties.face)
        self.win_faces: dict[int, WinFace] = {}
        #: report seq → the reported seat's table at an official's report (a walking eye's
        #: hand when the walk begins, pen.peek): penalties read it, nothing replayed
        self.report_faces: dict[int, WinFace] = {}
        #: wrong kongs so far, followed event by event (:class:`WrongKongProgress`: how far
        #: each got before it was caught, pen.wrong-kong.*)
        self.wrong_kongs: list[WrongKongProgress] = []
        #: the last tile the dealer took before play (the 門牌, or its flower's replacement)
        self.door_tile: int | None = None
        #: every tile others could claim, in order: (tile, seq, seat, a discard?) — discards
        #: and added kongs (the chances behind 過水 and 過水碰)
        self.log: list[tuple[int, int, int, bool]] = []
        #: per tile, a bit per seat whose known hand waits on it (set when the waits are
        #: computed): the seats worth checking for 過水 when that tile is let go
        self.waiters = [0] * KINDS

    def begin_turn(self, seat: int, intake: Intake, seq: int | None) -> None:
        """A turn begins: its draw, its claim (a chow, pung or melded kong), or the hand's
        start. The one place where the facts that last one turn are set (issue #19 item 3)."""
        #: the seat whose turn it is (after a discard: the discarder, until someone takes a tile)
        self.turn = seat
        #: how the turn took its tile: drawn, claimed (Intake), or none yet
        self.intake = intake
        #: replacements the turn's player owes from the tail (flowers laid out, kongs), and
        #: why, oldest first: Source.KONG / MELDED_KONG / FLOWER
        self.owed = 0
        self.owed_kinds: list[Source] = []
        #: whether the taken tile was placed into the hand (physical tables' 靠張)
        self.placed = False
        self.turn_kongs = 0
        self.melded_kong_turn = intake is MELDED_KONG_INTAKE
        #: the drawn tile was placed into the hand before this turn's concealed kong (play.restrict.5)
        self.placed_before_kong = False
        self.kong_this_turn = False
        #: after a chow or pung: the claimed tile and the tiles that may not be discarded now
        self.after_claim_tile: int | None = None
        self.after_claim_forbidden: tuple[int, ...] = ()
        #: seq of the act that began the turn (its draw, claim); None before the first
        self.turn_start_seq = seq
        self.ready_discard_pending: int | None = None

    # ------------------------------------------------------------------ reading

    @property
    def digital(self) -> bool:
        return self.mode_digital

    @property
    def discards_made(self) -> int:
        """Discards made so far by anyone (天聽, tai.31); counted from the seats rather than
        kept, so that a discard does one store less (for speed)."""
        seats = self.seats
        return seats[0].discards + seats[1].discards + seats[2].discards + seats[3].discards

    @property
    def ended(self) -> bool:
        return self.phase is Phase.ENDED

    def chances(self, seat: SeatState, exclude: int | None = None) -> list[tuple[int, int]]:
        """(tile, seq) of the tiles others discarded or added to a kong since *seat*'s last
        discard (its go-around), but the one at seq *exclude*."""
        s = seat.seat
        return [(t, q) for t, q, who, _ in self.log[seat.since:] if who != s and q != exclude]

    def passed_pung_seq(self, seat: SeatState, tile: int, exclude: int) -> int | None:
        """The seq of an earlier discard of *tile* this go-around that *seat* let go (過水碰)."""
        s = seat.seat
        for t, q, who, discard in self.log[seat.since:]:
            if t == tile and discard and who != s and q != exclude:
                return q
        return None

    def known_count(self, t: int) -> int:
        """How many copies of tile *t* are known to be out of the wall (hands, melds, ponds,
        flowers), plus those known to stand in it."""
        c = 0
        for s in self.seats:
            if t < KINDS:
                c += s.hand[t]
            c += s.pond.count(t) + s.flowers.count(t) + s.held_flowers.count(t)
            for m in s.melds:
                if m.tiles:
                    c += m.tiles.count(t)
        if self.wall.tiles is not None:
            c += self.wall.standing().count(t)
        return c

    def last_discard(self, seat: SeatState) -> tuple[int, int] | None:
        """The seat's latest discard as ``(tile, seq)``, None before its first: read from the
        log, where the seat's go-around begins (a discard is not stored twice, for speed)."""
        if not seat.discards:
            return None
        tile, seq, _seat, _discard = self.log[seat.since]
        return tile, seq

    def census(self) -> tuple[list[int], int]:
        """Every known tile's count (42 entries, flowers included) and the number of
        unknown tiles, over wall, hands, melds, ponds and flowers: the two always add up
        to 144 (``deal.walls``), or 136 without flowers (``tiles.flowers``): the wall's size."""
        counts = [0] * (FLOWER_BASE + 8)
        unknown = 0
        wall = self.wall
        if wall.known:
            for t in wall.standing():
                counts[t] += 1
        else:
            unknown += wall.remaining
        for s in self.seats:
            for t in range(KINDS):
                counts[t] += s.hand[t]
            unknown += s.unknown
            for m in s.melds:
                if m.tiles is None:
                    unknown += m.size
                else:
                    for t in m.tiles:
                        counts[t] += 1
            for t in s.flowers:
                counts[t] += 1
            for t in s.held_flowers:
                counts[t] += 1
            for t in s.pond:
                counts[t] += 1
        return counts, unknown

    def check_census(self) -> list[str]:
        """Problems with the tile accounting (empty when all 144 — 136 without flowers,
        ``tiles.flowers`` — are accounted for and no kind shows more than four times, no
        flower twice, no flower at all in a set without them)."""
        counts, unknown = self.census()
        problems = []
        size = self.wall.size
        if sum(counts) + unknown != size:
            problems.append(f"{sum(counts)} known + {unknown} unknown tiles != {size}")
        flower_copies = 1 if self.rules.flowers else 0
        for t, c in enumerate(counts):
            if c > (flower_copies if t >= FLOWER_BASE else 4):
                problems.append(f"{c} copies of tile {t}")
        return problems

    def snapshot(self) -> dict[str, Any]:
        """A plain picture of the state, equal for equal states (live == replay)."""
        w = self.window
        return {
            "phase": self.phase, "turn": self.turn, "intake": self.intake, "owed": self.owed,
            "source": self.source, "drawn": self.drawn, "placed": self.placed, "east": self.east,
            "wall": (self.wall.front, self.wall.tail, self.wall.kongs, self.wall.live),
            "window": None if w is None else (w.kind, w.seat, w.tile, w.seq, tuple(w.wins), w.closed),
            "wins": tuple((c.seat, c.seq) for c in self.wins), "claims": self.claims_made,
            "discards": self.discards_made, "log": len(self.log),
            "seats": tuple(tuple(s.snapshot().items()) for s in self.seats),
        }

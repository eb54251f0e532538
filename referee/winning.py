"""Win declarations (play.win, app.win-ways): what the win is on, whether it stands.

A ``win`` event is checked against:

* what can be won on now: the latest discard (胡銃, 河底 when it followed the last
  tile), an added kong's tile (搶槓, ``tai.12``), the eighth flower (七搶一 →1,
  ``tai.30.1``), or the tile one just drew (自摸 and its kin: 海底, 槓上開花);
* the hand (``win.shape``): 17 tiles (``play.win``: 恰為17張) that win, known to the
  referee or shown with the win at a physical table (``tiles``: the concealed tiles, the
  winning tile last); a flower win needs no winning hand (``tai.27``–``tai.30``);
* 過水 (``play.passed-win``): a seat left passed cannot win until released, nor may a
  hand that reached for the wall win on the tile it let go (``prio.5``, ``prio.8``);
  天聽 / 地聽 only lose their readiness (``tai.31``, ``tai.32``);
* self-draw limits: a turn that began with a chow or pung (``play.restrict.4``), a melded
  kong's replacement (``play.restrict.2``), a drawn tile placed into the hand first
  (靠張, ``tai.23``; not for 天胡, ``tai.33``), the tile drawn before a concealed kong
  placed and a wait discarded this go-around (``play.restrict.5``);
* priority: 胡 beats 碰 and 吃 while their turn is not complete (``app.priority``,
  ``prio.3``–``prio.7``).

A win that stands becomes a :class:`WinClaim`; which of several claims win is decided at
the end of the hand (:mod:`referee.outcome`: ``play.intercept``, ``play.multiple_wins``,
``prio.2``).
"""
from __future__ import annotations

from typing import NamedTuple

from .events import Event, ReadyKind
from .kinds_fast import (
    CHOW_INTAKE, DEALT_INTAKE, DEALT_SOURCE, DISCARD_WINDOW, DISCARD_WIN_SOURCE, DRAW_INTAKE, EARTHLY_READY,
    EARTHLY_WIN_FIRST_TURN, EIGHT_FLOWERS_FLOWER_WIN, ENDED_PHASE, FLOWERS_PHASE, FLOWER_REPLACEMENT_WIN_SOURCE,
    FLOWER_SOURCE, FLOWER_WINDOW, FLOWER_WIN_WIN_SOURCE, HEAVENLY_READY, HEAVENLY_WIN_FIRST_TURN, HUMAN_WIN_FIRST_TURN,
    KONG_SOURCE, LAST_DISCARD_WIN_SOURCE, MELDED_KONG_INTAKE, NONE_FIRST_TURN, NONE_FLOWER_WIN, NONE_INTAKE,
    NONE_READINESS, PLAY_PHASE, PUNG_INTAKE, ROBBING_KONG_WIN_SOURCE, SEVEN_ROB_ONE_DRAWN_FLOWER_WIN,
    SEVEN_ROB_ONE_FLOWER_WIN,
)
from .restrictions import SUIT_OF, UNIT_OF, is_complete, wins_with
from .scoring.context import FirstTurn, FlowerWin, Readiness, WinSource
from .state import SeatState, TableState, Window, win_face
from .tiles import FLOWER_BASE, KINDS
from .verdicts import ACCEPTED, Irregularity, Verdict
from .win_context import SELF_DRAW_SOURCES

_READINESS = {None: Readiness.NONE, ReadyKind.HEAVENLY: Readiness.HEAVENLY, ReadyKind.EARTHLY: Readiness.EARTHLY,
              ReadyKind.DECLARED: Readiness.DECLARED}
#: problems after which a physical table's win does not end the hand
_HAND_GOES_ON = {"flower_win_unreplaced"}


class WinClaim(NamedTuple):
    """A win declaration that stands (so far): everything the outcome needs to score it
    (a named tuple: immutable, and quicker to make than a frozen dataclass).

    :param concealed: the winner's concealed tiles with the winning tile (34 counts),
        ``None`` when a physical table never showed them.
    """

    seat: int
    seq: int
    ts: int
    source: WinSource
    tile: int | None
    discarder: int | None
    window_seq: int | None
    concealed: tuple[int, ...] | None
    flower_win: FlowerWin = FlowerWin.NONE
    dealt_flower_win: bool = False
    readiness: Readiness = Readiness.NONE
    first_turn: FirstTurn = FirstTurn.NONE
    #: why a declared readiness was dropped at the win (tai.31: 過水 found afterwards)
    readiness_note: str | None = None


def _passed_before_kongs(st: TableState, seat: SeatState, concealed: list[int], tile: int,
                         window: Window | None) -> int | None:
    """過水 found at a self-drawn win after this turn's concealed or added kongs, when the
    hand was not known at the chance (a physical table counting its draws): the seq of the
    chance let go, or None.

    The hand at the chances (16 tiles, before the turn's draw) is the hand shown less the
    winning tile, plus the tiles each kong put out, less the tile taken in before each (the
    draw, then each replacement). It passed a chance when it won on that tile; a concealed
    kong does not release 過水 (「過水時之暗槓…非為解除過水，其補牌不得自摸」,
    ``play.passed-win.release``) unless ``play.passed_win.concealed_kong_releases``
    (``app.passed-win``); an added kong releases it only with 「一張非胡之牌」, a tile the
    hand left does not win on. A tile taken in and not recorded is each tile it may have
    been: 過水 is found only when every such hand passed."""
    kongs = [k for k in st.own_kongs if k[0] == st.turn_start_seq]
    if len(kongs) != st.turn_kongs or any(x is None for _turn, _added, x, _taken in kongs):
        return None
    if any(not added for _turn, added, _x, _taken in kongs) and st.rules.passed_win_concealed_kong_releases:
        return None
    base = list(concealed)
    base[tile] -= 1
    unknown = 0
    for _turn, added, x, taken in kongs:
        base[x] += 1 if added else 4
        if taken is None:
            unknown += 1
        elif taken >= KINDS or not base[taken]:
            return None
        else:
            base[taken] -= 1
    if unknown > 1 or min(base) < 0:
        return None
    candidates = [t for t in range(KINDS) if base[t]] if unknown else [None]
    found = None
    current = window.seq if window is not None else None
    for d in candidates:
        hand = list(base)
        if d is not None:
            hand[d] -= 1
        q = _passed_then(st, seat, kongs, hand, d, current)
        if q is None:
            return None
        found = q if found is None else min(found, q)
    return found


def _passed_then(st: TableState, seat: SeatState, kongs, hand: list[int], unrecorded: int | None,
                 current: int | None) -> int | None:
    """The chance *hand* (16 tiles at the chances) let go, unless a kong of the turn released
    it (*unrecorded*: the tile taken in that the record does not show)."""
    keys = _keys(hand)
    passed = next((q for t, q in st.chances(seat, current) if t < KINDS and t not in seat.revealed
                   and wins_with(keys, t)), None)
    if passed is None:
        return None
    held = list(hand)
    for _turn, added, x, taken in kongs:
        taken = unrecorded if taken is None else taken
        if taken is not None:
            held[taken] += 1
        if added:
            held[x] -= 1
            if held[x] < 0 or not wins_with(_keys(held), x):
                return None  # 「一張非胡之牌」 added: released
        else:
            held[x] -= 4
            if held[x] < 0:
                return None
    return passed


def _keys(counts) -> list[int]:
    keys = [0, 0, 0, 0]
    for t in range(KINDS):
        c = counts[t]
        if c:
            keys[SUIT_OF[t]] += c * UNIT_OF[t]
    return keys


def check_win(ref, st: TableState, ev: Event, dry: bool = False):
    """Check a ``win`` event; record the :class:`WinClaim` when it stands.

    With *dry*, only answer whether it would stand (True / False), changing nothing.
    """
    # 四槓流局 (play.abortive_four_kongs): the hand ended at the discard after the fourth
    # kong, but a win on that very discard still stands
    last_chance = st.abortive is not None and st.abortive == "four_kongs" and st.window is not None \
        and st.window.seq == st.end_seq and not st.window.closed and st.window.seat != ev.seat
    if dry and st.phase is not PLAY_PHASE and not last_chance:
        return False
    s = ev.seat
    seat = st.seats[s]
    if not dry:
        st.win_faces[ev.seq] = win_face(st, seat)  # the table as the win was declared (penalties.face)
    irr = ref._irr
    problems: list[Irregularity] = []
    if st.phase is FLOWERS_PHASE and s == st.dealer:
        problems += ref._start_play(st, ev)
    if st.phase is ENDED_PHASE and not last_chance:
        return False if dry else ref._reject(st, [irr(ev, "after_hand_end")])
    if st.phase is not PLAY_PHASE and not last_chance:
        return False if dry else _false(ref, st, ev, problems + [irr(ev, "win_out_of_turn")])
    w = st.window
    open_w = w is not None and not w.closed and w.seat != s
    window: Window | None = None
    if open_w and w.kind is FLOWER_WINDOW:
        window = w
    elif open_w and not (w.taken is not None and w.taken.seat == s):
        window = w
    if st.wins:
        # only more claims on the same tile (play.intercept, play.multiple_wins) or the
        # drawer's self-draw against a discard win (prio.2) may follow a win
        same = window is not None and all(c.window_seq == window.seq for c in st.wins)
        drawer_race = window is None and w is not None and w.taken is not None and w.taken.seat == s \
            and all(c.window_seq == w.seq for c in st.wins)
        prior_self = window is not None and window.taken is not None and all(
            c.window_seq is None and c.seat == window.taken.seat for c in st.wins)
        if not (same or drawer_race or prior_self):
            return False if dry else ref._reject(st, [irr(ev, "after_hand_end")])
    self_draw = window is None
    if self_draw and not (s == st.turn and st.intake is not NONE_INTAKE):
        return False if dry else _false(ref, st, ev, problems + [irr(ev, "win_out_of_turn")])
    if seat.dead_hand:
        problems.append(irr(ev, "dead_hand_act", clause="pen.dead-hand", kind="win", kind_zh="胡牌"))

    # ---- what the win is on
    flower_win = NONE_FLOWER_WIN
    discarder = None
    tile: int | None
    undo = None
    if window is not None:
        discarder = window.seat
        if window.kind is FLOWER_WINDOW:
            flower_win = SEVEN_ROB_ONE_FLOWER_WIN
            replaced = window.taken is not None and window.taken.seat == s
            if not st.rules.seven_rob_one or len(seat.flowers) != 7:
                return False if dry else _false(ref, st, ev, problems + [
                    irr(ev, "false_win", why="no seven flowers to rob with", why_zh="沒有七張花可搶")])
            if not replaced:
                return False if dry else _false(ref, st, ev, problems + [irr(ev, "flower_win_unreplaced")])
            tile = window.taken.tile
            source = FLOWER_REPLACEMENT_WIN_SOURCE
        else:
            tile = window.tile
            if window.kind is DISCARD_WINDOW:
                source = LAST_DISCARD_WIN_SOURCE if window.last else DISCARD_WIN_SOURCE
            else:
                source = ROBBING_KONG_WIN_SOURCE
            taken = window.taken
            if taken is not None:
                moved_on = ref._turn_moved_on(st, taken)
                if taken.intake is DRAW_INTAKE and moved_on:
                    problems.append(irr(ev, "lost_priority", clause="prio.7", kind="win", kind_zh="胡牌"))
                elif taken.intake is CHOW_INTAKE and moved_on:
                    problems.append(irr(ev, "lost_priority", clause="prio.6", kind="win", kind_zh="胡牌"))
                elif taken.intake is MELDED_KONG_INTAKE and taken.replaced:
                    problems.append(irr(ev, "lost_priority", clause="prio.5", kind="win", kind_zh="胡牌"))
                else:
                    undo = taken
            touch = window.touched.get(s)
            if touch is None and taken is not None and taken.intake is DRAW_INTAKE and taken.seat == s:
                touch = (taken.ts, taken.seq)  # the drawer's own draw of the wall reached for it
            if touch is not None:
                touch_seq = touch[1]
                problems.append(irr(ev, "passed_win", clause="play.passed-win", evidence=(ev.seq, touch_seq),
                                    reached_for_wall=True, prio="prio.8" if len(window.wins) else "prio.5"))
            if tile in seat.revealed:
                problems.append(irr(ev, "claim_revealed_tiles", revealed=tuple(sorted(seat.revealed))))
    else:
        tile = st.drawn
        source = SELF_DRAW_SOURCES[st.source]
        intake = st.intake
        if intake in (CHOW_INTAKE, PUNG_INTAKE):
            problems.append(irr(ev, "self_draw_not_from_draw", intake=intake.name.lower(), intake_zh=intake.zh))
        elif st.melded_kong_turn and not st.rules.melded_kong_replacement_self_draw:
            problems.append(irr(ev, "replacement_self_draw"))
        if st.owed > 0:
            problems.append(irr(ev, "flower_win_unreplaced" if st.owed_kinds and st.owed_kinds[0] is FLOWER_SOURCE
                                else "missing_replacement", clause="tai.27" if st.owed_kinds and
                                st.owed_kinds[0] is FLOWER_SOURCE else "app.kong"))
        if st.placed and intake is not DEALT_INTAKE:
            problems.append(irr(ev, "self_draw_after_placing"))

    # ---- the hand
    revealed = ev.tiles
    concealed: list[int] | None = None
    keys = None
    if seat.unknown == 0:
        concealed = list(seat.hand)
        keys = list(seat.keys)  # the referee keeps the hand's suit keys: no need to count them again
        if window is not None and window.kind is not FLOWER_WINDOW and tile is not None:
            concealed[tile] += 1
            keys[SUIT_OF[tile]] += UNIT_OF[tile]
        if revealed is not None and sorted(revealed) != [t for t in range(KINDS) for _ in range(concealed[t])]:
            problems.append(irr(ev, "false_win", why="the tiles shown are not the hand held",
                                why_zh="攤出的牌與手牌不符"))
    elif revealed is not None:
        if any(t >= FLOWER_BASE for t in revealed):
            return False if dry else _false(ref, st, ev, problems + [irr(ev, "flower_not_replaced", tile=next(
                t for t in revealed if t >= FLOWER_BASE))])
        shown = [0] * KINDS
        for t in revealed:
            shown[t] += 1
        extra = 1 if window is not None and window.kind is not FLOWER_WINDOW else 0
        base = list(seat.hand)
        if extra and tile is not None:
            base[tile] += 1
        consistent = all(shown[t] >= base[t] for t in range(KINDS)) and \
            len(revealed) == seat.n + seat.unknown + extra
        fifth = None
        if consistent:
            fifth = ref._unseen_copies(st, ev, [t for t in range(KINDS) for _ in range(shown[t] - base[t])])
        if fifth is not None:
            problems.append(fifth)
        elif not consistent:
            problems.append(irr(ev, "false_win", why="the tiles shown do not fit the tiles seen",
                                why_zh="攤出的牌與已知的牌不符"))
        else:
            concealed = shown
            if self_draw and tile is None:
                tile = revealed[-1]
    if concealed is not None:
        size = sum(concealed) + 3 * len(seat.melds)
        if keys is None:
            keys = _keys(concealed)
        complete = size == 17 and (is_complete(keys) or (st.rules.ligu and not seat.melds and _ligu(concealed)))
    else:
        size, keys, complete = None, None, None

    # ---- flower wins (tai.27–tai.30)
    n_flowers = len(seat.flowers)
    if flower_win is NONE_FLOWER_WIN and self_draw and st.source is FLOWER_SOURCE:
        if n_flowers == 8:
            flower_win = EIGHT_FLOWERS_FLOWER_WIN
        elif n_flowers == 7 and st.rules.seven_rob_one:
            holder = next((o.seat for o in st.seats if o.seat != s and len(o.flowers) == 1), None)
            if holder is not None:
                flower_win, discarder = SEVEN_ROB_ONE_DRAWN_FLOWER_WIN, holder
    if flower_win is not NONE_FLOWER_WIN:
        if not complete:
            source = FLOWER_WIN_WIN_SOURCE
            if flower_win is not SEVEN_ROB_ONE_FLOWER_WIN:
                tile = None
    elif complete is False:
        why, why_zh = (("17 tiles expected, " + str(size), f"應為 17 張，實為 {size} 張") if size != 17
                       else ("not five sets and a pair", "未成五組一對"))
        problems.append(irr(ev, "false_win", why=why, why_zh=why_zh))

    # ---- 過水 (play.passed-win)
    readiness = _READINESS[seat.ready]
    readiness_note = None
    passed_seq = seat.passed
    if passed_seq is None and concealed is not None and st.turn_kongs == 0 and tile is not None \
            and tile < KINDS and len(st.log) > seat.since:
        keys16 = list(keys)  # the hand without the winning tile
        keys16[SUIT_OF[tile]] -= UNIT_OF[tile]
        current = window.seq if window is not None else None
        passed_seq = next((q for t, q in st.chances(seat, current) if t < KINDS and t not in seat.revealed
                           and wins_with(keys16, t)), None)
    elif passed_seq is None and concealed is not None and st.turn_kongs and self_draw and tile is not None \
            and tile < KINDS and len(st.log) > seat.since:
        passed_seq = _passed_before_kongs(st, seat, concealed, tile, window)
    if passed_seq is not None and flower_win is NONE_FLOWER_WIN:
        if seat.ready in (HEAVENLY_READY, EARTHLY_READY):
            readiness, readiness_note = NONE_READINESS, "passed_win"
        else:
            problems.append(irr(ev, "passed_win", clause="play.passed-win", evidence=(ev.seq, passed_seq)))

    # play.restrict.5: drawn tile placed before a concealed kong, replacement wins, a wait discarded this go-around
    if self_draw and st.kong_this_turn and st.placed_before_kong and st.source is KONG_SOURCE and concealed:
        before = list(concealed)
        if tile is not None and before[tile]:
            before[tile] -= 1
            keys16 = _keys(before)
            hit = next(((t, q) for t, q in st.chances(seat) if t < KINDS and wins_with(keys16, t)), None)
            own = st.last_discard(seat)
            if hit is None and own is not None and own[0] < KINDS and wins_with(keys16, own[0]):
                hit = own
            if hit is not None:
                problems.append(irr(ev, "kong_draw_passed_tile", tile=hit[0], evidence=(ev.seq, hit[1])))

    # ---- first-turn wins (tai.33–tai.35), 配牌花胡 (tai.28)
    first_turn = NONE_FIRST_TURN
    dealer = st.dealer
    if self_draw and s == dealer and st.intake is DEALT_INTAKE and st.source is DEALT_SOURCE and seat.discards == 0:
        # tai.33: 莊家於配牌補花後即胡牌 — the dealt hand itself; a win on the replacement
        # of a kong made from it is 槓上開花, not 天胡
        first_turn = HEAVENLY_WIN_FIRST_TURN
        problems = [p for p in problems if p.code != "self_draw_after_placing"]  # tai.33: 不論靠張與否
    elif s != dealer and seat.discards == 0 and (
            (self_draw and seat.ready is HEAVENLY_READY and seat.drawn_count == 1)
            or (window is not None and window.kind is DISCARD_WINDOW and st.seats[window.seat].discards == 1)):
        first_turn = EARTHLY_WIN_FIRST_TURN
    elif seat.ready is EARTHLY_READY and seat.discards == seat.ready_discards and readiness is not NONE_READINESS:
        first_turn = HUMAN_WIN_FIRST_TURN
    # 配牌花胡 (tai.28): eight flowers dealt, or seven dealt and the eighth dealt to another
    dealt_flower_win = flower_win is not NONE_FLOWER_WIN and seat.discards == 0 and (
        seat.start_flowers == 8 or (seat.start_flowers == 7 and discarder is not None
                                    and st.seats[discarder].start_flowers >= 1))

    if dry:
        return not problems
    if problems:
        hand_goes_on = all(p.code in _HAND_GOES_ON for p in problems)
        if st.mode_digital or hand_goes_on:
            return ref._reject(st, problems) if st.mode_digital else ref._stands(problems)
        return False if dry else _false(ref, st, ev, problems)
    if undo is not None:
        ref._undo(st, window, undo, ev.seq)
    if concealed is not None and seat.unknown and revealed is not None:
        _adopt(seat, concealed, tile if window is not None and window.kind is not FLOWER_WINDOW else None)
    if window is not None:
        window.note_win((s, ev.seq, ev.ts))
    claim = WinClaim(
        seat=s, seq=ev.seq, ts=ref._call_ts(window, s, ev) if window is not None else ev.ts, source=source,
        tile=tile if tile is not None and tile < KINDS else None, discarder=discarder,
        window_seq=window.seq if window is not None else None,
        concealed=tuple(concealed) if concealed is not None and complete else None,
        flower_win=flower_win, dealt_flower_win=dealt_flower_win, readiness=readiness, first_turn=first_turn,
        readiness_note=readiness_note,
    )
    st.wins.append(claim)
    return ACCEPTED


def _adopt(seat: SeatState, concealed: list[int], window_tile: int | None) -> None:
    """A physical table showed the hand: the unknown tiles become known."""
    hand = list(concealed)
    if window_tile is not None:
        hand[window_tile] -= 1
    seat.hand = hand
    seat.keys = _keys(hand)
    seat.n = sum(hand)
    seat.unknown = 0
    seat.waits = None


def _ligu(counts: list[int]) -> bool:
    pungs = [t for t, c in enumerate(counts) if c == 3]
    return len(pungs) == 1 and all(c in (0, 2, 3, 4) for c in counts) and sum(c // 2 for c in counts if c != 3) == 7


def _false(ref, st: TableState, ev: Event, problems: list[Irregularity]) -> Verdict:
    """A win that cannot stand: refused at a digital table; at a physical one the hand was
    knocked down (詐胡, pen.false-win) and ends for penalties to rule on."""
    if st.mode_digital:
        return ref._reject(st, problems)
    st.ended_by = problems[0]
    st.phase = ENDED_PHASE
    st.end_seq = ev.seq
    return ref._stands(problems)

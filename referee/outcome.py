"""The end of a hand: who won and how much (scored and settled by :mod:`referee.scoring`),
or an exhaustive draw, or a void hand; and who deals next.

* several win declarations on one discard: the nearest after the discarder wins
  (攔胡 ``play.intercept``, ``app.priority``) unless the ruleset plays
  ``play.multiple_wins`` (一炮多響); a discard win against the next player's self-draw:
  whichever was declared first (``prio.2``);
* 荒局 (``play.exhausted``, ``app.exhausted``, ``app.exhausted.eight-stacks``): the wall is
  down to the dead wall (or the last tile was left, ``tai.25``) and nobody won: nobody
  pays, the dealer repeats;
* 連莊 / 下莊 (``seat.dealer``, ``app.dealer-continue``, ``tai.09``): the dealer repeats
  when he wins or the hand is exhausted (the streak grows by one); otherwise the seat
  after him deals, and when the deal comes back to the starting dealer's seat the round
  wind advances; after the North round the match is over;
* a hand ended by an irregularity (a false win at a physical table): by default the
  dealer passes if he was the offender, otherwise he keeps the deal without counting
  the streak (``pen.false-win.3``); :mod:`penalties` rules on the rest.
"""
from __future__ import annotations

import json as _json
import json.encoder as _json_encoder
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import MjrefError
from .hand import Hand
from .kinds import OutcomeKind
from .kinds_fast import (
    ENDED_BY_IRREGULARITY_OUTCOME, EXHAUSTIVE_DRAW_OUTCOME, FLOWER_WIN_WIN_SOURCE, NORTH_WIND, PLAY_PHASE, VOID_OUTCOME,
    WIN_OUTCOME,
)
from .restrictions import nearest_after
from .scoring import Stakes, WinContext, score, settle
from .tiles import Wind, format_counts, format_tiles, tile_name
from .verdicts import Irregularity, VerdictLog, irregularity, seat_by_wind
from .state import TableState, meld_text
from .win_context import win_context
from .winning import WinClaim

if TYPE_CHECKING:  # the referee imports this module
    from .machine import Referee

#: builds the Adjudication without its dataclass ``__init__`` (see ``adjudicate``)
_new = object.__new__


@dataclass(frozen=True, slots=True)
class NextHand:
    """Who deals the next hand, with what streak, in which round (``seat.dealer``)."""

    dealer: int
    streak: int
    round_wind: Wind
    first_dealer: int
    dealer_repeats: bool
    #: the hand counts toward the streak (連莊序); False after a void hand or pen.false-win.3
    streak_counted: bool
    #: the North round is over: the match (將) ends
    match_over: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "streak": self.streak, "round_wind": self.round_wind.name.lower(),
                "round_wind_zh": self.round_wind.zh, "first_dealer": self.first_dealer,
                "dealer_repeats": self.dealer_repeats, "streak_counted": self.streak_counted,
                "match_over": self.match_over}


def next_hand(dealer: int, streak: int, round_wind: Wind, first_dealer: int, *, repeats: bool,
              counted: bool = True, max_streak: int = 0) -> NextHand:
    """The next hand's dealer, streak and round wind (``seat.dealer``, ``app.dealer-continue``).

    *max_streak* is 連莊上限 (``seat.max_streak``, 0 = none): a dealer already at the cap
    passes the deal even on his win or a draw; a repeat that does not count toward the
    streak (``pen.false-win.3``) is not capped. The referee and a tournament's 將
    (:mod:`tournament.match`) both call this.

    >>> next_hand(3, 0, Wind.EAST, 0, repeats=False)  # doctest: +NORMALIZE_WHITESPACE
    NextHand(dealer=0, streak=0, round_wind=Wind.SOUTH, first_dealer=0, dealer_repeats=False,
             streak_counted=True, match_over=False)
    >>> next_hand(3, 2, Wind.EAST, 0, repeats=True, max_streak=2).dealer
    0
    """
    if repeats and counted and at_streak_cap(streak, max_streak):
        repeats = False  # 連莊上限 (seat.max_streak)
    if repeats:
        return NextHand(dealer, streak + 1 if counted else streak, round_wind, first_dealer, True, counted, False)
    following = (dealer + 1) % 4
    wind, over = round_wind, False
    if following == first_dealer:
        if round_wind is NORTH_WIND:
            over = True
        else:
            wind = Wind(round_wind + 1)  # once a round: not worth a table
    return NextHand(following, 0, wind, first_dealer, False, counted, over)


def at_streak_cap(streak: int, max_streak: int) -> bool:
    """The dealer has repeated as often as 連莊上限 allows (``seat.max_streak``, 0 = no cap):
    his win or a draw passes the deal instead of repeating it."""
    return 0 < max_streak <= streak


@dataclass(frozen=True, slots=True)
class WinResult:
    """One win: the claim, the scored context and hand, the score and the payments.

    ``score`` / ``settlement`` are ``None`` when the win could not be scored (a physical
    table never showed the hand); ``unscored`` says why.
    """

    claim: WinClaim
    context: WinContext | None = None
    hand: Hand | None = None
    score: Any = None
    settlement: Any = None
    unscored: str | None = None

    def to_dict(self) -> dict[str, Any]:
        c = self.claim
        out: dict[str, Any] = {
            "seat": c.seat, "seq": c.seq, "source": c.source.value, "source_zh": c.source.zh,
            "tile": tile_name(c.tile) if c.tile is not None else None,
            "tile_zh": tile_name(c.tile, "zh") if c.tile is not None else None,
            "discarder": c.discarder, "flower_win": c.flower_win.value, "readiness": c.readiness.value,
            "first_turn": c.first_turn.value,
        }
        if c.readiness_note:
            out["readiness_note"] = c.readiness_note
        if self.hand is not None:
            out["hand"] = str(self.hand)
        if self.score is not None:
            out["score"] = self.score.to_dict()
        if self.settlement is not None:
            out["settlement"] = self.settlement.to_dict()
        if self.unscored:
            out["unscored"] = self.unscored
        return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the hand ended, what was paid (per seat, summing to zero), who deals next."""

    kind: OutcomeKind
    clause: str
    next: NextHand
    wins: tuple[WinResult, ...] = ()
    payments: tuple[int, int, int, int] = (0, 0, 0, 0)
    seq: int | None = None
    detail_zh: str = ""
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "clause": self.clause, "seq": self.seq, "detail_zh": self.detail_zh,
                "detail": self.detail, "wins": [w.to_dict() for w in self.wins], "payments": list(self.payments),
                "next": self.next.to_dict()}


@dataclass(frozen=True)
class Adjudication:
    """The referee's answer for one hand: a verdict per event, every irregularity (with
    those found after their event), the outcome, and the final table."""

    table: str
    hand: int
    mode: str
    ruleset: str
    #: (seq, verdict) per event, in order (a :class:`referee.verdicts.VerdictLog`)
    verdicts: VerdictLog
    irregularities: tuple[Irregularity, ...]
    outcome: Outcome
    #: the table state at the end (not compared; see :attr:`final`)
    state: Any = field(default=None, repr=False, compare=False)

    @property
    def final(self) -> dict[str, Any]:
        """The table at the end: each seat's tiles, melds, flowers, pond; the wall's counts."""
        return final_table(self.state) if self.state is not None else {}

    @property
    def accepted(self) -> bool:
        """No irregularity at all."""
        return not self.irregularities

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table, "hand": self.hand, "mode": self.mode, "ruleset": self.ruleset,
            "outcome": self.outcome.to_dict(),
            "irregularities": [i.to_dict() for i in self.irregularities],
            "verdicts": [v.to_dict(seq) for seq, v in self.verdicts],
            "final": self.final,
        }


#: the ``__dict__`` of an :class:`Adjudication` (not slotted: it has a property and a default), set whole
_SET_ADJUDICATION = Adjudication.__dict__["__dict__"].__set__


# --- deciding the outcome -------------------------------------------------------------------


def resolve_wins(claims: list[WinClaim], multiple_wins: bool, limit: int = 3, *, east: int | None = None,
                 names: Any = None) -> tuple[list[WinClaim], list[Irregularity]]:
    """Which win claims win (``play.intercept``, ``play.multiple_wins``, ``prio.2``), and the
    irregularities of those who knocked down a hand after losing priority.

    With ``play.multiple_wins``, at most *limit* win on one discard
    (``play.multiple_wins_limit``): the nearest after the discarder, counterclockwise.
    """
    if not claims:
        return [], []
    if len(claims) == 1:  # the usual case: a single claim wins and nobody lost priority
        return [claims[0]], []
    lost: list[Irregularity] = []
    own = [c for c in claims if c.window_seq is None]
    on_tile = [c for c in claims if c.window_seq is not None]
    if own and on_tile:
        first = min(c.ts for c in on_tile)
        if first < own[0].ts:
            losers, claims = own, on_tile
        else:
            losers, claims = on_tile, own
        for c in losers:
            lost.append(irregularity("lost_priority", c.seq, c.seat, clause="prio.2", kind="win", kind_zh="胡牌",
                                     evidence=(c.seq,), east=east, names=names))
    if claims[0].window_seq is None:
        return [claims[0]], lost
    if multiple_wins:
        seen, winners = set(), []
        for c in claims:
            if c.seat not in seen:
                seen.add(c.seat)
                winners.append(c)
        if len(winners) > limit:
            discarder = winners[0].discarder
            nearest = sorted(winners, key=lambda c: (c.seat - discarder) % 4)[:limit]
            winners = [c for c in winners if c in nearest]
        return winners, lost
    discarder = claims[0].discarder
    nearest = nearest_after(discarder, [c.seat for c in claims])
    return [next(c for c in claims if c.seat == nearest)], lost


def adjudicate(ref: Referee) -> Adjudication:
    """Close the referee's hand: decide the outcome and build the :class:`Adjudication`."""
    st = ref.state
    setup = st.setup
    rules = st.rules
    winners, lost = resolve_wins(st.wins, rules.multiple_wins, rules.multiple_wins_limit, east=st.east,
                                 names=ref.names)
    for irr in lost:
        ref._found(irr)
    dealer, streak, wind, first = setup.dealer, setup.streak, setup.round_wind, setup.first_dealer
    # 連莊上限 (seat.max_streak): at the cap the dealer passes even on a win or a draw (next_hand)
    cap = rules.max_streak
    if winners:
        results = tuple([_score(st, c) for c in winners])
        repeats = False
        for c in winners:
            repeats = repeats or c.seat == dealer
        nxt = next_hand(dealer, streak, wind, first, repeats=repeats, max_streak=cap)
        names_zh, names = _winner_names(winners, st.east, ref.names)
        outcome = Outcome(WIN_OUTCOME, "play.win", nxt, results, _payments(results), winners[0].seq, f"{names_zh}胡牌",
                           f"won: {names}")
    elif st.ended_by is not None:
        ended = st.ended_by
        nxt = next_hand(dealer, streak, wind, first, repeats=ended.seat != dealer, counted=False)
        outcome = Outcome(ENDED_BY_IRREGULARITY_OUTCOME, ended.clause, nxt, (), _NO_PAYMENTS, ended.seq,
                           f"本盤因違規終止：{ended.detail_zh}", f"the hand ended on an irregularity: {ended.detail}")
    elif st.abortive is not None:
        # 四風連打, 四槓流局 (play.abortive_*): drawn, nobody pays, the dealer repeats (as 荒局)
        nxt = next_hand(dealer, streak, wind, first, repeats=True, max_streak=cap)
        zh, en = _ABORTIVE[st.abortive]
        outcome = Outcome(EXHAUSTIVE_DRAW_OUTCOME, "app.exhausted", nxt, (), _NO_PAYMENTS, st.end_seq,
                           f"流局：{zh}，不用付，莊家續莊", f"abortive draw: {en}; nobody pays, the dealer repeats")
    elif st.skipped_last or (st.phase >= PLAY_PHASE and st.wall.live == 0):
        nxt = next_hand(dealer, streak, wind, first, repeats=True, max_streak=cap)
        clause = "tai.25" if st.skipped_last else "play.exhausted"
        left = st.wall.remaining
        outcome = Outcome(EXHAUSTIVE_DRAW_OUTCOME, clause, nxt, (), _NO_PAYMENTS, st.end_seq,
                           f"荒局：牌牆只剩殘牌 {left} 張，無人胡牌，莊家續莊",
                           f"exhaustive draw: {left} dead-wall tiles left and no win; the dealer repeats")
    elif rules.unreplaced_ends_hand and st.phase >= PLAY_PHASE and any(s.held_flowers for s in st.seats):
        nxt = next_hand(dealer, streak, wind, first, repeats=True, max_streak=cap)
        outcome = Outcome(EXHAUSTIVE_DRAW_OUTCOME, "app.flowers.no-replace", nxt, (), _NO_PAYMENTS, st.end_seq,
                           "不補不打，這一手流局", "a flower was neither replaced nor discarded: the hand is drawn")
    else:
        nxt = next_hand(dealer, streak, wind, first, repeats=True, counted=False)
        outcome = Outcome(VOID_OUTCOME, "play.win", nxt, (), _NO_PAYMENTS, st.end_seq,
                           "此盤未完成（事件流於胡牌或荒局之前結束），重打此盤",
                           "the hand did not finish (the stream stopped before a win or the end of the wall): "
                           "replay it")
    # Adjudication(…), its __dict__ set whole (a frozen dataclass's __init__ sets each field
    # through object.__setattr__)
    adjudication = _new(Adjudication)
    _SET_ADJUDICATION(adjudication, {
        "table": st.table, "hand": st.hand_no, "mode": setup.mode._value_, "ruleset": rules.ruleset.profile,
        "verdicts": ref.verdicts.copy(), "irregularities": tuple(_completed(ref)), "outcome": outcome, "state": st,
    })
    return adjudication


def _winner_names(winners: list[WinClaim], east: int, names: Any = None) -> tuple[str, str]:
    """The winners as the outcome's details name them, by their winds this hand (and their
    players' *names*): ``"南家自摸"``, ``"South (seat 1) (wall)"``."""
    zh, en = [], []
    for c in winners:
        source = c.source
        who_zh, who = seat_by_wind(c.seat, east, names)
        zh.append(f"{who_zh}{source.zh}")
        en.append(f"{who} ({source._value_})")  # Enum.value is a Python-level property in 3.11
    return "、".join(zh), ", ".join(en)


def _payments(results: tuple[WinResult, ...]) -> tuple[int, int, int, int]:
    """What each seat wins or pays over the wins (one that could not be scored pays nothing)."""
    p0 = p1 = p2 = p3 = 0
    for r in results:
        if r.settlement is not None:
            a, b, c, d = r.settlement.payments
            p0 += a
            p1 += b
            p2 += c
            p3 += d
    return (p0, p1, p2, p3)


_NO_PAYMENTS = (0, 0, 0, 0)
#: abortive draws (play.abortive_four_winds, play.abortive_four_kongs)
_ABORTIVE = {"four_winds": ("四風連打", "four winds discarded in the first go-around"),
             "four_kongs": ("四槓流局", "four kongs by two or more players")}


def _completed(ref) -> list[Irregularity]:
    """Irregularities with the facts only the rest of the hand shows (how far a wrong kong got)."""
    out = list(ref.irregularities)
    for k in ref.state.wrong_kongs:
        out[k.index] = out[k.index].with_facts(**k.facts())
    return out


def _score(st: TableState, claim: WinClaim) -> WinResult:
    """Score and settle one win with :mod:`referee.scoring`."""
    setup = st.setup
    seat = st.seats[claim.seat]
    flower_win = claim.source is FLOWER_WIN_WIN_SOURCE
    try:
        ctx = win_context(st, claim)
    except MjrefError as exc:
        return WinResult(claim, unscored=f"context: {exc.message}")
    flowers = list(seat.flowers)
    if ctx.robbed_flower is not None and ctx.robbed_flower not in flowers:
        flowers.append(ctx.robbed_flower)
    hand = None
    if not flower_win:
        melds = seat.melds_for_scoring()
        if claim.concealed is None or melds is None:
            return WinResult(claim, ctx, unscored="the hand was not shown" if claim.concealed is None
                             else "a meld on the table does not form a set")
        try:
            hand = Hand._of_win(claim.concealed, melds, flowers)
        except MjrefError as exc:
            return WinResult(claim, ctx, unscored=f"hand: {exc.message}")
    try:
        result = score(hand, ctx, st.rules.ruleset, flowers=flowers)
        settlement = settle(result, table_stakes(setup.base, setup.per_tai))
    except MjrefError as exc:
        return WinResult(claim, ctx, hand, unscored=f"score: {exc.message}")
    return WinResult(claim, ctx, hand, result, settlement)


def table_stakes(base: int, per_tai: int) -> Stakes:
    """The table's :class:`Stakes`, checked once per pair of values (a table keeps its stakes
    hand after hand; a handful of pairs at most, for speed)."""
    if type(base) is not int or type(per_tai) is not int:  # let Stakes say what is wrong
        return Stakes(base, per_tai)
    stakes = _STAKES.get((base, per_tai))
    if stakes is None:
        if len(_STAKES) >= 64:
            _STAKES.clear()
        stakes = _STAKES[base, per_tai] = Stakes(base, per_tai)
    return stakes


_STAKES: dict[tuple[int, int], Stakes] = {}


def final_table(st) -> dict[str, Any]:
    """The table at the end: each seat's tiles, melds, flowers, pond; the wall's counts."""
    seats = []
    for s in st.seats:
        seats.append({  # the concealed tiles from their counts (format_counts: issue #17)
            "seat": s.seat, "tiles": format_counts(s.hand), "unknown": s.unknown,
            "melds": list(map(meld_text, s.melds)), "flowers": format_tiles(s.flowers, sort=False),
            "pond": format_tiles(s.pond, sort=False), "passed_win": s.passed is not None,
            "ready": s.ready.value if s.ready else None, "dead_hand": s.dead_hand,
        })
    w = st.wall
    return {"dealer": st.dealer, "east": st.east, "wall": {"drawn": w.front, "replacements": w.tail,
                                                             "kongs": w.kongs, "live": w.live,
                                                             "remaining": w.remaining},
            "seats": seats}


def final_table_text(st) -> str:
    """:func:`final_table` as compact JSON text — byte for byte ``json.dumps(final_table(st),
    ensure_ascii=False, separators=(",", ":"))`` — written from its values without making
    the dicts (issue #17: every ``flask replay`` answer writes it). The texts are quoted by
    json's own writer; the numbers are written by ``%d`` only when each is an ``int`` (not a
    bool, which json writes ``true``), and the flags by identity with ``True`` / ``False``;
    anything else is left to ``json.dumps`` of the dict. ``tests/test_batch.py`` holds the two
    equal on generated and irregular hands' final tables."""
    w = st.wall
    numbers = [st.dealer, st.east, w.front, w.tail, w.kongs, w.live, w.remaining]
    seats = []
    for s in st.seats:
        dead = s.dead_hand
        numbers.append(s.seat)
        numbers.append(s.unknown)
        seats.append(_SEAT_TEXT % (
            s.seat, _quoted(format_counts(s.hand)), s.unknown,
            ",".join(map(_quoted, map(meld_text, s.melds))),
            _quoted(format_tiles(s.flowers, sort=False)), _quoted(format_tiles(s.pond, sort=False)),
            "false" if s.passed is None else "true", "null" if s.ready is None else _quoted(s.ready.value),
            "true" if dead is True else "false" if dead is False else _dump(dead)))
    if not _INT_ONLY.issuperset(map(type, numbers)):
        return _dump(final_table(st))
    return _FINAL_TEXT % (st.dealer, st.east, w.front, w.tail, w.kongs, w.live, w.remaining, ",".join(seats))


#: the final table's text around its values (:func:`final_table_text`), in :func:`final_table`'s order
_FINAL_TEXT = ('{"dealer":%d,"east":%d,"wall":{"drawn":%d,"replacements":%d,"kongs":%d,"live":%d,'
               '"remaining":%d},"seats":[%s]}')
_SEAT_TEXT = ('{"seat":%d,"tiles":%s,"unknown":%d,"melds":[%s],"flowers":%s,"pond":%s,"passed_win":%s,'
              '"ready":%s,"dead_hand":%s}')
_INT_ONLY = frozenset({int})
#: a text as a JSON string (ensure_ascii off: json.dumps' own writer, in C)
_quoted = _json_encoder.encode_basestring
#: ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``
_dump = _json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

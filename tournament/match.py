"""One 將 (``match``): four 圈 of deals, the dealer repeating or passing on, the 圈風 marker.

``seat.dealer``, ``app.dealer-continue``, ``app.rounds``: the 將 starts with the first dealer
drawn by :func:`tournament.seating.draw_dealer` — the 起莊位 — in the East round (東風圈).
The dealer repeats (連莊, the streak growing by one) when he wins or the hand is an
exhaustive draw (荒局); a non-dealer win passes the deal to the dealer's 下家 (下莊). Each
time the deal comes back to the 起莊位 the next round begins and the 圈風 marker, fixed at
the 起莊位's left corner, turns one wind on; when it would turn past North the 將 is over.

The transition itself is :func:`referee.outcome.next_hand`, the referee's; this module
folds a 將's hand outcomes with it, under the ruleset's 連莊上限 (``seat.max_streak``,
:attr:`MatchState.max_streak`, :func:`max_streak_of`) as the referee applies it: a dealer
at the cap passes the deal even on his win or a draw. A :class:`HandOutcome` is the small input a tournament
needs (who dealt, who won); a penalty outcome (issue #5, e.g. ``pen.false-win.3``: a
non-dealer's false win keeps the dealer without counting the streak) sets
:attr:`HandOutcome.ruling` and the ruling decides instead of the winner.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.outcome import NextHand, next_hand
from referee.ruleset import DEFAULT_PROFILE, Ruleset
from referee.tiles import Wind

from .errors import MatchError, check_seat


@dataclass(frozen=True, slots=True)
class DealerRuling:
    """How a hand ended by an irregularity continues, as the penalty rules decide it
    (the hook for issue #5): does the dealer keep the deal, does the hand count toward
    his streak, and under which clause."""

    dealer_repeats: bool
    streak_counted: bool = True
    clause: str = ""


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What a 將 needs to know of a finished hand: the dealer's seat and the winner's,
    ``None`` for an exhaustive draw (荒局). ``winners`` lists every winner when the ruleset
    plays 一炮多響; a penalty outcome carries its :class:`DealerRuling`."""

    dealer: int
    winner: int | None = None
    winners: tuple[int, ...] = ()
    ruling: DealerRuling | None = None

    def __post_init__(self) -> None:
        check_seat(self.dealer, "dealer", MatchError)
        if self.winner is not None:
            check_seat(self.winner, "winner", MatchError)
        for k, w in enumerate(self.winners):
            check_seat(w, f"winners[{k}]", MatchError)
        if self.winner is not None and self.winners and self.winner not in self.winners:
            raise MatchError(f"winner {self.winner} is not among winners {list(self.winners)}", field="winner",
                             reason_zh=f"胡牌者 {self.winner} 號座不在 winners {list(self.winners)} 中")

    @property
    def seats_won(self) -> frozenset[int]:
        return frozenset(self.winners) | ({self.winner} if self.winner is not None else set())

    @property
    def dealer_repeats(self) -> bool:
        """連莊 on a dealer win or an exhaustive draw; 下莊 on any other win
        (``app.dealer-continue``: 胡牌或流局就連莊；閒家胡才下莊)."""
        if self.ruling is not None:
            return self.ruling.dealer_repeats
        won = self.seats_won
        return not won or self.dealer in won

    @property
    def streak_counted(self) -> bool:
        return True if self.ruling is None else self.ruling.streak_counted


@dataclass(frozen=True, slots=True)
class MatchState:
    """A 將 between hands: who deals the next hand with what streak (連莊 count), the
    round wind on the 圈風 marker, the 起莊位 it stays by, hands played, over or not;
    ``max_streak`` is the ruleset's 連莊上限 (``seat.max_streak``, 0 = none)."""

    first_dealer: int
    dealer: int
    streak: int = 0
    round_wind: Wind = Wind.EAST
    hands: int = 0
    over: bool = False
    max_streak: int = 0

    def __post_init__(self) -> None:
        check_seat(self.first_dealer, "first_dealer", MatchError)
        check_seat(self.dealer, "dealer", MatchError)
        object.__setattr__(self, "round_wind", Wind(self.round_wind))
        if type(self.streak) is not int or self.streak < 0:
            raise MatchError(f"streak must be a count ≥ 0, got {self.streak!r}", field="streak",
                             reason_zh=f"連莊數須為 0 以上的整數，收到 {self.streak!r}")
        if type(self.max_streak) is not int or self.max_streak < 0:
            raise MatchError(f"max_streak (seat.max_streak) must be a count ≥ 0, got {self.max_streak!r}",
                             field="max_streak",
                             reason_zh=f"連莊上限（seat.max_streak）須為 0 以上的整數，收到 {self.max_streak!r}")

    @property
    def marker(self) -> tuple[int, Wind]:
        """The 圈風 marker: the seat it stands by (the 起莊位) and the wind it shows."""
        return self.first_dealer, self.round_wind

    def advance(self, outcome: HandOutcome) -> MatchState:
        """The state after ``outcome`` (``seat.dealer``, ``app.dealer-continue``, ``app.rounds``).

        :raises MatchError: the 將 is over, or the outcome names another dealer.
        """
        if self.over:
            raise MatchError(f"the 將 is over after {self.hands} hands; no hand follows the North round",
                             field="outcome", reason_zh=f"本將已於第 {self.hands} 盤北風圈結束，不得再記錄")
        if outcome.dealer != self.dealer:
            raise MatchError(f"hand {self.hands + 1} is dealt by seat {self.dealer}, the outcome says {outcome.dealer}",
                             field="outcome.dealer",
                             reason_zh=f"第 {self.hands + 1} 盤莊家應為 {self.dealer} 號座，結果記為 "
                                       f"{outcome.dealer} 號座")
        return self.follow(next_hand(self.dealer, self.streak, self.round_wind, self.first_dealer,
                                     repeats=outcome.dealer_repeats, counted=outcome.streak_counted,
                                     max_streak=self.max_streak))

    def follow(self, nxt: NextHand) -> MatchState:
        """The state after a hand the referee already closed (its ``Outcome.next``)."""
        if self.over:
            raise MatchError("the 將 is over; no hand follows the North round", field="next",
                             reason_zh="本將已結束，不得再記錄")
        if nxt.first_dealer != self.first_dealer:
            raise MatchError(f"the referee's 起莊位 is seat {nxt.first_dealer}, this 將's is {self.first_dealer}",
                             field="next.first_dealer",
                             reason_zh=f"裁判的起莊位為 {nxt.first_dealer} 號座，本將為 {self.first_dealer} 號座")
        return MatchState(self.first_dealer, nxt.dealer, nxt.streak, nxt.round_wind, self.hands + 1, nxt.match_over,
                          self.max_streak)

    def describe(self) -> str:
        """``東風圈，莊家 2 號座，連 1``."""
        if self.over:
            return f"本將結束（共 {self.hands} 盤）"
        streak = f"，連 {self.streak}" if self.streak else ""
        return f"{self.round_wind.zh}風圈，莊家 {self.dealer} 號座{streak}"


def max_streak_of(ruleset: object = None) -> int:
    """連莊上限 (``seat.max_streak``, 0 = none) of a ruleset: a :class:`referee.ruleset.Ruleset`,
    a profile name (an event's ``ruleset``) or ``None`` (the default profile).

    :raises referee.errors.RulesetError: an unknown profile name.
    """
    if ruleset is None or isinstance(ruleset, str):
        ruleset = Ruleset.load(ruleset or DEFAULT_PROFILE)
    return int(ruleset["seat.max_streak"])


def event_max_streak(settings: object = None) -> int:
    """連莊上限 of an event: that of its settings' ruleset (an
    :class:`tournament.events.EventSettings`; ``None`` before the event is set up: the
    default profile's)."""
    return max_streak_of(getattr(settings, "ruleset", None))


def start_match(first_dealer: int, *, max_streak: int = 0) -> MatchState:
    """A new 將: the first dealer deals the first hand of the East round; the dealer's
    streak is capped at *max_streak* (``seat.max_streak``, 0 = none)."""
    return MatchState(first_dealer, first_dealer, max_streak=max_streak)


def play_match(first_dealer: int, outcomes: Iterable[HandOutcome], *, max_streak: int = 0) -> MatchState:
    """Fold a 將's outcomes from its start (連莊上限 *max_streak*, ``seat.max_streak``)."""
    state = start_match(first_dealer, max_streak=max_streak)
    for outcome in outcomes:
        state = state.advance(outcome)
    return state


__all__ = ["DealerRuling", "HandOutcome", "MatchState", "event_max_streak", "max_streak_of", "play_match",
           "start_match"]

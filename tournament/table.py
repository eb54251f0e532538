"""A table through a round's 將: 搬風, 定莊 and the hands, as a fold of the table's events.

A round at a table is one or more 將 (the event's ``matches_per_round``). Each 將 starts
with 搬風 (:class:`SeatsDrawn`) and 定莊 (:class:`DealerDrawn`), then its hands
(:class:`HandPlayed`) until the North round ends (:mod:`tournament.match`) or the round's
clock stops it (:class:`MatchStopped`). Within a 將 the seats do not change
(``app.seating``: 一將之內座位不變). The first 將 is drawn from the seats the schedule gave
(``seat.banfeng``: 首將四人暫任意入座) by any thrower; each later one from the seats of the
previous 將, thrown by the winner of its last hand (:func:`next_thrower`), redrawn while it
repeats the previous order.

:func:`replay_table` folds the events; :meth:`TablePlay.apply` takes one more. Both are
pure: the same events always give the same state.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from .errors import MatchError, SeatingError
from .match import HandOutcome, MatchState, start_match
from .seating import DealerDraw, SeatDraw, Seating, draw_seats


class TablePhase(Enum):
    """What the table does next."""

    SEAT_DRAW = "seat_draw"  # 搬風
    DEALER_DRAW = "dealer_draw"  # 定莊
    PLAYING = "playing"
    FINISHED = "finished"

    def __repr__(self) -> str:
        return f"TablePhase.{self.name}"


@dataclass(frozen=True, slots=True)
class SeatsDrawn:
    """搬風 for the next 將: the thrower's seat and every draw made, the last accepted."""

    thrower: int
    draws: tuple[SeatDraw, ...]


@dataclass(frozen=True, slots=True)
class DealerDrawn:
    """定莊: the East seat's throw."""

    draw: DealerDraw


@dataclass(frozen=True, slots=True)
class HandPlayed:
    """A finished hand."""

    outcome: HandOutcome


@dataclass(frozen=True, slots=True)
class MatchStopped:
    """The round's clock ended the 將 before its North round was over."""

    reason: str = "time"


TableEvent = SeatsDrawn | DealerDrawn | HandPlayed | MatchStopped


@dataclass(frozen=True, slots=True)
class TablePlay:
    """A table's state: the seats now (``players`` by seat; the schedule's before the first
    搬風), the 將 under way and its :class:`MatchState`, the last hand's dealer and winner,
    and what the table does next."""

    players: tuple[str, str, str, str]
    matches: int = 1
    match_no: int = 0
    seating: Seating | None = None
    match: MatchState | None = None
    last_dealer: int | None = None
    last_winner: int | None = None
    phase: TablePhase = TablePhase.SEAT_DRAW

    def apply(self, event: TableEvent) -> TablePlay:
        """The state after one more event.

        :raises SeatingError: a 搬風 or 定莊 against the rules (thrower, redraws).
        :raises MatchError: an event out of turn, or a hand the 將 does not allow.
        """
        if isinstance(event, SeatsDrawn):
            self._expect(TablePhase.SEAT_DRAW, "搬風")
            expected = next_thrower(self)
            if expected is not None and event.thrower != expected:
                raise SeatingError(
                    f"將 {self.match_no + 1} is drawn by seat {expected} (the last hand's winner), not seat "
                    f"{event.thrower}",
                    field="thrower",
                    reason_zh=f"第 {self.match_no + 1} 將應由前一將末盤胡牌者 {expected} 號座擲骰，不是 "
                              f"{event.thrower} 號座")
            result = draw_seats(self.players, thrower=event.thrower, previous=self.seating, draws=event.draws)
            return replace(self, players=result.seating.players, match_no=self.match_no + 1, seating=result.seating,
                           match=None, phase=TablePhase.DEALER_DRAW)
        if isinstance(event, DealerDrawn):
            self._expect(TablePhase.DEALER_DRAW, "定莊")
            if event.draw.thrower != self.seating.east:
                raise SeatingError(f"定莊 is thrown by the East seat {self.seating.east}, not seat "
                                   f"{event.draw.thrower}",
                                   field="draw.thrower",
                                   reason_zh=f"定莊應由東座位 {self.seating.east} 號座擲骰，不是 "
                                             f"{event.draw.thrower} 號座")
            return replace(self, match=start_match(event.draw.dealer), phase=TablePhase.PLAYING)
        if isinstance(event, HandPlayed):
            self._expect(TablePhase.PLAYING, "a hand")
            match = self.match.advance(event.outcome)
            won = event.outcome.seats_won
            winner = event.outcome.winner if event.outcome.winner is not None else (min(won) if won else None)
            played = replace(self, match=match, last_dealer=event.outcome.dealer, last_winner=winner)
            return played._match_over() if match.over else played
        if isinstance(event, MatchStopped):
            self._expect(TablePhase.PLAYING, "stopping the 將")
            return self._match_over()
        raise MatchError(f"not a table event: {event!r}", field="event", reason_zh=f"不是牌桌事件：{event!r}")

    def _match_over(self) -> TablePlay:
        done = self.match_no >= self.matches
        return replace(self, phase=TablePhase.FINISHED if done else TablePhase.SEAT_DRAW)

    def _expect(self, wanted: TablePhase, what: str) -> None:
        if self.phase is not wanted:
            raise MatchError(f"the table is at {self.phase.value}, not ready for {what}", field="event",
                             reason_zh=f"牌桌目前為 {self.phase.value} 階段，不能進行{what}")


def next_thrower(play: TablePlay) -> int | None:
    """Who throws the next 搬風: ``None`` (anyone) before the first 將; then the seat of the
    previous 將's last winner, or — when its last hand had no winner (stopped by the
    clock, or an exhaustive draw) — of its last dealer."""
    if play.match_no == 0:
        return None
    if play.last_winner is not None:
        return play.last_winner
    return play.last_dealer


def replay_table(players: Sequence[str], events: Iterable[TableEvent], *, matches: int = 1) -> TablePlay:
    """Fold a table's events from the schedule's seating."""
    if len(players) != 4:
        raise SeatingError(f"a table seats four players, got {list(players)!r}", field="players",
                           reason_zh=f"一桌須四位選手，收到 {list(players)!r}")
    play = TablePlay((players[0], players[1], players[2], players[3]), matches)
    for event in events:
        play = play.apply(event)
    return play


def generate_seat_draw(play: TablePlay, rng: random.Random, *, thrower: int | None = None) -> SeatsDrawn:
    """A generated 搬風 for the table's next 將 (thrower: the rule's, or ``thrower`` for the first)."""
    expected = next_thrower(play)
    who = expected if expected is not None else (thrower if thrower is not None else rng.randrange(4))
    result = draw_seats(play.players, thrower=who, previous=play.seating, rng=rng)
    return SeatsDrawn(who, result.attempts)


__all__ = [
    "DealerDrawn", "HandPlayed", "MatchStopped", "SeatsDrawn", "TableEvent", "TablePhase", "TablePlay",
    "generate_seat_draw", "next_thrower", "replay_table",
]

"""A player's record over an event (issue #15 item 4): points by round, every hand played,
wins, 自摸, 放槍, and the 台 won by pattern where the hand was entered by 台 items.

Pure: from the replayed :class:`tournament.events.EventState` and, for the hands entered by
台 items, each winner's items as settled (``(hand key, seat) → ((pattern code, 台), …)``: the
scorer's entry, :mod:`tournament.provenance`, settled by :func:`tournament.entry.settle_entry`).
The totals agree with :func:`tournament.standings.totals` (the test holds them to it): one
discard is one 放槍 however many win on it (一炮多響).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from tournament.entry import ScorerEntry
from tournament.events import EventState, HandKey


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand the player sat at: where, the seat, what they were paid (negative: paid out),
    and whether they won (on a discard or 自摸) or dealt in."""

    key: HandKey
    seat: int
    payment: int
    won: bool = False
    self_draw: bool = False
    dealt_in: bool = False
    tai: int = 0


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player_id: str
    name: str
    substitute: bool
    #: round → points (every round the player has a hand in)
    by_round: tuple[tuple[int, int], ...]
    hands: tuple[PlayedHand, ...]
    #: (pattern code, hands won with it, 台 from it), most used first, over the hands entered by items
    patterns: tuple[tuple[str, int, int], ...]

    @property
    def points(self) -> int:
        return sum(h.payment for h in self.hands)

    @property
    def wins(self) -> int:
        return sum(h.won for h in self.hands)

    @property
    def self_draws(self) -> int:
        return sum(h.self_draw for h in self.hands)

    @property
    def deal_ins(self) -> int:
        return sum(h.dealt_in for h in self.hands)

    @property
    def tai(self) -> int:
        return sum(h.tai for h in self.hands)


def won_items(entry: ScorerEntry, parts) -> dict[int, tuple[tuple[str, int], ...]]:
    """Each winner's settled items of an entry: ``parts`` are :func:`~tournament.entry.settle_entry`'s
    (its ``parts`` under 一炮多響 — the main winner first, then ``also`` in order — else itself)."""
    winners = ([entry.winner] if entry.winner is not None else []) + [a.winner for a in entry.also]
    return {seat: tuple(part.item_tai) for seat, part in zip(winners, parts)}


def player_record(state: EventState, player_id: str,
                  items: Mapping[tuple[HandKey, int], tuple[tuple[str, int], ...]] | None = None,
                  ) -> PlayerRecord | None:
    """The player's record, or ``None`` for an id not registered. ``items``: the settled 台
    items of each (hand, winning seat) entered by items (the others count as wins without patterns)."""
    items = items or {}
    player = state.player(player_id)
    if player is None:
        return None
    hands: list[PlayedHand] = []
    rounds: Counter[int] = Counter()
    times: Counter[str] = Counter()
    tai_by: Counter[str] = Counter()
    for key, seats, result in state.hand_rows():
        if player_id not in seats:
            continue
        seat = seats.index(player_id)
        win = next((w for w in result.wins if w.seat == seat), None)
        hands.append(PlayedHand(key, seat, result.payments[seat], won=win is not None,
                                self_draw=bool(win is not None and win.self_draw),
                                dealt_in=any(w.deal_in == seat for w in result.wins), tai=win.tai if win else 0))
        rounds[key[0]] += result.payments[seat]
        if win is not None:
            for code, tai in items.get((key, seat), ()):
                times[code] += 1
                tai_by[code] += tai
    patterns = tuple(sorted(((code, n, tai_by[code]) for code, n in times.items()), key=lambda x: (-x[1], x[0])))
    return PlayerRecord(player.player_id, player.name, player.substitute, tuple(sorted(rounds.items())),
                        tuple(hands), patterns)


__all__ = ["PlayedHand", "PlayerRecord", "player_record", "won_items"]

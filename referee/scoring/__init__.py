"""Scoring (台數) and settlement of a win, per ruleset.

    >>> from referee.hand import Hand
    >>> from referee.ruleset import Ruleset
    >>> from referee.tiles import Wind
    >>> hand = Hand.parse("123m456m789p234s55s SSS")
    >>> ctx = WinContext(winner=1, dealer=0, round_wind=Wind.EAST, source=WinSource.WALL, winning_tile=28, streak=1)
    >>> result = score(hand, ctx, Ruleset.load("app"))
    >>> result.tai, result.dealer_tai
    (4, 3)
    >>> settle(result, Stakes(100, 20)).payments
    (-240, 600, -180, -180)

Modules: :mod:`.context` (the inputs), :mod:`.patterns` (one function per pattern),
:mod:`.table` (per-ruleset tables, exclusions as data), :mod:`.scorer` (best
reading), :mod:`.settlement` (payments), :mod:`.io` (JSON in and out).
"""
from .context import ContextError, FirstTurn, FlowerWin, NotWinningError, Readiness, Stakes, WinContext, WinSource
from .scorer import Score, score
from .settlement import Settlement, Transfer, settle, settle_draw

__all__ = [
    "ContextError", "FirstTurn", "FlowerWin", "NotWinningError", "Readiness", "Score", "Settlement", "Stakes",
    "Transfer", "WinContext", "WinSource", "score", "settle", "settle_draw",
]

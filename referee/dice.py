"""Counting dice around the table (``seat.dice.*``, ``seat.banfeng``, ``seat.dealer``, ``deal.wall``).

Three dice are thrown; their total is counted counterclockwise starting with the
thrower as 1. So 5, 9, 13, 17 point at the thrower (``seat.dice.self``), 6, 10, 14,
18 at the next seat, 下家 (``seat.dice.next``), 3, 7, 11, 15 across (``seat.dice.across``)
and 4, 8, 12, 16 at the previous seat, 上家 (``seat.dice.prev``).

Seats are 0–3 counterclockwise: 下家 of seat ``s`` is ``(s + 1) % 4``.
"""
from __future__ import annotations

from collections.abc import Sequence

from .errors import MjrefError


class DiceError(MjrefError, ValueError):
    """Dice that cannot have been thrown: not three, or a face outside 1–6."""

    code = "invalid_dice"


def check_dice(dice: Sequence[int], *, field: str = "dice") -> int:
    """Validate three dice and return their total (3–18).

    :raises DiceError: for anything but three ints 1–6.
    """
    if len(dice) != 3 or any(type(d) is not int or not 1 <= d <= 6 for d in dice):
        raise DiceError(
            f"three dice of 1–6 expected, got {list(dice)!r}", field=field,
            reason_zh=f"須為三顆 1–6 點的骰子，收到 {list(dice)!r}",
        )
    return sum(dice)


def counted_seat(thrower: int, total: int) -> int:
    """The seat a dice total points at, counting counterclockwise from the thrower as 1.

    >>> counted_seat(0, 5), counted_seat(0, 6), counted_seat(0, 3), counted_seat(0, 4)
    (0, 1, 2, 3)
    """
    return (thrower + total - 1) % 4


#: relative position pointed at by a total: 0 self, 1 下家, 2 對家, 3 上家 (seat.dice.*)
RELATIVE_ZH = ("自己", "下家", "對家", "上家")

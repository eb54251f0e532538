"""The words an official reads out (issue #13 item 4): seats by the hand's winds.

A seat's wind in a hand (門風, GLOSSARY ``seat_wind``) counts from the seat where the wall
was opened (開門位 = 東, ``deal.break``; the referee's ``east``), in turn order: the seat
after 東 is 南, then 西, 北.

    >>> seat_zh(2, east=1), seat_en(2, east=1)
    ('南家', 'South (seat 2)')
"""
from __future__ import annotations

from typing import Any

from .errors import AdjudicationError

WINDS_ZH = ("東", "南", "西", "北")
WINDS_EN = ("East", "South", "West", "North")


def seat_wind(seat: int, east: int) -> int:
    """0–3: the seat's wind this hand (0 東 … 3 北)."""
    return (seat - east) % 4


def seat_zh(seat: int, east: int) -> str:
    """「東家」「南家」…: how the table names *seat* this hand."""
    return f"{WINDS_ZH[seat_wind(seat, east)]}家"


def seat_en(seat: int, east: int) -> str:
    return f"{WINDS_EN[seat_wind(seat, east)]} (seat {seat})"


#: longest player's name (as the console's names form, ``web/console.py``)
MAX_NAME = 40


def read_names(value: Any, field: str = "names") -> tuple[str | None, str | None, str | None, str | None] | None:
    """The players by seat as a request or the command line gives them: four strings (seat
    0 first; ``""`` or ``null`` for a seat whose player is not known), or None for none.

    :raises AdjudicationError: not a list of four, a name that is not a string, is longer
        than :data:`MAX_NAME` or holds a control character; the field names the seat
        (``names[2]``).
    """
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) != 4:
        raise AdjudicationError(f"{field} is a list of the 4 seats' names (seat 0 first), got {value!r}",
                                field=field, reason_zh=f"{field} 須為 4 個座位的名字（0 號座起）")
    out = []
    for seat, name in enumerate(value):
        at = f"{field}[{seat}]"
        if name is None:
            out.append(None)
            continue
        if not isinstance(name, str):
            raise AdjudicationError(f"{at} is a name (a string, or null), got {name!r}", field=at,
                                    reason_zh=f"{at} 須為名字（字串或 null）")
        name = name.strip()
        if len(name) > MAX_NAME:
            raise AdjudicationError(f"{at} is at most {MAX_NAME} characters, got {len(name)}", field=at,
                                    reason_zh=f"{at} 最多 {MAX_NAME} 字，收到 {len(name)} 字")
        if any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in name):
            raise AdjudicationError(f"{at} holds a control character: {name!r}", field=at,
                                    reason_zh=f"{at} 含有控制字元")
        out.append(name or None)
    return None if not any(out) else (out[0], out[1], out[2], out[3])


__all__ = ["MAX_NAME", "WINDS_EN", "WINDS_ZH", "read_names", "seat_en", "seat_wind", "seat_zh"]

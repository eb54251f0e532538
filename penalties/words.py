"""The words an official reads out (issue #13 item 4): seats by the hand's winds.

A seat's wind in a hand (門風, GLOSSARY ``seat_wind``) counts from the seat where the wall
was opened (開門位 = 東, ``deal.break``; the referee's ``east``), in turn order: the seat
after 東 is 南, then 西, 北.

    >>> seat_zh(2, east=1), seat_en(2, east=1)
    ('南家', 'South (seat 2)')
"""
from __future__ import annotations

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


__all__ = ["WINDS_EN", "WINDS_ZH", "seat_en", "seat_wind", "seat_zh"]

"""Printable text for the tables: a table card per table and round, a score sheet per 將.

Plain zh-TW text (English in brackets where a scorer may need it), one page each; the
service renders them as it likes.
"""
from __future__ import annotations

from collections.abc import Mapping

from referee.tiles import Wind

from .schedule import TablePlan


def _name(player: str | None, names: Mapping[str, str]) -> str:
    if player is None:
        return "（替補 substitute）"
    name = names.get(player, "")
    return f"{name}（{player}）" if name and name != player else player


def table_card(event: str, round_no: int, plan: TablePlan, names: Mapping[str, str]) -> str:
    """The card on a table: event, round, table, and who sits in each wind."""
    lines = [event, f"第 {round_no} 輪　第 {plan.table} 桌 (round {round_no}, table {plan.table})", ""]
    lines += [f"{w.zh}　{_name(p, names)}" for w, p in zip(Wind, plan.seats)]
    lines += ["", "入座後搬風定莊 (seat.banfeng, seat.dealer)"]
    return "\n".join(lines) + "\n"


def score_sheet(event: str, round_no: int, plan: TablePlan, match: int, names: Mapping[str, str],
                hands: int = 16) -> str:
    """A blank score sheet for one 將: a row per hand, a column per player, totals."""
    players = [_name(p, names) for p in plan.seats]
    head = ["盤 Hand", "莊 Dealer", "胡 Winner", "放槍 Deal-in", "台 Tai", *players]
    lines = [f"{event}　第 {round_no} 輪　第 {plan.table} 桌　第 {match} 將 (score sheet)", "", " | ".join(head),
             " | ".join("---" for _ in head)]
    lines += [" | ".join([str(h)] + [""] * (len(head) - 1)) for h in range(1, hands + 1)]
    lines += [" | ".join(["合計 Total", "", "", "", ""] + [""] * 4), "", "四家合計須為 0 (the four totals sum to 0)"]
    return "\n".join(lines) + "\n"


__all__ = ["score_sheet", "table_card"]

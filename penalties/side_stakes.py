"""插花 side stakes (``bet.chahua``), where recorded, and how they follow the money.

* **外插** (outside): a bystander rides on a principal seat against the other three, with a
  stake of 底台 (``base`` + ``per_tai`` per 台) or a fixed amount (``per_tai`` 0).
* **內插** (inside): a player raises his own base by ``units`` 底 against the other three
  (1 插, 2 飄, 3+ 飛).

A stake follows every settlement-like transfer of its principal: a win (and its 代位賠付)
and a 包賠. When the principal receives ``T`` 台 from a payer, that payer also pays each
outside backer ``base + T × per_tai``; when the principal pays, each backer pays too
(``pen.false-win.2``: 詐胡者另應就插花注賠付插花者；如插花之主家詐胡，插花者應就插花注分別賠付三家;
``pen.pay-all``: 賠付三家與外插者). An inside stake adds ``units × base`` to each transfer
of its principal. Fines of 台 (喊碰未碰, 眼牌) carry no stake.

A backer who influenced play (``bet.chahua``: 外插者不得以聲音.動作.表情.眼神影響行牌，否則該次贏無效輸照付)
loses what he would win this hand and still pays what he loses.

Recorded as an argument to :func:`penalties.rule`, or by an official's ``report`` event
(``code`` ``side_stake``, ``seat`` the principal, ``note`` ``outside NAME BASE/PER_TAI``,
``outside NAME AMOUNT`` or ``inside UNITS``; ``外插``/``內插`` also read).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from referee.scoring.context import Stakes

from .errors import SideStakeError
from .rulings import Payment

#: payment kinds a side stake follows
FOLLOWED = frozenset({"win", "substitute", "pay_all"})


@dataclass(frozen=True, slots=True)
class SideStake:
    """One side stake.

    :param principal: the seat it rides on (主家).
    :param kind: ``"outside"`` (外插) or ``"inside"`` (內插).
    :param backer: the outside backer's name (a party of the payments); for an inside
        stake, empty (the principal himself).
    :param base: / :param per_tai: an outside stake: per transfer, ``base + 台 × per_tai``.
    :param units: an inside stake: extra 底 (1 插, 2 飄, 3+ 飛).
    """

    principal: int
    kind: str = "outside"
    backer: str = ""
    base: int = 0
    per_tai: int = 0
    units: int = 0

    def __post_init__(self) -> None:
        if type(self.principal) is not int or not 0 <= self.principal < 4:
            raise SideStakeError(f"a side stake rides on a seat 0–3, got {self.principal!r}",
                                 field="side_stakes.principal",
                                 reason_zh="插花須依附座位 0–3")
        if self.kind not in ("outside", "inside"):
            raise SideStakeError(f"a side stake is outside or inside, got {self.kind!r}", field="side_stakes.kind",
                                 reason_zh="插花分外插與內插")
        for name in ("base", "per_tai", "units"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise SideStakeError(f"{name} must be a whole number ≥ 0, got {value!r}", field=f"side_stakes.{name}",
                                     reason_zh=f"{name} 須為 0 以上的整數")
        if self.kind == "outside":
            if not self.backer.strip():
                raise SideStakeError("an outside stake names its backer", field="side_stakes.backer",
                                     reason_zh="外插須寫出外插者")
            if self.backer.strip().isdigit():
                raise SideStakeError("a backer's name is not a number (seats are numbers)", field="side_stakes.backer",
                                     reason_zh="外插者名字不可為數字")
            if self.units:
                raise SideStakeError("units are for inside stakes", field="side_stakes.units",
                                     reason_zh="底數只用於內插")
        else:
            if self.backer or self.base or self.per_tai:
                raise SideStakeError("an inside stake has only units", field="side_stakes", reason_zh="內插只寫底數")
            if self.units < 1:
                raise SideStakeError("an inside stake is at least 1 底 (插)", field="side_stakes.units",
                                     reason_zh="內插至少 1 底")

    @property
    def party(self) -> str | int:
        return self.backer if self.kind == "outside" else self.principal


_NOTE = re.compile(r"\s*(outside|外插)\s+(\S+)\s+(\d+)(?:\s*/\s*(\d+))?\s*\Z|\s*(inside|內插|内插)\s+(\d+)\s*\Z")


def parse_note(principal: int, note: str | None) -> SideStake:
    """A side stake from a ``report`` note (see the module docstring).

    :raises SideStakeError: naming the note when it does not read.
    """
    m = _NOTE.match(note or "")
    if m is None:
        raise SideStakeError(f"a side-stake note reads 'outside NAME BASE/PER_TAI', 'outside NAME AMOUNT' or 'inside "
                             f"UNITS', got {note!r}",
                             field="note", reason_zh=f"插花註記須寫成「外插 名字 底/台」「外插 名字 金額」"
                                                     f"或「內插 底數」，收到 {note!r}")
    if m.group(1):
        return SideStake(principal, "outside", m.group(2), int(m.group(3)), int(m.group(4) or 0))
    return SideStake(principal, "inside", units=int(m.group(6)))


def follow(transfers: Iterable[Payment], stakes_list: Iterable[SideStake], stakes: Stakes,
           void_backers: Iterable[str] = ()) -> tuple[Payment, ...]:
    """The side-stake payments that follow *transfers* (see the module docstring)."""
    void = set(void_backers)
    listed = tuple(stakes_list)
    out: list[Payment] = []
    for t in transfers:
        if t.kind not in FOLLOWED or not isinstance(t.payer, int) or not isinstance(t.payee, int):
            continue
        for s in listed:
            if s.kind == "inside":
                if s.principal in (t.payer, t.payee) and s.units:
                    amount = s.units * stakes.base
                    out.append(Payment(t.payer, t.payee, amount, base=amount, tai=0, kind="side_stake"))
                continue
            amount = s.base + t.tai * s.per_tai
            if amount == 0:
                continue
            if s.principal == t.payee and s.backer not in void:
                out.append(Payment(t.payer, s.backer, amount, base=s.base, tai=t.tai if s.per_tai else 0,
                                   kind="side_stake"))
            elif s.principal == t.payer:
                out.append(Payment(s.backer, t.payee, amount, base=s.base, tai=t.tai if s.per_tai else 0,
                                   kind="side_stake"))
    return tuple(out)


__all__ = ["FOLLOWED", "SideStake", "follow", "parse_note"]

"""包賠 (``pen.pay-all``): the offender pays the three others the base plus the face value, and
the outside side-stakers.

「發生詐胡、相公二度違規、眼牌二度違規、末八張內錯暗槓荒局、弄亂牌牆或他人手牌致無法恢復等情況，
應依底注加牌面台數賠付三家與外插者，是謂包賠。」

* the arithmetic: :func:`penalties.payments.pay_all` (the dealer's 台 with the dealer, as in
  any settlement: 莊連拉照算);
* the face value: :func:`penalties.face.face_value`;
* the outside side-stakers: :func:`penalties.side_stakes.follow` (a 包賠 is followed like a win);
* who pays for all: :mod:`penalties.false_win` (詐胡, ``prio.penalty.1``),
  :mod:`penalties.dead_hand` (相公二度違規), :mod:`penalties.peek` (眼牌二度違規, a passed
  win found after a walking eye's win), :mod:`penalties.wrong_kong` (the last eight tiles),
  and an official's ``wall_disturbed`` report (弄亂牌牆或他人手牌致無法恢復).

Every 包賠 ends the hand: the three others are paid as if each had won (R-pen-2), and the
dealer passes if he paid, otherwise keeps the deal without counting the streak (R-pen-3).
"""
from __future__ import annotations

from .face import face_value
from .payments import pay_all
from .side_stakes import follow

__all__ = ["face_value", "follow", "pay_all"]

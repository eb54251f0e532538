"""Hands typed in as payments and wins: checked against their 台, the stakes and the 將.

An official may type a hand's result instead of its 台 items (``POST …/hands``). What is typed
must still be a hand the rules could pay (issue #15): each win's 台 settled by the referee's
own :func:`referee.scoring.settle` under the event's stakes (``settle.formula``: 底 + 台 × 每台,
the dealer's 作莊 and 連N拉N between the dealer and each counterpart, ``tai.09``, ``tai.10``)
must give exactly the typed payments; several wins on one discard only where the ruleset plays
一炮多響 (``play.multiple_wins``); no hand after the 將's North round (``app.rounds``). A
self-draw may carry 七搶一 →2's extra 台 from the robbed seat alone (``tai.30.2``, R-tour-17).

Who deals, and his streak, come from the 將 when its 定莊 is recorded (``seat.dealer``), else
from the previous hand's scorer entry (:func:`next_deal`); when neither is known, the payments
must agree with *some* dealer seat and streak (the 莊's extra 台 is visible in the money).

A house arrangement that pays otherwise is entered explicitly, with its reason, and audited
(``house_arrangement``); nothing else skips these checks. Readings: docs/rulings.md R-tour-25.
"""
from __future__ import annotations

from collections.abc import Sequence

from referee.outcome import at_streak_cap
from referee.scoring import Stakes, settle
from referee.scoring.scorer import Score
from referee.scoring.table import ScoringTable

from .entry import deal_after
from .errors import ResultError
from .events import EventState
from .match import HandOutcome, MatchState, event_max_streak
from .provenance import Provenance
from .results import HandResult, Win

#: the longest dealer's streak tried when the dealer and streak are not known (連莊 beyond it is
#: not a typed hand's business: enter it by items, or with the 定莊 recorded)
MAX_STREAK = 30


class _Deal:
    """The seats and streak a settlement reads (``Score.ctx``)."""

    __slots__ = ("winner", "dealer", "discarder", "streak", "streak_marker")

    def __init__(self, winner: int, dealer: int, discarder: int | None, streak: int):
        self.winner, self.dealer, self.discarder, self.streak = winner, dealer, discarder, streak
        self.streak_marker = None


def win_payments(win: Win, dealer: int, streak: int, table: ScoringTable, stakes: Stakes,
                 robbed: int | None = None) -> tuple[int, ...]:
    """What one win pays by seat, dealt by ``dealer`` with ``streak`` (``settle.formula``);
    ``robbed``: on a self-draw, the seat robbed by 七搶一 →2, who adds its 台 alone (``tai.30.2``)."""
    involved = win.deal_in is None or dealer in (win.seat, win.deal_in)  # tai.09 胡放皆加計
    dealer_tai = table.dealer_unit + table.streak_unit * streak if involved else 0
    robbed_tai = table.tai[table.seven_rob_one_idx] if robbed is not None else 0
    score = Score(win.tai, win.tai, dealer_tai, robbed_tai, [], involved, 0, (), None, False,
                  _Deal(win.seat, dealer, win.deal_in if robbed is None else robbed, streak), None, table, ())
    return settle(score, stakes).payments


def expected_payments(wins: Sequence[Win], dealer: int, streak: int, table: ScoringTable,
                      stakes: Stakes) -> tuple[int, int, int, int]:
    """The payments of ``wins`` (several: one discard, each settled on its own) by seat."""
    total = [0, 0, 0, 0]
    for win in wins:
        for seat, amount in enumerate(win_payments(win, dealer, streak, table, stakes)):
            total[seat] += amount
    return total[0], total[1], total[2], total[3]


def next_deal(dealer: int, streak: int, result: HandResult, *, max_streak: int = 0) -> tuple[int, int]:
    """The next hand's dealer and streak after a hand dealt by ``dealer`` with ``streak``:
    連莊 on his win or a 荒局, else 下莊 to the next seat (``app.dealer-continue``); a dealer at
    連莊上限 *max_streak* passes on (``seat.max_streak``, :func:`referee.outcome.at_streak_cap`).

    :raises ResultError: a hand ruled by a penalty (its result does not say whether the dealer repeats).
    """
    if result.penalty is not None:
        raise ResultError("after a penalty ruling the next dealer is not known from the result", field="dealer",
                          reason_zh="罰則判定的一盤，無法由結果得知下一盤莊家")
    outcome = HandOutcome(dealer, winners=tuple(w.seat for w in result.wins))
    repeats = outcome.dealer_repeats and not at_streak_cap(streak, max_streak)
    return (dealer, streak + 1) if repeats else ((dealer + 1) % 4, 0)


def deal_of(state: EventState, provenance: Provenance,
            key: Sequence[int]) -> MatchState | tuple[int, int] | None:
    """Who deals hand ``key`` (round, table, 將, hand) with what streak, as far as the log says:
    the 將's :class:`MatchState` from its 定莊 and earlier hands (``seat.dealer``), else the
    ``(dealer, streak)`` the previous hand's scorer entry gives (連莊 / 下莊, R-tour-26), else
    ``None`` (also after a hand ruled by a penalty)."""
    key = tuple(key)
    earlier = sorted((h for h in state.hands if h.key[:3] == key[:3] and h.key[3] < key[3]), key=lambda h: h.key)
    first = provenance.dealer_of(*key[:3])
    cap = event_max_streak(state.settings)
    if first is not None:
        return deal_after(first, [h.result for h in earlier], max_streak=cap)
    if not earlier or earlier[-1].key[3] != key[3] - 1:
        return None
    previous = earlier[-1]
    entered = provenance.entry_with(previous.seq, previous.key)
    if entered is None or previous.result.penalty is not None:
        return None
    return next_deal(entered.entry.dealer, entered.entry.streak, previous.result, max_streak=cap)


def check_typed(result: HandResult, table: ScoringTable, stakes: Stakes, *, multiple_wins: bool,
                deal: tuple[int, int] | MatchState | None = None, max_winners: int = 3) -> None:
    """A typed hand the rules could pay (see the module docstring); a penalty ruling's
    payments are the penalty's and are not checked here.

    ``deal``: the dealer's seat and streak when known (a :class:`MatchState` from the 將's 定莊,
    or a pair from the previous hand's entry); ``max_winners``: with 一炮多響, how many may win
    on one discard (``play.multiple_wins_limit``: ``two`` → 2).

    :raises ResultError: naming ``key`` (the 將 is over), ``wins`` (several wins where the
        ruleset plays none) or ``payments`` (they disagree with the 台 and the stakes).
    """
    if isinstance(deal, MatchState):
        if deal.over:
            raise ResultError(f"the 將 ended with the North round after {deal.hands} hands (app.rounds)", field="key",
                              reason_zh=f"本將已於第 {deal.hands} 盤北風圈結束，不得再記錄（app.rounds）")
        deal = (deal.dealer, deal.streak)
    if result.penalty is not None or not result.wins:
        return  # a 荒局 pays nothing (HandResult's own check); a penalty pays by its ruling
    if len(result.wins) > 1 and not multiple_wins:
        raise ResultError(f"{len(result.wins)} winners on one discard, but this ruleset plays no 一炮多響 "
                          "(play.multiple_wins): the nearest player in turn wins (prio.2)", field="wins",
                          reason_zh=f"一張捨牌記了 {len(result.wins)} 家胡牌，但此規則組不採一炮多響"
                                    "（play.multiple_wins）：由順位最近者胡（prio.2）")
    if len(result.wins) > max_winners:
        raise ResultError(f"{len(result.wins)} winners on one discard, but this ruleset lets at most {max_winners} "
                          "win (play.multiple_wins_limit)", field="wins",
                          reason_zh=f"一張捨牌記了 {len(result.wins)} 家胡牌，此規則組最多 {max_winners} 家"
                                    "（play.multiple_wins_limit）")
    candidates = [deal] if deal is not None else [(d, n) for n in range(MAX_STREAK + 1) for d in range(4)]
    for dealer, streak in candidates:
        if expected_payments(result.wins, dealer, streak, table, stakes) == result.payments:
            return
    win = result.wins[0]
    if len(result.wins) == 1 and win.deal_in is None and table.seven_rob_one:  # 七搶一 →2, typed (R-tour-17)
        for dealer, streak in candidates:
            for robbed in (s for s in range(4) if s != win.seat):
                if win_payments(win, dealer, streak, table, stakes, robbed) == result.payments:
                    return
    shown = ", ".join(f"{w.seat} 號座 {w.tai} 台" for w in result.wins)
    if deal is not None:
        dealer, streak = deal
        want = list(expected_payments(result.wins, dealer, streak, table, stakes))
        en = f"dealt by seat {dealer} with streak {streak} these wins pay {want}"
        zh = f"莊家 {dealer} 號座、連 {streak}，應為 {want}"
    else:  # an example: the first seat that neither wins nor (on a discard) pays deals, without a streak
        win = result.wins[0]
        dealer = next(d for d in range(4) if d not in (win.seat, win.deal_in))
        want = list(expected_payments(result.wins, dealer, 0, table, stakes))
        en = f"no dealer seat and streak make them (dealt by seat {dealer} without a streak: {want})"
        zh = f"任何莊家與連莊數都算不出此金額（例如莊家 {dealer} 號座、未連莊時應為 {want}）"
    raise ResultError(
        f"payments {list(result.payments)} do not agree with the wins ({shown}) under stakes "
        f"{stakes.base}/{stakes.per_tai} (settle.formula): {en}; a house arrangement is entered with its reason",
        field="payments",
        reason_zh=f"金額 {list(result.payments)} 與胡牌台數（{shown}）在底 {stakes.base}、每台 {stakes.per_tai} 下不合"
                  f"（settle.formula）：{zh}；若為場地約定，請註明理由（house_arrangement）")


__all__ = ["MAX_STREAK", "check_typed", "deal_of", "expected_payments", "next_deal", "win_payments"]

"""The sample streams of ``data/samples/pen_*.jsonl``: one or more for every ``pen.*`` and
``prio.*`` clause (and ``bet.chahua``, ``score.streak-marker``), each a physical table's hand
as an official would tell it, with the rulings it must get.

``python -m testkit.penalty_samples`` writes the files; ``tests/test_penalties_samples.py`` checks
they are up to date and that the CLI and the API rule on them alike.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .script import Script

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "samples"

#: a winning hand of five sets and a pair (17 tiles), the winning tile last
WIN_5S = "123m456m789m123p789p5s5s"
#: the same with 5m as the pair, won on 5m
WIN_5M = "123m456m789p123s789s5m5m"


@dataclass(frozen=True)
class Sample:
    """One sample stream: its file name, what it shows, the clauses it covers, the codes
    its rulings must include (in order), and the payments per seat."""

    name: str
    title: str
    clauses: tuple[str, ...]
    build: Callable[[], Script]
    expect: tuple[str, ...]
    payments: tuple[int, int, int, int] | None = None

    @property
    def path(self) -> Path:
        return SAMPLES_DIR / f"{self.name}.jsonl"

    def text(self) -> str:
        return self.build().jsonl()


def _open(**kw) -> Script:
    return Script(dealer=0, **kw).deal()


# --- 喊碰未碰 -----------------------------------------------------------------------------------

def unfulfilled_call() -> Script:
    return _open().discard(0, "5m").call(2, "pung").draw(1).place(1).discard(1, "9p").end()


def unfulfilled_call_previous() -> Script:
    return _open().discard(0, "5m").call(1, "pung").draw(1).place(1).discard(1, "9p").end()


def unfulfilled_call_pair() -> Script:
    return _open().discard(0, "5m").call(2, "pung").reveal(2, "5m5m").draw(1).place(1).discard(1, "9p").end()


# --- 相公 -----------------------------------------------------------------------------------------

def dead_hand() -> Script:
    s = _open().discard(0, "5m").draw(2).place(2).discard(2, "9p")  # 2 grabs 1's draw (搶摸)
    return s.draw(3).place(3).discard(3, "7p").pung(2, "7p7p7p").end()  # a dead hand punges: 二度違規


def dead_hand_reported() -> Script:
    s = _open().discard(0, "5m").report("dead_hand", 3, "stolen_tile 偷牌（自承）")
    s.go_around(1, 2, avoid="5s")
    return s.draw(3).win(3, WIN_5S).end()


# --- 眼牌 -----------------------------------------------------------------------------------------

def peek_fee() -> Script:
    s = _open().discard(0, "5m").draw(1).place(1).discard(1, "9p").report("walking_eye", 2)
    s.draw(2).discard(2, "3z")
    return s.draw(3).win(3, WIN_5S).end()


def peek_violations() -> Script:
    s = _open().discard(0, "5m").draw(1).place(1).discard(1, "9p").report("walking_eye", 2)
    s.draw(2).place(2).discard(2, "3z")  # the drawn tile placed: 1st violation
    s.go_around(3, 3, avoid="1s")
    return s.draw(2).kong(2, "concealed", "1s1s1s1s").end()  # a kong: 2nd violation


def peek_not_ready() -> Script:
    s = _open().discard(0, "5m").report("walking_eye_not_ready", 1)
    s.draw(1).discard(1, "9p").report("walking_eye_violation", 1, "told 透露他人牌情")
    return s.end()


# --- 詐胡 -----------------------------------------------------------------------------------------

def false_win() -> Script:
    s = Script(dealer=0, streak=2).deal().discard(0, "5m")
    return s.draw(1).win(1, "123m456m789m123p789p5s6s").end()


def false_win_dealer() -> Script:
    s = Script(dealer=0, streak=1).deal().discard(0, "5m").go_around(1, 3, avoid="5s6s")
    return s.draw(0).win(0, "123m456m789m123p789p5s6s").end()


def false_win_side_stakes() -> Script:
    s = Script(dealer=0).deal()
    s.report("side_stake", 2, "outside 阿明 50/10").report("side_stake", 1, "outside 小華 40")
    s.report("side_stake", 3, "inside 1")
    return s.discard(0, "5m").draw(1).win(1, "123m456m789m123p789p5s6s").end()


def pay_all_wall() -> Script:
    s = _open().discard(0, "5m").draw(1).place(1).discard(1, "9p")
    return s.report("wall_disturbed", 3, "碰倒牌牆無法恢復").end()


# --- 錯碰、代位賠付 ---------------------------------------------------------------------------------

def wrong_pung_caught() -> Script:
    return _open().discard(0, "5m").pung(2, "5m5m6m").discard(2, "9p").report("caught", 2).end()


def wrong_pung_completed() -> Script:
    s = _open().discard(0, "5m").pung(2, "5m5m6m").discard(2, "9p")
    s.draw(3).place(3).discard(3, "1z").draw(0).place(0).discard(0, "2z")
    return s.draw(1).win(1, WIN_5S).end()  # a self-draw within the next eight draws


# --- 錯槓 -----------------------------------------------------------------------------------------

def _kong_tail_win(s: Script, seat: int) -> Script:
    """*seat* makes a concealed kong of 9s and wins on its replacement (槓上開花)."""
    return s.draw(seat).kong(seat, "concealed", "9s9s9s9s").tail_draw(seat).win(seat, "123m456m789m123p5s5s")


def wrong_kong_concealed() -> Script:
    s = _open().discard(0, "5m").draw(1).kong(1, "concealed", "7p7p7p8p").tail_draw(1).discard(1, "1z")
    s.draw(2).place(2).discard(2, "2z")
    return _kong_tail_win(s, 3).end()


def wrong_kong_concealed_shared() -> Script:
    s = _open().discard(0, "5m").draw(1).kong(1, "concealed", "7p7p7p8p").tail_draw(1).discard(1, "1z")
    s.draw(2).kong(2, "concealed", "1s1s1s2s").tail_draw(2).discard(2, "2z")
    return _kong_tail_win(s, 3).end()


def wrong_kong_concealed_exhausted() -> Script:
    s = _open().discard(0, "4z").go_around(1, 57, avoid="7p8p")
    s.draw(2).kong(2, "concealed", "7p7p7p8p").tail_draw(2).discard(2, "7z")  # within the last eight tiles
    return s.go_around(3, 4, avoid="7p8p").end()


def _pung_then_draw(seat: int = 1) -> Script:
    """*seat* punges 5m, and later draws in its turn."""
    s = _open().discard(0, "5m").pung(seat, "5m5m5m").discard(seat, "9p").go_around(seat + 1, 3, avoid="5m6m")
    return s.draw(seat)


def wrong_kong_added_corrected() -> Script:
    return _pung_then_draw().kong(1, "added", "5m5m5m6m").report("caught", 1).end()


def wrong_kong_added_robbed() -> Script:
    return _pung_then_draw().kong(1, "added", "5m5m5m6m").win(3, "123m57m789p123s789s1z1z6m").end()


def wrong_kong_added_1() -> Script:
    return _pung_then_draw().kong(1, "added", "5m5m5m6m").tail_draw(1).report("caught", 1).end()


def wrong_kong_added_2() -> Script:
    return _pung_then_draw().kong(1, "added", "5m5m5m6m").tail_draw(1).place(1).report("caught", 1).end()


def wrong_kong_added_2_unidentified() -> Script:
    s = _pung_then_draw().kong(1, "added", "5m5m5m6m").tail_draw(1).place(1).report("caught", 1)
    s.report("tile_unidentifiable", 1, "由 2 號座任抽一張置回槓上").discard(1, "8s")
    s.go_around(2, 1, avoid="5m6m9s")
    return _kong_tail_win(s, 3).end()  # the tile put back is the next tail tile


def wrong_kong_added_3() -> Script:
    s = _pung_then_draw().kong(1, "added", "5m5m5m6m").tail_draw(1).place(1).discard(1, "8s")
    s.go_around(2, 1, avoid="5m6m9s")
    return _kong_tail_win(s, 3).end()


def wrong_kong_added_3_last() -> Script:
    s = _open().discard(0, "5m").pung(1, "5m5m5m").discard(1, "9p").go_around(2, 55, avoid="5m6m")
    s.draw(1).kong(1, "added", "5m5m5m6m").tail_draw(1).discard(1, "7z")
    return s.end()


def wrong_kong_melded_call() -> Script:
    return _open().discard(0, "5m").kong(2, "melded", "5m5m5m6m").report("caught", 2).end()


def wrong_kong_melded_1() -> Script:
    return _open().discard(0, "5m").kong(2, "melded", "5m5m5m6m").tail_draw(2).report("caught", 2).end()


def wrong_kong_melded_2() -> Script:
    s = _open().discard(0, "5m").kong(2, "melded", "5m5m5m6m").tail_draw(2).place(2).report("caught", 2)
    return s.report("tile_unidentifiable", 2).discard(2, "9p").end()


def wrong_kong_melded_3() -> Script:
    s = _open().discard(0, "5m").kong(2, "melded", "5m5m5m6m").tail_draw(2).place(2).discard(2, "9p")
    s.draw(3).place(3).discard(3, "1z").draw(0).place(0).discard(0, "2z")
    return s.draw(1).win(1, WIN_5S).end()


def wrong_kong_melded_3_last() -> Script:
    s = _open().discard(0, "4z").go_around(1, 56, avoid="5m6m")
    s.draw(1).place(1).discard(1, "5m").kong(3, "melded", "5m5m5m6m").tail_draw(3).discard(3, "7z")
    return s.end()


# --- 錯打明牌 -------------------------------------------------------------------------------------

def _exposed() -> Script:
    """1 punges 5m (0's discard); a go-around later it discards a 5m from the meld."""
    s = _open().discard(0, "5m").pung(1, "5m5m5m").discard(1, "9p").go_around(2, 3, avoid="5m")
    return s.draw(1).place(1).discard(1, "5m", exposed=True)


def exposed_discard_1() -> Script:
    return _exposed().report("caught", 1, "改打摸來的牌").end()


def exposed_discard_2() -> Script:
    return _exposed().call(2, "pung").reveal(2, "5m5m").report("caught", 1).end()


def exposed_discard_3() -> Script:
    s = _exposed().win(3, "123m46m789p123s789s1z1z5m")
    return s.discard(1, "3z").win(2, "123m456p789p123s789s3z3z").end()


def exposed_discard_4() -> Script:
    s = _exposed().draw(2).place(2).discard(2, "1z").draw(3).place(3).discard(3, "2z")
    return s.draw(0).win(0, WIN_5S).end()


# --- 連莊示記 -------------------------------------------------------------------------------------

def streak_marker_low() -> Script:
    s = Script(dealer=0, streak=3, streak_marker=1).deal().discard(0, "5m").go_around(1, 3, avoid="5s")
    return s.draw(0).win(0, WIN_5S).end()


def streak_marker_high() -> Script:
    s = Script(dealer=0, streak=1, streak_marker=3).deal().discard(0, "5m")
    return s.draw(1).win(1, WIN_5S).end()


# --- 優先權 ---------------------------------------------------------------------------------------

def prio_1() -> Script:
    return _open().discard(0, "5m").draw(1).call(2, "pung").pung(2, "5m5m5m").discard(2, "9p").end()


def prio_1_penalty() -> Script:
    return _open().discard(0, "5m").draw(1).call(2, "pung").win(1, WIN_5S).end()


def prio_2() -> Script:
    return _open().discard(0, "5m").draw(1).call(3, "win").call(1, "win").win(3, WIN_5M).end()


def prio_3() -> Script:
    s = _open().discard(0, "5m").chow(1, "4m5m6m").discard(1, "9p").call(2, "pung").pung(2, "5m5m5m")
    return s.discard(2, "1z").end()


def prio_4() -> Script:
    s = _open().discard(0, "5m").draw(1).place(1).call(2, "pung").pung(2, "5m5m5m").discard(2, "1z")
    return s.end()


def prio_4_in_time() -> Script:
    s = _open().discard(0, "5m").draw(1)
    s.call(2, "pung", ts=s.ts + 300).place(1, ts=s.ts + 600)  # the call came before the placing
    return s.pung(2, "5m5m5m").discard(2, "1z").end()


def prio_5() -> Script:
    return _open().discard(0, "5m").touch(1).call(2, "pung").win(1, WIN_5M).end()


def prio_6() -> Script:
    return _open().discard(0, "5m").chow(1, "4m5m6m").discard(1, "9p").win(3, WIN_5M).end()


def prio_7() -> Script:
    return _open().discard(0, "5m").draw(1).place(1).discard(1, "9p").win(3, WIN_5M).end()


def prio_8() -> Script:
    return _open().discard(0, "5m").touch(1).win(1, WIN_5M).win(2, WIN_5M).end()


SAMPLES: tuple[Sample, ...] = (
    Sample("pen_unfulfilled_call", "喊碰未碰：罰 1 台付予打出該牌者", ("pen.unfulfilled-call",), unfulfilled_call,
           ("unfulfilled_call",), (20, 0, -20, 0)),
    Sample("pen_unfulfilled_call_previous", "喊碰未碰：上家之捨牌不罰", ("pen.unfulfilled-call",),
           unfulfilled_call_previous,
           ("unfulfilled_call_previous",), (0, 0, 0, 0)),
    Sample("pen_unfulfilled_call_pair", "喊碰並亮出對子：必須履行碰牌", ("pen.unfulfilled-call",),
           unfulfilled_call_pair,
           ("unfulfilled_call_forced",), (0, 0, 0, 0)),
    Sample("pen_dead_hand", "搶摸判相公，相公又碰牌：相公二度違規包賠", ("pen.dead-hand", "pen.pay-all"), dead_hand,
           ("dead_hand", "dead_hand_second_violation"), (120, 100, -320, 100)),
    Sample("pen_dead_hand_reported", "裁判報告偷牌（自承）判相公，相公胡牌為詐胡", ("pen.dead-hand", "pen.false-win"),
           dead_hand_reported, ("dead_hand", "false_win")),
    Sample("pen_peek_fee", "眼牌者於他人胡牌時付胡牌者 1 台", ("pen.peek",), peek_fee, ("walking_eye_fee",)),
    Sample("pen_peek_violations", "眼牌者靠張違規判相公，又開槓：二度違規包賠", ("pen.peek", "pen.pay-all"),
           peek_violations,
           ("walking_eye_violation", "walking_eye_second_violation")),
    Sample("pen_peek_not_ready", "未聽牌而眼牌計違規一次，再次違規則包賠", ("pen.peek",), peek_not_ready,
           ("walking_eye_violation", "walking_eye_second_violation")),
    Sample("pen_false_win", "閒家詐胡：賠三家，莊連拉與莊家計；莊家續莊不計連莊序",
           ("pen.false-win", "pen.false-win.1", "pen.false-win.3", "pen.pay-all"), false_win, ("false_win",),
           (200, -400, 100, 100)),
    Sample("pen_false_win_dealer", "莊家詐胡：莊連拉一併賠三家，下莊", ("pen.false-win.1", "pen.false-win.3"),
           false_win_dealer, ("false_win",), (-480, 160, 160, 160)),
    Sample("pen_false_win_side_stakes", "詐胡者另就插花注賠付插花者；插花之主家詐胡，插花者賠三家",
           ("pen.false-win.2", "bet.chahua", "pen.pay-all"), false_win_side_stakes,
           ("side_stake", "side_stake", "side_stake", "false_win")),
    Sample("pen_pay_all", "弄亂牌牆致無法恢復：包賠三家", ("pen.pay-all",), pay_all_wall, ("pay_all",),
           (120, 100, 100, -320)),
    Sample("pen_wrong_pon_1", "錯碰未遂：強制復原並判相公", ("pen.wrong-pon.1",), wrong_pung_caught,
           ("wrong_pung_caught",)),
    Sample("pen_wrong_pon_2", "錯碰既遂：其後摸序八張內他人自摸由錯碰者代位賠付",
           ("pen.wrong-pon.2", "pen.substitute"), wrong_pung_completed,
           ("wrong_pung_completed", "substitute_liability")),
    Sample("pen_wrong_kong_concealed", "錯暗槓：有人槓上開花，錯暗槓者代位賠付",
           ("pen.wrong-kong", "pen.wrong-kong.concealed", "pen.wrong-kong.concealed.1", "pen.wrong-kong.concealed.3"),
           wrong_kong_concealed, ("wrong_kong_concealed_found", "wrong_kong_concealed")),
    Sample("pen_wrong_kong_concealed_shared", "兩個錯暗槓共同平均賠付", ("pen.wrong-kong.concealed.1",),
           wrong_kong_concealed_shared,
           ("wrong_kong_concealed_found", "wrong_kong_concealed_found", "wrong_kong_concealed",
                                         "wrong_kong_concealed")),
    Sample("pen_wrong_kong_concealed_exhausted", "末八張內錯暗槓，荒局檢出：包賠三家", ("pen.wrong-kong.concealed.2",),
           wrong_kong_concealed_exhausted, ("wrong_kong_concealed_found", "wrong_kong_concealed_exhausted")),
    Sample("pen_wrong_kong_added", "錯加槓未補牌前即時糾正：免罰", ("pen.wrong-kong.added",),
           wrong_kong_added_corrected,
           ("wrong_kong_added_corrected",)),
    Sample("pen_wrong_kong_added_robbed", "錯加槓被搶槓：搶槓胡牌成立", ("pen.wrong-kong.added",),
           wrong_kong_added_robbed,
           ("wrong_kong_added_robbed",)),
    Sample("pen_wrong_kong_added_1", "錯加槓，所補之牌未插入手牌：復原免罰", ("pen.wrong-kong.added.1",),
           wrong_kong_added_1,
           ("wrong_kong_added_restored",)),
    Sample("pen_wrong_kong_added_2", "錯加槓，所補之牌已插入手牌：歸回槓上並判相公", ("pen.wrong-kong.added.2",),
           wrong_kong_added_2, ("wrong_kong_added_returned",)),
    Sample("pen_wrong_kong_added_2_unidentified", "錯加槓，無法確定哪張：任抽一牌置回，該張槓上牌之自摸代位賠付",
           ("pen.wrong-kong.added.2", "pen.substitute"), wrong_kong_added_2_unidentified,
           ("wrong_kong_added_returned", "substitute_liability")),
    Sample("pen_wrong_kong_added_3", "錯加槓既遂：判相公，本盤涉及槓上的自摸代位賠付",
           ("pen.wrong-kong.added.3", "pen.substitute"),
           wrong_kong_added_3, ("wrong_kong_added_completed", "substitute_liability")),
    Sample("pen_wrong_kong_added_3_last", "錯加槓既遂於最後 8 張內：包賠三家，本盤終止", ("pen.wrong-kong.added.3",),
           wrong_kong_added_3_last, ("wrong_kong_added_last_tiles",)),
    Sample("pen_wrong_kong_melded", "錯碰槓未補牌前即時糾正：依喊碰未碰處罰", ("pen.wrong-kong.melded",),
           wrong_kong_melded_call,
           ("wrong_kong_melded_call",), (20, 0, -20, 0)),
    Sample("pen_wrong_kong_melded_1", "錯碰槓，所補之牌未插入手牌：歸回槓上、判相公、刻子見光死",
           ("pen.wrong-kong.melded.1",),
           wrong_kong_melded_1, ("wrong_kong_melded_restored",)),
    Sample("pen_wrong_kong_melded_2", "錯碰槓，無法確定哪張：任抽一牌置回、判相公", ("pen.wrong-kong.melded.2",),
           wrong_kong_melded_2, ("wrong_kong_melded_returned",)),
    Sample("pen_wrong_kong_melded_3", "錯碰槓既遂：其後摸序 8 張內之自摸代位賠付",
           ("pen.wrong-kong.melded.3", "pen.substitute"),
           wrong_kong_melded_3, ("wrong_kong_melded_completed", "substitute_liability")),
    Sample("pen_wrong_kong_melded_3_last", "錯碰槓既遂於最後 8 張內：包賠三家", ("pen.wrong-kong.melded.3",),
           wrong_kong_melded_3_last, ("wrong_kong_melded_last_tiles",)),
    Sample("pen_exposed_discard_1", "錯打明牌，無人吃碰：判相公，復原改打",
           ("pen.exposed-discard", "pen.exposed-discard.1"),
           exposed_discard_1, ("exposed_discard_restored",)),
    Sample("pen_exposed_discard_2", "錯打明牌，有人喊碰亮對：判相公，賠付 1 台", ("pen.exposed-discard.2",),
           exposed_discard_2,
           ("exposed_discard_claimed",), (0, -20, 20, 0)),
    Sample("pen_exposed_discard_3", "錯打明牌放銃，改打摸來的牌又放銃：再賠一次，本盤結束", ("pen.exposed-discard.3",),
           exposed_discard_3, ("exposed_discard_won", "exposed_discard_won_twice")),
    Sample("pen_exposed_discard_4", "錯打明牌無人糾正：其後摸序八張內他人自摸代位賠付",
           ("pen.exposed-discard.4", "pen.substitute"),
           exposed_discard_4, ("exposed_discard_unnoticed", "substitute_liability")),
    Sample("pen_streak_marker_low", "連莊示記低於實際：莊家胡牌以所示計收", ("score.streak-marker",), streak_marker_low,
           ("streak_marker_low",)),
    Sample("pen_streak_marker_high", "連莊示記高於實際：他人自摸時莊家以所示計付", ("score.streak-marker",),
           streak_marker_high,
           ("streak_marker_high",)),
    Sample("pen_prio_1", "碰牌 vs 自摸：喊碰早於自摸之表示，碰牌優先", ("prio", "prio.1"), prio_1_penalty,
           ("pung_over_self_draw", "lost_priority_win")),
    Sample("pen_prio_2", "胡銃 vs 自摸：胡銃之表示在先，胡銃優先", ("prio.2",), prio_2, ("win_over_self_draw",)),
    Sample("pen_prio_3", "碰牌 vs 吃牌：吃牌已亮牌打牌，吃牌優先，碰者執意碰牌判相公", ("prio.3", "prio.penalty.2"),
           prio_3,
           ("chow_over_pung", "lost_priority_pung")),
    Sample("pen_prio_4", "碰牌 vs 摸牌：摸牌已入手牌列，摸牌優先", ("prio.4", "prio.penalty.2"), prio_4,
           ("draw_over_pung", "lost_priority_pung")),
    Sample("pen_prio_4_in_time", "碰牌 vs 摸牌：喊碰在摸牌入手之前（記錄較晚），碰牌優先", ("prio.4",), prio_4_in_time,
           ("pung_over_draw",)),
    Sample("pen_prio_5", "胡銃 vs 碰牌：得胡者已伸手摸牌，碰牌優先；仍推倒手牌包賠", ("prio.5", "prio.penalty.1"),
           prio_5,
           ("pung_over_win", "lost_priority_win")),
    Sample("pen_prio_6", "胡銃 vs 吃牌：吃牌已亮搭打牌，吃牌優先；仍推倒手牌包賠", ("prio.6", "prio.penalty.1"), prio_6,
           ("chow_over_win", "lost_priority_win")),
    Sample("pen_prio_7", "胡銃 vs 摸牌：下家已摸打，摸牌優先；仍推倒手牌包賠", ("prio.7", "prio.penalty.1"), prio_7,
           ("draw_over_win", "lost_priority_win")),
    Sample("pen_prio_8", "胡銃 vs 胡銃：已伸手摸牌者過水，輪序在後者優先（不包賠）", ("prio.8", "prio.penalty.1"),
           prio_8,
           ("later_win_over_touched", "lost_priority_win_vs_win")),
)


def write(directory: Path = SAMPLES_DIR) -> list[Path]:
    """Write every sample stream; returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for sample in SAMPLES:
        path = directory / f"{sample.name}.jsonl"
        path.write_text(sample.text(), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":  # pragma: no cover
    for p in write():
        print(p.relative_to(SAMPLES_DIR.parent.parent))

"""The referee's sample streams (``data/samples/{win,draw,deal,play,ready,prio}_*.jsonl``):
one for each kind of win, the exhaustive draw, the dice, and each play restriction broken.

Each :class:`Sample` is a scripted hand (:mod:`testkit.scenario`) with what the referee
must say about it: the outcome, how the win came, the irregularity codes. ``python -m
testkit.referee_samples`` writes the files; ``tests/test_referee_samples.py`` checks they are up to
date, that they adjudicate as stated, and that the CLI and the API give the same answer.
``docs/protocol.md`` walks through several of them.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from referee.events import Event, Mode, to_jsonl
from .scenario import Scenario, cycle

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "samples"

#: seat 1's ready hand, waiting on 5p only (中洞)
READY_5P = "123m456m789m234s11s46p"


@dataclass(frozen=True)
class Sample:
    """One sample stream and what its adjudication must show.

    :param outcome: the outcome kind (``win``, ``exhaustive_draw``, ``void``, ``ended_by_irregularity``).
    :param sources: the win sources, winner by winner.
    :param codes: the irregularity codes found, in order.
    :param extra: further expectations: ``winners`` (seats), ``flower_win``, ``first_turn``,
        ``readiness``, ``statuses`` (seq → verdict status).
    """

    name: str
    title_zh: str
    title: str
    clauses: tuple[str, ...]
    scenario: Scenario
    acts: tuple = ()
    outcome: str = "win"
    sources: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)

    def events(self) -> list[Event]:
        return self.scenario.events(self.acts)

    @property
    def path(self) -> Path:
        return SAMPLES_DIR / f"{self.name}.jsonl"


def _s(**kw) -> Scenario:
    kw.setdefault("table", "sample")
    return Scenario(**kw)


SAMPLES: tuple[Sample, ...] = (
    # --- wins -----------------------------------------------------------------------------
    Sample("win_discard", "胡銃：2 號座打出 5p，1 號座胡", "Win on a discard: seat 2 discards 5p, seat 1 wins",
           ("play.win", "play.deal-in", "app.win-ways"),
           _s(hands={0: "1z", 1: READY_5P, 2: "5p"}, draws="3z 4z"),
           ((0, "打", "1z"), (1, "摸打"), (2, "摸"), (2, "打", "5p"), (1, "胡")),
           sources=("discard",)),
    Sample("win_self_draw", "自摸：1 號座摸到 5p 胡", "Self-draw: seat 1 draws 5p and wins",
           ("play.win", "play.draw", "tai.23", "app.win-ways"),
           _s(hands={0: "1z", 1: READY_5P}, draws="5p"),
           ((0, "打", "1z"), (1, "摸"), (1, "胡")), sources=("wall",)),
    Sample("win_robbing_kong", "搶槓：2 號座加槓 8p，1 號座搶槓胡",
           "Robbing a kong: seat 2 adds 8p to its pung, seat 1 wins on it",
           ("play.kong.exposed", "tai.12", "app.win-ways", "app.kong"),
           _s(hands={0: "8p", 1: "123m456m789m234s11s7p1z", 2: "8p8p2z"}, draws="3z 4z 9p 8p"),
           ((0, "打", "8p"), (2, "碰", "8p8p8p"), (2, "打", "2z"), (3, "摸打"), (0, "摸打"), (1, "摸", "9p"),
            (1, "打", "1z"), (2, "摸", "8p"), (2, "加槓", "8p"), (1, "胡")),
           sources=("robbing_kong",)),
    Sample("win_kong_replacement", "槓上開花：1 號座暗槓後補到 5p 胡", "Win on a kong's replacement (槓上開花)",
           ("play.kong.concealed", "tai.24", "app.kong"),
           _s(hands={0: "1z", 1: "123m456m789m3z3z3z11s46p"}, draws="3z", tail="5p"),
           ((0, "打", "1z"), (1, "摸"), (1, "暗槓", "3z3z3z3z"), (1, "補"), (1, "胡")),
           sources=("kong_replacement",)),
    Sample("win_flower_replacement", "補花胡：1 號座摸到花，補到 5p 胡", "Win on a flower's replacement",
           ("deal.flowers", "app.flowers.play", "tai.24"),
           _s(hands={0: "1z", 1: READY_5P}, draws="1f", tail="5p"),
           ((0, "打", "1z"), (1, "摸"), (1, "補花", "1f"), (1, "補"), (1, "胡")),
           sources=("flower_replacement",)),
    Sample("win_last_tile", "海底撈月：3 號座摸到最後一張可摸的牌胡", "Win on the last drawable tile (海底撈月)",
           ("tai.25", "app.exhausted.eight-stacks", "play.exhausted"),
           _s(hands={0: "1z5p5p5p", 3: READY_5P}, draws={62: "5p"}),
           ((0, "打", "1z"), *cycle(1, 62), (3, "摸"), (3, "胡")), sources=("last_tile",)),
    Sample("win_last_discard", "河底撈魚：3 號座摸海底後打出 5p，1 號座胡",
           "Win on the discard after the last tile (河底)",
           ("tai.25", "play.deal-in"),
           _s(hands={0: "1z5p5p5p", 1: READY_5P}, draws={62: "5p"}),
           ((0, "打", "1z"), *cycle(1, 62), (3, "摸打"), (1, "胡")), sources=("last_discard",)),
    Sample("win_eight_flowers", "八仙過海：1 號座集滿八張花，補牌後胡",
           "Eight flowers: seat 1 holds all eight and wins",
           ("tai.27", "tai.29", "deal.flowers", "app.win-ways"),
           _s(hands={0: "1z", 1: "1f2f3f4f5f6f7f"}, draws="8f"),
           ((0, "打", "1z"), (1, "摸", "8f"), (1, "補花", "8f"), (1, "補"), (1, "胡")),
           sources=("flower_win",), extra={"flower_win": "eight_flowers"}),
    Sample("win_seven_rob_one", "七搶一：2 號座有七張花，搶 3 號座摸到的第八張", "Seven rob one (tai.30.1)",
           ("tai.30", "tai.30.1", "app.win-ways"),
           _s(hands={0: "1z", 2: "1f2f3f4f5f6f7f"}, draws="3z 4z 8f"),
           ((0, "打", "1z"), (1, "摸打"), (2, "摸打"), (3, "摸", "8f"), (3, "補花", "8f"), (2, "補"), (2, "胡")),
           sources=("flower_win",), extra={"flower_win": "seven_rob_one"}),
    Sample("win_seven_rob_one_drawn", "七搶一（→2）：2 號座六花、3 號座一花，2 號座摸到第七張",
           "Seven rob one, the seventh drawn (tai.30.2)",
           ("tai.30", "tai.30.2"),
           _s(hands={0: "1z", 2: "1f2f3f4f5f6f", 3: "7f"}, draws="3z 8f"),
           ((0, "打", "1z"), (1, "摸打"), (2, "摸", "8f"), (2, "補花", "8f"), (2, "補"), (2, "胡")),
           sources=("flower_win",), extra={"flower_win": "seven_rob_one_drawn"}),
    Sample("win_heavenly", "天胡：莊家配牌即胡", "Heavenly win: the dealer's dealt hand wins",
           ("tai.33", "deal.wall", "deal.hand-size"),
           _s(hands={0: "123m456m789m123p456p99s"}),
           ((0, "胡"),), sources=("wall",), extra={"first_turn": "heavenly_win"}),
    Sample("win_intercept", "攔胡：1、3 號座都胡 2 號座的 5p，離放銃者近的 3 號座胡",
           "Intercept: the nearer of two winners wins",
           ("play.intercept", "app.priority"),
           _s(hands={0: "1z", 1: READY_5P, 2: "5p", 3: "456m789m123s456s77z46p"}, draws="3z 4z"),
           ((0, "打", "1z"), (1, "摸打"), (2, "摸"), (2, "打", "5p"), (1, "胡"), (3, "胡")),
           sources=("discard",), extra={"winners": [3]}),
    Sample("win_multiple", "一炮多響：規則組允許多家同時胡", "Multiple wins on one discard (a ruleset option)",
           ("play.intercept", "app.priority"),
           _s(hands={0: "1z", 1: READY_5P, 2: "5p", 3: "456m789m123s456s77z46p"}, draws="3z 4z",
              rules={"play.multiple_wins": True}),
           ((0, "打", "1z"), (1, "摸打"), (2, "摸"), (2, "打", "5p"), (1, "胡"), (3, "胡")),
           sources=("discard", "discard"), extra={"winners": [1, 3]}),
    # --- draws and the deal ------------------------------------------------------------------
    Sample("draw_exhausted", "荒局：摸到只剩殘牌八墩無人胡，莊家續莊", "Exhaustive draw: the dealer repeats",
           ("play.exhausted", "app.exhausted", "app.exhausted.eight-stacks", "app.dealer-continue"),
           _s(hands={0: "1z"}), ((0, "打", "1z"), *cycle(1, 63), (None, "結束")), outcome="exhaustive_draw"),
    Sample("draw_skip_last", "海底牌棄摸：3 號座不摸最後一張，荒局", "The last tile left undrawn: an exhaustive draw",
           ("tai.25", "play.exhausted"),
           _s(hands={0: "1z"}), ((0, "打", "1z"), *cycle(1, 62), (3, "棄海底")), outcome="exhaustive_draw"),
    Sample("deal_dice", "搬風、定莊、開門：擲骰點數決定東位、莊家與開門處", "Seat, dealer and break dice",
           ("seat.banfeng", "seat.dice.self", "seat.dealer", "seat.dice.across", "deal.wall", "deal.break"),
           _s(dealer=2, seat_dice=(0, (1, 1, 3)), dealer_dice=(0, (3, 4, 4)), dice=(3, 4, 4), hands={2: "1z"}),
           ((2, "打", "1z"), (None, "結束")), outcome="void"),
    # --- restrictions broken ----------------------------------------------------------------
    Sample("play_restrict_1", "行牌禁制 1：碰牌後接著暗槓", "Restriction 1: a kong right after a pung",
           ("play.restrict.1", "app.kong.limits"),
           _s(hands={0: "8p", 2: "8p8p3z3z3z3z2z"}),
           ((0, "打", "8p"), (2, "碰", "8p8p8p"), (2, "暗槓", "3z3z3z3z"), (2, "打", "2z"), (None, "結束")),
           outcome="void", codes=("kong_after_claim",)),
    Sample("play_restrict_2", "行牌禁制 2：碰槓之補牌自摸", "Restriction 2: self-draw on a melded kong's replacement",
           ("play.restrict.2", "app.kong.limits", "play.kong.exposed"),
           _s(hands={0: "3z", 1: "123m456m789m3z3z3z11s46p"}, tail="5p"),
           ((0, "打", "3z"), (1, "明槓", "3z3z3z3z"), (1, "補"), (1, "胡"), (1, "打", "4p"), (None, "結束")),
           outcome="void", codes=("replacement_self_draw",)),
    Sample("play_restrict_3", "行牌禁制 3：碰槓補牌後接著暗槓",
           "Restriction 3: a concealed kong after a melded kong's replacement",
           ("play.restrict.3",),
           _s(hands={0: "3z", 1: "3z3z3z1z1z1z"}, tail="1z"),
           ((0, "打", "3z"), (1, "明槓", "3z3z3z3z"), (1, "補"), (1, "暗槓", "1z1z1z1z"), (1, "打", "1z"),
            (None, "結束")), outcome="void", codes=("concealed_kong_after_melded",)),
    Sample("play_restrict_4", "行牌禁制 4：吃牌的打序宣告自摸",
           "Restriction 4: a self-draw in a turn that began with a chow",
           ("play.restrict.4", "play.chi"),
           _s(hands={0: "4s", 1: "123m456m789m11s456p23s"}),
           ((0, "打", "4s"), (1, "吃", "2s3s4s"), (1, "胡"), (1, "打", "9m"), (None, "結束")),
           outcome="void", codes=("self_draw_not_from_draw", "passed_win")),
    Sample("play_restrict_5", "行牌禁制 5：靠張後暗槓，補牌成胡而可胡之牌同巡打過",
           "Restriction 5: kong after placing the drawn tile",
           ("play.restrict.5", "tai.24"),
           _s(hands={0: "5p", 1: "3z3z3z3z123m456m789m11s4p"}, draws="6p", tail="5p"),
           ((0, "打", "5p"), (1, "摸"), (1, "靠張"), (1, "暗槓", "3z3z3z3z"), (1, "補"), (1, "胡"), (1, "打", "5p"),
            (None, "結束")), outcome="void", codes=("kong_draw_passed_tile",)),
    Sample("play_restrict_6_chow", "行牌禁制 6：吃 3m 後打出 3m", "Restriction 6: discarding the chowed tile",
           ("play.restrict.6", "play.chi", "app.after-claim"),
           _s(hands={0: "3m", 1: "4m5m3m1z"}),
           ((0, "打", "3m"), (1, "吃", "3m4m5m"), (1, "打", "3m"), (1, "打", "1z"), (None, "結束")),
           outcome="void", codes=("forbidden_discard_after_chow",)),
    Sample("play_restrict_6_pung", "行牌禁制 6：碰 8p 後打出 8p", "Restriction 6: discarding the punged tile",
           ("play.restrict.6", "play.pon", "app.after-claim"),
           _s(hands={0: "8p", 2: "8p8p8p2z"}),
           ((0, "打", "8p"), (2, "碰", "8p8p8p"), (2, "打", "8p"), (2, "打", "2z"), (None, "結束")),
           outcome="void", codes=("forbidden_discard_after_pung",)),
    Sample("play_restrict_6_own_discard", "行牌禁制 6：打出 3m 後同巡吃入 3m",
           "Restriction 6: chowing one's own last discard",
           ("play.restrict.6", "play.chi"),
           _s(hands={0: "1z", 1: "3m4m5m"}, draws="2z 3z 4z 3m"),
           ((0, "打", "1z"), (1, "摸"), (1, "打", "3m"), (2, "摸打"), (3, "摸打"), (0, "摸打"), (1, "吃", "3m4m5m"),
            (None, "結束")), outcome="void", codes=("chow_own_recent_discard",)),
    Sample("play_restrict_7", "行牌禁制 7：牌牆末三張內碰牌", "Restriction 7: a pung within the last three tiles",
           ("play.restrict.7", "app.last-three"),
           _s(hands={0: "1z7z", 2: "7z7z"}, draws={59: "7z"}),
           ((0, "打", "1z"), *cycle(1, 59), (0, "摸打"), (2, "碰", "7z7z7z"), *cycle(1, 3), (None, "結束")),
           outcome="exhaustive_draw", codes=("claim_in_last_tiles",)),
    Sample("play_restrict_8", "行牌禁制 8：自行亮出 8p 對子後碰 8p", "Restriction 8: punging a pair one showed oneself",
           ("play.restrict.8",),
           _s(hands={0: "8p", 2: "8p8p"}),
           ((2, "亮牌", "8p8p"), (0, "打", "8p"), (2, "碰", "8p8p8p"), (None, "結束")),
           outcome="void", codes=("claim_revealed_tiles",)),
    Sample("play_chow_wrong_seat", "錯吃（實體牌桌）：2 號座吃了非上家的牌",
           "A chow from the wrong seat, at a physical table",
           ("play.chi", "app.chi"),
           _s(hands={0: "3m", 2: "4m5m"}, mode=Mode.PHYSICAL),
           ((0, "打", "3m"), (2, "吃", "3m4m5m"), (2, "打", "9s"), (None, "結束")),
           outcome="void", codes=("chow_wrong_seat",)),
    Sample("play_passed_pung", "過水碰：同巡內碰先前未碰的同一張牌",
           "Passed pung: punging a tile let go earlier this go-around",
           ("play.pon", "app.pon"),
           _s(hands={0: "8p", 2: "8p8p"}, draws="8p"),
           ((0, "打", "8p"), (1, "摸"), (1, "打", "8p"), (2, "碰", "8p8p8p"), (None, "結束")),
           outcome="void", codes=("passed_pung",)),
    Sample("play_passed_win", "過水：1 號座未胡 5p，未打牌前又胡 5p",
           "Passed win: winning again before a discard released it",
           ("play.passed-win", "app.passed-win"),
           _s(hands={0: "1z", 1: READY_5P, 2: "5p"}, draws="3z 4z 5p"),
           ((0, "打", "1z"), (1, "摸打"), (2, "摸"), (2, "打", "5p"), (3, "摸"), (3, "打", "5p"), (1, "胡"),
            (None, "結束")), outcome="void", codes=("passed_win",)),
    Sample("play_passed_win_released", "解除過水：1 號座打出非胡之牌後再胡", "A passed win released by a discard",
           ("play.passed-win", "play.passed-win.release"),
           _s(hands={0: "1z", 1: READY_5P, 2: "5p"}, draws="3z 4z 2z 6z 7z 5p"),
           ((0, "打", "1z"), (1, "摸打"), (2, "摸"), (2, "打", "5p"), (3, "摸打"), (0, "摸打"), (1, "摸打"), (2, "摸"),
            (2, "打", "5p"), (1, "胡")), sources=("discard",)),
    Sample("play_flower_not_replaced", "花牌未補：1 號座摸到花不補就打牌", "A flower drawn and not replaced",
           ("deal.flowers", "app.flowers.play"),
           _s(hands={0: "1z", 1: "2z"}, draws="1f"),
           ((0, "打", "1z"), (1, "摸"), (1, "打", "2z"), (1, "補花", "1f"), (1, "補"), (1, "打", "2z"), (None, "結束")),
           outcome="void", codes=("flower_not_replaced",)),
    Sample("play_false_win", "詐胡（實體牌桌）：1 號座攤牌未成胡", "A false win at a physical table ends the hand",
           ("play.win", "pen.false-win"),
           _s(hands={0: "1z", 1: READY_5P, 2: "6p"}, draws="3z 4z", mode=Mode.PHYSICAL),
           ((0, "打", "1z"), (1, "摸", "3z"), (1, "打", "3z"), (2, "摸", "4z"), (2, "打", "6p"),
            (1, "胡", "123m456m789m234s11s46p6p")), outcome="ended_by_irregularity", codes=("false_win",)),
    Sample("play_unfulfilled_call", "喊碰未碰：2 號座喊碰後未碰", "A pung called and not made",
           ("play.pon", "pen.unfulfilled-call"),
           _s(hands={0: "8p", 2: "8p8p"}, draws="3z"),
           ((0, "打", "8p"), (2, "喊碰"), (1, "摸"), (1, "打", "3z"), (None, "結束")),
           outcome="void", codes=("unfulfilled_call",)),
    Sample("play_exposed_discard", "錯打明牌（實體牌桌）：2 號座打出碰出的 8p", "A tile discarded from an exposed pung",
           ("play.discard", "pen.exposed-discard"),
           _s(hands={0: "8p", 2: "8p8p"}, mode=Mode.PHYSICAL),
           ((0, "打", "8p"), (2, "碰", "8p8p8p"), (2, "打明牌", "8p"), (None, "結束")),
           outcome="void", codes=("exposed_discard",)),
    Sample("play_wrong_kong", "錯槓（實體牌桌）：1 號座暗槓四張不同的牌並打牌", "A wrong concealed kong that stood",
           ("play.kong.concealed", "pen.wrong-kong", "pen.wrong-kong.concealed"),
           _s(hands={0: "1z", 1: "3z3z3z4z"}, draws="2z", mode=Mode.PHYSICAL),
           ((0, "打", "1z"), (1, "摸", "2z"), (1, "暗槓", "3z3z3z4z"), (1, "補"), (1, "打", "2z"), (None, "結束")),
           outcome="void", codes=("wrong_kong",)),
    Sample("prio_pung_over_draw", "碰牌優先於摸牌：下家摸牌尚未入手時喊碰",
           "A pung before the drawn tile reached the hand",
           ("play.pon", "prio.4", "app.priority"),
           _s(hands={0: "8p", 2: "8p8p2z"}),
           ((0, "打", "8p"), (1, "摸"), (2, "碰", "8p8p8p"), (2, "打", "2z"), (None, "結束")), outcome="void"),
    Sample("prio_late_pung", "碰牌遲疑：下家所摸之牌已入手牌列後才碰",
           "A pung after the drawn tile was placed in the hand",
           ("play.pon", "prio.4", "prio.penalty.2"),
           _s(hands={0: "8p", 2: "8p8p2z"}),
           ((0, "打", "8p"), (1, "摸"), (1, "靠張"), (2, "碰", "8p8p8p"), (None, "結束")),
           outcome="void", codes=("lost_priority",)),
    # --- readiness ------------------------------------------------------------------------------
    Sample("ready_heavenly", "天聽：閒家配牌補花後宣告，之後自摸", "Heavenly ready, then a self-draw",
           ("tai.31", "app.heavenly-ready", "play.ready"),
           _s(hands={0: "1z", 1: READY_5P}, draws="5p"),
           ((1, "天聽"), (0, "打", "1z"), (1, "摸"), (1, "胡")),
           sources=("wall",), extra={"readiness": "heavenly", "first_turn": "earthly_win"}),
    Sample("ready_earthly", "地聽：閒家打出第一張牌即宣告聽牌", "Earthly ready, declared with the first discard",
           ("tai.32", "app.heavenly-ready"),
           _s(hands={0: "1z", 1: "123m456m789m234s11s4p2z"}, draws="6p 3z 4z 2z 5p"),
           ((0, "打", "1z"), (1, "摸"), (1, "打", "2z"), (1, "地聽"), (2, "摸打"), (3, "摸打"), (0, "摸打"),
            (1, "摸"), (1, "胡")), sources=("wall",), extra={"readiness": "earthly"}),
    Sample("ready_declared_changed", "宣告聽牌（App）後換牌",
           "Declared ready (app), then a tile kept instead of the drawn one",
           ("app.ready", "opt.declare-ready", "play.ready"),
           _s(hands={0: "1z", 1: "123m456m789m234s11s4p6p"}, draws="3z 4z 2z 6z 7z", ruleset="app"),
           ((0, "打", "1z"), (1, "摸"), (1, "打", "3z"), (1, "宣告聽牌"), (2, "摸打"), (3, "摸打"), (0, "摸打"),
            (1, "摸"), (1, "打", "4p"), (1, "打", "7z"), (None, "結束")),
           outcome="void", codes=("ready_changed",)),
)


def by_name(name: str) -> Sample:
    return next(s for s in SAMPLES if s.name == name)


def write(directory: Path = SAMPLES_DIR) -> list[Path]:
    """Write every sample stream; returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for sample in SAMPLES:
        path = directory / f"{sample.name}.jsonl"
        path.write_text(to_jsonl(sample.events()), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":  # python -m testkit.referee_samples
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLES_DIR):
        print(p)

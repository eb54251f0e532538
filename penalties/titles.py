"""The short name of each code an official sees (issue #13 item 4): a ruling's, an
irregularity's, a report's — 「相公」, 「錯碰」, 「喪失優先權」 — for page titles and event lines,
where the stable ASCII code (``dead_hand``) is for machines.

:func:`title` knows every code of :data:`penalties.codes.CODES` (rulings),
:data:`referee.verdicts.CODES` (the referee's irregularities) and
:data:`penalties.rule.REPORTS` (what officials report); ``tests/test_seat_names.py`` holds
it to naming each of them.

    >>> title("dead_hand"), title("pung_over_chow")[0], title("stolen_tile")[0]
    (('相公', 'dead hand'), '優先權：碰優先於吃', '相公：偷牌')
"""
from __future__ import annotations

#: ruling codes (penalties) → (zh-TW, English)
RULINGS: dict[str, tuple[str, str]] = {
    "dead_hand": ("相公", "dead hand"),
    "dead_hand_second_violation": ("相公二度違規", "a dead hand's second violation"),
    "false_win": ("詐胡", "false win"),
    "unfulfilled_call": ("喊碰未碰", "pung called, not made"),
    "unfulfilled_call_previous": ("喊碰未碰（上家之牌）", "pung called, not made (the previous player's tile)"),
    "unfulfilled_call_forced": ("喊碰亮對須碰", "pung called with the pair shown: must be made"),
    "walking_eye_fee": ("眼牌付台", "the walking eye's fee"),
    "walking_eye_violation": ("眼牌違規", "walking-eye violation"),
    "walking_eye_second_violation": ("眼牌二度違規", "walking eye's second violation"),
    "walking_eye_passed_win": ("眼牌者過水胡牌", "the walking eye won after a passed win"),
    "pay_all": ("包賠", "pays for all"),
    "record_error": ("紀錄有誤", "record error"),
    "substitute_liability": ("代位賠付", "liability for others' self-draws"),
    "streak_marker_low": ("示記少於連莊", "streak marker below the streak"),
    "streak_marker_high": ("示記多於連莊", "streak marker above the streak"),
    "side_stake": ("插花", "side stake"),
    "side_stake_void": ("外插者影響行牌", "side-staker influenced play"),
    "lost_priority_win": ("喪失胡牌優先權", "lost priority to win"),
    "lost_priority_win_vs_win": ("喪失胡牌優先權（截胡）", "lost priority to another win"),
    "lost_priority_pung": ("喪失碰牌優先權", "lost priority to pung"),
    "later_win_over_touched": ("優先權：後胡優先於已觸牌", "priority: a later win over a touched tile"),
}
_WRONG_KONG = {"concealed": ("錯暗槓", "wrong concealed kong"), "added": ("錯加槓", "wrong added kong"),
               "melded": ("錯明槓", "wrong melded kong")}
_WRONG_KONG_STAGE = {
    "": ("", ""), "exhausted": ("（荒局）", " (exhaustive draw)"), "found": ("（檢查發現）", " (found on inspection)"),
    "corrected": ("（當場更正）", " (corrected)"), "robbed": ("（被搶槓）", " (robbed)"),
    "restored": ("（恢復原狀）", " (restored)"), "returned": ("（退回補牌）", " (replacement returned)"),
    "completed": ("（已行牌）", " (play went on)"), "last_tiles": ("（末段）", " (in the last tiles)"),
    "call": ("（喊碰未碰）", " (called, not made)"), "call_previous": ("（上家之牌）", " (previous player's tile)"),
}
_STAGE = {"caught": ("（當場發現）", " (caught)"), "completed": ("（已行牌）", " (play went on)"),
          "restored": ("（恢復原狀）", " (restored)"), "claimed": ("（被吃碰）", " (claimed)"),
          "won": ("（被胡）", " (won on)"), "won_twice": ("（一炮多響）", " (won on twice)"),
          "unnoticed": ("（未發現）", " (unnoticed)")}
_ACTS = {"pung": ("碰", "pung"), "self_draw": ("自摸", "self-draw"), "win": ("胡牌", "win"), "chow": ("吃", "chow"),
         "draw": ("摸牌", "draw")}

#: the referee's irregularity codes → (zh-TW, English)
IRREGULARITIES: dict[str, tuple[str, str]] = {
    "before_start": ("開局前的事件", "event before the start"), "after_hand_end": ("終局後的動作", "act after the end"),
    "dealer_dice_mismatch": ("定莊骰點不符", "dealer dice mismatch"),
    "break_not_dealer": ("開門骰非莊家擲", "break not by the dealer"),
    "wall_after_deal": ("配牌後才給牌牆", "wall given after the deal"), "wall_not_a_set": ("牌牆不全", "wall not a "
                                                                                                       "full set"),
    "deal_out_of_order": ("配牌順序錯誤", "deal out of order"), "wrong_tile": ("紀錄之牌不符", "recorded tile differs"),
    "too_many_copies": ("紀錄有誤（張數過多）", "too many copies"), "tile_not_held": ("手中無此牌", "tile not held"),
    "out_of_turn_draw": ("搶摸", "draw out of turn"), "out_of_turn_discard": ("未輪到打牌", "discard out of turn"),
    "discard_before_intake": ("缺張", "discard before taking in"), "second_intake": ("一打序二次進牌", "second intake"),
    "missing_replacement": ("未補牌（缺張）", "replacement missing"), "unowed_replacement": ("錯位摸補", "replacement "
                                                                                                         "not owed"),
    "dead_wall_draw": ("摸入殘牌", "draw from the dead wall"), "skip_not_last": ("非海底棄摸", "skip not on the last "
                                                                                               "tile"),
    "flower_out_of_order": ("補花順序錯誤", "flower out of order"), "flower_not_held": ("手中無此花牌", "flower not "
                                                                                                        "held"),
    "flower_not_replaced": ("花牌未補", "flower not replaced"), "flower_discarded": ("花牌打出", "flower discarded"),
    "no_flowers_in_play": ("無花玩法：無花可補", "no flowers in play"),
    "claim_nothing": ("無牌可吃碰槓", "nothing to claim"), "claim_own_discard": ("吃碰自己的捨牌", "claim of own "
                                                                                                   "discard"),
    "chow_wrong_seat": ("吃非上家之牌", "chow not from the previous player"), "chow_not_a_run": ("錯吃", "wrong chow"),
    "pung_not_alike": ("錯碰", "wrong pung"), "melded_kong_previous_player": ("明槓上家之牌", "melded kong on the "
                                                                                              "previous player"),
    "wrong_kong": ("錯槓", "wrong kong"), "added_kong_no_pung": ("加槓無明刻", "added kong without a pung"),
    "kong_tiles_not_held": ("手中無槓牌", "kong tiles not held"),
    "claim_tiles_not_held": ("手中無吃碰之牌", "claim tiles not held"),
    "kong_after_claim": ("吃碰後開槓", "kong after a claim"),
    "concealed_kong_after_melded": ("碰槓補牌後暗槓", "concealed kong after a melded kong"),
    "kong_not_in_turn": ("非摸牌後開槓", "kong out of turn"), "forbidden_discard_after_chow": ("吃入打出", "forbidden "
                                                                                                           "discard "
                                                                                                           "after a "
                                                                                                           "chow"),
    "forbidden_discard_after_pung": ("碰入打出", "forbidden discard after a pung"),
    "chow_own_recent_discard": ("打出吃入", "chow of own recent discard"),
    "claim_in_last_tiles": ("末段吃碰", "claim in the last tiles"),
    "claim_revealed_tiles": ("以外露之牌吃碰", "claim with revealed tiles"),
    "passed_pung": ("過水碰", "passed pung"), "unfulfilled_call": ("喊而未行", "call not carried out"),
    "exposed_discard": ("錯打明牌", "exposed discard"), "dead_hand_act": ("相公吃碰胡", "a dead hand's act"),
    "false_win": ("詐胡", "false win"), "passed_win": ("過水違規", "passed-win violation"),
    "win_out_of_turn": ("無牌可胡", "nothing to win on"),
    "self_draw_not_from_draw": ("非摸牌自摸", "self-draw not from a draw"),
    "replacement_self_draw": ("碰槓補牌自摸", "self-draw on a melded kong's replacement"),
    "kong_draw_passed_tile": ("暗槓補牌過水自摸", "self-draw on a passed tile after a kong"),
    "self_draw_after_placing": ("靠張後自摸", "self-draw after placing"),
    "flower_win_unreplaced": ("花胡未補牌", "flower win unreplaced"), "lost_priority": ("喪失優先權", "lost priority"),
    "ready_not_ready": ("宣告聽牌未聽", "declared ready, not ready"), "ready_untimely": ("宣告聽牌時機不符", "untimely "
                                                                                                             "ready"),
    "ready_not_played": ("不玩宣告聽牌", "ready not played"), "ready_changed": ("聽牌後換牌", "changed after ready"),
    "reported": ("裁判報告", "official's report"),
}

#: a hand's outcome (the ``outcome`` ruling's code) → (zh-TW, English)
OUTCOMES: dict[str, tuple[str, str]] = {
    "win": ("胡牌", "win"), "exhaustive_draw": ("荒局", "exhaustive draw"),
    "ended_by_irregularity": ("因違規終止", "ended by an irregularity"), "void": ("未完成", "void"),
}


def report_title(code: str) -> tuple[str, str]:
    """``(zh, en)``: the short name of an official's report *code*
    (:data:`penalties.rule.REPORTS`: 「判相公」, 「相公：偷牌」), else :func:`title`."""
    from .rule import REPORTS

    report = REPORTS.get(code)
    if report is not None:
        return report[1].split("（")[0], report[2].split(" (")[0]
    return title(code)


def title(code: str) -> tuple[str, str]:
    """``(zh, en)``: the short name of a ruling's, an irregularity's or a report's *code*
    (the code itself when unknown: never a failure on a page)."""
    found = RULINGS.get(code) or IRREGULARITIES.get(code) or OUTCOMES.get(code)
    if found is not None:
        return found
    if code.startswith("wrong_kong_"):
        rest = code[len("wrong_kong_"):]
        kind, _, stage = rest.partition("_")
        if kind in _WRONG_KONG and stage in _WRONG_KONG_STAGE:
            return (_WRONG_KONG[kind][0] + _WRONG_KONG_STAGE[stage][0],
                    _WRONG_KONG[kind][1] + _WRONG_KONG_STAGE[stage][1])
    for family, words in (("wrong_pung_", ("錯碰", "wrong pung")), ("wrong_chow_", ("錯吃", "wrong chow")),
                          ("exposed_discard_", ("錯打明牌", "exposed discard"))):
        if code.startswith(family) and code[len(family):] in _STAGE:
            stage = _STAGE[code[len(family):]]
            return words[0] + stage[0], words[1] + stage[1]
    first, sep, second = code.partition("_over_")
    if sep and first in _ACTS and second in _ACTS:
        return (f"優先權：{_ACTS[first][0]}優先於{_ACTS[second][0]}",
                f"priority: {_ACTS[first][1]} over {_ACTS[second][1]}")
    from .rule import REPORTS

    report = REPORTS.get(code)
    if report is not None:
        return report[1].split("（")[0], report[2].split(" (")[0]
    return code, code


__all__ = ["IRREGULARITIES", "OUTCOMES", "RULINGS", "report_title", "title"]

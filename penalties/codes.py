"""The catalogue of ruling codes: each stable ASCII code, the clause it applies, and the
sentence an official reads out (zh-TW and English templates).

Templates read words given by the module that makes the ruling: ``{seat}`` is the
offender, ``{tile}`` a tile name, ``{why_zh}``/``{why}`` the 相公 cause, ``{face}`` the
台 of the face value, ``{payee}`` a seat paid ... :func:`words` fills the seat and tile
names; a missing word shows as ``?`` rather than failing.
"""
from __future__ import annotations

import re
from typing import Any

from referee.tiles import tile_name
from referee.verdicts import seat_name

from .words import seat_en, seat_zh

#: code → (clause, zh-TW template, English template)
CODES: dict[str, tuple[str, str, str]] = {
    # 相公 pen.dead-hand
    "dead_hand": ("pen.dead-hand", "{seat} 號座{why_zh}，判相公：此後僅得依序摸牌打牌，不得吃碰、搶花或胡牌。",
                  "Seat {seat}: {why}; dead hand: from now on it only draws and discards, no chow, pung, robbing a "
                  "flower or win."),
    "dead_hand_second_violation": ("pen.pay-all", "{seat} 號座已為相公又{act_zh}，相公二度違規，"
                                                  "依底注加牌面 {face} 台包賠三家，本盤終止。",
                                   "Seat {seat}, already a dead hand, {act}: a second violation; it pays all three the "
                                   "base plus its face of {face} 台 and the hand ends."),
    # 詐胡 pen.false-win
    "false_win": ("pen.false-win.1", "{seat} 號座詐胡（{why_zh}）：依底注加牌面 {face} 台分別賠付三家，"
                                     "莊連拉之台數與莊家計賠；{dealer_zh}。",
                  "Seat {seat} declared a false win ({why}): it pays each of the three the base plus its face of "
                  "{face} 台, the dealer's 台 with the dealer; {dealer}."),
    # 喊碰未碰 pen.unfulfilled-call
    "unfulfilled_call": ("pen.unfulfilled-call", "{seat} 號座喊碰 {tile} 未碰，罰 1 台付予打出該牌的 {payee} 號座。",
                         "Seat {seat} called pung on {tile} and did not make it: fined 1 台, paid to seat {payee}, who "
                         "discarded it."),
    "unfulfilled_call_previous": ("pen.unfulfilled-call", "{seat} 號座喊碰 {tile} 未碰，此牌為上家所打，不罰。",
                                  "Seat {seat} called pung on {tile} and did not make it; the tile was its previous "
                                  "player's discard: no fine."),
    "unfulfilled_call_forced": ("pen.unfulfilled-call", "{seat} 號座喊碰 {tile} 並已亮出對子，必須履行碰牌。",
                                "Seat {seat} called pung on {tile} and showed the pair: the pung must be made."),
    # 眼牌 pen.peek
    "walking_eye_fee": ("pen.peek", "{seat} 號座眼牌，{payee} 號座胡牌，付胡牌者 1 台。",
                        "Seat {seat} walked as the eye; seat {payee} won: it pays the winner 1 台."),
    "walking_eye_violation": ("pen.peek", "{seat} 號座眼牌違規（{why_zh}），視同相公。",
                              "Seat {seat} broke the walking-eye rules ({why}): a dead hand."),
    "walking_eye_second_violation": ("pen.peek", "{seat} 號座眼牌二度違規（{why_zh}），"
                                                 "就其底注與牌面 {face} 台包賠三家，莊連拉照算，本盤終止。",
                                     "Seat {seat} broke the walking-eye rules a second time ({why}): it pays all three "
                                     "its base plus its face of {face} 台, the dealer's 台 as usual, and the hand "
                                     "ends."),
    "walking_eye_passed_win": ("pen.peek", "{seat} 號座眼牌者胡牌，回溯發現曾經過水，胡牌無效，"
                                           "依牌面 {face} 台包賠三家。",
                               "Seat {seat}, a walking eye, won, but had passed a win earlier: the win is void and it "
                               "pays all three with its face of {face} 台."),
    # 包賠 pen.pay-all
    "pay_all": ("pen.pay-all", "{seat} 號座{why_zh}，依底注加牌面 {face} 台賠付三家與外插者，本盤終止。",
                "Seat {seat}: {why}; it pays the three others and the outside side-stakers the base plus its face of "
                "{face} 台; the hand ends."),
    # 紀錄有誤 deal.walls: the record shows more copies of a tile than the set holds
    "record_error": ("deal.walls", "紀錄有誤：第 {seq} 號事件記錄的{tile}已見 {seen} 張，整副牌只有 {limit} 張；"
                                   "請裁判查明更正紀錄，此事件不予裁罰。",
                     "The record is wrong: event {seq} records {tile}, already seen {seen} times where the set has "
                     "{limit}; the officials are to find out and correct the record; the event is not penalised."),
    # 代位賠付 pen.substitute
    "substitute_liability": ("pen.substitute", "{payee} 號座{win_zh}落在 {seat} "
                                               "號座的代位賠付時段內（{window_zh}），由 {seat} 號座代替{payers_zh}支付"
                                               " {amount}。",
                             "Seat {payee}'s {win} falls within seat {seat}'s liability ({window}): seat {seat} pays "
                             "{amount} instead of {payers}."),
    # 錯槓 pen.wrong-kong.*
    "wrong_kong_concealed": ("pen.wrong-kong.concealed.1", "有人{win_zh}，檢查盤中暗槓：{seat} 號座錯暗槓，"
                                                           "代位賠付{share_zh}。",
                             "Someone won by {win}; the concealed kongs are inspected: seat {seat}'s is wrong and it "
                             "pays in place of the usual payers{share}."),
    "wrong_kong_concealed_exhausted": ("pen.wrong-kong.concealed.2", "{seat} 號座於牌牆末八張內錯暗槓，荒局檢出，"
                                                                     "依牌面 {face} 台包賠三家。",
                                       "Seat {seat} made a wrong concealed kong within the last eight tiles; found at "
                                       "the exhaustive draw: it pays all three with its face of {face} 台."),
    "wrong_kong_concealed_found": ("pen.wrong-kong.concealed.3", "{seat} 號座錯暗槓，判相公；{liability_zh}",
                                   "Seat {seat} made a wrong concealed kong: dead hand; {liability}"),
    "wrong_kong_added_corrected": ("pen.wrong-kong.added", "{seat} 號座錯加槓，未補牌前即時糾正，免罰。",
                                   "Seat {seat} made a wrong added kong, corrected before the replacement was drawn: "
                                   "no penalty."),
    "wrong_kong_added_robbed": ("pen.wrong-kong.added", "{seat} 號座錯加槓被搶槓，不得免罰：搶槓胡牌成立，"
                                                        "由 {seat} 號座賠付。",
                                "Seat {seat}'s wrong added kong was robbed: no pardon; the robbing win stands and seat "
                                "{seat} pays it."),
    "wrong_kong_added_restored": ("pen.wrong-kong.added.1", "{seat} 號座錯加槓，所補之牌尚未插入手牌即發現，"
                                                            "強制復原{strict_zh}。",
                                  "Seat {seat}'s wrong added kong was found before the replacement reached the hand: "
                                  "restored{strict}."),
    "wrong_kong_added_returned": ("pen.wrong-kong.added.2", "{seat} 號座錯加槓，所補之牌已插入手牌尚未打牌即發現："
                                                            "{return_zh}，判相公，牌局依原順序繼續。",
                                  "Seat {seat}'s wrong added kong was found after the replacement reached the hand, "
                                  "before a discard: {return_en}; dead hand; play goes on in the original order."),
    "wrong_kong_added_completed": ("pen.wrong-kong.added.3", "{seat} 號座錯加槓既遂，判相公，牌局依新順序繼續，"
                                                             "並對本盤內涉及槓上的自摸、原牌放銃負代位賠付責任。",
                                   "Seat {seat}'s wrong added kong stood: dead hand, play goes on in the new order, "
                                   "and it is liable for self-draws on tail tiles and deal-ins with a tail tile as "
                                   "drawn for the rest of the hand."),
    "wrong_kong_added_last_tiles": ("pen.wrong-kong.added.3", "{seat} 號座錯加槓既遂於本盤最後可摸之牌 8 張以內，"
                                                              "加重處罰依牌面 {face} 台包賠三家，本盤終止。",
                                    "Seat {seat}'s wrong added kong stood within the last eight drawable tiles: it "
                                    "pays all three with its face of {face} 台 and the hand ends."),
    "wrong_kong_melded_call": ("pen.wrong-kong.melded", "{seat} 號座錯碰槓，未補牌前即時糾正，"
                                                        "依喊碰未碰罰 1 台{payee_zh}。",
                               "Seat {seat}'s wrong melded kong was corrected before the replacement: fined as a pung "
                               "called and not made, 1 台{payee_en}."),
    "wrong_kong_melded_call_previous": ("pen.wrong-kong.melded", "{seat} 號座錯碰槓，未補牌前即時糾正，強制復原；"
                                                                 "依喊碰未碰之處理，此牌為上家所打，不罰。",
                                        "Seat {seat}'s wrong melded kong was corrected before the replacement: "
                                        "restored; as a pung called and not made it is not fined, the tile being the "
                                        "previous player's discard."),
    "wrong_kong_melded_restored": ("pen.wrong-kong.melded.1", "{seat} 號座錯碰槓，所補之牌尚未插入手牌即發現："
                                                              "該牌歸回槓上，判相公，該刻子見光死亮出門前。",
                                   "Seat {seat}'s wrong melded kong was found before the replacement reached the hand: "
                                   "the tile goes back, dead hand, and the pung stays exposed."),
    "wrong_kong_melded_returned": ("pen.wrong-kong.melded.2", "{seat} 號座錯碰槓，所補之牌已插入手牌尚未打牌即發現："
                                                              "{return_zh}，判相公，牌局依原順序繼續。",
                                   "Seat {seat}'s wrong melded kong was found after the replacement reached the hand, "
                                   "before a discard: {return_en}; dead hand; play goes on in the original order."),
    "wrong_kong_melded_completed": ("pen.wrong-kong.melded.3", "{seat} 號座錯碰槓既遂，判相公，牌局依新順序繼續，"
                                                               "並對其後摸序 8 張以內的自摸與本盤內涉及槓上的自摸、"
                                                               "原牌放銃負代位賠付責任。",
                                    "Seat {seat}'s wrong melded kong stood: dead hand, play goes on in the new order, "
                                    "and it is liable for self-draws within the next eight draws and for tail-tile "
                                    "wins for the rest of the hand."),
    "wrong_kong_melded_last_tiles": ("pen.wrong-kong.melded.3", "{seat} 號座錯碰槓既遂於本盤最後可摸之牌 8 張以內，"
                                                                "加重處罰依牌面 {face} 台包賠三家，本盤終止。",
                                     "Seat {seat}'s wrong melded kong stood within the last eight drawable tiles: it "
                                     "pays all three with its face of {face} 台 and the hand ends."),
    # 錯碰 pen.wrong-pon.*
    "wrong_pung_caught": ("pen.wrong-pon.1", "{seat} 號座錯碰未遂：於下家摸牌併入手牌前發現，強制復原並判相公。",
                          "Seat {seat}'s wrong pung was caught before the next player drew into the hand: restored, "
                          "dead hand."),
    "wrong_pung_completed": ("pen.wrong-pon.2", "{seat} 號座錯碰既遂，判相公，並對其後摸序 8 張以內他人之自摸負代位賠付"
                                                "責任。",
                             "Seat {seat}'s wrong pung stood: dead hand, and it is liable for others' self-draws "
                             "within the next eight draws."),
    "wrong_chow_completed": ("pen.substitute", "{seat} 號座錯吃改變行牌順序既遂，判相公，"
                                               "並對其後摸序 8 張以內他人之自摸負代位賠付責任。",
                             "Seat {seat}'s wrong chow changed the turn order and stood: dead hand, and it is liable "
                             "for others' self-draws within the next eight draws."),
    # 錯打明牌 pen.exposed-discard.*
    "exposed_discard_restored": ("pen.exposed-discard.1", "{seat} 號座錯打明牌 {tile}，無人吃碰或叫胡：判相公，"
                                                          "復原門前搭並強制改打{instead_zh}。",
                                 "Seat {seat} discarded {tile} from an exposed meld and nobody claimed it: dead hand; "
                                 "the meld is restored and it discards {instead} instead."),
    "exposed_discard_claimed": ("pen.exposed-discard.2", "{seat} 號座錯打明牌 {tile}，有人吃碰：判相公，復原改打，"
                                                         "並賠付已亮牌欲吃碰者各 1 台，此牌不得吃碰。",
                                "Seat {seat} discarded {tile} from an exposed meld and it was claimed: dead hand; "
                                "restored and discarded again; each player who showed tiles to claim it gets 1 台; the "
                                "tile may not be claimed."),
    "exposed_discard_won": ("pen.exposed-discard.3", "{seat} 號座錯打明牌 {tile}，{payee} 號座胡牌：賠付該銃，"
                                                     "復原門前搭並強制打出摸來的牌。",
                            "Seat {seat} discarded {tile} from an exposed meld and seat {payee} won on it: it pays "
                            "that win, restores the meld and must discard the drawn tile."),
    "exposed_discard_won_twice": ("pen.exposed-discard.3", "{seat} 號座復原後打出摸來的牌又放銃予 {payee} 號座："
                                                           "再賠付一次，本盤結束；{dealer_zh}。",
                                  "Seat {seat}'s drawn tile, discarded after restoring, dealt in again to seat "
                                  "{payee}: it pays again and the hand ends; {dealer}."),
    "exposed_discard_unnoticed": ("pen.exposed-discard.4", "{seat} 號座錯打明牌 {tile} 無人糾正並繼續行牌，"
                                                           "對其後摸序 8 張以內他人之自摸負代位賠付責任。",
                                  "Seat {seat} discarded {tile} from an exposed meld, nobody corrected it and play "
                                  "went on: it is liable for others' self-draws within the next eight draws."),
    # 連莊示記 score.streak-marker
    "streak_marker_low": ("score.streak-marker", "莊家 {seat} 號座連莊示記為{marker_zh}，低於實際{streak_zh}："
                                                 "莊家胡牌以所示計收，放銃或他人自摸時以實際計付。",
                          "The dealer, seat {seat}, marks a streak of {marker}, below the real {streak}: he collects "
                          "by the marker and pays by the real streak."),
    "streak_marker_high": ("score.streak-marker", "莊家 {seat} 號座連莊示記為{marker_zh}，高於實際{streak_zh}："
                                                  "莊家胡牌以實際計收，放銃或他人自摸時以所示計付。",
                           "The dealer, seat {seat}, marks a streak of {marker}, above the real {streak}: he collects "
                           "by the real streak and pays by the marker."),
    # 優先權 prio.*
    "pung_over_self_draw": ("prio.1", "{seat} 號座喊碰早於下家 {other} 號座自摸之表示，碰牌優先。",
                            "Seat {seat} called pung before seat {other}, the next player, showed a self-draw: the "
                            "pung has priority."),
    "self_draw_over_pung": ("prio.1", "下家 {seat} 號座自摸之表示早於 {other} 號座喊碰，自摸優先。",
                            "Seat {seat}, the next player, showed its self-draw before seat {other} called pung: the "
                            "self-draw has priority."),
    "win_over_self_draw": ("prio.2", "{seat} 號座胡銃之表示早於下家 {other} 號座自摸之表示，胡銃優先。",
                           "Seat {seat} claimed the discard win before seat {other}, the next player, showed a "
                           "self-draw: the discard win has priority."),
    "self_draw_over_win": ("prio.2", "下家 {seat} 號座自摸之表示早於 {other} 號座胡銃之表示，自摸優先。",
                           "Seat {seat}, the next player, showed its self-draw before seat {other} claimed the "
                           "discard: the self-draw has priority."),
    "pung_over_chow": ("prio.3", "{seat} 號座喊碰時下家 {other} 號座尚未完成吃牌之亮牌與打牌，碰牌優先。",
                       "Seat {seat} called pung before seat {other} had exposed the chow and discarded: the pung has "
                       "priority."),
    "chow_over_pung": ("prio.3", "{other} 號座遲疑喊碰，下家 {seat} 號座已完成吃牌之亮牌與打牌，吃牌優先。",
                       "Seat {other} hesitated; seat {seat} had exposed its chow and discarded: "
                       "the chow has priority."),
    "pung_over_draw": ("prio.4", "{seat} 號座喊碰時下家 {other} 號座所摸之牌尚未入手牌列，碰牌優先，摸牌退回。",
                       "Seat {seat} called pung before seat {other}'s drawn tile reached the hand: the pung has "
                       "priority and the tile goes back."),
    "draw_over_pung": ("prio.4", "{other} 號座遲疑喊碰，下家 {seat} 號座所摸之牌已入手牌列，摸牌優先。",
                       "Seat {other} hesitated; seat {seat}'s drawn tile was already in the hand: the draw has "
                       "priority."),
    "pung_over_win": ("prio.5", "得胡銃的 {other} 號座已伸手摸牌並觸及牌牆，{seat} 號座碰牌優先，"
                                "{other} 號座視為過水不胡。",
                      "Seat {other}, who could win on the discard, had reached to the wall and touched it: seat "
                      "{seat}'s pung has priority and seat {other} has passed the win."),
    "win_over_pung": ("prio.5", "{seat} 號座胡銃優先於 {other} 號座碰牌。",
                      "Seat {seat}'s win on the discard has priority over seat {other}'s pung."),
    "chow_over_win": ("prio.6", "得胡銃的 {other} 號座遲疑，{seat} 號座已完成吃牌之亮搭與打牌，吃牌優先，"
                                "{other} 號座視為過水。",
                      "Seat {other} hesitated to win; seat {seat} had exposed its chow and discarded: the chow has "
                      "priority and seat {other} has passed the win."),
    "win_over_chow": ("prio.6", "{seat} 號座胡銃之表示早於 {other} 號座完成吃牌，胡銃優先，吃牌取消。",
                      "Seat {seat} claimed the win before seat {other} completed the chow: the win has priority and "
                      "the chow is undone."),
    "draw_over_win": ("prio.7", "得胡銃的 {other} 號座遲疑，放銃者之下家 {seat} 號座已完成摸牌與打牌，摸牌優先，"
                                "{other} 號座視為過水。",
                      "Seat {other} hesitated to win; seat {seat}, the discarder's next player, had drawn and "
                      "discarded: the draw has priority and seat {other} has passed the win."),
    "win_over_draw": ("prio.7", "{seat} 號座胡銃之表示早於下家 {other} 號座完成摸牌與打牌，胡銃優先，摸牌退回。",
                      "Seat {seat} claimed the win before seat {other} had drawn and discarded: the win has priority "
                      "and the drawn tile goes back."),
    "later_win_over_touched": ("prio.8", "{other} 號座已伸手摸牌，視為過水不胡；輪序在後的 {seat} 號座胡銃優先。",
                               "Seat {other} had reached to the wall and passed the win; seat {seat}, later in turn "
                               "order, has priority."),
    "lost_priority_win": ("prio.penalty.1", "{seat} 號座已喪失{lost_zh}優先權仍執意推倒手牌：胡牌無效，"
                                            "依牌面 {face} 台包賠三家。",
                          "Seat {seat} lost priority for its {lost} and still laid down its hand: the win is void and "
                          "it pays all three with its face of {face} 台."),
    "lost_priority_win_vs_win": ("prio.penalty.1", "{seat} 號座已伸手摸牌喪失胡銃優先權仍推倒手牌："
                                                   "胡牌無效（胡銃對胡銃，不包賠）。",
                                 "Seat {seat} had reached to the wall, lost priority to another win and still laid "
                                 "down its hand: the win is void (win against win: no paying for all)."),
    "lost_priority_pung": ("prio.penalty.2", "{seat} 號座已喪失碰牌優先權仍執意碰牌：判相公，"
                                             "並對後續摸序 8 張以內他人之自摸負代位賠付責任。",
                           "Seat {seat} lost priority for its pung and still made it: dead hand, and it is liable for "
                           "others' self-draws within the next eight draws."),
    # 插花 bet.chahua
    "side_stake": ("bet.chahua", "插花：{backer_zh}，依插花注計付。",
                   "Side stake: {backer}; settled by the stake."),
    "side_stake_void": ("bet.chahua", "外插者 {backer} 以聲音、動作、表情或眼神影響行牌：該次贏無效，輸照付。",
                        "The outside side-staker {backer} influenced play by voice, gesture, expression or glance: his "
                        "winnings this hand are void, losses paid."),
}


#: words that name a seat: read out by the hand's winds (東家, 南家 …, :mod:`penalties.words`)
SEAT_WORDS = ("seat", "payee", "other")
_SEAT_ZH = re.compile(r" ?\{(seat|payee|other)\} 號座")
_SEAT_EN = re.compile(r"\b[Ss]eat \{(seat|payee|other)\}")


def _by_wind(codes: dict[str, tuple[str, str, str]]) -> dict[str, tuple[str, str, str]]:
    """The templates with each seat word standing alone (「{seat} 號座」 → 「{seat}」), as
    :func:`render` fills it with the seat's name (「東家」, or 「1 號座」 without the winds)."""
    out = {}
    for code, (clause, zh, en) in codes.items():
        zh = _SEAT_ZH.sub(r"{\1}", zh.replace("莊家 {seat} 號座", "莊家（{seat}）"))
        out[code] = (clause, zh, _SEAT_EN.sub(r"{\1}", en))
    return out


CODES = _by_wind(CODES)


def seat_words(seat: int, east: int | None, names: Any = None) -> tuple[str, str]:
    """``(zh, en)`` naming *seat*: by the player's name at a tournament table (*names*: seat
    → name, 「南家 李大華」, "South (seat 1, Li)"), by its wind this hand when the wall-break
    seat *east* is known (「南家」, "South (seat 1)"), else by number (「1 號座」, "seat 1")."""
    name = seat_name(names, seat)
    if east is None:
        return (f"{seat} 號座 {name}", f"seat {seat} ({name})") if name else (f"{seat} 號座", f"seat {seat}")
    if name:
        return f"{seat_zh(seat, east)} {name}", f"{seat_en(seat, east)[:-1]}, {name})"
    return seat_zh(seat, east), seat_en(seat, east)


def streak_zh(n: int) -> str:
    """A dealer's streak as the table says it: 連N拉N (``settle.streak``: 連2拉2 with 作莊 is 5 台)."""
    return f"連{n}拉{n}"


def words(**raw: Any) -> dict[str, Any]:
    """Template words: tile indices under ``tile``/``tiles`` keys become names (zh under
    ``*_zh`` keys when not given)."""
    out = dict(raw)
    for key in ("tile",):
        value = raw.get(key)
        if type(value) is int:
            out[key] = tile_name(value)
            out.setdefault(f"{key}_zh", tile_name(value, "zh"))
    for key in ("marker", "streak"):
        value = raw.get(key)
        if type(value) is int:
            out.setdefault(f"{key}_zh", streak_zh(value))
    return out


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def render(code: str, *, east: int | None = None, names: Any = None, **raw: Any) -> tuple[str, str, str]:
    """``(clause, text_zh, text)`` of a code with its words; seats are named by their wind
    when *east* (the hand's wall-break seat, 開門位) is given, and by the players' *names*
    (seat → name) at a tournament table."""
    clause, zh, en = CODES[code]
    w = words(**raw)
    en_words = _Missing(w)
    zh_words = _Missing(w)
    for key, value in list(w.items()):
        if key.endswith("_zh"):
            zh_words[key[:-3]] = value
    if "tile_zh" in w:
        zh_words["tile"] = w["tile_zh"]
    for key in SEAT_WORDS:
        value = w.get(key)
        if type(value) is int and 0 <= value < 4:
            zh_words[key], en_words[key] = seat_words(value, east, names)
    text = en.format_map(en_words)
    return clause, zh.format_map(zh_words), text[:1].upper() + text[1:]


__all__ = ["CODES", "SEAT_WORDS", "render", "seat_words", "streak_zh", "words"]

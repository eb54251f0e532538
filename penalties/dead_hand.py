"""相公 (``pen.dead-hand``): the causes, and what a second violation costs (``pen.pay-all``).

「缺張、逾張、錯吃碰槓、偷牌、花牌未補、花牌打出、錯位摸補、搶摸、吃碰未撿入、吃入打出、打出吃入、
窺視暗牌、帶牌摸牌等經舉發或自承，是為相公。相公僅得依序摸牌(得自槓,補花)並擇牌打出，不得吃碰.搶花或胡牌。」

A cause is found in the stream by the referee (:data:`REFEREE_CAUSES`) or reported by an
official (``report`` events, code ``dead_hand`` with the cause in the note, or the cause
itself as the code: :data:`CAUSES`). The first violation makes the seat a dead hand; a
seat already dead that violates again — a new cause, or a chow, pung, melded kong,
robbed flower or win it may not make — pays for all (包賠: 「相公二度違規」) and the hand
ends. A dead hand's win declaration is a 詐胡 (:mod:`penalties.false_win`).
"""
from __future__ import annotations

from .docket import Docket
from .face import face_value
from .rulings import Effect, Ruling

#: cause → (zh-TW, English), in the clause's order
CAUSES: dict[str, tuple[str, str]] = {
    "short_hand": ("缺張", "is short of tiles (缺張)"),
    "long_hand": ("逾張", "holds too many tiles (逾張)"),
    "wrong_claim": ("錯吃碰槓", "made a wrong chow, pung or kong (錯吃碰槓)"),
    "stolen_tile": ("偷牌", "took a tile it was not owed (偷牌)"),
    "flower_not_replaced": ("花牌未補", "did not replace a flower (花牌未補)"),
    "flower_discarded": ("花牌打出", "discarded a flower (花牌打出)"),
    "wrong_replacement": ("錯位摸補", "drew or replaced from the wrong place (錯位摸補)"),
    "grabbed_draw": ("搶摸", "drew out of turn (搶摸)"),
    "claim_not_taken": ("吃碰未撿入", "did not take in the claimed tile (吃碰未撿入)"),
    "claimed_tile_discarded": ("吃入打出", "discarded the tile it had just claimed (吃入打出)"),
    "discarded_tile_chowed": ("打出吃入", "chowed a tile like its own discard of the go-around (打出吃入)"),
    "peeked": ("窺視暗牌", "looked at concealed tiles (窺視暗牌)"),
    "draw_holding_tile": ("帶牌摸牌", "drew while holding a tile (帶牌摸牌)"),
}

#: the referee's irregularity codes that are a 相公 cause
REFEREE_CAUSES: dict[str, str] = {
    "out_of_turn_draw": "grabbed_draw",
    "unowed_replacement": "wrong_replacement",
    "discard_before_intake": "short_hand",
    "missing_replacement": "short_hand",
    "out_of_turn_discard": "short_hand",
    "flower_not_replaced": "flower_not_replaced",
    "flower_discarded": "flower_discarded",
    "forbidden_discard_after_chow": "claimed_tile_discarded",
    "forbidden_discard_after_pung": "claimed_tile_discarded",
    "chow_own_recent_discard": "discarded_tile_chowed",
    "chow_wrong_seat": "wrong_claim",
    "chow_not_a_run": "wrong_claim",
    "pung_not_alike": "wrong_claim",
    "claim_in_last_tiles": "wrong_claim",
    "claim_revealed_tiles": "wrong_claim",
    "passed_pung": "wrong_claim",
    "melded_kong_previous_player": "wrong_claim",
    "kong_after_claim": "wrong_claim",
    "concealed_kong_after_melded": "wrong_claim",
    "kong_not_in_turn": "wrong_claim",
    "second_intake": "wrong_claim",
    "claim_own_discard": "wrong_claim",
    "claim_nothing": "wrong_claim",
    "claim_tiles_not_held": "wrong_claim",
    "kong_tiles_not_held": "wrong_claim",
    "added_kong_no_pung": "wrong_claim",
    "lost_priority": "wrong_claim",
    "wrong_kong": "wrong_claim",
}


def cause_words(cause: str) -> dict[str, str]:
    zh, en = CAUSES.get(cause, (cause, cause))
    return {"why_zh": zh, "why": en}


def violate(docket: Docket, seat: int, seq: int, evidence: tuple[int, ...], *, code: str = "dead_hand",
            cause: str, effects: tuple[Effect, ...] = (), cites: tuple[str, ...] = (), walking: bool = False,
            payments: tuple = (), **words) -> Ruling:
    """A violation by *seat* at event *seq*: the first makes it a dead hand (ruling *code*,
    with *effects* and *payments* added); once dead, another one is 相公二度違規 (or 眼牌二度違規
    when *walking*): it pays for all three (and *payments*) and the hand ends (``pen.pay-all``)."""
    docket.ruled.add(seq)
    count = docket.violations.get(seat, 0) + 1
    docket.violations[seat] = count
    w = {**cause_words(cause), **words}
    if count == 1 and seat not in docket.dead:
        return docket.make(code, offender=seat, evidence=evidence, cause=cause, cites=cites, payments=tuple(payments),
                           effects=(Effect("dead_hand", seat=seat, seq=seq), *effects), **w)
    face, _how = face_value(docket.record, seat, seq)
    payments = tuple(payments) + docket.pay_all(seat, face)
    ends = docket.dealer_effects(seat)
    if walking:
        return docket.make("walking_eye_second_violation", offender=seat, evidence=evidence, cause=cause,
                           effects=ends, payments=payments, cites=("pen.pay-all", *cites), face=face, **w)
    act_zh, act = w["why_zh"], w["why"]
    return docket.make("dead_hand_second_violation", offender=seat, evidence=evidence, cause=cause,
                       effects=ends, payments=payments, cites=("pen.dead-hand", *cites), face=face,
                       act_zh=act_zh, act=act)


def dead_hand_act(docket: Docket, seat: int, seq: int, act: str) -> Ruling:
    """A dead hand chowed, punged, made a melded kong or robbed a flower: 相公二度違規."""
    zh, en = {"chow": ("吃牌", "chowed"), "pung": ("碰牌", "punged"), "melded kong": ("碰槓", "made a melded kong"),
              "kong": ("碰槓", "made a melded kong")}.get(act, (act, act))
    docket.ruled.add(seq)
    docket.violations[seat] = max(docket.violations.get(seat, 0), 1) + 1
    face, _how = face_value(docket.record, seat, seq)
    return docket.make("dead_hand_second_violation", offender=seat, evidence=(seq, docket.dead.get(seat, seq)),
                       cause="dead_hand_act", effects=docket.dealer_effects(seat),
                       payments=docket.pay_all(seat, face), cites=("pen.dead-hand",), face=face, act_zh=zh, act=en)


__all__ = ["CAUSES", "REFEREE_CAUSES", "cause_words", "dead_hand_act", "violate"]

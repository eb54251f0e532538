"""詐胡 (``pen.false-win``, ``.1``–``.3``), and a win laid down after losing priority
(``prio.penalty.1``).

「非為可胡牌情況(含缺張、逾張、錯胡、錯位摸補、搶摸、自摸違規、眼牌違規、過水違規、相公等)卻推倒全部或一部牌張
(含將牌)而為胡牌之動作或意思表示，是為詐胡。」

* ``.1`` the offender pays each of the three the base plus the face value (牌面,
  :mod:`penalties.face`); the dealer's 台 (莊連拉) go with the dealer: a non-dealer pays
  them to the dealer alone, a dealer to all three (:func:`penalties.payments.pay_all`);
* ``.2`` side stakes: :mod:`penalties.side_stakes`;
* ``.3`` a dealer's false win passes the deal; a non-dealer's leaves the dealer the deal
  without counting the hand in the streak.

The win declared is void and the hand ends. A win laid down after losing the self-draw
or discard-win priority is paid the same way (包賠 on the face) under ``prio.penalty.1``;
after losing to another discard win (``prio.8``) it is only void.
"""
from __future__ import annotations

from referee.events import Call, Event, EventType
from referee.melds import MeldKind
from referee.verdicts import Irregularity

from .docket import Docket
from .face import face_value
from .priority import Decision
from .rulings import Effect

#: the referee's codes on a win event → (cause, zh-TW, English)
WIN_CAUSES: dict[str, tuple[str, str, str]] = {
    "dead_hand_act": ("dead_hand", "相公胡牌", "a dead hand may not win"),
    "passed_win": ("passed_win", "過水違規", "its passed win was not released"),
    "false_win": ("not_winning", "錯胡", "the hand does not win"),
    "win_out_of_turn": ("nothing_to_win", "無牌可胡", "there was no tile to win on"),
    "self_draw_not_from_draw": ("self_draw_violation", "自摸違規：自摸須始於摸牌",
                                "a self-draw must start with a draw"),
    "replacement_self_draw": ("self_draw_violation", "自摸違規：碰槓之補牌不得自摸", "no self-draw on a melded kong's "
                                                                                     "replacement"),
    "kong_draw_passed_tile": ("self_draw_violation", "自摸違規：暗槓前所摸之牌已靠入手牌", "the tile drawn before the "
                                                                                           "concealed kong was placed"),
    "self_draw_after_placing": ("self_draw_violation", "自摸違規：所摸之牌已靠張", "the drawn tile touched the hand"),
    "missing_replacement": ("short_hand", "缺張：未補牌", "a replacement was not drawn"),
    "flower_not_replaced": ("flower_not_replaced", "花牌未補", "a flower was not replaced"),
    "claim_revealed_tiles": ("revealed_tiles", "胡自行外露之牌", "won on tiles it had shown itself"),
    "lost_priority": ("lost_priority", "喪失優先權", "it had lost priority"),
}
_LOST_ZH = {"self_draw": ("自摸", "self-draw"), "win": ("胡銃", "win on the discard")}


def rule_win(docket: Docket, ev: Event, irrs: list[Irregularity], decision: Decision | None) -> None:
    """Rule on a win declaration that cannot stand."""
    record = docket.record
    seat = ev.seat
    docket.ruled.add(ev.seq)
    codes = [i.code for i in irrs]
    for i in irrs:
        docket.used.add((i.seq, i.code))
    passed = next((i for i in irrs if i.code == "passed_win" and i.fact("reached_for_wall")), None)
    lost = next((i for i in irrs if i.code == "lost_priority"), None)
    if (decision is not None and decision.lost == "win_vs_win") or (
            decision is None and passed is not None and passed.fact("prio") == "prio.8"
            and _other_win_stands(docket, ev)):
        cites = ("prio.8",)
        evidence = (decision.evidence if decision is not None
                    else (passed.evidence[1],) if len(passed.evidence) > 1 else ())
        docket.make("lost_priority_win_vs_win", offender=seat, evidence=(ev.seq, *evidence), cites=cites,
                    effects=(Effect("win_void", seat=seat), Effect("passed_win", seat=seat)))
        return
    prio_clause = None
    lost_what = "win"
    if decision is not None:
        prio_clause, lost_what = decision.clause, decision.lost
    elif lost is not None:
        prio_clause = lost.clause if lost.clause.startswith("prio") else "prio"
        lost_what = "self_draw" if prio_clause == "prio.2" and _was_self_draw(docket, ev) else "win"
    elif passed is not None and _pung_called(docket, ev):
        prio_clause = "prio.5"
    face, how = face_value(record, seat, ev.seq, win=ev)
    if _other_win_stands(docket, ev):  # the hand ends with that win; its dealer rule holds
        effects = (Effect("win_void", seat=seat), Effect("hand_ended"))
    else:
        effects = (Effect("win_void", seat=seat), *docket.dealer_effects(seat))
    payments = docket.pay_all(seat, face)
    if prio_clause is not None:
        zh, en = _LOST_ZH.get(lost_what, _LOST_ZH["win"])
        docket.make("lost_priority_win", offender=seat, evidence=(ev.seq, *(decision.evidence if decision else ())),
                    effects=effects, payments=payments, cites=(prio_clause, "pen.pay-all"), cause="lost_priority",
                    face=face, lost_zh=zh, lost=en)
        return
    if docket.is_dead(seat, ev.seq) and "dead_hand_act" not in codes:
        codes.insert(0, "dead_hand_act")
    cause, cause_zh, cause_en = next((WIN_CAUSES[c] for c in codes if c in WIN_CAUSES),
                                     ("not_winning", "錯胡", "the hand does not win"))
    why = next((i for i in irrs if i.code == "false_win"), None)
    if why is not None and cause == "not_winning":
        cause_zh = f"{cause_zh}：{why.fact('why_zh', '')}".rstrip("：")
        cause_en = f"{cause_en}: {why.fact('why', '')}".rstrip(": ")
    docket.make("false_win", offender=seat, evidence=(ev.seq, *_more(irrs, ev.seq)), effects=effects,
                payments=payments, cites=("pen.false-win", "pen.false-win.3", "pen.pay-all"), cause=cause, face=face,
                why_zh=cause_zh, why=cause_en, **_dealer(docket, seat))


def _dealer(docket: Docket, seat: int) -> dict[str, str]:
    return docket.dealer_words(seat)


def _more(irrs: list[Irregularity], seq: int) -> tuple[int, ...]:
    out: list[int] = []
    for i in irrs:
        for s in i.evidence:
            if s != seq and s not in out:
                out.append(s)
    return tuple(out)


def _other_win_stands(docket: Docket, ev: Event) -> bool:
    return any(w.claim.seq != ev.seq and w.claim.seat != ev.seat and w.claim.seq not in docket.void_wins
               for w in docket.record.wins) or bool(docket.upheld - {ev.seq})


def _was_self_draw(docket: Docket, ev: Event) -> bool:
    m = docket.record.moment(ev.seq)
    return m.turn == ev.seat


def _pung_called(docket: Docket, ev: Event) -> bool:
    """A pung (or kong) was called on the discard the win was declared on (prio.5)."""
    for prev in docket.record.before(ev.seq):
        if prev.type is EventType.DISCARD:
            d = prev
            break
    else:
        return False
    for e in docket.record.after(d.seq):
        if e.type is EventType.DISCARD:
            break
        if e.seat in (None, ev.seat, d.seat):
            continue
        if e.type is EventType.CALL and e.kind in (Call.PUNG, Call.KONG):
            return True
        if e.type is EventType.PUNG or (e.type is EventType.KONG and e.kind is MeldKind.MELDED_KONG):
            return True
    return False


__all__ = ["WIN_CAUSES", "rule_win"]

"""The entry point: a hand's stream (or the referee's adjudication of it) in, rulings and the
final payments out.

    >>> from penalties import rule
    >>> rulings = rule(open("data/samples/pen_false_win.jsonl").read())   # doctest: +SKIP
    >>> rulings.codes, rulings.payments                                    # doctest: +SKIP

The events are read in order; each act the referee found irregular (at a physical table:
a digital table's illegal act was refused and changed nothing, so nothing is ruled on),
each act a dead hand or a walking eye may not make, each official's ``report``, and each
priority conflict becomes a ruling (:mod:`penalties.dead_hand`, :mod:`~penalties.false_win`,
:mod:`~penalties.unfulfilled_call`, :mod:`~penalties.peek`, :mod:`~penalties.wrong_kong`,
:mod:`~penalties.wrong_pung`, :mod:`~penalties.exposed_discard`, :mod:`~penalties.priority`).
Then the money: each win that stands is paid as the referee settled it, unless a liability
window covers it (:mod:`~penalties.substitute`); walking eyes pay the winner 1 台; an
exhaustive draw may make a wrong concealed kong pay all; the streak marker is noted; side
stakes follow (:mod:`~penalties.side_stakes`). The payments sum to zero.

Officials' report codes: :data:`REPORTS`.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from referee.events import Event, EventType, parse_event, parse_stream
from referee.kinds_fast import REPORT_EVENT
from referee.melds import MeldKind
from referee.outcome import Adjudication
from referee.replay import split_hands
from referee.ruleset import Ruleset
from referee.scoring.context import Stakes
from referee.verdicts import Irregularity

from . import exposed_discard, false_win, peek, priority, side_stakes, streak_marker, wrong_kong, wrong_pung
from .dead_hand import CAUSES, REFEREE_CAUSES, dead_hand_act, violate
from .docket import Docket, Liability
from .errors import AdjudicationError, ReportError
from .extra_wins import transfers as win_transfers
from .face import face_value
from .payments import check_zero, net
from .record import HandRecord
from .rulings import Effect, Payment, Rulings, rulings_of
from .side_stakes import SideStake
from .unfulfilled_call import rule_call

#: report code → (clause, zh-TW, English): what officials enter that a stream cannot show
REPORTS: dict[str, tuple[str, str, str]] = {
    "dead_hand": ("pen.dead-hand", "判相公（註記寫原因代碼，如 stolen_tile）", "a dead hand (the note names the cause, "
                                                                               "e.g. stolen_tile)"),
    **{cause: ("pen.dead-hand", f"相公：{zh}", f"a dead hand: {en}") for cause, (zh, en) in CAUSES.items()},
    "walking_eye": ("pen.peek", "起身眼牌", "stands to walk as the eye"),
    "walking_eye_not_ready": ("pen.peek", "未聽牌而眼牌", "walks as the eye without a ready hand"),
    "walking_eye_violation": ("pen.peek", "眼牌違規（註記寫明：carried_tile 帶牌走動、told 透露牌情 …）",
                              "breaks a walking-eye rule (the note names it: carried_tile, told ...)"),
    "passed_win": ("pen.peek", "眼牌者曾經過水（回溯發現）", "the walking eye had let a winning tile go (found "
                                                             "afterwards)"),
    "wall_disturbed": ("pen.pay-all", "弄亂牌牆或他人手牌致無法恢復",
                       "disturbed the wall or another hand beyond repair"),
    "caught": ("pen.wrong-kong", "當場發現錯誤（錯槓、錯碰、錯打明牌），停止行牌", "the error is caught now (wrong "
                                                                                   "kong, pung, exposed discard): play "
                                                                                   "stops"),
    "tile_unidentifiable": ("pen.wrong-kong.added.2", "所補之牌已插入手牌，無法確定哪張", "the replacement in the hand "
                                                                                          "cannot be identified"),
    "pair_exposed": ("pen.unfulfilled-call", "喊碰並亮出對子", "called pung and showed the pair"),
    "wrong_kong": ("pen.wrong-kong.concealed.1", "檢查暗槓：錯暗槓", "inspection: the concealed kong is wrong"),
    "wrong_pung": ("pen.wrong-pon.1", "當場發現錯碰，停止行牌", "a wrong pung is caught now: play stops"),
    "exposed_discard": ("pen.exposed-discard.1", "當場發現錯打明牌，停止行牌",
                        "an exposed discard is caught now: play stops"),
    "side_stake": ("bet.chahua", "插花（註記：外插 名字 底/台、外插 名字 金額、內插 底數）",
                   "a side stake (note: outside NAME BASE/PER_TAI, outside NAME AMOUNT, inside UNITS)"),
    "side_stake_influence": ("bet.chahua", "外插者影響行牌（註記寫外插者名字）", "an outside side-staker influenced "
                                                                                 "play (the note names him)"),
}

#: reports that only qualify other rulings (they have none of their own): the catches of a wrong
#: pung and an exposed discard stop play on them (referee.state.CATCH_CODES) and are ruled there
_QUALIFIERS = frozenset({"caught", "tile_unidentifiable", "pair_exposed", "passed_win", "wrong_pung",
                         "exposed_discard"})
#: a discard right after a claim the referee refused but the table let stand: these follow from it
_FOLLOW_STOOD = frozenset({"discard_before_intake", "out_of_turn_discard", "tile_not_held"})
#: referee codes that never lead to a ruling here (data errors, the referee's own business)
_NOT_PENALTIES = frozenset({"reported", "ready_not_ready", "ready_untimely", "ready_not_played", "ready_changed",
                            "flower_win_unreplaced", "skip_not_last", "dead_wall_draw", "after_hand_end"})


# --- reading the input ------------------------------------------------------------------------


def _hand_events(source: Any, events: Iterable[Event] | None) -> list[Event]:
    if isinstance(source, Adjudication):
        if events is None:
            raise AdjudicationError("ruling on an adjudication needs its events (events=...)", field="events",
                                    reason_zh="依裁判結果裁定須附上該盤的事件")
        return list(events)
    if isinstance(source, tuple) and len(source) == 2 and isinstance(source[0], Adjudication):
        return list(source[1])
    if isinstance(source, (str, bytes)):
        parsed = parse_stream(source)
    elif isinstance(source, Sequence) and all(isinstance(e, Event) for e in source):
        parsed = list(source)
    elif isinstance(source, (list, tuple)):
        items = list(source)
        parsed = [e if isinstance(e, Event) else parse_event(e, index=i) for i, e in enumerate(items)]
    else:
        raise AdjudicationError(f"cannot rule on a {type(source).__name__}: give a stream or an adjudication",
                                field="source", reason_zh="無法裁定：請提供事件流或裁判結果")
    hands = split_hands(parsed)
    if len(hands) != 1:
        raise AdjudicationError(f"rule() takes one hand, the stream holds {len(hands)}: use rule_stream()",
                                field="events", reason_zh=f"rule() 只裁定一盤，此事件流有 {len(hands)} 盤")
    return hands[0]


def rule(source: Any, ruleset: Ruleset | None = None, stakes: Stakes | None = None, *,
         events: Iterable[Event] | None = None, side_stakes: Iterable[SideStake] = ()) -> Rulings:
    """Rule on one hand.

    :param source: the hand's stream (JSON Lines text, a list of event objects or
        :class:`referee.events.Event`), or the referee's :class:`referee.outcome.Adjudication`
        with its *events*.
    :param ruleset: overrides the ruleset the stream names (as ``flask replay --ruleset``).
    :param stakes: overrides the stakes of ``hand_start`` (底 / 台).
    :param side_stakes: 插花 recorded outside the stream.
    :raises AdjudicationError: an input that is not one hand.
    :raises referee.events.EventError: an unreadable event.
    :raises penalties.errors.SideStakeError: a side stake that cannot be read.
    """
    from .adjudicator import HandAdjudicator

    hand = _hand_events(source, events)
    return HandAdjudicator(ruleset, stakes=stakes, side_stakes=side_stakes).feed_all(hand).rulings


def rule_stream(source: Any, ruleset: Ruleset | None = None, stakes: Stakes | None = None, *,
                side_stakes: Iterable[SideStake] = (), mode: Any = None) -> list[tuple[HandRecord, Rulings]]:
    """Rule on every hand of a stream: ``(record, rulings)`` per hand (the record holds the
    referee's adjudication), each hand through :class:`penalties.adjudicator.HandAdjudicator`.
    *mode* (:class:`referee.events.Mode`) overrides the tables'."""
    from .adjudicator import adjudicate_hands

    return [(h.record, h.rulings) for h in adjudicate_hands(source, ruleset, mode, stakes=stakes,
                                                             side_stakes=side_stakes)]


# --- ruling -----------------------------------------------------------------------------------


def rule_record(record: HandRecord, *, side_stakes: Iterable[SideStake] = ()) -> Rulings:
    """Rule on a hand already replayed (:func:`penalties.record.build`)."""
    docket = Docket(record)
    decisions = priority.analyze(record)
    lost_win: dict[int, priority.Decision] = {}
    lost_pung: dict[int, priority.Decision] = {}
    for dec in decisions:
        paid = _upheld(docket, dec)
        docket.make(dec.code, offender=None, evidence=dec.evidence, effects=dec.effects, clause=dec.clause,
                    payments=paid, seat=dec.seat, other=dec.other)
        for seq in dec.acts:
            (lost_pung if dec.lost == "pung" else lost_win).setdefault(seq, dec)
        if dec.code in ("pung_over_self_draw", "pung_over_win", "pung_over_draw", "pung_over_chow"):
            docket.excused_calls.add((dec.discard, dec.seat))  # the caller had priority
            # prio.3 / prio.4 compare the gestures' times, not the record's order: a pung
            # called before the chow's discard (or the draw's placing) but recorded after it
            # is upheld, not a lost priority (docs/protocol.md)
            docket.upheld_claims.update((seq, dec.seat) for seq in dec.evidence)
        if dec.lost == "pung":
            docket.excused_calls.add((dec.discard, dec.other))  # the call could not be carried out
    rejected = record.rejected()
    by_seq: dict[int, list[Irregularity]] = {}
    for irr in record.irregularities:
        if (irr.seq, irr.code) in rejected:
            docket.used.add((irr.seq, irr.code))
            continue
        if irr.code in _NOT_PENALTIES:
            if irr.code == "reported":
                docket.used.add((irr.seq, irr.code))
            continue
        by_seq.setdefault(irr.seq, []).append(irr)
    walks: dict[int, peek.Walk] = {}
    stakes_list = list(side_stakes)
    void_backers: list[str] = []
    unruled_reports: list[tuple[str, int]] = []
    for ev in record.events:
        irrs = by_seq.get(ev.seq, [])
        ended = _ended_at(docket)
        if ended is not None and ev.seq > ended and ev.type is not EventType.REPORT:
            for irr in irrs:
                docket.used.add((irr.seq, irr.code))
            continue
        if ev.type is EventType.REPORT:
            _report(docket, ev, walks, stakes_list, void_backers, unruled_reports)
        else:
            _act(docket, ev, irrs, lost_win, lost_pung)
        if walks and ev.seq not in docket.ruled:
            peek.on_event(docket, ev, walks)
    return _settle(docket, walks, stakes_list, void_backers, unruled_reports)


def rule_quiet(record: HandRecord, *, reported: bool | None = None) -> Rulings | None:
    """The rulings on a hand with nothing to rule on, without the walk of :func:`rule_record`;
    ``None`` when there may be something (then :func:`rule_record` rules).

    Nothing to rule on: the referee found no irregularity (every verdict accepted, nothing
    found afterwards), no official reported anything (*reported*: whether the hand has a
    ``report`` event, looked for when not given), no priority conflict in a window with a
    claim (:func:`penalties.priority.analyze`), and the streak marker agrees (or does not
    count). Then each win stands as the referee settled it and the next hand is its: the
    same :class:`Rulings` as :func:`rule_record` makes (``tests/test_penalties_fast.py``
    holds the two to it on generated hands with and without irregularities).
    Side stakes are ruled by :func:`rule_record` (the caller does not come here with them).
    """
    adj = record.adjudication
    if adj.irregularities:
        return None
    if reported is None:
        reported = any(e.type is REPORT_EVENT for e in record.events)
    if reported:
        return None
    setup = record.setup
    marker = setup.streak_marker
    if marker is not None and marker != setup.streak and record.ruleset.values["settle.streak_marker"] != "actual":
        return None  # streak_marker.rule_marker has a ruling to make
    if priority.analyze(record):
        return None
    transfers: list[Payment] = []
    standing: list[int] = []
    for win in adj.outcome.wins:
        if win.settlement is not None:
            transfers.extend(win_transfers(win.settlement))
        standing.append(win.claim.seq)
    in_effect = tuple(transfers)
    totals = net(in_effect)
    if sum(totals.values()):
        check_zero(in_effect)  # raises: they do not net to zero
    payments = (totals.get(0, 0), totals.get(1, 0), totals.get(2, 0), totals.get(3, 0))
    outside = tuple(sorted((k, v) for k, v in totals.items() if isinstance(k, str)))
    nxt = adj.outcome.next
    # Rulings(…), filled whole (penalties.rulings.rulings_of; tests/test_penalties_rulings.py)
    return rulings_of((), in_effect, payments, outside, False, nxt.dealer, nxt.streak, (), nxt, tuple(standing), (),
                      in_effect)


def _ended_at(docket: Docket) -> int | None:
    e = docket.ended
    return max(e.evidence) if e is not None and e.evidence else None


def _report(docket: Docket, ev: Event, walks: dict, stakes_list: list, void_backers: list,
            unruled: list[tuple[str, int]]) -> None:
    code, seat = ev.code, ev.seat
    if code in _QUALIFIERS:
        return
    if code not in REPORTS:
        unruled.append((f"report:{code}", ev.seq))
        return
    if code == "side_stake":
        if seat is None:
            raise ReportError(f"a side_stake report names the principal's seat (seq {ev.seq})", field="seat",
                              reason_zh="插花報告須寫出主家座位")
        stakes_list.append(side_stakes.parse_note(seat, ev.note))
        return
    if code == "side_stake_influence":
        if not (ev.note or "").strip():
            raise ReportError(f"a side_stake_influence report names the backer in its note (seq {ev.seq})",
                              field="note", reason_zh="外插者影響行牌的報告須寫出外插者名字")
        void_backers.append(ev.note.strip())
        return
    if seat is None:
        raise ReportError(f"a {code} report names the seat at fault (seq {ev.seq})", field="seat",
                          reason_zh=f"{code} 報告須寫出違規者座位")
    if code in ("walking_eye", "walking_eye_not_ready"):
        peek.start(docket, ev, walks)
    elif code == "walking_eye_violation":
        if seat not in walks:
            peek.violation(docket, seat, ev.seq, (ev.seq,), (ev.note or "told").split()[0])
    elif code == "wall_disturbed":
        docket.ruled.add(ev.seq)
        face, _how = face_value(docket.record, seat, ev.seq)
        docket.make("pay_all", offender=seat, evidence=(ev.seq,), effects=docket.dealer_effects(seat),
                    payments=docket.pay_all(seat, face), cause="wall_disturbed", face=face,
                    why_zh="弄亂牌牆或他人手牌致無法恢復", why="disturbed the wall or another hand beyond repair")
    elif code == "wrong_kong":
        wrong_kong.inspected(docket, ev)
    else:
        cause = code if code in CAUSES else next((w for w in (ev.note or "").split() if w in CAUSES), "reported")
        words = ({"why_zh": (ev.note or "經舉發或自承").strip(), "why": (ev.note or "reported").strip()}
                 if cause == "reported" else {})
        violate(docket, seat, ev.seq, (ev.seq,), cause=cause, **words)


def _act(docket: Docket, ev: Event, irrs: list[Irregularity], lost_win: dict, lost_pung: dict) -> None:
    seat = ev.seat
    t = ev.type
    if irrs and any(i.code == "too_many_copies" for i in irrs):
        irrs = _record_errors(docket, irrs)
    codes = tuple(i.code for i in irrs)
    if seat is None or ev.seq in docket.ruled:
        for irr in irrs:
            if ev.seq in docket.ruled:
                docket.used.add((irr.seq, irr.code))
        return
    if t is EventType.WIN:
        if irrs or ev.seq in lost_win or docket.is_dead(seat, ev.seq):
            false_win.rule_win(docket, ev, irrs, lost_win.get(ev.seq))
        return
    melded = t is EventType.KONG and ev.kind is MeldKind.MELDED_KONG
    if t in (EventType.CHOW, EventType.PUNG) or melded:
        if not irrs and ev.seq not in lost_pung and not docket.is_dead(seat, ev.seq):
            return
        _use(docket, irrs)
        if t is EventType.PUNG and ev.seq not in lost_pung and (ev.seq, seat) in docket.upheld_claims:
            # the referee refused it by the record's order; by time it stood (prio.3, prio.4). Its
            # priority excuses only the order: a dead hand's pung is still its second violation
            # (pen.dead-hand, pen.pay-all), a pung of the wrong tiles still a wrong pung
            # (pen.wrong-pon.*), as when the moment ruled it, before the draw it beat was recorded
            docket.stood[seat] = ev.seq
            codes = tuple(c for c in codes if c != "lost_priority")
            if not codes and not docket.is_dead(seat, ev.seq):
                return
        if t is not EventType.CHOW and (ev.seq in lost_pung or "lost_priority" in codes):
            _lost_pung(docket, ev, lost_pung.get(ev.seq), irrs)
        elif docket.is_dead(seat, ev.seq) or "dead_hand_act" in codes:
            dead_hand_act(docket, seat, ev.seq,
                          "chow" if t is EventType.CHOW else "pung" if t is EventType.PUNG else "kong")
        elif melded and "wrong_kong" in codes:
            wrong_kong.rule_kong(docket, ev, dict(next(i for i in irrs if i.code == "wrong_kong").facts))
        elif t is EventType.PUNG:
            wrong_pung.rule_pung(docket, ev, codes)
        elif t is EventType.CHOW:
            wrong_pung.rule_chow(docket, ev, codes)
        else:
            violate(docket, seat, ev.seq, (ev.seq,), cause="wrong_claim")
        return
    if t is EventType.DISCARD and seat in docket.stood:
        del docket.stood[seat]
        follow = [i for i in irrs if i.code in _FOLLOW_STOOD]
        for irr in follow:
            docket.used.add((irr.seq, irr.code))
        irrs = [i for i in irrs if i.code not in _FOLLOW_STOOD]
        codes = tuple(i.code for i in irrs)
    if not irrs:
        return
    if t is EventType.KONG and "wrong_kong" in codes:
        _use(docket, irrs)
        wrong_kong.rule_kong(docket, ev, dict(next(i for i in irrs if i.code == "wrong_kong").facts))
        return
    if t is EventType.DISCARD and "exposed_discard" in codes:
        _use(docket, irrs)
        exposed_discard.rule(docket, ev)
        return
    calls = [i for i in irrs if i.code == "unfulfilled_call"]
    for irr in calls:
        docket.used.add((irr.seq, irr.code))
        if any(s in docket.excused for s in irr.evidence):
            continue  # a call on a wrong exposed discard (pen.exposed-discard.2)
        if any((s, irr.seat) in docket.excused_calls for s in irr.evidence) or _claimed_after(docket, irr):
            continue  # the call had priority, or was carried out (on another discard)
        rule_call(docket, seat=irr.seat, seq=irr.seq, discarder=irr.fact("discarder"), tile=irr.fact("tile"),
                  call=irr.fact("call", "pung"), evidence=irr.evidence)
    for irr in irrs:
        if irr.code == "unfulfilled_call":
            continue
        cause = REFEREE_CAUSES.get(irr.code)
        if irr.code == "second_intake" and t in (EventType.DRAW, EventType.TAIL_DRAW):
            cause = "long_hand"  # a second tile taken in: 逾張
        if cause is None or (irr.code == "flower_not_replaced" and irr.clause != "pen.dead-hand"):
            continue
        _use(docket, irrs)
        if ev.seq not in docket.ruled:
            violate(docket, seat, ev.seq, tuple(dict.fromkeys((ev.seq, *irr.evidence))), cause=cause,
                    cites=(irr.clause,) if irr.clause != "pen.dead-hand" else ())
        return


#: the referee's codes on a win that only say it lost a priority contest
_PRIORITY_ONLY = frozenset({"lost_priority", "passed_win", "win_out_of_turn", "after_hand_end"})
_WIN_UPHELD = frozenset({"self_draw_over_pung", "self_draw_over_win", "win_over_self_draw", "win_over_pung",
                         "win_over_chow", "win_over_draw", "later_win_over_touched"})


def _upheld(docket: Docket, dec: priority.Decision) -> tuple[Payment, ...]:
    """A win the priority rules uphold but the referee refused (its clock differs on a
    gesture, e.g. a self-draw shown before a pung call, ``prio.1``): it stands; scored here,
    replacing the referee's outcome for the wins after the discard."""
    if dec.code not in _WIN_UPHELD:
        return ()
    record = docket.record
    from .extra_wins import discard_win, self_draw_win

    wins = [e for e in record.after(dec.discard) if e.type is EventType.WIN and e.seat == dec.seat]
    if not wins:
        return ()
    win = wins[0]
    if any(w.claim.seq == win.seq for w in record.wins):
        return ()  # the referee agrees
    irrs = record.irregularities_at(win.seq)
    if not irrs or any(i.code not in _PRIORITY_ONLY for i in irrs):
        return ()
    d = record.event(dec.discard)
    paid = self_draw_win(record, win) if dec.code.startswith("self_draw") else discard_win(record, win, d.seat, d.tile)
    if not paid:
        return ()
    docket.ruled.add(win.seq)
    for i in irrs:
        docket.used.add((i.seq, i.code))
    for w in record.wins:
        if w.claim.seq > dec.discard:
            docket.superseded.add(w.claim.seq)
    docket.upheld.add(win.seq)
    return paid


def _claimed_after(docket: Docket, irr: Irregularity) -> bool:
    """The caller punged or konged right after the call (before the next discard)."""
    for ev in docket.record.after(irr.seq):
        if ev.type is EventType.DISCARD:
            return False
        if ev.seat == irr.seat and (ev.type is EventType.PUNG
                                    or (ev.type is EventType.KONG and ev.kind is MeldKind.MELDED_KONG)):
            return True
    return False


def _record_errors(docket: Docket, irrs: list[Irregularity]) -> list[Irregularity]:
    """A fifth copy of a tile (or a second of a flower) in the record (``deal.walls``): the
    record is wrong, not the player; the ruling says so with the event's seq, and the
    event's other irregularities (the tile not held …) follow from the same bad record."""
    for irr in irrs:
        if irr.code == "too_many_copies":
            docket.make("record_error", offender=None, evidence=(irr.seq,), seq=irr.seq, tile=irr.fact("tile"),
                        seen=irr.fact("seen"), limit=irr.fact("limit"))
    for irr in irrs:
        docket.used.add((irr.seq, irr.code))
    docket.ruled.add(irrs[0].seq)
    return []


def _use(docket: Docket, irrs: list[Irregularity]) -> None:
    for irr in irrs:
        if irr.code in REFEREE_CAUSES or irr.code in ("wrong_kong", "exposed_discard", "lost_priority",
                                                     "dead_hand_act", "unfulfilled_call"):
            docket.used.add((irr.seq, irr.code))


def _lost_pung(docket: Docket, ev: Event, dec: priority.Decision | None, irrs: list[Irregularity]) -> None:
    """prio.penalty.2: a pung made after losing the pung priority."""
    seat = ev.seat
    clause = dec.clause if dec is not None else next((i.clause for i in irrs if i.code == "lost_priority"), "prio")
    window = Liability(seat, "next_draws", ev.seq, "lost_priority_pung", "prio.penalty.2", wrong_pung.DRAWS)
    r = violate(docket, seat, ev.seq, tuple(dict.fromkeys((ev.seq, *(dec.evidence if dec else ())))),
                code="lost_priority_pung", cause="wrong_claim", effects=(window.effect(),),
                cites=(clause, "pen.substitute"))
    if r.code == "lost_priority_pung":
        docket.open(window)
    if any(i.code == "lost_priority" for i in irrs):
        docket.stood[seat] = ev.seq  # the referee refused it; at the table it stood


# --- the money --------------------------------------------------------------------------------


def _settle(docket: Docket, walks: dict, stakes_list: list[SideStake], void_backers: list[str],
            unruled_reports: list[tuple[str, int]]) -> Rulings:
    record = docket.record
    ended = _ended_at(docket)
    transfers: list[Payment] = []
    replaced: list[Payment] = []
    paid_winners: list[int] = [record.event(seq).seat for seq in docket.upheld]
    standing: list[int] = []  # claim seqs of the referee's wins that stand and are paid
    for win in record.wins:
        claim = win.claim
        if claim.seq in docket.void_wins or claim.seq in docket.superseded or (ended is not None and claim.seq > ended):
            continue
        if docket.is_dead(claim.seat, claim.seq) and claim.seq not in docket.ruled:
            false_win.rule_win(docket, record.event(claim.seq), [], None)
            continue
        passed = peek.retro_passed(docket, win, walks)
        if passed is not None:
            peek.passed_win_ruling(docket, win, passed)
            continue
        paid = win_transfers(win.settlement) if win.settlement is not None else ()
        transfers.extend(paid)
        paid_winners.append(claim.seat)
        standing.append(claim.seq)
        gone, _payments = _substitute(docket, win, paid)
        replaced.extend(gone)
        fees = peek.fees(docket, claim.seat)
        for fee in fees:
            docket.make("walking_eye_fee", offender=fee.payer, evidence=(claim.seq, docket.walking[fee.payer]),
                        payments=(fee,), payee=claim.seat)
    if record.exhausted and docket.ended is None:
        wrong_kong.exhausted(docket)
    streak_marker.rule_marker(docket)
    # every payment in effect
    rulings_payments = [p for r in docket.rulings for p in r.payments]
    win_share = [t for t in transfers if not any(t is g for g in replaced)]
    in_effect = win_share + rulings_payments
    in_effect += list(_side_stake_rulings(docket, stakes_list, tuple(in_effect), void_backers))
    check_zero(in_effect)
    totals = net(in_effect)
    payments = tuple(totals.get(s, 0) for s in range(4))
    outside = tuple(sorted((k, v) for k, v in totals.items() if isinstance(k, str)))
    nxt = _next(docket, paid_winners)
    used = docket.used
    unruled = tuple(sorted({(i.code, i.seq) for i in record.irregularities
                            if (i.seq, i.code) not in used and i.code not in _NOT_PENALTIES},
                           key=lambda x: (x[1], x[0])))
    rulings = tuple(sorted(docket.rulings, key=lambda r: (r.evidence[0] if r.evidence else -1)))
    return Rulings(rulings, tuple(in_effect), payments, outside, docket.ended is not None or any(
        r.ends_hand for r in docket.rulings), nxt.dealer, nxt.streak, unruled + tuple(unruled_reports), nxt,
        tuple(standing), tuple(sorted(docket.upheld)), tuple(win_share))


def _substitute(docket: Docket, win, paid: tuple[Payment, ...]):
    from .substitute import settle_win

    return settle_win(docket, win, paid)


def _side_stake_rulings(docket: Docket, stakes_list: list[SideStake], in_effect: tuple[Payment, ...],
                        void_backers: list[str]) -> tuple[Payment, ...]:
    """One ruling per side stake that moved money (``bet.chahua``); returns its payments."""
    record = docket.record
    out: list[Payment] = []
    for s in stakes_list:
        mine = side_stakes.follow(in_effect, [s], record.stakes, void_backers)
        if not mine:
            continue
        out.extend(mine)
        level = "插" if s.units == 1 else "飄" if s.units == 2 else "飛"
        backer_zh = f"外插者 {s.backer} 依附{docket.seat_zh(s.principal)}" if s.kind == "outside" else \
            f"{docket.seat_zh(s.principal)}內插 {s.units} 底（{level}）"
        backer_en = f"the outside backer {s.backer} rides on seat {s.principal}" if s.kind == "outside" else \
            f"seat {s.principal} raises its own base by {s.units} (inside stake, {level})"
        docket.make("side_stake", offender=None, evidence=(record.events[0].seq,), payments=mine,
                    seat=s.principal, backer_zh=backer_zh, backer=backer_en)
    for name in void_backers:
        docket.make("side_stake_void", offender=None, evidence=(record.events[0].seq,),
                    effects=(Effect("side_stake_void"),), backer=name)
    return tuple(out)


def _next(docket: Docket, paid_winners: list[int]):
    """Who deals next (:class:`referee.outcome.NextHand`): the wins that stand decide as
    usual (``seat.dealer``: the dealer repeats when he wins); a hand ended by 錯打明牌 or by
    a penalty with no win standing: the dealer passes if he offended, otherwise keeps the
    deal without counting the streak (``pen.false-win.3``, ``pen.exposed-discard.3``);
    otherwise the referee's answer. A dealer at the ruleset's 連莊上限 (``seat.max_streak``,
    R-set-27) passes on his standing win as the referee's answer would have him."""
    from referee.outcome import next_hand

    record = docket.record
    setup = record.setup
    outcome = record.adjudication.outcome
    exposed = [r for r in docket.rulings if r.code.startswith("exposed_discard_won")]
    pool = exposed if exposed else ([] if paid_winners else docket.rulings)
    deciding = next((r for r in pool if r.has("dealer_passes") or r.has("dealer_keeps_no_streak")), None)
    args = (setup.dealer, setup.streak, setup.round_wind, setup.first_dealer)
    if deciding is not None:
        return next_hand(*args, repeats=deciding.has("dealer_keeps_no_streak"), counted=False)
    if paid_winners and (docket.superseded or docket.void_wins or docket.upheld):
        return next_hand(*args, repeats=setup.dealer in paid_winners, max_streak=record.ruleset["seat.max_streak"])
    return outcome.next


__all__ = ["REPORTS", "rule", "rule_quiet", "rule_record", "rule_stream"]

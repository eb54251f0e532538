"""Rulings on whole hands (issue #5), beyond the features: the face value paid on, the edges of
the liability windows, a tail tile discarded as drawn, a walking eye's passed win found
afterwards, the dealer after a penalty, the answer's shape."""
from __future__ import annotations

import json

import pytest

from penalties import rule
from penalties.face import face_value
from penalties.record import build
from testkit.script import Script
from referee.events import event_to_dict
from referee.generator import generate_hand
from referee.replay import replay

WIN_5S = "123m456m789m123p789p5s5s"


def _open(**kw) -> Script:
    return Script(dealer=0, **kw).deal()


def test_the_face_of_an_incomplete_false_win_is_what_the_table_shows():
    # R-pen-1: flowers and exposed honour sets; here a pung of 中 (箭字刻 1 台)
    s = _open().discard(0, "7z").pung(1, "7z7z7z").discard(1, "9p").go_around(2, 3, avoid="7z")
    s.draw(1).win(1, "123m456m789p123s5s6s")
    r = rule(s.jsonl())
    (false,) = r.by_code("false_win")
    assert "牌面 1 台" in false.text_zh
    assert [p.amount for p in false.payments if p.payee != 0] == [120, 120]


def test_the_face_of_a_complete_hand_declared_in_error_is_its_score():
    s = _open().discard(0, "5m").touch(1).win(1, "123m456m789p123s789s5m5m")
    record = build(s.events())
    face, how = face_value(record, 1, s.last_seq, win=record.event(s.last_seq))
    assert (face, how) == (2, "scored")


def _wrong_pung(turns: int) -> Script:
    """2 punges 5m with a 6m (錯碰), it stands; *turns* plain turns follow from seat 3."""
    s = _open().discard(0, "5m").pung(2, "5m5m6m").discard(2, "9p").go_around(3, turns, avoid="5s")
    return s


@pytest.mark.parametrize("turns, winner, covered", [(2, 1, True), (6, 1, True), (8, 3, False)])
def test_the_next_eight_draws(turns, winner, covered):
    """pen.wrong-pon.2: 其後摸序八張之內 — the winning draw is draw turns+1 after the pung."""
    s = _wrong_pung(turns).draw(winner).win(winner, WIN_5S)
    r = rule(s.jsonl())
    assert ("substitute_liability" in r.codes) is covered
    if covered:
        assert r.payments[2] == -sum(p for seat, p in enumerate(r.payments) if seat != 2 and p > 0)


def test_the_offender_is_not_liable_for_his_own_win():
    s = _wrong_pung(7).draw(2).win(2, WIN_5S)
    r = rule(s.jsonl())
    assert "substitute_liability" not in r.codes


def _wrong_concealed_kong_then(kong_seat: int) -> Script:
    s = _open().discard(0, "5m").draw(1).kong(1, "concealed", "7p7p7p8p").tail_draw(1).discard(1, "1z")
    return s.draw(kong_seat).kong(kong_seat, "concealed", "9s9s9s9s").tail_draw(kong_seat, "2z")


def test_a_tail_tile_discarded_as_drawn_deals_in_inside_the_kong_tail_window():
    # pen.wrong-kong.concealed.1: 因槓底補牌(含補花.開槓)原牌打出而放銃
    s = _wrong_concealed_kong_then(2).discard(2, "2z").win(3, "123m456m789m123p789p2z2z")
    r = rule(s.jsonl())
    assert "wrong_kong_concealed" in r.codes
    (sub,) = r.by_code("wrong_kong_concealed")
    assert [(p.payer, p.payee, p.instead_of) for p in sub.payments] == [(1, 3, 2)]
    assert r.payments[1] < 0 and r.payments[2] == 0


def test_a_tail_tile_placed_before_the_discard_is_not_原牌打出():
    s = _wrong_concealed_kong_then(2).place(2).discard(2, "2z").win(3, "123m456m789m123p789p2z2z")
    r = rule(s.jsonl())
    assert "wrong_kong_concealed" not in r.codes
    assert r.payments[2] < 0 and r.payments[1] == 0


def test_a_walking_eye_who_let_a_winning_tile_go_and_won_later_pays_all():
    # pen.peek: 眼牌者胡牌後如回溯發現曾經過水(含花胡)，應判包賠
    s = _open().discard(0, "1z").draw(1).place(1).discard(1, "2z").report("walking_eye", 2)
    s.draw(2).discard(2, "3z").draw(3).place(3).discard(3, "5s")  # 2 could win on this 5s and let it go
    s.draw(0).place(0).discard(0, "4z").draw(1).place(1).discard(1, "6z")
    s.draw(2).discard(2, "7z")  # his own discard released 過水
    s.draw(3).place(3).discard(3, "1p").draw(0).place(0).discard(0, "9s").draw(1).place(1).discard(1, "9m")
    s.draw(2).win(2, "123m456m789m123p789p5s5s")
    r = rule(s.jsonl())
    (ruling,) = r.by_code("walking_eye_passed_win")
    assert ruling.clause == "pen.peek" and ruling.offender == 2
    assert ruling.has("win_void")
    assert r.payments[2] < 0 and sum(r.payments) == 0
    assert "walking_eye_fee" not in r.codes


def test_both_laid_down_the_later_loses_priority_and_pays_all_while_the_win_stands():
    s = _open().discard(0, "5m").draw(1).win(3, "123m456m789p123s789s5m5m").win(1, WIN_5S)
    r = rule(s.jsonl())
    assert r.codes[:2] == ("win_over_self_draw", "lost_priority_win")
    (lost,) = r.by_code("lost_priority_win")
    assert lost.offender == 1 and not lost.has("dealer_keeps_no_streak")
    assert (r.next_dealer, r.next_streak) == (1, 0)  # seat 3's win stands: the dealer passes


def test_clean_hands_are_paid_as_the_referee_settled_them():
    for seed in range(6):
        events = [event_to_dict(e) for e in generate_hand(seed)]
        adj = replay(generate_hand(seed))
        r = rule(events)
        assert r.payments == adj.outcome.payments
        assert (r.next_dealer, r.next_streak) == (adj.outcome.next.dealer, adj.outcome.next.streak)


def test_the_answer_is_plain_json_with_every_part():
    s = _open(streak=1).discard(0, "5m").pung(2, "5m5m6m").discard(2, "9p").draw(3).place(3).discard(3, "1z")
    s.draw(0).place(0).discard(0, "2z").draw(1).win(1, WIN_5S)
    d = rule(s.jsonl()).to_dict()
    json.dumps(d, ensure_ascii=False)
    assert set(d) == {"rulings", "transfers", "payments", "outside", "hand_ended", "next_dealer", "next_streak", "next",
                      "unruled"}
    sub = next(x for x in d["rulings"] if x["code"] == "substitute_liability")
    assert sub["clause"] == "pen.substitute" and sub["offender"] == 2
    assert all("instead_of" in p for p in sub["payments"])
    assert sum(d["payments"]) == 0
    kinds = {t["kind"] for t in d["transfers"]}
    assert kinds == {"win", "substitute"}


def test_a_report_after_the_hand_ended_still_counts_acts_do_not():
    s = _open().discard(0, "5m").draw(1).win(1, "123m456m789m123p789p5s6s")  # a false win ends the hand
    s.draw(2).place(2).discard(2, "9p")  # play after the end: not ruled
    r = rule(s.jsonl())
    assert r.codes == ("false_win",)


@pytest.mark.parametrize("cap, dealer, streak", [(0, 0, 2), (2, 0, 2), (1, 1, 0)])
def test_a_dealer_at_the_streak_cap_passes_on_a_win_a_priority_ruling_let_stand(cap, dealer, streak):
    """seat.max_streak (R-set-27): the dealer (連 1) wins on seat 2's discard while seat 3 drew and
    declared a self-draw (win_over_self_draw: the dealer's win stands); the penalties' next
    hand follows the ruleset's 連莊上限 as the referee's does on a plain win."""
    def script() -> Script:
        s = Script(dealer=0, streak=1, rules={"seat.max_streak": cap}).deal()
        s.discard(0, "1z").draw(1).place(1).discard(1, "2z").draw(2).place(2).discard(2, "5m")
        return s
    r = rule(script().draw(3).win(0, "123m456m789p123s789s5m5m").win(3, WIN_5S).jsonl())
    assert r.codes[:2] == ("win_over_self_draw", "lost_priority_win")
    assert (r.next_dealer, r.next_streak) == (dealer, streak)
    plain = rule(script().win(0, "123m456m789p123s789s5m5m").jsonl())
    assert (plain.next_dealer, plain.next_streak) == (dealer, streak)

"""Streams an official might bring (issue #13, "Found trying new streams"): one stream of
our own per defect, ruled through the one adjudicator (:mod:`penalties.adjudicator`)."""
from __future__ import annotations

from penalties.adjudicator import adjudicate_hands
from penalties.script import Script


def _hand(script: Script):
    (hand,) = adjudicate_hands(script.end().jsonl())
    return hand


def test_a_false_self_drawn_win_with_the_drawn_tile_unrecorded_pays_on_its_face():
    """pen.false-win.1 + R-pen-1: a physical table counts the draw (no tile), but the hand
    shown with the win ends with the winning tile: the face is that win's 台 (here 4), not 0."""
    s = Script(dealer=0).deal().discard(0, "5m").report("dead_hand", 1, "peeked").draw(1)
    s.win(1, "123m456m789m123p789p5s5s")
    hand = _hand(s)
    (ruling,) = hand.rulings.by_code("false_win")
    assert "牌面 4 台" in ruling.text_zh
    assert hand.payments == (200, -560, 180, 180)
    # the same hand with the drawn tile recorded: the same face
    t = Script(dealer=0).deal().discard(0, "5m").report("dead_hand", 1, "peeked").draw(1, "5s")
    t.win(1, "123m456m789m123p789p5s5s")
    assert _hand(t).payments == hand.payments


def test_a_fifth_copy_of_a_tile_is_ruled_a_record_error_with_its_seq():
    """deal.walls: a record showing a fifth 5m is wrong; the official gets 紀錄有誤 with the
    event's seq (not an unruled code), and the seat is not penalised for it."""
    s = Script(dealer=0).deal().discard(0, "5m").draw(1).place(1).discard(1, "5m").draw(2).place(2)
    s.discard(2, "5m").draw(3).place(3).discard(3, "5m").draw(0).place(0).discard(0, "5m")
    fifth = s.last_seq
    hand = _hand(s)
    (ruling,) = hand.rulings.by_code("record_error")
    assert ruling.clause == "deal.walls" and ruling.evidence == (fifth,) and ruling.offender is None
    assert f"第 {fifth} 號事件" in ruling.text_zh and "紀錄有誤" in ruling.text_zh
    assert not any(code == "too_many_copies" for code, _seq in hand.rulings.unruled)
    assert hand.payments == (0, 0, 0, 0)


def test_competition_forbids_the_other_end_after_a_chow():
    """play.chi / play.restrict.6 「同(絡)牌」 (R-set-13): chowing 3m with 4m-5m forbids 3m and
    6m right after; a physical table's 6m stands and is ruled a 相公 (吃入打出)."""
    s = Script(dealer=0).deal().discard(0, "3m").chow(1, "3m4m5m").discard(1, "6m")
    hand = _hand(s)
    irr = [i for i in hand.adjudication.irregularities if i.code == "forbidden_discard_after_chow"]
    assert irr and irr[0].clause == "play.restrict.6" and irr[0].seq == s.last_seq - 1
    (ruling,) = hand.rulings.by_code("dead_hand")
    assert ruling.offender == 1 and ruling.cause == "claimed_tile_discarded"


def test_a_wrong_melded_kong_on_the_previous_players_discard_caught_in_time_is_a_wrong_kong_ruling():
    """pen.wrong-kong.melded applies 喊碰未碰 with its 上家 exemption: restored, not fined —
    not a bare 「喊碰未碰」 ruling under pen.unfulfilled-call with no restore."""
    s = Script(dealer=0).deal().discard(0, "5m").kong(1, "melded", "5m5m5m6m").report("caught", 1)
    hand = _hand(s)
    assert hand.rulings.codes == ("wrong_kong_melded_call_previous",)
    (ruling,) = hand.rulings.rulings
    assert ruling.clause == "pen.wrong-kong.melded" and ruling.has("restore") and not ruling.payments
    assert "pen.unfulfilled-call" in ruling.cites
    # from the seat across (not 上家): fined 1 台 to the discarder, as before
    t = Script(dealer=0).deal().discard(0, "5m").kong(2, "melded", "5m5m5m6m").report("caught", 2)
    assert _hand(t).rulings.codes == ("wrong_kong_melded_call",) and _hand(t).payments == (20, 0, -20, 0)


def test_a_pung_called_before_the_chows_discard_but_recorded_after_it_is_upheld_not_penalised():
    """prio.3 compares the gestures' times: the pung (ts 102,000) came before the chow's
    discard (ts 103,000), though recorded after it: upheld (pung_over_chow), no
    lost_priority_pung; recorded and made after the discard (ts 103,500) it is penalised."""
    def hand(pung_ts: int):
        s = Script(dealer=0).deal().discard(0, "5m", ts=100_000).chow(1, "4m5m6m", ts=101_000)
        s.discard(1, "9p", ts=103_000).pung(2, "5m5m5m", ts=pung_ts).discard(2, "1z", ts=max(pung_ts, 103_000) + 1000)
        return _hand(s)

    early = hand(102_000)
    assert early.rulings.codes == ("pung_over_chow",) and early.payments == (0, 0, 0, 0)
    late = hand(103_500)
    assert late.rulings.codes == ("chow_over_pung", "lost_priority_pung")


# --- defect 5: the dead wall stays whole after a replacement (play.exhausted, tai.25, app.dead-wall)


def _referee(events):
    from referee.machine import Referee

    ref = Referee()
    verdicts = [ref.apply(e) for e in events]
    return ref, verdicts, ref.finish()


def test_a_flower_drawn_as_the_last_drawable_tile_is_not_replaced_from_the_dead_wall():
    """tai.25 殘牌固定保留8墩(16張牌): the last drawable tile is a flower; its replacement
    would be the seventeenth-last tile: a digital table refuses it, and the exhaustive draw
    leaves 16 tiles (not 15), under competition and under app (app.flowers.no-replace)."""
    from referee.scenario import Scenario, cycle

    for profile in ("competition", "app"):
        scenario = Scenario(hands={0: "1z"}, draws={62: "1f"}, ruleset=profile)
        acts = [(0, "打", "1z"), *cycle(1, 62), (3, "摸", None), (3, "補花", "1f"), (3, "補", None),
                (None, "結束", None)]
        ref, verdicts, adj = _referee(scenario.events(acts))
        assert verdicts[-2].status.value == "rejected", profile
        assert [i.code for i in verdicts[-2].irregularities] == ["dead_wall_draw"]
        assert adj.outcome.kind.value == "exhaustive_draw" and adj.outcome.clause == "play.exhausted"
        assert ref.state.wall.remaining == 16 and ref.state.wall.live == 0
        assert "殘牌 16 張" in adj.outcome.detail_zh


def test_every_generated_exhaustive_draw_leaves_the_dead_wall_whole():
    """Digital hands (referee.generator) under competition and app (16, R-set-16) and with
    一槓一 (``wall.dead_wall_per_kong`` 1, app.dead-wall): each exhaustive draw not ended by leaving 海底 (tai.25)
    leaves exactly dead_wall + per_kong × kongs tiles, including those that end right after
    a kong's or a flower's replacement."""
    from referee.events import EventType
    from referee.generator import generate_hand

    after_tail = 0
    for profile, per_kong in (("competition", 0), ("app", 0), ("competition", 1)):
        for seed in range(160):
            events = generate_hand(seed, ruleset=profile, rules={"wall.dead_wall_per_kong": per_kong} if per_kong else None)
            ref, _verdicts, adj = _referee(events)
            if adj.outcome.kind.value != "exhaustive_draw" or events[-1].type is EventType.SKIP_LAST_TILE:
                continue
            wall = ref.state.wall
            assert wall.per_kong == per_kong
            assert wall.remaining == 16 + per_kong * wall.kongs, (profile, seed)
            intakes = [e for e in events if e.type in (EventType.DRAW, EventType.TAIL_DRAW)]
            after_tail += intakes[-1].type is EventType.TAIL_DRAW
    assert after_tail  # some end right after a replacement

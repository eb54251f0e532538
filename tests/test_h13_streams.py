"""Streams an official might bring (issue #13, "Found trying new streams"): one stream of
our own per defect, ruled through the one adjudicator (:mod:`penalties.adjudicator`)."""
from __future__ import annotations

from penalties.adjudicator import HandAdjudicator, adjudicate_hands
from testkit.script import Script


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
    from testkit.scenario import Scenario, cycle

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
            events = generate_hand(seed, ruleset=profile,
                                   rules={"wall.dead_wall_per_kong": per_kong} if per_kong else None)
            ref, _verdicts, adj = _referee(events)
            if adj.outcome.kind.value != "exhaustive_draw" or events[-1].type is EventType.SKIP_LAST_TILE:
                continue
            wall = ref.state.wall
            assert wall.per_kong == per_kong
            assert wall.remaining == 16 + per_kong * wall.kongs, (profile, seed)
            intakes = [e for e in events if e.type in (EventType.DRAW, EventType.TAIL_DRAW)]
            after_tail += intakes[-1].type is EventType.TAIL_DRAW
    assert after_tail  # some end right after a replacement


# --- defect 6: 過水 and the kongs of the turn (play.passed-win.release)


def test_a_passed_win_is_not_released_by_a_concealed_kong_and_its_replacement_may_not_be_self_drawn():
    """「過水時之暗槓因無實際打出牌，非為解除過水，其補牌不得自摸」: seat 1 (hand unknown at the
    physical table) lets 9p go, draws 5s, konges 5s5s5s5s and shows a win on the replacement 6p:
    the win is found passed at the win (the hand shown, less 6p, plus the kong, less the 5s drawn),
    a 詐胡 under competition; with a non-winning discard (2z) before, the win stands."""
    def hand(chance: str):
        s = Script(dealer=0).deal().discard(0, chance).draw(1, "5s").kong(1, "concealed", "5s5s5s5s")
        s.tail_draw(1, "6p").win(1, "123m456m789m1p1p6p7p8p")
        return _hand(s)

    passed = hand("9p")
    assert [(i.code, i.evidence) for i in passed.adjudication.irregularities if i.code == "passed_win"] == [
        ("passed_win", (passed.record.events[-2].seq, 19))]
    assert passed.rulings.codes == ("false_win",) and passed.result.kind.value == "ended_by_irregularity"
    free = hand("2z")
    assert free.rulings.codes == () and free.result.kind.value == "win"
    # app.passed-win releases 過水 by a concealed kong (play.passed_win.concealed_kong_releases)
    s = Script(dealer=0, ruleset="app").deal().discard(0, "9p").draw(1, "5s").kong(1, "concealed", "5s5s5s5s")
    s.tail_draw(1, "6p").win(1, "123m456m789m1p1p6p7p8p")
    assert not any(i.code == "passed_win" for i in _hand(s).adjudication.irregularities)


def test_an_added_kong_releases_a_passed_win_only_with_a_tile_the_hand_does_not_win_on():
    """「打出(或加槓)一張非胡之牌即可解除過水，其中加槓補牌如成胡，自摸有效」: after passing 2s,
    adding 5s (a tile 3s4s also wins on) releases nothing — the replacement 2s is a 詐胡; after
    passing 9p, adding 5s (not a winning tile) releases it and the replacement 6p wins."""
    def hand(chance: str, replacement: str, shown: str):
        s = Script(dealer=0).deal().discard(0, "5s").pung(1, "5s5s5s").discard(1, "7z")
        s.draw(2).discard(2, chance).draw(3).discard(3, "1z").draw(0).discard(0, "2z")
        s.draw(1, "5s").kong(1, "added", "5s").tail_draw(1, replacement).win(1, shown)
        return _hand(s)

    kept = hand("2s", "2s", "123m456m789m1p1p2s3s4s")
    assert any(i.code == "passed_win" for i in kept.adjudication.irregularities)
    assert kept.rulings.codes == ("false_win",)
    released = hand("9p", "6p", "123m456m789m1p1p6p7p8p")
    assert released.rulings.codes == () and released.result.kind.value == "win"


def test_at_a_digital_table_an_added_winning_tile_keeps_the_seat_passed():
    """The known hand (digital): 過水 on 2s, then 加槓 5s with 3s4s in hand: still passed, the
    replacement win is refused; with 7p8p (5s not a winning tile) it is released."""
    from testkit.scenario import Scenario
    from referee.tiles import parse_tiles

    five_s = parse_tiles("5s")[0]
    for chance, held, replacement, status in (("2s", "123m456m789m1p1p3s4s5s5s", "2s", "rejected"),
                                              ("9p", "123m456m789m1p1p7p8p5s5s", "6p", "accepted")):
        scenario = Scenario(hands={0: "5s", 1: held, 2: chance}, draws={0: "1z", 1: "2z", 2: "3z", 3: "5s"},
                            tail=replacement)
        ref, _verdicts, _adj = _referee(scenario.events([(0, "打", "5s"), (1, "碰", "5s5s5s")]))
        want = parse_tiles(held)
        spare = next(t for t in range(34) if ref.state.seats[1].hand[t] > want.count(t) - (2 if t == five_s else 0))
        from referee.tiles import tile_name

        acts = [(0, "打", "5s"), (1, "碰", "5s5s5s"), (1, "打", tile_name(spare)), (2, "摸", None), (2, "打", chance),
                (3, "摸", None), (3, "打", "2z"), (0, "摸", None), (0, "打", "3z"), (1, "摸", None), (1, "加槓", "5s"),
                (1, "補", None), (1, "胡", None)]
        _ref, verdicts, _adj = _referee(Scenario(hands={0: "5s", 1: held, 2: chance},
                                                 draws={0: "1z", 1: "2z", 2: "3z", 3: "5s"},
                                                  tail=replacement).events(acts))
        assert verdicts[-1].status.value == status, (chance, verdicts[-1])


# --- item 2: each fact computed once — a wrong kong's stage is the referee's


def _wrong_kong_streams():
    """Sample streams with wrong kongs, and generated hands with irregularities injected."""
    from pathlib import Path

    from penalties.adjudicator import _events
    from testkit.irregular import irregular_hand

    for path in sorted(Path("data/samples").glob("pen_wrong_kong*.jsonl")):
        yield path.name, path.read_text(encoding="utf-8")
    for seed in range(80):
        yield f"gen{seed}", _events(irregular_hand(seed, seed * 7 + 1, 1 + seed % 4, physical=True))


def test_a_wrong_kongs_stage_is_the_referees_fact_and_equals_the_walk_of_the_events():
    """pen.wrong-kong.*: the referee follows each wrong kong (referee.state.WrongKongProgress)
    and penalties read its facts (penalties.stages.progress); the walk of the events after the
    kong (penalties.stages.kong_progress, the reference) finds the same stage, events, catch,
    robbing win and 「無法確定」 on every sample and generated stream with a wrong kong."""
    from penalties.stages import kong_progress, progress

    seen = 0
    for name, stream in _wrong_kong_streams():
        for hand in adjudicate_hands(stream):
            record = hand.record
            for irr in record.irregularities:
                if irr.code != "wrong_kong" or (irr.seq, irr.code) in record.rejected():
                    continue
                facts = dict(irr.facts)
                assert progress(facts) == kong_progress(record, irr.seat, irr.seq), (name, irr.seq)
                seen += 1
    assert seen >= 10


# --- item 4: words an official reads out


def test_at_a_tournament_table_the_rulings_name_the_players_beside_their_winds():
    """A hand ruled with the players' names (seat → name, as a tournament table's seating
    gives them): 「南家 李大華詐胡…」; without names, the winds alone."""
    s = Script(dealer=0).deal().discard(0, "5m").win(1, "123m456m789m123p456p5m")
    names = ("陳美玲", "李大華", "王小明", "林志強")
    (hand,) = [HandAdjudicator(names=names).feed_all(s.end().events())]
    (ruling,) = hand.rulings.by_code("false_win")
    assert ruling.text_zh.startswith("南家 李大華詐胡") and "South (seat 1, 李大華)" in ruling.text
    plain = _hand(Script(dealer=0).deal().discard(0, "5m").win(1, "123m456m789m123p456p5m"))
    assert plain.rulings.by_code("false_win")[0].text_zh.startswith("南家詐胡")


def test_streaks_are_read_as_lian_la_and_seats_by_wind_in_the_referees_own_texts():
    """score.streak-marker words 連N拉N (settle.streak); the referee's irregularities name the
    seats by their winds (東家 … from the wall-break seat) and tiles in Chinese."""
    s = Script(dealer=0, streak=2, streak_marker=1).deal().discard(0, "5m")
    hand = _hand(s)
    (marker,) = hand.rulings.by_code("streak_marker_low")
    assert "示記為連1拉1，低於實際連2拉2" in marker.text_zh and "號座" not in marker.text_zh
    t = Script(dealer=0).deal().discard(0, "1z").chow(2, "1z1z1z")
    irr = [i for i in _hand(t).adjudication.irregularities if i.seat == 2]
    assert irr and all("號座" not in i.detail_zh for i in irr)
    assert any("西家" in i.detail_zh for i in irr) and any("東東東" in i.detail_zh for i in irr)


# --- rulings appear at the event that makes them final: how far an error got (pen.wrong-kong.*,
# pen.wrong-pon.*, pen.exposed-discard.*), with the liability window it opens (pen.substitute)


def _given_live(events):
    """The hand fed one event at a time: (code, seq given at) of each ruling as first given,
    and the close's rulings (each given before must be there unchanged)."""
    adjudicator = HandAdjudicator()
    given = {}
    for ev in events:
        for g in adjudicator.feed(ev).rulings:
            given.setdefault(g.id, g)
    result = adjudicator.close()
    final = {g.id: g for g in result.given}
    assert all(final[i] == g for i, g in given.items())
    return {g.ruling.code: g for g in given.values()}, result


def test_a_wrong_added_kong_caught_with_its_tile_unidentifiable_is_ruled_at_the_report_not_at_the_close():
    """pen_wrong_kong_added_2_unidentified: caught at 35, 「無法確定哪一張牌」 reported at 36; the
    ruling (the tile back at random, 相公, the 代位賠付 window on that tail tile: pen.wrong-kong.added.2,
    pen.substitute) comes at 36 — not at 45 after the win at 44 that falls inside the window;
    the window's money (substitute_liability) comes with the win's settlement at the close."""
    from pathlib import Path

    from penalties.adjudicator import _events

    events = _events(Path("data/samples/pen_wrong_kong_added_2_unidentified.jsonl").read_text(encoding="utf-8"))
    given, result = _given_live(events)
    ruling = given["wrong_kong_added_returned"]
    assert ruling.at == 36 and ruling.ruling.evidence == (32, 33, 34, 35)
    assert ruling.ruling.has("random_tile_to_tail") and ruling.ruling.has("liability")
    assert given["substitute_liability"].at == 45 and result.payments == (0, -620, 0, 620)
    # caught and identifiable: ruled at the first event after the reports that follow the catch
    s = Script(dealer=0).deal().discard(0, "5m").pung(1, "5m5m5m").discard(1, "9p").go_around(2, 3, avoid="5m6m")
    s.draw(1).kong(1, "added", "5m5m5m6m").tail_draw(1).place(1).report("caught", 1)
    caught = s.last_seq
    s.discard(1, "8s").draw(2)
    given, _result = _given_live(s.end().events())
    assert given["wrong_kong_added_returned"].at == caught + 1
    assert not given["wrong_kong_added_returned"].ruling.has("liability")


def test_a_wrong_pung_caught_mid_hand_is_ruled_at_the_catch_and_a_completed_one_when_completed():
    """pen.wrong-pon.1: the pung's discard drew no reaction, caught before the next player
    placed his tile: restored, 相公 — ruled at the report, while play goes on after it.
    pen.wrong-pon.2: the next player placed his drawn tile: 既遂, ruled then, with the 8-draw
    window (pen.substitute) open from there."""
    s = Script(dealer=0).deal().discard(0, "5m").pung(2, "5m5m6m").discard(2, "9p").draw(3).report("caught", 2)
    caught = s.last_seq
    s.place(3).discard(3, "1z").draw(0).place(0).discard(0, "2z")
    given, _result = _given_live(s.end().events())
    assert given["wrong_pung_caught"].at == caught and given["wrong_pung_caught"].ruling.has("restore")
    t = Script(dealer=0).deal().discard(0, "5m").pung(2, "5m5m6m").discard(2, "9p").draw(3).place(3)
    placed = t.last_seq
    t.discard(3, "1z").draw(0).place(0).discard(0, "2z")
    given, _result = _given_live(t.end().events())
    completed = given["wrong_pung_completed"]
    assert completed.at == placed and [e.window for e in completed.ruling.effects if e.kind == "liability"] == [
        "next_draws"]


def test_an_exposed_discard_caught_mid_hand_is_ruled_at_the_catch_and_one_played_past_at_the_draw():
    """pen.exposed-discard.1: nobody claimed, caught: 相公, the meld restored, a correct tile
    discarded — ruled at the report, play going on after it. pen.exposed-discard.4: nobody
    corrected it and the next player drew: the 8-draw window (pen.substitute) from that draw."""
    def hand():
        s = Script(dealer=0).deal().discard(0, "5m").pung(1, "5m5m5m").discard(1, "9p")
        return s.go_around(2, 3, avoid="5m").draw(1).place(1).discard(1, "5m", exposed=True)

    s = hand().report("caught", 1)
    caught = s.last_seq
    s.discard(1, "9p").draw(2).place(2).discard(2, "1z")
    given, _result = _given_live(s.end().events())
    assert given["exposed_discard_restored"].at == caught
    t = hand().draw(2)
    drew = t.last_seq
    t.place(2).discard(2, "1z").draw(3).place(3).discard(3, "2z")
    given, _result = _given_live(t.end().events())
    assert given["exposed_discard_unnoticed"].at == drew
    assert given["exposed_discard_unnoticed"].ruling.has("liability")


def test_a_dead_hands_exposed_discard_is_ruled_when_its_course_is_settled():
    """pen.exposed-discard.1 with pen.dead-hand: a dead hand's exposed discard caught is its second
    violation (pen.pay-all), ruled at the report that caught it — not held to the close; played
    past unnoticed (pen.exposed-discard.4) it is no violation at all, only the window."""
    def hand():
        s = Script(dealer=0).deal().discard(0, "5m").pung(1, "5m5m5m").discard(1, "9p").report("stolen_tile", 1)
        return s.go_around(2, 3, avoid="5m").draw(1).place(1).discard(1, "5m", exposed=True)

    s = hand().report("caught", 1)
    caught = s.last_seq
    given, result = _given_live(s.end().events())
    assert given["dead_hand_second_violation"].at == caught
    assert given["dead_hand_second_violation"].ruling.cause == "exposed_discard"
    t = hand().draw(2)
    drew = t.last_seq
    t.place(2).discard(2, "1z").draw(3).place(3).discard(3, "2z")
    given, _result = _given_live(t.end().events())
    assert "dead_hand_second_violation" not in given
    assert given["exposed_discard_unnoticed"].at == drew


def test_a_wrong_claims_dead_hand_is_ruled_at_the_report_that_catches_it():
    """pen.dead-hand (錯吃碰槓) with pen.wrong-pon.1: a chow by the wrong seat, caught before it stood,
    goes no further — its 相公 is ruled at the catch, not held to the close; uncaught, it waits
    to see how far it gets (pen.wrong-pon.2)."""
    s = Script(dealer=0).deal().discard(0, "5m").chow(2, "4m5m6m")
    act = s.last_seq
    s.report("caught", 2)
    caught = s.last_seq
    s.discard(2, "9p").draw(3).place(3).discard(3, "1z")
    given, _result = _given_live(s.end().events())
    assert given["dead_hand"].at == caught and given["dead_hand"].ruling.evidence == (act,)

"""A scorer's entry by 台 items (tournament/entry.py): settled by the referee's own settlement,
impossible combinations refused naming the item."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.generator import generate_hand
from referee.machine import Referee
from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.patterns import PATTERNS
from tournament.entry import (
    EntryError, ScorerEntry, TaiItem, check_deal, deal_after, entry_from_dict, settle_entry,
)
from tournament.results import HandResult, Win

RULESET = Ruleset.load("competition")
STAKES = Stakes(100, 20)
CODES = [p.code for p in PATTERNS]


def settled(**fields):
    return settle_entry(entry_from_dict(fields), RULESET, STAKES)


def refused(**fields) -> EntryError:
    with pytest.raises(EntryError) as info:
        settled(**fields)
    return info.value


# --- the referee's own wins, entered by their items, pay the same ------------------------------


def referee_wins(seeds):
    for seed in seeds:
        referee = Referee()
        for event in generate_hand(seed):
            referee.apply(event)
        outcome = referee.finish().outcome
        if outcome.kind.value == "win" and len(outcome.wins) == 1 and outcome.wins[0].score is not None:
            yield seed, outcome


def test_an_entry_of_the_referees_items_pays_what_the_referee_settled():
    """``settle.formula``: every win of 80 generated hands, entered as the scorer would (winner,
    deal-in, dealer, streak, the counted items and the total), pays exactly the referee's payments."""
    checked = 0
    for seed, outcome in referee_wins(range(80)):
        score = outcome.wins[0].score
        ctx = score.ctx
        items = tuple(TaiItem(PATTERNS[i].code, int(c), score.table.tai[i] * int(c))
                      for i, c in score.counted + score.dealer_items)
        entry = ScorerEntry(dealer=ctx.dealer, winner=ctx.winner, deal_in=ctx.discarder, streak=ctx.streak,
                            items=items, tai=score.tai, streak_marker=ctx.streak_marker)
        result = settle_entry(entry, RULESET, STAKES)
        assert result.result.payments == tuple(outcome.payments), (seed, items)
        assert result.face == score.tai and result.dealer_tai == score.dealer_tai
        checked += 1
    assert checked >= 30


# --- properties ----------------------------------------------------------------------------------

seats = st.integers(0, 3)
maybe_seat = st.one_of(st.none(), seats)
any_items = st.lists(st.tuples(st.sampled_from(CODES + ["nope"]), st.integers(1, 3)), max_size=6)


@settings(max_examples=300, deadline=None)
@given(dealer=seats, winner=maybe_seat, deal_in=maybe_seat, streak=st.integers(0, 4), items=any_items,
       base=st.integers(0, 500), per_tai=st.integers(0, 100))
def test_any_accepted_entry_sums_to_zero_and_any_refusal_names_a_field(dealer, winner, deal_in, streak, items, base,
                                                                       per_tai):
    entry = ScorerEntry(dealer, winner, deal_in, streak, tuple(TaiItem(c, n) for c, n in items))
    try:
        out = settle_entry(entry, RULESET, Stakes(base, per_tai))
    except EntryError as exc:
        assert exc.field and exc.reason_zh and exc.message
        assert exc.field.split("[")[0].split(".")[0] in {"items", "deal_in", "winner", "dealer", "streak", "tai",
                                                         "stakes"}
        return
    assert sum(out.result.payments) == 0
    assert isinstance(out.result, HandResult)
    if winner is None:
        assert out.result.payments == (0, 0, 0, 0)


compatible = st.lists(st.sampled_from(["concealed_hand", "single_wait", "all_pungs", "three_concealed_pungs",
                                       "own_flower_seasons", "own_flower_plants", "half_flush", "dragon_pung"]),
                      unique=True, max_size=5)


@settings(max_examples=200, deadline=None)
@given(dealer=seats, winner=seats, offset=st.integers(1, 3), streak=st.integers(0, 4), codes=compatible,
       self_drawn=st.booleans())
def test_compatible_items_are_accepted_and_only_the_payers_pay(dealer, winner, offset, streak, codes, self_drawn):
    deal_in = None if self_drawn else (winner + offset) % 4
    if self_drawn:
        codes = [*codes, "self_draw"] + (["no_claims_self_draw"] if "concealed_hand" in codes else [])
    out = settle_entry(ScorerEntry(dealer, winner, deal_in, streak, tuple(TaiItem(c) for c in codes)), RULESET, STAKES)
    pay = out.result.payments
    assert sum(pay) == 0 and pay[winner] > 0
    payers = {s for s in range(4) if pay[s] < 0}
    assert payers == ({s for s in range(4) if s != winner} if self_drawn else {deal_in})
    assert out.result.wins == (Win(winner, out.face, deal_in),)


# --- refusals, each naming the item ----------------------------------------------------------------


@pytest.mark.parametrize("fields, field, words", [
    (dict(dealer=0, winner=1, deal_in=2, items=["nope"]), "items[0].code", "不明的名堂"),
    (dict(dealer=0, winner=1, deal_in=2, items=["full_flush", "half_flush"]), "items[1].code", "不另計"),
    (dict(dealer=0, winner=1, deal_in=2, items=["big_three_dragons", "dragon_pung"]), "items[1].code", "不另計"),
    (dict(dealer=0, winner=1, deal_in=2, items=["concealed_hand", "all_claimed"]), "items[1].code", "不可能同時成立"),
    (dict(dealer=0, winner=1, deal_in=2, items=["all_chows", "all_pungs"]), "items[1].code", "不可能同時成立"),
    (dict(dealer=0, winner=1, deal_in=2, items=["big_four_winds", "small_four_winds"]), "items[1].code", "不可能"),
    (dict(dealer=0, winner=1, deal_in=2, items=["self_draw"]), "items[0].code", "限自摸"),
    (dict(dealer=0, winner=1, deal_in=2, items=["kong_replacement_win"]), "items[0].code", "限自摸"),
    (dict(dealer=0, winner=1, items=["self_draw", "robbing_kong"]), "items[1].code", "放槍"),
    (dict(dealer=0, winner=1, items=["concealed_hand"]), "items", "自摸"),
    (dict(dealer=0, winner=1, items=["self_draw", "no_claims_self_draw"]), "items[1].code", "門清"),
    (dict(dealer=0, winner=1, deal_in=1, items=[]), "deal_in", "自己"),
    (dict(dealer=0, winner=1, deal_in=2, items=["dealer"]), "items[0].code", "莊家"),
    (dict(dealer=0, winner=0, deal_in=2, streak=1, items=[{"code": "streak_per_n", "count": 2}]), "items[0].count",
     "連莊"),
    (dict(dealer=0, winner=1, deal_in=2, items=[{"code": "full_flush", "tai": 8}]), "items[0].tai", "12 台"),
    (dict(dealer=0, winner=1, deal_in=2, items=["full_flush"], tai=13), "tai", "12 台"),
    (dict(dealer=0, winner=1, deal_in=2, items=["ligu"]), "items[0].code", "不計"),
    (dict(dealer=0, winner=1, deal_in=2, items=["single_wait", "single_wait"]), "items[1].code", "重複"),
    (dict(dealer=0, winner=1, deal_in=2, items=[{"code": "dragon_pung", "count": 4}]), "items[0].count", "最多"),
    (dict(dealer=0, items=["self_draw"]), "items[0].code", "荒局"),
    (dict(dealer=0, deal_in=2), "deal_in", "荒局"),
    (dict(dealer=4, winner=1, deal_in=2), "dealer", ""),
    (dict(dealer=0, winner=1, items=["seven_rob_one"]), "deal_in", "放槍"),
    (dict(dealer=0, winner=1, deal_in=2, items=["eight_flowers"]), "deal_in", "三家支付"),
])
def test_impossible_entries_are_refused_naming_the_item(fields, field, words):
    exc = refused(**fields)
    assert exc.field == field
    assert words in exc.reason_zh


def test_an_exhaustive_draw_pays_nothing():
    assert settled(dealer=2).result == HandResult((0, 0, 0, 0))


def test_the_dealer_items_are_optional_and_computed_from_dealer_and_streak():
    """``tai.09``, ``tai.10``: 作莊 + 連2拉2 = 5 台 between the dealer and the discarder."""
    bare = settled(dealer=0, winner=0, deal_in=2, streak=2, items=["concealed_hand"])
    spelled = settled(dealer=0, winner=0, deal_in=2, streak=2,
                      items=["concealed_hand", "dealer", {"code": "streak_per_n", "count": 2}])
    assert bare.result == spelled.result and bare.dealer_tai == 5
    assert bare.result.payments == (100 + 6 * 20, 0, -(100 + 6 * 20), 0)


# --- the 將's dealer and streak ----------------------------------------------------------------------


def test_the_deal_follows_the_hands_of_the_match():
    """``app.dealer-continue``: the dealer repeats on his win or a 荒局, passes on another's win."""
    dealer_wins = HandResult((300, -300, 0, 0), (Win(0, 1, 1),))
    draw = HandResult((0, 0, 0, 0))
    other_wins = HandResult((0, 0, 120, -120), (Win(2, 1, 3),))
    assert (deal_after(0, []).dealer, deal_after(0, []).streak) == (0, 0)
    state = deal_after(0, [dealer_wins, draw])
    assert (state.dealer, state.streak) == (0, 2)
    state = deal_after(0, [dealer_wins, draw, other_wins])
    assert (state.dealer, state.streak) == (1, 0)
    assert deal_after(0, [HandResult((10, -10, 0, 0), penalty="pen.false-win.3")]) is None
    with pytest.raises(EntryError) as info:
        check_deal(ScorerEntry(dealer=0, winner=1, deal_in=2, streak=0), state, 4)
    assert info.value.field == "dealer"
    with pytest.raises(EntryError) as info:
        check_deal(ScorerEntry(dealer=1, winner=1, deal_in=2, streak=1), state, 4)
    assert info.value.field == "streak"
    check_deal(ScorerEntry(dealer=1, winner=1, deal_in=2, streak=0), state, 4)


def test_a_match_over_takes_no_more_hands():
    """``app.rounds``: after the North round's last deal passes, the 將 is over."""
    passes = [HandResult((0, 120, -120, 0) if s == 0 else tuple(120 if k == (s + 1) % 4 else -120 if k == (s + 2) % 4
                                                                 else 0 for k in range(4)),
                         (Win((s + 1) % 4, 1, (s + 2) % 4),)) for s in [d % 4 for d in range(16)]]
    state = deal_after(0, passes)
    assert state.over
    with pytest.raises(EntryError) as info:
        check_deal(ScorerEntry(dealer=0), state, 17)
    assert info.value.field == "key"


def test_entry_from_dict_names_a_bad_item():
    with pytest.raises(EntryError) as info:
        entry_from_dict({"dealer": 0, "items": [3]})
    assert info.value.field == "items[0]"


# --- 一炮多響 and 七搶一 entered by items (issue #15 item 3) ------------------------------------------

TAIDA = Ruleset.load("taida-cup")  # play.multiple_wins on


def test_several_winners_on_one_discard_each_settle_with_the_discarder():
    """``play.multiple_wins``: two winners on seat 2's discard, dealer 3 not involved: each pays
    as if alone (底 100 + 台 × 20), the discarder pays both."""
    entry = entry_from_dict({"dealer": 3, "winner": 0, "deal_in": 2, "items": ["concealed_hand"],
                             "also": [{"winner": 1, "items": ["full_flush"]}]})
    out = settle_entry(entry, TAIDA, STAKES, multiple_wins=True)
    one = settle_entry(ScorerEntry(dealer=3, winner=0, deal_in=2, items=(TaiItem("concealed_hand"),)), TAIDA, STAKES)
    two = settle_entry(ScorerEntry(dealer=3, winner=1, deal_in=2, items=(TaiItem("full_flush"),)), TAIDA, STAKES)
    assert out.result.payments == tuple(a + b for a, b in zip(one.result.payments, two.result.payments))
    assert out.result.payments[2] == -(one.result.payments[0] + two.result.payments[1]) < 0
    assert [w.seat for w in out.result.wins] == [0, 1] and all(w.deal_in == 2 for w in out.result.wins)
    assert [w["winner"] for w in out.to_dict()["wins"]] == [0, 1]


def test_several_winners_are_refused_where_the_ruleset_plays_none_or_the_entry_is_wrong():
    body = {"dealer": 3, "winner": 0, "deal_in": 2, "items": ["concealed_hand"],
            "also": [{"winner": 1, "items": ["full_flush"]}]}
    assert pytest.raises(EntryError, settle_entry, entry_from_dict(body), RULESET, STAKES).value.field == "also"
    cases = [({**body, "also": [{"winner": 2, "items": ["full_flush"]}]}, "also[0].winner"),
             ({**body, "also": [{"winner": 0}]}, "also[0].winner"),
             ({**body, "deal_in": None, "items": ["self_draw"]}, "deal_in"),
             ({**body, "also": [{"winner": 1, "items": ["self_draw"]}]}, "also[0].items[0].code"),
             ({**body, "also": [{"winner": 1}, {"winner": 3}]}, "also")]
    for fields, field in cases:
        with pytest.raises(EntryError) as info:
            settle_entry(entry_from_dict(fields), TAIDA, STAKES, multiple_wins=True, max_winners=2)
        assert info.value.field == field, (fields, info.value)


def test_seven_rob_one_on_a_self_drawn_replacement_the_robbed_adds_it_alone():
    """``tai.30.2``: 槓上開花 on the replacement after robbing: the three pay the face, the robbed
    seat adds 七搶一's 8 台 alone; the same as the typed check's reading (tournament.typed)."""
    from referee.scoring.table import table_for
    from tournament.typed import win_payments

    entry = entry_from_dict({"dealer": 0, "winner": 0, "robbed": 2, "items": ["self_draw", "kong_replacement_win",
                                                                             "seven_rob_one"]})
    out = settle_entry(entry, RULESET, STAKES)
    win = out.result.wins[0]
    assert win.deal_in is None
    table = table_for(RULESET)
    assert out.result.payments == win_payments(win, 0, 0, table, STAKES, robbed=2)
    assert -out.result.payments[2] == -out.result.payments[1] + table.tai[table.seven_rob_one_idx] * STAKES.per_tai
    # the robbed seat without the item, or beside a deal-in, or the winner itself: refused naming robbed
    for fields in ({"items": ["self_draw"]}, {"deal_in": 1, "items": ["seven_rob_one"]}, {"robbed": 0}):
        body = {"dealer": 0, "winner": 0, "robbed": 2, "items": ["self_draw", "seven_rob_one"], **fields}
        with pytest.raises(EntryError) as info:
            settle_entry(entry_from_dict(body), RULESET, STAKES)
        assert info.value.field == "robbed", fields
    # 七搶一 →1: the robbed seat named as the deal-in pays alone
    assert settled(dealer=0, winner=0, deal_in=2, items=["seven_rob_one"]).result.payments[1] == 0


# --- counts of the optional patterns of issue #18 (review) -----------------------------------------


def test_the_optional_patterns_counted_per_set_or_flower_are_entered_as_often_as_they_score():
    """app.replaces.19, play.kong.*: 見風見台 counts each wind pung or kong, 見花見台 each flower,
    明槓台 and 暗槓台 each kong: a scorer entering the referee's own items (見風見台 ×3, 見花見台 ×4,
    暗槓 ×2) is settled on the referee's face; a count no hand reaches is refused, naming the item."""
    from referee.hand import Hand
    from referee.scoring import WinContext, WinSource, score
    from referee.tiles import Wind, parse_tiles

    rules = Ruleset.load("competition", {"tai.see_flower_see_tai": 1, "tai.see_wind_see_tai": 1,
                                         "tai.melded_kong": 1, "tai.concealed_kong": 2})
    hand = Hand.parse("456m5s5s", "明槓:東東東東 暗槓:南南南南 碰:西西西 暗槓:一筒一筒一筒一筒", "1f 2f 3f 5f")
    win = WinContext(winner=1, dealer=0, round_wind=Wind.EAST, source=WinSource.DISCARD, discarder=2,
                     winning_tile=parse_tiles("5s")[0])
    scored = score(hand, win, rules)
    counts = {PATTERNS[i].code: int(c) for i, c in scored.counted}
    assert {k: counts.get(k) for k in ("see_wind_see_tai", "see_flower_see_tai", "melded_kong", "concealed_kong")} \
        == {"see_wind_see_tai": 3, "see_flower_see_tai": 4, "melded_kong": 1, "concealed_kong": 2}
    items = tuple(TaiItem(PATTERNS[i].code, int(c), scored.table.tai[i] * int(c))
                  for i, c in scored.counted + scored.dealer_items)
    entry = ScorerEntry(dealer=0, winner=1, deal_in=2, streak=0, items=items, tai=scored.tai)
    settled_entry = settle_entry(entry, rules, STAKES)
    assert settled_entry.face == scored.tai
    for code, most in (("see_flower_see_tai", 8), ("see_wind_see_tai", 4), ("melded_kong", 5), ("concealed_kong", 5)):
        too_many = tuple(TaiItem(code, most + 1, most + 1) if it.code == code else it for it in items) \
            if code in counts else items + (TaiItem(code, most + 1, most + 1),)
        with pytest.raises(EntryError) as info:
            settle_entry(ScorerEntry(dealer=0, winner=1, deal_in=2, streak=0, items=too_many, tai=scored.tai),
                         rules, STAKES)
        assert info.value.field.endswith(".count") and f"at most {most}" in info.value.message, code

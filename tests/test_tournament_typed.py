"""Hands typed in as payments: checked against their 台, the stakes and the 將 (tournament.typed,
issue #15) — in the domain, and through the API with a real app and SQLite file."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.ruleset import Ruleset
from referee.scoring import Stakes
from referee.scoring.table import table_for
from tests.test_api_tournaments import BASE, create, log_length, problem
from tests.test_api_tournaments import PLAYERS as API_PLAYERS
from tournament.entry import ScorerEntry, TaiItem, settle_entry
from tournament.errors import ResultError
from tournament.match import MatchState
from tournament.results import HandResult, Win
from tournament.typed import check_typed, expected_payments, next_deal

COMPETITION = Ruleset.load("competition")
TABLE = table_for(COMPETITION)
STAKES = Stakes(100, 20)


def typed(payments, *wins, penalty=None) -> HandResult:
    return HandResult(tuple(payments), tuple(wins), penalty)


@pytest.mark.parametrize("payments, win, deal", [
    ([-120, 120, 0, 0], Win(1, 1, deal_in=0), (2, 0)),  # the issue's 1 台 on a discard: 100 + 20
    ([-140, 140, 0, 0], Win(1, 1, deal_in=0), (0, 0)),  # the discarder deals: 作莊 1 台 more
    ([-180, 180, 0, 0], Win(1, 1, deal_in=0), (1, 1)),  # the winner deals with 連1: 1 + (1 + 2) 台
    ([-140, -140, 440, -160], Win(2, 2), (3, 0)),  # self-draw 2 台: the dealer pays 作莊 on top
    ([-200, -200, 600, -200], Win(2, 2), (2, 1)),  # the dealer self-draws with 連1: 2 + 3 台 from each
])
def test_typed_payments_that_follow_the_tai_and_stakes(payments, win, deal):
    assert list(expected_payments([win], *deal, TABLE, STAKES)) == payments
    check_typed(typed(payments, win), TABLE, STAKES, multiple_wins=False, deal=deal)
    check_typed(typed(payments, win), TABLE, STAKES, multiple_wins=False)  # dealer unknown: some seat deals so


def test_payments_for_another_dealer_are_refused_when_the_dealer_is_known():
    with pytest.raises(ResultError) as info:
        check_typed(typed([-140, 140, 0, 0], Win(1, 1, deal_in=0)), TABLE, STAKES, multiple_wins=False, deal=(2, 0))
    assert info.value.field == "payments" and "[-120, 120, 0, 0]" in info.value.message
    # a self-draw where nobody pays the dealer's extra cannot be (the dealer always pays or wins)
    with pytest.raises(ResultError):
        check_typed(typed([-140, -140, 420, -140], Win(2, 2)), TABLE, STAKES, multiple_wins=False)


def test_the_issues_made_up_payments_are_refused_naming_the_field():
    with pytest.raises(ResultError) as info:
        check_typed(typed([-999, 999, 0, 0], Win(1, 1, deal_in=0)), TABLE, STAKES, multiple_wins=False)
    assert info.value.field == "payments" and "120" in info.value.message
    assert "house_arrangement" in info.value.reason_zh


def test_several_wins_on_one_discard_only_where_the_ruleset_plays_them():
    wins = (Win(1, 1, deal_in=0), Win(2, 2, deal_in=0))
    pay = expected_payments(wins, 3, 0, TABLE, STAKES)
    assert pay == (-260, 120, 140, 0)
    with pytest.raises(ResultError) as info:
        check_typed(typed(pay, *wins), TABLE, STAKES, multiple_wins=COMPETITION["play.multiple_wins"], deal=(3, 0))
    assert info.value.field == "wins" and "play.multiple_wins" in info.value.message
    check_typed(typed(pay, *wins), TABLE, STAKES, multiple_wins=True, deal=(3, 0))
    three = (*wins, Win(3, 1, deal_in=0))
    pay3 = expected_payments(three, 1, 0, TABLE, STAKES)
    check_typed(typed(pay3, *three), TABLE, STAKES, multiple_wins=True, deal=(1, 0))
    with pytest.raises(ResultError) as info:  # play.multiple_wins_limit: two
        check_typed(typed(pay3, *three), TABLE, STAKES, multiple_wins=True, deal=(1, 0), max_winners=2)
    assert info.value.field == "wins" and "play.multiple_wins_limit" in info.value.message


def test_seven_rob_one_on_the_replacement_typed_in():
    """七搶一 →2 (tai.30.2): a self-draw where the robbed seat adds the pattern's 台 alone."""
    win = Win(2, 8)
    plain = expected_payments([win], 0, 0, TABLE, STAKES)
    robbed = TABLE.tai[TABLE.seven_rob_one_idx] * STAKES.per_tai
    payments = list(plain)
    payments[1] -= robbed
    payments[2] += robbed
    check_typed(typed(payments, win), TABLE, STAKES, multiple_wins=False, deal=(0, 0))


def test_no_hand_after_the_north_round():
    over = MatchState(0, 3, 0, hands=16, over=True)
    with pytest.raises(ResultError) as info:
        check_typed(typed([-120, 120, 0, 0], Win(1, 1, deal_in=0)), TABLE, STAKES, multiple_wins=False, deal=over)
    assert info.value.field == "key" and "app.rounds" in info.value.message


def test_penalties_and_draws_are_not_money_checked_here():
    check_typed(typed([0, 0, 0, 0]), TABLE, STAKES, multiple_wins=False, deal=(0, 0))
    check_typed(typed([300, -100, -100, -100], penalty="pen.false-win.1"), TABLE, STAKES, multiple_wins=False)


def test_next_deal():
    assert next_deal(2, 0, typed([-120, 0, 120, 0], Win(2, 1, deal_in=0))) == (2, 1)  # 連莊 on his win
    assert next_deal(2, 3, typed([0, 0, 0, 0])) == (2, 4)  # 荒局: 連莊
    assert next_deal(3, 2, typed([-120, 120, 0, 0], Win(1, 1, deal_in=0))) == (0, 0)  # 下莊
    with pytest.raises(ResultError):
        next_deal(0, 0, typed([300, -100, -100, -100], penalty="pen.false-win.1"))


@settings(max_examples=200, deadline=None)
@given(dealer=st.integers(0, 3), winner=st.integers(0, 3), deal_in=st.one_of(st.none(), st.integers(0, 3)),
       streak=st.integers(0, 5), items=st.lists(st.sampled_from(["dragon_pung", "single_wait", "half_flush",
                                                                 "all_pungs", "full_flush"]), max_size=2, unique=True))
def test_a_scorers_settled_hand_typed_in_is_accepted(dealer, winner, deal_in, streak, items):
    """Two ways in agree: what settle_entry pays for 台 items, typed as payments, passes check_typed."""
    if deal_in == winner:
        deal_in = None
    codes = list(items) + (["self_draw"] if deal_in is None else [])
    try:
        settled = settle_entry(ScorerEntry(dealer, winner, deal_in, streak, tuple(TaiItem(c) for c in codes)),
                               COMPETITION, STAKES)
    except Exception:  # noqa: BLE001 - combinations the entry refuses are not this property's business
        return
    check_typed(settled.result, TABLE, STAKES, multiple_wins=False, deal=(dealer, streak))
    check_typed(settled.result, TABLE, STAKES, multiple_wins=False)


# --- through the API --------------------------------------------------------------------------------------


@pytest.fixture()
def official(app):
    from tests.servicekit import bearer, make_token

    return bearer(make_token(app.config["DATABASE"], "official"))


@pytest.fixture()
def scheduled(client, official):
    create(client, official)
    assert client.post(f"{BASE}/T1/players", json={"players": API_PLAYERS}, headers=official).status_code == 201
    assert client.post(f"{BASE}/T1/schedule", json={"seed": 5}, headers=official).status_code == 201


def test_the_api_refuses_made_up_payments_and_audits_a_house_arrangement(app, client, official, scheduled):
    body = {"round": 1, "table": 1, "payments": [-999, 999, 0, 0], "wins": [{"seat": 1, "tai": 1, "deal_in": 0}]}
    before = log_length(app, "T1")
    problem(client.post(f"{BASE}/T1/hands", json=body, headers=official), 400, "payments")
    assert log_length(app, "T1") == before
    arranged = client.post(f"{BASE}/T1/hands", json={**body, "house_arrangement": "本桌約定每台 900"}, headers=official)
    assert arranged.status_code == 201, arranged.get_json()
    trail = client.get(f"{BASE}/T1/hands/1/1/1/1/audit").get_json()["trail"]
    assert trail[0]["house_arrangement"] == "本桌約定每台 900"
    # a correction by payments is checked the same way
    fix = {"reason": "改記", "payments": [-500, 500, 0, 0], "wins": [{"seat": 1, "tai": 2, "deal_in": 0}]}
    problem(client.post(f"{BASE}/T1/hands/1/1/1/1/corrections", json=fix, headers=official), 400, "payments")
    good = {**fix, "payments": [-140, 140, 0, 0]}
    assert client.post(f"{BASE}/T1/hands/1/1/1/1/corrections", json=good, headers=official).status_code == 201


def test_two_winners_on_one_discard_are_refused_under_competition(client, official, scheduled):
    body = {"round": 1, "table": 1, "payments": [-240, 120, 120, 0],
            "wins": [{"seat": 1, "tai": 1, "deal_in": 0}, {"seat": 2, "tai": 1, "deal_in": 0}]}
    problem(client.post(f"{BASE}/T1/hands", json=body, headers=official), 400, "wins")


def test_no_typed_hand_after_the_north_round(app, client, official, scheduled):
    dealer = client.post(f"{BASE}/T1/rounds/1/tables/1/matches/1/draw", json={"seed": 3},
                         headers=official).get_json()["dealer"]
    for hand in range(16):  # each hand won by the dealer's 下家 on the next seat's discard: the deal passes
        winner = (dealer + 1) % 4
        payer = (winner + 1) % 4
        payments = [120 if s == winner else -120 if s == payer else 0 for s in range(4)]
        answer = client.post(f"{BASE}/T1/hands", json={"round": 1, "table": 1, "payments": payments,
                                                       "wins": [{"seat": winner, "tai": 1, "deal_in": payer}]},
                             headers=official)
        assert answer.status_code == 201, (hand, answer.get_json())
        dealer = winner
    before = log_length(app, "T1")
    late = {"round": 1, "table": 1, "payments": [-120, 120, 0, 0], "wins": [{"seat": 1, "tai": 1, "deal_in": 0}]}
    problem(client.post(f"{BASE}/T1/hands", json=late, headers=official), 400, "key")
    assert log_length(app, "T1") == before


def test_without_a_draw_the_dealer_follows_the_previous_entry(client, official, scheduled):
    first = {"round": 1, "table": 1, "dealer": 2, "winner": 0, "deal_in": 1, "items": ["concealed_hand"]}
    assert client.post(f"{BASE}/T1/hands/entry", json=first, headers=official).status_code == 201
    # seat 0 beat the dealer (seat 2): 下莊 to seat 3, streak 0
    wrong = {**first, "dealer": 2, "streak": 1}
    problem(client.post(f"{BASE}/T1/hands/entry", json=wrong, headers=official), 400, "dealer")
    right = {**first, "dealer": 3}
    assert client.post(f"{BASE}/T1/hands/entry", json=right, headers=official).status_code == 201


def test_a_match_takes_no_hand_once_the_next_is_drawn_or_played(app, client, official, scheduled):
    """將 1 keeps no hands after 將 2 was drawn (its 定莊 recorded) or played."""
    hand = {"round": 1, "table": 1, "match": 1, "payments": [-120, 120, 0, 0], "wins": [{"seat": 1, "tai": 1,
                                                                                       "deal_in": 0}]}
    assert client.post(f"{BASE}/T1/hands", json=hand, headers=official).status_code == 201
    assert client.post(f"{BASE}/T1/rounds/1/tables/1/matches/2/draw", json={"seed": 1},
                       headers=official).status_code == 201
    before = log_length(app, "T1")
    problem(client.post(f"{BASE}/T1/hands", json=hand, headers=official), 409, "match")
    assert log_length(app, "T1") == before
    # table 2: 將 2 played without a 定莊 recorded, then a hand of 將 1 is refused by the log itself
    other = {**hand, "table": 2}
    assert client.post(f"{BASE}/T1/hands", json={**other, "match": 2}, headers=official).status_code == 201
    late = problem(client.post(f"{BASE}/T1/hands", json=other, headers=official), 409, "key")
    assert "第 2 將已有紀錄" in late["detail_zh"] and "筆：" not in late["detail_zh"]  # no record number


def test_the_api_shows_a_matchs_round_wind_dealer_and_streak(client, official, scheduled):
    path = f"{BASE}/T1/rounds/1/tables/1/matches/1"
    unknown = client.get(path).get_json()
    assert unknown["known"] is False and unknown["hands"] == 0 and unknown["dealer"] is None
    dealer = client.post(f"{path}/draw", json={"seed": 3}, headers=official).get_json()["dealer"]
    state = client.get(path).get_json()
    assert state == {**state, "known": True, "dealer": dealer, "streak": 0, "round_wind": "EAST", "round_wind_zh": "東",
                     "hands": 0, "over": False, "first_dealer": dealer}
    # the dealer wins: 連莊 (streak 1); a stranger wins: 下莊
    win = {"round": 1, "table": 1, "dealer": dealer, "winner": dealer, "deal_in": (dealer + 1) % 4,
           "items": ["concealed_hand"]}
    assert client.post(f"{BASE}/T1/hands/entry", json=win, headers=official).status_code == 201
    state = client.get(path).get_json()
    assert (state["dealer"], state["streak"], state["hands"]) == (dealer, 1, 1) and "連 1" in state["describe_zh"]
    assert client.get(f"{BASE}/T1/rounds/1/tables/9/matches/1").status_code == 404
    assert client.get(f"{BASE}/T1/rounds/1/tables/1/matches/3").status_code == 404
    # without 定莊 the previous entry tells
    other = {"round": 1, "table": 2, "dealer": 2, "winner": 0, "deal_in": 1, "items": ["concealed_hand"]}
    assert client.post(f"{BASE}/T1/hands/entry", json=other, headers=official).status_code == 201
    state = client.get(f"{BASE}/T1/rounds/1/tables/2/matches/1").get_json()
    assert (state["known"], state["dealer"], state["streak"], state["round_wind"]) == (True, 3, 0, None)


def test_a_house_arrangement_resent_is_a_duplicate(app, client, official, scheduled):
    body = {"round": 1, "table": 1, "hand": 1, "payments": [-999, 999, 0, 0],
            "wins": [{"seat": 1, "tai": 1, "deal_in": 0}], "house_arrangement": "本桌約定"}
    assert client.post(f"{BASE}/T1/hands", json=body, headers=official).status_code == 201
    before = log_length(app, "T1")
    again = client.post(f"{BASE}/T1/hands", json=body, headers=official)
    assert again.status_code == 200 and log_length(app, "T1") == before, again.get_json()
    assert [r["event"]["type"] for r in again.get_json()["records"]] == ["HandRecorded", "HouseArrangement"]


def test_an_official_decides_a_tie_at_the_cut(app, client, official, scheduled):
    """R-tour-10: a tie at the 四取一 cut the chain cannot break is the official's decision, recorded."""
    # table 1: two even hands — seats 1 and 2 each beat seat 0 once for 1 台, the same in every tie-break
    for winner in (1, 2):
        hand = {"round": 1, "table": 1, "payments": [-120 if s == 0 else 120 if s == winner else 0 for s in range(4)],
                "wins": [{"seat": winner, "tai": 1, "deal_in": 0}]}
        assert client.post(f"{BASE}/T1/hands", json=hand, headers=official).status_code == 201, hand
    adv = client.get(f"{BASE}/T1/advancement?round=1&take=1").get_json()["tables"][0]
    tied = adv["tie_at_cut"]
    assert len(tied) == 2 and adv["advancing"] == [] and adv["decided"] == []
    path = f"{BASE}/T1/advancement/decisions"
    decision = {"round": 1, "table": adv["table"], "take": 1, "advancing": [tied[1]], "reason": "抽籤"}
    before = log_length(app, "T1")
    problem(client.post(path, json={**decision, "advancing": tied}, headers=official), 409, "advancing")
    problem(client.post(path, json={**decision, "advancing": ["P9"]}, headers=official), 409, "advancing")
    problem(client.post(path, json={**decision, "table": 99}, headers=official), 409, "table")
    problem(client.post(path, json={k: v for k, v in decision.items() if k != "reason"}, headers=official), 400,
            "reason")
    assert client.post(path, json=decision).status_code == 401
    assert log_length(app, "T1") == before
    assert client.post(path, json=decision, headers=official).status_code == 201
    adv = client.get(f"{BASE}/T1/advancement?round=1&take=1").get_json()["tables"][0]
    assert adv["advancing"] == [tied[1]] and adv["tie_at_cut"] == [] and adv["decision_reason"] == "抽籤"
    # a correction breaks the tie: the decision no longer applies, the standings decide
    fix = {"reason": "誤記", "payments": [-140, 0, 140, 0], "wins": [{"seat": 2, "tai": 2, "deal_in": 0}]}
    assert client.post(f"{BASE}/T1/hands/1/1/1/2/corrections", json=fix, headers=official).status_code == 201
    adv = client.get(f"{BASE}/T1/advancement?round=1&take=1").get_json()["tables"][0]
    assert adv["decided"] == [] and adv["tie_at_cut"] == [] and len(adv["advancing"]) == 1

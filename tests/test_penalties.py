"""Penalties (issue #5): the ruling model, the payment arithmetic, the entry point's input.

Payments are built by hand here; the rulings on whole streams are in
tests/test_penalties_rules.py, the samples in tests/test_penalties_samples.py, the
properties in tests/test_penalties_property.py.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from penalties import (
    AdjudicationError, Effect, Payment, ReportError, Ruling, RulingError, SideStake, SideStakeError, parse_ruling, rule,
)
from penalties.codes import CODES, render
from penalties.payments import check_zero, dealer_tai, fine, net, pay_all, seat_totals, split, streak_for, substitute
from penalties.rulings import EFFECTS, PAYMENT_KINDS, WINDOWS
from testkit.script import Script
from penalties.side_stakes import follow, parse_note
from referee.errors import MjrefError
from referee.ruleset import Ruleset
from referee.scoring import Stakes

COMP = Ruleset.load("competition")
STAKES = Stakes(100, 20)


# --- the ruling model ----------------------------------------------------------------------


def _ruling(**kw) -> Ruling:
    base = dict(code="false_win", clause="pen.false-win.1", offender=1, evidence=(41, 12),
                effects=(Effect("win_void", seat=1), Effect("hand_ended"), Effect("dealer_keeps_no_streak", seat=0)),
                payments=(Payment(1, 0, 300, base=100, tai=10), Payment(1, 2, 200, base=100, tai=5)),
                text_zh="1 號座詐胡。", text="Seat 1 declared a false win.", cites=("pen.false-win.3",),
                cause="not_winning")
    base.update(kw)
    return Ruling(**base)


def test_a_ruling_repr_parses_back():
    r = _ruling()
    assert repr(r).startswith("Ruling(code='false_win', clause='pen.false-win.1', offender=1, evidence=(41, 12)")
    assert parse_ruling(repr(r)) == r
    assert eval(repr(r), {"Ruling": Ruling, "Effect": Effect, "Payment": Payment}) == r  # noqa: S307 - the point


def test_a_ruling_with_a_liability_window_parses_back():
    r = _ruling(code="wrong_pung_completed", clause="pen.wrong-pon.2", payments=(),
                effects=(Effect("dead_hand", seat=2, seq=9),
                         Effect("liability", seat=2, window="next_draws", draws=8, seq=9)))
    assert parse_ruling(repr(r)) == r


@pytest.mark.parametrize("text", [
    "__import__('os').system('true')",
    "Ruling(code='false_win', clause='pen.false-win.1', offender=open('x'))",
    "Ruling('false_win', 'pen.false-win.1')",
    "Effect(kind='dead_hand')",
    "Ruling(code='false_win', clause='pen.false-win.1', nonsense=1)",
    "Ruling(code=",
])
def test_parse_ruling_evaluates_nothing(text):
    with pytest.raises(RulingError):
        parse_ruling(text)


@pytest.mark.parametrize("kw, field", [
    ({"code": "no_such_code"}, "code"),
    ({"clause": "Pen.X"}, "clause"),
    ({"offender": 4}, "offender"),
    ({"evidence": (1, -2)}, "evidence"),
    ({"effects": ("dead_hand",)}, "effects"),
    ({"payments": ((1, 0, 5),)}, "payments"),
    ({"cause": "Not ASCII 相公"}, "cause"),
    ({"cites": ("pen.peek", "bad id")}, "clause"),
])
def test_a_bad_ruling_is_refused_naming_the_field(kw, field):
    with pytest.raises(RulingError) as info:
        _ruling(**kw)
    assert info.value.field == field
    assert isinstance(info.value, MjrefError) and isinstance(info.value, ValueError)
    assert info.value.reason_zh


@pytest.mark.parametrize("kw, field", [
    ({"kind": "nonsense"}, "effects.kind"),
    ({"kind": "dead_hand", "seat": 7}, "effects.seat"),
    ({"kind": "liability"}, "effects.window"),
    ({"kind": "dead_hand", "window": "next_draws", "draws": 8}, "effects.window"),
    ({"kind": "liability", "window": "soon"}, "effects.window"),
    ({"kind": "liability", "window": "next_draws"}, "effects.draws"),
    ({"kind": "restore", "tiles": (99,)}, "effects.tiles"),
])
def test_a_bad_effect_is_refused(kw, field):
    with pytest.raises(RulingError) as info:
        Effect(**kw)
    assert info.value.field == field


@pytest.mark.parametrize("args, kw, field", [
    ((1, 1, 5), {}, "payments.payee"),
    ((5, 1, 5), {}, "payments.payer"),
    ((1, 2, -5), {}, "payments.amount"),
    ((1, 2, 5), {"kind": "gift"}, "payments.kind"),
    ((1, 2, 5), {"instead_of": "x"}, "payments.instead_of"),
])
def test_a_bad_payment_is_refused(args, kw, field):
    with pytest.raises(RulingError) as info:
        Payment(*args, **kw)
    assert info.value.field == field


def test_every_code_has_a_clause_and_both_texts():
    from pathlib import Path

    tsv = Path(__file__).resolve().parent.parent / "data" / "clauses.tsv"
    known = {line.split("\t", 1)[0] for line in tsv.read_text(encoding="utf-8").splitlines()[1:] if line}
    for code, (clause, zh, en) in CODES.items():
        assert code.isascii() and code == code.lower(), code
        assert clause in known, (code, clause)
        assert zh and en
    assert set(EFFECTS) and set(PAYMENT_KINDS) and set(WINDOWS)


def test_render_fills_seats_and_tiles_and_survives_missing_words():
    clause, zh, en = render("unfulfilled_call", seat=2, tile=4, payee=0)
    assert clause == "pen.unfulfilled-call"
    assert "2 號座喊碰 五萬 未碰" in zh and "0 號座" in zh  # no winds known: by number
    _c, zh, en = render("unfulfilled_call", east=1, seat=2, tile=4, payee=0)
    assert zh.startswith("南家喊碰 五萬 未碰") and "付予打出該牌的北家" in zh and en.startswith("South (seat 2)")
    assert "called pung on 5m" in en
    _c, zh, _en = render("unfulfilled_call", seat=2)
    assert "?" in zh


def test_to_dict_is_plain_json():
    import json

    d = _ruling().to_dict()
    json.dumps(d, ensure_ascii=False)
    assert d["effects"][0] == {"kind": "win_void", "seat": 1, "zh": "胡牌無效", "en": "the win is void"}
    assert d["payments"][0] == {"payer": 1, "payee": 0, "amount": 300, "base": 100, "tai": 10, "kind": "pay_all"}


# --- the arithmetic ------------------------------------------------------------------------


def test_dealer_tai_is_2n_plus_1():
    assert [dealer_tai(n, COMP) for n in range(4)] == [1, 3, 5, 7]


def test_the_streak_marker_counts_against_the_dealer():
    # score.streak-marker: shown low → collects as shown, pays as real; shown high → the reverse
    assert streak_for(dealer_collects=True, streak=3, marker=1, ruleset=COMP) == 1
    assert streak_for(dealer_collects=False, streak=3, marker=1, ruleset=COMP) == 3
    assert streak_for(dealer_collects=True, streak=1, marker=3, ruleset=COMP) == 1
    assert streak_for(dealer_collects=False, streak=1, marker=3, ruleset=COMP) == 3
    actual = Ruleset.load("competition", {"settle.streak_marker": "actual"})
    assert streak_for(dealer_collects=True, streak=3, marker=1, ruleset=actual) == 3


def test_a_non_dealer_pays_all_with_the_dealer_tai_to_the_dealer_alone():
    # pen.false-win.1: 底注加牌面台數分別賠付三家，莊連拉之台數則另與莊家單獨計賠
    pays = pay_all(1, face=5, dealer=0, streak=2, marker=None, stakes=STAKES, ruleset=COMP)
    assert [(p.payer, p.payee, p.amount, p.tai) for p in pays] == [(1, 2, 200, 5), (1, 3, 200, 5), (1, 0, 300, 10)]
    assert seat_totals(pays) == (300, -700, 200, 200)


def test_a_dealer_pays_all_with_his_tai_to_all_three():
    # 若莊家（詐）胡，莊連拉之台數應一並計入分別賠付三家
    pays = pay_all(0, face=5, dealer=0, streak=2, marker=None, stakes=STAKES, ruleset=COMP)
    assert [p.amount for p in pays] == [300, 300, 300]
    assert seat_totals(pays) == (-900, 300, 300, 300)


def test_a_dealer_paying_all_with_a_low_marker_pays_by_the_real_streak():
    pays = pay_all(0, face=0, dealer=0, streak=3, marker=1, stakes=STAKES, ruleset=COMP)
    assert {p.tai for p in pays} == {7}
    pays = pay_all(2, face=0, dealer=0, streak=3, marker=1, stakes=STAKES, ruleset=COMP)
    assert [p.tai for p in pays if p.payee == 0] == [3]


def test_a_fine_is_tai_without_base():
    f = fine(2, 0, tai=1, stakes=STAKES)
    assert (f.amount, f.base, f.tai, f.kind) == (20, 0, 1, "fine")


def test_split_shares_equally_and_keeps_the_sum():
    assert split(100, [1, 2]) == [(1, 50), (2, 50)]
    assert split(101, [3, 1, 2]) == [(3, 34), (1, 34), (2, 33)]
    with pytest.raises(RulingError):
        split(10, [])


def test_substitute_moves_each_share_to_the_offender():
    wins = (Payment(0, 1, 220, base=100, tai=6, kind="win"), Payment(2, 1, 200, base=100, tai=5, kind="win"),
            Payment(3, 1, 200, base=100, tai=5, kind="win"))
    replaced, paid = substitute(wins, [3])
    assert [p.payer for p in replaced] == [0, 2]  # seat 3 pays its own share already
    assert [(p.payer, p.amount, p.instead_of) for p in paid] == [(3, 220, 0), (3, 200, 2)]
    kept = [w for w in wins if w not in replaced] + list(paid)
    assert seat_totals(kept) == (0, 620, 0, -620)


def test_two_offenders_share_every_transfer():
    wins = (Payment(0, 3, 221, kind="win"), Payment(1, 3, 200, kind="win"), Payment(2, 3, 200, kind="win"))
    replaced, paid = substitute(wins, [1, 2])
    kept = [w for w in wins if w not in replaced] + list(paid)
    assert seat_totals(kept) == (0, -311, -310, 621)


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5000)), max_size=12),
       st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
def test_any_substitution_keeps_the_sum_at_zero(raw, offenders):
    wins = tuple(Payment(a, b, n, kind="win") for a, b, n in raw if a != b)
    replaced, paid = substitute(wins, offenders)
    kept = [w for w in wins if not any(w is r for r in replaced)] + list(paid)
    assert sum(net(kept).values()) == 0
    for winner in {w.payee for w in wins}:
        assert sum(p.amount for p in kept if p.payee == winner) == sum(w.amount for w in wins if w.payee == winner)


def test_check_zero():
    check_zero([Payment(0, 1, 5)])


# --- side stakes ---------------------------------------------------------------------------


@pytest.mark.parametrize("note, stake", [
    ("outside 阿明 50/10", SideStake(1, "outside", "阿明", 50, 10)),
    ("外插 Bob 30", SideStake(1, "outside", "Bob", 30, 0)),
    ("inside 2", SideStake(1, "inside", units=2)),
    ("內插 1", SideStake(1, "inside", units=1)),
])
def test_side_stake_notes(note, stake):
    assert parse_note(1, note) == stake


@pytest.mark.parametrize("note", ["", "outside", "outside 阿明 x", "inside 0", "sideways 3", "outside 12 50"])
def test_bad_side_stake_notes(note):
    with pytest.raises(SideStakeError):
        parse_note(1, note)


def test_side_stakes_follow_wins_and_pay_alls_but_not_fines():
    transfers = (Payment(1, 0, 300, base=100, tai=10, kind="pay_all"),
                 Payment(1, 2, 200, base=100, tai=5, kind="pay_all"),
                 Payment(3, 2, 20, tai=1, kind="fine"))
    stakes = [SideStake(2, "outside", "阿明", 50, 10), SideStake(1, "outside", "小華", 40, 0),
              SideStake(0, "inside", units=1)]
    out = follow(transfers, stakes, STAKES)
    got = {(p.payer, p.payee, p.amount) for p in out}
    assert got == {(1, "阿明", 100), ("小華", 0, 40), ("小華", 2, 40), (1, 0, 100)}
    void = follow(transfers, stakes, STAKES, void_backers=["阿明"])
    assert (1, "阿明", 100) not in {(p.payer, p.payee, p.amount) for p in void}
    assert ("小華", 0, 40) in {(p.payer, p.payee, p.amount) for p in void}


# --- the entry point's input ------------------------------------------------------------------


def test_rule_refuses_what_is_not_one_hand():
    with pytest.raises(AdjudicationError):
        rule(42)
    two = Script(dealer=0).deal().jsonl() + Script(dealer=1, hand=2).deal().jsonl()
    with pytest.raises(AdjudicationError):
        rule(two)


def test_rule_on_an_adjudication_needs_its_events():
    from referee.replay import replay

    events = Script(dealer=0).deal().discard(0, "5m").events()
    adj = replay(events)
    with pytest.raises(AdjudicationError):
        rule(adj)
    assert rule(adj, events=events).payments == (0, 0, 0, 0)
    assert rule((adj, events)).payments == (0, 0, 0, 0)


@pytest.mark.parametrize("report, field", [
    ({"code": "walking_eye"}, "seat"),
    ({"code": "side_stake"}, "seat"),
    ({"code": "side_stake", "seat": 1, "note": "sideways"}, "note"),
    ({"code": "side_stake_influence", "seat": 1}, "note"),
])
def test_a_report_that_cannot_be_ruled_on_names_its_field(report, field):
    s = Script(dealer=0).deal().discard(0, "5m").report(**report)
    with pytest.raises((ReportError, SideStakeError)) as info:
        rule(s.jsonl())
    assert info.value.field == field


def test_an_unknown_report_code_is_listed_not_ruled():
    s = Script(dealer=0).deal().discard(0, "5m").report("sneezed", 1)
    r = rule(s.jsonl())
    assert r.rulings == () and r.unruled == (("report:sneezed", s.last_seq),)


def test_a_digital_tables_refused_act_is_not_ruled_on():
    from referee.events import event_to_dict
    from referee.generator import generate_hand

    events = [event_to_dict(e) for e in generate_hand(3)]
    at = next(i for i, e in enumerate(events) if e["type"] == "discard")
    events.insert(at + 1, {"type": "draw", "seat": (events[at]["seat"] + 2) % 4})  # a grabbed draw: refused
    for i, e in enumerate(events):
        e["seq"] = i + 1
    assert "dead_hand" not in rule(events).codes

"""The close's frozen results filled whole (issue #17) held to their constructors:
:func:`penalties.rulings.rulings_of` to :class:`~penalties.rulings.Rulings`,
:func:`penalties.rulings.payment_of` to :class:`~penalties.rulings.Payment` (its checks, the
same errors), :func:`penalties.extra_wins.transfers` to :func:`~penalties.extra_wins.transfers_reference`,
and :func:`penalties.adjudicator._result` to :class:`~penalties.adjudicator.Result`."""
from __future__ import annotations

import dataclasses
from dataclasses import fields

import pytest
from hypothesis import given
from hypothesis import strategies as st

from penalties.adjudicator import HandAdjudicator, Result, _events, _result
from penalties.errors import RulingError
from penalties.extra_wins import transfers, transfers_reference
from penalties.rulings import PAYMENT_KINDS, Payment, Rulings, payment_of, rulings_of
from referee.generator import generate_hand
from testkit.irregular import irregular_hand


def _same_object(made, reference, cls) -> None:
    """*made* is what the constructor made: its class, every field in order, its repr and
    hash, and frozen as the constructor's."""
    assert type(made) is cls and made == reference
    assert [getattr(made, f.name) for f in fields(cls)] == [getattr(reference, f.name) for f in fields(cls)]
    assert repr(made) == repr(reference)
    try:
        h = hash(reference)
    except TypeError:
        h = None
    if h is not None:
        assert hash(made) == h
    field_name = fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, field_name, None)


_ANY = st.one_of(st.none(), st.integers(-3, 9), st.text(max_size=3), st.tuples(st.integers(0, 3)), st.booleans())


@given(values=st.lists(_ANY, min_size=12, max_size=12))
def test_rulings_filled_whole_is_the_constructor(values):
    """Any twelve values, each field its own (a swap of two fields shows)."""
    _same_object(rulings_of(*values), Rulings(*values), Rulings)


_PARTY = st.one_of(st.integers(-1, 5), st.sampled_from(["", " ", "王", "Lee"]), st.none(), st.booleans(),
                   st.just(1.0))


@given(payer=_PARTY, payee=_PARTY, amount=st.one_of(st.integers(-5, 500), st.just(2.5), st.just(True), st.none()),
       base=st.integers(0, 100), tai=st.integers(0, 30),
       kind=st.one_of(st.sampled_from(sorted(PAYMENT_KINDS)), st.just("nope")),
       instead_of=st.one_of(st.none(), st.integers(-1, 5), st.just("王")))
def test_payment_filled_whole_is_the_constructor_and_checked_alike(payer, payee, amount, base, tai, kind, instead_of):
    """The same payment, or the same error (message, field, reason), for any values, valid or not."""
    try:
        reference = Payment(payer, payee, amount, base, tai, kind, instead_of)
    except RulingError as exc:
        with pytest.raises(RulingError) as caught:
            payment_of(payer, payee, amount, base, tai, kind, instead_of)
        assert (str(caught.value), caught.value.field, caught.value.reason_zh) == (str(exc), exc.field, exc.reason_zh)
        return
    _same_object(payment_of(payer, payee, amount, base, tai, kind, instead_of), reference, Payment)


def test_win_transfers_equal_their_reference():
    """Every win's settlement of generated and irregular hands as payments: the filled ones
    equal the constructor's, one by one, in order."""
    hands = [generate_hand(seed) for seed in range(40)]
    hands += [_events(irregular_hand(seed, seed + 2, 2, physical=seed % 2 == 0)) for seed in range(20)]
    paid = 0
    for events in hands:
        try:
            result = HandAdjudicator().feed_all(events)
        except Exception:  # noqa: BLE001 - a stream the referee cannot follow has no settlement
            continue
        for win in result.adjudication.outcome.wins:
            if win.settlement is None:
                continue
            made, reference = transfers(win.settlement), transfers_reference(win.settlement)
            assert type(made) is tuple and made == reference
            for p, q in zip(made, reference, strict=True):
                _same_object(p, q, Payment)
            paid += len(made)
    assert paid > 30


def test_result_filled_whole_is_the_constructor():
    """:func:`penalties.adjudicator._result` (what :func:`one_result` returns) against
    :class:`Result`: eleven distinct values, so a swap shows; and the results of real hands
    rebuilt by the constructor equal them."""
    values = [f"v{i}" for i in range(11)]
    _same_object(_result(*values), Result(*values), Result)
    for seed in range(10):
        result = HandAdjudicator().feed_all(generate_hand(seed)).result
        rebuilt = Result(*(getattr(result, f.name) for f in fields(Result)))
        _same_object(result, rebuilt, Result)

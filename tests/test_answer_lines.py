"""``flask replay``'s answer line written as bytes from its values (:mod:`api.answer_lines`,
issue #17) is byte for byte the dicts' ``json.dumps``, encoded: each writer against its dict's
dump on generated and irregular hands (with names in Chinese), and with values changed to
ones no referee writes (a bool or a float where an int is, a str subclass, a name where a
seat is, an excluded pattern, a ruling given) — those must reach the dict's dump, not a text
kept for an equal value (``True == 1``)."""
from __future__ import annotations

import copy
import dataclasses
import functools
import json

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from api import answer_lines as al
from api import batch
from referee.events import parse_event
from referee.generator import generate_hands
from referee.kinds import GroupKind, MeldKind, OutcomeKind, Readiness
from testkit.irregular import irregular_hand

ERRORS = ("strict", "surrogateescape", "backslashreplace")


def dumped(value, errors="strict") -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", errors)


def penalties_dict(hand) -> dict:
    out = hand.rulings.to_dict()
    out["rulings"] = [g.to_dict() for g in hand.given]
    return out


@functools.cache
def streams() -> tuple:
    """40 irregular hands' events (physical and digital) and 40 generated ones, with the names
    of the players (in Chinese) on a third of them."""
    events = [[parse_event(raw) for raw in irregular_hand(seed, 7, 1 + seed % 4, physical=seed % 2 == 0)]
              for seed in range(40)] + [list(e) for e in generate_hands(40, seed=11)]
    return tuple((e, ("王小明", None, "Lee", "林") if n % 3 == 0 else None) for n, e in enumerate(events))


def judged() -> list:
    """The hands of :func:`streams` adjudicated afresh (those the adjudicator reads)."""
    from penalties.adjudicator import HandAdjudicator

    out = []
    for events, names in streams():
        try:
            out.append(HandAdjudicator(names=names).feed_all(events))
        except Exception:  # noqa: BLE001 - a stream refused: no answer to write
            continue
    return out


@functools.cache
def hands() -> tuple:
    """Hand results: irregular and generated (:func:`streams`), made once."""
    return tuple(judged())


def _final(hand) -> dict:
    from referee.outcome import final_table

    return final_table(hand.adjudication.state)


def check_parts(hand, errors: str = "strict") -> None:
    """Every writer of :mod:`api.answer_lines` against its dict's dump, for one hand."""
    result = hand.result
    assert al.outcome_line(result, errors) == dumped(result.to_dict(), errors)
    assert al.next_hand_line(result.next, errors) == dumped(result.next.to_dict(), errors)
    for w in result.wins:
        assert al.win_line(w, errors) == dumped(w.to_dict(), errors)
        if w.score is not None:
            assert al.score_line(w.score, errors) == dumped(w.score.to_dict(), errors)
        if w.settlement is not None:
            assert al.settlement_line(w.settlement, errors) == dumped(w.settlement.to_dict(), errors)
    assert al.penalties_line(hand.rulings, hand.given, errors) == dumped(penalties_dict(hand), errors)
    if hand.adjudication.state is not None:
        assert al.final_table_line(hand.adjudication.state, errors) == dumped(_final(hand), errors)
    line = batch.replay_line(hand, errors)
    assert line == batch.replay_line_reference(hand, errors)
    assert line == (batch.replay_text(hand) + "\n").encode("utf-8", errors)
    assert line == dumped(batch.replay_answer(hand), errors) + b"\n"


def test_each_part_written_as_bytes_equals_its_dicts_dump():
    """On irregular and generated hands, twice each (the second time from the kept texts),
    under three error handlers: wins, draws, irregular verdicts and rulings among them."""
    found = {"wins": 0, "draws": 0, "given": 0, "odd": 0, "irregular": 0}
    for hand in hands():
        for errors in ERRORS + ERRORS:
            check_parts(hand, errors)
        found["wins"] += bool(hand.result.wins)
        found["draws"] += hand.result.kind.value == "exhaustive_draw"
        found["given"] += bool(hand.given)
        found["odd"] += bool(hand.adjudication.verdicts.odd)
        found["irregular"] += bool(hand.adjudication.irregularities)
    assert min(found.values()) > 5, found


class Text(str):
    """A str subclass: not a str to the writers (the dict's dump writes it)."""


#: values no referee writes where an int, a bool, a text or an enum is — enums of another class
#: among them (GroupKind and MeldKind are IntEnums: ``GroupKind.PUNG == MeldKind.PUNG == 1``)
ODD = [True, False, 1.0, 2.5, None, -1, 2 ** 70, "1", Text("win"), Text("x"), (), (1,), 0,
       GroupKind.PUNG, MeldKind.PUNG, OutcomeKind.WIN, Readiness.NONE]


def _set(obj, name, value):
    """A copy of a frozen or slotted *obj* with *name* set to *value* (no check run)."""
    new = copy.copy(obj)
    object.__setattr__(new, name, value)
    return new


def _changed(hand, where: str, value):
    """*hand* with one value in its outcome, a win, its score, its settlement, its next hand
    or its penalties changed to *value*; None when *hand* has no such place (no win, no
    transfer, no meld: the example is dropped, not run on the hand unchanged)."""
    result = hand.result
    if where.startswith("result."):
        return dataclasses.replace(hand, result=_set(result, where[7:], value))
    if where.startswith("next."):
        nxt = _set(result.next, where[5:], value)
        return dataclasses.replace(hand, result=_set(result, "next", nxt), rulings=_set(hand.rulings, "next", nxt))
    if where.startswith("rulings."):
        return dataclasses.replace(hand, rulings=_set(hand.rulings, where[8:], value))
    if where == "given":
        return dataclasses.replace(hand, given=value)
    if not result.wins:
        return None
    w = result.wins[0]
    score = w.score
    if where.startswith(("group.", "meld.")):  # the decomposition's first set, or the hand's first meld
        if score is None or score.groups is None:
            return None
        if where.startswith("group."):
            groups = (_set(score.groups[0], where[6:], value),) + tuple(score.groups[1:])
            w = _set(w, "score", _set(score, "groups", groups))
        else:
            melds = score.hand.melds
            if not melds:
                return None
            hand_ = _set(score.hand, "melds", (_set(melds[0], where[5:], value),) + tuple(melds[1:]))
            w = _set(w, "score", _set(score, "hand", hand_))
    elif where.startswith("claim."):
        w = _set(w, "claim", w.claim._replace(**{where[6:]: value}))
    elif where.startswith("win."):
        w = _set(w, where[4:], value)
    elif where.startswith("score.") and w.score is not None:
        w = _set(w, "score", _set(w.score, where[6:], value))
    elif where.startswith("ctx.") and w.score is not None:
        w = _set(w, "score", _set(w.score, "ctx", _set(w.score.ctx, where[4:], value)))
    elif where.startswith("transfer.") and w.settlement is not None and w.settlement.transfers:
        transfers = w.settlement.transfers
        w = _set(w, "settlement", w.settlement._replace(
            transfers=(transfers[0]._replace(**{where[9:]: value}),) + transfers[1:]))
    elif where.startswith("payment.") and hand.rulings.transfers:
        payments = hand.rulings.transfers
        rulings = _set(hand.rulings, "transfers", (_set(payments[0], where[8:], value),) + payments[1:])
        return dataclasses.replace(hand, rulings=rulings)
    elif where.startswith("settlement.") and w.settlement is not None:
        w = _set(w, "settlement", w.settlement._replace(**{where[11:]: value}))
    else:
        return None
    return dataclasses.replace(hand, result=_set(result, "wins", (w,) + result.wins[1:]))


PLACES = [
    "result.kind", "result.clause", "result.seq", "result.detail", "result.detail_zh", "result.payments",
    "result.win_payments", "result.voided", "result.upheld",
    "next.dealer", "next.streak", "next.first_dealer", "next.dealer_repeats", "next.streak_counted",
    "next.match_over", "next.round_wind",
    "rulings.next_dealer", "rulings.next_streak", "rulings.hand_ended", "rulings.payments", "rulings.outside",
    "rulings.unruled",
    "claim.seat", "claim.seq", "claim.tile", "claim.discarder", "claim.readiness_note", "claim.source",
    "claim.flower_win", "claim.readiness", "claim.first_turn",
    "win.unscored", "score.tai", "score.dealer_tai", "score.robbed_tai", "score.face_tai", "score.ligu",
    "score.excluded", "score.adjustments", "score.flowers", "ctx.winning_tile", "ctx.streak",
    "transfer.amount", "transfer.payer", "transfer.on_behalf_of", "transfer.streak",
    "payment.payer", "payment.payee", "payment.amount", "payment.tai", "payment.kind", "payment.instead_of",
    "settlement.payments", "group.tile", "group.kind", "meld.tile", "meld.kind",
]


def _outcome(write, reference):
    """What *write* gives, or the type of what it raises; the same for *reference*."""
    results = []
    for f in (write, reference):
        try:
            results.append(f())
        except Exception as exc:  # noqa: BLE001 - both must fail alike
            results.append(type(exc))
    return results


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from(PLACES), st.sampled_from(ODD), st.sampled_from(ERRORS))
def test_a_value_of_another_type_is_written_as_its_dict_dumps_it(pick, where, value, errors):
    """One value changed to one a referee never writes: the line is still the answer's dict
    dumped (or both fail with the same error), after the usual value's text was kept."""
    all_hands = hands()
    hand = all_hands[pick % len(all_hands)]
    check_parts(hand, errors)  # the usual values' texts kept first
    odd = _changed(hand, where, value)
    assume(odd is not None)
    line, expected = _outcome(lambda: batch.replay_line(odd, errors),
                              lambda: dumped(batch.replay_answer(odd), errors) + b"\n")
    assert line == expected
    assert _outcome(lambda: batch.replay_line_reference(odd, errors), lambda: expected)[0] == expected


def test_the_kept_texts_are_bounded_and_written_again_once_emptied(monkeypatch):
    """The tables of kept texts are emptied when full and filled again with the same texts."""
    tables = (al._TEXTS, al._NEXT, al._CLAIMS, al._FLAGS, al._PATTERNS, al._GROUPS, al._MELDS, al._WINNING,
              al._FLOWERS, al._TABLE_MELDS)
    for table in tables:
        table.clear()
    monkeypatch.setattr(al, "LIMIT", 3)
    for hand in hands()[:30]:
        check_parts(hand)
        assert al.final_table_line(hand.adjudication.state) == dumped(_final(hand))
    for table in tables:
        assert 0 < len(table) <= 3


def test_a_lone_surrogate_in_a_name_is_left_to_the_error_handler():
    """A name no strict UTF-8 writes (in the outcome's details): not kept; each handler writes
    it as the whole text's encoding does, or raises as it does (``surrogateescape`` writes
    only U+DC80–U+DCFF), and strict raises. Each name sits at every seat in turn, so both
    surrogates reach the answer's text."""
    from penalties.adjudicator import HandAdjudicator

    events = [list(e) for e in generate_hands(8, seed=3)]
    names = ["\ud800", "b\udcff", "c", "d"]
    wins = 0
    seen = set()
    for turn in range(4):
        rotated = tuple(names[turn:] + names[:turn])
        for stream in events:
            hand = HandAdjudicator(names=rotated).feed_all(stream)
            wins += bool(hand.result.wins)
            text = batch.replay_text(hand) + "\n"
            seen.update(name for name in names[:2] if name in text)
            for errors in ("surrogateescape", "backslashreplace", "replace", "strict"):
                line, expected = _outcome(lambda: batch.replay_line(hand, errors),  # noqa: B023
                                          lambda: text.encode("utf-8", errors))  # noqa: B023
                assert line == expected
    assert wins
    assert seen == set(names[:2])


def test_the_final_table_written_as_bytes_equals_json_dumps_of_its_dict():
    """``final_table_line`` is ``json.dumps(final_table(st))`` encoded, on irregular and legal
    hands' last tables, twice each (the melds' and flowers' texts then kept), and with flags,
    numbers, flowers and the ready declaration changed to values no referee holds."""
    from referee.events import ReadyKind
    from referee.outcome import final_table

    changes = [
        lambda st, s: None,
        lambda st, s: (setattr(s, "dead_hand", True), setattr(s, "ready", ReadyKind.DECLARED), setattr(s, "passed", 9)),
        lambda st, s: setattr(s, "dead_hand", 1),
        lambda st, s: setattr(s, "unknown", 2 ** 70),
        lambda st, s: setattr(st, "dealer", True),
        lambda st, s: setattr(s, "unknown", False),
        lambda st, s: setattr(s, "ready", "declared"),
        lambda st, s: setattr(s, "flowers", [34, 35.0]),
        lambda st, s: setattr(s, "flowers", [34]),
        lambda st, s: setattr(s, "flowers", [34.0]),  # equal to a text kept: not an int
        lambda st, s: setattr(s, "flowers", [1]),
        lambda st, s: setattr(s, "flowers", [True]),
        lambda st, s: setattr(s, "flowers", [41, 34, 36]),
        lambda st, s: setattr(s, "flowers", []),
        lambda st, s: setattr(s, "pond", [0, 9, 9, 27, 33, 5]),
    ]
    tables = 0
    for n, hand in enumerate(judged()):  # afresh: their tables are changed below
        st = hand.adjudication.state
        if st is None:
            continue
        tables += 1
        seat = st.seats[n % 4]
        kept = {name: getattr(seat, name) for name in ("dead_hand", "ready", "passed", "unknown", "flowers", "pond")}
        dealer = st.dealer
        for change in changes:  # one at a time, the table as it was before each
            change(st, seat)
            for errors in ("strict", "backslashreplace"):
                expected = _outcome(lambda: dumped(final_table(st), errors), lambda: None)[0]  # noqa: B023
                assert _outcome(lambda: al.final_table_line(st, errors), lambda: None)[0] == expected  # noqa: B023
            for name, value in kept.items():
                setattr(seat, name, value)
            st.dealer = dealer
    assert tables > 30


#: tiles as a pond or flowers hold them, now and then one that is not a tile
_TILE = st.one_of(st.integers(0, 41), st.integers(0, 41), st.integers(0, 41),
                  st.sampled_from([-1, 42, -43, True, False, 1.0, 2 ** 64]))


@settings(max_examples=600, deadline=None)
@given(st.lists(_TILE, max_size=30))
def test_a_ponds_text_as_bytes_is_the_reference_writers(tiles):
    """``tiles_line`` (a tuple of texts by tile and next tile, read in C) writes what
    ``format_tiles_reference`` writes, unsorted, or fails with the same error."""
    from referee.tiles import format_tiles_reference

    got = _outcome(lambda: al.tiles_line(tiles), lambda: format_tiles_reference(tiles, sort=False).encode())
    assert got[0] == got[1]


@settings(max_examples=400, deadline=None)
@given(st.lists(_TILE, max_size=9), st.lists(st.integers(34, 41), max_size=8))
def test_flowers_text_is_format_tiles_sorted_for_any_tiles(tiles, kept_first):
    """``flowers_text`` (kept by the flowers' tuple when each is an int) writes what
    ``format_tiles_reference`` writes, sorted, or fails alike — also for tiles equal to a
    tuple already kept (``True`` for 1, ``34.0`` for 34)."""
    from referee.tiles import format_tiles_reference

    for flowers in (kept_first, tiles, [float(t) for t in kept_first], [1], [True], [34], [34.0]):
        got = _outcome(lambda: al.flowers_text(flowers), lambda: format_tiles_reference(flowers))  # noqa: B023
        assert got[0] == got[1]


def test_a_winning_hands_text_is_str_of_the_hand():
    """``hand_text`` (the melds' texts kept by kind and tile) is ``str(hand)`` for every scored
    win, twice (then from the kept texts), and with a meld that is not a ``Meld``."""
    from referee.hand import Hand
    from referee.melds import Meld, MeldKind

    class Other(Meld):
        def __str__(self) -> str:
            return "other"

    wins = 0
    for hand in hands():
        for w in hand.result.wins:
            if w.hand is None:
                continue
            wins += 1
            assert al.hand_text(w.hand) == al.hand_text(w.hand) == str(w.hand)
            odd = _set(w.hand, "melds", w.hand.melds + (Other(MeldKind.PUNG, 5),))
            assert al.hand_text(odd) == str(odd)
            assert type(odd) is Hand and al.hand_text(odd).endswith("other" if not odd.flowers else "f")
    assert wins > 10

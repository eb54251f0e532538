"""Hand analysis is exact: checked against a brute-force reference on random hands
(issue #2, item 3; ``win.shape``)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.handgen import random_hand, waiting_hand, winning_hand
from referee.errors import InvalidHandError, MjrefError, TileCountError
from referee.hand import Hand, decompositions, decompositions_keys, is_ligu, is_winning, keys_of, waits, waits_keys
from referee.melds import Group, GroupKind, Meld, MeldKind, parse_melds
from referee.tiles import counts_at, format_tiles_reference, parse_tiles_at
from referee.tables import WaitShape

# --- the reference: one recursive search over the whole 34-kind vector -------------


def ref_decompositions(counts: list[int]) -> set[tuple[tuple[int, int], ...]]:
    """All readings as sorted tuples of (kind, tile), kind 0 chow, 1 pung, 2 pair."""
    found: set[tuple[tuple[int, int], ...]] = set()

    def search(c: list[int], groups: list[tuple[int, int]], paired: bool) -> None:
        t = next((i for i in range(34) if c[i]), None)
        if t is None:
            if paired:
                found.add(tuple(sorted(groups)))
            return
        if c[t] >= 3:
            c[t] -= 3
            search(c, groups + [(1, t)], paired)
            c[t] += 3
        if c[t] >= 2 and not paired:
            c[t] -= 2
            search(c, groups + [(2, t)], True)
            c[t] += 2
        if t < 27 and t % 9 <= 6 and c[t + 1] and c[t + 2]:
            for i in range(3):
                c[t + i] -= 1
            search(c, groups + [(0, t)], paired)
            for i in range(3):
                c[t + i] += 1

    search(list(counts), [], False)
    return found


def ref_shape(kind: int, start: int, tile: int) -> WaitShape:
    if kind == 2:
        return WaitShape.SINGLE
    if kind == 1:
        return WaitShape.DOUBLE_PUNG
    partial = [start, start + 1, start + 2]
    partial.remove(tile)
    a, b = partial
    if b - a == 2:
        return WaitShape.CLOSED
    ends = [x for x in (a - 1, b + 1) if x // 9 == a // 9 and x >= 0]  # the partial's waits in its suit
    return WaitShape.TWO_SIDED if len(ends) == 2 else WaitShape.EDGE


def ref_waits(counts: list[int], melds: tuple[Meld, ...]) -> dict[int, frozenset[WaitShape]]:
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    out = {}
    for tile in range(34):
        if held[tile] == 4:
            continue
        after = list(counts)
        after[tile] += 1
        shapes = {
            ref_shape(kind, start, tile)
            for reading in ref_decompositions(after)
            for kind, start in reading
            if tile in ((start, start + 1, start + 2) if kind == 0 else (start,))
        }
        if shapes:
            out[tile] = frozenset(shapes)
    return out


def as_pairs(reading) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((int(g.kind), g.tile) for g in reading.groups))


# --- random hands -------------------------------------------------------------------

SUIT_CHOICES = st.sampled_from([(0, 1, 2, 3), (0, 1, 2, 3), (0,), (1, 3), (2,), (0, 3)])


@st.composite
def hands(draw, kind: str):
    rng = random.Random(draw(st.integers(0, 2**32)))
    suits = draw(SUIT_CHOICES)
    melds = draw(st.integers(0, 4))
    if kind == "winning":
        counts, exposed = winning_hand(rng, melds=melds, suits=suits)
    elif kind == "waiting":
        counts, exposed = waiting_hand(rng, melds=melds, suits=suits)
    else:
        size = 17 if kind == "random17" else 16
        counts, exposed = random_hand(rng, size, melds=min(melds, 2), suits=suits)
    return Hand(tuple(counts), exposed)


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands("winning"), hands("random17")))
def test_winning_and_decompositions_match_reference(hand):
    expected = ref_decompositions(list(hand.concealed))
    assert is_winning(hand) == bool(expected)
    assert {as_pairs(d) for d in decompositions(hand)} == expected
    assert all(d.melds == hand.melds for d in decompositions(hand))


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands("waiting"), hands("random16")))
def test_waits_match_reference(hand):
    got = {w.tile: w.shapes for w in waits(hand)}
    assert got == ref_waits(list(hand.concealed), hand.melds)


@settings(max_examples=200, deadline=None)
@given(hands("winning"))
def test_one_tile_off_a_winning_hand(hand):
    """Take any tile out of a winning hand: it waits on that tile; swap it: no win."""
    held = list(hand.concealed)
    for meld in hand.melds:
        for t in meld.tiles:
            held[t] += 1
    for tile in {t for t in range(34) if hand.concealed[t]}:
        counts = list(hand.concealed)
        counts[tile] -= 1
        short = Hand(tuple(counts), hand.melds)
        assert tile in {w.tile for w in waits(short)}
        for other in (tile + 1, tile - 1):
            if 0 <= other < 34 and held[other] < 4:
                swapped = list(counts)
                swapped[other] += 1
                assert is_winning(Hand(tuple(swapped), hand.melds)) == bool(ref_decompositions(swapped))


# --- named hands ----------------------------------------------------------------------


def test_nine_gates_shape_waits_on_every_character():
    hand = Hand.parse("1112345678999m", "111z")
    assert [w.tile for w in waits(hand)] == list(range(9))


def test_wait_shapes():
    def shapes(tiles, melds="123p 456p 789p 111s"):
        return {w.tile: {s.name for s in w.shapes} for w in waits(Hand.parse(tiles, melds))}

    assert shapes("45m 99m") == {2: {"TWO_SIDED"}, 5: {"TWO_SIDED"}}
    assert shapes("12m 99m") == {2: {"EDGE"}}
    assert shapes("89m 55m") == {6: {"EDGE"}}
    assert shapes("13m 99m") == {1: {"CLOSED"}}
    assert shapes("1m", "123p 456p 789p 111s 222s") == {0: {"SINGLE"}}
    assert shapes("11m EE") == {0: {"DOUBLE_PUNG"}, 27: {"DOUBLE_PUNG"}}


def test_a_tile_held_four_times_is_not_a_wait():
    # 1111m waits only on a fifth 1m as far as shape goes: no real wait (docs/rulings.md)
    hand = Hand.parse("1111m", "123p 456p 789p 111s")
    assert waits(hand) == ()
    assert {w.tile for w in waits(Hand.parse("1112m", "123p 456p 789p 111s"))} == {1, 2}


def test_hand_size_is_checked():
    with pytest.raises(InvalidHandError, match="make 3 tiles") as err:
        Hand.parse("123m")
    assert "缺張" in err.value.reason_zh
    with pytest.raises(InvalidHandError) as err:
        Hand.parse("11m", "123p 456p 789p 111s 222s 333s")
    assert "逾張" in err.value.reason_zh
    with pytest.raises(TileCountError):
        Hand.parse("5p 55m", "555p 555m 123s 456s 789s")
    with pytest.raises(InvalidHandError, match="waits needs a hand of 16"):
        waits(Hand.parse("11m", "123p 456p 789p 111s 222s"))


def test_kongs_count_as_melds():
    hand = Hand.parse("11m", "concealed:1111p 2222p 3333p added:EEEE 5555s")
    assert hand.size == 17 and is_winning(hand) and hand.is_concealed is False

def test_ligu_is_an_option():
    hand = Hand.parse("1122m 3344p 5566s 77z EEE")
    assert hand.size == 17
    assert not is_winning(hand)
    assert is_ligu(hand) and is_winning(hand, ligu=True)
    (reading,) = decompositions(hand, ligu=True)
    assert reading.is_ligu and sum(g.kind is GroupKind.PUNG for g in reading.groups) == 1
    four = Hand.parse("1111m 3344p 5566s 77z EEE")  # four alike = two pairs
    assert is_ligu(four)
    waiting = Hand.parse("1122m 3344p 5566s 7z EEE")
    assert {w.tile: w.shapes for w in waits(waiting, ligu=True)} == {33: frozenset({WaitShape.SINGLE})}
    assert waits(waiting) == ()
    melded = Hand.parse("1122m 3344p 5566s 77z", "EEE")
    assert not is_ligu(melded)


def test_decomposition_repr_parses_back():
    hand = Hand.parse("11123455678999m", "111z")
    (reading,) = decompositions(hand)
    from referee.hand import Decomposition  # noqa: F401  (names for eval)
    assert eval(repr(reading)) == reading
    assert eval(repr(hand)) == hand
    assert reading.pair == Group(GroupKind.PAIR, 4)
    assert reading.melds == (Meld(MeldKind.PUNG, 27),)


# --- a Hand computes its keys once (issue #17 item 6) -------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.one_of(hands("winning"), hands("waiting"), hands("random16"), hands("random17")))
def test_a_hands_keys_and_size_are_the_counted_ones(hand):
    assert hand.keys == keys_of(hand.concealed)
    assert hand.size == sum(hand.concealed) + 3 * len(hand.melds)
    assert hand == Hand(hand.concealed, hand.melds, hand.flowers)
    assert hash(hand) == hash(Hand(hand.concealed, hand.melds))
    assert "_keys" not in repr(hand)


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands("winning"), hands("waiting"), hands("random16"), hands("random17")))
def test_the_hand_functions_answer_as_the_keys_path(hand):
    if hand.size == 17:
        assert [d.groups for d in decompositions(hand)] == decompositions_keys(keys_of(hand.concealed))
        assert is_winning(hand) == bool(decompositions_keys(keys_of(hand.concealed)))
    else:
        held = [hand.concealed[t] + sum(m.tiles.count(t) for m in hand.melds) for t in range(34)]
        expected = [(t, s) for t, s in waits_keys(keys_of(hand.concealed)) if held[t] < 4]
        assert [(w.tile, w.shapes) for w in waits(hand)] == expected
        assert [(w.tile, w.shapes) for w in waits(hand, ligu=True)] == sorted(
            (w.tile, w.shapes) for w in waits(hand, ligu=True))


def _parsed(text, melds=""):
    try:
        return Hand.parse(text, melds)
    except MjrefError as exc:
        return (type(exc), exc.field, exc.message, exc.reason_zh)


def _parsed_reference(text, melds=""):
    """Hand.parse as it was: every tile with its position, counted by counts_at."""
    try:
        counts = counts_at(parse_tiles_at(text, field="tiles"), text, field="tiles")
        return Hand(tuple(counts), parse_melds(melds, field="melds"), ())
    except MjrefError as exc:
        return (type(exc), exc.field, exc.message, exc.reason_zh)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(["123m", "456p", "789s", "11z", "EEE", "5555m", "1f", "9z", "0p", " ", "五萬", "中",
                                 "x", "22s", "3", "m"]), max_size=9).map("".join),
       st.sampled_from(["", "pung:555p", "123s", "bad"]))
def test_hand_parse_equals_the_positional_reading(text, melds):
    fast, ref = _parsed(text, melds), _parsed_reference(text, melds)
    assert fast == ref
    if isinstance(fast, Hand):  # filled through its draft: a real, frozen Hand with the constructor's facts
        assert type(fast) is Hand and hash(fast) == hash(ref) and repr(fast) == repr(ref)
        assert (fast.keys, fast.size, fast._held) == (ref.keys, ref.size, ref._held)
        assert fast.keys == keys_of(fast.concealed)  # the remembered suit keys, against their definition
        with pytest.raises(AttributeError):
            fast.concealed = ()  # type: ignore[misc]


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands("winning"), hands("random17"), hands("random16")), st.sampled_from([(), (34,), (35, 41)]))
def test_a_hands_text_writes_its_tiles_as_the_reference(hand, flowers):
    """str(Hand) writes the concealed tiles from their counts (issue #17): the text of its
    tiles one by one (format_tiles_reference of Hand.tiles()), then the melds and flowers."""
    hand = Hand(hand.concealed, hand.melds, flowers)
    expected = [format_tiles_reference(hand.tiles())] + [str(m) for m in hand.melds]
    if hand.flowers:
        expected.append(format_tiles_reference(hand.flowers))
    assert str(hand) == " ".join(expected)

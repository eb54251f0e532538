"""Tiles and meld notation: parse, format, errors with positions (issue #2, item 2)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import InvalidMeldError, InvalidTileError, MjrefError, TileCountError
from referee.melds import Meld, MeldKind, parse_melds
from referee.tiles import (
    FLOWER_BASE,
    Wind,
    counts_of,
    flower_seat,
    format_counts,
    format_counts_reference,
    format_tiles,
    format_tiles_reference,
    compact_tiles,
    full_set,
    parse_tiles,
    parse_tiles_reference,
    tile_name,
)


def test_full_set_is_144_tiles():
    tiles = full_set()
    assert len(tiles) == 144
    assert all(tiles.count(t) == 4 for t in range(34))
    assert sorted(t for t in tiles if t >= FLOWER_BASE) == list(range(34, 42))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("123m", [0, 1, 2]),
        ("9p", [17]),
        ("1s9s", [18, 26]),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33]),
        ("ESWNPFC", [27, 28, 29, 30, 31, 32, 33]),
        ("1f8f", [34, 41]),
        ("一萬 九萬", [0, 8]),
        ("一筒五餅", [9, 13]),
        ("一條三索", [18, 20]),
        ("東南西北中發白", [27, 28, 29, 30, 33, 32, 31]),
        ("白板", [31]),
        ("春夏秋冬梅蘭菊竹", list(range(34, 42))),
        ("12m, 東 5p", [0, 1, 27, 13]),
    ],
)
def test_parse(text, expected):
    assert parse_tiles(text) == expected


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("123x", 3, "'x'"),
        ("12m 5", 4, "without a suit"),
        ("0m", 0, "no tile 0m"),
        ("8z", 0, "no tile 8z"),
        ("9f", 0, "no tile 9f"),
        ("m", 0, "without digits"),
        ("一萬十萬", 2, "unknown tile '十'"),
    ],
)
def test_parse_errors_show_input_and_position(text, position, words):
    with pytest.raises(InvalidTileError) as err:
        parse_tiles(text)
    message = str(err.value)
    assert f"position {position}" in message and repr(text) in message and words in message
    assert f"第 {position} 個字元" in err.value.reason_zh


def test_fifth_copy_and_flower_in_hand():
    with pytest.raises(TileCountError, match="5 copies of 5m"):
        counts_of(parse_tiles("55555m"))
    with pytest.raises(InvalidTileError, match="flower 1f cannot be held"):
        counts_of(parse_tiles("1f"))


@given(st.lists(st.integers(0, 41), max_size=30))
def test_format_round_trip(tiles):
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)
    assert parse_tiles(format_tiles(tiles, "zh")) == sorted(tiles)


def test_names():
    assert tile_name(0) == "1m" and tile_name(0, "zh") == "一萬"
    assert tile_name(31, "zh") == "白" and tile_name(33) == "7z"
    assert tile_name(40, "zh") == "菊" and tile_name(41, "zh") == "竹"


def test_flower_numbering_is_a_parameter():
    ju, zhu = 40, 41  # 菊, 竹
    assert flower_seat(ju, "ju3-zhu4") is Wind.WEST and flower_seat(zhu, "ju3-zhu4") is Wind.NORTH
    assert flower_seat(ju, "zhu3-ju4") is Wind.NORTH and flower_seat(zhu, "zhu3-ju4") is Wind.WEST
    assert flower_seat(34, "ju3-zhu4") is Wind.EAST  # 春 1
    with pytest.raises(ValueError):
        flower_seat(40, "bogus")


@pytest.mark.parametrize(
    "text, kind, tile",
    [
        ("123m", MeldKind.CHOW, 0),
        ("555p", MeldKind.PUNG, 13),
        ("5555p", MeldKind.MELDED_KONG, 13),
        ("added:EEEE", MeldKind.ADDED_KONG, 27),
        ("concealed:9999s", MeldKind.CONCEALED_KONG, 26),
        ("暗槓:中中中中", MeldKind.CONCEALED_KONG, 33),
        ("吃:三萬四萬五萬", MeldKind.CHOW, 2),
    ],
)
def test_parse_melds(text, kind, tile):
    (meld,) = parse_melds(text)
    assert (meld.kind, meld.tile) == (kind, tile)
    assert parse_melds(str(meld)) == (meld,)


@pytest.mark.parametrize(
    "text, words",
    [
        ("912m", "9-1-2"),
        ("ESW", "honours cannot form a chow"),
        ("124m", "three consecutive"),
        ("1f2f3f", "flower"),
        ("pung:556m", "3 alike"),
        ("concealed:5556p", "4 alike"),
        ("chow:555m", "three consecutive"),
        ("1m2p3s", "three consecutive"),
        ("55m", "2 tiles are no meld"),
        ("steal:123m", "unknown meld kind"),
    ],
)
def test_bad_melds(text, words):
    with pytest.raises(InvalidMeldError, match=words) as err:
        parse_melds("123p " + text)
    assert err.value.field == "melds[1]"


def test_reprs_parse_back():
    meld = Meld(MeldKind.CHOW, 3, claimed=4)
    assert eval(repr(meld)) == meld
    assert repr(Wind.SOUTH) == "Wind.SOUTH"


# --- the fast tile reader against the reference (issue #17 item 5) -------------------------


def _read(parse, text):
    try:
        return parse(text, field="tiles")
    except MjrefError as exc:
        return (type(exc), exc.field, exc.message, exc.reason_zh)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(
    st.text(alphabet="0123456789mpszfESWNPFC ,，、\t\u00a0x東萬五中春", max_size=24),
    st.lists(st.sampled_from(["123m", "9p", "55z", "8f", "E", "C", " ", ",", "0s", "8z", "9f", "1", "m"]),
             max_size=8).map("".join),
    st.integers(),
))
def test_the_fast_tile_reader_equals_the_reference(text):
    assert _read(parse_tiles, text) == _read(parse_tiles_reference, text)


def _written(write, tiles, style, sort):
    try:
        return write(tiles, style, sort=sort)
    except (MjrefError, ValueError) as exc:
        return (type(exc), str(exc))


@settings(max_examples=800, deadline=None)
@given(st.lists(st.one_of(st.integers(-2, 43), st.booleans(), st.just(1.0)), max_size=30),
       st.sampled_from(["compact", "zh", "other"]), st.booleans())
def test_the_fast_tile_writer_equals_the_reference(tiles, style, sort):
    """format_tiles' table-driven compact writer against the tile-by-tile reference: the same
    text for every list of tiles, and the same error for a bad tile or style."""
    if not sort or all(type(t) is type(tiles[0]) for t in tiles):  # sorted() of mixed types is Python's error
        assert _written(format_tiles, tiles, style, sort) == _written(format_tiles_reference, tiles, style, sort)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 41), st.integers(0, 8), st.integers(27, 41)), max_size=40), st.booleans(),
       st.sampled_from([None, -1, 42, True]), st.integers(0, 40))
def test_the_fast_tile_writer_of_good_tiles_equals_the_reference(tiles, sort, bad, where):
    """format_tiles' writer by tile pairs (issue #17: the final table's ponds, flowers and melds)
    on lists of good tiles — runs of one suit, honours and flowers, in and out of order — and
    the same lists with one bad tile put in (the end marker -1, 42, a bool): the same text, or
    the same error, as the reference."""
    if bad is not None:
        tiles = [*tiles[:where], bad, *tiles[where:]]
        sort = sort and bad is not True
    assert _written(format_tiles, tiles, "compact", sort) == _written(format_tiles_reference, tiles, "compact", sort)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 4), st.integers(-2, 6)), min_size=34, max_size=36))
def test_the_count_writer_equals_the_reference(counts):
    """format_counts (the final table's concealed tiles, issue #17) against writing the tiles
    it counts one by one: the same text for every count vector, empty suits left out, a count
    of 0 or less writing nothing, kinds past the 34th not read."""
    assert format_counts(counts) == format_counts_reference(counts)


@pytest.mark.parametrize("counts, text", [
    ([0] * 34, ""),
    ([1] * 34, "123456789m123456789p123456789s1234567z"),
    ([0] * 8 + [2] + [0] * 9 + [4] + [0] * 14 + [3], "99m1111s777z"),
    ([0] * 27 + [1] + [0] * 6, "1z"),
])
def test_the_count_writer_by_example(counts, text):
    assert format_counts(counts) == format_counts_reference(counts) == text


_TABLE_MELD_TILES = st.one_of(st.none(), st.lists(st.integers(0, 33), min_size=0, max_size=5).map(tuple),
                               st.sampled_from([(1, 2, 3), (2, 1, 3), (31, 31, 31), (5,) * 4, (27, 28, 29)]))


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(MeldKind)), _TABLE_MELD_TILES), min_size=1, max_size=12))
def test_the_table_meld_text_equals_the_reference(melds):
    """A table meld's text (``str``, :func:`referee.state.meld_text`: the final table's melds,
    issue #17) is written once per kind and tiles and then looked up: the same text as
    writing it afresh, each time a kind and tiles come back (in another order, unknown, unlike,
    from another seat), and after the table of texts is emptied."""
    from referee import state
    from referee.state import TableMeld, meld_text

    for round_ in range(2):
        for i, (kind, tiles) in enumerate(melds):
            meld = TableMeld(kind, tiles, tiles[0] if tiles else None, i % 4, i)
            assert meld_text(meld) == str(meld) == meld.text_reference()
        if round_ == 0:
            state._MELD_TEXTS.clear()


def test_the_table_meld_text_by_example():
    from referee.state import TableMeld

    assert str(TableMeld(MeldKind.CHOW, (3, 2, 4), 3, 0, 5)) == "吃:435m"
    assert str(TableMeld(MeldKind.CONCEALED_KONG, None)) == "暗槓:????"
    assert str(TableMeld(MeldKind.PUNG, (31, 31, 31), 31, 2, 9)) == "碰:555z"
    with pytest.raises(InvalidTileError):
        str(TableMeld(MeldKind.PUNG, (50, 50, 50)))


#: tokens and separators a long text is made of: known tokens, new ones, and what the reference
#: reads otherwise (honours glued to digits, digits left without their letter, other spaces, a
#: full-width comma, a bad digit)
_LONG_PIECES = ["1m", "23p", "456s", "7z", "8f", "9p", "11z", "3m", "E", "C", " ", ",", " \t", "\u3000", "\u00a0",
                "0m", "8z", "9f", "E1m", "1", "m", "，", "、", "12m3", "東", "\n"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_LONG_PIECES), max_size=160).map("".join))
def test_the_fast_tile_reader_equals_the_reference_on_long_texts(text):
    """Long texts (a wall's 144 tiles) as the fast reader cuts them — after each suit letter and at
    separators, each token looked up — against the character-by-character reference."""
    assert _read(parse_tiles, text) == _read(parse_tiles_reference, text)


def test_the_fast_tile_reader_reads_walls_as_the_reference():
    from referee.generator import generate_hand

    for seed in range(6):
        wall = next(e for e in generate_hand(seed) if e.type.wire == "wall")
        text = format_tiles(wall.tiles, sort=False)
        assert parse_tiles(text) == parse_tiles_reference(text) == list(wall.tiles)
        assert parse_tiles(text.replace("m", "m ")) == list(wall.tiles)


#: pieces of a wall's text: digit groups with their letter, and what compact_tiles leaves to parse_tiles
#: (separators, honour letters, bad digits, digits or a letter alone, other bytes)
_WALL_PIECES = ["1m", "23p", "456s", "7z", "8f", "9p", "11z", "3489s", "0m", "8z", "9f", "1", "m", "z", " ", ",",
                "E", "C", "\t", "x", "東", "\n", "12", "f0", "，"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_WALL_PIECES), max_size=120).map("".join))
def test_the_compact_wall_reader_equals_parse_tiles(text):
    """compact_tiles (a wall's bytes, issue #17 item 5) against parse_tiles: the same tiles, or
    None (never for digit groups each closed by its letter: then the tiles)."""
    got = compact_tiles(text.encode())
    plain = bool(text) and all(p in ("1m", "23p", "456s", "7z", "8f", "9p", "11z", "3489s") for p in
                               _cut_groups(text))
    if got is None:
        assert not plain
    else:
        assert got == tuple(parse_tiles(text))


def _cut_groups(text):
    """*text* cut after each suit letter (what is left after the last one stays a piece)."""
    out, start = [], 0
    for i, c in enumerate(text):
        if c in "mpszf":
            out.append(text[start:i + 1])
            start = i + 1
    if start < len(text):
        out.append(text[start:])
    return out


def test_the_compact_wall_reader_reads_generated_walls():
    from referee.generator import generate_hand

    for seed in range(6):
        wall = next(e for e in generate_hand(seed) if e.type.wire == "wall")
        assert compact_tiles(format_tiles(wall.tiles, sort=False).encode()) == wall.tiles

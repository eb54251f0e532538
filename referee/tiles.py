"""Tiles: the 144-tile set, its notation in and out.

A tile is a small int (``deal.walls``: 4 × 34 kinds + 8 flowers = 144 tiles):

====== ========================= ==================================
index  compact                   Chinese
====== ========================= ==================================
0–8    ``1m``–``9m``             一萬 … 九萬
9–17   ``1p``–``9p``             一筒 … 九筒 (餅 too)
18–26  ``1s``–``9s``             一條 … 九條 (索 too)
27–33  ``1z``–``7z`` / ``ESWNPFC`` 東 南 西 北 白 發 中
34–41  ``1f``–``8f``             春 夏 秋 冬 梅 蘭 菊 竹
====== ========================= ==================================

一條 is a plain 條 tile, whatever bird it is carved with (小鳥, 么雞: ``app.bird``): it chows
and pungs as any other.

Flowers are numbered as printed (1f–8f = 春夏秋冬梅蘭菊竹); which flower belongs to
which seat (菊 3 or 竹 3) is the ruleset parameter behind ``app.flower-numbering``,
applied by :func:`flower_seat`, never by renumbering tiles.

Parsing accepts compact and Chinese notation mixed, with spaces or commas between
tiles; every error shows the input and the position of the bad character.
"""
from __future__ import annotations

import re
from itertools import chain as _chain_of
from operator import mul as _mul
from collections.abc import Iterable, Sequence

from .errors import InvalidTileError, TileCountError
from .kinds import Suit, Wind

#: number of tile kinds that can be held in a hand (3 suits × 9 + 7 honours)
KINDS = 34
#: first flower index; flowers are 34–41
FLOWER_BASE = 34
#: every tile index, flowers included
ALL_TILES = range(42)
#: copies of each non-flower kind in the set
COPIES = 4


WHITE, GREEN, RED = 31, 32, 33  # 白 發 中
WIND_TILES = (27, 28, 29, 30)
DRAGON_TILES = (WHITE, GREEN, RED)

_SUIT_LETTERS = "mpsz"
_HONOUR_LETTERS = "ESWNPFC"
_ZH_NUMERALS = "一二三四五六七八九"
_ZH_SUITS = "萬筒條"
_ZH_HONOURS = "東南西北白發中"
_ZH_FLOWERS = "春夏秋冬梅蘭菊竹"

# Chinese names accepted on input, longest first where one is a prefix of another.
_ZH_INPUT: dict[str, int] = {}
for _r, _n in enumerate(_ZH_NUMERALS):
    for _s, _names in enumerate(("萬万", "筒餅饼", "條索条")):
        for _c in _names:
            _ZH_INPUT[_n + _c] = _s * 9 + _r
for _i, _c in enumerate(_ZH_HONOURS):
    _ZH_INPUT[_c] = 27 + _i
_ZH_INPUT.update({"白板": WHITE, "紅中": RED, "红中": RED, "發財": GREEN, "发财": GREEN, "发": GREEN})
for _i, _c in enumerate(_ZH_FLOWERS):
    _ZH_INPUT[_c] = FLOWER_BASE + _i
_ZH_INPUT.update({"兰": FLOWER_BASE + 5})
_ZH_MAXLEN = max(map(len, _ZH_INPUT))


def is_flower(tile: int) -> bool:
    """True for the eight flowers (34–41)."""
    return tile >= FLOWER_BASE


def is_honour(tile: int) -> bool:
    """True for winds and dragons (27–33)."""
    return 27 <= tile < FLOWER_BASE


def suit_of(tile: int) -> Suit:
    """The tile's :class:`Suit`."""
    return Suit(min(tile // 9, 3)) if tile < FLOWER_BASE else Suit.FLOWERS


def rank_of(tile: int) -> int:
    """1–9 for suited tiles, 1–7 for honours, 1–8 for flowers."""
    if tile >= FLOWER_BASE:
        return tile - FLOWER_BASE + 1
    return tile - 27 + 1 if tile >= 27 else tile % 9 + 1


def check_tile(tile: int, *, field: str = "tile") -> int:
    """Return *tile* if it is a valid index.

    :raises InvalidTileError: for anything but an int in 0–41.
    """
    if type(tile) is not int or not 0 <= tile < 42:  # bool is not a tile
        raise InvalidTileError(
            f"not a tile index (0–41): {tile!r}", field=field, reason_zh=f"不是牌的編號（0–41）：{tile!r}"
        )
    return tile


def tile_name(tile: int, style: str = "compact") -> str:
    """One tile's name: ``"5m"`` (compact) or ``"五萬"`` (``style="zh"``)."""
    check_tile(tile)
    if style == "zh":
        if tile >= FLOWER_BASE:
            return _ZH_FLOWERS[tile - FLOWER_BASE]
        if tile >= 27:
            return _ZH_HONOURS[tile - 27]
        return _ZH_NUMERALS[tile % 9] + _ZH_SUITS[tile // 9]
    if style != "compact":
        raise ValueError(f"unknown style {style!r}: use 'compact' or 'zh'")
    if tile >= FLOWER_BASE:
        return f"{tile - FLOWER_BASE + 1}f"
    return f"{rank_of(tile)}{_SUIT_LETTERS[min(tile // 9, 3)]}"


def parse_tiles(text: str, *, field: str = "tiles") -> list[int]:
    """Parse tiles in compact or Chinese notation, in the order written.

    ``"123m 55z"``, ``"EESW"``, ``"一萬二萬三萬 中中"``, ``"春 1f"`` are all accepted;
    spaces and commas separate nothing but may stand anywhere.

    Compact text (digit groups with their suit letter, honour letters, spaces and commas)
    is cut after each suit letter and at separators (``str.replace``, ``str.split``) and each
    token looked up in a table (:data:`_TOKENS`; a wall's 144 tiles, issue #17 item 5); a
    text with a token not in the table is cut by one regular expression and each token read
    and remembered; anything else — Chinese names, an error — is read by
    :func:`parse_tiles_reference`, which gives the same tiles and every error
    (``tests/test_tiles.py`` holds the two equal, on short and on long texts).

    :raises InvalidTileError: naming the bad character and its 0-based position.
    """
    if text.__class__ is str:
        # the whole text cut after each suit letter by str.replace (C loops, no regular
        # expression: one costs ~1,000 instructions a token) and each token looked up; a token
        # not known yet (a first "0m", glued honours "E1m", a full-width comma) → the loop below
        tokens = list(map(_TOKENS.get, text.replace("m", "m ").replace("p", "p ").replace("s", "s ")
                          .replace("z", "z ").replace("f", "f ").replace(",", " ").split()))
        if all(tokens):
            return [*_chain(tokens)]
    if text.__class__ is str and _COMPACT(text) is not None:
        out: list[int] = []
        for token in _TOKENIZE(text):
            tiles = _TOKENS.get(token)
            if tiles is None:
                tiles = _token(token)
                if tiles is None:  # "0m", "8z", "9f": the reference names the character
                    return parse_tiles_reference(text, field=field)
            out += tiles
        return out
    return parse_tiles_reference(text, field=field)


#: each suit letter's byte → its digits' tiles as a translation table (``b"1"`` of ``m`` → 0; 255 for a
#: digit with no tile, ``0m``, ``8z``, ``9f``, and for any other byte); any other byte → all 255
_NO_TILE = bytes([255]) * 256
_DIGIT_TILES = [_NO_TILE] * 256
for _letter, _base, _limit in (("m", 0, 9), ("p", 9, 9), ("s", 18, 9), ("z", 27, 7), ("f", FLOWER_BASE, 8)):
    _DIGIT_TILES[ord(_letter)] = bytes(_base + ord(c) - 49 if 49 <= ord(c) < 49 + _limit else 255 for c in
                                       map(chr, range(256)))
_SUITS_TO_SPACES = bytes.maketrans(b"mpszf", b"     ")


def compact_tiles(text: bytes) -> tuple[int, ...] | None:
    """The tiles of a compact text of digit groups each closed by its suit letter and nothing else
    (``b"7m85p1s"``: a wall as ``to_jsonl`` writes it), as :func:`parse_tiles` reads its text; None
    for any other text (spaces, commas, honour letters, a bad digit, digits without their letter:
    :func:`parse_tiles` reads it, or names the error).

    Issue #17 item 5: a wall's 144 tiles by a few C passes over its bytes, no token looked up —
    the suit letters (the digits deleted), the digit groups (the letters made spaces, then
    ``split``), each group translated by its letter's table, the pieces joined. Any byte but a
    digit or a suit letter is kept among the letters, so the groups and the letters no longer
    pair one for one, or it pairs with a group and translates it to 255; a text ending in digits
    or with a letter not closing a group has more groups, or more letters, than the other.
    ``tests/test_tiles.py`` holds it to :func:`parse_tiles`."""
    letters = text.translate(None, b"0123456789")
    groups = text.translate(_SUITS_TO_SPACES).split()
    if len(groups) != len(letters) or not letters or text[-1] < 58:  # ends in a digit (or a byte below it)
        return None
    tiles = b"".join(map(bytes.translate, groups, map(_DIGIT_TILES.__getitem__, letters)))
    if 255 in tiles:
        return None
    return tuple(tiles)


def parse_tiles_reference(text: str, *, field: str = "tiles") -> list[int]:
    """:func:`parse_tiles` read character by character (:func:`parse_tiles_at`): the
    reference the fast path is held to, and the source of every error it reports."""
    return [tile for tile, _ in parse_tiles_at(text, field=field)]


#: a whole text of compact tokens and separators (ASCII digits only: ``str.isdigit`` is wider)
_COMPACT = re.compile(r"(?:[0-9]+[mpszf]|[ESWNPFC]|[ ,])*").fullmatch
_TOKENIZE = re.compile(r"[0-9]+[mpszf]|[ESWNPFC]").findall
#: token → its tiles: every honour letter and single tile, then each digit group as first met
_TOKENS: dict[str, tuple[int, ...]] = {c: (27 + i,) for i, c in enumerate(_HONOUR_LETTERS)}
_chain = _chain_of.from_iterable


def _token(token: str) -> tuple[int, ...] | None:
    """The tiles of a compact token (``"123m"``), remembered; None when a digit has no tile."""
    letter = token[-1]
    limit = {"z": 7, "f": 8}.get(letter, 9)
    base = FLOWER_BASE - 1 if letter == "f" else _SUIT_LETTERS.index(letter) * 9 - 1
    digits = [ord(d) - 48 for d in token[:-1]]
    if not all(1 <= d <= limit for d in digits):
        return None
    tiles = tuple(base + d for d in digits)
    if len(_TOKENS) < 20_000:
        _TOKENS[token] = tiles
    return tiles


def parse_tiles_at(text: str, *, field: str = "tiles") -> list[tuple[int, int]]:
    """Like :func:`parse_tiles`, each tile with the position where it was written.

    :raises InvalidTileError: naming the bad character and its 0-based position.
    """
    if not isinstance(text, str):
        raise InvalidTileError(f"tiles must be a string, got {text!r}", field=field, reason_zh="牌必須以字串表示")
    out: list[tuple[int, int]] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for a suit letter
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch in ",，、":
            if pending:
                _bad(text, pending[0][1], "digits without a suit letter (m p s z f)", "數字後缺花色字母（m p s z f）",
                     field)
            i += 1
            continue
        if "0" <= ch <= "9":
            pending.append((int(ch), i))
            i += 1
            continue
        if ch in _SUIT_LETTERS + "f":
            if not pending:
                _bad(text, i, f"suit letter {ch!r} without digits", f"花色字母 {ch!r} 前沒有數字", field)
            for digit, pos in pending:
                out.append((_compact(digit, ch, text, pos, field), pos))
            pending.clear()
            i += 1
            continue
        if pending:
            _bad(text, i, f"expected a suit letter (m p s z f) after digits, found {ch!r}",
                 f"數字後應為花色字母（m p s z f），卻是 {ch!r}", field)
        if ch in _HONOUR_LETTERS:
            out.append((27 + _HONOUR_LETTERS.index(ch), i))
            i += 1
            continue
        for size in range(min(_ZH_MAXLEN, n - i), 0, -1):
            tile = _ZH_INPUT.get(text[i : i + size])
            if tile is not None:
                out.append((tile, i))
                i += size
                break
        else:
            _bad(text, i, f"unknown tile {ch!r}", f"無法辨識的牌 {ch!r}", field)
    if pending:
        _bad(text, pending[0][1], "digits without a suit letter (m p s z f)", "數字後缺花色字母（m p s z f）", field)
    return out


def _compact(digit: int, letter: str, text: str, pos: int, field: str) -> int:
    limit = {"z": 7, "f": 8}.get(letter, 9)
    if not 1 <= digit <= limit:
        _bad(text, pos, f"no tile {digit}{letter} (1–{limit}{letter})",
             f"沒有 {digit}{letter} 這張牌（1–{limit}{letter}）", field)
    if letter == "f":
        return FLOWER_BASE + digit - 1
    return _SUIT_LETTERS.index(letter) * 9 + digit - 1


def _bad(text: str, pos: int, why: str, why_zh: str, field: str) -> None:
    raise InvalidTileError(
        f"{why} at position {pos} in {text!r}",
        field=field,
        reason_zh=f"「{text}」第 {pos} 個字元：{why_zh}",
    )


_DIGITS_ZH = "一二三四五六七八九"


def tiles_zh(tiles: Iterable[int]) -> str:
    """Tiles as an official reads them out, in their order: a set of one suit in one word
    (「五六七條」, 「東東東」, 「中中中」), else the names one by one
    (「五萬 六萬 東」). Issue #13: the words an official reads, not ``111z``."""
    seq = list(tiles)
    if not seq:
        return ""
    if all(t < KINDS for t in seq):
        suits = {t // 9 if t < 27 else 3 for t in seq}
        if len(suits) == 1 and seq[0] < 27:
            return "".join(_DIGITS_ZH[t % 9] for t in seq) + tile_name(seq[0], "zh")[-1]
        if len(suits) == 1:
            return "".join(tile_name(t, "zh") for t in seq)
    return " ".join(tile_name(t, "zh") for t in seq)


def format_tiles(tiles: Iterable[int], style: str = "compact", *, sort: bool = True) -> str:
    """Write tiles back: compact groups by suit (``"123m55z1f"``), or Chinese names
    separated by spaces (``style="zh"``). ``parse_tiles(format_tiles(t))`` sorts *t*.

    The compact text is written from two tables (each tile's digit and its group's letter):
    the answers of ``flask replay`` write every seat's tiles, pond and flowers, so this is on
    the batch's path; :func:`format_tiles_reference` is the tile-by-tile original that
    ``tests/test_tiles.py`` holds it to.

    :raises InvalidTileError: for anything but an int in 0–41 among *tiles*.
    """
    seq = sorted(tiles) if sort else list(tiles)
    if style != "compact":
        return format_tiles_reference(seq, style, sort=False)
    if _INT_ONLY.issuperset(map(type, seq)):  # each tile's text from it and the next, in C loops
        try:
            return "".join(map(PAIR_TEXT.__getitem__, zip(seq, seq[1:] + _END)))
        except KeyError:
            pass  # an int out of 0–41: the loop below raises its error
    parts: list[str] = []
    append = parts.append
    letter = None
    for t in seq:
        if t.__class__ is not int or not 0 <= t < 42:  # bool is not a tile
            check_tile(t)
        now = _LETTER_OF[t]
        if now is not letter:
            if letter is not None:
                append(letter)
            letter = now
        append(_DIGIT_OF[t])
    if letter is not None:
        append(letter)
    return "".join(parts)


#: each tile's rank as text, and the letter closing its group in compact notation
_DIGIT_OF = tuple(str(rank_of(t)) for t in ALL_TILES)
_LETTERS = ("m", "p", "s", "z", "f")  # one object per letter: compared by identity
_LETTER_OF = tuple(_LETTERS[min(t // 9, 3) if t < FLOWER_BASE else 4] for t in ALL_TILES)
#: (tile, the next tile or -1 at the end) → the tile's text in compact notation: its digit, and
#: its group's letter when the next tile is of another group or there is none (issue #17: the
#: final table's ponds, flowers and melds, about 20 texts a hand, written by ``map`` and
#: ``str.join`` over ``zip`` — no bytecode per tile; ``tests/test_tiles.py`` holds it to
#: :func:`format_tiles_reference`)
PAIR_TEXT = {(t, n): _DIGIT_OF[t] + ("" if n >= 0 and _LETTER_OF[n] is _LETTER_OF[t] else _LETTER_OF[t])
              for t in ALL_TILES for n in (*ALL_TILES, -1)}
_END = [-1]
_INT_ONLY = frozenset({int})  # exactly ints: a bool (an int to a dict) is left to the loop's check


def format_counts(counts: Sequence[int]) -> str:
    """The compact text of a count vector over the 34 kinds (a seat's concealed tiles):
    ``format_tiles`` of the tiles it counts, in order, without making them (issue #17: the
    final table of every ``flask replay`` answer writes four hands). Each kind's rank
    repeated by its count (``str * int``: nothing for 0 or less), each suit's run closed by
    its letter; :func:`format_counts_reference` is the plain original that
    ``tests/test_tiles.py`` holds it to. Kinds past the 34th are not read.

    :raises TypeError: a count that is not an int.
    """
    runs = list(map(_TIMES, _DIGIT_OF_KIND, counts))
    m = "".join(runs[0:9])
    p = "".join(runs[9:18])
    s = "".join(runs[18:27])
    z = "".join(runs[27:34])
    return (m and m + "m") + (p and p + "p") + (s and s + "s") + (z and z + "z")


#: ``digit * count``: operator.mul, a builtin called in C per item of the map (``str.__mul__``, a
#: slot wrapper, costs half as much again per call: 3.5 µs against 2.1 µs for four suits)
_TIMES = _mul
_DIGIT_OF_KIND = _DIGIT_OF[:KINDS]


def format_counts_reference(counts: Sequence[int]) -> str:
    """:func:`format_counts` through the tiles themselves (the reference)."""
    return format_tiles_reference([t for t in range(KINDS) for _ in range(counts[t])])


def format_tiles_reference(tiles: Iterable[int], style: str = "compact", *, sort: bool = True) -> str:
    """:func:`format_tiles` tile by tile, through :func:`tile_name` (the reference)."""
    seq = sorted(tiles) if sort else list(tiles)
    for t in seq:
        check_tile(t)
    if style == "zh":
        return " ".join(tile_name(t, "zh") for t in seq)
    if style != "compact":
        raise ValueError(f"unknown style {style!r}: use 'compact' or 'zh'")
    parts: list[str] = []
    digits, letter = "", ""
    for t in seq:
        name = tile_name(t)
        if name[-1] != letter and digits:
            parts.append(digits + letter)
            digits = ""
        digits, letter = digits + name[:-1], name[-1]
    if digits:
        parts.append(digits + letter)
    return "".join(parts)


def counts_of(tiles: Iterable[int], *, field: str = "tiles") -> list[int]:
    """Count vector over the 34 kinds (flowers excluded by the caller).

    :raises InvalidTileError: if a flower is among *tiles* (flowers are never held, ``deal.flowers``).
    :raises TileCountError: for a fifth copy.
    """
    counts = [0] * KINDS
    for t in tiles:
        if t >= FLOWER_BASE:
            raise InvalidTileError(
                f"flower {tile_name(t)} cannot be held in the hand (deal.flowers)",
                field=field,
                reason_zh=f"花牌 {tile_name(t, 'zh')} 不得併入手牌（deal.flowers）",
            )
        counts[t] += 1
    check_copies(counts, field=field)
    return counts


def counts_at(tiles: Sequence[tuple[int, int]], text: str, *, field: str = "tiles") -> list[int]:
    """Count vector of tiles parsed by :func:`parse_tiles_at`; errors show the position.

    :raises InvalidTileError: a flower among the tiles (``deal.flowers``).
    :raises TileCountError: a fifth copy, at the position where it was written.
    """
    counts = [0] * KINDS
    for t, pos in tiles:
        if t >= FLOWER_BASE:
            _bad(text, pos, f"flower {tile_name(t)} cannot be held in the hand (deal.flowers)",
                 f"花牌 {tile_name(t, 'zh')} 不得併入手牌（deal.flowers）", field)
        counts[t] += 1
        if counts[t] > COPIES:
            raise TileCountError(
                f"fifth copy of {tile_name(t)} at position {pos} in {text!r}: the set has only {COPIES}",
                field=field,
                reason_zh=f"「{text}」第 {pos} 個字元：第五張 {tile_name(t, 'zh')}，整副牌只有 {COPIES} 張",
            )
    return counts


def check_copies(counts: Sequence[int], *, field: str = "tiles") -> None:
    """:raises TileCountError: when any kind appears more than four times."""
    if not counts or max(counts) <= COPIES:  # the usual case, checked in C for speed
        return
    for t, c in enumerate(counts):
        if c > COPIES:
            raise TileCountError(
                f"{c} copies of {tile_name(t)}: the set has only {COPIES}",
                field=field,
                reason_zh=f"{tile_name(t, 'zh')} 共 {c} 張，整副牌只有 {COPIES} 張",
            )


def check_flowers(flowers: Iterable[int], *, field: str = "flowers") -> tuple[int, ...]:
    """Validate a set of flowers: each is a flower, none twice. Returns them sorted.

    :raises InvalidTileError: for a non-flower tile.
    :raises TileCountError: for a flower given twice (the set has one of each).
    """
    seen: list[int] = []
    for t in flowers:
        check_tile(t, field=field)
        if t < FLOWER_BASE:
            raise InvalidTileError(
                f"{tile_name(t)} is not a flower", field=field, reason_zh=f"{tile_name(t, 'zh')} 不是花牌"
            )
        if t in seen:
            raise TileCountError(
                f"flower {tile_name(t)} given twice: the set has one",
                field=field,
                reason_zh=f"花牌 {tile_name(t, 'zh')} 重複：整副牌只有一張",
            )
        seen.append(t)
    return tuple(sorted(seen))


# Flower numbering (app.flower-numbering): which seat each flower belongs to.
FLOWER_NUMBERING = {
    # 春夏秋冬 1–4; 梅蘭菊竹 1–4 with 菊 3, 竹 4 (神來也, 戲谷, 維基教科書)
    "ju3-zhu4": (1, 2, 3, 4, 1, 2, 3, 4),
    # 竹 3, 菊 4 (明星3缺1, 乃哥, many 台數表)
    "zhu3-ju4": (1, 2, 3, 4, 1, 2, 4, 3),
}


def flower_seat(flower: int, numbering: str) -> Wind:
    """The seat a flower belongs to (1 = 東 …), under a numbering scheme
    (``app.flower-numbering``: ``"ju3-zhu4"`` or ``"zhu3-ju4"``).

    Seat 1 is the seat where the wall was opened, counted counterclockwise (``deal.wall``).

    :raises InvalidTileError: if *flower* is not a flower.
    :raises ValueError: for an unknown numbering.
    """
    check_flowers([flower])
    try:
        table = FLOWER_NUMBERING[numbering]
    except KeyError:
        raise ValueError(f"unknown flower numbering {numbering!r}: one of {sorted(FLOWER_NUMBERING)}") from None
    return Wind(table[flower - FLOWER_BASE] - 1)


def flower_group(flower: int) -> int:
    """0 for 春夏秋冬 (四季), 1 for 梅蘭菊竹 (四君子): the groups of a 花槓 (``tai.26``)."""
    return (flower - FLOWER_BASE) // 4


def full_set(flowers: bool = True) -> list[int]:
    """All 144 tiles: four of each of the 34 kinds, then the eight flowers (``deal.walls``);
    without flowers (``tiles.flowers`` false: 南部無花, seed 001) the 136 tiles of the 34 kinds."""
    return ([t for t in range(KINDS) for _ in range(COPIES)]
            + (list(range(FLOWER_BASE, FLOWER_BASE + 8)) if flowers else []))


def set_size(flowers: bool = True) -> int:
    """How many tiles the set has: 144 with the eight flowers, 136 without (``tiles.flowers``)."""
    return KINDS * COPIES + (8 if flowers else 0)

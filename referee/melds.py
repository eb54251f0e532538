"""Melds: exposed (or declared) sets, and the groups a hand decomposes into.

A :class:`Meld` is what lies in front of a player: a chow or pung by claim, or one of
the three kongs (``play.kong.concealed``, ``play.kong.exposed``). A :class:`Group` is
one set of a decomposition of the concealed tiles (chow, pung or the pair). Kongs
count as melds toward the five of ``win.shape``.

Meld notation (``--melds`` on the CLI, ``melds`` in the API): tokens separated by
spaces or commas, each an optional kind prefix and the tiles::

    123m  555p  chow:345s  pung:EEE  kong:5555p  added:1111z  concealed:9999s
    吃:三萬四萬五萬  碰:中中中  明槓:…  加槓:…  暗槓:…

Without a prefix three alike tiles are a pung, three in a row a chow, four alike a
melded kong (明槓).
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidMeldError
from .kinds import GroupKind, MeldKind
from .kinds_fast import CHOW_MELD, CONCEALED_KONG_MELD, MELDED_KONG_MELD
from .tiles import FLOWER_BASE, format_tiles, parse_tiles, tile_name


_PREFIXES = {
    "chow": MeldKind.CHOW,
    "吃": MeldKind.CHOW,
    "pung": MeldKind.PUNG,
    "pon": MeldKind.PUNG,
    "碰": MeldKind.PUNG,
    "kong": MeldKind.MELDED_KONG,
    "melded": MeldKind.MELDED_KONG,
    "明槓": MeldKind.MELDED_KONG,
    "碰槓": MeldKind.MELDED_KONG,
    "added": MeldKind.ADDED_KONG,
    "加槓": MeldKind.ADDED_KONG,
    "concealed": MeldKind.CONCEALED_KONG,
    "暗槓": MeldKind.CONCEALED_KONG,
}


@dataclass(frozen=True, slots=True)
class Meld:
    """An exposed or declared set. *tile* is its lowest tile (the chow's first).

    ``claimed`` is the tile taken from a discard, when known (``play.chi``: the
    chowed tile sits in the middle and may not be discarded next).
    """

    kind: MeldKind
    tile: int
    claimed: int | None = None

    def __post_init__(self) -> None:
        check_meld(self.kind, self.tile, self.claimed)

    @classmethod
    def _shared(cls, kind: MeldKind, tile: int, claimed: int | None = None) -> Meld:
        """``Meld(kind, tile, claimed)``, made and checked once per value and then shared (a
        meld is frozen): the referee scores the same few hundred melds hand after hand.

        Only for a *kind* that is a :class:`MeldKind` and int tiles (the referee's own):
        ``1`` and ``True`` would find the meld of ``MeldKind.PUNG`` or tile ``1``.
        """
        key = (kind, tile, claimed)
        meld = _SHARED.get(key)
        if meld is None:
            meld = _SHARED[key] = cls(kind, tile, claimed)
        return meld

    @property
    def tiles(self) -> tuple[int, ...]:
        t = self.tile
        kind = self.kind
        if kind is CHOW_MELD:
            return (t, t + 1, t + 2)
        return (t,) * (4 if kind >= MELDED_KONG_MELD else 3)

    @property
    def is_kong(self) -> bool:
        return self.kind >= MELDED_KONG_MELD

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong keeps the hand 門清 (``tai.03``)."""
        return self.kind is CONCEALED_KONG_MELD

    def __str__(self) -> str:
        prefix = {MeldKind.ADDED_KONG: "added:", MeldKind.CONCEALED_KONG: "concealed:"}.get(self.kind, "")
        return prefix + format_tiles(self.tiles)


#: every meld :meth:`Meld._shared` made, by (kind, tile, claimed): at most 5 × 34 × 5 values
_SHARED: dict[tuple[MeldKind, int, int | None], Meld] = {}


def check_meld(kind: MeldKind, tile: int, claimed: int | None = None, *, field: str = "melds") -> None:
    """Validate a meld given by kind and lowest tile.

    :raises InvalidMeldError: for a flower, a chow of honours or across 9-1, a bad claimed tile.
    """
    if not isinstance(kind, MeldKind):
        raise InvalidMeldError(f"unknown meld kind {kind!r}", field=field, reason_zh=f"不明的副露種類 {kind!r}")
    if type(tile) is not int or not 0 <= tile < FLOWER_BASE:
        if type(tile) is int and FLOWER_BASE <= tile < FLOWER_BASE + 8:
            raise InvalidMeldError(
                f"a flower ({tile_name(tile)}) cannot be in a meld",
                field=field,
                reason_zh=f"花牌（{tile_name(tile, 'zh')}）不能組成副露",
            )
        raise InvalidMeldError(f"not a tile index: {tile!r}", field=field, reason_zh=f"不是牌的編號：{tile!r}")
    if kind is MeldKind.CHOW:
        if tile >= 27:
            raise InvalidMeldError(
                f"honours cannot form a chow: {tile_name(tile)}",
                field=field,
                reason_zh=f"字牌不能吃成順子：{tile_name(tile, 'zh')}",
            )
        if tile % 9 > 6:
            raise InvalidMeldError(
                f"a chow runs within one suit, no wrap-around (9-1-2): starts at {tile_name(tile)}",
                field=field,
                reason_zh=f"順子須同花色連號，不能 9-1-2：由 {tile_name(tile, 'zh')} 起",
            )
    if claimed is not None:
        tiles = (tile, tile + 1, tile + 2) if kind is MeldKind.CHOW else (tile,)
        if claimed not in tiles or kind is MeldKind.CONCEALED_KONG:
            raise InvalidMeldError(
                f"claimed tile {claimed!r} is not part of the {kind.name.lower()} at {tile_name(tile)}",
                field=field,
                reason_zh="吃碰入的牌不在此副露中",
            )


def meld_from_tiles(tiles: list[int], kind: MeldKind | None = None, *, field: str = "melds") -> Meld:
    """Build a meld from its tiles, inferring the kind when not given.

    :raises InvalidMeldError: when the tiles cannot form that meld (``"912m"``, ``"ESW"``,
        a kong of different tiles, a flower).
    """
    text = format_tiles(tiles, sort=False)
    for t in tiles:
        if t >= FLOWER_BASE:
            raise InvalidMeldError(
                f"a flower ({tile_name(t)}) cannot be in a meld: {text!r}",
                field=field,
                reason_zh=f"花牌（{tile_name(t, 'zh')}）不能組成副露：{text}",
            )
    s = sorted(tiles)
    alike = len(set(s)) == 1
    run = len(s) == 3 and s[0] < 27 and s[0] // 9 == s[2] // 9 and s == [s[0], s[0] + 1, s[0] + 2]
    if kind is None:
        if len(s) == 4 and alike:
            kind = MeldKind.MELDED_KONG
        elif len(s) == 3 and alike:
            kind = MeldKind.PUNG
        elif len(s) == 3:
            kind = MeldKind.CHOW
        else:
            raise InvalidMeldError(
                f"{len(s)} tiles are no meld: {text!r}", field=field, reason_zh=f"{len(s)} 張牌不成副露：{text}"
            )
    if kind is MeldKind.CHOW and not run:
        if len(s) == 3 and s[0] < 27 and s[0] // 9 == s[2] // 9 == s[1] // 9 \
                and set(s) == {s[0] // 9 * 9, s[0] // 9 * 9 + 1, s[0] // 9 * 9 + 8}:
            why, why_zh = ("9-1-2 is not a chow: a chow runs within one suit without wrapping",
                           "9-1-2 不是順子：不能頭尾相接")
        elif any(t >= 27 for t in s):
            why, why_zh = "honours cannot form a chow", "字牌不能組成順子"
        else:
            why, why_zh = "a chow is three consecutive tiles of one suit", "順子須為同花色連號三張"
        raise InvalidMeldError(f"{why}: {text!r}", field=field, reason_zh=f"{why_zh}：{text}")
    if kind is not MeldKind.CHOW:
        size = 4 if kind.is_kong else 3
        if len(s) != size or not alike:
            raise InvalidMeldError(
                f"a {kind.name.lower().replace('_', ' ')} is {size} alike tiles: {text!r}",
                field=field,
                reason_zh=f"{kind.zh}須為 {size} 張相同的牌：{text}",
            )
    return Meld(kind, s[0])


def parse_melds(text: str, *, field: str = "melds") -> tuple[Meld, ...]:
    """Parse meld notation (see the module docstring).

    :raises InvalidMeldError: naming the token and its position.
    """
    melds: list[Meld] = []
    for index, token in enumerate(text.replace(",", " ").replace("，", " ").split()):
        kind: MeldKind | None = None
        sub = f"{field}[{index}]"
        if ":" in token or "：" in token:
            prefix, _, body = token.replace("：", ":").partition(":")
            kind = _PREFIXES.get(prefix.lower())
            if kind is None:
                raise InvalidMeldError(
                    f"unknown meld kind {prefix!r} in {token!r}; use one of {sorted(_PREFIXES)}",
                    field=sub,
                    reason_zh=f"不明的副露種類「{prefix}」",
                )
        else:
            body = token
        melds.append(meld_from_tiles(parse_tiles(body, field=sub), kind, field=sub))
    return tuple(melds)


@dataclass(frozen=True, slots=True)
class Group:
    """One set of a decomposition: a chow from *tile*, a pung of *tile*, or the pair."""

    kind: GroupKind
    tile: int

    @property
    def tiles(self) -> tuple[int, ...]:
        t = self.tile
        return (t, t + 1, t + 2) if self.kind is GroupKind.CHOW else (t,) * (2 if self.kind is GroupKind.PAIR else 3)

    def __str__(self) -> str:
        return format_tiles(self.tiles)

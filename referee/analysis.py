"""An official's report on a hand: is it winning, what does it wait on, how does it read.

:func:`analyze` answers "was that hand really ready?" (``play.ready``) and "is that a
win?" (``win.shape``) as plain JSON-able data, zh-TW first, for the ``flask analyze``
command and the API.
"""
from __future__ import annotations

from .hand import WAITING_SIZE, WINNING_SIZE, Decomposition, Hand, Wait, decompositions, waits
from .melds import GroupKind
from .shanten import shanten
from .tiles import format_tiles, tile_name


def analyze(hand: Hand, *, ligu: bool = False) -> dict:
    """Report on a 16- or 17-tile hand.

    * 17 tiles: ``winning`` and every ``decomposition``; when not winning, the discards
      that would leave it ready (``ready_after_discard``).
    * 16 tiles: ``ready``, every wait with its shapes, and ``single_wait`` (獨聽: exactly
      one waiting tile, ``tai.11``).
    * both: ``shanten`` (向聽數, :func:`referee.shanten.shanten`): the exchanges before the
      hand is ready — 0 ready, −1 a win; a 17-tile hand's is that of its best discard.

    *ligu* admits the 嚦咕嚦咕 shape (``tai.36``, a ruleset option).
    """
    report: dict = {"hand": describe_hand(hand), "size": hand.size}
    if hand.size == WINNING_SIZE:
        readings = decompositions(hand, ligu=ligu)
        report["winning"] = bool(readings)
        report["decompositions"] = [describe_decomposition(d) for d in readings]
        if not readings:
            report["ready_after_discard"] = {
                tile_name(t): [describe_wait(w) for w in found]
                for t in range(34)
                if hand.concealed[t] and (found := waits(_without(hand, t), ligu=ligu))
            }
    elif hand.size == WAITING_SIZE:
        found = waits(hand, ligu=ligu)
        report["ready"] = bool(found)
        report["single_wait"] = len(found) == 1
        report["waits"] = [describe_wait(w) for w in found]
    report["shanten"] = shanten(hand, ligu=ligu)
    return report


def _without(hand: Hand, tile: int) -> Hand:
    counts = list(hand.concealed)
    counts[tile] -= 1
    return Hand(tuple(counts), hand.melds, hand.flowers)


def describe_hand(hand: Hand) -> dict:
    return {
        "tiles": format_tiles(hand.tiles()),
        "tiles_zh": format_tiles(hand.tiles(), "zh"),
        "melds": [{"kind": m.kind.name.lower(), "kind_zh": m.kind.zh, "tiles": format_tiles(m.tiles)}
                  for m in hand.melds],
        "flowers": format_tiles(hand.flowers),
    }


def describe_wait(wait: Wait) -> dict:
    shapes = sorted(wait.shapes)
    return {
        "tile": tile_name(wait.tile),
        "tile_zh": tile_name(wait.tile, "zh"),
        "shapes_zh": [s.zh for s in shapes],
        "shapes": [s.name.lower() for s in shapes],
    }


_GROUP_ZH = {GroupKind.CHOW: "順子", GroupKind.PUNG: "刻子", GroupKind.PAIR: "將眼"}


def describe_decomposition(reading: Decomposition) -> dict:
    return {
        "groups": [
            {"kind": g.kind.name.lower(), "kind_zh": _GROUP_ZH[g.kind], "tiles": format_tiles(g.tiles)}
            for g in reading.groups
        ],
        "melds": [format_tiles(m.tiles) for m in reading.melds],
        "ligu": reading.is_ligu,
    }

"""Tile pictures on the pages (issue #14 item 3): the helpers templates draw tiles with.

The pictures are the project's own SVG files (``web/static/tiles/<name>.svg``, drawn by
:mod:`web.tiles_svg`), served with the pages' static files. A template imports the macros
of ``_tile.html``::

    {% from "_tile.html" import tile, tiles, meld, melds, back %}
    {{ tile(4) }}                    {# <img alt="五萬" class="tile tile-m" …> #}
    {{ tiles("123m 55z" | tiles) }}  {# a hand: the notation parse_tiles reads, or a list of ints #}
    {{ melds(hand.melds, "s") }}     {# Meld objects, or the API's {"kind": "pung", "tiles": [...]} #}

and these template globals and filters, registered by :func:`init_app`:

* ``tile_src(t)`` — the picture's URL; ``tile_alt(t)`` — its Chinese name (``五萬``);
  ``tile_code(t)`` — the compact notation (``5m``); ``tile_px(size)`` — (width, height) in px;
* the filter ``tiles`` — a notation string (``"123m 東"``) or a list of ints → a list of tiles;
* the filter ``meld_view`` — a meld → ``{"kind", "kind_zh", "tiles", "claimed"}``;
* ``/tiles`` — the legend: every tile, its name and notation, for people typing tiles.

Sizes: ``s`` 24 × 32 px, ``m`` 30 × 40 px (a phone's hand of 17 fits 390 px in two rows),
``l`` 45 × 60 px (the calculators' picker).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from flask import Blueprint, Flask, render_template, url_for

from referee.melds import Meld, MeldKind
from referee.tiles import ALL_TILES, check_tile, parse_tiles, tile_name

#: size name → (width, height) in CSS px; the pictures are 3 : 4
SIZES: dict[str, tuple[int, int]] = {"s": (24, 32), "m": (30, 40), "l": (45, 60)}

bp = Blueprint("tiles", __name__)


def tile_file(tile: int) -> str:
    """The picture's path under the static folder: ``tiles/5m.svg``.

    :raises InvalidTileError: for anything but a tile index 0–41.
    """
    return f"tiles/{tile_name(check_tile(tile))}.svg"


def tile_src(tile: int) -> str:
    """The picture's URL (``/t/static/tiles/5m.svg``)."""
    return url_for("pages.static", filename=tile_file(tile))


def back_src() -> str:
    """The URL of a face-down tile (a concealed tile not shown)."""
    return url_for("pages.static", filename="tiles/back.svg")


def tile_alt(tile: int) -> str:
    """The picture's alternative text: the tile's Chinese name (``五萬``, ``東``, ``梅``)."""
    return tile_name(check_tile(tile), "zh")


def tile_px(size: str) -> tuple[int, int]:
    """(width, height) in px of a size name ``s``, ``m`` or ``l``.

    :raises ValueError: for another size (a template's mistake, shown while developing).
    """
    try:
        return SIZES[size]
    except KeyError:
        raise ValueError(f"unknown tile size {size!r}: one of {sorted(SIZES)}") from None


def as_tiles(value: str | Iterable[int] | None) -> list[int]:
    """Tiles from notation (``"123m 東"``, what :func:`referee.tiles.parse_tiles` reads) or ints.

    :raises InvalidTileError: for bad notation (naming the character) or a bad index.
    """
    if value is None:
        return []
    if isinstance(value, str):
        return parse_tiles(value)
    return [check_tile(t) for t in value]


_KIND_NAMES = {kind.name.lower(): kind for kind in MeldKind}
_KIND_NAMES.update({"melded": MeldKind.MELDED_KONG, "added": MeldKind.ADDED_KONG,
                    "concealed": MeldKind.CONCEALED_KONG, "kong": MeldKind.MELDED_KONG})


def meld_view(meld: Meld | Mapping) -> dict:
    """What a template needs of a meld: its kind (``pung``), the kind's Chinese name (``碰``),
    its tiles and the claimed tile (or None).

    Takes a :class:`referee.melds.Meld` or a mapping as the API writes melds
    (``{"kind": "pung", "tiles": "555m" | [4, 4, 4], "claimed": …}``).

    :raises ValueError: for a mapping whose kind is unknown.
    """
    if isinstance(meld, Meld):
        return {"kind": meld.kind.name.lower(), "kind_zh": meld.kind.zh, "tiles": list(meld.tiles),
                "claimed": meld.claimed}
    raw = meld.get("kind")
    kind = raw if isinstance(raw, MeldKind) else _KIND_NAMES.get(str(raw).lower())
    if kind is None:
        raise ValueError(f"unknown meld kind {raw!r}: one of {sorted(_KIND_NAMES)}")
    claimed = meld.get("claimed")
    if isinstance(claimed, str):
        claimed = parse_tiles(claimed)[0]
    return {"kind": kind.name.lower(), "kind_zh": kind.zh, "tiles": as_tiles(meld.get("tiles")), "claimed": claimed}


def legend() -> list[dict]:
    """Every tile with its picture's names, grouped by suit, for the legend page."""
    groups = [("萬子", "Characters", range(0, 9)), ("筒子", "Dots", range(9, 18)), ("條子", "Bamboo", range(18, 27)),
              ("字牌", "Honours", range(27, 34)), ("花牌", "Flowers", range(34, 42))]
    return [{"zh": zh, "en": en, "tiles": list(tiles)} for zh, en, tiles in groups]


@bp.get("/tiles")
def tiles_page():
    """牌圖 The tiles: every picture with its Chinese name and its notation."""
    return render_template("tiles.html", groups=legend(), count=len(ALL_TILES))


def init_app(app: Flask) -> None:
    """The template globals and filters above, and the legend page ``/tiles``."""
    app.add_template_global(tile_src, "tile_src")
    app.add_template_global(back_src, "back_src")
    app.add_template_global(tile_alt, "tile_alt")
    app.add_template_global(tile_name, "tile_code")
    app.add_template_global(tile_px, "tile_px")
    app.add_template_filter(as_tiles, "tiles")
    app.add_template_filter(meld_view, "meld_view")
    app.register_blueprint(bp)

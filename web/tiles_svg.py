"""The project's own tile pictures (issue #14 item 3): 42 SVG faces and a back, drawn here.

``python -m web.tiles_svg`` writes ``web/static/tiles/<name>.svg`` for every tile
(``referee.tiles.tile_name``: ``1m`` … ``9m``, ``1p`` … ``9p``, ``1s`` … ``9s``,
``1z`` … ``7z`` = 東南西北白發中, ``1f`` … ``8f`` = 春夏秋冬梅蘭菊竹) and ``back.svg``
(a concealed tile). The files are committed: the pages serve them as they are.

Drawing, on a 60 × 80 face (3 : 4, a real tile's shape), made to be read at 28–36 px wide:

* 萬 (characters): the numeral 一 … 九 above a red 萬;
* 筒 (dots): circles in the arrangements printed on real sets (one big patterned circle;
  2–9 in blue, green and red as sets colour them);
* 條 (bamboo): green sticks with their joints, red where sets print red (the middle of
  5 and 9, the top of 7); 1 條 is one large stylised stick;
* honours: one big character — 東南西北 in near-black, 中 red, 發 green; 白 a blue frame;
* flowers: the flower's character, 春夏秋冬 in blue with a small blossom and
  梅蘭菊竹 in green with a leaf below. No seat number is printed: which seat 菊 and 竹
  belong to is a ruleset parameter (``app.flower-numbering``), not the picture's.

No picture uses a font at display time: each character is the outline of its glyph in
Noto Sans CJK TC Bold (Debian's ``fonts-noto-cjk``, SIL Open Font License), written as an
SVG path when the files are generated, so a tile looks the same in every browser and an
``<img>`` needs nothing but its own file. Generating needs ``fontTools`` (requirements-test.txt)
and the font; serving needs neither. ``tests/test_tiles_svg.py`` holds the committed files
equal to what this module writes.
"""
from __future__ import annotations

import math
import sys
from functools import lru_cache
from pathlib import Path

from referee.tiles import ALL_TILES, FLOWER_BASE, tile_name

#: where the pictures live (served as ``/t/static/tiles/<name>.svg``)
TILES_DIR = Path(__file__).resolve().parent / "static" / "tiles"
#: the font whose glyph outlines the characters are
FONT_FILE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
FONT_NAME = "Noto Sans CJK TC Bold"
WIDTH, HEIGHT = 60, 80

RED = "#c8102e"
GREEN = "#13813f"
BLUE = "#1d4fa3"
INK = "#1b1b2e"
FACE = "#fcfaf2"
EDGE = "#77766c"

_NUMERALS = "一二三四五六七八九"
_HONOURS = "東南西北白發中"
_FLOWERS = "春夏秋冬梅蘭菊竹"


def _n(x: float) -> str:
    """A coordinate, one decimal, no trailing zero (small files)."""
    text = f"{x:.1f}"
    return text.removesuffix(".0")


@lru_cache(maxsize=1)
def _font():
    """The TC face of the Noto Sans CJK Bold collection, and its glyph set.

    :raises FileNotFoundError: when the font is not installed (Debian ``fonts-noto-cjk``).
    """
    from fontTools.ttLib import TTCollection  # only the generator needs fontTools

    if not FONT_FILE.exists():
        raise FileNotFoundError(f"{FONT_FILE} is missing: apt-get install fonts-noto-cjk")
    for font in TTCollection(str(FONT_FILE)).fonts:
        if font["name"].getDebugName(4) == FONT_NAME:
            return font, font.getGlyphSet()
    raise LookupError(f"no face {FONT_NAME!r} in {FONT_FILE}")


def glyph(ch: str, x: float, top: float, size: float, fill: str) -> str:
    """A ``<path>`` drawing *ch*'s glyph with its em square *size* wide at (*x*, *top*).

    The em square of Noto CJK runs from descender −120 to ascender 880 (of 1000 units).
    """
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen

    font, glyphs = _font()
    name = font.getBestCmap()[ord(ch)]
    scale = size / font["head"].unitsPerEm
    pen = SVGPathPen(glyphs, ntos=_n)
    baseline = top + 0.88 * size
    glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, x, baseline)))
    return f'<path fill="{fill}" d="{pen.getCommands()}"/>'


def glyph_centred(ch: str, cx: float, cy: float, size: float, fill: str) -> str:
    """*ch* with its em square centred on (*cx*, *cy*)."""
    return glyph(ch, cx - size / 2, cy - size / 2, size, fill)


def face(body: str, title: str) -> str:
    """The tile: an ivory face with a grey edge, a darker lower rim, and *body* on it."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">'
        f"<title>{title}</title>"
        f'<rect x="1" y="1" width="58" height="78" rx="7" fill="#d9d5c3"/>'
        f'<rect x="1" y="1" width="58" height="75.5" rx="7" fill="{FACE}" stroke="{EDGE}" stroke-width="1.6"/>'
        f"{body}</svg>\n"
    )


# ---- 筒 dots -------------------------------------------------------------------------

def dot(cx: float, cy: float, r: float, colour: str) -> str:
    """One pip: a coloured disc with a white ring and a coloured heart (legible down to r≈3 px)."""
    return (f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{colour}"/>'
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.55)}" fill="none" stroke="{FACE}" '
            f'stroke-width="{_n(max(r * 0.2, 1.2))}"/>')


def one_dot() -> str:
    """一筒: the big circle, green rim, red heart, a ring of small white pips."""
    cx, cy = 30, 39
    parts = [f'<circle cx="{cx}" cy="{cy}" r="22" fill="{GREEN}"/>',
             f'<circle cx="{cx}" cy="{cy}" r="17.5" fill="{FACE}"/>',
             f'<circle cx="{cx}" cy="{cy}" r="14.5" fill="{RED}"/>']
    for k in range(8):
        a = k * math.pi / 4
        parts.append(f'<circle cx="{_n(cx + 9.8 * math.cos(a))}" cy="{_n(cy + 9.8 * math.sin(a))}" r="2.4" '
                     f'fill="{FACE}"/>')
    parts.append(f'<circle cx="{cx}" cy="{cy}" r="4.6" fill="{FACE}"/>')
    parts.append(f'<circle cx="{cx}" cy="{cy}" r="2.4" fill="{BLUE}"/>')
    return "".join(parts)


#: 2–9 筒: (x, y, colour) of each pip, and the pips' radius
DOTS: dict[int, tuple[float, list[tuple[float, float, str]]]] = {
    2: (12.5, [(30, 21, GREEN), (30, 57, BLUE)]),
    3: (10.5, [(16, 17, BLUE), (30, 39, RED), (44, 61, GREEN)]),
    4: (11, [(18, 21, BLUE), (42, 21, GREEN), (18, 57, GREEN), (42, 57, BLUE)]),
    5: (9.5, [(17, 17, BLUE), (43, 17, GREEN), (30, 39, RED), (17, 61, GREEN), (43, 61, BLUE)]),
    6: (9.5, [(19, 15, GREEN), (41, 15, GREEN), (19, 42, RED), (41, 42, RED), (19, 63, RED), (41, 63, RED)]),
    7: (8, [(15, 12, GREEN), (30, 21, GREEN), (45, 30, GREEN),
            (19, 47, RED), (41, 47, RED), (19, 65, RED), (41, 65, RED)]),
    8: (8, [(19, y, BLUE) for y in (12, 30, 48, 66)] + [(41, y, BLUE) for y in (12, 30, 48, 66)]),
    9: (8, [(x, y, c) for y in (14, 39, 64) for x, c in ((14.5, BLUE), (30, RED), (45.5, GREEN))]),
}


def dots(rank: int) -> str:
    if rank == 1:
        return one_dot()
    r, pips = DOTS[rank]
    return "".join(dot(x, y, r, c) for x, y, c in pips)


# ---- 條 bamboo -----------------------------------------------------------------------

def stick(cx: float, cy: float, h: float, colour: str = GREEN, w: float = 9, angle: float = 0) -> str:
    """One bamboo stick centred on (*cx*, *cy*): rounded, with a joint in the middle and at each end."""
    x, y = cx - w / 2, cy - h / 2
    turn = f' transform="rotate({_n(angle)} {_n(cx)} {_n(cy)})"' if angle else ""
    joint = max(1.3, w * 0.2)
    return (f"<g{turn}>"
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(w / 2)}" fill="{colour}"/>'
            f'<path d="M{_n(x + 1)} {_n(cy)}H{_n(x + w - 1)}M{_n(x + 1)} {_n(y + h * 0.2)}H{_n(x + w - 1)}'
            f'M{_n(x + 1)} {_n(y + h * 0.8)}H{_n(x + w - 1)}" stroke="{FACE}" stroke-width="{_n(joint)}"/>'
            f'<path d="M{_n(cx)} {_n(y + 2.5)}V{_n(y + h * 0.2 - 1.5)}M{_n(cx)} '
            f'{_n(cy + 1.5)}V{_n(y + h * 0.8 - 1.5)}" '
            f'stroke="#ffffff" stroke-opacity=".55" stroke-width="1"/>'
            f"</g>")


def one_bamboo() -> str:
    """一條: one large stick, red joints, two leaves: nothing else on a tile looks like it."""
    cx = 30
    parts = [f'<path d="M30 30C18 26 11 17 12 8C22 10 29 19 30 30Z" fill="{GREEN}"/>',
             f'<path d="M30 30C42 26 49 17 48 8C38 10 31 19 30 30Z" fill="{GREEN}"/>',
             f'<rect x="{cx - 7}" y="18" width="14" height="56" rx="7" fill="{GREEN}"/>']
    for y in (32, 46, 60):
        parts.append(f'<rect x="{cx - 8.5}" y="{y - 2}" width="17" height="4" rx="2" fill="{RED}"/>')
    parts.append(f'<path d="M{cx} 22V29M{cx} 35V43M{cx} 49V57M{cx} 63V70" stroke="#ffffff" '
                 f'stroke-opacity=".6" stroke-width="2"/>')
    return "".join(parts)


#: 2–9 條: (x, y, colour, angle) of each stick, and the sticks' height
BAMBOO: dict[int, tuple[float, list[tuple[float, float, str, float]]]] = {
    2: (30, [(30, 22, GREEN, 0), (30, 58, GREEN, 0)]),
    3: (30, [(30, 22, GREEN, 0), (19, 58, GREEN, 0), (41, 58, GREEN, 0)]),
    4: (30, [(19, 22, GREEN, 0), (41, 22, GREEN, 0), (19, 58, GREEN, 0), (41, 58, GREEN, 0)]),
    5: (30, [(14, 22, GREEN, 0), (46, 22, GREEN, 0), (30, 40, RED, 0), (14, 58, GREEN, 0), (46, 58, GREEN, 0)]),
    6: (30, [(x, y, GREEN, 0) for y in (22, 58) for x in (15, 30, 45)]),
    7: (20, [(30, 16, RED, 0)] + [(x, y, GREEN, 0) for y in (40, 64) for x in (15, 30, 45)]),
    8: (29, [(11, 22, GREEN, 0), (24, 22, GREEN, 24), (36, 22, GREEN, -24), (49, 22, GREEN, 0),
             (11, 58, GREEN, 0), (24, 58, GREEN, -24), (36, 58, GREEN, 24), (49, 58, GREEN, 0)]),
    9: (20, [(x, y, RED if x == 30 else GREEN, 0) for y in (16, 40, 64) for x in (15, 30, 45)]),
}


def bamboo(rank: int) -> str:
    if rank == 1:
        return one_bamboo()
    h, sticks = BAMBOO[rank]
    return "".join(stick(x, y, h, c, angle=a) for x, y, c, a in sticks)


# ---- 萬 characters, honours, flowers ------------------------------------------------------

def characters(rank: int) -> str:
    return glyph_centred(_NUMERALS[rank - 1], 30, 21, 33, INK) + glyph_centred("萬", 30, 56, 38, RED)


def honour(rank: int) -> str:
    ch = _HONOURS[rank - 1]
    if ch == "白":  # 白板: a blue frame, no character
        return (f'<rect x="11" y="12" width="38" height="52" rx="3" fill="none" stroke="{BLUE}" stroke-width="4"/>'
                f'<rect x="18" y="19" width="24" height="38" rx="1.5" fill="none" stroke="{BLUE}" stroke-width="2"/>')
    colour = {"中": RED, "發": GREEN}.get(ch, INK)
    return glyph_centred(ch, 30, 38, 48, colour)


def blossom(cx: float, cy: float, colour: str) -> str:
    """A small five-petal blossom: the mark of a season flower (春夏秋冬)."""
    petals = "".join(f'<circle cx="{_n(cx + 4.2 * math.sin(k * 2 * math.pi / 5))}" '
                     f'cy="{_n(cy - 4.2 * math.cos(k * 2 * math.pi / 5))}" r="3" fill="{colour}"/>' for k in range(5))
    return petals + f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="2" fill="#e8b400"/>'


def leaf(cx: float, cy: float, colour: str) -> str:
    """A small leaf pair: the mark of a gentleman flower (梅蘭菊竹)."""
    return (f'<path d="M{_n(cx)} {_n(cy + 5)}C{_n(cx - 11)} {_n(cy + 3)} {_n(cx - 12)} {_n(cy - 5)} {_n(cx - 11)} '
            f'{_n(cy - 6)}C{_n(cx - 3)} {_n(cy - 6)} {_n(cx)} {_n(cy)} {_n(cx)} {_n(cy + 5)}Z" fill="{colour}"/>'
            f'<path d="M{_n(cx)} {_n(cy + 5)}C{_n(cx + 11)} {_n(cy + 3)} {_n(cx + 12)} {_n(cy - 5)} {_n(cx + 11)} '
            f'{_n(cy - 6)}C{_n(cx + 3)} {_n(cy - 6)} {_n(cx)} {_n(cy)} {_n(cx)} {_n(cy + 5)}Z" fill="{colour}"/>')


def flower(rank: int) -> str:
    season = rank <= 4
    colour = BLUE if season else GREEN
    mark = blossom(30, 64, RED) if season else leaf(30, 64, colour)
    return glyph_centred(_FLOWERS[rank - 1], 30, 30, 40, colour) + mark


def back() -> str:
    """A concealed tile: the face down, green back with a lighter inlay."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">'
            f"<title>牌背 face down</title>"
            f'<rect x="1" y="1" width="58" height="78" rx="7" fill="#0c5a2e"/>'
            f'<rect x="1" y="1" width="58" height="75.5" rx="7" fill="#17824a" stroke="#0c4a25" stroke-width="1.6"/>'
            f'<rect x="8" y="8" width="44" height="61" rx="4" fill="none" stroke="#7cc49a" stroke-width="1.5"/>'
            f"</svg>\n")


def tile_svg(tile: int) -> str:
    """The SVG document of *tile* (0–41); its ``<title>`` is the tile's Chinese name."""
    name = tile_name(tile)
    rank, suit = int(name[:-1]), name[-1]
    draw = {"m": characters, "p": dots, "s": bamboo, "z": honour, "f": flower}[suit]
    return face(draw(rank), tile_name(tile, "zh"))


def pictures() -> dict[str, str]:
    """Every file this module writes: ``"5m.svg"`` → its SVG text, and ``"back.svg"``."""
    out = {f"{tile_name(t)}.svg": tile_svg(t) for t in ALL_TILES}
    out["back.svg"] = back()
    assert len(out) == FLOWER_BASE + 8 + 1
    return out


def write(directory: Path = TILES_DIR) -> list[Path]:
    """Write every picture into *directory* (made when missing); returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in pictures().items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else TILES_DIR
    print(f"{len(write(target))} 張牌圖 tile pictures → {target}")

"""Procedural mahjong tile renderer: endless labelled tile faces for training and synthetic tables.

`random_style(rng)` draws one *tile set* (face colour, ink colours, font, dot/bamboo drawing
style, white-dragon design, back colour, ...); `render_tile(code, style, rng, size)` draws one
upright tile of that set as a BGR uint8 image filling the whole frame (the face, with a thin
rim of the tile body at the border).  A style may instead point at packaged artwork
(`datasets.tile_art`), in which case the face is taken from that art.

Drawing happens at 3x the face size with Pillow and is downsampled, so strokes are smooth at
any output size.  CJK glyphs need a CJK font on the machine (Debian `fonts-noto-cjk` or
`fonts-arphic-ukai`); `FontMissingError` says so plainly when none is found.
"""

from __future__ import annotations

import glob
import math
import os
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scoring.tiles import BACK, BONUS, CLASSES

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWER_CHARS = "梅蘭菊竹"
SEASON_CHARS = "春夏秋冬"
_FONT_GLOBS = (
    "/usr/share/fonts/opentype/noto/Noto*CJK*.ttc",
    "/usr/share/fonts/truetype/arphic/*.ttc",
    "/usr/share/fonts/truetype/arphic*/*.ttf",
    "/usr/share/fonts/truetype/cwtex/*.ttf",
    "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-*.ttf",
    "/usr/share/fonts/opentype/aoyagi-soseki/*.otf",
    "/usr/share/fonts/truetype/aoyagi-soseki/*.ttf",
    # brush (gyosho) and handwritten faces: many sets write their characters by brush
    "/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu*.ttf",
    "/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf",
    "/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf",
    "/usr/share/fonts/truetype/seto/setofont.ttf",
)


class FontMissingError(RuntimeError):
    """No CJK font is installed, so honour and character tiles cannot be drawn."""


def _bundled_font_dir() -> str:
    return os.path.join(os.path.dirname(__file__), "fonts")


#: Set to "bundled" to draw with the bundled font alone (the test suite does: its synthetic
#: pictures are then the same on every machine, whatever fonts it has installed).
FONTS_ENV = "MJSCORE_RENDER_FONTS"


@lru_cache(maxsize=1)
def cjk_fonts() -> tuple[tuple[str, int], ...]:
    """(path, face index) of usable CJK fonts: bundled subset first, then system fonts (unless
    the environment variable FONTS_ENV says "bundled")."""
    paths = sorted(glob.glob(os.path.join(_bundled_font_dir(), "*.otf")))
    paths += sorted(glob.glob(os.path.join(_bundled_font_dir(), "*.ttf")))
    if os.environ.get(FONTS_ENV, "").strip().lower() != "bundled":
        for pattern in _FONT_GLOBS:
            paths += sorted(glob.glob(pattern))
    found: list[tuple[str, int]] = []
    for path in paths:
        # One face per file is enough variety (TTC faces differ only in region variants).
        try:
            font = ImageFont.truetype(path, 40, index=0)
        except OSError:
            continue
        if all(font.getmask(ch).getbbox() is not None for ch in "萬發蘭伍"):
            found.append((path, 0))
    return tuple(found)


@lru_cache(maxsize=256)
def _font(path: str, index: int, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, px, index=index)


@lru_cache(maxsize=4096)
def _glyph(path: str, index: int, px: int, ch: str, bold: int = 0) -> Image.Image | None:
    """The ink of one character, cropped tight, as an L image (cached: fonts are slow).
    `bold` > 0 fattens the strokes by that many pixels (brush-written sets look like that)."""
    font = _font(path, index, px)
    img = Image.new("L", (px * 2, px * 2), 0)
    ImageDraw.Draw(img).text((px // 2, px // 2), ch, font=font, fill=255, stroke_width=bold, stroke_fill=255)
    bbox = img.getbbox()
    return None if bbox is None else img.crop(bbox)


# --------------------------------------------------------------------------------- style
@dataclass(frozen=True)
class TileStyle:
    """One tile set's look.  All colours are RGB tuples."""

    face: tuple[int, int, int] = (238, 234, 218)
    rim: tuple[int, int, int] = (205, 200, 185)  # tile body seen around the face
    rim_frac: float = 0.05
    corner_frac: float = 0.12
    back: tuple[int, int, int] = (30, 120, 70)
    back_pattern: str = "plain"  # plain | gradient | emboss | border
    ink: tuple[int, int, int] = (20, 20, 30)  # numerals, winds
    red: tuple[int, int, int] = (190, 25, 30)
    green: tuple[int, int, int] = (20, 120, 60)
    blue: tuple[int, int, int] = (25, 50, 140)
    font: tuple[str, int] | None = None
    wan: str = "萬"
    five: str = "五"  # or the formal 伍 many sets print
    #: 四, or "cursive": the flat looped running-hand 四 of many traditional sets
    four: str = "四"
    bold: float = 0.0  # extra stroke width as a fraction of the glyph size
    fa: str = "發"
    numeral_colour: str = "ink"  # ink | blue
    dot_style: str = "rings"  # rings | solid | rosette
    dot_colours: str = "mixed"  # mixed | blue | tricolour
    bamboo_style: str = "rod"  # rod | stick
    bamboo_colours: str = "green"  # green | mixed
    one_bamboo: str = "bird"  # bird | peacock | stick | big_stick
    white: str = "frame"  # frame | double | blank | corners
    indices: bool = False  # small corner index (1..9, E S W N, ...)
    glyph_scale: float = 1.0
    bonus_colour: tuple[int, int, int] = (40, 110, 50)
    bonus_layout: str = "big"  # big (character in the middle) | corner (painting, small character)
    art: str | None = None  # name of a packaged art style (datasets.tile_art) to use instead
    #: a flower or season drawn with the character and number of this other bonus tile, all
    #: else (painting, place, colour, random choices) the same: the legibility check's
    #: counterfactual (`datasets.legibility`)
    bonus_mark_of: str | None = None
    extra: dict = field(default_factory=dict, hash=False, compare=False)


_BACK_COLOURS = [
    (30, 120, 70), (20, 80, 45), (25, 70, 150), (40, 110, 190), (230, 140, 30), (235, 190, 40),
    (180, 30, 35), (30, 30, 35), (110, 50, 140), (20, 130, 140), (220, 110, 140), (150, 120, 90),
    (60, 160, 90), (200, 80, 30),
]


def _jitter(rng: np.random.Generator, rgb, amount: int) -> tuple[int, int, int]:
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in rgb)


def random_style(rng: np.random.Generator, art: str | None = None) -> TileStyle:
    """Draw a random procedural tile set.  `art` names a packaged art style to use instead;
    `tile_art.ArtMissingError` says what to install when that style is not here."""
    if art is not None:
        from datasets.tile_art import require_style  # local import: art is optional

        require_style(art)
    fonts = cjk_fonts()
    if art is None and not fonts:
        raise FontMissingError(
            "no CJK font found: install Debian fonts-noto-cjk or fonts-arphic-ukai "
            "(needed only to render training/synthetic tiles, never at run time)")
    base_face = [(240, 236, 222), (246, 244, 236), (232, 228, 205), (225, 230, 220), (250, 250, 250),
                 (236, 226, 200)][rng.integers(6)]
    face = _jitter(rng, base_face, 10)
    back = _jitter(rng, _BACK_COLOURS[rng.integers(len(_BACK_COLOURS))], 25)
    rim_kind = rng.random()
    rim = back if rim_kind < 0.4 else _jitter(rng, tuple(int(c * 0.85) for c in face), 8)
    ink = _jitter(rng, [(20, 20, 25), (15, 25, 70), (40, 35, 30)][rng.integers(3)], 12)
    red = _jitter(rng, (190, 25, 35), 30)
    green = _jitter(rng, [(20, 120, 60), (30, 100, 40), (10, 140, 110)][rng.integers(3)], 25)
    blue = _jitter(rng, [(25, 50, 140), (20, 40, 90), (40, 80, 170)][rng.integers(3)], 25)
    return TileStyle(
        face=face,
        rim=rim,
        rim_frac=float(rng.uniform(0.0, 0.09)),
        corner_frac=float(rng.uniform(0.04, 0.2)),
        back=back,
        back_pattern=["plain", "plain", "gradient", "emboss", "border"][rng.integers(5)],
        ink=ink,
        red=red,
        green=green,
        blue=blue,
        font=fonts[rng.integers(len(fonts))] if fonts else None,
        wan="萬" if rng.random() < 0.85 else "万",
        five="五" if rng.random() < 0.6 else "伍",
        bold=float(rng.choice([0.0, 0.0, rng.uniform(0.01, 0.06)])),
        fa="發" if rng.random() < 0.9 else "发",
        numeral_colour="ink" if rng.random() < 0.6 else "blue",
        dot_style=["rings", "rings", "solid", "rosette"][rng.integers(4)],
        dot_colours=["mixed", "blue", "tricolour"][rng.integers(3)],
        bamboo_style="rod" if rng.random() < 0.7 else "stick",
        bamboo_colours="green" if rng.random() < 0.5 else "mixed",
        one_bamboo=["bird", "bird", "peacock", "stick", "big_stick"][rng.integers(5)],
        white=["frame", "frame", "double", "blank", "corners"][rng.integers(5)],
        indices=bool(rng.random() < 0.25),
        glyph_scale=float(rng.uniform(0.8, 1.1)),
        bonus_colour=_jitter(rng, [(40, 110, 50), (190, 40, 40), (30, 60, 150), (180, 120, 20)]
                             [rng.integers(4)], 25),
        bonus_layout="big" if rng.random() < 0.35 else "corner",
        # drawn only for procedural sets, so that a packaged style's tables (the synthetic
        # benchmarks') keep their random draws
        four=("cursive" if rng.random() < 0.3 else "四") if art is None else "四",
        art=art,
    )


#: Faces of lacquered, jade-like or coloured tile sets: dark, light marks on them.
_DARK_FACES = [
    (30, 95, 70), (20, 70, 55), (140, 25, 30), (110, 20, 25), (25, 25, 30), (25, 35, 85),
    (70, 45, 30), (20, 90, 100), (60, 30, 80), (90, 95, 40),
]


def dark_style(rng: np.random.Generator) -> TileStyle:
    """A procedural tile set with dark faces and light marks (lacquer, jade, black): few sets,
    but a localiser that learnt pale faces alone misses them.  Drawn after `random_style`'s
    draws, so other styles' random sequences stay as they were."""
    base = random_style(rng)
    face = _jitter(rng, _DARK_FACES[rng.integers(len(_DARK_FACES))], 12)
    light = lambda options, amount: _jitter(rng, options[rng.integers(len(options))], amount)  # noqa: E731
    ink = light([(240, 238, 228), (225, 200, 120), (250, 250, 250)], 10)
    rim_kind = rng.random()
    if rim_kind < 0.4:  # the body in the back's colour
        rim = base.back
    elif rim_kind < 0.7:  # a darker rim of the face's colour
        rim = _jitter(rng, tuple(int(c * 0.8) for c in face), 8)
    else:  # an ivory body round a coloured face
        rim = light([(235, 230, 215), (245, 245, 240)], 10)
    marks = {
        "red": light([(245, 120, 110), (250, 170, 60), (240, 90, 90)], 20),
        "green": light([(140, 230, 150), (120, 210, 190), (190, 235, 120)], 20),
        "blue": light([(140, 190, 250), (170, 200, 240), (120, 220, 240)], 20),
        "bonus_colour": light([(250, 220, 120), (170, 235, 170), (245, 170, 160)], 20),
    }
    if rng.random() < 0.3:  # every mark in the one light colour, as many lacquered sets paint them
        marks = dict.fromkeys(marks, ink)
    return replace(base, face=face, rim=rim, ink=ink, **marks)


# --------------------------------------------------------------------------------- drawing
_SS = 3  # supersampling factor


class _Canvas:
    """A face-sized drawing area in unit coordinates (0..1 across, 0..1 down)."""

    def __init__(self, img: Image.Image, box: tuple[float, float, float, float]):
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.x0, self.y0, self.x1, self.y1 = box

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    def pt(self, u: float, v: float) -> tuple[float, float]:
        return (self.x0 + u * self.w, self.y0 + v * self.h)

    def text(self, u: float, v: float, ch: str, height: float, colour, style: TileStyle) -> None:
        """Draw glyph `ch` centred at (u, v), its ink box `height` (fraction of face height)."""
        px = max(8, int(height * self.h))
        path, index = style.font
        glyph = _glyph(path, index, px, ch, int(style.bold * px))
        if glyph is None:
            return
        gw, gh = glyph.size
        scale = (height * self.h) / max(gh, 1)
        tw = max(1, int(gw * scale))
        th = max(1, int(gh * scale))
        if tw > 0.95 * self.w:  # keep wide glyphs inside the face
            th = int(th * 0.95 * self.w / tw)
            tw = int(0.95 * self.w)
        glyph = glyph.resize((tw, th), Image.LANCZOS)
        cx, cy = self.pt(u, v)
        layer = Image.new("RGB", glyph.size, colour)
        self.img.paste(layer, (int(cx - tw / 2), int(cy - th / 2)), glyph)

    def circle(self, u, v, r, fill=None, outline=None, width=0):
        cx, cy = self.pt(u, v)
        rr = r * self.w
        self.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=outline,
                          width=int(width))


def _dot(c: _Canvas, u, v, r, colour, style: TileStyle) -> None:
    lw = max(1.0, r * c.w * 0.18)
    if style.dot_style == "solid":
        c.circle(u, v, r, fill=colour)
        c.circle(u, v, r * 0.45, fill=style.face)
        c.circle(u, v, r * 0.22, fill=colour)
    elif style.dot_style == "rosette":
        c.circle(u, v, r, outline=colour, width=lw)
        for k in range(8):
            a = k * math.pi / 4
            c.circle(u + 0.62 * r * math.cos(a), v + 0.62 * r * math.sin(a) * c.w / c.h,
                     r * 0.2, fill=colour)
        c.circle(u, v, r * 0.25, fill=colour)
    else:  # rings
        c.circle(u, v, r, outline=colour, width=lw)
        c.circle(u, v, r * 0.62, outline=colour, width=lw * 0.8)
        c.circle(u, v, r * 0.25, fill=colour)


_DOTS = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.25, 0.2), (0.5, 0.5), (0.75, 0.8)],
    4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    5: [(0.25, 0.22), (0.75, 0.22), (0.5, 0.5), (0.25, 0.78), (0.75, 0.78)],
    6: [(0.28, 0.17), (0.72, 0.17), (0.28, 0.55), (0.72, 0.55), (0.28, 0.83), (0.72, 0.83)],
    7: [(0.2, 0.12), (0.5, 0.24), (0.8, 0.36), (0.3, 0.6), (0.7, 0.6), (0.3, 0.86), (0.7, 0.86)],
    8: [(0.28, y) for y in (0.12, 0.37, 0.63, 0.88)] + [(0.72, y) for y in (0.12, 0.37, 0.63, 0.88)],
    9: [(x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)],
}
_DOT_R = {2: 0.25, 3: 0.19, 4: 0.2, 5: 0.18, 6: 0.17, 7: 0.14, 8: 0.14, 9: 0.14}


def _mixed_dot_colour(n: int, i: int, style: TileStyle):
    if n == 2:
        return (style.green, style.blue)[i % 2]
    if n == 3:
        return (style.blue, style.red, style.green)[i]
    if n == 4:
        return (style.blue, style.green)[(i + i // 2) % 2]
    if n == 5:
        return style.red if i == 2 else style.blue
    if n == 6:
        return style.green if i < 2 else style.red
    if n == 7:
        return style.green if i < 3 else style.red
    if n == 9:
        return (style.blue, style.red, style.green)[i // 3]
    return style.blue


def _draw_dots(c: _Canvas, n: int, style: TileStyle) -> None:
    if n == 1:
        col = style.green if style.dot_colours != "blue" else style.blue
        c.circle(0.5, 0.5, 0.42, outline=col, width=max(2, c.w * 0.05))
        _dot(c, 0.5, 0.5, 0.3, style.red if style.dot_colours != "blue" else style.blue, style)
        return
    for i, (u, v) in enumerate(_DOTS[n]):
        if style.dot_colours == "blue":
            col = style.blue
        elif style.dot_colours == "tricolour":
            col = (style.blue, style.green, style.red)[i % 3]
        else:  # mixed, roughly the Japanese colouring
            col = _mixed_dot_colour(n, i, style)
        _dot(c, 0.06 + u * 0.88, 0.04 + v * 0.92, _DOT_R[n] * 0.95, col, style)


def _rod(c: _Canvas, u, v, length, colour, style: TileStyle, angle: float = 0.0) -> None:
    """One bamboo stick centred at (u, v), `length` as a fraction of face height."""
    cx, cy = c.pt(u, v)
    half = length * c.h / 2
    wid = max(2.0, c.w * (0.075 if style.bamboo_style == "rod" else 0.05))
    dx, dy = math.sin(angle) * half, math.cos(angle) * half
    c.draw.line((cx - dx, cy - dy, cx + dx, cy + dy), fill=colour, width=int(wid))
    if style.bamboo_style == "rod":
        for t in (-1.0, 0.0, 1.0):  # nodes
            px, py = cx + dx * t * 0.95, cy + dy * t * 0.95
            c.draw.ellipse((px - wid * 0.85, py - wid * 0.45, px + wid * 0.85, py + wid * 0.45),
                           fill=colour)
        # a pale stripe down the middle of each segment
        c.draw.line((cx - dx * 0.8, cy - dy * 0.8, cx - dx * 0.15, cy - dy * 0.15), fill=style.face,
                    width=max(1, int(wid * 0.25)))
        c.draw.line((cx + dx * 0.15, cy + dy * 0.15, cx + dx * 0.8, cy + dy * 0.8), fill=style.face,
                    width=max(1, int(wid * 0.25)))


_STICKS = {
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.5, 0.27), (0.3, 0.73), (0.7, 0.73)],
    4: [(0.3, 0.27), (0.7, 0.27), (0.3, 0.73), (0.7, 0.73)],
    5: [(0.22, 0.27), (0.78, 0.27), (0.5, 0.5), (0.22, 0.73), (0.78, 0.73)],
    6: [(x, y) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
    9: [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
}


def _draw_bamboo(c: _Canvas, n: int, style: TileStyle) -> None:
    if n == 1:
        _draw_one_bamboo(c, style)
        return
    if n == 8:  # two rows of four, outer sticks upright, inner ones leaning into an M / W
        for row, v in enumerate((0.27, 0.73)):
            for k, u in enumerate((0.14, 0.38, 0.62, 0.86)):
                ang = 0.0 if k in (0, 3) else (0.35 if (k == 1) ^ (row == 1) else -0.35)
                col = style.green if (style.bamboo_colours == "green" or row == 0) else style.blue
                _rod(c, u, v, 0.36, col, style, ang)
        return
    length = 0.3 if n in (7, 9) else 0.4
    for i, (u, v) in enumerate(_STICKS[n]):
        col = style.green
        if style.bamboo_colours == "mixed":
            if (n in (5, 9) and u == 0.5) or (n == 7 and i == 0):
                col = style.red
            elif n in (6, 9) and v > 0.6:
                col = style.blue
        _rod(c, u, v, length, col, style)


def _draw_one_bamboo(c: _Canvas, style: TileStyle) -> None:
    if style.one_bamboo == "stick":
        _rod(c, 0.5, 0.5, 0.55, style.green, replace(style, bamboo_style="rod"))
        return
    if style.one_bamboo == "big_stick":
        wide = replace(style, bamboo_style="rod")
        _rod(c, 0.5, 0.5, 0.7, style.red, wide)
        _rod(c, 0.5, 0.5, 0.7, style.red, wide)
        return
    # a stylised bird: body, wing, head, beak, tail feathers (a peacock adds a fan of eyes)
    d = c.draw
    if style.one_bamboo == "peacock":
        for k in range(7):
            a = math.pi * (0.1 + 0.8 * k / 6)
            u, v = 0.45 + 0.32 * math.cos(a), 0.42 - 0.3 * math.sin(a)
            d.line([c.pt(0.45, 0.5), c.pt(u, v)], fill=style.green, width=max(1, int(c.w * 0.02)))
            c.circle(u, v, 0.08, fill=style.blue if k % 2 else style.green)
            c.circle(u, v, 0.035, fill=style.face)
    body = [c.pt(0.25, 0.55), c.pt(0.45, 0.35), c.pt(0.7, 0.42), c.pt(0.72, 0.62), c.pt(0.45, 0.72)]
    d.polygon(body, fill=style.green)
    d.polygon([c.pt(0.4, 0.45), c.pt(0.62, 0.5), c.pt(0.42, 0.62)], fill=style.blue)
    c.circle(0.7, 0.3, 0.09, fill=style.red)
    d.polygon([c.pt(0.77, 0.28), c.pt(0.9, 0.31), c.pt(0.77, 0.34)], fill=style.ink)
    for k in range(3):
        d.line([c.pt(0.3, 0.6), c.pt(0.1 + 0.08 * k, 0.85 - 0.05 * k)], fill=(style.red, style.green, style.blue)[k],
               width=max(2, int(c.w * 0.05)))
    d.line([c.pt(0.5, 0.72), c.pt(0.48, 0.9)], fill=style.ink, width=max(1, int(c.w * 0.025)))
    d.line([c.pt(0.6, 0.7), c.pt(0.62, 0.9)], fill=style.ink, width=max(1, int(c.w * 0.025)))


def _draw_white(c: _Canvas, style: TileStyle) -> None:
    d = c.draw
    lw = max(2, int(c.w * 0.05))
    col = style.blue if style.ink[2] < 60 else style.ink
    x0, y0 = c.pt(0.15, 0.12)
    x1, y1 = c.pt(0.85, 0.88)
    if style.white == "blank":
        return
    if style.white == "frame":
        d.rectangle((x0, y0, x1, y1), outline=col, width=lw)
        d.rectangle((x0 + 2.2 * lw, y0 + 2.2 * lw, x1 - 2.2 * lw, y1 - 2.2 * lw), outline=col, width=max(1, lw // 2))
    elif style.white == "double":
        d.rectangle((x0, y0, x1, y1), outline=col, width=lw)
        xa, ya = c.pt(0.38, 0.36)
        xb, yb = c.pt(0.62, 0.64)
        d.rectangle((xa, ya, xb, yb), outline=col, width=lw)
    else:  # corners only
        L = 0.25 * (x1 - x0)
        for (px, py, sx, sy) in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
            d.line((px, py, px + sx * L, py), fill=col, width=lw)
            d.line((px, py, px, py + sy * L), fill=col, width=lw)


def _motif(c: _Canvas, kind: str, style: TileStyle, rng, col) -> None:
    """A little painting for a flower or season tile, drawn in the lower part of the face."""
    d = c.draw
    lw = max(1, int(c.w * rng.uniform(0.02, 0.04)))
    pink = (225, 110, 150)
    if kind == "plum":  # a crooked dark branch with five-petal blossoms
        pts = [c.pt(rng.uniform(0.1, 0.3), 0.95)]
        for k in range(4):
            pts.append(c.pt(rng.uniform(0.2, 0.8), 0.85 - 0.15 * (k + 1)))
        d.line(pts, fill=(90, 60, 40), width=lw + 1)
        for p in pts[1:]:
            u, v = (p[0] - c.x0) / c.w, (p[1] - c.y0) / c.h
            for a in range(5):
                ang = a * 2 * math.pi / 5
                c.circle(u + 0.06 * math.cos(ang), v + 0.045 * math.sin(ang), 0.04, fill=(style.red, pink)[a % 2])
    elif kind == "orchid":  # long thin curved leaves from one root, small flowers
        root = (0.5, 0.95)
        for k in range(5):
            tip = (rng.uniform(0.05, 0.95), rng.uniform(0.3, 0.6))
            mid = ((root[0] + tip[0]) / 2 + rng.uniform(-0.15, 0.15), (root[1] + tip[1]) / 2)
            d.line([c.pt(*root), c.pt(*mid), c.pt(*tip)], fill=style.green, width=lw)
        for k in range(2):
            c.circle(rng.uniform(0.3, 0.7), rng.uniform(0.45, 0.65), 0.06, fill=(150, 80, 170))
    elif kind == "chrysanthemum":  # a round flower of many radial petals
        u, v, r = 0.5, rng.uniform(0.55, 0.65), rng.uniform(0.18, 0.26)
        petal = [(230, 170, 30), style.red, (230, 120, 40)][int(rng.integers(3))]
        for k in range(16):
            a = k * math.pi / 8
            d.line([c.pt(u, v), c.pt(u + r * math.cos(a), v + r * 0.75 * math.sin(a))], fill=petal, width=lw + 1)
        c.circle(u, v, r * 0.3, fill=style.red)
        d.line([c.pt(u, v + 0.15), c.pt(0.45, 0.97)], fill=style.green, width=lw)
    elif kind == "bamboo":  # stalks with nodes and pointed leaves
        for k in range(int(rng.integers(2, 4))):
            u = 0.25 + 0.25 * k
            d.line([c.pt(u, 0.97), c.pt(u, 0.35)], fill=style.green, width=lw + 1)
            for v in (0.5, 0.7, 0.85):
                d.line([c.pt(u - 0.05, v), c.pt(u + 0.05, v)], fill=style.green, width=lw)
            d.polygon([c.pt(u, 0.45), c.pt(u + 0.25, 0.35), c.pt(u + 0.05, 0.5)], fill=style.green)
    elif kind == "sun":
        u, v = 0.5, 0.65
        for k in range(12):
            a = k * math.pi / 6
            d.line([c.pt(u, v), c.pt(u + 0.3 * math.cos(a), v + 0.22 * math.sin(a))], fill=(230, 150, 20), width=lw)
        c.circle(u, v, 0.18, fill=(240, 190, 30))
    elif kind == "leaf":
        d.polygon([c.pt(0.5, 0.35), c.pt(0.85, 0.6), c.pt(0.5, 0.9), c.pt(0.15, 0.6)], fill=(200, 110, 30))
        d.line([c.pt(0.5, 0.35), c.pt(0.5, 0.97)], fill=(120, 60, 20), width=lw)
    elif kind == "snow":
        for k in range(6):
            a = k * math.pi / 3
            d.line([c.pt(0.5, 0.65), c.pt(0.5 + 0.3 * math.cos(a), 0.65 + 0.22 * math.sin(a))], fill=(90, 140, 220), width=lw)
    elif kind == "garden":  # a dense painting filling the face: stems, leaves, many blossoms
        stem = [(60, 90, 40), (90, 70, 40), style.green, (30, 60, 30)][int(rng.integers(4))]
        leaf_cols = [style.green, (70, 140, 60), (40, 100, 70), (110, 150, 60)]
        bloom_cols = [style.red, pink, (150, 80, 170), (235, 190, 40), (240, 240, 235), style.blue,
                      (230, 120, 40)]
        blooms = [bloom_cols[int(i)] for i in rng.choice(len(bloom_cols), 2, replace=False)]
        for k in range(int(rng.integers(3, 8))):
            u, v = rng.uniform(0.2, 0.8), rng.uniform(0.9, 0.98)
            pts = [c.pt(u, v)]
            for _ in range(int(rng.integers(2, 5))):
                u = min(0.95, max(0.05, u + rng.uniform(-0.22, 0.22)))
                v -= rng.uniform(0.1, 0.2)
                pts.append(c.pt(u, v))
            d.line(pts, fill=stem, width=lw + int(rng.integers(0, 2)))
            for px, py in pts[1:]:
                for _ in range(int(rng.integers(1, 3))):  # leaves: pointed ellipses off the stem
                    a = rng.uniform(0, 2 * math.pi)
                    ln, wd = rng.uniform(0.08, 0.2) * c.w, rng.uniform(0.03, 0.06) * c.w
                    ex, ey = px + ln * math.cos(a), py + ln * math.sin(a)
                    nx, ny = -wd * math.sin(a), wd * math.cos(a)
                    d.polygon([(px, py), ((px + ex) / 2 + nx, (py + ey) / 2 + ny), (ex, ey),
                               ((px + ex) / 2 - nx, (py + ey) / 2 - ny)],
                              fill=leaf_cols[int(rng.integers(len(leaf_cols)))])
            tu, tv = (pts[-1][0] - c.x0) / c.w, (pts[-1][1] - c.y0) / c.h
            for _ in range(int(rng.integers(3, 9))):  # blossoms clustered at the tip
                bu, bv = tu + rng.normal(0, 0.08), tv + rng.normal(0, 0.06)
                c.circle(bu, bv, rng.uniform(0.03, 0.08), fill=blooms[int(rng.integers(2))],
                         outline=(60, 40, 40) if rng.random() < 0.4 else None, width=1)
    else:  # "plant": a generic flowering plant like the paintings on Chinese sets
        for k in range(int(rng.integers(3, 7))):
            u0, v0 = rng.uniform(0.3, 0.7), rng.uniform(0.85, 0.97)
            u1, v1 = rng.uniform(0.1, 0.9), rng.uniform(0.35, 0.7)
            d.line([c.pt(u0, v0), c.pt(u1, v1)], fill=style.green, width=lw)
            pc = (style.red, style.blue, col, pink)[int(rng.integers(4))]
            c.circle(u1, v1, rng.uniform(0.04, 0.1), fill=pc)


def _sprigs(c: _Canvas, u: float, v: float, size: float, style: TileStyle, rng) -> None:
    """Two to five small leaves or buds touching the sides and foot of a character at (u, v)
    of height `size`, as on painted sets where the painting reaches the character."""
    for _ in range(int(rng.integers(2, 6))):
        a = rng.uniform(-0.2, 1.2) * math.pi  # beside or below, rarely above
        r = size * rng.uniform(0.6, 0.8)  # the glyph's half-height is size / 2
        pu, pv = u + r * math.cos(a) * c.h / c.w, v + r * math.sin(a)
        if rng.random() < 0.6:
            px, py = c.pt(pu, pv)
            ln, wd = rng.uniform(0.06, 0.12) * c.w, rng.uniform(0.02, 0.04) * c.w
            b = a + rng.uniform(-0.6, 0.6)  # pointing away from the character
            ex, ey = px + ln * math.cos(b), py + ln * math.sin(b)
            nx, ny = -wd * math.sin(b), wd * math.cos(b)
            c.draw.polygon([(px, py), ((px + ex) / 2 + nx, (py + ey) / 2 + ny), (ex, ey),
                            ((px + ex) / 2 - nx, (py + ey) / 2 - ny)], fill=style.green)
        else:
            c.circle(pu + 0.04 * math.cos(a), pv + 0.04 * math.sin(a), rng.uniform(0.02, 0.04), fill=(style.red, (225, 110, 150))[int(rng.integers(2))])


_FLOWER_MOTIFS = ("plum", "orchid", "chrysanthemum", "bamboo")
_ANY_MOTIF = ("plum", "orchid", "chrysanthemum", "bamboo", "sun", "leaf", "snow", "plant", "plant",
              "garden", "garden", "garden")


def _draw_bonus(c: _Canvas, code: str, style: TileStyle, rng) -> None:
    n = int(code[1])
    chars = FLOWER_CHARS if n <= 4 else SEASON_CHARS
    ch = chars[(n - 1) % 4]
    col = style.bonus_colour
    number = str((n - 1) % 4 + 1) if (n - 1) % 4 < 3 or rng.random() < 0.7 else "四"
    m = n  # the tile whose marks are drawn: the character, the number and the number's colour
    if style.bonus_mark_of is not None:  # the same random choices, another tile's marks
        m = int(style.bonus_mark_of[1])
        ch = (FLOWER_CHARS if m <= 4 else SEASON_CHARS)[(m - 1) % 4]
        if (m - 1) % 4 != (n - 1) % 4:  # another number; the same number keeps its own glyph
            number = str((m - 1) % 4 + 1)
    if style.bonus_layout == "corner":
        # a painting with the character small in a corner.  Flowers sometimes show their own
        # plant, but any tile may show any painting (sets paint their seasons with plants too):
        # the character is what names the tile, so the painting must not
        if n <= 4 and rng.random() < 0.3:
            kind = _FLOWER_MOTIFS[n - 1]
        else:
            kind = _ANY_MOTIF[int(rng.integers(len(_ANY_MOTIF)))]
        _motif(c, kind, style, rng, col)
        # anywhere along the top, down to a third of the face, and as small as an eighth of
        # its height: real sets (the scanned xmahjongg "real" set) write a tiny brush character
        # right against the painting
        u = float(rng.uniform(0.2, 0.8)) if rng.random() < 0.5 else [0.2, 0.8, 0.5][int(rng.integers(3))]
        v = float(rng.uniform(0.12, 0.3))
        size = rng.uniform(0.12, 0.32) * style.glyph_scale
        ink = [style.ink, style.red, col, style.green][int(rng.integers(4))]
        c.text(u, v, ch, size, ink, style)
        if rng.random() < 0.35:  # a few leaves and buds of the painting right beside it
            _sprigs(c, u, v, size, style, rng)
        if rng.random() < 0.5:
            c.text(0.85 if u < 0.6 else 0.15, 0.12, number, 0.12, style.red, style)
        return
    if rng.random() < 0.5:
        _motif(c, _ANY_MOTIF[int(rng.integers(len(_ANY_MOTIF)))], replace(style, face=style.face), rng, col)
    else:  # some pale petals behind the character
        for k in range(int(rng.integers(3, 7))):
            u, v = rng.uniform(0.2, 0.8), rng.uniform(0.45, 0.85)
            pc = (style.red, style.green, style.blue, col)[k % 4]
            c.circle(u, v, rng.uniform(0.05, 0.11), fill=tuple(int(0.45 * a + 0.55 * b) for a, b in zip(pc, style.face)))
    c.text(0.5, 0.4, ch, 0.42 * style.glyph_scale, col, style)
    if rng.random() < 0.7:  # the number 1-4 in a corner, the usual marking on bonus tiles
        c.text(0.85, 0.12, number, 0.14, style.ink if m > 4 else style.red, style)


def _draw_cursive_four(c: _Canvas, u: float, v: float, height: float, colour, rng) -> None:
    """The running-hand 四 of many traditional sets: a wide, flat brush loop with two short
    strokes hanging inside it, centred at (u, v) in a box `height` of the face high."""
    cx, cy = c.pt(u, v)
    bw = c.w * rng.uniform(0.48, 0.62)
    bh = height * c.h * rng.uniform(0.38, 0.55)
    stroke = max(2.0, c.w * rng.uniform(0.045, 0.075))
    x0, y0, x1, y1 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    c.draw.rounded_rectangle((x0, y0, x1, y1), radius=bh * rng.uniform(0.3, 0.5), outline=colour,
                             width=int(stroke))
    # the brush presses hardest on the top stroke, which often runs past the loop's left end
    top = stroke * rng.uniform(1.0, 1.6)
    c.draw.line((x0 - bw * rng.uniform(0.0, 0.12), y0 + top / 3, x1, y0 + top / 3), fill=colour, width=int(top))
    for k in (-1, 1):
        xs = cx + k * bw * rng.uniform(0.1, 0.2)
        c.draw.line((xs, y0 + stroke, xs + k * bw * rng.uniform(0.0, 0.08), y0 + bh * rng.uniform(0.55, 0.8)),
                    fill=colour, width=int(stroke * 0.8))


def _draw_face(c: _Canvas, code: str, style: TileStyle, rng) -> None:
    g = style.glyph_scale
    numeral_col = style.ink if style.numeral_colour == "ink" else style.blue
    if code in BONUS:
        _draw_bonus(c, code, style, rng)
        return
    n, suit = int(code[0]), code[1]
    if suit == "m":
        numeral = style.five if n == 5 else NUMERALS[n - 1]
        if n == 4 and style.four == "cursive":
            _draw_cursive_four(c, 0.5, 0.27, 0.36 * g, numeral_col, rng)
        else:
            c.text(0.5, 0.27, numeral, 0.36 * g, numeral_col, style)
        c.text(0.5, 0.72, style.wan, 0.42 * g, style.red, style)
    elif suit == "p":
        _draw_dots(c, n, style)
    elif suit == "s":
        _draw_bamboo(c, n, style)
    elif n <= 4:
        c.text(0.5, 0.5, WINDS[n - 1], 0.6 * g, numeral_col, style)
    elif n == 5:
        _draw_white(c, style)
    elif n == 6:
        c.text(0.5, 0.5, style.fa, 0.62 * g, style.green, style)
    else:
        c.text(0.5, 0.5, "中", 0.66 * g, style.red, style)
    if style.indices and code in CLASSES and suit in "mpsz":
        label = str(n) if suit != "z" else "ESWN" [n - 1] if n <= 4 else "WGR"[n - 5]
        c.text(0.1, 0.08, label, 0.12, style.ink, style)


def _rounded_mask(w: int, h: int, radius: float) -> Image.Image:
    m = Image.new("L", (w, h), 0)
    ImageDraw.Draw(m).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
    return m


def _draw_back(img: Image.Image, style: TileStyle) -> None:
    w, h = img.size
    d = ImageDraw.Draw(img)
    b = style.back
    if style.back_pattern == "gradient":
        arr = np.zeros((h, w, 3), np.float32)
        t = np.linspace(1.12, 0.85, h)[:, None, None]
        arr[:] = np.array(b, np.float32)[None, None, :]
        img.paste(Image.fromarray(np.clip(arr * t, 0, 255).astype(np.uint8)))
    else:
        d.rectangle((0, 0, w, h), fill=b)
    if style.back_pattern == "emboss":
        darker = tuple(int(c * 0.82) for c in b)
        for k in range(3):
            r = (0.15 + 0.1 * k) * w
            d.ellipse((w / 2 - r, h / 2 - r, w / 2 + r, h / 2 + r), outline=darker, width=max(1, w // 60))
    elif style.back_pattern == "border":
        lighter = tuple(min(255, int(c * 1.25 + 20)) for c in b)
        m = 0.1 * w
        d.rounded_rectangle((m, m, w - m, h - m), radius=m, outline=lighter, width=max(1, w // 50))


def render_tile(code: str, style: TileStyle, rng: np.random.Generator, size=(48, 64)) -> np.ndarray:
    """Render tile `code` (a class of `scoring.tiles.CLASSES`) upright as a BGR uint8 image.

    `size` is (width, height) of the result; the face fills it, with the style's rim at the
    edge.  `back` draws the tile's back.
    """
    if code not in CLASSES:
        raise ValueError(f"unknown tile code {code!r}; expected one of scoring.tiles.CLASSES")
    w, h = int(size[0]), int(size[1])
    if w < 4 or h < 4:
        raise ValueError(f"tile size {size!r} is too small (need at least 4x4 pixels)")
    W, H = w * _SS, h * _SS
    img = Image.new("RGB", (W, H), style.rim)
    if code == BACK:
        _draw_back(img, style)
    else:
        rim = int(style.rim_frac * W)
        face = Image.new("RGB", (W - 2 * rim, H - 2 * rim), style.face)
        art_face = None
        if style.art is not None:
            from datasets.tile_art import load_face  # local import: art is optional

            art_face = load_face(style.art, code)
            if art_face is not None and code in BONUS and style.bonus_mark_of is not None:
                from datasets.tile_art import swap_mark

                art_face = swap_mark(style.art, code, style.bonus_mark_of, art_face)
        if art_face is not None:
            rgb = Image.fromarray(art_face[:, :, ::-1].copy()).resize(face.size, Image.BILINEAR)
            face.paste(rgb)
        else:
            pad_x, pad_y = 0.12 * face.width, 0.09 * face.height
            canvas = _Canvas(face, (pad_x, pad_y, face.width - pad_x, face.height - pad_y))
            _draw_face(canvas, code, style, rng)
        mask = _rounded_mask(face.width, face.height, style.corner_frac * face.width)
        img.paste(face, (rim, rim), mask)
    out = img.resize((w, h), Image.LANCZOS)
    return np.ascontiguousarray(np.asarray(out)[:, :, ::-1])

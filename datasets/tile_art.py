"""Tile faces drawn by other people, read from Debian packages installed on this machine.

Each *art style* maps the 43 classifier classes (`scoring.tiles.CLASSES`) to face images cut
from a package's tile sheet or drawn from a Unicode mahjong font.  Nothing here is committed:
the art is GPL or similar, so it is read from the installed packages (see `datasets/fetch_art.py`
to install them) and only ever used to render training data.  Every sheet's order was checked by
eye on a contact sheet (`python -m datasets.fetch_art --sheets`): winds, dragons and flowers
come in a different order in each source.

`available_styles()` lists the styles whose files are present; `load_face(style, code)` returns
an upright BGR uint8 face, or None if that style has no picture of that class.
"""

from __future__ import annotations

import os
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets import kmahjongg_art, pypi_art
from scoring.tiles import BACK, CLASSES

GNOME_THEMES = "/usr/share/gnome-mahjongg/themes"
XMAHJONGG_TILES = "/usr/share/games/xmahjongg/tiles"

_P = [f"{n}p" for n in range(1, 10)]
_S = [f"{n}s" for n in range(1, 10)]
_M = [f"{n}m" for n in range(1, 10)]

# gnome-mahjongg smooth.png: 43 cells of 96x132 in a row (second row: highlighted copy).
_SMOOTH_ORDER = _P + ["4z", "3z", "2z", "1z", "7z", "6z"] + _M + _S + \
    ["f2", "f3", "f1", "f4", "5z", "f5", "f6", "f7", "f8"]
# xmahjongg real.gif: 9 x 5 grid of photographed tiles.
_REAL_ROWS = [_P, _S, _M, ["f5", "f6", "f7", "f8", "4z", "2z", "1z", "3z", None],
              ["f1", "f2", "f3", "f4", "6z", "5z", "7z", None, None]]
# xmahjongg dorothys.gif / dorwhite.gif: 21 x 4 cells of 64x80; rows 2-3 repeat 0-1 recoloured.
_DOROTHY_ROWS = [_P + ["4z", "3z", "2z", "1z", "7z", "6z"] + _M[:6],
                 _M[6:] + _S + ["f5", "f6", "f7", "f8", "5z", "f4", "f2", "f1", "f3"]]
# Unicode Mahjong Tiles block, U+1F000..: E S W N, red, green, white, 1-9m, 1-9s, 1-9p,
# plum, orchid, BAMBOO, chrysanthemum, spring..winter, joker, back.
_UNICODE_ORDER = ["1z", "2z", "3z", "4z", "7z", "6z", "5z"] + _M + _S + _P + \
    ["f1", "f2", "f4", "f3", "f5", "f6", "f7", "f8", None, BACK]
_UNICODE_FONTS = {
    "unicode-symbola": "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "unicode-notosymbols2": "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
    "unicode-freeserif": "/usr/share/fonts/truetype/freefont/FreeSerif.ttf",
    "unicode-glmahjongtile": pypi_art.path("unicode-glmahjongtile"),
}
# shisensho tilescolor3.png (PyPI): 9 x 5 cells of 116x148; its flowers run plum, orchid,
# BAMBOO, chrysanthemum; the last cell of the dragons' row is a joker (百搭).
_SHISENSHO_ROWS = [_M, _S, _P, ["f1", "f2", "f4", "f3", "f5", "f6", "f7", "f8"],
                   ["7z", "6z", "5z", "1z", "2z", "3z", "4z", None]]

#: style name -> (source file, Debian package that provides it)
SOURCES = {
    "gnome-smooth": (f"{GNOME_THEMES}/smooth.png", "gnome-mahjongg"),
    "xmahjongg-real": (f"{XMAHJONGG_TILES}/real.gif", "xmahjongg"),
    "xmahjongg-dorothys": (f"{XMAHJONGG_TILES}/dorothys.gif", "xmahjongg"),
    "xmahjongg-dorothys-blue": (f"{XMAHJONGG_TILES}/dorothys.gif", "xmahjongg"),
    "xmahjongg-dorwhite": (f"{XMAHJONGG_TILES}/dorwhite.gif", "xmahjongg"),
    "unicode-symbola": (_UNICODE_FONTS["unicode-symbola"], "fonts-symbola"),
    "unicode-notosymbols2": (_UNICODE_FONTS["unicode-notosymbols2"], "fonts-noto-core"),
    "unicode-freeserif": (_UNICODE_FONTS["unicode-freeserif"], "fonts-freefont-ttf"),
}
#: art from PyPI source distributions (`datasets.pypi_art`): the "package" is the requirement
for _name in pypi_art.FILES:
    SOURCES[_name] = (pypi_art.path(_name), "pypi:" + pypi_art.FILES[_name][0])
#: KMahjongg's SVG sets, drawn by `datasets.kmahjongg_art` (PySide6, train extra): a Japanese-
#: inspired ivory set with corner indices, a traditional one with brush winds and English-
#: labelled flowers, a "classic" one with purple 万, lizard dragons and trees for seasons, and
#: jade (the default set's drawings white on red lacquer).
KMAHJONGG_SETS = ("default", "traditional", "classic", "jade")
for _name in KMAHJONGG_SETS:
    SOURCES[f"kmahjongg-{_name}"] = (kmahjongg_art.svg_path(_name), "kdegames-mahjongg-data-kf5")

#: Kept out of training: the unseen-style test (scans of a physical Chinese set).
HELD_OUT_STYLES = ("xmahjongg-real",)


class ArtMissingError(RuntimeError):
    """A named art style's files are not installed here (its package is missing)."""


def _installed(name: str) -> bool:
    path = SOURCES[name][0]
    return os.path.exists(path) and (not name.startswith("kmahjongg-") or _kmahjongg_sheet(name) is not None)


def available_styles() -> list[str]:
    """Art styles whose source files are installed here (and, for KMahjongg's SVG sets, can
    be drawn: rendered once into the cache)."""
    return [name for name in SOURCES if _installed(name)]


def require_style(name: str) -> None:
    """Raise `ArtMissingError`, naming what to install, unless style `name` can be drawn here:
    a table or crop asked for in a packaged style must never quietly come out procedural."""
    if name not in SOURCES:
        raise KeyError(f"unknown art style {name!r}; known: {sorted(SOURCES)}")
    if _installed(name):
        return
    package = SOURCES[name][1]
    source = (f"the PyPI source distribution {package.removeprefix('pypi:')}" if package.startswith("pypi:")
              else f"the Debian package {package}")
    extra = " and PySide6 (the train extra) to draw it" if name.startswith("kmahjongg-") else ""
    raise ArtMissingError(f"art style {name!r} is not installed: it needs {source}{extra}; "
                          "`python -m datasets.fetch_art` installs the art (make test runs it)")


@lru_cache(maxsize=None)
def _kmahjongg_sheet(style: str):
    return kmahjongg_art.sheet_path(style.removeprefix("kmahjongg-"))


def _rgb_to_bgr(img: Image.Image) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(img.convert("RGB"))[:, :, ::-1])


@lru_cache(maxsize=None)
def _sheet(style: str) -> dict[str, np.ndarray]:
    path = SOURCES[style][0]
    faces: dict[str, np.ndarray] = {}
    if style == "gnome-smooth":
        im = _on_white(Image.open(path))
        for i, code in enumerate(_SMOOTH_ORDER):
            x = 96 * i
            faces[code] = _rgb_to_bgr(im.crop((x + 12, 3, x + 90, 119)))
    elif style == "xmahjongg-real":
        faces = _grid_faces(Image.open(path).convert("RGB"), _REAL_ROWS, inset=2)
    elif style.startswith("xmahjongg-dor"):
        im = Image.open(path).convert("RGB")
        row0 = 2 if style.endswith("-blue") else 0
        for r, row in enumerate(_DOROTHY_ROWS):
            for c, code in enumerate(row):
                y = 80 * (row0 + r)
                faces[code] = _rgb_to_bgr(im.crop((64 * c + 4, y + 2, 64 * c + 53, y + 68)))
    elif style == "shisensho":
        faces = _grid_faces(_on_white(Image.open(path)), _SHISENSHO_ROWS, inset=4)
    elif style.startswith("kmahjongg-"):
        sheet = _kmahjongg_sheet(style)
        faces = kmahjongg_art.read_sheet(sheet) if sheet is not None else {}
    elif style.startswith("unicode-"):
        for i, code in enumerate(_UNICODE_ORDER):
            if code:
                face = _unicode_glyph(path, 0x1F000 + i)
                if face is not None:
                    faces[code] = face
    else:
        raise KeyError(style)
    return faces


def _on_white(im: Image.Image) -> Image.Image:
    """A sheet with transparent parts laid on white."""
    im = im.convert("RGBA")
    return Image.alpha_composite(Image.new("RGBA", im.size, (255, 255, 255, 255)), im)


def _grid_faces(im: Image.Image, rows: list[list], inset: int) -> dict[str, np.ndarray]:
    """Faces of a sheet of equal cells, one list of codes (None: skip) per row of cells, each
    cut `inset` pixels inside its cell's border."""
    cw, ch = im.width / max(len(row) for row in rows), im.height / len(rows)
    faces = {}
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if code:
                faces[code] = _rgb_to_bgr(im.crop((int(c * cw) + inset, int(r * ch) + inset,
                                                   int((c + 1) * cw) - inset, int((r + 1) * ch) - inset)))
    return faces


def _unicode_glyph(font_path: str, codepoint: int) -> np.ndarray | None:
    """Draw one Unicode mahjong glyph (an outline of a whole tile) black on ivory, cropped."""
    font = ImageFont.truetype(font_path, 160)
    img = Image.new("L", (240, 260), 0)
    ImageDraw.Draw(img).text((20, 10), chr(codepoint), font=font, fill=255)
    bbox = img.getbbox()
    if bbox is None or (bbox[2] - bbox[0]) < 30:
        return None  # the font lacks this glyph
    ink = np.asarray(img.crop(bbox), np.float32) / 255.0
    face = np.array([222, 238, 242], np.float32)  # ivory, BGR
    out = face[None, None, :] * (1 - ink[:, :, None]) + np.array([30, 25, 20], np.float32) * ink[:, :, None]
    return out.astype(np.uint8)


#: Where the character that names each flower and season stands on a style's face, in face
#: pixels (x0, y0, x1, y1), read off the enlarged faces by eye.  `swap_mark` trades it for
#: another tile's for the legibility check of the test sets (`datasets.legibility`); styles not
#: listed are never judged illegible.
MARK_BOXES = {
    "xmahjongg-real": {"f1": (4, 7, 30, 29), "f2": (5, 8, 24, 30), "f3": (5, 8, 22, 29), "f4": (7, 6, 29, 26),
                       "f5": (23, 8, 51, 30), "f6": (25, 7, 47, 28), "f7": (21, 7, 46, 27), "f8": (25, 7, 48, 25)},
}


def _ink_mask(face: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The mark's pixels inside `box` (far from the box's brightest, paper-coloured pixels),
    as a face-sized 0/1 mask."""
    x0, y0, x1, y1 = box
    region = face[y0:y1, x0:x1].astype(np.int16)
    grey = region.mean(axis=2)
    paper = np.median(region[grey >= np.percentile(grey, 75)], axis=0)
    mask = np.zeros(face.shape[:2], np.uint8)
    mask[y0:y1, x0:x1] = np.abs(region - paper).max(axis=2) > 24
    return mask


def swap_mark(style_name: str, code: str, other: str, face: np.ndarray) -> np.ndarray:
    """`face` of bonus tile `code` with its character painted out (filled in from the paper
    around it by OpenCV's inpainting) and the character of bonus tile `other`, cut from that
    tile's face, put in its place, centred on the same spot.  Unchanged where `MARK_BOXES` lacks
    either."""
    boxes = MARK_BOXES.get(style_name, {})
    if code not in boxes or other not in boxes:
        return face
    own = _ink_mask(face, boxes[code])
    out = cv2.inpaint(face, cv2.dilate(own, np.ones((5, 5), np.uint8)), 3, cv2.INPAINT_TELEA)
    donor = _sheet(style_name)[other]
    ink = _ink_mask(donor, boxes[other]).astype(bool)
    ys, xs = np.nonzero(ink)
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[code], boxes[other]
    ys = ys + (ay0 + ay1 - by0 - by1) // 2
    xs = xs + (ax0 + ax1 - bx0 - bx1) // 2
    keep = (ys >= 0) & (ys < out.shape[0]) & (xs >= 0) & (xs < out.shape[1])
    out[ys[keep], xs[keep]] = donor[ink][keep]
    return out


def load_face(style_name: str, code: str) -> np.ndarray | None:
    """Upright BGR uint8 face of `code` in `style_name`, or None if the style lacks it."""
    if code not in CLASSES:
        raise ValueError(f"unknown tile code {code!r}")
    if style_name not in SOURCES:
        raise KeyError(f"unknown art style {style_name!r}; known: {sorted(SOURCES)}")
    if not os.path.exists(SOURCES[style_name][0]):
        return None
    face = _sheet(style_name).get(code)
    return None if face is None else face.copy()

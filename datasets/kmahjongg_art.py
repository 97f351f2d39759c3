"""Faces of KMahjongg's SVG tile sets, drawn once into PNG sheets for `datasets.tile_art`.

KMahjongg's tile sets (Debian `kdegames-mahjongg-data-kf5`, GPL-2+) are SVG files with one
element per face (`CHARACTER_1`, `ROD_5`, `WIND_3`, `FLOWER_2`, ...).  Only Qt's SVG renderer
draws them right (librsvg crops the faces wrongly), so this module renders them with PySide6
(the `train` extra) in a process of its own, keeping Qt out of the forked data-building
workers, and writes one sheet per set to the gitignored `datasets/cache/art/`:

    python -m datasets.kmahjongg_art default traditional classic jade

`sheet_path(name)` renders a set on first use; nothing rendered is ever committed.
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from scoring.tiles import CLASSES

TILESETS = "/usr/share/kmahjongglib/tilesets"
CACHE = Path(__file__).resolve().parent / "cache" / "art"
#: Pixels per SVG unit: a 69x89 face becomes 138x178, larger than any training crop needs.
SCALE = 2.0

_WINDS = {"1z": "WIND_3", "2z": "WIND_2", "3z": "WIND_4", "4z": "WIND_1"}  # WIND_1..4 = N S E W
_DRAGONS = {"5z": "DRAGON_1", "6z": "DRAGON_2", "7z": "DRAGON_3"}  # white, green, red
_FLOWERS = {"f1": "FLOWER_1", "f2": "FLOWER_2", "f3": "FLOWER_3", "f4": "FLOWER_4"}
#: The classic set names its first two flowers the other way round ("Orchid", then "Plum").
_FLOWER_ORDER = {"classic": {"f1": "FLOWER_2", "f2": "FLOWER_1", "f3": "FLOWER_3", "f4": "FLOWER_4"}}
#: Faces left out: jade's white dragon is a blank red lacquer face, which would teach the
#: classifier that a plain coloured tile (what a face-down back looks like) is a white dragon.
_LEFT_OUT = {"jade": {"5z"}}


def element_ids(name: str) -> dict[str, str]:
    """Class code -> SVG element id for tile set `name` (checked by eye on contact sheets)."""
    ids = {f"{n}m": f"CHARACTER_{n}" for n in range(1, 10)}
    ids |= {f"{n}p": f"ROD_{n}" for n in range(1, 10)}
    ids |= {f"{n}s": f"BAMBOO_{n}" for n in range(1, 10)}
    ids |= _WINDS | _DRAGONS | _FLOWER_ORDER.get(name, _FLOWERS)
    ids |= {f"f{n + 4}": f"SEASON_{n}" for n in range(1, 5)}
    return {code: el for code, el in ids.items() if code not in _LEFT_OUT.get(name, ())}


def svg_path(name: str) -> str:
    return f"{TILESETS}/{name}.svgz"


def sheet_path(name: str) -> Path | None:
    """The rendered sheet of tile set `name`, rendering it first if need be (in a child
    process); None when the set is not installed or PySide6 cannot draw it."""
    out = CACHE / f"{name}.png"
    if out.exists():
        return out
    if not os.path.exists(svg_path(name)):
        return None
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "datasets.kmahjongg_art", name], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0 or not out.exists():
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        print(f"KMahjongg set {name!r} not drawn (PySide6, in the train extra, draws it): {last}",
              file=sys.stderr)
        return None
    return out


def read_sheet(path: Path) -> dict[str, np.ndarray]:
    """Class code -> BGR face from a sheet written by `render_sheet` (one row of equal cells
    in `CLASSES` order, blank where the set has no such face)."""
    import cv2

    sheet = cv2.imread(str(path), cv2.IMREAD_COLOR)
    w = sheet.shape[1] // len(CLASSES)
    faces = {}
    for i, code in enumerate(CLASSES):
        cell = sheet[:, i * w:(i + 1) * w]
        if cell.reshape(-1, 3).std(axis=0).max() > 0:  # one flat colour: a class the set lacks
            faces[code] = np.ascontiguousarray(cell)
    return faces


def render_sheet(name: str) -> Path:
    """Draw every face of tile set `name` on its own face colour and write the sheet."""
    import cv2
    from PySide6.QtCore import QByteArray, QRectF
    from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841  (fonts need an app)
    with gzip.open(svg_path(name)) as f:
        renderer = QSvgRenderer(QByteArray(f.read()))
    if not renderer.isValid():
        raise ValueError(f"{svg_path(name)}: not a valid SVG")

    def draw(element: str, w: int, h: int, fill: tuple[int, int, int]) -> np.ndarray:
        img = QImage(w, h, QImage.Format.Format_ARGB32)
        img.fill(QColor(*fill))
        painter = QPainter(img)
        renderer.render(painter, element, QRectF(0, 0, w, h))
        painter.end()
        rows = np.frombuffer(img.constBits(), np.uint8).reshape(h, img.bytesPerLine() // 4, 4)
        return rows[:, :w, :3].copy()  # ARGB32 is B, G, R, A in memory: BGR

    face = renderer.boundsOnElement("CHARACTER_1")
    fw, fh = int(face.width() * SCALE), int(face.height() * SCALE)
    tile = renderer.boundsOnElement("TILE_1")
    body = draw("TILE_1", int(tile.width() * SCALE), int(tile.height() * SCALE), (0, 0, 0))
    h, w = body.shape[:2]
    # the tile's top face: the middle of TILE_1 (its sides and shadow lie at the edges)
    paper = np.median(body[int(h * 0.3):int(h * 0.6), int(w * 0.35):int(w * 0.65)].reshape(-1, 3), axis=0)
    fill = tuple(int(v) for v in paper[::-1])  # QColor takes R, G, B
    margin = int(0.06 * fw)
    cells = []
    ids = element_ids(name)
    for code in CLASSES:
        cell = np.empty((fh + 2 * margin, fw + 2 * margin, 3), np.uint8)
        cell[:] = paper.astype(np.uint8)
        if code in ids and renderer.elementExists(ids[code]):
            cell[margin:margin + fh, margin:margin + fw] = draw(ids[code], fw, fh, fill)
        cells.append(cell)
    CACHE.mkdir(parents=True, exist_ok=True)
    out = CACHE / f"{name}.png"
    cv2.imwrite(str(out), np.concatenate(cells, axis=1))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="+", help="tile set names, e.g. default traditional classic jade")
    args = ap.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    for name in args.names:
        print("wrote", render_sheet(name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The tile check: is a find a tile at all?

The localiser learnt tiles against cloth, wood and an empty tray; a real table also holds dice,
scoring sticks, coins and chips, and a die's white face or a coin found as a tile joins the
nearest seat's hand.  The check looks at each find with some of what lies round it (a window
CONTEXT times the find's longer side, turned to the find's sides, with the find's outline as a
fourth channel) and gives the probability that it is a tile (face up or down).  vision.recognize
drops the finds under the model's threshold after each grouping, unless they lie in a run or a
set one of whose finds reads as a tile (RUN_KEPT).  Trained by vision/train_tile_check.py on the pipeline's own finds
in synthetic tables with props (datasets/props.py) and the hust-riichi training photos.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.quad import TileQuad
from vision.runtime import load_model

MODEL_PATH = Path(__file__).resolve().parent / "tile_check.onnx"
#: the window's side, in pixels, and in the find's longer sides
WINDOW = 48
CONTEXT = 1.8
MEAN, STD = 0.5, 0.25


class TileCheckMissing(RuntimeError):
    """The tile check's model file is not there (train it with vision/train_tile_check.py)."""


def window(img: np.ndarray, quad: TileQuad) -> np.ndarray:
    """The check's input for one find: 4 x WINDOW x WINDOW float32, the BGR window about the
    find, turned to the find's own sides (so a photo's rotation is no cue: a tile is a tile at
    any angle, and so is a die), normalised, and the find's outline filled with 1 in it.  The
    photo is shrunk before it is turned (area-like, _shrink), and edge pixels are repeated past
    its border."""
    c = quad.center.astype(np.float64)
    side = CONTEXT * max(quad.width, quad.height, 1.0)
    d = quad.corners[1].astype(np.float64) - quad.corners[0]
    angle = np.degrees(np.arctan2(d[1], d[0]))
    # an axis-aligned square holding the turned window, shrunk to about WINDOW * sqrt(2)
    n = max(1, int(np.ceil(side * _ROOT2)))
    x0, y0 = int(np.floor(c[0] - n / 2)), int(np.floor(c[1] - n / 2))
    h, w = img.shape[:2]
    patch = img[max(0, y0):max(0, min(h, y0 + n)), max(0, x0):max(0, min(w, x0 + n))]
    if patch.shape[0] != n or patch.shape[1] != n:
        if patch.size == 0:
            patch = np.zeros((n, n, 3), np.uint8)
        else:
            top, left = max(0, -y0), max(0, -x0)
            patch = cv2.copyMakeBorder(patch, top, n - patch.shape[0] - top, left, n - patch.shape[1] - left,
                                       cv2.BORDER_REPLICATE)
    patch = _shrink(patch, _OUTER)
    k = _OUTER / n  # patch pixels per photo pixel
    centre = ((c[0] - x0) * k, (c[1] - y0) * k)
    m = cv2.getRotationMatrix2D(centre, angle, WINDOW / (side * k))
    m[:, 2] += np.array([WINDOW / 2, WINDOW / 2]) - centre
    x = np.empty((4, WINDOW, WINDOW), np.float32)
    turned = cv2.warpAffine(patch, m, (WINDOW, WINDOW), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    x[:3] = (turned.transpose(2, 0, 1).astype(np.float32) / 255.0 - MEAN) / STD
    pts = ((quad.corners.astype(np.float64) - [x0, y0]) * k) @ m[:, :2].T + m[:, 2]
    mask = np.zeros((WINDOW, WINDOW), np.uint8)
    cv2.fillConvexPoly(mask, np.round(pts * 16).astype(np.int32), 1, lineType=cv2.LINE_8, shift=4)
    x[3] = mask
    return x


_ROOT2 = 1.4143
_OUTER = int(np.ceil(WINDOW * _ROOT2))


def _shrink(patch: np.ndarray, size: int = WINDOW) -> np.ndarray:
    """The square patch at size x size.  OpenCV's area resampling costs 0.35 ms for a 12 MP
    photo's window at a non-integer scale; a bilinear step to twice the size, then an exact
    two-by-two area step, costs a tenth of that and reads much the same."""
    n = patch.shape[0]
    if n <= size:
        return cv2.resize(patch, (size, size), interpolation=cv2.INTER_LINEAR)
    if n > 2 * size:
        patch = cv2.resize(patch, (2 * size, 2 * size), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)


class TileCheck:
    """Probability that each find is a tile.  Thread-safe; one onnxruntime session."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 2):
        self.session, self.input_name, self.meta = load_model(Path(model_path or MODEL_PATH), threads,
                                                              TileCheckMissing, "tile check")
        self.threshold = float(self.meta.get("threshold", 0.5))

    def probabilities(self, img: np.ndarray, quads: list[TileQuad]) -> np.ndarray:
        if not quads:
            return np.zeros(0, np.float32)
        x = np.stack([window(img, q) for q in quads])
        logits = self.session.run(None, {self.input_name: x})[0].reshape(-1)
        return 1.0 / (1.0 + np.exp(-logits))

    def tiles(self, img: np.ndarray, quads: list[TileQuad]) -> list[TileQuad]:
        """The finds the check takes for tiles."""
        p = self.probabilities(img, quads)
        return [q for q, v in zip(quads, p) if v >= self.threshold]


#: the check's probability a find must reach in the photo's darkness to count (in the photo and
#: its negative, the model's own threshold: 0.02); scratch sweeps in docs/history.md
DARKNESS_SURE = 0.5


class EitherPolarity:
    """A tile check that takes a find for a tile when the photo, its negative or its darkness
    (`darkness`) shows one: the check learnt pale faces, and a set with dark faces (found in the
    photo's negative, vision.detect.find_tiles) is a pale set there, but in the colours
    opposite its own: an olive face is lilac in the negative, unlike any face the check learnt,
    and grey in its darkness.  In the darkness a find must be surer (DARKNESS_SURE): a white
    die is a dark square with light pips there.  On 50 synthetic tables of procedural dark
    sets (2000x1500, seed 2024; the pipeline's finds with the check off), photo or negative
    dropped 97 of 2,467 true tiles in 14 tables, and with the darkness 39 in 8 (at the model's
    own threshold, 9 in 4, but on 50 such tables with dice, scoring sticks, coins and chips 15
    more of 152 props' finds passed, and 4 fewer tables were laid out right; at DARKNESS_SURE 6
    more, and as many tables right as without the darkness)."""

    def __init__(self, check: TileCheck, photo: np.ndarray | None = None, negative: np.ndarray | None = None):
        """`photo` and its `negative`, when the caller made the negative already (vision.recognize
        looks and reads in it too): not made again."""
        self.check, self.threshold = check, check.threshold
        self._photo: np.ndarray | None = None
        self._others: tuple[np.ndarray, ...] = ()
        if photo is not None and negative is not None:
            self._photo, self._others = photo, (negative, darkness(photo))

    def probabilities(self, img: np.ndarray, quads: list[TileQuad]) -> np.ndarray:
        if not quads:
            return np.zeros(0, np.float32)
        if img is not self._photo:  # a photo is checked after each grouping: turned once
            self._photo, self._others = img, (cv2.bitwise_not(img), darkness(img))
        negative, dark = self._others
        p = np.maximum(self.check.probabilities(img, quads), self.check.probabilities(negative, quads))
        in_darkness = self.check.probabilities(dark, quads)
        return np.maximum(p, np.where(in_darkness >= DARKNESS_SURE, in_darkness, 0.0))


def darkness(img: np.ndarray) -> np.ndarray:
    """How dark each pixel is, grey in three channels: 255 less its brightest channel (HSV's
    value), so a dark face of any colour is a grey face with its light marks dark on it."""
    return cv2.cvtColor(255 - img.max(axis=2), cv2.COLOR_GRAY2BGR)


@lru_cache(maxsize=1)
def default_tile_check() -> TileCheck:
    """The bundled model, loaded once per process."""
    return TileCheck()

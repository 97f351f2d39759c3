"""How blurred the tiles are, as a share of a tile's width.

A phone photo taken in poor light is often moved or out of focus, and the classifier, trained
on crops blurred a little, misreads many more tiles once the blur spreads an edge over a few
percent of a tile's width (a suit tile's dots and sticks run together).  vision.deblur takes a
moved camera's straight smear (along the direction measured here) or a focus blur (as wide as
measured here) off the tiles, but their user can also take the photo again: vision.recognize
warns when `blurred` says so.

The measure: for a step edge blurred by a Gaussian of spread s, the steepest grey-level change
across it is its contrast / (s * sqrt(2 pi)); so a face's contrast over its steepest change
grows with s.  The changes of the faces with ink enough to have edges (a blank white dragon or
a back has none) are put in each face's contrast and tile width and pooled, their steepest
(PERCENTILE) taken along DIRECTIONS directions, and the least of those kept (a moved camera
smears one direction only).  The result, `Blur.of_tile`, is about 2.5 s over the tile's width:
sharp photos of tiles 70-85 pixels wide give 0.05-0.06, of tiles about 24 pixels wide 0.06-0.14.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.quad import TileQuad

#: faces whose grey levels span less than this carry no edges worth measuring
MIN_CONTRAST = 60.0
#: at most this many faces are measured (spread over the photo's finds)
MOST_FACES = 24
#: faces are measured at most this wide (area-shrunk): a blur worth a warning spans pixels there
#: too, and the measure costs a few milliseconds on a 12 MP photo
FACE_PX = 40
#: the share of each face's outline left out (its rim and sides, shaded rather than sharp)
INSET = 0.12
#: the high percentile taken of the changes and the levels (a face's few steepest edges)
PERCENTILE = 98.0
#: a moved camera smears along one direction only, and edges lying along it stay sharp: the
#: changes are taken along this many directions round the half circle, so one lies within 3.75
#: degrees of any smear (with four directions, 12 MP photos smeared over 30% of a tile measured
#: 0.10-0.20 of a tile; with 12 or 24, 0.14-0.18)
DIRECTIONS = 24
_ANGLES = np.arange(DIRECTIONS) * np.pi / DIRECTIONS
_DIRECTIONS = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], axis=1).astype(np.float32)
#: the photo is blurred when its blur is at least this share of a tile's width ...
BLURRED_OF_TILE = 0.13
#: ... and at least this many of its own pixels (a sharp photo of small tiles measures as much of
#: a tile, but a bigger photo is its cure, not a steadier hand)
BLURRED_PX = 4.0


@dataclass(frozen=True)
class Blur:
    of_tile: float  # the edges' spread in tile widths (see the module's docstring)
    pixels: float  # the same in the photo's pixels, at the tiles' median width
    #: the direction the edges spread most along (degrees from the photo's x axis towards its
    #: y axis, 0-180): a moved camera's smear
    degrees: float = 0.0
    #: the steepest change along any direction over the steepest along that one: about 1 for
    #: a blur that spreads edges every way alike (a camera not focused), more for a moved
    #: camera's smear (vision.deblur SMEAR_ANISOTROPY, FOCUS_ANISOTROPY)
    anisotropy: float = 1.0


def tile_blur(img: np.ndarray, quads: list[TileQuad]) -> Blur | None:
    """The photo's blur, measured on its inked faces, or None when none has ink enough."""
    by_direction = _steepest_by_direction(img, quads)
    if by_direction is None:
        return None
    k = int(np.argmin(by_direction))
    steepest = float(by_direction[k])
    if steepest <= 0:
        return None
    width = float(np.median([min(q.width, q.height) for q in quads]))
    return Blur(1.0 / steepest, width / steepest, float(np.degrees(_ANGLES[k])),
                float(by_direction.max()) / steepest)


def _steepest_by_direction(img: np.ndarray, quads: list[TileQuad]) -> np.ndarray | None:
    """The inked faces' steepest changes (PERCENTILE) along each of DIRECTIONS, in contrast per
    tile width; None when no face has ink enough."""
    if not quads:
        return None
    step = max(1, len(quads) // MOST_FACES)
    changes = []
    for q in quads[::step][:MOST_FACES]:
        face = _face(img, q)
        if face is not None:
            changes.append(face)
    if not changes:
        return None
    gx, gy = np.concatenate(changes, axis=1)
    # (directions, pixels), by broadcasting: a matrix product here would wake OpenBLAS's threads,
    # which then spin for about 0.1 s after it, taking a core from the next photo's work
    along = np.abs(_DIRECTIONS[:, :1] * gx + _DIRECTIONS[:, 1:] * gy)
    return _rank(along, PERCENTILE)


def blurred(blur: Blur | None) -> bool:
    """Whether the blur is enough to misread tiles by (BLURRED_OF_TILE, BLURRED_PX)."""
    return blur is not None and blur.of_tile >= BLURRED_OF_TILE and blur.pixels >= BLURRED_PX


def _face(img: np.ndarray, quad: TileQuad) -> np.ndarray | None:
    """One face's grey-level changes (2 x pixels: across and down) in its contrast per tile
    width, from the square inside its outline less its rim; None when it is too small or too
    plain to measure."""
    c = quad.center
    width = min(quad.width, quad.height)
    half = (1 - 2 * INSET) * width / 2
    h, w = img.shape[:2]
    x0, x1 = int(max(0, c[0] - half)), int(min(w, c[0] + half))
    y0, y1 = int(max(0, c[1] - half)), int(min(h, c[1] + half))
    if x1 - x0 < 6 or y1 - y0 < 6:
        return None
    patch = img[y0:y1, x0:x1]
    if patch.ndim == 3:
        patch = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    shrink = min(1.0, FACE_PX / width)
    if shrink < 1.0:
        patch = cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    grey = patch.astype(np.float32)
    levels = grey.reshape(1, -1)
    contrast = float(_rank(levels, PERCENTILE)[0] - _rank(levels, 100 - PERCENTILE)[0])
    if contrast < MIN_CONTRAST or grey.shape[0] < 4 or grey.shape[1] < 4:
        return None
    per_tile = width * shrink / contrast / 2  # central differences span two pixels
    gx = (grey[1:-1, 2:] - grey[1:-1, :-2]).ravel() * per_tile
    gy = (grey[2:, 1:-1] - grey[:-2, 1:-1]).ravel() * per_tile
    return np.stack([gx, gy])


def _rank(values: np.ndarray, percentile: float) -> np.ndarray:
    """Each row's value at `percentile` (the nearest rank: np.percentile's interpolation costs
    twenty times as much on the pooled changes)."""
    k = int(round(percentile / 100 * (values.shape[1] - 1)))
    return np.partition(values, k, axis=1)[:, k]

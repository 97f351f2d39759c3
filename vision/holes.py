"""Tiles the localiser missed inside a run: a one-tile hole between two tiles of one row.

A concealed hand lies as one touching row, so two finds two tile widths apart along their row,
with nothing found between them, have a tile between them, unless the hole is the gap between
two sets.  Plain faces are the ones the localiser misses most: a blank white dragon, a pale
four of bamboo (on the 12-megapixel table of `benchmarks/recognition.py` it found 52 of 56
tiles, three of the four missed between two found ones).  A hole is taken for a tile when its
face has the colour of its two neighbours' faces and not that of what lies beyond its top or
bottom edge (the cloth): the gap between two sets is cloth inside and beyond.  The holes then
face the cloth test the localiser's finds face (`vision.detect._holes`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.quad import TileQuad

#: centre-to-centre distance along the row, in tile widths, of two finds with one tile between
HOLE_SPAN = (1.75, 2.3)
#: the two finds lie in one row: off it by at most this share of the tile's height, and of
#: widths within this ratio of each other
HOLE_OFF_ROW = 0.2
HOLE_SIZE_RATIO = 1.25
#: a quad whose height is under this many widths is near square (a steep tilt foreshortens
#: rows so): which way its row runs is unsure, and no hole is looked for beside it
HOLE_MIN_ASPECT = 1.15
#: the hole is a face like its neighbours': at least FACE_SHARE of its inside within FACE_LIKE
#: (Lab distance) of their faces' colour (the gap between two bonus tiles, cloth and the near
#: tile's side, has some pixels of about that colour, not most).  Over 960 synthetic tables
#: (seeds 7, 31 and 2024 at 12 MP, 2024 and 99 at 1280x960, held-out art; 260 procedural) the
#: filler put back 3 true tiles, at 83-100%, and one gap, at 64%: a side seat's column where
#: the near tile's side and a pale cloth both lie within FACE_LIKE of the faces (0.6 until then)
FACE_LIKE = 18.0
FACE_SHARE = 0.7
#: and unlike the cloth beyond its top or bottom edge by at least this (Lab distance)
CLOTH_APART = 10.0


def _lab(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.ascontiguousarray(img), cv2.COLOR_BGR2Lab).astype(np.float64)


def core_lab(img: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """Lab colours of the quad's inner 60% (its face less the rim and the seams), or None at
    the image's edge or when under five pixels (also the gap test's, `vision.detect`)."""
    centre = corners.mean(axis=0)
    core = np.round(centre + (corners - centre) * 0.6).astype(np.int32)
    (x0, y0), (x1, y1) = core.min(axis=0), core.max(axis=0) + 1
    h, w = img.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, core - np.array([x0, y0], np.int32), 1)
    px = _lab(img[y0:y1, x0:x1])[mask > 0]
    return px if len(px) >= 5 else None


def _face_colour(px: np.ndarray) -> np.ndarray:
    """The face's colour: the median of the brighter half of a tile's inside (not its ink)."""
    return np.median(px[px[:, 0] >= np.median(px[:, 0])], axis=0)


def _beyond(img: np.ndarray, a: np.ndarray, b: np.ndarray, outward: np.ndarray) -> np.ndarray | None:
    """Median Lab colour just beyond the edge a-b (outward: a vector a tile's height long)."""
    pts = [a + (b - a) * t + outward * d for t in np.linspace(0.2, 0.8, 7) for d in (0.12, 0.2, 0.28)]
    pts = np.round(np.array(pts)).astype(int)
    h, w = img.shape[:2]
    pts = pts[(pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)]
    if len(pts) < 5:
        return None
    return np.median(_lab(img[pts[:, 1], pts[:, 0]][:, None]).reshape(-1, 3), axis=0)


def _is_tile(img: np.ndarray, hole: np.ndarray, left: np.ndarray, right: np.ndarray) -> bool:
    inside = core_lab(img, hole)
    sides = [core_lab(img, left), core_lab(img, right)]
    if inside is None or any(s is None for s in sides):
        return False
    faces = [_face_colour(s) for s in sides]
    if float(np.linalg.norm(faces[0] - faces[1])) >= FACE_LIKE:
        return False  # two sets of different tiles, or not two faces
    near = np.linalg.norm(inside - (faces[0] + faces[1]) / 2, axis=1) < FACE_LIKE
    if near.mean() < FACE_SHARE:
        return False
    return unlike_cloth(img, hole, np.median(inside[near], axis=0))


def unlike_cloth(img: np.ndarray, corners: np.ndarray, colour: np.ndarray) -> bool:
    """The colour (Lab) found inside the quad is at least CLOTH_APART from what lies just beyond
    its top or bottom edge: the cloth there, or on one side a tile's own dark side."""
    up = ((corners[0] + corners[1]) - (corners[3] + corners[2])) / 2  # bottom edge to top edge
    beyond = [_beyond(img, corners[0], corners[1], up), _beyond(img, corners[3], corners[2], -up)]
    apart = [float(np.linalg.norm(colour - c)) for c in beyond if c is not None]
    return bool(apart) and max(apart) >= CLOTH_APART


def hole_quads(img: np.ndarray, quads: list[TileQuad], k: np.ndarray) -> list[TileQuad]:
    """Quads (in photo pixels) for the one-tile holes between finds of one row; `img` is the
    photo at a level whose pixels are `k` times the photo's (k = (kx, ky))."""
    if len(quads) < 2:
        return []
    corners = np.array([q.corners for q in quads], np.float64) * k
    centres = corners.mean(axis=1)
    widths = np.array([q.width for q in quads]) * float(np.mean(k))
    found: list[TileQuad] = []
    taken: list[np.ndarray] = []  # the holes' centres, in img's pixels
    for i, c in enumerate(corners):
        along = ((c[1] - c[0]) + (c[2] - c[3])) / 2
        w = float(np.linalg.norm(along))
        h = float(np.linalg.norm(((c[3] - c[0]) + (c[2] - c[1])) / 2))
        if w < 1 or h < HOLE_MIN_ASPECT * w:
            continue
        u = along / w
        d = centres - centres[i]
        t = d @ u
        off = np.abs(d[:, 0] * u[1] - d[:, 1] * u[0])
        ratio = np.maximum(widths, widths[i]) / np.maximum(1e-9, np.minimum(widths, widths[i]))
        for j in np.nonzero((t > HOLE_SPAN[0] * w) & (t < HOLE_SPAN[1] * w) & (off < HOLE_OFF_ROW * h)
                            & (ratio < HOLE_SIZE_RATIO))[0]:
            mid = (centres[i] + centres[j]) / 2
            if np.min(np.linalg.norm(centres - mid, axis=1)) < 0.6 * w:
                continue  # something was found there
            if any(np.linalg.norm(m - mid) < 0.6 * w for m in taken):
                continue  # the same hole, seen from its other side (a row of mixed turns)
            hole = c + (centres[j] - centres[i]) / 2
            if _is_tile(img, hole, c, corners[j]):
                taken.append(mid)
                found.append(TileQuad((hole / k).astype(np.float32)))
    return found

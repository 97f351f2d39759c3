"""A lamp's reflection on glossy faces: found from the tiles it washes out, and taken off.

A glare adds light: each pixel moves part of the way to white, v' = 255 - (255 - v) * kept, the
share `kept` falling smoothly to its least where the reflection is brightest. The tiles under it
keep only that share of their marks' depth, and their faces come that much closer to white; the
tile finder cuts them short where their edges fade, and the classifier misreads their faint marks
(benchmarks/recognition.py's hust-riichi test photos under its "glare" light: 6 tiles misread, each
under the glare, most of them cut short).

Each face-up tile's share is measured twice against the table's median tile: the depth of its marks
(its face less its darkest pixels) and its face's distance from white. A glare lowers both; a blank
white dragon's missing marks lower only the first, and a side lit more strongly neither (its marks
deepen). When two tiles or more keep under WASHED, one with marks at least, the tiles' shares are spread into a
smooth field over them (in full to half a tile past their outlines, fading smoothly to no change
by about 0.8 of a tile past them) and the photo is restored by the glare's inverse. A pale set's
tiles only: a dark set's faces tell no glare."""

from __future__ import annotations

import cv2
import numpy as np

from vision.quad import TileQuad

#: a crop is shrunk to this (width, height) before its face and marks are measured
GRID = (24, 32)
#: a crop's grey at this percentile is its face, at MARK_PERCENTILE its marks' darkest
FACE_PERCENTILE = 75
MARK_PERCENTILE = 3
#: a tile keeping under this share of the table's median marks' depth and face's distance from
#: white is washed out
WASHED = 0.6
#: washed tiles needed to call it a glare, one of them at least with marks (not read as a blank
#: white dragon, whose face alone may be whiter than the others': the hust-riichi training photo
#: of its seasons, as taken, shows three such; a glare may wash a tile until it reads as one)
WASHED_TILES = 2
#: the least share the restoration assumes kept (its inverse multiplies the pixels' distance from
#: white by at most 1 / this)
LEAST_KEPT = 0.1
#: the field is worked out on the photo shrunk to this long side, then brought to full size
FIELD_SIDE = 1000
#: the field is known where the tiles' weight, blurred as their shares are, is over this (from
#: three times this inward in full, fading to none at this)
FIELD_SPREAD = 0.05


def shares_kept(crops: list[np.ndarray]) -> np.ndarray:
    """For each crop of a face-up tile, the share of the table's contrast it keeps: the larger of
    its marks' depth and its face's distance from white, each against the crops' median, clipped
    to LEAST_KEPT..1."""
    small = np.stack([cv2.resize(c, GRID, interpolation=cv2.INTER_AREA) for c in crops]).astype(np.float32)
    grey = small.mean(axis=3).reshape(len(crops), -1)
    face = np.percentile(grey, FACE_PERCENTILE, axis=1)
    depth = face - np.percentile(grey, MARK_PERCENTILE, axis=1)
    by_marks = depth / max(float(np.median(depth)), 1e-3)
    by_face = (255.0 - face) / max(255.0 - float(np.median(face)), 1.0)
    return np.clip(np.maximum(by_marks, by_face), LEAST_KEPT, 1.0)


def glare_field(shape: tuple[int, ...], quads: list[TileQuad], codes: list[str],
                crops: list[np.ndarray]) -> np.ndarray | None:
    """The share of contrast kept at each pixel of a photo of `shape` (float32, 1 where no glare
    is known), or None when no glare is told: fewer than 6 face-up tiles, fewer than WASHED_TILES
    of them washed out (keeping under WASHED), none of those with marks, or a field whose least
    share is WASHED or more. `quads`, `codes` and `crops`: the tiles found, as read, and their
    upright crops (face-down tiles are left out)."""
    up = [i for i, c in enumerate(codes) if c != "back"]
    if len(up) < 6:
        return None
    kept = shares_kept([crops[i] for i in up])
    washed = kept < WASHED
    marked = np.array([codes[i] != "5z" for i in up])
    if int(washed.sum()) < WASHED_TILES or not (washed & marked).any():
        return None
    h, w = shape[:2]
    s = min(1.0, FIELD_SIDE / max(h, w))
    sh, sw = max(1, int(round(h * s))), max(1, int(round(w * s)))
    total = np.zeros((sh, sw), np.float32)
    weight = np.zeros((sh, sw), np.float32)
    for i, k in zip(up, kept):
        outline = np.int32(np.round(quads[i].corners * s))
        cv2.fillConvexPoly(total, outline, float(k))
        cv2.fillConvexPoly(weight, outline, 1.0)
    tile = max(1.0, s * float(np.median([min(quads[i].width, quads[i].height) for i in up])))
    sigma = max(1.0, tile / 2)
    total = cv2.GaussianBlur(total, (0, 0), sigma)
    spread = cv2.GaussianBlur(weight, (0, 0), sigma)
    field = np.where(spread > FIELD_SPREAD, total / np.maximum(spread, 1e-6), 1.0)
    # the field reaches half a tile past the tiles' outlines, fading to no change by where it is
    # known no further (its weight FIELD_SPREAD, about 0.8 of a tile past them): not cut there,
    # which drew a hard edge into the restored photo
    size = int(tile) | 1
    near = cv2.dilate((weight > 0).astype(np.uint8), np.ones((size, size), np.uint8)).astype(np.float32)
    near = np.clip(cv2.GaussianBlur(near, (0, 0), sigma), 0.0, 1.0)
    near *= np.clip((spread / FIELD_SPREAD - 1.0) / 2.0, 0.0, 1.0)
    field = 1.0 - (1.0 - np.clip(field, LEAST_KEPT, 1.0)) * near
    if float(field.min()) >= WASHED:
        return None
    return cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def deglared(image: np.ndarray, field: np.ndarray) -> np.ndarray:
    """The BGR uint8 image with the glare of `field` (glare_field) taken off: each pixel's distance
    from white divided by the share kept there; only the part of the photo the glare reaches is
    worked on."""
    out = image.copy()
    ys, xs = np.nonzero(field < 0.999)
    if not len(ys):
        return out
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    part = image[y0:y1, x0:x1].astype(np.float32)
    kept = np.maximum(field[y0:y1, x0:x1], LEAST_KEPT)[..., None]
    out[y0:y1, x0:x1] = np.clip(255.0 - (255.0 - part) / kept, 0, 255).astype(np.uint8)
    return out

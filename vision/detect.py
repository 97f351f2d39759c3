"""Find the tiles in a photo: the localiser looks once at a small size to measure the tiles,
then, if they are far from the size it was trained on, once more at the size that fits."""

from __future__ import annotations

import cv2
import numpy as np

from vision.localizer import TILE_W_TARGET, default_localizer
from vision.quad import TileQuad

#: first look at the photo with its long side this long
FIRST_LOOK = 640
#: never look at more than this (a 12 MP table photo with tiny tiles)
MAX_LOOK = 1920


def _resized(img: np.ndarray, scale: float) -> np.ndarray:
    if abs(scale - 1.0) < 1e-3:
        return img
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.resize(img, None, fx=scale, fy=scale, interpolation=interp)


def _consistent(quads: list[TileQuad]) -> bool:
    """Tiles of one set are one size; specks found in a busy picture are not."""
    widths = np.array([q.width for q in quads])
    p25, p50, p75 = np.percentile(widths, [25, 50, 75])
    return (p75 - p25) < 0.4 * p50


def find_tile_quads(img: np.ndarray, localizer=None) -> list[TileQuad]:
    """Tile quads in the image's pixels.  A first look at a small size measures the tiles; a
    second look, if needed, is at the size that makes them about TILE_W_TARGET pixels wide."""
    loc = localizer or default_localizer()
    h, w = img.shape[:2]
    scale = min(1.0, FIRST_LOOK / max(h, w)) if max(h, w) > FIRST_LOOK else FIRST_LOOK / max(h, w)
    quads = loc.find(_resized(img, scale))
    if len(quads) < 4 or float(np.median([q.width for q in quads])) < 12:
        # nothing, or specks: the tiles may be too small to see at this size; look closer
        closer = min(2 * scale, MAX_LOOK / max(h, w))
        if closer > scale * 1.2:
            more = loc.find(_resized(img, closer))
            if len(more) > len(quads) and _consistent(more):
                scale, quads = closer, more
    if quads:
        tile_w = float(np.median([q.width for q in quads]))
        # specks narrower than this are noise, not tiles to zoom in on
        if tile_w >= 8 and not (0.7 * TILE_W_TARGET <= tile_w <= 1.3 * TILE_W_TARGET):
            new = scale * float(np.clip(TILE_W_TARGET / tile_w, 1 / 4, 3.0))
            new = min(new, MAX_LOOK / max(h, w))
            if abs(new / scale - 1) > 0.15:
                scale = new
                quads = loc.find(_resized(img, scale))
    return [q.scaled(1.0 / scale) for q in quads]

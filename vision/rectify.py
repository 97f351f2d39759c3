"""Cut each tile out of the photo as an upright, perspective-corrected crop for the classifier."""

from __future__ import annotations

import cv2
import numpy as np

from vision.quad import TileQuad

#: crops are at most this tall (the classifier resizes anyway; bigger only costs time)
MAX_CROP_H = 128
#: and at least this tall (the bonus reader's input height): a small tile (24 pixels wide in a
#: 1280x960 table) is cut straight to the size the classifier reads, in one bicubic warp, not
#: cut at its own size and enlarged again by the classifier's resize (two interpolations blur a
#: tile's few pixels twice).  benchmarks/recognition.py, 200 synthetic 1280x960 tables in the
#: held-out art: suit and honour tiles misread 99 -> 67 times, flowers and seasons 88 -> 92
#: (62 and 90 with the count rule of vision.repairs.repair_stray_bonus)
MIN_CROP_H = 96
#: and never wider than this times their height.  The layout has already turned every quad
#: upright for its player, so a crop that comes out wider than tall is a far row's tile
#: foreshortened by the camera's tilt (a 3:4 face seen as 5:4), not a tile lying sideways; but
#: the classifier turns wide crops a quarter (models.preprocess.LANDSCAPE_RATIO) and would read
#: the tile on its side.  Its input size restores the face's shape anyway.  (It also keeps a
#: long, thin quad, no tile but a detector may offer one, from being enlarged into a huge crop.)
#: benchmarks/recognition.py, held-out art: 200 tables at 1280x960, seat and group 190 -> 193,
#: scores 169 -> 173, suit and honour misreads 61 -> 35; 100 at 4000x3000, 95 -> 98 and 93 -> 96
MAX_CROP_ASPECT = 1.0


#: every crop reaches this fraction of the tile's size past its found outline on each side: the
#: classifier learnt from crops with a little of the table and the neighbours' edges round the
#: face, and an outline found a pixel tight cuts into a small tile's marks.  Chosen on tables of
#: trained-on art (the procedural tile sets, seed 77; crops of the pipeline's own finds read
#: alone, scratch script): at 1280x960 (tiles 24 pixels wide) suit and honour tiles read right
#: 9066 -> 9075 of 9160, flowers and seasons 296 -> 301 of 407, at 2000x1500 4654 -> 4659 of
#: 4679 and 181 -> 183 of 201, at 12 MP unchanged (1842 of 1845, 75 of 80); 0.03 gave 9071/302,
#: 4660/181 and 1841/75, 0.04 and 0.06 less at 1280x960.  Then measured on the held-out art,
#: benchmarks/recognition.py's 200 tables at 1280x960: 9471 -> 9478 of 9562 and 313 -> 323 of 420
CROP_PAD = 0.02


def upright_crop(image: np.ndarray, quad: TileQuad, pad: float = CROP_PAD) -> np.ndarray:
    """Warp the quad (p0 top-left, p1 top-right, p2 bottom-right, p3 bottom-left of the upright
    tile) to an upright BGR crop; `pad` grows it by that fraction of its size on every side."""
    c = quad.corners.astype(np.float32)
    if pad:
        centre = c.mean(axis=0)
        c = centre + (c - centre) * (1 + 2 * pad)
    w, h = max(quad.width, 4.0), max(quad.height, 4.0)
    scale = min(MAX_CROP_H, max(MIN_CROP_H, h)) / h
    oh = max(8, int(round(h * scale)))
    ow = min(max(8, int(round(w * scale))), int(round(MAX_CROP_ASPECT * oh)))
    dst = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float32)
    m = cv2.getPerspectiveTransform(c, dst)
    flags = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC if scale > 1 else cv2.INTER_LINEAR
    return cv2.warpPerspective(image, m, (ow, oh), flags=flags, borderMode=cv2.BORDER_REPLICATE)

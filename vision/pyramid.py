"""The photo at the sizes the detector looks at it: its halvings, each made once when first
needed, and a resize that keeps every pixel counting.  Shared by the looks (vision.detect) and
the tests that tell finds from cloth (vision.false_finds)."""

from __future__ import annotations

import math

import cv2
import numpy as np


def resized(img: np.ndarray, scale: float) -> np.ndarray:
    """The image scaled by `scale`.  Bilinear down to half size (every source pixel still counts,
    and at odd ratios it is five times faster than INTER_AREA: 2.4 against 12.6 ms for a region
    of a 12 MP photo; the localiser was trained on bilinear warps); below half, INTER_AREA
    averages the pixels bilinear sampling would skip (the pyramid's levels keep looks above
    half)."""
    if abs(scale - 1.0) < 1e-3:
        return img
    h, w = img.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(img, size, interpolation=cv2.INTER_LINEAR if scale >= 0.5 else cv2.INTER_AREA)


class Pyramid:
    """The photo and its halvings, each made once when first needed: a look at a small scale
    (the first look at a 12 MP photo, its regions) starts from the smallest level that still has
    at least the pixels it needs, instead of shrinking the full photo again for every region
    (OpenCV halves exactly in a fraction of the time an odd ratio takes).  The photo may still
    be decoding (vision.io.PendingPhoto): a look its preview serves (a JPEG decoded again at
    1/4 or 1/8) starts on the preview and never waits for the full decode."""

    def __init__(self, img):
        self.shape = img.shape
        self.levels: dict[int, np.ndarray] = {}
        self._photo = None
        self._positive: Pyramid | None = None
        if isinstance(img, np.ndarray):
            self.levels[0] = img
        else:
            self._photo = img
            if img.preview is not None:
                k = round(math.log2(img.shape[1] / img.preview.shape[1]))
                self.levels[k] = img.preview

    def _get(self, k: int) -> np.ndarray:
        """Level k, halved down from the nearest level above it (the photo itself: level 0)."""
        if k not in self.levels:
            if self._positive is not None:
                self.levels[k] = cv2.bitwise_not(self._positive._get(k))
            elif k == 0:
                self.levels[0] = self._photo.result()
            else:
                prev = self._get(k - 1)
                self.levels[k] = cv2.resize(prev, (prev.shape[1] // 2, prev.shape[0] // 2),
                                            interpolation=cv2.INTER_AREA)
        return self.levels[k]

    def negative(self) -> Pyramid:
        """The same photo as its negative, each level made from this pyramid's as needed (so a
        look at a small size negates only that level).  A tile set with dark faces and light
        marks is, in the negative, a pale set with dark marks: what the localiser was trained
        on (vision.detect.find_tiles)."""
        neg = Pyramid.__new__(Pyramid)
        neg.shape, neg.levels, neg._photo, neg._positive = self.shape, {}, None, self
        return neg

    def level(self, scale: float) -> tuple[np.ndarray, float, float]:
        """(image, fx, fy): the level for a look at `scale`, fx/fy photo pixels per its pixel."""
        k = 0
        while scale * 2 ** (k + 1) <= 1.0 and min(self.shape[:2]) / 2 ** (k + 1) >= 32:
            k += 1
        lv = self._get(k)
        return lv, self.shape[1] / lv.shape[1], self.shape[0] / lv.shape[0]

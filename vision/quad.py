"""A tile as four corners in image pixels: the shape every vision step passes along."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np


def box_iou(a, b) -> float:
    """Intersection over union of two boxes (x1, y1, x2, y2)."""
    x1, y1, x2, y2 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass
class TileQuad:
    """One tile as four corners in image pixels: p0->p1 spans the width, p1->p2 the height."""

    corners: np.ndarray  # (4, 2) float32; never changed in place (sizes are computed once)
    #: its width in the pixels of the detector's look that found it (0: not found by a look)
    seen_width: float = field(default=0.0, compare=False)

    @cached_property
    def center(self) -> np.ndarray:
        """The mean of the corners (asked for hundreds of times a photo by the detection and
        grouping steps: computed once, and read-only so no caller can change it for the rest)."""
        c = self.corners.mean(axis=0)
        c.flags.writeable = False
        return c

    @cached_property
    def _sides(self) -> tuple[float, float]:
        """(width, height), each the mean of two opposite sides (asked for very often by the
        grouping steps: computed once, in plain floats)."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.corners.tolist()
        return ((math.hypot(x1 - x0, y1 - y0) + math.hypot(x2 - x3, y2 - y3)) / 2,
                (math.hypot(x2 - x1, y2 - y1) + math.hypot(x3 - x0, y3 - y0)) / 2)

    @property
    def width(self) -> float:
        return self._sides[0]

    @property
    def height(self) -> float:
        return self._sides[1]

    @property
    def up(self) -> np.ndarray:
        """Unit vector from the tile's bottom edge to its top edge (as the corners are ordered)."""
        v = (self.corners[0] + self.corners[1] - self.corners[2] - self.corners[3]) / 2
        return v / (np.linalg.norm(v) + 1e-9)

    @property
    def box(self) -> list[float]:
        x1, y1 = self.corners.min(axis=0)
        x2, y2 = self.corners.max(axis=0)
        return [float(x1), float(y1), float(x2), float(y2)]

    def scaled(self, factor: float) -> "TileQuad":
        return TileQuad((self.corners * factor).astype(np.float32))

    def rotated(self, quarter_turns: int) -> "TileQuad":
        """The same tile with its corners relabelled a quarter turn at a time (counter-clockwise)."""
        k = quarter_turns % 4
        return TileQuad(self.corners[[k, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4]].astype(np.float32))


def median_width(quads: list[TileQuad]) -> float:
    """The median width of the quads (the tile size a step judges others against)."""
    return float(np.median([t.width for t in quads]))


def quad_overlap(a: TileQuad, b: TileQuad) -> float:
    """The area, in pixels, that two quads share."""
    area, _ = cv2.intersectConvexConvex(a.corners.astype(np.float32), b.corners.astype(np.float32))
    return float(area)

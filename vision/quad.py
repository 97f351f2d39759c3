"""A tile as four corners in image pixels: the shape every vision step passes along."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class TileQuad:
    """One tile as four corners in image pixels: p0->p1 spans the width, p1->p2 the height."""

    corners: np.ndarray  # (4, 2) float32

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def width(self) -> float:
        return float((np.linalg.norm(self.corners[1] - self.corners[0])
                      + np.linalg.norm(self.corners[2] - self.corners[3])) / 2)

    @property
    def height(self) -> float:
        return float((np.linalg.norm(self.corners[2] - self.corners[1])
                      + np.linalg.norm(self.corners[3] - self.corners[0])) / 2)

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
        return TileQuad(np.roll(self.corners, -quarter_turns, axis=0).astype(np.float32))

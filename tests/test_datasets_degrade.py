"""datasets.degrade: each degradation gives the product what a user's photo would be, and the
boxes where its tiles then lie (in the upright photo's pixels)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.degrade import DEGRADATIONS, bordered, recompressed, stored_turned
from vision.io import load_image


def photo() -> np.ndarray:
    """A 200x300 photo with one bright tile-like block at (40, 60)-(80, 120)."""
    image = np.full((200, 300, 3), 60, np.uint8)
    image[60:120, 40:80] = (230, 220, 210)
    return image


BOX = [40.0, 60.0, 80.0, 120.0]


def block_box(image: np.ndarray) -> list[int]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    ys, xs = np.nonzero((grey > 150) & (grey < 250))  # the block, not a white border
    return [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]


@pytest.mark.parametrize("orientation", [3, 6, 8])
def test_a_photo_stored_turned_reads_upright_with_its_boxes(orientation):
    data, boxes = stored_turned(orientation)(photo(), [BOX], 0)
    upright = load_image(data)
    assert upright.shape == (200, 300, 3) and boxes == [BOX]
    assert block_box(upright) == pytest.approx(BOX, abs=2)


def test_a_recompressed_copy_is_smaller_and_its_boxes_scaled():
    data, boxes = recompressed(150, 70)(photo(), [BOX], 0)
    small = load_image(data)
    assert small.shape[:2] == (100, 150) and boxes == [[20.0, 30.0, 40.0, 60.0]]
    assert block_box(small) == pytest.approx(boxes[0], abs=2)


def test_a_border_moves_the_boxes():
    out, boxes = bordered(0.1, (0, 0, 0))(photo(), [BOX], 0)
    assert out.shape[:2] == (240, 360) and boxes == [[70.0, 80.0, 110.0, 140.0]]
    assert block_box(out) == boxes[0]


def test_every_degradation_keeps_the_tile_where_its_box_says():
    for name, degrade in DEGRADATIONS:
        if degrade is None:
            continue
        given, boxes = degrade(photo(), [BOX], 7)
        image = load_image(given) if isinstance(given, bytes) else given
        assert block_box(image) == pytest.approx(boxes[0], abs=6), name

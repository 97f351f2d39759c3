"""datasets.views: a photo as its camera would have seen it turned or tilted, its boxes moved
with its pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.views import camera_view, view_box


def _photo_with_a_tile() -> tuple[np.ndarray, list[int]]:
    img = np.full((300, 400, 3), 200, np.uint8)
    box = [50, 20, 90, 70]
    cv2.rectangle(img, tuple(box[:2]), tuple(box[2:]), (0, 0, 255), -1)
    return img, box


@pytest.mark.parametrize("turn, tilt", [(0, 0), (0, 30), (0, -30), (90, 0), (180, 0), (30, 20), (-60, 35)])
def test_a_box_moves_with_its_pixels(turn, tilt):
    img, box = _photo_with_a_tile()
    view, m = camera_view(img, turn, tilt)
    ys, xs = np.nonzero((view[..., 2] > 150) & (view[..., 0] < 80))
    assert len(xs), "the red tile left the view"
    moved = view_box(box, m)
    assert np.allclose(moved, [xs.min(), ys.min(), xs.max(), ys.max()], atol=2.5), (moved, xs.min(), ys.min())


def test_a_tilt_shrinks_the_far_edge_and_a_turn_is_counter_clockwise():
    img, box = _photo_with_a_tile()
    near = [50, 230, 90, 280]  # the same tile by the bottom edge
    _, m = camera_view(img, tilt_deg=30)
    (a, b, c, d), (e, f, g, h) = view_box(box, m), view_box(near, m)
    assert c - a < 0.85 * (g - e) and d - b < 0.85 * (h - f)  # the top edge moved away: its tile is smaller
    view, m = camera_view(img, turn_deg=90)
    assert view.shape[:2] == (400, 300)
    x1, y1, x2, y2 = view_box(box, m)
    assert x2 < 150 and y1 > 250  # a quarter turn counter-clockwise takes the top left to the bottom left


def test_the_whole_view_is_kept_no_bigger_than_the_photo_and_filled_smoothly():
    img, _ = _photo_with_a_tile()
    view, m = camera_view(img, 45, 25)
    assert max(view.shape[:2]) <= 400
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [400, 0], [400, 300], [0, 300]]]), m)[0]
    assert corners.min() >= -1 and (corners.max(axis=0) <= [view.shape[1] + 1, view.shape[0] + 1]).all()
    assert (view[0, 0] == 200).all()  # beyond the photo: its median colour, not a mirror of it


def test_each_light_changes_the_photo_as_it_says_and_an_unknown_one_is_named():
    from datasets.views import LIGHTS, relit

    img = np.full((100, 200, 3), 200, np.uint8)
    assert relit(img, "dim").max() == 90
    side = relit(img, "light from one side")
    assert side[50, 0, 0] < 80 and side[50, -1, 0] > 220
    warm = relit(img, "warm cast")[0, 0]
    assert warm[0] < warm[1] < warm[2]
    shade = relit(img, "hard shadow")
    assert shade[50, 10, 0] == 200 and shade[50, 190, 0] == 100
    glare = relit(img, "glare")
    assert 249 <= glare[50, 110, 0] <= 250 and glare[2, 2, 0] == 200  # 90% of the way to white at its centre only
    ink = relit(np.full((100, 200, 3), 50, np.uint8), "glare")[50, 110, 0]
    assert 225 <= ink <= 235  # a dark mark there keeps a tenth of its darkness
    assert len(LIGHTS) == 5
    with pytest.raises(ValueError, match="light 'moon' is not one of"):
        relit(img, "moon")

"""Upright crops: perspective undone, turned upright, big tiles shrunk, small ones cut enlarged
to the classifier's size in one warp."""

from __future__ import annotations

import cv2
import numpy as np

from vision.quad import TileQuad
from models.preprocess import INPUT_H, INPUT_W, to_input_image
from vision.rectify import MAX_CROP_H, MIN_CROP_H, upright_crop


def _tile_photo(w: int, h: int, angle_deg: float = 0.0):
    """A grey photo with one tile: white face, left half of it red (so orientation shows), its
    quad (p0 top-left .. p3 bottom-left as the tile's player sees it) rotated by angle_deg."""
    img = np.full((400, 400, 3), 90, np.uint8)
    c = np.array([200.0, 200.0])
    base = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    t = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    corners = (base @ rot.T + c).astype(np.float32)
    cv2.fillConvexPoly(img, np.round(corners).astype(np.int32), (255, 255, 255))
    left = np.array([corners[0], (corners[0] + corners[1]) / 2, (corners[3] + corners[2]) / 2, corners[3]])
    cv2.fillConvexPoly(img, np.round(left).astype(np.int32), (0, 0, 255))
    return img, TileQuad(corners)


def test_big_tile_is_shrunk_to_the_maximum_height_small_one_enlarged_and_others_kept():
    img, quad = _tile_photo(150, 200)
    assert upright_crop(img, quad).shape[0] == MAX_CROP_H
    img, quad = _tile_photo(80, 110)
    assert upright_crop(img, quad).shape[0] == 110
    img, quad = _tile_photo(24, 32)
    assert upright_crop(img, quad).shape[:2] == (MIN_CROP_H, 72)


def test_a_long_thin_quad_is_not_enlarged_into_a_huge_crop():
    img = np.full((400, 400, 3), 90, np.uint8)
    quad = TileQuad(np.float32([[150, 200], [250, 200], [250, 204], [150, 204]]))  # 100 x 4: 24x would be 2400 long
    assert max(upright_crop(img, quad).shape[:2]) <= 2 * MAX_CROP_H


def test_small_tile_enlarged_in_one_warp_keeps_its_edges_sharp():
    """A 24x32 tile cut straight to 72x96 has a sharper red/white edge than one cut at 24x32 and
    then enlarged (the old way: two interpolations)."""
    img, quad = _tile_photo(24, 32, angle_deg=17.0)
    one_warp = upright_crop(img, quad)
    small = cv2.warpPerspective(img, cv2.getPerspectiveTransform(
        quad.corners.astype(np.float32), np.float32([[0, 0], [24, 0], [24, 32], [0, 32]])), (24, 32))
    two_steps = cv2.resize(small, (72, 96), interpolation=cv2.INTER_LINEAR)

    def edge(crop):  # the strongest left-to-right change of red across the middle rows
        row = crop[30:66, :, 1].astype(float).mean(axis=0)
        return np.abs(np.diff(row)).max()

    assert edge(one_warp) > 1.2 * edge(two_steps)


def test_rotated_tile_comes_out_upright():
    """A tile lying upside down in the photo (the far seat's) comes out with its red half on the
    left again."""
    img, quad = _tile_photo(60, 80, angle_deg=180.0)
    crop = upright_crop(img, quad)
    h, w = crop.shape[:2]
    assert (h, w) == (MIN_CROP_H, 72)
    inner_left = crop[h // 4: 3 * h // 4, w // 8: w // 3].reshape(-1, 3).mean(axis=0)
    inner_right = crop[h // 4: 3 * h // 4, 2 * w // 3: 7 * w // 8].reshape(-1, 3).mean(axis=0)
    assert inner_left[2] > 200 and inner_left[1] < 60  # red (BGR)
    assert inner_right.min() > 200  # white


def test_foreshortened_tile_is_not_turned_on_its_side_by_the_classifier():
    """A far row's upright tile, its 3:4 face squashed by the camera's tilt to 5:4, is cut no
    wider than tall, so the classifier's input keeps it upright (red half on the left) instead
    of turning it a quarter as if it lay sideways; the input's shape restores the face's."""
    img, quad = _tile_photo(100, 80)
    crop = upright_crop(img, quad)
    assert crop.shape[1] <= crop.shape[0]
    x = to_input_image(crop)
    assert x.shape[:2] == (INPUT_H, INPUT_W)
    left = x[INPUT_H // 4: 3 * INPUT_H // 4, 2: INPUT_W // 3].reshape(-1, 3).mean(axis=0)
    right = x[INPUT_H // 4: 3 * INPUT_H // 4, 2 * INPUT_W // 3: INPUT_W - 2].reshape(-1, 3).mean(axis=0)
    assert left[2] > 200 and left[1] < 60  # red (BGR): the tile's left half stays on the left
    assert right.min() > 200


def test_a_crop_reaches_a_little_past_the_found_outline():
    """The classifier learnt from crops with a little of what lies round the face: a crop cut
    exactly to an outline found a pixel tight loses the small tiles' marks at its edge (on the
    1280x960 tables, 4m read as 1m).  The crop reaches CROP_PAD of the tile's size past the
    outline on every side, so a tile on a dark table shows a dark edge all round."""
    from vision.rectify import CROP_PAD

    img = np.zeros((300, 300, 3), np.uint8)
    img[100:196, 100:172] = 255  # a white 72x96 tile, its outline exact
    quad = TileQuad(np.float32([[100, 100], [172, 100], [172, 196], [100, 196]]))
    crop = upright_crop(img, quad)
    assert CROP_PAD > 0
    for edge in (crop[0], crop[-1], crop[:, 0], crop[:, -1]):
        assert edge.mean() < 60  # the table beyond the outline
    assert crop[crop.shape[0] // 2, crop.shape[1] // 2].min() == 255
    assert upright_crop(img, quad, pad=0.0)[:, 0].mean() > 200  # cut exactly: all tile


def test_a_nearly_square_tile_cut_on_its_side_is_read_a_quarter_turned():
    """A tile foreshortened until its outline is nearly square (110 x 96 pixels, lying across the
    crop) is cut on its side, and the classifier misreads it unsurely (a 4z as a flower at 0.11);
    read again a quarter turned it reads right and surely, and that reading is taken.  A tile cut
    the right way up keeps its reading."""
    from datasets.render_tiles import random_style, render_tile
    from models.classifier import default_classifier
    from vision.recognize import _turned_looks

    clf = default_classifier()
    style = random_style(np.random.default_rng(0))
    for code in ("4z", "7p", "6z"):
        face = render_tile(code, style, np.random.default_rng(0), size=(96, 128))
        side = cv2.resize(cv2.rotate(face, cv2.ROTATE_90_CLOCKWISE), (110, 96), interpolation=cv2.INTER_AREA)
        img = np.full((200, 220, 3), 120, np.uint8)
        img[52:148, 55:165] = side
        quad = TileQuad(np.float32([[55, 52], [165, 52], [165, 148], [55, 148]]))  # width along the tile's length
        first = clf.classify([upright_crop(img, quad)])
        assert first[0].code != code and first[0].confidence < 0.5, (code, first[0])
        assert _turned_looks(clf, img, 1.0, [quad], first)[0].code == code
        turned = quad.rotated(1)
        right = clf.classify([upright_crop(img, turned)])
        assert _turned_looks(clf, img, 1.0, [turned], right)[0] is right[0]

"""A gap between two sets that the localiser fills with a 'tile' is dropped; plain real tiles
(a blank white dragon between its run mates, on a cloth of its own colour) are kept."""

from __future__ import annotations

import cv2
import numpy as np

from vision.false_finds import gap_fill

W, H = 30, 40  # a tile's width and height in pixels


def _quad(x: float, y: float, h: int = H) -> np.ndarray:
    """Corners p0..p3 of an upright tile whose top-left corner is at (x, y)."""
    return np.array([[x, y], [x + W, y], [x + W, y + h], [x, y + h]], np.float64)


def _table(cloth, faces: list, rng, h: int = H) -> np.ndarray:
    """A row of tiles `h` pixels high (None: an empty place) on a cloth with a little noise."""
    img = np.full((200, 60 + W * len(faces), 3), cloth, np.uint8)
    for k, face in enumerate(faces):
        if face is not None:
            x = 30 + k * W
            img[80:80 + h, x + 1:x + W - 1] = face
            if face == (235, 235, 230):  # a face-up tile with a character on it
                cv2.putText(img, "8", (x + 8, 80 + h // 2 + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 2)
    noisy = img.astype(np.float64) + rng.normal(0, 2.0, img.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def test_a_plain_gap_between_two_sets_is_a_gap_fill():
    rng = np.random.default_rng(0)
    face = (235, 235, 230)
    img = _table((40, 110, 60), [face, face, None, face, face], rng)
    assert gap_fill(img, _quad(30 + 2 * W, 80))
    assert not gap_fill(img, _quad(30 + 1 * W, 80))  # the tile beside it has a character


def test_a_blank_tile_between_its_run_mates_on_a_pale_cloth_is_kept():
    rng = np.random.default_rng(1)
    face, blank = (235, 235, 230), (236, 236, 232)
    img = _table((232, 232, 228), [face, face, blank, face, face], rng)
    assert not gap_fill(img, _quad(30 + 2 * W, 80))


def test_a_face_down_tile_unlike_the_cloth_is_kept():
    rng = np.random.default_rng(2)
    face, back = (235, 235, 230), (150, 60, 20)
    img = _table((40, 110, 60), [face, face, back, face, face], rng)
    assert not gap_fill(img, _quad(30 + 2 * W, 80))


def test_the_judgement_does_not_depend_on_how_the_corners_are_labelled():
    rng = np.random.default_rng(3)
    face = (235, 235, 230)
    img = _table((40, 110, 60), [face, face, None, face, face], rng)
    gap = _quad(30 + 2 * W, 80)
    assert all(gap_fill(img, np.roll(gap, k, axis=0)) for k in range(4))
    tile = _quad(30 + 1 * W, 80)
    assert not any(gap_fill(img, np.roll(tile, k, axis=0)) for k in range(4))


def test_a_plain_tile_foreshortened_square_is_kept_beside_its_run_mates():
    """A far row under a steep tilt: its tiles come out as wide as they are high, or wider, so
    their longer sides are no guide; the sides facing the nearest find (a run mate) are."""
    rng = np.random.default_rng(4)
    face, blank, cloth = (235, 235, 230), (236, 236, 232), (40, 110, 60)
    h = W - 2
    along_the_row = np.array([1.0, 0.0])
    img = _table(cloth, [face, face, blank, face, face], rng, h)
    tile = _quad(30 + 2 * W, 80, h)
    assert not any(gap_fill(img, np.roll(tile, k, axis=0), along_the_row) for k in range(4))
    # and a gap of the same shape between two sets is still one
    img = _table(cloth, [face, face, None, face, face], rng, h)
    assert all(gap_fill(img, np.roll(tile, k, axis=0), along_the_row) for k in range(4))

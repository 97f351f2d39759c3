"""A find on a larger plain surface (a piece of a tile rack's top) is dropped, even two found side
by side; plain real tiles (a pung of blank white dragons, a face-down tile) are kept."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.synth_table import TruthClassifier, make_table
from vision.false_finds import without_surface_pieces
from vision.pyramid import Pyramid
from vision.quad import TileQuad, box_iou
from vision.recognize import recognize

W, H = 30, 40  # a tile's width and height in pixels
ROW_Y = 60  # the tiles' top edge
RACK_Y = 110  # the rack's top edge, behind the row
FACE, BLANK, CLOTH, RACK = (235, 235, 230), (236, 236, 232), (40, 110, 60), (170, 200, 215)


def _quad(x: float, y: float) -> TileQuad:
    """An upright tile whose top-left corner is at (x, y)."""
    return TileQuad(np.array([[x, y], [x + W, y], [x + W, y + H], [x, y + H]], np.float32))


def _table(faces: list, rack: bool, rng, cloth=CLOTH, edge=(200, 200, 195)) -> np.ndarray:
    """A row of tiles (FACE: with a character, else a plain colour) on a cloth with a little
    noise, and behind it a rack 15 tiles long when asked for.  Each tile shows a one-pixel
    `edge`, as a tile's rounded rim does in a photo."""
    img = np.full((240, 120 + 15 * W, 3), cloth, np.uint8)
    if rack:
        img[RACK_Y:RACK_Y + 60, 30:30 + 15 * W] = RACK
        img[RACK_Y + 45:RACK_Y + 60, 30:30 + 15 * W] = (225, 235, 240)  # the lip, lighter
    for k, face in enumerate(faces):
        x = 30 + k * W
        img[ROW_Y:ROW_Y + H, x:x + W] = edge
        img[ROW_Y + 1:ROW_Y + H - 1, x + 1:x + W - 1] = face
        if face == FACE:
            cv2.putText(img, "8", (x + 8, ROW_Y + H // 2 + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 2)
    noisy = img.astype(np.float64) + rng.normal(0, 2.0, img.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _row(faces: list) -> list[TileQuad]:
    return [_quad(30 + k * W, ROW_Y) for k in range(len(faces))]


def _kept(img: np.ndarray, quads: list[TileQuad]) -> list[bool]:
    kept = without_surface_pieces(Pyramid(img), quads)
    return [any(q is k for k in kept) for q in quads]


def test_a_piece_of_a_rack_is_dropped_and_the_tiles_in_front_kept():
    rng = np.random.default_rng(0)
    faces = [FACE] * 8
    img = _table(faces, True, rng)
    tiles = _row(faces)
    at_the_end, in_the_middle = _quad(32, RACK_Y + 4), _quad(30 + 7 * W, RACK_Y + 4)
    assert _kept(img, tiles + [at_the_end, in_the_middle]) == [True] * 8 + [False, False]


def test_two_pieces_of_a_rack_side_by_side_are_both_dropped():
    """Each lies past the other's side, so neither runs on past it at first; once one goes the
    rack runs on past the other's."""
    rng = np.random.default_rng(1)
    faces = [FACE] * 8
    img = _table(faces, True, rng)
    pieces = [_quad(32, RACK_Y + 4), _quad(32 + W, RACK_Y + 4)]
    assert _kept(img, _row(faces) + pieces) == [True] * 8 + [False, False]


def test_a_pung_of_blank_white_dragons_is_kept():
    """Blank tiles side by side run on into each other across a faint edge (at 20 pixels a tile,
    hust-riichi's do): a find past a side stops that side counting."""
    rng = np.random.default_rng(2)
    faces = [FACE, FACE, BLANK, BLANK, BLANK, FACE]
    img = _table(faces, False, rng, edge=(231, 231, 227))
    assert _kept(img, _row(faces)) == [True] * 6


def test_plain_tiles_on_a_pale_cloth_next_to_a_rack_are_kept():
    rng = np.random.default_rng(3)
    faces = [BLANK, FACE, (150, 60, 20), FACE, BLANK]  # a face-down tile in the middle
    img = _table(faces, True, rng, cloth=(225, 225, 220))
    assert _kept(img, _row(faces)) == [True] * 5


def test_a_plain_tile_cut_by_the_photos_edge_is_kept():
    """Past the photo's edge the warp repeats the edge's pixels: the tile's own colour, which
    would run on with no edge.  A side whose lines leave the photo does not count."""
    rng = np.random.default_rng(4)
    faces = [FACE, FACE, BLANK]
    img = _table(faces, False, rng)[:, :30 + 3 * W - 1]  # the photo ends on the blank's right edge
    assert _kept(img, _row(faces)) == [True] * 3


def test_a_table_with_racks_has_no_finds_on_them():
    """A synthetic table with a rack behind each row (seed 7's seventh table at 1280x960): the
    localiser finds a piece of one rack's top as a tile, which the surface test drops."""
    rng = np.random.default_rng(7)
    for _ in range(7):
        table = make_table(rng, (1280, 960), art="xmahjongg-real", racks=True)
    rec = recognize(table.image, classifier=TruthClassifier(table.tiles))
    off_tiles = [t.quad.box for t in rec.tiles if max(box_iou(t.quad.box, u["box"]) for u in table.tiles) < 0.5]
    assert off_tiles == []
    assert len(rec.tiles) == len(table.tiles)

"""The blur measure and the warning it gives: a moved or unfocused photo is told, first, to be
taken again; a sharp one, and a sharp photo of small tiles, are not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.augment import smear
from datasets.synth_table import TruthClassifier, make_table
from vision import recognize
from vision.quad import TileQuad
from vision.sharpness import BLURRED_OF_TILE, BLURRED_PX, Blur, blurred, tile_blur


@pytest.fixture(scope="module")
def table():
    return make_table(np.random.default_rng(41), (2000, 1500), single=False)


def _faces(table):
    return [TileQuad(np.float32(t["quad"])) for t in table.tiles if not t["face_down"]]


def _moved(img: np.ndarray, length: float, degrees: float) -> np.ndarray:
    return smear(img, int(round(length)) | 1, degrees)


def test_a_sharp_photo_is_not_blurred(table):
    blur = tile_blur(table.image, _faces(table))
    assert blur is not None and blur.of_tile < 0.7 * BLURRED_OF_TILE
    assert not blurred(blur)


def test_blur_grows_with_the_spread_and_passes_the_mark_where_tiles_are_misread(table):
    width = table.tile_width()
    spreads = [tile_blur(cv2.GaussianBlur(table.image, (0, 0), share * width), _faces(table)).of_tile
               for share in (0.02, 0.04, 0.07)]
    assert spreads == sorted(spreads)
    assert not blurred(Blur(spreads[0], spreads[0] * width))
    assert blurred(Blur(spreads[2], spreads[2] * width))


@pytest.mark.parametrize("degrees", [0.0, 37.0, 100.0])
def test_a_moved_camera_is_measured_along_its_smear(table, degrees):
    """Edges lying along the smear stay sharp: the measure must find the smear's direction."""
    blur = tile_blur(_moved(table.image, 0.3 * table.tile_width(), degrees), _faces(table))
    assert blurred(blur), blur


def test_small_tiles_alone_are_no_blur():
    """Sharp tiles 24 pixels wide measure as much of a tile as a blurred photo's, but in a pixel
    or two of the photo: a bigger photo is their cure, not a steadier hand."""
    assert not blurred(Blur(BLURRED_OF_TILE + 0.01, BLURRED_PX - 0.6))
    assert blurred(Blur(BLURRED_OF_TILE + 0.01, BLURRED_PX + 0.1))


def test_plain_faces_give_no_measure():
    img = np.full((400, 400, 3), 230, np.uint8)
    quad = TileQuad(np.float32([[100, 100], [160, 100], [160, 180], [100, 180]]))
    assert tile_blur(img, [quad]) is None
    assert tile_blur(img, []) is None
    assert not blurred(None)


class _UnsureOfOne(TruthClassifier):
    """True codes, the first tile read with 30% confidence: a tile warning to come after."""

    def classify_quads(self, crops, quads):
        preds = super().classify_quads(crops, quads)
        if preds:
            preds[0] = type(preds[0])(preds[0].code, 0.3, preds[0].candidates)
        return preds


def test_recognize_warns_of_a_blurred_photo_and_not_of_a_sharp_one(table):
    truth = _UnsureOfOne(table.tiles)
    sharp = recognize(table.image, classifier=truth)
    assert any(w.startswith("low confidence") for w in sharp.warnings)
    assert not [w for w in sharp.warnings if "blurred" in w]
    shaken = recognize(_moved(table.image, 0.3 * table.tile_width(), 20.0), classifier=truth)
    # first: it explains whatever the other warnings say of the tiles
    assert shaken.warnings[0].startswith("the photo is blurred") and "take the photo again" in shaken.warnings[0]
    assert shaken.blurred and not sharp.blurred  # what batch validation reports per image

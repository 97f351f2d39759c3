"""A moved camera's straight smear measured and taken off: its direction and length found from
the photo alone, the tiles sharper for it, and more of them read right (kept only when the
classifier is surer)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from datasets.augment import smear
from datasets.synth_table import make_table
from vision.deblur import smear_of, unsmeared
from vision.quad import TileQuad
from vision.sharpness import tile_blur

#: the module (vision's package exports its function under the same name)
recognize_module = importlib.import_module("vision.recognize")


@pytest.fixture(scope="module")
def table():
    return make_table(np.random.default_rng(41), (2000, 1500), single=False)


def _faces(table):
    return [TileQuad(np.float32(t["quad"])) for t in table.tiles if not t["face_down"]]


def _moved(table, length: int, turned: float) -> np.ndarray:
    """The table smeared `length` pixels along a line turned `turned` degrees counter-clockwise
    as the photo is seen (datasets.augment.smear)."""
    return smear(table.image, length, turned)


@pytest.mark.parametrize("turned", [0.0, 37.0, 100.0])
def test_the_smear_is_measured_from_the_photo(table, turned):
    length = int(round(0.3 * table.tile_width())) | 1
    moved = _moved(table, length, turned)
    blur = tile_blur(moved, _faces(table))
    # the measure's angle runs from x towards y, which points down the photo: clockwise as seen
    off = abs((blur.degrees - (180.0 - turned)) % 180.0)
    assert min(off, 180.0 - off) <= 8.0, blur
    found = smear_of(moved, _faces(table), blur.degrees)
    assert found is not None and abs(found.length - length) <= 1.5, found


def test_taking_the_smear_off_brings_the_tiles_back_towards_the_sharp_photo(table):
    length = int(round(0.3 * table.tile_width())) | 1
    moved = _moved(table, length, 20.0)
    faces = _faces(table)
    blur = tile_blur(moved, faces)
    mended = unsmeared(moved, faces, smear_of(moved, faces, blur.degrees))

    def off_sharp(img):
        return np.mean([np.abs(img[int(y1):int(y2), int(x1):int(x2)].astype(np.float32)
                               - table.image[int(y1):int(y2), int(x1):int(x2)]).mean()
                        for x1, y1, x2, y2 in (q.box for q in faces)])

    assert off_sharp(mended) < 0.6 * off_sharp(moved)
    assert tile_blur(mended, faces).of_tile < 0.7 * blur.of_tile


def _right(rec, table) -> int:
    """Tiles read as their true code, matched by centre."""
    truth = [(np.float32(t["quad"]).mean(axis=0), t["code"]) for t in table.tiles]
    hits = 0
    for t in rec.tiles:
        centre = np.float32(t.quad.corners).mean(axis=0)
        nearest = min(truth, key=lambda tc: float(np.hypot(*(tc[0] - centre))))
        hits += nearest[1] == t.code
    return hits


def test_a_smeared_photo_reads_more_tiles_right_with_the_smear_taken_off(table, monkeypatch):
    moved = _moved(table, int(round(0.3 * table.tile_width())) | 1, 20.0)
    mended = recognize_module.recognize(moved)
    assert mended.blurred and mended.warnings[0].startswith("the photo is blurred")
    assert "straight smear" in mended.warnings[0] and "take the photo again" in mended.warnings[0]
    # the same photo with mending refused (its reading never surer by so much)
    monkeypatch.setattr(recognize_module, "MENDED_GAIN", 1.0)
    as_taken = recognize_module.recognize(moved)
    assert as_taken.blurred and "straight smear" not in as_taken.warnings[0]
    assert _right(mended, table) > _right(as_taken, table)


def test_a_sharp_photo_is_read_as_it_is(table):
    rec = recognize_module.recognize(table.image)
    assert not rec.blurred and not any("smear" in w for w in rec.warnings)


def test_no_smear_on_no_tiles_or_tiles_too_small_for_one():
    img = np.full((200, 200, 3), 200, np.uint8)
    assert smear_of(img, [], 0.0) is None
    tiny = TileQuad(np.float32([[10, 10], [14, 10], [14, 16], [10, 16]]))
    assert smear_of(img, [tiny], 0.0) is None


def test_a_smear_longer_than_can_be_mended_or_none_at_all_gives_no_length(table):
    """A low at the end of the lengths searched is a smear too long to mend (its tiles' marks
    are gone), not its length; a plain photo has no low at all."""
    faces = _faces(table)
    too_long = _moved(table, int(round(1.2 * table.tile_width())) | 1, 20.0)
    assert smear_of(too_long, faces, tile_blur(too_long, faces).degrees) is None
    plain = np.full_like(table.image, 180)
    assert smear_of(plain, faces, 0.0) is None

"""A blurred photo's blur measured and taken off: a moved camera's straight smear (its direction
and length found from the photo alone) or a focus blur (told from a smear by spreading edges
every way alike, its width from the blur measure), the tiles sharper for it, and more of them
read right (kept only when the classifier is surer)."""

from __future__ import annotations

import dataclasses
import importlib

import cv2
import numpy as np
import pytest

from datasets.augment import out_of_focus, smear
from datasets.synth_table import make_table
from vision.deblur import (FOCUS_ANISOTROPY, SMEAR_ANISOTROPY, FocusBlur, Smear, blur_kernels, deblurred,
                           focus_spread, smear_of)
from vision.quad import TileQuad
from vision.sharpness import Blur, tile_blur

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


def _unfocused(table, share: float, shape: str) -> np.ndarray:
    """The table as a camera not focused sees it: a Gaussian of `share` of a tile's width
    ("soft"), or a lens's disk that many tile widths across ("disk")."""
    width = share * table.tile_width()
    return cv2.GaussianBlur(table.image, (0, 0), width) if shape == "soft" else out_of_focus(table.image, width)


def _off_sharp(img, table, faces) -> float:
    """How far the faces' pixels lie from the sharp photo's, on average."""
    return float(np.mean([np.abs(img[int(y1):int(y2), int(x1):int(x2)].astype(np.float32)
                                 - table.image[int(y1):int(y2), int(x1):int(x2)]).mean()
                          for x1, y1, x2, y2 in (q.box for q in faces)]))


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
    mended = deblurred(moved, faces, smear_of(moved, faces, blur.degrees))
    assert _off_sharp(mended, table, faces) < 0.6 * _off_sharp(moved, table, faces)
    assert tile_blur(mended, faces).of_tile < 0.7 * blur.of_tile


def test_a_focus_blur_spreads_edges_every_way_and_a_smear_one_way(table):
    faces = _faces(table)
    unfocused = _unfocused(table, 0.07, "soft")
    moved = _moved(table, int(round(0.3 * table.tile_width())) | 1, 20.0)
    round_blur, moved_blur = tile_blur(unfocused, faces), tile_blur(moved, faces)
    assert round_blur.anisotropy < SMEAR_ANISOTROPY <= FOCUS_ANISOTROPY <= moved_blur.anisotropy
    assert [type(k) for k in blur_kernels(moved, faces, moved_blur)] == [Smear]
    kernels = blur_kernels(unfocused, faces, round_blur)
    assert [(type(k), k.profile) for k in kernels] == [(FocusBlur, "soft"), (FocusBlur, "disk")]
    # between the two, both are tried: the classifier's confidence decides
    both = blur_kernels(moved, faces, dataclasses.replace(moved_blur, anisotropy=1.5))
    assert [(type(k), getattr(k, "profile", None)) for k in both] == [
        (Smear, None), (FocusBlur, "soft"), (FocusBlur, "disk")]


def test_the_warning_says_how_to_take_the_photo_again_as_the_blur_shows():
    def advice(anisotropy, mended=None):
        warning = recognize_module._blurred(Blur(0.2, 8.0, 0.0, anisotropy), mended)[0]
        return warning.split("take the photo again ")[1]

    assert advice(2.5) == "holding the camera still"
    assert advice(1.1) == "focused on the tiles"
    assert advice(1.5) == "holding the camera still and focused on the tiles"
    # what was taken off says which it was
    assert advice(1.5, Smear(6.0, 0.0)) == "holding the camera still"
    assert advice(1.5, FocusBlur(2.0, "disk")) == "focused on the tiles"
    assert "a focus blur of 6 pixels taken off" in recognize_module._blurred(
        Blur(0.2, 8.0, 0.0, 1.1), FocusBlur(2.0, "soft"))[0]


@pytest.mark.parametrize("profile", ["soft", "disk"])
def test_a_focus_kernel_is_round_whole_and_centred_on_the_origin(profile):
    blur = FocusBlur(2.0, profile)
    kernel = blur.kernel((64, 48))
    assert kernel.sum() == pytest.approx(1.0, abs=1e-5)
    # the same read from the origin either way round (the transform wraps)
    assert np.allclose(kernel, np.roll(kernel[::-1, ::-1], (1, 1), axis=(0, 1)), atol=1e-7)
    offsets = np.hypot(*np.meshgrid(np.minimum(np.arange(48), 48 - np.arange(48)),
                                    np.minimum(np.arange(64), 64 - np.arange(64))))
    if profile == "disk":  # flat inside, nothing past the rim's pixels
        assert kernel[0, 0] == pytest.approx(kernel[0, 2]) and not kernel[offsets > blur.across / 2 + 1].any()
        assert blur.reach > blur.across
    else:
        assert kernel[0, 0] > kernel[0, 2] > 0
    with pytest.raises(ValueError):
        FocusBlur(0.0, profile)
    with pytest.raises(ValueError):
        FocusBlur(2.0, "square")


@pytest.mark.parametrize("share", [0.05, 0.07])
def test_a_focus_blurs_width_is_measured_from_the_photo(table, share):
    faces = _faces(table)
    blur = tile_blur(_unfocused(table, share, "soft"), faces)
    spread = focus_spread(blur)
    true = share * table.tile_width()
    assert spread is not None and abs(spread - true) <= 0.25 * true, (spread, true)
    # a sharp photo's own measure is no focus blur to take off
    assert focus_spread(tile_blur(table.image, faces)) is None


@pytest.mark.parametrize("shape, share", [("soft", 0.07), ("disk", 0.24)])
def test_taking_a_focus_blur_off_brings_the_tiles_back_towards_the_sharp_photo(table, shape, share):
    faces = _faces(table)
    unfocused = _unfocused(table, share, shape)
    spread = focus_spread(tile_blur(unfocused, faces))
    mended = deblurred(unfocused, faces, FocusBlur(spread, shape))
    assert _off_sharp(mended, table, faces) < 0.9 * _off_sharp(unfocused, table, faces)
    assert tile_blur(mended, faces).of_tile < 0.9 * tile_blur(unfocused, faces).of_tile


@pytest.mark.parametrize("shape, share", [("soft", 0.07), ("disk", 0.24)])
def test_a_photo_out_of_focus_reads_more_tiles_right_with_the_blur_taken_off(table, monkeypatch, shape, share):
    unfocused = _unfocused(table, share, shape)
    mended = recognize_module.recognize(unfocused)
    assert mended.blurred and "focus blur of" in mended.warnings[0]
    assert mended.warnings[0].endswith("take the photo again focused on the tiles")
    monkeypatch.setattr(recognize_module, "MENDED_GAIN", 1.0)
    as_taken = recognize_module.recognize(unfocused)
    assert as_taken.blurred and "focus blur of" not in as_taken.warnings[0]
    assert _right(mended, table) > _right(as_taken, table)


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
    assert "straight smear" in mended.warnings[0]
    assert mended.warnings[0].endswith("take the photo again holding the camera still")
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


def test_a_camera_focused_off_spreads_a_point_over_a_disk_as_wide_as_asked():
    point = np.zeros((41, 41), np.uint8)
    point[20, 20] = 255
    spread = out_of_focus(point.astype(np.float32), 9.0)
    assert abs(float(spread.sum()) - 255.0) < 1e-2  # nothing lost or gained
    lit = np.argwhere(spread > 0.5 * spread[20, 20])
    assert lit[:, 0].min() == 16 and lit[:, 0].max() == 24 and lit[:, 1].min() == 16 and lit[:, 1].max() == 24
    assert spread[20, 20] == pytest.approx(spread[20, 23], rel=1e-6)  # flat inside, not a peak

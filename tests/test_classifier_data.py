"""Training-data side of the classifier: renderer, art loader, augmentations, preprocessing, split."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import augment, kmahjongg_art, tile_art
from datasets.render_tiles import cjk_fonts, dark_style, random_style, render_tile
from models.preprocess import INPUT_H, INPUT_W, CropError, preprocess_batch, to_input_image
from scoring.tiles import BACK, BONUS, CLASSES

REPO = Path(__file__).resolve().parent.parent


def test_bundled_font_is_found():
    assert any("datasets/fonts" in p.replace("\\", "/") for p, _ in cjk_fonts())


def test_every_class_renders_upright_at_the_asked_size():
    rng = np.random.default_rng(0)
    style = random_style(rng)
    for code in CLASSES:
        img = render_tile(code, style, rng, size=(30, 41))
        assert img.shape == (41, 30, 3) and img.dtype == np.uint8
        assert img.std() > 3, f"{code} rendered as a flat image"


def test_faces_differ_and_backs_are_plain():
    rng = np.random.default_rng(1)
    style = random_style(rng)
    faces = {c: render_tile(c, style, np.random.default_rng(2), (48, 64)).astype(int) for c in ("1m", "2m", "1p", BACK)}
    assert np.abs(faces["1m"] - faces["2m"]).mean() > 1
    assert np.abs(faces["1p"] - faces[BACK]).mean() > 10



def test_dark_styles_have_dark_faces_and_light_marks():
    def luma(rgb):
        return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]

    rng = np.random.default_rng(4)
    for _ in range(20):
        style = dark_style(rng)
        assert luma(style.face) < 110 and luma(style.ink) > 180
        grey = cv2.cvtColor(render_tile("7z", style, rng, (48, 64)), cv2.COLOR_BGR2GRAY)
        face = grey[8:-8, 6:-6]
        # most of the face is the dark ground; the character is drawn lighter than it
        assert np.median(face) < 120 and np.percentile(face, 99) > np.median(face) + 60


def test_synthetic_tables_with_dark_faces_are_procedural(tmp_path, capsys):
    from datasets.synth_table import main as synth_main, make_table

    with pytest.raises(ValueError, match="dark faces are procedural"):
        make_table(np.random.default_rng(0), (640, 480), art="gnome-smooth", dark=True)
    with pytest.raises(SystemExit) as refused:
        synth_main([str(tmp_path), "--count", "1", "--dark-faces", "1.5"])
    assert refused.value.code == 2 and "--dark-faces must be a share from 0 to 1" in capsys.readouterr().err

def test_renderer_is_deterministic_for_a_seed():
    a = render_tile("7z", random_style(np.random.default_rng(5)), np.random.default_rng(6))
    b = render_tile("7z", random_style(np.random.default_rng(5)), np.random.default_rng(6))
    assert np.array_equal(a, b)


def test_renderer_rejects_bad_input():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="unknown tile code"):
        render_tile("0z", random_style(rng), rng)
    with pytest.raises(ValueError, match="too small"):
        render_tile("1m", random_style(rng), rng, size=(2, 2))


def test_tile_art_api():
    styles = tile_art.available_styles()
    # make test installs every packaged style first (`make art`, datasets.fetch_art)
    assert set(styles) == set(tile_art.SOURCES), f"missing: {sorted(set(tile_art.SOURCES) - set(styles))}; run make art"
    with pytest.raises(KeyError):
        tile_art.load_face("no-such-style", "1m")
    with pytest.raises(ValueError):
        tile_art.load_face("gnome-smooth", "xx")
    for style in styles:
        face = tile_art.load_face(style, "5p")
        assert face is not None and face.ndim == 3 and face.dtype == np.uint8


def test_a_style_whose_art_is_not_installed_is_refused_by_name(monkeypatch, tmp_path):
    """A table or crop asked for in a packaged style whose files are missing must not come out
    procedural under that style's name: the error names the package and the command."""
    monkeypatch.setitem(tile_art.SOURCES, "xmahjongg-real", (str(tmp_path / "real.gif"), "xmahjongg"))
    with pytest.raises(tile_art.ArtMissingError, match=r"Debian package xmahjongg.*datasets\.fetch_art"):
        random_style(np.random.default_rng(0), art="xmahjongg-real")
    assert "xmahjongg-real" not in tile_art.available_styles()
    with pytest.raises(KeyError):
        random_style(np.random.default_rng(0), art="no-such-style")


def test_kmahjongg_element_ids_follow_each_sets_order():
    default = kmahjongg_art.element_ids("default")
    assert set(default) == set(CLASSES) - {BACK}
    # KMahjongg orders its winds N S E W and its dragons white, green, red
    assert [default[c] for c in ("1z", "2z", "3z", "4z")] == ["WIND_3", "WIND_2", "WIND_4", "WIND_1"]
    assert [default[c] for c in ("5z", "6z", "7z")] == ["DRAGON_1", "DRAGON_2", "DRAGON_3"]
    assert default["f1"] == "FLOWER_1" and default["f8"] == "SEASON_4"
    classic = kmahjongg_art.element_ids("classic")  # labelled "Orchid" first, then "Plum"
    assert (classic["f1"], classic["f2"]) == ("FLOWER_2", "FLOWER_1")
    assert "5z" not in kmahjongg_art.element_ids("jade")  # a blank red face: looks like a back


def test_kmahjongg_sheet_drops_flat_cells(tmp_path):
    rng = np.random.default_rng(0)
    cells = [rng.integers(0, 255, (20, 10, 3), dtype=np.uint8) for _ in CLASSES]
    cells[CLASSES.index(BACK)][:] = (0, 15, 119)  # flat lacquer red: grey in no channel
    cells[CLASSES.index("5z")][:] = 235
    path = tmp_path / "sheet.png"
    cv2.imwrite(str(path), np.concatenate(cells, axis=1))
    faces = kmahjongg_art.read_sheet(path)
    assert set(faces) == set(CLASSES) - {BACK, "5z"}
    assert np.array_equal(faces["1m"], cells[0])


def test_augmentations_give_valid_crops():
    rng = np.random.default_rng(3)
    style = random_style(rng)
    for code in ("1m", "f3", BACK):
        crop = augment.scene_crop(code, lambda c, s: render_tile(c, style, rng, s), rng)
        crop = augment.photometric(crop, rng)
        assert crop.ndim == 3 and crop.dtype == np.uint8 and min(crop.shape[:2]) >= 4


def test_preprocess_turns_landscape_crops_and_validates():
    crop = np.zeros((40, 100, 3), np.uint8)
    assert to_input_image(crop).shape == (INPUT_H, INPUT_W, 3)
    x = preprocess_batch([crop, np.zeros((64, 48), np.uint8)])
    assert x.shape == (2, 3, INPUT_H, INPUT_W) and x.dtype == np.float32
    with pytest.raises(CropError, match="uint8"):
        to_input_image(np.zeros((10, 10, 3), np.int32))


def test_hust_split_is_by_photo_and_disjoint():
    split = json.loads((REPO / "datasets" / "splits" / "hust-riichi.json").read_text())
    sets = [set(split[k]) for k in ("train", "validation", "test")]
    assert all(sets) and not (sets[0] & sets[1] or sets[0] & sets[2] or sets[1] & sets[2])
    assert sum(len(s) for s in sets) == 256


def test_cursive_four_is_a_flat_loop_where_the_numeral_stands():
    """The running-hand 四 of traditional sets: ink in the numeral's place (the top third), wider
    than tall, and unlike the regular 四 of the same set."""
    import dataclasses

    style = random_style(np.random.default_rng(3))
    plain = render_tile("4m", dataclasses.replace(style, four="四"), np.random.default_rng(4), (96, 128))
    loop = render_tile("4m", dataclasses.replace(style, four="cursive"), np.random.default_rng(4), (96, 128))
    assert np.abs(plain.astype(int) - loop.astype(int)).mean() > 1
    face = np.array(style.face, float)[::-1]  # the renderer returns BGR
    ink = np.abs(loop.astype(float) - face).sum(axis=2) > 120
    ys, xs = np.nonzero(ink[8:56, 10:86])
    assert len(ys) > 60
    assert np.ptp(xs) > 1.5 * np.ptp(ys)


def test_small_crops_are_cut_as_from_a_photo_of_small_tiles():
    """`small` shrinks some crops to a whole table's tile width before the network's resize (so
    they come out blurred, with fewer edges); at 0 the crops are exactly those of the recipe
    without it, since no extra random number is drawn."""
    from datasets.build_tile_dataset import BONUS_SIZE, synth_samples
    from scoring.tiles import BONUS

    plain, y, _ = synth_samples(seed=31, n=24, codes=BONUS, size=BONUS_SIZE)
    again, y0, _ = synth_samples(seed=31, n=24, codes=BONUS, size=BONUS_SIZE, small=0.0)
    assert np.array_equal(plain, again) and np.array_equal(y, y0)
    small, y1, _ = synth_samples(seed=31, n=24, codes=BONUS, size=BONUS_SIZE, small=1.0)
    assert np.array_equal(y, y1) and small.shape == plain.shape

    def edges(x):
        return np.mean([np.abs(np.diff(im.astype(np.int16), axis=1)).mean() for im in x])

    assert edges(small) < 0.8 * edges(plain)


def test_training_crops_can_show_sets_with_dark_faces():
    """`dark` draws that share of the procedural sets with dark faces and light marks; at 0 the
    crops are those of the recipe without it (no extra random number is drawn)."""
    from datasets.build_tile_dataset import synth_samples

    plain, y, _ = synth_samples(seed=8, n=32)
    again, y0, _ = synth_samples(seed=8, n=32, dark=0.0)
    assert np.array_equal(plain, again) and np.array_equal(y, y0)
    dark, y1, _ = synth_samples(seed=8, n=32, dark=1.0)
    assert np.array_equal(y, y1)

    def face_grey(x):  # the middle of each crop, where the face lies
        h, w = x.shape[1:3]
        return np.array([np.median(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)[h // 3:2 * h // 3, w // 3:2 * w // 3])
                         for im in x])

    assert np.median(face_grey(dark)) < np.median(face_grey(plain)) - 60


def test_extra_dark_crops_leave_every_other_training_crop_as_it_was(tmp_path):
    """`dark_extra` appends that share of crops of dark-faced sets after the recipe's own
    synthetic crops, which stay byte for byte as they were."""
    from datasets.build_tile_dataset import build

    build(tmp_path / "plain", 0.0004, 1, None, ("train",), dark_extra=0.0)
    build(tmp_path / "extra", 0.0004, 1, None, ("train",), dark_extra=0.5)
    plain, extra = np.load(tmp_path / "plain" / "train.npz"), np.load(tmp_path / "extra" / "train.npz")
    n = len(plain["y"])
    assert n == 40 and len(extra["y"]) == 60
    assert np.array_equal(extra["x"][:n], plain["x"]) and np.array_equal(extra["y"][:n], plain["y"])
    grey = [np.median(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)[20:44, 16:32]) for im in extra["x"]]
    assert np.median(grey[n:]) < np.median(grey[:n]) - 60  # the added crops' faces are dark


def test_extra_dark_bonus_crops_leave_every_other_bonus_crop_as_it_was(tmp_path):
    """`bonus_dark_extra` appends flowers and seasons of dark-faced sets to the bonus reader's
    crops, which stay byte for byte as they were."""
    from datasets.build_tile_dataset import BONUS_SIZE, build

    build(tmp_path / "plain", 0.001, 1, None, ("bonus_train",), bonus_dark_extra=0.0)
    build(tmp_path / "extra", 0.001, 1, None, ("bonus_train",), bonus_dark_extra=0.5)
    plain, extra = np.load(tmp_path / "plain" / "bonus_train.npz"), np.load(tmp_path / "extra" / "bonus_train.npz")
    n = len(plain["y"])
    assert n == 30 and len(extra["y"]) == 45
    assert np.array_equal(extra["x"][:n], plain["x"]) and np.array_equal(extra["y"][:n], plain["y"])
    assert extra["x"].shape[1:3] == (BONUS_SIZE[1], BONUS_SIZE[0])
    assert set(extra["y"][n:].tolist()) <= {CLASSES.index(c) for c in BONUS}
    w, h = BONUS_SIZE
    grey = [np.median(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)[h // 3:2 * h // 3, w // 3:2 * w // 3]) for im in extra["x"]]
    assert np.median(grey[n:]) < np.median(grey[:n]) - 60  # the added crops' faces are dark


def test_shisensho_sheet_cells_map_to_their_tiles(tmp_path, monkeypatch):
    """The 9 x 5 sheet's rows: characters, bamboo, dots, then flowers (plum, orchid, BAMBOO,
    chrysanthemum) and seasons, then red, green and white dragon, E S W N and a joker."""
    sheet = np.zeros((5 * 148, 9 * 116, 4), np.uint8)
    for r in range(5):
        for c in range(9):
            sheet[r * 148:(r + 1) * 148, c * 116:(c + 1) * 116] = (10 * r, 10 * c, 200, 255)
    path = tmp_path / "tilescolor3.png"
    cv2.imwrite(str(path), sheet[:, :, [2, 1, 0, 3]])  # RGBA as cv2's BGRA
    monkeypatch.setitem(tile_art.SOURCES, "shisensho", (str(path), "pypi:shisensho==0.9.12"))
    tile_art._sheet.cache_clear()
    try:
        def cell(code):
            face = tile_art.load_face("shisensho", code)
            r, g = int(face[0, 0, 2]), int(face[0, 0, 1])  # BGR: red = 10 * row, green = 10 * column
            return r // 10, g // 10

        assert cell("1m") == (0, 0) and cell("9s") == (1, 8) and cell("1p") == (2, 0)
        assert [cell(c) for c in ("f1", "f2", "f3", "f4", "f8")] == [(3, 0), (3, 1), (3, 3), (3, 2), (3, 7)]
        assert [cell(c) for c in ("7z", "6z", "5z", "1z", "4z")] == [(4, 0), (4, 1), (4, 2), (4, 3), (4, 6)]
        assert tile_art.load_face("shisensho", BACK) is None
    finally:
        tile_art._sheet.cache_clear()


def test_pypi_art_takes_one_file_from_the_source_distribution(tmp_path, monkeypatch):
    import io
    import subprocess
    import tarfile

    from datasets import pypi_art

    def fake_pip(cmd, **kwargs):
        folder = Path(cmd[cmd.index("-d") + 1])
        with tarfile.open(folder / "shisensho-0.9.12.tar.gz", "w:gz") as tar:
            data = b"sheet bytes"
            info = tarfile.TarInfo("shisensho-0.9.12/shisensho/data/tilescolor3.png")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(pypi_art, "CACHE", tmp_path / "art")
    monkeypatch.setattr(pypi_art.subprocess, "run", fake_pip)
    assert pypi_art.fetch(["shisensho"]) == []
    assert (tmp_path / "art" / "shisensho-tilescolor3.png").read_bytes() == b"sheet bytes"
    # a source distribution without the file, or no network: named as failed, nothing written
    assert pypi_art.fetch(["unicode-glmahjongtile"]) == ["unicode-glmahjongtile"]
    monkeypatch.setattr(pypi_art.subprocess, "run",
                        lambda cmd, **kw: subprocess.CompletedProcess(cmd, 1, "", "no network"))
    assert pypi_art.fetch(["unicode-glmahjongtile"]) == ["unicode-glmahjongtile"]
    assert not (tmp_path / "art" / "GL-MahjongTile.ttf").exists()

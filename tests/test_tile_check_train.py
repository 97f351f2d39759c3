"""Tiny end-to-end run of the tile check's training: one epoch on a few small synthetic tables
with props, export to ONNX, torch and onnxruntime agree, and the runtime reads the exported
model with the threshold its sidecar names."""

from __future__ import annotations

import json

import numpy as np

import torch  # the `train` extra, which make test installs: without it this fails, never skips

from vision.tile_check import TileCheck, window  # noqa: E402
from vision.train_tile_check import GRID, build_net, choose_threshold, main as train_main, tradeoff  # noqa: E402
from vision.quad import TileQuad  # noqa: E402


def test_tiny_tile_check_train_export_and_onnx_parity(tmp_path):
    out = tmp_path / "check.onnx"
    assert train_main(["--tables", "3", "--check-tables", "2", "--epochs", "1", "--no-photos",
                       "--sizes", "640x480", "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["trained_on"]["synthetic_tables"] == 3 and meta["trained_on"]["hust_riichi_train_finds"] == 0
    assert meta["threshold"] in GRID
    assert [r["threshold"] for r in meta["measured"]["check_finds"]["by_threshold"]] == list(GRID)

    net = build_net()
    net.load_state_dict(torch.load(out.with_suffix(".pt")))
    net.eval()
    rng = np.random.default_rng(0)
    img = rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)
    quads = [TileQuad(np.array([[x, 60], [x + 30, 60], [x + 30, 100], [x, 100]], np.float32)) for x in (40, 150, 260)]
    with torch.no_grad():
        expected = torch.sigmoid(net(torch.from_numpy(np.stack([window(img, q) for q in quads])))).numpy().reshape(-1)
    check = TileCheck(out)
    got = check.probabilities(img, quads)
    assert np.allclose(expected, got, atol=1e-5), float(np.abs(expected - got).max())
    assert check.threshold == meta["threshold"]
    assert check.tiles(img, quads) == [q for q, p in zip(quads, got) if p >= check.threshold]


def test_the_threshold_is_a_step_below_the_highest_that_keeps_every_tile():
    p = np.array([0.9, 0.8, 0.03, 0.001, 0.3])  # three tiles, the lowest at 0.03
    y = np.array([1, 1, 1, 0, 0])
    rows = tradeoff(p, y)
    assert rows[GRID.index(0.05)]["tiles_dropped"] == 1 and rows[GRID.index(0.02)]["tiles_dropped"] == 0
    assert choose_threshold(rows) == 0.01
    assert rows[GRID.index(0.01)]["no_tile_dropped"] == 1


def test_dark_faces_draw_dark_procedural_tables_and_leave_the_others_as_they_were():
    """`--dark-faces SHARE` gives that share of the procedural training tables a set with dark
    faces; the draw is made only when the share is above 0, so tables without it stay as they
    were, and tables in a packaged style are never dark."""
    from datasets.synth_table import _pick_art
    from vision.train_tile_check import _table_samples

    def art_of(i):
        return _pick_art(np.random.default_rng([5, i]), "mixed")

    procedural = next(i for i in range(20) if art_of(i) is None)
    packaged = next(i for i in range(20) if art_of(i) is not None)

    def windows(i, dark):
        xs, ys, _ = _table_samples((5, i, i + 1, True, ((640, 480),), dark, 0.0, True))
        return np.stack(xs), np.array(ys)

    plain, ys = windows(procedural, 0.0)
    dark, yd = windows(procedural, 1.0)
    centre = slice(20, 28)
    assert np.median(dark[yd == 1][:, :3, centre, centre]) < np.median(plain[ys == 1][:, :3, centre, centre]) - 0.5
    a, b = windows(packaged, 0.0), windows(packaged, 1.0)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_a_rack_gives_a_tile_sized_piece_of_itself_as_no_tile():
    """`--racks SHARE` draws tile racks on that share of the tables and learns a tile-sized piece
    of each rack, often one of its ends (where the localiser finds tiles), as no tile."""
    import cv2

    from vision.train_tile_check import _prop_quads

    rack = np.array([[100, 200], [900, 200], [900, 290], [100, 290]], np.float32)  # 800 x 90
    rng = np.random.default_rng(0)
    pieces = [_prop_quads([{"kind": "rack", "quad": rack.tolist()}], rng)[0] for _ in range(40)]
    for q in pieces:
        assert 0.6 * 90 - 1 <= q.width <= 90 + 1 and 0.6 * 90 - 1 <= q.height <= 90 + 1
        assert all(cv2.pointPolygonTest(rack.reshape(-1, 1, 2), (float(x), float(y)), True) >= -1
                   for x, y in q.corners)
    at_ends = sum(min(q.center[0] - 100, 900 - q.center[0]) < 50 for q in pieces)
    assert 15 <= at_ends <= 35
    from vision.train_tile_check import _table_samples

    _, ys, is_prop = _table_samples((5, 0, 1, True, ((640, 480),), 0.0, 1.0, True))  # every table with racks
    assert sum(is_prop) >= 1 and all(y == 0 for y, p in zip(ys, is_prop) if p)
    # without the pieces (--no-rack-pieces) the table's own finds stay as they were, and no
    # outline of a rack is added (the props' outlines still are)
    _, ys2, is_prop2 = _table_samples((5, 0, 1, True, ((640, 480),), 0.0, 1.0, False))
    assert sum(is_prop2) < sum(is_prop)
    assert [y for y, p in zip(ys2, is_prop2) if not p] == [y for y, p in zip(ys, is_prop) if not p]

"""Tiny end-to-end run of the tile check's training: one epoch on a few small synthetic tables
with props, export to ONNX, torch and onnxruntime agree, and the runtime reads the exported
model with the threshold its sidecar names."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training tests need the `train` extra (pip install -e '.[train]')")

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

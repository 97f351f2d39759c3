"""Tiny end-to-end run of the tile localiser's training: a few steps on two synthetic tables,
export to ONNX, torch and onnxruntime agree, and the runtime reads the exported model."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

import torch  # the `train` extra, which make test installs: without it this fails, never skips

from datasets.synth_table import main as synth_main  # noqa: E402
from vision.localizer import MEAN, STD, TileLocalizer  # noqa: E402
from vision.train_localizer import build_net, main as train_main  # noqa: E402


def test_tiny_localiser_train_export_and_onnx_parity(tmp_path):
    tables = tmp_path / "tables"
    synth_main([str(tables), "--count", "2", "--width", "480", "--height", "360", "--seed", "3"])
    out = tmp_path / "loc.onnx"
    assert train_main(["--synth", str(tables), "--check", str(tables), "--steps", "3", "--batch", "2",
                       "--no-photos", "--text-share", "0.5", "--out", str(out)]) == 0
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["steps"] == 3 and meta["trained_on"] == {"hust_riichi_train_photos": 0, "synthetic_tables": 2}
    assert "blob_margin" in meta and "2 check tables" in meta["blob_margin_measured_on"]

    net = build_net()
    net.load_state_dict(torch.load(out.with_suffix(".pt")))
    net.eval()
    img = cv2.imread(str(sorted(tables.glob("*.jpg"))[0]))[:160, :224]  # multiples of the stride
    x = ((img[:, :, ::-1] / 255.0 - MEAN) / STD).transpose(2, 0, 1)[None].astype(np.float32)
    with torch.no_grad():
        expected = torch.sigmoid(net(torch.from_numpy(x))).numpy()[0, 0]
    got = TileLocalizer(out).heatmap(img)
    assert got.shape == expected.shape == (80, 112)
    assert np.allclose(expected, got, atol=1e-4), float(np.abs(expected - got).max())


def test_lettering_laid_over_a_crop_is_marked_as_no_tile():
    """The captions of a poster are no tile: where the letters go, the target is cleared."""
    from vision.train_localizer import CROP, _lettering

    rng = np.random.default_rng(5)
    for _ in range(20):
        x = np.full((CROP, CROP, 3), (90, 120, 60), np.uint8)
        y = np.ones((CROP // 2, CROP // 2), np.float32)
        _lettering(rng, x, y)
        changed = np.any(x != (90, 120, 60), axis=2)
        assert changed.any()
        # every changed pixel lies where the target was cleared (at half size)
        ys, xs = np.nonzero(changed)
        assert not y[ys // 2, xs // 2].any()
        assert y.any()  # the rest of the crop keeps its target


def test_a_net_started_from_an_export_answers_as_the_export(tmp_path):
    """--init-onnx: the export's folded weights loaded back give the export's heatmap, and the
    net's batch norms are handed back to be kept at their statistics while it learns on."""
    from pathlib import Path

    from vision.localizer import MODEL_PATH
    from vision.train_localizer import _load_onnx_weights

    net = build_net()
    frozen = _load_onnx_weights(net, Path(MODEL_PATH))
    assert len(frozen) == 15 and all(isinstance(b, torch.nn.BatchNorm2d) for b in frozen)
    net.eval()
    img = np.random.default_rng(0).integers(0, 255, (96, 128, 3), dtype=np.uint8)
    x = ((img[:, :, ::-1] / 255.0 - MEAN) / STD).transpose(2, 0, 1)[None].astype(np.float32)
    with torch.no_grad():
        expected = torch.sigmoid(net(torch.from_numpy(x))).numpy()[0, 0]
    got = TileLocalizer(MODEL_PATH).heatmap(img)
    assert np.allclose(expected, got, atol=1e-4), float(np.abs(expected - got).max())

    other = tmp_path / "other.onnx"
    import onnx

    model = onnx.load(str(MODEL_PATH))
    conv = next(n for n in model.graph.node if n.op_type == "Conv")
    model.graph.node.remove(conv)
    onnx.save(model, str(other))
    with pytest.raises(SystemExit, match="not this net's export"):
        _load_onnx_weights(build_net(), other)

"""The retrain command's plan: what it runs and where each step writes."""

from __future__ import annotations

from pathlib import Path

from models.retrain import ROOT, parser, plan


def _bench(steps):
    return next(cmd for cmd in steps if cmd[1].endswith("classifier.py"))


def test_a_retrain_into_place_measures_into_the_committed_results():
    steps = plan(parser().parse_args(["hust"]))
    assert [c[2] for c in steps[:2]] == ["datasets.fetch_art", "datasets.build_tile_dataset"]
    bench = _bench(steps)
    assert "--out" not in bench and "--pictures" not in bench
    joins = [c for c in steps if c[2] == "models.ensemble"]
    assert [Path(c[3]).name for c in joins] == ["tile_classifier.onnx", "bonus_classifier.onnx"]
    assert Path(joins[0][3]).parent == ROOT / "models"


def test_a_retrain_elsewhere_leaves_the_committed_results_alone(tmp_path):
    out = tmp_path / "tile_classifier.onnx"
    steps = plan(parser().parse_args(["hust", "--out", str(out), "--members", "1"]))
    trains = [c for c in steps if c[2] == "models.train"]
    assert [c[c.index("--out") + 1] for c in trains] == [str(out), str(tmp_path / "bonus_classifier.onnx")]
    bench = _bench(steps)
    assert bench[bench.index("--out") + 1] == str(tmp_path / "classifier")
    assert bench[bench.index("--pictures") + 1] == str(tmp_path)

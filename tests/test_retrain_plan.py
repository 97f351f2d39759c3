"""The retrain command's plan: what it runs and where each step writes."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_a_folder_as_out_takes_the_model_file_inside_it(tmp_path):
    steps = plan(parser().parse_args(["hust", "--out", str(tmp_path)]))
    joins = [c for c in steps if c[2] == "models.ensemble"]
    assert [c[3] for c in joins] == [str(tmp_path / "tile_classifier.onnx"), str(tmp_path / "bonus_classifier.onnx")]


def test_a_bad_out_or_dataset_folder_is_refused_before_any_step_runs(tmp_path, capsys, monkeypatch):
    import subprocess

    from models import retrain

    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("a step ran"))
    for argv, says in [([str(tmp_path), "--out", str(tmp_path / "nowhere" / "model")], "name an .onnx file"),
                       ([str(tmp_path / "missing")], "no such folder")]:
        with pytest.raises(SystemExit) as exit_:
            retrain.main(argv)
        assert exit_.value.code == 2 and says in capsys.readouterr().err


@pytest.mark.parametrize("option, value", [("--dark-faces", "0.15"), ("--dark-extra", "0.05"),
                                           ("--bonus-dark-extra", "0.1")])
def test_dark_set_options_reach_the_data_builder_only_when_asked_for(option, value):
    def build(argv):
        return next(c for c in plan(parser().parse_args(argv)) if c[2] == "datasets.build_tile_dataset")

    assert option not in build(["hust"])
    cmd = build(["hust", option, value])
    assert cmd[cmd.index(option) + 1] == value

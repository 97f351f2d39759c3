"""Eye labels of flower and season crops (datasets/eye_legibility.py) and the scoring built on
them: the files line up with the crops they name, crops drawn differently are refused, and the
benchmarks count what the labels say."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from conftest import load_benchmark
from datasets import eye_legibility
from scoring.tiles import BONUS, CLASSES


def _synth_test_codes() -> list[str]:
    """What each crop of the synthetic test shows, from its recipe alone (build_tile_dataset:
    parallel_synth(9_000_000, 43 * 100): chunks of 500, seeds 7919 apart, procedural sets only,
    classes in turn)."""
    codes = []
    for k, start in enumerate(range(0, 4300, 500)):
        seed = 9_000_000 + 7919 * k
        codes += [CLASSES[(i + seed) % len(CLASSES)] for i in range(min(500, 4300 - start))]
    return codes


def test_the_samples_labels_name_flowers_and_seasons_twice():
    data = eye_legibility.load_labels()
    truth = eye_legibility.truth_codes()
    assert len(truth) == eye_legibility.SAMPLE_SIZE == 320 and set(truth) == set(BONUS)
    for labels in (data["labels"], data["labels_again"]):
        assert all(label is None or label in BONUS for label in labels)
        named = [(label, code) for label, code in zip(labels, truth) if label is not None]
        assert 150 < len(named) < 300  # neither every crop nor none: the sample was read
        assert sum(label != code for label, code in named) <= 0.02 * len(named)  # a slip or two at most
    assert len(data["sha256"]) == 64 and data["fonts"]


def test_the_synthetic_tests_labels_are_its_flowers_and_seasons():
    data = json.loads(eye_legibility.SYNTH_TEST_LABELS.read_text())
    codes = _synth_test_codes()
    assert data["index"] == [i for i, c in enumerate(codes) if c in BONUS]
    named = [(label, codes[i]) for label, i in zip(data["labels"], data["index"]) if label is not None]
    assert all(label in BONUS for label, _ in named)
    assert 0.4 * len(data["index"]) < len(named) < 0.9 * len(data["index"])
    assert sum(label != code for label, code in named) <= 0.01 * len(named)


def _labelled_set(tmp_path, codes, labels):
    rng = np.random.default_rng(5)
    x = rng.integers(0, 256, (len(codes), 12, 9, 3), dtype=np.uint8)
    index = [i for i, c in enumerate(codes) if c in BONUS]
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"index": index, "sha256": eye_legibility.digest(x[index]), "labels": labels}))
    return x, path


def test_eye_flags_mark_only_the_flowers_and_seasons_left_unnamed(tmp_path):
    codes = ["1m", "f1", "f2", "back", "f5"]
    x, path = _labelled_set(tmp_path, codes, ["f1", None, "f6"])
    assert eye_legibility.eye_flags(x, codes, path).tolist() == [True, True, False, True, True]


def test_eye_labels_refuse_crops_drawn_differently(tmp_path):
    codes = ["1m", "f1", "f2"]
    x, path = _labelled_set(tmp_path, codes, ["f1", None])
    other = x.copy()
    other[2, 0, 0, 0] ^= 1  # one bit of one labelled crop
    with pytest.raises(eye_legibility.SampleChangedError, match="not the crops labelled"):
        eye_legibility.eye_flags(other, codes, path)
    with pytest.raises(eye_legibility.SampleChangedError, match="another set"):
        eye_legibility.eye_flags(x, ["f1", "1m", "f2"], path)
    path.write_text(json.dumps({"index": [1, 2], "sha256": "0" * 64, "labels": ["f1", "9m"]}))
    with pytest.raises(eye_legibility.LabelsError, match="'9m'"):
        eye_legibility.eye_flags(x, codes, path)


def test_the_classifier_benchmark_scores_unreadable_crops_by_either_flags():
    bench = load_benchmark("classifier")
    labels = ["f1", "f1", "f1", "f1", "2m"]
    reads = ["f1", "f5", "f5", "3m", "3m"]
    judge = [True, False, True, False, True]
    eye = [True, True, False, False, True]
    s = bench.score_readings(reads, labels, judge, eye)
    # f1 read as f5: fair where the flag says unreadable; read as 3m: never (no bonus tile)
    assert s["per_class"]["f1"]["acc"] == 0.25
    assert s["per_class"]["f1"]["acc_dontcare"] == 0.5 and s["per_class"]["f1"]["acc_dontcare_eye"] == 0.5
    assert s["per_class"]["f1"]["illegible"] == 2 and s["per_class"]["f1"]["unreadable_eye"] == 2
    assert s["per_class"]["2m"]["acc_dontcare_eye"] == 0.0
    assert s["acc_dontcare_eye"] == pytest.approx(2 / 5) and s["unreadable_eye"] == 2
    assert "acc_dontcare_eye" not in bench.score_readings(reads, labels, judge)


def test_the_legibility_benchmark_counts_agreement_and_a_second_reading():
    bench = load_benchmark("legibility")
    truth = ["f1", "f2", "f3", "f4"]
    first = ["f1", None, "f3", None]
    again = ["f1", "f6", None, None]
    s = bench.compare(truth, first, ["f1", "f2", "f7", "f8"], np.array([True, True, False, False]))
    assert (s["named"], s["reader_right_named"], s["reader_right_unnamed"], s["unnamed_read_as_bonus"]) == (2, 1, 1, 2)
    assert s["named_misreads"] == [[2, "f3", "f7"]]
    assert s["judge"] == {"agree": 0.5, "legible_named": 1, "legible_unnamed": 1, "illegible_named": 1,
                          "illegible_unnamed": 1}
    assert s["per_class"]["f3"]["dontcare_judge"] == 1.0 and s["per_class"]["f3"]["dontcare_eye"] == 0.0
    c = bench.consistency(first, again, truth)
    assert c == {"agree": 0.5, "named_both": 1, "named_first_only": 1, "named_again_only": 1, "named_again": 2,
                 "named_wrong_again": 1}


def test_contact_sheets_are_shuffled_and_say_where_each_crop_went(tmp_path):
    bench = load_benchmark("legibility")
    crops = np.stack([np.full((8, 6, 3), 10 * k, np.uint8) for k in range(10)])
    paths = bench.contact_sheets(crops, tmp_path, seed=3, per=4, cols=2, scale=1)
    order = json.loads((tmp_path / "order.json").read_text())
    assert sorted(order) == list(range(10)) and order != list(range(10))
    assert len(paths) == 6 and {p.name for p in paths} >= {"drawn_0.png", "turned_2.png"}
    sheet = cv2.imread(str(tmp_path / "drawn_0.png"))
    assert sheet[18, 0].tolist() == [10 * order[0]] * 3  # the first cell holds the crop order names

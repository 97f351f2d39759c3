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
    assert len(data["crop_sha256"]) == len(truth) and all(len(h) == 16 for h in data["crop_sha256"])


def test_the_synthetic_tests_labels_are_its_flowers_and_seasons():
    data = json.loads(eye_legibility.SYNTH_TEST_LABELS.read_text())
    codes = _synth_test_codes()
    assert data["index"] == [i for i, c in enumerate(codes) if c in BONUS]
    named = [(label, codes[i]) for label, i in zip(data["labels"], data["index"]) if label is not None]
    assert all(label in BONUS for label, _ in named)
    assert 0.4 * len(data["index"]) < len(named) < 0.9 * len(data["index"])
    assert sum(label != code for label, code in named) <= 0.01 * len(named)
    assert len(data["crop_sha256"]) == len(data["index"]) and len(set(data["crop_sha256"])) == len(data["index"])


def _labelled_set(tmp_path, codes, labels, per_crop: bool = True):
    rng = np.random.default_rng(5)
    x = rng.integers(0, 256, (len(codes), 12, 9, 3), dtype=np.uint8)
    index = [i for i, c in enumerate(codes) if c in BONUS]
    path = tmp_path / "labels.json"
    data = {"index": index, "sha256": eye_legibility.digest(x[index]), "labels": labels}
    if per_crop:
        data["crop_sha256"] = eye_legibility.crop_digests(x[index])
    path.write_text(json.dumps(data))
    return x, path


def test_eye_flags_mark_only_the_flowers_and_seasons_left_unnamed(tmp_path):
    codes = ["1m", "f1", "f2", "back", "f5"]
    x, path = _labelled_set(tmp_path, codes, ["f1", None, "f6"])
    flags, off = eye_legibility.eye_flags(x, codes, path)
    assert flags.tolist() == [True, True, False, True, True] and off == 0


def test_eye_labels_refuse_crops_drawn_differently(tmp_path):
    codes = ["1m", "f1", "f2"]
    x, path = _labelled_set(tmp_path, codes, ["f1", None])
    other = x.copy()
    other[2, 0, 0, 0] ^= 1  # one bit of one labelled crop: half the labelled crops are off
    with pytest.raises(eye_legibility.SampleChangedError, match="only 1 of them are as labelled"):
        eye_legibility.eye_flags(other, codes, path, fallback=np.ones(3, bool))
    _, bare = _labelled_set(tmp_path, codes, ["f1", None], per_crop=False)
    with pytest.raises(eye_legibility.SampleChangedError, match="no SHA-256 of each crop"):
        eye_legibility.eye_flags(other, codes, bare)
    with pytest.raises(eye_legibility.SampleChangedError, match="another set"):
        eye_legibility.eye_flags(x, ["f1", "1m", "f2"], path)
    path.write_text(json.dumps({"index": [1, 2], "sha256": "0" * 64, "labels": ["f1", "9m"]}))
    with pytest.raises(eye_legibility.LabelsError, match="'9m'"):
        eye_legibility.eye_flags(x, codes, path)


def test_a_few_crops_drawn_a_little_off_take_the_fallback_flags(tmp_path):
    """A library release that moves a few pixels of a few crops (OpenCV 5.1.0 against 5.0.0: 7 of
    the synthetic test's 4,300) leaves the rest labelled; the crops off take the judge's flags,
    and are counted.  Too many off, and the labels are refused."""
    codes = ["1m"] + ["f1", "f2", "f3", "f4"] * 5
    labels = [None if i % 3 == 0 else c for i, c in enumerate(codes[1:])]
    x, path = _labelled_set(tmp_path, codes, labels)
    off = x.copy()
    off[3, 4, 4, 1] ^= 2  # one pixel of the third labelled crop (labelled "f3"), two grey levels off
    judge = np.zeros(len(codes), bool)
    flags, n_off = eye_legibility.eye_flags(off, codes, path, fallback=judge)
    expected, _ = eye_legibility.eye_flags(x, codes, path)
    expected[3] = False  # the judge's flag, not the label's
    assert n_off == 1 and flags.tolist() == expected.tolist()
    with pytest.raises(eye_legibility.SampleChangedError, match="no other flags"):
        eye_legibility.eye_flags(off, codes, path)
    off[1:3] ^= 1  # three of twenty off: under MIN_SAME_CROPS
    with pytest.raises(eye_legibility.SampleChangedError, match="only 17 of them are as labelled"):
        eye_legibility.eye_flags(off, codes, path, fallback=judge)


def test_the_sample_keeps_only_the_crops_drawn_as_labelled(tmp_path, monkeypatch):
    crops = np.random.default_rng(3).integers(0, 256, (eye_legibility.SAMPLE_SIZE, 6, 4, 3), dtype=np.uint8)
    drawn = crops.copy()
    drawn[7, 0, 0, 0] ^= 1
    monkeypatch.setattr(eye_legibility, "draw_sample", lambda workers=2: (drawn, drawn + 1, drawn + 2))
    truth = eye_legibility.truth_codes()
    labels = [c if i % 2 else None for i, c in enumerate(truth)]
    path = tmp_path / "sample.json"
    path.write_text(json.dumps({"sha256": eye_legibility.digest(crops), "labels": labels, "labels_again": labels,
                                "crop_sha256": eye_legibility.crop_digests(crops)}))
    own, partner, counterpart, data = eye_legibility.checked_sample(path)
    keep = np.arange(eye_legibility.SAMPLE_SIZE) != 7
    assert data["same_crops"] == eye_legibility.SAMPLE_SIZE - 1 == len(own) == len(data["labels"])
    assert np.array_equal(own, drawn[keep]) and np.array_equal(counterpart, drawn[keep] + 2)
    assert data["truth"] == [c for c, k in zip(truth, keep) if k] and data["labels_again"] == data["labels"]
    assert data["labels"] == [label for label, k in zip(labels, keep) if k]


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

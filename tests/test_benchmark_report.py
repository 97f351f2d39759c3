"""The recognition benchmark's report says how much this machine's second core adds: the
pipeline keeps two cores busy, and on a busy host the second may add little (a 12 MP blur
1.27 times as fast on two threads as on one, 2026-11-27), which the one-thread references hide."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from conftest import load_benchmark


def _recognition_benchmark():
    return load_benchmark("recognition")


def _latency(reference: dict) -> dict:
    return {"command": "python benchmarks/recognition.py --latency-only",
            "latency": {"median_ms": 190.0, "min_ms": 160.0, "pipeline_peak_rss_mb": 260.0,
                        "stages_median_ms": {"decode": 47.0, "detect": 100.0, "layout": 6.0,
                                             "classify": 36.0, "hands": 2.0},
                        "tiles_found": 56, "true_tiles": 56, "scored": True,
                        "machine_reference": reference}}


def test_the_report_says_what_the_second_core_adds():
    bench = _recognition_benchmark()
    md = bench.to_markdown(_latency({"python_loop_ms": 115.0, "blur_12mp_ms": 46.9,
                                     "blur_12mp_two_threads_ms": 36.8}))
    assert "blur on one thread 46.9 ms (36.8 ms on two threads: the second core made it 1.27 times as fast)" in md


def test_a_report_of_an_older_run_without_the_two_thread_blur_still_renders():
    bench = _recognition_benchmark()
    md = bench.to_markdown(_latency({"python_loop_ms": 115.0, "blur_12mp_ms": 44.1}))
    assert "blur on one thread 44.1 ms. Latencies" in md


def test_the_machine_reference_times_the_blur_on_one_and_two_threads():
    ref = _recognition_benchmark().machine_reference_ms(repeats=1)
    assert set(ref) == {"python_loop_ms", "blur_12mp_ms", "blur_12mp_two_threads_ms"}
    assert all(v > 0 for v in ref.values())


def test_a_props_run_counts_finds_that_are_no_tile_and_keeps_its_failures():
    bench = _recognition_benchmark()
    r = bench.bench_synthetic(1, 1, None, (1280, 960), props=True)
    assert r["props"] is True and "failures" in r
    nt = r["full"]["finds_that_are_no_tile"]
    assert set(nt) == {"finds", "on_props", "tables", "props"} and nt["props"] > 0
    md = "\n".join(bench._synthetic_markdown(r))
    assert "with dice, scoring sticks, coins or chips" in md and "Finds that are no tile" in md
    checking = r["full"]["checking"]
    assert checking["misread_marked"] <= checking["misread"] and checking["misread_offered"] <= checking["misread"]
    assert checking["wrong_tables_all_marked"] <= checking["wrong_tables"] <= 1
    assert "Checking on the web page: it marks" in md


def test_checking_counts_the_marked_tiles_and_the_misread_ones_the_picker_offers_right():
    """A tile is marked when read with under vision.sets.LOW_CONFIDENCE; a misread tile is
    offered right when its true kind is among its three likeliest readings."""
    bench = _recognition_benchmark()

    def true_tile(code, x):
        return {"code": code, "quad": [[x, 0], [x + 10, 0], [x + 10, 14], [x, 14]]}

    def found(code, x, confidence, candidates):
        return SimpleNamespace(code=code, confidence=confidence, candidates=candidates, face_down=code == "back",
                               quad=SimpleNamespace(center=np.array([x + 5.0, 7.0])))

    table = SimpleNamespace(tiles=[true_tile("1m", 0), true_tile("2m", 20), true_tile("f2", 40),
                                   true_tile("back", 60), true_tile("5p", 80)])
    rec = SimpleNamespace(tiles=[
        found("1m", 0, 0.95, [("1m", 0.95), ("7m", 0.03)]),  # right, sure
        found("3m", 20, 0.50, [("3m", 0.50), ("2m", 0.40), ("5m", 0.05)]),  # misread, marked, offered
        found("f3", 40, 0.70, [("f3", 0.70), ("f4", 0.20), ("f1", 0.05), ("f2", 0.04)]),  # 4th is not offered
        found("back", 60, 0.99, [("back", 0.99)]),  # face down: not counted
        found("5p", 80, 0.55, [("5p", 0.55), ("6p", 0.40)]),  # right, marked
    ])
    assert bench._checking(rec, bench._true_codes(rec, table)) == {"marked": 2, "misread": 2, "misread_marked": 1, "misread_offered": 1}


def test_a_dark_run_draws_dark_faced_sets_and_the_report_says_so():
    bench = _recognition_benchmark()
    r = bench.bench_synthetic(1, 1, None, (1280, 960), dark=True)
    assert r["art"] == "procedural, dark faces"
    md = bench.to_markdown({"command": "x", "synthetic_dark": [r]})
    assert "art style procedural, dark faces" in md and "scores exactly right" in md


def test_the_hust_figures_are_also_given_with_the_sets_wrong_labels_put_right():
    bench = _recognition_benchmark()
    row = {"true_tiles": 1636, "recall_iou50": 1.0, "false_detections": 0, "median_ms_per_photo": 80.0}
    hust = {"photos": 81, "split": "datasets/splits/hust-riichi.json", "labels_corrected": 1,
            "mjscore": {**row, "per_tile_accuracy": 0.9994, "per_tile_accuracy_labels_corrected": 1.0},
            "mahjong_detector": {**row, "per_tile_accuracy": 0.4707, "per_tile_accuracy_labels_corrected": 0.4713}}
    md = bench.to_markdown({"command": "x", "hust_riichi": hust})
    assert "| mjscore | 1636 | 100.00% | 99.94% |" in md
    assert ("Per-tile accuracy with the set's wrong labels put right (datasets/splits/hust-riichi-errata.json: "
            "1 of these tiles): mjscore 100.00%, mahjong_detector 47.13%.") in md


def test_the_classifier_benchmark_judges_the_same_readings_against_the_corrected_labels():
    bench = load_benchmark("classifier")
    fixed = bench.labels_corrected(["7z", "1m", "2m"], ["4m", "1m", "2m"], ["7z", "1m", "2m"])
    assert fixed == {"n": 3, "acc": 1.0, "labels_corrected": 1, "errors": []}
    fixed = bench.labels_corrected(["4m", "1m", "3m"], ["4m", "1m", "2m"], ["7z", "1m", "2m"])
    assert fixed["acc"] == pytest.approx(1 / 3) and fixed["errors"] == [("7z", "4m"), ("2m", "3m")]


def test_the_views_of_the_real_photos_are_a_table_of_their_own_and_an_error_is_said():
    bench = _recognition_benchmark()
    views = {"photos": 81, "views": [
        {"view": "turned 90", "turn_deg": 90, "tilt_deg": 0, "true_tiles": 1636, "recall_iou50": 1.0,
         "per_tile_accuracy": 0.9994, "false_detections": 30,
         "photos_not_perfect": [{"image": "a.jpg", "tiles": 0, "found": 0, "right": 0, "extra": 30}]},
        {"view": "tilted 35", "turn_deg": 0, "tilt_deg": 35, "true_tiles": 1636, "recall_iou50": 0.9566,
         "per_tile_accuracy": 0.9444, "false_detections": 112, "photos_not_perfect": []}]}
    md = bench.to_markdown({"command": "x", "hust_riichi_views": views})
    assert "## hust-riichi test photos, the camera turned or tilted, or other light (81 photos each; labels put right)" in md
    assert "| turned 90 | 1636 | 100.00% | 99.94% | 30 | 1 |" in md
    assert "| tilted 35 | 1636 | 95.66% | 94.44% | 112 | 0 |" in md
    md = bench.to_markdown({"command": "x", "hust_riichi_views": {"error": "classifier not available: gone"}})
    assert "classifier not available: gone" in md
    assert bench.VIEWS[0] == ("turned 30", 30, 0) and all(len(v) == 3 for v in bench.VIEWS)


def test_a_racks_run_counts_the_racks_and_the_finds_on_them():
    bench = _recognition_benchmark()
    r = bench.bench_synthetic(1, 1, None, (1280, 960), racks=True)
    assert r["racks"] is True and r["props"] is False
    nt = r["full"]["finds_that_are_no_tile"]
    assert nt["props"] == 4 and 0 <= nt["on_props"] <= nt["finds"]
    md = "\n".join(bench._synthetic_markdown(r))
    assert "with a tile rack behind each seat's row" in md
    assert f"({nt['on_props']} on the 4 racks)" in md


@pytest.mark.parametrize("name, argv", [
    ("recognition", ["--synthetic", "1", "--phone", "0", "--latency", "0"]),
    ("classifier", []),
])
def test_a_benchmark_refuses_to_start_without_the_held_out_art(name, argv, monkeypatch, tmp_path, capsys):
    """Both benchmarks measure the unseen style (xmahjongg's `real` scans): without its art they
    stop before any work, naming the package, instead of drawing procedural tiles under its name
    (or failing on a missing test set after the real photos' part)."""
    from datasets import tile_art

    monkeypatch.setitem(tile_art.SOURCES, "xmahjongg-real", (str(tmp_path / "real.gif"), "xmahjongg"))
    bench = load_benchmark(name)
    with pytest.raises(SystemExit) as stop:
        bench.main([str(tmp_path / "hust-riichi"), *argv, "--out", str(tmp_path / "out")])
    assert stop.value.code == 2
    assert "Debian package xmahjongg" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.json").exists()


def test_the_misread_sheet_shows_the_legible_flowers_and_seasons_read_wrong(tmp_path):
    """The classifier benchmark's contact sheet holds only flowers and seasons judged legible and
    read wrong: not an illegible one, not a suit tile read wrong, not one read right."""
    bench = load_benchmark("classifier")
    crops = [np.full((96, 72, 3), v, np.uint8) for v in (40, 80, 120, 160, 200)]
    labels = ["f1", "f2", "f3", "1m", "f5"]
    preds = ["f5", "f6", "f3", "2m", "f1"]
    legible = [True, False, True, True, True]
    out = tmp_path / "sheet.jpg"
    assert bench.misread_sheet(crops, labels, preds, legible, out, "title") == 2
    sheet = cv2.imread(str(out))
    assert sheet.shape[1] == 8 * (2 * 72 + 4) and sheet.shape[0] == 26 + 2 * 96 + 20
    assert bench.misread_sheet(crops, labels, labels, legible, tmp_path / "none.jpg", "title") == 0
    assert not (tmp_path / "none.jpg").exists()

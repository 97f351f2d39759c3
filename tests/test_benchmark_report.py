"""The recognition benchmark's report says how much this machine's second core adds: the
pipeline keeps two cores busy, and on a busy host the second may add little (a 12 MP blur
1.27 times as fast on two threads as on one, 2026-11-27), which the one-thread references hide."""

from __future__ import annotations

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


def test_a_dark_run_draws_dark_faced_sets_and_the_report_says_so():
    bench = _recognition_benchmark()
    r = bench.bench_synthetic(1, 1, None, (1280, 960), dark=True)
    assert r["art"] == "procedural, dark faces"
    md = bench.to_markdown({"command": "x", "synthetic_dark": [r]})
    assert "art style procedural, dark faces" in md and "scores exactly right" in md

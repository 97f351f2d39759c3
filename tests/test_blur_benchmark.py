"""The blur benchmark's summary: per photo size and blur, and how often the warning fires on
photos by how many of their tiles were misread (fabricated rows: no recognition runs here)."""

from __future__ import annotations

from conftest import load_benchmark


def _blur_benchmark():
    return load_benchmark("blur")


def _row(blur, share, measured, warned, seen, misread, size="2000x1500"):
    return {"table": 0, "size": size, "art": "procedural", "tile_px": 37.0, "blur": blur, "share": share,
            "measured": measured, "measured_px": None if measured is None else measured * 37,
            "warned": warned, "face_up_seen": seen, "misread": misread}


def test_the_summary_counts_warnings_by_blur_and_by_misread_share():
    bench = _blur_benchmark()
    rows = [_row("sharp", 0.0, 0.06, False, 50, 0), _row("sharp", 0.0, None, False, 40, 0),
            _row("gaussian", 0.05, 0.15, True, 50, 2), _row("smear", 0.3, 0.2, True, 50, 20),
            _row("smear", 0.3, 0.18, False, 0, 0)]
    s = bench.summarise(rows)
    assert s["sharp_photos"] == 2 and s["sharp_photos_warned"] == 0
    by = {(b["size"], b["blur"], b["share"]): b for b in s["by_blur"]}
    assert by[("2000x1500", "sharp", 0.0)]["measured"] == [0.06, 0.06]  # the unmeasured photo left out
    assert by[("2000x1500", "smear", 0.3)] == {"size": "2000x1500", "blur": "smear", "share": 0.3, "photos": 2,
                                               "measured": [0.18, 0.2], "misread": 0.4, "warned": 1}
    assert by[("2000x1500", "gaussian", 0.02)]["photos"] == 0  # a blur no photo had
    bands = [(b["misread_from"], b["photos"], b["warned"]) for b in s["by_misread"]]
    assert bands == [(0.0, 2, 0), (0.01, 0, 0), (0.03, 1, 1), (0.1, 1, 1)]  # a photo of no tile in none
    text = bench.to_markdown({"command": "python benchmarks/blur.py", "seconds": 1.0, "summary": s})
    assert "| 2000x1500 | smear 0.300 | 2 | 0.180-0.200 | 40.0% | 1 |" in text
    assert "| 10% or more | 1 | 1 |" in text and "Sharp photos warned: 0 of 2." in text

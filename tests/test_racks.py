"""Tile racks on synthetic tables (datasets/racks.py): one behind each seat's row, clear of the
tiles, listed with the props, and drawn only when asked for."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.racks import rack_outline
from datasets.synth_table import make_table


def _overlap_area(a, b) -> float:
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return float(area)


def test_a_rack_lies_behind_each_seats_row_clear_of_its_tiles():
    for seed in range(4):
        t = make_table(np.random.default_rng(seed), (1280, 960), racks=True, single=seed == 3)
        racks = [p for p in t.props if p["kind"] == "rack"]
        assert len(racks) == (1 if seed == 3 else 4)
        for rack in racks:
            quad = np.array(rack["quad"])
            assert all(_overlap_area(quad, tile["quad"]) < 1.0 for tile in t.tiles)
            # a long bar: about 14-20 tiles long, its depth under three tiles' widths
            sides = sorted(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1))
            assert sides[-1] > 5 * sides[0]
        # each rack is nearer to its own seat's tiles than to any other seat's
        seats = sorted({tile["seat"] for tile in t.tiles})
        centres = {s: np.mean([np.mean(tile["quad"], axis=0) for tile in t.tiles if tile["seat"] == s], axis=0)
                   for s in seats}
        nearest = [min(seats, key=lambda s: np.linalg.norm(np.mean(r["quad"], axis=0) - centres[s])) for r in racks]
        assert sorted(nearest) == seats


def test_a_rack_is_painted_where_its_outline_says():
    t = make_table(np.random.default_rng(5), (1280, 960), racks=True, surface="felt")
    plain = make_table(np.random.default_rng(5), (1280, 960), racks=False, surface="felt")
    assert plain.props == []
    rack = next(p for p in t.props if p["kind"] == "rack")
    mask = np.zeros(t.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.array(rack["quad"])).astype(np.int32), 1)
    ring = cv2.dilate(mask, np.ones((25, 25), np.uint8)) - cv2.dilate(mask, np.ones((9, 9), np.uint8))
    inside = np.median(t.image[cv2.erode(mask, np.ones((5, 5), np.uint8)) > 0].astype(np.float32), axis=0)
    around = np.median(t.image[ring > 0].astype(np.float32), axis=0)
    assert np.abs(inside - around).max() > 20, (inside, around)  # not the felt's colour


def test_rack_outline_sits_behind_the_row():
    rng = np.random.default_rng(0)
    for _ in range(50):
        r = rack_outline(rng, (100.0, 700.0), 500.0, 48.0)
        c = r["corners"]
        assert c[:, 1].min() >= 500.0 + 0.1 * 48 - 1e-6  # behind the row's near edge
        assert 14 * 48 - 1e-6 <= c[1, 0] - c[0, 0] <= 20 * 48 + 1e-6
        assert 1.3 * 48 - 1e-6 <= c[2, 1] - c[1, 1] <= 2.8 * 48 + 1e-6
        assert 0.25 <= r["lip"] <= 0.45

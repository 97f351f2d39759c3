"""The localiser's geometry: heatmap blobs to tile quads, runs of touching tiles cut apart."""

from __future__ import annotations

import numpy as np

from vision.localizer import CORE, quads_from_heatmap


def _heatmap(cores: list[tuple[float, float, float, float]], size=(200, 300), merged: bool = False,
             dip: float = 0.9) -> np.ndarray:
    """A heatmap with a filled rectangle (x, y, w, h) per tile core.  `merged`: the net ran the
    cores of these touching tiles together, filling the gaps between them with `dip`."""
    prob = np.zeros(size, np.float32)
    for x, y, w, h in cores:
        prob[int(y):int(y + h), int(x):int(x + w)] = 1.0
    if merged:
        for (x, y, w, h), (x2, _y2, _w2, _h2) in zip(cores, cores[1:]):
            prob[int(y):int(y + h), int(x + w):int(x2)] = dip
    return prob


def test_single_tiles_come_out_one_each():
    cores = [(20 + 14 * i, 40, 7, 10) for i in range(6)]  # gaps between cores: separate blobs
    quads = quads_from_heatmap(_heatmap(cores), scale=2.0)
    assert len(quads) == 6
    widths = sorted(q.width for q in quads)
    assert abs(np.median(widths) - 2.0 * 7 / CORE) < 2.5


def test_a_run_of_touching_tiles_is_cut_into_its_tiles():
    singles = [(20 + 14 * i, 40, 7, 10) for i in range(5)]
    # four touching tiles (a tile apart: core width / CORE, plus a little) run together
    pitch = 7 / CORE * 1.1
    run = [(30 + pitch * i, 100, 7, 10) for i in range(4)]
    prob = _heatmap(singles) + _heatmap(run, merged=True)
    quads = quads_from_heatmap(prob, scale=2.0)
    assert len(quads) == 9
    run_quads = sorted((q for q in quads if q.center[1] > 150), key=lambda q: q.center[0])
    xs = [q.center[0] / 2.0 for q in run_quads]  # back in heatmap pixels
    assert np.allclose(np.diff(xs), pitch, atol=1.5), xs


def test_a_slanted_single_tile_is_not_cut():
    """A tile seen at a steep angle is as long as two, but has one tile's area."""
    singles = [(20 + 14 * i, 40, 7, 10) for i in range(5)]
    slanted = [(60, 110, 14, 5)]
    quads = quads_from_heatmap(_heatmap(singles) + _heatmap(slanted), scale=2.0)
    assert len(quads) == 6


def test_a_cut_follows_the_gap_between_sets():
    """Two sets whose cores the net joined across the gap: the cut goes to the deepest dip."""
    singles = [(20 + 14 * i, 40, 7, 10) for i in range(5)]
    prob = _heatmap(singles)
    prob[100:110, 30:49] = 1.0  # one blob, two cores a tile apart, the seam off-centre
    prob[100:110, 37:39] = 0.6
    quads = quads_from_heatmap(prob, scale=2.0)
    run = sorted((q for q in quads if q.center[1] > 150), key=lambda q: q.center[0])
    assert len(run) == 2
    assert run[0].center[0] / 2.0 < 37 < run[1].center[0] / 2.0


def test_a_run_whose_cores_lie_closer_than_the_usual_pitch_is_cut_by_the_row_s_own():
    """A side seat's column at 1280x960 (seed 99's table 92, as the net saw it): single cores
    about 14 across the row and 10 along it, 14-15 apart, closer than the usual pitch (1.1 / CORE
    core widths: 18.3), and three touching 7s run together into one blob 38-39 long.  By the
    usual pitch it fitted neither two tiles nor three and was kept whole; by the pitch of the
    row's own single cores it holds three."""
    prob = np.zeros((300, 200), np.float32)
    for y in (33, 47, 62, 76, 91, 105, 164, 178, 193, 207):  # single cores 10 long, 14-15 apart
        prob[y:y + 10, 50:64] = 1.0
    prob[120:159, 50:64] = 1.0  # three cores 14 and 15 apart, joined
    prob[130:134, 50:64] = prob[144:149, 50:64] = 0.9
    quads = quads_from_heatmap(prob, scale=2.0)
    assert len(quads) == 13
    run = sorted((q for q in quads if 240 < q.center[1] < 318), key=lambda q: q.center[1])
    assert len(run) == 3
    assert np.allclose(np.diff([q.center[1] / 2.0 for q in run]), 14.5, atol=2), [q.center for q in run]


def test_tiles_cut_by_the_look_s_edge_do_not_measure_the_row_below():
    """Seed 2024's table 26 at 1600x1200: a region's box ran through a row of tiles, and the
    net's map of that look (stored as it came, 0-255) held their fragments along its top edge.
    Taken as the measure of one tile's core, they made each whole tile of the row below look
    like two tiles stacked, and each was cut in two across.  Blobs cut by the map's edge measure
    nothing: the row below comes out one find per tile."""
    from pathlib import Path

    prob = np.load(Path(__file__).parent / "data" / "cut_row_heatmap.npz")["prob"] / 255.0
    quads = quads_from_heatmap(prob, scale=1.0, margin=0.94)
    row = sorted((q for q in quads if q.center[1] > 20), key=lambda q: q.center[0])
    assert [round(q.center[0]) for q in row] == [37, 58, 80, 100, 126]
    assert all(35 <= q.center[1] <= 48 for q in row)

"""Small finds among tiles: a real tile found too small is kept at its neighbours' size, a speck
in the gap between two sets is dropped (vision.false_finds.without_specks)."""

import numpy as np

from vision.detect import without_specks
from vision.quad import TileQuad


def _quad(cx: float, cy: float, w: float, h: float) -> TileQuad:
    return TileQuad(np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2],
                              [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]], np.float32))


def test_a_tile_found_too_small_is_grown_to_its_neighbours_size():
    row = [_quad(100 + 30 * k, 200, 30, 40) for k in range(8)]
    row[3] = _quad(190, 200, 14, 38)  # a dark face-down tile the net lit up only in part
    out = without_specks(row)
    assert len(out) == 8
    grown = min(out, key=lambda q: abs(q.center[0] - 190))
    assert abs(grown.width - 30) < 1 and abs(grown.height - 40) < 1


def test_specks_between_sets_are_dropped():
    left = [_quad(100 + 30 * k, 200, 30, 40) for k in range(4)]   # ends at x = 205
    right = [_quad(230 + 30 * k, 200, 30, 40) for k in range(4)]  # starts at x = 215: a 10 px gap
    tiny = _quad(210, 200, 8, 14)      # far under the neighbours' size
    squeezed = _quad(210, 200, 14, 38)  # grown to a tile it would overlap both neighbours
    centres = sorted(tuple(q.center) for q in left + right)
    for finds in (left + right + [tiny], left + right + [squeezed], left + right):
        assert sorted(tuple(q.center) for q in without_specks(finds)) == centres

"""A concealed kong whose face-down ends the localiser missed gets them back; cloth does not."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from vision.kong_ends import missed_kong_ends
from vision.layout import group_tiles
from vision.quad import TileQuad

CLOTH = (60, 120, 60)
FACE = (225, 235, 240)
BACK = (90, 40, 20)  # navy
W, H, TOP = 30, 40, 200
RUN = list(range(9))  # the concealed run: places 0-8; the kong lies at places 11-14


def _quad(place: int) -> TileQuad:
    x0 = 50 + place * W
    return TileQuad(np.array([[x0, TOP], [x0 + W, TOP], [x0 + W, TOP + H], [x0, TOP + H]], np.float32))


def _table(backs: set[int]) -> np.ndarray:
    img = np.zeros((400, 600, 3), np.uint8)
    img[:] = CLOTH
    for p in RUN + [12, 13] + sorted(backs):
        x0 = 50 + p * W
        img[TOP:TOP + H, x0 + 1:x0 + W - 1] = BACK if p in backs else FACE
        if p not in backs:
            img[TOP + 12:TOP + 28, x0 + 10:x0 + 20] = (40, 30, 160)
    return img


def _reader(crops, quads):
    """Reads a dark crop as a back, anything else as a face."""
    return [SimpleNamespace(code="back" if float(np.mean(c)) < 110 else "5p", confidence=0.9) for c in crops]


def _unsure_reader(crops, quads):
    """Reads everything as a back, unsurely (the classifier on plain wood or felt)."""
    return [SimpleNamespace(code="back", confidence=0.3) for c in crops]


def _ends(img, codes_of_kong, found_places, reader=_reader):
    found = [_quad(p) for p in RUN + found_places]
    layout = group_tiles(found)
    codes = ["1m"] * len(RUN) + codes_of_kong
    return missed_kong_ends(img, layout, codes, found, reader)


@pytest.mark.parametrize("codes, found, backs, want", [
    (["5p", "5p"], [12, 13], {11, 14}, [11, 14]),  # both backs missed (seed 2024, table 105)
    (["back", "5p", "5p"], [11, 12, 13], {11, 14}, [14]),  # one missed (seed 7, tables 0 and 46)
    (["5p", "5p"], [12, 13], set(), []),  # a pair laid apart on bare cloth
    (["5p", "5p"], [12, 13], {11}, []),  # a kong needs both its ends
    (["5p", "6p"], [12, 13], {11, 14}, []),  # two unlike tiles are no kong
])
def test_a_concealed_kongs_missed_backs_are_put_back(codes, found, backs, want):
    got = _ends(_table(backs), codes, found)
    assert sorted(round(float(q.center[0])) for q in got) == [round(float(_quad(p).center[0])) for p in want]


def test_an_end_read_as_a_back_unsurely_is_not_taken():
    """hust-riichi: beside two pairs of like tiles on pale wood, the wood read as backs at
    0.16-0.33."""
    assert _ends(_table({11, 14}), ["5p", "5p"], [12, 13], _unsure_reader) == []

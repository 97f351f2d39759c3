"""Face-down ends of a concealed kong that the localiser missed.

LAYOUT.md lays a concealed kong as back, face, face, back.  A back of the cloth's colour (a
navy back on dark felt, a brown one on wood) is the tile the localiser misses most, and the
kong then shows as two like faces laid apart, or a back and two like faces.  Each missing end
is looked for where it must lie, one tile further along the group's line, and kept when it is
unlike the cloth beyond its top or bottom edge (the test vision.holes puts a hole to) and the
classifier is sure it is a back (plain wood or felt reads as a back too, but unsurely); a group
of two needs both its ends so.
"""

from __future__ import annotations

import numpy as np

from scoring.tiles import BACK, BONUS
from vision.holes import core_lab, unlike_cloth
from vision.layout import TableLayout
from vision.quad import TileQuad
from vision.rectify import upright_crop

#: an end must lie further than this many tile widths from every tile found
END_CLEAR = 0.6
#: and be read as a back at least this sure (the backs missed on the synthetic tables: 0.88-0.99;
#: the wood beside two pairs of like tiles in two hust-riichi photos: 0.16-0.33)
BACK_SURE = 0.6


def _ends_wanted(codes: list[str]) -> list[tuple[int, int]] | None:
    """(outer, inner) positions in the group beyond whose outer tile a back is missing, or None
    when the group is no concealed kong short of its ends."""
    if len(codes) == 2 and codes[0] == codes[1] and codes[0] not in BONUS and codes[0] != BACK:
        return [(0, 1), (1, 0)]
    if len(codes) == 3 and codes[1] == codes[2] != BACK and codes[1] not in BONUS and codes[0] == BACK:
        return [(2, 1)]
    if len(codes) == 3 and codes[0] == codes[1] != BACK and codes[0] not in BONUS and codes[2] == BACK:
        return [(0, 1)]
    return None


def _unlike_cloth(img: np.ndarray, c: np.ndarray) -> bool:
    inside = core_lab(img, c)
    return inside is not None and unlike_cloth(img, c, np.median(inside, axis=0))


def missed_kong_ends(img: np.ndarray, layout: TableLayout, codes: list[str], found: list[TileQuad],
                     classify) -> list[TileQuad]:
    """Quads, in the convention of `found` (the detector's quads, which `layout` grouped), of
    the backs missing at the ends of concealed kongs.  `codes`: the classifier's reading of each
    tile of the layout; `classify(crops, quads)`: predictions for more crops cut at those quads."""
    h, w = img.shape[:2]
    centres = np.array([q.center for q in found]).reshape(-1, 2)
    groups = []  # per group short of its ends: [(detector-convention quad, upright quad)] per end
    for seat in layout.seats:
        for group in seat.groups:
            ends = None if group.concealed else _ends_wanted([codes[t] for t in group.tiles])
            if not ends:
                continue
            looks = []
            for outer, inner in ends:
                a, b = group.tiles[outer], group.tiles[inner]
                step = found[a].center - found[b].center
                c, up = found[a].corners + step, layout.quads[a].corners + step
                clear = np.linalg.norm(centres - c.mean(axis=0), axis=1).min() > END_CLEAR * found[a].width
                inside = c.min() >= 0 and c[:, 0].max() < w and c[:, 1].max() < h
                if clear and inside and _unlike_cloth(img, up):
                    looks.append((TileQuad(c.astype(np.float32)), TileQuad(up.astype(np.float32))))
            if len(looks) == len(ends):
                groups.append(looks)
    if not groups:
        return []
    ups = [up for looks in groups for _, up in looks]
    reads = iter(classify([upright_crop(img, up) for up in ups], ups))
    out = []
    for looks in groups:
        backs = [quad for quad, _ in looks if _sure_back(next(reads))]
        if len(backs) == len(looks):
            out += backs
    return out


def _sure_back(read) -> bool:
    return read.code == BACK and float(getattr(read, "confidence", 1.0)) >= BACK_SURE

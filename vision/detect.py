"""Find the tiles in a photo.  The localiser looks once at the whole photo at a small size: that
look measures the tiles and marks where they lie.  If the tiles are far from the size the net was
trained on, it looks again at the size that fits, but only at the places the first look marked
(a table photo is mostly cloth), so a 12-megapixel photo costs little more than a small one.  A
place is grown wherever the closer look finds a tile at its edge: tiles the small first look
missed (they are often barely ten pixels wide there) lie next to ones it saw."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from vision.false_finds import (HALVES_AREA, SPECK_NEIGHBOURS, without_cloth, without_gap_fills, without_specks,
                                without_surface_pieces)
from vision.holes import hole_quads
from vision.localizer import TILE_W_TARGET, TileLocalizer, default_localizer, quads_from_heatmap
from vision.pyramid import Pyramid, resized
from vision.quad import TileQuad, median_width, quad_overlap

#: first look at the photo with its long side this long
FIRST_LOOK = 640
#: never look at more than this (a 12 MP table photo with tiny tiles)
MAX_LOOK = 1920
#: first-look heatmap probability that marks a place worth a closer look: well under the blob
#: threshold, since tiles too small to be found at the first look still light up faintly
REGION_THRESHOLD = 0.1
#: a closer look reaches this many tile widths past what the first look marked
REGION_MARGIN = 2.0
#: a tile found this many tile widths from a region's edge may have neighbours beyond it: the
#: region grows by REGION_GROW tile widths on that side and is looked at again
REGION_EDGE = 0.75
REGION_GROW = 3.0
#: times one region may grow
REGION_GROWTHS = 6
#: when the regions (grown ones counted as often as looked at) cover more of the photo than
#: this, one look at the whole photo is as cheap
REGION_MAX_FRACTION = 0.6
#: when the regions end in one look at the whole photo, a region's find it missed is kept when
#: it lies this many tile widths inside its region's box, its area within this range of the
#: median of its look's finds (_with_region_finds)
REGION_FIND_DEPTH = 0.25
REGION_FIND_AREA = (0.5, 2.0)
#: a first look's find the closer looks lost comes back when its area is within this range of
#: the later finds' round it, and a find lies beside it in its row: centres at most ROW_MATE[0]
#: of its width apart along the row and ROW_MATE[1] of its height off it (_first_finds_missed)
FIRST_FIND_AREA = (0.7, 1.4)
ROW_MATE = (1.5, 0.3)
#: a find under this share of another's area, at its place, is a fragment of that tile (a
#: corner cut off), not the tile itself (two tiles run together give halves)
FRAGMENT_AREA = 0.35
#: a last look at tiles a closer look found reaches this many tile widths round each
TIGHT_MARGIN = 1.0
#: more separate boxes than this round found tiles means scattered false finds
MAX_REGIONS = 24
#: tiles found this many times TILE_W_TARGET wide need no look at another size; the band is
#: narrow below: too small, the cores of touching tiles run together, and the blobs that come
#: out look wider than the tiles are, so tiles found small are smaller still
LOOK_BAND = (0.9, 1.15)
#: looks at another size after the first (and after a closer look at specks)
RELOOKS = 2
#: a look that finds this many times the tiles an earlier look saw at the localiser's best size
#: or larger, narrower than SPLIT_WIDTH of theirs, has cut them in two: the earlier finds stand
SPLIT_COUNT = 1.4
SPLIT_WIDTH = 0.85
#: tiles under this many pixels wide at a look are specks: too small to measure
MIN_MEASURE = 8.0
#: finds fewer than a whole table's tiles (four hands of 13), or whose pixels at the first look
#: have a median grey level under DARK_FINDS, send a first look at the photo's negative
#: (find_tiles): a table of pale tiles is found whole and costs no second look (a first look at
#: a 12 MP photo's preview: about 15 ms).  On synthetic tables (seed 9, 1280x960 to 4000x3000)
#: the first look's finds had a median grey of 125-250 on pale sets, 41-142 on dark ones, whose
#: finds of light marks can outnumber a table's tiles
NEGATIVE_BELOW = 52
DARK_FINDS = 150
#: finds this dark inside (the median grey at the first look: KMahjongg's jade 50-102 and the
#: procedural dark sets 22-42 on the synthetic tables measured) are a dark set's, and when the
#: negative's closer looks find as many tiles as the photo's, the negative's stand: on a pale
#: cloth the gaps between dark tiles are pale, tile-sized patches to a localiser that learnt pale
#: faces, and the photo's finds take them for tiles (jade at 2000x1500, seed 2024, tables 35, 46)
DARK_TIE = 110
#: the negative's first look must find at least NEGATIVE_MORE times the first look's tiles and
#: NEGATIVE_EXTRA more, marks on the other side's tiles not counted (_clearly_more).  Chosen on
#: synthetic tables (seeds 3, 5 and 9) and the hust-riichi train and validation photos
NEGATIVE_MORE = 1.2
NEGATIVE_EXTRA = 2
#: and at least this many: fewer say nothing of a set (two shapes in the negative of a
#: hust-riichi validation photo of a keyboard and no tile, read with some confidence)
NEGATIVE_MIN = 4
#: a photo's find is judged pale or dark (_pale_tiles) at a level where it is about this wide
PALE_LOOK = 48.0
#: and a dark set's pale tile is paler than the cloth round it by this many grey levels at least
#: (_paler_than_cloth).  KMahjongg's jade (seed 2024, the photo's finds _pale_tiles kept, true
#: codes; scratch probe): its 44 white dragons and backs on 50 tables at 2000x1500, 50 at
#: 1280x960 and 25 at 12 MP were 45-155 levels paler than the cloth round them; the 3 finds in
#: the gaps between a side seat's sets on a sand cloth (table 25 at 2000x1500: the tiles' pale
#: sides and the cloth, the sets run together by them) 15-19 levels darker
PALE_OVER_CLOTH = 20
#: the cloth round a find is what no find covers within this many times its longer side of its
#: centre
CLOTH_REACH = 1.5
#: a find inside another whose shorter side is this many times its longer side is a mark on
#: that tile
MARK_SIDE = 1.5
#: finds under this share of a tile's area whose centres it holds are its pieces (_more_pieces:
#: jade's halves were 0.40-0.46 of the negative's finds), when it is tile-sized: under this many
#: times the median area of its side's finds (a find of two touching tiles run together is not)
PIECE_AREA = 0.7
PIECES_HOLDER = 1.5
def _consistent(quads: list[TileQuad]) -> bool:
    """Tiles of one set are one size; specks found in a busy picture are not."""
    widths = np.array([q.width for q in quads])
    p25, p50, p75 = np.percentile(widths, [25, 50, 75])
    return (p75 - p25) < 0.4 * p50


def _look(loc, pyr: Pyramid, scale: float, box=None) -> tuple[list[TileQuad], np.ndarray | None]:
    """Quads (in the photo's pixels) from one look at `scale` at the box (x0, y0, x1, y1; None:
    the whole photo), and the heatmap when the localiser is the bundled kind (the same steps as
    TileLocalizer.find, keeping the map)."""
    lv, fx, fy = pyr.level(scale)
    h, w = pyr.shape[:2]
    x0, y0, x1, y1 = box or (0, 0, w, h)
    lx0, ly0 = int(x0 / fx), int(y0 / fy)
    lx1, ly1 = min(lv.shape[1], math.ceil(x1 / fx)), min(lv.shape[0], math.ceil(y1 / fy))
    crop = lv[ly0:ly1, lx0:lx1]
    small = resized(crop, scale * fx)
    if isinstance(loc, TileLocalizer):
        prob = loc.heatmap(small)
        quads = quads_from_heatmap(prob, scale=small.shape[1] / prob.shape[1],
                                   margin=float(loc.meta.get("blob_margin", 0.0)))
    else:  # any object with find(bgr) -> quads (stand-ins in tests)
        prob, quads = None, loc.find(small)
    # small's pixels -> photo pixels, per axis (the levels' sizes are rounded)
    k = np.array([crop.shape[1] / small.shape[1] * fx, crop.shape[0] / small.shape[0] * fy], np.float32)
    off = np.array([lx0 * fx, ly0 * fy], np.float32)
    return [TileQuad((q.corners * k + off).astype(np.float32), seen_width=q.width) for q in quads], prob


def _regions(prob: np.ndarray, img_shape: tuple, tile_w: float) -> list[list[int]] | None:
    """Boxes [x0, y0, x1, y1] (image pixels) round every place the first look's heatmap marked,
    grown by REGION_MARGIN tile widths.  Overlapping boxes are joined only when one box round
    both is no bigger than the two (runs along one line); an L of two rows meeting at a table's
    corner stays two boxes, which may overlap.  None when nothing is marked or the boxes would
    cover most of the photo (one look at the whole is then as cheap)."""
    h, w = img_shape[:2]
    f = w / prob.shape[1]  # image pixels per heatmap pixel
    mask = (prob > REGION_THRESHOLD).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 2:
        return None
    grow = REGION_MARGIN * tile_w / f
    ph, pw = prob.shape
    boxes = _joined_along([[max(0.0, x - grow), max(0.0, y - grow), min(pw, x + bw + grow),
                            min(ph, y + bh + grow)] for x, y, bw, bh in stats[1:, :4].astype(float)])
    out = [[math.floor(x0 * f), math.floor(y0 * f), min(w, math.ceil(x1 * f)), min(h, math.ceil(y1 * f))]
           for x0, y0, x1, y1 in boxes]
    if sum(_area(b) for b in out) > REGION_MAX_FRACTION * w * h:
        return None
    return out


def _regions_round(quads: list[TileQuad], img_shape: tuple) -> list[list[int]] | None:
    """Boxes round tiles a closer look already found, TIGHT_MARGIN tile widths wide (a last look
    only sharpens them; a region still grows where a tile turns up at its edge)."""
    h, w = img_shape[:2]
    boxes = []
    for q in quads:
        x0, y0, x1, y1 = q.box
        m = TIGHT_MARGIN * min(q.width, q.height)
        boxes.append([max(0.0, x0 - m), max(0.0, y0 - m), min(w, x1 + m), min(h, y1 + m)])
    out = [[math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)]
           for x0, y0, x1, y1 in _joined_along(boxes)]
    if not out or len(out) > MAX_REGIONS or sum(_area(b) for b in out) > REGION_MAX_FRACTION * w * h:
        return None  # scattered finds (a busy cloth): the first look's places serve better
    return out


def _joined_along(boxes: list[list[float]]) -> list[list[float]]:
    """Overlapping boxes joined when one box round both is no bigger than the two (runs along
    one line, tiles of one run); an L of two rows meeting at a corner stays two boxes."""
    boxes = [list(b) for b in boxes]
    i, j = 0, 1  # the pair to try next, in order: (0, 1), (0, 2), ..., (1, 2), ...
    while i < len(boxes):
        if j >= len(boxes):
            i, j = i + 1, i + 2
            continue
        u = _joined(boxes[i], boxes[j])
        if u is None:
            j += 1
            continue
        boxes[i] = u
        del boxes[j]
        # every pair before (i, j) was tried and stays apart, but for those holding the grown
        # box i: the first of (k, i), k < i, joins next (as a search from the first pair would
        # find), else the pairs after it
        while True:
            k, grown = next(((k, g) for k in range(i) if (g := _joined(boxes[k], boxes[i])) is not None), (i, None))
            if grown is None:
                break
            boxes[k] = grown
            del boxes[i]
            i = k
        j = i + 1
    return boxes


def _joined(a: list[float], b: list[float]) -> list[float] | None:
    """The box round both, when they overlap and it is no bigger than the two; else None."""
    if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
        u = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
        if _area(u) <= _area(a) + _area(b):
            return u
    return None


def _area(box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def _inside(points: np.ndarray, box, w: int, h: int) -> np.ndarray:
    """How far each point lies inside the box, from its nearest side that is not the image's
    own edge (a box's side on the image edge cuts no tile); negative outside the box."""
    x0, y0, x1, y1 = box
    big = float(w + h)
    d = np.stack([points[:, 0] - x0 if x0 > 0 else np.where(points[:, 0] >= 0, big, -1.0),
                  points[:, 1] - y0 if y0 > 0 else np.where(points[:, 1] >= 0, big, -1.0),
                  x1 - points[:, 0] if x1 < w else np.where(points[:, 0] <= w, big, -1.0),
                  y1 - points[:, 1] if y1 < h else np.where(points[:, 1] <= h, big, -1.0)])
    return d.min(axis=0)


def _look_in(loc, pyr: Pyramid, scale: float, regions, known: list[TileQuad] = ()) -> list[TileQuad]:
    """Quads (in img's pixels) from looks at `scale` at each region, or at the whole image when
    regions is None or they grow too big (then with the regions' finds it missed).  A region
    holding three or more `known` tiles is looked at the scale that suits its own tiles (within
    1.5x of `scale`: under a steep perspective the far seat's tiles are much smaller than the
    near one's).  A region grows where it finds a tile at its edge that no other region holds
    well inside; each tile is kept from the region holding it furthest inside (so from the look
    that saw the most round it).  A find that lies deeper in
    another region is dropped when that region's look found no such tile there (a speck at one
    look's edge); when it did, the two finds of the tile are weighed as one (each may lie a few
    pixels deeper in the other's box, and both used to be dropped).  Where `known` tiles were
    seen at the localiser's best size or larger and a region's look cut them in two (_split),
    they stand; so does a tile a region's look found whole before its box grew, where the grown
    box's look found only fragments of it (_fragments_of)."""
    if regions is None:
        return _look(loc, pyr, scale)[0]
    h, w = pyr.shape[:2]
    boxes = [list(r) for r in regions]
    top = MAX_LOOK / max(h, w)
    known_c = np.array([q.center for q in known]).reshape(-1, 2)
    known_w = np.array([q.width for q in known])
    known_seen = np.array([q.seen_width for q in known])
    scales, trusted = [], {}
    for i, b in enumerate(boxes):
        inside = _inside(known_c, b, w, h) >= 0
        own = scale
        if inside.sum() >= 3:
            own = float(np.clip(TILE_W_TARGET / np.median(known_w[inside]), scale / 1.5, scale * 1.5))
            seen = known_seen[inside]
            if seen.min() > 0 and np.median(seen) >= LOOK_BAND[0] * TILE_W_TARGET:
                trusted[i] = [q for q, k in zip(known, inside) if k]
        scales.append(min(own, top))
    todo = [(i, 0) for i in range(len(boxes))]
    first = _first_looks(loc, pyr, scales, boxes) if sum(map(_area, boxes)) <= REGION_MAX_FRACTION * w * h else {}
    looked = 0
    found_in: dict[int, list[TileQuad]] = {}
    looked_at: dict[int, tuple] = {}  # region -> (its latest finds, the box they were looked for in)
    while todo:
        i, grown = todo.pop()
        x0, y0, x1, y1 = boxes[i]
        looked += _area(boxes[i])
        if looked > REGION_MAX_FRACTION * w * h:
            for j, fut in first.items():  # first looks already running or done
                looked_at[j] = (fut.result()[0], boxes[j])
            return _with_region_finds(_look(loc, pyr, scale)[0], list(looked_at.values()), w, h)
        found = first.pop(i).result()[0] if grown == 0 and i in first else _look(loc, pyr, scales[i], (x0, y0, x1, y1))[0]
        if i in trusted and _split(found, trusted[i]):
            found_in[i] = trusted[i]
            looked_at[i] = (trusted[i], (x0, y0, x1, y1))
            continue
        if grown:  # a tile the smaller box's look saw whole, the grown one may see only a
            # fragment of: the whole find stands, if sized like the grown look's finds (on the
            # hust-riichi photo of an empty textured tray, finds of every size came and went)
            med = float(np.median([q.width * q.height for q in found])) if found else 0.0
            found = found + [q for q in found_in[i] if _fragments_of(q, found)
                             and REGION_FIND_AREA[0] * med <= q.width * q.height <= REGION_FIND_AREA[1] * med]
        found_in[i] = found
        looked_at[i] = (found, (x0, y0, x1, y1))
        if not found or grown >= REGION_GROWTHS:
            continue
        tw = median_width(found)
        near, more = REGION_EDGE * tw, math.ceil(REGION_GROW * tw)
        centres = np.array([q.center for q in found])
        elsewhere = np.zeros(len(found), bool)
        for j, other in enumerate(boxes):
            if j != i:
                elsewhere |= _inside(centres, other, w, h) >= near + 0.5 * tw
        at_edge = [q for q, e in zip(found, elsewhere) if not e]
        if not at_edge:
            continue
        pts = np.concatenate([q.corners for q in at_edge])
        sides = [x0 > 0 and pts[:, 0].min() < x0 + near, y0 > 0 and pts[:, 1].min() < y0 + near,
                 x1 < w and pts[:, 0].max() > x1 - near, y1 < h and pts[:, 1].max() > y1 - near]
        if any(sides):
            boxes[i] = [max(0, x0 - more * sides[0]), max(0, y0 - more * sides[1]),
                        min(w, x1 + more * sides[2]), min(h, y1 + more * sides[3])]
            todo.append((i, grown + 1))
    scored = []
    for i, found in found_in.items():
        if not found:
            continue
        centres = np.array([q.center for q in found])
        own = _inside(centres, boxes[i], w, h)
        for j, b in enumerate(boxes):
            deeper = _inside(centres, b, w, h) > own + 1e-3
            if j == i or not deeper.any():
                continue
            for k in np.nonzero(deeper)[0]:
                if not any(_same_tile(found[k], q) for q in found_in.get(j, [])):
                    own[k] = -np.inf  # a look that saw more round it found no such tile there
        scored += [(float(o), q) for o, q in zip(own, found) if o > -np.inf]
    scored.sort(key=lambda e: -e[0])
    centres = np.array([q.center for _, q in scored]).reshape(-1, 2)
    reach = np.array([0.5 * min(q.width, q.height) for _, q in scored])
    kept: list[int] = []
    for k in range(len(scored)):
        if not kept or np.all(np.hypot(*(centres[kept] - centres[k]).T) >= reach[kept]):
            kept.append(k)
    quads = [scored[k][1] for k in kept]
    if quads:  # what one look at the whole image drops: specks among tiles (see quads_from_heatmap)
        areas = np.array([q.width * q.height for q in quads])
        quads = [q for q, a in zip(quads, areas) if a >= 0.25 * float(np.median(areas))]
    return quads


def _with_region_finds(whole: list[TileQuad], looks, w: int, h: int) -> list[TileQuad]:
    """The whole photo's finds, and each region's (`looks`: (finds, box) pairs) that the whole
    look missed: at least REGION_FIND_DEPTH tile widths inside the region's box (a tile cut by
    the box's edge comes out a fragment) and within REGION_FIND_AREA of its look's median area.
    Regions that grew past REGION_MAX_FRACTION of the photo end in one look at the whole, but the
    localiser's map of a region can hold tiles its map of the whole photo lost: seed 99's table
    139 at 1280x960, a run of pale tiles on a pale checkerboard, 7 tiles in two regions' looks
    and 3 in the whole photo's, at the same scale."""
    out = list(whole)
    if not out:
        return out
    centres = [o.center for o in out]
    reach = [0.5 * min(o.width, o.height) for o in out]
    for found, box in looks:
        if not found:
            continue
        med = float(np.median([q.width * q.height for q in found]))
        for q in found:
            if not REGION_FIND_AREA[0] * med <= q.width * q.height <= REGION_FIND_AREA[1] * med:
                continue
            if _inside(q.center.reshape(1, 2), box, w, h)[0] < REGION_FIND_DEPTH * q.width:
                continue
            d = q.center - np.array(centres)
            apart = np.hypot(d[:, 0], d[:, 1])
            # compared at the distances' own precision, as a float32 distance meets a Python float
            if np.any(apart < np.array(reach).astype(apart.dtype)):
                continue  # the whole look (or another region) has it
            out.append(q)
            centres.append(q.center)
            reach.append(0.5 * min(q.width, q.height))
    return out


def _fragments_of(find: TileQuad, others: list[TileQuad]) -> bool:
    """Another look saw only fragments of the tile `find` holds: finds within half a tile of its
    centre, each under FRAGMENT_AREA of its area (none: False, that look saw nothing there).
    The case: seed 11's 12 MP table 86, a lone flower found whole by a region's look, at its
    edge; the region grew, and the grown box's look saw only a quarter-size corner of it
    (without_specks then dropped the corner, and the flower was lost)."""
    reach = 0.5 * min(find.width, find.height)
    area = find.width * find.height
    near = [q for q in others if np.hypot(*(find.center - q.center)) < reach]
    return bool(near) and all(q.width * q.height < FRAGMENT_AREA * area for q in near)


def _split(found: list[TileQuad], known: list[TileQuad]) -> bool:
    """A look that found many more, narrower tiles where an earlier look saw them at the size the
    localiser reads best or larger (too large to run together): it cut tiles in two (a sideways
    tile's two halves each look like a smaller tile)."""
    return (len(found) >= SPLIT_COUNT * len(known)
            and median_width(found) < SPLIT_WIDTH * median_width(known))


def _same_tile(a: TileQuad, b: TileQuad) -> bool:
    """Two finds of one tile from different looks: centres within half a tile, areas within 2x."""
    reach = 0.5 * min(a.width, a.height)
    ratio = (a.width * a.height) / max(b.width * b.height, 1e-6)
    return bool(np.hypot(*(a.center - b.center)) < reach and 0.5 < ratio < 2.0)


@lru_cache(maxsize=1)
def _look_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="tile-look")


def _first_looks(loc, pyr: Pyramid, scales: list[float], boxes: list[list[float]]) -> dict:
    """Each region's first look, two at a time (futures by region).  A first look depends on
    its own box and scale only (a region's box changes only when it grows), so the regions'
    growing, in order, finds every first look it needs already done, with the same result as
    one look after another; two small looks side by side keep both cores busier than one look
    on two threads (a 185x525 look: 4.9 ms on one thread, 3.3 on two)."""
    for sc in set(scales):
        pyr.level(sc)  # the levels, made once here, not by both workers
    pool = _look_pool()
    return {i: pool.submit(lambda i=i: _look(loc, pyr, scales[i], tuple(boxes[i]))) for i in range(len(boxes))}


class TileFinds(NamedTuple):
    """The tiles found, and whether they were found in the photo's negative (a set with dark
    faces).  `in_photo`: the finds in the photo itself (the same list when `negative` is
    False), for a caller that finds the negative's tiles unreadable (vision.recognize)."""

    quads: list[TileQuad]
    negative: bool
    in_photo: list[TileQuad]


def find_tile_quads(img, localizer=None) -> list[TileQuad]:
    """Tile quads in the image's pixels (find_tiles, without saying in which polarity)."""
    return find_tiles(img, localizer).quads


def find_tiles(img, localizer=None) -> TileFinds:
    """The tiles in the photo (`img`: a BGR array, or a vision.io.PendingPhoto still decoding).
    The localiser was trained on pale faces: on a set with dark faces and light marks it lights
    up the marks and finds a third of the tiles, where in the photo's negative it finds nearly
    all (KMahjongg's jade set at 2000x1500: 272 of 554 tiles, and 548 in the negative).  So
    when the finds are fewer than a whole table's (NEGATIVE_BELOW) or dark (DARK_FINDS), the
    negative gets a first look too, and when that look finds clearly more tiles than the
    photo's first look did (_clearly_more), the tiles are found in the negative; they stand
    unless the photo's own finds are clearly more, marks on each other's tiles not counted (the
    photo's closer looks may find a dark tile's marks one by one).  When the
    first looks tie but the photo's finds are dark, the negative is looked at closer all the
    same, and its finds stand if they are clearly more than the photo's: big dark tiles, or dark
    tiles on a busy cloth, may show each tile's marks as one blob to both first looks.  When the
    finds are clearly a dark set's (DARK_TIE), the negative's stand if they are as many (and
    NEGATIVE_MIN at least: a few small pale tiles on dark felt, found one by one in the photo,
    may be one blob in the negative, and their own finds then count as its marks)."""
    loc = localizer or default_localizer()
    h, w = img.shape[:2]
    scale = FIRST_LOOK / max(h, w)
    pyr = Pyramid(img)
    first = _look(loc, pyr, scale)
    quads = _found(loc, pyr, scale, *first)
    grey = _grey_inside(pyr, scale, first[0])
    dark = grey < DARK_FINDS
    if len(quads) >= NEGATIVE_BELOW and not dark:
        return TileFinds(quads, False, quads)
    neg = pyr.negative()
    first_neg = _look(loc, neg, scale)
    if _clearly_more(first_neg[0], first[0]):
        # the photo's closer looks may find a dark tile's marks one by one: they must then be
        # clearly more than the negative's finds to stand
        in_negative = _found(loc, neg, scale, *first_neg, whole_too=True)
        if not _clearly_more(quads, in_negative):
            return TileFinds(in_negative + _pale_tiles(pyr, quads, in_negative), True, quads)
    elif dark:
        # big dark tiles, or dark tiles on a busy cloth: each first look may find a tile's marks
        # as one blob, and only the closer looks tell the two apart; the negative's closer
        # finds must then be clearly more, as its first look's had to be, or as many when the
        # finds are clearly a dark set's (DARK_TIE)
        in_negative = _found(loc, neg, scale, *first_neg, whole_too=True)
        if _clearly_more(in_negative, quads) or grey < DARK_TIE and _as_many(in_negative, quads):
            return TileFinds(in_negative + _pale_tiles(pyr, quads, in_negative), True, quads)
    return TileFinds(quads, False, quads)


def _pale_tiles(pyr: Pyramid, in_photo: list[TileQuad], in_negative: list[TileQuad]) -> list[TileQuad]:
    """The pale tiles of a dark set found in the negative: the photo's own finds that the
    negative's lost (_first_finds_missed: no negative find lies on them, sized like the negative
    finds round them, in a row with one), pale inside (a median grey level of DARK_FINDS or more,
    judged at a level where they are about PALE_LOOK pixels wide).  KMahjongg's jade draws its
    white dragon as a white face and its backs white: light in the photo, they are dark in the
    negative, where the localiser may miss them (jade at 2000x1500, seed 2024, table 13: a white
    dragon in East's run).  A dark tile's light marks can come out of the photo's looks
    tile-sized too, but they are dark inside: without the grey test, procedural dark sets laid
    out fewer tables right.  And they are paler than the cloth round them (_paler_than_cloth): on a
    pale cloth, a gap between two sets (the cloth and a tile's pale side) is a pale, tile-sized
    patch too."""
    lost = _first_finds_missed(in_photo, in_negative)
    finds = in_photo + in_negative
    pale = []
    for q in lost:
        scale = min(1.0, PALE_LOOK / max(q.width, 1.0))
        grey = _grey_inside(pyr, scale, [q])
        if grey >= DARK_FINDS and _paler_than_cloth(pyr, scale, q, grey, finds):
            pale.append(q)
    return pale


def _paler_than_cloth(pyr: Pyramid, scale: float, q: TileQuad, grey: float, finds: list[TileQuad]) -> bool:
    """Whether the find's median grey (`grey`) is PALE_OVER_CLOTH levels above the cloth's round
    it: the median grey of what none of `finds` covers within CLOTH_REACH times its longer side
    of its centre, at the look's level (True when no cloth shows there)."""
    lv, fx, fy = pyr.level(scale)
    reach = CLOTH_REACH * max(q.width, q.height)
    (cx, cy), (h, w) = q.center, lv.shape[:2]
    x0, y0 = max(0, int((cx - reach) / fx)), max(0, int((cy - reach) / fy))
    x1, y1 = min(w, int(np.ceil((cx + reach) / fx))), min(h, int(np.ceil((cy + reach) / fy)))
    if x1 <= x0 or y1 <= y0:
        return True
    cloth = np.ones((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(cloth, [np.round(f.corners / (fx, fy) - (x0, y0)).astype(np.int32) for f in finds], 0)
    seen = cv2.cvtColor(lv[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)[cloth > 0]
    return not seen.size or grey >= float(np.median(seen)) + PALE_OVER_CLOTH


def _grey_inside(pyr: Pyramid, scale: float, quads: list[TileQuad]) -> float:
    """The median grey level of the pixels inside the finds, at the look's level (255 when
    there are none)."""
    if not quads:
        return 255.0
    lv, fx, fy = pyr.level(scale)
    mask = np.zeros(lv.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(q.corners / (fx, fy)).astype(np.int32) for q in quads], 1)
    grey = cv2.cvtColor(lv, cv2.COLOR_BGR2GRAY)[mask > 0]
    return float(np.median(grey)) if grey.size else 255.0


def _clearly_more(negative: list[TileQuad], positive: list[TileQuad]) -> bool:
    """Whether the negative's first look found clearly more tiles than the photo's: at least
    NEGATIVE_MIN, NEGATIVE_MORE times as many and NEGATIVE_EXTRA more, counting on each side
    only the finds that are no mark on a tile the other side found (_marks_on): the dots of a
    pale tile's face are light discs in the negative, and the light marks of a dark face are
    what the photo's look finds."""
    own = _own_count(negative, positive)
    return own >= NEGATIVE_MIN and own >= NEGATIVE_MORE * _own_count(positive, negative) + NEGATIVE_EXTRA


def _as_many(negative: list[TileQuad], positive: list[TileQuad]) -> bool:
    """Whether the negative's finds are as many as the photo's, and NEGATIVE_MIN at least,
    counted as _clearly_more counts them, and a negative find's pieces in the photo counted
    once (_more_pieces)."""
    own = _own_count(negative, positive)
    return own >= NEGATIVE_MIN and own >= _own_count(positive, negative) - _more_pieces(positive, negative)


def _more_pieces(finds: list[TileQuad], others: list[TileQuad]) -> int:
    """How many finds more than one a tile there are where finds cut tiles of `others` in
    pieces: for each tile-sized find of `others` (its area under PIECES_HOLDER times their median)
    the finds whose centres it holds and whose areas are under PIECE_AREA of its own, less one
    (a find counted once at most, and none that is a mark on a tile of `others`, which
    _own_count leaves out already).  The photo's closer looks may find a dark tile as two halves, each a strip
    holding half its light marks, where the negative finds it whole (jade at 2000x1500, seed
    2024, table 28: three tiles of North's row, which made the photo's finds outnumber the
    negative's 60 to 57, and the halves stood)."""
    if not finds or not others:
        return 0
    median = float(np.median([o.width * o.height for o in others]))
    counted = {id(q) for q in _marks_on(finds, others)}
    extra = 0
    for o in others:
        area = o.width * o.height
        if area > PIECES_HOLDER * median:
            continue
        pieces = [q for q in finds if id(q) not in counted and q.width * q.height < PIECE_AREA * area
                  and _inside_quad(q, o)]
        counted.update(id(q) for q in pieces)
        extra += max(0, len(pieces) - 1)
    return extra


def _own_count(finds: list[TileQuad], others: list[TileQuad]) -> int:
    """How many of the finds are no mark on a tile of `others` (_marks_on)."""
    return len(finds) - len(_marks_on(finds, others))


def _marks_on(finds: list[TileQuad], others: list[TileQuad]) -> list[TileQuad]:
    """The finds whose centre lies inside one of `others` whose shorter side is at least
    MARK_SIDE times their longer side (a tile inside a run of tiles found as one is no mark)."""
    return [q for q in finds if any(min(o.width, o.height) >= MARK_SIDE * max(q.width, q.height)
                                    and _inside_quad(q, o) for o in others)]


def _found(loc, pyr: Pyramid, first: float, quads: list[TileQuad], prob: np.ndarray | None,
           whole_too: bool = False) -> list[TileQuad]:
    """Tile quads in the photo's pixels, from the first look at a small size (at scale `first`:
    its finds and heatmap), which measures the tiles and marks their places.  If it saw
    nothing, or specks too small to measure, a closer look at twice the size finds them at
    those places.  Then, while the tiles found are far from TILE_W_TARGET pixels wide, the next
    look is at the size that makes them so, round the tiles found (or at the first look's
    places); tiles seen too small come out too big (touching cores run together), so a look may
    need another.  `whole_too` (the negative of a dark set): each look at the first look's
    places is followed by one at the whole photo, which adds the tiles they missed
    (_with_finds_missed).  A dark set's light marks show to the first look as specks on some
    tiles and nothing on others, so its places may miss whole sets (KMahjongg's jade at
    2000x1500, seed 2024's table 12: a pung and a concealed kong's white backs)."""
    h, w = pyr.shape[:2]
    scale = first
    marked: dict = {}

    def where(new_scale: float):
        """Regions for a closer look, from the first look's heatmap (None: the whole image)."""
        if prob is None or new_scale <= first:
            return None
        if "regions" not in marked:
            seen = median_width(quads) if quads else 12.0 / first  # nothing seen: about 12 px
            marked["regions"] = _regions(prob, pyr.shape, seen)
        return marked["regions"]

    known = quads  # the best measure of each region's tiles so far
    measured = len(quads) >= 4 and median_width(quads) * scale >= MIN_MEASURE
    first_finds = quads if measured else []  # tiles, not specks: they may come back at the end
    found_closer = False
    if not measured:
        # nothing, or specks: the tiles may be too small to see at this size; look closer
        closer = min(2 * scale, MAX_LOOK / max(h, w))
        if closer > scale * 1.2:
            more = _look_in(loc, pyr, closer, where(closer))
            if whole_too and where(closer) is not None:
                more = _with_finds_missed(more, _look(loc, pyr, closer)[0])
            # the specks that sent us closer are no tiles to outnumber (a pale checkerboard's
            # squares, 4-7 pixels wide at the first look, outnumbered a lone player's 16 tiles)
            if len(more) > sum(q.width * scale >= MIN_MEASURE for q in quads):
                known = more  # sizes vary under perspective, but each region's are measured
                found_closer = True
                if _consistent(more):
                    scale, quads = closer, more
    for _ in range(RELOOKS):
        if not quads:
            break
        tile_w = median_width(quads) * scale  # at the scale looked at
        # specks narrower than MIN_MEASURE are noise, not tiles to zoom in on
        if tile_w < MIN_MEASURE or LOOK_BAND[0] * TILE_W_TARGET <= tile_w <= LOOK_BAND[1] * TILE_W_TARGET:
            break
        new = scale * float(np.clip(TILE_W_TARGET / tile_w, 1 / 4, 3.0))
        new = min(new, MAX_LOOK / max(h, w))
        if abs(new / scale - 1) <= 0.15:
            break
        # tiles a closer look found need only a tight box each; else the first look's places
        regions = _regions_round(known, pyr.shape) if found_closer and prob is not None else None
        found = _look_in(loc, pyr, new, regions or where(new), known=known)
        if whole_too and not regions and where(new) is not None:
            found = _with_finds_missed(found, _look(loc, pyr, new)[0])
        if not found:
            break
        scale, quads, known, found_closer = new, found, found, True
    quads = without_specks(quads)
    if quads and len(quads) < len(first_finds) and scale != first:
        quads = without_specks(quads + _first_finds_missed(first_finds, quads))
    if not quads:
        return quads
    quads = without_surface_pieces(pyr, without_cloth(pyr, without_gap_fills(pyr, quads)))
    return quads + _holes(pyr, quads)


def _with_finds_missed(found: list[TileQuad], whole: list[TileQuad]) -> list[TileQuad]:
    """The finds of the looks at the first look's places, and those of a look at the whole photo
    at the same scale that they missed (_covered) and that are sized like them (within
    REGION_FIND_AREA of their median area); with none of their own, the whole look's."""
    if not found:
        return whole
    med = float(np.median([q.width * q.height for q in found]))
    return found + [q for q in _uncovered(whole, found)
                    if REGION_FIND_AREA[0] * med <= q.width * q.height <= REGION_FIND_AREA[1] * med]


def _first_finds_missed(first: list[TileQuad], later: list[TileQuad]) -> list[TileQuad]:
    """The first look's finds that the later, closer looks lost, as tiles of a row: none of the
    later finds lies on them or holds their centre, they are sized like the later finds round
    them (within FIRST_FIND_AREA of the median area of the nearest SPECK_NEIGHBOURS), and
    another find (later, or another such) lies beside them in their row (ROW_MATE).
    The localiser's map at one size can hold tiles its map at another lost, as with regions
    (_with_region_finds): seed 11's single-player table 15 at 12 MP, on a checked cloth, had
    all 17 tiles in the first look and 12 in the closer one, which used to replace it.  A first
    find where touching tiles ran together holds the later finds' centres, and a piece of a
    scoring stick or half a tile is alone or of another size: they do not come back.  _found
    asks only when the later looks found fewer tiles than the first: where they found more,
    the first look's small size ran touching tiles together, and a first find the later looks
    did not repeat was a patch of cloth between two sets (seed 2024's props table 83 at
    2000x1500: 33 finds, then 64).  _pale_tiles asks the same of the photo's own finds beside a
    dark set's, found in the negative."""
    if not first or not later:
        return []
    centres = np.array([q.center for q in later])
    areas = np.array([q.width * q.height for q in later])
    lost = []
    for q in first:
        if any(_inside_quad(o, q) or _inside_quad(q, o) for o in later):
            continue
        near = np.argsort(np.linalg.norm(centres - q.center, axis=1))[:SPECK_NEIGHBOURS]
        around = float(np.median(areas[near]))
        if FIRST_FIND_AREA[0] * around <= q.width * q.height <= FIRST_FIND_AREA[1] * around:
            lost.append(q)
    return [q for q in lost if any(_row_mates(q, o) for o in later + lost if o is not q)]


def _row_mates(q: TileQuad, other: TileQuad) -> bool:
    """`other` lies next to `q` in q's row: along q's width within ROW_MATE[0] of q's width,
    off the row by at most ROW_MATE[1] of q's height."""
    d = other.center - q.center
    up = q.up
    along, across = abs(float(d @ np.array([-up[1], up[0]]))), abs(float(d @ up))
    return along <= ROW_MATE[0] * q.width and across <= ROW_MATE[1] * q.height


#: find_tiles_in looks at its box at these multiples of the size that brings tiles to
#: TILE_W_TARGET: on a checked cloth the localiser may miss a tile at one size and find it at
#: another (seed 31's single-player table 22 at 12 MP: a 1s and a 9s found at 0.20, not at 0.17)
BOX_LOOK_SIZES = (1.0, 1.2)


def _covered(q: TileQuad, others: list[TileQuad]) -> bool:
    """The find is one of `others` already, or lies over one by more than 0.3 of its area."""
    return any(_same_tile(q, o) or quad_overlap(q, o) > 0.3 * q.width * q.height for o in others)


def _reach(quads: list[TileQuad]) -> tuple[np.ndarray, np.ndarray]:
    """(centres, radii): each quad lies within its radius of its centre (its farthest corner)."""
    centres = np.array([q.center for q in quads], np.float64).reshape(-1, 2)
    corners = np.array([q.corners for q in quads], np.float64).reshape(-1, 4, 2)
    return centres, np.linalg.norm(corners - centres[:, None], axis=2).max(axis=1)


def _uncovered(finds: list[TileQuad], others: list[TileQuad]) -> list[TileQuad]:
    """The finds not _covered by `others`: the same test, asked only of the others whose reach
    meets the find's (two quads farther apart overlap nowhere and are no one tile), so a look
    over a photo of hundreds of tiles does not test every pair."""
    if not finds or not others:
        return list(finds)
    centres, radii = _reach(others)
    own_c, own_r = _reach(finds)
    out = []
    for q, c, r in zip(finds, own_c, own_r):
        near = np.nonzero(np.hypot(*(centres - c).T) <= r + radii)[0]
        if not _covered(q, [others[j] for j in near]):
            out.append(q)
    return out


class BoxFinds(NamedTuple):
    """What a look along a box adds: new tiles, and the known finds they replace (each one
    find of several touching tiles run together)."""

    found: list[TileQuad]
    replaced: list[TileQuad]


def find_tiles_in(img: np.ndarray, box, tile_w: float, known: list[TileQuad],
                  localizer=None) -> BoxFinds:
    """Tiles in one box of the photo that find_tile_quads did not find: looks at the box at the
    sizes (BOX_LOOK_SIZES) that bring tiles `tile_w` pixels wide to TILE_W_TARGET and a little
    over, each grown where it finds a tile at the box's edge, as the closer looks are.  Finds
    over a `known` tile are dropped, unless that tile is several of them run together
    (_run_together): then they replace it.  The rest face the tests the closer looks' finds
    face (specks, gaps, cloth, plain surfaces).  For a seat whose row the first look did not mark at all
    (`vision.look_again.missing_seat_box`), and along the row of a seat short of a hand or of one
    player's tiles alone (`vision.look_again.short_seat_boxes`).  It builds its own pyramid of the
    decoded photo: the first look's may hold the JPEG's reduced decode as a level, and a look
    here on it would see other pixels than the benchmarks measured (about 6 ms a call)."""
    loc = localizer or default_localizer()
    h, w = img.shape[:2]
    pyr = Pyramid(img)
    found: list[TileQuad] = []
    for k in BOX_LOOK_SIZES:
        scale = min(k * TILE_W_TARGET / max(tile_w, 1.0), MAX_LOOK / max(h, w))
        found += _uncovered(without_specks(_look_in(loc, pyr, scale, [list(box)])), found)
    run = _run_together(found, known)
    halves = _halves_of_one(found, [k for k in known if not any(k is r for r in run)])
    replaced = run + [k for pair in halves.values() for k in pair]
    standing = [k for k in known if not any(k is r for r in replaced)]
    found = _uncovered(found, standing)
    if not found:
        return BoxFinds([], [])
    ids = {id(k) for k in standing}
    plain = without_surface_pieces(pyr, without_gap_fills(pyr, standing + found))  # the known tiles stay first
    kept = {id(q) for q in without_cloth(pyr, plain, sum(id(q) in ids for q in plain))}
    found = [q for q in found if id(q) in kept]
    # a replaced find goes only when two of the tiles that replace it passed the tests; else it
    # stands, and a lone one of them lying over it goes
    kept_whole = [r for r in run if sum(_inside_quad(q, r) for q in found) < 2]
    # two halves go only when the whole tile that replaces them passed the tests
    passed = {id(q) for q in found}
    kept_whole += [k for f, pair in halves.items() if f not in passed for k in pair]
    replaced = [r for r in replaced if not any(r is k for k in kept_whole)]
    return BoxFinds(_uncovered(found, kept_whole), replaced)


#: a known find is touching tiles run together when at least two finds of a look along its row
#: lie inside it, it is at least RUN_AREA times their mean area, and each is at least
#: RUN_WHOLE of the area of the known finds round it (whole tiles, not fragments of one)
RUN_AREA = 1.6
RUN_WHOLE = 0.6
#: two known finds are the halves of a tile a look along their row found whole when each is
#: under this fraction of its area (seed 2024's racks table 92: 0.52 and 0.55)
HALVES_EACH = 0.8
#: ... and each under this fraction of the known tiles round them (there: 0.71 and 0.77; two
#: whole tiles a look ran together, about 1)
HALVES_OF_AROUND = 0.85


def _inside_quad(q: TileQuad, other: TileQuad) -> bool:
    """Whether q's centre lies inside `other`."""
    return cv2.pointPolygonTest(other.corners.reshape(-1, 1, 2), (float(q.center[0]), float(q.center[1])),
                                False) >= 0


def _run_together(found: list[TileQuad], known: list[TileQuad]) -> list[TileQuad]:
    """The known finds that a look along their row saw as two or more whole tiles: touching
    tiles whose cores ran together at a small look, too small to be cut (MIN_SPLIT_CORE in
    vision.localizer).  The case: seed 2024's table 75 at 1600x1200, three 9s in a side seat's
    column found as one tile 112 pixels long; the look along that short seat's row found each
    of the three, 41 long, and all were dropped as lying over the known find.  A known find
    seen at the localiser's best size or larger is no such run (as `_split` trusts it): a look
    at another size can cut a sideways tile so found into two tile-shaped halves (seed 2024's
    racks table 92, a 9s found whole by one look along North's row, then replaced by the
    halves the next look saw)."""
    if not found or len(known) < 3:
        return []
    areas = np.array([k.width * k.height for k in known])
    centres = np.array([k.center for k in known])
    found_centres = np.array([q.center for q in found], np.float64).reshape(-1, 2)
    _, radii = _reach(known)
    out = []
    for i, k in enumerate(known):
        if k.seen_width >= LOOK_BAND[0] * TILE_W_TARGET:
            continue  # seen at the localiser's best size or larger: no cores ran together
        # a centre inside k lies within k's reach of k's centre: only those are asked
        near = np.nonzero(np.hypot(*(found_centres - centres[i]).T) <= radii[i])[0]
        inside = [found[j] for j in near if _inside_quad(found[j], k)]
        if len(inside) < 2:
            continue
        sizes = np.array([q.width * q.height for q in inside])
        if areas[i] < RUN_AREA * sizes.mean():
            continue
        d = np.linalg.norm(centres - centres[i], axis=1)
        d[i] = np.inf
        around = float(np.median(areas[np.argsort(d)[:SPECK_NEIGHBOURS]]))
        if sizes.min() >= RUN_WHOLE * around:
            out.append(k)
    return out


def _halves_of_one(found: list[TileQuad], known: list[TileQuad]) -> dict[int, tuple[TileQuad, TileQuad]]:
    """{id of a find: the two known finds it replaces}: two known finds that are the halves of
    one tile, which a look along their row saw whole.  The first look can light a sideways tile
    up as two cores, each fitted with a tile-shaped quad; when two such tiles lie side by side
    each pair's neighbours are mostly halves, and halves_joined, which judges finds against
    their neighbours, cannot tell them.  A find is taken for the tile whole when the centres of
    exactly two known finds, nearest to each other, lie inside it, each of the two is under
    HALVES_EACH of its area and under HALVES_OF_AROUND of the known finds round the pair (other
    such pairs left out), it is sized as a whole tile (HALVES_AREA) both of its own look (its
    nearest finds there) and of those known finds, and its look saw it larger than the looks
    that found the two (`seen_width`): two touching tiles run together in a look fail these
    (each of them a whole tile, the look too small to cut them; KMahjongg's jade at 2000x1500,
    seed 2024's table 14, two white dragons found whole, each 1.0 of the tiles round them, and
    as one by a look at no known size).  The case: seed
    2024's table 92 of the racks tables at 2000x1500, North's third 9s and flower side by side,
    each found as two halves, a half of each taken into East's seat."""
    if len(found) <= SPECK_NEIGHBOURS or len(known) <= SPECK_NEIGHBOURS + 2:
        return {}
    known_c, known_r = _reach(known)
    known_a = np.array([k.width * k.height for k in known])
    found_c = np.array([q.center for q in found], np.float64)
    found_a = np.array([q.width * q.height for q in found])
    apart = np.linalg.norm(known_c[:, None] - known_c[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    nearest = np.argmin(apart, axis=1)
    pairs: dict[int, tuple[int, int]] = {}
    for n, f in enumerate(found):
        near = np.nonzero(np.hypot(*(known_c - found_c[n]).T) <= known_r + np.sqrt(found_a[n]))[0]
        inside = [int(i) for i in near if _inside_quad(known[i], f)]
        if (len(inside) == 2 and nearest[inside[0]] == inside[1] and nearest[inside[1]] == inside[0]
                and known_a[inside].max() < HALVES_EACH * found_a[n]):
            pairs[n] = (inside[0], inside[1])
    halves = [i for pair in pairs.values() for i in pair]
    whole = np.setdiff1d(np.arange(len(known)), halves)
    if len(whole) < SPECK_NEIGHBOURS:
        return {}
    out: dict[int, tuple[TileQuad, TileQuad]] = {}
    taken: set[int] = set()
    for n, (i, j) in pairs.items():
        if taken & {i, j}:
            continue
        own = np.hypot(*(found_c - found_c[n]).T)
        own[n] = np.inf
        look = float(np.median(found_a[np.argsort(own)[:SPECK_NEIGHBOURS]]))
        mid = (known_c[i] + known_c[j]) / 2
        around = float(np.median(known_a[whole[np.argsort(np.hypot(*(known_c[whole] - mid).T))[:SPECK_NEIGHBOURS]]]))
        if (HALVES_AREA[0] * look <= found_a[n] <= HALVES_AREA[1] * look
                and HALVES_AREA[0] * around <= found_a[n] <= HALVES_AREA[1] * around
                and max(known_a[i], known_a[j]) < HALVES_OF_AROUND * around
                and found[n].seen_width > max(known[i].seen_width, known[j].seen_width)):
            out[id(found[n])] = (known[i], known[j])
            taken |= {i, j}
    return out


def _holes(pyr: Pyramid, quads: list[TileQuad]) -> list[TileQuad]:
    """Tiles missed between two finds of one row (vision.holes), judged at a size where tiles
    are at least TILE_W_TARGET pixels wide, less those the cloth test takes for cloth: a pale
    cloth striped or grained has stretches of the faces' colour (on 200 synthetic tables it
    dropped 3 holes, all cloth; the gap test, run too at first, dropped none)."""
    if len(quads) < 2:
        return []
    scale = min(1.0, TILE_W_TARGET / median_width(quads))
    lv, fx, fy = pyr.level(scale)
    holes = hole_quads(lv, quads, np.array([1.0 / fx, 1.0 / fy]))
    if not holes:
        return holes
    kept = {id(q) for q in without_cloth(pyr, quads + holes)}
    return [q for q in holes if id(q) in kept]

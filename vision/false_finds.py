"""Finds that are no tile, told by their shape and colour: a patch of cloth the localiser lit
up (a checkerboard square, wood grain, the gap between two sets), a piece of a larger plain
surface (a tile rack's top) and a speck much smaller than the tiles round it; and the two
halves of one sideways tile, joined.  vision.detect runs these
after its looks."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.holes import core_lab
from vision.localizer import TILE_W_TARGET
from vision.pyramid import Pyramid, resized
from vision.quad import TileQuad, median_width, quad_overlap

#: a find smaller than this fraction of its nearest finds' median area may be a speck (the net
#: lights up in the gaps between sets), not a tile: on synthetic tables, tiles found whole were
#: never under 0.69 of their neighbours', gap specks were 0.26-0.59, and dark face-down tiles
#: found too small 0.43-0.6
SPECK_AREA = 0.6
#: a small find grown to its neighbours' size may overlap them by this fraction of its area
#: and still be a tile (found outlines are a few pixels off); more, and it was a speck
SPECK_OVERLAP = 0.08
#: a find under this fraction of its neighbours' area is dropped without that test
SPECK_AREA_MIN = 0.4
#: neighbours a find's size is judged against (nearby: perspective changes sizes)
SPECK_NEIGHBOURS = 6
#: two small finds side by side are the halves of one tile lying sideways (the net can light a
#: sideways tile up as two squarish cores) when the rectangle round both has this fraction of
#: their neighbours' median area, a short side at least HALVES_ASPECT of its long side, and the
#: two fill HALVES_FILL of it (touching, not two specks a gap apart)
HALVES_AREA = (0.7, 1.5)
HALVES_ASPECT = 0.4
HALVES_FILL = 0.75
#: a find is small enough to be such a half under this fraction of its neighbours' median area:
#: tiles found whole were never under 0.69 (SPECK_AREA's measurement); a sideways 4p at
#: 2000x1500 (seed 2024's table 30) lit up as two halves of 0.63 and 0.68, over SPECK_AREA
HALVES_SMALL = 0.69


#: the cloth test looks at the photo scaled so that tiles are this many pixels wide (colours
#: need no detail)
CLOTH_TILE_W = 16.0
#: colours are counted in bins of 16 levels per channel (BGR)
CLOTH_LEVELS = 16
#: a colour bin is the cloth's when its share of the pixels round the tiles is this many times
#: its share of the pixels on the finds' faces
CLOTH_DOMINANCE = 3.0
#: a find is cloth when at least this share of its inside has the cloth's colours.  On 100
#: synthetic tables (procedural tiles, seed 77) true tiles reached at most 0.28 (99th
#: percentile 0.07; face-down tiles included) and the extra finds were 0.90-1.0; on the 1080
#: tiles of the hust-riichi validation photos, at most 0.34
CLOTH_SHARE = 0.6


def without_cloth(pyr: Pyramid, quads: list[TileQuad], known: int = 0) -> list[TileQuad]:
    """The finds less those whose inside has the colours of the cloth round the tiles: a
    checkerboard square, a patch of wood grain or the gap between two sets that the net took
    for a tile.  The cloth's colours are counted in a ring round all the finds (from a little
    past their sides, so tile edges and shadows are left out, to two tile widths out) and set
    against the colours inside the finds, most of them true tiles; a face-down tile whose back
    has the cloth's very colour would be lost, and none was on the tables measured.  `known`:
    the first `known` quads are tiles already found, and the faces' colours come from them
    alone (a look along a row on a checked cloth may find more squares than tiles: 118 along
    one player's row in seed 2024's table 40 at 1600x1200, all kept when the finds' own
    colours were taken for the faces')."""
    if len(quads) < 3:
        return quads
    tw = median_width(quads)
    scale = min(1.0, CLOTH_TILE_W / tw)
    corners = np.array([q.corners for q in quads], np.float64)
    h, w = pyr.shape[:2]
    x0, y0 = np.maximum(0, np.floor(corners.reshape(-1, 2).min(axis=0) - 3 * tw)).astype(int)
    x1, y1 = np.minimum([w, h], np.ceil(corners.reshape(-1, 2).max(axis=0) + 3 * tw)).astype(int)
    lv, fx, fy = pyr.level(scale)
    crop = lv[int(y0 / fy):math.ceil(y1 / fy), int(x0 / fx):math.ceil(x1 / fx)]
    small = resized(crop, scale * fx)
    k = np.array([small.shape[1] / (x1 - x0), small.shape[0] / (y1 - y0)])
    local = (corners - np.array([x0, y0])) * k
    level = small // (256 // CLOTH_LEVELS)
    bins = (level[..., 0].astype(np.int32) * CLOTH_LEVELS + level[..., 1]) * CLOTH_LEVELS + level[..., 2]
    centres = local.mean(axis=1, keepdims=True)
    tiles = np.zeros(small.shape[:2], np.uint8)
    inner = np.zeros(small.shape[:2], np.int32)  # 1 + the index of the find whose inside it is
    for i, c in enumerate(local):
        cv2.fillConvexPoly(tiles, np.round(centres[i] + (c - centres[i]) * 1.35).astype(np.int32), 1)
        cv2.fillConvexPoly(inner, np.round(centres[i] + (c - centres[i]) * 0.8).astype(np.int32), i + 1)
    reach = 2 * int(round(tw * scale)) + 1
    ring = cv2.dilate(tiles, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach))) > tiles
    n = CLOTH_LEVELS ** 3
    cloth = np.bincount(bins[ring], minlength=n) / max(1, int(ring.sum()))
    on = inner > 0
    owner, inside = inner[on] - 1, bins[on]
    pixels = np.maximum(1, np.bincount(owner, minlength=len(quads)))
    share = np.zeros(len(quads))
    for _ in range(2):  # the second time, the faces' colours leave out the finds that look like cloth
        face_px = owner < known if known else share[owner] < CLOTH_SHARE / 2
        faces = np.bincount(inside[face_px], minlength=n) / max(1, int(face_px.sum()))
        cloth_like = (cloth > CLOTH_DOMINANCE * faces) & (cloth > 1e-4)
        share = np.bincount(owner, weights=cloth_like[inside], minlength=len(quads)) / pixels
    return [qd for qd, s in zip(quads, share) if s < CLOTH_SHARE]


#: a find is the net filling the gap between two sets with a tile when its inside is plain
#: (grey-level spread under GAP_PLAIN), the same colour as what lies just beyond both of its
#: short sides (Lab distance under GAP_SAME: the cloth runs on across its top and bottom
#: edges) and unlike what lies beyond both long sides (the two sets' tiles).
#: On 200 synthetic tables: tile faces spread 21+ (1st percentile), face-down tiles differ from
#: what lies beyond their short sides by 17.6+ (1st percentile).  The test drops 5 of the 34
#: extra finds there (3 of 15 on 100 tables of another seed) and no true tile.  Without the
#: long-side test it dropped true tiles of hust-riichi photos (recall 99.82% -> 98.72%)
GAP_PLAIN = 12.0
GAP_SAME = 10.0
#: a find whose sides differ in length by less than this ratio is near square (a far row seen
#: at a steep tilt is foreshortened so): its sides facing its nearest find (its run mate, or
#: the sets either side of a gap) are then taken as the "long" ones, not the longer pair
GAP_SQUARE = 1.15


def without_gap_fills(pyr: Pyramid, quads: list[TileQuad]) -> list[TileQuad]:
    """The finds less those that are plain cloth between two sets (see GAP_PLAIN), judged at a
    size where the tiles are at least TILE_W_TARGET pixels wide."""
    scale = min(1.0, TILE_W_TARGET / median_width(quads))
    lv, fx, fy = pyr.level(scale)
    k = np.array([1.0 / fx, 1.0 / fy])
    centres = np.array([q.center for q in quads], np.float64) * k
    if len(quads) < 2:
        return [q for q in quads if not gap_fill(lv, q.corners.astype(np.float64) * k)]
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    toward = centres[np.argmin(d, axis=1)] - centres  # each find's direction to its nearest
    return [q for q, t in zip(quads, toward) if not gap_fill(lv, q.corners.astype(np.float64) * k, t)]


def gap_fill(img: np.ndarray, c: np.ndarray, toward: np.ndarray | None = None) -> bool:
    """Whether the quad with corners c (in img's pixels) looks like a gap between two sets.
    `toward`: the direction to the nearest other find, which tells a near-square quad's
    "long" sides (those its run mates stand beyond) from its short ones."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(c.min(axis=0) - 0.6 * np.ptp(c, axis=0)).astype(int)
    x1, y1 = np.ceil(c.max(axis=0) + 0.6 * np.ptp(c, axis=0)).astype(int)
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return False  # at the photo's edge: too little round it to judge
    c = c - np.array([x0, y0])
    centre = c.mean(axis=0)
    # the plainness test first, on the inner quad's bounding box alone: most finds are tile
    # faces, far from plain, and need no more (the whole patch in Lab cost 0.3 ms a find)
    inside = core_lab(img[y0:y1, x0:x1], c)
    if inside is None or inside[:, 0].std() >= GAP_PLAIN:
        return False
    patch = cv2.cvtColor(np.ascontiguousarray(img[y0:y1, x0:x1]), cv2.COLOR_BGR2Lab).astype(np.float64)
    colour = np.median(inside, axis=0)
    beyond = []  # how far the colour just beyond each side is from the inside's
    for side in range(4):
        a, b = c[side], c[(side + 1) % 4]
        normal = (a + b) / 2 - centre
        pts = [a + (b - a) * t + normal * 2 * d for t in np.linspace(0.2, 0.8, 7)
               for d in np.linspace(0.08, 0.3, 4)]
        pts = np.round(np.array(pts)).astype(int)
        pts = pts[(pts[:, 0] >= 0) & (pts[:, 0] < patch.shape[1]) & (pts[:, 1] >= 0) & (pts[:, 1] < patch.shape[0])]
        if len(pts) < 5:
            return False
        beyond.append(float(np.linalg.norm(np.median(patch[pts[:, 1], pts[:, 0]], axis=0) - colour)))
    # the cloth runs on across both short sides, and tiles stand beyond both long ones: a
    # plain tile (a blank white dragon on a pale cloth) between its run mates has its like on
    # its long sides, and is kept
    lengths = [float(np.linalg.norm(c[(k + 1) % 4] - c[k])) for k in range(4)]
    pair02, pair13 = lengths[0] + lengths[2], lengths[1] + lengths[3]
    if toward is not None and max(pair02, pair13) < GAP_SQUARE * min(pair02, pair13):
        # near square: the sides facing the nearest find are the ones run mates stand beyond
        facing = [abs(float(np.dot((c[k] + c[(k + 1) % 4]) / 2 - centre, toward))) for k in range(4)]
        long02 = facing[0] + facing[2] >= facing[1] + facing[3]
    else:
        long02 = pair02 > pair13
    short, long = ((1, 3), (0, 2)) if long02 else ((0, 2), (1, 3))
    return (max(beyond[short[0]], beyond[short[1]]) < GAP_SAME
            and min(beyond[long[0]], beyond[long[1]]) >= GAP_SAME)


#: a find is a piece of a larger plain surface (the top or lip of a tile rack, the rim of a tray)
#: when its inside is plain and, past one of its sides where no other find lies, the same
#: colour runs on with no edge between.  Judged on the find's neighbourhood warped upright with
#: the find SURFACE_CELL pixels in size: inside, the middle 70% must spread under SURFACE_PLAIN
#: grey levels (L of Lab); across a side, every line from SURFACE_LINES[0] pixels inside to
#: SURFACE_LINES[1] past it (averaged over the side's middle 70%) must lie within SURFACE_SAME
#: (Lab distance) of the inside's median colour.  A side counts only with no other find's centre
#: beyond it (within SURFACE_NEIGHBOUR of a tile's size): a blank white dragon in a pung of them
#: runs on into its neighbour across a faint seam.  Chosen on the pipeline's finds (scratch
#: script, 2026-11-29, thirty-fifth session): the 24 finds on the racks of 30 synthetic racks
#: tables (2000x1500, seed 2024) spread 0.0-1.8 inside and 22 of them run on at 0.3-5.9; of
#: 11,571 true tiles' finds (those tables, 100 procedural tables at 1280x960, the hust-riichi
#: training and validation photos) the plain ones (backs, blank white dragons) run on at 18.8
#: or more past sides with no find beyond (hust-riichi's blank dragons at 3.3 without that
#: rule).  End to end: those 30 racks tables laid out right 17 -> 28 (true codes), 40 at
#: 1280x960 (seed 7) 28 -> 37 with finds on racks 20 -> 3; the hust-riichi training,
#: validation and test photos' finds unchanged (3927, 1080 and 1636 true tiles found).  The
#: lines reached 7 pixels past the side at first (finds on those racks 20 -> 2), and dropped
#: two blank white dragons of the hust-riichi test photos tilted 35 degrees: 14 pixels wide in
#: a far row, found half a tile off, so that their own face ran on past a side.  At 14 pixels
#: (the next tile's edge) the view's finds are those without the test (1565 of 1636); at 20
#: the racks tables lost one (27)
SURFACE_CELL = (20, 26)
SURFACE_PLAIN = 3.0
#: the quick look's spread (_maybe_plain), looser: its box is not the warp's inner 70%.  On the
#: 3,989 finds the test saw in 70 racks tables (30 at 2000x1500, seed 2024; 40 at 1280x960,
#: seed 7) it passed all 77 the warp found plain, and spared the warp for the rest
SURFACE_PREPLAIN = 2 * SURFACE_PLAIN
SURFACE_LINES = (3, 14)
SURFACE_SAME = 8.0
SURFACE_NEIGHBOUR = 1.5


def without_surface_pieces(pyr: Pyramid, quads: list[TileQuad]) -> list[TileQuad]:
    """The finds less those that are a piece of a larger plain surface (see SURFACE_PLAIN), judged
    at a size where the tiles are about SURFACE_CELL[0] pixels wide.  Dropping one may leave
    the surface running on past the side of another (two pieces of one rack found side by
    side), so the test runs again on the plain finds left until none goes."""
    if not quads:
        return quads
    scale = min(1.0, SURFACE_CELL[0] / median_width(quads))
    lv, fx, fy = pyr.level(scale)
    k = np.array([1.0 / fx, 1.0 / fy])
    centres = np.array([q.center for q in quads], np.float64) * k
    plain = {i: p for i, q in enumerate(quads)
             if _maybe_plain(lv, c := q.corners.astype(np.float64) * k) and (p := _plain_patch(lv, c))}
    kept = np.ones(len(quads), bool)
    while plain:
        gone = [i for i, p in plain.items()
                if _runs_on(*p, centres[kept & (np.arange(len(quads)) != i)], lv.shape)]
        if not gone:
            break
        for i in gone:
            kept[i] = False
            del plain[i]
    return [q for q, keep in zip(quads, kept) if keep]


def _maybe_plain(img: np.ndarray, c: np.ndarray) -> bool:
    """A quick look first: whether the box round the find's inner 40% (inside the find at any
    turn) spreads under SURFACE_PREPLAIN grey levels (L of Lab).  Most finds are tile faces,
    far from plain, and need no warp (the warp cost about 0.25 ms a find on a slow machine)."""
    xs, ys = c[:, 0].tolist(), c[:, 1].tolist()
    cx, cy = sum(xs) / 4, sum(ys) / 4
    xs, ys = [cx + (x - cx) * 0.4 for x in xs], [cy + (y - cy) * 0.4 for y in ys]
    h, w = img.shape[:2]
    x0, x1 = max(0, math.floor(min(xs))), min(w, math.ceil(max(xs)) + 1)
    y0, y1 = max(0, math.floor(min(ys))), min(h, math.ceil(max(ys)) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return True  # too small to tell: the warp decides
    _, spread = cv2.meanStdDev(cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2Lab))
    return float(spread[0, 0]) < SURFACE_PREPLAIN


def _plain_patch(img: np.ndarray, c: np.ndarray) -> tuple | None:
    """(the neighbourhood in Lab, warped upright with the find SURFACE_CELL in size; the warp)
    when the find's inside is plain (SURFACE_PLAIN), else None.  c: its corners in img's pixels,
    p0 top-left, p1 top-right, p2 bottom-right, p3 bottom-left."""
    cw, ch = SURFACE_CELL
    dst = np.array([[cw, ch], [2 * cw, ch], [2 * cw, 2 * ch], [cw, 2 * ch]], np.float32)
    m = cv2.getPerspectiveTransform(c.astype(np.float32), dst)
    patch = cv2.warpPerspective(img, m, (3 * cw, 3 * ch), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2Lab).astype(np.float32)
    mx, my = int(cw * 0.15), int(ch * 0.15)
    if lab[ch + my:2 * ch - my, cw + mx:2 * cw - mx, 0].std() >= SURFACE_PLAIN:
        return None
    return lab, m


def _runs_on(lab: np.ndarray, m: np.ndarray, others: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether the plain find's colour runs on with no edge past one of its sides beyond which
    none of `others` (the other finds' centres, in the pixels the warp m maps from) lies.  A
    side whose lines leave the photo (of `shape`) does not count: past its edge the warp only
    repeats the edge's pixels, too little to judge by."""
    cw, ch = SURFACE_CELL
    mx, my = int(cw * 0.15), int(ch * 0.15)
    colour = np.median(lab[ch + my:2 * ch - my, cw + mx:2 * cw - mx].reshape(-1, 3), axis=0)
    near = (cv2.perspectiveTransform(others.reshape(-1, 1, 2).astype(np.float32), m).reshape(-1, 2)
            if len(others) else np.zeros((0, 2), np.float32))
    lo, hi = SURFACE_LINES
    back = np.linalg.inv(m)
    for axis, edge, out in ((0, cw, -1), (0, 2 * cw, 1), (1, ch, -1), (1, 2 * ch, 1)):
        size, across = (cw, ch) if axis == 0 else (ch, cw)
        beyond = out * (near[:, axis] - edge)
        along = np.abs(near[:, 1 - axis] - 1.5 * across)
        if np.any((beyond > 0) & (beyond < SURFACE_NEIGHBOUR * size) & (along < 0.6 * across)):
            continue  # a find lies past this side: a tile's neighbour, not the surface running on
        span = sorted((edge - out * lo, edge + out * (hi - 1)))
        ends = (0.15 * across, 0.85 * across)
        probe = np.array([(a, b) if axis == 0 else (b, a) for a in span for b in ends], np.float32)
        seen = cv2.perspectiveTransform(probe.reshape(-1, 1, 2), back).reshape(-1, 2)
        if np.any(seen < 0) or np.any(seen[:, 0] > shape[1] - 1) or np.any(seen[:, 1] > shape[0] - 1):
            continue  # the lines leave the photo
        at = edge + out * np.arange(-lo, hi)
        lines = (lab[ch + my:2 * ch - my, at].mean(axis=0) if axis == 0
                 else lab[at, cw + mx:2 * cw - mx].mean(axis=1))  # each line's mean colour
        if float(np.linalg.norm(lines - colour, axis=1).max()) < SURFACE_SAME:
            return True
    return False


def without_specks(quads: list[TileQuad]) -> list[TileQuad]:
    """The finds, with those much smaller than their nearest finds judged one by one.  Such a
    find is grown to its neighbours' size about its centre: a real tile found too small (a
    dark face-down tile lights the net up less) then fits between its neighbours; a speck in
    the gap between two sets overlaps them and is dropped.  Two small finds that are the halves
    of one sideways tile are first joined into it (halves_joined), or both would be dropped."""
    if len(quads) <= SPECK_NEIGHBOURS:
        return quads
    quads = halves_joined(quads)
    centres = np.array([q.center for q in quads])
    sides = np.array([sorted((q.width, q.height)) for q in quads])
    areas = sides[:, 0] * sides[:, 1]
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    near = np.argsort(d, axis=1)[:, :SPECK_NEIGHBOURS]
    out = []
    for i, q in enumerate(quads):
        rel = areas[i] / np.median(areas[near[i]])
        if rel >= SPECK_AREA:
            out.append(q)
            continue
        if rel < SPECK_AREA_MIN:
            continue
        grown = _grown(q, np.median(sides[near[i]], axis=0))
        others = [quads[j] for j in near[i] if d[i, j] < 2 * float(np.max(sides[near[i]]))]
        overlap = sum(quad_overlap(grown, o) for o in others)
        if overlap <= SPECK_OVERLAP * grown.width * grown.height:
            out.append(grown)
    return out


def halves_joined(quads: list[TileQuad]) -> list[TileQuad]:
    """The finds, with each pair of small finds (HALVES_SMALL) that are nearest to each other and
    together make one tile's rectangle (HALVES_AREA, HALVES_ASPECT, HALVES_FILL) joined into that
    tile.  The cases: seed 7's table 61 at 1280x960, a sideways winning tile at the end of a far
    row found as two squarish halves, each then dropped as a speck; seed 2024's table 30 at
    2000x1500, a sideways 4p found as two halves read as 2p each."""
    centres = np.array([q.center for q in quads])
    areas = np.array([q.width * q.height for q in quads])
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    near = np.argsort(d, axis=1)[:, :SPECK_NEIGHBOURS]
    ref = np.array([np.median(areas[n]) for n in near])
    small = areas < HALVES_SMALL * ref
    nearest = np.argmin(d, axis=1)
    joined, gone = [], set()
    for i in np.nonzero(small)[0]:
        j = int(nearest[i])
        if j <= i or not small[j] or nearest[j] != i:
            continue
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(np.concatenate([quads[i].corners, quads[j].corners]))
        both = rw * rh
        if not (HALVES_AREA[0] * ref[i] <= both <= HALVES_AREA[1] * ref[i]
                and min(rw, rh) >= HALVES_ASPECT * max(rw, rh) and areas[i] + areas[j] >= HALVES_FILL * both):
            continue
        q = TileQuad(cv2.boxPoints(((cx, cy), (rw, rh), angle))[[1, 2, 3, 0]].astype(np.float32))
        joined.append(q.rotated(1) if q.width > q.height else q)
        gone |= {int(i), j}
    return [q for k, q in enumerate(quads) if k not in gone] + joined if joined else quads


def _grown(q: TileQuad, size: np.ndarray) -> TileQuad:
    """The quad scaled about its centre along its own sides to `size` (short, long)."""
    c = q.corners.astype(np.float64)
    centre = c.mean(axis=0)
    u = (c[1] - c[0] + c[2] - c[3]) / 2  # width direction
    v = (c[2] - c[1] + c[3] - c[0]) / 2  # height direction
    lu, lv = np.linalg.norm(u) + 1e-9, np.linalg.norm(v) + 1e-9
    w, h = (size[0], size[1]) if lu <= lv else (size[1], size[0])
    u, v = u / lu * w / 2, v / lv * h / 2
    return TileQuad(np.array([centre - u - v, centre + u - v, centre + u + v, centre - u + v], np.float32))

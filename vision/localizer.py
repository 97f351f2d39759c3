"""Class-agnostic tile localiser: a small fully-convolutional ONNX net marks the *core* of every
tile (its face shrunk about its centre), so tiles that touch in a row still come out as separate
blobs; OpenCV geometry then turns each blob into a rotated rectangle and grows it back to the
whole face.  The net knows nothing of tile kinds; it is trained by vision/train_localizer.py on
synthetic tables and the training photos of hust-riichi.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.quad import TileQuad
from vision.runtime import load_model

MODEL_PATH = Path(__file__).resolve().parent / "tile_localizer.onnx"
#: the net's target is each face shrunk to this fraction of its width and height
CORE = 0.6
MEAN = np.array([0.5, 0.5, 0.5], np.float32)
STD = np.array([0.25, 0.25, 0.25], np.float32)
STRIDE = 16  # input sides must be multiples of this
#: the net is trained on tiles this many pixels wide; images are resized to bring tiles there
TILE_W_RANGE = (10.0, 48.0)
TILE_W_TARGET = 30.0


class LocalizerMissing(RuntimeError):
    """The localiser model file is not there (train it with vision/train_localizer.py)."""


class TileLocalizer:
    """Find tile quads in a BGR image.  Thread-safe; one onnxruntime session per instance."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 2):
        self.session, self.input_name, self.meta = load_model(Path(model_path or MODEL_PATH), threads,
                                                              LocalizerMissing, "tile localiser")

    def heatmap(self, bgr: np.ndarray) -> np.ndarray:
        """Probability that each pixel lies in a tile's core, at the image's size / 2."""
        h, w = bgr.shape[:2]
        ph, pw = -h % STRIDE, -w % STRIDE
        img = cv2.copyMakeBorder(bgr, 0, ph, 0, pw, cv2.BORDER_REFLECT) if ph or pw else bgr
        # (rgb / 255 - MEAN) / STD as NCHW float32 in one OpenCV pass (MEAN, STD equal per channel)
        x = cv2.dnn.blobFromImage(img, scalefactor=1.0 / (255.0 * float(STD[0])),
                                  mean=tuple(255.0 * MEAN.astype(np.float64)), swapRB=True)
        logits = self.session.run(None, {self.input_name: x})[0][0, 0]
        prob = 1.0 / (1.0 + np.exp(-logits))
        return prob[: (h + 1) // 2, : (w + 1) // 2]

    def find(self, bgr: np.ndarray, threshold: float = 0.5) -> list[TileQuad]:
        """Tile quads in the image's pixels."""
        prob = self.heatmap(bgr)
        return quads_from_heatmap(prob, scale=bgr.shape[1] / prob.shape[1], threshold=threshold,
                                  margin=float(self.meta.get("blob_margin", 0.0)))


def quads_from_heatmap(prob: np.ndarray, scale: float, threshold: float = 0.5,
                       margin: float = 0.0) -> list[TileQuad]:
    """One rotated rectangle per blob of tile core, grown back to the whole face.  `margin`:
    how far (heatmap pixels) the net's blobs spill over the true core on each side, measured on
    validation photos and kept in the model's sidecar.  A blob as long as several tiles in a row
    (cores of touching tiles the net ran together) is cut into that many tiles."""
    mask = (prob > threshold).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    # every blob's pixels at once, sorted by blob (a few percent of the map): one pass instead
    # of a mask, a search and a stack per blob
    flat = np.flatnonzero(labels)
    lab = labels.ravel()[flat]
    order = np.argsort(lab, kind="stable")  # stable: each blob's pixels stay in row order
    flat, lab = flat[order], lab[order]
    p_all = prob.ravel()[flat]
    xy_all = np.stack([flat % prob.shape[1], flat // prob.shape[1]], axis=1).astype(np.float32) + 0.5
    starts = np.searchsorted(lab, np.arange(1, n))
    ends = np.append(starts[1:], len(lab))
    p_max = np.maximum.reduceat(p_all, starts) if n > 1 else np.zeros(0)
    p_mean = np.add.reduceat(p_all, starts) / np.maximum(ends - starts, 1) if n > 1 else np.zeros(0)
    blobs = []  # (pixel centres, their probabilities, core rect) per blob
    edge = []  # whether each blob touches the map's edge (a tile the look's box cut)
    mh, mw = prob.shape
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < 6:
            continue
        if p_max[i - 1] < 0.75 or p_mean[i - 1] < 0.6:
            continue  # a faint blob: not what the net calls a tile
        pts = xy_all[starts[i - 1]:ends[i - 1]]
        blobs.append((pts, p_all[starts[i - 1]:ends[i - 1]], _core_rect(pts, margin)))
        x, y, bw, bh = stats[i, :4]
        edge.append(x == 0 or y == 0 or x + bw == mw or y + bh == mh)
    rects = []
    runs = _run_lengths([b[2] for b in blobs], edge)
    for (pts, p, rect), (k, core_len) in zip(blobs, runs):
        rects += [rect] if k == 1 else _cut_run(pts, p, rect, k, core_len)
    quads = []
    for (cx, cy), (long, short), angle in rects:
        if short / long < 0.3:
            continue  # a long sliver (an edge, a cable), not a tile face
        box = cv2.boxPoints(((cx * scale, cy * scale), (long / CORE * scale, short / CORE * scale), angle))
        q = TileQuad(box[[1, 2, 3, 0]].astype(np.float32))
        if q.width > q.height:
            q = q.rotated(1)
        quads.append(q)
    if quads:
        areas = np.array([q.width * q.height for q in quads])
        med = float(np.median(areas))
        quads = [q for q, a in zip(quads, areas) if a >= 0.25 * med]
    return quads


def _core_rect(pts: np.ndarray, margin: float):
    """((cx, cy), (long, short), angle of the long side) of a blob's pixels, less the spill."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
    rw, rh = max(1.0, rw + 1 - 2 * margin), max(1.0, rh + 1 - 2 * margin)
    if rw < rh:
        rw, rh, angle = rh, rw, angle + 90.0
    return (cx, cy), (rw, rh), angle


#: a blob is one tile when its sides are within this fraction of a single tile core's
SIZE_TOLERANCE = 0.3
#: tiles in a row stand this many tile widths apart, centre to centre (measured on synthetic
#: tables and hust-riichi: touching faces plus the small gaps players leave)
PITCH = 1.1
#: runs are cut only where a tile core is at least this wide (heatmap pixels; tiles about 17
#: pixels wide in the looked-at image): smaller blobs are not measured reliably
MIN_SPLIT_CORE = 5.0


#: the net's cores can lie closer together than PITCH / CORE core widths (a side seat's column
#: at 1280x960: 14-15 apart for cores 10 long, against 18.3); a blob that fits no run by that
#: pitch is measured by the pitch of the single cores round it, but only as a run of this many
#: tiles or more: a single tile nearer the camera than its neighbours is as long as two of
#: their cores (a flower lying apart, cut in two on one of 600 synthetic tables with 2)
ROW_PITCH_FEWEST = 3
#: a blob measures a single tile only if its short side is at least this fraction of its long
#: side (specks and slivers near a tile must not make the tile look like a run)
SINGLE_ASPECT = 0.55
#: a blob's size is judged against this many of its nearest blobs (perspective makes near tiles
#: bigger than far ones, so one size for the whole photo would cut near single tiles)
NEIGHBOURS = 8


def _run_lengths(rects: list, cut: list[bool] | None = None) -> list[tuple[int, float]]:
    """How many touching tiles each blob holds (1 for most), and a single core's length along
    the blob's long side.

    Most blobs are single tiles, so a single tile's core is measured, for each blob, from the
    smaller of its nearest blobs: those shaped like a tile within 30% of the 30th-percentile area
    give its short side w and long side h.  A blob covering at least 1.6 such areas whose short side matches h
    and whose long side fits n cores spaced PITCH tile widths apart is n upright tiles side by
    side; one whose short side matches w and long side fits n cores spaced PITCH tile heights
    apart is n tiles lying sideways (or a column of them); when n upright cores fit no such
    spacing, the spacing of the single cores nearby is tried (ROW_PITCH_FEWEST).  Shape alone
    cannot tell: a tile seen at a slant is as long as two, but it has one tile's area.  Blobs
    `cut` by the map's edge measure nothing: a region's box through a row leaves fragments of
    its tiles, and with them as the measure seed 2024's table 26 at 1600x1200 had each tile of
    the row below cut in two across."""
    out = [(1, 0.0)] * len(rects)
    if len(rects) < 4:
        return out
    centres = np.array([r[0] for r in rects], np.float64)
    areas = np.array([r[1][0] * r[1][1] for r in rects])
    whole = ~np.array(cut, bool) if cut is not None else np.ones(len(rects), bool)
    for i, ((_, (long, short), _), area) in enumerate(zip(rects, areas)):
        d = np.linalg.norm(centres - centres[i], axis=1)
        d[i] = np.inf
        d[~whole] = np.inf
        near = np.argsort(d)[:NEIGHBOURS]
        near = near[np.isfinite(d[near])]
        if len(near) < 2:
            continue
        ref = float(np.sort(areas[near])[int(0.3 * (len(near) - 1))])
        if area < 1.6 * ref:
            continue
        alike = [rects[j] for j in near if abs(areas[j] - ref) <= 0.3 * ref
                 and rects[j][1][1] >= SINGLE_ASPECT * rects[j][1][0]]
        if len(alike) < 2:
            continue  # too few blobs near shaped like one tile: no measure to cut by
        w = float(np.median([r[1][1] for r in alike]))
        h = float(np.median([r[1][0] for r in alike]))
        if w < MIN_SPLIT_CORE:
            continue  # tiles too small for the net's trained range: a closer look will come
        if area < 1.6 * w * h:
            continue
        side_by_side = [(PITCH * w / CORE, 2), (_row_pitch([r[0] for r in alike], w, h), ROW_PITCH_FEWEST)]
        for across, along, pitches in ((h, w, side_by_side), (w, h, [(PITCH * h / CORE, 2)])):
            if abs(short - across) > SIZE_TOLERANCE * across:
                continue
            k = _tiles_fitting(long, along, pitches)
            if k:
                out[i] = (k, along)
                break
    return out


def _tiles_fitting(long: float, along: float, pitches) -> int:
    """How many cores `along` long, spaced by the first of `pitches` ((pitch or None, fewest
    tiles it may find)) that fits, make a blob `long` long; 0 when none fits."""
    for pitch, fewest in pitches:
        if pitch is None:
            continue
        k = int(round((long - along) / pitch)) + 1
        if k >= fewest and abs((k - 1) * pitch + along - long) < 0.4 * pitch:
            return k
    return 0


def _row_pitch(centres, w: float, h: float) -> float | None:
    """The pitch of single cores side by side nearby: the median distance from each to its
    nearest, counting distances from one core width up to half its length more (closer is no
    neighbour, further is across a gap); None with fewer than two such distances."""
    c = np.array(centres, np.float64)
    if len(c) < 2:
        return None
    d = np.linalg.norm(c[:, None] - c[None], axis=2)
    np.fill_diagonal(d, np.inf)
    nn = d.min(axis=1)
    nn = nn[(nn >= w) & (nn < w + 0.5 * h)]
    return float(np.median(nn)) if len(nn) >= 2 else None


def _cut_run(pts: np.ndarray, p: np.ndarray, rect, k: int, core_len: float) -> list:
    """A run blob cut into `k` tile cores along its long axis.  Each cut goes to the faintest
    place (the net's probability dips between tiles, deepest at a gap between sets) within a
    quarter tile of where equal spacing would put it.  Each piece is one core long, laid against
    the blob's end (end pieces) or centred between its cuts; its angle and its place across the
    row come from its own pixels, which follow the row's slant under perspective."""
    (cx, cy), (long, short), angle = rect
    a = np.deg2rad(angle)
    axis = np.array([np.cos(a), np.sin(a)])
    t = (pts[:, 0] - cx) * axis[0] + (pts[:, 1] - cy) * axis[1]
    lo, hi = float(t.min()), float(t.max()) + 1.0
    bins = np.floor(t - lo).astype(np.int64)
    profile = np.bincount(bins, weights=p) / np.maximum(np.bincount(bins), 1)
    span = hi - lo
    cuts = []
    for j in range(1, k):
        want = span * j / k
        a0 = int(max(0, want - 0.25 * span / k))
        a1 = int(min(len(profile) - 1, want + 0.25 * span / k))
        window = profile[a0:a1 + 1]
        faint = np.nonzero(window <= window.min() + 0.02)[0]
        cuts.append(lo + a0 + float(np.mean(faint)) + 0.5)
    edges = [lo] + cuts + [hi]
    out = []
    for j in range(k):
        part = pts[(t >= edges[j]) & (t < edges[j + 1])]
        if len(part) < 3:
            continue
        if j == 0:
            mid = lo + core_len / 2
        elif j == k - 1:
            mid = hi - core_len / 2
        else:
            mid = (edges[j] + edges[j + 1]) / 2
        (px, py), (rw, rh), pa = cv2.minAreaRect(part)
        # the piece's own slant against the run's axis (within 20 degrees), its own place across the row
        turn = ((pa - angle + 45) % 90) - 45
        pa = angle + turn if abs(turn) < 20 else angle
        perp = np.array([-axis[1], axis[0]])
        across = (px - cx) * perp[0] + (py - cy) * perp[1]
        centre = np.array([cx, cy]) + mid * axis + across * perp
        out.append(((float(centre[0]), float(centre[1])), (core_len, short), float(pa)))
    return out


@lru_cache(maxsize=1)
def default_localizer() -> TileLocalizer:
    """The bundled model, loaded once per process."""
    return TileLocalizer()

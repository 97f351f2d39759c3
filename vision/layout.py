"""Group found tiles the way LAYOUT.md lays a table out: runs of touching tiles, rows of runs,
rows into seats (bottom edge = camera seat, then counter-clockwise), and in each seat the
concealed run (nearest the player, first from the player's left) and the exposed sets.

Pure geometry on the tile quads: it needs no tile codes, so it can be checked against ground
truth on its own.  Codes come in later (vision.case) to spot bonus tiles and face-down tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.quad import TileQuad

#: a gap under this fraction of a tile's width (_touch_unit) still counts as touching
#: (LAYOUT.md: sets lie at least half a tile width apart)
TOUCH_GAP = 0.42
#: a lone tile turned across a run's line joins the run from a gap under this fraction of the
#: run tile's width: the sideways winning tile's outline is found a few pixels short along the
#: run (a 12 MP left seat's 9p: 34 pixels from its run mate, 0.47 of its 72, went to the far
#: seat's row).  Held-out art, seed 99: 100 tables at 4000x3000, seat and group / scores right
#: 91/88 -> 94/91; 200 at 1280x960, 184/163 -> 187/166; seed 2024 unchanged at both sizes
CROSS_GAP = 0.6
#: runs further apart than this many tile widths along a line are different rows
ROW_GAP = 4.0
#: tiles whose centres are off a row's line by more than this fraction of a tile height are
#: in another row
ROW_OFFSET = 0.42
#: a sideways tile's length-to-breadth along its run is about (height / width)^2 = 1.8 times
#: its run mates' under any foreshortening; found outlines are a few pixels off, so a tile one
#: outline-step too long (about 1.2 times) is not taken for one.  Run mates in a slanted row are
#: found as upright boxes round skewed faces, too long along the run, which brings a sideways
#: tile down to about 1.34 (two 12 MP winning tiles, 1p and 2m, in benchmarks/recognition.py's
#: 100 held-out-art tables at 4000x3000: scores right 96 -> 98 with 1.3 for 1.4; the 1280x960
#: sets, seeds 2024, 99 and 7, and seed 99 at 4000x3000 are unchanged)
SIDEWAYS_SHAPE = 1.3
#: and it is longer along the run than its nearest run mates by this (1.18 until 2026-11-26: a
#: slanted side run's boxes at 1280x960 come out 28.7 pixels along the run for faces 21 long, and
#: the winning tile, 29 long, 32.6; held-out art, seed 99: 200 tables at 1280x960, scores right
#: 173 -> 175, 100 at 4000x3000 93 -> 94; seeds 2024 and 7 and hust-riichi unchanged)
SIDEWAYS_LENGTH = 1.12
#: of two sideways candidates, one measured against two run mates wins over one measured
#: against a single mate unless the latter is this much more sideways-shaped: of two unlike
#: tiles in a run of two either may be the odd one (seed 2024's rack table 51 at 2000x1500: an
#: East flower 1.99 against its one mate, West's winning 9p 1.97 against two).  Not an outright
#: preference: that lost three 1280x960 tables of seed 99 (199 -> 196 scored right, true codes)
SIDEWAYS_TWO_MATES = 1.03
#: and one in a run a winner's concealed tiles can make (2, 5, 8, 11 or 14 tiles, the sideways
#: winning tile among them: the sets are laid apart) wins over one in a run of another length
#: unless the latter is this much more sideways-shaped.  Scratch survey of 600 synthetic tables
#: (held-out art, true codes: 1280x960 seeds 2024 and 99, racks and props tables at 2000x1500):
#: every one of the 600 true sideways tiles lay in such a run, while 46 of the 49 outlines taken
#: for sideways wrongly lay in a run of another length; the 44 tables with two candidates or more
#: were all decided right with any preference from 1.0 to 1.5.  Seed 2024's phone-size table
#: 156: a white dragon's outline run into the gap beside its pung (a run of 3) measured 2.14
#: against South's true sideways 8s's 2.04 (a run of 11)
SIDEWAYS_WINNERS_RUN = 1.2

#: lone finds turned across every other row, at most this many, beside at least STRAYS_BESIDE
#: tiles, are strays, no seat of their own (_strays).  Set by what a table is, not fitted: a
#: side seat's row holds 13 tiles or more, so one or two finds are no seat's, and five tiles are
#: fewer than any hand's run and sets (a count the benchmark's one-player tables, 13-18 tiles,
#: never come near); on the benchmark's tables the rule fired on racks table 26 and four props
#: tables, whose props the tile check then dropped
STRAYS = 2
STRAYS_BESIDE = 5
#: a stray is shaped like a tile when its short side over its long is within this range of the
#: other tiles' (a tile is a tile turned any way; a rack's corner found as a tile measured 0.38
#: against the tiles' 0.72, 0.53 of theirs; a die, nearly square, 1.3 or more)
STRAY_SHAPE = (0.8, 1.25)

POSITIONS = ("bottom", "right", "top", "left")
# a seat's "up" (from the player towards the table centre) in a frame with y pointing down
UP = {0: np.array([0.0, -1.0]), 1: np.array([-1.0, 0.0]), 2: np.array([0.0, 1.0]), 3: np.array([1.0, 0.0])}
# the player's left-to-right direction along their row
RIGHT = {0: np.array([1.0, 0.0]), 1: np.array([0.0, -1.0]), 2: np.array([-1.0, 0.0]), 3: np.array([0.0, 1.0])}


@dataclass
class Group:
    """Touching tiles of one seat: indices into the tile list, in the player's left-to-right order."""

    tiles: list[int]
    row: int  # 0 = the row nearest the player
    concealed: bool = False


@dataclass
class SeatLayout:
    position: int  # 0 bottom (camera seat), 1 right, 2 top, 3 left
    groups: list[Group] = field(default_factory=list)


@dataclass
class TableLayout:
    seats: list[SeatLayout]
    position: list[int]  # per tile: its seat's position
    sideways: list[bool]  # per tile: turned a quarter against its seat's tiles
    quads: list[TileQuad]  # per tile, relabelled so the face's top is at p0-p1 as the player sees it
    rotation: float  # the photo's rotation against its edges, degrees
    #: one player's tiles alone (one band of rows, nothing across it): their seat is the camera
    #: seat whichever edge they face, since no table shows which edge is whose; `position` says
    #: only which way their rows run (bottom for rows across the photo, right for rows up it,
    #: whichever way the tiles face): they are cut along their long side, upright or upside down
    #: (the classifier reads both), and their order along the row may run either way
    alone: bool = False


def quad_sizes(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Widths and heights of N quads' corners (N x 4 x 2), as TileQuad.width and .height."""
    side = np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2)  # p0p1, p1p2, p2p3, p3p0
    return (side[:, 0] + side[:, 2]) / 2, (side[:, 1] + side[:, 3]) / 2


def _dominant_rotation(quads: list[TileQuad]) -> float:
    """The tiles' common rotation modulo 90 degrees (radians, in (-pi/4, pi/4])."""
    c = np.stack([q.corners for q in quads])
    up = (c[:, 0] + c[:, 1] - c[:, 2] - c[:, 3]) / 2
    angles = np.arctan2(up[:, 1], up[:, 0])
    w, h = quad_sizes(c)
    weights = w.astype(np.float64) * h
    z = np.sum(weights * np.exp(4j * angles))
    phi = np.angle(z) / 4  # up = (0,-1) has angle -pi/2, and 4*(-pi/2) = -2pi: zero rotation
    return float((phi + np.pi / 4) % (np.pi / 2) - np.pi / 4)


def rotate_points(points: np.ndarray, angle: float) -> np.ndarray:
    """Points (N x 2, photo pixels) turned by `angle` radians about the origin."""
    c, s = np.cos(angle), np.sin(angle)
    return points @ np.array([[c, s], [-s, c]])  # rotates by +angle (y down: clockwise on screen)


class _UnionFind:
    def __init__(self, n):
        self.p = list(range(n))

    def find(self, a):
        while self.p[a] != a:
            self.p[a] = self.p[self.p[a]]
            a = self.p[a]
        return a

    def union(self, a, b):
        self.p[self.find(a)] = self.find(b)

    def groups(self) -> list[list[int]]:
        out: dict[int, list[int]] = {}
        for i in range(len(self.p)):
            out.setdefault(self.find(i), []).append(i)
        return list(out.values())


#: a tile longer along its run than its mate but shorter across it than this share of the
#: mate's may lie sideways (its outline a little short, so a little apart from its run)
SIDEWAYS_ACROSS = 0.85


def _touch_unit(i: int, j: int, w: np.ndarray, h: np.ndarray) -> float:
    """The length along the run that a gap between tiles i and j is measured in: the shorter
    tile's, since an outline found too long along the run (taking in the tile's side; as tall
    across the run as its mate) closes the gap to the next set; but the longer tile's when it is
    also shorter across the run, as a sideways winning tile is."""
    long_, short = (i, j) if w[i] >= w[j] else (j, i)
    return float(w[long_] if h[long_] < SIDEWAYS_ACROSS * h[short] else w[short])


#: a row whose touching tiles all come out apart by the same few pixels (outlines found round
#: the inner face of a tile whose pale rim melts into its face: seed 7's table 44 at 4000x3000
#: in benchmarks/recognition.py, faces found 58-67 pixels long for tiles 85 apart, a kong's
#: gaps 20, 25 and 18, and 0.42 of 58 is 24) has gaps measured from that spacing: each tile's
#: smallest gap in its line, their median over the line, taken off every gap in it when it is
#: under this fraction of the line's median tile width (a row of tiles laid apart, bonus tiles,
#: keeps its gaps).  So is the overlap of a row whose touching tiles all come out a few pixels
#: too long (their sides in view: seed 2024's table 70 at 2560x1920, a side seat's tiles 44
#: apart found about 52 long, so a chow's 26-pixel gap to the concealed run showed as 18 and
#: the chow joined the run; since 2026-11-27, thirteenth session).
#: Held-out art: that seed's 100 tables 97/94 -> 98/95 seat and group / scores right; the other
#: sets of the battery (12 MP seeds 31, 99, 2024; 1280x960 seeds 2024, 99, 7; 1600, 2000 and
#: 2560 wide) and hust-riichi unchanged
ROW_SLACK = 0.3


@dataclass
class _Lines:
    """Each tile's line: the tiles on it turned alike (`mates[i, j]`: within ROW_OFFSET of i's
    height across and ROW_GAP of its width along), each pair's gap along i's line, and the
    median width and height of i's line's tiles, itself among them."""

    mates: np.ndarray
    members: np.ndarray  # mates, each tile among its own
    gap: np.ndarray
    width: np.ndarray
    height: np.ndarray

    @classmethod
    def of(cls, centers, u, n, w, h, vertical) -> "_Lines":
        d = centers[None, :, :] - centers[:, None, :]  # [i, j]: from tile i to tile j
        along, perp = np.abs(np.einsum("ijk,ik->ij", d, u)), np.abs(np.einsum("ijk,ik->ij", d, n))
        gap = along - (w[:, None] + w[None, :]) / 2
        mates = ((perp < ROW_OFFSET * h[:, None]) & (gap < ROW_GAP * w[:, None])
                 & (vertical[:, None] == vertical[None, :]))
        np.fill_diagonal(mates, False)
        members = mates | np.eye(len(centers), dtype=bool)  # its line's tiles and itself
        return cls(mates, members, gap, np.nanmedian(np.where(members, w[None, :], np.nan), axis=1),
                   np.nanmedian(np.where(members, h[None, :], np.nan), axis=1))


def _row_slack(lines: _Lines) -> np.ndarray:
    """Per tile: the gap its line's tiles keep to their nearest neighbour (the median, over the
    tiles of its orientation on its line, of each one's smallest gap; negative when touching
    tiles' outlines overlap), 0 when its size is over ROW_SLACK of their median width."""
    nearest = np.where(lines.mates, lines.gap, np.inf).min(axis=1)
    seen = lines.members & np.isfinite(nearest)[None, :]
    gaps = np.where(seen, nearest[None, :], np.nan)
    gaps[~seen.any(axis=1)] = 0.0  # a lone tile: no gap to take a median of
    median = np.nanmedian(gaps, axis=1)
    ok = (seen.sum(axis=1) >= 3) & (median != 0) & (np.abs(median) <= ROW_SLACK * lines.width)
    return np.where(ok, median, 0.0)


#: a find this much longer along its row than the median of its line's tiles, and as tall across
#: it as they are (so no sideways tile), is an outline stretched past its tile's side, into the
#: gap to the next set (the dark side of a tile, or striped cloth): its gaps are measured as if it
#: were as long as its line's tiles, so the stretch cannot close the gap.  Seed 5's table 8 at
#: 2000x1500 (in three art styles): a red dragon found 45 pixels long among tiles of 34, its chow
#: 0.63 of a tile away measured 0.26, and the chow joined the concealed run
STRETCHED = 1.15


def _unstretched(lines: _Lines, w: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Each tile's length along its row, a stretched find's (STRETCHED) that of its line's tiles."""
    enough = lines.mates.sum(axis=1) >= 2
    stretched = enough & (w > STRETCHED * lines.width) & (h >= SIDEWAYS_ACROSS * lines.height)
    return np.where(stretched, lines.width, w)


def _links(centers, u, n, w, h, vertical):
    """Touching links and same-row links between tiles (in the de-rotated photo frame).

    Tiles of one orientation link when they sit on one line; a lone tile turned across its
    neighbours (a sideways winning tile) joins a run only as seen from that run's tiles, so a
    seat's last tile never joins the next seat's row round the corner."""
    k = len(centers)
    touch, row = _UnionFind(k), _UnionFind(k)
    cross = []
    nearest = np.full(k, np.inf)  # each tile's smallest gap to a tile it touches by the usual measure
    relaxed = []  # (sideways tile, other, gap): touching only by the sideways tile's own length
    lines = _Lines.of(centers, u, n, w, h, vertical)
    slack = _row_slack(lines)
    length = _unstretched(lines, w, h)
    # [i, j]: tile j as seen along tile i's row, all pairs at once
    d = centers[None, :, :] - centers[:, None, :]
    along, perp = np.abs(np.einsum("ijk,ik->ij", d, u)), np.abs(np.einsum("ijk,ik->ij", d, n))
    ext = np.abs(u @ u.T) * length[None, :] + np.abs(u @ n.T) * h[None, :]  # j's extent along i's row
    gaps = along - (length[:, None] + ext) / 2
    candidates = (perp < ROW_OFFSET * h[:, None]) & (gaps < ROW_GAP * w[:, None])
    np.fill_diagonal(candidates, False)
    for i in range(k):
        gap = gaps[i]
        same = vertical == vertical[i]
        for j in np.nonzero(candidates[i])[0]:
            if same[j]:
                row.union(i, j)
                g = gap[j] - (slack[i] if abs(slack[i]) <= abs(slack[j]) else slack[j])  # nearer zero
                if g < TOUCH_GAP * min(w[i], w[j]):
                    touch.union(i, j)
                    nearest[i], nearest[j] = min(nearest[i], g), min(nearest[j], g)
                elif g < TOUCH_GAP * _touch_unit(i, j, w, h):
                    longer, other = (i, int(j)) if w[i] >= w[j] else (int(j), i)
                    relaxed.append((longer, other, float(g)))
            elif -0.3 * w[i] < gap[j] < CROSS_GAP * w[i]:
                cross.append((i, int(j), float(gap[j])))
    # a sideways winning tile lies at one end of its run: it joins by its own length only the
    # nearest tile, and none when it touches its run by the usual measure (seed 2024's table 38
    # at 2560x1920: a winning 3p touching its run on one side lay 0.53 of a tile width from a
    # concealed kong on the other, and the kong was taken into the concealed run)
    for s, o, g in sorted(relaxed, key=lambda r: r[2]):
        if g < nearest[s]:
            touch.union(s, o)
            nearest[s] = g
    # a tile with no tile of its own orientation anywhere along its line is turned across
    # its row: it joins the nearest touching run (a sideways winning tile)
    row_size = {}
    for i in range(k):
        row_size[row.find(i)] = row_size.get(row.find(i), 0) + 1
    joined = set()
    for i, j, _ in sorted(cross, key=lambda c: c[2]):
        if row_size[row.find(j)] == 1 and j not in joined and i not in joined:
            joined.add(j)
            touch.union(i, j)
    return touch, row, joined


#: a tile's row direction is averaged over tiles of its orientation within this many tile heights
SMOOTH_REACH = 2.5


def _smoothed_directions(u: np.ndarray, centers: np.ndarray, h: np.ndarray,
                         vertical: np.ndarray) -> np.ndarray:
    """Each tile's row direction averaged with its near neighbours' of the same orientation.
    A small tile's found outline may be turned several degrees; measured along a turned
    direction its neighbours look longer and a gap between sets closes, but a row is straight
    over a few tiles, so the neighbours' mean is the better direction."""
    d = np.linalg.norm(centers[:, None, :] - centers[None, :, :], axis=2)
    near = (d < SMOOTH_REACH * h[:, None]) & (vertical[:, None] == vertical[None, :])
    sign = np.sign(u @ u.T)  # a direction and its reverse are one
    mean = (near * sign) @ u
    return mean / (np.linalg.norm(mean, axis=1, keepdims=True) + 1e-9)


#: a tile whose short side is at least NEAR_SQUARE of its long side may be seen either way
#: round (a far tile in a steep photo, its outline a few pixels off): its width is taken to be
#: the side facing its nearest neighbour.  So is one down to ROW_SQUARE when that neighbour is
#: nearly square too (a far row, where upright tiles whose outlines came out a little wide
#: measured 0.80-0.82 and, judged by shape, were turned out of their row); beside elongated
#: neighbours such a tile is more likely lying sideways (a side seat's winning tile measured
#: 0.82 against its run mates' 0.65-0.75) and keeps its own shape.  ROW_SQUARE took synthetic
#: tables with every tile's seat and group right from 94.7% to 97.3% (150 procedural tables,
#: seed 77)
NEAR_SQUARE = 0.85
ROW_SQUARE = 0.78
#: a steeper photo foreshortens a far row's tiles further, down to 18 x 25 pixels (0.72) with the
#: long side along the row: such a tile, down to FORESHORTENED, whose nearest neighbour touches
#: its long side and is shaped and turned alike, lies in a foreshortened row (the one tile lying
#: sideways, the winning tile, has upright run mates, turned across it).  With true codes: 200
#: held-out-art tables of seed 99, seat and group right 94.0% -> 95.0%; seed 2024 98.5% -> 99.0%;
#: 200 procedural tables of seed 77 98.5% -> 99.0%
FORESHORTENED = 0.6
#: a tile whose nearly square neighbours lie this many of its long sides away on both sides
#: along its long side lies in their row (_between_row_mates).  A sideways winning tile's mates
#: lie 0.86 away on one side, a set beyond its run's end 1.2 or more on the other
BETWEEN_REACH = 1.0


def _settle_widths(quads: list[TileQuad]) -> list[TileQuad]:
    """Label every quad so p0-p1 is its short side.  Far tiles in a steep photo look almost
    square; their short side is then taken to be the one facing their nearest neighbour
    (tiles in a row touch side by side)."""
    if not quads:
        return []
    w, h = quad_sizes(np.stack([q.corners for q in quads]))
    quads = [q if w[i] <= h[i] else q.rotated(1) for i, q in enumerate(quads)]
    short, long = np.minimum(w, h), np.maximum(w, h)
    ratio = short / long
    centers = np.array([q.center for q in quads])
    dist = np.linalg.norm(centers[None, :, :] - centers[:, None, :], axis=2)
    np.fill_diagonal(dist, np.inf)
    out = []
    for i, q in enumerate(quads):
        if ratio[i] < FORESHORTENED or len(quads) < 2:
            out.append(q)
            continue
        d = dist[i]
        j = int(np.argmin(d))
        if ratio[i] < NEAR_SQUARE and (_in_foreshortened_row(quads, i, j, d[j], long, ratio)
                                       or _between_row_mates(quads, i, d, long, ratio)):
            out.append(q.rotated(1))  # (its neighbour lies along its long side: turned as below too)
            continue
        if ratio[i] < ROW_SQUARE or d[j] > 2.0 * long[i] or (ratio[i] < NEAR_SQUARE and ratio[j] < ROW_SQUARE):
            out.append(q)
            continue
        v = centers[j] - centers[i]
        across = (q.corners[1] - q.corners[0])  # width direction
        along = (q.corners[2] - q.corners[1])   # height direction
        a = abs(v @ across) / (np.linalg.norm(across) + 1e-9)
        b = abs(v @ along) / (np.linalg.norm(along) + 1e-9)
        out.append(q.rotated(1) if b > a else q)
    return out


def _in_foreshortened_row(quads: list[TileQuad], i: int, j: int, dist: float, long: np.ndarray,
                          ratio: np.ndarray) -> bool:
    """Tile i (short side p0-p1) and its nearest neighbour j touch along i's long side, and j
    is as elongated and turned alike: a far row seen so steeply that its tiles look longer
    along the row than across it."""
    if dist > 1.05 * long[i] or not FORESHORTENED <= ratio[j] < NEAR_SQUARE:
        return False
    qi, qj = quads[i], quads[j]
    along_i = qi.corners[2] - qi.corners[1]
    along_j = qj.corners[2] - qj.corners[1]
    along_i = along_i / (np.linalg.norm(along_i) + 1e-9)
    along_j = along_j / (np.linalg.norm(along_j) + 1e-9)
    v = (qj.center - qi.center) / (dist + 1e-9)
    return abs(float(v @ along_i)) > 0.8 and abs(float(along_i @ along_j)) > 0.8


def _between_row_mates(quads: list[TileQuad], i: int, dist: np.ndarray, long: np.ndarray,
                       ratio: np.ndarray) -> bool:
    """Tile i (short side p0-p1) touches a nearly square tile on each side along its long side:
    it lies in their row, its outline found too long along it (it took in part of a neighbour).
    The one tile lying sideways, the winning tile, ends its run: beyond it lies a gap."""
    along = quads[i].corners[2] - quads[i].corners[1]
    along = along / (np.linalg.norm(along) + 1e-9)
    sides = set()
    for j in np.nonzero((dist <= BETWEEN_REACH * long[i]) & (ratio >= ROW_SQUARE))[0]:
        v = quads[int(j)].center - quads[i].center
        if abs(float(v @ along)) >= 0.9 * dist[j]:
            sides.add(bool(v @ along > 0))
    return len(sides) == 2


def _turns_towards(corners: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """For each of N quads (N x 4 x 2 corners), the quarter turns k for which
    TileQuad.rotated(k).up points most nearly along its direction (N x 2); all four
    relabellings' up vectors of all quads at once."""
    c = corners.astype(np.float32)
    order = np.array([[k % 4, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4] for k in range(4)])
    v = (c[:, order[:, 0]] + c[:, order[:, 1]] - c[:, order[:, 2]] - c[:, order[:, 3]]) / 2  # N x 4 x 2
    ups = v / (np.linalg.norm(v, axis=2, keepdims=True) + 1e-9)
    return np.argmax(np.einsum("nkd,nd->nk", ups, directions), axis=1)


def _cluster_1d(values: np.ndarray, gap: float) -> list[list[int]]:
    order = np.argsort(values)
    out = [[int(order[0])]]
    for a, b in zip(order[:-1], order[1:]):
        if values[b] - values[a] > gap:
            out.append([])
        out[-1].append(int(b))
    return out


def group_tiles(quads: list[TileQuad]) -> TableLayout:
    """Seats, rows and runs of touching tiles, from the tile quads alone."""
    if not quads:
        return TableLayout([], [], [], [], 0.0)
    quads = _settle_widths(quads)
    rot = _dominant_rotation(quads)
    rc = rotate_points(np.stack([q.corners for q in quads]).astype(np.float64), -rot).astype(np.float32)
    centers = rc.mean(axis=1).astype(np.float64)
    w, h = (a.astype(np.float64) for a in quad_sizes(rc))
    # the row runs along a tile's top and bottom edges (under perspective these are not square
    # to its sides), so measure along the edges and square to them
    u = ((rc[:, 1] - rc[:, 0] + rc[:, 2] - rc[:, 3]) / 2).astype(np.float64)
    u /= np.linalg.norm(u, axis=1, keepdims=True) + 1e-9
    vertical = np.abs(u[:, 0]) >= np.abs(u[:, 1])  # long axis up-down in the photo
    u = _smoothed_directions(u, centers, h, vertical)
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    touch, rowuf, turned = _links(centers, u, n, w, h, vertical)
    runs = touch.groups()
    run_of = np.zeros(len(quads), int)
    for r, members in enumerate(runs):
        run_of[members] = r
    # rows: runs joined through same-orientation row links
    row_uf = _UnionFind(len(runs))
    for i in range(len(quads)):
        row_uf.union(run_of[i], run_of[rowuf.find(i)])
    rows = row_uf.groups()  # lists of run indices
    row_tiles = [[t for r in rr for t in runs[r]] for rr in rows]
    row_vertical = [np.mean(vertical[[t for t in tiles if t not in turned] or tiles]) >= 0.5
                    for tiles in row_tiles]
    row_center = [centers[t].mean(axis=0) for t in row_tiles]
    tile_h = float(np.median(h))
    # bands: rows of one seat lie within a few tile heights of each other
    position_of_row = [0] * len(rows)
    alone = False
    strays = _strays(row_tiles, row_vertical)
    v_rows = [i for i, v in enumerate(row_vertical) if v and i not in strays]
    h_rows = [i for i, v in enumerate(row_vertical) if not v and i not in strays]
    cx = np.mean([row_center[i][0] for i in v_rows]) if v_rows else None
    cy = np.mean([row_center[i][1] for i in h_rows]) if h_rows else None
    for ids, axis, low_pos, high_pos, centre in ((v_rows, 1, 2, 0, cy), (h_rows, 0, 3, 1, cx)):
        if not ids:
            continue
        vals = np.array([row_center[i][axis] for i in ids])
        bands = _cluster_1d(vals, 3.2 * tile_h)
        band_means = [vals[b].mean() for b in bands]
        if centre is None and len(bands) == 1:
            # one band and nothing across it: a single player's tiles (the photo turned a
            # quarter when their rows run up it: a side position, so they are cut along their
            # long side)
            alone = True
            for k in bands[0]:
                position_of_row[ids[k]] = high_pos
            continue
        if centre is None:
            centre = (min(band_means) + max(band_means)) / 2
        for b, m in zip(bands, band_means):
            pos = high_pos if m > centre else low_pos
            for k in b:
                position_of_row[ids[k]] = pos
    row_index = {t: ri for ri, tiles in enumerate(row_tiles) for t in tiles}
    seated = [t for ri, tiles in enumerate(row_tiles) if ri not in strays for t in tiles]
    for ri in strays:  # a stray goes with the tile nearest it
        d = np.linalg.norm(centers[seated] - centers[row_tiles[ri][0]], axis=1)
        position_of_row[ri] = position_of_row[row_index[seated[int(np.argmin(d))]]]
    position = [0] * len(quads)
    for ri, tiles in enumerate(row_tiles):
        for t in tiles:
            position[t] = position_of_row[ri]
    # a lone, nearly square tile (far away in a steep photo) may have been read across: it
    # belongs with the nearest tile.  Nearly square as _settle_widths has it: NEAR_SQUARE, or
    # down to ROW_SQUARE beside a nearly square tile (seed 2024's table 3 at 2000x1500: West's
    # f3 past the far row's end, 0.82, its row mates 40 x 40, went to North's second row)
    square = np.minimum(w, h) / np.maximum(w, h)
    for i in range(len(quads)):
        if len(row_tiles[row_index[i]]) > 1 or len(quads) < 2:
            continue
        d = np.linalg.norm(centers - centers[i], axis=1)
        d[i] = np.inf
        j = int(np.argmin(d))
        if w[i] > NEAR_SQUARE * h[i] or (w[i] > ROW_SQUARE * h[i] and square[j] >= NEAR_SQUARE):
            position[i] = position[j]
            position_of_row[row_index[i]] = position[i]
    # a tile much longer along its run than its run mates, and shaped so against them, lies
    # sideways (perspective shortens the whole run alike, so this holds where a tile's own
    # aspect cannot be trusted)
    turned = set(turned)
    strength: dict[int, float] = {}  # how much more sideways-shaped a tile is than its run mates
    for members in runs:
        if len(members) < 2:
            continue
        pts = centers[members]
        axis = pts[-1] - pts[0] if len(members) == 2 else np.linalg.svd(pts - pts.mean(axis=0))[2][0]
        axis = axis / (np.linalg.norm(axis) + 1e-9)
        corners = rc[members].astype(np.float64)
        ext = np.ptp(corners @ axis, axis=1)
        shape = _shape_along(corners, axis)
        # compare each tile with its nearest run mates (perspective changes sizes along a run)
        dist = np.linalg.norm(pts[None, :, :] - pts[:, None, :], axis=2)
        np.fill_diagonal(dist, np.inf)
        for k in range(len(members)):
            near = np.argsort(dist[k])[:2] if len(members) > 2 else np.argsort(dist[k])[:1]
            strength[members[k]] = shape[k] / float(np.mean(shape[near]))
            shaped = strength[members[k]] > SIDEWAYS_SHAPE
            if members[k] in turned and not shaped:
                # turned across its run only by its outline's orientation (a nearly square
                # far tile's can flip) but not shaped so against its run mates: not sideways
                turned.discard(members[k])
            elif (shaped and ext[k] > SIDEWAYS_LENGTH * float(np.mean(ext[near]))
                    and all(ext[k] > 1.1 * ext[j] for j in near)):
                turned.add(members[k])
    if len(turned) > 1:
        # only the winning tile lies sideways (LAYOUT.md): a second find is an outline a little
        # big (a far tile's, or one merged with its shadow); the tile most unlike its run mates
        # stays; one measured against two mates a little before one measured against a single
        # mate (SIDEWAYS_TWO_MATES), one in a run a winner's concealed tiles make before one in
        # another (SIDEWAYS_WINNERS_RUN)
        turned = {max(turned, key=lambda t: strength.get(t, 0.0) * _sideways_preference(len(runs[run_of[t]])))}
    if not turned:
        turned = _sideways_stray(strays, row_tiles, seated, w / h)
    for t in turned:
        _end_run_at(t, runs, rows, run_of, rc)
    # orient every tile for its seat and spot the sideways one
    sideways = [i in turned for i in range(len(quads))]
    # a quarter-turned tile's top, as its player sees it, points to the player's left
    toward = np.array([-RIGHT[position[i]] if sideways[i] else UP[position[i]] for i in range(len(quads))])
    turns = _turns_towards(np.stack([q.corners for q in quads]), rotate_points(toward, rot))
    out_quads = [q.rotated(int(k)) for q, k in zip(quads, turns)]
    # seats: groups ordered by the player's view
    seats = []
    for pos in range(4):
        members = [ri for ri in range(len(rows)) if position_of_row[ri] == pos]
        if not members:
            continue
        right = RIGHT[pos]
        up = UP[pos]
        depth = {ri: float(row_center[ri] @ up) for ri in members}  # grows away from the player
        groups = []
        for ri in members:
            # rows on one line (a run far along it) share a rank; a second row lies a tile deeper
            # (a stray lying nearer the player puts no row behind it)
            rank = sum(1 for rj in members if rj not in strays and depth[rj] < depth[ri] - 0.9 * tile_h)
            for r in rows[ri]:
                tiles = sorted(runs[r], key=lambda t: float(centers[t] @ right))
                groups.append(Group(tiles, rank))
        groups.sort(key=lambda g: (g.row, float(np.mean([centers[t] @ right for t in g.tiles]))))
        _mark_concealed(groups, sideways)
        seats.append(SeatLayout(pos, groups))
    return TableLayout(seats, position, sideways, out_quads, float(np.degrees(rot)), alone)


def _strays(row_tiles: list[list[int]], row_vertical: list[bool]) -> set[int]:
    """The rows that are strays, no seat's row: when every row turned one way is a lone find, at
    most STRAYS of them, and the rows turned the other way hold STRAYS_BESIDE tiles or more (one
    player's tiles, and a rack's corner or a die found turned across them, or their sideways
    winning tile laid apart).  Taken for rows of a side seat, such a find made a seat of its own
    and set where the table's middle lies, and the player's tiles went to the far edge (seed
    2024's racks table 26 at 2000x1500 in benchmarks/recognition.py: East's 16 tiles as West's)."""
    for turned in (True, False):
        mine = [i for i, v in enumerate(row_vertical) if v == turned]
        others = sum(len(row_tiles[i]) for i, v in enumerate(row_vertical) if v != turned)
        if mine and len(mine) <= STRAYS and others >= STRAYS_BESIDE and all(len(row_tiles[i]) == 1 for i in mine):
            return set(mine)
    return set()


def _sideways_stray(strays: set[int], row_tiles: list[list[int]], seated: list[int],
                    aspect: np.ndarray) -> set[int]:
    """The tile of the one stray row (_strays) when it is shaped like a tile (its short side over
    its long within STRAY_SHAPE of the seated tiles' median) and no other tile lies sideways:
    one player's winning tile turned across their row and laid apart from it (LAYOUT.md lays the
    winning tile sideways).  A rack's corner is far longer than a tile, a die nearly square."""
    if len(strays) != 1 or not seated:
        return set()
    t = row_tiles[next(iter(strays))][0]
    ratio = aspect[t] / float(np.median(aspect[seated]))
    return {t} if STRAY_SHAPE[0] <= ratio <= STRAY_SHAPE[1] else set()


def _sideways_preference(run_length: int) -> float:
    """How much a sideways candidate's strength counts for by the length of its run of touching
    tiles (SIDEWAYS_TWO_MATES, SIDEWAYS_WINNERS_RUN)."""
    return ((SIDEWAYS_TWO_MATES if run_length > 2 else 1.0)
            * (SIDEWAYS_WINNERS_RUN if run_length % 3 == 2 else 1.0))


def _shape_along(corners: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """Each outline's length along `axis` over its breadth, from its own sides (m x 4 x 2
    corners).  Measured from the sides, not from the corners' spread along the axis: an outline
    a few degrees off its run's line (the run's line bent by perspective, or the outline turned
    a little) spreads wider across than it is, and a sideways tile then looks less sideways than
    it is (seed 2024's phone-size table 104: West's sideways 4p, 85 x 47, 7 degrees off the
    run's line, measured 1.59 by its spread and 1.81 by its sides, against run mates' 1.2-1.3)."""
    sides = np.roll(corners, -1, axis=1) - corners  # sides 01, 12, 23, 30
    length = np.linalg.norm(sides, axis=2)
    first = (length[:, 0] + length[:, 2]) / 2
    second = (length[:, 1] + length[:, 3]) / 2
    cos_first = np.abs(sides[:, 0] @ axis) / np.maximum(length[:, 0], 1e-6)
    cos_second = np.abs(sides[:, 1] @ axis) / np.maximum(length[:, 1], 1e-6)
    along_first = cos_first >= cos_second
    along = np.where(along_first, first, second)
    across = np.where(along_first, second, first)
    return along / np.maximum(across, 1e-6)


def _end_run_at(t: int, runs: list[list[int]], rows: list[list[int]], run_of: np.ndarray,
                corners: np.ndarray) -> None:
    """The sideways winning tile t ends its run (LAYOUT.md): when it touches tiles on both of
    its sides, the side beyond the wider gap is a set of its own, and becomes a run of the same
    row (seed 2024's table 71 at 2560x1920: a winning 9s touched its run on one side and a kong
    on the other, 0.40 of a tile width away as found, its outlines taking in the tiles' sides,
    and the kong was taken into the concealed run).  `runs` and `rows` change in place."""
    r = int(run_of[t])
    members = runs[r]
    if len(members) < 3:
        return
    pts = corners[members].mean(axis=1).astype(np.float64)
    axis = np.linalg.svd(pts - pts.mean(axis=0))[2][0]
    ext = corners[members].astype(np.float64) @ axis  # each member's corners along the run
    k = members.index(t)
    lo, hi = ext.min(axis=1), ext.max(axis=1)
    before = [m for m in range(len(members)) if hi[m] <= hi[k] and m != k and lo[m] < lo[k]]
    after = [m for m in range(len(members)) if lo[m] >= lo[k] and m != k and hi[m] > hi[k]]
    if not before or not after:
        return
    gap_before = lo[k] - max(hi[m] for m in before)
    gap_after = min(lo[m] for m in after) - hi[k]
    cut = after if gap_after > gap_before else before
    beyond = [members[m] for m in cut]
    runs[r] = [x for x in members if x not in beyond]
    runs.append(beyond)
    run_of[beyond] = len(runs) - 1
    next(rr for rr in rows if r in rr).append(len(runs) - 1)


def _mark_concealed(groups: list[Group], sideways: list[bool]) -> None:
    """The concealed run: the one holding a sideways (winning) tile among others (one lying
    sideways by itself, laid apart from the run, marks no run: vision.hands takes it for the
    winning tile), else the first run of the
    nearest row that cannot be a set (not 3 or 4 tiles), else that row's first run.  Among runs
    that cannot be sets the first of five or more tiles is taken (LAYOUT.md lays the sets to
    the right of the concealed run; a set with a bonus tile touching it, or two sets laid
    without a gap, make a long run further right), else the longest (a lone bonus tile may
    lie left of a short concealed run)."""
    if not groups:
        return
    for g in groups:
        if len(g.tiles) > 1 and any(sideways[t] for t in g.tiles):
            g.concealed = True
            return
    nearest = [g for g in groups if g.row == 0]
    odd = [g for g in nearest if len(g.tiles) not in (3, 4)]
    long_runs = [g for g in odd if len(g.tiles) >= 5]
    pick = long_runs[0] if long_runs else max(odd, key=lambda g: len(g.tiles)) if odd else nearest[0]
    pick.concealed = True

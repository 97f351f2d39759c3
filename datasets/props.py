"""What else lies on a finished table: dice, scoring sticks, coins and counters.

A real table keeps its dice, the players' sticks or chips and some coins when the photo is taken.
None of them is a tile, and a tile finder trained on tiles alone finds a white die as a blank
dragon or a coin as a face-down tile.  `draw_props` paints a few of them on a synthetic table
(`datasets.synth_table.make_table(props=True)`), where no tile lies, through the same camera as
the tiles, and returns where they are, so that the benchmarks can count what the pipeline takes
for a tile and the tile check (vision/tile_check.py) can learn from them.

Sizes are a real set's, in tile widths (a tile is about 20 mm wide): dice 12-16 mm (0.6-0.8),
sticks 90-110 mm long and 4-6 mm wide (4.5-5.5 by 0.2-0.3), coins 16-26 mm across (0.8-1.3),
chips 30-40 mm across (1.5-2).
"""

from __future__ import annotations

import cv2
import numpy as np

KINDS = ("dice", "sticks", "coins", "chips")

_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, 1), (-1, 1), (1, -1)], 5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
         6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}


def _rot(a: float) -> np.ndarray:
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def _free(box: np.ndarray, taken: list[np.ndarray], margin: float) -> bool:
    """True when the canvas box (x0, y0, x1, y1) keeps `margin` clear of every taken box."""
    return all(box[0] > t[2] + margin or box[2] < t[0] - margin or box[1] > t[3] + margin
               or box[3] < t[1] - margin for t in taken)


def _shape(rng, kind: str, tw: float) -> list[tuple[str, np.ndarray, dict]]:
    """One prop group about (0, 0) in canvas units: [(kind, outline points, paint)]."""
    out = []
    if kind == "dice":
        for _ in range(int(rng.integers(2, 4))):
            s = tw * rng.uniform(0.6, 0.8)
            c = rng.uniform(-1.2, 1.2, 2) * tw
            sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * s / 2
            rot = _rot(rng.uniform(0, np.pi / 2))
            red = rng.random() < 0.25
            out.append(("die", sq @ rot.T + c, {"pips": int(rng.integers(1, 7)), "rot": rot, "centre": c,
                                                 "size": s, "colour": (40, 40, 190) if red else (236, 240, 242)}))
    elif kind == "sticks":
        a0 = rng.uniform(0, np.pi)
        for _ in range(int(rng.integers(3, 10))):
            length, width = tw * rng.uniform(4.5, 5.5), tw * rng.uniform(0.2, 0.3)
            c = rng.uniform(-0.8, 0.8, 2) * tw
            rot = _rot(a0 + rng.uniform(-0.25, 0.25))
            bar = np.array([[-length / 2, -width / 2], [length / 2, -width / 2],
                            [length / 2, width / 2], [-length / 2, width / 2]])
            out.append(("stick", bar @ rot.T + c, {"rot": rot, "centre": c, "length": length, "width": width,
                                                   "dots": int(rng.choice([1, 2, 5, 8, 10]))}))
    elif kind == "coins":
        for _ in range(int(rng.integers(2, 6))):
            r = tw * rng.uniform(0.4, 0.65)
            c = rng.uniform(-1.5, 1.5, 2) * tw
            ang = np.linspace(0, 2 * np.pi, 48, endpoint=False)
            colour = [(60, 165, 205), (185, 185, 180), (70, 110, 160)][int(rng.integers(3))]
            out.append(("coin", np.stack([np.cos(ang), np.sin(ang)], 1) * r + c, {"colour": colour}))
    else:
        for _ in range(int(rng.integers(1, 5))):
            r = tw * rng.uniform(0.75, 1.0)
            c = rng.uniform(-1.5, 1.5, 2) * tw
            ang = np.linspace(0, 2 * np.pi, 64, endpoint=False)
            colour = [(40, 40, 180), (160, 90, 30), (40, 140, 40), (30, 30, 30), (220, 220, 220)][int(rng.integers(5))]
            out.append(("chip", np.stack([np.cos(ang), np.sin(ang)], 1) * r + c, {"colour": colour}))
    return out


def draw_props(rng: np.random.Generator, img: np.ndarray, to_photo, canvas: tuple[int, int],
               tiles: list[np.ndarray], tw: float, px_per_unit: float) -> list[dict]:
    """Paint one to three groups of props where no tile lies; returns [{"kind", "quad", "box"}]
    in photo pixels.  `to_photo`: canvas points -> photo points; `tiles`: the tiles' canvas
    corners; `tw`: a tile's width in canvas units; `px_per_unit`: photo pixels per canvas unit."""
    w, h = canvas
    taken = [np.r_[t.min(axis=0), t.max(axis=0)] for t in tiles]
    found: list[dict] = []
    for kind in rng.choice(KINDS, size=int(rng.integers(1, 4)), replace=False):
        parts = _shape(rng, str(kind), tw)
        for _ in range(30):  # somewhere clear of the tiles, mostly the table's middle
            at = np.array([w, h]) * (0.5 + rng.uniform(-0.3, 0.3, 2))
            boxes = [np.r_[p.min(axis=0), p.max(axis=0)] + np.r_[at, at] for _, p, _ in parts]
            if all(_free(b, taken, 0.4 * tw) for b in boxes):
                break
        else:
            continue
        taken += boxes
        for name, pts, paint in parts:
            quad = to_photo(pts + at)
            _paint(img, name, quad, paint, at, to_photo, px_per_unit)
            found.append({"kind": name, "quad": quad.round(2).tolist(),
                          "box": [round(float(v), 2) for v in (*quad.min(axis=0), *quad.max(axis=0))]})
    return found


def _paint(img, name: str, quad: np.ndarray, paint: dict, at: np.ndarray, to_photo, px: float) -> None:
    poly = np.round(quad * 16).astype(np.int32)
    aa = dict(lineType=cv2.LINE_AA, shift=4)
    if name in ("coin", "chip"):
        colour = paint["colour"]
        cv2.fillPoly(img, [np.round((quad + [1.5, 2.5]) * 16).astype(np.int32)], (70, 70, 70), **aa)
        cv2.fillPoly(img, [poly], colour, **aa)
        rim = tuple(int(c * 0.7) for c in colour)
        cv2.polylines(img, [poly], True, rim, max(1, int(px * 2)), **aa)
        if name == "chip":  # an inner ring
            inner = (quad - quad.mean(axis=0)) * 0.65 + quad.mean(axis=0)
            cv2.polylines(img, [np.round(inner * 16).astype(np.int32)], True, (235, 235, 235), max(1, int(px * 3)), **aa)
        return
    if name == "die":
        cv2.fillConvexPoly(img, np.round((quad + [2, 4]) * 16).astype(np.int32), (80, 80, 80), **aa)
        cv2.fillConvexPoly(img, poly, paint["colour"], **aa)
        s, rot, c = paint["size"], paint["rot"], paint["centre"]
        n = paint["pips"]
        ink = (255, 255, 255) if paint["colour"][2] > 150 and paint["colour"][0] < 100 else \
            ((30, 30, 190) if n in (1, 4) else (25, 25, 25))
        r = max(1.0, s * px * (0.13 if n == 1 else 0.09))
        for p in _PIPS[n]:
            at_px = to_photo((np.array([p], float) * s * 0.27) @ rot.T + c + at)[0]
            cv2.circle(img, tuple(np.round(at_px * 16).astype(int)), int(r * 16), ink, -1, **aa)
        return
    # stick: ivory with dots along it
    cv2.fillConvexPoly(img, np.round((quad + [1, 2]) * 16).astype(np.int32), (90, 90, 90), **aa)
    cv2.fillConvexPoly(img, poly, (214, 228, 238), **aa)
    rot, c, length, width = paint["rot"], paint["centre"], paint["length"], paint["width"]
    k = paint["dots"]
    for t in np.linspace(-0.35, 0.35, k) if k > 1 else [0.0]:
        at_px = to_photo(np.array([[t * length, 0.0]]) @ rot.T + c + at)[0]
        colour = (40, 40, 190) if k in (1, 5) else (35, 35, 35)
        cv2.circle(img, tuple(np.round(at_px * 16).astype(int)), int(max(1.0, width * px * 0.3) * 16), colour, -1, **aa)

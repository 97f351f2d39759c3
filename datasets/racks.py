"""Tile racks left on the table: the long bars players stand their tiles on during the hand.

At the end of a hand each player lays the tiles face up in front of the rack, between it and the
table's middle, and the rack stays where it was, just behind the row: a long bar, wooden,
black, ivory or coloured plastic, a lip along its top and a slanted face where the tiles leaned.
Seen from a tilted camera its sides show like a tall tile's.  A tile finder trained on tables
without racks may take an ivory rack, or a piece of one, for tiles, or its edge for a row's end.

`rack_outline` places one rack behind a seat's row (in that seat's own frame, before the table
turns it to its place) and `draw_rack` paints it through the camera like the tiles
(`datasets.synth_table.make_table(racks=True)`).  Sizes in tile widths (a tile about 20-25 mm
wide): racks 14-20 long (Chinese and Hong Kong racks are shorter, American ones 45-48 cm) and
1.3-2.8 deep seen from above, standing 1.5-2.2 times a lying tile's thickness.
"""

from __future__ import annotations

import cv2
import numpy as np

#: rack colours (BGR): woods, black, ivory and cream, white, coloured plastics
COLOURS = ((60, 100, 150), (40, 70, 115), (95, 140, 185), (30, 30, 32), (205, 225, 235),
           (190, 215, 230), (235, 236, 236), (40, 40, 170), (150, 80, 30), (50, 120, 40),
           (120, 50, 100))
#: the colours of real wood: drawn with a grain along the rack
WOODS = (0, 1, 2)


def rack_outline(rng: np.random.Generator, row_x: tuple[float, float], row_near: float,
                 tw: float) -> dict:
    """One rack behind a seat's row, in the bottom seat's frame (x along the row, y growing
    toward the player): `row_x` the row's left and right ends, `row_near` the row's edge nearest
    the player.  Returns {"corners": (4, 2) top-face outline (far-left, far-right, near-right,
    near-left), "lip": share of the depth that is the flat lip (player's side), "colour",
    "height": its height in lying-tile thicknesses}."""
    length = tw * float(rng.uniform(14, 20))
    depth = tw * float(rng.uniform(1.3, 2.8))
    centre = (row_x[0] + row_x[1]) / 2 + tw * float(rng.uniform(-2, 2))
    y0 = row_near + tw * float(rng.uniform(0.1, 0.8))
    x0, x1 = centre - length / 2, centre + length / 2
    corners = np.array([[x0, y0], [x1, y0], [x1, y0 + depth], [x0, y0 + depth]], np.float64)
    return {"corners": corners, "lip": float(rng.uniform(0.25, 0.45)),
            "colour": COLOURS[int(rng.integers(len(COLOURS)))], "height": float(rng.uniform(1.5, 2.2)),
            "grain": int(rng.integers(1 << 30))}


def draw_rack(img: np.ndarray, quad: np.ndarray, lip_quad: np.ndarray, rack: dict, depth: np.ndarray,
              shade: np.ndarray) -> None:
    """Paint one rack on the photo: its shadow, its sides (swept along the camera's view of its
    height, `depth` being a lying tile's), its slanted face darker than the flat lip.  `quad`:
    the top face in photo pixels in `rack_outline`'s corner order; `lip_quad`: the lip's part."""
    h, w = img.shape[:2]
    up = np.asarray(depth, np.float32) * rack["height"]
    q = np.asarray(quad, np.float32)
    pts = np.concatenate([q, q + up * 1.6])
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 8
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    off = np.array([x0, y0], np.float32)
    colour = np.array(rack["colour"], np.float32)
    sh = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(sh, np.round(q + up * 1.6 - off).astype(np.int32), 1.0)
    sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, float(np.linalg.norm(up))))
    roi[:] = (roi * (1 - 0.5 * sh[..., None])).astype(np.uint8)
    layer = np.zeros_like(roi, np.float32)
    mask = np.zeros(roi.shape[:2], np.float32)
    hull = cv2.convexHull(np.concatenate([q, q + up]).astype(np.float32)).reshape(-1, 2)
    cv2.fillConvexPoly(layer, np.round(hull - off).astype(np.int32), tuple(float(c) for c in colour * 0.62),
                       lineType=cv2.LINE_AA)
    cv2.fillConvexPoly(mask, np.round(hull - off).astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    cv2.fillConvexPoly(layer, np.round(q - off).astype(np.int32), tuple(float(c) for c in colour * 0.82),
                       lineType=cv2.LINE_AA)
    cv2.fillConvexPoly(layer, np.round(np.asarray(lip_quad, np.float32) - off).astype(np.int32),
                       tuple(float(min(255.0, c * 1.05 + 8)) for c in colour), lineType=cv2.LINE_AA)
    # a groove where the slanted face meets the lip
    lip = np.asarray(lip_quad, np.float32)
    cv2.line(layer, tuple(np.round((lip[0] - off) * 16).astype(int)), tuple(np.round((lip[1] - off) * 16).astype(int)),
             tuple(float(c) for c in colour * 0.5), 1, cv2.LINE_AA, shift=4)
    if rack["colour"] in (COLOURS[i] for i in WOODS):  # grain along the rack
        along = (q[1] - q[0]) / max(1e-6, float(np.linalg.norm(q[1] - q[0])))
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        across = (xx - q[0, 0]) * -along[1] + (yy - q[0, 1]) * along[0]
        wobble = np.random.default_rng(rack["grain"]).uniform(0, 2 * np.pi, 2)
        stripes = np.sin(across / 2.5 + wobble[0]) + 0.6 * np.sin(across / 7.1 + wobble[1])
        layer *= (1 + 0.05 * stripes)[..., None]
    lit = layer * shade[y0:y1, x0:x1, None]
    a = mask[..., None]
    roi[:] = (roi * (1 - a) + lit * a).clip(0, 255).astype(np.uint8)

"""A warm light's colour cast taken off the tiles before they are read.

Under a tungsten bulb a phone's white balance often leaves the photo orange, and a blank white
dragon lit so looks like the yellow back of a face-down tile (benchmarks/recognition.py's
hust-riichi test photos under a warm cast: 38 of their 78 blank white dragons read as `back`).
Pale tile faces are the one thing of known colour in a table photo, so they tell the light: the
brightest quarter of each tile's crop is its face, and the median over the tiles is the light's
colour on ivory.  When that colour is one a warm light gives (blue far under red, green a little
under it) and no pale tile set shows, the photo's channels are scaled so the faces come out as
a common ivory.  Sets whose faces are not pale (jade, lacquer: their brightest quarter is rim or
marks) give other colours and are left as they are."""

from __future__ import annotations

import cv2
import numpy as np

#: the brightest share of a crop's pixels taken as its face
FACE_SHARE = 0.25
#: faces this warm are balanced: their blue under WARM_BLUE of their red, their green between
#: WARM_GREEN and 1 of it, their red at least PALE_RED (pale faces, not a dark set's rim).
#: Measured on the tiles the pipeline finds, with the bundled models (scratch counts, 2026-11-29):
#: 40 hust-riichi photos as taken give blue 0.88-0.96 of red, green 0.95-0.99 (none of the 256 is
#: balanced); the same under the benchmark's warm cast (blue 70%, red 110%) blue 0.59-0.61, green
#: 0.88-0.90, red 213-222; 40-table samples of synthetic tables in the trained pale styles and
#: the held-out one blue 0.79-1.08 (none of the benchmark's 500 held-out-art tables at 1280x960
#: to 2560x1920 and 100 with props is balanced); KMahjongg's jade and procedural dark sets, whose
#: brightest quarter is rim or marks, blue 0.45-0.80 of red but green 0.46-0.84 or 1.0-1.7 of it,
#: or red under 125 where green lies between (and the benchmark finds most of them in the
#: photo's negative, where no balance is tried)
WARM_BLUE = 0.75
WARM_GREEN = 0.85
PALE_RED = 150.0
#: the face colour a warm-lit photo is brought to (blue and green as shares of red): the ivory
#: of the hust-riichi photos as taken
IVORY = (0.9, 0.96)


def face_colour(crops: list[np.ndarray]) -> np.ndarray:
    """The tiles' face colour (B, G, R): the median over the crops of each one's brightest
    FACE_SHARE of pixels, averaged."""
    faces = []
    for crop in crops:
        pixels = crop.reshape(-1, 3).astype(np.float32)
        grey = pixels.mean(axis=1)
        faces.append(pixels[grey >= np.quantile(grey, 1 - FACE_SHARE)].mean(axis=0))
    return np.median(np.array(faces), axis=0)


def warm_light_gains(crops: list[np.ndarray]) -> np.ndarray | None:
    """Per-channel gains (B, G, R) that bring pale faces lit by a warm light to ivory, or None
    when the faces show no such light (or there are none)."""
    if not crops:
        return None
    b, g, r = (float(v) for v in face_colour(crops))
    if r < PALE_RED or b >= WARM_BLUE * r or not WARM_GREEN * r <= g <= r:
        return None
    return np.array([IVORY[0] * r / max(b, 1.0), IVORY[1] * r / max(g, 1.0), 1.0], np.float32)


def balanced(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """The BGR uint8 image with its channels scaled by `gains` (clipped at white): a lookup table
    per channel, a few milliseconds for a 12 MP photo."""
    levels = np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32)[None, :]
    table = np.clip(np.rint(levels), 0, 255).astype(np.uint8).reshape(1, 256, 3)
    return cv2.LUT(image, table)

"""A warm light's colour cast taken off the tiles before they are read.

Under a tungsten bulb a phone's white balance often leaves the photo orange, and a blank white
dragon lit so looks like the yellow back of a face-down tile (benchmarks/recognition.py's
hust-riichi test photos under a warm cast: 38 of their 78 blank white dragons read as `back`).
Pale tile faces are the one thing of known colour in a table photo, so they tell the light: the
brightest quarter of each tile's crop is its face, and the median over the tiles is the light's
colour on ivory.  When that colour is one a warm light gives (blue far under red, green a little
under it), the photo's channels are scaled so the faces come out as a common ivory.  Sets whose
faces are not pale (jade, lacquer: their brightest quarter is rim or marks) give other colours,
and a set found in the photo's negative is never judged (vision.recognize)."""

from __future__ import annotations

import cv2
import numpy as np

#: the brightest share of a crop's pixels taken as its face
FACE_SHARE = 0.25
#: the size (width, height) a crop is shrunk to before its brightest pixels are taken
FACE_GRID = (12, 16)
#: faces this warm are balanced: their blue under WARM_BLUE of their red, their green between
#: WARM_GREEN and 1 of it, their red at least PALE_RED (faces bright enough to tell a light by).
#: Measured on the tiles the pipeline finds, with the bundled models (scratch counts, 2026-11-29):
#: the 234 hust-riichi photos with tiles, as taken, give blue 0.85-1.00 of red and green 0.94-1.01
#: (none is balanced); its test photos under the benchmark's warm cast (blue 70%, red 110%; the 77
#: whose finds are read in the photo, not its negative) blue 0.57-0.73, green 0.88-1.00, red
#: 206-255, and dimmed to 45% as well blue 0.56-0.63, green 0.88-0.91, red 92-132 (all balanced);
#: 40 procedural tables blue 0.79-1.01.  50 tables of KMahjongg's jade set and 50 of procedural
#: dark faces, whose brightest quarter is rim or marks, reach blue 0.45 of red; where it is under
#: 0.75, green is 0.46-0.80 or 1.01-1.24 of red but for three dark tables (green 0.91-0.99, red
#: 116-137), and those, as all but two of the hundred, are found in the photo's negative, where no
#: balance is tried.  Green's floor was 0.85 until 2026-12-01: a warm light clipped at white (the
#: benchmark's cast on bright faces) hides some of its red, and dimmed, where nothing clips, 3 of 38
#: procedural tables (seed 7, 2000x1500, dimmed to 45% and warm-lit) gave green 0.836-0.841 and were
#: not balanced, and a table of cream faces (seed 1's fifth) read its three white dragons as backs;
#: the floor now lies between those and the jade rims' 0.80 (in the same sweep every jade and dark
#: table, 30 each, as taken, warm-lit and dimmed, was found in the negative)
WARM_BLUE = 0.75
WARM_GREEN = 0.82
PALE_RED = 64.0
#: the face colour a warm-lit photo is brought to (blue and green as shares of red): the ivory
#: of the hust-riichi photos as taken
IVORY = (0.9, 0.96)


def face_colour(crops: list[np.ndarray]) -> np.ndarray:
    """The tiles' face colour (B, G, R): the median over the crops of each one's brightest
    FACE_SHARE of pixels, averaged, each crop first shrunk to FACE_GRID pixels (a 12 MP photo's
    56 crops in a few milliseconds)."""
    small = np.stack([cv2.resize(c, FACE_GRID, interpolation=cv2.INTER_LINEAR) for c in crops])
    pixels = small.reshape(len(crops), -1, 3).astype(np.float32)
    grey = pixels.mean(axis=2)
    brightest = max(1, int(round(grey.shape[1] * FACE_SHARE)))
    which = np.argpartition(grey, -brightest, axis=1)[:, -brightest:]
    faces = np.take_along_axis(pixels, which[:, :, None], axis=1).mean(axis=1)
    return np.median(faces, axis=0)


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
    per channel (25-45 ms for a 12 MP photo on a slow machine, paid only by a photo balanced)."""
    levels = np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32)[None, :]
    table = np.clip(np.rint(levels), 0, 255).astype(np.uint8).reshape(1, 256, 3)
    return cv2.LUT(image, table)

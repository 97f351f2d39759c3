"""Is the mark that names a flower or season still readable in an augmented crop?

Flowers and seasons differ only in a small character (and a corner number).  The augmentations
that make a crop look like a phone photo (a small tile, blur, low resolution, noise, JPEG) can
wipe that mark out; such a crop still shows a bonus tile, but nothing in its pixels says which
one, so no reader can name it, and counting it in a test set measures chance, not the reader.
This is the don't-care idea of text-recognition benchmarks (ICDAR marks illegible words "###"
and leaves them out of the recognition score).

The check is counterfactual: the test-set builder renders the same crop twice with the same
random choices (scene, camera, light, noise), the second time with the character and number of
its partner tile (`PARTNER`: the other flower or season of its pair, which shares the mark's
colour and place; `TileStyle.bonus_mark_of`, or `tile_art.swap_mark` for packaged art), and
compares the two crops at the model's input size.  Where the two marks differ in too few pixels
by a visible amount, nothing in the crop tells the tile from its partner: it is illegible.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets import tile_art

#: the tile each flower or season is told apart from
PARTNER = {"f1": "f2", "f2": "f1", "f3": "f4", "f4": "f3", "f5": "f6", "f6": "f5", "f7": "f8", "f8": "f7"}
#: a pixel shows the mark's detail where the difference between the two crops changes by at
#: least this much per pixel (Sobel gradient, in grey levels): blur that leaves two marks as
#: different blobs but wipes out their strokes leaves no such pixels
VISIBLE_EDGE = 40
#: a crop is legible when the marks' detail shows in at least this many pixels of the input
MIN_MARK_PIXELS = 12


def judged(style, code: str) -> bool:
    """Whether a crop of bonus tile `code` in `style` can be judged: procedural styles always,
    packaged art only where `tile_art.MARK_BOXES` knows where the marks of the tile and of its
    partner are (the others count as legible: unjudged, the two renderings would be the same)."""
    if style.art is None:
        return True
    boxes = tile_art.MARK_BOXES.get(style.art, {})
    return code in boxes and PARTNER[code] in boxes


def mark_edges(crop: np.ndarray, partner_crop: np.ndarray) -> np.ndarray:
    """Per pixel, how sharply the difference between a crop and the same crop with another
    tile's mark changes: the Sobel magnitude of their difference, strongest channel, in grey
    levels."""
    diff = crop.astype(np.float32) - partner_crop.astype(np.float32)
    gx = cv2.Sobel(diff, cv2.CV_32F, 1, 0, ksize=3) / 4
    gy = cv2.Sobel(diff, cv2.CV_32F, 0, 1, ksize=3) / 4
    return np.sqrt(gx * gx + gy * gy).max(axis=2)


def mark_pixels(crop: np.ndarray, partner_crop: np.ndarray) -> int:
    """How many pixels show stroke detail that differs between a crop and the same crop with its
    partner's mark: edges (mark_edges) of at least VISIBLE_EDGE."""
    return int((mark_edges(crop, partner_crop) >= VISIBLE_EDGE).sum())


def is_legible(crop: np.ndarray, partner_crop: np.ndarray) -> bool:
    return mark_pixels(crop, partner_crop) >= MIN_MARK_PIXELS

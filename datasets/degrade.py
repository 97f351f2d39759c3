"""A labelled photo as it reaches the product after what users' photos go through: sent again
through a chat app (smaller, recompressed), stored turned with an EXIF tag saying which way is
up, a noisy sensor, a shaking hand, a screenshot's border, a colour cast.

Each degradation maps (BGR photo, labelled boxes) to (the bytes or pixels the product is given,
the boxes where the product should find the tiles: in the upright photo's pixels, as the API
promises).  Used by benchmarks/degradations.py; the camera's own angles and lights are
datasets/views.py's.
"""

from __future__ import annotations

import io
from typing import Callable

import cv2
import numpy as np
from PIL import Image

Boxes = list[list[float]]
Degradation = Callable[[np.ndarray, Boxes, int], tuple["bytes | np.ndarray", Boxes]]

#: EXIF Orientation values and the turn that stores an upright photo so (the tag turns it back)
_STORED_TURN = {3: cv2.ROTATE_180, 6: cv2.ROTATE_90_COUNTERCLOCKWISE, 8: cv2.ROTATE_90_CLOCKWISE}


def jpeg(image: np.ndarray, quality: int, orientation: int | None = None) -> bytes:
    """The photo as JPEG bytes at `quality` (with an EXIF Orientation tag when given)."""
    rgb = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    buf = io.BytesIO()
    if orientation is None:
        rgb.save(buf, "JPEG", quality=quality)
    else:
        exif = Image.Exif()
        exif[0x0112] = orientation
        rgb.save(buf, "JPEG", quality=quality, exif=exif.tobytes())
    return buf.getvalue()


def recompressed(long_side: int, quality: int) -> Degradation:
    """Shrunk to `long_side` pixels (never enlarged) and saved at JPEG `quality`: a chat app's copy."""
    def apply(image, boxes, seed):
        k = min(1.0, long_side / max(image.shape[:2]))
        small = image if k == 1.0 else cv2.resize(image, (round(image.shape[1] * k), round(image.shape[0] * k)),
                                                  interpolation=cv2.INTER_AREA)
        return jpeg(small, quality), [[v * k for v in b] for b in boxes]
    return apply


def stored_turned(orientation: int) -> Degradation:
    """Stored turned, with the EXIF Orientation tag (3, 6 or 8) that shows it upright: the tiles
    are where they were in the upright photo."""
    def apply(image, boxes, seed):
        return jpeg(cv2.rotate(image, _STORED_TURN[orientation]), 92, orientation), [list(b) for b in boxes]
    return apply


def noisy(sigma: float) -> Degradation:
    """Gaussian sensor noise of `sigma` grey levels (a fixed pattern for each seed)."""
    def apply(image, boxes, seed):
        rng = np.random.default_rng(seed)
        out = np.clip(image.astype(np.float32) + rng.normal(0.0, sigma, image.shape), 0, 255).astype(np.uint8)
        return out, [list(b) for b in boxes]
    return apply


def shaken(pixels: int) -> Degradation:
    """A sideways shake of `pixels` (a horizontal motion blur)."""
    def apply(image, boxes, seed):
        kernel = np.zeros((pixels, pixels), np.float32)
        kernel[pixels // 2, :] = 1.0 / pixels
        return cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT), [list(b) for b in boxes]
    return apply


def unfocused(sigma: float | None = None, disk: float | None = None) -> Degradation:
    """A camera not focused: a Gaussian of `sigma` pixels, or a lens's disk `disk` pixels across
    (datasets.augment.out_of_focus): one of the two."""
    from datasets.augment import out_of_focus

    if (sigma is None) == (disk is None):
        raise ValueError(f"give a Gaussian's sigma or a lens disk's width, one of them "
                         f"(sigma {sigma!r}, disk {disk!r})")

    def apply(image, boxes, seed):
        out = cv2.GaussianBlur(image, (0, 0), sigma) if sigma else out_of_focus(image, disk)
        return out, [list(b) for b in boxes]
    return apply


def bordered(share: float, colour: tuple[int, int, int]) -> Degradation:
    """Inside a border `share` of its size wide on every side (a screenshot of the photo)."""
    def apply(image, boxes, seed):
        h, w = image.shape[:2]
        dx, dy = round(w * share), round(h * share)
        out = cv2.copyMakeBorder(image, dy, dy, dx, dx, cv2.BORDER_CONSTANT, value=colour)
        return out, [[b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy] for b in boxes]
    return apply


def cast(blue: float, green: float, red: float) -> Degradation:
    """Each channel scaled: a light's colour cast (a fluorescent tube's green, a shade's blue)."""
    def apply(image, boxes, seed):
        out = np.clip(image.astype(np.float32) * np.float32([blue, green, red]), 0, 255).astype(np.uint8)
        return out, [list(b) for b in boxes]
    return apply


#: what the benchmark measures (name, degradation); the photos as taken come first
DEGRADATIONS: tuple[tuple[str, Degradation | None], ...] = (
    ("as taken", None),
    ("JPEG quality 50", recompressed(10_000, 50)),
    ("shrunk to 480 pixels, quality 70", recompressed(480, 70)),
    ("shrunk to 320 pixels, quality 70", recompressed(320, 70)),
    ("stored turned, EXIF orientation 6", stored_turned(6)),
    ("stored upside down, EXIF orientation 3", stored_turned(3)),
    ("sensor noise, sigma 8", noisy(8.0)),
    ("shaken 5 pixels sideways", shaken(5)),
    ("shaken 9 pixels sideways", shaken(9)),
    ("out of focus, Gaussian 3 pixels", unfocused(sigma=3.0)),
    ("out of focus, lens disk 8 pixels", unfocused(disk=8.0)),
    ("black border, 15% each side", bordered(0.15, (0, 0, 0))),
    ("white border, 15% each side", bordered(0.15, (255, 255, 255))),
    ("green cast (fluorescent)", cast(0.85, 1.2, 0.85)),
    ("blue cast", cast(1.25, 1.0, 0.8)),
)

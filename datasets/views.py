"""A labelled photo as the same camera would have taken it turned or tilted: the benchmark's real
photos seen at other angles than their photographer chose.

A camera that turns in place (about its lens axis, or tilting about its horizontal axis) sees the
same scene moved by a homography, H = K R K^-1, whatever the scene's depth: so a real photo seen
from a turned or tilted camera is exactly a warp of the photo, and its labelled boxes move with it.
What the turned camera would see beyond the photo's edges is unknown: it is filled with the
photo's median colour (a smooth fill, not a mirror of the photo that would repeat its tiles)."""

from __future__ import annotations

import cv2
import numpy as np

#: the focal length as a share of the photo's long side: a phone's main camera (about 26 mm
#: equivalent, 69 degrees across the long side)
FOCAL = 0.73


def camera_view(image: np.ndarray, turn_deg: float = 0.0, tilt_deg: float = 0.0,
                max_side: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(photo, H): `image` as seen by its camera tilted `tilt_deg` about its horizontal axis (the
    top edge moves away) and then turned `turn_deg` counter-clockwise about its lens axis; the
    whole view kept, its long side at most `max_side` (default: the photo's own long side).
    H maps the photo's pixels to the view's."""
    h, w = image.shape[:2]
    f = FOCAL * max(w, h)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    t, r = np.radians(-tilt_deg), np.radians(-turn_deg)  # (y points down: both signs flip)
    tilt = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    turn = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
    m = k @ turn @ tilt @ np.linalg.inv(k)
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), m)[0]
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    scale = min(1.0, (max_side or max(w, h)) / float(max(hi - lo)))
    fit = np.array([[scale, 0, -lo[0] * scale], [0, scale, -lo[1] * scale], [0, 0, 1]])
    m = fit @ m
    size = (int(np.ceil((hi[0] - lo[0]) * scale)), int(np.ceil((hi[1] - lo[1]) * scale)))
    fill = tuple(float(v) for v in np.median(image.reshape(-1, image.shape[2]), axis=0))
    view = cv2.warpPerspective(image, m, size, flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    return view, m


def view_box(box, m: np.ndarray) -> list[float]:
    """The box (x1, y1, x2, y2) of the photo as a box of the view: the bounds of its moved corners
    (a tile's labelled box is its outline's bounds, and so is the moved one)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    pts = cv2.perspectiveTransform(np.float32([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]]), m)[0]
    return [float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())]


#: the lights a photo is seen again under (relit): what a phone meets over a real table
LIGHTS = ("dim", "light from one side", "warm cast", "hard shadow", "glare")
#: the glare: a lamp's reflection on the glossy faces, centred a little right of the photo's
#: middle, where a table's tiles lie; at its centre a face keeps GLARE_KEPT of its contrast
#: (each pixel moved 90% of the way to white), fading as a Gaussian GLARE_SPREAD of the photo's
#: width and height across
GLARE_CENTRE = (0.55, 0.5)
GLARE_SPREAD = (0.12, 0.08)
GLARE_KEPT = 0.1


def relit(image: np.ndarray, light: str) -> np.ndarray:
    """`image` under another light: "dim" (under-exposed to 45%), "light from one side" (from 35%
    at the left edge to 115% at the right), "warm cast" (a tungsten bulb: blue 70%, red 110%),
    "hard shadow" (the right part of the photo, past a slanted edge, at 50%, as a player's arm
    or the lamp's shade casts it) or "glare" (a lamp's reflection washing the middle of the photo
    towards white: GLARE_CENTRE, GLARE_SPREAD, GLARE_KEPT)."""
    img = image.astype(np.float32)
    h, w = img.shape[:2]
    if light == "dim":
        img *= 0.45
    elif light == "light from one side":
        img *= np.linspace(0.35, 1.15, w, dtype=np.float32)[None, :, None]
    elif light == "warm cast":
        img *= np.array([0.7, 1.0, 1.1], np.float32)
    elif light == "hard shadow":
        ys, xs = np.mgrid[0:h, 0:w]
        img[xs > 0.45 * w + 0.3 * (ys - h / 2)] *= 0.5
    elif light == "glare":
        return glared(image)
    else:
        raise ValueError(f"light {light!r} is not one of {', '.join(LIGHTS)}")
    return np.clip(img, 0, 255).astype(np.uint8)


def glared(image: np.ndarray, centre=GLARE_CENTRE, spread=GLARE_SPREAD, kept: float = GLARE_KEPT) -> np.ndarray:
    """`image` under a glare: light added, not multiplied, so each pixel moves towards white, by
    1 - `kept` of the way at `centre` (shares of the width and height), less as a Gaussian
    `spread` of them across."""
    img = image.astype(np.float32)
    h, w = img.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    (cx, cy), (sx, sy) = centre, spread
    washed = (1 - kept) * np.exp(-(((xs - cx * w) / (sx * w)) ** 2 + ((ys - cy * h) / (sy * h)) ** 2) / 2)
    img += (255 - img) * washed[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)

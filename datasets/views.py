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

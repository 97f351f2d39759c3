"""Phone-photo augmentations that turn a clean tile face into a realistic detector crop.

`scene_crop` places the tile among neighbours on a table, gives it thickness (the side of the
tile seen at an angle), warps the scene with a random perspective and rotation, and crops the
tile's box with the sloppiness of a real detector (so neighbours' edges show at the border).
`photometric` then adds lighting gradients, colour casts, shadows, blur, noise, low resolution
and JPEG artefacts.  `jitter_photo_crop` does the geometric part for boxes in real photos.
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from scoring.tiles import CLASSES


def _background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A table: felt, wood or plastic colour with low-frequency texture."""
    base = rng.integers(0, 256, 3).astype(np.float32)
    if rng.random() < 0.5:  # mostly muted table colours
        grey = rng.uniform(40, 200)
        base = 0.5 * base + 0.5 * grey
    noise = rng.normal(0, 1, (max(2, h // 8), max(2, w // 8), 1)).astype(np.float32)
    noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)[:, :, None]
    if rng.random() < 0.3:  # wood-like streaks
        streak = cv2.resize(rng.normal(0, 1, (h, 1)).astype(np.float32), (w, h))[:, :, None]
        noise = noise + 1.5 * streak
    img = base[None, None, :] + noise * rng.uniform(3, 18)
    return np.clip(img, 0, 255).astype(np.uint8)


def _paste_tile(canvas: np.ndarray, face: np.ndarray, x: int, y: int, side: tuple | None) -> None:
    """Paste `face` at (x, y); `side` = (thickness px, ivory part fraction, body BGR, back BGR)
    draws the tile's side below the face (seen when the camera is not straight above)."""
    H, W = canvas.shape[:2]
    fh, fw = face.shape[:2]
    if side is not None:
        t, ivory_frac, body, back = side
        t_iv = int(round(t * ivory_frac))
        y0 = y + fh
        for k in range(t):
            colour = body if k < t_iv else back
            yy = y0 + k
            if 0 <= yy < H:
                x0, x1 = max(0, x), min(W, x + fw)
                if x1 > x0:
                    shade = 0.75 + 0.2 * (k / max(1, t))
                    canvas[yy, x0:x1] = np.clip(np.array(colour) * shade, 0, 255).astype(np.uint8)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + fw), min(H, y + fh)
    if x1 > x0 and y1 > y0:
        canvas[y0:y1, x0:x1] = face[y0 - y:y1 - y, x0 - x:x1 - x]


def scene_crop(code: str, render: Callable[[str, tuple[int, int]], np.ndarray], rng: np.random.Generator,
               body_bgr=(200, 205, 210), back_bgr=(60, 120, 40)) -> np.ndarray:
    """A detector-style crop of tile `code` in a random little scene (upright, before photometric).

    `render(code, (w, h))` draws a face of the current tile set; neighbours use it too.
    """
    tw = int(rng.integers(36, 84))
    th = int(round(tw * rng.uniform(1.22, 1.5)))
    gap = int(rng.integers(0, max(1, tw // 10)))
    W, H = tw * 3 + 4 * gap + 40, th * 3 + 40
    canvas = _background(rng, W, H)
    side = None
    if rng.random() < 0.6:
        side = (int(th * rng.uniform(0.04, 0.3)), float(rng.uniform(0.2, 1.0)), body_bgr, back_bgr)
    cx, cy = W // 2 - tw // 2, H // 2 - th // 2
    slots = []
    if rng.random() < 0.75:
        slots.append((cx - tw - gap, cy))
    if rng.random() < 0.75:
        slots.append((cx + tw + gap, cy))
    if rng.random() < 0.3:
        row_gap = gap + (side[0] if side else 0)
        dx = int(rng.integers(-tw // 3, tw // 3 + 1))
        slots += [(cx + dx + k * (tw + gap), cy - th - row_gap) for k in (-1, 0, 1)]
        slots += [(cx + dx + k * (tw + gap), cy + th + row_gap) for k in (-1, 0, 1)]
    for sx, sy in slots:
        other = CLASSES[int(rng.integers(len(CLASSES)))]
        _paste_tile(canvas, render(other, (tw, th)), sx, sy, side)
    _paste_tile(canvas, render(code, (tw, th)), cx, cy, side)

    # perspective + rotation about the target tile
    quad = np.float32([[cx, cy], [cx + tw, cy], [cx + tw, cy + th], [cx, cy + th]])
    j = rng.normal(0, 0.04, (4, 2)) * np.float32([tw, th])
    ang = np.deg2rad(rng.normal(0, 3.5))
    centre = np.float32([cx + tw / 2, cy + th / 2])
    rot = np.float32([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    dst = ((quad - centre) @ rot.T + centre + j).astype(np.float32)
    M = cv2.getPerspectiveTransform(quad, dst)
    warped = cv2.warpPerspective(canvas, M, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    # the detector's box: the face (sometimes with the side), edges jittered
    y_bottom = cy + th + (side[0] if side and rng.random() < 0.5 else 0)
    box_pts = np.float32([[cx, cy], [cx + tw, cy], [cx + tw, y_bottom], [cx, y_bottom]])
    pts = cv2.perspectiveTransform(box_pts[None], M)[0]
    x1, y1 = pts.min(0)
    x2, y2 = pts.max(0)
    return _jittered_crop(warped, (x1, y1, x2, y2), rng)


def _jittered_crop(image: np.ndarray, box, rng: np.random.Generator) -> np.ndarray:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    d = np.clip(rng.normal(0, 0.035, 4), -0.09, 0.12) * np.float32([w, h, w, h])
    x1, y1, x2, y2 = x1 - d[0], y1 - d[1], x2 + d[2], y2 + d[3]
    H, W = image.shape[:2]
    x1, y1 = int(max(0, round(x1))), int(max(0, round(y1)))
    x2, y2 = int(min(W, round(x2))), int(min(H, round(y2)))
    if x2 - x1 < 4 or y2 - y1 < 4:
        x1, y1, x2, y2 = [int(round(v)) for v in box]
    return image[y1:y2, x1:x2].copy()


def jitter_photo_crop(image: np.ndarray, box, rng: np.random.Generator) -> np.ndarray:
    """A crop of a labelled box in a real photo with a small rotation and a sloppy box."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    pad = int(max(w, h))
    X1, Y1 = int(max(0, x1 - pad)), int(max(0, y1 - pad))
    X2, Y2 = int(min(image.shape[1], x2 + pad)), int(min(image.shape[0], y2 + pad))
    region = image[Y1:Y2, X1:X2]
    ang = rng.normal(0, 3.0)
    cx, cy = (x1 + x2) / 2 - X1, (y1 + y2) / 2 - Y1
    M = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
    region = cv2.warpAffine(region, M, (region.shape[1], region.shape[0]), borderMode=cv2.BORDER_REFLECT)
    return _jittered_crop(region, (x1 - X1, y1 - Y1, x2 - X1, y2 - Y1), rng)


def smear(img: np.ndarray, length: int, degrees: float) -> np.ndarray:
    """The image as a camera moving `length` pixels along `degrees` takes it (a line kernel)."""
    kern = np.zeros((length, length), np.float32)
    kern[length // 2, :] = 1.0 / length
    M = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), degrees, 1.0)
    kern = cv2.warpAffine(kern, M, (length, length))
    return cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))


def out_of_focus(img: np.ndarray, across: float) -> np.ndarray:
    """The image as a camera focused off it takes it: each point spread over the lens's disk,
    `across` pixels wide (its rim's pixels weighted by how much of them it covers); a copy when
    `across` is under a pixel."""
    if across < 1.0:
        return img.copy()
    reach = int(np.ceil(across / 2)) + 1
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    kern = np.zeros((offsets.size, offsets.size), np.float32)
    for oy in (np.arange(4) + 0.5) / 4 - 0.5:  # 4 x 4 samples a pixel
        for ox in (np.arange(4) + 0.5) / 4 - 0.5:
            kern += (offsets[None, :] + ox) ** 2 + (offsets[:, None] + oy) ** 2 <= (across / 2) ** 2
    return cv2.filter2D(img, -1, kern / kern.sum(), borderType=cv2.BORDER_REFLECT)


def photometric(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Lighting gradient, colour cast, shadow, gamma, blur, noise, low resolution, JPEG."""
    h, w = img.shape[:2]
    x = img.astype(np.float32)
    if rng.random() < 0.7:  # lighting gradient
        gx, gy = rng.normal(0, 0.25 * strength, 2)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
        x *= ramp[:, :, None]
    if rng.random() < 0.8:  # colour cast and exposure
        x *= rng.uniform(0.6, 1.25) * (1 + rng.normal(0, 0.07 * strength, 3))[None, None, :]
    if rng.random() < 0.25:  # a hard-edged shadow across part of the crop
        p1 = (int(rng.integers(0, w)), 0)
        p2 = (int(rng.integers(0, w)), h)
        mask = np.zeros((h, w), np.uint8)
        side = [(0, 0), p1, p2, (0, h)] if rng.random() < 0.5 else [(w, 0), p1, p2, (w, h)]
        cv2.fillPoly(mask, [np.int32(side)], 1)
        mask = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), max(0.5, rng.uniform(0.5, 3)))
        x *= (1 - rng.uniform(0.2, 0.55) * mask)[:, :, None]
    x = np.clip(x, 0, 255)
    if rng.random() < 0.4:  # gamma
        x = 255.0 * (x / 255.0) ** rng.uniform(0.7, 1.4)
    out = x.astype(np.uint8)
    r = rng.random()
    if r < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.3 * strength))
    elif r < 0.4:  # motion blur
        k = int(rng.integers(3, 6))
        out = smear(out, k, rng.uniform(0, 180))
    if rng.random() < 0.3:  # low resolution
        f = rng.uniform(0.35, 0.8)
        small = cv2.resize(out, (max(4, int(w * f)), max(4, int(h * f))), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.5:
        noise = rng.normal(0, rng.uniform(2, 9) * strength, out.shape)
        out = np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        q = int(rng.integers(30, 95))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out

"""Procedural table surfaces for synthetic photos: felt, wood and cloth, with no image files.

Each generator returns a BGR uint8 image of the requested size; all randomness comes from the
given numpy Generator, so a seed reproduces the picture.
"""

from __future__ import annotations

import cv2
import numpy as np


def _noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Smooth noise in [-1, 1] with features about `scale` pixels wide."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(big / 2.0, -1, 1)


def felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = [(40, 110, 30), (90, 60, 20), (30, 30, 120), (60, 60, 60), (30, 90, 60)][rng.integers(5)]
    base = np.array(base, np.float32) + rng.uniform(-20, 20, 3)
    grain = rng.standard_normal((h, w)).astype(np.float32) * rng.uniform(4, 10)
    blotch = _noise(rng, h, w, rng.uniform(40, 200)) * rng.uniform(5, 15)
    img = base[None, None, :] + (grain + blotch)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    light = rng.random() < 0.5
    base = np.array([(150, 180, 205), (175, 178, 180), (60, 90, 130), (90, 120, 160)][rng.integers(4)]
                    if light else [(40, 60, 90), (70, 100, 140)][rng.integers(2)], np.float32)
    angle = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = -xx * np.sin(angle) + yy * np.cos(angle)
    warp = _noise(rng, h, w, rng.uniform(80, 300)) * rng.uniform(10, 40)
    period = rng.uniform(4, 14)
    stripes = np.sin((across + warp) / period * 2 * np.pi)
    stripes += 0.5 * np.sin((across + 0.5 * warp) / (period * 3.7) * 2 * np.pi)
    fine = rng.standard_normal((h, w)).astype(np.float32) * 3
    amp = rng.uniform(6, 18)
    img = base[None, None, :] * (1 + (stripes * amp + fine)[..., None] / 255.0 * 2)
    return np.clip(img, 0, 255).astype(np.uint8)


def cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.uniform(40, 220, 3), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(3, 8)
    weave = np.sin(xx / period * np.pi) * np.sin(yy / period * np.pi) * rng.uniform(5, 15)
    check = 0.0
    if rng.random() < 0.4:
        big = rng.uniform(30, 90)
        check = ((np.floor(xx / big) + np.floor(yy / big)) % 2) * rng.uniform(-40, 40)
    fold = _noise(rng, h, w, rng.uniform(100, 400)) * rng.uniform(5, 25)
    img = base[None, None, :] + (weave + check + fold)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


SURFACES = {"felt": felt, "wood": wood, "cloth": cloth}


def random_surface(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    kind = kind or list(SURFACES)[rng.integers(len(SURFACES))]
    return SURFACES[kind](rng, h, w)

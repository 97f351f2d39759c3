"""A camera's straight smear taken off the tiles of a blurred photo, so they can be read again.

A phone moved during the exposure smears the photo along one line: each point becomes a segment
of `length` pixels.  vision.sharpness measures the direction (edges spread along it and stay
sharp across it).  The length shows in the photo's spectrum along that direction: a segment's
spectrum is zero every 1/length cycles a pixel, so the log spectrum ripples with period
1/length and its cepstrum has its deepest low at `length` (the classical estimate of a uniform
motion's length).  Wiener deconvolution with that segment then sharpens a window round each
tile.  vision.recognize reads the mended tiles and keeps that reading only when the classifier
is surer of it: a smear that is no straight line (a shaking hand, a focus blur) mends nothing
and is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.quad import TileQuad

#: smears shorter than this many pixels are not worth mending (a warning's blur starts at 4)
MIN_LENGTH = 3
#: ... and longer than this share of a tile's width cannot be: its tiles' marks are gone
MAX_OF_TILE = 0.6
#: Wiener deconvolution's noise-to-signal ratio: lower sharpens more and rings more (on the
#: hust-riichi test photos smeared 9 pixels with the true smear: 0.003 read 99.63% of the tiles
#: right, 0.01 99.82%, 0.03 99.69%; scratch run, forty-sixth session)
NOISE_TO_SIGNAL = 0.01
#: the length is measured on at most this many pixels of the tiles' region, along the smear
MEASURE_SIDE = 1024


@dataclass(frozen=True)
class Smear:
    length: float  # pixels of the photo
    degrees: float  # from the photo's x axis towards its y axis, 0-180


def smear_of(img: np.ndarray, quads: list[TileQuad], degrees: float) -> Smear | None:
    """The straight smear along `degrees` (vision.sharpness's Blur.degrees) of the photo's tiles:
    its length from the cepstrum of the tiles' region along that direction, or None when it is
    under MIN_LENGTH or over MAX_OF_TILE of a tile's width."""
    if not quads:
        return None
    width = float(np.median([min(q.width, q.height) for q in quads]))
    longest = int(MAX_OF_TILE * width)
    if longest < MIN_LENGTH:
        return None
    grey = _region(img, quads, margin=0)
    if grey.ndim == 3:
        grey = cv2.cvtColor(grey, cv2.COLOR_BGR2GRAY)
    shrink = min(1.0, MEASURE_SIDE / max(grey.shape))
    if shrink < 1.0:  # a long smear measured on a smaller copy, in that copy's pixels
        grey = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    h, w = grey.shape
    # turned so that the smear runs along the rows
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    rows = cv2.warpAffine(grey.astype(np.float32), turn, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT)
    rows -= rows.mean(axis=1, keepdims=True)
    spectrum = np.abs(np.fft.rfft(rows * np.hanning(w).astype(np.float32), axis=1))
    cepstrum = np.fft.irfft(np.log(spectrum + 1e-3).mean(axis=0))
    top = min(int(longest * shrink) + 1, len(cepstrum) // 2)
    first = max(2, int(MIN_LENGTH * shrink))
    if top <= first:
        return None
    length = (first + int(np.argmin(cepstrum[first:top]))) / shrink
    return Smear(float(length), float(degrees)) if length >= MIN_LENGTH else None


def unsmeared(img: np.ndarray, quads: list[TileQuad], smear: Smear) -> np.ndarray:
    """A copy of the photo with a window round each tile deconvolved (Wiener) by the smear: the
    tiles' crops cut from it are as sharp as the smear lets them be; elsewhere it is the photo."""
    out = img.copy()
    h, w = img.shape[:2]
    reach = int(np.ceil(smear.length)) + 2
    for q in quads:
        x1, y1, x2, y2 = q.box
        pad = 0.1 * max(x2 - x1, y2 - y1)
        ix1, iy1 = max(0, int(x1 - pad)), max(0, int(y1 - pad))
        ix2, iy2 = min(w, int(np.ceil(x2 + pad))), min(h, int(np.ceil(y2 + pad)))
        if ix2 <= ix1 or iy2 <= iy1:
            continue
        wx1, wy1 = max(0, ix1 - 2 * reach), max(0, iy1 - 2 * reach)
        wx2, wy2 = min(w, ix2 + 2 * reach), min(h, iy2 + 2 * reach)
        window = _deconvolved(img[wy1:wy2, wx1:wx2], smear, reach)
        out[iy1:iy2, ix1:ix2] = window[iy1 - wy1:iy2 - wy1, ix1 - wx1:ix2 - wx1]
    return out


def _deconvolved(window: np.ndarray, smear: Smear, reach: int) -> np.ndarray:
    """The window Wiener-deconvolved by the smear's segment (edges reflected out by `reach` and
    more, so that the transform's wrap-around falls outside it)."""
    padded = cv2.copyMakeBorder(window, 2 * reach, 2 * reach, 2 * reach, 2 * reach, cv2.BORDER_REFLECT)
    ph, pw = cv2.getOptimalDFTSize(padded.shape[0]), cv2.getOptimalDFTSize(padded.shape[1])
    padded = cv2.copyMakeBorder(padded, 0, ph - padded.shape[0], 0, pw - padded.shape[1], cv2.BORDER_REFLECT)
    kernel = np.fft.rfft2(_segment((ph, pw), smear))
    wiener = np.conj(kernel) / (np.abs(kernel) ** 2 + NOISE_TO_SIGNAL)
    channels = padded.reshape(ph, pw, -1).astype(np.float32)
    sharp = np.stack([np.fft.irfft2(np.fft.rfft2(channels[..., c]) * wiener, s=(ph, pw))
                      for c in range(channels.shape[2])], axis=-1)
    sharp = sharp[2 * reach:2 * reach + window.shape[0], 2 * reach:2 * reach + window.shape[1]]
    return np.clip(np.rint(sharp), 0, 255).astype(np.uint8).reshape(window.shape)


def _segment(shape: tuple[int, int], smear: Smear) -> np.ndarray:
    """The smear's point spread: a segment of its length along its direction, centred on the
    origin (wrapping round, as the transform sees it), drawn with sub-pixel weights."""
    h, w = shape
    psf = np.zeros((h, w), np.float32)
    theta = np.radians(smear.degrees)
    steps = max(2, int(np.ceil(4 * smear.length)))
    for s in np.linspace(-smear.length / 2, smear.length / 2, steps):
        x, y = s * np.cos(theta), s * np.sin(theta)
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        fx, fy = x - x0, y - y0
        for dx, dy, weight in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                               (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
            psf[(y0 + dy) % h, (x0 + dx) % w] += weight
    return psf / psf.sum()


def _region(img: np.ndarray, quads: list[TileQuad], margin: int) -> np.ndarray:
    """The part of the photo the tiles span."""
    boxes = np.array([q.box for q in quads], np.float32)
    h, w = img.shape[:2]
    x1, y1 = max(0, int(boxes[:, 0].min()) - margin), max(0, int(boxes[:, 1].min()) - margin)
    x2, y2 = min(w, int(np.ceil(boxes[:, 2].max())) + margin), min(h, int(np.ceil(boxes[:, 3].max())) + margin)
    return img[y1:y2, x1:x2]

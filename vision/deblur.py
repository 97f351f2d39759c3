"""A camera's straight smear taken off the tiles of a blurred photo, so they can be read again.

A phone moved during the exposure smears the photo along one line: each point becomes a segment
of `length` pixels.  vision.sharpness measures the direction (edges spread along it and stay
sharp across it).  The length shows in the photo's spectrum along that direction: a segment's
spectrum is zero every 1/length cycles a pixel, so the log spectrum ripples with period
1/length and its cepstrum has its deepest low at `length` (the classical estimate of a uniform
motion's length).  Wiener deconvolution with that segment then sharpens a window round each
tile.  vision.recognize reads the mended tiles and keeps a tile's mended reading only when the
classifier is surer of it: a smear that is no straight line (a shaking hand, a focus blur)
mends little and is mostly read as it was.
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
#: the length is measured on windows round at most this many tiles (spread over the photo's)
MOST_FACES = 24
#: the cepstrum's low must lie this many median absolute deviations below its median over the
#: lengths searched (a flat or noisy cepstrum has no length to give).  Measured on the windows
#: round the tiles (scratch run, forty-sixth session): 25 hust-riichi test photos smeared 9
#: pixels sideways 12.2-21.5, 13 pixels at 100 degrees 3.4-9.8, 5 pixels at 45 degrees 2.7-8.1;
#: 8 synthetic tables smeared 30% of a tile 1.7-6.8; sharp photos 1.2-2.8 (a helper saw a sharp
#: synthetic table at 4.3) and Gaussian blurs 1.1-6.1.  It cannot tell a smear from a focus
#: blur: the classifier's confidence in the mended tiles decides (vision.recognize MENDED_GAIN)
MIN_DEPTH = 2.0


@dataclass(frozen=True)
class Smear:
    length: float  # pixels of the photo
    degrees: float  # from the photo's x axis towards its y axis, 0-180


def smear_of(img: np.ndarray, quads: list[TileQuad], degrees: float) -> Smear | None:
    """The straight smear along `degrees` (vision.sharpness's Blur.degrees) of the photo's tiles:
    its length from the cepstrum of the tiles' faces along that direction, or None when the
    cepstrum shows none (no low MIN_DEPTH deep between MIN_LENGTH and MAX_OF_TILE of a tile's
    width, short of both ends)."""
    if not quads:
        return None
    width = float(np.median([min(q.width, q.height) for q in quads]))
    longest = int(MAX_OF_TILE * width)
    if longest < MIN_LENGTH:
        return None
    cepstrum = _cepstrum_along(img, quads, degrees, longest)
    if cepstrum is None:
        return None
    top = min(longest + 1, len(cepstrum) // 2)
    first = MIN_LENGTH
    searched = cepstrum[first:top]
    if len(searched) < 3:
        return None
    k = int(np.argmin(searched))
    median = float(np.median(searched))
    spread = float(np.median(np.abs(searched - median)))
    # a low at either end of the lengths searched is a smear too long (or no smear), not its length
    if k in (0, len(searched) - 1) or not median - searched[k] >= MIN_DEPTH * spread > 0:
        return None
    # the low's place between its neighbours (a parabola through the three): a smear drawn at a
    # slant spans a length between whole pixels, and a pixel's error rings (on the hust-riichi
    # test photos shaken 9 pixels, deconvolved as 7 pixels 62% of the tiles read right, as 9 99.8%)
    before, at, after = (float(c) for c in searched[k - 1:k + 2])
    curve = before - 2 * at + after
    shift = 0.5 * (before - after) / curve if curve > 0 else 0.0
    return Smear(float(first + k + np.clip(shift, -0.5, 0.5)), float(degrees))


def _cepstrum_along(img: np.ndarray, quads: list[TileQuad], degrees: float, longest: int) -> np.ndarray | None:
    """The cepstrum of the tiles' faces along `degrees`: a window round each of up to MOST_FACES
    tiles (inked faces carry the smear's ripple; the cloth between them blurs it), turned so the
    smear runs along its rows, each row's log spectrum averaged."""
    h, w = img.shape[:2]
    step = max(1, len(quads) // MOST_FACES)
    # a typical tile's window (one huge find would make every window the photo's size)
    side = int(float(np.median([max(q.width, q.height) for q in quads])) * 1.2) + 2 * longest
    n = cv2.getOptimalDFTSize(side)
    logs, rows_seen = np.zeros(n // 2 + 1, np.float64), 0
    for q in quads[::step][:MOST_FACES]:
        cx, cy = q.center
        x1, y1 = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
        x2, y2 = int(min(w, cx + side / 2)), int(min(h, cy + side / 2))
        if x2 - x1 < 4 * MIN_LENGTH or y2 - y1 < 4 * MIN_LENGTH:
            continue
        grey = img[y1:y2, x1:x2]
        if grey.ndim == 3:
            grey = cv2.cvtColor(grey, cv2.COLOR_BGR2GRAY)
        gh, gw = grey.shape
        turn = cv2.getRotationMatrix2D((gw / 2, gh / 2), degrees, 1.0)
        rows = cv2.warpAffine(grey.astype(np.float32), turn, (gw, gh), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)
        rows -= rows.mean(axis=1, keepdims=True)
        spectrum = np.abs(np.fft.rfft(rows * np.hanning(gw).astype(np.float32), n=n, axis=1))
        logs += np.log(spectrum + 1e-3).sum(axis=0)
        rows_seen += gh
    if not rows_seen:
        return None
    return np.fft.irfft(logs / rows_seen, n=n)


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
        wx1, wy1 = max(0, ix1 - reach), max(0, iy1 - reach)
        wx2, wy2 = min(w, ix2 + reach), min(h, iy2 + reach)
        window = _deconvolved(img[wy1:wy2, wx1:wx2], smear, reach)
        out[iy1:iy2, ix1:ix2] = window[iy1 - wy1:iy2 - wy1, ix1 - wx1:ix2 - wx1]
    return out


def _deconvolved(window: np.ndarray, smear: Smear, reach: int) -> np.ndarray:
    """The window Wiener-deconvolved by the smear's segment (edges reflected out by `reach` and
    more, so that the transform's wrap-around falls outside it)."""
    padded = cv2.copyMakeBorder(window, reach, reach, reach, reach, cv2.BORDER_REFLECT)
    ph, pw = cv2.getOptimalDFTSize(padded.shape[0]), cv2.getOptimalDFTSize(padded.shape[1])
    padded = cv2.copyMakeBorder(padded, 0, ph - padded.shape[0], 0, pw - padded.shape[1], cv2.BORDER_REFLECT)
    kernel = np.fft.rfft2(_segment((ph, pw), smear))
    wiener = np.conj(kernel) / (np.abs(kernel) ** 2 + NOISE_TO_SIGNAL)
    channels = padded.reshape(ph, pw, -1).astype(np.float32)
    sharp = np.stack([np.fft.irfft2(np.fft.rfft2(channels[..., c]) * wiener, s=(ph, pw))
                      for c in range(channels.shape[2])], axis=-1)
    sharp = sharp[reach:reach + window.shape[0], reach:reach + window.shape[1]]
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

"""A blurred photo's blur taken off its tiles, so they can be read again: a moved camera's
straight smear, or a camera not focused.

A phone moved during the exposure smears the photo along one line: each point becomes a segment
of `length` pixels.  vision.sharpness measures the direction (edges spread along it and stay
sharp across it).  The length shows in the photo's spectrum along that direction: a segment's
spectrum is zero every 1/length cycles a pixel, so the log spectrum ripples with period
1/length and its cepstrum has its deepest low at `length` (the classical estimate of a uniform
motion's length).

A camera not focused spreads each point every way alike (vision.sharpness's anisotropy near 1):
into a soft round patch when a little out of focus, into the lens's disk when more.  Its size
comes from the blur measure itself (the edges' spread, less what a sharp photo's measure
shows), and both profiles are tried (`blur_kernels`).

Wiener deconvolution with the kernel then sharpens a window round each tile.  vision.recognize
reads the mended tiles with each kernel, takes the reading the classifier is surest of on the
whole, and keeps a tile's mended reading only when the classifier is surer of it: a blur that
fits no kernel mends little and is mostly read as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision.quad import TileQuad
from vision.sharpness import FACE_PX, Blur

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
#: blur: the blur's anisotropy does (SMEAR_ANISOTROPY), or in between the classifier's confidence
MIN_DEPTH = 2.0


#: a blur measured at least this anisotropic (vision.sharpness Blur.anisotropy) is looked at as
#: a straight smear (its length from the cepstrum) ...
SMEAR_ANISOTROPY = 1.3
#: ... and one under this as a focus blur; in between, as both, the reading the classifier is
#: surer of deciding.  On 24 synthetic tables blurred as benchmarks/blur.py blurs them (seeds 7
#: and 13, saved as JPEG; scratch script, forty-seventh session): smears of 20-30% of a tile
#: 1.38-3.61, Gaussian blurs of 5-7% and lens disks of 18% 1.03-1.50; the hust-riichi test
#: photos shaken 9 pixels and called blurred 1.88-2.95
FOCUS_ANISOTROPY = 1.7
#: what the blur measure gives a sharp photo: edges spread as by a Gaussian of this many pixels
#: of the faces as measured (at most vision.sharpness FACE_PX wide; synthetic tables of seed 7,
#: 1280x960 to 4000x3000: 0.8-1.35)
SHARP_SPREAD = 0.92
#: a focus blur narrower than this (a Gaussian's sigma, pixels of the photo) is not mended
MIN_SPREAD = 1.0
#: a lens's disk whose steepest edge is a Gaussian's of spread s is this many s across (its
#: line spread at the centre, 2 / (pi r), against the Gaussian's 1 / (s sqrt(2 pi)))
DISK_PER_SPREAD = 2 * np.sqrt(2 * np.pi) * 2 / np.pi


@dataclass(frozen=True)
class Smear:
    """A moved camera's straight smear: each point becomes a segment."""
    length: float  # pixels of the photo
    degrees: float  # from the photo's x axis towards its y axis, 0-180

    @property
    def reach(self) -> int:
        """How far (pixels) the smear carries a point."""
        return int(np.ceil(self.length)) + 2

    def kernel(self, shape: tuple[int, int]) -> np.ndarray:
        return _segment(shape, self)

    def describe(self) -> str:
        return f"a straight smear of {self.length:.0f} pixels"

    #: how to take the photo again without it
    cure = "holding the camera still"


@dataclass(frozen=True)
class FocusBlur:
    """A camera not focused: each point becomes a round patch, a Gaussian of `spread` pixels
    ("soft") or the lens's disk whose edges are as steep ("disk", DISK_PER_SPREAD spreads
    across)."""
    spread: float  # pixels of the photo
    profile: Literal["soft", "disk"]

    def __post_init__(self):
        if not self.spread > 0 or self.profile not in ("soft", "disk"):
            raise ValueError(f"no focus blur: spread {self.spread!r}, profile {self.profile!r}")

    @property
    def across(self) -> float:
        """The width (pixels) of the lens's disk as steep at its edges, whichever the profile:
        the size the warning gives."""
        return self.spread * DISK_PER_SPREAD

    @property
    def reach(self) -> int:
        """How far (pixels) the mending looks round a tile: a disk's Wiener filter rings out to
        about its width, a Gaussian's dies within three spreads."""
        return int(np.ceil(self.across if self.profile == "disk" else 3 * self.spread)) + 2

    def kernel(self, shape: tuple[int, int]) -> np.ndarray:
        return _disk(shape, self.across) if self.profile == "disk" else _gaussian(shape, self.spread)

    def describe(self) -> str:
        return f"a focus blur of {self.across:.0f} pixels"

    cure = "focused on the tiles"


def blur_kernels(img: np.ndarray, faces: list[TileQuad], blur: Blur) -> list[Smear | FocusBlur]:
    """The blurs to try taking off a blurred photo's tiles (`blur`, measured on the inked
    `faces`): a straight smear along the blur's direction when it is SMEAR_ANISOTROPY or more
    and the cepstrum gives its length, a focus blur of both profiles when it is under
    FOCUS_ANISOTROPY and wider than a sharp photo's; none when neither fits."""
    kernels: list[Smear | FocusBlur] = []
    if blur.anisotropy >= SMEAR_ANISOTROPY:
        smear = smear_of(img, faces, blur.degrees)
        if smear is not None:
            kernels.append(smear)
    if blur.anisotropy < FOCUS_ANISOTROPY:
        spread = focus_spread(blur)
        if spread is not None:
            kernels += [FocusBlur(spread, "soft"), FocusBlur(spread, "disk")]
    return kernels


def focus_spread(blur: Blur) -> float | None:
    """A focus blur's spread (a Gaussian's sigma, pixels of the photo): the blur measure's own
    (vision.sharpness: about 2.5 spreads over a tile's width) less a sharp photo's (SHARP_SPREAD
    pixels at the measuring scale, faces shrunk to FACE_PX) in quadrature; None under
    MIN_SPREAD."""
    measured = blur.pixels / np.sqrt(2 * np.pi)
    width = blur.pixels / blur.of_tile  # the faces' median width, which the measure divides by
    sharp = SHARP_SPREAD * max(1.0, width / FACE_PX)
    spread = float(np.sqrt(max(0.0, measured ** 2 - sharp ** 2)))
    return spread if spread >= MIN_SPREAD else None


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


def deblurred(img: np.ndarray, quads: list[TileQuad], blur: Smear | FocusBlur) -> np.ndarray:
    """A copy of the photo with a window round each tile deconvolved (Wiener) by the blur: the
    tiles' crops cut from it are as sharp as the blur lets them be; elsewhere it is the photo."""
    out = img.copy()
    h, w = img.shape[:2]
    reach = blur.reach
    for q in quads:
        x1, y1, x2, y2 = q.box
        pad = 0.1 * max(x2 - x1, y2 - y1)
        ix1, iy1 = max(0, int(x1 - pad)), max(0, int(y1 - pad))
        ix2, iy2 = min(w, int(np.ceil(x2 + pad))), min(h, int(np.ceil(y2 + pad)))
        if ix2 <= ix1 or iy2 <= iy1:
            continue
        wx1, wy1 = max(0, ix1 - reach), max(0, iy1 - reach)
        wx2, wy2 = min(w, ix2 + reach), min(h, iy2 + reach)
        window = _deconvolved(img[wy1:wy2, wx1:wx2], blur, reach)
        out[iy1:iy2, ix1:ix2] = window[iy1 - wy1:iy2 - wy1, ix1 - wx1:ix2 - wx1]
    return out


def _deconvolved(window: np.ndarray, blur: Smear | FocusBlur, reach: int) -> np.ndarray:
    """The window Wiener-deconvolved by the blur's kernel (edges reflected out by `reach` and
    more, so that the transform's wrap-around falls outside it)."""
    padded = cv2.copyMakeBorder(window, reach, reach, reach, reach, cv2.BORDER_REFLECT)
    ph, pw = cv2.getOptimalDFTSize(padded.shape[0]), cv2.getOptimalDFTSize(padded.shape[1])
    padded = cv2.copyMakeBorder(padded, 0, ph - padded.shape[0], 0, pw - padded.shape[1], cv2.BORDER_REFLECT)
    kernel = np.fft.rfft2(blur.kernel((ph, pw)))
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


def _centred_offsets(shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's and column's offset from the origin, wrapping round as the transform sees it."""
    h, w = shape
    y = np.minimum(np.arange(h), h - np.arange(h)).astype(np.float32)
    x = np.minimum(np.arange(w), w - np.arange(w)).astype(np.float32)
    return y[:, None], x[None, :]


def _gaussian(shape: tuple[int, int], spread: float) -> np.ndarray:
    """A round Gaussian of `spread` pixels, centred on the origin (wrapping round)."""
    y, x = _centred_offsets(shape)
    psf = np.exp(-(x ** 2 + y ** 2) / (2 * spread ** 2))
    return psf / psf.sum()


def _disk(shape: tuple[int, int], across: float) -> np.ndarray:
    """A disk `across` pixels wide, centred on the origin (wrapping round), its rim's pixels
    weighted by how much of them it covers (4 x 4 samples a pixel)."""
    y, x = _centred_offsets(shape)
    r2 = (across / 2) ** 2
    psf = np.zeros(shape, np.float32)
    for oy in (np.arange(4) + 0.5) / 4 - 0.5:
        for ox in (np.arange(4) + 0.5) / 4 - 0.5:
            psf += (x + ox) ** 2 + (y + oy) ** 2 <= r2
    return psf / psf.sum()

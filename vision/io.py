"""Load a photo safely: JPEG, PNG, WebP (HEIC when pillow-heif is installed), EXIF orientation
applied, decompression bombs and corrupt files refused with a clear `ImageError`."""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

#: largest file read and largest decoded image accepted
MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000
MIN_SIDE = 32

try:  # optional: iPhone photos
    import pillow_heif  # type: ignore

    pillow_heif.register_heif_opener()
    HEIC = True
except Exception:  # noqa: BLE001 - any failure just means no HEIC support
    HEIC = False


class ImageError(ValueError):
    """An image that cannot be used: `code` for programs, `message` for people."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _read_bytes(source) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "image"
    path = Path(os.fspath(source))
    if not path.exists():
        raise ImageError("not-found", f"{path} does not exist")
    if not path.is_file():
        raise ImageError("not-a-file", f"{path} is not a file")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise ImageError("too-large", f"{path.name} is {size / 1e6:.0f} MB; the limit is "
                                      f"{MAX_BYTES / 1e6:.0f} MB")
    return path.read_bytes(), path.name


def load_image(source) -> np.ndarray:
    """A BGR uint8 image from a path, bytes, or an ndarray (BGR or grey, passed through)."""
    return load_photo(source)[0]


def load_photo(source, max_side: int | None = None) -> tuple[np.ndarray, float]:
    """(BGR image, scale): with max_side, a big JPEG is decoded straight at 1/2, 1/4 or 1/8
    size (the decoder's own DCT scaling: far faster than decoding every pixel and shrinking),
    never below max_side on its long side; scale = original pixels per returned pixel, so boxes
    can be given in the original's pixels.  EXIF orientation is applied either way."""
    if isinstance(source, np.ndarray):
        return _check_array(source), 1.0
    data, name = _read_bytes(source)
    if not data:
        raise ImageError("empty", f"{name} is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        raise ImageError("too-large", f"{name} is {len(data) / 1e6:.0f} MB; the limit is "
                                      f"{MAX_BYTES / 1e6:.0f} MB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))  # reads the header only
            w, h = img.size
            if w * h > MAX_PIXELS:
                raise ImageError("too-large", f"{name} is {w}x{h} = {w * h / 1e6:.0f} megapixels; "
                                              f"the limit is {MAX_PIXELS / 1e6:.0f} megapixels")
            reduce = _jpeg_reduction(w, h, max_side) if img.format == "JPEG" else 1
            fast = _decode_jpeg(data, img, reduce) if img.format == "JPEG" else None
            if fast is not None:
                return _check_array(fast[0]), fast[1]
            if reduce > 1:
                img.draft("RGB", (max(1, w // reduce), max(1, h // reduce)))
            img.load()
            scale = w / img.size[0]
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError("too-large", f"{name} looks like a decompression bomb: {exc}") from None
    except UnidentifiedImageError:
        hint = " (HEIC needs the pillow-heif package)" if data[4:12] in (b"ftypheic", b"ftypheix",
                                                                          b"ftypmif1") else ""
        raise ImageError("unreadable", f"{name} is not an image this program can read "
                                       f"(JPEG, PNG, WebP{', HEIC' if HEIC else ''}){hint}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError("corrupt", f"{name} is damaged or truncated: {exc}") from None
    try:
        img = ImageOps.exif_transpose(img)
    except Exception:  # noqa: BLE001 - a broken EXIF block must not lose the photo
        pass
    img = img.convert("RGB")
    arr = np.asarray(img)[:, :, ::-1]
    return _check_array(np.ascontiguousarray(arr)), float(scale)


def _jpeg_reduction(w: int, h: int, max_side: int | None) -> int:
    """The largest DCT reduction (1, 2, 4 or 8) that keeps the long side at least max_side."""
    if not max_side:
        return 1
    return next((f for f in (8, 4, 2) if max(w, h) / f >= max_side), 1)


#: OpenCV's reduced-size JPEG decoding flags by reduction
_CV_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
               8: cv2.IMREAD_REDUCED_COLOR_8}
#: EXIF orientation -> the OpenCV steps that show the picture upright (as ImageOps.exif_transpose)
_ORIENT = {2: lambda a: cv2.flip(a, 1), 3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
           4: lambda a: cv2.flip(a, 0), 5: cv2.transpose,
           6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
           7: lambda a: cv2.flip(cv2.transpose(a), -1),
           8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE)}


def _decode_jpeg(data: bytes, header: Image.Image, reduce: int) -> tuple[np.ndarray, float] | None:
    """(BGR image, scale) for a plain (RGB or grey) JPEG decoded by OpenCV's libjpeg-turbo, about
    twice as fast as Pillow's path here; None leaves the file to Pillow: other colour modes
    (CMYK), and files that may be cut short (the last end-of-image marker must follow the last
    start-of-scan: libjpeg would quietly fill a truncated file with grey where Pillow says so)."""
    end = data.rfind(b"\xff\xd9")
    if header.mode not in ("RGB", "L") or end < 0 or data.find(b"\xff\xda", end) >= 0:
        return None
    try:
        orientation = int(header.getexif().get(0x0112, 1))
    except Exception:  # noqa: BLE001 - a broken EXIF block must not lose the photo
        orientation = 1
    arr = cv2.imdecode(np.frombuffer(data, np.uint8), _CV_REDUCED[reduce] | cv2.IMREAD_IGNORE_ORIENTATION)
    if arr is None or arr.ndim != 3:
        return None
    scale = header.size[0] / arr.shape[1]  # before any quarter turn swaps width and height
    turn = _ORIENT.get(orientation)
    return (turn(arr) if turn else arr), float(scale)


def _check_array(arr: np.ndarray) -> np.ndarray:
    if arr.ndim == 2:
        arr = np.repeat(arr[:, :, None], 3, axis=2)
    if arr.ndim != 3 or arr.shape[2] not in (3, 4):
        raise ImageError("bad-array", f"expected an HxWx3 BGR image, got shape {arr.shape}")
    if arr.shape[2] == 4:
        arr = arr[:, :, :3]
    if arr.dtype != np.uint8:
        raise ImageError("bad-array", f"expected uint8 pixels, got {arr.dtype}")
    h, w = arr.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageError("too-small", f"the image is {w}x{h}; tiles cannot be seen below "
                                      f"{MIN_SIDE} pixels a side")
    if h * w > MAX_PIXELS:
        raise ImageError("too-large", f"the image is {w}x{h}; the limit is {MAX_PIXELS / 1e6:.0f} "
                                      f"megapixels")
    return np.ascontiguousarray(arr)

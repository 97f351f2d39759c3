"""Load a photo safely: JPEG, PNG, WebP (HEIC when pillow-heif is installed), EXIF orientation
applied, decompression bombs and corrupt files refused with a clear `ImageError`."""

from __future__ import annotations

import io
import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import simplejpeg
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
    photo = start_photo(source, max_side)
    return photo.result(), photo.scale


class PendingPhoto:
    """A photo being decoded: `shape` and `scale` are known at once, the pixels come from
    `result()` (waiting for a background decode, if one runs).  `preview` is the same photo
    decoded again at a further DCT reduction (None if there is none): a big JPEG's first small
    look can start on it while the full decode runs on the other core."""

    def __init__(self, shape: tuple[int, ...], scale: float, image: np.ndarray | None = None,
                 future=None, fallback=None, preview: np.ndarray | None = None):
        self.shape = shape
        self.scale = scale
        self.preview = preview
        self._image, self._future, self._fallback = image, future, fallback

    def result(self) -> np.ndarray:
        """The decoded BGR image (ImageError if it cannot be decoded)."""
        if self._image is None:
            fast = self._future.result() if self._future is not None else None
            self._image = _check_array(fast) if fast is not None else self._fallback()[0]
            self._future = self._fallback = None
        return self._image


@lru_cache(maxsize=1)
def _decoder() -> ThreadPoolExecutor:
    """The background JPEG decoder threads, made once per process (OpenCV's decoder releases
    the GIL)."""
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="jpeg-decode")


def start_photo(source, max_side: int | None = None, preview_side: int | None = None) -> PendingPhoto:
    """Check and start decoding a photo (as load_photo).  With preview_side, a JPEG that can be
    DCT-reduced at least twice more while keeping preview_side pixels on its long side gets a
    `preview` at once and its full decode runs in a background thread; errors in the file are
    raised here or by result()."""
    if isinstance(source, np.ndarray):
        arr = _check_array(source)
        return PendingPhoto(arr.shape, 1.0, image=arr)
    data, name = _read_bytes(source)
    if not data:
        raise ImageError("empty", f"{name} is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        raise ImageError("too-large", f"{name} is {len(data) / 1e6:.0f} MB; the limit is "
                                      f"{MAX_BYTES / 1e6:.0f} MB")
    header = _header(data, name)
    w, h = header.size
    reduce = _reduction(w, h, max_side)
    orientation = _fast_jpeg_orientation(data, header) if header.format == "JPEG" else None
    if orientation is None:  # not a plain JPEG: Pillow decodes it, now
        img, scale = _decode_pillow(header, name, reduce)
        return PendingPhoto(img.shape, scale, image=img)
    fallback = lambda: _decode_pillow(_header(data, name), name, reduce)  # noqa: E731
    rw, rh = _reduced_size(w, h, reduce)
    shape = (rw, rh, 3) if orientation in (5, 6, 7, 8) else (rh, rw, 3)
    scale = w / rw
    small = _reduction(w, h, preview_side) if preview_side else 1
    if small >= 2 * reduce:
        future = _decoder().submit(_decode_jpeg, data, reduce, orientation)
        preview = _decode_jpeg(data, small, orientation)
        return PendingPhoto(shape, scale, future=future, fallback=fallback,
                            preview=_check_array(preview) if preview is not None else None)
    arr = _decode_jpeg(data, reduce, orientation)
    if arr is None:
        img, scale = fallback()
        return PendingPhoto(img.shape, scale, image=img)
    arr = _check_array(arr)
    return PendingPhoto(arr.shape, scale, image=arr)


def _header(data: bytes, name: str) -> Image.Image:
    """The image's header (size, format, mode, EXIF), read without decoding pixels; refuses
    what no decoder should start on (too many pixels, not an image)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))  # reads the header only
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError("too-large", f"{name} looks like a decompression bomb: {exc}") from None
    except UnidentifiedImageError:
        kind = image_signature(data)
        if kind and (kind != "HEIC" or HEIC):  # a format read here, broken before its header ends
            raise ImageError("corrupt", f"{name} starts as a {kind} but is damaged or truncated in its "
                                        "header") from None
        hint = " (HEIC needs the pillow-heif package)" if looks_like_heic(data) else ""
        raise ImageError("unreadable", f"{name} is not an image this program can read "
                                       f"(JPEG, PNG, WebP, BMP{', HEIC' if HEIC else ''}){hint}") from None
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageError("corrupt", f"{name} is damaged or truncated: {exc}") from None
    w, h = img.size
    if w * h > MAX_PIXELS:
        raise ImageError("too-large", f"{name} is {w}x{h} = {w * h / 1e6:.0f} megapixels; "
                                      f"the limit is {MAX_PIXELS / 1e6:.0f} megapixels")
    if min(w, h) < MIN_SIDE:
        raise ImageError("too-small", f"{name} is {w}x{h}; tiles cannot be seen below "
                                      f"{MIN_SIDE} pixels a side")
    return img


def image_signature(data: bytes) -> str | None:
    """The format a file's first bytes name, of those read here (None: none of them)."""
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if data[:2] == b"BM":
        return "BMP"
    return "HEIC" if looks_like_heic(data) else None


def looks_like_heic(data: bytes) -> bool:
    """Whether the bytes start like a HEIC/HEIF file (an ISO box 'ftyp' with a HEIF brand)."""
    return data[4:12] in (b"ftypheic", b"ftypheix", b"ftypheim", b"ftyphevc", b"ftypmif1", b"ftypmsf1")


def _decode_pillow(img: Image.Image, name: str, reduce: int) -> tuple[np.ndarray, float]:
    """Pillow's decode (any format it reads), EXIF turned upright, at 1/reduce size: a JPEG at a
    DCT reduction, any other image box-averaged down right after decoding, so that a big PNG
    is not carried through the pipeline whole (a 50 MP PNG's recognition peaked at 939 MB of
    memory, 546 MB so)."""
    w = img.size[0]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            if reduce > 1 and img.format == "JPEG":
                img.draft("RGB", (max(1, w // reduce), max(1, img.size[1] // reduce)))
            img.load()
            if reduce > 1 and img.size[0] > w // reduce + 1:  # not reduced while decoding
                img = _shrunk(img, reduce)
            scale = w / img.size[0]
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError("too-large", f"{name} looks like a decompression bomb: {exc}") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:  # EOFError: pillow-heif on a torn HEIC
        raise ImageError("corrupt", f"{name} is damaged or truncated: {exc}") from None
    try:
        img = ImageOps.exif_transpose(img)
    except Exception:  # noqa: BLE001 - a broken EXIF block must not lose the photo
        pass
    img = to_eight_bit(img).convert("RGB")
    return _check_array(cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)), float(scale)


def _shrunk(img: Image.Image, factor: int) -> Image.Image:
    """The decoded image box-averaged down by an integer factor (Pillow's reduce), in a mode
    reduce takes; the full-size pixels are let go at once."""
    if img.mode not in ("L", "LA", "RGB", "RGBA", "I", "F"):
        img = to_eight_bit(img)  # a 16-bit greyscale stays one channel until it is reduced
        if img.mode not in ("L", "LA", "RGB", "RGBA"):
            img = img.convert("RGBA" if "A" in img.mode or img.mode == "P" else "RGB")
    return img.reduce(factor)


def to_eight_bit(img: Image.Image) -> Image.Image:
    """A deep greyscale image (16-bit PNG: modes I;16 and I; 32-bit float: F) brought to 8 bits
    by its own range: Pillow's convert clips every value over 255 to white, which turned a 16-bit
    photo into a blank page."""
    if img.mode not in ("I", "F") and not img.mode.startswith("I;16"):
        return img
    arr = np.asarray(img)
    top = float(arr.max()) if arr.size else 0.0
    if img.mode == "F" and top <= 1.0:
        full = 1.0  # a float image in [0, 1]
    elif top <= 255:
        full = 255.0  # deep mode, 8-bit values
    else:
        full = 65535.0 if top <= 65535 else top
    # a band of rows at a time in float32: a 49 MP 16-bit picture converted whole in float64
    # took 1.4 GB (three full-size copies) for a 100 KB upload
    out = np.empty(arr.shape[:2], np.uint8)
    for top_row in range(0, arr.shape[0], _EIGHT_BIT_ROWS):
        band = arr[top_row:top_row + _EIGHT_BIT_ROWS].astype(np.float32) * np.float32(255.0 / full)
        np.clip(band, 0, 255, out=band)
        out[top_row:top_row + _EIGHT_BIT_ROWS] = np.rint(band)
    return Image.fromarray(out, "L")


_EIGHT_BIT_ROWS = 256


def _reduced_size(w: int, h: int, reduce: int) -> tuple[int, int]:
    """(width, height) of a JPEG decoded at 1/reduce size: libjpeg rounds scaled sizes up."""
    return -(-w // reduce), -(-h // reduce)


def _reduction(w: int, h: int, max_side: int | None) -> int:
    """The largest reduction (1, 2, 4 or 8; a JPEG's DCT scaling) that keeps the long side at
    least max_side and the short side at least MIN_SIDE (a long, thin picture is not shrunk
    into one too small to read)."""
    if not max_side:
        return 1
    return next((f for f in (8, 4, 2) if max(w, h) / f >= max_side and min(w, h) / f >= MIN_SIDE), 1)


#: EXIF orientation -> the OpenCV steps that show the picture upright (as ImageOps.exif_transpose)
_ORIENT = {2: lambda a: cv2.flip(a, 1), 3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
           4: lambda a: cv2.flip(a, 0), 5: cv2.transpose,
           6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
           7: lambda a: cv2.flip(cv2.transpose(a), -1),
           8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE)}


def _fast_jpeg_orientation(data: bytes, header: Image.Image) -> int | None:
    """The EXIF orientation of a plain (RGB or grey) JPEG that simplejpeg's libjpeg-turbo may
    decode (straight to BGR: a 12 MP photo in 40 ms here, against 60 for OpenCV's decoder and
    119 for Pillow's path, same pixels as OpenCV's); None leaves the file to Pillow: other
    colour modes (CMYK), and files that may be cut short (the last end-of-image marker must
    follow the last start-of-scan: libjpeg would quietly fill a truncated file with grey where
    Pillow says so)."""
    end = data.rfind(b"\xff\xd9")
    if header.mode not in ("RGB", "L") or end < 0 or data.find(b"\xff\xda", end) >= 0:
        return None
    try:
        return int(header.getexif().get(0x0112, 1))
    except Exception:  # noqa: BLE001 - a broken EXIF block must not lose the photo
        return 1


def _decode_jpeg(data: bytes, reduce: int, orientation: int) -> np.ndarray | None:
    """The JPEG decoded by simplejpeg at 1/reduce size (libjpeg-turbo's DCT scaling) and turned
    upright; None if it fails (Pillow then decodes the file, or says what is wrong with it)."""
    try:
        h, w = simplejpeg.decode_jpeg_header(data)[:2]
        rw, rh = _reduced_size(w, h, reduce)
        arr = simplejpeg.decode_jpeg(data, colorspace="BGR", min_width=rw, min_height=rh,
                                     min_factor=reduce)
    except ValueError:
        return None
    if arr.shape != (rh, rw, 3):
        return None
    turn = _ORIENT.get(orientation)
    return turn(arr) if turn else arr


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

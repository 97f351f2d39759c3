"""Check and decode an uploaded photo safely.

The order matters: the declared content type is checked first, then Pillow reads only the header
(format and dimensions) and the pixel count is checked, and only then are the pixels decoded.  A
decompression bomb (a tiny file that claims 20,000 x 20,000 pixels) is therefore refused without
allocating its pixels, and a truncated or corrupt file fails cleanly during decoding.
"""

from __future__ import annotations

import base64
import io
import re
import warnings

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from api.errors import ApiError
from api.limits import MAX_IMAGE_PIXELS, MAX_UPLOAD_BYTES, MIN_IMAGE_SIDE, MiB
from vision import io as vision_io
from vision.io import to_eight_bit

# Pillow's own bomb guard as a second line of defence (it raises at twice this value).
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

#: Formats Pillow may decode for us, by Pillow format name.
ALLOWED_FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp", "BMP": "image/bmp"}
#: Declared content types we accept (the bytes are sniffed as well; they decide).
ALLOWED_CONTENT_TYPES = set(ALLOWED_FORMATS.values()) | {
    "image/jpg",
    "image/pjpeg",
    "image/x-png",
    "image/x-ms-bmp",
    "application/octet-stream",
    "",
}
#: iPhone photos (HEIC), read when the optional pillow-heif package is installed (`mjscore[heic]`)
HEIC_FORMAT, HEIC_CONTENT_TYPES = "HEIF", {"image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"}
_NO_HEIC = ("HEIC photos need the optional pillow-heif package on the server (pip install 'mjscore[heic]'); "
            "or send a JPEG (on iPhone: Settings > Camera > Formats > Most Compatible)")


def heic_supported() -> bool:
    """Whether this server reads HEIC photos (vision.io registers pillow-heif when it is installed)."""
    return vision_io.HEIC


def accepted_formats() -> str:
    return "JPEG, PNG, WebP, BMP" + (" or HEIC" if heic_supported() else "")


def check_content_type(content_type: str | None, what: str = "image") -> None:
    """Refuse a declared type that is plainly not one of our image formats (415)."""
    declared = (content_type or "").split(";")[0].strip().lower()
    if declared in ALLOWED_CONTENT_TYPES:
        return
    if declared in HEIC_CONTENT_TYPES:
        if heic_supported():
            return
        raise ApiError(415, "unsupported-media-type", _NO_HEIC)
    raise ApiError(
        415,
        "unsupported-media-type",
        f"the {what} was sent as {declared!r}; send a {accepted_formats()} image",
    )


def open_header(data: bytes) -> Image.Image:
    """Open lazily (header only) and check format and size; raise ApiError otherwise."""
    if not data:
        raise ApiError(400, "empty-upload", "the uploaded image is empty (0 bytes)")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ApiError(413, "payload-too-large", f"the image is larger than {MAX_UPLOAD_BYTES // MiB} MB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:
        # Pillow refuses from the header alone above 2 x MAX_IMAGE_PIXELS; say how big it claims to be
        claimed = re.search(r"\((\d+) pixels\)", str(exc))
        size = f"{int(claimed.group(1)):,} pixels" if claimed else "too many pixels"
        raise ApiError(
            413, "image-too-large", f"the image claims {size}; the limit is {MAX_IMAGE_PIXELS:,} (50 megapixels)"
        )
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        if vision_io.looks_like_heic(data) and not heic_supported():
            raise ApiError(415, "unsupported-media-type", _NO_HEIC)
        kind = vision_io.image_signature(data)
        if kind:  # a JPEG, PNG, WebP, BMP or HEIC by its first bytes, broken in its header
            raise ApiError(400, "corrupt-image", f"the image starts as a {kind} but is truncated or corrupt in its "
                                                 "header; send the photo again, or another copy of it")
        raise ApiError(
            415, "not-an-image", f"the upload is not a readable image; send a {accepted_formats()} photo"
        )
    if image.format not in ALLOWED_FORMATS and not (image.format == HEIC_FORMAT and heic_supported()):
        raise ApiError(
            415,
            "unsupported-media-type",
            f"{image.format} images are not accepted; send a {accepted_formats()} photo",
        )
    width, height = image.size
    if width * height > MAX_IMAGE_PIXELS:
        raise ApiError(
            413,
            "image-too-large",
            f"the image is {width} x {height} = {width * height:,} pixels; the limit is "
            f"{MAX_IMAGE_PIXELS:,} (50 megapixels)",
        )
    if min(width, height) < MIN_IMAGE_SIDE:
        raise ApiError(
            422, "image-too-small", f"the image is {width} x {height} pixels; too small to show tiles"
        )
    return image


#: vision.ImageError codes -> the API's status and code for them (as open_header names them)
_IMAGE_ERRORS = {"corrupt": (400, "corrupt-image"), "empty": (400, "empty-upload"),
                 "unreadable": (415, "not-an-image"), "too-large": (413, "image-too-large"),
                 "too-small": (422, "image-too-small")}


def api_error_for(exc: vision_io.ImageError) -> ApiError:
    """The API's answer to an image vision could not load."""
    code, message = str(exc.code), str(exc.message)
    status, api_code = _IMAGE_ERRORS.get(code, (413 if "large" in code else 422, code))
    if api_code == "corrupt-image":
        message = f"the image is truncated or corrupt ({message})"
    return ApiError(status, api_code, message)


def decode_image(data: bytes) -> np.ndarray:
    """Upload bytes -> upright BGR uint8 array (EXIF rotation applied), or ApiError.  For the
    validation report's pictures, at full size (recognition itself decodes with vision.io, which
    may decode a big photo smaller)."""
    image = open_header(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image.load()
            image = ImageOps.exif_transpose(image)
            rgb = to_eight_bit(image).convert("RGB")
    except Image.DecompressionBombError:
        raise ApiError(413, "image-too-large", f"the image has more than {MAX_IMAGE_PIXELS:,} pixels")
    except (OSError, SyntaxError, ValueError, EOFError, IndexError, TypeError, KeyError) as exc:
        # Pillow reports truncation as OSError("image file is truncated ..."); corrupt data as
        # OSError/SyntaxError/ValueError depending on the codec.
        detail = str(exc).split("\n")[0][:120] or type(exc).__name__
        raise ApiError(400, "corrupt-image", f"the image is truncated or corrupt ({detail})")
    array = np.asarray(rgb, dtype=np.uint8)
    return np.ascontiguousarray(array[:, :, ::-1])


def shrink(bgr: np.ndarray, max_side: int) -> np.ndarray:
    """The picture scaled down so its longer side is at most max_side (unchanged if it is):
    area-like, by a bilinear step to twice the size and an exact halving (a tenth of OpenCV's
    area resampling at a non-integer scale on a 12 MP photo)."""
    h, w = bgr.shape[:2]
    k = max_side / max(h, w)
    if k >= 1.0:
        return bgr
    size = (max(1, round(w * k)), max(1, round(h * k)))
    if k < 0.5:
        bgr = cv2.resize(bgr, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)


def encode_data_url(bgr: np.ndarray, fmt: str = "jpeg", quality: int = 85, max_side: int = 1600) -> str:
    """BGR array -> ``data:image/...;base64,`` URL, scaled down so its longer side <= max_side."""
    bgr = np.ascontiguousarray(shrink(bgr, max_side))
    if fmt == "png":
        ok, buffer = cv2.imencode(".png", bgr, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        mime = "image/png"
    else:
        ok, buffer = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
        mime = "image/jpeg"
    if not ok:
        raise ValueError(f"could not encode a {bgr.shape[1]}x{bgr.shape[0]} picture as {fmt}")
    return f"data:{mime};base64," + base64.b64encode(buffer.tobytes()).decode("ascii")

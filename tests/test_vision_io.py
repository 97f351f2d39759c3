"""Loading photos: formats, EXIF orientation, and clear refusals of bad files."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from vision import ImageError, load_image


def _encode(img: Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format=fmt, **kw)
    return buf.getvalue()


def _picture(w=120, h=80) -> Image.Image:
    arr = np.zeros((h, w, 3), np.uint8)
    arr[:, : w // 2] = (255, 0, 0)  # left half red (RGB)
    return Image.fromarray(arr)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_formats_load_as_bgr(fmt):
    img = load_image(_encode(_picture(), fmt))
    assert img.shape == (80, 120, 3) and img.dtype == np.uint8
    assert img[40, 10, 2] > 200 and img[40, 10, 0] < 60  # red lands in the R of BGR


def test_exif_orientation_is_applied(tmp_path):
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    path = tmp_path / "phone.jpg"
    path.write_bytes(_encode(_picture(), "JPEG", exif=exif.tobytes()))
    img = load_image(path)
    assert img.shape[:2] == (120, 80)  # displayed upright: portrait
    assert img[5, 40, 2] > 200  # the red left half is now on top


def test_corrupt_file_is_refused(tmp_path):
    data = _encode(_picture(400, 300), "JPEG")
    with pytest.raises(ImageError) as err:
        load_image(data[: len(data) // 3])
    assert err.value.code in ("corrupt", "unreadable")
    path = tmp_path / "notes.jpg"
    path.write_text("this is not a photo")
    with pytest.raises(ImageError) as err:
        load_image(path)
    assert err.value.code == "unreadable" and "notes.jpg" in err.value.message


def test_empty_missing_and_tiny():
    with pytest.raises(ImageError) as err:
        load_image(b"")
    assert err.value.code == "empty"
    with pytest.raises(ImageError) as err:
        load_image("/nonexistent/table.jpg")
    assert err.value.code == "not-found"
    with pytest.raises(ImageError) as err:
        load_image(_encode(_picture(10, 10), "PNG"))
    assert err.value.code == "too-small"


def test_decompression_bomb_is_refused_before_decoding():
    bomb = _encode(Image.new("1", (12000, 9000)), "PNG")  # 108 megapixels in a few kB
    assert len(bomb) < 200_000
    with pytest.raises(ImageError) as err:
        load_image(bomb)
    assert err.value.code == "too-large" and "pixels" in err.value.message

"""Loading photos: formats, EXIF orientation, and clear refusals of bad files."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from vision import ImageError, load_image
from vision.io import load_photo


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


def test_a_long_thin_picture_is_refused_by_its_own_size_and_a_long_one_kept():
    # 20 pixels tall: refused naming the size sent, not the size it would be decoded at
    with pytest.raises(ImageError) as err:
        load_photo(_encode(_picture(20000, 20), "PNG"), max_side=3000)
    assert err.value.code == "too-small" and "20000x20" in err.value.message
    # 64 pixels tall: a reduction to reach the long side's 3000 would leave 16; it is not reduced so far
    img, scale = load_photo(_encode(_picture(12000, 64), "PNG"), max_side=3000)
    assert min(img.shape[:2]) >= 32 and img.shape[1] * scale == 12000


def test_decompression_bomb_is_refused_before_decoding():
    bomb = _encode(Image.new("1", (12000, 9000)), "PNG")  # 108 megapixels in a few kB
    assert len(bomb) < 200_000
    with pytest.raises(ImageError) as err:
        load_image(bomb)
    assert err.value.code == "too-large" and "pixels" in err.value.message


def _patterned(w=96, h=64, block=8) -> np.ndarray:
    """Random RGB blocks, which no flip or quarter turn maps onto itself (and JPEG keeps)."""
    rng = np.random.default_rng(0)
    return cv2.resize((rng.random((h // block, w // block, 3)) * 255).astype(np.uint8), (w, h),
                      interpolation=cv2.INTER_NEAREST)


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_matches_pillow(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode(Image.fromarray(_patterned()), "JPEG", exif=exif.tobytes(), quality=95)
    want = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))[:, :, ::-1]
    got = load_image(data)
    assert got.shape == want.shape
    assert np.abs(got.astype(int) - want).mean() < 2.0


@pytest.mark.parametrize("orientation", [1, 6])
def test_big_jpeg_decoded_at_reduced_size_with_scale(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode(Image.fromarray(_patterned(960, 640, block=64)), "JPEG", exif=exif.tobytes(), quality=95)
    img, scale = load_photo(data, max_side=200)
    assert scale == 4.0  # 960 / 4 = 240 >= 200; 960 / 8 = 120 would be too small
    assert img.shape[:2] == ((160, 240) if orientation == 1 else (240, 160))
    full = load_image(data)
    small = cv2.resize(full, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.abs(img.astype(int) - small).mean() < 6.0


def test_truncated_jpeg_is_refused_not_filled_with_grey():
    data = _encode(Image.fromarray(_patterned(400, 304)), "JPEG")
    with pytest.raises(ImageError) as err:
        load_image(data[: int(len(data) * 0.9)])
    assert err.value.code == "corrupt"


@pytest.mark.parametrize("orientation", [1, 6])
def test_preview_decoded_at_once_and_full_photo_in_the_background(orientation):
    """A big JPEG's preview (for the first small look) is the photo at a further DCT reduction,
    and the full decode that runs meanwhile gives what a plain load gives."""
    from vision.io import start_photo

    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode(Image.fromarray(_patterned(1280, 960, block=64)), "JPEG", exif=exif.tobytes(), quality=95)
    photo = start_photo(data, preview_side=300)
    want = load_image(data)
    assert photo.shape == want.shape and photo.scale == 1.0
    assert photo.preview is not None and photo.preview.shape[:2] == (want.shape[0] // 4, want.shape[1] // 4)
    small = cv2.resize(want, (photo.preview.shape[1], photo.preview.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.abs(photo.preview.astype(int) - small).mean() < 6.0
    assert np.array_equal(photo.result(), want)


def test_background_decode_failing_falls_back_to_pillow(monkeypatch):
    """When the fast decoder cannot decode the full photo (it returns None), result() decodes it with
    Pillow instead, which gives the photo or a clear ImageError, never None."""
    import vision.io as vio

    data = _encode(Image.fromarray(_patterned(1280, 960, block=64)), "JPEG", quality=95)
    real = vio._decode_jpeg
    monkeypatch.setattr(vio, "_decode_jpeg", lambda d, reduce, o: None if reduce == 1 else real(d, reduce, o))
    photo = vio.start_photo(data, preview_side=300)
    assert photo.preview is not None
    img = photo.result()
    want = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))[:, :, ::-1]
    assert img.shape == want.shape and np.abs(img.astype(int) - want).mean() < 1.0


@pytest.mark.parametrize("reduce", [1, 2, 4, 8])
def test_fast_decoder_gives_opencvs_pixels(reduce):
    """simplejpeg (the fast path) and OpenCV share libjpeg-turbo: the same pixels at every DCT
    reduction, odd sizes included (both round scaled sizes up)."""
    from vision.io import _decode_jpeg

    data = _encode(Image.fromarray(_patterned(1001, 667, block=16)), "JPEG", quality=90)
    flag = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}[reduce]
    want = cv2.imdecode(np.frombuffer(data, np.uint8), flag | cv2.IMREAD_IGNORE_ORIENTATION)
    got = _decode_jpeg(data, reduce, 1)
    assert got.shape == want.shape == (-(-667 // reduce), -(-1001 // reduce), 3)
    assert np.array_equal(got, want)


def test_damaged_jpeg_data_gives_an_image_or_a_clear_error():
    """Bytes overwritten in the middle of the compressed data (not cut short): the photo loads
    (Pillow is lenient where the fast decoder is strict) or is refused as corrupt, never a crash."""
    data = bytearray(_encode(Image.fromarray(_patterned(640, 480)), "JPEG", quality=90))
    sos = data.find(b"\xff\xda")
    rng = np.random.default_rng(3)
    for at in rng.integers(sos + 20, len(data) - 10, 12):
        bad = bytearray(data)
        bad[at: at + 4] = b"\xff\xd0\x00\x17"
        try:
            img = load_image(bytes(bad))
        except ImageError as exc:
            assert exc.code == "corrupt"
        else:
            assert img.shape == (480, 640, 3)


@pytest.mark.parametrize("kind", ["16-bit", "32-bit", "float"])
def test_deep_greyscale_keeps_its_picture(kind):
    """A 16-bit greyscale PNG (and 32-bit integer or float TIFFs) is scaled to 8 bits by its own
    range, not clipped: Pillow's plain convert turned every value over 255 white."""
    grey = _patterned(96, 64).mean(axis=2)  # 8-bit levels of a chequered picture, 0-255
    if kind == "16-bit":
        data = _encode(Image.fromarray((grey * 257).astype(np.uint16)), "PNG")
    elif kind == "32-bit":
        data = _encode(Image.fromarray((grey * 257).astype(np.int32), "I"), "TIFF")
    else:
        data = _encode(Image.fromarray((grey / 255).astype(np.float32), "F"), "TIFF")
    img = load_image(data)
    assert img.shape == (64, 96, 3)
    assert np.abs(img[:, :, 0].astype(int) - grey.round()).max() <= 1


@pytest.mark.parametrize("fmt, orientation", [("PNG", 1), ("WEBP", 6)])
def test_big_png_and_webp_are_shrunk_as_big_jpegs_are(fmt, orientation):
    """A big image that is no JPEG is box-averaged down right after decoding, by the factor a
    JPEG would be DCT-reduced by, so a 50 MP PNG is not carried whole through the pipeline."""
    picture = _patterned(6400, 4800, block=64)
    image = Image.fromarray(picture[:, :, ::-1])
    exif = image.getexif()
    exif[0x0112] = orientation
    data = _encode(image, fmt, exif=exif.tobytes(), **({"lossless": True} if fmt == "WEBP" else {}))
    img, scale = load_photo(data, max_side=3000)
    upright = picture if orientation == 1 else np.ascontiguousarray(np.rot90(picture, -1))
    assert scale == 2.0 and img.shape == (upright.shape[0] // 2, upright.shape[1] // 2, 3)
    halved = cv2.resize(upright, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_AREA)
    assert np.abs(img.astype(int) - halved.astype(int)).max() <= 2


def test_a_damaged_heic_is_a_corrupt_image():
    """pillow-heif raises EOFError on a torn HEIC: it is a damaged photo like any other (it was
    an unhandled error: 500 from the API, and `mjscore recognize` stopped at it)."""
    import vision.io  # registers pillow-heif (the test extra installs it)

    assert vision.io.HEIC
    buffer = io.BytesIO()
    Image.fromarray(_patterned(320, 240)).save(buffer, "HEIF")
    data = bytearray(buffer.getvalue())
    data[data.find(b"mdat") + 4] ^= 0x8A
    with pytest.raises(ImageError) as err:
        load_image(bytes(data))
    assert err.value.code == "corrupt" and "damaged" in err.value.message

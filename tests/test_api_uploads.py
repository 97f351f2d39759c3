"""Bad uploads get a clear 4xx JSON error and the service keeps answering."""

from __future__ import annotations

import base64
import io
import struct
import zipfile
import zlib
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.app import app
from api.errors import ApiError
from api.images import decode_image, open_header
from api.limits import MAX_IMAGE_PIXELS
from api.zips import extract_zip

EXAMPLE = Path(__file__).resolve().parents[1] / "api" / "static" / "example.jpg"


@pytest.fixture(scope="module")
def client():
    with TestClient(app) as c:
        yield c


def jpeg_bytes(w=64, h=48) -> bytes:
    rng = np.random.default_rng(1)
    buffer = io.BytesIO()
    Image.fromarray(rng.integers(0, 255, (h, w, 3), dtype=np.uint8)).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def png_bomb(width=30000, height=30000) -> bytes:
    """A valid-looking PNG that claims 900 megapixels in a few hundred bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    row = b"\x00" + b"\x00" * width
    idat = zlib.compress(row * 64, 9)  # only the first rows; the header is what matters
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def assert_error(response, status: int, code: str | None = None):
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"code", "message"} and body["message"], body
    if code:
        assert body["code"] == code, body
    return body


def assert_alive(client):
    assert client.get("/healthz").json()["status"] == "ok"


ENDPOINTS = ["/api/v1/recognize", "/api/v1/photo/score"]


@pytest.mark.parametrize("url", ENDPOINTS)
def test_truncated_jpeg_is_refused(client, url):
    data = jpeg_bytes(400, 300)
    body = assert_error(client.post(url, files={"image": ("t.jpg", data[: len(data) // 2], "image/jpeg")}), 400,
                        "corrupt-image")
    assert "truncated" in body["message"]
    assert_alive(client)


@pytest.mark.parametrize("url", ENDPOINTS)
def test_a_photo_cut_short_in_its_header_is_corrupt_not_a_stranger(client, url):
    """A JPEG or WebP cut off inside its header is the photo damaged (400), not some other kind
    of file (415: it told the user to send a JPEG, which it was)."""
    jpeg = jpeg_bytes(400, 300)
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 200, 200)).save(buffer, "WEBP")
    for name, data, mime in (("t.jpg", jpeg[:40], "image/jpeg"), ("t.webp", buffer.getvalue()[:20], "image/webp")):
        body = assert_error(client.post(url, files={"image": (name, data, mime)}), 400, "corrupt-image")
        assert "truncated or corrupt" in body["message"]
    assert_alive(client)


@pytest.mark.parametrize("url", ENDPOINTS)
def test_png_bomb_is_refused_from_its_header(client, url):
    body = assert_error(client.post(url, files={"image": ("bomb.png", png_bomb(), "image/png")}), 413, "image-too-large")
    assert "900,000,000 pixels" in body["message"]
    assert_alive(client)


@pytest.mark.parametrize("url", ENDPOINTS)
def test_too_small_image_is_refused_naming_its_size(client, url):
    for w, h in ((20, 20), (20000, 20)):
        buffer = io.BytesIO()
        Image.new("RGB", (w, h), (200, 200, 200)).save(buffer, "PNG")
        body = assert_error(client.post(url, files={"image": ("s.png", buffer.getvalue(), "image/png")}), 422,
                            "image-too-small")
        assert f"{w} x {h} pixels" in body["message"]
    assert_alive(client)


@pytest.mark.parametrize("url", ENDPOINTS)
def test_text_sent_as_image_is_refused(client, url):
    assert_error(client.post(url, files={"image": ("a.jpg", b"just some text\n" * 10, "image/jpeg")}), 415, "not-an-image")
    assert_error(client.post(url, files={"image": ("a.txt", b"text", "text/plain")}), 415, "unsupported-media-type")
    assert_alive(client)


@pytest.mark.parametrize("url", ENDPOINTS + ["/api/v1/validate"])
def test_30_mb_upload_is_refused(client, url):
    field = "archive" if "validate" in url else "image"
    big = b"\xff\xd8\xff" + b"\x00" * (30 * 1024 * 1024)
    body = assert_error(client.post(url, files={field: ("big.jpg", big, "application/octet-stream")}), 413,
                        "payload-too-large")
    # a labelled set too big to upload is told what to do instead (photos do not compress)
    assert ("mjscore validate" in body["message"]) == (field == "archive"), body["message"]
    assert_alive(client)


def test_an_archive_just_over_the_upload_limit_is_told_what_to_do_instead(client):
    """Under the body's cap with its form, over the upload's: the route's own answer."""
    from api.limits import MAX_UPLOAD_BYTES

    big = b"PK" + b"\x00" * (MAX_UPLOAD_BYTES + 10)
    body = assert_error(client.post("/api/v1/validate", files={"archive": ("set.zip", big, "application/zip")}), 413,
                        "payload-too-large")
    assert body["message"].startswith("the archive is larger than 20 MB; split the set") and "mjscore validate" in body[
        "message"]


def test_streamed_body_without_length_is_cut_off(client):
    def chunks():
        for _ in range(40):
            yield b"\x00" * (1024 * 1024)

    response = client.post("/api/v1/recognize", content=chunks(),
                           headers={"content-type": "multipart/form-data; boundary=xyz"})
    assert_error(response, 413, "payload-too-large")
    assert_alive(client)


def test_empty_and_missing_uploads(client):
    assert_error(client.post("/api/v1/recognize", files={"image": ("e.jpg", b"", "image/jpeg")}), 400)
    assert_error(client.post("/api/v1/recognize"), 422, "invalid-request")
    assert_error(client.post("/api/v1/recognize", files={"image": ("a.jpg", jpeg_bytes(), "image/jpeg")},
                             data={"camera_seat": "X"}), 422, "invalid-request")
    assert_alive(client)


def heic_bytes(picture: Image.Image, orientation: int = 1) -> bytes:
    """HEIC as pillow-heif writes it (the test extra installs it; vision.io registers it with
    Pillow): the EXIF orientation goes into the file as HEIF's own turn, as an iPhone's photo
    carries it, and libheif turns the picture upright when it decodes."""
    exif = picture.getexif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    picture.save(buffer, "HEIF", quality=70, exif=exif.tobytes())
    return buffer.getvalue()


@pytest.fixture(scope="module")
def example_heic() -> bytes:
    """The bundled example photo as an iPhone would store it: HEIC, turned by its EXIF tag."""
    return heic_bytes(Image.open(EXAMPLE).rotate(90, expand=True), orientation=8)


def test_heic_photo_is_recognised_upright(client, example_heic):
    response = client.post("/api/v1/recognize", files={"image": ("IMG_0001.HEIC", example_heic, "image/heic")},
                           data={"annotate": "false", "photo": "true"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["width"], body["height"]) == (1600, 1200)  # stored 1200 x 1600, shown turned back
    assert body.get("annotated_image") is None
    shown = Image.open(io.BytesIO(base64.b64decode(body["photo_image"].split(",", 1)[1])))
    assert (shown.format, shown.size) == ("JPEG", (1600, 1200))  # the photo itself, for a browser
    assert len(body["tiles"]) == 56  # the example's every tile, stored turned and lossy
    assert {t["seat"] for t in body["tiles"]} == {"E", "S", "W", "N"}


def test_heic_without_pillow_heif_gets_a_helpful_message(client, monkeypatch):
    import vision.io

    monkeypatch.setattr(vision.io, "HEIC", False)
    body = assert_error(client.post("/api/v1/recognize", files={"image": ("a.heic", b"....ftypheic", "image/heic")}),
                        415, "unsupported-media-type")
    assert "pillow-heif" in body["message"] and "JPEG" in body["message"]
    body = assert_error(client.post("/api/v1/recognize",
                                    files={"image": ("a.bin", b"\0\0\0\x18ftypheic" + b"\0" * 64, "application/octet-stream")}),
                        415, "unsupported-media-type")
    assert "pillow-heif" in body["message"]
    assert_alive(client)


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_zip_with_parent_paths_is_refused(client):
    data = zip_bytes({"set/labels/a.json": b"{}", "../../evil.txt": b"owned"})
    body = assert_error(client.post("/api/v1/validate", files={"archive": ("s.zip", data, "application/zip")}), 400,
                        "unsafe-zip")
    assert "outside" in body["message"]
    assert_alive(client)


def test_a_set_without_labels_is_named_as_sent(client):
    for entries in ({}, {"photos/": b"", "notes.txt": b"hello"}):
        body = assert_error(client.post("/api/v1/validate",
                                        files={"archive": ("club photos.zip", zip_bytes(entries), "application/zip")}),
                            422, "bad-labels")
        assert body["message"].startswith("club photos: no labels found"), body  # not the scratch folder's name
    assert_alive(client)


def test_a_zip_of_a_zip_says_the_set_is_in_the_inner_zip(client):
    """A zip holding the set's zip (zipped twice) is not unpacked twice: the message says so and
    names the inner zip, rather than only that no labels were found."""
    inner = zip_bytes({"labels/a.json": b'{"image": "a.jpg", "tiles": []}', "images/a.jpg": jpeg_bytes()})
    body = assert_error(client.post("/api/v1/validate", files={"archive": (
        "club.zip", zip_bytes({"club/club-set.zip": inner}), "application/zip")}), 422, "bad-labels")
    assert body["message"].startswith("club: no labels found"), body
    assert "'club-set.zip' is a zip inside the set, which is not unpacked: send or pass that zip itself" in body["message"]
    assert_alive(client)


def test_not_a_zip_and_wrong_type(client):
    assert_error(client.post("/api/v1/validate", files={"archive": ("s.zip", b"PK nope", "application/zip")}), 400, "bad-zip")
    assert_error(client.post("/api/v1/validate", files={"archive": ("s.txt", b"hi", "text/plain")}), 415)
    assert_error(client.post("/api/v1/validate", files={"archive": ("s.zip", zip_bytes({"readme.txt": b"hi"}), "application/zip")}),
                 422, "bad-labels")


@pytest.mark.parametrize(
    "name",
    ["/etc/passwd", "C:/windows/x", "a/../../b", "..\\..\\b", "ok/\x01bad"],
)
def test_extract_zip_refuses_unsafe_names(tmp_path, name):
    with pytest.raises(ApiError) as err:
        extract_zip(io.BytesIO(zip_bytes({name: b"x"})), tmp_path)
    assert err.value.status_code == 400
    assert list(tmp_path.iterdir()) == []


def test_extract_zip_refuses_a_zip_bomb(tmp_path):
    with pytest.raises(ApiError) as err:
        extract_zip(io.BytesIO(zip_bytes({"a.bin": b"\x00" * (50 * 1024 * 1024)})), tmp_path)
    assert "bomb" in err.value.message


def test_extract_zip_refuses_symlinks(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo("link")
        info.external_attr = (0o120777 << 16)
        archive.writestr(info, "/etc/passwd")
    with pytest.raises(ApiError) as err:
        extract_zip(io.BytesIO(buffer.getvalue()), tmp_path)
    assert "symbolic link" in err.value.message


def test_extract_zip_writes_nested_files(tmp_path):
    written = extract_zip(io.BytesIO(zip_bytes({"set/labels/a.json": b"{}", "set/images/a.jpg": b"x"})), tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == ["set/images/a.jpg", "set/labels/a.json"]


def test_header_check_needs_no_decoding():
    with pytest.raises(ApiError) as err:
        open_header(png_bomb(8000, 8000))  # 64 MP: refused by our own check, with its size
    assert err.value.status_code == 413 and "8000 x 8000" in err.value.message
    image = open_header(png_bomb(5000, 5000))  # 25 MP: accepted, pixels not decoded yet
    assert image.size == (5000, 5000)


def test_decode_applies_exif_rotation_and_returns_bgr():
    rgb = np.zeros((40, 80, 3), dtype=np.uint8)
    rgb[:, :, 0] = 255  # pure red
    image = Image.fromarray(rgb)
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise when shown
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif, quality=95)
    decoded = decode_image(buffer.getvalue())
    assert decoded.shape == (80, 40, 3)
    assert decoded[..., 2].mean() > 200 and decoded[..., 0].mean() < 60  # red lands in the BGR red channel


def test_limits_are_the_documented_ones():
    assert MAX_IMAGE_PIXELS == 50_000_000

"""Bad input to the labelled-set validation (POST /api/v1/validate and `mjscore validate`): each
case found by an audit answered 500 (or a traceback), ran without bound, or named the server's
scratch folder.  Now a damaged or unsafe zip is a 400 naming its entry, a set that cannot be used
a 422 bad-labels naming the file, and one label that cannot be read a warning with its image left
out, as for any other unreadable label; the command line prints the same words, no traceback."""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path

import pytest

import api.labelsets
from api.labelsets import (MAX_BOXES_PER_IMAGE, MAX_CLASSES, LabelSetError, load_labelset, read_yaml_names,
                           tile_code_for_name)

PHOTO = (Path(__file__).resolve().parents[1] / "api" / "static" / "example.jpg").read_bytes()
TILE = {"box": [100, 100, 150, 170], "code": "1m"}
GOOD = {"image": "a.jpg", "tiles": [TILE]}
SCRATCH = "mjscore-validate-"  # the prefix of the service's scratch folders: never in a message


def zip_of(entries: dict[str, bytes | str]) -> bytes:
    """The entries stored (not compressed: a label of repeated boxes would pass for a zip bomb)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def good_set(**extra) -> dict:
    """A one-photo set of our JSON labels, and the entries given."""
    return {"labels/a.json": json.dumps(GOOD), "images/a.jpg": PHOTO, **extra}


def torn_zip() -> bytes:
    """A zip cut in the middle (its first 1000 bytes and last 200): its directory is there, its
    entries' data not."""
    whole = zip_of(good_set(**{"images/b.jpg": PHOTO}))
    return whole[:1000] + whole[-200:]


def coco(images: list[dict], annotations: list | None = None) -> str:
    return json.dumps({"images": images, "annotations": annotations or [],
                       "categories": [{"id": 1, "name": "characters_1"}]})


# (name, zip, status, code, words the message or a warning holds)
REFUSED = [
    ("a file and a folder of one name", zip_of(good_set(x=b"1", **{"x/y": b"2"})), 400, "unsafe-zip",
     "the zip holds 'x' both as a file and as the folder of 'x/y'"),
    ("a folder name of 300 characters", zip_of(good_set(**{"d" * 300 + "/f": b"1"})), 400, "unsafe-zip",
     "has a folder or file name longer than 255 bytes"),
    ("an entry 2000 folders deep", zip_of(good_set(**{"d/" * 2000 + "f": b"1"})), 400, "unsafe-zip",
     "lies 2000 folders deep; at most 32 are allowed"),
    ("a path of 1100 characters", zip_of(good_set(**{("d" * 99 + "/") * 11 + "f": b"1"})), 400, "unsafe-zip",
     "has a path longer than 1024 bytes"),
    ("a zip torn in the middle", torn_zip(), 400, "bad-zip",
     "the zip entry 'labels/a.json' cannot be read (the archive is damaged or cut short)"),
    ("a data.yaml class index of 10**6", zip_of({"data.yaml": "names:\n  1000000: 1m\n", "images/a.jpg": PHOTO}),
     422, "bad-labels", "data.yaml names: class index 1000000 is out of range: a set may have at most 5000 classes"),
    ("a folder named data.yaml", zip_of({"data.yaml/x": b"1", "images/a.jpg": PHOTO}), 422, "bad-labels",
     "no labels found"),
    ("two names that differ only in capitals", zip_of(good_set(**{"images/A.jpg": PHOTO})), 400, "unsafe-zip",
     "the zip holds 'images/a.jpg' and 'images/A.jpg', names that differ only in capitals: rename one of them"),
    # one path spelt twice ('./', a Windows backslash): not said to differ in capitals, which they do not
    ("one path spelt two ways", zip_of(good_set(**{"./images/a.jpg": PHOTO})), 400, "unsafe-zip",
     "the zip holds 'images/a.jpg' twice (as 'images/a.jpg' and './images/a.jpg')"),
    ("one path spelt with a backslash", zip_of(good_set(**{"images\\a.jpg": PHOTO})), 400, "unsafe-zip",
     "the zip holds 'images/a.jpg' twice (as 'images/a.jpg' and 'images\\\\a.jpg')"),
]

# (name, zip, a warning the report holds): the one bad label is left out, the good one validated
SKIPPED = [
    ("a NUL byte in a label's image name", good_set(**{"labels/b.json": json.dumps({"image": "b\0.jpg", "tiles": []})}),
     "labels/b.json: image 'b\\x00.jpg': a name with control characters names no file; skipped"),
    ("a NUL byte in a COCO file_name",
     {"_annotations.coco.json": coco([{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b\0.jpg"}]),
      "a.jpg": PHOTO},
     "_annotations.coco.json: image 'b\\x00.jpg': a name with control characters names no file; skipped"),
    ("an image name of 300 characters",
     good_set(**{"labels/b.json": json.dumps({"image": "x" * 300 + ".jpg", "tiles": []})}),
     "labels/b.json: image " + "x" * 60 + "...: not found; skipped"),
    ("a folder named like a label", good_set(**{"labels/z.json/x": b"1"}),
     "labels/z.json: cannot be read (Is a directory); skipped"),
    ("a code of 5001 characters",
     {"labels/a.json": json.dumps({"image": "a.jpg",
                                   "tiles": [TILE, {"box": [0, 0, 50, 50], "code": "m" + "1" * 5000}]}),
      "images/a.jpg": PHOTO},
     "labels/a.json: tile 1 has unknown code 'm" + "1" * 59 + "...'; left out"),
    ("a YOLO class name of 5001 characters",
     {"data.yaml": "names: [1m, m" + "1" * 5000 + "]\n", "images/a.jpg": PHOTO,
      "labels/a.txt": "0 0.5 0.5 0.1 0.1\n1 0.2 0.2 0.1 0.1\n"},
     "class 'm" + "1" * 59 + "...' does not name a tile; its 1 boxes were left out"),
    ("a COCO id of Infinity",
     {"_annotations.coco.json": coco([{"id": 1, "file_name": "a.jpg"}, {"id": 2, "file_name": "b.jpg"}],
                                     [{"id": 5, "image_id": 2, "category_id": float("inf"), "bbox": [1, 2, 30, 40]}]),
      "a.jpg": PHOTO, "b.jpg": PHOTO},
     "_annotations.coco.json: image b.jpg: annotation 5 needs a bbox of four finite numbers and a category_id; "
     "skipped"),
    ("a COCO image id of Infinity",
     {"_annotations.coco.json": coco([{"id": 1, "file_name": "a.jpg"}]), "a.jpg": PHOTO,
      "b/_annotations.coco.json": coco([{"id": float("inf"), "file_name": "a.jpg"}])},
     "b/_annotations.coco.json: malformed COCO (OverflowError: cannot convert float infinity to integer); skipped"),
    ("a label nested 100,000 deep", good_set(**{"labels/b.json": "[" * 100_000}),
     "labels/b.json: not valid JSON (nested too deeply); skipped"),
    ("an integer of 5000 digits in a label", good_set(**{"labels/b.json": '{"image": "a.jpg", "width": ' + "1" * 5000
                                                          + ', "tiles": []}'}),
     "labels/b.json: not valid JSON (a number of thousands of digits); skipped"),
    ("a box of 400-digit integers",
     good_set(**{"labels/b.json": json.dumps({"image": "a.jpg",
                                              "tiles": [{"box": [0, 0, 10**400, 10**400], "code": "1m"}]})}),
     "labels/b.json: tile 0 needs 'box' [x1,y1,x2,y2] (four numbers) and 'code'; skipped"),
    ("more boxes than a photo can have",
     good_set(**{"labels/b.json": json.dumps({"image": "a.jpg", "tiles": [TILE] * (MAX_BOXES_PER_IMAGE + 1)})}),
     "labels/b.json: 1001 boxes, more than the 1000 read for one photo; skipped"),
    ("a photo that cannot be read", good_set(**{"labels/b.json": json.dumps({"image": "b.jpg", "tiles": []}),
                                               "images/b.jpg": b"not a photo"}),
     "labels/b.json: image b.jpg: not a readable image (cannot identify image file 'b.jpg'); skipped"),
]


def no_recognition(path: Path) -> list:
    return []


@pytest.fixture
def client(monkeypatch):
    import api.validation
    from fastapi.testclient import TestClient

    from api.app import app

    monkeypatch.setattr(api.validation, "recognize_path", no_recognition)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def post(client, data: bytes, html: bool = False):
    return client.post("/api/v1/validate" + ("?format=html" if html else ""),
                       files={"archive": ("s.zip", data, "application/zip")})


@pytest.mark.parametrize("case, data, status, code, words", REFUSED, ids=[c[0] for c in REFUSED])
def test_an_unusable_zip_is_refused_in_words(client, case, data, status, code, words):
    response = post(client, data)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and words in body["message"], body
    assert SCRATCH not in response.text


@pytest.mark.parametrize("case, entries, warning", SKIPPED, ids=[c[0] for c in SKIPPED])
def test_a_label_that_cannot_be_used_is_a_warning(client, case, entries, warning):
    response = post(client, zip_of(entries))
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["images"] == 1 and warning in report["warnings"], report["warnings"]
    assert SCRATCH not in response.text


def test_a_json_file_python_cannot_read_is_no_coco_file(client):
    """A .json Python cannot parse (an integer of 5000 digits, nesting 100,000 deep) is passed
    over in the search for COCO files, as one of bad syntax is; it was a 500."""
    entries = {"_annotations.coco.json": coco([{"id": 1, "file_name": "a.jpg"}]), "a.jpg": PHOTO,
               "b/_annotations.coco.json": '{"images": [], "annotations": [], "categories": [], "x": '
                                           + "1" * 5000 + "}",
               "c/_annotations.coco.json": '{"images": [], "annotations": [], "categories": ' + "[" * 100_000}
    response = post(client, zip_of(entries))
    assert response.status_code == 200, response.text
    assert response.json()["images"] == 1 and response.json()["format"] == "coco"


def test_a_huge_class_index_is_refused_at_once(tmp_path):
    """Every class index up to the highest is mapped: 10**8 cost 1.7 GB and 80 s."""
    (tmp_path / "data.yaml").write_text("names:\n  0: 1m\n  100000000: 2m\n")
    start = time.perf_counter()
    with pytest.raises(LabelSetError, match="data.yaml names: class index 100000000 is out of range"):
        read_yaml_names(tmp_path / "data.yaml")
    assert time.perf_counter() - start < 1
    for index in ("-1", str(MAX_CLASSES), "9" * 5000):
        (tmp_path / "data.yaml").write_text(f"names:\n  {index}: 1m\n")
        with pytest.raises(LabelSetError, match="is out of range"):
            read_yaml_names(tmp_path / "data.yaml")
    (tmp_path / "data.yaml").write_text(f"names:\n  {MAX_CLASSES - 1}: 1m\n")
    assert read_yaml_names(tmp_path / "data.yaml")[-1] == "1m"
    (tmp_path / "data.yaml").write_text("names: [" + ", ".join(["1m"] * (MAX_CLASSES + 1)) + "]\n")
    with pytest.raises(LabelSetError, match=f"data.yaml names {MAX_CLASSES + 1} classes; at most {MAX_CLASSES}"):
        read_yaml_names(tmp_path / "data.yaml")


def test_class_names_with_thousands_of_digits_name_no_tile():
    assert tile_code_for_name("m" + "1" * 5000) is None
    assert tile_code_for_name("1" * 5000 + "m") is None
    assert tile_code_for_name("0000001m") == "1m"  # leading zeros still read as before
    assert tile_code_for_name("bamboo_0000000007") == "7s"


def test_too_many_boxes_skip_the_photo_in_every_format(tmp_path):
    """2,000,000 boxes in one label took 183 s and 1.8 GB (pairing costs labelled x predicted)."""
    from test_validate_labels import make_coco_set, make_json_set, make_yolo_set

    many = MAX_BOXES_PER_IMAGE + 1
    root = make_json_set(tmp_path / "json")
    (root / "labels" / "a.json").write_text(json.dumps({"image": "a.jpg", "tiles": [TILE] * many}))
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["images/empty.jpg"]
    assert "labels/a.json: 1001 boxes, more than the 1000 read for one photo; skipped" in labelset.warnings

    root = make_yolo_set(tmp_path / "yolo", "names: ['1man', '9pin', 'chun']", ["1man", "9pin", "chun"])
    (root / "train" / "labels" / "train_a.txt").write_text("0 0.5 0.5 0.1 0.1\n" * many)
    labelset = load_labelset(root)
    assert "train/images/train_a.jpg" not in [i.name for i in labelset.images]
    assert ("train/images/train_a.jpg: train/labels/train_a.txt: 1001 boxes, more than the 1000 read for one photo; "
            "skipped") in labelset.warnings

    root = make_coco_set(tmp_path / "coco")
    coco_file = root / "train" / "_annotations.coco.json"
    data = json.loads(coco_file.read_text())
    data["annotations"] = [{**data["annotations"][0], "id": k} for k in range(many)]
    coco_file.write_text(json.dumps(data))
    with pytest.raises(LabelSetError, match="image a.jpg: 1001 boxes, more than the 1000 read for one photo"):
        load_labelset(root)

    root = make_json_set(tmp_path / "exactly")
    tile = {"box": [10, 20, 50, 80], "code": "1m"}  # inside the set's 200 x 100 photo
    (root / "labels" / "a.json").write_text(json.dumps({"image": "a.jpg", "tiles": [tile] * MAX_BOXES_PER_IMAGE}))
    assert len(load_labelset(root).images[0].tiles) == MAX_BOXES_PER_IMAGE


def test_a_label_file_too_large_to_read_skips_its_photo(tmp_path, monkeypatch):
    from test_validate_labels import make_json_set, make_yolo_set

    monkeypatch.setattr(api.labelsets, "MAX_LABEL_FILE_BYTES", 2 << 20)
    root = make_json_set(tmp_path / "json")
    (root / "labels" / "a.json").write_text(json.dumps({"image": "a.jpg", "tiles": [], "pad": " " * (3 << 20)}))
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["images/empty.jpg"]
    assert "labels/a.json: 3 MB, more than the 2 MB a label file may hold; skipped" in labelset.warnings

    root = make_yolo_set(tmp_path / "yolo", "names: ['1man', '9pin', 'chun']", ["1man", "9pin", "chun"])
    (root / "train" / "labels" / "train_a.txt").write_text("\n" * (3 << 20))
    labelset = load_labelset(root)
    assert any(w.startswith("train/images/train_a.jpg: train/labels/train_a.txt: 3 MB, more than the 2 MB")
               for w in labelset.warnings)
    (root / "data.yaml").write_text("names: ['1man']\n" + "#" * (2 << 20))
    with pytest.raises(LabelSetError, match="data.yaml is 2048 KB; a data.yaml may hold at most 1024 KB"):
        load_labelset(root)


def test_a_photo_of_10_to_13_pixels_as_its_label_says_is_drawn(client):
    """A label may give any size for its photo, and boxes to match: the report's drawing clips
    them to the photo (OpenCV refused coordinates beyond an int)."""
    label = {"image": "a.jpg", "width": 10**13, "height": 10**13, "tiles": [{"box": [0, 0, 5e12, 5e12], "code": "1m"}]}
    response = post(client, zip_of({"labels/a.json": json.dumps(label), "images/a.jpg": PHOTO}), html=True)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert 'alt="images/a.jpg with its errors drawn"' in response.text


def test_an_image_error_names_the_file_not_the_scratch_folder(tmp_path):
    from api.validation import validate
    from test_validate_labels import make_json_set

    def unreadable(path: Path):
        raise IsADirectoryError(21, "Is a directory", str(path))

    labelset = load_labelset(make_json_set(tmp_path / "set"))
    report, _ = validate(labelset, recognizer=unreadable, workers=0)
    assert "images/a.jpg: Is a directory: a.jpg" in report["warnings"]
    assert str(tmp_path) not in json.dumps(report)


@pytest.mark.parametrize("case, data, status, code, words", REFUSED, ids=[c[0] for c in REFUSED])
def test_the_command_line_refuses_in_the_same_words(tmp_path, capsys, monkeypatch, case, data, status, code, words):
    import api.validation
    from api.cli import main

    monkeypatch.setattr(api.validation, "recognize_path", no_recognition)

    archive = tmp_path / "s.zip"
    archive.write_bytes(data)
    assert main(["validate", str(archive), "--quiet", "-j", "1", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert SCRATCH not in err
    assert "unzip it" not in err  # the hint is for a zip over the size limits, not a broken one


def test_the_command_line_suggests_a_folder_for_a_zip_over_the_limits(tmp_path, capsys):
    from api.cli import main
    from api.limits import MAX_ZIP_ENTRIES

    archive = tmp_path / "big.zip"
    archive.write_bytes(zip_of({f"images/{k}.txt": b"" for k in range(MAX_ZIP_ENTRIES + 1)}))
    assert main(["validate", str(archive), "--quiet", "-j", "1", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"at most {MAX_ZIP_ENTRIES} are allowed" in err and "(a big set: unzip it and pass the folder)" in err


@pytest.mark.parametrize("case, entries, warning", SKIPPED, ids=[c[0] for c in SKIPPED])
def test_the_command_line_warns_in_the_same_words(tmp_path, capsys, monkeypatch, case, entries, warning):
    import api.validation
    from api.cli import main

    monkeypatch.setattr(api.validation, "recognize_path", no_recognition)
    archive = tmp_path / "s.zip"
    archive.write_bytes(zip_of(entries))
    assert main(["validate", str(archive), "--quiet", "-j", "1", "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert f"warning: {warning}" in out and SCRATCH not in out
    assert warning in json.loads((tmp_path / "out" / "report.json").read_text())["warnings"]


def test_the_command_line_draws_a_photo_whose_label_says_10_to_13_pixels(tmp_path, capsys, monkeypatch):
    import api.validation
    from api.cli import main

    monkeypatch.setattr(api.validation, "recognize_path", no_recognition)
    label = {"image": "a.jpg", "width": 10**13, "height": 10**13, "tiles": [{"box": [0, 0, 5e12, 5e12], "code": "1m"}]}
    archive = tmp_path / "s.zip"
    archive.write_bytes(zip_of({"labels/a.json": json.dumps(label), "images/a.jpg": PHOTO}))
    assert main(["validate", str(archive), "--quiet", "-j", "1", "-o", str(tmp_path / "out")]) == 0
    assert "with its errors drawn" in (tmp_path / "out" / "report.html").read_text()


def test_a_coco_file_listing_more_images_than_a_request_reads_is_refused_before_any_is_looked_for(
        tmp_path, monkeypatch):
    """One COCO file of a few megabytes may list 100,000 images (17 s to look each one up): the
    set is refused by the count it lists, before any image is looked for."""
    from api.limits import MAX_VALIDATE_IMAGES

    listed = [{"id": i, "file_name": f"p{i}.jpg"} for i in range(MAX_VALIDATE_IMAGES + 1)]
    (tmp_path / "_annotations.coco.json").write_text(coco(listed))

    def looked_for(*args, **kwargs):
        raise AssertionError("an image was looked for")

    monkeypatch.setattr(api.labelsets, "_read_coco_image", looked_for)
    with pytest.raises(api.labelsets.TooManyImages) as refused:
        load_labelset(tmp_path, max_images=MAX_VALIDATE_IMAGES)
    assert refused.value.count == MAX_VALIDATE_IMAGES + 1


def test_the_service_answers_a_coco_set_too_big_with_413(client):
    from api.limits import MAX_VALIDATE_IMAGES

    listed = [{"id": i, "file_name": f"p{i}.jpg"} for i in range(MAX_VALIDATE_IMAGES + 1)]
    response = client.post("/api/v1/validate", files={"archive": ("s.zip", zip_of({"_annotations.coco.json": coco(listed)}),
                                                                  "application/zip")})
    assert response.status_code == 413 and response.json()["code"] == "too-many-images"
    assert f"at most {MAX_VALIDATE_IMAGES} per request" in response.json()["message"]


def test_a_report_folder_that_cannot_be_one_is_refused_before_any_photo_is_read(tmp_path, capsys, monkeypatch):
    """`-o` naming a file (or a path under one) was found out only when the report was written,
    after every photo was recognised, with a traceback: now at once, in words, exit 2."""
    import api.validation
    from api.cli import main

    read = []
    monkeypatch.setattr(api.validation, "recognize_path", lambda path: read.append(path) or [])
    archive = tmp_path / "s.zip"
    archive.write_bytes(zip_of(good_set()))
    taken = tmp_path / "afile"
    taken.write_text("mine")
    for out in (taken, taken / "below"):
        assert main(["validate", str(archive), "--quiet", "-j", "1", "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert f"the report's folder {out}" in err and "Traceback" not in err
    assert not read and taken.read_text() == "mine"


@pytest.mark.parametrize("option, value", [("--limit", "0"), ("--limit", "-1"), ("-j", "0"), ("-j", "-1"),
                                           ("--worst", "-1")])
def test_counts_under_one_are_refused(tmp_path, capsys, option, value):
    """--limit 0 validated every photo and --limit -1 all but the last (a slice from the end);
    --worst may be 0 (no pictures), not less."""
    from api.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["validate", str(tmp_path), option, value])
    assert exit_.value.code == 2 and ("under 1" in (err := capsys.readouterr().err) or "under 0" in err)


def test_a_set_none_of_whose_photos_can_be_recognised_exits_non_zero(tmp_path, capsys, monkeypatch):
    """A photo whose header reads but whose pixels do not (a truncated JPEG) is recognised as
    failed, named in the warnings and its labels counted as missed; when every photo failed, the
    run says so on stderr and exits 1 (the report is still written, with the reasons)."""
    import api.validation
    from api.cli import main

    def broken(path):
        raise ValueError("the JPEG is cut short")

    monkeypatch.setattr(api.validation, "recognize_path", broken)
    archive = tmp_path / "s.zip"
    archive.write_bytes(zip_of(good_set()))
    assert main(["validate", str(archive), "--quiet", "-j", "1", "-o", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert "no photo of the set could be recognised" in captured.err
    assert "the JPEG is cut short" in captured.out and (tmp_path / "out" / "report.json").exists()

"""Validation metrics on a labelled set with known mistakes, the HTML report, the CLI and the endpoint.

The recogniser here is the ground truth with deliberate, counted errors (a renamed tile, a missed
tile, an invented tile, a failing image), so every figure of the report has a known right value.
"""

from __future__ import annotations

import base64
import gc
import io
import json
import os
import re
import weakref
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from api.labelsets import load_labelset
from api.report import confusion_png, write_report
from api.validation import Progress, iou, match_boxes, validate

from test_validate_labels import make_json_set


def test_iou_and_greedy_matching():
    assert iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    assert iou((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0
    truth = [((0, 0, 10, 10), "1m"), ((10, 0, 20, 10), "2m")]
    predicted = [((1, 0, 11, 10), "1m"), ((30, 0, 40, 10), "5z"), ((9, 0, 19, 10), "2m")]
    pairs, missed, extra = match_boxes(truth, predicted)
    assert pairs == [(0, 0), (1, 2)] and missed == [] and extra == [1]
    # one prediction cannot serve two labelled tiles
    pairs, missed, extra = match_boxes(truth, [((5, 0, 15, 10), "1m")], threshold=0.3)
    assert len(pairs) == 1 and len(missed) == 1


def labelled_recognizer(path: Path) -> list:
    """Ground truth read back from the label file, with one kind of mistake per image name."""
    label = json.loads((path.parent.parent / "labels" / (path.stem + ".json")).read_text())
    tiles = [{"box": t["box"], "code": t["code"], "confidence": 1.0} for t in label["tiles"]]
    if path.stem == "wrong":
        tiles[1]["code"] = "8p"  # 9p read as 8p
    elif path.stem == "missed":
        tiles = tiles[:-1]  # 7z not found
    elif path.stem == "extra":
        tiles.append({"box": [160, 20, 195, 80], "code": "5z", "confidence": 0.4})
    elif path.stem == "broken":
        raise ValueError("cannot read this photo")
    return tiles


@pytest.fixture
def labelset(tmp_path):
    root = make_json_set(tmp_path / "set")
    label = json.loads((root / "labels" / "a.json").read_text())
    for stem in ("wrong", "missed", "extra", "broken"):
        (root / "images" / f"{stem}.jpg").write_bytes((root / "images" / "a.jpg").read_bytes())
        (root / "labels" / f"{stem}.json").write_text(json.dumps({**label, "image": f"{stem}.jpg"}))
    return load_labelset(root)


def check_report(report: dict) -> None:
    # 6 images: a (right), empty (right, no tiles), wrong, missed, extra, broken; 3 tiles each but empty
    assert report["images"] == 6 and report["tiles"] == 15 and report["images_failed"] == 1
    assert report["recall"] == pytest.approx(11 / 15, abs=1e-4)  # broken loses 3, missed loses 1
    assert report["precision"] == pytest.approx(11 / 12, abs=1e-4)  # one extra among 12 predictions
    assert report["tile_accuracy"] == pytest.approx(10 / 15, abs=1e-4)
    assert report["classification_accuracy"] == pytest.approx(10 / 11, abs=1e-4)
    assert report["exact_images"] == 2 and report["exact_image_rate"] == pytest.approx(2 / 6, abs=1e-4)
    assert report["per_class"]["9p"] == {"labelled": 5, "predicted": 3, "correct": 3, "precision": 1.0, "recall": 0.6}
    assert report["per_class"]["8p"]["precision"] == 0.0
    assert report["top_confusions"] == [{"true": "9p", "predicted": "8p", "count": 1}]
    rows, cols, matrix = report["confusion"]["rows"], report["confusion"]["columns"], report["confusion"]["matrix"]
    assert matrix[rows.index("7z")][cols.index("missed")] == 2  # missed image + broken image
    assert matrix[rows.index("extra")][cols.index("5z")] == 1
    assert [w["image"] for w in report["worst_images"]][0] == "images/broken.jpg"
    assert any("cannot read this photo" in w for w in report["warnings"])


def test_metrics_in_process(labelset):
    report, _ = validate(labelset, recognizer=labelled_recognizer, workers=0)
    check_report(report)


def test_metrics_with_worker_processes_and_progress(labelset):
    stream = io.StringIO()
    report, _ = validate(labelset, recognizer=labelled_recognizer, workers=2, progress=Progress(6, stream))
    check_report(report)
    assert "6/6" in stream.getvalue()


def dying_recognizer(path: Path) -> list:
    """labelled_recognizer, whose worker process dies on the broken photo (a crash in a decoder, or
    the system's out-of-memory killer), as no exception can say."""
    if path.stem == "broken":
        os._exit(9)
    return labelled_recognizer(path)


def test_a_worker_that_dies_fails_its_photo_alone_not_the_rest_of_the_set(labelset):
    """A worker process that died broke the pool: every photo still waiting in it was counted as
    failed, unread.  They are read again, and only the photo its worker died on fails."""
    stream = io.StringIO()
    report, outcomes = validate(labelset, recognizer=dying_recognizer, workers=2, progress=Progress(6, stream))
    failed = {o.name: o.error for o in outcomes if o.error}
    assert list(failed) == ["images/broken.jpg"] and "the process reading this photo died" in failed["images/broken.jpg"]
    assert report["images_failed"] == 1 and report["recall"] == pytest.approx(11 / 15, abs=1e-4)
    assert "6/6" in stream.getvalue()


def test_blurred_photos_are_counted_named_and_marked(labelset, tmp_path):
    """A recogniser may say a photo is blurred ({"tiles", "blurred"}, as recognize_path does): the
    report counts and names those photos, so a collector knows why they read badly."""
    def blurred_wrong(path: Path) -> dict:
        return {"tiles": labelled_recognizer(path), "blurred": path.stem == "wrong"}

    report, outcomes = validate(labelset, recognizer=blurred_wrong, workers=0)
    check_report(report)
    assert report["blurred_images"] == 1
    assert [o["image"] for o in report["per_image"] if o["blurred"]] == ["images/wrong.jpg"]
    assert any(w.startswith("images/wrong.jpg: the photo is blurred") for w in report["warnings"])
    _, html_path = write_report(report, outcomes, {i.name: i.path for i in labelset.images}, tmp_path / "out")
    assert "the photo is blurred" in html_path.read_text()
    plain, _ = validate(labelset, recognizer=labelled_recognizer, workers=0)
    assert plain["blurred_images"] == 0 and not any(o["blurred"] for o in plain["per_image"])


def test_report_files_are_self_contained(labelset, tmp_path):
    report, outcomes = validate(labelset, recognizer=labelled_recognizer, workers=0)
    json_path, html_path = write_report(report, outcomes, {i.name: i.path for i in labelset.images}, tmp_path / "out")
    assert json.loads(json_path.read_text())["tiles"] == 15
    page = html_path.read_text()
    sources = re.findall(r'src="([^"]*)"', page)
    assert sources and all(s.startswith("data:image/") for s in sources)  # nothing to fetch
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert "9p read as 8p" in page and "images/broken.jpg" in page
    assert confusion_png(report["confusion"]).startswith(b"\x89PNG")


def test_sure_readings_the_labels_contradict_are_listed_to_check(labelset, tmp_path):
    """A collector's labels can be wrong too: a tile read surely (SURE) where no label is, or a
    labelled tile read surely as another kind, is listed for a person to look at, the surest
    first; unsure ones are the recogniser's doubt and are not. (In hust-riichi each of the five
    sure readings that contradicted a label was the label's error.)"""
    from api.validate_cli import format_summary
    from api.validation import SURE

    def recognizer(path: Path) -> list:
        tiles = labelled_recognizer(path)
        if path.stem == "wrong":
            tiles[1]["confidence"] = 0.95  # 9p labelled, read surely as 8p
        elif path.stem == "extra":  # one unsure find (0.4) and one sure one where no label is
            tiles.append({"box": [200, 20, 235, 80], "code": "3s", "confidence": 0.97})
        elif path.stem == "a":
            tiles[0] = {**tiles[0], "code": "1s", "confidence": SURE - 0.01}  # unsure: not listed
        return tiles

    report, outcomes = validate(labelset, recognizer=recognizer, workers=0)
    checks = report["labels_to_check"]
    assert [(c["image"], c["kind"], c["label"], c["read"], c["confidence"]) for c in checks] == [
        ("images/extra.jpg", "unlabelled", None, "3s", 0.97),
        ("images/wrong.jpg", "disagrees", "9p", "8p", 0.95),
        ("images/missed.jpg", "nothing-found", "7z", None, None),  # nothing read there: after the sure ones
    ]
    assert checks[0]["box"] == [200, 20, 235, 80]
    summary = format_summary(report)
    assert report["unsure_disagreements"] == 2  # the unsure find in extra.jpg, a's 1m read unsurely as 1s
    assert ("labels to check: 3 (1 found with no label, 1 read as another kind, 1 with no tile found; listed in the "
            "report)\n"
            "  images/extra.jpg [200 20 235 80]: no label, read as 3s (97%): a tile found where no label is: "
            "a label perhaps missing\n"
            "  images/wrong.jpg [") in summary
    assert ": labelled 9p, read as 8p (95%): read as another kind: the label perhaps wrong" in summary
    assert ": labelled 7z: no tile found for the label: a label on no tile (or a tile the recogniser missed)" in summary
    assert ("not listed to check: 2 reading(s) under 90% confidence the labels contradict, the recogniser's doubt "
            "more likely than the labels'") in summary
    _, html_path = write_report(report, outcomes, {i.name: i.path for i in labelset.images}, tmp_path / "out")
    page = html_path.read_text()
    assert "<h2>Labels to check</h2>" in page
    picture = r'<td><img src="data:image/jpeg;base64,[A-Za-z0-9+/=]+" alt="the tile"></td>'
    assert re.search(picture + "<td>images/extra.jpg</td><td>200 20 235 80</td><td>no label</td><td>3s</td><td>97%</td>"
                     "<td>a tile found where no label is: a label perhaps missing</td>", page)
    assert "<td>7z</td><td>&mdash;</td><td></td><td>no tile found for the label" in page
    assert re.search(picture + "<td>images/wrong.jpg</td>", page)
    from api.report import CHECK_PICTURE_HEIGHT, check_picture_urls

    first = check_picture_urls(report, {i.name: i.path for i in labelset.images})[1]
    shown = Image.open(io.BytesIO(base64.b64decode(first.split(",", 1)[1])))
    assert shown.height == CHECK_PICTURE_HEIGHT and shown.width < shown.height  # a tile, upright as labelled
    (tmp_path / "not-a-photo.jpg").write_text("no")
    unreadable = {i.name: tmp_path / "not-a-photo.jpg" for i in labelset.images}
    assert check_picture_urls(report, unreadable) == ["", "", ""]  # listed, without pictures
    plain, _ = validate(labelset, recognizer=lambda p: [{**t, "confidence": 0.5} for t in labelled_recognizer(p)],
                        workers=0)
    # unsure readings are the recogniser's doubt: only the label with nothing under it is left
    assert [c["kind"] for c in plain["labels_to_check"]] == ["nothing-found"]


def test_the_pictures_of_labels_to_check_decode_each_photo_once(labelset, monkeypatch):
    """Listed surest first, the entries of one photo lie apart; each photo is still decoded once
    and let go before the next (a hundred big photos would not fit in memory), and the pictures
    come back in the list's order."""
    import api.report

    decoded = []
    real = api.report.decode_image

    def decode_one_at_a_time(data):
        gc.collect()
        assert all(alive() is None for alive in decoded), "a photo decoded before is still held"
        image = real(data)
        decoded.append(weakref.ref(image))
        return image

    monkeypatch.setattr(api.report, "decode_image", decode_one_at_a_time)
    paths = {i.name: i.path for i in labelset.images}
    entry = {"kind": "disagrees", "label": "9p", "read": "8p", "confidence": 0.95}
    report = {"labels_to_check": [
        {**entry, "image": "images/a.jpg", "box": [10, 10, 40, 50]},
        {**entry, "image": "images/wrong.jpg", "box": [10, 10, 70, 50]},
        {**entry, "image": "images/a.jpg", "box": [10, 10, 40, 50]},
    ]}
    urls = api.report.check_picture_urls(report, paths)
    assert len(decoded) == 2
    widths = [Image.open(io.BytesIO(base64.b64decode(u.split(",", 1)[1]))).width for u in urls]
    assert widths[0] == widths[2] < widths[1]  # the wide box's picture is second, as listed


def test_validate_cli_reports_a_bad_folder(tmp_path, capsys):
    from api.cli import main

    (tmp_path / "nothing").mkdir()
    assert main(["validate", str(tmp_path / "nothing")]) == 2
    assert "no labels found" in capsys.readouterr().err


def test_validate_cli_prints_summary_and_writes_html(labelset, tmp_path, capsys, monkeypatch):
    import api.validation

    monkeypatch.setattr(api.validation, "recognize_path", labelled_recognizer)
    from api.cli import main

    code = main(["validate", str(labelset.root), "-o", str(tmp_path / "rep"), "-j", "1"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "recall (IoU 0.5) 73.3%" in out and "9p->8p x1" in out
    assert (tmp_path / "rep" / "report.html").is_file()
    assert "recognising [" in err  # the progress bar goes to stderr


def zip_of(root: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(root.rglob("*")):
            if path.is_file():
                archive.write(path, "myset/" + path.relative_to(root).as_posix())
    return buffer.getvalue()


def test_validate_cli_reads_a_zip_of_a_set(labelset, tmp_path, capsys, monkeypatch):
    import api.validation

    monkeypatch.setattr(api.validation, "recognize_path", labelled_recognizer)
    from api.cli import main

    archive = tmp_path / "collected.zip"
    archive.write_bytes(zip_of(labelset.root))
    code = main(["validate", str(archive), "-j", "1", "--quiet", "-o", str(tmp_path / "rep")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "set collected (json)" in out and "recall (IoU 0.5) 73.3%" in out
    assert json.loads((tmp_path / "rep" / "report.json").read_text())["dataset"] == "collected"

    unlabelled = tmp_path / "unlabelled.zip"
    with zipfile.ZipFile(unlabelled, "w") as photos:
        photos.writestr("a.jpg", b"not read")
    assert main(["validate", str(unlabelled), "--quiet"]) == 2
    assert "mjscore validate: unlabelled: no labels found" in capsys.readouterr().err  # not the scratch folder's name

    unsafe = tmp_path / "unsafe.zip"
    with zipfile.ZipFile(unsafe, "w") as bad:
        bad.writestr("../outside.json", "{}")
    assert main(["validate", str(unsafe), "--quiet"]) == 2
    assert "outside its folder" in capsys.readouterr().err


def test_validate_endpoint_json_and_html(labelset, monkeypatch):
    import api.validation
    from fastapi.testclient import TestClient

    from api.app import app

    monkeypatch.setattr(api.validation, "recognize_path", labelled_recognizer)
    data = zip_of(labelset.root)
    with TestClient(app) as client:
        response = client.post("/api/v1/validate", files={"archive": ("set.zip", data, "application/zip")})
        assert response.status_code == 200, response.text
        check_report(response.json())
        assert response.json()["dataset"] == "set"  # named by the upload, as the command line names it
        # the labelled recogniser reads every tile at 1.0: its 9p read as 8p is a sure disagreement
        assert [(c["image"], c["label"], c["read"]) for c in response.json()["labels_to_check"]] == [
            ("images/wrong.jpg", "9p", "8p"), ("images/missed.jpg", "7z", None)]
        page = client.post("/api/v1/validate?format=html", files={"archive": ("set.zip", data, "application/zip")})
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "9p read as 8p" in page.text
        assert re.search(r'<td><img src="data:image/jpeg;base64,[^"]+" alt="the tile"></td><td>images/wrong.jpg</td>',
                         page.text)


def test_many_label_warnings_are_cut_with_a_count(labelset):
    labelset.warnings = [f"labels/{k}.json: not valid JSON; skipped" for k in range(57)]
    report, _ = validate(labelset, recognizer=labelled_recognizer, workers=0)
    assert len(report["warnings"]) == 52  # and the fixture's photo that cannot be read
    assert report["warnings"][49] == "labels/49.json: not valid JSON; skipped"
    assert report["warnings"][50] == "... and 7 more label warnings"



def test_a_misplaced_box_and_a_label_given_twice_are_named(tmp_path):
    """A label's box half a tile off its tile is one entry (both boxes), not a tile missed and one
    unlabelled; a tile labelled twice is named as such; each missed and extra box is in report.json."""
    root = tmp_path / "set"
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    Image.new("RGB", (300, 100), (200, 200, 200)).save(root / "images" / "t.jpg")
    labels = [{"box": [10, 20, 50, 80], "code": "4z"},      # off by half a tile: the tile is at 30-70
              {"box": [100, 20, 140, 80], "code": "2p"},    # right
              {"box": [101, 21, 141, 81], "code": "2p"},    # the same tile again
              {"box": [200, 20, 240, 80], "code": "3s"}]    # right
    (root / "labels" / "t.json").write_text(json.dumps({"image": "t.jpg", "tiles": labels}))
    found = [{"box": [30, 20, 70, 80], "code": "4z", "confidence": 0.99},
             {"box": [100, 20, 140, 80], "code": "2p", "confidence": 0.99},
             {"box": [200, 20, 240, 80], "code": "3s", "confidence": 0.99}]
    report, _ = validate(load_labelset(root), recognizer=lambda p: found, workers=0)
    checks = report["labels_to_check"]
    assert [(c["kind"], c["label"], c["read"]) for c in checks] == [("off-target", "4z", "4z"), ("twice", "2p", None)]
    assert checks[0]["box"] == [10, 20, 50, 80] and checks[0]["found_box"] == [30, 20, 70, 80]
    image = report["per_image"][0]
    assert image["missed"] == ["4z", "2p"] and image["missed_boxes"] == [[10, 20, 50, 80], [101, 21, 141, 81]]
    assert image["extra"] == ["4z"] and image["extra_boxes"] == [[30, 20, 70, 80]]


def test_the_worst_images_listed_follow_the_option(labelset):
    report, _ = validate(labelset, recognizer=labelled_recognizer, workers=0, worst=1)
    assert len(report["worst_images"]) == 1


def test_a_label_to_check_is_pictured_with_its_box_drawn():
    """Where tiles touch, the picture says which one is meant: the label's box is drawn (orange),
    and for a label off its tile the find's box too (purple)."""
    import numpy as np

    from api.report import _tile_picture

    grey = np.full((200, 300, 3), 128, np.uint8)

    def colours(url):
        shown = np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")).astype(int)
        orange = (np.abs(shown - (255, 140, 0)).sum(axis=2) < 90).sum()
        purple = (np.abs(shown - (200, 60, 200)).sum(axis=2) < 90).sum()
        return orange, purple

    orange, purple = colours(_tile_picture(grey, [100, 50, 140, 110]))
    assert orange > 50 and purple == 0
    orange, purple = colours(_tile_picture(grey, [100, 50, 140, 110], [120, 50, 160, 110]))
    assert orange > 50 and purple > 50



def _one_image_set(tmp_path, labels):
    root = tmp_path / "set"
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    Image.new("RGB", (400, 100), (200, 200, 200)).save(root / "images" / "t.jpg")
    (root / "labels" / "t.json").write_text(json.dumps({"image": "t.jpg", "tiles": [
        {"box": box, "code": code} for box, code in labels]}))
    return load_labelset(root)


def test_every_missed_label_is_listed_once(tmp_path):
    """A pung whose three labels all lie 0.6 of a tile off: each label is listed (off its tile,
    or with no tile found), none dropped; a label off a tile read as another kind is off its
    tile too (the label may be wrong as well); a label given twice is named so even beside a
    tile of its kind."""
    labels = [([24, 20, 64, 80], "5m"), ([64, 20, 104, 80], "5m"), ([104, 20, 144, 80], "5m"),
              ([200, 20, 240, 80], "3m"),                              # the tile there reads 4m, 15 px off
              ([300, 20, 340, 80], "2p"), ([302, 22, 342, 82], "2p")]  # one tile labelled twice
    found = [{"box": [0, 20, 40, 80], "code": "5m", "confidence": 0.99},
             {"box": [40, 20, 80, 80], "code": "5m", "confidence": 0.99},
             {"box": [80, 20, 120, 80], "code": "5m", "confidence": 0.99},
             {"box": [215, 20, 255, 80], "code": "4m", "confidence": 0.5},
             {"box": [300, 20, 340, 80], "code": "2p", "confidence": 0.99},
             {"box": [340, 20, 380, 80], "code": "2p", "confidence": 0.99}]
    report, _ = validate(_one_image_set(tmp_path, labels), recognizer=lambda p: found, workers=0)
    listed = [(c["kind"], c["box"][0], c["read"]) for c in report["labels_to_check"]]
    kinds = {box: kind for kind, box, _ in listed}
    assert [kinds.get(x) for x in (24, 64, 104)].count("off-target") >= 2
    assert all(kinds.get(x) in ("off-target", "nothing-found") for x in (24, 64, 104))
    assert ("off-target", 200, "4m") in listed
    assert ("twice", 302, None) in listed
    assert ("unlabelled", 340, "2p") in listed  # the 2p beside them has no label
    missed = report["per_image"][0]["missed"]
    labelled_entries = [c for c in report["labels_to_check"] if c["label"]]
    assert len(labelled_entries) == len(missed)  # each missed label once


def test_the_report_of_a_set_of_many_wrong_labels_stays_small(tmp_path):
    """Two photos labelled with 600 boxes each where nothing lies: the labels to check are
    counted, the first MAX_CHECKS_LISTED listed, and each image's boxes of misses cut to
    MAX_BOXES_LISTED (a set of 1,000 such photos made a 148 MB answer)."""
    from api.validate_cli import format_summary
    from api.validation import MAX_BOXES_LISTED, MAX_CHECKS_LISTED

    root = tmp_path / "set"
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    boxes = [{"box": [x, y, x + 8, y + 10], "code": "1m"} for x in range(0, 600, 20) for y in range(0, 400, 20)]
    for name in ("a", "b"):
        Image.new("RGB", (640, 420), (90, 90, 90)).save(root / "images" / f"{name}.jpg")
        (root / "labels" / f"{name}.json").write_text(json.dumps({"image": f"{name}.jpg", "tiles": boxes}))
    report, _ = validate(load_labelset(root), recognizer=lambda p: [], workers=0)
    assert report["labels_to_check_total"] == 2 * len(boxes) > MAX_CHECKS_LISTED == len(report["labels_to_check"])
    assert all(len(i["missed_boxes"]) == MAX_BOXES_LISTED for i in report["per_image"])
    assert f"labels to check: {2 * len(boxes)}; the first {MAX_CHECKS_LISTED} in report.json" in format_summary(report)


def test_two_label_files_of_one_photo_read_it_once(tmp_path):
    root = make_json_set(tmp_path / "set")
    first = sorted((root / "labels").glob("*.json"))[0]
    (root / "labels" / "zz-copy.json").write_text(first.read_text())
    labelset = load_labelset(root)
    names = [i.name for i in labelset.images]
    assert len(names) == len(set(names))
    assert any(w.startswith("labels/zz-copy.json: labels ") and "again" in w for w in labelset.warnings)



def test_unsure_disagreements_are_counted_once_and_said_even_alone(tmp_path):
    """A find listed beside a label off its tile is not counted again as left out; a set whose only
    disagreements are unsure says so in its summary; a long photo name is printed whole."""
    from api.validate_cli import format_summary

    name = "IMG_20230101_123456_jpg.rf.3f2a1b4c5d6e7f8a9b0c1d2e3f4a5b6c.jpg"
    root = tmp_path / "set"
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    Image.new("RGB", (100, 60), (200, 200, 200)).save(root / "images" / name)
    (root / "labels" / "a.json").write_text(json.dumps({"image": name, "tiles": [{"box": [0, 0, 20, 30], "code": "1m"}]}))
    shifted = [{"box": [12, 0, 32, 30], "code": "1m", "confidence": 0.5}]
    report, _ = validate(load_labelset(root), recognizer=lambda p: shifted, workers=0)
    assert [c["kind"] for c in report["labels_to_check"]] == ["off-target"] and report["unsure_disagreements"] == 0
    assert f"  images/{name} [0 0 20 30]" in format_summary(report)
    unsure = [{"box": [0, 0, 20, 30], "code": "2m", "confidence": 0.5}]
    report, _ = validate(load_labelset(root), recognizer=lambda p: unsure, workers=0)
    assert report["labels_to_check"] == [] and report["unsure_disagreements"] == 1
    assert "not listed to check: 1 reading(s) under 90% confidence" in format_summary(report)

"""The three label formats (ours, YOLO, COCO) read into the same boxes and codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from conftest import shared_path
from api.labelsets import LabelSetError, load_labelset, read_yaml_names, tile_code_for_name

REPO = Path(__file__).resolve().parents[1]
HUST = REPO.parent / "shared" / "datasets" / "hust-riichi"

# one image 200 x 100 with three tiles
TRUTH = [((10.0, 20.0, 50.0, 80.0), "1m"), ((60.0, 20.0, 100.0, 80.0), "9p"), ((110.0, 20.0, 150.0, 80.0), "7z")]


def _image(path: Path, size=(200, 100)):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, (90, 120, 90)).save(path, "JPEG")


def make_json_set(root: Path) -> Path:
    _image(root / "images" / "a.jpg")
    _image(root / "images" / "empty.jpg")
    (root / "labels").mkdir(parents=True)
    tiles = [{"box": list(box), "code": code} for box, code in TRUTH]
    (root / "labels" / "a.json").write_text(json.dumps({"image": "a.jpg", "width": 200, "height": 100, "tiles": tiles}))
    (root / "labels" / "empty.json").write_text(json.dumps({"image": "empty.jpg", "width": 200, "height": 100, "tiles": []}))
    return root


def make_yolo_set(root: Path, names_yaml: str, names: list[str]) -> Path:
    for split in ("train", "valid"):
        _image(root / split / "images" / f"{split}_a.jpg")
        (root / split / "labels").mkdir(parents=True)
        lines = []
        for (x1, y1, x2, y2), code in TRUTH:
            cls = names.index({"1m": names[0], "9p": names[1], "7z": names[2]}[code])
            lines.append(f"{cls} {(x1 + x2) / 400:.6f} {(y1 + y2) / 200:.6f} {(x2 - x1) / 200:.6f} {(y2 - y1) / 100:.6f}")
        (root / split / "labels" / f"{split}_a.txt").write_text("\n".join(lines) + "\n")
    _image(root / "valid" / "images" / "negative.jpg")  # no label file: no tiles
    (root / "data.yaml").write_text(f"train: ../train/images\nval: ../valid/images\nnc: {len(names)}\n{names_yaml}\n")
    return root


def make_coco_set(root: Path) -> Path:
    _image(root / "train" / "a.jpg")
    categories = [{"id": 0, "name": "mahjong-tiles", "supercategory": "none"},
                  {"id": 1, "name": "characters_1", "supercategory": "mahjong-tiles"},
                  {"id": 2, "name": "dots_9", "supercategory": "mahjong-tiles"},
                  {"id": 3, "name": "red_dragon", "supercategory": "mahjong-tiles"}]
    ids = {"1m": 1, "9p": 2, "7z": 3}
    annotations = [
        {"id": i, "image_id": 7, "category_id": ids[code], "bbox": [x1, y1, x2 - x1, y2 - y1], "area": 1, "iscrowd": 0}
        for i, ((x1, y1, x2, y2), code) in enumerate(TRUTH)
    ]
    coco = {"info": {}, "images": [{"id": 7, "file_name": "a.jpg", "width": 200, "height": 100}],
            "annotations": annotations, "categories": categories}
    (root / "train" / "_annotations.coco.json").write_text(json.dumps(coco))
    return root


def boxes_of(labelset, name_part="a.jpg"):
    image = next(i for i in labelset.images if i.name.endswith(name_part))
    return [(tuple(round(v, 3) for v in t.box), t.code) for t in image.tiles]


def test_json_set(tmp_path):
    labelset = load_labelset(make_json_set(tmp_path / "set"))
    assert labelset.format == "json"
    assert [i.name for i in labelset.images] == ["images/a.jpg", "images/empty.jpg"]
    assert boxes_of(labelset) == TRUTH
    assert labelset.images[1].tiles == []


@pytest.mark.parametrize(
    "names_yaml, names",
    [
        ("names: ['1man', '9pin', 'chun']", ["1man", "9pin", "chun"]),
        ("names:\n  - bamboo_9\n  - dots_9\n  - characters_1\n  - red_dragon", ["characters_1", "dots_9", "red_dragon"]),
        ("names:\n  0: 1C\n  1: 9D\n  2: RD", ["1C", "9D", "RD"]),
    ],
)
def test_yolo_set_in_splits(tmp_path, names_yaml, names):
    # the second case lists classes in another order: indices must follow the yaml, not our names list
    yaml_names = read_yaml_names(make_yolo_set(tmp_path / "set", names_yaml, names) / "data.yaml")
    labelset = load_labelset(tmp_path / "set")
    assert labelset.format == "yolo"
    if yaml_names != names:  # rewrite the label files for the yaml's own order
        for txt in (tmp_path / "set").rglob("*.txt"):
            lines = [line.split() for line in txt.read_text().splitlines()]
            txt.write_text("\n".join(" ".join([str(yaml_names.index(names[int(p[0])]))] + p[1:]) for p in lines))
        labelset = load_labelset(tmp_path / "set")
    assert sorted(i.name for i in labelset.images) == ["train/images/train_a.jpg", "valid/images/negative.jpg",
                                                        "valid/images/valid_a.jpg"]
    assert boxes_of(labelset, "train_a.jpg") == TRUTH
    assert boxes_of(labelset, "negative.jpg") == []


def test_coco_set(tmp_path):
    labelset = load_labelset(make_coco_set(tmp_path / "set"))
    assert labelset.format == "coco"
    assert boxes_of(labelset) == TRUTH
    assert labelset.warnings == []  # the unused supercategory is not worth a warning


def test_unknown_classes_are_reported(tmp_path):
    root = make_yolo_set(tmp_path / "set", "names: ['1man', '9pin', 'joker']", ["1man", "9pin", "joker"])
    labelset = load_labelset(root)
    assert any("joker" in w for w in labelset.warnings)
    assert all(code != "7z" for _, code in boxes_of(labelset, "train_a.jpg"))


def test_a_malformed_label_file_is_named_and_skipped(tmp_path):
    """One bad file in a collector's set is reported and left out; the rest is still validated."""
    root = make_json_set(tmp_path / "set")
    (root / "labels" / "a.json").write_text("{not json")
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["images/empty.jpg"]
    assert any(w.startswith("labels/a.json: not valid JSON") and w.endswith("skipped") for w in labelset.warnings)
    (root / "labels" / "empty.json").write_text(json.dumps([1, 2]))
    with pytest.raises(LabelSetError, match="no image that can be read: labels/a.json: not valid JSON"):
        load_labelset(root)
    with pytest.raises(LabelSetError, match="no labels found"):
        (tmp_path / "empty").mkdir()
        load_labelset(tmp_path / "empty")


@pytest.mark.parametrize("box", [[10, 20, 50], [10, 20, "x", 80], [10, 20, float("nan"), 80], "10 20 50 80"])
def test_a_box_that_is_not_four_finite_numbers_skips_its_image(tmp_path, box):
    root = make_json_set(tmp_path / "set")
    label = json.loads((root / "labels" / "a.json").read_text())
    label["tiles"][1]["box"] = box
    (root / "labels" / "a.json").write_text(json.dumps(label))
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["images/empty.jpg"]
    assert any("a.json: tile 1 needs 'box'" in w for w in labelset.warnings)


def test_a_label_may_not_name_an_image_outside_the_set(tmp_path):
    """The report draws the images it reads: a label must not reach a file elsewhere."""
    root = make_json_set(tmp_path / "set")
    _image(tmp_path / "private.jpg")
    (root / "labels" / "a.json").write_text(json.dumps({"image": "../../private.jpg", "tiles": []}))
    (root / "images" / "link.jpg").symlink_to(tmp_path / "private.jpg")
    (root / "labels" / "link.json").write_text(json.dumps({"image": "link.jpg", "tiles": []}))
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["images/empty.jpg"]
    assert sum("outside the set's folder; skipped" in w for w in labelset.warnings) == 2

    coco_root = make_coco_set(tmp_path / "coco")
    coco_file = coco_root / "train" / "_annotations.coco.json"
    coco = json.loads(coco_file.read_text())
    coco["images"].append({"id": 8, "file_name": "../../private.jpg", "width": 200, "height": 100})
    coco_file.write_text(json.dumps(coco))
    labelset = load_labelset(coco_root)
    assert [i.name for i in labelset.images] == ["a.jpg"]  # the one top folder is the set
    assert any("private.jpg: outside the set's folder; skipped" in w for w in labelset.warnings)


def test_a_bad_yolo_line_or_unreadable_image_skips_that_image_only(tmp_path):
    root = make_yolo_set(tmp_path / "set", "names: ['1man', '9pin', 'chun']", ["1man", "9pin", "chun"])
    (root / "train" / "labels" / "train_a.txt").write_text("0 0.1 0.5 0.2 nan\n")
    (root / "valid" / "images" / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not a picture")
    labelset = load_labelset(root)
    assert sorted(i.name for i in labelset.images) == ["valid/images/negative.jpg", "valid/images/valid_a.jpg"]
    assert boxes_of(labelset, "valid_a.jpg") == TRUTH
    assert any(w.startswith("train/images/train_a.jpg: train/labels/train_a.txt:1: not finite") for w in labelset.warnings)
    assert any(w.startswith("valid/images/broken.jpg: not a readable image") for w in labelset.warnings)


def test_a_bad_coco_annotation_skips_its_image(tmp_path):
    root = make_coco_set(tmp_path / "set")
    coco_file = root / "train" / "_annotations.coco.json"
    coco = json.loads(coco_file.read_text())
    _image(root / "train" / "b.jpg")
    coco["images"].append({"id": 9, "file_name": "b.jpg", "width": 200, "height": 100})
    coco["annotations"].append({"id": 99, "image_id": 7, "category_id": 1, "bbox": [1, 2, 3]})
    coco_file.write_text(json.dumps(coco))
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["b.jpg"]
    assert any("image a.jpg: annotation 99 needs a bbox" in w for w in labelset.warnings)


def test_a_set_wrapped_in_a_chain_of_folders_is_found(tmp_path):
    """`zip -r set.zip /home/me/sets/club` stores the set under home/me/sets/club/: every
    folder that is the only thing in the one above it is looked through."""
    make_json_set(tmp_path / "home" / "me" / "sets" / "club")
    (tmp_path / "__MACOSX").mkdir()
    labelset = load_labelset(tmp_path)
    assert labelset.root.name == "club" and labelset.format == "json"
    assert boxes_of(labelset) == TRUTH


def test_boxes_outside_the_image_are_named_in_every_format(tmp_path):
    """A box wholly off its picture (pixel and normalised coordinates mixed up) was dropped
    without a word; now the set's warnings count it, and the other boxes stay."""
    root = make_json_set(tmp_path / "json")
    label = json.loads((root / "labels" / "a.json").read_text())
    label["tiles"].append({"box": [0.1, 0.2, 0.3, 0.4], "code": "2m"})  # under a pixel: normalised by mistake
    label["tiles"].append({"box": [400, 20, 440, 80], "code": "3m"})  # right of a 200-pixel image
    (root / "labels" / "a.json").write_text(json.dumps(label))
    labelset = load_labelset(root)
    assert boxes_of(labelset) == TRUTH
    assert "labels/a.json: 2 boxes lie outside the 200x100 image or under a pixel wide; left out" in labelset.warnings

    root = make_yolo_set(tmp_path / "yolo", "names: ['1man', '9pin', 'chun']", ["1man", "9pin", "chun"])
    with open(root / "train" / "labels" / "train_a.txt", "a") as f:
        f.write("0 1.8 0.5 0.2 0.6\n")
    labelset = load_labelset(root)
    assert boxes_of(labelset, "train_a.jpg") == TRUTH
    assert any(w.startswith("train/labels/train_a.txt: 1 box lies outside the 200x100 image") for w in labelset.warnings)

    root = make_coco_set(tmp_path / "coco")
    coco_file = root / "train" / "_annotations.coco.json"
    coco = json.loads(coco_file.read_text())
    coco["annotations"].append({"id": 50, "image_id": 7, "category_id": 1, "bbox": [10, 300, 40, 60]})
    coco_file.write_text(json.dumps(coco))
    labelset = load_labelset(root)
    assert boxes_of(labelset) == TRUTH
    # the one top folder, train/, is the set
    assert any(w.startswith("_annotations.coco.json: image a.jpg: 1 box lies outside") for w in labelset.warnings)


@pytest.mark.parametrize(
    "name, code",
    [("1man", "1m"), ("9pin", "9p"), ("5sou", "5s"), ("east", "1z"), ("south", "2z"), ("west", "3z"),
     ("north", "4z"), ("haku", "5z"), ("hatsu", "6z"), ("chun", "7z"), ("bamboo_1", "1s"), ("dots_1", "1p"),
     ("characters_1", "1m"), ("Bamboo-7", "7s"), ("1B", "1s"), ("2C", "2m"), ("3D", "3p"), ("m1", "1m"),
     ("0p", "5p"), ("5mr", "5m"), ("wind_north", "4z"), ("Green Dragon", "6z"), ("dragon_white", "5z"),
     ("flower_2", "f2"), ("season_4", "f8"), ("plum", "f1"), ("autumn", "f7"), ("back", "back"), ("7z", "7z"),
     ("joker", None), ("tile", None)],
)
def test_class_names(name, code):
    assert tile_code_for_name(name) == code


def test_hust_riichi_reads_completely():
    shared_path("datasets/hust-riichi", "reading the whole real labelled set")
    labelset = load_labelset(HUST)
    assert labelset.format == "json"
    assert len(labelset.images) == 256
    assert sum(len(i.tiles) for i in labelset.images) == 6644
    assert labelset.warnings == []


def test_yolo_images_and_label_files_that_do_not_meet_are_named(tmp_path):
    """A photo with no label file counts as holding no tile (YOLO's way), so the report says which
    photos those are, and which label files name no photo (a renamed photo); a set none of whose
    photos has a label file is refused."""
    root = make_yolo_set(tmp_path / "set", "names: ['1man', '9pin', 'chun']", ["1man", "9pin", "chun"])
    (root / "train" / "labels" / "train_a.txt").rename(root / "train" / "labels" / "renamed.txt")
    warnings = load_labelset(root).warnings
    assert any(w.startswith("2 image(s) have no label file, so they are counted as holding no tile: ")
               and "train/images/train_a.jpg" in w and "valid/images/negative.jpg" in w for w in warnings), warnings
    assert "1 label file(s) name no image of the set (a renamed or missing photo?): train/labels/renamed.txt" in warnings
    for label in root.rglob("*.txt"):
        label.unlink()
    with pytest.raises(LabelSetError, match="set: no image has a label file"):
        load_labelset(root)


def test_json_photos_no_label_file_names_are_named_not_dropped_unseen(tmp_path):
    """A photo of a set in our JSON labels with no label file is left out of the validation (a
    JSON set has no "no file: no tile" convention), and the warnings say which; a photo whose
    label file was skipped is named by that file's warning alone, and a Mac's resource forks are
    no photos."""
    root = make_json_set(tmp_path / "set")
    _image(root / "images" / "forgotten.jpg")
    _image(root / "images" / "bad.jpg")
    (root / "labels" / "bad.json").write_text("{bad")
    _image(root / "__MACOSX" / "images" / "._a.jpg")
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["images/a.jpg", "images/empty.jpg"]
    assert labelset.warnings[0].startswith("labels/bad.json: not valid JSON")
    assert labelset.warnings[1:] == ["1 image(s) have no label file, so they were left out: images/forgotten.jpg"]
    assert load_labelset(make_json_set(tmp_path / "complete")).warnings == []


def test_coco_photos_no_file_lists_are_named_not_dropped_unseen(tmp_path):
    root = make_coco_set(tmp_path / "set")
    _image(root / "train" / "forgotten.jpg")
    labelset = load_labelset(root)
    assert [i.name for i in labelset.images] == ["a.jpg"]  # (train/, the one folder, is the set)
    assert labelset.warnings == ["1 image(s) are listed in no COCO file, so they were left out: forgotten.jpg"]
    assert load_labelset(make_coco_set(tmp_path / "complete")).warnings == []


def test_a_set_of_photos_alone_is_named_by_its_own_folder(tmp_path):
    """A zip of a set's images/ folder alone: the message names the set, not its images/ folder."""
    _image(tmp_path / "club" / "images" / "a.jpg")
    with pytest.raises(LabelSetError, match=r"^club: no labels found"):
        load_labelset(tmp_path / "club")


def test_yolo_labels_are_looked_for_within_the_set(tmp_path):
    """A flat set (labels beside their photos) kept under a folder that happens to be called
    images is read, not refused; LabelImg's classes.txt is no label file of a photo; in the
    Ultralytics layout (labels/train/x.txt) a label file with no photo is named too."""
    flat = tmp_path / "images" / "flat"
    _image(flat / "a.jpg")
    (flat / "a.txt").write_text("0 0.5 0.5 0.2 0.4\n")
    (flat / "data.yaml").write_text("names: ['1man']\n")
    assert [t.code for t in load_labelset(flat).images[0].tiles] == ["1m"]

    root = tmp_path / "ultra"
    _image(root / "images" / "train" / "b.jpg")
    (root / "labels" / "train").mkdir(parents=True)
    (root / "labels" / "train" / "b.txt").write_text("0 0.5 0.5 0.2 0.4\n")
    (root / "labels" / "train" / "gone.txt").write_text("0 0.5 0.5 0.2 0.4\n")
    (root / "labels" / "classes.txt").write_text("1man\n")
    (root / "data.yaml").write_text("names: ['1man']\n")
    warnings = load_labelset(root).warnings
    assert warnings == ["1 label file(s) name no image of the set (a renamed or missing photo?): labels/train/gone.txt"]


def test_a_label_giving_its_photo_another_size_has_its_boxes_scaled_to_the_photo_and_says_so(tmp_path):
    """A label written for the photo at 400x200 (the photo since shrunk to 200x100) once had its
    boxes taken as the photo's pixels: all twice too big, every tile counted missed, no word."""
    root = make_json_set(tmp_path / "json")
    label = json.loads((root / "labels" / "a.json").read_text())
    label.update(width=400, height=200)
    for tile in label["tiles"]:
        tile["box"] = [2 * v for v in tile["box"]]
    (root / "labels" / "a.json").write_text(json.dumps(label))
    labelset = load_labelset(root)
    assert boxes_of(labelset) == TRUTH
    image = next(i for i in labelset.images if i.name.endswith("a.jpg"))
    assert (image.width, image.height) == (200, 100)
    assert ("labels/a.json: gives its photo as 400x200, but the photo is 200x100; its boxes were scaled to the photo"
            in labelset.warnings)

    root = make_coco_set(tmp_path / "coco")
    coco_file = root / "train" / "_annotations.coco.json"
    coco = json.loads(coco_file.read_text())
    coco["images"][0].update(width=400, height=200)
    for ann in coco["annotations"]:
        ann["bbox"] = [2 * v for v in ann["bbox"]]
    coco_file.write_text(json.dumps(coco))
    labelset = load_labelset(root)
    assert boxes_of(labelset) == TRUTH
    assert any(w.startswith("_annotations.coco.json: image a.jpg: gives its photo as 400x200") for w in labelset.warnings)


def test_a_photo_stored_turned_with_an_exif_orientation_is_measured_upright(tmp_path):
    """A phone's photo stored 100x200 with EXIF orientation 6 is 200x100 upright, as the label
    gives it and the recogniser reads it: no warning, the boxes as they are."""
    root = make_json_set(tmp_path / "json")
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.new("RGB", (100, 200), (90, 120, 90)).save(root / "images" / "a.jpg", "JPEG", exif=exif)
    labelset = load_labelset(root)
    assert boxes_of(labelset) == TRUTH
    assert labelset.warnings == []

"""The hust-riichi labelled photos (../shared/datasets/hust-riichi): locating, splitting, cropping.

The photos are CC BY 4.0 and never copied into the repository; this module reads them where
they lie.  The split is BY PHOTO and, stricter, by *burst*: photos taken within two minutes of
each other often show the same tray of tiles, so a burst goes wholly to one split.  The split is
written once to `datasets/splits/hust-riichi.json` (committed) and read from there ever after,
so test photos can never leak into training.

A few labels name the wrong kind (a red dragon labelled 4m): `datasets/splits/hust-riichi-errata.json`
lists each, found by the validation report's labels to check and looked at in its photo.
`load_photos(root, corrected=True)` applies them, as the training data does; the benchmarks
report the labels as published and, beside them, corrected.

    python -m datasets.hust_riichi --write-split   # (re)make the committed split file
"""

from __future__ import annotations

import argparse
import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
SPLIT_FILE = REPO_ROOT / "datasets" / "splits" / "hust-riichi.json"
ERRATA_FILE = REPO_ROOT / "datasets" / "splits" / "hust-riichi-errata.json"
_STAMP = re.compile(r"(\d{8})_(\d{6})")


def default_dir() -> Path:
    """../shared/datasets/hust-riichi relative to the repo root (may not exist)."""
    return REPO_ROOT.parent / "shared" / "datasets" / "hust-riichi"


@dataclass
class Photo:
    name: str  # image file name
    tiles: list[tuple[tuple[float, float, float, float], str]]  # (box, code)


def load_photos(root: Path, corrected: bool = False) -> dict[str, Photo]:
    """Every labelled photo; with `corrected`, the errata's labels put right (read_errata)."""
    root = Path(root)
    photos = {}
    for label in sorted((root / "labels").glob("*.json")):
        d = json.loads(label.read_text())
        photos[d["image"]] = Photo(d["image"], [(tuple(t["box"]), t["code"]) for t in d["tiles"]])
    if not photos:
        raise FileNotFoundError(f"no labels found under {root / 'labels'}")
    if corrected:
        correct_labels(photos, read_errata())
    return photos


def read_errata() -> list[dict]:
    """The labels known to name the wrong kind: {image, box, labelled, is, ...} each."""
    return json.loads(ERRATA_FILE.read_text())["errata"]


def correct_labels(photos: dict[str, Photo], errata: list[dict]) -> None:
    """Put each erratum's label right, in place.  An erratum that matches no label (its photo,
    box within half a pixel and labelled kind) means the set has changed: an error, not a skip."""
    for e in errata:
        photo = photos.get(e["image"])
        k = next((i for i, (box, code) in enumerate(photo.tiles) if code == e["labelled"]
                  and max(abs(a - b) for a, b in zip(box, e["box"])) <= 0.5), None) if photo else None
        if k is None:
            raise ValueError(f"hust-riichi erratum {e['image']} {e['box']} ({e['labelled']} is {e['is']}) matches "
                             f"no label: the labelled set is not the one the errata were written for")
        photo.tiles[k] = (photo.tiles[k][0], e["is"])


def _seconds(name: str) -> int | None:
    m = _STAMP.search(name)
    if not m:
        return None
    d, t = m.group(1), m.group(2)
    days = int(d[:4]) * 372 + int(d[4:6]) * 31 + int(d[6:8])
    return days * 86400 + int(t[:2]) * 3600 + int(t[2:4]) * 60 + int(t[4:6])


def make_split(root: Path, seed: int = 20231224, test_frac: float = 0.3, val_frac: float = 0.15) -> dict:
    """Assign whole bursts of photos to train / validation / test (deterministic)."""
    rows = list(csv.DictReader(open(Path(root) / "manifest.csv")))
    stamped = sorted((_seconds(r["image"]) or 0, r["image"]) for r in rows)
    bursts: list[list[str]] = []
    last = None
    for sec, name in stamped:
        if last is None or sec - last > 120:
            bursts.append([])
        bursts[-1].append(name)
        last = sec
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(bursts))
    n = len(rows)
    split = {"train": [], "validation": [], "test": []}
    for i in order:
        burst = bursts[i]
        if len(split["test"]) < test_frac * n:
            split["test"] += burst
        elif len(split["validation"]) < val_frac * n:
            split["validation"] += burst
        else:
            split["train"] += burst
    return {
        "dataset": "hust-riichi",
        "rule": "by photo, whole 2-minute bursts together; seed %d" % seed,
        **{k: sorted(v) for k, v in split.items()},
    }


def read_split() -> dict:
    if not SPLIT_FILE.exists():
        raise FileNotFoundError(f"{SPLIT_FILE} is missing; run python -m datasets.hust_riichi --write-split")
    return json.loads(SPLIT_FILE.read_text())


def crop_box(image: np.ndarray, box, pad: float = 0.0) -> np.ndarray:
    """Crop box [x1,y1,x2,y2] (optionally grown by `pad` of its size), clipped to the image."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    x1, x2 = x1 - pad * w, x2 + pad * w
    y1, y2 = y1 - pad * h, y2 + pad * h
    H, W = image.shape[:2]
    x1, y1 = max(0, int(round(x1))), max(0, int(round(y1)))
    x2, y2 = min(W, int(round(x2))), min(H, int(round(y2)))
    return image[y1:y2, x1:x2]


def iter_crops(root: Path, names: list[str], pad: float = 0.0, corrected: bool = False):
    """Yield (crop BGR, code, photo name) for every labelled tile of the named photos (with
    `corrected`, the errata's labels put right)."""
    photos = load_photos(root, corrected)
    for name in names:
        photo = photos[name]
        if not photo.tiles:
            continue
        image = cv2.imread(str(Path(root) / "images" / name), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"cannot read {name}")
        for box, code in photo.tiles:
            crop = crop_box(image, box, pad)
            if crop.size:
                yield crop, code, name


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=default_dir())
    ap.add_argument("--write-split", action="store_true")
    args = ap.parse_args(argv)
    if args.write_split:
        split = make_split(args.root)
        SPLIT_FILE.parent.mkdir(parents=True, exist_ok=True)
        SPLIT_FILE.write_text(json.dumps(split, indent=1) + "\n")
        photos = load_photos(args.root)
        for k in ("train", "validation", "test"):
            print(k, len(split[k]), "photos", sum(len(photos[n].tiles) for n in split[k]), "tiles")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

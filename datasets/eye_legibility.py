"""Flowers and seasons labelled by eye: the standard the legibility judge stands in for.

The synthetic test scores a flower or season whose mark the augmentation wiped out as
don't-care for which bonus tile it is.  `datasets.legibility` decides which crops those are by
rendering each again with its partner's mark; a labeller decides by looking.  Two sets of eye
labels live in `datasets/legibility_labels/`, each crop named by the tile whose character the
labeller could read, or null, blind to the reader's answers, from contact sheets of the crops
three times their size, as drawn and turned 180 degrees (`benchmarks/legibility.py --sheets`):

* `sample.json`: SAMPLE_SIZE crops drawn as the synthetic test's are, from a seed no training or
  test set uses, also drawn with each partner's and counterpart's marks: the check on the judge
  (`benchmarks/legibility.py`), read twice;
* `synth_test.json`: every flower and season of the synthetic test set, which the classifier
  benchmark scores as don't-care where the labeller could not name it (`eye_flags`).

The labeller is this project's developer, an AI model looking at the sheets, not an
independent annotator: the sheets can be drawn again for anyone to label and compare.
Labels belong to the pixels they were made on: each file records the SHA-256 of the crops and of
each crop.  Crops drawn differently (another renderer, font set or augmentation) are refused
(`SampleChangedError`) rather than scored against readings of other pixels; a library release
that draws a few crops a few grey levels off leaves the others labelled (`same_crops`).
"""

from __future__ import annotations

import hashlib
import json
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from datasets.build_tile_dataset import BONUS_SIZE, _augmented_crop, crop_with_marks_of
from datasets.legibility import PARTNER
from datasets.render_tiles import random_style
from scoring.tiles import BONUS

LABELS_DIR = Path(__file__).with_name("legibility_labels")
LABELS = LABELS_DIR / "sample.json"
SYNTH_TEST_LABELS = LABELS_DIR / "synth_test.json"
#: the sample's first seed (the others step by CHUNK_STEP, as parallel_synth's chunks do)
SEED = 31_000_000
CHUNKS, PER_CHUNK, CHUNK_STEP = 8, 40, 7919
SAMPLE_SIZE = CHUNKS * PER_CHUNK
#: a labels file still applies when at least this share of the crops drawn here are byte for byte
#: the crops labelled, and to those alone: OpenCV 5.1.0 draws 7 of the synthetic test's 4,300
#: crops (one of its 804 flowers and seasons) up to 4 grey levels off, on at most 1.3% of their
#: pixels, from OpenCV 5.0.0, which drew the labelled ones; another renderer, font set or
#: augmentation changes nearly every crop
MIN_SAME_CROPS = 0.95
#: the tile each flower or season shares its number with (f1 and f5 both show 1)
COUNTERPART = {f"f{k}": f"f{(k + 3) % 8 + 1}" for k in range(1, 9)}


class SampleChangedError(RuntimeError):
    """The crops drawn now are not the crops the labels were made on."""


class LabelsError(ValueError):
    """The labels file is malformed or names a tile the crop is not."""


def truth_codes() -> list[str]:
    """What each crop of the sample shows, in order (fixed by the recipe, not by drawing)."""
    return [BONUS[(i + SEED + CHUNK_STEP * k) % 8] for k in range(CHUNKS) for i in range(PER_CHUNK)]


def _draw_chunk(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One chunk's crops, each also drawn with its partner's and its counterpart's marks (the
    same random choices)."""
    cv2.setNumThreads(1)
    seed = SEED + CHUNK_STEP * k
    rng = np.random.default_rng(seed)
    own, partner, counterpart = [], [], []
    style = None
    for i in range(PER_CHUNK):
        if style is None or i % 8 == 0:
            style = random_style(rng)
        code = BONUS[(i + seed) % 8]
        before = rng.bit_generator.state
        own.append(_augmented_crop(code, style, style, rng, 1.0, BONUS_SIZE))
        partner.append(crop_with_marks_of(PARTNER[code], code, style, rng, before, 1.0, BONUS_SIZE))
        counterpart.append(crop_with_marks_of(COUNTERPART[code], code, style, rng, before, 1.0, BONUS_SIZE))
    return np.array(own), np.array(partner), np.array(counterpart)


def draw_sample(workers: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sample's crops (N x 96 x 72 x 3 BGR), the same with each partner's marks and with
    each counterpart's marks."""
    if workers <= 1:
        parts = [_draw_chunk(k) for k in range(CHUNKS)]
    else:
        with get_context("fork").Pool(workers) as pool:
            parts = pool.map(_draw_chunk, range(CHUNKS))
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(3))


def digest(crops: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(crops, np.uint8).tobytes()).hexdigest()


def crop_digests(crops: np.ndarray) -> list[str]:
    """Each crop's SHA-256, its first 16 hex digits (what a labels file keeps per crop)."""
    return [digest(c)[:16] for c in crops]


def same_crops(data: dict, crops: np.ndarray, path: Path) -> np.ndarray:
    """Per crop, whether it is byte for byte the crop labelled in `data` (a labels file read from
    `path`): all of them when the whole set's SHA-256 is the one recorded; else those whose own
    SHA-256 is, when they are MIN_SAME_CROPS of the set at least.  Refused (SampleChangedError)
    otherwise: the crops were drawn differently, and the labels belong to other pixels."""
    whole = digest(crops)
    if whole == data.get("sha256"):
        return np.ones(len(crops), bool)
    per_crop = data.get("crop_sha256")
    what = (f"the {len(crops)} crops drawn here (SHA-256 {whole[:12]}...) are not the crops labelled in "
            f"{_shown(path)} ({str(data.get('sha256'))[:12]}...)")
    if not isinstance(per_crop, list) or len(per_crop) != len(crops):
        raise SampleChangedError(f"{what}, which keeps no SHA-256 of each crop to match them one by one")
    same = np.array([a == b for a, b in zip(crop_digests(crops), per_crop)], bool)
    if same.mean() < MIN_SAME_CROPS:
        raise SampleChangedError(f"{what}: only {int(same.sum())} of them are as labelled (the renderer, the fonts "
                                 f"it found or the augmentation changed since); label the new crops (contact sheets: "
                                 "benchmarks/legibility.py --sheets DIR)")
    return same


def _shown(path: Path) -> str:
    """A labels file's path as messages and results name it: from the repository's top when it
    lies inside it (no machine's folders in committed results)."""
    try:
        return str(Path(path).resolve().relative_to(LABELS_DIR.parent.parent))
    except ValueError:
        return str(path)


def _checked_labels(path: Path, labels, n: int) -> list:
    if not isinstance(labels, list) or len(labels) != n:
        raise LabelsError(f"{_shown(path)}: expected {n} labels, found "
                          f"{len(labels) if isinstance(labels, list) else type(labels).__name__}")
    for i, label in enumerate(labels):
        if label is not None and label not in BONUS:
            raise LabelsError(f"{_shown(path)}: label {i} is {label!r}, neither a flower or season code nor null")
    return labels


def load_labels(path: Path = LABELS) -> dict:
    """The sample's labels file, checked: one label per crop, each a flower or season or null.
    A name that is not the tile drawn is kept: the labeller named it (wrongly), and the crop
    counts as one they could read, so the reader is held to reading it right."""
    data = json.loads(Path(path).read_text())
    _checked_labels(path, data.get("labels"), SAMPLE_SIZE)
    if "labels_again" in data:
        _checked_labels(path, data["labels_again"], SAMPLE_SIZE)
    if not (isinstance(data.get("sha256"), str) and len(data["sha256"]) == 64):
        raise LabelsError(f"{_shown(path)}: no SHA-256 of the labelled crops")
    return data


def checked_sample(path: Path = LABELS, workers: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """draw_sample and the labels file, kept to the crops drawn here as they were labelled
    (`same_crops`; refused with SampleChangedError when too few are): the three crop arrays and
    the labels, each cut to those crops, with data["truth"] the tiles they show and
    data["same_crops"] how many they are."""
    data = load_labels(path)
    crops, partner, counterpart = draw_sample(workers)
    same = same_crops(data, crops, path)
    for key in ("labels", "labels_again"):
        if key in data:
            data[key] = [label for label, s in zip(data[key], same) if s]
    data["truth"] = [code for code, s in zip(truth_codes(), same) if s]
    data["same_crops"] = int(same.sum())
    return crops[same], partner[same], counterpart[same], data


def eye_flags(x: np.ndarray, codes: list[str], path: Path = SYNTH_TEST_LABELS,
              fallback: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Per crop of a test set (`x`, its `codes`), whether the labeller could read which tile it is:
    False only for the flowers and seasons `path` labels null; every other crop True.  A flower or
    season drawn here a few grey levels off the crop labelled (`same_crops`) takes its flag from
    `fallback` (the judge's, datasets.legibility) and is counted: (flags, crops so flagged).
    Refused (SampleChangedError) when the set's flowers and seasons are not the crops labelled, or
    some are off and no fallback is given."""
    data = json.loads(Path(path).read_text())
    index = [i for i, c in enumerate(codes) if c in BONUS]
    labels = _checked_labels(path, data.get("labels"), len(data.get("index", [])))
    if data.get("index") != index:
        raise SampleChangedError(f"{_shown(path)} labels flowers and seasons at {len(data.get('index', []))} places "
                                 f"of another set; this one has {len(index)}: rebuild it as labelled or label it anew")
    same = same_crops(data, x[index], path)
    if not same.all() and fallback is None:
        raise SampleChangedError(f"{int((~same).sum())} of this set's {len(index)} flowers and seasons are not the "
                                 f"crops labelled in {_shown(path)}, and no other flags were given for them")
    flags = np.ones(len(codes), bool)
    flags[index] = [label is not None if s else bool(fallback[i]) for i, label, s in zip(index, labels, same)]
    return flags, int((~same).sum())

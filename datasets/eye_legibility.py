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
Labels belong to the pixels they were made on: each file records the crops' SHA-256, and crops
drawn differently (another renderer, font set or augmentation) are refused
(`SampleChangedError`) rather than scored against readings of other pixels.
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


def _checked_labels(path: Path, labels, n: int) -> list:
    if not isinstance(labels, list) or len(labels) != n:
        raise LabelsError(f"{path}: expected {n} labels, found "
                          f"{len(labels) if isinstance(labels, list) else type(labels).__name__}")
    for i, label in enumerate(labels):
        if label is not None and label not in BONUS:
            raise LabelsError(f"{path}: label {i} is {label!r}, neither a flower or season code nor null")
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
        raise LabelsError(f"{path}: no SHA-256 of the labelled crops")
    return data


def checked_sample(path: Path = LABELS, workers: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
    """draw_sample and the labels file, refused with SampleChangedError when the crops drawn
    here are not those labelled."""
    data = load_labels(path)
    crops, partner, counterpart = draw_sample(workers)
    if digest(crops) != data["sha256"]:
        raise SampleChangedError(
            f"the crops drawn here (SHA-256 {digest(crops)[:12]}...) are not the {SAMPLE_SIZE} crops labelled in "
            f"{path} ({data['sha256'][:12]}...): the renderer, the fonts it found or the augmentation changed "
            "since; label the new crops (contact sheets: benchmarks/legibility.py --sheets DIR)")
    return crops, partner, counterpart, data


def eye_flags(x: np.ndarray, codes: list[str], path: Path = SYNTH_TEST_LABELS) -> np.ndarray:
    """Per crop of a test set (`x`, its `codes`), whether the labeller could read which tile it is:
    False only for the flowers and seasons `path` labels null; every other crop True.  Refused
    (SampleChangedError) unless the set's flowers and seasons are exactly the crops labelled."""
    data = json.loads(Path(path).read_text())
    index = [i for i, c in enumerate(codes) if c in BONUS]
    labels = _checked_labels(path, data.get("labels"), len(data.get("index", [])))
    if data.get("index") != index:
        raise SampleChangedError(f"{path} labels flowers and seasons at {len(data.get('index', []))} places of "
                                 f"another set; this one has {len(index)}: rebuild it as labelled or label it anew")
    if digest(x[index]) != data.get("sha256"):
        raise SampleChangedError(
            f"this set's {len(index)} flowers and seasons (SHA-256 {digest(x[index])[:12]}...) are not the crops "
            f"labelled in {path}: the renderer, the fonts it found or the augmentation changed since it was built")
    flags = np.ones(len(codes), bool)
    flags[index] = [label is not None for label in labels]
    return flags

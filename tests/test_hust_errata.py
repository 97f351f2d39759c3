"""The hust-riichi label errata (datasets/splits/hust-riichi-errata.json): labels that name the
wrong kind, each looked at in its photo.  The training data and the benchmarks' corrected
figures apply them; an erratum that no longer matches a label is an error, never a silent skip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import shared_path
from datasets import hust_riichi
from scoring.tiles import CLASSES

HUST = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "hust-riichi"


def _labelled_set(root: Path) -> Path:
    (root / "labels").mkdir(parents=True)
    tiles = [{"box": [10.0, 10.0, 40.0, 50.0], "code": "4m"}, {"box": [40.5, 10.0, 70.0, 50.0], "code": "4m"}]
    (root / "labels" / "a.json").write_text(json.dumps({"image": "a.jpg", "width": 100, "height": 60, "tiles": tiles}))
    return root


def test_an_erratum_puts_its_one_label_right(tmp_path):
    root = _labelled_set(tmp_path / "set")
    photos = hust_riichi.load_photos(root)
    hust_riichi.correct_labels(photos, [{"image": "a.jpg", "box": [40.5, 10.2, 70.0, 50.0], "labelled": "4m", "is": "7z"}])
    assert [code for _, code in photos["a.jpg"].tiles] == ["4m", "7z"]


@pytest.mark.parametrize("erratum", [
    {"image": "b.jpg", "box": [10.0, 10.0, 40.0, 50.0], "labelled": "4m", "is": "7z"},  # no such photo
    {"image": "a.jpg", "box": [12.0, 10.0, 40.0, 50.0], "labelled": "4m", "is": "7z"},  # no such box
    {"image": "a.jpg", "box": [10.0, 10.0, 40.0, 50.0], "labelled": "5m", "is": "7z"},  # labelled otherwise
])
def test_an_erratum_that_matches_no_label_is_an_error(tmp_path, erratum):
    photos = hust_riichi.load_photos(_labelled_set(tmp_path / "set"))
    with pytest.raises(ValueError, match="matches no label"):
        hust_riichi.correct_labels(photos, [erratum])


def test_the_committed_errata_are_well_formed_and_name_photos_of_the_split():
    split = hust_riichi.read_split()
    errata = hust_riichi.read_errata()
    assert errata
    for e in errata:
        assert e["labelled"] in CLASSES and e["is"] in CLASSES and e["labelled"] != e["is"], e
        assert len(e["box"]) == 4 and e["image"] in split[e["split"]], e


def test_the_committed_errata_match_the_labels_of_the_real_set():
    shared_path("datasets/hust-riichi", "the errata checked against the real set's labels")
    as_published = hust_riichi.load_photos(HUST)
    corrected = hust_riichi.load_photos(HUST, corrected=True)
    changed = [(name, a[1], b[1]) for name in as_published
               for a, b in zip(as_published[name].tiles, corrected[name].tiles) if a != b]
    assert sorted(changed) == sorted((e["image"], e["labelled"], e["is"]) for e in hust_riichi.read_errata())

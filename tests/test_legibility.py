"""The legibility check of flower and season crops (datasets/legibility.py) and its counterfactual
renderings: the same crop with the partner tile's mark differs only where the mark is."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from datasets import legibility, tile_art
from datasets.build_tile_dataset import BONUS_SIZE, synth_samples
from datasets.render_tiles import random_style, render_tile
from scoring.tiles import BONUS, CLASSES


def _bonus_style(layout: str, seed: int = 3):
    return replace(random_style(np.random.default_rng(seed)), bonus_layout=layout, art=None)


def test_partners_pair_up_within_flowers_and_within_seasons():
    assert sorted(legibility.PARTNER) == sorted(BONUS)
    for code, other in legibility.PARTNER.items():
        assert legibility.PARTNER[other] == code and other != code
        assert (int(code[1]) <= 4) == (int(other[1]) <= 4)


def test_partner_mark_changes_only_the_mark():
    """Same random choices, partner's character and number: the painting is untouched, so the
    two renderings differ in the mark's pixels only (a small part of the face)."""
    for layout in ("big", "corner"):
        style = _bonus_style(layout)
        own = render_tile("f5", style, np.random.default_rng(11), (144, 192)).astype(int)
        swapped = render_tile("f5", replace(style, bonus_mark_of="f6"), np.random.default_rng(11), (144, 192))
        changed = np.abs(own - swapped.astype(int)).max(axis=2) > 30
        assert 0.002 < changed.mean() < 0.3, (layout, changed.mean())


def test_a_clear_large_mark_is_legible_and_a_blurred_tiny_one_is_not():
    style = _bonus_style("big")
    own = render_tile("f1", style, np.random.default_rng(4), BONUS_SIZE)
    swapped = render_tile("f1", replace(style, bonus_mark_of="f2"), np.random.default_rng(4), BONUS_SIZE)
    assert legibility.is_legible(own, swapped)
    assert not legibility.is_legible(own, own)  # nothing tells them apart

    def smear(img):  # a tile 12 px wide, as a far, out-of-focus tile would be
        small = cv2.resize(cv2.GaussianBlur(img, (0, 0), 2.0), (12, 16), interpolation=cv2.INTER_AREA)
        return cv2.resize(small, BONUS_SIZE, interpolation=cv2.INTER_LINEAR)

    assert legibility.mark_pixels(smear(own), smear(swapped)) < legibility.mark_pixels(own, swapped)
    assert not legibility.is_legible(smear(own), smear(swapped))


def test_judging_legibility_changes_no_crop():
    """The second rendering replays the same random state and restores it afterwards."""
    plain = synth_samples(seed=31, n=40, codes=BONUS + ("1m", "back"), size=BONUS_SIZE)
    judged = synth_samples(seed=31, n=40, codes=BONUS + ("1m", "back"), size=BONUS_SIZE, judge=True)
    assert np.array_equal(plain[0], judged[0]) and np.array_equal(plain[1], judged[1])
    assert plain[2].all()  # without judging, every crop counts as legible
    flags, labels = judged[2], [CLASSES[i] for i in judged[1]]
    assert flags.dtype == bool and flags.shape == (40,)
    assert all(flags[i] for i, code in enumerate(labels) if code not in BONUS)  # only marks are judged
    assert flags.mean() > 0.5  # most crops keep their mark readable


def test_swap_mark_moves_the_character_and_keeps_the_painting(monkeypatch):
    """On packaged art the partner's character is cut from its face and put in place of the
    tile's own; nothing outside the two boxes changes."""
    paper = np.full((60, 44, 3), (215, 232, 238), np.uint8)
    own, other = paper.copy(), paper.copy()
    cv2.putText(own, "A", (4, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (30, 30, 200), 2)
    cv2.putText(other, "K", (4, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (30, 30, 200), 2)
    for img in (own, other):
        cv2.circle(img, (26, 42), 9, (40, 140, 40), -1)  # the painting
    monkeypatch.setitem(tile_art.MARK_BOXES, "test-art", {"f1": (2, 2, 20, 22), "f2": (2, 2, 20, 22)})
    monkeypatch.setattr(tile_art, "_sheet", lambda style: {"f1": own, "f2": other})
    out = tile_art.swap_mark("test-art", "f1", "f2", own)
    assert np.abs(out[:24].astype(int) - other[:24].astype(int)).max(axis=2).mean() < 8
    assert np.array_equal(out[30:], own[30:])
    assert tile_art.swap_mark("unknown-art", "f1", "f2", own) is own


def test_art_without_known_marks_is_not_judged(monkeypatch):
    """Unjudged, the partner rendering would equal the crop and every crop would read illegible."""
    procedural = _bonus_style("corner")
    assert legibility.judged(procedural, "f3")
    monkeypatch.setitem(tile_art.MARK_BOXES, "test-art", {"f1": (2, 2, 20, 22)})
    assert not legibility.judged(replace(procedural, art="test-art"), "f1")  # f2's box unknown
    assert not legibility.judged(replace(procedural, art="gnome-smooth"), "f1")


def test_a_tile_drawn_with_its_counterparts_marks_is_that_counterpart():
    """f1 drawn with f5's marks (the same number, the other character) is f5 drawn with the same
    random choices: its own number glyph (四 or 4) stays, and the number takes f5's colour."""
    for seed in range(4):
        style = _bonus_style("big", seed)
        for code, other in (("f1", "f5"), ("f4", "f8"), ("f7", "f3")):
            swapped = render_tile(code, replace(style, bonus_mark_of=other), np.random.default_rng(11), (144, 192))
            assert np.array_equal(swapped, render_tile(other, style, np.random.default_rng(11), (144, 192)))

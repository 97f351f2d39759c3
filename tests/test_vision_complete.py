"""A winner's hand that reads as no winning hand is mended from the tiles' candidate readings
(vision.complete), with a warning; a winning hand, and a recognition given as JSON, are left
alone."""

from __future__ import annotations

import numpy as np

from datasets.synth_table import Hand, Meld, TruthClassifier, make_table
from scoring import score_table
from scoring.tiles import format_tiles, parse_tiles
from vision import build_case, recognize

HANDS = [Hand("E", ["1p", "2p", "3p", "7s", "8s", "9s", "4m", "5m", "6m", "5z", "5z"],
              [Meld("pung", ["2z"] * 3)], winner=True, winning_tile="9s", win_by="self-draw")]


def _recognition():
    table = make_table(np.random.default_rng(41), (1024, 768), hands=HANDS, tilt=0, rotate=0)
    return recognize(table.image, classifier=TruthClassifier(table.tiles))


def _misread(rec, true_code: str, read_as: str, p_read: float, p_true: float):
    """Read one concealed `true_code` of the winner as `read_as`, the truth its second candidate."""
    t = next(t for t in rec.tiles if t.code == true_code and t.group == "concealed" and not t.sideways)
    t.code, t.confidence = read_as, p_read
    t.candidates = [(read_as, p_read), (true_code, p_true), ("7z", 0.01)]
    codes = parse_tiles(rec.seats["E"]["concealed"])
    codes.remove(true_code)
    codes.append(read_as)
    rec.seats["E"]["concealed"] = format_tiles(codes, sort=True)
    return t


def test_a_misread_tile_of_the_winner_is_read_again():
    rec = _recognition()
    tile = _misread(rec, "5m", "3m", 0.48, 0.40)
    case = build_case(rec, {"win_by": "self-draw"})
    assert "error" not in score_table(case)
    assert parse_tiles(case["hands"][0]["concealed"]).count("5m") == 1
    assert tile.code == "5m"
    assert any("make no winning hand" in w and "3m (48%) taken as 5m (40%)" in w for w in rec.warnings)


def test_a_winning_hand_is_left_alone():
    rec = _recognition()
    before = [t.code for t in rec.tiles]
    case = build_case(rec, {"win_by": "self-draw"})
    assert "error" not in score_table(case)
    assert [t.code for t in rec.tiles] == before
    assert not any("make no winning hand" in w for w in rec.warnings)


def test_json_recognition_is_not_mended():
    rec = _recognition()
    _misread(rec, "5m", "3m", 0.48, 0.40)
    case = build_case(rec.to_json(), {"win_by": "self-draw"})
    assert score_table(case)["error"]["code"] == "not-a-winning-hand"


def test_the_photo_api_answers_with_the_mended_recognition(monkeypatch):
    """POST /api/v1/photo/score's recognition is the one its case was built from: the mended
    tile's reading and the warning that names it come back with the scores."""
    import api.service

    rec = _recognition()
    _misread(rec, "5m", "3m", 0.48, 0.40)
    monkeypatch.setattr(api.service, "_recognize", lambda *args, **kwargs: rec)
    out = api.service.score_photo(b"photo", {"win_by": "self-draw"}, annotate=False)
    assert "error" not in out["result"]
    assert out["recognition"]["seats"]["E"]["concealed"] == out["case"]["hands"][0]["concealed"]
    assert any("make no winning hand" in w for w in out["recognition"]["warnings"])

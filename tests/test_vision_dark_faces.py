"""Tile sets with dark faces and light marks: found in the photo's negative (vision.detect.find_tiles),
read from the photo itself, and given up for the photo's own finds when the classifier cannot
read them (a keyboard's keys are dark with light marks too)."""

from __future__ import annotations

import importlib

import cv2
import numpy as np
import pytest

from datasets.synth_table import Hand, TruthClassifier, make_table
from models.classifier import Prediction
from vision import detect
from vision.detect import TileFinds, find_tiles
from vision.pyramid import Pyramid
from vision.quad import TileQuad

from test_tile_check import assert_scored_as_dealt
from test_vision_detect import _recall

SIZE = (1600, 1200)


def _box_quad(x, y, w, h) -> TileQuad:
    return TileQuad(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32), seen_width=w)


def test_the_negative_pyramid_holds_each_level_negated():
    img = np.random.default_rng(0).integers(0, 256, (600, 800, 3), dtype=np.uint8)
    pyr = Pyramid(img)
    neg = pyr.negative()
    for scale in (1.0, 0.4, 0.2):
        lv, fx, fy = neg.level(scale)
        mine, gx, gy = pyr.level(scale)
        assert (fx, fy) == (gx, gy)
        assert np.array_equal(lv, cv2.bitwise_not(mine))


def _found_whole_in_the_negative(seed: int):
    """(table, true boxes, finds) of a dark-set table whose tiles are all found, in the
    negative, and nothing else."""
    table = make_table(np.random.default_rng(seed), SIZE, dark=True)
    truth = [t["box"] for t in table.tiles]
    finds = find_tiles(table.image)
    assert finds.negative
    recall, extra = _recall(truth, [q.box for q in finds.quads])
    assert recall == 1.0 and extra == 0, (recall, extra)
    return table, truth, finds


@pytest.mark.parametrize("seed", [4, 3])  # a whole table; one player's 15 tiles
def test_a_set_with_dark_faces_is_found_in_the_photos_negative(seed):
    """The localiser, trained on pale faces, finds a tile or two of a dark set and nearly all
    of them in the negative."""
    table, truth, finds = _found_whole_in_the_negative(seed)
    assert _recall(truth, [q.box for q in finds.in_photo])[0] < 0.1


def test_a_dark_set_is_laid_out_as_a_pale_one():
    """Found in the negative, the dark set's seats come out right (with the true codes: the
    classifier has not learnt procedural dark faces)."""
    table = make_table(np.random.default_rng(4), SIZE, dark=True)
    rec = importlib.import_module("vision.recognize").recognize(table.image, classifier=TruthClassifier(table.tiles))
    assert len(rec.tiles) == len(table.tiles)
    assert not any("no tiles" in w for w in rec.warnings)
    for seat in "ESWN":
        assert sum(t.seat == seat for t in rec.tiles) == sum(t["seat"] == seat for t in table.tiles)


@pytest.mark.parametrize("single", [False, True])
def test_a_pale_set_is_found_in_the_photo_itself(single):
    """A whole table of pale tiles needs no look at the negative; one player's tiles alone
    (fewer than a table's) get one, and the photo's finds stand."""
    hands = [Hand("E", ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "2z", "5z", "5z"],
                  [], winner=True, winning_tile="5z", win_by="discard")] if single else None
    table = make_table(np.random.default_rng(21), SIZE, hands=hands)
    finds = find_tiles(table.image)
    assert not finds.negative
    assert finds.quads is finds.in_photo


def test_marks_on_a_tile_are_told_from_tiles_in_a_run_found_as_one():
    """A pale tile's dots are light discs in the negative, found inside the tile: marks.  The
    tiles of a run the other look found as one block are no marks on it."""
    tile = _box_quad(100, 100, 60, 80)
    dots = [_box_quad(110 + 20 * k, 120, 14, 14) for k in range(2)]
    run = _box_quad(300, 100, 180, 80)
    tiles = [_box_quad(300 + 60 * k, 100, 60, 80) for k in range(3)]
    assert detect._marks_on(dots, [tile]) == dots
    assert detect._marks_on(tiles, [run]) == []
    assert detect._own_count(dots + tiles, [tile, run]) == 3


class _Reading:
    """A classifier that reads every crop as 1m with one confidence."""

    def __init__(self, confidence: float):
        self.confidence = confidence

    def classify(self, crops):
        return [Prediction("1m", self.confidence, []) for _ in crops]


@pytest.mark.parametrize("confidence, from_negative", [(0.9, True), (0.2, False)])
def test_finds_of_the_negative_stand_only_when_the_classifier_reads_them(monkeypatch, confidence, from_negative):
    """A keyboard's keys are dark with light marks: in six hust-riichi photos of no tile they
    were found in the negative and read at a median confidence of 0.11-0.29, dark-faced tiles
    at 0.73-0.97.  Under NEGATIVE_READ the photo's own finds stand."""
    recognize_module = importlib.import_module("vision.recognize")
    table = make_table(np.random.default_rng(21), SIZE)
    real = find_tiles(table.image)
    row = [q for q in real.quads if q.center[1] > np.median([p.center[1] for p in real.quads])]
    mine = [q for q in real.quads if not any(q is r for r in row)]
    monkeypatch.setattr(recognize_module, "find_tiles", lambda photo, localizer=None: TileFinds(row, True, mine))
    rec = recognize_module.recognize(table.image, classifier=_Reading(confidence), tile_check=False)
    centres = sorted(tuple(np.round(t.quad.center)) for t in rec.tiles)
    expected = row if from_negative else mine
    assert centres == sorted(tuple(np.round(q.center)) for q in expected)


class _ReadsPaleFaces:
    """Reads every crop as 1m: surely when it is mostly pale (a face it learnt), unsurely when
    mostly dark."""

    def classify(self, crops):
        return [Prediction("1m", 0.9 if np.median(c) > 128 else 0.2, []) for c in crops]


def test_a_dark_set_the_classifier_cannot_read_is_read_in_the_negative():
    """Procedural dark faces were never learnt: read in the photo, their median confidence was
    0.18-0.58 on ten tables; read in the negative, pale faces with dark marks, 0.79-0.95.  Tiles found in the
    negative, a hand's worth or more, are read there too, and the surer reading is kept."""
    recognize_module = importlib.import_module("vision.recognize")
    table = make_table(np.random.default_rng(4), SIZE, dark=True)
    rec = recognize_module.recognize(table.image, classifier=_ReadsPaleFaces())
    assert len(rec.tiles) == len(table.tiles)
    assert {t.confidence for t in rec.tiles} == {0.9}


@pytest.mark.parametrize("seed", [10, 34])  # a whole table, 8 of 58 found in the photo; one player's 17 tiles, 8
def test_a_dark_set_whose_first_looks_tie_is_found_in_the_negatives_closer_looks(seed):
    """Dark tiles on a busy cloth, or big ones: the two first looks find about as many blobs
    (each tile's marks as one), and only the closer looks show the negative's finds to be the
    tiles."""
    _found_whole_in_the_negative(seed)


def test_the_tile_check_looks_at_a_dark_set_in_both_polarities():
    """The tile check learnt pale faces: on a dark set found in the negative it takes a find for
    a tile when the photo or its negative shows one (vision.tile_check.EitherPolarity).  On this
    table the photo alone would drop 2 of its 57 tiles."""
    from vision.tile_check import EitherPolarity, default_tile_check

    table = make_table(np.random.default_rng(17), SIZE, dark=True)
    finds = find_tiles(table.image)
    assert finds.negative and len(finds.quads) == len(table.tiles) == 57
    check = default_tile_check()
    in_photo = check.probabilities(table.image, finds.quads) >= check.threshold
    either = EitherPolarity(check)
    both = either.probabilities(table.image, finds.quads)
    assert in_photo.sum() == 55 and (both >= either.threshold).all()
    assert (both >= check.probabilities(cv2.bitwise_not(table.image), finds.quads)).all()
    rec = importlib.import_module("vision.recognize").recognize(table.image, classifier=TruthClassifier(table.tiles))
    assert len(rec.tiles) == 57


def test_a_dark_sets_marks_found_one_by_one_in_the_photo_do_not_outvote_the_negative():
    """The photo's closer looks may find a dark tile's light marks one by one, as many as the
    negative finds tiles (55 and 55 here, 53 of them on a tile): once the negative's first look
    found clearly more, its finds stand unless the photo's are clearly more."""
    table = make_table(np.random.default_rng(2), SIZE, dark=True)
    truth = [t["box"] for t in table.tiles]
    finds = find_tiles(table.image)
    assert finds.negative
    recall, extra = _recall(truth, [q.box for q in finds.quads])
    assert recall == 1.0 and extra == 0, (recall, extra)


def test_a_dark_set_the_first_looks_places_miss_is_found_by_a_look_at_the_whole_negative():
    """A dark set's light marks show to the negative's first look as specks on some tiles and
    nothing on others, and the closer looks at its places found 56 of this table's 58 tiles; a
    look at the whole negative at the same size adds the two they missed."""
    table = make_table(np.random.default_rng(10), (2000, 1500), dark=True)
    finds = find_tiles(table.image)
    assert finds.negative
    recall, extra = _recall([t["box"] for t in table.tiles], [q.box for q in finds.quads])
    assert (recall, extra) == (1.0, 0), (recall, extra)


def test_a_dark_sets_pale_tiles_found_in_the_photo_join_the_negatives_finds():
    """A dark set may hold pale tiles (KMahjongg's jade: its white dragon and its backs), which
    the negative shows dark and may miss.  The photo's own find of such a tile joins the
    negative's finds when it is sized like them, lies in their row and is pale inside; a dark
    tile the negative missed (the photo finds a dark tile's light marks, not its face) and a
    pale thing lying apart from the row do not."""
    img = np.full((400, 1000, 3), 120, np.uint8)
    row = [_box_quad(100 + 62 * k, 150, 60, 80) for k in range(8)]
    apart = _box_quad(500, 300, 60, 80)
    for q in row + [apart]:
        x0, y0, x1, y1 = (int(v) for v in q.box)
        pale = q is row[3] or q is apart
        cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), (235, 240, 240) if pale else (40, 30, 120), -1)
    in_negative = [q for k, q in enumerate(row) if k not in (3, 6)]
    in_photo = [row[3], row[6], apart]
    assert detect._pale_tiles(Pyramid(img), in_photo, in_negative) == [row[3]]


def test_a_gap_between_a_dark_sets_tiles_on_a_pale_cloth_is_no_pale_tile():
    """On a pale cloth, the gap between two of a dark set's sets (the cloth, a tile's pale side)
    is a pale, tile-sized patch the photo's look may find (KMahjongg's jade on sand, seed 2024's
    table 25 at 2000x1500: three such finds ran North's sets together).  A pale tile is paler
    than the cloth round it; such a patch is not, and stays out."""
    img = np.full((400, 1200, 3), (170, 190, 200), np.uint8)  # sand: grey about 187
    row = [_box_quad(100 + 62 * k, 150, 60, 80) for k in range(4)] + [_box_quad(420 + 62 * k, 150, 60, 80)
                                                                        for k in range(4)]
    gap = _box_quad(340, 150, 60, 80)  # between the two sets, over the sides and the cloth
    for q in row:
        x0, y0, x1, y1 = (int(v) for v in q.box)
        pale = q is row[2]
        cv2.rectangle(img, (x0, y0), (x1 - 1, y1 - 1), (235, 240, 240) if pale else (40, 30, 120), -1)
    cv2.rectangle(img, (352, 150), (369, 229), (160, 175, 185), -1)  # the tiles' pale sides, shaded
    in_negative = [q for k, q in enumerate(row) if k != 2]
    assert detect._pale_tiles(Pyramid(img), [row[2], gap], in_negative) == [row[2]]


def test_a_dark_tile_found_as_two_halves_counts_once_against_the_negative():
    """The photo's closer looks may find a dark tile as two halves (each a strip with half its
    light marks) where the negative finds it whole: jade at 2000x1500, seed 2024, table 28, three
    tiles of North's row, 60 finds in the photo against 57 in the negative, and the halves stood.
    Where the finds are clearly a dark set's, a tile's pieces count as one find."""
    negative = [_box_quad(100 + 62 * k, 150, 60, 80) for k in range(10)]
    halves = [_box_quad(100 + 62 * k + dx, 152, 28, 76) for k in (3, 7) for dx in (1, 31)]
    positive = [q for k, q in enumerate(negative) if k not in (3, 7)] + halves
    assert detect._as_many(negative, positive)
    # a run of two tiles found as one is no tile in pieces: its tiles count
    run = [_box_quad(100, 150, 122, 80)] + negative[2:]
    assert not detect._as_many(run, negative)


@pytest.mark.parametrize("seed", [15, 53])  # a whole table; one player's 15 tiles
def test_a_clearly_dark_set_whose_negative_finds_as_many_tiles_is_found_in_the_negative(seed):
    """KMahjongg's jade on a pale cloth: the photo's looks find the dark tiles too, but also the
    pale gaps between them, which a localiser that learnt pale faces takes for tiles (seed 15:
    59 finds, 52 of its 55 tiles).  Where the finds are clearly a dark set's and the negative's
    closer looks find as many, the negative's finds stand: every tile and nothing else."""
    table = make_table(np.random.default_rng(seed), (2000, 1500), art="kmahjongg-jade")
    finds = find_tiles(table.image)
    assert finds.negative
    recall, extra = _recall([t["box"] for t in table.tiles], [q.box for q in finds.quads])
    assert (recall, extra) == (1.0, 0), (recall, extra)


@pytest.mark.parametrize("negative", [True, False])
def test_a_dark_sets_short_row_is_looked_along_in_the_negative_and_in_the_photo(monkeypatch, negative):
    """A seat short of a hand has its row looked along again (vision.look_again).  For a set
    found in the negative that look was made in the photo, where the localiser sees a dark
    tile's marks, not the tile: on 50 procedural dark tables (2000x1500, seed 2024, true codes)
    table 13's South kept its kong of 1s found as two finds of two tiles each, one of them put
    in East's hand.  Now it is
    made in the negative, then in the photo (a dark set's pale tiles, as KMahjongg jade's white
    dragons, show there: looked for in the negative alone, table 41 of jade lost one).  A pale
    set's row is looked along in the photo alone, as before."""
    from vision.detect import BoxFinds

    recognize_module = importlib.import_module("vision.recognize")
    table = make_table(np.random.default_rng(21), SIZE)
    quads = find_tiles(table.image).quads
    looked_in = []

    def look(img, box, tile_w, known, localizer=None):
        looked_in.append("photo" if img is table.image else
                         "negative" if np.array_equal(img, cv2.bitwise_not(table.image)) else "other")
        return BoxFinds([], [])

    monkeypatch.setattr(recognize_module, "find_tiles_in", look)
    monkeypatch.setattr(recognize_module, "short_seat_boxes", lambda layout, shape: [((0, 0, 100, 100), 30.0)])
    recognize_module._placed(None, table.image, quads, None,
                             negative=cv2.bitwise_not(table.image) if negative else None)
    assert looked_in == (["negative", "photo"] if negative else ["photo"])


def test_the_lightness_negative_turns_a_dark_face_pale_and_keeps_each_marks_colour():
    """A light red mark on a dark olive face: in the photo's negative it is teal on lilac, in the
    lightness's negative a darker red on a pale face (vision.recognize._lightness_negative)."""
    recognize_module = importlib.import_module("vision.recognize")
    img = np.zeros((8, 16, 3), np.uint8)
    img[:, :8] = (40, 70, 75)     # BGR: a dark olive face
    img[:, 8:] = (110, 120, 245)  # BGR: a light red mark
    out = recognize_module._lightness_negative(img).astype(int)
    face, mark = out[0, 0], out[0, 12]
    assert face.mean() > 150 and mark.mean() < face.mean() - 40
    assert mark[2] > mark[1] + 40 and mark[2] > mark[0] + 40  # still red


def test_a_dark_set_is_read_in_its_lightness_negative_when_that_reading_is_surer():
    """Seed 16's dark table at 2000x1500: read in the photo's negative, where light red marks turn
    teal and light green ones magenta, its red dragons were read as green ones, a green dragon as
    a season and as 1m, a 1m as a green dragon, and the table was laid out and scored wrong.
    Read in the lightness's negative too, the surer reading kept, every tile reads right and the
    table scores as dealt."""
    recognize_module = importlib.import_module("vision.recognize")
    table = make_table(np.random.default_rng(16), (2000, 1500), dark=True)
    rec = recognize_module.recognize(table.image)
    centres = np.array([np.mean(np.array(t["quad"]), axis=0) for t in table.tiles])
    read = sorted(table.tiles[int(np.argmin(np.linalg.norm(centres - t.quad.center, axis=1)))]["code"] + ">" + t.code
                  for t in rec.tiles)
    assert len(rec.tiles) == len(table.tiles)
    assert read == sorted(t["code"] + ">" + t["code"] for t in table.tiles)
    assert_scored_as_dealt(rec, table)

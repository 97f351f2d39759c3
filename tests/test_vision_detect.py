"""Finding tiles with the bundled localiser: touching rows, rotation, tilt, one player, a
concealed kong, an empty table, and a few real hust-riichi photos when ../shared is present."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from conftest import SHARED, shared_path
from datasets.backgrounds import random_surface
from datasets.synth_table import Hand, Meld, TruthClassifier, make_table
from vision import CaseError, ImageError, build_case, recognize
from vision.detect import TileFinds, find_tile_quads
from vision.false_finds import without_cloth
from vision.pyramid import Pyramid
from vision.io import load_image

SIZE = (1024, 768)
EXAMPLE = Path(__file__).resolve().parents[1] / "api" / "static" / "example.jpg"


def _iou(a, b):
    x1, y1, x2, y2 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    inter = max(0, x2 - x1) * max(0, y2 - y1)
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _only(finds: TileFinds, keep) -> TileFinds:
    """The detector's finds less those `keep` refuses (a miss made on purpose)."""
    return TileFinds([q for q in finds.quads if keep(q)], finds.negative, [q for q in finds.in_photo if keep(q)])


def _recall(true_boxes, found_boxes):
    hit, used = 0, set()
    for t in true_boxes:
        best = max(((_iou(t, f), j) for j, f in enumerate(found_boxes) if j not in used), default=(0, -1))
        if best[0] >= 0.5:
            hit += 1
            used.add(best[1])
    return hit / max(1, len(true_boxes)), len(found_boxes) - len(used)


def _check_found(table, min_recall=0.97):
    quads = find_tile_quads(table.image)
    recall, extra = _recall([t["box"] for t in table.tiles], [q.box for q in quads])
    assert recall >= min_recall, f"found {recall:.0%} of {len(table.tiles)} tiles"
    assert extra <= 1, f"{extra} detections that are not tiles"
    return quads


def test_touching_tiles_are_split_one_by_one():
    hands = [Hand("E", ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "2z", "5z", "5z"],
                  [], winner=True, winning_tile="5z", win_by="discard")]
    table = make_table(np.random.default_rng(21), SIZE, hands=hands, tilt=0, rotate=0)
    quads = _check_found(table, min_recall=1.0)
    assert len(quads) == 14


@pytest.mark.parametrize("seed,tilt,rotate", [(22, 5, 30), (23, 35, -8), (24, 20, 0)])
def test_rotated_and_tilted_tables(seed, tilt, rotate):
    table = make_table(np.random.default_rng(seed), SIZE, single=False, tilt=tilt, rotate=rotate)
    _check_found(table, min_recall=0.95)


def test_one_player_alone_and_concealed_kong_end_to_end():
    hands = [Hand("E", ["1p", "2p", "3p", "7s", "8s", "9s", "5z", "5z"],
                  [Meld("kong", ["6m"] * 4, exposed=False), Meld("pung", ["2z"] * 3)],
                  winner=True, winning_tile="9s", win_by="self-draw")]
    table = make_table(np.random.default_rng(25), SIZE, hands=hands, tilt=15, rotate=4)
    rec = recognize(table.image, classifier=TruthClassifier(table.tiles))
    assert list(rec.seats) == ["E"]
    hand = rec.seats["E"]
    assert {"kind": "kong", "tiles": "6666m", "exposed": False} in hand["melds"]
    assert hand["winning_tile"] == "9s"
    assert hand["concealed"] == "123p789s55z"
    assert {"kind": "pung", "tiles": "222z", "exposed": True} in hand["melds"]
    case = build_case(rec, {"win_by": "self-draw"})
    assert case["hands"][0]["winner"] and case["hands"][0]["winning_tile"] == "9s"


def test_no_tiles_gives_a_clear_message():
    empty = random_surface(np.random.default_rng(3), 600, 800, "wood")
    rec = recognize(empty)
    assert rec.tiles == [] and rec.seats == {}
    assert rec.warnings and "no tiles found" in rec.warnings[0]
    with pytest.raises(CaseError) as err:
        build_case(rec, {"winner": "E"})
    assert err.value.code == "no-tiles"


class _SameReading:
    """A classifier that reads every crop as 3m with one confidence."""

    def __init__(self, confidence: float):
        self.confidence = confidence

    def classify(self, crops):
        from models.classifier import Prediction

        return [Prediction("3m", self.confidence, []) for _ in crops]


def _fourteen_tile_table():
    hands = [Hand("E", ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "2z", "5z", "5z"],
                  [], winner=True, winning_tile="5z", win_by="discard")]
    return make_table(np.random.default_rng(21), SIZE, hands=hands, tilt=0, rotate=0)


def _five_tiles(table):
    """The five leftmost tiles of the table's row, cut out close."""
    left = sorted(t["box"] for t in table.tiles)[:5]
    x2 = int(max(b[2] for b in left)) + 3
    y1, y2 = int(min(b[1] for b in left)) - 60, int(max(b[3] for b in left)) + 60
    return table.image[y1:y2, :x2].copy()


def test_a_few_small_finds_read_as_no_tile_are_no_tiles():
    """Fewer finds than a hand holds, small for the photo, none read with confidence (an empty
    tray's weave): the photo shows no tile, and the warning says what was found and dropped."""
    few = _five_tiles(_fourteen_tile_table())
    photo = random_surface(np.random.default_rng(5), 1500, 2000, "felt")
    photo[700:700 + few.shape[0], 900:900 + few.shape[1]] = few  # tiles 2.4% of the long side
    assert len(recognize(photo, classifier=_SameReading(0.95)).tiles) == 5
    rec = recognize(photo, classifier=_SameReading(0.3))
    assert rec.tiles == [] and rec.seats == {}
    assert rec.warnings[0].startswith("no tiles found in the image (5 shapes like a tile, read with 30%")
    with pytest.raises(CaseError) as err:
        build_case(rec, {"winner": "E"})
    assert err.value.code == "no-tiles"


def test_a_close_up_of_a_few_tiles_is_kept_however_badly_it_reads():
    """A photo of a few big tiles (a collector's close-up of a set the classifier has never
    seen) keeps them for the user to correct."""
    rec = recognize(_five_tiles(_fourteen_tile_table()), classifier=_SameReading(0.3))
    assert len(rec.tiles) == 5


def test_a_hand_of_finds_is_kept_however_badly_it_reads():
    """Thirteen finds or more are a hand even when the classifier cannot read them (a tile set
    it has never seen): the user sees them and corrects them."""
    rec = recognize(_fourteen_tile_table().image, classifier=_SameReading(0.3))
    assert len(rec.tiles) == 14 and not rec.warnings[0].startswith("no tiles found")


def test_real_photo_of_an_empty_tray_has_no_tiles():
    """A hust-riichi TEST photo of the empty tray: its woven floor gave 11 finds before."""
    shared_path("datasets/hust-riichi", "the real empty-tray check")
    rec = recognize(HUST / "images" / "aug_IMG_20231107_232311.jpg")
    assert rec.tiles == []
    assert rec.warnings[0].startswith("no tiles found in the image (")


def test_corrupt_file_is_an_image_error(tmp_path):
    ok, jpeg = cv2.imencode(".jpg", random_surface(np.random.default_rng(1), 200, 300, "felt"))
    path = tmp_path / "broken.jpg"
    path.write_bytes(jpeg.tobytes()[:300])
    with pytest.raises(ImageError):
        recognize(str(path))


HUST = SHARED / "datasets" / "hust-riichi"


def test_real_photos_recall():
    """A few hust-riichi TEST photos (4x9 grids of touching tiles in a tray)."""
    shared_path("datasets/hust-riichi", "the real-photo recall check")
    from datasets.hust_riichi import read_split

    names = [n for n in read_split()["test"] if not n.startswith("aug_")][:4]
    for name in names:
        label = json.loads((HUST / "labels" / (name[:-4] + ".json")).read_text())
        quads = find_tile_quads(load_image(HUST / "images" / name))
        recall, extra = _recall([t["box"] for t in label["tiles"]], [q.box for q in quads])
        assert recall >= 0.97, f"{name}: found {recall:.0%} of {len(label['tiles'])} tiles"
        assert extra <= 1, f"{name}: {extra} detections that are not tiles"


def test_shrinking_by_halves_matches_one_area_resize():
    img = random_surface(np.random.default_rng(4), 1500, 2000, "cloth")
    from vision.pyramid import Pyramid, resized

    level, fx, fy = Pyramid(img).level(0.16)
    assert level.shape[:2] == (375, 500) and fx == fy == 4.0  # two halvings, then 0.64
    small = resized(level, 0.16 * fx)
    direct = cv2.resize(img, (320, 240), interpolation=cv2.INTER_AREA)
    assert small.shape == direct.shape
    assert np.abs(small.astype(int) - direct).mean() < 2.0


def test_closer_look_regions_follow_the_rows():
    """Regions round what the first look marked: a row and a column meeting at a corner stay two
    boxes (one round both would be mostly cloth); runs along one line join; nothing marked: None."""
    from vision.detect import _regions

    prob = np.zeros((300, 400), np.float32)
    prob[20:30, 50:350] = 0.9  # a row along the top
    prob[40:280, 360:370] = 0.9  # a column down the right side
    prob[250:260, 50:150] = 0.9  # two runs on one line at the bottom
    prob[250:260, 158:250] = 0.9
    boxes = _regions(prob, (600, 800), tile_w=10.0)  # image pixels are twice the heatmap's
    assert len(boxes) == 3
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= 800 and 0 <= y0 < y1 <= 600
    assert any(x0 <= 100 and x1 >= 500 and y0 <= 500 and y1 >= 520 for x0, y0, x1, y1 in boxes)
    assert sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) < 0.35 * 600 * 800
    assert _regions(np.zeros((300, 400), np.float32), (600, 800), 10.0) is None
    assert _regions(np.full((300, 400), 0.9, np.float32), (600, 800), 10.0) is None


def test_region_first_looks_two_at_a_time_find_what_one_after_another_finds(monkeypatch):
    """The closer looks' first look at each region runs two at a time; the finds must be the
    very ones of looking at the regions one after another (a 12 MP-like table has regions)."""
    import vision.detect as detect

    table = make_table(np.random.default_rng(21), (2400, 1800))
    regions, first_looks = [], detect._first_looks
    monkeypatch.setattr(detect, "_first_looks", lambda loc, pyr, scales, boxes: (
        regions.append(len(boxes)), first_looks(loc, pyr, scales, boxes))[1])
    together = find_tile_quads(table.image)
    assert regions and max(regions) >= 2  # regions were looked at two at a time
    monkeypatch.setattr(detect, "_first_looks", lambda *args: {})
    in_turn = find_tile_quads(table.image)
    assert len(together) == len(in_turn) > 40
    assert all(np.array_equal(a.corners, b.corners) for a, b in zip(together, in_turn))


def _box_quad(cx, cy, w, h):
    from vision.quad import TileQuad

    return TileQuad(np.array([[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2],
                              [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]], np.float32))


def test_finds_far_apart_are_not_compared_and_the_answer_is_the_same():
    """detect._uncovered asks _covered only of the finds within reach: the same finds come out
    as asking every pair, for touching, overlapping, turned and distant finds alike."""
    from vision.detect import _covered, _uncovered
    from vision.quad import TileQuad

    rng = np.random.default_rng(3)

    def turned_quad():
        cx, cy, w, h, a = *rng.uniform(0, 400, 2), *rng.uniform(8, 60, 2), rng.uniform(0, np.pi)
        c, s = np.cos(a), np.sin(a)
        pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) @ [[c, s], [-s, c]]
        return TileQuad((pts + [cx, cy]).astype(np.float32))

    for _ in range(20):
        others = [turned_quad() for _ in range(30)]
        finds = [turned_quad() for _ in range(30)] + [TileQuad(o.corners + 2) for o in others[:5]]
        assert _uncovered(finds, others) == [q for q in finds if not _covered(q, others)]
    assert _uncovered([], others) == [] and _uncovered(finds, []) == finds


def test_a_photo_of_tiles_too_small_to_read_says_so_first():
    """The example table shrunk to 400x300 (tiles under 8 pixels wide): read without the looks
    again at unsure crops (which took seconds and read fewer right), and the first warning says
    the tiles are too small to read and what to do."""
    from vision.recognize import TINY_TILE_PX

    small = cv2.resize(cv2.imread(str(EXAMPLE)), (400, 300), interpolation=cv2.INTER_AREA)
    rec = recognize(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    assert len(rec.tiles) >= 50
    assert rec.warnings[0].startswith("tiles are about 8 pixels wide in this photo, too small to read reliably")
    assert f"at least {TINY_TILE_PX:.0f} are needed" in rec.warnings[0]


def test_a_tile_two_overlapping_looks_found_is_kept_once(monkeypatch):
    """Two closer looks whose boxes overlap both find a tile, each a few pixels off, and each
    find lies deeper in the other's box: one of them is kept (before 2026-11-26 both were
    dropped, and a run's end tile went missing).  A find lying deeper in a box whose look found
    nothing like it there is still dropped (a speck between two sets)."""
    import vision.detect as detect

    a, b = (200, 100, 420, 500), (180, 100, 400, 500)
    finds = {a: [_box_quad(298, 300, 60, 100), _box_quad(215, 440, 16, 16)],
             b: [_box_quad(302, 300, 60, 100)]}
    monkeypatch.setattr(detect, "_look", lambda loc, pyr, scale, box=None: (finds[tuple(box)], None))
    monkeypatch.setattr(detect, "REGION_GROWTHS", 0)
    pyr = Pyramid(np.zeros((1000, 1000, 3), np.uint8))
    quads = detect._look_in(None, pyr, 1.0, [list(a), list(b)])
    assert len(quads) == 1
    assert abs(quads[0].center[0] - 300) <= 2 and quads[0].center[1] == 300


def _seen(quad, width):
    from vision.quad import TileQuad

    return TileQuad(quad.corners, seen_width=width)


@pytest.mark.parametrize("seen_width, kept", [(30.0, "earlier"), (37.0, "earlier"), (14.0, "closer")])
def test_a_look_that_cuts_tiles_in_two_is_not_believed(monkeypatch, seen_width, kept):
    """12 MP tables: a side seat's sideways tiles, found whole by a look that saw them 27 pixels
    wide (seed 2024, table 21) or 37 (seed 99, table 16), came back from the next look as twice as
    many halves, each half tile-shaped.  Where the earlier look saw the tiles at the localiser's
    best size or larger, its finds stand; where it saw them too small (touching tiles run
    together), the next look's narrower finds are the right ones."""
    import vision.detect as detect

    box = (100, 100, 600, 300)
    whole = [_seen(_box_quad(200 + 90 * k, 200, 80, 60), seen_width) for k in range(4)]
    halves = [_box_quad(180 + 90 * k + 40 * j, 200, 40, 60) for k in range(4) for j in range(2)]
    monkeypatch.setattr(detect, "_look", lambda loc, pyr, scale, box=None: (halves, None))
    monkeypatch.setattr(detect, "REGION_GROWTHS", 0)
    pyr = Pyramid(np.zeros((1000, 1000, 3), np.uint8))
    quads = detect._look_in(None, pyr, 0.4, [list(box)], known=whole)
    assert len(quads) == (4 if kept == "earlier" else 8)


def test_a_tile_a_grown_regions_look_sees_only_a_corner_of_is_kept_whole(monkeypatch):
    """A region's look finds a tile whole at its box's edge, so the box grows; the grown box's
    look sees only a corner of that tile (seed 11's 12 MP table 86: a lone flower, then lost as
    a speck).  The whole find stands and the corner goes; a fragment that look found nowhere
    near a whole find is left to the later tests."""
    import vision.detect as detect

    others = [_box_quad(250 + 90 * k, 200, 80, 100) for k in range(3)]
    whole = _box_quad(560, 200, 80, 100)  # reaches the box's right edge: the box grows right
    corner = _box_quad(545, 175, 40, 50)

    def look(loc, pyr, scale, box=None):
        return (others + [whole] if box[2] == 600 else others + [corner]), None

    monkeypatch.setattr(detect, "_look", look)
    pyr = Pyramid(np.zeros((1000, 1000, 3), np.uint8))
    quads = detect._look_in(None, pyr, 1.0, [[100, 50, 600, 350]])
    assert sorted((round(float(q.center[0])), round(float(q.width))) for q in quads) == [
        (250, 80), (340, 80), (430, 80), (560, 80)]


def test_regions_that_end_in_a_whole_look_keep_the_tiles_it_missed(monkeypatch):
    """Closer looks at regions that together grow past REGION_MAX_FRACTION of the photo end in
    one look at the whole photo.  The localiser's map of a region can hold tiles its map of the
    whole photo lost (seed 99's table 139 at 1280x960: a run of pale tiles on a pale
    checkerboard, 7 tiles in two regions' looks and 3 in the whole photo's, at the same scale):
    the region's finds the whole look missed are kept, not a fragment cut by the region's edge
    and not a second copy of a tile the whole look has."""
    import vision.detect as detect

    a, b = (0, 0, 1000, 400), (0, 450, 1000, 800)  # 0.75 of the photo: looked at in turn
    in_b = [_box_quad(300 + 30 * k, 600, 28, 38) for k in range(4)] + [_box_quad(500, 455, 28, 30)]
    whole = [_box_quad(301, 601, 28, 38), _box_quad(700, 200, 28, 38)]
    finds = {b: in_b, None: whole}
    monkeypatch.setattr(detect, "_look", lambda loc, pyr, scale, box=None: (
        finds[tuple(box) if box is not None else None], None))
    monkeypatch.setattr(detect, "REGION_GROWTHS", 0)
    pyr = Pyramid(np.zeros((1000, 1000, 3), np.uint8))
    quads = detect._look_in(None, pyr, 1.0, [list(a), list(b)])
    centres = sorted(tuple(np.round(q.center).astype(int)) for q in quads)
    assert centres == [(301, 601), (330, 600), (360, 600), (390, 600), (700, 200)]


def test_a_sideways_tile_found_as_two_halves_is_one_tile():
    """Seed 7's table 61 at 1280x960: the localiser lit a sideways winning tile at the end of a
    far row up as two squarish cores, each under half its neighbours' area, and both were then
    dropped as specks, so the hand had no winning tile.  The two halves (the finds as they came,
    with the row's tiles beside them) are joined into one tile lying along the row; two specks
    a gap apart stay specks."""
    from vision.false_finds import halves_joined, without_specks
    from vision.quad import TileQuad

    row = [[[605.6, 92.4], [605.6, 64.3], [633.6, 64.3], [633.6, 92.4]],
           [[665.2, 92.4], [665.2, 64.3], [693.2, 64.3], [693.2, 92.4]],
           [[482.4, 64.8], [482.4, 90.5], [454.4, 90.5], [454.4, 64.8]],
           [[512.9, 64.8], [512.9, 90.5], [484.9, 90.5], [484.9, 64.8]],
           [[542.1, 64.8], [542.1, 90.5], [514.0, 90.5], [514.0, 64.8]],
           [[664.5, 64.8], [664.5, 90.5], [634.2, 90.5], [634.2, 64.8]],
           [[722.8, 66.2], [722.8, 91.9], [692.5, 91.9], [692.5, 66.2]]]
    halves = [[[586.4, 65.3], [586.4, 81.7], [565.4, 81.7], [565.4, 65.3]],
              [[601.7, 65.3], [601.7, 81.7], [580.6, 81.7], [580.6, 65.3]]]
    quads = [TileQuad(np.array(c, np.float32)) for c in row + halves]
    kept = without_specks(quads)
    assert len(kept) == len(row) + 1
    tile = next(q for q in kept if abs(q.center[0] - 583.5) < 2 and abs(q.center[1] - 73.5) < 2)
    assert sorted((round(tile.width), round(tile.height))) == [16, 36]
    apart = [TileQuad((np.array(c, np.float32) + [dx, 0]).astype(np.float32)) for c, dx in zip(halves, (-6, 6))]
    separate = [TileQuad(np.array(c, np.float32)) for c in row] + apart
    assert halves_joined(separate) == separate


def test_halves_of_a_sideways_tile_over_the_speck_size_are_joined_too():
    """Seed 2024's table 30 at 2000x1500: North's winning 4p, laid sideways, lit up as two halves
    of 0.63 and 0.68 of their neighbours' area (over SPECK_AREA, so not specks), each read as 2p:
    a hand with one tile too many and no winning tile.  Tiles found whole were never under 0.69
    of their neighbours' area, so halves are looked for under that (HALVES_SMALL).  The finds as
    they came: the two halves and their nearest tiles."""
    from vision.false_finds import halves_joined
    from vision.quad import TileQuad

    halves = [[[555.6, 554.8], [560.9, 523.3], [598.3, 529.5], [593.1, 561.0]],
              [[562.5, 527.0], [568.8, 495.7], [606.0, 503.2], [599.7, 534.5]]]
    row = [[[633.3, 469.1], [626.4, 503.5], [572.8, 492.8], [579.7, 458.4]],
           [[598.3, 588.2], [591.5, 622.6], [537.9, 611.9], [544.8, 577.5]],
           [[640.5, 436.9], [635.2, 468.4], [584.6, 459.9], [589.8, 428.5]],
           [[587.5, 622.6], [580.5, 657.7], [526.9, 647.0], [533.9, 611.9]],
           [[649.9, 404.6], [644.7, 436.0], [594.0, 427.6], [599.3, 396.1]],
           [[578.5, 657.7], [571.7, 695.1], [515.4, 684.9], [522.2, 647.5]],
           [[659.0, 371.7], [655.2, 402.1], [603.0, 395.5], [606.8, 365.2]]]
    quads = [TileQuad(np.array(c, np.float32)) for c in row + halves]
    kept = halves_joined(quads)
    assert len(kept) == len(row) + 1
    tile = kept[-1]
    assert np.hypot(*(tile.center - [580.5, 528.5])) < 3
    assert 55 < max(tile.width, tile.height) < 70 and 35 < min(tile.width, tile.height) < 45


def test_a_closer_look_is_believed_over_the_specks_that_sent_for_it(monkeypatch):
    """Seed 2024's table 40 at 1600x1200: one player's 16 tiles on a pale checkerboard.  The
    first look (at 0.4) found 18 specks 4-7 pixels wide in the checkerboard and 5 tiles; a
    closer look (at 0.8) found 14 tiles.  The closer look's finds were taken only if they
    outnumbered the first look's, specks included, so the specks stood and 5 of the 16 tiles were
    found.  The specks are no tiles to outnumber: the closer look's tiles stand."""
    import vision.detect as detect

    specks = [_box_quad(100 + 30 * k, 100 + 40 * (k % 3), 12 + (k % 7), 14) for k in range(18)]
    first = specks + [_box_quad(1200 + 20 * k, 500, 45, 60) for k in range(5)]
    tiles = [_box_quad(300 + 60 * k, 600, 57, 76) for k in range(14)]
    monkeypatch.setattr(detect, "_look", lambda loc, pyr, scale, box=None: (
        (first if scale < 0.5 else tiles), None))
    for name in ("without_specks", "without_cloth"):
        monkeypatch.setattr(detect, name, lambda *a: a[-1])
    for name in ("without_gap_fills", "without_surface_pieces"):
        monkeypatch.setattr(detect, name, lambda pyr, quads: quads)
    monkeypatch.setattr(detect, "_holes", lambda pyr, quads: [])
    quads = detect.find_tile_quads(np.zeros((1200, 1600, 3), np.uint8), localizer=object())
    assert sorted(q.center[0] for q in quads) == [300 + 60 * k for k in range(14)]


def test_flowers_read_from_small_tiles_bring_a_warning():
    """At 24 pixels a tile, the held-out art's flowers and seasons are read right 80% of the
    time, at 48 pixels 97% (benchmarks/recognition.py): a photo whose tiles are under
    SMALL_TILE_PX wide and hold a flower or season says so, and what to do; one without bonus
    tiles, or with big enough tiles, does not."""
    from vision.recognize import _small_tiles

    small = [_box_quad(100 + 30 * k, 100, 25, 33) for k in range(14)]
    big = [_box_quad(100 + 60 * k, 100, 48, 64) for k in range(14)]
    with_flower = ["1m"] * 13 + ["f2"]
    assert _small_tiles(small, with_flower) == [
        "tiles are about 25 pixels wide in this photo, small for the marks of flowers and seasons: "
        "check them, or send the photo at the camera's full resolution or taken closer"]
    assert _small_tiles(big, with_flower) == []
    assert _small_tiles(small, ["1m"] * 14) == []
    tiny = [_box_quad(100 + 12 * k, 100, 8, 11) for k in range(14)]
    assert _small_tiles(tiny, ["1m"] * 14) == [
        "tiles are about 8 pixels wide in this photo, too small to read reliably (at least 12 are needed): "
        "send the photo at the camera's full resolution or taken closer"]
    rng = np.random.default_rng(5)
    table = next(t for t in (make_table(rng, SIZE) for _ in range(20)) if any(x["code"].startswith("f") for x in t.tiles))
    rec = recognize(table.image, classifier=TruthClassifier(table.tiles))
    assert any(w.startswith("tiles are about") for w in rec.warnings), rec.warnings


def test_a_seat_the_first_looks_missed_is_looked_for_where_its_row_must_lie(monkeypatch):
    """A far seat on a checked cloth can come out of every look as nothing (seed 7's table 19
    at 4000x3000 in benchmarks/recognition.py: West's 15 tiles were specks at the first look,
    and no closer look went there).  With three seats found, the fourth's row must lie between
    the ends of its neighbours' rows: the detector misses West here on purpose, and the
    recognizer's look at that place finds every West tile."""
    import importlib

    recognize_module = importlib.import_module("vision.recognize")  # the package's name is the function
    table = make_table(np.random.default_rng(21), (2400, 1800), single=False, tilt=20, rotate=5)
    west = [t for t in table.tiles if t["seat"] == "W"]
    below_west = max(t["box"][3] for t in west) + 5
    real = recognize_module.find_tiles
    monkeypatch.setattr(recognize_module, "find_tiles", lambda photo, localizer=None: _only(
        real(photo, localizer), lambda q: q.center[1] > below_west))
    rec = recognize(table.image, classifier=TruthClassifier(table.tiles))
    found = [t for t in rec.tiles if t.seat == "W"]
    recall, extra = _recall([t["box"] for t in west], [t.quad.box for t in found])
    assert recall == 1.0 and extra == 0, (recall, extra)
    assert not any("no tiles of West" in w for w in rec.warnings)


def test_a_set_the_first_looks_missed_is_looked_for_along_its_seats_row(monkeypatch):
    """A set lying a gap past the rest of a seat's row on a checked cloth can come out of every
    look as nothing (seed 7's table 19 at 4000x3000 in benchmarks/recognition.py: North's
    chow of 789p, beyond its kong).  A seat holds 13 tiles at least, so a seat found with
    fewer is looked along, past both ends of its row: the detector misses West's exposed set
    here on purpose, and the recognizer's look along West's row finds every one of its tiles."""
    import importlib

    recognize_module = importlib.import_module("vision.recognize")
    table = make_table(np.random.default_rng(21), (2400, 1800), single=False, tilt=20, rotate=5)
    west = [t for t in table.tiles if t["seat"] == "W"]
    dropped = [t for t in west if t["group"] == "meld-1"]
    assert len(dropped) >= 3
    hidden = [np.mean(np.array(t["quad"]), axis=0) for t in dropped]
    real = recognize_module.find_tiles
    monkeypatch.setattr(recognize_module, "find_tiles", lambda photo, localizer=None: _only(
        real(photo, localizer), lambda q: min(np.linalg.norm(q.center - c) for c in hidden) > 10))
    rec = recognize(table.image, classifier=TruthClassifier(table.tiles))
    found = [t for t in rec.tiles if t.seat == "W"]
    recall, extra = _recall([t["box"] for t in west], [t.quad.box for t in found])
    assert recall == 1.0 and extra == 0, (recall, extra)


def test_squares_of_a_checked_cloth_found_by_a_look_along_a_row_are_judged_by_the_known_tiles():
    """A look along a row (vision.detect.find_tiles_in) on a checked cloth whose squares are a
    tile wide can come back with many squares (seed 2024's table 40 at 1600x1200, one player's
    tiles: 118).  The cloth test counts the faces' colours inside the finds, most of them true
    tiles at a first look; here most are squares, and the cloth's colours pass for faces.  The
    tiles already known give the faces' colours instead, and every square is dropped."""
    from vision.quad import TileQuad

    img = np.zeros((400, 900, 3), np.uint8)
    yy, xx = np.mgrid[0:400, 0:900]
    img[((yy // 36 + xx // 36) % 2) == 0] = (196, 206, 214)
    img[((yy // 36 + xx // 36) % 2) == 1] = (168, 178, 190)

    def box(x0, y0, w, h):
        return TileQuad(np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], np.float32))

    tiles = []
    for k in range(6):  # ivory faces with a dark mark, touching in a row
        x0 = 120 + 34 * k
        img[160:206, x0:x0 + 33] = (228, 240, 246)
        cv2.circle(img, (x0 + 16, 183), 8, (40, 60, 150), -1)
        tiles.append(box(x0, 160, 33, 46))
    squares = [box(36 * i + 2, 36 * j + 2, 32, 32) for i in range(10, 25) for j in (1, 2, 7, 8)]
    pyr = Pyramid(img)
    kept = without_cloth(pyr, tiles + squares, known=len(tiles))
    assert kept == tiles


def test_a_set_missed_in_one_players_tiles_alone_is_looked_for_along_the_row(monkeypatch):
    """One player's tiles alone, found short of a hand (a concealed kong missed on a checked
    cloth: seed 2024's table 40 at 1600x1200): the row is looked along past both ends, as a
    table's short seat is, and the set the detector misses here on purpose is found whole."""
    import importlib

    recognize_module = importlib.import_module("vision.recognize")
    table = make_table(np.random.default_rng(0), (1600, 1200), single=True, surface="cloth", tilt=15, rotate=4)
    last = max(t["group"] for t in table.tiles if t["group"].startswith("meld"))
    hidden = [np.mean(np.array(t["quad"]), axis=0) for t in table.tiles if t["group"] == last]
    assert len(hidden) >= 3
    real = recognize_module.find_tiles
    monkeypatch.setattr(recognize_module, "find_tiles", lambda photo, localizer=None: _only(
        real(photo, localizer), lambda q: min(np.linalg.norm(q.center - c) for c in hidden) > 10))
    rec = recognize(table.image, classifier=TruthClassifier(table.tiles))
    recall, extra = _recall([t["box"] for t in table.tiles], [t.quad.box for t in rec.tiles])
    assert recall == 1.0 and extra == 0, (recall, extra)


def test_a_look_along_a_row_looks_at_two_sizes(monkeypatch):
    """On a checked cloth the localiser may miss a tile at one size and find it at another (seed
    31's single-player table 22 at 12 MP: a 1s and a 9s amid the run found at 0.20 of the photo's
    size, not at 0.17, the size that brings its tiles to the localiser's best width).  The look
    along a short row looks at both sizes, and what only the second finds is kept once."""
    import vision.detect as detect
    from vision.localizer import TILE_W_TARGET

    tile_w = 60.0
    row = [_box_quad(300 + 61 * k, 500, 60, 80) for k in range(8)]
    missed = {3, 4}
    known = [q for k, q in enumerate(row) if k not in missed]
    base = TILE_W_TARGET / tile_w
    looked = []

    def look_in(loc, pyr, scale, regions, known=()):
        looked.append(scale)
        return [q for k, q in enumerate(row) if k not in missed or scale > 1.1 * base]

    monkeypatch.setattr(detect, "_look_in", look_in)
    monkeypatch.setattr(detect, "without_specks", lambda quads: quads)
    monkeypatch.setattr(detect, "without_gap_fills", lambda pyr, quads: quads)
    monkeypatch.setattr(detect, "without_surface_pieces", lambda pyr, quads: quads)
    monkeypatch.setattr(detect, "without_cloth", lambda pyr, quads, known=0: quads)
    img = np.zeros((1200, 1600, 3), np.uint8)
    found = detect.find_tiles_in(img, [200, 400, 1000, 600], tile_w, known, localizer=object()).found
    assert sorted(q.center[0] for q in found) == [300 + 61 * 3, 300 + 61 * 4]
    assert len(looked) == 2 and abs(looked[0] - base) < 1e-9


def _look_along_row(monkeypatch, row, known):
    """find_tiles_in on a blank photo, its look (a stand-in) finding `row`, the tests on the
    finds passed through."""
    import vision.detect as detect

    monkeypatch.setattr(detect, "_look_in", lambda loc, pyr, scale, regions, known=(): list(row))
    monkeypatch.setattr(detect, "without_specks", lambda quads: quads)
    monkeypatch.setattr(detect, "without_gap_fills", lambda pyr, quads: quads)
    monkeypatch.setattr(detect, "without_surface_pieces", lambda pyr, quads: quads)
    monkeypatch.setattr(detect, "without_cloth", lambda pyr, quads, known=0: quads)
    img = np.zeros((1200, 1600, 3), np.uint8)
    return detect.find_tiles_in(img, [200, 400, 1200, 600], 60.0, known, localizer=object())


def test_touching_tiles_found_as_one_are_replaced_by_a_look_along_their_row(monkeypatch):
    """Three touching tiles whose cores ran together at a small look were found as one long
    tile (seed 2024's table 75 at 1600x1200: three 9s in a side seat's column, one find 112
    pixels long).  The look along that seat's short row finds each of them: they replace the
    long find instead of being dropped as lying over it."""
    row = [_box_quad(300 + 61 * k, 500, 60, 80) for k in range(8)]
    merged = _box_quad(300 + 61 * 4, 500, 61 * 2 + 64, 80)
    known = row[:3] + [merged] + row[6:]
    more = _look_along_row(monkeypatch, row, known)
    assert sorted(q.center[0] for q in more.found) == [300 + 61 * k for k in (3, 4, 5)]
    assert more.replaced == [merged]


def test_a_tile_a_look_along_its_row_cuts_in_two_stands(monkeypatch):
    """Two halves of one tile (a look that cut a sideways tile in two) are no run of tiles:
    the tile stands, and the halves are dropped as lying over it."""
    row = [_box_quad(300 + 61 * k, 500, 60, 80) for k in range(8)]
    halves = [_box_quad(300 + 61 * 3 - 15, 500, 30, 80), _box_quad(300 + 61 * 3 + 15, 500, 30, 80)]
    more = _look_along_row(monkeypatch, row[:3] + halves + row[4:], row)
    assert more.found == [] and more.replaced == []


def test_touching_tiles_found_as_one_stand_when_the_look_keeps_only_one_of_them(monkeypatch):
    """When the tests on the finds (here the cloth test) leave only one of the tiles a look
    found inside a long find, the long find stands, and the one left is dropped with the rest
    that lie over it: no tile is found twice."""
    import vision.detect as detect

    row = [_box_quad(300 + 61 * k, 500, 60, 80) for k in range(8)]
    merged = _box_quad(300 + 61 * 4, 500, 61 * 2 + 64, 80)
    known = row[:3] + [merged] + row[6:]
    more = _look_along_row(monkeypatch, row, known)
    assert len(more.found) == 3  # the stand-in tests keep all three
    monkeypatch.setattr(detect, "without_cloth", lambda pyr, quads, known=0: [
        q for q in quads if not (q is row[4] or q is row[5])])
    more = detect.find_tiles_in(np.zeros((1200, 1600, 3), np.uint8), [200, 400, 1200, 600], 60.0, known,
                                localizer=object())
    assert more.found == [] and more.replaced == []


def test_tiles_the_first_look_found_and_the_closer_look_lost_come_back(monkeypatch):
    """The localiser's map at one size can hold tiles its map at another lost: seed 11's
    single-player table 15 at 12 MP, on a checked cloth, had all 17 tiles in the first look and
    12 in the closer one, which used to replace it.  A first find that no closer find lies on
    comes back when it is sized like the closer finds round it and lies in a row with another
    find; one where touching tiles ran together (it holds closer finds' centres), one of another
    size and one lying alone (a piece of a scoring stick, on props tables) do not."""
    import vision.detect as detect

    # first look at scale 0.01 of a 4000-pixel photo: tiles 20 pixels there, 2000 in the photo
    row = [_box_quad(2000 + 2000 * k, 3000, 2000, 2700) for k in range(6)]
    ran_together = _box_quad(20000, 3000, 4000, 2700)  # two touching tiles found as one
    oversized = _box_quad(30000, 3000, 5000, 6000)
    alone = _box_quad(12000, 20000, 2000, 2700)
    first = row + [ran_together, oversized, alone]
    closer = row[2:] + [_box_quad(19000, 3000, 1950, 2650), _box_quad(21000, 3000, 1950, 2650)]
    monkeypatch.setattr(detect, "_look_in", lambda loc, pyr, scale, regions, known=(): closer)
    monkeypatch.setattr(detect, "_regions", lambda prob, shape, w: [[0, 0, 40000, 30000]])
    monkeypatch.setattr(detect, "without_cloth", lambda pyr, quads, known=0: quads)
    monkeypatch.setattr(detect, "without_gap_fills", lambda pyr, quads: quads)
    monkeypatch.setattr(detect, "without_surface_pieces", lambda pyr, quads: quads)
    monkeypatch.setattr(detect, "_holes", lambda pyr, quads: [])

    class Shape:
        shape = (30000, 40000, 3)

    quads = detect._found(None, Shape(), 0.01, first, np.zeros((300, 400), np.float32))
    centres = sorted(round(float(q.center[0])) for q in quads)
    assert centres == [2000, 4000, 6000, 8000, 10000, 12000, 19000, 21000]


def test_real_photos_turned_and_tilted_read_right():
    """Three hust-riichi TEST photos as their camera would have seen them turned a quarter and
    tilted 20 degrees, or turned the other way and tilted 25 (datasets.views): every tile is
    found, none twice, and at most one of each photo's is misread.  The benchmark measures every
    test photo in more views (benchmarks/recognition.py, VIEWS)."""
    shared_path("datasets/hust-riichi", "the turned and tilted real photos")
    from conftest import load_benchmark
    from datasets.hust_riichi import load_photos, read_split
    from datasets.views import camera_view, view_box

    match = load_benchmark("recognition").match  # the benchmark's own one-to-one matching at IoU 0.5
    photos = load_photos(HUST, corrected=True)
    for name in [n for n in read_split()["test"] if not n.startswith("aug_")][:3]:
        img = cv2.imread(str(HUST / "images" / name))
        for turn, tilt in ((90, 20), (-60, 25)):
            view, m = camera_view(img, turn, tilt)
            truth = [(view_box(box, m), code) for box, code in photos[name].tiles]
            rec = recognize(view)
            hit, right, extra = match(truth, [(t.quad.box, t.code) for t in rec.tiles])
            where = f"{name} turned {turn}, tilted {tilt}"
            assert hit == len(truth), f"{where}: found {hit} of {len(truth)} tiles"
            assert extra == 0, f"{where}: {extra} finds that are no tile"
            assert right >= len(truth) - 1, f"{where}: {len(truth) - right} tiles misread"


def _joined_along_by_restarting(boxes):
    """The joining rule as first written: join the first overlapping pair (in order) whose box
    round both is no bigger than the two, and start again from the first pair."""
    from vision.detect import _joined

    boxes = [list(b) for b in boxes]
    while True:
        pair = next(((i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
                     if _joined(boxes[i], boxes[j]) is not None), None)
        if pair is None:
            return boxes
        i, j = pair
        boxes[i] = _joined(boxes[i], boxes[j])
        del boxes[j]


def test_joining_boxes_along_rows_goes_on_from_the_join_with_the_same_result():
    """_joined_along goes on from where a join happened (a photo of no table gave 400 boxes,
    and starting again from the first pair after each join cost 0.4 s): the boxes it gives must
    be those of starting again, on rows of tiles, scattered boxes and a grid's exact ties."""
    from vision.detect import _joined_along

    rng = np.random.default_rng(0)
    for trial in range(600):
        kind, boxes = trial % 3, []
        for _ in range(int(rng.integers(0, 30))):
            if kind == 0:
                x, y, w, h = *rng.uniform(0, 100, 2), *rng.uniform(1, 30, 2)
            elif kind == 1:
                x, y, w, h = rng.uniform(0, 200), float(rng.integers(0, 5) * 20), rng.uniform(5, 40), 15.0
            else:
                x, y, w, h = (float(v) for v in (*rng.integers(0, 10, 2) * 10, *rng.integers(5, 25, 2)))
            boxes.append([x, y, x + w, y + h])
        assert _joined_along(boxes) == _joined_along_by_restarting(boxes), boxes


def _quads(items):
    from vision.quad import TileQuad

    return [TileQuad(np.array(q["corners"], np.float32), seen_width=q["seen_width"]) for q in items]


def test_two_tiles_each_found_as_two_halves_are_taken_whole_from_a_look_along_their_row():
    """Seed 2024's racks table 92 (2000x1500): North's third 9s and flower, lying sideways side by
    side, were each found by the first look as two tile-shaped halves, half of each then taken
    into East's seat; halves_joined could not join them, each pair's neighbours being mostly the
    other pair.  The look along North's short row saw both whole, and its finds were dropped as
    lying over the halves.  The finds and known finds of that look, and of the next look along
    the row (which saw the 9s as halves again and put them back in place of the whole tile), as
    the pipeline had them (tests/data/racks92_halves_quads.json)."""
    from vision.detect import _halves_of_one, _run_together

    data = json.loads((Path(__file__).parent / "data" / "racks92_halves_quads.json").read_text())
    found, known = _quads(data["halves_look"]["found"]), _quads(data["halves_look"]["known"])
    pairs = _halves_of_one(found, known)
    whole = {tuple(np.round(q.center).astype(int)) for q in found if id(q) in pairs}
    assert whole == {(405, 863), (389, 943)}
    halves = sorted(tuple(np.round(k.center).astype(int)) for pair in pairs.values() for k in pair)
    assert halves == [(378, 940), (394, 862), (406, 940), (419, 861)]
    later = data["later_look"]
    assert _run_together(_quads(later["found"]), _quads(later["known"])) == []


def test_two_touching_tiles_a_look_ran_together_do_not_replace_the_two_found_apart():
    """The guards on taking halves whole: a find over two known tiles is the two run together in
    a look too small to cut them, not one tile found as halves, when it is twice a tile's size,
    or when the two are each a whole tile's size (KMahjongg's jade, seed 2024's table 14: two
    white dragons, each 1.0 of the tiles round them, found as one tile-shaped find); and halves
    give way only to a look that saw the tile larger than the looks that cut it."""
    from vision.detect import _halves_of_one
    from vision.quad import TileQuad

    def seen(q, width):
        return TileQuad(q.corners, seen_width=width)

    row = [seen(_box_quad(100 + 42 * k, 300, 40, 60), 20) for k in range(10)]
    found = [seen(_box_quad(100 + 42 * k, 300, 40, 60), 30) for k in range(10) if k not in (4, 5)]
    assert _halves_of_one(found + [seen(_box_quad(100 + 42 * 4.5, 300, 82, 60), 30)], row) == {}
    assert _halves_of_one(found + [seen(_box_quad(100 + 42 * 4.5, 300, 60, 44), 30)], row) == {}
    # the same place, the known finds each half a tile (a sideways tile found as two): taken whole
    halves = [seen(_box_quad(100 + 42 * 4.5 + dx, 300, 30, 60), 12) for dx in (-15, 15)]
    known = [k for i, k in enumerate(row) if i not in (4, 5)] + halves
    whole = seen(_box_quad(100 + 42 * 4.5, 300, 60, 44), 30)
    assert [k for pair in _halves_of_one(found + [whole], known).values() for k in pair] == halves
    # ... but not by a look that saw it no larger than they were seen
    assert _halves_of_one(found + [seen(whole, 12)], known) == {}

"""Photo in, table out: load -> find tiles (a set with dark faces: in the photo's negative) ->
group into seats and sets (-> the one seat missing from three looked for where its row must
lie, a seat short of a hand looked along its row, the table grouped again) -> upright crops (->
a warm light's cast taken off a pale set's tiles) -> classify (-> a concealed kong's missed
backs put back, the table grouped again; tiles found in the negative read there too, and given
up for the photo's own finds when neither reading is sure; fewer finds than a hand that read as
no tile: none; a blurred photo's blur, a straight smear or a focus blur, taken off and its tiles read again) -> hands
(-> a lamp's glare washing a pale set's tiles taken off and the photo read again from the start,
that reading kept when the classifier is surer of it).
Each step lives in its own module; this one only wires them together."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import BONUS
from vision.deblur import FOCUS_ANISOTROPY, SMEAR_ANISOTROPY, FocusBlur, Smear, blur_kernels, deblurred
from vision.detect import FIRST_LOOK, find_tile_quads, find_tiles, find_tiles_in
from vision.glare import WASHED, deglared, glare_field
from vision.hands import TileWarning, read_hands
from vision.sets import TileRead
from vision.io import ImageError, start_photo
from vision.kong_ends import missed_kong_ends
from vision.layout import ROW_SQUARE, group_tiles
from vision.look_again import missing_seat_box, short_seat_boxes
from vision.quad import TileQuad
from vision.rectify import upright_crop
from vision.sharpness import blurred, tile_blur
from vision.tile_check import EitherPolarity
from vision.white_balance import balanced, warm_light_gains

#: big JPEGs are decoded at a reduced size (1/2, 1/4 or 1/8) whose long side is at least this:
#: a whole table spans a photo, so its tiles are about 1.5% of the long side, and at 3000 pixels
#: they stay 45+ pixels wide, what the classifier needs (a 12 MP photo is decoded whole: cut
#: from a half-size decode, the tiles of 8 synthetic 4000x3000 tables read 98.3% right, from
#: the whole photo 99.0%)
DECODE_SIDE = 3000
#: a find in a group of this many touching finds or more is a tile, whatever the tile check says,
#: when any find of the group reads as a tile
RUN_KEPT = 3
#: a find narrower than this (pixels of the decoded photo) is no tile, whatever the tile check
#: says: nothing could read it, and a speck enlarged 40 times reads as a blank white dragon (a
#: photo of a mouse on its pad: a 2.4 x 4.6 speck found in the negative, read as 5z at 96%).  The
#: smallest true tiles found: 10.9 pixels across in hust-riichi's 640-pixel test photos with the
#: camera tilted 35 degrees, 13.6 in 60 held-out-art tables at 1280x960 (scratch count)
MIN_TILE_SIDE = 6.0
#: tiles narrower than this (pixels of the decoded photo) carry flowers' and seasons' small marks
#: in too few pixels: in benchmarks/recognition.py's held-out-art tables the classifier reads
#: 82.6% of flowers and seasons right at 24.5 pixels, 89.2% at 29.8, 96.0% at 37.2, 97.4% at
#: 47.6 and 100% at 73 (suit and honour tiles 99.5-100% at every size; run of 2026-11-27)
SMALL_TILE_PX = 40.0
#: tiles narrower than this carry too few pixels to be read reliably at all: the bundled example
#: table shrunk until its tiles were 7.7 pixels wide read 36 of its 56 tiles right (and took
#: seconds, nearly every reading unsure), at 9.7 pixels 53, at 11.7 pixels 55, at 14.6 all 56
#: (scratch run, forty-third session)
TINY_TILE_PX = 12.0
#: a photo with fewer finds than a hand holds, small for the photo and read at their median with
#: less confidence than NO_TILES_CONFIDENCE, shows no tiles: an empty tray's weave or a page of
#: pictures gives a few small shapes the classifier cannot read.  Chosen on the hust-riichi TRAIN
#: and VALIDATION photos (scratch script, 2026-11-27): the 7 photos of no tile that gave finds
#: (1-3 each) read them at a median of 0.12-0.61, the 155 photos of tiles (4 to 36 finds) at
#: 0.94 or more; their finds' median shorter side is 0.8-2.3% of the photo's long side, while
#: the labelled photos of fewer than 13 tiles (close-ups of 4 or 12) show tiles 7.2% of it or
#: more.  A close-up of a few tiles is never emptied, however badly it reads (a tile of a set
#: the classifier has never seen reads under 0.75 one time in six: it must still be shown for
#: the user to correct), and neither is a photo of NO_TILES_FINDS finds or more.
NO_TILES_FINDS = 13
#: tiles found in a photo's negative (vision.detect.find_tiles: a set with dark faces) stand only
#: when the classifier reads them at a median confidence of this or more; else the photo's own
#: finds do.  KMahjongg's jade set read at 0.73-0.97 (the 24 of 32 synthetic tables, seeds 3 and
#: 5, found in the negative), the keys of keyboards in six hust-riichi train and validation
#: photos of no tile at 0.11-0.29
NEGATIVE_READ = 0.5
#: tiles found in the negative, a hand's worth or more (NO_TILES_FINDS), are read in the negative
#: too (and in the negative of its lightness alone, _lightness_negative), and the surer of those
#: readings is kept when its median confidence is higher by this: a dark set the classifier never
#: learnt reads there as a pale one
NEGATIVE_READ_GAIN = 0.1
NO_TILES_CONFIDENCE = 0.75
NO_TILES_SIZE = 0.04
#: a tile whose outline is nearly square (its short side at least the layout's ROW_SQUARE of
#: its long: a row's tile foreshortened by a steep camera) may be cut on its side, and the
#: classifier misreads a tile on its side (a 4m as a flower).  One read under TURNED_LOOK_BELOW
#: is read again a quarter turned, and that reading taken when it is TURNED_LOOK_GAIN times as
#: confident and TURNED_LOOK_SURE at least.  benchmarks/recognition.py's hust-riichi test photos
#: with the camera tilted 35 degrees: 93.34% -> 94.44% of tiles read right (the other way 94.87%
#: -> 95.90%; turned 60 and tilted 30, 97.19% -> 97.86%; tilted 20, 99.76% -> 99.88%; the other
#: views and the photos as taken the same).  Chosen after those figures were seen: the
#: VALIDATION photos in the same views read the same, and so did 900 synthetic tables (held-out
#: art at 1280x960, seeds 2024, 99 and 7; 1600x1200; 12 MP; dark and jade sets at 2000x1500),
#: but for 2 tiles of the dark sets read right that were not.  Without the floor of 0.8, a 1s
#: of one 1280x960 table, read turned as 1p at 0.64, lost it.
#: `mjscore validate` on all 256 hust-riichi photos as taken: 3 tiles more read right (a 9p read
#: as 6p, ...: 245 -> 248 photos exact), none fewer
TURNED_LOOK_BELOW = 0.5
TURNED_LOOK_GAIN = 2.0
TURNED_LOOK_SURE = 0.8
#: a blurred photo's tiles read again with its blur taken off (vision.deblur): a tile's mended
#: reading is taken when the classifier is surer of it by more than this (or, when the mended
#: photo's tiles differ, the whole mended reading when its mean is)
MENDED_GAIN = 0.02


@dataclass
class RecognizedTile:
    quad: TileQuad  # in the original image's pixels, p0-p1 the top edge as its player sees it
    code: str
    confidence: float
    seat: str
    group: str
    sideways: bool = False
    #: the classifier's likeliest readings, best first (code, probability): `code` may be another
    #: when the table's rules put the tile right (a set's repair, too many copies); a person
    #: correcting a doubtful tile mostly finds the right one among them
    candidates: list = field(default_factory=list)

    @property
    def face_down(self) -> bool:
        return self.code == "back"

    def to_json(self) -> dict:
        return {
            "box": [round(v, 1) for v in self.quad.box],
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad.corners],
            "code": self.code,
            "confidence": round(float(self.confidence), 4),
            "seat": self.seat,
            "group": self.group,
            "face_down": self.face_down,
            "sideways": self.sideways,
            "candidates": [[str(c), round(float(p), 4)] for c, p in self.candidates[:3]],
        }


@dataclass
class Recognition:
    image: str
    width: int
    height: int
    camera_seat: str
    tiles: list[RecognizedTile]
    seats: dict[str, dict]
    warnings: list[str]
    timings_ms: dict[str, float] = field(default_factory=dict)
    #: with recognize(keep_photo=True), the photo as decoded (upright BGR; a big JPEG at a DCT
    #: reduction) and the original's pixels per pixel of it: what a caller draws the tiles on
    #: without decoding the photo again
    photo: np.ndarray | None = field(default=None, repr=False, compare=False)
    photo_scale: float = 1.0
    #: the photo is blurred enough to misread tiles by (vision.sharpness; its warning comes first)
    blurred: bool = False

    def to_json(self) -> dict:
        return {
            "image": self.image,
            "width": self.width,
            "height": self.height,
            "camera_seat": self.camera_seat,
            "tiles": [t.to_json() for t in self.tiles],
            "seats": self.seats,
            "warnings": list(self.warnings),
            # for each warning, the tiles it is about (indices into "tiles"), for a page to show
            "warning_tiles": [list(getattr(w, "tiles", ())) for w in self.warnings],
            # for each warning its kind (vision.hands.TileWarning.kind: "apart", "count", ...; "" for
            # none), for a page to tell the warnings a later step makes untrue without their words
            "warning_kinds": [str(getattr(w, "kind", "") or "") for w in self.warnings],
        }


def _classifier():
    from models.classifier import default_classifier

    return default_classifier()


def recognize(image, camera_seat: str = "E", classifier=None, localizer=None,
              name: str | None = None, tile_check=None, keep_photo: bool = False) -> Recognition:
    """Recognise a table photo.  `image`: bytes, a path or a BGR ndarray.  `camera_seat`: the
    wind sitting at the photo's bottom edge.  `classifier`: anything with
    classify(crops) -> predictions (default: the bundled tile classifier).  `tile_check`: what
    drops finds that are no tile (vision.tile_check; default the bundled one, False for none).
    `keep_photo`: the decoded photo stays in the result's `photo` (to draw on; 36 MB for 12 MP)."""
    if camera_seat not in ("E", "S", "W", "N"):
        raise ValueError(f"camera seat {camera_seat!r} is not one of E, S, W, N")
    if name is None:
        name = Path(str(image)).name if isinstance(image, (str, Path)) else "image"
    return _recognize(image, camera_seat, classifier, localizer, name, tile_check, keep_photo, look_for_glare=True)


def _recognize(image, camera_seat: str, classifier, localizer, name: str, tile_check, keep_photo: bool,
               look_for_glare: bool) -> Recognition:
    """recognize(), and with `look_for_glare` a pale set's tiles washed out by a lamp's reflection
    read again with it taken off (vision.glare): that reading is kept when the classifier is surer
    of it on the whole (its tiles' mean confidence)."""
    t0 = time.perf_counter()
    # a big JPEG's first look runs on a small second decode while the full one runs on the
    # other core; "decode" is then the header and that small decode, "detect" includes any
    # wait for the rest
    photo = start_photo(image, max_side=DECODE_SIDE, preview_side=FIRST_LOOK)
    t1 = time.perf_counter()
    finds = find_tiles(photo, localizer)
    img, scale = photo.result(), photo.scale
    check = _tile_check(tile_check)
    negative = cv2.bitwise_not(img) if finds.negative else None  # (made once: looked in, then read in)
    quads, layout = _placed(EitherPolarity(check, img, negative) if finds.negative and check else check, img,
                            finds.quads, localizer, negative=negative)
    t2 = time.perf_counter()
    crops = [upright_crop(img, q) for q in layout.quads]
    # a warm light's cast is taken off the tiles of a pale set before they are read
    gains = None if finds.negative else warm_light_gains(crops)
    seen = img if gains is None else balanced(img, gains)
    if gains is not None:
        crops = [upright_crop(seen, q) for q in layout.quads]
    t3 = time.perf_counter()
    placed = layout
    layout, preds = _read(classifier, seen, scale, quads, placed, crops)
    if finds.negative and len(placed.quads) >= NO_TILES_FINDS:
        # a dark set the classifier never learnt may read as a pale one in a negative: the
        # photo's, or its lightness's alone, where each light mark keeps its colour
        again = max((_read(classifier, view, scale, quads, placed) for view in (negative, _lightness_negative(img))),
                    key=lambda read: _median_confidence(read[1]))
        if _median_confidence(again[1]) > _median_confidence(preds) + NEGATIVE_READ_GAIN:
            layout, preds = again
    if finds.negative and not _read_surely(preds):
        # tiles of the negative the classifier cannot read either way are no dark-faced set (a
        # keyboard's keys are dark with light marks too): the photo's own finds stand
        quads, layout = _placed(check, img, finds.in_photo, localizer)
        layout, preds = _read(classifier, img, scale, quads, layout)
    unread = _unreadable_finds(preds, layout.quads, img.shape)
    if unread:
        layout, preds = group_tiles([]), []
    glare = None
    if look_for_glare and not finds.negative and preds:
        glare = glare_field(img.shape, layout.quads, [p.code for p in preds],
                            crops if layout is placed else [upright_crop(seen, q) for q in layout.quads])
    # measured on the photo as taken, faces only (a back has no edges): a moved camera's straight
    # smear or a focus blur is taken off and the tiles read again, kept when the classifier is
    # surer of them
    faces = [q for q, p in zip(layout.quads, preds) if p.code != "back"]
    blur = tile_blur(img, faces)
    mended = None
    if blurred(blur) and not finds.negative:
        layout, preds, mended = _read_mended(classifier, seen, scale, quads, placed, layout, preds, blur, faces)
    t4 = time.perf_counter()
    reads = [TileRead(p.code, float(p.confidence), list(getattr(p, "candidates", []) or []),
                      list(getattr(p, "bonus", []) or [])) for p in preds]
    seat_label, group_label, hands, warnings = read_hands(layout, reads, camera_seat)
    tiles = [RecognizedTile(layout.quads[i].scaled(scale), reads[i].code, reads[i].confidence,
                            seat_label[i], group_label[i], layout.sideways[i],
                            list(getattr(preds[i], "candidates", []) or []))
             for i in range(len(reads))]
    blur_warning: list[str] = []
    if not tiles:
        warnings.insert(0, "no tiles found in the image" + unread + ": photograph the table from "
                           "above with every tile face up and in view")
    else:
        # a blurred photo explains the warnings about its tiles, so it comes first; measured on
        # the faces as the table's rules left them (a back read as a face, a face as a back)
        final = [q for q, r in zip(layout.quads, reads) if r.code != "back"]
        if mended is None and (len(final) != len(faces) or any(a is not b for a, b in zip(final, faces))):
            blur = tile_blur(img, final)
        blur_warning = _blurred(blur, mended)
        small = _small_tiles(layout.quads, [r.code for r in reads])
        # tiles too small to read explain the warnings about them, as a blur does
        if _median_width(layout.quads) < TINY_TILE_PX:
            warnings = blur_warning + small + warnings
        else:
            warnings = blur_warning + warnings + small
    t5 = time.perf_counter()
    h, w = img.shape[:2]
    width, height = int(round(w * scale)), int(round(h * scale))
    result = Recognition(name, width, height, camera_seat, tiles, hands, warnings, {
        "decode": 1000 * (t1 - t0), "detect": 1000 * (t2 - t1), "layout": 1000 * (t3 - t2),
        "classify": 1000 * (t4 - t3), "hands": 1000 * (t5 - t4)}, img if keep_photo else None, float(scale),
        bool(blur_warning))
    if glare is not None:
        result = _read_deglared(result, img, glare, layout.quads, classifier, localizer, tile_check)
    return result


def _read_deglared(first: Recognition, img: np.ndarray, glare: np.ndarray, quads: list[TileQuad],
                   classifier, localizer, tile_check) -> Recognition:
    """The photo's reading with the glare taken off (vision.glare.deglared), found, laid out
    and read from the start, when the classifier is surer of its tiles on the whole than of
    `first`'s; else `first`.  Either way a warning names the tiles the glare washed out (of
    `quads`, `first`'s tiles in the decoded photo's pixels, or of the reading kept)."""
    t0 = time.perf_counter()
    again = _recognize(deglared(img, glare), first.camera_seat, classifier, localizer, first.image, tile_check,
                       False, look_for_glare=False)
    kept = _mean_confidence(again.tiles) > _mean_confidence(first.tiles)
    if kept:
        scale = first.photo_scale
        for t in again.tiles:
            t.quad = t.quad.scaled(scale)
        quads = [t.quad.scaled(1 / scale) for t in again.tiles]
        result = Recognition(first.image, first.width, first.height, first.camera_seat, again.tiles, again.seats,
                             again.warnings, dict(first.timings_ms), first.photo, scale, again.blurred)
    else:
        result = first
    washed = _washed_tiles(glare, quads)
    how = ("it was taken off before they were read" if kept
           else "they were read as they are (taking it off made them no clearer)")
    result.warnings.insert(int(result.blurred), TileWarning(
        f"a glare (a lamp reflected off the tiles) washed out {len(washed)} tile{'s' if len(washed) != 1 else ''}: "
        f"{how}; check them, or take the photo again from a little to one side so the light does not "
        f"reflect off the tiles", washed))
    result.timings_ms["glare"] = 1000 * (time.perf_counter() - t0)
    return result


def _tile_check(tile_check):
    if tile_check is False:
        return None
    if tile_check is not None:
        return tile_check
    from vision.tile_check import default_tile_check

    return default_tile_check()


def _placed(check, img: np.ndarray, quads: list[TileQuad], localizer, negative: np.ndarray | None = None):
    """(finds, layout): the finds less those the tile check takes for no tile, with the tiles
    of a seat missing from three looked for where its row must lie and those of a seat short
    of a hand looked for along its row (`negative`: the photo's negative, for a set with dark
    faces found there, looked along in it and then in the photo).  A set with dark faces found
    in the photo's negative is judged in the photo too: on 144 synthetic tables of the jade set and of procedural dark
    faces (1280x960 to 4000x3000), judging it in the negative laid out as many right (97
    against 98)."""
    checked: dict = {}
    quads, layout = _without_no_tiles(check, img, quads, group_tiles(quads), checked)
    # a set found in the negative is looked for there, and in the photo (the localiser learnt
    # pale faces; a dark set's pale tiles, as jade's white dragons, show in the photo)
    views = (negative, img) if negative is not None else (img,)
    missing = missing_seat_box(layout, img.shape)
    if missing:  # three seats found: the fourth's row may be one the first look did not see
        found = False
        for view in views:
            more = find_tiles_in(view, *missing, quads, localizer)
            found |= bool(more.found)
            quads = _with_finds(quads, more)
        if found:
            quads, layout = _without_no_tiles(check, img, quads, group_tiles(quads), checked)
    changed = False
    # a seat short of a hand: a set past its row's ends, or touching tiles found as one
    for box, tile_w in short_seat_boxes(layout, img.shape):
        for view in views:
            more = find_tiles_in(view, box, tile_w, quads, localizer)
            changed |= bool(more.found)
            quads = _with_finds(quads, more)
    if changed:
        quads, layout = _without_no_tiles(check, img, quads, group_tiles(quads), checked)
    return quads, layout


def _read(clf, img: np.ndarray, scale: float, quads: list[TileQuad], layout,
          crops: list[np.ndarray] | None = None):
    """(layout, predictions): the layout's tiles read from their crops (cut from `img` when not
    given), a concealed kong's missed backs put back (the table grouped again, and read again
    where a tile's cut changed).  `clf` None: the bundled classifier, loaded only when there are
    tiles to read."""
    if crops is None:
        crops = [upright_crop(img, q) for q in layout.quads]
    if not crops:
        return layout, []
    clf = clf if clf is not None else _classifier()
    tiny = _median_width(layout.quads) < TINY_TILE_PX
    preds = _classify(clf, crops, [q.scaled(scale) for q in layout.quads], tiny)
    preds = _turned_looks(clf, img, scale, layout.quads, preds, tiny)
    ends = missed_kong_ends(img, layout, [p.code for p in preds], quads, lambda crops, qs: _classify(
        clf, crops, [q.scaled(scale) for q in qs], tiny))
    if ends:
        before, layout = layout.quads, group_tiles(quads + ends)
        again = [i for i, q in enumerate(layout.quads)
                 if i >= len(before) or not np.array_equal(q.corners, before[i].corners)]
        more = _classify(clf, [upright_crop(img, layout.quads[i]) for i in again],
                         [layout.quads[i].scaled(scale) for i in again], tiny)
        preds = preds + [None] * len(ends)
        for i, p in zip(again, more):
            preds[i] = p
    return layout, preds


def _turned_looks(clf, img: np.ndarray, scale: float, quads: list[TileQuad], preds, tiny: bool = False) -> list:
    """The predictions, with each nearly square tile read unsurely (TURNED_LOOK_BELOW) read again
    a quarter turned: its outline cannot tell which way up it lies, and its face can.  The turned
    reading is taken when it is TURNED_LOOK_GAIN times as confident and TURNED_LOOK_SURE at
    least; the quad, and so the layout, stays as it is."""
    which = [i for i, (q, p) in enumerate(zip(quads, preds))
             if min(q.width, q.height) >= ROW_SQUARE * max(q.width, q.height)
             and float(p.confidence) < TURNED_LOOK_BELOW]
    if not which:
        return preds
    turned = [quads[i].rotated(1) for i in which]
    again = _classify(clf, [upright_crop(img, q) for q in turned], [q.scaled(scale) for q in turned], tiny)
    out = list(preds)
    for i, p in zip(which, again):
        if float(p.confidence) >= max(TURNED_LOOK_SURE, TURNED_LOOK_GAIN * float(preds[i].confidence)):
            out[i] = p
    return out


def _washed_tiles(glare: np.ndarray, quads: list[TileQuad]) -> list[int]:
    """The tiles (indices into `quads`) whose centre keeps under WASHED of its contrast in the
    glare's field, or, when no centre does (the field's least lies between tiles), the tile
    whose centre keeps least."""
    h, w = glare.shape[:2]
    kept = [float(glare[int(np.clip(q.center[1], 0, h - 1)), int(np.clip(q.center[0], 0, w - 1))]) for q in quads]
    washed = [i for i, k in enumerate(kept) if k < WASHED]
    return washed or ([int(np.argmin(kept))] if kept else [])


def _lightness_negative(img: np.ndarray) -> np.ndarray:
    """The photo with its lightness turned over and its colours kept (CIELAB's L inverted, a and
    b as they are).  A dark set's light marks are pale reds, greens and blues: in the photo's
    negative they come out teal, magenta and orange on a light face, colours no pale set has; here
    they are dark red, green and blue, as a pale set paints them.  On 100 procedural dark tables
    at 2000x1500 (seeds 2024 and 99, scratch runs), reading this view too and keeping the surer
    of the two negatives took the tiles misread from 230 to 192, the tables laid out right from
    74 to 76 and those scored right from 60 to 67."""
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def _median_confidence(preds) -> float:
    return float(np.median([float(p.confidence) for p in preds])) if preds else 0.0


def _read_surely(preds) -> bool:
    """Whether the classifier reads the tiles found in a photo's negative as tiles of a set:
    their median confidence is NEGATIVE_READ or more."""
    return bool(preds) and _median_confidence(preds) >= NEGATIVE_READ


def _without_no_tiles(check, img, quads: list[TileQuad], layout, read: dict | None = None):
    """The finds (and their layout) less those the tile check takes for no tile, unless they lie
    in a group of RUN_KEPT or more touching finds of which one at least reads as a tile: a run
    or a set is tiles (two faces of a kong of the 1 dot, big round dots, look like coins to the
    check alone), while a bundle of scoring sticks or coins side by side make a group none of
    whose finds reads as a tile.  A find under MIN_TILE_SIDE pixels across is no tile, whatever
    the check says.  `read`: the check's readings so far, by find (id -> (find,
    probability)), so a photo's later groupings read only the finds a look added."""
    if check is None or not quads:
        return quads, layout
    read = {} if read is None else read
    new = [q for q in quads if id(q) not in read]
    if new:
        for q, v in zip(new, check.probabilities(img, new)):
            read[id(q)] = (q, float(v))  # the find is kept too, so its id is not reused
    tile = [read[id(q)][1] >= check.threshold for q in quads]
    in_runs = {i for sl in layout.seats for g in sl.groups
               if len(g.tiles) >= RUN_KEPT and any(tile[j] for j in g.tiles) for i in g.tiles}
    kept = [q for i, q in enumerate(quads) if (tile[i] or i in in_runs) and min(q.width, q.height) >= MIN_TILE_SIDE]
    if len(kept) == len(quads):
        return quads, layout
    return kept, group_tiles(kept)


def _with_finds(quads: list[TileQuad], more) -> list[TileQuad]:
    """The quads with a look along a box's finds (vision.detect.BoxFinds) added and the finds
    they replace taken out."""
    return [q for q in quads if not any(q is r for r in more.replaced)] + more.found


def _unreadable_finds(preds, quads: list[TileQuad], shape: tuple[int, ...]) -> str:
    """When the finds are too few for a hand, small for the photo and read as no tile
    (NO_TILES_FINDS, NO_TILES_SIZE, NO_TILES_CONFIDENCE), what the warning says of them; else ''."""
    if not preds or len(preds) >= NO_TILES_FINDS:
        return ""
    size = float(np.median([min(q.width, q.height) for q in quads])) / max(shape[:2])
    median = float(np.median([p.confidence for p in preds]))
    if size >= NO_TILES_SIZE or median >= NO_TILES_CONFIDENCE:
        return ""
    shapes = f"{len(preds)} shape{'s' if len(preds) > 1 else ''}"
    return f" ({shapes} like a tile, read with {median:.0%} confidence at their median, were taken for no tile)"


def _small_tiles(quads: list[TileQuad], codes: list[str]) -> list[str]:
    """A warning when the tiles are under TINY_TILE_PX wide, too small to read reliably, or when
    flowers or seasons were read from tiles under SMALL_TILE_PX wide: their marks are the first
    misread at that size.  A bigger photo is the cure either way."""
    if not quads:
        return []
    width = _median_width(quads)
    if width < TINY_TILE_PX:
        return [f"tiles are about {width:.0f} pixels wide in this photo, too small to read reliably (at least "
                f"{TINY_TILE_PX:.0f} are needed): send the photo at the camera's full resolution or taken closer"]
    if not any(c in BONUS for c in codes) or width >= SMALL_TILE_PX:
        return []
    return [f"tiles are about {width:.0f} pixels wide in this photo, small for the marks of flowers "
            "and seasons: check them, or send the photo at the camera's full resolution or taken closer"]


def _read_mended(classifier, seen: np.ndarray, scale: float, quads: list[TileQuad], placed,
                 layout, preds, blur, faces: list[TileQuad]):
    """(layout, predictions, the blur taken off or None): the tiles read again from the photo
    with its blur taken off (vision.deblur: a straight smear along the blur's direction, or a
    focus blur of either profile), the blur whose mended reading the classifier is surest of on
    the whole (its mean confidence).  Where both readings hold the same tiles, each tile keeps
    its mended reading when that is surer by more than MENDED_GAIN (a blank face gains nothing
    from the mending but ringing, which a suit tile's marks outweigh); else the whole mended
    reading is kept when its mean confidence is higher by more than MENDED_GAIN.  The blur is
    measured on the `faces` (a back has no ink)."""
    best = None
    for kernel in blur_kernels(seen, faces, blur):
        again_layout, again = _read(classifier, deblurred(seen, placed.quads, kernel), scale, quads, placed)
        if again and (best is None or _mean_confidence(again) > _mean_confidence(best[2])):
            best = kernel, again_layout, again
    if best is None:
        return layout, preds, None
    kernel, again_layout, again = best
    if len(again_layout.quads) == len(layout.quads) and all(
            np.array_equal(a.corners, b.corners) for a, b in zip(again_layout.quads, layout.quads)):
        surer = [b if float(b.confidence) > float(a.confidence) + MENDED_GAIN else a for a, b in zip(preds, again)]
        taken = any(s is b for s, b in zip(surer, again))
        return (layout, surer, kernel) if taken else (layout, preds, None)
    if _mean_confidence(again) <= _mean_confidence(preds) + MENDED_GAIN:
        return layout, preds, None
    return again_layout, again, kernel


def _mean_confidence(preds) -> float:
    return float(np.mean([float(p.confidence) for p in preds])) if preds else 0.0


def _blurred(blur, mended) -> list[str]:
    """A warning when the photo is blurred enough to misread tiles by (vision.sharpness): a
    moved or unfocused camera, which a second photo cures; it says so when a blur was taken
    off before the tiles were read (`mended`, vision.deblur)."""
    if not blurred(blur):
        return []
    how = (f"; the tiles were read with {mended.describe()} taken off, and may still be misread"
           if mended is not None else ", so tiles may be misread")
    # the blur taken off says which it was; else a smear spreads edges one way (the camera
    # moved), a focus blur every way alike, and in between either may be
    if mended is not None:
        cure = mended.cure
    elif blur.anisotropy >= FOCUS_ANISOTROPY:
        cure = Smear.cure
    elif blur.anisotropy < SMEAR_ANISOTROPY:
        cure = FocusBlur.cure
    else:
        cure = f"{Smear.cure} and {FocusBlur.cure}"
    return [f"the photo is blurred (the camera moved or was not focused: edges spread over {blur.of_tile:.0%} "
            f"of a tile's width){how}: check them, or take the photo again {cure}"]


def _classify(classifier, crops, quads, tiny: bool = False):
    """Classifiers that want the tile positions too (ground-truth stand-ins in tests and
    benchmarks) offer classify_quads; a real classifier sees only the crops.  The bundled
    classifier looks again at a photo's unsure crops within its PHOTO_LOOKS caps, and not at all
    when the tiles are `tiny` (under TINY_TILE_PX wide), where the looks (a dozen cuts more of
    nearly every crop) add nothing but time: a 400x300 table took 5 s."""
    if hasattr(classifier, "classify_quads"):
        return classifier.classify_quads(crops, quads)
    from models.classifier import NO_LOOKS, PHOTO_LOOKS, TileClassifier

    if isinstance(classifier, TileClassifier):
        return classifier.classify(crops, looks=NO_LOOKS if tiny else PHOTO_LOOKS)
    return classifier.classify(crops)


def _median_width(quads: list[TileQuad]) -> float:
    """The tiles' median shorter side, in pixels of the decoded photo (0 for none)."""
    return float(np.median([min(q.width, q.height) for q in quads])) if quads else 0.0


__all__ = ["Recognition", "RecognizedTile", "recognize", "find_tile_quads", "find_tiles", "ImageError"]

"""Where to look again after the tiles are grouped: the row of the one seat no tile was found
for when the three others were, and along the row of a seat found short of a hand (or of one
player's tiles alone).  A checked cloth or a busy surface can hide a far row's tiles from the
first look; vision.detect.find_tiles_in looks in these boxes.  Boxes are photo pixels
(x0, y0, x1, y1); the table's frame is vision.layout's (UP and RIGHT of each seat)."""

from __future__ import annotations

import numpy as np

from vision.layout import RIGHT, UP, TableLayout, rotate_points, quad_sizes

#: where a seat no tile was found for should lie, when the three others were found: its row
#: runs between the ends of its two neighbours' rows nearest it, from this many of their tile
#: widths inside those ends to this many beyond them (a far row lies past the side rows' ends;
#: under a steep tilt its tiles are a third narrower still)
MISSING_ROW_REACH = (2.0, 6.0)
#: and reaches this many tile widths past the neighbours' rows along its own line
MISSING_ROW_SIDE = 1.0
#: every seat holds 13 tiles or more; three "seats" found with fewer than this in any one are
#: taken for no table (a hust-riichi photo of no tiles: false finds in seats of 11, 2 and 1)
MISSING_SEAT_MIN_TILES = 8


def _seats_hold_hands(layout: TableLayout) -> bool:
    """Whether seats were found and each holds MISSING_SEAT_MIN_TILES (false finds in a photo of
    no tiles make "seats" of a few)."""
    return bool(layout.seats) and all(sum(len(g.tiles) for g in s.groups) >= MISSING_SEAT_MIN_TILES
                                      for s in layout.seats)


def _table_frame(layout: TableLayout) -> tuple[float, np.ndarray, np.ndarray]:
    """(rotation in radians, every tile's corners turned square to the photo's edges, their
    widths): the frame UP and RIGHT are meant in."""
    rot = np.radians(layout.rotation)
    corners = rotate_points(np.stack([q.corners for q in layout.quads]).astype(np.float64), -rot)
    return rot, corners, quad_sizes(corners)[0]


def _box_in_photo(points: np.ndarray, rot: float, image_shape: tuple, tile_w: float) -> list[int] | None:
    """The photo box (x0, y0, x1, y1) round points given in the table's frame, clipped to the
    photo; None when less than two tile widths of it lie inside either way."""
    box = rotate_points(points, rot)
    h, w = image_shape[:2]
    x0, y0 = np.clip(box.min(axis=0), 0, [w, h])
    x1, y1 = np.clip(box.max(axis=0), 0, [w, h])
    if x1 - x0 < 2 * tile_w or y1 - y0 < 2 * tile_w:
        return None
    return [int(x0), int(y0), int(np.ceil(x1)), int(np.ceil(y1))]


def missing_seat_box(layout: TableLayout, image_shape: tuple) -> tuple[list[int], float] | None:
    """The box (x0, y0, x1, y1, photo pixels) where the one seat missing from a layout of three
    should lie, and the width of its neighbours' tiles nearest it; None unless exactly one seat
    is missing and each seat found holds MISSING_SEAT_MIN_TILES, or when the box falls outside
    the photo.  A far seat whose tiles were specks at the detector's first look (a checked
    cloth hid them) is then looked for there (`vision.detect.find_tiles_in`)."""
    present = {s.position for s in layout.seats}
    if len(present) != 3 or not _seats_hold_hands(layout):
        return None
    missing = ({0, 1, 2, 3} - present).pop()
    rot, corners, widths = _table_frame(layout)
    centres = corners.mean(axis=1)
    out, along = -UP[missing], RIGHT[missing]  # towards the missing seat, along its row
    sides = [i for i, p in enumerate(layout.position) if p in ((missing + 1) % 4, (missing + 3) % 4)]
    if len(sides) < 2:
        return None
    reach = centres[sides] @ out
    nearest = np.argsort(-reach)[:4]  # the neighbours' tiles nearest the missing seat
    tile_w = float(np.median(widths[sides][nearest]))
    edge = float(np.max(reach))
    lo, hi = edge - MISSING_ROW_REACH[0] * tile_w, edge + MISSING_ROW_REACH[1] * tile_w
    span = centres[sides] @ along
    a0, a1 = float(span.min()) - MISSING_ROW_SIDE * tile_w, float(span.max()) + MISSING_ROW_SIDE * tile_w
    box = _box_in_photo(np.array([out * o + along * a for o in (lo, hi) for a in (a0, a1)]), rot,
                        image_shape, tile_w)
    return None if box is None else (box, tile_w)


#: a seat's row holds at least this many tiles (13, each kong's fourth besides, bonus tiles).
#: Looking along short seats' rows, held-out art in benchmarks/recognition.py's tables: 100 at
#: 4000x3000 seed 7, seat and group / scores right 95/93 -> 97/94 (tables 19 and 46 found
#: whole, table 6 46 -> 51 of 53 tiles), seed 31's table 34 52 -> 55 of 56, 2560x1920 97/97 ->
#: 98/97; the other sets and hust-riichi's 21 false finds unchanged (27 without the guard of
#: MISSING_SEAT_MIN_TILES: a photo of no tiles).  One player's tiles alone are looked along too
#: since the look's cloth test takes the faces' colours from the tiles already known
#: (vision.detect.find_tiles_in): before, along a lone seat's row on a checked cloth (seed
#: 2024's table 40 at 1600x1200) it found 118 squares; now that table's missed concealed kong,
#: 1600x1200 97/92 -> 98/93, every other set and hust-riichi unchanged.
FULL_SEAT = 13
#: a short seat's row is looked along this many tile widths past room for its missing tiles,
#: at each end (a missed set may lie a gap beyond the last tile found)
SHORT_ROW_EXTRA = 2.0
#: and this many tile widths across, beyond its tiles
SHORT_ROW_ACROSS = 1.0
#: one player's tiles alone are looked along even when they hold a hand, this many tile widths
#: past each end: flowers and seasons lie apart from the sets, and one that the first looks
#: missed (seed 2024's table 93 at 2560x1920: a lone f2 a tile's width past the sideways
#: winning tile, on a checked cloth) leaves the hand full and the row unlooked-along.  A short
#: row keeps its own reach (a wider box changes what the localiser sees: seed 11's 12 MP table
#: 15, a lone row of 12 found, lost a 6s to a box reaching four widths instead of three)
LONE_ROW_EXTRA = 4.0


def short_seat_boxes(layout: TableLayout, image_shape: tuple) -> list[tuple[list[int], float]]:
    """Boxes (x0, y0, x1, y1, photo pixels) along the row of each seat found with fewer than
    FULL_SEAT tiles or with a group of two apart from its run (no set has two tiles: a tile of
    it is missing, however many the seat holds, as when a winner with flowers is one short),
    when every seat found holds MISSING_SEAT_MIN_TILES (false finds in a photo of no tiles make
    no seats), and that seat's tile width; one player's tiles alone whatever they hold
    (LONE_ROW_EXTRA: a flower past the row's end).  A set
    the first look did not mark (a checked cloth hid it) lies in line with the seat's other
    tiles, past either end; `vision.detect.find_tiles_in` looks there."""
    if not _seats_hold_hands(layout):
        return []
    rot, corners, widths = _table_frame(layout)
    position = np.array(layout.position)
    boxes = []
    alone = len(layout.seats) == 1
    for seat in layout.seats:
        tiles = np.flatnonzero(position == seat.position)
        half_set = any(len(g.tiles) == 2 and not g.concealed for g in seat.groups)
        if len(tiles) >= FULL_SEAT and not alone and not half_set:
            continue
        tile_w = float(np.median(widths[tiles]))
        points = corners[tiles].reshape(-1, 2)
        along, up = points @ RIGHT[seat.position], points @ UP[seat.position]
        short = len(tiles) < FULL_SEAT or half_set
        room = (max(FULL_SEAT - len(tiles), 1) + SHORT_ROW_EXTRA if short else LONE_ROW_EXTRA) * tile_w
        a0, a1 = along.min() - room, along.max() + room
        u0, u1 = up.min() - SHORT_ROW_ACROSS * tile_w, up.max() + SHORT_ROW_ACROSS * tile_w
        box = _box_in_photo(np.array([RIGHT[seat.position] * a + UP[seat.position] * u
                                      for a in (a0, a1) for u in (u0, u1)]), rot, image_shape, tile_w)
        if box is not None:
            boxes.append((box, tile_w))
    return boxes

"""The annotated photo the service returns: drawn on the photo shrunk to display size, the tiles
where they lie in the original's pixels, from the photo vision decoded (not a second decode)."""

from __future__ import annotations

import base64

import cv2
import numpy as np
import pytest

from api.service import ANNOTATED_SIDE, annotated_data_url
from vision.recognize import recognize


def _decoded(url: str) -> np.ndarray:
    assert url.startswith("data:image/jpeg;base64,")
    return cv2.imdecode(np.frombuffer(base64.b64decode(url.split(",", 1)[1]), np.uint8), cv2.IMREAD_COLOR)


@pytest.mark.parametrize("shape, photo_scale, box, drawn", [
    ((3000, 4000), 1.0, [1000, 1000, 1500, 1500], (400, 400, 600, 600)),  # a 12 MP photo: shrunk 2.5 times
    ((1500, 2000), 2.0, [1000, 1000, 1500, 1500], (400, 400, 600, 600)),  # decoded at half size
    ((600, 800), 1.0, [100, 100, 300, 200], (100, 100, 300, 200)),  # small: drawn as it is
])
def test_tiles_are_drawn_where_they_lie_on_the_shrunk_photo(shape, photo_scale, box, drawn):
    photo = np.full(shape + (3,), 40, np.uint8)
    tile = {"box": box, "code": "5p", "seat": "S", "face_down": False}
    out = _decoded(annotated_data_url(photo, photo_scale, [tile]))
    k = min(1.0, ANNOTATED_SIDE / max(shape))
    assert out.shape[:2] == (round(shape[0] * k), round(shape[1] * k))
    x1, y1, x2, y2 = drawn
    bright = out.max(axis=2) > 100  # the outline on the dark photo
    # the outline's lower corner is there (the upper one carries the label, inside the box), and
    # the box's middle below the label is empty
    assert bright[y2 - 3:y2 + 4, x2 - 3:x2 + 4].any()
    assert bright[(y1 + y2) // 2 - 2:(y1 + y2) // 2 + 3, x2 - 3:x2 + 4].any()
    assert bright[y1 + 3:y1 + 10, x1 + 3:x1 + 10].any()
    assert not bright[y1 + 60:y2 - 20, x1 + 20:x2 - 20].any()
    assert not bright[y2 + 20:, :].any() and not bright[:, x2 + 20:].any()


def test_recognize_keeps_the_decoded_photo_only_when_asked(tmp_path):
    picture = np.full((900, 1200, 3), 90, np.uint8)
    cv2.rectangle(picture, (100, 100), (300, 200), (255, 255, 255), -1)
    ok, jpeg = cv2.imencode(".jpg", picture)
    assert recognize(jpeg.tobytes()).photo is None
    kept = recognize(jpeg.tobytes(), keep_photo=True)
    assert kept.photo.shape == (900, 1200, 3) and kept.photo_scale == 1.0
    assert abs(int(kept.photo[150, 200].mean()) - 255) < 8 and abs(int(kept.photo[500, 600].mean()) - 90) < 8


def test_each_label_fits_inside_its_tile_so_a_row_stays_readable():
    """A row of touching tiles 30 pixels wide on a 1600x1200 photo: each label (drawn at the
    photo's size over the box, before) was wider than its tile and hid the next tile's label and
    the row above.  Now each label lies inside its own box and is no wider than it."""
    from api.annotate import draw_recognition

    photo = np.full((1200, 1600, 3), 40, np.uint8)
    tiles = [{"box": [400 + 30 * k, 600, 430 + 30 * k, 642], "code": code, "seat": "E", "face_down": False}
             for k, code in enumerate(["3m", "5p", "7p", "4s", "6s", "7s", "2z"])]
    out = draw_recognition(photo, tiles)
    changed = (out != photo).any(axis=2)
    ys, xs = np.nonzero(changed)
    assert ys.min() >= 600 - 2 and ys.max() <= 642 + 2 and xs.min() >= 400 - 2 and xs.max() <= 610 + 2
    for tile in tiles:  # each tile's lower half shows the face, untouched but for the outline
        x1, y1, x2, y2 = tile["box"]
        assert not changed[y1 + 25:y2 - 2, x1 + 2:x2 - 2].any()

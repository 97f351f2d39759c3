"""Draw recognised tiles (or validation errors) on a photo, for people to check by eye."""

from __future__ import annotations

import cv2
import numpy as np

#: BGR outline colour per seat (colour-blind-safe Okabe-Ito hues), and for unseated tiles.
SEAT_COLOURS = {
    "E": (115, 158, 0),  # bluish green
    "S": (178, 114, 0),  # blue
    "W": (0, 159, 230),  # orange
    "N": (167, 121, 204),  # reddish purple
    None: (66, 228, 240),  # yellow
}
GOOD, WRONG, MISSED, EXTRA = (60, 180, 60), (0, 140, 255), (40, 40, 230), (200, 60, 200)


def _scale(image: np.ndarray) -> tuple[int, float]:
    side = max(image.shape[:2])
    thickness = max(1, round(side / 500))
    return thickness, max(0.4, side / 1400)


def _label(image: np.ndarray, text: str, x: int, y: int, colour, font_scale: float, thickness: int) -> None:
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
    y = max(th + base + 1, y)
    cv2.rectangle(image, (x, y - th - base - 2), (x + tw + 4, y), colour, -1)
    cv2.putText(image, text, (x + 2, y - base), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0),
                max(1, thickness // 2), cv2.LINE_AA)


#: a tile's label fills at most this share of its box's width, and of its height (the face
#: stays in view to check the label against)
LABEL_WIDTH, LABEL_HEIGHT = 0.95, 0.45
#: the smallest label drawn, whatever the tile's size (smaller is unreadable)
MIN_FONT_SCALE = 0.3


def _fitted_scale(text: str, box_w: float, box_h: float, most: float) -> float:
    """The font scale at which `text` fits in its tile's box (LABEL_WIDTH, LABEL_HEIGHT), at most
    `most` (the photo's own) and at least MIN_FONT_SCALE."""
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 1)
    fit = min(LABEL_WIDTH * box_w / max(tw + 4, 1), LABEL_HEIGHT * box_h / max(th + base + 2, 1))
    return float(np.clip(fit, MIN_FONT_SCALE, most))


def _label_inside(image: np.ndarray, text: str, x: int, y: int, colour, font_scale: float) -> None:
    """The label in the box's top-left corner, on the seat's colour."""
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, 1)
    cv2.rectangle(image, (x, y), (x + tw + 3, y + th + base + 2), colour, -1)
    cv2.putText(image, text, (x + 2, y + th + 1), cv2.FONT_HERSHEY_SIMPLEX, font_scale, (0, 0, 0), 1, cv2.LINE_AA)


def draw_recognition(image: np.ndarray, tiles: list[dict]) -> np.ndarray:
    """A copy of ``image`` with every tile outlined in its seat's colour and labelled with its
    code inside its box, sized to the tile: labels set over the boxes at the photo's own size
    were wider than the tiles and hid each other and the tiles of the row above."""
    out = image.copy()
    thickness, most = _scale(out)
    for tile in tiles:
        x1, y1, x2, y2 = (int(round(v)) for v in tile["box"])
        colour = SEAT_COLOURS.get(tile.get("seat"), SEAT_COLOURS[None])
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, max(1, thickness // 2))
        text = "back" if tile.get("face_down") and tile.get("code") == "back" else str(tile.get("code", "?"))
        _label_inside(out, text, x1, y1, colour, _fitted_scale(text, x2 - x1, y2 - y1, most))
    return out


def draw_errors(image: np.ndarray, truth: list[tuple], predicted: list[tuple], matches, missed, extra) -> np.ndarray:
    """Validation view: green = right, orange = wrong code ("read/true"), red = missed, purple = extra.

    ``truth`` and ``predicted`` are lists of (box, code); ``matches`` holds (truth index, predicted
    index) pairs; ``missed``/``extra`` the unmatched indices.
    """
    out = image.copy()
    thickness, font_scale = _scale(out)

    def box(b, colour, width):
        x1, y1, x2, y2 = (int(round(v)) for v in b)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, width)
        return x1, y1

    for ti, pi in matches:
        (_, tcode), (pbox, pcode) = truth[ti], predicted[pi]
        if tcode == pcode:
            box(pbox, GOOD, thickness)
        else:
            x, y = box(pbox, WRONG, thickness + 1)
            _label(out, f"{pcode}/{tcode}", x, y, WRONG, font_scale, thickness)
    for ti in missed:
        x, y = box(truth[ti][0], MISSED, thickness + 1)
        _label(out, f"miss {truth[ti][1]}", x, y, MISSED, font_scale, thickness)
    for pi in extra:  # named as the misses are, "extra 5z": a thin outline alone was easy to miss
        x, y = box(predicted[pi][0], EXTRA, thickness + 1)
        _label(out, f"extra {predicted[pi][1]}", x, y, EXTRA, font_scale, thickness)
    return out

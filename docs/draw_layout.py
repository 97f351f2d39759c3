"""Draw docs/layout.png: how a finished table is laid out for the camera (../shared/design/LAYOUT.md).

Usage:  python docs/draw_layout.py [OUT.png]

A top view with the camera seat (East) at the bottom edge and the other seats counter-clockwise:
South on the right, West at the top, North on the left.  Each seat shows a concealed run, exposed
sets apart from it by a gap, and the special cases the pipeline reads: a concealed kong with its
end tiles face down, a sideways winning tile, and flowers or seasons lying apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from datasets.render_tiles import random_style, render_tile  # noqa: E402
from scoring.tiles import parse_tiles  # noqa: E402

TILE_W, TILE_H = 36, 48
GAP = TILE_W // 2 + 4
SIZE = 900
FELT = (70, 110, 40)

# Per seat: groups left to right as the player sees them; "/" marks a sideways (winning) tile.
SEATS = {
    "E": ["123m456p78s99s", "/9s", "|", "555z", "|", "f1"],
    "S": ["234p567p11z", "|", "7777s", "|", "back88mback"],
    "W": ["345s678s22p", "|", "444m", "|", "111p"],
    "N": ["789m33z", "|", "666z", "|", "345p", "|", "back22zback"],
}
LABELS = {
    "E": "East (camera seat, bottom): concealed run, sideways winning tile, exposed pung, a flower",
    "S": "South (right): concealed run, exposed kong, concealed kong (ends face down)",
    "W": "West (top): concealed run, exposed pung, exposed pung",
    "N": "North (left): concealed run, exposed pung, exposed chow, concealed kong",
}
ROTATION = {"E": 0, "S": 90, "W": 180, "N": 270}  # counter-clockwise degrees of each seat's row


def _row(groups: list[str], rng: np.random.Generator, style) -> np.ndarray:
    """One seat's tiles as a horizontal strip, bottoms down, as the player sees them."""
    height = TILE_H + 12
    pieces: list[np.ndarray] = []
    for group in groups:
        if group == "|":
            pieces.append(np.full((height, GAP, 3), FELT, np.uint8))
            continue
        sideways = group.startswith("/")
        for code in parse_tiles(group.lstrip("/")):
            tile = render_tile(code, style, rng, size=(TILE_W, TILE_H))
            if sideways:
                tile = cv2.rotate(tile, cv2.ROTATE_90_COUNTERCLOCKWISE)
            cell = np.full((height, tile.shape[1] + 1, 3), FELT, np.uint8)
            top = height - tile.shape[0] - 6
            cell[top:top + tile.shape[0], :tile.shape[1]] = tile
            pieces.append(cell)
    return np.hstack(pieces)


def _label(table: np.ndarray, text: str, seat: str) -> None:
    """Write a seat's name in its margin, turned to face that player."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    (w, h), base = cv2.getTextSize(text, font, 0.8, 2)
    patch = table[:h + base + 8, :w + 8].copy() * 0 + np.array(FELT, np.uint8)
    cv2.putText(patch, text, (4, h + 4), font, 0.8, (255, 255, 255), 2, cv2.LINE_AA)
    for _ in range(ROTATION[seat] // 90):
        patch = cv2.rotate(patch, cv2.ROTATE_90_COUNTERCLOCKWISE)
    ph, pw = patch.shape[:2]
    y, x = {"E": (SIZE - ph - 12, (SIZE - pw) // 2), "W": (12, (SIZE - pw) // 2),
            "S": ((SIZE - ph) // 2, SIZE - pw - 12), "N": ((SIZE - ph) // 2, 12)}[seat]
    table[y:y + ph, x:x + pw] = patch


def draw(out: Path) -> None:
    rng = np.random.default_rng(3)
    style = random_style(rng)
    table = np.full((SIZE, SIZE, 3), FELT, np.uint8)
    for seat, groups in SEATS.items():
        strip = _row(groups, rng, style)
        turns = ROTATION[seat] // 90
        for _ in range(turns):  # each seat's bottoms face that player
            strip = cv2.rotate(strip, cv2.ROTATE_90_COUNTERCLOCKWISE)
        h, w = strip.shape[:2]
        margin = 62
        if seat == "E":
            y, x = SIZE - margin - h, (SIZE - w) // 2
        elif seat == "W":
            y, x = margin, (SIZE - w) // 2
        elif seat == "S":
            y, x = (SIZE - h) // 2, SIZE - margin - w
        else:
            y, x = (SIZE - h) // 2, margin
        table[y:y + h, x:x + w] = strip
    font = cv2.FONT_HERSHEY_SIMPLEX
    for seat in "ESWN":
        _label(table, {"E": "EAST (camera)", "S": "SOUTH", "W": "WEST", "N": "NORTH"}[seat], seat)
    legend = np.full((150, SIZE, 3), 255, np.uint8)
    for i, seat in enumerate("ESWN"):
        cv2.putText(legend, LABELS[seat], (12, 30 + 32 * i), font, 0.5, (30, 30, 30), 1, cv2.LINE_AA)
    image = np.vstack([table, legend])
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), image)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Draw README's picture of how a finished table is laid out.")
    parser.add_argument("out", nargs="?", type=Path, default=Path(__file__).resolve().parent / "layout.png",
                        help="the PNG to write (default: docs/layout.png)")
    draw(parser.parse_args().out)

"""A tile's reading and what a laid-out group of readings makes: a chow, pung or kong (face-down
tiles read as LAYOUT.md says), or sets laid with no gap between them.  Shared by the rules that
put misreadings right (vision.repairs) and the hands read off the table (vision.hands)."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.tiles import BACK, BONUS, format_tiles

#: predictions under this confidence are reported (and a set's odd tile read so is doubted)
LOW_CONFIDENCE = 0.6


@dataclass
class TileRead:
    """What the classifier said about one tile."""

    code: str
    confidence: float
    candidates: list[tuple[str, float]] = field(default_factory=list)  # best first
    bonus: list[tuple[str, float]] = field(default_factory=list)  # a flower's: all eight bonus classes


def meld_of(codes: list[str]) -> dict | None:
    """A chow, pung or kong from a laid-out group, reading face-down tiles as LAYOUT.md says
    (flowers and seasons make no set)."""
    if any(c in BONUS for c in codes):
        return None
    up = [c for c in codes if c != BACK]
    downs = [i for i, c in enumerate(codes) if c == BACK]
    if len(codes) == 4 and up and len(set(up)) == 1:
        if not downs:
            return {"kind": "kong", "tiles": format_tiles(up * 1), "exposed": True}
        return {"kind": "kong", "tiles": format_tiles([up[0]] * 4), "exposed": False}
    if len(codes) == 3 and downs == [1] and up[0] == up[1]:
        return {"kind": "pung", "tiles": format_tiles([up[0]] * 3), "exposed": False}
    if len(codes) == 3 and downs in ([0], [2], [0, 2]) and len(set(up)) == 1:
        # a face-down tile at an end is a concealed kong's (a concealed pung turns its middle
        # tile down): one of the kong's four tiles was not found
        return {"kind": "kong", "tiles": format_tiles([up[0]] * 4), "exposed": False}
    if len(codes) == 3 and not downs:
        if len(set(codes)) == 1:
            return {"kind": "pung", "tiles": format_tiles(codes), "exposed": True}
        tiles = sorted(codes, key=lambda t: (t[-1], t[0]))
        if (tiles[0][-1] in "mps" and len({t[-1] for t in tiles}) == 1
                and [int(t[0]) for t in tiles] == list(range(int(tiles[0][0]), int(tiles[0][0]) + 3))):
            return {"kind": "chow", "tiles": format_tiles(tiles), "exposed": True}
    return None


def sets_together(codes: list[str]) -> list[tuple[dict, tuple[int, int]]] | None:
    """Two to four sets laid with no gap between them (six to sixteen tiles apart from the
    concealed run that are no set themselves: found outlines a little big close the gaps):
    each set and its (start, end) in the group, or None.  The first way to cut the run into
    sets of three and four that all read as chows, pungs or kongs, shorter sets first."""

    def cut(start: int) -> list | None:
        if start == len(codes):
            return []
        for size in (3, 4):
            meld = meld_of(codes[start:start + size]) if start + size <= len(codes) else None
            rest = cut(start + size) if meld else None
            if rest is not None:
                return [(meld, (start, start + size))] + rest
        return None

    if not 6 <= len(codes) <= 16:
        return None
    return cut(0)

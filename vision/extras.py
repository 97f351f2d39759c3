"""Once the winner is known, a tile lying apart that a hand is full without is no tile of it.

vision.hands counts the tiles a seat laid apart from its concealed run and its sets that make no
set with the concealed tiles (group "apart"): a pair laid apart, a winning tile laid by itself.
It cannot tell who won, so it cannot tell a hand of 13 with a tile lying apart (a winner's 14)
from a loser's 13 and a find that is no tile of the hand: the corner of a tile rack behind the
row, read as a blank white dragon, or a coin.  Here the winner is known: a seat holding exactly
one tile more than its hand can (13, the winner 14, each kong counted as three) with exactly one
tile lying apart by itself has that tile taken out of its hand, with a warning naming it; a seat
that did not win and still holds 14 is named too (the engine scores a loser's tiles as they
are).  A winner who laid no tile sideways and named none, holding 14 with one tile lying by
itself, laid that tile apart to show it won.  Nothing here looks at points."""

from __future__ import annotations

from scoring.tiles import format_tiles, parse_tiles

from vision.hands import APART, SEAT_NAMES, TileWarning

#: the group label of a tile taken out of its seat's hand here
EXTRA = "extra"


def _held(hand: dict) -> int:
    """Tiles a case's hand holds, each kong counted as three (a hand holds 13, the winner 14)."""
    return len(parse_tiles(hand["concealed"])) + 3 * len(hand["melds"])


def winning_tile_laid_apart(recognition, seat: str, hand: dict) -> str | None:
    """The winning tile of a winner who named none and laid none sideways: the one face-up tile
    lying by itself apart from the sets when the hand holds 14 with it (a tile laid apart to
    show it won), with a warning added to the recognition; else None."""
    tiles = getattr(recognition, "tiles", None) or []
    apart = [i for i, t in enumerate(tiles) if t.seat == seat and t.group == APART and not t.face_down]
    held = len(parse_tiles(hand.get("concealed", ""))) + 3 * len(hand.get("melds", []))
    if len(apart) != 1 or held != 14:
        return None
    code = tiles[apart[0]].code
    name = SEAT_NAMES[seat]
    recognition.warnings.append(TileWarning(
        f"{name} won: the tile read as {code} lying by itself apart from the sets is taken as the "
        f"winning tile; if another tile won, say which (--winning-tile / the winning_tile field)", apart))
    return code


def drop_extra_tiles(recognition, case: dict) -> list[str]:
    """Take out of `case` (and the recognition's seats) each tile lying apart by itself that
    leaves its seat's hand full without it; returns the warnings added to the recognition.  Needs
    a Recognition (its tiles' groups), not its JSON."""
    tiles = getattr(recognition, "tiles", None)
    if not tiles:
        return []
    said: list[str] = []
    for hand in case["hands"]:
        seat, name = hand["seat"], SEAT_NAMES[hand["seat"]]
        full = 14 if hand["winner"] else 13
        held = _held(hand)
        apart = [i for i, t in enumerate(tiles) if t.seat == seat and t.group == APART and not t.face_down]
        codes = parse_tiles(hand["concealed"])
        lone = tiles[apart[0]] if len(apart) == 1 else None
        # a sideways tile, or the only copy of the winning tile, is the winner's to keep
        if (held == full + 1 and lone is not None and lone.code in codes and not lone.sideways
                and not (lone.code == hand.get("winning_tile") and codes.count(lone.code) == 1)):
            i = apart[0]
            code = tiles[i].code
            codes.remove(code)
            hand["concealed"] = format_tiles(codes, sort=True)
            if seat in getattr(recognition, "seats", {}):
                recognition.seats[seat]["concealed"] = hand["concealed"]
            tiles[i].group = EXTRA
            who = "the winner's" if hand["winner"] else "a hand that did not win"
            warning = TileWarning(
                f"{name}: a tile read as {code} lies by itself apart from the sets, and {name}'s hand is "
                f"full without it ({full} tiles, as {who} holds): it is not counted (a tile rack's "
                f"corner or a stray piece found as a tile?): check it", [i])
            _replace_apart_warning(recognition.warnings, i, warning)
            said.append(warning)
        elif not hand["winner"] and held == 14:
            warning = TileWarning(
                f"{name} did not win but holds 14 tiles (a hand that did not win holds 13, each kong "
                f"counted as three): a tile too many was read in {name}'s hand: check it",
                [i for i, t in enumerate(tiles) if t.seat == seat])
            recognition.warnings.append(warning)
            said.append(warning)
    return said


def _replace_apart_warning(warnings: list, tile: int, warning: str) -> None:
    """Put `warning` in place of vision.hands' warning that the tile lies apart and is counted
    with the concealed tiles (no longer true), or after the others when there is none."""
    for k, w in enumerate(warnings):
        if tuple(getattr(w, "tiles", ())) == (tile,) and "counted as concealed" in w:
            warnings[k] = warning
            return
    warnings.append(warning)

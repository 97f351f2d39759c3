"""Once the winner is known, a tile lying apart that a hand is full without is no tile of it.

vision.hands counts the tiles a seat laid apart from its concealed run and its sets that make no
set with the concealed tiles (group "apart"): a pair laid apart, a winning tile laid by itself.
It cannot tell who won, so it cannot tell a hand of 13 with a tile lying apart (a winner's 14)
from a loser's 13 and a find that is no tile of the hand: the corner of a tile rack behind the
row, read as a blank white dragon, or a coin.  Here the winner is known: a seat holding exactly
one tile more than its hand can (13, the winner 14, each kong counted as three) whose only tile
laid apart lies by itself, face up, has that tile taken out of its hand, with a warning in place
of the one that counted it.  Never taken out: a tile lying sideways, the only copy of the
winning tile, and a copy of one of the seat's pungs (a kong's fourth tile laid apart).  A seat
that did not win and still holds 14 is named (the engine scores a loser's tiles as they are).
A winner who laid no tile sideways and named none, holding 14 with a lone tile laid apart, laid
it apart to show it won: it is the winning tile.  So is a winner's lone tile that the hands'
reading took for a flower or season only because it lies where they lie, when the hand holds 13
without it.  All need a Recognition (its tiles' groups and readings), not its JSON, and change
it in place.  Each warning made here has its kind (TileWarning.kind): EXTRA for a tile taken out,
WINNING for a tile taken as the winning tile, COUNT for a seat that did not win holding 14.
Nothing here looks at points."""

from __future__ import annotations

from scoring.tiles import BACK, BONUS, format_tiles, parse_tiles

from vision.hands import APART, BONUS_APART, COUNT, SEAT_NAMES, TileWarning

#: the group label of a tile taken out of its seat's hand here, and the kind of the warning
#: about it (TileWarning.kind)
EXTRA = "extra"
#: the kind of the warning that a lone tile is taken as the winner's winning tile
WINNING = "winning"


def held_count(hand: dict) -> int:
    """Tiles a hand holds, each kong counted as three (a hand holds 13, the winner 14)."""
    return len(parse_tiles(hand.get("concealed", ""))) + 3 * len(hand.get("melds", []))


def lone_tile_apart(tiles: list, seat: str) -> int | None:
    """The index of the seat's only tile laid apart (group "apart"), when it is face up; None
    when the seat laid none apart, or more than one (a pair, a face-down tile beside it)."""
    apart = [i for i, t in enumerate(tiles) if t.seat == seat and t.group == APART]
    return apart[0] if len(apart) == 1 and not tiles[apart[0]].face_down else None


def winning_tile_laid_apart(recognition, seat: str, hand: dict) -> str | None:
    """The winning tile of a winner who named none and laid none sideways: the lone tile laid
    apart when the hand holds 14 with it (laid apart to show it won); the recognition's seat
    then names it, and a warning says so in place of the one that counted it apart.  None
    otherwise."""
    tiles = getattr(recognition, "tiles", None) or []
    i = lone_tile_apart(tiles, seat)
    if i is None or held_count(hand) != 14:
        return None
    code = tiles[i].code
    if seat in getattr(recognition, "seats", {}):
        recognition.seats[seat]["winning_tile"] = code
    name = SEAT_NAMES[seat]
    _in_place_of(recognition.warnings, APART, (i,), TileWarning(
        f"{name} won: the {code} lying by itself apart from the sets is taken as the winning tile; "
        f"if another tile won, say which (--winning-tile / the winning_tile field)", [i], WINNING))
    return code


def winning_tile_read_as_bonus(recognition, seat: str, hand: dict, named: str | None = None) -> str | None:
    """The winning tile of a winner holding 13 tiles who laid it by itself apart from the sets,
    where the hands' reading took it for a flower or season (vision.repairs.repair_lone_tiles: a
    tile lying where bonus tiles lie, read by the classifier as a suit or honour tile, is read as
    its likeliest bonus candidate).  The one such tile of the seat, read as `named` when the user
    named the winning tile, is given its classifier reading back and taken as the winning tile:
    in `hand` (the recognition's hand, changed in place), the recognition's tile and seat, and a
    warning in place of the one that took it for a bonus tile.  None when there is not exactly
    one such tile, or the hand does not hold 13 without it."""
    tiles = getattr(recognition, "tiles", None) or []
    taken = [i for i, t in enumerate(tiles)
             if t.seat == seat and t.group == "bonus" and t.code in BONUS and not t.sideways and t.candidates
             and t.candidates[0][0] not in BONUS and t.candidates[0][0] != BACK
             and named in (None, t.candidates[0][0])]
    if len(taken) != 1 or held_count(hand) != 13:
        return None
    i = taken[0]
    tile = tiles[i]
    was, (code, p) = tile.code, tile.candidates[0]
    bonus = parse_tiles(hand.get("bonus_tiles") or "")
    if was not in bonus:
        return None
    bonus.remove(was)
    changed = {"bonus_tiles": "".join(sorted(bonus)), "winning_tile": code,
               "concealed": format_tiles(parse_tiles(hand.get("concealed", "")) + [code], sort=True)}
    hand.update(changed)
    if seat in getattr(recognition, "seats", {}):
        recognition.seats[seat].update(changed)
    tile.code, tile.confidence, tile.group = code, float(p), APART
    name = SEAT_NAMES[seat]
    _in_place_of(recognition.warnings, BONUS_APART, (i,), TileWarning(
        f"{name} won holding 13 tiles without the tile laid apart from the sets: read as "
        f"{code} ({float(p):.0%}) and taken for {was} only because flowers and seasons lie apart, it is "
        f"taken as the winning tile {code}; if it is {was}, or another tile won, correct it", [i], WINNING))
    return code


def drop_extra_tiles(recognition, case: dict) -> list[str]:
    """Take out of `case` (and the recognition's seats) each lone tile laid apart that leaves
    its seat's hand full without it, and name a seat that did not win but holds 14; returns the
    warnings added to the recognition."""
    tiles = getattr(recognition, "tiles", None)
    if not tiles:
        return []
    said: list[str] = []
    for hand in case["hands"]:
        seat, name = hand["seat"], SEAT_NAMES[hand["seat"]]
        full = 14 if hand["winner"] else 13
        held = held_count(hand)
        i = lone_tile_apart(tiles, seat)
        codes = parse_tiles(hand["concealed"])
        if held == full + 1 and i is not None and _extra(tiles[i], hand, codes):
            code = tiles[i].code
            codes.remove(code)
            hand["concealed"] = format_tiles(codes, sort=True)
            if seat in getattr(recognition, "seats", {}):
                recognition.seats[seat]["concealed"] = hand["concealed"]
            tiles[i].group = EXTRA
            warning = TileWarning(
                f"{name}: the {code} lying by itself apart from the sets is not counted: {name}'s hand "
                f"has its {full} tiles without it (a tile rack's corner or a stray piece found as a "
                f"tile?): check it", [i], EXTRA)
            _in_place_of(recognition.warnings, APART, (i,), warning)
            # the count the hands' reading warned about (a warning about the seat's tiles) is right now
            recognition.warnings[:] = [w for w in recognition.warnings
                                       if not (getattr(w, "kind", "") == COUNT and i in getattr(w, "tiles", ()))]
            said.append(warning)
        elif not hand["winner"] and held == 14:
            warning = TileWarning(
                f"{name} did not win but holds 14 tiles (a hand that did not win holds 13, each kong "
                f"counted as three): a tile too many was read in {name}'s hand, or {name} won: check it",
                [k for k, t in enumerate(tiles) if t.seat == seat], COUNT)
            recognition.warnings.append(warning)
            said.append(warning)
    return said


def _extra(tile, hand: dict, codes: list[str]) -> bool:
    """Whether a lone tile laid apart may be taken out of its hand (`codes`: its concealed
    tiles): counted in it, not lying sideways (a winning tile laid out as one), not the only copy
    of the winning tile, and no copy of one of the hand's pungs (it may be that kong's fourth
    tile)."""
    pungs = {parse_tiles(m["tiles"])[0] for m in hand["melds"] if m.get("kind") == "pung"}
    return (tile.code in codes and not tile.sideways and tile.code not in pungs
            and not (tile.code == hand.get("winning_tile") and codes.count(tile.code) == 1))


def _in_place_of(warnings: list, kind: str, tiles: tuple[int, ...], warning: str) -> None:
    """Put `warning` in place of the hands' warning of that kind about exactly those tiles (no
    longer true), or after the others when there is none."""
    for k, w in enumerate(warnings):
        if getattr(w, "kind", "") == kind and tuple(getattr(w, "tiles", ())) == tiles:
            warnings[k] = warning
            return
    warnings.append(warning)

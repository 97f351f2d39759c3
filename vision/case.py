"""Turn a recognised table plus what the photo cannot show (ruleset, round wind, who won and
how) into one case in the vectors.json format, ready for scoring.score_table."""

from __future__ import annotations

from scoring.tiles import BACK, BONUS, TileError, parse_tiles

from vision.complete import complete_winner
from vision.extras import drop_extra_tiles, held_count, winning_tile_laid_apart, winning_tile_read_as_bonus
from vision.hands import SEAT_NAMES, SEATS

RULESETS = ("pung-chow", "pung-chow-limit", "classical")
WIN_BY = ("self-draw", "discard", "loose-tile", "robbing-kong", "original-hand")


class CaseError(ValueError):
    """The table cannot be made into a case: `code` for programs, `message` for people."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _held_or_none(hand) -> int | None:
    """The tiles a seat's hand holds (vision.extras.held_count), None when a recognition sent as
    JSON holds no readable hand there (the engine then says what is wrong with it)."""
    try:
        return held_count(hand)
    except (TileError, TypeError, AttributeError):
        return None


def check_winning_tile(text: str) -> str:
    """The winning tile as given (5p), or CaseError (unknown-tile) naming what is wrong with it:
    no tile, more than one, a flower or season (set aside and replaced, never won on) or a back.
    A caller may check it before the photo is read (mjscore photo)."""
    try:
        codes = parse_tiles(text)
        if len(codes) != 1:
            raise TileError(f"{text!r} is not one tile")
    except TileError as exc:
        raise CaseError("unknown-tile", f"the winning tile {text!r} is not a tile: {exc} "
                                        "(write it as 5p, 1z or 7z)") from None
    if codes[0] in BONUS or codes[0] == BACK:
        what = "a flower or season" if codes[0] in BONUS else "a face-down tile"
        raise CaseError("unknown-tile", f"the winning tile cannot be {what}, got {text!r} (write it as 5p, 1z or 7z)")
    return text


def _winner(seats: dict, context: dict) -> str:
    """The winning seat: the one named, else the one whose winning tile lies sideways, else the
    only seat when one player's tiles alone are in the photo (unless they are 13: a hand that
    did not win); CaseError saying what to give otherwise."""
    winner = context.get("winner")
    if winner:
        if winner not in SEATS:
            raise CaseError("invalid-seat", f"winner {winner!r} is not one of E, S, W, N")
        if winner not in seats:
            name = SEAT_NAMES[winner]
            alone = ""
            if len(seats) == 1:  # one player's tiles alone are the camera seat's
                only = SEAT_NAMES[next(iter(seats))]
                alone = (f": the photo shows {only}'s tiles alone; if they are {name}'s, say that the "
                         f"camera seat is {winner} (--camera-seat {winner} / the camera_seat field)")
            raise CaseError("winner-not-in-photo",
                            f"{name} is named as the winner but no tiles of {name} were found in the photo{alone}")
        return winner
    turned = [s for s, h in seats.items() if h.get("winning_tile")]
    if len(turned) == 1:
        return turned[0]
    if len(seats) == 1:
        only = next(iter(seats))
        if not context.get("winning_tile") and _held_or_none(seats[only]) == 13:
            name = SEAT_NAMES[only]
            raise CaseError("no-winner", f"{name}'s tiles alone are in the photo, and they are 13, a hand that "
                                         f"did not win (a winner holds 14, each kong counted as three): say who "
                                         f"won (--winner / the winner field) and photograph the whole table; if "
                                         f"{name} won, a tile of the hand was not found")
        return only
    if len(turned) > 1:
        raise CaseError("multiple-winners", "more than one seat shows a sideways winning tile ("
                        + ", ".join(SEAT_NAMES[s] for s in turned) + "); say who won")
    raise CaseError("no-winner", "no sideways winning tile in the photo: say who won "
                                 "(--winner / the winner field)")


def build_case(recognition, context: dict | None = None) -> dict:
    """A vectors.json case from a Recognition (or its to_json() dict) and the user's context:
    ruleset, camera_seat, round_wind, winner, win_by, winning_tile, flags, params.  From a
    Recognition, a tile lying apart that its seat's hand is full without is taken out of it,
    and a winner's lone tile taken for a flower or season is its winning tile when the hand holds
    13 without it (vision.extras), and a winner's hand that reads as no winning hand is mended from the
    tiles' candidates where one or two other readings make it one (vision.complete); each with
    a warning.  These change the Recognition in place (its tiles, seats and warnings): build a
    case from a Recognition once."""
    context = dict(context or {})
    data = recognition.to_json() if hasattr(recognition, "to_json") else dict(recognition)
    seats = data.get("seats") or {}
    if not seats:
        raise CaseError("no-tiles", "no tiles were recognised in the photo, so there is no hand "
                                    "to score")
    if not isinstance(seats, dict) or any(seat not in SEATS for seat in seats):
        raise CaseError("invalid-seat", "the recognition's seats must be E, S, W and N, got "
                                        + (", ".join(map(repr, seats)) if isinstance(seats, dict) else repr(seats)))
    ruleset = context.get("ruleset") or "pung-chow"
    if ruleset not in RULESETS:
        raise CaseError("invalid-ruleset", f"ruleset {ruleset!r} is not one of {', '.join(RULESETS)}")
    winner = _winner(seats, context)
    win_by = context.get("win_by") or "discard"
    if win_by not in WIN_BY:
        raise CaseError("invalid-win-by", f"win_by {win_by!r} is not one of {', '.join(WIN_BY)}")
    round_wind = context.get("round_wind")
    if ruleset == "pung-chow":
        round_wind = None  # Part I has no wind of the round
    elif not round_wind:
        round_wind = "E"
    elif round_wind not in SEATS:
        raise CaseError("invalid-seat", f"round wind {round_wind!r} is not one of E, S, W, N")
    flags = list(dict.fromkeys(context.get("flags") or []))  # a flag said twice is said once
    hands = []
    for seat in SEATS:
        if seat not in seats:
            continue
        h = seats[seat]
        is_winner = seat == winner
        winning = None
        if is_winner and win_by == "original-hand":
            if context.get("winning_tile"):  # checked as anywhere else, then not used
                check_winning_tile(context["winning_tile"])
            winning = None  # dealt a complete hand: no tile won it (the table format's null)
        elif is_winner:
            named = context.get("winning_tile")
            if named:  # as the engine reads it (9M, " 9m ": 9m), to be found among the tiles read
                named = parse_tiles(check_winning_tile(named))[0]
            if not h.get("winning_tile"):  # none laid sideways: one laid apart, taken for a flower?
                winning_tile_read_as_bonus(recognition, seat, h, named)
            winning = named or h.get("winning_tile") or winning_tile_laid_apart(recognition, seat, h)
            if not winning:
                raise CaseError("no-winning-tile",
                                f"which tile won {SEAT_NAMES[seat]} the hand? Lay it sideways at the "
                                f"end of the concealed tiles or give it (--winning-tile / the winning_tile field)")
            check_winning_tile(winning)
        hands.append({
            "seat": seat,
            "winner": is_winner,
            "concealed": h.get("concealed", ""),
            "melds": [dict(m) for m in h.get("melds", [])],
            "winning_tile": winning,
            "win_by": win_by if is_winner else None,
            "flags": flags if is_winner else [],
            "bonus_tiles": h.get("bonus_tiles", ""),
        })
    case = {"id": data.get("image", "photo"), "ruleset": ruleset, "seat_wind": winner,
            "round_wind": round_wind, "hands": hands}
    if context.get("params"):
        case["params"] = dict(context["params"])
    drop_extra_tiles(recognition, case)
    complete_winner(recognition, case)
    return case

"""``mjscore photo``: recognise a table photo, then print the hands, scores and payments."""

from __future__ import annotations

import argparse
import json
import sys

from scoring.case import RULESETS, WIN_BY, WIN_FLAGS, WIN_FLAGS_SAID, ScoringError, check_ruleset_flags
from scoring.house import MJ_BONUSES, house_params
from vision.case import CaseError, build_case, check_winning_tile
from vision.io import ImageError

SEATS = ["E", "S", "W", "N"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", metavar="IMAGE", help="photo of the finished table: JPEG, PNG, WebP or BMP (HEIC with the heic extra; other formats Pillow reads, GIF or TIFF, are read too)")
    parser.add_argument("--camera-seat", default="E", choices=SEATS,
                        help="the wind sitting at the photo's bottom edge, or whose tiles alone the photo "
                             "shows, whichever way it is turned (default E)")
    parser.add_argument("--round", dest="round_wind", default=None, choices=SEATS,
                        help="wind of the round (pung-chow-limit and classical; default E)")
    parser.add_argument("--winner", default=None, choices=SEATS,
                        help="who won (default: the seat whose winning tile lies sideways, or the one "
                             "player's when one player's tiles alone are in the photo, unless they hold 13)")
    parser.add_argument("--win-by", default="discard", choices=WIN_BY,
                        help="how the winner won (default discard)")
    parser.add_argument("--winning-tile", default=None,
                        help="the tile that completed the hand, if it is not laid sideways or by itself apart "
                             "from the sets (e.g. 5p)")
    parser.add_argument("--flag", dest="flags", action="append", default=[], choices=WIN_FLAGS, metavar="FLAG",
                        help=f"a winner's flag, repeatable: {', '.join(WIN_FLAGS)}; each ruleset scores its own "
                             f"({WIN_FLAGS_SAID}) and refuses another (a wash or a false Mah-Jongg, which no one "
                             "won, is scored by `mjscore score` with the case's kind)")
    parser.add_argument("--ruleset", default="pung-chow", choices=RULESETS,
                        help="pung-chow (Harr's Part I, the default), pung-chow-limit (Part II) or classical")
    parser.add_argument("--limit", type=int, default=None, metavar="POINTS",
                        help="the most a hand scores: pung-chow-limit 300 (400 with --mj-bonus 20), 0 for the "
                             "book's game with no limit; classical 1000")
    parser.add_argument("--mj-bonus", type=int, default=None, choices=MJ_BONUSES,
                        help="pung-chow-limit's Mah-Jongg bonus (default 10)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def run(args: argparse.Namespace) -> int:
    from scoring import score_table
    from vision.cli_recognize import summary
    from vision.recognize import recognize

    try:  # settings the ruleset cannot take, and a winning tile that is none, are refused before the photo is read
        params = house_params(args.ruleset, args.limit, args.mj_bonus)
        check_ruleset_flags(args.ruleset, args.flags)
        if args.winning_tile:
            check_winning_tile(args.winning_tile)
        rec = recognize(args.image, camera_seat=args.camera_seat, name=args.image)
    except (ScoringError, CaseError, ImageError) as exc:
        if args.json:
            print(json.dumps({"image": args.image, "error": {"code": exc.code, "message": exc.message}}))
        else:
            print(f"error: {exc.message}", file=sys.stderr)
        return 2
    context = {"ruleset": args.ruleset, "camera_seat": args.camera_seat, "round_wind": args.round_wind,
               "winner": args.winner, "win_by": args.win_by, "winning_tile": args.winning_tile,
               "flags": args.flags, "params": params}
    try:
        case = build_case(rec, context)
    except CaseError as exc:
        if args.json:
            print(json.dumps({"recognition": rec.to_json(), "error": {"code": exc.code, "message": exc.message}}))
        else:
            print(summary(rec))
            print(f"error: {exc.message}", file=sys.stderr)
        return 2
    result = score_table(case)
    if args.json:
        print(json.dumps({"recognition": rec.to_json(), "case": case, "result": result}))
        return 1 if "error" in result else 0
    print(summary(rec))
    if "error" in result:
        err = result["error"]
        print(f"cannot score: {err.get('message', err) if isinstance(err, dict) else err}", file=sys.stderr)
        return 1
    try:
        from scoring.explain import explain

        print(explain(case))
    except Exception:  # noqa: BLE001 - the sheet is a nicety; the JSON result is the answer
        print(json.dumps(result, indent=1))
    return 0

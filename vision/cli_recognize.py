"""``mjscore recognize``: find and read the tiles in photos; one JSON object per image per line."""

from __future__ import annotations

import argparse
import json
import sys

from vision.io import ImageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo(s): JPEG, PNG, WebP or BMP (HEIC with the heic extra; other formats Pillow reads, GIF or TIFF, are read too)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per image per line (the default prints a summary)")
    parser.add_argument("--camera-seat", default="E", choices=["E", "S", "W", "N"],
                        help="the wind sitting at the photo's bottom edge (default E)")


def summary(rec) -> str:
    lines = [f"{rec.image}: {len(rec.tiles)} tiles"]
    for seat, hand in rec.seats.items():
        melds = " ".join(("[" + m["tiles"] + ("]" if m["exposed"] else " concealed]")) for m in hand["melds"])
        extra = f"  bonus {hand['bonus_tiles']}" if hand["bonus_tiles"] else ""
        win = f"  won on {hand['winning_tile']}" if hand["winning_tile"] else ""
        lines.append(f"  {seat}: {hand['concealed'] or '-'} {melds}{extra}{win}".rstrip())
    lines += [f"  warning: {w}" for w in rec.warnings]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from vision.recognize import recognize

    status = 0
    for path in args.images:
        try:
            # named as given, as its errors are: two folders may each hold an IMG_0001.jpg
            rec = recognize(path, camera_seat=args.camera_seat, name=path)
        except ImageError as exc:
            status = 1
            if args.json:  # a JSON line like any image's, on stdout
                print(json.dumps({"image": path, "error": {"code": exc.code, "message": exc.message}}), flush=True)
            else:  # the message names the file as given, or it is named first
                named = exc.message if path in exc.message else f"{path}: {exc.message}"
                print(f"error: {named}", file=sys.stderr, flush=True)
            continue
        print(json.dumps(rec.to_json()) if args.json else summary(rec), flush=True)
    return status

"""The ``mjscore`` command line.  Each subcommand lives with the package that does the work and
is imported only when it is the one asked for, so ``mjscore score`` never loads OpenCV or
onnxruntime (``mjscore --help`` lists the subcommands without importing any)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from api import __version__ as VERSION

#: each subcommand's examples, shown under its --help
EXAMPLES = {
    "score": "examples:\n  mjscore score tests/data/vectors.json\n  mjscore score --explain my-table.json\n"
             "  echo '{\"ruleset\": \"pung-chow\", \"seat_wind\": \"S\", \"hands\": [{\"seat\": \"S\", "
             "\"winner\": true, \"concealed\": \"123678s222p99m\", \"melds\": [{\"kind\": \"chow\", "
             "\"tiles\": \"345m\"}], \"winning_tile\": \"2p\", \"win_by\": \"discard\"}]}' | mjscore score",
    "game": "examples:\n  mjscore game tests/data/example_game.json\n  mjscore game --json my-game.json > totals.json",
    "recognize": "examples:\n  mjscore recognize api/static/example.jpg\n"
                 "  mjscore recognize --json --camera-seat S my-photos/*.jpg > readings.jsonl\n"
                 "exit status: 0 every photo read, 1 one or more could not be (each said on stderr, or as an\n"
                 "  error line with --json)",
    "photo": "examples:\n  mjscore photo api/static/example.jpg --winner W\n"
             "  mjscore photo my-table.jpg --ruleset pung-chow-limit --winner S --winning-tile 5p --win-by self-draw\n"
             "  mjscore photo my-hand.jpg --camera-seat S --winner S    # one player's tiles alone: South's\n"
             "exit status: 0 scored, 1 the rules refuse the table as read (correct it and use mjscore score),\n"
             "  2 the photo or the options make no table (said on stderr, or as JSON with --json)",
    "validate": "examples:\n  python -m datasets.synth_table /tmp/tables --count 5 && mjscore validate /tmp/tables -o /tmp/report\n"
                "  mjscore validate my-labelled-set.zip --limit 20",
    "serve": "examples:\n  mjscore serve\n  mjscore serve --host 0.0.0.0 --port 9000\n"
             "  mjscore serve --root-path /mahjong    # behind a web server at https://example.org/mahjong/",
}

def whole_number(least: int, most: int | None = None):
    """An argparse type for the subcommands: a whole number from `least` (to `most`), refused
    as a usage error otherwise (validate's --limit -1 once cut the set from its end; serve's
    --port 99999 ended in a traceback from bind())."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is under {least}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"{value} is over {most}")
        return value
    return parse


# name -> (module, help); each module offers add_arguments(parser) and run(args) -> int
SUBCOMMANDS = {
    "score": ("scoring.cli", "score one case or a JSON list of cases (vectors.json format)"),
    "game": ("scoring.cli_game", "play a game out from its hands: totals by player, East's rotation, who sits where "
                                 "next"),
    "recognize": ("vision.cli_recognize", "recognize the tiles in photos and print a summary of each "
                                          "(one JSON line a photo with --json)"),
    "photo": ("vision.cli_photo", "recognize a table photo and print hands, scores and payments"),
    "validate": ("api.validate_cli", "validate a labelled photo set and write a report"),
    "serve": ("api.serve_cli", "serve the web page and the HTTP API"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `command`, that subcommand's module (and only it) is imported to add its
    options; without, none is (the names and their help are all `mjscore --help` needs)."""
    parser = argparse.ArgumentParser(
        prog="mjscore",
        description="Turn a photo of a finished mahjong table into scores and payments.",
    )
    parser.add_argument("--version", action="version", version=f"mjscore {VERSION}")
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = subs.add_parser(name, help=help_text, description=help_text, epilog=EXAMPLES.get(name),
                              formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(_module=module_name)
        if name != command:  # (mjscore --help needs the names alone: a broken subcommand stops none)
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:  # a broken install: say what is missing, not "unrecognized arguments"
            parser.exit(2, f"mjscore {name} cannot start: {exc}\n(reinstall: pip install -e .)\n")
        module.add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    command = next((w for w in words if not w.startswith("-")), "")
    parser = build_parser(command if command in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except BrokenPipeError:  # the reader went away (mjscore score ... | head): no traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())

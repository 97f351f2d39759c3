"""The ``mjscore`` command line.  Each subcommand lives with the package that does the work and
is imported only when it is the one asked for, so ``mjscore score`` never loads OpenCV or
onnxruntime (``mjscore --help`` lists the subcommands without importing any)."""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, help); each module offers add_arguments(parser) and run(args) -> int
SUBCOMMANDS = {
    "score": ("scoring.cli", "score one case or a JSON list of cases (vectors.json format)"),
    "recognize": ("vision.cli_recognize", "recognize the tiles in photos and print a summary of each "
                                          "(one JSON line a photo with --json)"),
    "photo": ("vision.cli_photo", "recognize a table photo and print hands, scores and payments"),
    "validate": ("api.validate_cli", "validate a labelled photo set and write a report"),
    "serve": ("api.serve_cli", "serve the web page and the HTTP API"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `command`, only that subcommand's module is imported to add its options
    (every one's without)."""
    parser = argparse.ArgumentParser(
        prog="mjscore",
        description="Turn a photo of a finished mahjong table into scores and payments.",
    )
    subs = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = subs.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module_name)
        if command is not None and name != command:
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        module.add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    command = next((w for w in words if not w.startswith("-")), "")
    parser = build_parser(command)
    args = parser.parse_args(argv)
    module = importlib.import_module(args._module)
    return int(module.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

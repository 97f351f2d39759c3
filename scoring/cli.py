"""``mjscore score``: score cases in the vectors.json format from a file or standard input."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .engine import score_table
from .explain import explain


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        default="-",
        help="JSON file with one table or a list of tables (docs/case-format.md; rulesets: "
             "pung-chow, pung-chow-limit, classical); '-' or nothing reads stdin",
    )
    parser.add_argument("--explain", action="store_true", help="print a score sheet per case instead of JSON")
    parser.add_argument("--indent", type=int, default=None, help="indent the JSON output")
    parser.description = ("score a table or a JSON list of tables; prints each result as JSON (exit status 1 "
                          "when any table is refused: its error stands in its place)")


#: the most a JSON input may hold (the web service's body limit): /dev/zero is refused, not read
MAX_INPUT_BYTES = 20 * 1024 * 1024


def read_json(path: str):
    """The JSON in the file (or standard input for '-'), at most MAX_INPUT_BYTES of it."""
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)  # (a test's StringIO has no bytes under it)
        data = stdin.read(MAX_INPUT_BYTES + 1) if stdin is not None else sys.stdin.read(MAX_INPUT_BYTES + 1).encode()
    else:
        with open(path, "rb") as source:
            data = source.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(f"{'standard input' if path == '-' else path} holds more than {MAX_INPUT_BYTES // 1024 // 1024} MB "
                      "of JSON; split it into several files")
    return json.loads(data.decode("utf-8-sig"))  # (a BOM, as Windows Notepad writes one, is no error)


def _why_unreadable(path: str, err: OSError) -> str:
    """Why the file could not be read, in words naming it as given (not `[Errno 2] ...`)."""
    if isinstance(err, FileNotFoundError):
        return f"{path} does not exist"
    if isinstance(err, IsADirectoryError):
        return f"{path} is a folder, not a JSON file"
    if isinstance(err, PermissionError):
        return f"{path} cannot be read (permission denied)"
    return f"{path}: {err.strerror}" if err.strerror else str(err)


def report_error(code: str, message: str, as_json: bool) -> None:
    """An error as the command's output is read: a JSON error line on stdout where the output is
    JSON (a program reads it in the result's place), else words on stderr, as `recognize` and
    `photo` say theirs."""
    if as_json:
        print(json.dumps({"error": {"code": code, "message": message}}))
    else:
        print(f"error: {message}", file=sys.stderr)


def read_input(path: str, as_json: bool = True) -> tuple[Any, int]:
    """(the JSON read, 0), or (None, 2) once the reason it could not be read is said
    (`report_error`)."""
    try:
        return read_json(path), 0
    except OSError as err:
        report_error("unreadable-input", _why_unreadable(path, err), as_json)
    except (ValueError, RecursionError) as err:  # bad JSON or UTF-8, nesting past the reader's depth,
        # or a number of thousands of digits (Python's limit on int conversion)
        why = "nested too deeply" if isinstance(err, RecursionError) else str(err)
        report_error("invalid-json", f"not valid JSON: {why}", as_json)
    return None, 2


def run(args: argparse.Namespace) -> int:
    data, status = read_input(args.file, as_json=not args.explain)
    if status:
        return status
    cases = data if isinstance(data, list) else [data]
    results = [score_table(c) for c in cases]
    if args.explain:
        print("\n\n".join(explain(c) for c in cases))
    else:
        print(json.dumps(results if isinstance(data, list) else results[0], indent=args.indent))
    # 1 when any table was refused (its error is in its place), as a linter exits
    return int(any("error" in r for r in results))

"""``mjscore serve``: the web page and the HTTP API under uvicorn (``api.app:app``)."""

from __future__ import annotations

import argparse

from api.cli import whole_number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=whole_number(0, 65535), default=8000, help="port, 0-65535 (default: %(default)s)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.add_argument("--root-path", default="", metavar="PATH",
                        help="the path prefix a web server in front serves mjscore under, e.g. /mahjong "
                             "(the page and its /docs then link under it; default: none)")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    root = args.root_path.rstrip("/")
    if root and not root.startswith("/"):
        raise SystemExit(f"mjscore serve: --root-path must start with '/', got {args.root_path!r}")
    uvicorn.run("api.app:app", host=args.host, port=args.port, log_level=args.log_level, root_path=root)
    return 0

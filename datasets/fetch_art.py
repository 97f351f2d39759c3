"""Install the Debian packages that hold tile art, fetch the art kept in PyPI source
distributions (`datasets.pypi_art`), and draw contact sheets to check mappings.

    python -m datasets.fetch_art            # apt-get install what is missing (needs root)
    python -m datasets.fetch_art --sheets   # also write datasets/cache/sheets/<style>.png

The art stays in the packages' own folders (GPL and similar: never committed); the sheets are
for looking at, in the gitignored cache.  Missing packages are not fatal: training then uses
the procedural renderer and whatever styles are present, and says so.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np

from datasets import pypi_art, tile_art
from scoring.tiles import CLASSES

#: CJK fonts for the procedural renderer (package, a file it installs): brush (kai) and fangsong
#: faces vary the numerals and the flower/season characters the way hand-painted sets do.
FONT_PACKAGES = {
    "fonts-noto-cjk": "/usr/share/fonts/opentype/noto",
    "fonts-arphic-ukai": "/usr/share/fonts/truetype/arphic/ukai.ttc",
    "fonts-cwtex-kai": "/usr/share/fonts/truetype/cwtex/cwkai.ttf",
    "fonts-cwtex-fs": "/usr/share/fonts/truetype/cwtex/cwfs.ttf",
    "fonts-lxgw-wenkai": "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf",
    "fonts-arphic-bkai00mp": "/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf",
    "fonts-cns11643-kai": "/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf",
    "fonts-aoyagi-soseki": "/usr/share/fonts/truetype/aoyagi-soseki/aoyagi-soseki.ttf",
    "fonts-kouzan-mouhitsu": "/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf",
    "fonts-klee": "/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf",
    "fonts-seto": "/usr/share/fonts/truetype/seto/setofont.ttf",
}
#: Debian package -> a file of its art (the PyPI art is fetched by `datasets.pypi_art`)
ART_PACKAGES = {pkg: path for path, pkg in tile_art.SOURCES.values() if not pkg.startswith("pypi:")}


def missing_packages() -> list[str]:
    """Debian packages to install."""
    missing = [pkg for pkg, path in ART_PACKAGES.items() if not os.path.exists(path)]
    missing += [pkg for pkg, path in FONT_PACKAGES.items() if not Path(path).exists()]
    return sorted(set(missing))


def install(packages: list[str]) -> bool:
    if not packages:
        return True
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *packages]
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        print("tile art packages missing; install them with:\n  sudo " + " ".join(cmd))
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print("installing the tile art packages:", " ".join(packages), flush=True)
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
    return subprocess.run(cmd, check=False, env=env).returncode == 0


def write_sheets(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for style in tile_art.available_styles():
        tiles = []
        for code in CLASSES:
            face = tile_art.load_face(style, code)
            tile = np.zeros((64, 48, 3), np.uint8) if face is None else cv2.resize(face, (48, 64))
            cv2.putText(tile, code, (1, 62), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 255), 1)
            tiles.append(tile)
        rows = [np.concatenate((tiles[i:i + 9] + [np.zeros_like(tiles[0])] * 9)[:9], 1) for i in range(0, 43, 9)]
        cv2.imwrite(str(out / f"{style}.png"), np.concatenate(rows, 0))
        print("wrote", out / f"{style}.png")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Install the Debian packages that hold tile art (apt-get, needs "
                                             "root) and fetch the art kept in PyPI source distributions, "
                                             "then name the art styles available.")
    ap.add_argument("--sheets", action="store_true",
                    help="also draw a contact sheet of each style's 43 tiles, with their codes, into "
                         "datasets/cache/sheets/<style>.png, to check the mappings by eye")
    ap.add_argument("--no-install", action="store_true",
                    help="install and fetch nothing: only name the styles already available")
    args = ap.parse_args(argv)
    missing = missing_packages()
    if missing and not args.no_install:
        install(missing)
    if pypi_art.missing() and not args.no_install:
        pypi_art.fetch()
    print("art styles available:", ", ".join(tile_art.available_styles()) or "none (procedural only)")
    if args.sheets:
        write_sheets(Path(__file__).resolve().parent / "cache" / "sheets")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

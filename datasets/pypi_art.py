"""Tile art shipped inside packages on PyPI, fetched at build time into the gitignored cache.

Two packages carry tile faces under licences that allow training on them, and neither is
installed: only one file is taken from each source distribution, and nothing is imported.

* `shisensho` 0.9.12 (Apache-2.0): `shisensho/data/tilescolor3.png`, a 9 x 5 sheet of
  outlined Chinese tiles whose flowers and seasons are a small character over a plant drawing;
* `mjx` 0.1.0 (its font: free for any use): `mjx/visualizer/GL-MahjongTile.ttf`, a font of the
  Unicode Mahjong Tiles block in black line art.

`fetch()` runs `pip download` (the build machine's registry, never at run time) and extracts the
file; `path(style)` says where it lands.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

CACHE = Path(__file__).resolve().parent / "cache" / "art" / "pypi"

#: style -> (pip requirement, file inside the source distribution's top folder, local file name)
FILES = {
    "shisensho": ("shisensho==0.9.12", "shisensho/data/tilescolor3.png", "shisensho-tilescolor3.png"),
    "unicode-glmahjongtile": ("mjx==0.1.0", "mjx/visualizer/GL-MahjongTile.ttf", "GL-MahjongTile.ttf"),
}


def path(style: str) -> str:
    return str(CACHE / FILES[style][2])


def missing() -> list[str]:
    return [style for style in FILES if not Path(path(style)).exists()]


def fetch(styles: list[str] | None = None) -> list[str]:
    """Download each style's source distribution and extract its one file; returns the styles
    that failed (no network, or the file is not where it was)."""
    failed = []
    CACHE.mkdir(parents=True, exist_ok=True)
    for style in styles if styles is not None else missing():
        requirement, member, name = FILES[style]
        project = requirement.split("==")[0]
        with tempfile.TemporaryDirectory() as tmp:
            # the source distribution (the file is in it); its build tools may come as wheels
            try:
                done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary",
                                       project, "--quiet", "-d", tmp, requirement], capture_output=True,
                                      text=True, timeout=600)
            except subprocess.TimeoutExpired:
                done = subprocess.CompletedProcess([], 1, "", "pip download took over 10 minutes")
            archives = list(Path(tmp).glob("*.tar.gz"))
            if done.returncode != 0 or len(archives) != 1:
                print(f"could not download {requirement}: {done.stderr.strip()[-300:]}")
                failed.append(style)
                continue
            with tarfile.open(archives[0]) as tar:
                top = archives[0].name.removesuffix(".tar.gz")
                try:
                    data = tar.extractfile(f"{top}/{member}")
                except KeyError:
                    data = None
                if data is None:
                    print(f"{requirement} holds no {member}")
                    failed.append(style)
                    continue
                (CACHE / name).write_bytes(data.read())
    return failed

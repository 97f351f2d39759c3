"""Unpack an uploaded zip of a labelled set without letting it escape or explode.

Refused: entry names that are absolute, contain ``..`` or a drive letter, symlinks, more than
``MAX_ZIP_ENTRIES`` entries, more than ``MAX_ZIP_TOTAL_BYTES`` uncompressed, an entry whose
compression ratio marks a zip bomb, and encrypted entries.  The sizes a zip declares are checked
first and the bytes actually written are counted again, since headers can lie.
"""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from api.errors import ApiError
from api.limits import MAX_ZIP_ENTRIES, MAX_ZIP_RATIO, MAX_ZIP_TOTAL_BYTES, MiB

_CHUNK = 1 << 16


def _bad(message: str) -> ApiError:
    return ApiError(400, "unsafe-zip", message)


def safe_member_path(name: str) -> PurePosixPath | None:
    """The relative path an entry may be written to, None for a folder entry; ApiError if unsafe."""
    cleaned = name.replace("\\", "/")
    if cleaned.endswith("/"):
        return None
    path = PurePosixPath(cleaned)
    if cleaned.startswith("/") or (len(cleaned) > 1 and cleaned[1] == ":"):
        raise _bad(f"the zip entry {name!r} has an absolute path")
    if any(part == ".." for part in path.parts):
        raise _bad(f"the zip entry {name!r} points outside its folder (..)")
    if any(ord(ch) < 32 for ch in cleaned):
        raise _bad(f"the zip entry {name!r} has control characters in its name")
    parts = [p for p in path.parts if p not in ("", ".")]
    if not parts:
        return None
    return PurePosixPath(*parts)


def set_name(filename: str | None) -> str:
    """A folder name for an uploaded zip's set, from the name it was sent under ("my-set.zip"),
    so that messages about the set name what the user sent; "upload" when there is none."""
    stem = PurePosixPath((filename or "").replace("\\", "/")).name
    stem = stem[:-4] if stem.lower().endswith(".zip") else stem
    stem = "".join(ch if ch.isalnum() or ch in "-_. " else "_" for ch in stem).strip(" .")[:80]
    return stem or "upload"


def extract_zip(source: BinaryIO | str | Path, dest: Path) -> list[Path]:
    """Extract into ``dest`` (an empty folder, made if missing); returns the files written."""
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise ApiError(400, "bad-zip", "the upload is not a readable zip archive")
    dest.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ZIP_ENTRIES:
            raise _bad(f"the zip has {len(infos)} entries; at most {MAX_ZIP_ENTRIES} are allowed")
        declared = sum(info.file_size for info in infos)
        if declared > MAX_ZIP_TOTAL_BYTES:
            raise _bad(
                f"the zip unpacks to {declared // MiB} MB; at most {MAX_ZIP_TOTAL_BYTES // MiB} MB allowed"
            )
        plan = []
        seen = set()
        for info in infos:
            rel = safe_member_path(info.filename)
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise _bad(f"the zip entry {info.filename!r} is a symbolic link")
            if rel is None or info.is_dir():
                continue
            if info.flag_bits & 0x1:
                raise _bad(f"the zip entry {info.filename!r} is encrypted")
            if info.compress_size and info.file_size / info.compress_size > MAX_ZIP_RATIO:
                raise _bad(f"the zip entry {info.filename!r} expands {info.file_size // info.compress_size}x: a zip bomb?")
            key = str(rel).lower()
            if key in seen:
                raise _bad(f"the zip holds {info.filename!r} twice")
            seen.add(key)
            plan.append((info, rel))

        root = dest.resolve()
        total = 0
        for info, rel in plan:
            target = (root / rel).resolve()
            if root not in target.parents:
                raise _bad(f"the zip entry {info.filename!r} points outside its folder")
            target.parent.mkdir(parents=True, exist_ok=True)
            size = 0
            try:
                with archive.open(info) as src, open(target, "wb") as out:
                    while chunk := src.read(_CHUNK):
                        size += len(chunk)
                        total += len(chunk)
                        if size > info.file_size or total > MAX_ZIP_TOTAL_BYTES:
                            raise _bad(f"the zip entry {info.filename!r} is larger than it declares")
                        out.write(chunk)
            except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError, RuntimeError) as exc:
                raise ApiError(400, "bad-zip", f"the zip entry {info.filename!r} cannot be read ({exc})")
            written.append(target)
    return written

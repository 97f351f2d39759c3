"""Unpack an uploaded zip of a labelled set without letting it escape or explode.

Refused: entry names that are absolute, contain ``..`` or a drive letter, symlinks, more than
``MAX_ZIP_ENTRIES`` entries, more than ``MAX_ZIP_TOTAL_BYTES`` uncompressed, an entry whose
compression ratio marks a zip bomb, and encrypted entries; also names no file system can hold
(a folder or file name over ``MAX_ZIP_NAME_BYTES``, a path over ``MAX_ZIP_PATH_BYTES`` or more than
``MAX_ZIP_DEPTH`` folders deep) and a path that is both a file and a folder.  The sizes a zip
declares are checked first and the bytes actually written are counted again, since headers can
lie.  Messages name entries by their path in the zip, never by where they are unpacked.
"""

from __future__ import annotations

import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from api.errors import ApiError
from api.limits import MAX_ZIP_ENTRIES, MAX_ZIP_RATIO, MAX_ZIP_TOTAL_BYTES, MiB

_CHUNK = 1 << 16
#: longest folder or file name in an entry's path, in bytes (the file systems' own limit)
MAX_ZIP_NAME_BYTES = 255
#: longest entry path, in bytes: well inside the file systems' 4096 with the scratch folder before it
MAX_ZIP_PATH_BYTES = 1024
#: most folders an entry may lie in: a set needs a few, and perhaps a chain of wrapping folders
#: (labelsets.MAX_WRAPPING_FOLDERS) above them
MAX_ZIP_DEPTH = 32


def _bad(message: str) -> ApiError:
    return ApiError(400, "unsafe-zip", message)


class ZipTooBig(ApiError):
    """A zip over the size limits (entries, bytes unpacked) that is otherwise fine: the command
    line may unpack it itself and read the folder."""

    def __init__(self, message: str):
        super().__init__(400, "unsafe-zip", message)


def _shown(name: str) -> str:
    """An entry's name as messages quote it: cut to 60 characters, so that a name thousands of
    characters long does not swamp the message."""
    return repr(name if len(name) <= 60 else name[:60] + "...")


#: what reading an entry may raise: zipfile's own errors (their words name the problem), and
#: what a damaged or cut-short archive makes it raise from below (a negative seek, bad deflate data)
_UNREADABLE = (zipfile.BadZipFile, NotImplementedError, RuntimeError, EOFError, OSError, ValueError, zlib.error)


def _why_unreadable(exc: BaseException) -> str:
    """Why an entry cannot be read, in words: zipfile's own message ("Bad CRC-32 for file ..."),
    or, for an error from below it, what it means."""
    if isinstance(exc, (zipfile.BadZipFile, NotImplementedError, RuntimeError)) and str(exc):
        return str(exc)
    return "the archive is damaged or cut short"


def _why_unwritable(exc: OSError) -> str:
    """Why an entry cannot be written, without the scratch folder's path (an OSError's text
    names the file where it was to be unpacked)."""
    return exc.strerror or type(exc).__name__


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
    _check_writable(name, parts)
    return PurePosixPath(*parts)


def _check_writable(name: str, parts: list[str]) -> None:
    """ApiError when no file system can hold the entry's path: too deep, or a name too long
    (unpacking it would fail half way, with the file system's own words)."""
    if len(parts) - 1 > MAX_ZIP_DEPTH:
        raise _bad(f"the zip entry {_shown(name)} lies {len(parts) - 1} folders deep; "
                   f"at most {MAX_ZIP_DEPTH} are allowed")
    if any(len(part.encode("utf-8", "surrogatepass")) > MAX_ZIP_NAME_BYTES for part in parts):
        raise _bad(f"the zip entry {_shown(name)} has a folder or file name longer than {MAX_ZIP_NAME_BYTES} bytes")
    if len("/".join(parts).encode("utf-8", "surrogatepass")) > MAX_ZIP_PATH_BYTES:
        raise _bad(f"the zip entry {_shown(name)} has a path longer than {MAX_ZIP_PATH_BYTES} bytes")


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
            raise ZipTooBig(f"the zip has {len(infos)} entries; at most {MAX_ZIP_ENTRIES} are allowed")
        declared = sum(info.file_size for info in infos)
        if declared > MAX_ZIP_TOTAL_BYTES:
            raise ZipTooBig(f"the zip unpacks to {declared // MiB} MB; at most {MAX_ZIP_TOTAL_BYTES // MiB} MB allowed")
        plan = _plan(infos)
        root = dest.resolve()
        total = 0
        for info, rel in plan:
            target = _open_target(root, rel, info.filename)
            total += _copy_entry(archive, info, target, total)
            written.append(target)
    return written


def _plan(infos: list[zipfile.ZipInfo]) -> list[tuple[zipfile.ZipInfo, PurePosixPath]]:
    """The files to write and where, every entry checked before a byte is written."""
    plan = []
    seen: dict[str, tuple[str, str]] = {}  # a path as a file system may fold its capitals -> (entry's name, path)
    for info in infos:
        rel = safe_member_path(info.filename)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise _bad(f"the zip entry {_shown(info.filename)} is a symbolic link")
        if rel is None or info.is_dir():
            continue
        if info.flag_bits & 0x1:
            raise _bad(f"the zip entry {_shown(info.filename)} is encrypted")
        if info.compress_size and info.file_size / info.compress_size > MAX_ZIP_RATIO:
            raise _bad(f"the zip entry {_shown(info.filename)} expands {info.file_size // info.compress_size}x: "
                       "a zip bomb?")
        key = str(rel).lower()
        if key in seen:
            first, path = seen[key]
            if path == str(rel):  # one path, named the same or spelt another way ("./", a backslash)
                spelt = "" if first == info.filename else f" (as {_shown(first)} and {_shown(info.filename)})"
                raise _bad(f"the zip holds {_shown(str(rel))} twice{spelt}")
            # two photos whose names differ only in capitals: many file systems hold one of them
            raise _bad(f"the zip holds {_shown(first)} and {_shown(info.filename)}, names that differ only in "
                       "capitals: rename one of them")
        seen[key] = (info.filename, str(rel))
        plan.append((info, rel))
    _check_files_are_not_folders([rel for _, rel in plan])
    return plan


def _check_files_are_not_folders(paths: list[PurePosixPath]) -> None:
    """ApiError when one path is both a file and a folder of other files ("x" and "x/y"): a
    file system holds only one of them."""
    files = {str(rel).lower(): rel for rel in paths}
    for rel in paths:
        for parent in rel.parents:
            if str(parent).lower() in files:
                raise _bad(f"the zip holds {_shown(str(files[str(parent).lower()]))} both as a file and as the folder "
                           f"of {_shown(str(rel))}")


def _open_target(root: Path, rel: PurePosixPath, name: str) -> Path:
    """The path ``rel`` is written to inside ``root``, its folders made; ApiError when it would
    lie outside or the file system refuses it."""
    try:
        target = (root / rel).resolve()
        if root not in target.parents:
            raise _bad(f"the zip entry {_shown(name)} points outside its folder")
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _bad(f"the zip entry {_shown(name)} cannot be unpacked ({_why_unwritable(exc)})")
    return target


def _copy_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, total: int) -> int:
    """Write one entry to ``target``, counting the bytes as they come (``total``: those of the
    entries before it); returns its size.  ApiError when it is larger than it declares, would pass
    the zip's limit, or cannot be read (a damaged or cut-short archive)."""
    size = 0
    try:
        out = open(target, "wb")
    except OSError as exc:
        raise _bad(f"the zip entry {_shown(info.filename)} cannot be unpacked ({_why_unwritable(exc)})")
    with out:
        for chunk in _chunks(archive, info):
            size += len(chunk)
            if size > info.file_size or total + size > MAX_ZIP_TOTAL_BYTES:
                raise _bad(f"the zip entry {_shown(info.filename)} is larger than it declares")
            try:
                out.write(chunk)
            except OSError as exc:
                raise _bad(f"the zip entry {_shown(info.filename)} cannot be unpacked ({_why_unwritable(exc)})")
    return size


def _chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo):
    """The bytes of one entry, a chunk at a time; ApiError (bad-zip) naming it when they cannot
    be read."""
    try:
        with archive.open(info) as src:
            while chunk := src.read(_CHUNK):
                yield chunk
    except _UNREADABLE as exc:
        raise ApiError(400, "bad-zip", f"the zip entry {_shown(info.filename)} cannot be read ({_why_unreadable(exc)})")

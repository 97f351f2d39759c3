"""Read a labelled photo set in any of three formats into one shape.

* ours (hust-riichi style): ``labels/*.json`` = ``{"image", "width", "height", "tiles": [{"box":
  [x1, y1, x2, y2], "code"}]}`` with the photos in ``images/``;
* YOLO: ``data.yaml`` (class names) and ``labels/*.txt`` (``class cx cy w h``, normalised) beside
  ``images/`` folders, as Roboflow and Ultralytics export them (also in train/valid/test splits);
* COCO: a JSON file with ``images``, ``annotations`` (``bbox`` = ``[x, y, w, h]``) and
  ``categories``, e.g. Roboflow's ``_annotations.coco.json`` in each split folder.

Class names of YOLO and COCO sets are mapped to our tile codes by :func:`tile_code_for_name`,
which understands the usual naming schemes (``1man``/``1pin``/``1sou``/``east``/``haku``,
``bamboo_1``/``dots_1``/``characters_1``, ``1B``/``1C``/``1D``, ``red_dragon``, ``flower_1``,
``spring`` ...).  Boxes of classes that cannot be mapped are left out and reported in
``LabelSet.warnings``.

The work one upload can ask for is bounded: a photo's label file is read up to
``MAX_LABEL_FILE_BYTES`` and ``MAX_BOXES_PER_IMAGE`` boxes (beyond them the photo is skipped with a
warning), and a data.yaml up to ``MAX_YAML_BYTES`` and ``MAX_CLASSES`` classes (beyond them the set
is refused).  Messages name files by their path in the set, never by where it lies on the machine.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from PIL import Image

from scoring.tiles import BACK, BONUS, KINDS

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".heic", ".heif"}  # HEIC read with pillow-heif
_VALID_CODES = set(KINDS) | set(BONUS) | {BACK}

_MiB = 1 << 20
#: most boxes read for one photo: a real table photo has at most a few hundred tiles, and pairing
#: the labelled boxes with the predicted ones costs their product
MAX_BOXES_PER_IMAGE = 1000
#: largest label file of one photo (our JSON or a YOLO txt) read; 1,000 boxes need well under 1 MB
MAX_LABEL_FILE_BYTES = 8 * _MiB
#: largest data.yaml read, and most classes it may name (a tile set has about 40; every class
#: index up to the highest one given is mapped)
MAX_YAML_BYTES = _MiB
MAX_CLASSES = 5000


class LabelSetError(ValueError):
    """The folder is not a labelled set we can read, or a label file is malformed."""


class TooManyImages(LabelSetError):
    """The set lists more images than the caller reads at once (`load_labelset`'s max_images)."""

    def __init__(self, count: int, limit: int):
        super().__init__(f"the set lists at least {count} images; at most {limit} are read at once")
        self.count, self.limit = count, limit


@dataclass
class LabelledTile:
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels
    code: str


@dataclass
class LabelledImage:
    name: str  # path relative to the set's root, '/'-separated
    path: Path
    width: int
    height: int
    tiles: list[LabelledTile] = field(default_factory=list)


@dataclass
class LabelSet:
    root: Path
    format: str  # "json", "yolo" or "coco"
    images: list[LabelledImage]
    warnings: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- class names

_SUIT_WORDS = {
    "m": {"m", "man", "manzu", "wan", "wanzi", "character", "characters", "char", "chars", "crak",
          "craks", "crack", "cracks", "c", "k"},
    "p": {"p", "pin", "pinzu", "dot", "dots", "circle", "circles", "coin", "coins", "tong",
          "tongzi", "ball", "balls", "d"},
    "s": {"s", "sou", "souzu", "bamboo", "bamboos", "bam", "bams", "bamb", "stick", "sticks",
          "tiao", "tiaozi", "suo", "b"},
    "z": {"z", "honor", "honour", "ji"},
}
_WINDS = {
    "1z": {"east", "ton", "dong", "ew", "e"},
    "2z": {"south", "nan", "sw"},
    "3z": {"west", "sha", "xi", "ww", "w"},
    "4z": {"north", "pei", "bei", "nw", "n"},
}
_DRAGONS = {
    "5z": {"haku", "white", "bai", "baiban", "blank", "wd", "frame"},
    "6z": {"hatsu", "green", "fa", "facai", "gd"},
    "7z": {"chun", "red", "zhong", "hongzhong", "rd"},
}
_FLOWER_NAMES = {"plum": "f1", "orchid": "f2", "chrysanthemum": "f3", "mum": "f3"}
_SEASON_NAMES = {"spring": "f5", "summer": "f6", "autumn": "f7", "fall": "f7", "winter": "f8"}
_BACK_WORDS = {"back", "backs", "facedown", "hidden", "blind", "tileback"}


def _tokens(name: str) -> list[str]:
    return re.findall(r"[a-z]+|\d+", name.lower())


def _number(digits: str) -> int:
    """A run of digits as a number; one of more than six digits (no tile's) as 10**6, since a
    class name may hold any number of digits and Python refuses to convert more than 4300."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 6 else 10**6


def _shown(text: str, quote: bool = False) -> str:
    """A name from the set as messages show it: cut to 60 characters, and quoted (repr) when
    asked or when it holds characters that do not print (a NUL byte, a newline)."""
    cut = text if len(text) <= 60 else text[:60] + "..."
    return repr(cut) if quote or not cut.isprintable() else cut


def tile_code_for_name(name: str) -> str | None:
    """Our code for a dataset's class name, or None when the name does not say which tile."""
    raw = name.strip().lower()
    if raw in _VALID_CODES:
        return raw
    tokens = _tokens(raw)
    if not tokens:
        return None
    words = [t for t in tokens if not t.isdigit()]
    numbers = [_number(t) for t in tokens if t.isdigit()]
    wordset = set(words)
    joined = "".join(words)

    if wordset & _BACK_WORDS or joined in _BACK_WORDS:
        return BACK
    if wordset & {"flower", "flowers", "season", "seasons"} or wordset & set(_FLOWER_NAMES) or wordset & set(
        _SEASON_NAMES
    ):
        for word in words:
            if word in _SEASON_NAMES:
                return _SEASON_NAMES[word]
            if word in _FLOWER_NAMES:
                return _FLOWER_NAMES[word]
        if wordset & {"flower", "flowers"} and "bamboo" in wordset and not numbers:
            return "f4"
        if len(numbers) == 1 and 1 <= numbers[0] <= 4:
            return f"f{numbers[0] + (4 if wordset & {'season', 'seasons'} else 0)}"
        return None

    # Honours by name: winds and dragons ("east", "wind_east", "red_dragon", "dragon-green").
    if not numbers or wordset & {"wind", "winds", "dragon", "dragons"}:
        for code, names in {**_WINDS, **_DRAGONS}.items():
            if wordset & names or joined in names or joined.replace("wind", "").replace("dragon", "") in names:
                return code
        if len(numbers) == 1 and wordset & {"wind", "winds"} and 1 <= numbers[0] <= 4:
            return f"{numbers[0]}z"
        if len(numbers) == 1 and wordset & {"dragon", "dragons"} and 1 <= numbers[0] <= 3:
            return f"{numbers[0] + 4}z"

    # Numbered suits: "1man", "bamboo_1", "dots-3", "m1", "5mr" / "red5man" / "0m" (red fives).
    if len(numbers) == 1:
        n = numbers[0]
        suit_words = [w for w in words if w not in {"red", "aka", "r"}]
        suits = {s for w in suit_words for s, names in _SUIT_WORDS.items() if w in names}
        if len(suits) != 1:
            # e.g. "1mr": one run of letters holding suit + red marker
            suits = {s for w in suit_words for s, names in _SUIT_WORDS.items() if w.rstrip("r") in names}
        if len(suits) == 1:
            suit = suits.pop()
            if n == 0 and suit != "z":
                n = 5  # red five written as 0
            if suit == "z" and 1 <= n <= 7:
                return f"{n}z"
            if suit != "z" and 1 <= n <= 9:
                return f"{n}{suit}"
    return None


# --------------------------------------------------------------------------- YAML names

def read_yaml_names(path: Path) -> list[str]:
    """The ``names`` of a YOLO data.yaml, in class-index order (flow list, block list or mapping).

    A small reader for this one field, so the service needs no YAML library.  LabelSetError when
    the file cannot be read, is larger than ``MAX_YAML_BYTES`` or names more than ``MAX_CLASSES``.
    """
    names = _yaml_names(path, _yaml_text(path))
    if len(names) > MAX_CLASSES:
        raise LabelSetError(f"{path.name} names {len(names)} classes; at most {MAX_CLASSES} are allowed")
    return names


def _yaml_text(path: Path) -> str:
    """The text of a data.yaml; LabelSetError naming it when it cannot be read or is too large."""
    try:
        size = path.stat().st_size
        if size > MAX_YAML_BYTES:
            raise LabelSetError(f"{path.name} is {size // 1024} KB; a data.yaml may hold at most "
                                f"{MAX_YAML_BYTES // 1024} KB")
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise LabelSetError(f"{path.name} cannot be read ({_reason(exc, path)})") from None


def _yaml_names(path: Path, text: str) -> list[str]:
    """The ``names`` field of a data.yaml's text (see read_yaml_names)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"^names\s*:\s*(.*)$", line)
        if not match:
            continue
        rest = match.group(1).split(" #")[0].strip()
        if rest.startswith("["):
            chunk = rest
            j = i
            while "]" not in chunk and j + 1 < len(lines):
                j += 1
                chunk += " " + lines[j].strip()
            inner = chunk[1 : chunk.index("]")] if "]" in chunk else chunk[1:]
            return [_unquote(item) for item in _split_flow(inner) if item.strip()]
        if rest.startswith("{"):
            inner = rest.strip("{}")
            pairs = [p.split(":", 1) for p in _split_flow(inner) if ":" in p]
            return _names_from_pairs([(k, v) for k, v in pairs], path)
        if rest:
            raise LabelSetError(f"{path.name}: cannot read 'names: {rest}'")
        items: list[str] = []
        pairs: list[tuple[str, str]] = []
        for follow in lines[i + 1 :]:
            if not follow.strip() or follow.strip().startswith("#"):
                continue
            if not follow[:1].isspace() and not follow.startswith("-"):
                break
            body = follow.strip()
            if body.startswith("- "):
                items.append(_unquote(body[2:]))
            elif body == "-":
                items.append("")
            elif ":" in body:
                pairs.append(tuple(body.split(":", 1)))  # type: ignore[arg-type]
            else:
                break
        if items:
            return items
        if pairs:
            return _names_from_pairs(pairs, path)
    raise LabelSetError(f"{path.name} has no 'names' list of classes")


def _split_flow(inner: str) -> list[str]:
    out, current, quote = [], "", None
    for ch in inner:
        if quote:
            current += ch
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            current += ch
        elif ch == ",":
            out.append(current)
            current = ""
        else:
            current += ch
    out.append(current)
    return out


def _unquote(text: str) -> str:
    text = text.split(" #")[0].strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _names_from_pairs(pairs: list[tuple[str, str]], path: Path) -> list[str]:
    """Names given as ``index: name``, in index order ("" for an index not given)."""
    indexed = {_class_index(key, path): _unquote(value) for key, value in pairs}
    if not indexed:
        return []
    return [indexed.get(i, "") for i in range(max(indexed) + 1)]


def _class_index(key: str, path: Path) -> int:
    """A class index of a data.yaml's names; LabelSetError naming it and the file when it is not
    a number from 0 to MAX_CLASSES - 1 (every index up to the highest one is mapped, so one huge
    index would cost memory and time in proportion)."""
    text = key.strip().strip("'\"")
    if not re.fullmatch(r"[+-]?\d+", text):
        raise LabelSetError(f"{path.name} names: class index {_shown(text, quote=True)} is not a number")
    if len(text.lstrip("+-0")) > 6 or not 0 <= int(text) < MAX_CLASSES:
        raise LabelSetError(f"{path.name} names: class index {_shown(text)} is out of range: a set may have at most "
                            f"{MAX_CLASSES} classes, indexed 0 to {MAX_CLASSES - 1}")
    return int(text)


# --------------------------------------------------------------------------- readers

#: EXIF orientations that store a photo turned a quarter: its upright width is its stored height
_QUARTER_TURNED = (5, 6, 7, 8)


def _image_size(path: Path) -> tuple[int, int]:
    """The photo's upright size (width, height), as the recogniser sees it: a photo stored turned
    a quarter with an EXIF orientation has its stored width and height swapped."""
    try:
        with Image.open(path) as image:
            w, h = image.size
            return (h, w) if image.getexif().get(0x0112) in _QUARTER_TURNED else (w, h)
    except Exception as exc:  # noqa: BLE001 - any unreadable image is reported the same way
        raise LabelSetError(f"{path.name}: not a readable image ({_reason(exc, path)})")


def _reason(exc: BaseException, path: Path) -> str:
    """Why ``path`` could not be read, in words that do not give away where the set lies on the
    machine (an OSError's or Pillow's text holds the whole path): the file by its name alone."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return (str(exc) or type(exc).__name__).replace(str(path), path.name)


def _relname(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _all_images(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


def _inside(root: Path, path: Path) -> bool:
    """Whether path, links and '..' resolved, lies in the set's folder: a label may not name a
    file elsewhere on the machine (the report draws the images it reads).  False for a path no
    file can have (a NUL byte, a name too long)."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError, ValueError):
        return False


def _is_file(path: Path) -> bool:
    """Whether path is a file; False, not an error, for a path no file can have (a NUL byte,
    a name too long), since a label may name anything."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _check_image_name(name: str) -> None:
    """_Skip when a label's image name holds a control character (a NUL byte, a newline): no
    file in a set is called that."""
    if any(ord(ch) < 32 for ch in name):
        raise _Skip("a name with control characters names no file")


def _labelled_image(root: Path, candidates: list[Path], width, height) -> tuple[Path, int, int, tuple | None]:
    """(path, width, height, stated) of the image a label names: the first candidate that is a
    file inside the set's folder, and its upright size from the file (from the label when the
    file's header cannot be read: the photo's own error is then reported when it is read).
    `stated`: the label's (width, height) when it gives another size, else None: its boxes are in
    that size's pixels.  _Skip when there is no such file, or when a label that gives no size
    names an image that cannot be read."""
    path = next((c for c in candidates if _inside(root, c) and _is_file(c)), None)
    if path is None:
        raise _Skip("outside the set's folder" if any(_is_file(c) for c in candidates) else "not found")
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        width, height = _readable_size(path)
        return path, width, height, None
    try:
        actual = _image_size(path)
    except LabelSetError:
        return path, width, height, None
    return path, actual[0], actual[1], None if actual == (width, height) else (width, height)


def _scaled_box(box, stated: tuple | None, width: int, height: int):
    """A label's box in the photo's pixels: scaled from the size the label `stated` for its photo
    (None: already in them) to the photo's (width, height)."""
    if stated is None:
        return box
    try:
        x1, y1, x2, y2 = (float(v) for v in box)
    except (TypeError, ValueError, OverflowError):
        return box  # _clip_box says what is wrong with it
    sx, sy = width / stated[0], height / stated[1]
    return (x1 * sx, y1 * sy, x2 * sx, y2 * sy)


def _size_warning(where: str, stated: tuple, width: int, height: int) -> str:
    """The warning for a label that gives its photo another size than the photo's."""
    return (f"{where}: gives its photo as {stated[0]}x{stated[1]}, but the photo is {width}x{height}; "
            "its boxes were scaled to the photo")


def _clip_box(box, width, height) -> tuple[float, float, float, float] | None:
    """The box clipped to the image; None when nothing of it is left.  ValueError when it is not
    four finite numbers (an integer too large for a float among them)."""
    try:
        values = [float(v) for v in box]
    except OverflowError:
        raise ValueError("not four finite numbers: one is too large for a float") from None
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise ValueError(f"not four finite numbers: {box!r}")
    x1, y1, x2, y2 = values
    x1, x2 = sorted((max(0.0, min(x1, width)), max(0.0, min(x2, width))))
    y1, y2 = sorted((max(0.0, min(y1, height)), max(0.0, min(y2, height))))
    if x2 - x1 < 1 or y2 - y1 < 1:
        return None
    return (x1, y1, x2, y2)


def _outside_warning(where: str, count: int, width: int, height: int) -> str:
    """The warning for boxes left out because nothing of them lies inside their image (often
    pixel and normalised coordinates mixed up) or they are under a pixel wide."""
    return (f"{where}: {count} {'box lies' if count == 1 else 'boxes lie'} outside the {width}x{height} "
            "image or under a pixel wide; left out")


def read_json_set(root: Path) -> LabelSet:
    """Our per-image JSON labels (``labels/*.json``; photos in ``images/`` or beside them).  A
    label file that cannot be read is named in the warnings and its image left out."""
    label_files = sorted((root / "labels").glob("*.json")) if (root / "labels").is_dir() else []
    if not label_files:
        label_files = sorted(p for p in root.glob("*.json") if p.name != "stats.json")
    images, warnings = [], []
    labelled: dict[Path, str] = {}  # photo -> the label file read for it
    for label_path in label_files:
        try:
            image = _read_json_label(root, label_path, warnings)
        except _Skip as skip:
            warnings.append(f"{_relname(root, label_path)}: {skip}; skipped")
            continue
        first = labelled.setdefault(image.path.resolve(), _relname(root, label_path))
        if first != _relname(root, label_path):  # one photo, two label files: read once, by the first
            warnings.append(f"{_relname(root, label_path)}: labels {_shown(image.name)} again "
                            f"({first} did first); left out")
            continue
        images.append(image)
    # (a label file skipped above is named already, with the photo of its own name)
    stems = {p.stem for p in label_files}
    _name_unlabelled(root, lambda p: p.stem in stems or p.resolve() in labelled, "have no label file", warnings)
    return LabelSet(root, "json", images, warnings)


def _name_unlabelled(root: Path, labelled, why: str, warnings: list[str]) -> None:
    """Name in the warnings the photos of the set that `labelled` (a test of a photo's path) says
    no label names: they are not validated, and a label forgotten must not shrink the set unseen
    (a YOLO set counts such photos as holding no tile, and names them too).  A Mac's hidden
    files (.DS_Store, __MACOSX/._a.jpg) are no photos."""
    unlabelled = [_relname(root, p) for p in _all_images(root)
                  if _inside(root, p) and not labelled(p)
                  and not any(part.startswith((".", "__MACOSX")) for part in p.relative_to(root).parts)]
    if unlabelled:
        warnings.append(f"{len(unlabelled)} image(s) {why}, so they were left out: "
                        + ", ".join(_shown(n) for n in unlabelled[:10]) + (" ..." if len(unlabelled) > 10 else ""))


class _Skip(Exception):
    """One image's labels cannot be used; the rest of the set can."""


def _label_text(path: Path, errors: str = "strict") -> str:
    """The text of one photo's label file (UnicodeDecodeError as ``errors`` says); _Skip when it
    cannot be read (a folder named like a label) or is larger than MAX_LABEL_FILE_BYTES."""
    try:
        size = path.stat().st_size
        if size > MAX_LABEL_FILE_BYTES:
            raise _Skip(f"{size // _MiB} MB, more than the {MAX_LABEL_FILE_BYTES // _MiB} MB a label file may hold")
        return path.read_text(encoding="utf-8", errors=errors)
    except OSError as exc:
        raise _Skip(f"cannot be read ({_reason(exc, path)})") from None


def _check_box_count(count: int) -> None:
    """_Skip when one photo has more boxes than MAX_BOXES_PER_IMAGE."""
    if count > MAX_BOXES_PER_IMAGE:
        raise _Skip(f"{count} boxes, more than the {MAX_BOXES_PER_IMAGE} read for one photo")


def _parse_json(text: str):
    """JSON text as data; _Skip saying why when Python cannot read it: bad syntax, nesting too
    deep for its recursion, or an integer of more than 4300 digits (a plain ValueError)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Skip(f"not valid JSON ({exc})") from None
    except RecursionError:
        raise _Skip("not valid JSON (nested too deeply)") from None
    except ValueError:
        raise _Skip("not valid JSON (a number of thousands of digits)") from None


def _read_json_label(root: Path, label_path: Path, warnings: list[str]) -> LabelledImage:
    try:
        text = _label_text(label_path)
    except UnicodeDecodeError as exc:
        raise _Skip(f"not valid JSON ({exc})") from None
    data = _parse_json(text)
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise _Skip("expected an object with a 'tiles' list")
    _check_box_count(len(data["tiles"]))
    image_name = str(data.get("image") or label_path.with_suffix(".jpg").name)
    candidates = [root / "images" / image_name, label_path.parent / image_name, root / image_name]
    try:
        _check_image_name(image_name)
        image_path, width, height, stated = _labelled_image(root, candidates, data.get("width"), data.get("height"))
    except _Skip as skip:
        raise _Skip(f"image {_shown(image_name)}: {skip}") from None
    if stated is not None:
        warnings.append(_size_warning(_relname(root, label_path), stated, width, height))
    tiles, outside = [], 0
    for k, tile in enumerate(data["tiles"]):
        try:
            code = str(tile["code"])
            box = _clip_box(_scaled_box(tile["box"], stated, width, height), width, height)
        except (KeyError, TypeError, ValueError):
            raise _Skip(f"tile {k} needs 'box' [x1,y1,x2,y2] (four numbers) and 'code'") from None
        if code not in _VALID_CODES:
            mapped = tile_code_for_name(code)
            if mapped is None:
                warnings.append(f"{_relname(root, label_path)}: tile {k} has unknown code {_shown(code, quote=True)}; "
                                "left out")
                continue
            code = mapped
        if box is None:
            outside += 1
        else:
            tiles.append(LabelledTile(box, code))
    if outside:
        warnings.append(_outside_warning(_relname(root, label_path), outside, width, height))
    return LabelledImage(_relname(root, image_path), image_path, width, height, tiles)


def _readable_size(path: Path) -> tuple[int, int]:
    try:
        return _image_size(path)
    except LabelSetError as err:
        raise _Skip(str(err).removeprefix(f"{path.name}: ")) from None


def _find_yaml(root: Path) -> Path | None:
    """The set's data.yaml (or another yaml file), at its top or one folder down; a folder
    named like one is not it."""
    for pattern in ("data.yaml", "data.yml", "dataset.yaml", "*.yaml", "*.yml"):
        found = [p for p in sorted(root.glob(pattern)) + sorted(root.glob(f"*/{pattern}")) if _is_file(p)]
        if found:
            return found[0]
    return None


def _yolo_label_for(image: Path, root: Path) -> Path:
    """YOLO's label file for a photo: its path in the set with the last images/ folder turned
    labels/ (a folder named images above the set is none of its), else the .txt beside it."""
    parts = list(image.relative_to(root).parts)
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] == "images":
            parts[i] = "labels"
            return root.joinpath(*parts).with_suffix(".txt")
    return image.with_suffix(".txt")


def read_yolo_set(root: Path, yaml_path: Path) -> LabelSet:
    """A YOLO set: every image under the folder, its boxes from the label file beside it (none:
    no tiles).  An image or label file that cannot be read is named in the warnings and left out."""
    names = read_yaml_names(yaml_path)
    codes = [tile_code_for_name(n) for n in names]
    warnings = []
    unmapped_used: dict[str, int] = {}
    images = []
    unlabelled: list[str] = []  # images with no label file: read as holding no tile
    label_files: set[Path] = set()
    for image_path in _all_images(root):
        label_path = _yolo_label_for(image_path, root) if _inside(root, image_path) else image_path.with_suffix(".txt")
        label_files.add(label_path)
        try:
            if not _inside(root, image_path):
                raise _Skip("lies outside the set's folder")
            width, height = _readable_size(image_path)
            if not label_path.is_file():
                unlabelled.append(_relname(root, image_path))
            tiles = _read_yolo_label(root, label_path, codes, names, width, height, unmapped_used, warnings)
        except _Skip as skip:
            warnings.append(f"{_relname(root, image_path)}: {skip}; skipped")
            continue
        images.append(LabelledImage(_relname(root, image_path), image_path, width, height, tiles))
    for name, count in sorted(unmapped_used.items()):
        warnings.append(f"class {_shown(name, quote=True)} does not name a tile; its {count} boxes were left out")
    if images and len(unlabelled) == len(images):
        first = images[0].path
        looked = _relname(root, _yolo_label_for(first, root)) if _inside(root, first) else first.name
        raise LabelSetError(f"{root.name}: no image has a label file (for {_shown(images[0].name)} it looked for "
                            f"{_shown(looked)}; a photo of no tile has an empty one)")
    if unlabelled:
        warnings.append(f"{len(unlabelled)} image(s) have no label file, so they are counted as holding no tile: "
                        + ", ".join(_shown(n) for n in unlabelled[:10]) + (" ..." if len(unlabelled) > 10 else ""))
    orphans = sorted(_relname(root, p) for p in root.rglob("*.txt")
                     if "labels" in p.relative_to(root).parts[:-1] and p.name != "classes.txt"
                     and p not in label_files and _inside(root, p))
    if orphans:
        warnings.append(f"{len(orphans)} label file(s) name no image of the set (a renamed or missing photo?): "
                        + ", ".join(_shown(n) for n in orphans[:10]) + (" ..." if len(orphans) > 10 else ""))
    return LabelSet(root, "yolo", images, warnings)


def _read_yolo_label(root: Path, label_path: Path, codes: list, names: list[str], width: int, height: int,
                     unmapped_used: dict[str, int], warnings: list[str]) -> list[LabelledTile]:
    tiles: list[LabelledTile] = []
    outside = 0
    if not label_path.is_file():
        return tiles
    if not _inside(root, label_path):
        raise _Skip(f"its label file {label_path.name} lies outside the set's folder")
    where = _relname(root, label_path)
    try:
        lines = _label_text(label_path, errors="replace").splitlines()
        _check_box_count(sum(1 for line in lines if line.strip()))
    except _Skip as skip:
        raise _Skip(f"{where}: {skip}") from None
    for line_no, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 5:
            raise _Skip(f"{where}:{line_no}: expected 'class cx cy w h'")
        try:
            cls = int(fields[0])
            coords = [float(v) for v in fields[1:]]
        except ValueError:
            raise _Skip(f"{where}:{line_no}: not numbers: {line.strip()[:80]!r}") from None
        if not all(math.isfinite(v) for v in coords):
            raise _Skip(f"{where}:{line_no}: not finite numbers: {line.strip()[:80]!r}")
        cx, cy, w, h = coords[:4]
        if len(coords) > 4:  # a polygon (segmentation export): use its bounding box
            xs, ys = coords[0::2], coords[1::2]
            cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
            w, h = max(xs) - min(xs), max(ys) - min(ys)
        if not 0 <= cls < len(codes):
            raise _Skip(f"{where}:{line_no}: class {cls} but data.yaml names {len(codes)} classes")
        code = codes[cls]
        if code is None:
            unmapped_used[names[cls]] = unmapped_used.get(names[cls], 0) + 1
            continue
        box = _clip_box(((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height),
                        width, height)
        if box is None:
            outside += 1
        else:
            tiles.append(LabelledTile(box, code))
    if outside:
        warnings.append(_outside_warning(where, outside, width, height))
    return tiles


def _coco_files(root: Path) -> list[Path]:
    found = []
    for path in sorted(root.rglob("*.json")):
        try:
            if path.stat().st_size > 200 * 1024 * 1024:
                continue
            head = path.read_text(encoding="utf-8", errors="replace")[:4096]
        except OSError:
            continue
        if '"images"' in head or '"annotations"' in head or '"categories"' in head or '"info"' in head:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (ValueError, RecursionError):  # bad JSON or UTF-8, too deep, too many digits
                continue
            if isinstance(data, dict) and {"images", "annotations", "categories"} <= data.keys():
                found.append(path)
    return found


def read_coco_set(root: Path, files: list[Path], max_images: int | None = None) -> LabelSet:
    """COCO annotation files (each split's own).  A file, image or annotation that cannot be
    read is named in the warnings and its images left out.  With `max_images`, TooManyImages as
    soon as the files list more (one file may list 100,000 images in a few megabytes, each of
    which would be looked for before the set's size was known)."""
    images, warnings = [], []
    listed = 0
    listed_names: set[str] = set()  # the photos' names the files list, read or skipped
    unmapped_used: dict[str, int] = {}
    for coco_path in files:
        name = _relname(root, coco_path)
        data = json.loads(coco_path.read_text(encoding="utf-8"))
        try:
            categories = {int(c["id"]): str(c["name"]) for c in data["categories"]}
            by_image: dict[int, list] = {}
            for ann in data["annotations"]:
                by_image.setdefault(int(ann["image_id"]), []).append(ann)
            entries = [(int(i["id"]), str(i["file_name"]), i.get("width"), i.get("height")) for i in data["images"]]
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            warnings.append(f"{name}: malformed COCO ({type(exc).__name__}: {_shown(str(exc))}); skipped")
            continue
        listed += len(entries)
        if max_images is not None and listed > max_images:
            raise TooManyImages(listed, max_images)
        listed_names.update(PurePosixPath(file_name.replace("\\", "/")).name for _, file_name, _, _ in entries)
        codes = {cid: tile_code_for_name(label) for cid, label in categories.items()}
        for image_id, file_name, width, height in entries:
            try:
                image_path, width, height, tiles = _read_coco_image(
                    root, coco_path, file_name, width, height, by_image.get(image_id, []), codes, categories,
                    unmapped_used, warnings)
            except _Skip as skip:
                warnings.append(f"{name}: image {_shown(file_name)}: {skip}; skipped")
                continue
            images.append(LabelledImage(_relname(root, image_path), image_path, width, height, tiles))
    for label, count in sorted(unmapped_used.items()):
        warnings.append(f"category {_shown(label, quote=True)} does not name a tile; its {count} boxes were left out")
    read = {image.path.resolve() for image in images}
    _name_unlabelled(root, lambda p: p.name in listed_names or p.resolve() in read, "are listed in no COCO file",
                     warnings)
    return LabelSet(root, "coco", images, warnings)


def _read_coco_image(root: Path, coco_path: Path, file_name: str, width, height, annotations: list,
                     codes: dict, categories: dict, unmapped_used: dict[str, int], warnings: list[str]):
    _check_box_count(len(annotations))
    _check_image_name(file_name)
    candidates = [coco_path.parent / file_name, coco_path.parent / "images" / file_name, root / file_name,
                  root / "images" / file_name]
    image_path, width, height, stated = _labelled_image(root, candidates, width, height)
    if stated is not None:
        warnings.append(_size_warning(f"{_relname(root, coco_path)}: image {_shown(file_name)}", stated, width,
                                      height))
    tiles, outside = [], 0
    for ann in annotations:
        try:
            x, y, w, h = (float(v) for v in ann["bbox"])
            cid = int(ann["category_id"])
            box = _clip_box(_scaled_box((x, y, x + w, y + h), stated, width, height), width, height)
        except (KeyError, TypeError, ValueError, OverflowError):
            which = ann.get("id") if isinstance(ann, dict) else repr(ann)
            raise _Skip(f"annotation {_shown(str(which))} needs a bbox of four "
                        "finite numbers and a category_id") from None
        code = codes.get(cid)
        if code is None:
            label = categories.get(cid, f"#{cid}")
            unmapped_used[label] = unmapped_used.get(label, 0) + 1
            continue
        if box is None:
            outside += 1
        else:
            tiles.append(LabelledTile(box, code))
    if outside:
        warnings.append(_outside_warning(f"{_relname(root, coco_path)}: image {_shown(file_name)}", outside, width,
                                         height))
    return image_path, width, height, tiles


#: how many folders, each the only thing in the one above it, are looked through for the set
MAX_WRAPPING_FOLDERS = 16


def load_labelset(root: str | Path, max_images: int | None = None) -> LabelSet:
    """Detect the format of the set in ``root`` and read it (a COCO set listing more than
    `max_images` images: TooManyImages before any is looked for)."""
    root = Path(root)
    if not root.exists():
        raise LabelSetError(f"{root} does not exist")
    if not root.is_dir():
        raise LabelSetError(f"{root} is not a folder of labelled photos (nor a zip of one)")
    # a zip may hold the set inside one folder, or inside a chain of them (`zip -r` of a full path)
    given = root
    for _ in range(MAX_WRAPPING_FOLDERS):
        entries = [p for p in root.iterdir() if not p.name.startswith((".", "__MACOSX"))]
        if len(entries) != 1 or not entries[0].is_dir():
            break
        root = entries[0]
    labels = root / "labels"
    if labels.is_dir() and any(labels.glob("*.json")):
        result = read_json_set(root)
    elif coco := _coco_files(root):
        result = read_coco_set(root, coco, max_images)
    elif yaml_path := _find_yaml(root):
        result = read_yolo_set(root, yaml_path)
    elif any(p.suffix == ".json" for p in root.glob("*.json")):
        result = read_json_set(root)
    else:
        # named by the set given (a zip of a set's images/ alone names the set, not images); a
        # zip inside is not unpacked: said, since the set is most likely in it
        zips = sorted(_relname(root, p) for p in root.rglob("*") if p.suffix.lower() == ".zip" and _is_file(p))
        inside = (f"; {_shown(zips[0], quote=True)}{' and others' if len(zips) > 1 else ''} is a zip inside the set, "
                  "which is not unpacked: send or pass that zip itself") if zips else ""
        raise LabelSetError(
            f"{given.name}: no labels found (expected labels/*.json, a YOLO data.yaml with labels/*.txt, "
            f"or a COCO annotations JSON){inside}"
        )
    if not result.images:
        why = f": {'; '.join(result.warnings[:3])}" if result.warnings else ""
        raise LabelSetError(f"{root.name}: the {result.format} labels name no image that can be read{why}")
    return result

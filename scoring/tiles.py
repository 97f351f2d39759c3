"""Tile notation: MPSZ strings, bonus tiles, face-down tiles and human names.

A tile is represented everywhere by its *code*, a short string:

* ``1m``-``9m`` characters, ``1p``-``9p`` dots, ``1s``-``9s`` bamboo;
* ``1z``-``4z`` East, South, West, North winds; ``5z`` White, ``6z`` Green, ``7z`` Red dragon;
* ``f1``-``f4`` flowers (plum, orchid, chrysanthemum, bamboo), ``f5``-``f8`` seasons
  (spring, summer, autumn, winter); number *n* (mod 4) belongs to wind *n*;
* ``back`` for a face-down tile (vision only; never a scored tile).

Strings group digits before their suit letter, as in ``123m456p789s11z``; bonus tiles and
``back`` may be mixed in (``123mf1f5``).  :func:`parse_tiles` and :func:`format_tiles` are
exact inverses on canonical (sorted) input.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

SUITS = ("m", "p", "s")
HONOUR = "z"
SUIT_NAMES = {"m": "Character", "p": "Dot", "s": "Bamboo"}
WIND_LETTERS = ("E", "S", "W", "N")
WIND_NAMES = {"1z": "East Wind", "2z": "South Wind", "3z": "West Wind", "4z": "North Wind"}
DRAGON_NAMES = {"5z": "White Dragon", "6z": "Green Dragon", "7z": "Red Dragon"}
BONUS_NAMES = {
    "f1": "Plum (Flower 1)",
    "f2": "Orchid (Flower 2)",
    "f3": "Chrysanthemum (Flower 3)",
    "f4": "Bamboo (Flower 4)",
    "f5": "Spring (Season 1)",
    "f6": "Summer (Season 2)",
    "f7": "Autumn (Season 3)",
    "f8": "Winter (Season 4)",
}
BACK = "back"

#: The 34 kinds in canonical order.
KINDS: tuple[str, ...] = tuple(
    [f"{n}{s}" for s in SUITS for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
)
BONUS: tuple[str, ...] = tuple(f"f{n}" for n in range(1, 9))
#: The 43 classes the tile classifier predicts: 34 kinds, ``back``, 8 bonus tiles.
CLASSES: tuple[str, ...] = KINDS + (BACK,) + BONUS

_ORDER = {code: i for i, code in enumerate(CLASSES)}
_KIND_CODES = frozenset(KINDS)


class TileError(ValueError):
    """An unknown tile code or a malformed tile string."""

    code = "unknown-tile"


_SUITED = frozenset(k for k in KINDS if k[1] in SUITS)
_HONOURS = frozenset(k for k in KINDS if k[1] == HONOUR)
_TERMINALS = frozenset(k for k in _SUITED if k[0] in "19")
_HEADS = _TERMINALS | _HONOURS


def is_suit(code: str) -> bool:
    return code in _SUITED


def is_honour(code: str) -> bool:
    return code in _HONOURS


def is_bonus(code: str) -> bool:
    return code in BONUS


def is_terminal(code: str) -> bool:
    """A one or nine of a suit."""
    return code in _TERMINALS


def is_head(code: str) -> bool:
    """Harr's 'head' (classical 'major'): a terminal, a wind or a dragon."""
    return code in _HEADS


def is_wind(code: str) -> bool:
    return code in WIND_NAMES


def is_dragon(code: str) -> bool:
    return code in DRAGON_NAMES


def suit_of(code: str) -> str:
    return code[1]


def rank_of(code: str) -> int:
    return int(code[0])


def wind_code(letter: str) -> str:
    """``'E'`` -> ``'1z'``."""
    return f"{WIND_LETTERS.index(letter) + 1}z"


def bonus_wind(code: str) -> str:
    """The wind letter a flower or season belongs to: ``f1``/``f5`` -> ``'E'``."""
    return WIND_LETTERS[(int(code[1]) - 1) % 4]


def sort_key(code: str) -> int:
    return _ORDER[code]


def check_code(code: str) -> str:
    """Return ``code`` if it is a known tile code, else raise :class:`TileError`."""
    if code not in _ORDER:
        raise TileError(f"unknown tile {code!r}")
    return code


def parse_tiles(text: str | Iterable[str], *, allow_back: bool = True) -> list[str]:
    """Parse an MPSZ string (``"123m55z f1"``) or a list of codes into tile codes.

    Order is preserved.  Raises :class:`TileError` naming the offending part.
    """
    if not isinstance(text, str):
        codes = [check_code(str(c)) for c in text]
    else:
        codes = _parse_string(text)
    if not allow_back and BACK in codes:
        raise TileError(f"a face-down tile is not allowed here: {text!r}")
    return codes


# Canonical strings (runs of digits, each closed by its lower-case suit letter) are cut into
# runs after each suit letter; anything else goes through the character loop, which names errors.
def parse_kinds(text: str) -> list[str] | None:
    """The codes of a canonical string of suit and honour tiles (``"123m55z"``), or None when
    the string is anything else (bonus tiles, spaces, errors: use :func:`parse_tiles`)."""
    runs = text.replace("m", "m,").replace("p", "p,").replace("s", "s,").replace("z", "z,").split(",")
    if runs.pop():  # something after the last suit letter
        return None
    if len(text) == 2 * len(runs):  # one tile per run, as in "1m5p2m"
        codes = runs
    else:
        codes = []
        for run in runs:
            if len(run) == 2:
                codes.append(run)
            elif len(run) > 2:
                suit = run[-1]
                codes += [digit + suit for digit in run[:-1]]
            else:
                return None
    return codes if _KIND_CODES.issuperset(codes) else None


def _parse_string(text: str) -> list[str]:
    codes = parse_kinds(text)
    if codes is not None:
        return codes
    codes = []
    digits = ""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isdigit():
            digits += ch
        elif digits and ch in "mpszMPSZ":
            suit = ch.lower()
            for d in digits:
                code = d + suit
                if code not in _ORDER:
                    raise TileError(f"unknown tile {code!r} in {quoted(text)}")
                codes.append(code)
            digits = ""
        elif digits and ch.isalpha():
            raise TileError(f"unknown suit letter {quoted(ch)} after {quoted(digits)} in {quoted(text)} "
                            "(a suit is m, p, s or z)")
        elif digits:
            raise TileError(f"digits {quoted(digits)} without a suit letter in {quoted(text)}")
        elif ch in "fF" and i + 1 < n and text[i + 1].isdigit():
            code = "f" + text[i + 1]
            if code not in _ORDER:
                raise TileError(f"unknown tile {code!r} in {quoted(text)}")
            codes.append(code)
            i += 1
        elif text.startswith("back", i):
            codes.append(BACK)
            i += 3
        elif ch.isspace() or ch == ",":
            pass
        else:
            raise TileError(f"cannot read tiles at {quoted(text[i:])} in {quoted(text)}")
        i += 1
    if digits:
        raise TileError(f"digits {quoted(digits)} without a suit letter in {quoted(text)}")
    return codes


def quoted(value: object) -> str:
    """A value as a message repeats it (tiles, a field's name or value): its repr, cut to 60
    characters, so a megabyte sent is not sent back."""
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "..."


def format_tiles(codes: Iterable[str], *, sort: bool = False) -> str:
    """Format codes as a grouped MPSZ string; bonus tiles and backs follow the suited tiles."""
    codes = list(codes)
    for code in codes:
        check_code(code)
    if sort:
        codes.sort(key=sort_key)
    out: list[str] = []
    run: list[str] = []
    run_suit = ""
    for code in codes:
        if code == BACK or is_bonus(code):
            if run:
                out.append("".join(run) + run_suit)
                run = []
            out.append(code)
            run_suit = ""
            continue
        if run and code[1] != run_suit:
            out.append("".join(run) + run_suit)
            run = []
        run_suit = code[1]
        run.append(code[0])
    if run:
        out.append("".join(run) + run_suit)
    return "".join(out)


def tile_name(code: str) -> str:
    """Human name: ``'3s'`` -> ``'3 Bamboo'``, ``'7z'`` -> ``'Red Dragon'``."""
    check_code(code)
    if is_suit(code):
        return f"{code[0]} {SUIT_NAMES[code[1]]}"
    if code == BACK:
        return "Face-down tile"
    return {**WIND_NAMES, **DRAGON_NAMES, **BONUS_NAMES}[code]


def counts(codes: Iterable[str]) -> Counter:
    return Counter(codes)

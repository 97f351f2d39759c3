"""Decomposition tables for one segment of a hand: a suit (nine kinds, chows allowed) or the
honours (seven kinds, pungs and pairs only).

Like the agari tables of riichi engines, the tables list every *complete* segment: up to four
sets and at most one pair, at most four tiles of a kind (21,743 suit shapes, 498 honour shapes).
A segment is keyed by its counts packed one byte per kind (:func:`segment_key`); the value is
every split of it, each a sorted tuple of local group ids ``3 * rank + KIND_ORDER[kind]``.
Sorting by id lists groups by their lowest tile (pung, then pair, then chow at the same tile),
and sorting the splits orders them as a depth-first search from the lowest tile would find them,
so the engine keeps the arrangement order it always had.  Each split is stored as a function
that picks its groups out of a segment's tuple of groups (an ``itemgetter``); the segments that
split only one way (nearly all) are also kept with their one split (:func:`only_splits`), so the
common hand is a dictionary look-up per segment.  The tables are built when the module is
imported and never depend on the hands scored.  The wait tables (which kinds complete a segment
one tile short) are derived from them by :func:`waits_table`, which :mod:`scoring.arrange` asks
for when it is imported.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from operator import itemgetter
from typing import Callable, Final

KIND_ORDER: Final = {"pung": 0, "pair": 1, "chow": 2}  # a group's local id is 3 * rank + KIND_ORDER[kind]
LOCAL_KIND: Final = tuple(sorted(KIND_ORDER, key=KIND_ORDER.__getitem__))  # local id % 3 -> kind
MAX_SETS: Final = 4
MAX_COPIES: Final = 4


def segment_key(counts) -> int:
    """Counts of one segment (bytes, or ints of 0-255) packed into an int, one byte per kind."""
    return int.from_bytes(counts, "little")


def _build(size: int, chows: bool) -> dict[int, tuple["Picker", ...]]:
    unit = [1 << (8 * i) for i in range(size)]
    # Adding 0x7B to a byte sets its top bit exactly when the count exceeds four.
    over_four = sum((0x7F - MAX_COPIES) << (8 * i) for i in range(size))
    top_bits = sum(0x80 << (8 * i) for i in range(size))
    pung, pair, chow = KIND_ORDER["pung"], KIND_ORDER["pair"], KIND_ORDER["chow"]
    sets = [(3 * r + pung, 3 * unit[r]) for r in range(size)]
    if chows:
        sets += [(3 * r + chow, unit[r] + unit[r + 1] + unit[r + 2]) for r in range(size - 2)]
    pairs = [(3 * r + pair, 2 * unit[r]) for r in range(size)]
    table: dict[int, list[tuple[int, ...]]] = {}
    for k in range(MAX_SETS + 1):
        for combo in combinations_with_replacement(sets, k):
            key = sum(c[1] for c in combo)
            if (key + over_four) & top_bits:
                continue
            ids = [c[0] for c in combo]
            table.setdefault(key, []).append(tuple(sorted(ids)))
            for pair_id, pair_key in pairs:
                with_pair = key + pair_key
                if not (with_pair + over_four) & top_bits:
                    table.setdefault(with_pair, []).append(tuple(sorted(ids + [pair_id])))
    return {key: tuple(map(_picker, sorted(splits))) for key, splits in table.items()}


Picker = Callable[[tuple], tuple]


def _picker(ids: tuple[int, ...]) -> Picker:
    """A function taking a segment's groups (a tuple, by local id) to the split's tuple of groups.
    (A split of one group or none picks a slice of the tuple: a tuple too, with no Python call.)"""
    if len(ids) > 1:
        return itemgetter(*ids)
    if ids:
        return itemgetter(slice(ids[0], ids[0] + 1))
    return itemgetter(slice(0, 0))


SUIT_SPLITS: Final = _build(9, chows=True)
HONOUR_SPLITS: Final = _build(7, chows=False)


def only_splits(splits: dict[int, tuple[Picker, ...]]) -> dict[int, Picker]:
    """The segments that split exactly one way (nearly all), each with its one split."""
    return {key: found[0] for key, found in splits.items() if len(found) == 1}


SUIT_ONLY_SPLITS: Final = only_splits(SUIT_SPLITS)
HONOUR_ONLY_SPLITS: Final = only_splits(HONOUR_SPLITS)


def _build_waits(splits: dict[int, tuple], size: int) -> dict[int, int]:
    """Segment one tile short of complete -> bit mask of the local kinds that complete it."""
    waits: dict[int, int] = {}
    for key in splits:
        for i, n in enumerate(key.to_bytes(size, "little")):
            if n:
                short = key - (1 << (8 * i))
                waits[short] = waits.get(short, 0) | (1 << i)
    return waits


_WAITS: Final[dict[int, dict[int, int]]] = {}


def waits_table(size: int) -> dict[int, int]:
    """Wait masks for a suit (``size`` 9) or the honours (7), built on first use (about 60 ms)."""
    table = _WAITS.get(size)
    if table is None:
        table = _WAITS[size] = _build_waits(SUIT_SPLITS if size == 9 else HONOUR_SPLITS, size)
    return table

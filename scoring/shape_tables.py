"""Decomposition tables for one segment of a hand: a suit (nine kinds, chows allowed) or the
honours (seven kinds, pungs and pairs only).

Like the agari tables of riichi engines, the tables list every *complete* segment: up to four
sets and at most one pair, at most four tiles of a kind (21,743 suit shapes, 498 honour shapes).
A segment is keyed by its counts packed one byte per kind (:func:`segment_key`); the value is
every split of it, each a sorted tuple of local group ids ``3 * rank + KIND_ORDER[kind]``.
Sorting by id lists groups by their lowest tile (pung, then pair, then chow at the same tile),
and sorting the splits orders them as a depth-first search from the lowest tile would find them,
so the engine keeps the arrangement order it always had.  Both tables are built when the module
is imported (about 30 ms) and never depend on the hands scored.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

KIND_ORDER = {"pung": 0, "pair": 1, "chow": 2}
LOCAL_KIND = ("pung", "pair", "chow")  # local id % 3 -> kind
MAX_SETS = 4
MAX_COPIES = 4


def segment_key(counts) -> int:
    """Counts of one segment (bytes, or ints of 0-255) packed into an int, one byte per kind."""
    return int.from_bytes(counts, "little")


def _build(size: int, chows: bool) -> dict[int, tuple[tuple[int, ...], ...]]:
    unit = [1 << (8 * i) for i in range(size)]
    # Adding 0x7B to a byte sets its top bit exactly when the count exceeds four.
    over_four = sum((0x7F - MAX_COPIES) << (8 * i) for i in range(size))
    top_bits = sum(0x80 << (8 * i) for i in range(size))
    sets = [(3 * r, 3 * unit[r]) for r in range(size)]
    if chows:
        sets += [(3 * r + 2, unit[r] + unit[r + 1] + unit[r + 2]) for r in range(size - 2)]
    pairs = [(3 * r + 1, 2 * unit[r]) for r in range(size)]
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
    return {key: tuple(sorted(splits)) for key, splits in table.items()}


SUIT_SPLITS = _build(9, chows=True)
HONOUR_SPLITS = _build(7, chows=False)

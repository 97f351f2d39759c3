"""Hand shapes: every way to split tiles into sets and a pair, waits, and the special shapes.

Tiles are handled as count vectors over the 34 kinds (index = position in ``KINDS``), which keeps
the search small: a concealed hand of 14 tiles has at most a handful of decompositions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from .tiles import KINDS, is_head

INDEX = {code: i for i, code in enumerate(KINDS)}
HEAD_KINDS = tuple(code for code in KINDS if is_head(code))


@dataclass(frozen=True)
class Group:
    """A set or the pair in an arrangement.

    ``kind`` is chow, pung, kong or pair; ``tile`` the lowest tile; ``exposed`` whether it scores
    as exposed; ``declared`` whether it was a meld laid down before the win.
    """

    kind: str
    tile: str
    exposed: bool = False
    declared: bool = False

    @property
    def tiles(self) -> tuple[str, ...]:
        if self.kind == "chow":
            i = INDEX[self.tile]
            return KINDS[i : i + 3]
        return (self.tile,) * {"pair": 2, "pung": 3, "kong": 4}[self.kind]

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_set_of_a_kind", self.kind in ("pung", "kong"))


def to_counts(tiles: list[str] | tuple[str, ...]) -> tuple[int, ...]:
    counts = [0] * len(KINDS)
    for t in tiles:
        counts[INDEX[t]] += 1
    return tuple(counts)


# The hand splits into four independent segments: characters, dots, bamboo (9 kinds each, where
# chows are possible) and honours (7 kinds, pungs and pairs only).
SEGMENTS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


@lru_cache(maxsize=None)
def _segment_splits(counts: tuple[int, ...], base: int, chows: bool, pairs: int) -> tuple[tuple[Group, ...], ...]:
    """All splits of one segment into sets and exactly ``pairs`` pairs (0 or 1)."""
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return ((),) if pairs == 0 else ()
    code = KINDS[base + first]
    work = list(counts)
    results: list[tuple[Group, ...]] = []
    if counts[first] >= 3:
        work[first] -= 3
        results += [(Group("pung", code),) + rest for rest in _segment_splits(tuple(work), base, chows, pairs)]
        work[first] += 3
    if counts[first] >= 2 and pairs:
        work[first] -= 2
        results += [(Group("pair", code),) + rest for rest in _segment_splits(tuple(work), base, chows, 0)]
        work[first] += 2
    if chows and first <= 6 and counts[first + 1] and counts[first + 2]:
        for j in (first, first + 1, first + 2):
            work[j] -= 1
        results += [(Group("chow", code),) + rest for rest in _segment_splits(tuple(work), base, chows, pairs)]
    return tuple(results)


def _segments(counts: tuple[int, ...]):
    for lo, hi, chows in SEGMENTS:
        part = counts[lo:hi]
        yield part, lo, chows, sum(part)


def decompositions(counts: tuple[int, ...], sets: int, pairs: int = 1) -> list[tuple[Group, ...]]:
    """All ways to split ``counts`` into exactly ``sets`` chows/pungs and one pair.

    Groups come out in tile order; equal splits are listed once.
    """
    if sum(counts) != 3 * sets + 2 * pairs:
        return []
    results: list[tuple[Group, ...]] = [()]
    pair_seen = 0
    for part, lo, chows, n in _segments(counts):
        if n % 3 == 1:
            return []
        has_pair = 1 if n % 3 == 2 else 0
        pair_seen += has_pair
        if pair_seen > pairs:
            return []
        if n == 0:
            continue
        splits = _segment_splits(part, lo, chows, has_pair)
        if not splits:
            return []
        results = [r + s for r in results for s in splits]
    return results if pair_seen == pairs else []


def is_complete(counts: tuple[int, ...], sets: int) -> bool:
    """Whether the tiles form ``sets`` sets and one pair (a standard complete hand)."""
    if sum(counts) != 3 * sets + 2:
        return False
    pair_seen = False
    for part, lo, chows, n in _segments(counts):
        if n % 3 == 1 or (n % 3 == 2 and pair_seen):
            return False
        if n % 3 == 2:
            pair_seen = True
        if n and not _segment_splits(part, lo, chows, n % 3 // 2):
            return False
    return pair_seen


def _segment_ok(part: tuple[int, ...], lo: int, chows: bool) -> int:
    """0 if the segment cannot be split; else 1 (sets only) or 2 (sets and the pair)."""
    n = sum(part)
    if n % 3 == 1:
        return 0
    with_pair = n % 3 // 2
    if n and not _segment_splits(part, lo, chows, with_pair):
        return 0
    return 1 + with_pair


def waits(pre_win: tuple[int, ...], sets: int, held: tuple[int, ...], stop_after: int | None = None) -> list[str]:
    """Kinds that would complete ``pre_win`` as a standard hand; kinds held four times excluded.

    A tile added to one segment leaves the others as they are, so each segment is judged once
    and only the changed segment is split again for each candidate: a held kind or a suit
    neighbour within two.  ``stop_after`` ends the search once that many waits are found.
    """
    if sum(pre_win) != 3 * sets + 1:
        return []
    status = [_segment_ok(pre_win[lo:hi], lo, chows) for lo, hi, chows in SEGMENTS]
    result: list[str] = []
    for k, (lo, hi, chows) in enumerate(SEGMENTS):
        others = status[:k] + status[k + 1:]
        if 0 in others or others.count(2) > 1:
            continue
        need_pair = 2 not in others
        part = list(pre_win[lo:hi])
        for i in range(hi - lo):
            if held[lo + i] >= 4:
                continue
            if not (part[i] or (chows and any(part[j] for j in range(max(0, i - 2), min(hi - lo, i + 3))))):
                continue
            part[i] += 1
            ok = _segment_ok(tuple(part), lo, chows)
            part[i] -= 1
            if ok == (2 if need_pair else 1):
                result.append(KINDS[lo + i])
                if stop_after is not None and len(result) >= stop_after:
                    return result
    return result


def is_thirteen_orphans(counts: tuple[int, ...]) -> bool:
    """One of each head (1 and 9 of each suit, winds, dragons) and a pair of one of them."""
    if sum(counts) != 14:
        return False
    head_counts = [counts[INDEX[h]] for h in HEAD_KINDS]
    return sum(head_counts) == 14 and all(n >= 1 for n in head_counts) and max(head_counts) == 2


def is_nine_gates(counts: tuple[int, ...]) -> bool:
    """Calling Nine Tiles: 1112345678999 of one suit plus any tile of that suit."""
    if sum(counts) != 14:
        return False
    for base in (0, 9, 18):
        suit = counts[base : base + 9]
        if sum(suit) == 14:
            need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
            return all(n >= k for n, k in zip(suit, need))
    return False


def chow_wait(group: Group, winning_tile: str) -> str:
    """How the winning tile filled a chow: ``closed`` (middle), ``edge`` (3 of 123 or 7 of 789)
    or ``two-sided``."""
    start = int(group.tile[0])
    pos = int(winning_tile[0]) - start
    if pos == 1:
        return "closed"
    if (pos == 2 and start == 1) or (pos == 0 and start == 7):
        return "edge"
    return "two-sided"


def winning_roles(groups: tuple[Group, ...], winning_tile: str) -> Iterator[int]:
    """Indices of the distinct groups that could contain the winning tile."""
    seen = set()
    for i, g in enumerate(groups):
        if g.declared or winning_tile not in g.tiles:
            continue
        if g in seen:
            continue
        seen.add(g)
        yield i


def hidden_sets_and_pairs(tiles: list[str]) -> tuple[list[Group], list[Group]]:
    """A non-winner's hidden tiles (RULES.md 0.3.5): every three (or four) identical tiles form a
    concealed pung, every other two identical tiles a pair.  Hidden chows score nothing."""
    sets: list[Group] = []
    pairs: list[Group] = []
    for i, n in enumerate(to_counts(tiles)):
        if n >= 3:
            sets.append(Group("pung", KINDS[i]))
        elif n == 2:
            pairs.append(Group("pair", KINDS[i]))
    return sets, pairs


def hidden_quads(tiles: list[str]) -> int:
    return sum(1 for n in to_counts(tiles) if n == 4)

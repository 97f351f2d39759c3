"""Hand shapes: every way to split tiles into sets and a pair, waits, and the special shapes.

Tiles are handled as count vectors over the 34 kinds (index = position in ``KINDS``), which keeps
the search small: a concealed hand of 14 tiles has at most a handful of decompositions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from .tiles import KINDS, is_head, is_suit

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

    @property
    def is_set_of_a_kind(self) -> bool:
        return self.kind in ("pung", "kong")


def to_counts(tiles: list[str] | tuple[str, ...]) -> tuple[int, ...]:
    counts = [0] * len(KINDS)
    for t in tiles:
        counts[INDEX[t]] += 1
    return tuple(counts)


def _can_chow(counts: tuple[int, ...] | list[int], i: int) -> bool:
    return is_suit(KINDS[i]) and i % 9 <= 6 and counts[i + 1] > 0 and counts[i + 2] > 0


@lru_cache(maxsize=200_000)
def decompositions(counts: tuple[int, ...], sets: int, pairs: int = 1) -> tuple[tuple[Group, ...], ...]:
    """All ways to split ``counts`` into exactly ``sets`` chows/pungs and ``pairs`` pairs.

    Groups come out in tile order; equal splits are listed once.
    """
    first = next((i for i, n in enumerate(counts) if n), None)
    if first is None:
        return ((),) if sets == 0 and pairs == 0 else ()
    results: list[tuple[Group, ...]] = []
    code = KINDS[first]
    work = list(counts)
    if counts[first] >= 3 and sets:
        work[first] -= 3
        for rest in decompositions(tuple(work), sets - 1, pairs):
            results.append((Group("pung", code),) + rest)
        work[first] += 3
    if counts[first] >= 2 and pairs:
        work[first] -= 2
        for rest in decompositions(tuple(work), sets, pairs - 1):
            results.append((Group("pair", code),) + rest)
        work[first] += 2
    if sets and _can_chow(counts, first):
        for j in (first, first + 1, first + 2):
            work[j] -= 1
        for rest in decompositions(tuple(work), sets - 1, pairs):
            results.append((Group("chow", code),) + rest)
    return tuple(results)


def is_complete(counts: tuple[int, ...], sets: int) -> bool:
    """Whether the tiles form ``sets`` sets and one pair (a standard complete hand)."""
    return bool(decompositions(counts, sets, 1))


def waits(pre_win: tuple[int, ...], sets: int, held: tuple[int, ...]) -> list[str]:
    """Kinds that would complete ``pre_win`` as a standard hand; kinds held four times excluded."""
    result = []
    work = list(pre_win)
    for i, code in enumerate(KINDS):
        if held[i] >= 4:
            continue
        work[i] += 1
        if is_complete(tuple(work), sets):
            result.append(code)
        work[i] -= 1
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

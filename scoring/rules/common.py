"""What every ruleset shares: the hand being scored, the itemised score, and small helpers."""

from __future__ import annotations

from typing import Final

from dataclasses import dataclass, field
from operator import itemgetter

from ..arrange import (
    HEAD_MASK,
    HONOUR_MASK,
    INDEX,
    SUIT_BITS,
    SUIT_MASKS,
    TERMINAL_MASK,
    Group,
    hidden_sets_and_pairs,
    is_single_wait,
    points_key,
)
from ..case import Hand
from ..tiles import KINDS, bonus_wind

# Points for a pung or kong: (kind, is a head, concealed) -> points.  Shared by Harr's Part I,
# the non-winning hands of Part II, and the classical rules (their tables agree).
# (Keyed by the groups' own key objects, arrange.points_key.)
SET_POINTS: Final = {
    points_key(*key): points
    for key, points in {
        ("pung", False, False): 2,
        ("pung", False, True): 4,
        ("pung", True, False): 4,
        ("pung", True, True): 8,
        ("kong", False, False): 8,
        ("kong", False, True): 16,
        ("kong", True, False): 16,
        ("kong", True, True): 32,
    }.items()
}


_SECOND: Final = itemgetter(1)  # the points of an item, the doublings of a double


@dataclass(slots=True, init=False)  # (the __init__ is written out: mypyc compiles it, not a generated one)
class HandScore:
    """An itemised score: points are summed, then doubled, then capped at the limit."""

    items: list[tuple[str, int]] = field(default_factory=list)
    doubles: list[tuple[str, int]] = field(default_factory=list)
    limit_hand: str | None = None
    score: int = 0
    uncapped: int | None = None
    dead: bool = False

    def __init__(self, items: list[tuple[str, int]] | None = None, doubles: list[tuple[str, int]] | None = None,
                 limit_hand: str | None = None, score: int = 0, uncapped: int | None = None, dead: bool = False):
        self.items = [] if items is None else items  # (a new list each time, as a default factory gives)
        self.doubles = [] if doubles is None else doubles
        self.limit_hand = limit_hand
        self.score = score
        self.uncapped = uncapped
        self.dead = dead

    @property
    def points(self) -> int:
        return sum(map(_SECOND, self.items))

    @property
    def doublings(self) -> int:
        return sum(map(_SECOND, self.doubles))

    def finish(self, limit: int | None) -> "HandScore":
        """Compute the final score from the items and doubles, capped at ``limit``."""
        raw = self.points << self.doublings
        if limit is not None and raw > limit:
            self.score, self.uncapped = limit, raw
        else:
            self.score, self.uncapped = raw, None
        return self

    @classmethod
    def scored(cls, items: list[tuple[str, int]], doubles: list[tuple[str, int]], limit: int | None) -> "HandScore":
        """The finished score of ``items`` and ``doubles`` (:meth:`finish` in one step)."""
        raw = 0
        for _, points in items:  # (a loop costs less than sum(map(...)) for a few items)
            raw += points
        if doubles:
            raw <<= sum(map(_SECOND, doubles))
        if limit is not None and raw > limit:
            return cls(items, doubles, None, limit, raw, False)
        return cls(items, doubles, None, raw, None, False)

    @classmethod
    def limit(cls, name: str, value: int) -> "HandScore":
        return cls([], [], name, value, None, False)

    @classmethod
    def dead_hand(cls) -> "HandScore":
        return cls(items=[("dead-hand", 0)], score=0, dead=True)


class WinningHand:
    """What every arrangement of the winner's tiles shares: worked out once, the wait when asked."""

    __slots__ = ("hand", "own_wind", "round_wind", "win_by", "winning_tile", "drawn", "keys", "held", "category",
                 "_single_wait")

    def __init__(self, hand: Hand, own_wind: str, round_wind: str | None):
        self.hand, self.own_wind, self.round_wind = hand, own_wind, round_wind
        self.win_by = win_by = hand.win_by or ""
        self.winning_tile = hand.winning_tile
        # Won on a tile the player drew himself (from the wall or the loose tiles).
        self.drawn = win_by == "self-draw" or win_by == "loose-tile"
        packed = hand.packed
        assert packed is not None  # (a winner's hand is validated: at most 18 concealed tiles)
        # The concealed tiles' segment keys (arrange.segment_keys, worked out here).
        m, p, s, z = packed & SUIT_BITS, packed >> 72 & SUIT_BITS, packed >> 144 & SUIT_BITS, packed >> 216
        self.keys = [m, p, s, z]
        if hand.melds:
            assert hand.meld_packed is not None
            self.held = held = packed + hand.meld_packed  # every tile held, packed (arrange.pack)
            self.category = suit_category(held)  # the hand's suit_category
        else:  # the concealed tiles are all: the category is read from their segments
            self.held = packed
            self.category = _CATEGORY[m != 0, p != 0, s != 0, z != 0]
        self._single_wait: bool | None = None

    @property
    def all_honours(self) -> bool:
        return not self.held & ~HONOUR_MASK

    @property
    def all_terminals(self) -> bool:
        """Only ones and nines of the suits."""
        return not self.held & ~TERMINAL_MASK

    @property
    def heads_with_honours(self) -> bool:
        """Only heads (ones, nines, winds, dragons), and some of them honours."""
        return not self.held & ~HEAD_MASK and bool(self.held & HONOUR_MASK)

    @property
    def single_wait(self) -> bool:
        """Exactly one kind completes the hand without the winning tile (A5)."""
        wait = self._single_wait
        if wait is None:
            tile = self.winning_tile
            hand = self.hand
            wait = self._single_wait = tile is not None and self.win_by != "original-hand" and is_single_wait(
                hand.counts, INDEX[tile], hand.meld_counts, self.keys, bool(hand.melds)
            )
        return wait


class Winner:
    """The winner's hand in one arrangement: groups with exposure resolved, and how it was won.

    ``pungs`` are the pungs and kongs among the groups, ``honour_sets`` the pungs and kongs of
    winds and dragons (which most rules look at), both in the groups' order; ``sets`` (the groups
    but the pair) are listed on demand: without a chow they are the pungs.  ``shape`` hands over
    :func:`shape_of` of ``groups`` when the caller has worked it out already, for another role of
    the winning tile in the same groups."""

    __slots__ = ("facts", "hand", "own_wind", "round_wind", "win_by", "winning_tile", "drawn", "category", "groups",
                 "winning_index", "special", "pungs", "pair", "has_chow", "honour_sets")

    def __init__(self, facts: WinningHand, groups: tuple[Group, ...], winning_index: int | None,
                 special: str | None = None, shape: "Shape | None" = None):
        self.facts = facts
        self.hand, self.own_wind, self.round_wind = facts.hand, facts.own_wind, facts.round_wind
        self.win_by, self.winning_tile, self.drawn = facts.win_by, facts.winning_tile, facts.drawn
        self.category = facts.category
        self.groups, self.winning_index, self.special = groups, winning_index, special
        self.pungs, self.pair, self.has_chow, self.honour_sets = shape or shape_of(groups)

    @property
    def sets(self) -> list[Group]:
        """The groups but the pair, in order."""
        return [g for g in self.groups if g.kind != "pair"]

    @property
    def winning_group(self) -> Group | None:
        return None if self.winning_index is None else self.groups[self.winning_index]

    @property
    def only_place(self) -> bool:
        """Filling the only place to win (A5): exactly one kind completes the hand."""
        return self.facts.single_wait


Shape = tuple[list[Group], "Group | None", bool, list[Group]]


def shape_of(groups: tuple[Group, ...]) -> Shape:
    """``(pungs, pair, has_chow, honour_sets)`` of an arrangement (see :class:`Winner`)."""
    pungs: list[Group] = []
    honour_sets: list[Group] = []
    pair = None
    has_chow = False
    for g in groups:
        if g.is_set_of_a_kind:
            pungs.append(g)
            if g.is_honour:
                honour_sets.append(g)
        elif g.kind == "chow":
            has_chow = True
        elif pair is None:
            pair = g
    return pungs, pair, has_chow, honour_sets


def set_item_table(points: dict) -> dict[Group, tuple[str, int]]:
    """Every pung and kong group -> its item (label, points) under a set-points table; built once,
    at import, from the table (groups are interned and hash by identity)."""
    groups = (Group.of(kind, tile, exposed, declared) for kind in ("pung", "kong") for tile in KINDS
              for exposed in (False, True) for declared in (False, True))
    return {g: (g.label, points[g.points_key]) for g in groups}


SET_ITEMS: Final = set_item_table(SET_POINTS)


def set_items(sets: list[Group], table: dict = SET_ITEMS) -> list[tuple[str, int]]:
    """An item for every pung and kong (chows score nothing); ``table`` from :func:`set_item_table`."""
    return [table[g] for g in sets if g.is_set_of_a_kind]


def pung_items(pungs: list[Group], table: dict = SET_ITEMS) -> list[tuple[str, int]]:
    """:func:`set_items` of a list holding only pungs and kongs (a winner's ``pungs``)."""
    return list(map(table.__getitem__, pungs))


def meld_groups(hand: Hand) -> tuple[Group, ...]:
    return tuple(Group.of(m.kind, m.tile, m.exposed, True) for m in hand.melds)


def honour_sets_of(sets: list[Group]) -> list[Group]:
    """The pungs and kongs of winds and dragons among ``sets``, in order: the only sets that double."""
    return [g for g in sets if g.is_honour_set]


def non_winner_groups(hand: Hand) -> tuple[list[Group], list[Group]]:
    """A non-winner's sets (declared melds, then hidden triplets) and hidden pairs (A30)."""
    if not hand.melds:
        return hidden_sets_and_pairs(hand.counts, hand.packed, hand.size)
    hidden_sets, pairs = hidden_sets_and_pairs(hand.counts, hand.packed, hand.size)
    return list(meld_groups(hand)) + hidden_sets, pairs


_CHARACTERS: Final = SUIT_MASKS[0]
_DOTS: Final = SUIT_MASKS[1]
_BAMBOO: Final = SUIT_MASKS[2]


def suit_category(held: int) -> str | None:
    """``all-one-suit``, ``one-suit-with-honours``, ``all-honours`` or None (mixed suits), for
    tiles packed by :func:`scoring.arrange.pack`."""
    honours = held & HONOUR_MASK
    suits = (held & _CHARACTERS != 0) + (held & _DOTS != 0) + (held & _BAMBOO != 0)
    if not suits:
        return "all-honours" if honours else None
    if suits > 1:
        return None
    return "one-suit-with-honours" if honours else "all-one-suit"


# (Holds characters, dots, bamboo, honours) -> suit_category.
_CATEGORY: Final = {
    (m, p, s, z): suit_category(sum(mask for mask, held in zip((*SUIT_MASKS, HONOUR_MASK), (m, p, s, z)) if held))
    for m in (False, True) for p in (False, True) for s in (False, True) for z in (False, True)
}


def dragon_set_doubles(sets: list[Group]) -> list[tuple[str, int]]:
    if not sets:
        return []
    return [(f"dragon-set:{g.tile}", 1) for g in sets if g.is_dragon and g.is_set_of_a_kind]


def wind_sets(sets: list[Group], wind: str | None) -> list[Group]:
    if wind is None or not sets:
        return []
    return [g for g in sets if g.tile == wind and g.is_set_of_a_kind]


def own_bonus_doubles(hand: Hand) -> list[tuple[str, int]]:
    if not hand.bonus_tiles:
        return []
    return [(f"own-bonus-tile:{f}", 1) for f in hand.bonus_tiles if bonus_wind(f) == hand.seat]


def count_wind_sets(sets: list[Group]) -> int:
    return len({g.tile for g in sets if g.is_wind and g.is_set_of_a_kind}) if sets else 0


def count_dragon_sets(sets: list[Group]) -> int:
    return len({g.tile for g in sets if g.is_dragon and g.is_set_of_a_kind}) if sets else 0

"""What every ruleset shares: the hand being scored, the itemised score, and small helpers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..arrange import Group, hidden_sets_and_pairs
from ..case import Hand
from ..tiles import bonus_wind, is_dragon, is_head, is_wind

# Points for a pung or kong: (kind, is a head, concealed) -> points.  Shared by Harr's Part I,
# the non-winning hands of Part II, and the classical rules (their tables agree).
SET_POINTS = {
    ("pung", False, False): 2,
    ("pung", False, True): 4,
    ("pung", True, False): 4,
    ("pung", True, True): 8,
    ("kong", False, False): 8,
    ("kong", False, True): 16,
    ("kong", True, False): 16,
    ("kong", True, True): 32,
}


@dataclass
class HandScore:
    """An itemised score: points are summed, then doubled, then capped at the limit."""

    items: list[tuple[str, int]] = field(default_factory=list)
    doubles: list[tuple[str, int]] = field(default_factory=list)
    limit_hand: str | None = None
    score: int = 0
    uncapped: int | None = None
    dead: bool = False

    @property
    def points(self) -> int:
        return sum(p for _, p in self.items)

    @property
    def doublings(self) -> int:
        return sum(n for _, n in self.doubles)

    def finish(self, limit: int | None) -> "HandScore":
        """Compute the final score from the items and doubles, capped at ``limit``."""
        raw = self.points * 2 ** self.doublings
        if limit is not None and raw > limit:
            self.score, self.uncapped = limit, raw
        else:
            self.score, self.uncapped = raw, None
        return self

    @classmethod
    def limit(cls, name: str, value: int) -> "HandScore":
        return cls(limit_hand=name, score=value)

    @classmethod
    def dead_hand(cls) -> "HandScore":
        return cls(items=[("dead-hand", 0)], score=0, dead=True)


@dataclass
class Winner:
    """The winner's hand in one arrangement: groups with exposure resolved, and how it was won."""

    hand: Hand
    own_wind: str
    round_wind: str | None
    groups: tuple[Group, ...]
    winning_index: int | None
    single_wait: Callable[[], bool]  # whether exactly one kind completes the hand (lazy, shared)
    special: str | None = None

    @property
    def win_by(self) -> str:
        return self.hand.win_by or ""

    @property
    def winning_tile(self) -> str | None:
        return self.hand.winning_tile

    @property
    def drawn(self) -> bool:
        """Won on a tile the player drew himself (from the wall or the loose tiles)."""
        return self.win_by in ("self-draw", "loose-tile")

    def __post_init__(self) -> None:
        self.sets: list[Group] = [g for g in self.groups if g.kind != "pair"]
        self.pair: Group | None = next((g for g in self.groups if g.kind == "pair"), None)
        self.has_chow: bool = any(g.kind == "chow" for g in self.groups)

    @property
    def winning_group(self) -> Group | None:
        return None if self.winning_index is None else self.groups[self.winning_index]

    @property
    def only_place(self) -> bool:
        """Filling the only place to win (A5): exactly one kind completes the hand."""
        return self.win_by != "original-hand" and self.single_wait()

    def tiles(self) -> list[str]:
        return self.hand.all_tiles()


def set_points(group: Group, table: dict = SET_POINTS) -> int:
    return table[(group.kind, is_head(group.tile), not group.exposed)]


def set_items(sets: list[Group], table: dict = SET_POINTS) -> list[tuple[str, int]]:
    """An item for every pung and kong (chows score nothing)."""
    return [(set_label(g), set_points(g, table)) for g in sets if g.is_set_of_a_kind]


def non_winner_groups(hand: Hand) -> tuple[list[Group], list[Group]]:
    """A non-winner's sets (declared melds, then hidden triplets) and hidden pairs (A30)."""
    hidden_sets, pairs = hidden_sets_and_pairs(hand.concealed)
    return [Group(m.kind, m.tile, m.exposed, True) for m in hand.melds] + hidden_sets, pairs


def set_label(group: Group) -> str:
    return f"{group.kind}:{group.tile}:{'exposed' if group.exposed else 'concealed'}"


def suit_category(tiles: list[str]) -> str | None:
    """``all-one-suit``, ``one-suit-with-honours``, ``all-honours`` or None (mixed suits)."""
    letters = {t[1] for t in tiles}
    honours = "z" in letters
    suits = letters - {"z"}
    if not suits:
        return "all-honours" if honours else None
    if len(suits) > 1:
        return None
    return "one-suit-with-honours" if honours else "all-one-suit"


def dragon_set_doubles(sets: list[Group]) -> list[tuple[str, int]]:
    return [(f"dragon-set:{g.tile}", 1) for g in sets if g.is_set_of_a_kind and is_dragon(g.tile)]


def wind_sets(sets: list[Group], wind: str | None) -> list[Group]:
    return [g for g in sets if g.is_set_of_a_kind and wind is not None and g.tile == wind]


def own_bonus_doubles(hand: Hand) -> list[tuple[str, int]]:
    return [(f"own-bonus-tile:{f}", 1) for f in hand.bonus_tiles if bonus_wind(f) == hand.seat]


def is_scoring_pair_tile(tile: str, own_wind: str, round_wind: str | None) -> bool:
    return is_dragon(tile) or tile == own_wind or (round_wind is not None and tile == round_wind)


def count_wind_sets(sets: list[Group]) -> int:
    return len({g.tile for g in sets if g.is_set_of_a_kind and is_wind(g.tile)})


def count_dragon_sets(sets: list[Group]) -> int:
    return len({g.tile for g in sets if g.is_set_of_a_kind and is_dragon(g.tile)})

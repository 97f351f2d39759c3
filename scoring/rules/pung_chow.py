"""Harr, *Pung Chow* (1922), Part I: the unlimited game (RULES.md section 1)."""

from __future__ import annotations

from typing import Final

from ..arrange import Group
from ..case import Hand
from .common import (
    HandScore,
    Winner,
    dragon_set_doubles,
    honour_sets_of,
    own_bonus_doubles,
    non_winner_groups,
    pung_items,
    set_items,
    suit_category,
    wind_sets,
)

NAME: Final = "pung-chow"
# Scores read the arrangement, never which group the winning tile completed (Winner.winning_index).
READS_WINNING_ROLE: Final = False
MAH_JONGG: Final = 20
BONUS_POINTS: Final = {"no-sequence": 10, "no-other-score": 10, "loose-tile": 10, "self-draw": 2, "only-place": 2}
PAIR_POINTS: Final = 2  # a pair of dragons or of one's own wind ("limited to two points")
SUIT_DOUBLES: Final = {"one-suit-with-honours": 1, "all-one-suit": 3, "all-honours": 3}
ORIGINAL_HAND_DOUBLES: Final = 3


def limit(params: dict) -> int | None:
    return None  # "there is no limit"


def _pair_items(pairs: list[Group] | tuple[Group, ...], own_wind: str) -> list[tuple[str, int]]:
    """A pair of dragons or of one's own wind (the winner's pair is scored the same way)."""
    return [(f"pair:{p.tile}", PAIR_POINTS) for p in pairs if p.is_dragon or p.tile == own_wind]


def _doubles(sets: list[Group] | None, category: str | None, hand: Hand, own_wind: str) -> list[tuple[str, int]]:
    doubles = []
    if category:
        doubles.append((category, SUIT_DOUBLES[category]))
    if sets:  # only pungs and kongs of winds and dragons double
        doubles += dragon_set_doubles(sets)
        doubles += [(f"own-wind-set:{g.tile}", 1) for g in wind_sets(sets, own_wind)]
    if hand.bonus_tiles:
        doubles += own_bonus_doubles(hand)
    return doubles


def score_winner(w: Winner, params: dict) -> HandScore:
    items = [("mah-jongg", MAH_JONGG)]
    if not w.has_chow:
        items.append(("no-sequence", BONUS_POINTS["no-sequence"]))
    if w.win_by == "loose-tile":
        items.append(("loose-tile", BONUS_POINTS["loose-tile"]))
    if w.drawn:
        items.append(("self-draw", BONUS_POINTS["self-draw"]))
    if w.only_place:
        items.append(("only-place", BONUS_POINTS["only-place"]))
    if w.pungs:
        items += pung_items(w.pungs)
    pair = w.pair
    if pair is not None and pair.is_honour:  # only pairs of dragons and winds can score
        items += _pair_items((pair,), w.own_wind)
    if len(items) == 1:
        items.append(("no-other-score", BONUS_POINTS["no-other-score"]))
    hand = w.hand
    if w.category or w.honour_sets or hand.bonus_tiles:  # else there is nothing to double
        doubles = _doubles(w.honour_sets, w.category, hand, w.own_wind)
    else:
        doubles = []
    if w.win_by == "original-hand":
        doubles.append(("original-hand", ORIGINAL_HAND_DOUBLES))
    return HandScore.scored(items, doubles, None)


def score_other(hand: Hand, own_wind: str, round_wind: str | None, cap: int | None) -> HandScore:
    """A non-winner's score (``cap``, :func:`limit` of the case's parameters, is always None)."""
    sets, pairs = non_winner_groups(hand)
    items = set_items(sets) if sets else []
    if pairs:
        items += _pair_items(pairs, own_wind)
    assert hand.packed is not None and hand.meld_packed is not None  # (a table holds at most 136 tiles)
    category = suit_category(hand.packed + hand.meld_packed)
    honours = honour_sets_of(sets) if sets else None
    doubles = _doubles(honours, category, hand, own_wind) if category or honours or hand.bonus_tiles else []
    return HandScore.scored(items, doubles, cap)

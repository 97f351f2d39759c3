"""Harr, *Pung Chow* (1922), Part II: the limit game (RULES.md section 2)."""

from __future__ import annotations

from ..arrange import Group, chow_wait
from ..case import Hand
from ..tiles import is_dragon, is_head, is_wind
from .common import (
    SET_POINTS,
    HandScore,
    Winner,
    count_dragon_sets,
    count_wind_sets,
    dragon_set_doubles,
    non_winner_groups,
    set_items,
    suit_category,
    wind_sets,
)

NAME = "pung-chow-limit"
USUAL_LIMIT = {10: 300, 20: 400}  # "usually 300 points ... and 400 in games giving a bonus of 20"
NO_OTHER_SCORE = 10

# The winning hand's concealed pungs are worth more than other hands' (2.6).
WINNER_SET_POINTS = {**SET_POINTS, ("pung", False, True): 6, ("pung", True, True): 10}
# Pair completing the hand: (own wind in own round, head) -> (punged, drawn).
COMPLETING_PAIR = {(True, True): (6, 8), (False, True): (4, 6), (False, False): (2, 4)}
# Sequence completed by the winning tile: wait -> (chowed, drawn); 0 means no item.
COMPLETING_SEQUENCE = {"closed": (2, 4), "edge": (2, 4), "two-sided": (0, 4)}
PAIR_POINTS = 2
OWN_WIND_IN_OWN_ROUND_PAIR = 4

LIMIT_HANDS = (
    "single-heads",
    "heads-sets-only",
    "four-winds",
    "three-winds-pair-fourth",
    "four-kongs",
    "east-original-hand",
    "three-dragons",
)


def mj_bonus(params: dict) -> int:
    return int(params.get("mj_bonus") or 10)


def limit(params: dict) -> int | None:
    value = params.get("limit")
    return None if value is None else int(value)


def limit_value(params: dict) -> int:
    """What a limit hand scores: the limit, or the book's usual one when play is uncapped."""
    value = limit(params)
    return value if value is not None else USUAL_LIMIT.get(mj_bonus(params), 300)


def _pair_item(tile: str, own_wind: str, round_wind: str | None) -> list[tuple[str, int]]:
    if tile == own_wind and tile == round_wind:
        return [(f"pair:{tile}", OWN_WIND_IN_OWN_ROUND_PAIR)]
    if is_dragon(tile) or tile == own_wind or tile == round_wind:
        return [(f"pair:{tile}", PAIR_POINTS)]
    return []


def _wind_and_dragon_doubles(sets: list[Group], own_wind: str, round_wind: str | None) -> list[tuple[str, int]]:
    doubles = dragon_set_doubles(sets)
    times = 2 if own_wind == round_wind else 1
    doubles += [(f"own-wind-set:{g.tile}", times) for g in wind_sets(sets, own_wind)]
    return doubles


def limit_hand(w: Winner) -> str | None:
    if w.special == "thirteen-orphans":
        return "single-heads"
    if w.win_by == "original-hand" and w.hand.seat == "E":
        return "east-original-hand"
    if not w.groups:
        return None
    sets, pair = w.sets, w.pair
    if not w.has_chow and pair.is_head and all(g.is_head for g in sets):
        return "heads-sets-only"
    winds = count_wind_sets(w.honour_sets)
    if winds == 4:
        return "four-winds"
    if winds == 3 and pair.is_wind and not any(g.tile == pair.tile for g in sets):
        return "three-winds-pair-fourth"
    if not w.has_chow and all(g.kind == "kong" for g in sets):
        return "four-kongs"
    if count_dragon_sets(w.honour_sets) == 3:
        return "three-dragons"
    return None


def score_winner(w: Winner, params: dict) -> HandScore:
    name = limit_hand(w)
    if name:
        return HandScore.limit(name, limit_value(params))
    items = [("mah-jongg", mj_bonus(params))]
    items += set_items(w.sets, WINNER_SET_POINTS)
    won = w.winning_group
    how = 1 if w.drawn else 0
    if won is not None and won.kind == "pair":
        key = (won.tile == w.own_wind == w.round_wind, is_head(won.tile))
        items.append((f"pair-completing:{won.tile}:{'drawn' if w.drawn else 'punged'}", COMPLETING_PAIR[key][how]))
    elif w.pair is not None:
        items += _pair_item(w.pair.tile, w.own_wind, w.round_wind)
    if won is not None and won.kind == "chow":
        wait = chow_wait(won, w.winning_tile)
        points = COMPLETING_SEQUENCE[wait][how]
        if points:
            items.append((f"sequence-completing:{wait}:{'drawn' if w.drawn else 'chowed'}", points))
    if len(items) == 1:
        items.append(("no-other-score", NO_OTHER_SCORE))
    doubles = _wind_and_dragon_doubles(w.honour_sets, w.own_wind, w.round_wind)
    category = w.category
    if category == "one-suit-with-honours":
        doubles.append((category, 1))
    elif category == "all-one-suit":
        doubles.append((category, 3))
    if not w.has_chow:
        doubles.append(("no-sequence", 1))
    if w.win_by == "loose-tile":
        doubles.append(("loose-tile", 1))
    if "last-tile" in w.hand.flags and w.drawn:
        doubles.append(("last-tile", 1))
    return HandScore(items=items, doubles=doubles).finish(limit(params))


def score_other(hand: Hand, own_wind: str, round_wind: str | None, params: dict) -> HandScore:
    sets, pairs = non_winner_groups(hand)
    items = set_items(sets)
    for p in pairs:
        items += _pair_item(p.tile, own_wind, round_wind)
    doubles = _wind_and_dragon_doubles(sets, own_wind, round_wind)
    return HandScore(items=items, doubles=doubles).finish(limit(params))


WASH_PAYMENTS = {9: 50, 10: 70, 11: 100, 12: 150, 13: 200}

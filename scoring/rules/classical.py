"""The classical rules (seeds/classical-rules.txt; RULES.md section 3)."""

from __future__ import annotations

from typing import Final

from ..arrange import Group
from ..case import Hand, ScoringError
from ..tiles import is_dragon
from .common import (
    HandScore,
    Winner,
    count_dragon_sets,
    count_wind_sets,
    dragon_set_doubles,
    honour_sets_of,
    own_bonus_doubles,
    non_winner_groups,
    pung_items,
    set_items,
    wind_sets,
)

NAME: Final = "classical"
# Scores read the arrangement, never which group the winning tile completed (Winner.winning_index).
READS_WINNING_ROLE: Final = False
DEFAULT_LIMIT: Final = 1000  # the seed never states the limit (A21)
BONUS_POINTS: Final = {
    "mah-jongg": 20,
    "self-draw": 2,
    "only-place": 2,
    "standing-hand": 100,
    "no-sequence": 10,
    "no-other-score": 10,
    "last-tile": 10,
    "loose-tile": 10,
}
PAIR_POINTS: Final = 2
BONUS_TILE_POINTS: Final = 4
WINNER_DOUBLES: Final = {"one-suit-with-honours": 1, "all-one-suit": 3, "terminals-and-honours": 1, "robbing-kong": 1}
FOUR_OF_A_KIND_BONUS_DOUBLES: Final = 3  # four flowers or four seasons


def limit(params: dict) -> int:
    value = params.get("limit")
    return DEFAULT_LIMIT if value is None else int(value)


def east_double(params: dict) -> bool:
    return bool(params.get("east_double", True))


def _pair_items(tile: str, own_wind: str, round_wind: str | None) -> list[tuple[str, int]]:
    items = []
    if is_dragon(tile):
        items.append((f"pair-dragon:{tile}", PAIR_POINTS))
    if tile == own_wind:
        items.append((f"pair-own-wind:{tile}", PAIR_POINTS))
    if tile == round_wind:
        items.append((f"pair-round-wind:{tile}", PAIR_POINTS))
    return items


def _bonus_tile_items(hand: Hand) -> list[tuple[str, int]]:
    return [(f"bonus-tile:{f}", BONUS_TILE_POINTS) for f in hand.bonus_tiles]


def _all_hands_doubles(sets: list[Group] | None, hand: Hand, own_wind: str, round_wind: str | None) -> list[tuple[str, int]]:
    doubles = []
    if sets:  # only pungs and kongs of winds and dragons double
        doubles += [(f"own-wind-set:{g.tile}", 1) for g in wind_sets(sets, own_wind)]
        doubles += [(f"round-wind-set:{g.tile}", 1) for g in wind_sets(sets, round_wind)]
        doubles += dragon_set_doubles(sets)
    if not hand.bonus_tiles:
        return doubles
    doubles += own_bonus_doubles(hand)
    flowers = {f for f in hand.bonus_tiles if f in ("f1", "f2", "f3", "f4")}
    seasons = {f for f in hand.bonus_tiles if f in ("f5", "f6", "f7", "f8")}
    if len(flowers) == 4:
        doubles.append(("four-flowers", FOUR_OF_A_KIND_BONUS_DOUBLES))
    if len(seasons) == 4:
        doubles.append(("four-seasons", FOUR_OF_A_KIND_BONUS_DOUBLES))
    return doubles


def _check_east_flags(w: Winner) -> None:
    """Limit hands D and J name East: D is won on East's first discard, so by another player and
    on a discard; J is East's own thirteenth win in a row.  A flag that cannot hold is an input
    error, as Part II's first-card check makes it, not a limit given away."""
    hand = w.hand
    if "east-13th-consecutive" in hand.flags and hand.seat != "E":
        raise ScoringError("invalid-case", f"{hand.name} won, but east-13th-consecutive (limit J) is East's own "
                                           "thirteenth consecutive Mah-Jong")
    if "east-first-discard" in hand.flags:
        if hand.seat == "E":
            raise ScoringError("invalid-case", "East makes the first discard: East cannot win on it (limit D)")
        if w.win_by != "discard":
            raise ScoringError("invalid-case", f"{hand.name} won with East's first discard (limit D): "
                                               "win_by must be 'discard'")


def limit_hand(w: Winner, params: dict) -> str | None:
    flags = w.hand.flags
    _check_east_flags(w)
    if w.hand.seat == "E" and ("east-13th-consecutive" in flags or int(params.get("east_consecutive_wins") or 0) >= 13):
        return "J-east-13th-consecutive"
    if w.special == "thirteen-orphans":
        return "H-thirteen-odd-majors"
    if w.special == "nine-gates":
        return "I-calling-nine-tiles"
    if w.win_by == "original-hand":
        return "C-original-hand"
    if "east-first-discard" in flags:
        return "D-east-first-discard"
    if not w.groups:
        return None
    if not w.has_chow:  # (a chow holds a tile from two to eight)
        if w.facts.all_honours:
            return "A-all-winds-and-dragons"
        if w.facts.all_terminals:
            return "E-all-ones-and-nines"
    # Without a chow the sets are the pungs; no chow holds a wind.
    pungs, pair = w.pungs, w.pair
    assert pair is not None  # (an arrangement of four sets and a pair)
    if w.honour_sets:
        if count_wind_sets(w.honour_sets) == 3 and pair.is_wind and not any(g.tile == pair.tile for g in pungs):
            return "B-three-winds-pair-fourth"
        if count_dragon_sets(w.honour_sets) == 3:
            return "F-three-dragons"
    if not w.has_chow and all(not g.exposed for g in pungs):
        return "G-concealed-pungs"
    return None


def score_winner(w: Winner, params: dict) -> HandScore:
    name = limit_hand(w, params)
    if name:
        return HandScore.limit(name, limit(params))
    hand = w.hand
    items = [("mah-jongg", BONUS_POINTS["mah-jongg"])]
    if w.drawn:
        items.append(("self-draw", BONUS_POINTS["self-draw"]))
    if w.only_place:
        items.append(("only-place", BONUS_POINTS["only-place"]))
    if hand.flags:
        for flag in ("standing-hand", "last-tile"):
            if flag in hand.flags:
                items.append((flag, BONUS_POINTS[flag]))
    if w.win_by == "loose-tile":
        items.append(("loose-tile", BONUS_POINTS["loose-tile"]))
    if not w.has_chow:
        items.append(("no-sequence", BONUS_POINTS["no-sequence"]))
    if w.pungs:
        items += pung_items(w.pungs)
    pair = w.pair
    assert pair is not None  # (not a special hand: those are limit hands)
    if pair.is_honour:  # only pairs of dragons and winds can score
        items += _pair_items(pair.tile, w.own_wind, w.round_wind)
    if hand.bonus_tiles:
        items += _bonus_tile_items(hand)
    if len(items) == 1:
        items.append(("no-other-score", BONUS_POINTS["no-other-score"]))
    if w.honour_sets or hand.bonus_tiles:  # else there is nothing to double in every hand
        doubles = _all_hands_doubles(w.honour_sets, hand, w.own_wind, w.round_wind)
    else:
        doubles = []
    if w.win_by == "robbing-kong":
        doubles.append(("robbing-kong", WINNER_DOUBLES["robbing-kong"]))
    category = w.category
    if category in ("one-suit-with-honours", "all-one-suit"):
        doubles.append((category, WINNER_DOUBLES[category]))
    if not w.has_chow and w.facts.heads_with_honours:  # (a chow holds a tile from two to eight)
        doubles.append(("terminals-and-honours", WINNER_DOUBLES["terminals-and-honours"]))
    return HandScore.scored(items, doubles, limit(params))


def score_other(hand: Hand, own_wind: str, round_wind: str | None, cap: int | None) -> HandScore:
    """A non-winner's score, capped at ``cap`` (:func:`limit` of the case's parameters, worked
    out once per table by the engine)."""
    sets, pairs = non_winner_groups(hand)
    items = set_items(sets) if sets else []
    for p in pairs:
        if p.is_honour:  # only pairs of dragons and winds can score
            items += _pair_items(p.tile, own_wind, round_wind)
    if hand.bonus_tiles:
        items += _bonus_tile_items(hand)
    honours = honour_sets_of(sets) if sets else None
    doubles = _all_hands_doubles(honours, hand, own_wind, round_wind) if honours or hand.bonus_tiles else []
    return HandScore.scored(items, doubles, cap)

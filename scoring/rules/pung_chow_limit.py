"""Harr, *Pung Chow* (1922), Part II: the limit game (RULES.md section 2).

Two bonus scores of RULES.md 2.4 have no vector; their readings (A18, A19) are ours:

* Item 5, "To win on first card played a bonus of half the limit hand is given. Washing cards
  have preference over this."  The first card played is East's first discard (East "starts the
  play by discarding"), so the hand is flagged ``east-first-discard`` and won by ``discard`` by
  another player.  The bonus is an item, ``first-card-played``, worth half of what a limit hand
  scores (half of :func:`limit_value`), counted like the other bonus points of 2.4 (the
  Mah-Jongg bonus, "no other score"): added before the doubles, then capped at the limit.  It
  does not count as scoring value for "no other score".  If the winner's hand before that
  discard (his dealt 13 tiles) held 9 or more different heads he was entitled to wash the tiles,
  which "have preference": the case is refused with a message to score it as a ``wash``.
  (Other readings: half the limit as the whole score, or added after the doubles.)
* Item 6, "For completing the hand with the fourth card of an exposed set of three of a kind
  ... if a player has an exposed set of 3 of a kind and he draws or pungs the fourth tile, and
  if this very tile is the winning tile, he may double the total score once."  The fourth tile
  cannot join the exposed pung and still leave four sets and a pair, so it completes another
  group of the concealed tiles (a sequence): whenever the winning tile is the kind of one of the
  winner's exposed pungs, the hand doubles once more (``fourth-tile-of-exposed-pung``).  No case
  flag is needed: the melds and the winning tile show it.
"""

from __future__ import annotations

from typing import Final

from ..arrange import HEAD_INDICES, INDEX, Group, chow_wait
from ..case import Hand, ScoringError
from ..tiles import is_dragon, is_head
from .common import (
    SET_POINTS,
    HandScore,
    Winner,
    count_dragon_sets,
    count_wind_sets,
    dragon_set_doubles,
    honour_sets_of,
    non_winner_groups,
    pung_items,
    set_item_table,
    set_items,
    wind_sets,
)

NAME: Final = "pung-chow-limit"
# The pair or sequence the winning tile completed scores (2.4): each role is scored.
READS_WINNING_ROLE: Final = True
USUAL_LIMIT: Final = {10: 300, 20: 400}  # "usually 300 points ... and 400 in games giving a bonus of 20"
NO_OTHER_SCORE: Final = 10

# The winning hand's concealed pungs are worth more than other hands' (2.6).
# (Updating SET_POINTS's keys keeps its key objects, those of arrange.points_key.)
WINNER_SET_POINTS: Final = {**SET_POINTS, ("pung", False, True): 6, ("pung", True, True): 10}
WINNER_SET_ITEMS: Final = set_item_table(WINNER_SET_POINTS)
# Pair completing the hand: (own wind in own round, head) -> (punged, drawn).
COMPLETING_PAIR: Final = {(True, True): (6, 8), (False, True): (4, 6), (False, False): (2, 4)}
# Sequence completed by the winning tile: wait -> (chowed, drawn); 0 means no item.
COMPLETING_SEQUENCE: Final = {"closed": (2, 4), "edge": (2, 4), "two-sided": (0, 4)}
PAIR_POINTS: Final = 2
OWN_WIND_IN_OWN_ROUND_PAIR: Final = 4
WASH_PAYMENTS: Final = {9: 50, 10: 70, 11: 100, 12: 150, 13: 200}  # different heads -> from each player (2.3)
WASH_HEADS: Final = min(WASH_PAYMENTS)


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
    if w.win_by == "original-hand":  # (before any other limit: the hand's shape does not excuse it)
        if w.hand.seat != "E":  # (an input error, as the first-card check makes its own)
            raise ScoringError("invalid-case", f"{w.hand.name} won on the original hand, but in the limit game only "
                                               "East does (limit hand 6, 'East Wind winning on original draw from "
                                               f"the wall'; {w.hand.name} was dealt 13): say how {w.hand.name} won")
        if w.special != "thirteen-orphans":
            return "east-original-hand"
    if w.special == "thirteen-orphans":
        return "single-heads"
    if not w.groups:
        return None
    # Without a chow the sets are the pungs; no chow holds a wind.
    pungs, pair = w.pungs, w.pair
    assert pair is not None  # (an arrangement of four sets and a pair)
    if not w.has_chow and pair.is_head and all(g.is_head for g in pungs):
        return "heads-sets-only"
    winds = count_wind_sets(w.honour_sets) if w.honour_sets else 0
    if winds == 4:
        return "four-winds"
    if winds == 3 and pair.is_wind and not any(g.tile == pair.tile for g in pungs):
        return "three-winds-pair-fourth"
    if not w.has_chow and all(g.kind == "kong" for g in pungs):
        return "four-kongs"
    if w.honour_sets and count_dragon_sets(w.honour_sets) == 3:
        return "three-dragons"
    return None


FIRST_CARD_FLAG: Final = "east-first-discard"


def _check_first_card(w: Winner) -> None:
    """A win on the first card played: on East's discard, by another player, who could not wash."""
    hand = w.hand
    if hand.seat == "E":
        raise ScoringError("invalid-case", "East makes the first discard: East cannot win on the first card played")
    if w.win_by != "discard":
        raise ScoringError(
            "invalid-case", f"{hand.name} won on the first card played, East's first discard: win_by must be 'discard'"
        )
    tile = w.winning_tile
    assert tile is not None  # (won by discard)
    winning = INDEX[tile]
    dealt = [hand.counts[i] - (i == winning) for i in HEAD_INDICES]
    heads = sum(1 for n in dealt if n > 0)
    if heads >= WASH_HEADS:
        raise ScoringError(
            "invalid-case",
            f"{hand.name}'s dealt hand holds {heads} different heads: washing the tiles has preference over "
            "winning on the first card played (score it as a 'wash' case)",
        )


def _completes_with_fourth_tile(w: Winner) -> bool:
    """The winning tile is the fourth of a kind the winner shows as an exposed pung (A19)."""
    tile = w.winning_tile
    return w.winning_index is not None and any(
        m.kind == "pung" and m.exposed and m.tiles[0] == tile for m in w.hand.melds
    )


def score_winner(w: Winner, params: dict) -> HandScore:
    first_card = FIRST_CARD_FLAG in w.hand.flags
    if first_card:
        _check_first_card(w)
    name = limit_hand(w)
    if name:
        return HandScore.limit(name, limit_value(params))
    items = [("mah-jongg", mj_bonus(params))]
    if w.pungs:
        items += pung_items(w.pungs, WINNER_SET_ITEMS)
    won = w.winning_group
    how = 1 if w.drawn else 0
    if won is not None and won.kind == "pair":
        key = (won.tile == w.own_wind == w.round_wind, is_head(won.tile))
        items.append((f"pair-completing:{won.tile}:{'drawn' if w.drawn else 'punged'}", COMPLETING_PAIR[key][how]))
    elif w.pair is not None and w.pair.is_honour:  # only pairs of dragons and winds can score
        items += _pair_item(w.pair.tile, w.own_wind, w.round_wind)
    if won is not None and won.kind == "chow":
        assert w.winning_tile is not None  # (it completed a group)
        wait = chow_wait(won, w.winning_tile)
        points = COMPLETING_SEQUENCE[wait][how]
        if points:
            items.append((f"sequence-completing:{wait}:{'drawn' if w.drawn else 'chowed'}", points))
    if len(items) == 1:
        items.append(("no-other-score", NO_OTHER_SCORE))
    if first_card:
        items.append(("first-card-played", limit_value(params) // 2))
    doubles = _wind_and_dragon_doubles(w.honour_sets, w.own_wind, w.round_wind) if w.honour_sets else []
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
    if w.hand.melds and _completes_with_fourth_tile(w):
        doubles.append(("fourth-tile-of-exposed-pung", 1))
    return HandScore.scored(items, doubles, limit(params))


def score_other(hand: Hand, own_wind: str, round_wind: str | None, cap: int | None) -> HandScore:
    """A non-winner's score, capped at ``cap`` (:func:`limit` of the case's parameters, worked
    out once per table by the engine)."""
    sets, pairs = non_winner_groups(hand)
    items = set_items(sets) if sets else []
    for p in pairs:
        if p.is_honour:  # only pairs of dragons and winds can score
            items += _pair_item(p.tile, own_wind, round_wind)
    honours = honour_sets_of(sets) if sets else None
    doubles = _wind_and_dragon_doubles(honours, own_wind, round_wind) if honours else []
    return HandScore.scored(items, doubles, cap)


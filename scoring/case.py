"""A table to score: parsed from the vectors.json case format and validated.

Validation names the player, tile or meld at fault and raises :class:`ScoringError` with one of
the error codes of RULES.md 0.2 (plus ``invalid-case`` for a document that is not a case at all).
Nothing here knows how hands are scored.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .tiles import (
    BACK,
    WIND_LETTERS,
    TileError,
    format_tiles,
    is_bonus,
    is_suit,
    parse_tiles,
    rank_of,
    suit_of,
    tile_name,
)

RULESETS = ("pung-chow", "pung-chow-limit", "classical")
WIN_BY = ("self-draw", "discard", "loose-tile", "robbing-kong", "original-hand")
FLAGS = (
    "last-tile",
    "standing-hand",
    "east-first-discard",
    "east-13th-consecutive",
    "wash-tiles",
    "false-mah-jongg",
)
CASE_KINDS = (None, "wash", "penalty-false-mj", "penalty-discarder")
MELD_KINDS = ("chow", "pung", "kong")
SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


class ScoringError(ValueError):
    """Invalid input: ``code`` is machine-readable, the message names what is wrong."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class Meld:
    """A set declared before the winning tile: chow, pung or kong, exposed or concealed."""

    kind: str
    tiles: tuple[str, ...]
    exposed: bool

    @property
    def tile(self) -> str:
        """The set's lowest tile (its kind for pungs and kongs)."""
        return self.tiles[0]

    def describe(self) -> str:
        return f"{'exposed' if self.exposed else 'concealed'} {self.kind} {format_tiles(self.tiles)}"


@dataclass
class Hand:
    """One player's tiles at the end of the hand."""

    seat: str
    winner: bool
    concealed: list[str]
    melds: list[Meld]
    winning_tile: str | None
    win_by: str | None
    flags: frozenset[str]
    bonus_tiles: list[str]

    @property
    def name(self) -> str:
        return SEAT_NAMES.get(self.seat, self.seat)

    def all_tiles(self) -> list[str]:
        return self.concealed + [t for m in self.melds for t in m.tiles]

    def declared_kongs(self) -> int:
        return sum(1 for m in self.melds if m.kind == "kong")

    def tile_count(self) -> int:
        """Tiles held, counting each kong as three (a complete hand has 14)."""
        return len(self.concealed) + sum(3 for _ in self.melds)


@dataclass
class Case:
    ruleset: str
    seat_wind: str | None
    round_wind: str | None
    params: dict[str, Any]
    kind: str | None
    hands: list[Hand]
    discarder: str | None = None
    discarder_exempt: bool = False
    id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> Hand | None:
        return next((h for h in self.hands if h.winner), None)

    def hand(self, seat: str) -> Hand | None:
        return next((h for h in self.hands if h.seat == seat), None)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ScoringError("invalid-case", message)


def _tiles(text: Any, where: str, *, allow_empty: bool = True) -> list[str]:
    if text is None:
        text = ""
    if not isinstance(text, (str, list)):
        raise ScoringError("invalid-case", f"{where}: tiles must be a string like '123m55z'")
    try:
        codes = parse_tiles(text)
    except TileError as err:
        raise ScoringError("unknown-tile", f"{where}: {err}") from None
    if BACK in codes:
        raise ScoringError(
            "unknown-tile", f"{where}: a face-down tile ('back') must be named before scoring"
        )
    if not allow_empty and not codes:
        raise ScoringError("invalid-case", f"{where}: no tiles")
    return codes


def _parse_meld(raw: Any, where: str) -> Meld:
    if not isinstance(raw, dict):
        raise ScoringError("invalid-meld", f"{where}: a meld must be an object {{kind, tiles, exposed}}")
    kind = raw.get("kind")
    tiles = _tiles(raw.get("tiles"), where)
    if any(is_bonus(t) for t in tiles):
        raise ScoringError("invalid-meld", f"{where}: flowers and seasons cannot form a set")
    exposed = raw.get("exposed", True)
    if not isinstance(exposed, bool):
        raise ScoringError("invalid-meld", f"{where}: 'exposed' must be true or false")
    meld = Meld(kind=str(kind), tiles=tuple(tiles), exposed=exposed)
    _check_meld_shape(meld, where)
    return meld


def _check_meld_shape(meld: Meld, where: str) -> None:
    shown = format_tiles(meld.tiles) or "no tiles"
    if meld.kind not in MELD_KINDS:
        raise ScoringError(
            "invalid-meld", f"{where}: unknown meld kind {meld.kind!r} (use chow, pung or kong)"
        )
    size = 3 if meld.kind in ("chow", "pung") else 4
    if len(meld.tiles) != size:
        raise ScoringError(
            "invalid-meld", f"{where}: a {meld.kind} has {size} tiles, got {len(meld.tiles)} ({shown})"
        )
    if meld.kind == "chow":
        tiles = sorted(meld.tiles, key=lambda t: (t[1], t[0]))
        suits = {suit_of(t) for t in tiles}
        if not all(is_suit(t) for t in tiles):
            raise ScoringError("invalid-meld", f"{where}: a chow needs suit tiles, got {shown}")
        if len(suits) != 1:
            raise ScoringError("invalid-meld", f"{where}: a chow needs one suit, got {shown}")
        ranks = [rank_of(t) for t in tiles]
        if ranks != list(range(ranks[0], ranks[0] + 3)):
            raise ScoringError("invalid-meld", f"{where}: a chow needs three in sequence, got {shown}")
    elif len(set(meld.tiles)) != 1:
        raise ScoringError(
            "invalid-meld", f"{where}: a {meld.kind} needs {size} identical tiles, got {shown}"
        )


def _parse_hand(raw: Any, index: int) -> Hand:
    _require(isinstance(raw, dict), f"hands[{index}] must be an object")
    seat = raw.get("seat")
    if seat not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"hands[{index}]: seat {seat!r} is not one of E, S, W, N")
    who = SEAT_NAMES[seat]
    winner = raw.get("winner", False)
    _require(isinstance(winner, bool), f"{who}: 'winner' must be true or false")
    concealed = _tiles(raw.get("concealed"), f"{who}'s concealed tiles")
    bonus_in_hand = [t for t in concealed if is_bonus(t)]
    if bonus_in_hand:
        raise ScoringError(
            "invalid-case",
            f"{who}: flowers and seasons ({format_tiles(bonus_in_hand)}) belong in bonus_tiles",
        )
    melds_raw = raw.get("melds") or []
    _require(isinstance(melds_raw, list), f"{who}: 'melds' must be a list")
    melds = [_parse_meld(m, f"{who}'s meld {i + 1}") for i, m in enumerate(melds_raw)]
    winning_raw = raw.get("winning_tile")
    winning_tile = None
    if winning_raw not in (None, ""):
        codes = _tiles(winning_raw, f"{who}'s winning tile")
        if len(codes) != 1 or is_bonus(codes[0]):
            raise ScoringError("unknown-tile", f"{who}: the winning tile must be one tile, got {winning_raw!r}")
        winning_tile = codes[0]
    win_by = raw.get("win_by")
    if win_by is not None and win_by not in WIN_BY:
        raise ScoringError("invalid-case", f"{who}: win_by {win_by!r} is not one of {', '.join(WIN_BY)}")
    flags = raw.get("flags") or []
    _require(isinstance(flags, list), f"{who}: 'flags' must be a list")
    unknown = [f for f in flags if f not in FLAGS]
    if unknown:
        raise ScoringError("invalid-case", f"{who}: unknown flag {unknown[0]!r}")
    bonus = _tiles(raw.get("bonus_tiles"), f"{who}'s bonus tiles")
    not_bonus = [t for t in bonus if not is_bonus(t)]
    if not_bonus:
        raise ScoringError("unknown-tile", f"{who}: {not_bonus[0]} is not a flower or season")
    return Hand(seat, winner, concealed, melds, winning_tile, win_by, frozenset(flags), bonus)


def parse_case(raw: Any) -> Case:
    """Parse a vectors.json case (a dict) into a :class:`Case`, checking its structure."""
    _require(isinstance(raw, dict), "a case must be a JSON object")
    ruleset = raw.get("ruleset")
    _require(ruleset in RULESETS, f"ruleset {ruleset!r} is not one of {', '.join(RULESETS)}")
    kind = raw.get("kind")
    _require(kind in CASE_KINDS, f"kind {kind!r} is not one of wash, penalty-false-mj, penalty-discarder")
    params = raw.get("params") or {}
    _require(isinstance(params, dict), "'params' must be an object")
    hands_raw = raw.get("hands")
    _require(isinstance(hands_raw, list) and hands_raw, "'hands' must be a non-empty list")
    if len(hands_raw) > 4:
        raise ScoringError("invalid-seat", f"{len(hands_raw)} hands given; a table seats four")
    seat_wind = raw.get("seat_wind")
    if seat_wind is not None and seat_wind not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"seat_wind {seat_wind!r} is not one of E, S, W, N")
    round_wind = raw.get("round_wind")
    if round_wind is not None and round_wind not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"round_wind {round_wind!r} is not one of E, S, W, N")
    hands = [_parse_hand(h, i) for i, h in enumerate(hands_raw)]
    discarder = raw.get("discarder")
    if discarder is not None and discarder not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"discarder {discarder!r} is not one of E, S, W, N")
    case = Case(
        ruleset=ruleset,
        seat_wind=seat_wind,
        round_wind=round_wind,
        params=params,
        kind=kind,
        hands=hands,
        discarder=discarder,
        discarder_exempt=bool(raw.get("discarder_exempt", False)),
        id=raw.get("id"),
    )
    validate_table(case)
    return case


def validate_table(case: Case) -> None:
    """Checks across the whole table: seats, copies, winners, tile counts, winning tile."""
    seats = Counter(h.seat for h in case.hands)
    for seat, n in seats.items():
        if n > 1:
            raise ScoringError("invalid-seat", f"{SEAT_NAMES[seat]} appears {n} times at the table")
    copies = Counter(t for h in case.hands for t in h.all_tiles())
    for code, n in sorted(copies.items()):
        if n > 4:
            holders = [h.name for h in case.hands if code in h.all_tiles()]
            raise ScoringError(
                "too-many-copies",
                f"{n} copies of {tile_name(code)} ({code}) on the table (held by {', '.join(holders)}); a set has 4",
            )
    bonus = Counter(t for h in case.hands for t in h.bonus_tiles)
    for code, n in sorted(bonus.items()):
        if n > 1:
            raise ScoringError("too-many-copies", f"{tile_name(code)} ({code}) appears {n} times; a set has one")
    winners = [h for h in case.hands if h.winner]
    if len(winners) > 1:
        raise ScoringError(
            "multiple-winners", f"{' and '.join(h.name for h in winners)} are all marked as winners"
        )
    if case.kind == "penalty-discarder" and case.discarder is None:
        raise ScoringError("invalid-case", "a discarder penalty needs the 'discarder' seat")
    for hand in winners:
        _validate_winner(hand)


def _validate_winner(hand: Hand) -> None:
    expected = 14 + hand.declared_kongs()
    held = len(hand.all_tiles())
    if held != expected:
        raise ScoringError(
            "wrong-tile-count",
            f"{hand.name} (winner) holds {held} tiles; a complete hand with "
            f"{hand.declared_kongs()} kong(s) has {expected}",
        )
    if hand.win_by is None:
        raise ScoringError("invalid-case", f"{hand.name} (winner): say how the hand was won (win_by)")
    if hand.win_by == "original-hand":
        return
    if hand.winning_tile is None:
        raise ScoringError("winning-tile-not-in-hand", f"{hand.name} (winner): no winning tile given")
    if hand.winning_tile not in hand.concealed:
        raise ScoringError(
            "winning-tile-not-in-hand",
            f"{hand.name}'s winning tile {tile_name(hand.winning_tile)} ({hand.winning_tile}) "
            "is not among the concealed tiles",
        )

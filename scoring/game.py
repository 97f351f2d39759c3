"""A game: a sequence of hands with East's rotation, the wind of the round and running totals.

Both rule books rotate the same way: East keeps the deal while he wins (and after a drawn or
washed hand); when another player wins, the player who was South becomes East.  A round of the
wind ends when the deal comes back to the player who was first East in it; the rounds go East,
South, West, North, and then the game is over.  Part I has no wind of the round, so its cases
carry ``round_wind: null`` while the rotation is still tracked.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .case import ScoringError, parse_case
from .engine import TableResult, evaluate
from .tiles import WIND_LETTERS


@dataclass
class HandRecord:
    number: int
    round_wind: str
    east: str
    result: TableResult
    payments: dict[str, int]  # by player name


@dataclass
class Game:
    """Four named players, seated East, South, West, North at the start."""

    ruleset: str
    players: list[str]
    params: dict[str, Any] = field(default_factory=dict)
    dealer: int = 0
    round_index: int = 0
    dealers_in_round: int = 0
    totals: dict[str, int] = field(default_factory=dict)
    history: list[HandRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.players) != 4 or len(set(self.players)) != 4:
            raise ScoringError("invalid-seat", "a game needs four different player names")
        self.totals = {p: 0 for p in self.players}

    @property
    def finished(self) -> bool:
        return self.round_index >= 4

    @property
    def round_wind(self) -> str:
        return WIND_LETTERS[min(self.round_index, 3)]

    def seats(self) -> dict[str, str]:
        """Wind letter -> player for the next hand."""
        return {WIND_LETTERS[k]: self.players[(self.dealer + k) % 4] for k in range(4)}

    def play(self, case: dict[str, Any]) -> HandRecord:
        """Score one hand (seats as wind letters for this hand), add it to the totals, rotate."""
        if self.finished:
            raise ScoringError("invalid-case", "the game is over: four rounds have been played")
        case = copy.deepcopy(case)
        case.setdefault("ruleset", self.ruleset)
        if case["ruleset"] != self.ruleset:
            raise ScoringError("invalid-case", f"this game plays {self.ruleset}, not {case['ruleset']}")
        if self.params:
            case.setdefault("params", self.params)
        wind = None if self.ruleset == "pung-chow" else self.round_wind
        # Part I plays no wind of the round: a hand's round wind is no error there, only unread
        if wind is not None and case.get("round_wind") not in (None, wind):
            raise ScoringError("invalid-case", f"this hand is in the {wind} round, not {case['round_wind']}")
        case["round_wind"] = wind
        result = evaluate(parse_case(case))
        seats = self.seats()
        payments = {seats[s]: amount for s, amount in result.payments.items()}
        for player, amount in payments.items():
            self.totals[player] += amount
        record = HandRecord(len(self.history) + 1, self.round_wind, seats["E"], result, payments)
        self.history.append(record)
        self._rotate(result.winner)
        return record

    def _rotate(self, winner: str | None) -> None:
        if winner is None or winner == "E":
            return
        self.dealer = (self.dealer + 1) % 4
        self.dealers_in_round += 1
        if self.dealers_in_round == 4:
            self.dealers_in_round = 0
            self.round_index += 1

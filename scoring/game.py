"""A game: a sequence of hands with East's rotation, the wind of the round and running totals.

Both rule books rotate the same way: East keeps the deal while he wins (and after a drawn or
washed hand); when another player wins, the player who was South becomes East.  A round of the
wind ends when the deal comes back to the player who was first East in it; the rounds go East,
South, West, North, and then the game is over.  Part I has no wind of the round, so its cases
carry ``round_wind: null`` while the rotation is still tracked.
"""

from __future__ import annotations

import copy
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from .case import RULESETS, ScoringError, parse_case
from .engine import TableResult, evaluate
from .tiles import WIND_LETTERS, quoted

#: the most hands one game may hold (four rounds of four deals, East keeping the deal many times)
MAX_GAME_HANDS = 500


@dataclass
class HandRecord:
    number: int
    round_wind: str
    east: str
    result: TableResult
    payments: dict[str, int]  # by player name
    east_wins: int = 0  # the hands East had won in a row before this one


@dataclass
class Game:
    """Four named players, seated East, South, West, North at the start."""

    ruleset: str
    players: list[str]
    params: dict[str, Any] = field(default_factory=dict)
    dealer: int = 0
    round_index: int = 0
    dealers_in_round: int = 0
    #: the hands the present East has won in a row (the classical rules' limit hand J is East's
    #: thirteenth)
    east_wins: int = 0
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
        streak = self.east_wins + 1  # East's wins in a row, should East win this hand
        if self.ruleset == "classical":
            # the game counts them (the engine reads the count for East's win alone); a count
            # the hand gives stands, and the game goes on from it
            params = case.get("params") or {}
            if isinstance(params, dict):
                given = params.get("east_consecutive_wins")
                if given is None:
                    case["params"] = {**params, "east_consecutive_wins": streak}
                elif isinstance(given, (int, float)) and not isinstance(given, bool) and float(given).is_integer():
                    streak = int(given)  # (anything else the engine refuses, naming it)
        result = evaluate(parse_case(case))
        seats = self.seats()
        payments = {seats[s]: amount for s, amount in result.payments.items()}
        for player, amount in payments.items():
            self.totals[player] += amount
        record = HandRecord(len(self.history) + 1, self.round_wind, seats["E"], result, payments, streak - 1)
        self.history.append(record)
        self._rotate(result.winner, streak)
        return record

    def _rotate(self, winner: str | None, streak: int) -> None:
        if winner == "E":
            self.east_wins = streak
        if winner is None or winner == "E":
            return
        self.east_wins = 0
        self.dealer = (self.dealer + 1) % 4
        self.dealers_in_round += 1
        if self.dealers_in_round == 4:
            self.dealers_in_round = 0
            self.round_index += 1


def player_names(players: Any) -> list[str]:
    """Four player names as a game keeps them: one Unicode spelling each (NFC), none holding a
    character that cannot be seen, no two alike but for capitals."""
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players):
        raise ScoringError("invalid-case", "a game needs a list of four player names")
    names = [unicodedata.normalize("NFC", p.strip()) for p in players]
    for name in names:
        if not name or len(name) > 40:
            raise ScoringError("invalid-case", f"the player name {quoted(name)} must be 1 to 40 characters long")
        if any(unicodedata.category(c) in ("Cc", "Cf") for c in name):
            raise ScoringError("invalid-case", f"the player name {quoted(name)} holds a character that cannot be "
                                               "seen (a control or format character)")
    if len({n.casefold() for n in names}) < 4:
        raise ScoringError("invalid-case", "a game needs four different player names (names that differ only in "
                                           "capitals are one name)")
    return names


def play_out(ruleset: Any, players: Any, hands: Any) -> dict[str, Any]:
    """A game played out from its hands, as JSON: each hand's seats, winner and payments by
    player, the totals, who sits where at the next hand (None once the game is over) and whether
    it is.  `hands`: the tables of the hands, in order, each in the vectors.json case format with
    the winds of its own hand.  Refused (ScoringError) naming the hand the engine refuses."""
    if ruleset not in RULESETS:
        raise ScoringError("invalid-case", f"ruleset {quoted(ruleset)} is not one of {', '.join(RULESETS)}")
    if not isinstance(hands, list):
        raise ScoringError("invalid-case", "a game's hands are a list of tables")
    if len(hands) > MAX_GAME_HANDS:
        raise ScoringError("invalid-case", f"a game holds at most {MAX_GAME_HANDS} hands, not {len(hands)}")
    names = player_names(players)
    game = Game(str(ruleset), names)
    played: list[dict[str, Any]] = []
    for number, case in enumerate(hands, 1):
        seats = game.seats()
        if not isinstance(case, dict):
            raise ScoringError("invalid-case", f"hand {number}: a table is a JSON object")
        try:
            record = game.play(case)
        except ScoringError as err:
            raise ScoringError(err.code, f"hand {number}: {err}") from None
        winner = record.result.winner
        played.append({"number": number, "round_wind": record.round_wind, "seats": seats,
                       "winner": seats[winner] if winner else None, "payments": record.payments,
                       "east_wins": record.east_wins})
    nxt = None if game.finished else {"hand": len(played) + 1, "round_wind": game.round_wind, "seats": game.seats(),
                                      "east_wins": game.east_wins}
    return {"ruleset": ruleset, "players": names, "hands": played, "totals": dict(game.totals), "next": nxt,
            "finished": game.finished}

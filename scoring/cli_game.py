"""``mjscore game``: a game's running totals from its hands, read from a file or standard input."""

from __future__ import annotations

import argparse
import json

from .case import SEAT_NAMES as WIND_NAMES
from .case import ScoringError
from .cli import read_input, report_error
from .game import play_out
from .tiles import WIND_LETTERS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-",
                        help="JSON file of a game: {\"ruleset\": ..., \"players\": [four names, seated East, South, "
                             "West, North at the first hand], \"hands\": [the tables of the hands, in order, in the "
                             "vectors.json format]}; '-' or nothing reads stdin")
    parser.add_argument("--json", action="store_true", help="print the game as JSON (as POST /api/v1/game answers)")
    parser.description = ("play a game out from its hands: each hand settled among the players by name, East's "
                          "rotation, the wind of the round, the totals and who sits where next (exit status 1 "
                          "when a hand is refused)")


def summary(game: dict) -> str:
    """The game as a scorer reads it: a line a hand, the totals, who sits where next."""
    players = game["players"]
    width = max(len(p) for p in players)

    def round_of(wind: str) -> str:  # Part I plays no wind of the round: its rounds are counted
        return f"round {WIND_LETTERS.index(wind) + 1} of 4" if game["ruleset"] == "pung-chow" else f"{WIND_NAMES[wind]} round"

    lines = []
    for hand in game["hands"]:
        winner = hand["winner"] or "no one"
        nets = ", ".join(f"{p} {hand['payments'].get(p, 0):+d}" for p in players)
        lines.append(f"hand {hand['number']:>3} ({round_of(hand['round_wind'])}, East {hand['seats']['E']}): "
                     f"won by {winner}; {nets}")
    lines.append("totals:")
    lines += [f"  {p:<{width}}  {game['totals'][p]:+d}" for p in sorted(players, key=lambda p: -game["totals"][p])]
    nxt = game["next"]
    if nxt is None:
        lines.append("the game is over: four rounds of the wind have been played")
    else:
        seats = ", ".join(f"{WIND_NAMES[w]} {nxt['seats'][w]}" for w in WIND_LETTERS)
        lines.append(f"next: hand {nxt['hand']}, {round_of(nxt['round_wind'])}: {seats}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    data, status = read_input(args.file, as_json=args.json)
    if status:
        return status
    try:
        if not isinstance(data, dict):
            raise ScoringError("invalid-case", "a game is a JSON object with ruleset, players and hands")
        unknown = sorted(set(data) - {"ruleset", "players", "hands"})
        if unknown:
            raise ScoringError("invalid-case", f"a game has no field {unknown[0]!r} (it has ruleset, players and hands)")
        game = play_out(data.get("ruleset"), data.get("players"), data.get("hands", []))
    except ScoringError as err:
        report_error(err.code, err.message, args.json)
        return 1
    print(json.dumps(game) if args.json else summary(game))
    return 0

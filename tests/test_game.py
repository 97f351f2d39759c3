"""A game of several hands: East's rotation, the wind of the round, running totals."""

import json

import pytest

from conftest import DATA
from scoring.case import ScoringError
from scoring.game import Game

VECTORS = {c["id"]: c for c in json.loads((DATA / "vectors.json").read_text())}


def _hand(case_id, **changes):
    case = json.loads(json.dumps(VECTORS[case_id]))
    case.pop("expected")
    case.update(changes)
    return case


def test_east_keeps_the_deal_while_winning_and_passes_it_when_another_wins():
    game = Game("pung-chow-limit", ["Ann", "Bob", "Cy", "Di"], {"mj_bonus": 10, "limit": 300})
    assert game.seats() == {"E": "Ann", "S": "Bob", "W": "Cy", "N": "Di"}
    east_wins = _hand("harr-II-ex07-east", round_wind=None)
    record = game.play(east_wins)
    assert record.payments == {"Ann": 1800, "Bob": -600, "Cy": -600, "Di": -600}
    assert game.seats()["E"] == "Ann"
    south_wins = _hand("harr-II-ex05", round_wind=None)  # South wins a limit hand
    game.play(south_wins)
    assert game.seats() == {"E": "Bob", "S": "Cy", "W": "Di", "N": "Ann"}
    assert game.totals == {"Ann": 1800 - 600, "Bob": -600 + 1200, "Cy": -600 - 300, "Di": -600 - 300}
    assert sum(game.totals.values()) == 0


def test_rounds_advance_after_four_dealers_lose_and_the_game_ends():
    game = Game("classical", ["A", "B", "C", "D"], {"limit": 1000, "east_double": True})
    south_wins = _hand("classical-pair-own-round")
    for expected_round in "ESWN":
        for _ in range(4):
            assert game.round_wind == expected_round
            game.play(_hand("classical-pair-own-round", round_wind=None))
    assert game.finished
    assert sum(game.totals.values()) == 0
    with pytest.raises(ScoringError):
        game.play(south_wins)


def test_a_hand_from_another_round_is_refused():
    game = Game("classical", ["A", "B", "C", "D"], {"limit": 1000})
    with pytest.raises(ScoringError, match="E round"):
        game.play(_hand("classical-pair-own-round", round_wind="S"))


def test_washing_keeps_east():
    game = Game("pung-chow-limit", ["A", "B", "C", "D"], {"mj_bonus": 10, "limit": 300})
    record = game.play(_hand("harr-II-wash-10", round_wind=None))
    assert record.payments["B"] == 210
    assert game.seats()["E"] == "A"


def test_easts_thirteenth_win_in_a_row_is_the_classical_limit_hand_j():
    """The game counts East's wins in a row and gives each classical hand the count: the
    thirteenth is limit hand J (which the table alone cannot know); a deal passed starts again."""
    game = Game("classical", ["A", "B", "C", "D"], {"limit": 1000, "east_double": True})
    east_wins = _hand("classical-winds")
    for k in range(1, 14):
        record = game.play(east_wins)
        assert game.east_wins == k
        assert (record.result.to_json().get("limit_hand") == "J-east-13th-consecutive") == (k == 13), k
    assert record.payments["A"] == 3 * 2 * 1000  # the limit, East paid double by each
    game.play(_hand("classical-pair-own-round", round_wind=None))  # South wins: the deal passes
    assert game.east_wins == 0 and game.seats()["E"] == "B"
    given = _hand("classical-winds", round_wind=None)
    given["params"] = {"limit": 1000, "east_double": True, "east_consecutive_wins": 13}
    assert game.play(given).result.to_json().get("limit_hand") == "J-east-13th-consecutive"  # a count sent stands


def test_a_count_the_hand_gives_stands_and_the_game_goes_on_from_it():
    """A classical hand may say East's wins in a row itself (a game begun mid-evening): the
    game goes on from that count, and a hand with empty or falsy params still gets the game's."""
    game = Game("classical", ["A", "B", "C", "D"])
    given = _hand("classical-winds", round_wind=None)
    given["params"] = {"limit": 1000, "east_double": True, "east_consecutive_wins": 12}
    game.play(given)
    assert game.east_wins == 12 and game.history[-1].east_wins == 11  # before it: the count it gave, less it
    bare = _hand("classical-winds", round_wind=None)
    bare["params"] = {}
    assert game.play(bare).result.to_json().get("limit_hand") == "J-east-13th-consecutive"
    assert game.history[-1].east_wins == 12


def test_house_settings_are_bounded():
    from scoring import score_table

    case = _hand("classical-winds")
    case["params"] = {"limit": 9 * 10 ** 4000}
    error = score_table(case)["error"]
    assert error["code"] == "invalid-case" and "from 1 to 1,000,000,000" in error["message"]

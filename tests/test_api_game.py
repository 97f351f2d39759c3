"""POST /api/v1/game: a game's running totals from its hands, by player, with East's rotation."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from api.app import app
from conftest import DATA
from scoring import score_table
from scoring.game import Game

VECTORS = {c["id"]: c for c in json.loads((DATA / "vectors.json").read_text())}
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def _hand(case_id, **changes):
    case = json.loads(json.dumps(VECTORS[case_id]))
    case.pop("expected")
    case.update(changes)
    return case


def _post(body):
    with TestClient(app) as client:
        return client.post("/api/v1/game", json=body)


def test_a_game_settles_each_hand_among_the_players_by_name_and_rotates_east():
    hands = [_hand("harr-II-ex07-east", round_wind=None), _hand("harr-II-ex05", round_wind=None),
             _hand("harr-II-wash-10", round_wind=None)]
    answer = _post({"ruleset": "pung-chow-limit", "players": PLAYERS, "hands": hands})
    assert answer.status_code == 200, answer.text
    game = answer.json()
    # the engine's own game, played hand by hand, is the reference
    reference = Game("pung-chow-limit", PLAYERS)
    for got, hand in zip(game["hands"], hands):
        seats = reference.seats()
        record = reference.play(hand)
        assert got["seats"] == seats and got["payments"] == record.payments
        winner = score_table(hand).get("winner")
        assert got["winner"] == (seats[winner] if winner else None)
    assert [h["winner"] for h in game["hands"]] == ["Ann", "Bo", None]  # the wash: no one won
    assert game["totals"] == reference.totals and sum(game["totals"].values()) == 0
    # Ann (East) won and kept the deal; Bo (South) won and became East; the wash changed nothing
    assert [h["seats"]["E"] for h in game["hands"]] == ["Ann", "Ann", "Bo"]
    assert game["next"] == {"hand": 4, "round_wind": "E", "seats": {"E": "Bo", "S": "Cy", "W": "Di", "N": "Ann"},
                            "east_wins": 0}
    assert game["finished"] is False


def test_a_game_with_no_hands_yet_says_who_sits_where():
    game = _post({"ruleset": "classical", "players": PLAYERS, "hands": []}).json()
    assert game["totals"] == {p: 0 for p in PLAYERS} and game["hands"] == []
    assert game["next"] == {"hand": 1, "round_wind": "E", "seats": dict(zip("ESWN", PLAYERS)), "east_wins": 0}


def test_the_rounds_go_round_and_the_game_ends():
    south_wins = _hand("classical-pair-own-round", round_wind=None)
    game = _post({"ruleset": "classical", "players": PLAYERS, "hands": [south_wins] * 16}).json()
    assert [h["round_wind"] for h in game["hands"]] == [w for w in "ESWN" for _ in range(4)]
    assert game["finished"] is True and game["next"] is None
    refused = _post({"ruleset": "classical", "players": PLAYERS, "hands": [south_wins] * 17})
    assert refused.status_code == 422 and refused.json()["message"].startswith("hand 17: the game is over")


def test_a_bad_hand_is_refused_naming_it():
    east_round = _hand("classical-pair-own-round", round_wind=None)
    cases = [
        ({"ruleset": "classical", "players": PLAYERS, "hands": [east_round, _hand("classical-pair-own-round",
                                                                                   round_wind="W")]},
         "hand 2: this hand is in the E round, not W"),
        ({"ruleset": "classical", "players": PLAYERS, "hands": [_hand("harr-II-ex05")]},
         "hand 1: this game plays classical, not pung-chow-limit"),
        ({"ruleset": "classical", "players": ["Ann", "Ann", "Cy", "Di"], "hands": []},
         "a game needs four different player names (names that differ only in capitals are one name)"),
    ]
    for body, message in cases:
        answer = _post(body)
        assert answer.status_code == 422 and answer.json()["message"] == message, answer.text
    for players in (["Ann", "Bo", "Cy"], ["Ann", "Bo", "Cy", " "]):
        answer = _post({"ruleset": "classical", "players": players, "hands": []})
        assert answer.status_code == 422 and answer.json()["code"] == "invalid-request", answer.text
    answer = _post({"ruleset": "classical", "players": ["Ann", "Bo", "Cy", "x" * 41], "hands": []})
    assert answer.status_code == 422 and "must be 1 to 40 characters long" in answer.json()["message"]
    # 40 characters once composed (80 as typed, each e with a combining accent): one name, taken
    answer = _post({"ruleset": "classical", "players": ["Ann", "Bo", "Cy", "e\u0301" * 40], "hands": []})
    assert answer.status_code == 200 and answer.json()["players"][3] == "\u00e9" * 40
    answer = _post({"ruleset": "classical", "players": PLAYERS, "hands": [], "score": 3})
    assert answer.status_code == 422 and "score" in answer.json()["message"]


def test_names_that_look_alike_are_one_name_and_unseen_characters_are_refused():
    for players, words in ((["Ann", "ann", "Cy", "Di"], "differ only in capitals"),
                           (["Zoé", "Zoe\u0301", "Cy", "Di"], "four different player names"),
                           (["Ann", "Bo\u200b", "Cy", "Di"], "cannot be seen"),
                           (["Ann", "B\no", "Cy", "Di"], "cannot be seen")):
        answer = _post({"ruleset": "classical", "players": players, "hands": []})
        assert answer.status_code == 422 and words in answer.json()["message"], (players, answer.text)
    game = _post({"ruleset": "classical", "players": ["Zoe\u0301", "Bo", "Cy", "Di"], "hands": []}).json()
    assert game["players"][0] == "Zo\u00e9"  # one spelling of a name, as the totals are kept by it


def test_part_one_hands_keep_the_round_wind_they_were_sent_with_unread():
    """Part I plays no wind of the round: a hand sent with one (as /api/v1/score takes it) is
    played, not refused as 'in the None round'."""
    part_one = [c for c in VECTORS.values() if c["ruleset"] == "pung-chow" and c.get("kind") is None
                and "error" not in c["expected"]][0]
    hand = _hand(part_one["id"], round_wind="S")
    answer = _post({"ruleset": "pung-chow", "players": PLAYERS, "hands": [hand]})
    assert answer.status_code == 200, answer.text


def test_a_classical_game_counts_easts_wins_in_a_row_for_limit_hand_j():
    east_wins = _hand("classical-winds")
    game = _post({"ruleset": "classical", "players": PLAYERS, "hands": [east_wins] * 13}).json()
    assert [h["payments"]["Ann"] for h in game["hands"]] == [game["hands"][0]["payments"]["Ann"]] * 12 + [6000]
    assert game["next"]["east_wins"] == 13 and game["next"]["seats"]["E"] == "Ann"

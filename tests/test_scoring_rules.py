"""Rules the worked vectors do not exercise: the remaining limit hands, edge settlements, errors."""

from __future__ import annotations

import pytest

from scoring import score_table

LIMIT = {"mj_bonus": 10, "limit": 300}
CLASSICAL = {"limit": 1000, "east_double": True}


def winner(seat, concealed, melds=(), tile=None, win_by="self-draw", flags=(), bonus=""):
    return {"seat": seat, "winner": True, "concealed": concealed,
            "melds": [{"kind": k, "tiles": t, "exposed": e} for k, t, e in melds],
            "winning_tile": tile, "win_by": win_by, "flags": list(flags), "bonus_tiles": bonus}


def loser(seat, concealed, melds=()):
    return {"seat": seat, "winner": False, "concealed": concealed,
            "melds": [{"kind": k, "tiles": t, "exposed": e} for k, t, e in melds],
            "winning_tile": None, "win_by": None, "flags": []}


def case(ruleset, hands, round_wind="E", params=None, **extra):
    return {"ruleset": ruleset, "seat_wind": hands[0]["seat"],
            "round_wind": None if ruleset == "pung-chow" else round_wind,
            "params": params if params is not None else {"pung-chow-limit": LIMIT, "classical": CLASSICAL}.get(ruleset, {}),
            "hands": hands, **extra}


@pytest.mark.parametrize("hand, name", [
    (winner("S", "444z55s", [("pung", "111z", True), ("pung", "222z", True), ("pung", "333z", True)], "5s"),
     "four-winds"),
    (winner("S", "555s44z", [("pung", "111z", True), ("pung", "222z", True), ("pung", "333z", True)], "5s"),
     "three-winds-pair-fourth"),
    (winner("S", "55p", [("kong", "2222m", True), ("kong", "3333s", True), ("kong", "4444p", False),
                         ("kong", "6666s", True)], "5p", "loose-tile"), "four-kongs"),
])
def test_part_two_limit_hands(hand, name):
    result = score_table(case("pung-chow-limit", [hand]))
    assert result["limit_hand"] == name
    assert result["score"] == 300
    assert result["payments"]["S"] == 1200  # 600 from East, 300 from West and North


def test_three_wind_sets_with_a_suit_pair_is_not_a_limit_hand():
    hand = winner("S", "555s11m", [("pung", "111z", True), ("pung", "222z", True), ("pung", "333z", True)], "1m")
    result = score_table(case("pung-chow-limit", [hand]))
    assert result["limit_hand"] is None
    # an ordinary count: 10 + three exposed wind pungs (4 each) + concealed 555s (6) + the pair
    # drawn to complete the hand (6) = 34, doubled for South's own wind and for no sequence
    assert result["score"] == 136


def test_part_two_east_original_hand_is_a_limit_hand_and_east_collects_double():
    hand = winner("E", "123m456p789s234s55m", tile=None, win_by="original-hand")
    result = score_table(case("pung-chow-limit", [hand]))
    assert result["limit_hand"] == "east-original-hand"
    assert result["payments"] == {"E": 1800, "S": -600, "W": -600, "N": -600}


def test_limit_hand_in_an_uncapped_limit_game_scores_the_usual_limit():
    hand = winner("N", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z")
    result = score_table(case("pung-chow-limit", [hand], params={"mj_bonus": 20, "limit": None}))
    assert result["score"] == 400


def test_thirteen_orphans_is_not_a_winning_hand_in_part_one():
    hand = winner("S", "19m19p19s12345677z", tile="7z")
    assert score_table(case("pung-chow", [hand]))["error"]["code"] == "not-a-winning-hand"


def test_nine_gates_needs_a_concealed_hand():
    hand = winner("S", "12345678999p", [("pung", "111p", True)], "5p")
    result = score_table(case("classical", [hand]))
    assert result["limit_hand"] != "I-calling-nine-tiles"


def test_classical_four_seasons_and_own_flower_and_season_double():
    hand = winner("S", "123p456p789s33s", [("pung", "888m", True)], "6p", "discard", bonus="f5f6f7f8f2")
    result = score_table(case("classical", [hand]))
    doubles = dict(map(tuple, result["doubles"]))
    assert doubles["four-seasons"] == 3
    assert doubles["own-bonus-tile:f2"] == 1 and doubles["own-bonus-tile:f6"] == 1
    assert result["uncapped_score"] == (20 + 2 + 5 * 4) * 2 ** 5
    assert result["score"] == 1000  # capped at the limit


def test_classical_ordinary_hand_is_capped_at_the_limit():
    hand = winner("W", "123m55s", [("kong", "3333z", False), ("kong", "5555z", False), ("kong", "9999m", False)],
                  "3m")
    result = score_table(case("classical", [hand], params={"limit": 300, "east_double": True}))
    assert result["limit_hand"] is None
    assert result["uncapped_score"] == (20 + 2 + 2 + 3 * 32) * 4  # self-draw, edge wait, own wind and dragon
    assert result["score"] == 300
    assert result["payments"]["W"] == 300 * 4


def test_classical_short_hand_pays_but_never_collects():
    table = case("classical", [
        winner("W", "234m777m11m", [("pung", "333z", True), ("chow", "456m", True)], "7m"),
        loser("E", "999p12s45s78s3p", [("pung", "555z", True)]),  # 24
        loser("S", "22z666s12p45p7p9m", []),                      # 11 tiles: too few
        loser("N", "444z23m56m9s1s7s", [("kong", "8888p", True)]),  # 32
    ], round_wind="S")
    result = score_table(table)
    transfers = {(a, b): n for a, b, n in result["transfers"]}
    assert result["scores"]["S"] == 8  # still scored (own and round wind pair, 6s pung)
    assert ("E", "S") not in transfers and ("N", "S") not in transfers
    assert transfers[("S", "E")] == (24 - 8) * 2 and transfers[("S", "N")] == 32 - 8
    assert sum(result["payments"].values()) == 0


# Four identical tiles a non-winner never declared: a concealed pung (A30) that drew no loose
# tile, so the hand holds 13 (RULES.md 0.3.6; Harr: "for every four of a kind that he fills he
# should have an extra tile ... on account of the extra loose tile draw").

def test_a_loser_s_undeclared_quad_is_a_pung_in_a_thirteen_tile_hand():
    table = case("pung-chow", [
        winner("N", "333p111p55p", [("pung", "444z", True), ("pung", "777z", True)], "1p"),
        loser("E", "1111m234s567s78p9p"),  # 13 tiles: four 1m, never declared
        loser("S", "123s456s789s23m5z6z"),
        loser("W", "234m5678p9p123s22z"),
    ])
    result = score_table(table)
    assert result["items"]["E"] == [["pung:1m:concealed", 8]]
    assert result["scores"] == {"N": 416, "E": 8, "S": 0, "W": 0}
    # N collects 416 from each, East paying double; East collects 8 from S and W, doubled
    assert result["payments"] == {"E": -800, "S": -432, "W": -432, "N": 1664}


def test_classical_loser_with_an_undeclared_quad_collects():
    table = case("classical", [
        winner("W", "123m456p789s234s55m", tile="4p", win_by="discard"),
        loser("N", "3333p123m456s78s9m"),  # 13 tiles, four 3p never declared: a concealed pung, 4
        loser("S", "234m567m89p3s5s7s1z"),
    ])
    result = score_table(table)
    assert result["scores"]["N"] == 4
    assert ("S", "N", 4) in [tuple(t) for t in result["transfers"]]


@pytest.mark.parametrize("ruleset", ["pung-chow", "classical"])
def test_fourteen_tiles_with_an_undeclared_quad_is_a_dead_hand(ruleset):
    table = case(ruleset, [
        winner("W", "123m456p789s234s55m", tile="4p", win_by="discard"),
        loser("N", "3333p123m456s78s9m1z"),  # 14 tiles and no kong declared: one too many
        loser("S", "234m567m89p3s5s7s1z"),
    ])
    result = score_table(table)
    assert result["scores"]["N"] == 0
    assert not [t for t in result["transfers"] if t[1] == "N"]


# Classical limit hands D and J name East (seeds/classical-rules.txt: "D Hand winning with East
# Wind's first discard", "J East Wind's, thirteenth consecutive Mah-Jong").

@pytest.mark.parametrize("hand, words", [
    (winner("S", "123m456p789s234s55m", tile="4p", win_by="discard", flags=["east-13th-consecutive"]),
     "East's own thirteenth consecutive"),
    (winner("E", "123m456p789s234s55m", tile="4p", win_by="discard", flags=["east-first-discard"]),
     "East cannot win on it"),
    (winner("S", "123m456p789s234s55m", tile="4p", win_by="self-draw", flags=["east-first-discard"]),
     "win_by must be 'discard'"),
])
def test_classical_east_limit_flags_that_cannot_hold_are_refused(hand, words):
    result = score_table(case("classical", [hand]))
    assert result["error"]["code"] == "invalid-case"
    assert words in result["error"]["message"]


def test_classical_thirteenth_win_counts_for_east_alone():
    params = {**CLASSICAL, "east_consecutive_wins": 13}
    south = score_table(case("classical", [winner("S", "123m456p789s234s55m", tile="4p", win_by="discard")],
                             params=params))
    assert south["limit_hand"] is None and south["score"] == 30  # Mah-Jongg 20 + no other score 10
    east = score_table(case("classical", [winner("E", "123m456p789s234s55m", tile="4p", win_by="discard")],
                            params=params))
    assert east["limit_hand"] == "J-east-13th-consecutive" and east["score"] == 1000


def test_a_drawn_hand_scores_hands_but_moves_no_money():
    table = case("pung-chow", [loser("E", "111z234m567p89s99s"), loser("S", "123m456p789s111s2z")])
    result = score_table(table)
    assert result["winner"] is None
    assert result["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert result["scores"] == {"E": (8 + 8) * 2, "S": 8}  # 1z and 9s pungs, own wind doubles; 1s pung


@pytest.mark.parametrize("raw, code", [
    (case("pung-chow-limit", [dict(loser("S", "1m9m1p9p1s9s1z234m567p"), flags=["wash-tiles"])], kind="wash"),
     "not-a-winning-hand"),
    (case("pung-chow", [dict(loser("S", "1m9m1p9p1s9s1z2z3z5z234m"), flags=["wash-tiles"])], kind="wash"),
     "invalid-case"),
    (case("pung-chow-limit", [winner("S", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z",
                                     "discard")], kind="penalty-discarder"), "invalid-case"),
    (case("pung-chow", [winner("S", "123m456p789s111z55s", tile="5s", win_by="teleport")]), "invalid-case"),
    (case("pung-chow", [winner("S", "123m456p789s111z55s", tile="5s", flags=["lucky"])]), "invalid-case"),
    (case("pung-chow", [winner("S", "123m456p789s111z55s", tile=None)]), "winning-tile-not-in-hand"),
    (case("pung-chow", [winner("S", "123m456p789s111z5s", bonus="f1f1", tile="5s")]), "too-many-copies"),
    (case("pung-chow", [winner("S", "123m456p789s111z55sback", tile="5s")]), "unknown-tile"),
    ({"ruleset": "pung-chow", "hands": "everything"}, "invalid-case"),
    ([], "invalid-case"),
])
def test_invalid_input_names_the_problem(raw, code):
    result = score_table(raw)
    assert result["error"]["code"] == code, result
    assert result["error"]["message"]


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.update(roundwind="S"), "the table: unknown field 'roundwind'; did you mean 'round_wind'?"),
    (lambda t: t.update(params={"limt": 300}), "params: unknown field 'limt'; did you mean 'limit'?"),
    (lambda t: t.update(params={"cap": 300}), "params: unknown field 'cap' (it may hold east_consecutive_wins"),
    (lambda t: t["hands"][0].update(flag=["last-tile"]), "South: unknown field 'flag'; did you mean 'flags'?"),
    (lambda t: t["hands"][0].update(colour="red"), "South: unknown field 'colour' (it may hold bonus_tiles"),
    (lambda t: t["hands"][0]["melds"][0].update(exposd=False), "South's meld 1: unknown field 'exposd'; did you mean"),
    (lambda t: t.update(limit=300), "the table: 'limit' belongs in params"),
    (lambda t: t.update(flags=["last-tile"]), "the table: 'flags' belongs to a hand (in hands[])"),
    (lambda t: t["params"].update(east_double=False), "params.east_double is no setting of pung-chow-limit, which reads limit, mj_bonus"),
])
def test_a_misspelt_field_is_refused_not_dropped(edit, words):
    """A field the engine does not read would be dropped silently and the table scored wrong (a
    limit game with "limt" uncapped); a case's own notes ("source", "expected") pass."""
    table = case("pung-chow-limit", [winner("S", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z",
                                            "discard")], params={"limit": 300, "mj_bonus": 10})
    assert "error" not in score_table(dict(table, source="a book", expected={"score": 1}, notes="mine"))
    edit(table)
    result = score_table(table)
    assert result["error"]["code"] == "invalid-case" and words in result["error"]["message"], result


def test_an_unknown_flag_is_refused_with_the_flags_there_are():
    result = score_table(case("pung-chow", [winner("S", "123m456p789s111z55s", tile="5s", flags=["lucky"])]))
    assert "unknown flag 'lucky' (flags: last-tile, standing-hand, east-first-discard" in result["error"]["message"]


@pytest.mark.parametrize("ruleset, flag, has", [
    ("pung-chow", "standing-hand", "it scores none"),
    ("pung-chow", "last-tile", "it scores none"),
    ("pung-chow", "east-first-discard", "it scores none"),
    ("pung-chow-limit", "standing-hand", "its flags are last-tile, east-first-discard"),
    ("pung-chow-limit", "east-13th-consecutive", "its flags are last-tile, east-first-discard"),
])
def test_a_flag_the_ruleset_does_not_score_is_refused(ruleset, flag, has):
    """A standing hand ticked in a Part I game scored 22 as without it (the classical rules add
    100 for it): a flag the rules do not score is refused, naming those they do."""
    result = score_table(case(ruleset, [winner("S", "123m456p789s111z55s", tile="5s", flags=[flag])]))
    assert result["error"] == {"code": "invalid-case",
                               "message": f"South: the flag {flag!r} is no rule of {ruleset} ({has})"}
    if flag != "east-13th-consecutive":  # (East's alone) the classical rules score the others
        how = "discard" if flag == "east-first-discard" else "self-draw"
        ok = score_table(case("classical", [winner("S", "123m456p789s111z55s", tile="5s", win_by=how, flags=[flag])]))
        assert "error" not in ok, ok


def test_in_the_limit_game_only_east_wins_on_the_original_hand():
    """Part II's limit hand 6 is "East Wind winning on original draw from the wall": South's
    "original hand" was scored as an ordinary 18 points with no word; it is refused, and East's
    is the limit."""
    table = case("pung-chow-limit", [winner("S", "123m456p789s111z55s", win_by="original-hand")],
                 params={"limit": 300, "mj_bonus": 10})
    error = score_table(table)["error"]
    assert error["code"] == "invalid-case" and error["message"].startswith("South won on the original hand, but in "
                                                                           "the limit game only East does")
    east = case("pung-chow-limit", [winner("E", "123m456p789s111z55s", win_by="original-hand")],
                params={"limit": 300, "mj_bonus": 10})
    assert score_table(east)["limit_hand"] == "east-original-hand"
    # nor does a limit hand's shape excuse it (thirteen single heads was checked first)
    orphans = case("pung-chow-limit", [winner("S", "19m19p19s12345677z", win_by="original-hand")],
                   params={"limit": 300, "mj_bonus": 10})
    assert score_table(orphans)["error"]["message"].startswith("South won on the original hand")


def test_error_message_names_the_player_and_tile():
    table = case("pung-chow", [winner("S", "123m456p789s111z55s", tile="6s")])
    message = score_table(table)["error"]["message"]
    assert "South" in message and "6 Bamboo" in message


def test_discarder_exempt_settles_normally():
    hand = winner("S", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z", "discard")
    result = score_table(case("pung-chow-limit", [hand], kind="penalty-discarder", discarder="W",
                              discarder_exempt=True))
    assert result["payments"] == {"E": -600, "S": 1200, "W": -300, "N": -300}


@pytest.mark.parametrize("exempt", ["false", "no", 1, [True]])
def test_discarder_exempt_that_is_no_true_or_false_is_refused_not_read_as_true(exempt):
    """The string "false" once excused the discarder (read as a truthy value): the discarder's
    whole penalty went to the others."""
    hand = winner("S", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z", "discard")
    result = score_table(case("pung-chow-limit", [hand], kind="penalty-discarder", discarder="W",
                              discarder_exempt=exempt))
    assert result["error"]["code"] == "invalid-case", result
    assert result["error"]["message"].startswith("discarder_exempt must be true or false, not ")


def test_explain_describes_a_sequence_filled_by_the_winning_tile():
    from scoring import explain

    hand = winner("S", "123m456p789s111z55s", tile="3m")  # drawn 3 filling 12: an edge wait, 4 points
    sheet = explain(case("pung-chow-limit", [hand]))
    assert "Sequence filled edge (drawn)" in sheet


# Part II bonus scores the vectors leave open (RULES.md 2.4 items 5 and 6; readings A18 and A19
# in the docstring of scoring.rules.pung_chow_limit).

def test_part_two_win_on_the_first_card_played_adds_half_the_limit():
    # "To win on first card played a bonus of half the limit hand is given."
    hand = winner("S", "234m456p789s11p", [("pung", "555s", True)], "2m", "discard", flags=["east-first-discard"])
    result = score_table(case("pung-chow-limit", [hand]))
    items = dict(map(tuple, result["items"]))
    assert items["first-card-played"] == 150  # half of the 300 limit
    assert result["score"] == 10 + 2 + 150  # a bonus like the other points, before the doubles
    assert "no-other-score" not in items
    doubled = winner("S", "234m456p789s11p", [("pung", "555z", True)], "2m", "discard", flags=["east-first-discard"])
    assert score_table(case("pung-chow-limit", [doubled]))["score"] == 300  # (10 + 4 + 150) x 2, capped


def test_part_two_first_card_bonus_in_an_uncapped_game_is_half_the_usual_limit():
    hand = winner("W", "234m456p789s11p", [("pung", "555s", True)], "2m", "discard", flags=["east-first-discard"])
    result = score_table(case("pung-chow-limit", [hand], params={"mj_bonus": 20, "limit": None}))
    assert dict(map(tuple, result["items"]))["first-card-played"] == 200  # the usual limit with a bonus of 20 is 400


@pytest.mark.parametrize("hand, words", [
    (winner("E", "234m456p789s11p", [("pung", "555s", True)], "2m", "discard", flags=["east-first-discard"]),
     "East cannot win"),
    (winner("S", "234m456p789s11p", [("pung", "555s", True)], "2m", "self-draw", flags=["east-first-discard"]),
     "win_by must be 'discard'"),
    # "Washing cards have preference over this": a dealt hand of 13 different heads could wash.
    (winner("S", "19m19p19s12345677z", tile="7z", win_by="discard", flags=["east-first-discard"]),
     "washing the tiles has preference"),
])
def test_part_two_first_card_played_needs_east_s_discard_and_yields_to_washing(hand, words):
    result = score_table(case("pung-chow-limit", [hand]))
    assert result["error"]["code"] == "invalid-case"
    assert words in result["error"]["message"]


def test_part_two_completing_with_the_fourth_tile_of_an_exposed_pung_doubles_once():
    # "if a player has an exposed set of 3 of a kind and he draws or pungs the fourth tile, and if
    # this very tile is the winning tile, he may double the total score once."
    hand = winner("S", "456s234m789p11p", [("pung", "555s", True)], "5s", "self-draw")
    result = score_table(case("pung-chow-limit", [hand]))
    assert ["fourth-tile-of-exposed-pung", 1] in result["doubles"]
    assert result["score"] == (10 + 2 + 4) * 2  # pung, the 5s filling 4-6 by draw, doubled once
    concealed_pung = winner("S", "456s234m789p11p", [("pung", "555s", False)], "5s", "self-draw")
    assert ["fourth-tile-of-exposed-pung", 1] not in score_table(case("pung-chow-limit", [concealed_pung]))["doubles"]
    other_tile = winner("S", "456s234m789p11p", [("pung", "555s", True)], "4s", "self-draw")
    assert ["fourth-tile-of-exposed-pung", 1] not in score_table(case("pung-chow-limit", [other_tile]))["doubles"]


def test_fourth_tile_double_is_part_two_only():
    hand = winner("S", "456s234m789p11p", [("pung", "555s", True)], "5s", "self-draw")
    for ruleset in ("pung-chow", "classical"):
        doubles = score_table(case(ruleset, [hand]))["doubles"]
        assert not any(label == "fourth-tile-of-exposed-pung" for label, _ in doubles)


def _shortcut_matches_general(cases: list) -> int:
    """Assert score_table's direct result equals evaluate().to_json(), key order included, for every
    valid case; returns how many were checked."""
    from scoring import evaluate

    checked = 0
    for raw in cases:
        fast = score_table(raw)
        if "error" not in fast:
            assert list(fast.items()) == list(evaluate(raw).to_json().items()), raw.get("id")
            checked += 1
    return checked


def test_lone_winner_shortcut_matches_the_general_result():
    """score_table writes a lone winner's result straight away; evaluate().to_json() builds it
    through a TableResult: both must agree, key order included."""
    import json
    from pathlib import Path

    vectors = json.loads((Path(__file__).resolve().parent / "data" / "vectors.json").read_text())
    lone = [c for c in vectors if len(c["hands"]) == 1 and not c.get("kind") and c["hands"][0].get("winner")]
    lone += [case(ruleset, [winner(seat, "123m456p789s111z22z", tile=tile, win_by=how)], params=params)
             for ruleset, params in (("pung-chow", {}), ("pung-chow-limit", LIMIT), ("classical", CLASSICAL),
                                     ("classical", {"east_double": False}))
             for seat in "ESWN" for tile, how in (("3m", "self-draw"), ("1z", "discard"), ("2z", "loose-tile"))]
    assert _shortcut_matches_general(lone) > 80


def test_table_shortcut_matches_the_general_result():
    """score_table writes a full or partial table's result straight away; evaluate().to_json()
    builds it through a TableResult: both must agree, key order included (dead and short hands,
    capped scores, East's double on and off, hands listed in any order)."""
    import json
    from pathlib import Path

    vectors = json.loads((Path(__file__).resolve().parent / "data" / "vectors.json").read_text())
    tables = [c for c in vectors if len(c["hands"]) > 1 and not c.get("kind")
              and any(h.get("winner") for h in c["hands"])]
    others = [loser("S", "333z444z555z6677p"), loser("W", "19m19p19s1234567z"), loser("N", "666777z888s99p11m")]
    short = loser("N", "666777z888s99p1m")  # a tile short: dead, or in the classical rules collects nothing
    for ruleset, params in (("pung-chow", {}), ("pung-chow-limit", LIMIT), ("pung-chow-limit", {"limit": 50}),
                            ("classical", CLASSICAL), ("classical", {"east_double": False, "limit": 60})):
        for n in (1, 2, 3):
            hands = [winner("E", "123m456p789s111z22z", tile="3m")] + others[:n]
            tables += [case(ruleset, hands, params=params), case(ruleset, hands[::-1], params=params, id=f"{n}")]
        tables.append(case(ruleset, [winner("S", "123m456p789s111z22z", tile="2z")] + others[1:2] + [short],
                           params=params))
    assert _shortcut_matches_general(tables) > 40


@pytest.mark.parametrize("params, named", [
    ({"limit": "abc"}, "params.limit"), ({"limit": 0}, "params.limit"), ({"limit": True}, "params.limit"),
    ({"mj_bonus": "x"}, "params.mj_bonus"), ({"mj_bonus": 10.5}, "params.mj_bonus"),
    ({"east_consecutive_wins": -1}, "params.east_consecutive_wins"), ({"east_double": "no"}, "params.east_double"),
])
def test_parameters_the_rules_cannot_use_are_refused_by_name(params, named):
    """A limit of "abc" used to fail while scoring (a traceback in the API); it is refused up front."""
    hand = winner("S", "123m456p789s111z55s", tile="5s")
    for ruleset in ("pung-chow-limit", "classical"):
        result = score_table(dict(case(ruleset, [hand]), params=params))
        assert result["error"]["code"] == "invalid-case" and named in result["error"]["message"], result


def test_whole_number_parameters_may_come_as_floats_and_null_keeps_the_default():
    hand = winner("S", "123m456p789s111z55s", tile="5s")
    plain = score_table(dict(case("pung-chow-limit", [hand]), params={"limit": 300, "mj_bonus": 10}))
    assert score_table(dict(case("pung-chow-limit", [hand]), params={"limit": 300.0, "mj_bonus": 10.0})) == plain
    assert "error" not in score_table(dict(case("pung-chow-limit", [hand]), params={"limit": None}))


@pytest.mark.parametrize("ruleset, limit, bonus, params", [
    ("pung-chow", None, None, {}),
    ("pung-chow-limit", None, None, {"mj_bonus": 10, "limit": 300}),
    ("pung-chow-limit", None, 20, {"mj_bonus": 20, "limit": 400}),
    ("pung-chow-limit", 0, None, {"mj_bonus": 10, "limit": None}),
    ("pung-chow-limit", 500, 20, {"mj_bonus": 20, "limit": 500}),
    ("classical", None, None, {"limit": 1000}),
    ("classical", 2000, None, {"limit": 2000}),
])
def test_house_settings_as_params(ruleset, limit, bonus, params):
    """The photo paths' and the page's house settings: the usual limit game, not the uncapped one."""
    from scoring.house import house_params

    assert house_params(ruleset, limit, bonus) == params
    hand = winner("S", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z", "discard")
    assert "error" not in score_table(case(ruleset, [hand], params=params))


@pytest.mark.parametrize("ruleset, limit, bonus, words", [
    ("pung-chow", 300, None, "pung-chow (Harr's Part I) has no limit"),
    ("classical", 0, None, "the classical rules are played with a limit"),
    ("classical", None, 20, "a Mah-Jongg bonus is set in the pung-chow-limit game"),
    ("pung-chow-limit", None, 15, "the Mah-Jongg bonus is 10 or 20, not 15"),
    ("pung-chow-limit", None, 10.0, "the Mah-Jongg bonus is 10 or 20, not 10.0"),
    ("pung-chow-limit", -1, None, "the limit must be a whole number of points"),
    ("pung-chow-limit", True, None, "the limit must be a whole number of points"),
    ("pung-chow-limit", 10_000_000_000, None, "from 1 to 1,000,000,000 (0: no limit), not 10000000000"),
    ("riichi", None, None, "ruleset 'riichi' is not one of"),
])
def test_house_settings_a_ruleset_has_not_are_refused(ruleset, limit, bonus, words):
    from scoring.case import ScoringError
    from scoring.house import house_params

    with pytest.raises(ScoringError, match=words.replace("(", r"\(").replace(")", r"\)")):
        house_params(ruleset, limit, bonus)


def test_a_refusal_does_not_repeat_a_megabyte_back():
    result = score_table({"ruleset": "x" * 1_000_000, "hands": [{"seat": "E"}]})
    assert result["error"]["code"] == "invalid-case" and len(result["error"]["message"]) < 200
    hand = winner("S", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z", "discard")
    result = score_table(case("pung-chow-limit", [hand], params={"limit": "A" * 1_000_000}))
    assert len(result["error"]["message"]) < 200


def test_many_notes_on_a_table_pass():
    """A table's own notes are compared with its fields only when near their length, and only so
    many: thousands of them pass (and cost no look-alike search each)."""
    hand = winner("S", "777z345m88p", [("pung", "555z", True), ("pung", "666z", True)], "7z", "discard")
    notes = {f"note-{i:06d}": i for i in range(5000)}
    assert "error" not in score_table(dict(case("pung-chow-limit", [hand]), **notes))


def test_a_case_without_a_ruleset_or_with_a_flower_as_its_winning_tile_is_refused_in_words():
    """`ruleset None is not one of ...` showed Python's None; a flower named as the winning tile
    was refused as `must be one tile`, which f1 is."""
    assert score_table({"hands": []})["error"]["message"].startswith("the case has no ruleset")
    hand = winner("S", "444z55s", [("pung", "111z", True), ("pung", "222z", True), ("pung", "333z", True)], "f1")
    refused = score_table(case("pung-chow", [hand]))["error"]
    assert refused["code"] == "unknown-tile"
    assert "the winning tile cannot be a flower or season, got 'f1'" in refused["message"]

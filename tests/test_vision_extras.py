"""A tile lying by itself apart from the sets that a hand is full without, once the winner is
known, is taken out of that hand with a warning (vision.extras, called by build_case): the
corner of a tile rack behind a row, read as a blank white dragon, made a hand that did not win
hold 14 tiles."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import score_table
from scoring.tiles import parse_tiles
from vision import CaseError, build_case
from vision.hands import read_hands
from vision.layout import Group, SeatLayout, TableLayout
from vision.quad import TileQuad
from vision.recognize import Recognition, RecognizedTile
from vision.sets import TileRead

EAST = "123m456p789s234s55z"  # 14 tiles: a winning hand
WEST = "111m234p678s33z99m"  # 13 tiles


def _recognition(west_apart: list[str], east_apart: tuple[str, ...] = (), west: str = WEST,
                 west_sets: tuple[str, ...] = (), west_sideways: bool = False,
                 unsure: list | None = None) -> Recognition:
    """East's run of 14 at the bottom with `east_apart` laid apart from it, West's run (`west`) at
    the top with each of `west_sets` laid apart as a set and `west_apart` lying apart by
    themselves (the last laid sideways with `west_sideways`), each read surely (no flower among its
    readings) but the last, whose candidates are `unsure` when given, grouped as vision.hands
    groups."""
    codes: list[str] = []
    seats, positions = [], []

    def group(tiles_codes, position, concealed=False):
        start = len(codes)
        codes.extend(tiles_codes)
        positions.extend([position] * len(tiles_codes))
        return Group(list(range(start, len(codes))), 0 if concealed else 1, concealed=concealed)

    seats.append(SeatLayout(0, [group(parse_tiles(EAST), 0, True)]
                            + ([group(list(east_apart), 0)] if east_apart else [])))
    seats.append(SeatLayout(2, [group(parse_tiles(west), 2, True)] + [group(parse_tiles(m), 2) for m in west_sets]
                            + ([group(west_apart, 2)] if west_apart else [])))
    reads = [TileRead(c, 0.97, [(c, 0.97)]) for c in codes]
    if unsure:
        reads[-1] = TileRead(unsure[0][0], unsure[0][1], list(unsure))
    n = len(codes)
    sideways = [False] * n
    sideways[-1] = west_sideways and bool(west_apart)
    layout = TableLayout(seats, positions, sideways, [None] * n, 0.0)
    seat, grp, hands, warnings = read_hands(layout, reads, "E")
    quad = TileQuad(np.array([[0, 0], [30, 0], [30, 40], [0, 40]], np.float32))
    tiles = [RecognizedTile(quad, r.code, r.confidence, seat[i], grp[i], sideways[i], list(r.candidates))
             for i, r in enumerate(reads)]
    return Recognition("table", 2000, 1500, "E", tiles, hands, warnings)


def _context(winner: str) -> dict:
    return {"ruleset": "pung-chow", "winner": winner, "win_by": "discard", "winning_tile": "9s" if winner == "E" else "9m"}


def test_a_lone_find_that_a_losing_hand_is_full_without_is_not_counted():
    rec = _recognition(["5z"])
    assert rec.tiles[-1].group == "apart" and parse_tiles(rec.seats["W"]["concealed"]).count("5z") == 1
    assert any("counted with the concealed tiles" in w for w in rec.warnings)
    case = build_case(rec, _context("E"))
    west = next(h for h in case["hands"] if h["seat"] == "W")
    assert sorted(parse_tiles(west["concealed"])) == sorted(parse_tiles(WEST))
    assert rec.seats["W"]["concealed"] == west["concealed"]
    assert rec.tiles[-1].group == "extra" and rec.tiles[-1].code == "5z"
    said = [w for w in rec.warnings if "is not counted" in w]
    assert len(said) == 1 and "West" in said[0] and "5z" in said[0] and said[0].tiles == (len(rec.tiles) - 1,)
    assert not any("counted with the concealed tiles" in w for w in rec.warnings)  # the warning it replaced
    assert "error" not in score_table(case)


def test_the_winners_fourteenth_tile_laid_apart_is_counted():
    """West won: 13 in the run and the winning tile laid by itself make the winner's 14; East,
    holding 14 but not the winner, is named."""
    rec = _recognition(["9m"])
    case = build_case(rec, _context("W"))
    west = next(h for h in case["hands"] if h["seat"] == "W")
    assert sorted(parse_tiles(west["concealed"])) == sorted(parse_tiles(WEST + "9m"))
    assert rec.tiles[-1].group == "apart"
    assert not any("is not counted" in w for w in rec.warnings)
    named = [w for w in rec.warnings if "did not win but holds 14" in w]
    assert len(named) == 1 and named[0].startswith("East")


def test_two_tiles_laid_apart_are_left_counted():
    """A pair laid apart is no lone find: which of the hand's tiles is too many is not known."""
    rec = _recognition(["5z", "5z"])
    case = build_case(rec, _context("E"))
    west = next(h for h in case["hands"] if h["seat"] == "W")
    assert parse_tiles(west["concealed"]).count("5z") == 2
    assert [t.group for t in rec.tiles[-2:]] == ["apart", "apart"]
    assert not any("is not counted" in w for w in rec.warnings)


def test_a_recognition_given_as_json_is_left_alone():
    rec = _recognition(["5z"])
    case = build_case(rec.to_json(), _context("E"))
    west = next(h for h in case["hands"] if h["seat"] == "W")
    assert parse_tiles(west["concealed"]).count("5z") == 1


def test_a_winners_lone_tile_laid_apart_is_taken_as_the_winning_tile():
    """West won and named no winning tile, and none lies sideways: the tile laid by itself beside
    a run of 13 is the one laid apart to show it won, said in a warning."""
    rec = _recognition(["9m"])
    case = build_case(rec, {"ruleset": "pung-chow", "winner": "W", "win_by": "discard"})
    west = next(h for h in case["hands"] if h["seat"] == "W")
    assert west["winning_tile"] == "9m" and "error" not in score_table(case)
    said = [w for w in rec.warnings if "taken as the winning tile" in w]
    assert len(said) == 1 and said[0].startswith("West won") and said[0].tiles == (len(rec.tiles) - 1,)
    assert rec.seats["W"]["winning_tile"] == "9m"
    assert not any("counted with the concealed tiles" in w for w in rec.warnings)  # the warning it replaced
    # without a tile laid apart the winner must still say which tile won
    alone = _recognition([])
    with pytest.raises(CaseError) as err:
        build_case(alone, {"ruleset": "pung-chow", "winner": "E", "win_by": "discard"})
    assert err.value.code == "no-winning-tile"


#: a lone tile read unsurely with a season among its readings: the hands' reading takes it for
#: that season, as flowers and seasons lie apart
UNSURE_9M = [("9m", 0.55), ("f6", 0.25), ("8m", 0.1)]


def test_a_winners_lone_tile_taken_for_a_season_is_the_winning_tile_when_the_hand_holds_13():
    """West won holding 13 in the run, and laid the winning 9m by itself apart, read unsurely: the
    hands' reading takes it for the season among its readings (bonus tiles lie apart), so West
    held 13 and no winning tile, and the photo could not be scored.  The winner holds 14: the
    tile's own reading is given back and taken as the winning tile, with a warning in place of the
    one that took it for a season, whether or not the user named it."""
    for context in ({}, {"winning_tile": "9m"}):
        rec = _recognition(["9m"], unsure=UNSURE_9M)
        lone = len(rec.tiles) - 1
        assert rec.tiles[lone].code == "f6" and rec.seats["W"]["bonus_tiles"] == "f6"
        assert any("taken as f6" in w for w in rec.warnings)
        case = build_case(rec, {"ruleset": "pung-chow", "winner": "W", "win_by": "discard", **context})
        west = next(h for h in case["hands"] if h["seat"] == "W")
        assert west["winning_tile"] == "9m" and west["bonus_tiles"] == ""
        assert sorted(parse_tiles(west["concealed"])) == sorted(parse_tiles(WEST + "9m"))
        assert "error" not in score_table(case)
        assert (rec.tiles[lone].code, rec.tiles[lone].confidence, rec.tiles[lone].group) == ("9m", 0.55, "apart")
        assert rec.seats["W"]["concealed"] == west["concealed"] and rec.seats["W"]["bonus_tiles"] == ""
        said = [w for w in rec.warnings if "taken as the winning tile 9m" in w]
        assert len(said) == 1 and said[0].startswith("West won") and said[0].tiles == (lone,)
        assert not any("taken as f6" in w for w in rec.warnings)  # the warning it replaced


def test_a_winning_tile_named_in_any_spelling_the_engine_reads_finds_the_tile_taken_for_a_season():
    """The winning tile named as the engine reads it, in capitals or with spaces (9M, " 9m "), is
    the tile taken for a season as 9m is: taken back into the hand, and the hand scores."""
    for named in ("9M", " 9m "):
        rec = _recognition(["9m"], unsure=UNSURE_9M)
        case = build_case(rec, {"ruleset": "pung-chow", "winner": "W", "win_by": "discard", "winning_tile": named})
        west = next(h for h in case["hands"] if h["seat"] == "W")
        assert (west["winning_tile"], west["bonus_tiles"]) == ("9m", ""), named
        assert "error" not in score_table(case)


def test_a_lone_tile_taken_for_a_season_stays_one_where_no_winner_needs_it():
    """The season reading stands for a seat that did not win, for a winner who named another
    winning tile, and for a winner whose hand holds 14 without it (its flowers are its own)."""
    rec = _recognition(["9m"], unsure=UNSURE_9M)
    case = build_case(rec, _context("E"))  # West lost
    assert next(h for h in case["hands"] if h["seat"] == "W")["bonus_tiles"] == "f6"
    rec = _recognition(["9m"], unsure=UNSURE_9M)
    case = build_case(rec, {"ruleset": "pung-chow", "winner": "W", "win_by": "discard", "winning_tile": "3z"})
    assert next(h for h in case["hands"] if h["seat"] == "W")["bonus_tiles"] == "f6"
    rec = _recognition(["9m"], west=WEST + "2z", unsure=UNSURE_9M)
    assert rec.seats["W"]["bonus_tiles"] == "f6"
    case = build_case(rec, {"ruleset": "pung-chow", "winner": "W", "win_by": "discard", "winning_tile": "2z"})
    west = next(h for h in case["hands"] if h["seat"] == "W")
    assert west["bonus_tiles"] == "f6" and rec.tiles[-1].code == "f6"
    with pytest.raises(CaseError) as err:  # without a tile named, it still is not the winning tile
        build_case(_recognition(["9m"], west=WEST + "2z", unsure=UNSURE_9M),
                   {"ruleset": "pung-chow", "winner": "W", "win_by": "discard"})
    assert err.value.code == "no-winning-tile"


def test_a_lone_sideways_tile_is_never_taken_out():
    """A tile lying sideways is a winning tile laid out as one: however full the hand, it stays."""
    rec = _recognition(["5z"])
    rec.tiles[-1].sideways = True
    build_case(rec, _context("E"))
    assert rec.tiles[-1].group == "apart"
    assert parse_tiles(rec.seats["W"]["concealed"]).count("5z") == 1
    assert not any("is not counted" in w for w in rec.warnings)


def test_a_winners_fifteenth_tile_lying_apart_is_not_counted_and_the_count_warning_goes():
    rec = _recognition([], east_apart=("5z",))
    assert any(w.startswith("East has 15 tiles") for w in rec.warnings)
    case = build_case(rec, _context("E"))
    east = next(h for h in case["hands"] if h["seat"] == "E")
    assert sorted(parse_tiles(east["concealed"])) == sorted(parse_tiles(EAST))
    assert rec.tiles[len(parse_tiles(EAST))].group == "extra"
    assert not any(w.startswith("East has 15 tiles") for w in rec.warnings)
    assert any(w.startswith("East: the 5z lying by itself") for w in rec.warnings)
    assert "error" not in score_table(case)


def test_a_lone_copy_of_a_pung_laid_apart_may_be_its_kongs_fourth_tile_and_stays():
    """West laid 999m apart and a 9m by itself: the 9m may be that kong's fourth tile."""
    rec = _recognition(["9m"], west="11m234p678s33z", west_sets=("999m",))
    assert rec.seats["W"]["melds"][0]["kind"] == "pung"
    build_case(rec, _context("E"))
    assert rec.tiles[-1].group == "apart" and "9m" in rec.seats["W"]["concealed"]
    assert not any("is not counted" in w for w in rec.warnings)
    assert any(w.startswith("West did not win but holds 14") for w in rec.warnings)


def test_a_tile_laid_apart_beside_a_face_down_tile_is_no_lone_tile():
    rec = _recognition(["back", "5z"])
    build_case(rec, _context("E"))
    assert rec.tiles[-1].group == "apart"
    assert not any("is not counted" in w for w in rec.warnings)


def test_the_only_copy_of_the_winning_tile_is_never_taken_out():
    """East won on a 9m it named, the one 9m lying by itself beside a run of 14: the hand holds
    15, but the winning tile is the winner's to keep (another of its tiles is too many)."""
    rec = _recognition([], east_apart=("9m",))
    case = build_case(rec, {**_context("E"), "winning_tile": "9m"})
    east = next(h for h in case["hands"] if h["seat"] == "E")
    assert "9m" in east["concealed"] and rec.tiles[len(parse_tiles(EAST))].group == "apart"


def test_a_sideways_tile_lying_by_itself_is_the_winning_tile():
    """West's winning tile laid sideways a gap from the run: the photo shows who won."""
    rec = _recognition(["9m"])
    rec_sideways = _recognition(["9m"], west_sideways=True)
    assert rec.seats["W"]["winning_tile"] is None
    assert rec_sideways.seats["W"]["winning_tile"] == "9m"
    assert any("apart from the concealed run" in w for w in rec.warnings)
    assert not any("apart from the concealed run" in w for w in rec_sideways.warnings)  # laid out as it should be
    case = build_case(rec_sideways, {"ruleset": "pung-chow", "win_by": "discard"})
    assert [h["seat"] for h in case["hands"] if h["winner"]] == ["W"] and "error" not in score_table(case)


def test_one_players_thirteen_tiles_alone_say_that_they_did_not_win():
    """A photo of one player's tiles, 13 of them, and no winner named: the only seat is no
    winner, so the question is who won, not which tile won it."""
    with pytest.raises(CaseError) as err:
        build_case({"image": "one.jpg", "seats": {"W": {"concealed": WEST, "melds": []}}}, {"win_by": "discard"})
    assert err.value.code == "no-winner"
    assert "13" in err.value.message and "--winner" in err.value.message
    # 14 tiles alone are the winner's, and the question is which tile won
    with pytest.raises(CaseError) as err:
        build_case({"image": "one.jpg", "seats": {"E": {"concealed": EAST, "melds": []}}}, {"win_by": "discard"})
    assert err.value.code == "no-winning-tile"
    assert build_case({"image": "one.jpg", "seats": {"E": {"concealed": EAST, "melds": []}}},
                      {"win_by": "discard", "winning_tile": "9s"})["seat_wind"] == "E"


def test_a_winner_named_beside_one_players_tiles_alone_points_to_the_camera_seat():
    """One player's tiles alone are the camera seat's: naming another winner most likely means
    the camera seat was left at East; the message says how to name it."""
    with pytest.raises(CaseError) as err:
        build_case({"image": "one.jpg", "seats": {"E": {"concealed": EAST, "melds": []}}}, {"winner": "S"})
    assert err.value.code == "winner-not-in-photo"
    assert "--camera-seat S" in err.value.message and "camera_seat" in err.value.message
    # on a table of several seats the message stays as it was
    with pytest.raises(CaseError) as err:
        build_case({"image": "two.jpg", "seats": {"E": {"concealed": EAST, "melds": []},
                                                  "W": {"concealed": WEST, "melds": []}}}, {"winner": "S"})
    assert "camera" not in err.value.message


def test_an_original_hand_needs_no_winning_tile():
    """Dealt a complete hand (win_by original-hand), the winner drew no tile to win: the case
    has none (the table format's null, as the web page sends it), where build_case asked which
    tile won."""
    rec = {"image": "one.jpg", "seats": {"E": {"concealed": EAST, "melds": []}}}
    case = build_case(rec, {"winner": "E", "win_by": "original-hand"})
    assert case["hands"][0]["winning_tile"] is None and case["hands"][0]["win_by"] == "original-hand"
    assert "error" not in score_table(case)


@pytest.mark.parametrize("seats, code", [({"X": {"concealed": EAST}}, "invalid-seat"),
                                         (["E"], "invalid-seat"),
                                         ({"E": {"concealed": None, "melds": None}}, "no-winning-tile"),
                                         ({"E": {"concealed": "12x"}}, "no-winning-tile")])
def test_a_recognition_sent_as_json_with_no_readable_hand_is_refused_in_words(seats, code):
    """A recognition sent as JSON (the web page's or a program's) may hold anything: a seat that
    is no wind, or a hand that cannot be read, is a CaseError, never a KeyError or TileError."""
    with pytest.raises(CaseError) as err:
        build_case({"image": "x.jpg", "seats": seats}, {"win_by": "discard"})
    assert err.value.code == code


def test_an_original_hands_winning_tile_if_given_is_still_checked():
    """The tile is not used (an original hand has none), but one that is no winning tile is said
    to be none, as mjscore photo says before reading the photo."""
    with pytest.raises(CaseError) as err:
        build_case({"image": "x.jpg", "seats": {"E": {"concealed": EAST, "melds": []}}},
                   {"win_by": "original-hand", "winning_tile": "f1"})
    assert err.value.code == "unknown-tile"


def _kinds(rec: Recognition) -> dict[str, str]:
    """Each warning's words by its kind as Recognition.to_json sends them ("warning_kinds",
    parallel to "warnings" and "warning_tiles")."""
    data = rec.to_json()
    assert len(data["warning_kinds"]) == len(data["warnings"]) == len(data["warning_tiles"])
    return dict(zip(data["warnings"], data["warning_kinds"]))


def test_the_recognition_json_gives_each_warnings_kind():
    """A page tells the warnings that the winner makes untrue by their kind, not their words:
    the hands' "apart" (a lone tile counted with the concealed ones), "count" (a seat's count)
    and "bonus-apart" (a lone tile taken for a season), "" for any other warning; once build_case
    knows the winner, "extra" and "winning" in place of the ones they make untrue, and a seat that
    did not win holding 14 is a "count"."""
    rec = _recognition([], east_apart=("5z",))
    rec.warnings.insert(0, "the photo is blurred")  # a plain str: no kind
    kinds = _kinds(rec)
    assert kinds["the photo is blurred"] == ""
    assert [k for w, k in kinds.items() if "counted with the concealed tiles" in w] == ["apart"]
    assert [k for w, k in kinds.items() if w.startswith("East has 15 tiles")] == ["count"]
    build_case(rec, _context("E"))
    kinds = _kinds(rec)
    assert [k for w, k in kinds.items() if w.startswith("East: the 5z lying by itself")] == ["extra"]
    assert not any(k in ("apart", "count") for k in kinds.values())

    rec = _recognition(["9m"], unsure=UNSURE_9M)
    assert [k for w, k in _kinds(rec).items() if "taken as f6" in w] == ["bonus-apart"]
    build_case(rec, {"ruleset": "pung-chow", "winner": "W", "win_by": "discard"})
    kinds = _kinds(rec)
    assert [k for w, k in kinds.items() if "taken as the winning tile 9m" in w] == ["winning"]
    assert "bonus-apart" not in kinds.values()

    rec = _recognition(["9m"])
    build_case(rec, {"ruleset": "pung-chow", "winner": "W", "win_by": "discard"})
    assert [k for w, k in _kinds(rec).items() if "taken as the winning tile" in w] == ["winning"]
    rec = _recognition(["9m"], west="11m234p678s33z", west_sets=("999m",))
    build_case(rec, _context("E"))
    assert [k for w, k in _kinds(rec).items() if w.startswith("West did not win but holds 14")] == ["count"]

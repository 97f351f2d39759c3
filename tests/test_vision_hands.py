"""Reading sets off laid-out groups: a set misread in one tile is read again from candidates."""

from __future__ import annotations

from vision.repairs import repair_meld, repair_counts, repair_lone_tiles, repair_stray_bonus
from vision.sets import TileRead
from vision.layout import Group, SeatLayout, TableLayout


def test_a_pung_misread_in_one_tile_is_repaired_from_its_second_candidate():
    reads = [TileRead("4m", 0.97, [("4m", 0.97)]), TileRead("4m", 0.9, [("4m", 0.9), ("1m", 0.05)]),
             TileRead("1m", 0.55, [("1m", 0.55), ("4m", 0.40), ("7m", 0.03)])]
    meld, codes = repair_meld(reads)
    assert meld == {"kind": "pung", "tiles": "444m", "exposed": True}
    assert codes == ["4m", "4m", "4m"]


def test_a_chow_is_found_among_candidates():
    reads = [TileRead("3p", 0.9, [("3p", 0.9)]), TileRead("4p", 0.8, [("4p", 0.8)]),
             TileRead("6p", 0.5, [("6p", 0.5), ("5p", 0.45)])]
    meld, codes = repair_meld(reads)
    assert meld["kind"] == "chow" and meld["tiles"] == "345p"


def test_a_concealed_kong_with_a_misread_face():
    reads = [TileRead("back", 0.99, [("back", 0.99)]), TileRead("7z", 0.9, [("7z", 0.9)]),
             TileRead("5z", 0.6, [("5z", 0.6), ("7z", 0.35)]), TileRead("back", 0.98, [("back", 0.98)])]
    meld, _ = repair_meld(reads)
    assert meld == {"kind": "kong", "tiles": "7777z", "exposed": False}


def test_tiles_that_are_no_set_by_any_likely_reading_stay_unrepaired():
    reads = [TileRead("1m", 0.95, [("1m", 0.95), ("7m", 0.02)]), TileRead("5p", 0.9, [("5p", 0.9)]),
             TileRead("9s", 0.9, [("9s", 0.9), ("8s", 0.05)])]
    assert repair_meld(reads) is None


def test_an_unlikely_repair_is_refused():
    """The second choice must be reasonably likely, not any set the long tail allows."""
    reads = [TileRead("2s", 0.99, [("2s", 0.99)]), TileRead("2s", 0.99, [("2s", 0.99)]),
             TileRead("8s", 0.97, [("8s", 0.97), ("2s", 0.021)])]
    assert repair_meld(reads) is None


def test_a_group_no_set_can_be_is_not_searched(monkeypatch):
    """A set holds 3 or 4 tiles: a long group (many small tiles run together in a crowded photo)
    is refused at once, not by trying its 3^n readings (3.3 million meld checks took seconds)."""
    import vision.repairs as repairs

    calls = []
    monkeypatch.setattr(repairs, "meld_of", lambda codes: calls.append(codes))
    reads = [TileRead("4m", 0.5, [("4m", 0.5), ("5m", 0.3), ("6m", 0.2)])] * 14
    assert repair_meld(reads) is None and calls == []
    assert repair_meld(reads[:2]) is None and calls == []


def test_five_copies_are_recounted_from_the_candidates():
    """Five face-up 3m cannot all be right: the copy likeliest to be something else (its next
    candidate with room left) is read as that."""
    reads = [TileRead("3m", 0.99, [("3m", 0.99)]) for _ in range(4)]
    reads.append(TileRead("3m", 0.6, [("3m", 0.6), ("2m", 0.3), ("8m", 0.05)]))
    reads[1] = TileRead("3m", 0.7, [("3m", 0.7), ("5m", 0.1)])
    changed = repair_counts(reads)
    assert changed == {4: "3m"}
    assert [r.code for r in reads] == ["3m"] * 4 + ["2m"]
    assert abs(reads[4].confidence - 0.3) < 1e-9


def test_recount_skips_candidates_without_room_and_bonus_tiles_hold_one():
    reads = [TileRead("f1", 0.9, [("f1", 0.9), ("f2", 0.05)]),
             TileRead("f1", 0.8, [("f1", 0.8), ("f2", 0.1), ("f3", 0.08)]),
             TileRead("f2", 0.95, [("f2", 0.95)])]
    assert repair_counts(reads) == {1: "f1"}
    assert [r.code for r in reads] == ["f1", "f3", "f2"]  # f2 already had its one copy


def test_a_second_copy_of_a_flower_is_read_as_another_bonus_tile_not_a_suit_tile():
    """Two tiles apart read as f2: the one likelier to be something else becomes its likeliest
    other flower or season, never its likeliest suit tile (it lies where bonus tiles lie)."""
    reads = [TileRead("f2", 0.9, [("f2", 0.9), ("f6", 0.05), ("3m", 0.01)]),
             TileRead("f2", 0.5, [("f2", 0.5), ("6z", 0.3), ("f8", 0.15)])]
    assert repair_counts(reads) == {1: "f2"}
    assert [r.code for r in reads] == ["f2", "f8"]


def test_a_suit_tile_in_a_run_is_never_recounted_as_a_bonus_tile_but_a_lone_one_may_be():
    """Five 8p: inside a run the fifth copy may not become a flower (flowers lie apart); a tile
    lying by itself may."""
    reads = [TileRead("8p", 0.99, [("8p", 0.99)]) for _ in range(4)]
    reads.append(TileRead("8p", 0.4, [("8p", 0.4), ("f2", 0.3), ("7p", 0.1)]))
    assert repair_counts(list(reads)) == {4: "8p"}
    in_run = list(reads)
    repair_counts(in_run)
    assert in_run[4].code == "7p"
    alone = list(reads)
    repair_counts(alone, lone=frozenset({4}))
    assert alone[4].code == "f2"


def test_a_lone_tile_read_as_a_suit_tile_is_read_as_its_likeliest_bonus_candidate():
    reads = [TileRead("6p", 0.5, [("6p", 0.5), ("3m", 0.2), ("f6", 0.1)]),
             TileRead("2m", 0.9, [("2m", 0.9), ("3m", 0.05), ("4m", 0.01)]),
             TileRead("5s", 0.6, [("5s", 0.6), ("f1", 0.3), ("6s", 0.05)])]
    assert repair_lone_tiles(reads, frozenset({0, 1})) == {0: "6p"}
    assert [r.code for r in reads] == ["f6", "2m", "5s"]  # no bonus candidate; not lone


def test_recount_leaves_an_excess_no_candidate_can_fix():
    reads = [TileRead("7z", 0.99, [("7z", 0.99)]) for _ in range(5)]
    assert repair_counts(reads) == {}
    assert all(r.code == "7z" for r in reads)


def test_sets_laid_together_are_read_as_sets():
    from vision.sets import sets_together

    parts = sets_together(["8m", "8m", "8m", "2p", "2p", "2p"])
    assert [(m["kind"], m["tiles"], at) for m, at in parts] == [("pung", "888m", (0, 3)), ("pung", "222p", (3, 6))]
    parts = sets_together(["3s", "4s", "5s", "back", "7z", "7z", "back"])
    assert [(m["kind"], m["exposed"], at) for m, at in parts] == [("chow", True, (0, 3)), ("kong", False, (3, 7))]
    # three sets whose gaps closed (a benchmark table's far seat)
    parts = sets_together(["7s", "7s", "7s", "3s", "2s", "1s", "6m", "6m", "6m"])
    assert [(m["kind"], m["tiles"]) for m, _ in parts] == [("pung", "777s"), ("chow", "123s"), ("pung", "666m")]
    parts = sets_together(["1z"] * 4 + ["2m", "3m", "4m"] + ["5p"] * 4 + ["9s"] * 3)
    assert [(m["kind"], at) for m, at in parts] == [("kong", (0, 4)), ("chow", (4, 7)), ("kong", (7, 11)),
                                                    ("pung", (11, 14))]
    assert sets_together(["4m", "5m", "5m", "1p", "4s", "1z", "7z"]) is None
    assert sets_together(["1m", "2m", "3m", "4m", "5m"]) is None
    assert sets_together(["1m", "2m", "3m", "4m", "5m", "6m", "9p"]) is None


def test_a_bonus_reading_inside_a_run_of_tiles_is_read_again():
    """Flowers and seasons lie apart from the sets (LAYOUT.md): one read inside the concealed run
    takes its likeliest candidate that is no bonus tile, with a warning; bonus tiles laid apart,
    and a reading with no such candidate, stay."""
    from vision.hands import read_hands
    from vision.repairs import repair_stray_bonus
    from vision.layout import Group, SeatLayout, TableLayout

    codes = ["1m", "2m", "3m", "4p", "f3", "6p", "7s", "8s", "9s", "2z", "2z", "5s", "5s"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    reads[4] = TileRead("f3", 0.55, [("f3", 0.55), ("5p", 0.3), ("f1", 0.1)])
    reads += [TileRead("f2", 0.9, [("f2", 0.9), ("1s", 0.05)]),  # laid apart: a flower
              TileRead("f1", 0.9, [("f1", 0.9), ("f5", 0.1)])]
    layout = TableLayout(seats=[SeatLayout(0, [Group(list(range(13)), 0, concealed=True), Group([13, 14], 0)])],
                         position=[0] * 15, sideways=[False] * 15, quads=[], rotation=0.0)
    seat, group, hands, warnings = read_hands(layout, reads, "E")
    assert reads[4].code == "5p" and abs(reads[4].confidence - 0.3) < 1e-9
    assert hands["E"]["concealed"] == "123m456p55789s22z" and hands["E"]["bonus_tiles"] == "f1f2"
    assert group[4] == "concealed" and group[13] == group[14] == "bonus"
    assert any("tile 5 read as f3, taken as 5p" in w for w in warnings)
    # each warning names the tiles it is about, for a page to show them
    assert next(w for w in warnings if "tile 5 read as f3" in w).tiles == (4,)

    lone = [TileRead("3m", 0.95, [("3m", 0.95)]), TileRead("f4", 0.9, [("f4", 0.9), ("f8", 0.1)]),
            TileRead("4m", 0.95, [("4m", 0.95)])]
    layout = TableLayout(seats=[SeatLayout(0, [Group([0, 1, 2], 0)])], position=[0] * 3,
                         sideways=[False] * 3, quads=[], rotation=0.0)
    assert repair_stray_bonus(layout, lone) == {}  # no candidate that is no bonus tile


def test_a_bonus_reading_that_leaves_the_concealed_run_short_is_read_again_however_unlikely():
    """A painted 1-bamboo at the end of the concealed run read as a flower, its 1s reading under
    REPAIR_MIN_P: without it the seat holds 12 tiles, so the count says it is a hand tile.  The
    same reading beside a full hand of 13 stays a flower."""
    from vision.repairs import REPAIR_MIN_P
    from vision.layout import Group, SeatLayout, TableLayout

    def run(n_tiles):
        codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "5s", "5s"][:n_tiles]
        reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
        reads.append(TileRead("f6", 0.3, [("f6", 0.3), ("f2", 0.2), ("1s", REPAIR_MIN_P / 2)]))
        n = len(reads)
        layout = TableLayout(seats=[SeatLayout(0, [Group(list(range(n)), 0, concealed=True)])],
                             position=[0] * n, sideways=[False] * n, quads=[], rotation=0.0)
        return repair_stray_bonus(layout, reads), reads[-1].code

    assert run(12) == ({12: "f6"}, "1s")
    assert run(13) == ({}, "f6")


def test_a_stray_bonus_reading_never_makes_a_fifth_copy():
    """A flower read amid the concealed run whose likeliest other reading (4z) would be the fifth
    4z on the table, four lying in a concealed kong with face-down ends: its next reading with
    room left is taken instead (seed 11's table 47 at 12 MP took a fifth 4z, at 3%)."""
    from vision.layout import Group, SeatLayout, TableLayout

    def run(kong: str):
        codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5s", "5s"]
        reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
        reads.insert(5, TileRead("f2", 0.5, [("f2", 0.5), ("4z", 0.3), ("6z", 0.15)]))
        reads += [TileRead(c, 0.95, [(c, 0.95)]) for c in ("back", kong, kong, "back")]
        n = len(reads)
        seat = SeatLayout(0, [Group(list(range(12)), 0, concealed=True), Group(list(range(12, n)), 0)])
        layout = TableLayout([seat], [0] * n, [False] * n, [None] * n, 0.0)
        return repair_stray_bonus(layout, reads), reads[5].code

    assert run("4z") == ({5: "f2"}, "6z")
    assert run("3z") == ({5: "f2"}, "4z")


def test_a_flower_read_in_a_two_tile_concealed_run_is_read_as_its_likeliest_other_tile():
    """A winner with four sets keeps only his pair concealed: a tile of it read as a flower is a
    misread (bonus tiles lie apart), while two flowers lying together apart stay flowers."""
    reads = [TileRead("2z", 0.9, [("2z", 0.9)]), TileRead("f5", 0.4, [("f5", 0.4), ("f1", 0.3), ("2z", 0.2)]),
             TileRead("f1", 0.8, [("f1", 0.8), ("f5", 0.1), ("3m", 0.01)]),
             TileRead("f6", 0.7, [("f6", 0.7), ("f2", 0.2), ("6p", 0.02)])]
    seat = SeatLayout(0, [Group([0, 1], 0, concealed=True), Group([2, 3], 0)])
    layout = TableLayout([seat], [0] * 4, [False] * 4, [None] * 4, 0.0)
    assert repair_stray_bonus(layout, reads) == {1: "f5"}
    assert [r.code for r in reads] == ["2z", "2z", "f1", "f6"]


def test_a_set_laid_apart_with_tiles_misread_as_flowers_is_read_as_that_set():
    """1s 1s 1s laid apart, two of them (a painted peacock) read as flowers: the pung their
    candidates allow is taken; three flowers lying together stay flowers."""
    from vision.repairs import repair_bonus_in_sets

    reads = [TileRead("1s", 0.8, [("1s", 0.8), ("f3", 0.1), ("2s", 0.01)]),
             TileRead("f3", 0.5, [("f3", 0.5), ("f4", 0.2), ("1s", 0.2)]),
             TileRead("f4", 0.4, [("f4", 0.4), ("f3", 0.3), ("1s", 0.2)]),
             TileRead("f1", 0.9, [("f1", 0.9), ("f5", 0.05), ("1s", 0.02)]),
             TileRead("f2", 0.9, [("f2", 0.9), ("f6", 0.05), ("1s", 0.02)]),
             TileRead("f7", 0.9, [("f7", 0.9), ("f3", 0.05), ("1s", 0.02)])]
    seat = SeatLayout(0, [Group([0, 1, 2], 0), Group([3, 4, 5], 1)])
    layout = TableLayout([seat], [0] * 6, [False] * 6, [None] * 6, 0.0)
    assert repair_bonus_in_sets(layout, reads) == {1: "f3", 2: "f4"}
    assert [r.code for r in reads] == ["1s", "1s", "1s", "f1", "f2", "f7"]


def test_flowers_and_seasons_never_make_a_set():
    from vision.sets import meld_of

    assert meld_of(["f1", "f1", "f1"]) is None and meld_of(["f1", "f2", "f3", "f4"]) is None
    reads = [TileRead("2z", 0.5, [("2z", 0.5), ("f1", 0.4), ("3z", 0.05)]),
             TileRead("f1", 0.6, [("f1", 0.6), ("2z", 0.3), ("f5", 0.05)]),
             TileRead("f1", 0.6, [("f1", 0.6), ("2z", 0.3), ("f5", 0.05)])]
    meld, codes = repair_meld(reads)  # f1 f1 f1 would be likelier, were it a set
    assert codes == ["2z", "2z", "2z"] and meld["kind"] == "pung"


def test_a_concealed_kong_with_an_end_tile_not_found_is_read_as_that_kong():
    """back 3m 3m laid apart: a concealed pung turns its middle tile down, so a face-down tile at
    an end is a concealed kong's, one of whose tiles was missed; it is taken as that kong, with a
    warning, and the hand's count comes out right."""
    from vision.hands import read_hands
    from vision.sets import meld_of

    assert meld_of(["back", "3m", "3m"]) == {"kind": "kong", "tiles": "3333m", "exposed": False}
    assert meld_of(["3m", "3m", "back"])["kind"] == "kong"
    assert meld_of(["back", "3m", "back"])["tiles"] == "3333m"
    assert meld_of(["3m", "back", "3m"]) == {"kind": "pung", "tiles": "333m", "exposed": False}
    assert meld_of(["back", "3m", "4m"]) is None and meld_of(["back", "back", "back"]) is None

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "back", "3m", "3m"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    seat = SeatLayout(0, [Group(list(range(11)), 0, concealed=True), Group([11, 12, 13], 0)])
    layout = TableLayout([seat], [0] * 14, [False] * 14, [None] * 14, 0.0)
    _, group, hands, warnings = read_hands(layout, reads, "E")
    assert hands["E"]["melds"] == [{"kind": "kong", "tiles": "3333m", "exposed": False}]
    assert group[11:] == ["meld-1"] * 3
    assert any("concealed kong with one tile not found" in w and "tiles 12, 13, 14" in w for w in warnings)
    assert not any("has" in w and "tiles (a hand holds" in w for w in warnings)


def test_a_group_read_as_flowers_that_leaves_a_hand_short_is_read_as_a_pair_or_set():
    """South's pair of 2z (a brush-written wind) laid apart and read as two flowers leaves the
    hand at 11 tiles: the pair their candidates allow is taken.  A seat already at 13 keeps
    its two flowers lying together, and so does one whose tiles share no candidate."""
    from vision.hands import read_hands
    from vision.repairs import repair_short_hands

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "3z", "3z"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    reads += [TileRead("f5", 0.35, [("f5", 0.35), ("f1", 0.2), ("2z", 0.15)]),
              TileRead("f1", 0.3, [("f1", 0.3), ("2z", 0.25), ("f7", 0.1)])]
    seat = SeatLayout(0, [Group(list(range(11)), 0, concealed=True), Group([11, 12], 0)])
    layout = TableLayout([seat], [0] * 13, [False] * 13, [None] * 13, 0.0)
    _, group, hands, warnings = read_hands(layout, reads, "S")
    assert hands["S"]["concealed"] == "123m456p789s2233z" and hands["S"]["bonus_tiles"] == ""
    assert group[11:] == ["apart", "apart"]  # a pair laid apart: counted with the concealed tiles
    assert any("tile 12 read as f5, taken as 2z" in w and "short of 13" in w for w in warnings)

    full = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes + ["4z", "4z"]]
    full += [TileRead("f5", 0.35, [("f5", 0.35), ("f1", 0.2), ("2z", 0.15)]),
             TileRead("f1", 0.3, [("f1", 0.3), ("2z", 0.25), ("f7", 0.1)])]
    seat = SeatLayout(0, [Group(list(range(13)), 0, concealed=True), Group([13, 14], 0)])
    assert repair_short_hands(TableLayout([seat], [0] * 15, [False] * 15, [None] * 15, 0.0), full) == {}

    apart = reads[:11] + [TileRead("f5", 0.35, [("f5", 0.35), ("f1", 0.2), ("3m", 0.15)]),
                          TileRead("f1", 0.3, [("f1", 0.3), ("2z", 0.25), ("f7", 0.1)])]
    seat = SeatLayout(0, [Group(list(range(11)), 0, concealed=True), Group([11, 12], 0)])
    assert repair_short_hands(TableLayout([seat], [0] * 13, [False] * 13, [None] * 13, 0.0), apart) == {}


def test_a_short_hand_takes_the_set_however_unlikely_its_candidates():
    """Three tiles read f1 2z f1 (a brush South wind pung: 2z only third for the two flowers) leave
    West at 11 tiles: the count speaks for the pung though repair_bonus_in_sets alone refuses it."""
    from vision.hands import read_hands
    from vision.repairs import repair_bonus_in_sets

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "3z"]
    def reads():
        rs = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
        return rs + [TileRead("f1", 0.33, [("f1", 0.33), ("f5", 0.22), ("2z", 0.022)]),
                     TileRead("2z", 0.24, [("2z", 0.24), ("f7", 0.1), ("f6", 0.07)]),
                     TileRead("f1", 0.35, [("f1", 0.35), ("f7", 0.11), ("2z", 0.031)])]
    seat = SeatLayout(0, [Group(list(range(10)), 0, concealed=True), Group([10, 11, 12], 0)])
    layout = TableLayout([seat], [0] * 13, [False] * 13, [None] * 13, 0.0)
    assert repair_bonus_in_sets(layout, reads()) == {}
    _, group, hands, _ = read_hands(layout, reads(), "W")
    assert hands["W"]["melds"] == [{"kind": "pung", "tiles": "222z", "exposed": True}]
    assert hands["W"]["bonus_tiles"] == "" and group[10:] == ["meld-1"] * 3


def test_a_flower_found_touching_a_concealed_kong_stays_a_flower():
    """A flower laid close to a concealed kong's end is found in one group with it (a 1280x960
    benchmark table): it is no stray among hand tiles, so it stays a bonus tile and the kong is
    read from the rest.  A flower inside the group, between set tiles, is still read again."""
    from vision.hands import read_hands

    reads = [TileRead("back", 0.99, [("back", 0.99)]), TileRead("2m", 0.95, [("2m", 0.95)]),
             TileRead("2m", 0.95, [("2m", 0.95)]), TileRead("back", 0.99, [("back", 0.99)]),
             TileRead("f3", 0.46, [("f3", 0.46), ("f2", 0.15), ("6z", 0.04)])]
    layout = TableLayout([SeatLayout(0, [Group([0, 1, 2, 3, 4], 0)])], [0] * 5, [False] * 5, [None] * 5, 0.0)
    _, group, hands, _ = read_hands(layout, reads, "E")
    assert hands["E"]["melds"] == [{"kind": "kong", "tiles": "2222m", "exposed": False}]
    assert hands["E"]["bonus_tiles"] == "f3" and group[4] == "bonus"

    inside = [TileRead("5p", 0.95, [("5p", 0.95)]), TileRead("f3", 0.46, [("f3", 0.46), ("5p", 0.3)]),
              TileRead("5p", 0.95, [("5p", 0.95)])]
    layout = TableLayout([SeatLayout(0, [Group([0, 1, 2], 0)])], [0] * 3, [False] * 3, [None] * 3, 0.0)
    assert repair_stray_bonus(layout, inside) == {1: "f3"}


def test_a_tile_among_flowers_laid_apart_is_read_as_its_likeliest_bonus_candidate():
    """Two bonus tiles laid touching, one read as the green dragon with a flower close behind (a
    1280x960 benchmark table): it lies where flowers lie, so it is taken as that flower."""
    from vision.repairs import bonus_rows

    reads = [TileRead("6z", 0.155, [("6z", 0.155), ("f3", 0.138), ("7p", 0.058)]),
             TileRead("f7", 0.26, [("f7", 0.26), ("f5", 0.2), ("1s", 0.05)])]
    layout = TableLayout([SeatLayout(0, [Group([0, 1], 0)])], [0] * 2, [False] * 2, [None] * 2, 0.0)
    assert bonus_rows(layout, reads) == frozenset({0})  # the flower has a non-bonus companion
    assert repair_lone_tiles(reads, bonus_rows(layout, reads)) == {0: "6z"}
    assert [r.code for r in reads] == ["f3", "f7"]
    pair = [TileRead("6z", 0.9, [("6z", 0.9), ("f3", 0.05)]), TileRead("6z", 0.9, [("6z", 0.9)])]
    assert bonus_rows(layout, pair) == frozenset()  # a pair laid apart is no row of flowers


def test_two_copies_of_a_season_are_recounted_past_the_top_three():
    """Two tiles read as f5 (a benchmark table): the unsure one's top three are f5, the green
    dragon and f2, and f2 is already on the table; its next bonus reading with room left (from
    all eight, which the classifier gives for a tile read as a bonus tile) is taken."""
    eight = [("f5", 0.146), ("f2", 0.074), ("f3", 0.06), ("f1", 0.03), ("f7", 0.02), ("f4", 0.01),
             ("f6", 0.01), ("f8", 0.005)]
    reads = [TileRead("f5", 0.6, [("f5", 0.6), ("f1", 0.2), ("6z", 0.1)]),
             TileRead("f5", 0.146, [("f5", 0.146), ("6z", 0.084), ("f2", 0.074)], eight),
             TileRead("f2", 0.9, [("f2", 0.9), ("f6", 0.05), ("1s", 0.01)])]
    assert repair_counts(reads) == {1: "f5"}
    assert [r.code for r in reads] == ["f5", "f3", "f2"]
    assert reads[1].bonus == eight


def test_two_like_tiles_apart_in_a_hand_one_short_are_a_concealed_kong_with_its_ends_missed():
    """A winner's concealed kong of 8s whose dark face-down ends were not found (a 12 MP benchmark
    table): the two faces lie apart and the hand, a sideways winning tile included, holds 13 with
    them counted singly, so they are the kong, with a warning.  With a full hand they stay stray.
    (No other 8s lies on the table: a fifth copy would leave the kong no room.)"""
    from vision.hands import read_hands

    def table(n_concealed):
        codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7m", "8m", "9m", "2z", "2z", "5s", "5s", "5s"][:n_concealed]
        reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes] + [TileRead("8s", 0.9, [("8s", 0.9)])] * 2
        n = len(reads)
        sideways = [False] * n
        sideways[n_concealed - 1] = True  # the winning tile ends the concealed run
        seat = SeatLayout(0, [Group(list(range(n_concealed)), 0, concealed=True), Group([n - 2, n - 1], 1)])
        return read_hands(TableLayout([seat], [0] * n, sideways, [None] * n, 0.0), reads, "E")

    _, group, hands, warnings = table(11)
    assert hands["E"]["melds"] == [{"kind": "kong", "tiles": "8888s", "exposed": False}]
    assert group[-1] == group[-2] == "meld-1"
    assert any("taken as the concealed kong 8888s with both face-down ends not found" in w for w in warnings)
    assert not any("has 13 tiles" in w for w in warnings)

    _, group, hands, warnings = table(12)  # the hand is full without a kong: no set is made up
    assert hands["E"]["melds"] == [] and group[-1] == "apart"


def test_a_set_laid_apart_read_alike_but_for_one_unsure_tile_is_that_pung():
    """5z 5z and a blank-faced 5z read as 6m at 11% (its own kind not among its top three, a
    1280x960 benchmark table): laid apart they are a set, and no chow has two alike, so they are
    the pung.  A sure odd tile, or three unlike tiles, are left alone."""
    from vision.repairs import one_unsure_odd

    unsure = TileRead("6m", 0.107, [("6m", 0.107), ("4m", 0.105), ("f4", 0.075)])
    meld, codes = one_unsure_odd([TileRead("5z", 0.9, [("5z", 0.9)]), unsure, TileRead("5z", 0.95, [("5z", 0.95)])])
    assert meld == {"kind": "pung", "tiles": "555z", "exposed": True} and codes == ["5z"] * 3
    sure = TileRead("6m", 0.8, [("6m", 0.8)])
    assert one_unsure_odd([TileRead("5z", 0.9, [("5z", 0.9)]), sure, TileRead("5z", 0.95, [("5z", 0.95)])]) is None
    assert one_unsure_odd([TileRead("1m", 0.5), TileRead("5z", 0.5), TileRead("9p", 0.5)]) is None
    meld, _ = one_unsure_odd([TileRead("7p", 0.9)] * 3 + [TileRead("1p", 0.3)])
    assert meld == {"kind": "kong", "tiles": "7777p", "exposed": True}


def test_a_concealed_kongs_face_down_tiles_count_against_the_four_copies():
    """A concealed kong of 4p shows two faces; two more tiles read as 4p (unsure 5p, a 1280x960
    benchmark table) make six 4p on the table: the recount sees the kong's backs too and reads
    the unsure copies as 5p."""
    from vision.repairs import hidden_copies

    reads = [TileRead("back", 0.99, [("back", 0.99)]), TileRead("4p", 0.86, [("4p", 0.86), ("9p", 0.019)]),
             TileRead("4p", 0.87, [("4p", 0.87), ("8s", 0.013)]), TileRead("back", 0.99, [("back", 0.99)]),
             TileRead("4p", 0.277, [("4p", 0.277), ("5p", 0.235), ("f6", 0.059)]),
             TileRead("4p", 0.521, [("4p", 0.521), ("5p", 0.106), ("f6", 0.058)])]
    layout = TableLayout([SeatLayout(0, [Group([4, 5], 0, concealed=True), Group([0, 1, 2, 3], 1)])],
                         [0] * 6, [False] * 6, [None] * 6, 0.0)
    hidden = hidden_copies(layout, reads)
    assert hidden == {"4p": 2}
    assert repair_counts(reads, hidden=hidden) == {4: "4p", 5: "4p"}
    assert [r.code for r in reads] == ["back", "4p", "4p", "back", "5p", "5p"]


def test_a_set_is_repaired_only_to_one_the_other_copies_leave_room_for():
    """5m 3m 5m laid apart, the likeliest set 555m, but three 5m lie elsewhere on the table: the
    set is taken as 333m, the likeliest one that fits within four copies."""
    reads = [TileRead("5m", 0.525, [("5m", 0.525), ("3m", 0.146), ("2m", 0.043)]),
             TileRead("3m", 0.388, [("3m", 0.388), ("5m", 0.313), ("2m", 0.045)]),
             TileRead("5m", 0.592, [("5m", 0.592), ("3m", 0.203), ("2m", 0.021)])]
    meld, codes = repair_meld(reads)
    assert meld["tiles"] == "555m"
    from collections import Counter

    meld, codes = repair_meld(reads, others=Counter({"5m": 3}))
    assert meld == {"kind": "pung", "tiles": "333m", "exposed": True} and codes == ["3m"] * 3


def test_a_kongs_plain_backs_read_as_white_dragons_are_taken_as_face_down():
    """5z 8s 8s 5z laid apart (a 1280x960 benchmark table, seed 7: the held-out set's plain backs
    read as blank white dragons, 'back' not among their top three): no set as read, but ends
    alike and middle alike are a concealed kong's; other patterns are left alone."""
    from vision.repairs import ends_face_down

    meld, codes = ends_face_down(["5z", "8s", "8s", "5z"])
    assert meld == {"kind": "kong", "tiles": "8888s", "exposed": False} and codes == ["back", "8s", "8s", "back"]
    assert ends_face_down(["5z", "8s", "9s", "5z"]) is None
    assert ends_face_down(["8s", "8s", "8s", "8s"]) is None
    assert ends_face_down(["5z", "8s", "8s", "6z"]) is None
    from collections import Counter

    assert ends_face_down(["5z", "8s", "8s", "5z"], Counter({"8s": 1})) is None  # no room for four


def test_a_kong_with_its_ends_missed_must_leave_room_for_four_copies():
    """The missed-ends kong goes through the same four-copies check as every other set repair."""
    from collections import Counter

    from vision.repairs import kong_ends_missing

    meld, codes = kong_ends_missing(["8s", "8s"], held=12, wins=False)
    assert meld == {"kind": "kong", "tiles": "8888s", "exposed": False} and codes == ["8s", "8s"]
    assert kong_ends_missing(["8s", "8s"], held=12, wins=False, others=Counter({"8s": 1})) is None
    assert kong_ends_missing(["8s", "8s"], held=13, wins=False) is None  # a full hand


def test_a_seat_with_no_tiles_in_a_photo_of_several_is_named():
    """A 12 MP table whose right-hand seat the detector never saw (seed 99's table 93) said
    nothing of the missing seat (its winner's hand was refused as not in the photo; had another
    seat been missed, the rest would have been scored alone): a photo of two or three seats now
    names each seat with no tiles and its edge.  A photo of one player alone, or of all four,
    says nothing."""
    from vision.hands import missing_seats

    assert missing_seats({"E", "W", "N"}) == [
        "no tiles of South found (the right edge of the photo): if South played, photograph the "
        "whole table; scores and payments are for the seats found"]
    assert [w.split(" found")[0] for w in missing_seats({"S", "N", "E"}, camera_seat="S")] == ["no tiles of West"]
    assert [w.split("(")[1].split(")")[0] for w in missing_seats({"E", "W"})] == [
        "the right edge of the photo", "the left edge of the photo"]
    assert missing_seats({"E"}) == [] and missing_seats({"S"}, camera_seat="S") == []
    assert missing_seats({"E", "S", "W", "N"}) == []


def test_flowers_at_the_end_of_a_full_hand_s_run_stay_flowers_when_another_seat_shows_the_winning_tile():
    """Seed 99's table 80 at 1280x960: North, not the winner (South's winning tile lies sideways),
    laid f2 and f6 just past the end of a full concealed run of 13, and they were found touching
    it.  Read as the likeliest tiles that are no bonus tiles, they made North's hand 15 tiles; the
    count says they are the flowers they were read as.  With no seat showing the winning tile,
    North might be the winner one tile short: the first is read again as before, and with 14
    tiles the hand is full, so the last stays a flower.  A flower amid the run is read again
    either way, and first: it counts."""

    codes = ["3m", "3m", "3m", "4m", "5m", "5p", "8p", "9p", "3s", "4s", "7s", "8s", "1z"]

    def table(sideways_elsewhere: bool, middle_flower: bool = False):
        south = [TileRead(c, 0.95, [(c, 0.95)]) for c in ["2m", "2m", "9m", "9m", "9m", "4z", "4z", "4z"]]
        north = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
        if middle_flower:
            north[6] = TileRead("f3", 0.5, [("f3", 0.5), ("8p", 0.3), ("f1", 0.1)])
        north += [TileRead("f2", 0.4, [("f2", 0.4), ("f3", 0.2), ("5s", 0.05)]),
                  TileRead("f6", 0.3, [("f6", 0.3), ("f2", 0.2), ("8p", 0.04)])]
        reads = south + north
        s, n = list(range(8)), list(range(8, len(reads)))
        layout = TableLayout(seats=[SeatLayout(1, [Group(s, 0, concealed=True)]),
                                    SeatLayout(3, [Group(n, 0, concealed=True)])],
                             position=[1] * 8 + [3] * len(n), sideways=[False] * len(reads), quads=[],
                             rotation=0.0)
        layout.sideways[0] = sideways_elsewhere  # South's winning 2m, laid sideways
        return repair_stray_bonus(layout, reads), [r.code for r in reads[8:]]

    assert table(True) == ({}, codes + ["f2", "f6"])
    changed, north = table(False)
    assert changed == {21: "f2"} and north[-2:] == ["5s", "f6"]
    changed, north = table(True, middle_flower=True)
    assert changed == {14: "f3"} and north[6] == "8p" and north[-2:] == ["f2", "f6"]


def test_a_misread_kong_does_not_make_the_winner_s_hand_look_full():
    """Seed 7's table 29 at 1280x960: East won with four sets laid apart and a pair of 1s, one of
    them the sideways winning tile and the other (a painted bird) read as f1.  The concealed kong
    of 6z read as 5z 6z 6z 5z, no set, so it counted four tiles and the hand looked full without
    the 1s.  Four tiles laid apart count three (a kong), and the f1 is read as 1s again."""
    melds = [["6p", "7p", "8p"], ["9p", "9p", "9p"], ["7m", "7m", "7m"], ["5z", "6z", "6z", "5z"]]
    reads = [TileRead("f1", 0.45, [("f1", 0.45), ("1s", 0.3), ("f5", 0.1)]), TileRead("1s", 0.9, [("1s", 0.9)])]
    groups = [Group([0, 1], 0, concealed=True)]
    for m in melds:
        groups.append(Group(list(range(len(reads), len(reads) + len(m))), 0))
        reads += [TileRead(c, 0.9, [(c, 0.9)]) for c in m]
    sideways = [False] * len(reads)
    sideways[1] = True  # the winning 1s
    layout = TableLayout([SeatLayout(0, groups)], [0] * len(reads), sideways, [], 0.0)
    assert repair_stray_bonus(layout, reads) == {0: "f1"} and reads[0].code == "1s"


def test_a_concealed_kongs_face_tile_read_as_a_flower_is_read_back_as_its_kind():
    """1600x1200 table 80 (seed 2024): a concealed kong laid back-1s-1s-back with one 1s read as
    f6.  The three other tiles read as a kong short of a face-down copy, so its face-down copies
    counted three: with the one face-up 1s, four, and the flower's 1s reading found no room.
    The copies a group's own reading makes face down do not count against its stray tile."""
    from vision.layout import Group, SeatLayout, TableLayout

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5s"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    reads += [TileRead("back", 0.95, [("back", 0.95)]), TileRead("f6", 0.15, [("f6", 0.15), ("1s", 0.12)]),
              TileRead("1s", 0.22, [("1s", 0.22)]), TileRead("back", 0.95, [("back", 0.95)])]
    n = len(reads)
    seat = SeatLayout(0, [Group(list(range(10)), 0, concealed=True), Group(list(range(10, n)), 0)])
    layout = TableLayout([seat], [0] * n, [False] * n, [None] * n, 0.0)
    assert repair_stray_bonus(layout, reads) == {11: "f6"}
    assert reads[11].code == "1s"


def test_a_low_confidence_warning_names_the_tiles_other_likely_readings():
    """What a person reading the warnings (the command line) checks the tile against: its other
    readings of 5% or more, two at most."""
    from vision.hands import read_hands
    from vision.layout import Group, SeatLayout, TableLayout

    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "5s", "5s"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    reads[4] = TileRead("5p", 0.45, [("5p", 0.45), ("4p", 0.3), ("6p", 0.1)])
    reads[5] = TileRead("6p", 0.5, [("6p", 0.5), ("8p", 0.03)])
    layout = TableLayout(seats=[SeatLayout(0, [Group(list(range(13)), 0, concealed=True)])],
                         position=[0] * 13, sideways=[False] * 13, quads=[], rotation=0.0)
    _, _, _, warnings = read_hands(layout, reads, "E")
    assert "low confidence: tile 5 of East (read as 5p, 45%; else 4p 30%, 6p 10%)" in warnings
    assert "low confidence: tile 6 of East (read as 6p, 50%)" in warnings


def _run_layout(n: int, concealed: bool = True):
    from vision.layout import Group, SeatLayout, TableLayout

    seat = SeatLayout(0, [Group(list(range(n)), 0, concealed=concealed)])
    return TableLayout([seat], [0] * n, [False] * n, [None] * n, 0.0)


def test_a_concealed_tile_read_unsurely_as_face_down_is_read_as_its_face():
    """Players lay their concealed tiles face up (LAYOUT.md): a blank white dragon under a green
    light read as a back at 44%, 5z at 42% (the degradations benchmark's green cast), is taken as
    5z with a warning, and the hand is whole; a sure back there stays, with its warning."""
    from vision.hands import read_hands

    def run(back_p: float, face_p: float):
        codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "5z", "5z"]
        reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
        reads.insert(4, TileRead("back", back_p, [("back", back_p), ("5z", face_p), ("7s", 0.01)]))
        _, group, hands, warnings = read_hands(_run_layout(len(reads)), reads, "E")
        return reads[4].code, hands["E"]["concealed"], warnings

    code, concealed, warnings = run(0.44, 0.42)
    assert code == "5z" and concealed == "123m456p789s22555z"
    assert any("tile 5 read as face down, taken as 5z" in w for w in warnings)
    code, concealed, warnings = run(0.9, 0.08)
    assert code == "back" and concealed == "123m456p789s2255z"
    assert any("tile 5 of the concealed tiles is face down" in w for w in warnings)


def test_face_down_tiles_a_run_may_rightly_hold_stay_face_down():
    """A concealed pung's face-down middle, a concealed kong's ends (the kong laid touching the
    run, or one end of it) and backs beside backs stay backs, however unsure."""
    from vision.repairs import repair_face_down_in_runs

    def run(codes: list[str], concealed: bool = True) -> list[str]:
        reads = [TileRead(c, 0.95, [(c, 0.95)]) if c != "back"
                 else TileRead("back", 0.45, [("back", 0.45), ("5z", 0.4)]) for c in codes]
        repair_face_down_in_runs(_run_layout(len(reads), concealed), reads)
        return [r.code for r in reads]

    pung = ["1m", "2m", "3m", "7p", "back", "7p", "9s"]
    kong = ["1m", "2m", "3m", "back", "7p", "7p", "back"]
    kong_end = ["1m", "2m", "3m", "7p", "7p", "back", "4s"]
    face_down = ["1m", "back", "back", "back"]
    for codes in (pung, kong, kong_end, face_down):
        assert run(codes) == codes
    lone = ["1m", "2m", "3m", "back", "4p", "5p"]
    assert run(lone) == ["1m", "2m", "3m", "5z", "4p", "5p"]
    # a run laid apart too long for one set reads the same; a set's worth is the set rules' work
    assert run(lone, concealed=False) == ["1m", "2m", "3m", "5z", "4p", "5p"]
    assert run(["1m", "back", "3m", "4p"], concealed=False) == ["1m", "back", "3m", "4p"]


def test_a_face_down_reading_is_never_turned_into_a_fifth_copy():
    from vision.repairs import repair_face_down_in_runs

    codes = ["5z", "5z", "5z", "5z", "1m", "back", "4p", "5p"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    reads[5] = TileRead("back", 0.45, [("back", 0.45), ("5z", 0.4), ("3p", 0.05)])
    assert repair_face_down_in_runs(_run_layout(len(reads)), reads) == {}
    assert reads[5].code == "back"


def test_a_concealed_kong_with_a_misread_middle_keeps_its_face_down_ends():
    """A kong laid touching the run, back 5z 5z back, with a middle tile misread (as a back,
    or as another face whose candidates hold its mate's kind): its ends, three tiles apart, stay
    face down.  Two backs three apart with two unlike faces between are no kong's ends."""
    from vision.repairs import repair_face_down_in_runs

    def run(codes, candidates=None):
        reads = [TileRead(c, 0.95, [(c, 0.95)]) if c != "back"
                 else TileRead("back", 0.45, [("back", 0.45), ("5z", 0.4)]) for c in codes]
        for k, cands in (candidates or {}).items():
            reads[k] = TileRead(cands[0][0], cands[0][1], cands)
        return repair_face_down_in_runs(_run_layout(len(reads)), reads)

    assert run(["1m", "2m", "3m", "back", "back", "5z", "back"]) == {}
    assert run(["1m", "2m", "3m", "back", "7p", "8p", "back"], {5: [("8p", 0.6), ("7p", 0.35)]}) == {}
    assert run(["back", "2s", "3s", "back", "7p", "7p", "back"]) == {0: "back"}


def test_the_face_down_ends_of_a_kong_in_the_run_count_as_copies():
    """back 7p 7p back in the run hides two more 7p: a lone back whose face reading is 7p would
    make a fifth, so its next face reading with room is taken."""
    from vision.repairs import repair_face_down_in_runs

    codes = ["1m", "back", "2m", "3m", "4m", "back", "7p", "7p", "back"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    reads[1] = TileRead("back", 0.45, [("back", 0.45), ("7p", 0.3), ("3p", 0.24)])
    reads[5] = reads[8] = TileRead("back", 0.99, [("back", 0.99)])
    reads.insert(0, TileRead("7p", 0.95, [("7p", 0.95)]))  # a fourth 7p elsewhere
    assert repair_face_down_in_runs(_run_layout(len(reads)), reads) == {2: "back"}
    assert reads[2].code == "3p"


def test_a_face_down_reading_that_is_fairly_sure_stays():
    from vision.repairs import repair_face_down_in_runs

    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in ["1m", "2m", "3m", "back", "4p", "5p"]]
    reads[3] = TileRead("back", 0.66, [("back", 0.66), ("5z", 0.33)])
    assert repair_face_down_in_runs(_run_layout(len(reads)), reads) == {}


def test_a_set_laid_apart_with_flowers_touching_it_counts_its_hidden_copy_once():
    """f1 5p back 5p f2 laid apart is a concealed pung of 5p with flowers touching it: one 5p
    hidden, counted once, so a back of the concealed run whose face reading is 5p takes the
    fourth 5p."""
    from vision.layout import Group, SeatLayout, TableLayout
    from vision.repairs import repair_face_down_in_runs

    codes = ["1m", "2m", "3m", "back", "4p", "6p", "f1", "5p", "back", "5p", "f2"]
    reads = [TileRead(c, 0.95, [(c, 0.95)]) for c in codes]
    reads[3] = TileRead("back", 0.45, [("back", 0.45), ("5p", 0.4), ("9s", 0.1)])
    reads[8] = TileRead("back", 0.99, [("back", 0.99)])
    seat = SeatLayout(0, [Group(list(range(6)), 0, concealed=True), Group(list(range(6, 11)), 0)])
    layout = TableLayout([seat], [0] * 11, [False] * 11, [None] * 11, 0.0)
    assert repair_face_down_in_runs(layout, reads) == {3: "back"} and reads[3].code == "5p"

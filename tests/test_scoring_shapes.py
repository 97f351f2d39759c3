"""The shape tables behind arranging a hand: coverage, arrangement order, waits, parsing."""

from __future__ import annotations

import pytest

from scoring.arrange import decompositions, is_single_wait, to_counts
from scoring.shape_tables import HONOUR_SPLITS, SUIT_SPLITS, waits_table
from scoring.tiles import parse_kinds, parse_tiles


def _arrangements(tiles: str) -> list[list[str]]:
    codes = parse_tiles(tiles)
    sets = (len(codes) - 2) // 3
    return [[f"{g.kind}:{g.tile}" for g in split] for split in decompositions(to_counts(codes), sets)]


def test_tables_hold_every_complete_segment():
    # Up to four sets and at most one pair, at most four tiles of a kind.
    assert len(SUIT_SPLITS) == 21743
    assert len(HONOUR_SPLITS) == 498
    assert len(waits_table(9)) == 66913


def test_arrangements_come_in_the_order_a_search_from_the_lowest_tile_finds_them():
    assert _arrangements("111222333m55p") == [
        ["pung:1m", "pung:2m", "pung:3m", "pair:5p"],
        ["chow:1m", "chow:1m", "chow:1m", "pair:5p"],
    ]
    assert _arrangements("11123m456p789s555z") == [["pair:1m", "chow:1m", "chow:4p", "chow:7s", "pung:5z"]]


@pytest.mark.parametrize("tiles", [
    "123m456p789s12345z",  # five single honours
    "11m22m33p44p55s66s77z",  # seven pairs is not a hand in these rules
    "11m22p33s44z",  # four pairs (two declared sets): one pair too many
])
def test_not_sets_and_one_pair(tiles):
    assert _arrangements(tiles) == []


@pytest.mark.parametrize("tiles, winning, single", [
    ("123m456p789s11z55z", "5z", False),  # two pairs: either completes a set
    ("123m456p789s111z5z5z", "5z", True),  # waiting on the pair only
    ("123m456p789s111z55z", "2m", True),  # 13 waiting in the middle
    ("123m456p789s111z55z", "1m", False),  # 23 waits on 1 or 4
    ("11123456789995m", "5m", False),  # nine gates: nine waits
])
def test_single_wait(tiles, winning, single):
    counts = to_counts(parse_tiles(tiles))
    index = parse_tiles("123456789m123456789p123456789s1234567z").index(winning)
    assert is_single_wait(counts, index, bytes(34)) is single


def test_kinds_held_four_times_are_not_waits():
    # 1m waits on 1m or 4m (23m); with 4m held four times (a kong) only 1m is left.
    counts = to_counts(parse_tiles("123m456p789s111z55z"))
    melds = to_counts(parse_tiles("4444m"))
    assert is_single_wait(counts, 0, melds) is True


@pytest.mark.parametrize("text, codes", [
    ("1m5p2m", ["1m", "5p", "2m"]),
    ("123m55z", ["1m", "2m", "3m", "5z", "5z"]),
    ("3m66s1z", ["3m", "6s", "6s", "1z"]),
    ("", []),
])
def test_canonical_strings_parse_on_the_fast_path(text, codes):
    assert parse_kinds(text) == codes == parse_tiles(text)


@pytest.mark.parametrize("text", ["1m2", "0m", "8z", "1m 2p", "1M", "m", "1mm", "f1", "back", "11m,2p"])
def test_anything_else_is_left_to_the_full_parser(text):
    assert parse_kinds(text) is None

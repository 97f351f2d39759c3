"""Tile notation: MPSZ parsing and formatting, names, errors."""

import pytest
from hypothesis import given, strategies as st

from scoring.tiles import CLASSES, KINDS, TileError, format_tiles, parse_tiles, tile_name


def test_parse_grouped_string():
    assert parse_tiles("123m55z") == ["1m", "2m", "3m", "5z", "5z"]
    assert parse_tiles("19p f1f8 back") == ["1p", "9p", "f1", "f8", "back"]
    assert parse_tiles("") == []


@pytest.mark.parametrize("bad", ["8z", "0m", "f9", "12x", "m", "123", "1m2"])
def test_unknown_tiles_are_refused(bad):
    with pytest.raises(TileError):
        parse_tiles(bad)


def test_names():
    assert tile_name("3s") == "3 Bamboo"
    assert tile_name("7z") == "Red Dragon"
    assert tile_name("1z") == "East Wind"
    assert tile_name("f5") == "Spring (Season 1)"
    assert len(CLASSES) == 43 and len(KINDS) == 34


@given(st.lists(st.sampled_from(CLASSES), max_size=20))
def test_format_then_parse_round_trips(codes):
    assert parse_tiles(format_tiles(codes)) == codes


def test_a_refusal_repeats_at_most_sixty_characters_of_the_tiles():
    import pytest

    from scoring.tiles import TileError, parse_tiles

    with pytest.raises(TileError) as refused:
        parse_tiles("1" * 100_000 + "x")
    assert len(str(refused.value)) < 200


def test_an_unknown_suit_letter_is_named():
    """`222x` read as digits with no suit letter, which sent a person looking for a missing one."""
    with pytest.raises(TileError, match="unknown suit letter 'x' after '222'"):
        parse_tiles("123678s222x99m")
    with pytest.raises(TileError, match="digits '12' without a suit letter"):
        parse_tiles("12 3m")

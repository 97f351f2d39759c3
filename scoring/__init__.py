"""mjscore rules engine: validate, arrange, score and settle mahjong hands (no I/O, no images).

>>> from scoring import score_table
>>> score_table({"ruleset": "pung-chow", "seat_wind": "S", "round_wind": None, "hands": [
...     {"seat": "S", "winner": True, "concealed": "123678s222p99m",
...      "melds": [{"kind": "chow", "tiles": "345m", "exposed": True}],
...      "winning_tile": "2p", "win_by": "discard", "flags": []}]})["score"]
22
"""

from .arrange import COMPILED
from .case import ScoringError, parse_case
from .engine import TableResult, evaluate, score_table
from .explain import explain
from .tiles import CLASSES, KINDS, format_tiles, parse_tiles, tile_name

__all__ = [
    "CLASSES",
    "COMPILED",
    "KINDS",
    "ScoringError",
    "TableResult",
    "evaluate",
    "explain",
    "format_tiles",
    "parse_case",
    "parse_tiles",
    "score_table",
    "tile_name",
]

"""The rulesets, by name.  Each module offers ``score_winner(Winner, params)``,
``score_other(Hand, own_wind, round_wind, cap)`` and ``limit(params)`` (a non-winner's ``cap``
is ``limit(params)``, which the engine works out once per table).  ``READS_WINNING_ROLE`` says
whether a winner's score depends on which group the winning tile completed: when it does not,
the engine scores each arrangement once, not once per role of the winning tile."""

from typing import Final

from . import classical, pung_chow, pung_chow_limit

RULESETS: Final = {m.NAME: m for m in (pung_chow, pung_chow_limit, classical)}


def east_double(ruleset: str, params: dict) -> bool:
    """East pays and receives double in every ruleset; classical makes it a parameter (A22)."""
    return classical.east_double(params) if ruleset == classical.NAME else True

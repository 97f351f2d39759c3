"""A house's settings for a ruleset (its limit, its Mah-Jongg bonus) as a case's `params`.

The photo paths (``mjscore photo``, /api/v1/photo/score) and the web page build tables for
players, who play a limit game with its usual limit: 300 points with a Mah-Jongg bonus of 10 and
400 with 20 ("usually 300 points ... and 400 in games giving a bonus of 20"), and the classical
rules at 1000.  A case sent as JSON keeps the engine's own defaults (the book prints its limit
game's examples uncapped), so vectors.json cases score as the book does.
"""

from __future__ import annotations

from typing import Any

from .case import MAX_PARAM, RULESETS, ScoringError
from .rules.classical import DEFAULT_LIMIT
from .rules.pung_chow_limit import USUAL_LIMIT

#: the Mah-Jongg bonuses the limit game is played with
MJ_BONUSES = tuple(USUAL_LIMIT)
#: a limit of 0 asks for the book's limit game with no cap
NO_LIMIT = 0


def house_params(ruleset: str, limit: int | None = None, mj_bonus: int | None = None) -> dict[str, Any]:
    """The params of a table played under `ruleset` with these settings (None: the usual one).

    Raises ScoringError (invalid-case) for a setting the ruleset has not (Part I has no limit; only
    the limit game has a Mah-Jongg bonus) or cannot take."""
    if ruleset not in RULESETS:
        raise ScoringError("invalid-case", f"ruleset {ruleset!r} is not one of {', '.join(RULESETS)}")
    if mj_bonus is not None and ruleset != "pung-chow-limit":
        raise ScoringError("invalid-case", f"a Mah-Jongg bonus is set in the pung-chow-limit game, not in {ruleset}")
    if ruleset == "pung-chow":
        if limit is not None:
            raise ScoringError("invalid-case", "pung-chow (Harr's Part I) has no limit: use pung-chow-limit")
        return {}
    if limit is not None and (type(limit) is not int or not 0 <= limit <= MAX_PARAM):
        none = " (0: no limit)" if ruleset == "pung-chow-limit" else ""
        raise ScoringError("invalid-case", f"the limit must be a whole number of points from 1 to {MAX_PARAM:,}"
                                           f"{none}, not {limit!r}")
    if ruleset == "classical":
        if limit == NO_LIMIT:
            raise ScoringError("invalid-case", "the classical rules are played with a limit (usually "
                                               f"{DEFAULT_LIMIT})")
        return {"limit": limit or DEFAULT_LIMIT}
    bonus = 10 if mj_bonus is None else mj_bonus
    if type(bonus) is not int or bonus not in USUAL_LIMIT:
        raise ScoringError("invalid-case", f"the Mah-Jongg bonus is {' or '.join(map(str, MJ_BONUSES))}, "
                                           f"not {bonus!r}")
    return {"mj_bonus": bonus, "limit": None if limit == NO_LIMIT else (limit or USUAL_LIMIT[bonus])}

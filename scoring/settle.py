"""Settlement: who pays whom (RULES.md 1.5, 2.2, 2.3, 2.8, A22, A28).

The winner collects his score from each other player; the losers whose hands are known settle
the differences of their scores among themselves; every payment between East and another player
is doubled.  Dead hands score nothing, so they pay every difference and collect none.
"""

from __future__ import annotations

from typing import Final

from itertools import combinations

from .tiles import WIND_LETTERS

Transfer = tuple[str, str, int]  # payer, payee, amount


def _factor(a: str, b: str, east_double: bool) -> int:
    return 2 if east_double and "E" in (a, b) else 1


# East doubles -> winner -> each other seat with the factor of what it pays the winner.  (Nested
# dicts: looking up a bool and then a seat costs less than building and comparing a tuple key.)
_WINNER_PAYERS: Final = {
    double: {
        winner: tuple((seat, _factor(seat, winner, double)) for seat in WIND_LETTERS if seat != winner)
        for winner in WIND_LETTERS
    }
    for double in (False, True)
}


# East doubles -> winner -> each pair of the other seats, in seat order, with the factor between them.
_LOSER_PAIRS: Final = {
    double: {
        winner: tuple(
            (a, b, _factor(a, b, double)) for a, b in combinations([s for s in WIND_LETTERS if s != winner], 2)
        )
        for winner in WIND_LETTERS
    }
    for double in (False, True)
}


# East doubles -> winner -> what each seat, in seat order, gains per point of the winner's score.
_WINNER_NET: Final = {
    double: {
        winner: tuple(
            sum(factor for _, factor in payers) if seat == winner else -dict(payers)[seat] for seat in WIND_LETTERS
        )
        for winner, payers in by_winner.items()
    }
    for double, by_winner in _WINNER_PAYERS.items()
}


def winner_only(winner: str, score: int, east_double: bool = True) -> list[Transfer]:
    """The winner collects his score from each other player (doubled between East and another)."""
    (a, fa), (b, fb), (c, fc) = _WINNER_PAYERS[east_double][winner]
    return [(a, winner, fa * score), (b, winner, fb * score), (c, winner, fc * score)]


def winner_only_net(winner: str, score: int, east_double: bool = True) -> dict[str, int]:
    """:func:`net` of :func:`winner_only`, from the factors precomputed per winner (no loop)."""
    e, s, w, n = _WINNER_NET[east_double][winner]
    return {"E": e * score, "S": s * score, "W": w * score, "N": n * score}


def winner_only_json(winner: str, score: int, east_double: bool = True) -> tuple[dict[str, int], list[list]]:
    """:func:`winner_only_net` and :func:`winner_only` (as lists, the JSON rows of the transfers)
    in one step, for a result that is written out straight away."""
    (a, fa), (b, fb), (c, fc) = _WINNER_PAYERS[east_double][winner]
    e, s, w, n = _WINNER_NET[east_double][winner]
    return ({"E": e * score, "S": s * score, "W": w * score, "N": n * score},
            [[a, winner, fa * score], [b, winner, fb * score], [c, winner, fc * score]])


def net(transfers: list[Transfer]) -> dict[str, int]:
    """Net gain (+) or loss (-) per seat; always sums to zero."""
    payments = {"E": 0, "S": 0, "W": 0, "N": 0}
    for payer, payee, amount in transfers:
        payments[payer] -= amount
        payments[payee] += amount
    return payments


def settle_hand_net(
    scores: dict[str, int],
    winner: str | None,
    *,
    east_double: bool = True,
    collects: dict[str, bool] | None = None,
) -> tuple[list[Transfer], dict[str, int]]:
    """Transfers for an ordinary hand and the :func:`net` of them, worked out together.

    ``scores`` holds the final (capped) score of every seat whose hand is known; the winner
    collects from all three other seats whether or not their hands are known.  ``collects``
    marks hands that may not collect from other losers (dead hands).
    """
    if winner is None:
        return [], net([])  # a drawn hand is not scored between players
    payments, rows = settle_hand_json(scores, winner, east_double, collects)
    return list(map(tuple, rows)), payments


def settle_hand_json(
    scores: dict[str, int], winner: str, east_double: bool = True, collects: dict[str, bool] | None = None
) -> tuple[dict[str, int], list[list]]:
    """The :func:`net` and the transfers of :func:`settle_hand_net` for a hand with a winner, the
    transfers as lists (the JSON rows of a result that is written out straight away)."""
    score = scores[winner]
    payments, transfers = winner_only_json(winner, score, east_double)
    if len(scores) == 1:
        return payments, transfers
    if len(scores) == 4:
        pairs = _LOSER_PAIRS[east_double][winner]
    else:
        losers = [s for s in WIND_LETTERS if s in scores and s != winner]
        pairs = tuple((a, b, _factor(a, b, east_double)) for a, b in combinations(losers, 2))
    for a, b, factor in pairs:
        diff = scores[a] - scores[b]
        if diff > 0:
            payer, payee = b, a
        elif diff < 0:
            payer, payee, diff = a, b, -diff
        else:
            continue
        if collects and not collects.get(payee, True):
            continue
        amount = diff * factor
        transfers.append([payer, payee, amount])
        payments[payer] -= amount
        payments[payee] += amount
    return payments, transfers


def settle_wash(washer: str, amount: int) -> list[Transfer]:
    """Washing the tiles: the washer collects ``amount`` from each player; East pays no double."""
    return [(seat, washer, amount) for seat in WIND_LETTERS if seat != washer]


def settle_false_mah_jongg(offender: str, limit: int) -> list[Transfer]:
    """False Mah-Jongg: half the limit to each player, the full limit to or from East (A40)."""
    transfers = []
    for seat in WIND_LETTERS:
        if seat != offender:
            amount = limit if "E" in (seat, offender) else limit // 2
            transfers.append((offender, seat, amount))
    return transfers


def settle_discarder_penalty(winner: str, discarder: str, score: int, east_double: bool = True) -> list[Transfer]:
    """The discarder pays all that the three others would have paid the winner (A41)."""
    total = sum(score * _factor(seat, winner, east_double) for seat in WIND_LETTERS if seat != winner)
    return [(discarder, winner, total)]

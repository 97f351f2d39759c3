"""Human-readable score sheets, laid out like the worked examples in Harr's book."""

from __future__ import annotations

from typing import Any

from .case import SEAT_NAMES, ScoringError
from .engine import TableResult, evaluate
from .tiles import WIND_LETTERS, tile_name

WIDTH = 52

ITEM_TEXT = {
    "mah-jongg": "Mah-Jongg",
    "no-sequence": "No sequences",
    "no-other-score": "No other score",
    "self-draw": "Drawing the winning piece",
    "only-place": "Filling the only place to win",
    "loose-tile": "Winning on a loose tile",
    "last-tile": "Winning with the last tile",
    "standing-hand": "Standing hand",
    "dead-hand": "Dead hand",
    "original-hand": "Original hand",
    "all-one-suit": "All one suit",
    "one-suit-with-honours": "One suit with honours",
    "all-honours": "All honours",
    "terminals-and-honours": "Ones and nines with honours",
    "robbing-kong": "Robbing a kong",
    "four-flowers": "Four flowers",
    "four-seasons": "Four seasons",
    "first-card-played": "Winning on the first card played (half the limit)",
    "fourth-tile-of-exposed-pung": "Completing the hand with the fourth tile of an exposed pung",
}
KIND_TEXT = {"pung": "3 of a kind", "kong": "4 of a kind"}


def describe(label: str) -> str:
    """``'pung:2p:exposed'`` -> ``'3 of a kind, 2 Dot (exposed)'``."""
    if label in ITEM_TEXT:
        return ITEM_TEXT[label]
    head, _, rest = label.partition(":")
    parts = rest.split(":")
    if head == "sequence-completing":
        return f"Sequence filled {parts[0]} ({parts[1]})"
    tile = tile_name(parts[0]) if parts and parts[0] else ""
    if head in KIND_TEXT:
        return f"{KIND_TEXT[head]}, {tile} ({parts[1]})"
    if head == "pair":
        return f"Pair of {tile}"
    if head.startswith("pair-"):
        kind = head[len("pair-"):]
        if kind == "completing":
            return f"Pair of {tile} completing the hand ({parts[1]})"
        return f"Pair of {tile} ({kind.replace('-', ' ')})"
    if head == "bonus-tile":
        return f"Bonus tile {tile}"
    if head == "own-bonus-tile":
        return f"Own flower/season {tile}"
    if head.endswith("-set"):
        return f"Set of {tile} ({head[:-4].replace('-', ' ')})"
    return label


def _line(text: str, value: str) -> str:
    dots = "." * max(2, WIDTH - len(text) - len(value) - 2)
    return f"  {text} {dots} {value}"


def _hand_sheet(seat: str, result: TableResult) -> list[str]:
    scored = result.hands[seat]
    title = f"{SEAT_NAMES[seat]} ({seat})" + (" - winner" if seat == result.winner else "")
    lines = [title]
    if scored.limit_hand:
        lines.append(_line(f"Limit hand: {scored.limit_hand}", str(scored.score)))
        return lines
    for label, points in scored.items:
        lines.append(_line(describe(label), str(points)))
    lines.append(_line("Total", str(scored.points)))
    for label, times in scored.doubles:
        lines.append(_line(f"Double: {describe(label)}", f"x{2 ** times}"))
    if scored.uncapped is not None:
        lines.append(_line("Before the limit", str(scored.uncapped)))
    lines.append(_line("Score", str(scored.score)))
    return lines


def explain(case_or_result: dict[str, Any] | TableResult) -> str:
    """A score sheet for every hand, then the payments and who pays whom.

    Takes a case (vectors.json format) or an already computed :class:`TableResult`; an invalid
    case gives one line naming the error instead of a sheet.
    """
    if isinstance(case_or_result, TableResult):
        result = case_or_result
    else:
        try:
            result = evaluate(case_or_result)
        except ScoringError as err:
            name = case_or_result.get("id", "case") if isinstance(case_or_result, dict) else "case"
            return f"{name}: error {err.code}: {err.message}"
    case = result.case
    lines = [f"{case.id or 'hand'} - {case.ruleset}" + (f" ({case.kind})" if case.kind else "")]
    winner = case.winner
    if winner is not None:
        how = winner.win_by or ""
        on = f" on {tile_name(winner.winning_tile)}" if winner.winning_tile and how != "original-hand" else ""
        lines.append(f"{SEAT_NAMES[winner.seat]} wins{on} ({how})")
    for key in ("heads", "washer", "offender", "discarder"):
        if key in result.extra:
            lines.append(f"{key}: {result.extra[key]}")
    for seat in result.hands:
        lines.append("")
        lines.extend(_hand_sheet(seat, result))
    lines.append("")
    lines.append("Payments")
    payments = result.payments
    lines.append("  " + "   ".join(f"{SEAT_NAMES[s]} {payments[s]:+d}" for s in WIND_LETTERS))
    for payer, payee, amount in result.transfers:
        lines.append(f"  {SEAT_NAMES[payer]} pays {SEAT_NAMES[payee]} {amount}")
    return "\n".join(lines)

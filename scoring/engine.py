"""Score a table: pick the best arrangement of the winner's hand, score every hand, settle.

``score_table(case_dict) -> dict`` is the entry point used by the CLI, the API and the photo
pipeline; ``evaluate(case_dict) -> TableResult`` is the same with Python objects and raises
:class:`~scoring.case.ScoringError` for invalid input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from . import settle
from .arrange import GROUPS_WITH, Group, is_nine_gates, is_thirteen_orphans, splits_of
from .case import Case, Hand, ScoringError, parse_case
from .rules import RULESETS, east_double, pung_chow_limit
from .rules.common import HandScore, Winner, WinningHand, meld_groups, shape_of
from .tiles import WIND_LETTERS, is_head

WIND_CODE: Final = {letter: f"{i + 1}z" for i, letter in enumerate(WIND_LETTERS)}  # 'E' -> '1z'

SPECIAL_SHAPES: Final = {
    "pung-chow": (),
    "pung-chow-limit": ("thirteen-orphans",),
    "classical": ("thirteen-orphans", "nine-gates"),
}


@dataclass(slots=True)
class TableResult:
    """Scores and settlement of one case."""

    case: Case
    hands: dict[str, HandScore] = field(default_factory=dict)
    transfers: list[settle.Transfer] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    # The net of the transfers when the settlement worked it out with them (else None).
    net: dict[str, int] | None = field(default=None, repr=False)

    @property
    def payments(self) -> dict[str, int]:
        return settle.net(self.transfers) if self.net is None else dict(self.net)

    @property
    def winner(self) -> str | None:
        hand = self.case.winner
        return None if hand is None else hand.seat

    def to_json(self) -> dict[str, Any]:
        case, hands = self.case, self.hands
        out: dict[str, Any] = {} if case.id is None else {"id": case.id}
        out["ruleset"] = case.ruleset
        if case.kind:
            out["kind"] = case.kind
        winner = None if case.winner is None else case.winner.seat
        out["winner"] = winner
        if winner is not None and len(hands) == 1 and winner in hands:
            out["score"] = hands[winner].score
            _add_lone_winner_fields(out, hands[winner])
        elif hands:
            scores: dict[str, int] = {}
            items: dict[str, list] = {}
            doubles: dict[str, list] = {}
            uncapped: dict[str, int] = {}
            for seat, h in hands.items():
                scores[seat] = h.score
                items[seat] = list(map(list, h.items)) if h.items else []
                doubles[seat] = list(map(list, h.doubles)) if h.doubles else []
                if h.uncapped is not None:
                    uncapped[seat] = h.uncapped
            out["scores"], out["items"], out["doubles"] = scores, items, doubles
            out["limit_hand"] = hands[winner].limit_hand if winner in hands else None
            if uncapped:
                out["uncapped_scores"] = uncapped
            if winner is None:
                out["payments_scope"] = "no-winner"
            else:
                out["payments_scope"] = "full-table" if len(hands) == 4 else "partial-table"
        if self.extra:
            out.update(self.extra)
        transfers = self.transfers
        out["payments"] = settle.net(transfers) if self.net is None else dict(self.net)
        out["transfers"] = list(map(list, transfers))
        return out


def _winner_candidates(hand: Hand, ruleset: str, round_wind: str | None) -> list[Winner]:
    """Every arrangement of the winner's tiles, with every role the winning tile can play (one
    role per arrangement for a ruleset that does not read the role: its scores would be equal)."""
    facts = WinningHand(hand, WIND_CODE[hand.seat], WIND_CODE[round_wind] if round_wind else None)
    declared = meld_groups(hand) if hand.melds else ()
    n_sets = 4 - len(declared)
    win_by = hand.win_by
    tile = hand.winning_tile if win_by != "original-hand" else None
    claimed = win_by == "discard" or win_by == "robbing-kong"  # a pung the winning tile completes is exposed
    every_role = RULESETS[ruleset].READS_WINNING_ROLE
    found: list[Winner] = []
    if n_sets >= 0 and hand.size == 3 * n_sets + 2:
        for split in splits_of(facts.keys):
            groups = declared + split if declared else split
            if tile is None:
                found.append(Winner(facts, groups, None))
                continue
            shape = None  # the groups' shape_of, shared by the roles that keep them
            # Each kind of group holding the tile gives one role, in the order of the split; equal
            # groups are one role, the first of them (groups are interned: equal means identical).
            holding: frozenset[Group] | list[Group] = GROUPS_WITH[tile].intersection(split)
            if len(holding) > 1:
                holding = sorted(holding, key=split.index)
            for group in holding:
                role = split.index(group)
                if claimed and group.kind == "pung":
                    exposed = split[:role] + (Group.of("pung", group.tile, exposed=True),) + split[role + 1 :]
                    found.append(Winner(facts, declared + exposed, role + len(declared)))
                    continue
                if shape is None:
                    shape = shape_of(groups)
                elif not every_role:
                    continue  # the same groups again: the ruleset scores them alike (the first role wins ties)
                found.append(Winner(facts, groups, role + len(declared), None, shape))
    if not declared:
        shapes = SPECIAL_SHAPES[ruleset]
        # Thirteen different kinds, all heads, can never also be four sets and a pair.
        if shapes and not found and is_thirteen_orphans(hand.counts, hand.packed):
            found.append(Winner(facts, (), None, special="thirteen-orphans"))
        # Calling nine tiles is all of one suit.
        if "nine-gates" in shapes and facts.category == "all-one-suit" and is_nine_gates(hand.counts, hand.packed):
            found.append(Winner(facts, (), None, special="nine-gates"))
    return found


def score_winner(hand: Hand, ruleset: str, params: dict, round_wind: str | None) -> HandScore:
    """The highest score over every arrangement (RULES.md 0.3.2)."""
    module = RULESETS[ruleset]
    candidates = _winner_candidates(hand, ruleset, round_wind)
    if not candidates:
        raise ScoringError(
            "not-a-winning-hand",
            f"{hand.name}'s tiles do not form four sets and a pair"
            + (" or a special hand" if SPECIAL_SHAPES[ruleset] else ""),
        )
    if len(candidates) == 1:
        return module.score_winner(candidates[0], params)
    scored = [module.score_winner(w, params) for w in candidates]
    return max(scored, key=_rank)


def _rank(scored: HandScore) -> tuple[int, int, int]:
    """Best arrangement first by score, then before the limit, then by points (the first wins ties)."""
    return scored.score, scored.uncapped or 0, scored.points


def score_other(hand: Hand, ruleset: str, params: dict, round_wind: str | None) -> tuple[HandScore, bool]:
    """A non-winner's score and whether it may collect from other losers (A28, A30)."""
    module = RULESETS[ruleset]
    return _score_other(hand, module, ruleset, module.limit(params), WIND_CODE[round_wind] if round_wind else None)


def _score_other(hand: Hand, module, ruleset: str, cap: int | None, rnd: str | None) -> tuple[HandScore, bool]:
    """:func:`score_other` with the ruleset's module, its limit (``cap``, ``module.limit(params)``)
    and the round wind's code worked out once per table."""
    # 13 tiles plus the loose tile each declared kong drew (RULES.md 0.3.6; Harr: "for every four
    # of a kind that he fills he should have an extra tile ... on account of the extra loose tile
    # draw"): four identical tiles never declared drew none, and count as a concealed pung (A30)
    if hand.melds:
        expected = 13 + hand.declared_kongs()
        held = hand.size + sum(len(m.tiles) for m in hand.melds)
    else:
        expected, held = 13, hand.size
    if held != expected:
        if ruleset == "classical" and held < expected:
            # "They ... should [deduct their own score] if they had too few tiles": the hand
            # still counts against the others but collects nothing.
            return module.score_other(hand, WIND_CODE[hand.seat], rnd, cap), False
        return HandScore.dead_hand(), False
    return module.score_other(hand, WIND_CODE[hand.seat], rnd, cap), True


def _score_ordinary(case: Case) -> TableResult:
    ruleset, params, round_wind = case.ruleset, case.params, case.round_wind
    winner = case.winner
    double = east_double(ruleset, params)
    if winner is not None and len(case.hands) == 1 and case.kind != "penalty-discarder":
        # The winner alone: he collects from the three others (settle.winner_only).
        scored = score_winner(winner, ruleset, params, round_wind)
        seat, score = winner.seat, scored.score
        return TableResult(case, {seat: scored}, settle.winner_only(seat, score, double), {},
                           settle.winner_only_net(seat, score, double))
    hands: dict[str, HandScore] = {}
    scores: dict[str, int] = {}
    collects: dict[str, bool] = {}  # only the hands that may not collect (settle reads True for the others)
    if winner is not None:  # the winner's score comes first
        scored = hands[winner.seat] = score_winner(winner, ruleset, params, round_wind)
        scores[winner.seat] = scored.score
    module, rnd = RULESETS[ruleset], WIND_CODE[round_wind] if round_wind else None
    cap = module.limit(params)  # every non-winner's limit
    for hand in case.hands:
        if not hand.winner:
            seat = hand.seat
            scored, may_collect = _score_other(hand, module, ruleset, cap, rnd)
            hands[seat] = scored
            scores[seat] = scored.score
            if not may_collect:
                collects[seat] = False
    result = TableResult(case, hands, [], {})
    if case.kind == "penalty-discarder" and winner is not None and not case.discarder_exempt:
        if case.discarder == winner.seat:
            raise ScoringError("invalid-seat", "the discarder cannot be the winner")
        assert case.discarder is not None  # (validate_table asks for it)
        result.transfers = settle.settle_discarder_penalty(winner.seat, case.discarder, scores[winner.seat], double)
        result.extra["discarder"] = case.discarder
    else:
        result.transfers, result.net = settle.settle_hand_net(
            scores, winner.seat if winner else None, east_double=double, collects=collects
        )
    return result


def _flagged_hand(case: Case, flag: str) -> Hand:
    flagged = [h for h in case.hands if flag in h.flags]
    if len(flagged) == 1:
        return flagged[0]
    if not flagged and len(case.hands) == 1:
        return case.hands[0]
    raise ScoringError("invalid-case", f"a {case.kind} case needs exactly one hand flagged {flag!r}")


def _score_wash(case: Case) -> TableResult:
    if case.ruleset != "pung-chow-limit":
        raise ScoringError("invalid-case", "washing the tiles is a rule of the limit game (pung-chow-limit)")
    hand = _flagged_hand(case, "wash-tiles")
    need = 14 if hand.seat == "E" else 13
    if len(hand.all_tiles()) != need:
        raise ScoringError(
            "wrong-tile-count",
            f"{hand.name} washes with {len(hand.all_tiles())} tiles; the original hand has {need}",
        )
    heads = len({t for t in hand.concealed if is_head(t)})
    amount = pung_chow_limit.WASH_PAYMENTS.get(min(heads, 13))
    if amount is None:
        raise ScoringError(
            "not-a-winning-hand", f"{hand.name} holds {heads} different heads; washing needs at least 9"
        )
    result = TableResult(case, transfers=settle.settle_wash(hand.seat, amount))
    result.extra.update({"heads": heads, "washer": hand.seat})
    return result


def _score_false_mah_jongg(case: Case) -> TableResult:
    hand = _flagged_hand(case, "false-mah-jongg")
    limit = pung_chow_limit.limit_value(case.params) if case.ruleset == "pung-chow-limit" else (
        RULESETS[case.ruleset].limit(case.params)
    )
    if limit is None:
        raise ScoringError("invalid-case", "a false Mah-Jongg penalty needs a limit")
    result = TableResult(case, transfers=settle.settle_false_mah_jongg(hand.seat, limit))
    result.extra["offender"] = hand.seat
    return result


def evaluate(raw: Any) -> TableResult:
    """Validate, score and settle one case.  Raises :class:`ScoringError` for invalid input."""
    case = raw if isinstance(raw, Case) else parse_case(raw)
    if case.kind == "wash":
        return _score_wash(case)
    if case.kind == "penalty-false-mj":
        return _score_false_mah_jongg(case)
    return _score_ordinary(case)


def _lone_winner_json(case: Case) -> dict[str, Any]:
    """``evaluate(case).to_json()`` for an ordinary case (no ``kind``) holding the winner's hand
    alone, written out straight away: no :class:`TableResult`, no transfers as tuples to convert.
    (tests/test_scoring_rules.py checks that both give the same result.)"""
    ruleset, params, winner = case.ruleset, case.params, case.winner
    assert winner is not None  # (score_table calls this for a case with a winner)
    double = east_double(ruleset, params)
    scored = score_winner(winner, ruleset, params, case.round_wind)
    seat, score = winner.seat, scored.score
    if case.id is None:
        out: dict[str, Any] = {"ruleset": ruleset, "winner": seat, "score": score}
    else:
        out = {"id": case.id, "ruleset": ruleset, "winner": seat, "score": score}
    _add_lone_winner_fields(out, scored)
    out["payments"], out["transfers"] = settle.winner_only_json(seat, score, double)
    return out


def _add_lone_winner_fields(out: dict[str, Any], scored: HandScore) -> None:
    """A winner-only result's fields after its score, in the result's key order."""
    if scored.uncapped is not None:
        out["uncapped_score"] = scored.uncapped
    out["items"] = list(map(list, scored.items))
    out["doubles"] = list(map(list, scored.doubles)) if scored.doubles else []
    out["limit_hand"] = scored.limit_hand
    out["payments_scope"] = "winner-only"


def _table_json(case: Case) -> dict[str, Any]:
    """``evaluate(case).to_json()`` for an ordinary case (no ``kind``) with a winner and at least
    one other hand (a full or partial table), written out straight away: every hand's score,
    items and doubles go into the result's maps as the hand is scored, and the settlement gives
    the payments and transfer rows (no :class:`TableResult`, no tuples to convert, no second pass
    over the hands).  The winner comes first, then the others in the case's order, as in
    :func:`_score_ordinary`; items and doubles become JSON rows (``[label, value]``) inline, as
    in :meth:`TableResult.to_json` (a helper would cost a call per hand and list).
    (tests/test_scoring_rules.py checks that both give the same result.)"""
    ruleset, params, winner = case.ruleset, case.params, case.winner
    assert winner is not None  # (score_table calls this for a case with a winner)
    double = east_double(ruleset, params)
    scored = score_winner(winner, ruleset, params, case.round_wind)
    seat = winner.seat
    scores = {seat: scored.score}
    items = {seat: list(map(list, scored.items)) if scored.items else []}
    doubles = {seat: list(map(list, scored.doubles)) if scored.doubles else []}
    uncapped = {} if scored.uncapped is None else {seat: scored.uncapped}
    collects: dict[str, bool] = {}  # only the hands that may not collect (settle reads True for the others)
    module, rnd = RULESETS[ruleset], WIND_CODE[case.round_wind] if case.round_wind else None
    cap = module.limit(params)  # every non-winner's limit
    for hand in case.hands:
        if hand is not winner:
            other, may_collect = _score_other(hand, module, ruleset, cap, rnd)
            seat = hand.seat
            scores[seat] = other.score
            items[seat] = list(map(list, other.items)) if other.items else []
            doubles[seat] = list(map(list, other.doubles)) if other.doubles else []
            if other.uncapped is not None:
                uncapped[seat] = other.uncapped
            if not may_collect:
                collects[seat] = False
    if case.id is None:
        out: dict[str, Any] = {"ruleset": ruleset, "winner": winner.seat}
    else:
        out = {"id": case.id, "ruleset": ruleset, "winner": winner.seat}
    out["scores"], out["items"], out["doubles"] = scores, items, doubles
    out["limit_hand"] = scored.limit_hand
    if uncapped:
        out["uncapped_scores"] = uncapped
    out["payments_scope"] = "full-table" if len(scores) == 4 else "partial-table"
    out["payments"], out["transfers"] = settle.settle_hand_json(scores, winner.seat, double, collects)
    return out


def score_table(raw: Any) -> dict[str, Any]:
    """Score one case in the vectors.json format; invalid input gives ``{"error": {code, message}}``."""
    try:
        case = raw if isinstance(raw, Case) else parse_case(raw)
        if case.kind is None and case.winner is not None:
            return _lone_winner_json(case) if len(case.hands) == 1 else _table_json(case)
        return evaluate(case).to_json()
    except ScoringError as err:
        out: dict[str, Any] = {"error": err.to_json()}
        if isinstance(raw, dict) and "id" in raw:
            out = {"id": raw["id"], **out}
        return out


__all__ = ["TableResult", "evaluate", "score_table", "score_winner", "score_other"]

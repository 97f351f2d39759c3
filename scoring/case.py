"""A table to score: parsed from the vectors.json case format and validated.

Validation names the player, tile or meld at fault and raises :class:`ScoringError` with one of
the error codes of RULES.md 0.2 (plus ``invalid-case`` for a document that is not a case at all).
Nothing here knows how hands are scored.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any, Final

from operator import add

from .arrange import INDEX, NO_TILES, codes_of, pack, pack_text, to_counts
from .tiles import (
    BACK,
    WIND_LETTERS,
    TileError,
    format_tiles,
    is_bonus,
    is_suit,
    parse_tiles,
    quoted,
    rank_of,
    suit_of,
    tile_name,
)

RULESETS: Final = ("pung-chow", "pung-chow-limit", "classical")
WIN_BY: Final = ("self-draw", "discard", "loose-tile", "robbing-kong", "original-hand")
FLAGS: Final = (
    "last-tile",
    "standing-hand",
    "east-first-discard",
    "east-13th-consecutive",
    "wash-tiles",
    "false-mah-jongg",
)
NO_FLAGS: Final[frozenset[str]] = frozenset()
#: the flags that mark the hand of a special settlement (`kind` wash or penalty-false-mj), which
#: no one won; the others say how a hand was won (what a photo's winner may be given)
SETTLEMENT_FLAGS: Final = ("wash-tiles", "false-mah-jongg")
WIN_FLAGS: Final = tuple(f for f in FLAGS if f not in SETTLEMENT_FLAGS)
#: the fields a case, a hand, a meld and `params` may hold.  A hand, a meld or `params` with any
#: other field is refused (a misspelt "flag" or "limt" would otherwise be dropped and the table
#: scored wrong); a case may carry notes of its own (vectors.json's "source", "expected", ...),
#: refused only when one looks like a misspelt field ("roundwind")
CASE_FIELDS: Final = frozenset(("id", "ruleset", "seat_wind", "round_wind", "params", "kind", "hands",
                                "discarder", "discarder_exempt"))
HAND_FIELDS: Final = frozenset(("seat", "winner", "concealed", "melds", "winning_tile", "win_by", "flags",
                                "bonus_tiles"))
MELD_FIELDS: Final = frozenset(("kind", "tiles", "exposed"))
PARAM_FIELDS: Final = frozenset(("limit", "mj_bonus", "east_double", "east_consecutive_wins"))
#: the params each ruleset reads (Part I none): another ruleset's setting is refused, not dropped
RULESET_PARAMS: Final = {"pung-chow": frozenset(), "pung-chow-limit": frozenset(("limit", "mj_bonus")),
                         "classical": frozenset(("limit", "east_double", "east_consecutive_wins"))}
#: the flags of how a hand was won that each ruleset scores (Part I none; Part II doubles the
#: last tile drawn from the wall and pays East's first discard as a limit; the classical rules
#: add the standing hand and East's thirteenth win): another ruleset's flag is refused, not
#: silently scored as nothing
RULESET_WIN_FLAGS: Final = {"pung-chow": (), "pung-chow-limit": ("last-tile", "east-first-discard"),
                            "classical": ("last-tile", "standing-hand", "east-first-discard",
                                          "east-13th-consecutive")}
#: the same, in words for help texts
WIN_FLAGS_SAID: Final = "; ".join(f"{ruleset} {', '.join(flags) or 'none'}"
                                  for ruleset, flags in RULESET_WIN_FLAGS.items())
CASE_KINDS: Final = (None, "wash", "penalty-false-mj", "penalty-discarder")
MELD_KINDS: Final = ("chow", "pung", "kong")
N_KINDS: Final = len(INDEX)  # count bytes per hand
SEAT_NAMES: Final = {"E": "East", "S": "South", "W": "West", "N": "North"}


class ScoringError(ValueError):
    """Invalid input: ``code`` is machine-readable, the message names what is wrong."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Meld:
    """A set declared before the winning tile: chow, pung or kong, exposed or concealed."""

    kind: str
    tiles: tuple[str, ...]
    exposed: bool

    @property
    def tile(self) -> str:
        """The set's lowest tile (its kind for pungs and kongs)."""
        return min(self.tiles, key=INDEX.__getitem__) if self.kind == "chow" else self.tiles[0]

    def describe(self) -> str:
        return f"{'exposed' if self.exposed else 'concealed'} {self.kind} {format_tiles(self.tiles)}"


@dataclass(slots=True, init=False)  # (the __init__ is written out: mypyc compiles it, not a generated one)
class Hand:
    """One player's tiles at the end of the hand.

    ``counts`` and ``meld_counts`` count the concealed tiles and the declared melds' tiles per
    kind (index = position in ``KINDS``), ``packed`` and ``meld_packed`` are the same counts as
    integers (:func:`scoring.arrange.pack`; None for an impossible hand of over 255 tiles),
    ``size`` is the number of concealed tiles.  :func:`parse_case` works them out once, while
    reading the tiles, and keeps no list of the concealed codes (:attr:`concealed` lists them).
    """

    seat: str
    winner: bool
    melds: list[Meld]
    winning_tile: str | None
    win_by: str | None
    flags: frozenset[str]
    bonus_tiles: list[str]
    counts: bytes | list[int]
    meld_counts: bytes | list[int]
    packed: int | None
    meld_packed: int | None
    size: int

    def __init__(self, seat: str, winner: bool, melds: list[Meld], winning_tile: str | None, win_by: str | None,
                 flags: frozenset[str], bonus_tiles: list[str], counts: bytes | list[int],
                 meld_counts: bytes | list[int], packed: int | None, meld_packed: int | None, size: int):
        self.seat = seat
        self.winner = winner
        self.melds = melds
        self.winning_tile = winning_tile
        self.win_by = win_by
        self.flags = flags
        self.bonus_tiles = bonus_tiles
        self.counts = counts
        self.meld_counts = meld_counts
        self.packed = packed
        self.meld_packed = meld_packed
        self.size = size

    @property
    def name(self) -> str:
        return SEAT_NAMES.get(self.seat, self.seat)

    @property
    def concealed(self) -> list[str]:
        """The concealed tiles' codes, in code order."""
        return codes_of(self.counts)

    def all_tiles(self) -> list[str]:
        return self.concealed + [t for m in self.melds for t in m.tiles]

    def declared_kongs(self) -> int:
        return sum(1 for m in self.melds if m.kind == "kong")

    def held_counts(self) -> bytes | list[int]:
        """Every tile the player holds, concealed and declared, per kind."""
        return list(map(add, self.counts, self.meld_counts)) if self.melds else self.counts

    def tile_count(self) -> int:
        """Tiles held, counting each kong as three (a complete hand has 14)."""
        return self.size + sum(3 for _ in self.melds)


@dataclass(slots=True, init=False)  # (the __init__ is written out: mypyc compiles it, not a generated one)
class Case:
    ruleset: str
    seat_wind: str | None
    round_wind: str | None
    params: dict[str, Any]
    kind: str | None
    hands: list[Hand]
    discarder: str | None = None
    discarder_exempt: bool = False
    id: Any = None  # any JSON value: it is copied into the result
    winner: Hand | None = None  # the hand marked as the winner (parse_case finds it)

    def __init__(self, ruleset: str, seat_wind: str | None, round_wind: str | None, params: dict[str, Any],
                 kind: str | None, hands: list[Hand], discarder: str | None = None, discarder_exempt: bool = False,
                 id: Any = None, winner: Hand | None = None):
        self.ruleset = ruleset
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.params = params
        self.kind = kind
        self.hands = hands
        self.discarder = discarder
        self.discarder_exempt = discarder_exempt
        self.id = id
        self.winner = winner

    def hand(self, seat: str) -> Hand | None:
        return next((h for h in self.hands if h.seat == seat), None)


def _tiles(text: Any, where: str) -> list[str]:
    if text is None:
        text = ""
    if not isinstance(text, (str, list)):
        raise ScoringError("invalid-case", f"{where}: tiles must be a string like '123m55z'")
    try:
        codes = parse_tiles(text)
    except TileError as err:
        raise ScoringError("unknown-tile", f"{where}: {err}") from None
    if BACK in codes:
        raise ScoringError(
            "unknown-tile", f"{where}: a face-down tile ('back') must be named before scoring"
        )
    return codes


def _no_tiles(text: Any) -> bool:
    return text is None or (type(text) in (str, list) and not text)


#: a note field is compared with the fields it may be a misspelling of only when its length is
#: near one of theirs, and at most this many of a table's notes are (difflib costs 50 us a key)
LOOK_ALIKE_NOTES = 32


def _unknown_fields(raw: dict, known: frozenset, where: str, *, notes_allowed: bool = False) -> None:
    """Refuse a field `known` does not hold, naming it and the field it may be a misspelling of
    (with `notes_allowed`, only such a look-alike is refused)."""
    unknown: list = list(raw.keys() - known)
    if notes_allowed:
        lengths = range(min(map(len, known)) - 3, max(map(len, known)) + 4)
        unknown = [k for k in unknown if len(str(k)) in lengths]
    unknown.sort(key=str)
    for key in unknown[:LOOK_ALIKE_NOTES] if notes_allowed else unknown:
        close = get_close_matches(str(key), sorted(known), n=1, cutoff=0.75)
        if close or not notes_allowed:
            hint = f"; did you mean {close[0]!r}?" if close else f" (it may hold {', '.join(sorted(known))})"
            raise ScoringError("invalid-case", f"{where}: unknown field {quoted(key)}{hint}")


def _misplaced_fields(raw: dict) -> None:
    """Refuse a table with a hand's, a meld's or a setting's field at its top ("limit" beside
    "ruleset" is no limit: it belongs in params)."""
    for key in sorted(raw.keys() - CASE_FIELDS, key=str):
        if key in PARAM_FIELDS:
            raise ScoringError("invalid-case", f"the table: {quoted(key)} belongs in params ({{\"params\": {{\"{key}\": ...}}}})")
        if key in HAND_FIELDS or key in MELD_FIELDS:
            raise ScoringError("invalid-case", f"the table: {quoted(key)} belongs to a hand (in hands[])")


def _parse_meld(raw: Any, where: str) -> Meld:
    if not isinstance(raw, dict):
        raise ScoringError("invalid-meld", f"{where}: a meld must be an object {{kind, tiles, exposed}}")
    if not MELD_FIELDS.issuperset(raw):
        _unknown_fields(raw, MELD_FIELDS, where)
    kind = raw.get("kind")
    tiles = _tiles(raw.get("tiles"), where)
    if any(is_bonus(t) for t in tiles):
        raise ScoringError("invalid-meld", f"{where}: flowers and seasons cannot form a set")
    exposed = raw.get("exposed", True)
    if not isinstance(exposed, bool):
        raise ScoringError("invalid-meld", f"{where}: 'exposed' must be true or false")
    meld = Meld(kind=str(kind), tiles=tuple(tiles), exposed=exposed)
    _check_meld_shape(meld, where)
    return meld


def _check_meld_shape(meld: Meld, where: str) -> None:
    shown = format_tiles(meld.tiles) or "no tiles"
    if meld.kind not in MELD_KINDS:
        raise ScoringError(
            "invalid-meld", f"{where}: unknown meld kind {quoted(meld.kind)} (use chow, pung or kong)"
        )
    size = 3 if meld.kind in ("chow", "pung") else 4
    if len(meld.tiles) != size:
        raise ScoringError(
            "invalid-meld", f"{where}: a {meld.kind} has {size} tiles, got {len(meld.tiles)} ({shown})"
        )
    if meld.kind == "chow":
        tiles = sorted(meld.tiles, key=lambda t: (t[1], t[0]))
        suits = {suit_of(t) for t in tiles}
        if not all(is_suit(t) for t in tiles):
            raise ScoringError("invalid-meld", f"{where}: a chow needs suit tiles, got {shown}")
        if len(suits) != 1:
            raise ScoringError("invalid-meld", f"{where}: a chow needs one suit, got {shown}")
        ranks = [rank_of(t) for t in tiles]
        if ranks != list(range(ranks[0], ranks[0] + 3)):
            raise ScoringError("invalid-meld", f"{where}: a chow needs three in sequence, got {shown}")
    elif len(set(meld.tiles)) != 1:
        raise ScoringError(
            "invalid-meld", f"{where}: a {meld.kind} needs {size} identical tiles, got {shown}"
        )


#: the numeric parameters a ruleset reads (RULES.md 0.2), each with its least allowed value;
#: null keeps the ruleset's default (for `limit`: no cap in the limit game)
_NUMBER_PARAMS: Final = (("limit", 1), ("mj_bonus", 1), ("east_consecutive_wins", 0))
#: no house setting is larger (a limit of a thousand digits made totals no printer could show)
MAX_PARAM: Final = 1_000_000_000


def _check_params(params: dict, ruleset: str) -> None:
    """Refuse parameters the rules cannot use (a limit of "abc", east_double "no", a misspelt
    "limt") with a message naming the parameter, instead of failing while scoring or scoring
    without it."""
    if not PARAM_FIELDS.issuperset(params):
        _unknown_fields(params, PARAM_FIELDS, "params")
    read = RULESET_PARAMS[ruleset]
    if not read.issuperset(params):
        other = sorted(k for k in params if k not in read)[0]
        takes = f"reads {', '.join(sorted(read))}" if read else "has no params"
        raise ScoringError("invalid-case", f"params.{other} is no setting of {ruleset}, which {takes}")
    for key, least in _NUMBER_PARAMS:
        value = params.get(key)
        if value is None or type(value) is int and least <= value <= MAX_PARAM:
            continue
        if isinstance(value, float) and value.is_integer() and least <= value <= MAX_PARAM:
            continue
        raise ScoringError("invalid-case", f"params.{key} must be a whole number from {least} to {MAX_PARAM:,} "
                                           f"or null, not {quoted(value)}")
    double = params.get("east_double")
    if double is not None and not isinstance(double, bool):
        raise ScoringError("invalid-case", f"params.east_double must be true or false, not {quoted(double)}")


def _parse_hand(raw: Any, index: int) -> Hand:
    if not isinstance(raw, dict):
        raise ScoringError("invalid-case", f"hands[{index}] must be an object")
    seat = raw.get("seat")
    if seat not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"hands[{index}]: seat {quoted(seat)} is not one of E, S, W, N")
    who = SEAT_NAMES[seat]
    if not HAND_FIELDS.issuperset(raw):
        _unknown_fields(raw, HAND_FIELDS, who)
    winner = raw.get("winner", False)
    if winner is not True and winner is not False:
        raise ScoringError("invalid-case", f"{who}: 'winner' must be true or false")
    text = raw.get("concealed")
    # A canonical string holds only suit and honour tiles: no face-down or bonus tile to refuse.
    packed = pack_text(text) if type(text) is str else None
    counts: bytes | list[int]
    if packed is not None:
        counts, size = packed.to_bytes(N_KINDS, "little"), packed % 255  # 256 = 1 (mod 255)
    else:
        packed, counts, size = _concealed_counts(text, who)
    melds_raw = raw.get("melds")
    if melds_raw:
        if not isinstance(melds_raw, list):
            raise ScoringError("invalid-case", f"{who}: 'melds' must be a list")
        melds = [_parse_meld(m, f"{who}'s meld {i + 1}") for i, m in enumerate(melds_raw)]
        declared = [t for m in melds for t in m.tiles]
        meld_counts = to_counts(declared)
        meld_packed = pack(declared) if len(declared) <= 255 else None
    else:
        melds, meld_counts, meld_packed = [], NO_TILES, 0
    winning_raw = raw.get("winning_tile")
    winning_tile = None
    if winning_raw is None:  # (non-winners)
        pass
    elif type(winning_raw) is str and winning_raw in INDEX:
        winning_tile = winning_raw
    elif winning_raw != "":
        codes = _tiles(winning_raw, f"{who}'s winning tile")
        if len(codes) != 1:
            raise ScoringError("unknown-tile", f"{who}: the winning tile must be one tile, got {quoted(winning_raw)}")
        if is_bonus(codes[0]):
            raise ScoringError("unknown-tile", f"{who}: the winning tile cannot be a flower or season, got "
                                               f"{quoted(winning_raw)} (a bonus tile is set aside and replaced, never won on)")
        winning_tile = codes[0]
    win_by = raw.get("win_by")
    if win_by is not None and win_by not in WIN_BY:
        raise ScoringError("invalid-case", f"{who}: win_by {quoted(win_by)} is not one of {', '.join(WIN_BY)}")
    flags = raw.get("flags")
    if flags:
        if not isinstance(flags, list):
            raise ScoringError("invalid-case", f"{who}: 'flags' must be a list")
        for flag in flags:
            if flag not in FLAGS:
                raise ScoringError("invalid-case", f"{who}: unknown flag {quoted(flag)} "
                                                   f"(flags: {', '.join(FLAGS)})")
    won_by = [f for f in flags if f in WIN_FLAGS] if flags else []
    if not winner and (winning_tile is not None or win_by is not None or won_by):
        # the winner's fields on a hand not marked as the winner: scored as it stood, the table
        # was a hand no one won (a forgotten "winner": true), and no one paid
        what = (f"a winning tile ({winning_tile})" if winning_tile is not None
                else f"win_by {quoted(win_by)}" if win_by is not None
                else f"the flag {quoted(won_by[0])}")
        raise ScoringError("invalid-case", f"{who} is not marked as the winner but has {what}, which only the "
                                           "winner has: mark the winner with \"winner\": true, or leave it out")
    bonus_raw = raw.get("bonus_tiles")
    bonus = [] if bonus_raw is None or _no_tiles(bonus_raw) else _tiles(bonus_raw, f"{who}'s bonus tiles")
    if bonus:
        not_bonus = [t for t in bonus if not is_bonus(t)]
        if not_bonus:
            raise ScoringError("unknown-tile", f"{who}: {not_bonus[0]} is not a flower or season")
    return Hand(seat, winner, melds, winning_tile, win_by, frozenset(flags) if flags else NO_FLAGS,
                bonus, counts, meld_counts, packed, meld_packed, size)


def _concealed_counts(text: Any, who: str) -> tuple[int | None, bytes | list[int], int]:
    """The concealed tiles as packed counts, counts per kind and number of tiles, when they are
    not a canonical string (:func:`scoring.arrange.pack_text`).

    A list of kind codes (at most 254) is counted straight away; anything else is read code by
    code, which names what is wrong: unknown or face-down tiles, flowers and seasons (they
    belong in bonus_tiles)."""
    if type(text) is list and len(text) <= 254:
        try:
            packed = pack(text)
            return packed, packed.to_bytes(len(INDEX), "little"), len(text)
        except (KeyError, TypeError):
            pass
    concealed = _tiles(text, f"{who}'s concealed tiles")
    try:
        if len(concealed) <= 255:
            packed = pack(concealed)
            return packed, packed.to_bytes(len(INDEX), "little"), len(concealed)
        return None, to_counts(concealed), len(concealed)
    except KeyError:
        bonus_in_hand = [t for t in concealed if is_bonus(t)]
        raise ScoringError(
            "invalid-case",
            f"{who}: flowers and seasons ({format_tiles(bonus_in_hand)}) belong in bonus_tiles",
        ) from None


def parse_case(raw: Any) -> Case:
    """Parse a vectors.json case (a dict) into a :class:`Case`, checking its structure."""
    if not isinstance(raw, dict):
        raise ScoringError("invalid-case", "a case must be a JSON object")
    if not CASE_FIELDS.issuperset(raw):
        _misplaced_fields(raw)
        _unknown_fields(raw, CASE_FIELDS, "the table", notes_allowed=True)
    ruleset = raw.get("ruleset")
    if ruleset is None:
        raise ScoringError("invalid-case", f"the case has no ruleset (one of {', '.join(RULESETS)})")
    if ruleset not in RULESETS:
        raise ScoringError("invalid-case", f"ruleset {quoted(ruleset)} is not one of {', '.join(RULESETS)}")
    kind = raw.get("kind")
    if kind not in CASE_KINDS:
        raise ScoringError("invalid-case", f"kind {quoted(kind)} is not one of wash, penalty-false-mj, penalty-discarder")
    params = raw.get("params") or {}
    if not isinstance(params, dict):
        raise ScoringError("invalid-case", "'params' must be an object")
    if params:
        _check_params(params, ruleset)
    hands_raw = raw.get("hands")
    if not (isinstance(hands_raw, list) and hands_raw):
        raise ScoringError("invalid-case", "'hands' must be a non-empty list")
    if len(hands_raw) > 4:
        raise ScoringError("invalid-seat", f"{len(hands_raw)} hands given; a table seats four")
    seat_wind = raw.get("seat_wind")
    if seat_wind is not None and seat_wind not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"seat_wind {quoted(seat_wind)} is not one of E, S, W, N")
    round_wind = raw.get("round_wind")
    if round_wind is not None and round_wind not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"round_wind {quoted(round_wind)} is not one of E, S, W, N")
    if len(hands_raw) == 1:
        hands = [_parse_hand(hands_raw[0], 0)]
        winner = hands[0] if hands[0].winner else None
    else:
        hands = [_parse_hand(h, i) for i, h in enumerate(hands_raw)]
        winner = None
        for hand in hands:
            if hand.winner:
                winner = hand
                break
    for hand in hands:
        if hand.flags:  # a standing hand ticked in a Part I game scored as if it were not there
            check_ruleset_flags(ruleset, hand.flags, hand.name)
    discarder = raw.get("discarder")
    if discarder is not None and discarder not in WIND_LETTERS:
        raise ScoringError("invalid-seat", f"discarder {quoted(discarder)} is not one of E, S, W, N")
    exempt = raw.get("discarder_exempt", False)
    if exempt is not None and not isinstance(exempt, bool):  # (the string "false" is no false)
        raise ScoringError("invalid-case", f"discarder_exempt must be true or false, not {quoted(exempt)}")
    case = Case(ruleset, seat_wind, round_wind, params, kind, hands, discarder,
                bool(exempt), raw.get("id"), winner)
    validate_table(case)
    return case


def check_ruleset_flags(ruleset: str, flags, who: str | None = None) -> None:
    """ScoringError naming the first of `flags` (of WIN_FLAGS) that `ruleset` does not score
    (RULESET_WIN_FLAGS), and those it does; the photo's command and endpoint ask it before the
    photo is read."""
    scored = RULESET_WIN_FLAGS[ruleset]
    for flag in WIN_FLAGS:
        if flag in flags and flag not in scored:
            has = f"its flags are {', '.join(scored)}" if scored else "it scores none"
            said = f"the flag {flag!r} is no rule of {ruleset} ({has})"
            raise ScoringError("invalid-case", f"{who}: {said}" if who else said)


def validate_table(case: Case) -> None:
    """Checks across the whole table: seats, copies, winners, tile counts, winning tile."""
    hands = case.hands
    if len(hands) == 1:  # (the common single-hand case: no seats to compare)
        hand = hands[0]
        bonus = hand.bonus_tiles
        winners = [hand] if hand.winner else []
    else:
        seats = set()
        bonus = []
        winners = []
        for hand in hands:
            seats.add(hand.seat)
            if hand.bonus_tiles:
                bonus += hand.bonus_tiles
            if hand.winner:
                winners.append(hand)
        if len(seats) != len(hands):
            for seat, n in Counter(h.seat for h in hands).items():
                if n > 1:
                    raise ScoringError("invalid-seat", f"{SEAT_NAMES[seat]} appears {n} times at the table")
    if _over_four(hands):
        _too_many_copies(case)
    if len(bonus) > 1 and len(set(bonus)) != len(bonus):
        _repeated_bonus_tile(bonus)
    if len(winners) > 1:
        raise ScoringError(
            "multiple-winners", f"{' and '.join(h.name for h in winners)} are "
                                f"{'both' if len(winners) == 2 else 'all'} marked as winners"
        )
    if case.kind == "penalty-discarder" and case.discarder is None:
        raise ScoringError("invalid-case", "a discarder penalty needs the 'discarder' seat")
    if winners:
        _validate_winner(winners[0])


def _repeated_bonus_tile(bonus: list[str]) -> None:
    """Name the first flower or season (in code order) held twice or more."""
    for code, n in sorted(Counter(bonus).items()):
        if n > 1:
            raise ScoringError("too-many-copies", f"{tile_name(code)} ({code}) appears {n} times; a set has one")


# Adding 0x7B to a count byte of at most 0x84 sets its top bit exactly when the count exceeds four.
_OVER_FOUR: Final = sum(0x7B << (8 * i) for i in range(len(INDEX)))
_TOP_BITS: Final = sum(0x80 << (8 * i) for i in range(len(INDEX)))


def _over_four(hands: list[Hand]) -> bool:
    """Whether the table holds some kind more than four times."""
    held = tiles = 0
    for h in hands:
        packed = h.packed
        if packed is None:  # over 255 tiles
            break
        if h.melds:
            if h.meld_packed is None:
                break
            packed += h.meld_packed
            tiles += 4 * len(h.melds)
        held += packed
        tiles += h.size
    else:
        if tiles <= 0x84:  # no count byte can overflow
            return (held + _OVER_FOUR) & _TOP_BITS != 0
    on_table = hands[0].held_counts()
    for hand in hands[1:]:
        on_table = list(map(add, on_table, hand.held_counts()))
    return max(on_table) > 4


def _too_many_copies(case: Case) -> None:
    """Name the first kind (in code order) that the table holds more than four times."""
    copies = Counter(t for h in case.hands for t in h.all_tiles())
    for code, n in sorted(copies.items()):
        if n > 4:
            holders = [h.name for h in case.hands if code in h.all_tiles()]
            raise ScoringError(
                "too-many-copies",
                f"{n} copies of {tile_name(code)} ({code}) on the table (held by {', '.join(holders)}); a set has 4",
            )


def _validate_winner(hand: Hand) -> None:
    if hand.melds:
        kongs = hand.declared_kongs()
        held = hand.size + sum(len(m.tiles) for m in hand.melds)
    else:
        kongs, held = 0, hand.size
    expected = 14 + kongs
    if held != expected:
        raise ScoringError(
            "wrong-tile-count",
            f"{hand.name} (winner) holds {held} tiles; a complete hand with "
            f"{'no kong' if kongs == 0 else f'{kongs} kong' + 's' * (kongs > 1)} has {expected}",
        )
    if hand.win_by is None:
        raise ScoringError("invalid-case", f"{hand.name} (winner): say how the hand was won (win_by)")
    if hand.win_by == "original-hand":
        return
    if hand.winning_tile is None:
        raise ScoringError("winning-tile-not-in-hand", f"{hand.name} (winner): no winning tile given")
    if not hand.counts[INDEX[hand.winning_tile]]:
        raise ScoringError(
            "winning-tile-not-in-hand",
            f"{hand.name}'s winning tile {tile_name(hand.winning_tile)} ({hand.winning_tile}) "
            "is not among the concealed tiles",
        )

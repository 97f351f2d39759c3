"""Hand shapes: every way to split tiles into sets and a pair, the only-place wait, special shapes.

Tiles are handled as count vectors over the 34 kinds (index = position in ``KINDS``).  The hand
splits into four independent segments (characters, dots, bamboo, honours); each segment's splits
come from the precomputed tables of :mod:`scoring.shape_tables`, so arranging a hand is a few
table look-ups and a product of the (usually single) splits of each segment.  MPSZ strings are
counted through a table of their runs (:data:`RUNS`), built here from the tile codes (compiled
by mypyc, by a byte loop instead: :func:`pack_text`).  All
tables are built once, at import, from the rules and the tile set, never from the hands scored.
"""

from __future__ import annotations

from itertools import combinations_with_replacement, compress, product
from typing import ClassVar, Final

from .shape_tables import (
    HONOUR_ONLY_SPLITS,
    HONOUR_SPLITS,
    LOCAL_KIND,
    SUIT_ONLY_SPLITS,
    SUIT_SPLITS,
    segment_key,
    waits_table,
)
from .tiles import KINDS, is_dragon, is_head, is_wind

INDEX: Final = {code: i for i, code in enumerate(KINDS)}
HEAD_INDICES: Final = tuple(i for i, code in enumerate(KINDS) if is_head(code))
TILE_COUNT: Final = {"pair": 2, "pung": 3, "kong": 4}


_POINTS_KEYS: Final[dict[tuple[str, bool, bool], tuple[str, bool, bool]]] = {}


def points_key(kind: str, head: bool, concealed: bool) -> tuple[str, bool, bool]:
    """A key of the set-points tables (kind, is a head, concealed), as one tuple object shared by
    the groups and the tables: a dict finds its own key object without comparing the items."""
    key = (kind, head, concealed)
    return _POINTS_KEYS.setdefault(key, key)


class Group:
    """A set or the pair in an arrangement.

    ``kind`` is chow, pung, kong or pair; ``tile`` the lowest tile; ``exposed`` whether it scores
    as exposed; ``declared`` whether it was a meld laid down before the win.  Groups are interned
    (get them with :meth:`Group.of`), so two equal groups are the same object and everything the
    scorers ask of a group is computed once.
    """

    __slots__ = ("kind", "tile", "exposed", "declared", "tiles", "is_set_of_a_kind", "is_head",
                 "is_dragon", "is_wind", "is_honour", "is_honour_set", "label", "points_key")
    _interned: ClassVar[dict[tuple[str, str, bool, bool], "Group"]] = {}

    def __init__(self, kind: str, tile: str, exposed: bool, declared: bool):
        self.kind, self.tile, self.exposed, self.declared = kind, tile, exposed, declared
        if kind == "chow":
            i = INDEX[tile]
            self.tiles = KINDS[i : i + 3]
        else:
            self.tiles = (tile,) * TILE_COUNT[kind]
        self.is_set_of_a_kind = kind in ("pung", "kong")
        self.is_head = is_head(tile)
        self.is_dragon = is_dragon(tile)
        self.is_wind = is_wind(tile)
        self.is_honour = self.is_dragon or self.is_wind
        self.is_honour_set = self.is_set_of_a_kind and self.is_honour
        self.label = f"{kind}:{tile}:{'exposed' if exposed else 'concealed'}"  # item label of a set
        self.points_key = points_key(kind, self.is_head, not exposed)  # key of the set-points tables

    @classmethod
    def of(cls, kind: str, tile: str, exposed: bool = False, declared: bool = False) -> "Group":
        key = (kind, tile, exposed, declared)
        group = cls._interned.get(key)
        if group is None:
            group = cls._interned[key] = cls(kind, tile, exposed, declared)
        return group

    def __repr__(self) -> str:
        flags = (" exposed" if self.exposed else "") + (" declared" if self.declared else "")
        return f"Group({self.kind} {self.tile}{flags})"

    def __reduce__(self):
        return Group.of, (self.kind, self.tile, self.exposed, self.declared)


# Packed counts: tiles as one integer holding a count byte per kind (byte i = kind i), so that
# counting, adding hands and asking "any honours?" are single integer operations.
UNIT: Final = {code: 1 << (8 * i) for i, code in enumerate(KINDS)}  # one tile of a kind
NO_TILES: Final = bytes(len(KINDS))


def kinds_mask(predicate) -> int:
    """The bytes of the kinds whose code satisfies ``predicate``."""
    return sum(0xFF << (8 * i) for i, code in enumerate(KINDS) if predicate(code))


SUIT_MASKS: Final = tuple(kinds_mask(lambda c, s=s: c[1] == s) for s in "mps")
HONOUR_MASK: Final = kinds_mask(lambda c: c[1] == "z")
HEAD_MASK: Final = kinds_mask(is_head)
TERMINAL_MASK: Final = HEAD_MASK & ~HONOUR_MASK


def pack(tiles: list[str] | tuple[str, ...]) -> int:
    """Packed counts of at most 255 tiles; raises KeyError for a code that is not one of ``KINDS``."""
    return sum(map(UNIT.__getitem__, tiles))


def _run_table(max_digits: int, max_sorted: int) -> dict[str, int]:
    """Packed counts of the runs of digits closed by their suit letter that MPSZ strings write
    (``"5m"``, ``"3512p"``, ``"77z"``): every run of up to ``max_digits`` digits, and the runs in
    rank order (as canonical strings write them, at most four of a rank) of up to ``max_sorted``
    digits.  About 58,000 runs for 4 and 7."""
    table: dict[str, int] = {}
    for suit in "mpsz":
        units = {code[0]: unit for code, unit in UNIT.items() if code[1] == suit}
        runs = {"": 0}
        for _ in range(max_digits):
            runs = {digits + d: packed + unit for digits, packed in runs.items() for d, unit in units.items()}
            table.update((digits + suit, packed) for digits, packed in runs.items())
        for size in range(max_digits + 1, max_sorted + 1):
            for digits in combinations_with_replacement(sorted(units), size):
                if max(map(digits.count, digits)) <= 4:
                    table["".join(digits) + suit] = sum(map(units.__getitem__, digits))
    return table


COMPILED: Final = __file__.endswith((".so", ".pyd"))  # this module built by mypyc (setup.py)

RUN_DIGITS: Final = 4
RUN_SORTED_DIGITS: Final = 7  # (few sorted 13- or 14-tile hands hold more than 7 of a suit)
#: only the interpreted pack_text reads it: the compiled build does without (importing
#: scoring.arrange compiled: 77 ms and 27 MB resident, against 166 ms and 36 MB interpreted)
RUNS: Final = {} if COMPILED else _run_table(RUN_DIGITS, RUN_SORTED_DIGITS)


def pack_text(text: str) -> int | None:
    """Packed counts of a canonical string of suit and honour tiles (``"4m167p54m23p"``, in any
    order), or None for anything else (bonus tiles, face-down tiles, spaces, unknown codes,
    over 254 characters): those are left to :func:`scoring.tiles.parse_tiles`, which names errors.

    Interpreted, the string is cut after each suit letter and each run is looked up in
    :data:`RUNS`; runs the table does not hold (long ones) are looked up four digits at a time.
    Compiled by mypyc (:data:`COMPILED`), a loop over the string's bytes counts each run of
    digits into its suit when the suit letter comes: a C loop, faster there than the look-ups,
    but slower than them interpreted (by about 1.5 us per 14-tile hand).  Both give the same
    results (tests/test_scoring_compiled.py compares the builds)."""
    if len(text) > 254:  # at most 254 tiles: no count byte can overflow
        return None
    if not COMPILED:
        runs = text.replace("m", "m,").replace("p", "p,").replace("s", "s,").replace("z", "z,").split(",")
        if runs.pop():  # something after the last suit letter
            return None
        packed = 0
        try:
            for run in runs:  # (a loop costs less than sum(map(...)) here: no method wrapper per run)
                packed += RUNS[run]
        except KeyError:
            return _pack_long_runs(runs)
        return packed
    data = text.encode("utf-8", "replace")
    counts = [0] * 34
    pending = 0  # digits since the last suit letter
    for i in range(len(data)):
        c = data[i]
        if 49 <= c <= 57:
            pending += 1
            continue
        if c == 109:
            base = 0
        elif c == 112:
            base = 9
        elif c == 115:
            base = 18
        elif c == 122:
            base = 27
        else:
            return None
        if pending == 0:
            return None
        for j in range(i - pending, i):
            d = data[j] - 49
            if base == 27 and d > 6:
                return None
            counts[base + d] += 1
        pending = 0
    if pending:
        return None
    return int.from_bytes(bytes(counts), "little")


def _pack_long_runs(runs: list[str]) -> int | None:
    """:func:`pack_text` of runs some of which :data:`RUNS` does not hold: those are looked up
    with their digits sorted (shuffled hands write runs of five or more digits out of order),
    or else four digits at a time."""
    packed = 0
    for run in runs:
        value = RUNS.get(run)
        if value is None:
            digits, suit = run[:-1], run[-1:]
            if not digits:
                return None
            if len(digits) <= RUN_SORTED_DIGITS:
                value = RUNS.get("".join(sorted(digits)) + suit)
            if value is None:
                try:
                    value = sum([RUNS[digits[i : i + RUN_DIGITS] + suit] for i in range(0, len(digits), RUN_DIGITS)])
                except KeyError:  # not digits 1-9 (1-7 for honours) closed by a suit letter
                    return None
        packed += value
    return packed


def codes_of(counts: bytes | list[int]) -> list[str]:
    """The codes of counted tiles, in code order."""
    return [code for code, n in zip(KINDS, counts) for _ in range(n)]


def to_counts(tiles: list[str] | tuple[str, ...]) -> bytes | list[int]:
    """How many of each kind (index = position in ``KINDS``); raises KeyError for other codes.

    With more than 255 tiles a packed byte could overflow, so such (invalid) hands are counted
    into a list."""
    if len(tiles) <= 255:
        return pack(tiles).to_bytes(len(KINDS), "little")
    counts = [0] * len(KINDS)
    for t in tiles:
        counts[INDEX[t]] += 1
    return counts


def _groups_with(code: str) -> tuple[Group, ...]:
    """The concealed groups of a split that hold ``code``: chows from two and one below, the
    pung, the pair, the chow from ``code`` (the order splits list them: by their lowest tile,
    then pung, pair, chow)."""
    i = INDEX[code]
    chows = [] if code[1] == "z" else [KINDS[j] for j in (i - 2, i - 1, i) if j >= 0 and KINDS[j][1] == code[1]
                                       and int(KINDS[j][0]) <= 7]
    below = [Group.of("chow", c) for c in chows if c != code]
    own = [Group.of("chow", code)] if code in chows else []
    return (*below, Group.of("pung", code), Group.of("pair", code), *own)


class _Segment:
    """One independent part of the hand: its slice of the counts and its groups by local id."""

    __slots__ = ("lo", "hi", "table", "only", "groups", "units", "waits")

    def __init__(self, lo: int, hi: int, table: dict, only: dict):
        self.lo, self.hi, self.table, self.only = lo, hi, table, only  # every split; the only split
        self.waits = waits_table(hi - lo)  # segment one tile short -> bit mask of the kinds completing it
        self.groups = tuple(Group.of(LOCAL_KIND[gid % 3], KINDS[lo + gid // 3]) for gid in range(3 * (hi - lo)))
        self.units = [1 << (8 * i) for i in range(hi - lo)]


SEGMENTS: Final = (_Segment(0, 9, SUIT_SPLITS, SUIT_ONLY_SPLITS), _Segment(9, 18, SUIT_SPLITS, SUIT_ONLY_SPLITS),
            _Segment(18, 27, SUIT_SPLITS, SUIT_ONLY_SPLITS), _Segment(27, 34, HONOUR_SPLITS, HONOUR_ONLY_SPLITS))
# Tile -> the groups of a split holding it, as a set: the groups of a split that hold the winning
# tile are then one set intersection (groups hash by identity, they are interned).
GROUPS_WITH: Final = {code: frozenset(_groups_with(code)) for code in KINDS}
SEGMENT_OF: Final = [k for k, segment in enumerate(SEGMENTS) for _ in range(segment.lo, segment.hi)]  # kind -> segment
_SUITS: Final = SEGMENTS[:3]


SUIT_BITS: Final = (1 << 72) - 1  # a suit's nine count bytes




def segment_keys(counts: bytes | list[int], packed: int | None = None) -> list[int]:
    """Each segment's packed key (:func:`~scoring.shape_tables.segment_key`), 0 when empty.

    From ``packed`` a key is a shift and a mask.  A key's tile count is the key modulo 255 (256
    is 1 modulo 255, so that is the sum of its bytes, all small)."""
    if packed is None:
        packed = segment_key(counts)
    return [packed & SUIT_BITS, packed >> 72 & SUIT_BITS, packed >> 144 & SUIT_BITS, packed >> 216]


def _has_pair(key: int) -> bool:
    """A complete segment holds the pair when its tile count is 2 modulo 3."""
    return key % 255 % 3 == 2


def decompositions(counts: bytes | list[int], sets: int, keys: list[int] | None = None) -> list[tuple[Group, ...]]:
    """All ways to split ``counts`` (at most four of a kind) into exactly ``sets`` chows or
    pungs and one pair.  Groups come out in tile order; equal splits are listed once.
    ``keys`` are ``segment_keys(counts)`` when the caller already has them."""
    if sum(counts) != 3 * sets + 2:
        return []
    return splits_of(keys if keys is not None else segment_keys(counts))


# (Each segment's table of one-way splits and its groups, as module constants.)
_ONLY_M: Final = SEGMENTS[0].only
_ONLY_P: Final = SEGMENTS[1].only
_ONLY_S: Final = SEGMENTS[2].only
_ONLY_Z: Final = SEGMENTS[3].only
_GROUPS_M: Final = SEGMENTS[0].groups
_GROUPS_P: Final = SEGMENTS[1].groups
_GROUPS_S: Final = SEGMENTS[2].groups
_GROUPS_Z: Final = SEGMENTS[3].groups
_TABLES_AND_GROUPS: Final = tuple((segment.table, segment.groups) for segment in SEGMENTS)


def splits_of(keys: list[int]) -> list[tuple[Group, ...]]:
    """:func:`decompositions` of a hand whose tile count is already known to be 3 * sets + 2,
    from its segment keys.

    Most hands split only one way: their groups are collected segment by segment from the
    tables of segments with one split (written out for the four segments: this runs for every
    winning hand).  A segment that is not complete, or splits several ways, leaves the work to
    :func:`_every_split`.  With the tile count right and every segment complete, the segments
    hold one pair or four (3 * sets + 2 = 3 * n + 2 * pairs makes the number of pairs 1 modulo
    3): only four non-empty segments with two tiles over their sets each are refused."""
    characters, dots, bamboo, honours = keys
    found: tuple[Group, ...] = ()
    if characters:
        pick = _ONLY_M.get(characters)
        if pick is None:
            return _every_split(keys)
        found = pick(_GROUPS_M)
    if dots:
        pick = _ONLY_P.get(dots)
        if pick is None:
            return _every_split(keys)
        found += pick(_GROUPS_P)
    if bamboo:
        pick = _ONLY_S.get(bamboo)
        if pick is None:
            return _every_split(keys)
        found += pick(_GROUPS_S)
    if honours:
        pick = _ONLY_Z.get(honours)
        if pick is None:
            return _every_split(keys)
        found += pick(_GROUPS_Z)
    if honours % 255 % 3 == 2 and characters % 255 % 3 == 2 and dots % 255 % 3 == 2 and bamboo % 255 % 3 == 2:
        return []  # a pair in each of the four segments
    return [found]


def _every_split(keys: list[int]) -> list[tuple[Group, ...]]:
    """Every combination of the segments' splits, in the order of a search from the lowest tile."""
    parts: list[list[tuple[Group, ...]]] = []
    pairs = 0
    for (table, groups), key in zip(_TABLES_AND_GROUPS, keys):
        if key:
            splits = table.get(key)
            if splits is None:
                return []
            pairs += _has_pair(key)
            parts.append([pick(groups) for pick in splits])
    if pairs != 1:
        return []
    return [sum(combo, ()) for combo in product(*parts)]


def is_single_wait(counts: bytes | list[int], winning: int, meld_counts: bytes | list[int],
                   keys: list[int] | None = None, melds: bool = True) -> bool:
    """Whether exactly one kind completes the hand without its winning tile (RULES.md 0.3.4, A5).

    ``counts`` are the concealed tiles, a complete standard hand including the winning tile
    (index ``winning``); ``meld_counts`` the declared melds' tiles; kinds held four times before
    the win are not waits; ``keys`` are ``segment_keys(counts)`` if the caller has them.  Only the
    winning tile's segment changes: a wait completes it again, or, when it is complete without
    the tile (holding a second pair), a wait turns the other pair into a set.  ``melds=False``
    says ``meld_counts`` are all zero: then every kind the wait tables name is a wait (they hold
    no segment with a fifth tile of a kind).
    """
    keys = keys or segment_keys(counts)
    k = SEGMENT_OF[winning]
    segment = SEGMENTS[k]
    short = keys[k] - segment.units[winning - segment.lo]
    if melds:
        found = _completions(segment, short, counts, meld_counts, winning)
    else:
        found = segment.waits.get(short, 0).bit_count()
    if found < 2 and short in segment.table:
        for j, other in enumerate(SEGMENTS):
            if j != k and keys[j] and _has_pair(keys[j]):
                if melds:
                    found += _completions(other, keys[j], counts, meld_counts, winning)
                else:
                    found += other.waits.get(keys[j], 0).bit_count()
    return found == 1


def _completions(segment: _Segment, key: int, counts: bytes | list[int], meld_counts: bytes | list[int],
                 winning: int) -> int:
    """How many kinds, held fewer than four times before the win, complete this segment."""
    mask = segment.waits.get(key, 0)
    found = 0
    kind = segment.lo
    while mask:
        if mask & 1 and counts[kind] + meld_counts[kind] - (kind == winning) < 4:
            found += 1
        mask >>= 1
        kind += 1
    return found


def is_thirteen_orphans(counts: bytes | list[int], packed: int | None = None) -> bool:
    """One of each head (1 and 9 of each suit, winds, dragons) and a pair of one of them."""
    if (packed is not None and packed & ~HEAD_MASK) or sum(counts) != 14:
        return False
    head_counts = [counts[i] for i in HEAD_INDICES]
    return sum(head_counts) == 14 and min(head_counts) >= 1 and max(head_counts) == 2


NINE_GATES: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def is_nine_gates(counts: bytes | list[int], packed: int | None = None) -> bool:
    """Calling Nine Tiles: 1112345678999 of one suit plus any tile of that suit."""
    if (packed is not None and packed & HONOUR_MASK) or sum(counts) != 14:
        return False
    for segment in _SUITS:
        suit = counts[segment.lo : segment.hi]
        if sum(suit) == 14:
            return all(n >= k for n, k in zip(suit, NINE_GATES))
    return False


def chow_wait(group: Group, winning_tile: str) -> str:
    """How the winning tile filled a chow: ``closed`` (middle), ``edge`` (3 of 123 or 7 of 789)
    or ``two-sided``."""
    start = int(group.tile[0])
    pos = int(winning_tile[0]) - start
    if pos == 1:
        return "closed"
    if (pos == 2 and start == 1) or (pos == 0 and start == 7):
        return "edge"
    return "two-sided"


_HIDDEN_PUNGS: Final = [Group.of("pung", code) for code in KINDS]
_HIDDEN_PAIRS: Final = [Group.of("pair", code) for code in KINDS]
_AT_LEAST_TWO: Final = bytes(int(n >= 2) for n in range(256))  # a bytes.translate table
_KIND_INDICES: Final = range(len(KINDS))


# Adding 0x7E (0x7D) to a count byte of at most 0x81 sets its top bit exactly when the count is
# two (three) or more.
_TWO_OR_MORE: Final = sum(0x7E << (8 * i) for i in _KIND_INDICES)
_THREE_OR_MORE: Final = sum(0x7D << (8 * i) for i in _KIND_INDICES)
_TOP_BITS: Final = sum(0x80 << (8 * i) for i in _KIND_INDICES)
# The top bit of kind i's byte (0x80 << 8 * i) has bit_length 8 * i + 8: the kind's hidden pung
# and pair by that length.
_PUNG_AT: Final = {8 * i + 8: group for i, group in enumerate(_HIDDEN_PUNGS)}
_PAIR_AT: Final = {8 * i + 8: group for i, group in enumerate(_HIDDEN_PAIRS)}


def hidden_sets_and_pairs(counts: bytes | list[int], packed: int | None = None,
                          size: int | None = None) -> tuple[list[Group], list[Group]]:
    """A non-winner's hidden tiles (RULES.md 0.3.5): every three (or four) identical tiles form a
    concealed pung, every other two identical tiles a pair.  Hidden chows score nothing.

    With ``packed`` counts of ``size`` tiles (at most 0x81, so no byte can carry), the kinds held
    twice or more are the top bits of one integer sum, visited lowest first (the few set bits,
    not all 34 kinds), and another sum tells which of them are held three times or more."""
    if packed is None or size is None or size > 0x81:
        return _hidden_sets_and_pairs(counts)
    sets: list[Group] = []
    pairs: list[Group] = []
    held = (packed + _TWO_OR_MORE) & _TOP_BITS  # the top bit of kind i's byte: held twice or more
    three = packed + _THREE_OR_MORE  # the same bit: held three times or more
    while held:
        low = held & -held
        held ^= low
        if three & low:
            sets.append(_PUNG_AT[low.bit_length()])
        else:
            pairs.append(_PAIR_AT[low.bit_length()])
    return sets, pairs


def _hidden_sets_and_pairs(counts: bytes | list[int]) -> tuple[list[Group], list[Group]]:
    """:func:`hidden_sets_and_pairs` from the counts alone (kinds held twice or more by bytes.translate)."""
    if type(counts) is not bytes:
        counts = bytes(counts)
    sets: list[Group] = []
    pairs: list[Group] = []
    for i in compress(_KIND_INDICES, counts.translate(_AT_LEAST_TWO)):  # kinds held twice or more
        if counts[i] >= 3:
            sets.append(_HIDDEN_PUNGS[i])
        else:
            pairs.append(_HIDDEN_PAIRS[i])
    return sets, pairs

"""The table's own rules put misreadings right: a group laid apart is a set, a set of tiles holds
four copies of a kind and one of each flower and season, flowers lie apart from the sets, a
hand holds 13 tiles besides its bonus tiles (the winner 14), concealed tiles lie face up, a
concealed kong shows its ends face down.  Each rule reads a doubtful tile again from its candidates and says which it changed, so
that vision.hands can warn about it."""

from __future__ import annotations

import itertools
import math
from collections import Counter

from scoring.tiles import BACK, BONUS, format_tiles, parse_tiles

from vision.layout import TableLayout
from vision.sets import LOW_CONFIDENCE, TileRead, meld_of, sets_together

#: a laid-out group that reads as no set is read again from each tile's candidates; the likeliest
#: set they allow is taken when it is at least this likely relative to the first readings
REPAIR_RATIO = 0.05
#: the same when the group's reading leaves its seat's hand short by just what a set or pair
#: there would make up: the count speaks for the set
SHORT_RATIO = 0.0
#: candidates less likely than this are not tried
REPAIR_MIN_P = 0.02
#: a concealed tile read as face down is read as its likeliest face when that is at least this
#: likely relative to the face-down reading (repair_face_down_in_runs)
FACE_UP_RATIO = 0.5
#: a run laid apart of this many tiles or more is no one set: face down, only a pung's middle
#: and a kong's ends lie in it (repair_face_down_in_runs)
RUN_OF_NO_SET = 5


def _fits(meld: dict, others: Counter | None) -> bool:
    """The set's tiles (a concealed kong's face-down ones included) fit beside `others`, the
    copies of each kind elsewhere on the table, within the four a set of tiles holds."""
    return others is None or all(others[k] + n <= 4 for k, n in Counter(parse_tiles(meld["tiles"])).items())


def repair_meld(reads: list[TileRead], ratio: float = REPAIR_RATIO,
                 others: Counter | None = None) -> tuple[dict, list[str]] | None:
    """The likeliest chow, pung or kong that the tiles' candidate readings allow (LAYOUT.md: a
    group laid apart from the concealed run is a set) and that fits beside `others` (_fits), and
    the codes it takes, or None when there is none at least `ratio` as likely as the first
    readings."""
    if len(reads) not in (3, 4):  # no set holds another number (meld_of): 3^n readings tried for nothing
        return None
    options = []
    for r in reads:
        cands = [(c, p) for c, p in (r.candidates or [])[:3] if p >= REPAIR_MIN_P]
        options.append(cands or [(r.code, max(r.confidence, REPAIR_MIN_P))])
    first = math.prod(max(r.confidence, REPAIR_MIN_P) for r in reads)
    best = None
    for combo in itertools.product(*options):
        codes = [c for c, _ in combo]
        meld = meld_of(codes)
        if meld is None or not _fits(meld, others):
            continue
        prob = math.prod(p for _, p in combo)
        if prob >= ratio * first and (best is None or prob > best[0]):
            best = (prob, meld, codes)
    return (best[1], best[2]) if best else None


def _copies_allowed(code: str) -> int:
    return 1 if code in BONUS else 4


def face_up_counts(reads: list[TileRead]) -> Counter:
    return Counter(r.code for r in reads if r.code != BACK)


def hidden_copies(layout: TableLayout, reads: list[TileRead]) -> Counter:
    """Copies of a kind lying face down in the sets laid apart: a concealed kong's two ends (or
    three tiles, when one was not found), a concealed pung's middle tile.  They count against
    the four copies a set holds as much as the faces do."""
    hidden: Counter = Counter()
    for sl in layout.seats:
        for g in sl.groups:
            hidden += _hidden_in(g, reads)
    return hidden


def _hidden_in(group, reads: list[TileRead]) -> Counter:
    """The copies one set laid apart holds face down (hidden_copies)."""
    codes = [reads[t].code for t in group.tiles if reads[t].code not in BONUS]
    meld = None if group.concealed else meld_of(codes)
    if meld is None or meld["exposed"]:
        return Counter()
    kind = next(c for c in codes if c != BACK)
    return Counter({kind: (4 if meld["kind"] == "kong" else 3) - codes.count(kind)})


def repair_counts(reads: list[TileRead], lone: frozenset[int] = frozenset(),
                  hidden: Counter | None = None) -> dict[int, str]:
    """More face-up copies of a kind than a set holds (five 3m, two f1) cannot all be right:
    while there are, the copy whose next candidate (one with room left; a flower's or season's
    candidates run through all eight bonus classes) is likeliest against its reading is read as
    that candidate.  A copy read as a flower or season (one still read
    so after repair_stray_bonus lies apart, where bonus tiles lie) is read only as another bonus
    tile; a suit or honour tile becomes a bonus tile only if it lies `lone` (bonus_rows: where a
    bonus tile would lie), never inside a run or set.
    `hidden`: copies lying face down (hidden_copies), counted too.  `reads` are corrected in
    place; returns {tile index: what it was read as} for the warnings."""
    counts = face_up_counts(reads) + (hidden or Counter())
    changed: dict[int, str] = {}
    while True:
        over = {c for c, k in counts.items() if k > _copies_allowed(c)}
        if not over:
            return changed
        best = None
        for t, r in enumerate(reads):
            if r.code not in over:
                continue
            for alt, p in (r.candidates or [])[:3] + (r.bonus or []):
                if alt in (r.code, BACK) or p < REPAIR_MIN_P or counts[alt] >= _copies_allowed(alt):
                    continue
                if r.code in BONUS and alt not in BONUS or alt in BONUS and r.code not in BONUS and t not in lone:
                    continue
                ratio = p / max(r.confidence, REPAIR_MIN_P)
                if best is None or ratio > best[0]:
                    best = (ratio, t, alt, p)
        if best is None:
            return changed  # no candidate has room: the warning about the count stands
        _, t, alt, p = best
        counts[reads[t].code] -= 1
        counts[alt] += 1
        changed.setdefault(t, reads[t].code)
        reads[t] = TileRead(alt, float(p), reads[t].candidates, reads[t].bonus)


def repair_stray_bonus(layout: TableLayout, reads: list[TileRead]) -> dict[int, str]:
    """Flowers and seasons lie apart from the sets (LAYOUT.md): a tile read as one inside a run
    of other tiles (most of its group read as no bonus tile, or any of the concealed run: a
    winner's pair may be all that is left of it) is read as its likeliest candidate that is not a
    bonus tile, when it has one at least REPAIR_MIN_P likely.  In the concealed run the count
    speaks too: while the seat holds fewer than 13 tiles without it, the likeliest reading that
    is no bonus tile is taken however unlikely (as SHORT_RATIO does for groups laid apart; a
    painted 1-bamboo at the end of a run read as a flower).  Tiles read as bonus tiles only at
    the ends of a group laid apart that reads as sets stay: flowers laid close to a set were
    found touching it.  So do those at the ends of the concealed run while the seat's hand is
    full without them (full_hand): flowers laid close to the run's end.  A reading that would
    make more copies of its kind than a set holds (those face up and face down on the table
    counted) is never taken: a fifth 4z is no repair.  `reads` are corrected in place; returns
    {tile index: what it was read as} for the warnings."""
    changed: dict[int, str] = {}
    on_table = face_up_counts(reads) + hidden_copies(layout, reads)
    winners = [shows_winning_tile(sl, layout) for sl in layout.seats]
    for seat_layout, wins in zip(layout.seats, winners):
        full = full_hand(wins, any(winners))
        counts = group_counts(seat_layout, reads)
        held = sum(counts)
        # four tiles laid apart are a kong, though misread (its face-down ends read as two
        # tiles alike): they count three, so a misread set never makes a hand look full
        sure = held - sum(max(0, c - 3) for g, c in zip(seat_layout.groups, counts)
                          if not g.concealed and len(g.tiles) == 4)
        for g in seat_layout.groups:
            bonus = [t for t in g.tiles if reads[t].code in BONUS]
            if not bonus or 2 * len(bonus) >= len(g.tiles) and not (g.concealed and len(bonus) < len(g.tiles)):
                continue
            if not g.concealed and _beside_sets(g.tiles, reads):
                continue  # flowers laid close to a set's end: they lie apart from it after all
            ends = _bonus_at_ends(g.tiles, reads) if g.concealed else []
            # the copies on the table but those this group's reading makes face down: with its
            # stray tile read as a bonus tile, a concealed kong looks short of a face-down copy
            others = on_table - _hidden_in(g, reads)
            for t in sorted(bonus, key=lambda t: t in ends):  # those amid the run first: they count
                if t in ends and sure >= full:
                    continue
                short = g.concealed and held < 13
                alt = next(((c, p) for c, p in (reads[t].candidates or [])[:3]
                            if c not in BONUS and (p >= REPAIR_MIN_P or short and c != BACK)
                            and others[c] < _copies_allowed(c)), None)
                if alt is not None:
                    on_table[alt[0]] += 1
                    others[alt[0]] += 1
                    changed[t] = reads[t].code
                    reads[t] = TileRead(alt[0], float(alt[1]), reads[t].candidates)
                    held += g.concealed
                    sure += g.concealed
    return changed


def repair_face_down_in_runs(layout: TableLayout, reads: list[TileRead]) -> dict[int, str]:
    """Players lay their concealed tiles face up (LAYOUT.md): a tile of the concealed run (or of
    a run laid apart too long for one set, RUN_OF_NO_SET) read as face down unsurely (under
    LOW_CONFIDENCE, its likeliest face reading at least FACE_UP_RATIO as likely) is read as that
    face, when it has room among the copies on the table.  A blank white dragon under a green
    fluorescent light reads nearly as often as a pale green back (44% against 42%).  Face-down
    tiles the run may rightly hold stay (_face_down_by_rule), and count as hidden copies of
    the set they close: a concealed pung's middle, a concealed kong's ends laid touching the
    run.  So does a white dragon read as a back beside a pair of white dragons: it may be a
    kong's end.  `reads` are corrected in place; returns {tile index: what it was read as}
    for the warnings."""
    changed: dict[int, str] = {}
    on_table = face_up_counts(reads) + hidden_copies(layout, reads)
    runs = [g for sl in layout.seats for g in sl.groups if g.concealed or len(g.tiles) >= RUN_OF_NO_SET]
    for g in runs:
        if _hidden_in(g, reads):
            continue  # a set laid apart (flowers touching it): hidden_copies counted it
        codes = [reads[t].code for t in g.tiles]
        on_table += Counter(kind for i in range(len(codes)) if (kind := _hidden_kind(codes, i)))
    for g in runs:
        codes = [reads[t].code for t in g.tiles]
        for i, t in enumerate(g.tiles):
            r = reads[t]
            if (r.code != BACK or r.confidence >= LOW_CONFIDENCE or _face_down_by_rule(codes, i)
                    or _kong_ends_apart(g.tiles, reads, i)):
                continue
            alt = next(((c, p) for c, p in (r.candidates or [])[:3]
                        if c != BACK and c not in BONUS and p >= REPAIR_MIN_P
                        and p >= FACE_UP_RATIO * r.confidence and on_table[c] < _copies_allowed(c)), None)
            if alt is not None:
                on_table[alt[0]] += 1
                changed[t] = r.code
                reads[t] = TileRead(alt[0], float(alt[1]), r.candidates)
    return changed


def _at(codes: list[str], k: int) -> str | None:
    return codes[k] if 0 <= k < len(codes) else None


def _hidden_kind(codes: list[str], i: int) -> str | None:
    """The kind whose copy the face-down tile at `codes[i]` of a run hides, when it closes a set
    there as meld_of reads three tiles with one face down: the middle of a concealed pung
    (X back X), an end of a concealed kong one of whose tiles was not found (back X X)."""
    if codes[i] != BACK:
        return None
    for start in (i - 1, i, i - 2):
        three = codes[start:start + 3] if start >= 0 else []
        meld = meld_of(three) if len(three) == 3 and three.count(BACK) == 1 else None
        if meld is not None and not meld["exposed"]:
            return next(c for c in three if c != BACK)
    return None


def _face_down_by_rule(codes: list[str], i: int) -> bool:
    """Whether the face-down tile at `codes[i]` of a run may rightly lie so: beside another
    face-down tile, or closing a set (_hidden_kind)."""
    return BACK in (_at(codes, i - 1), _at(codes, i + 1)) or _hidden_kind(codes, i) is not None


def _kong_ends_apart(tiles: list[int], reads: list[TileRead], i: int) -> bool:
    """Whether the face-down tile at `tiles[i]` and another three tiles from it may be a
    concealed kong's two ends with a middle misread: the two tiles between share a kind among
    their likeliest readings."""
    for j, between in ((i + 3, (i + 1, i + 2)), (i - 3, (i - 2, i - 1))):
        if 0 <= j < len(tiles) and reads[tiles[j]].code == BACK:
            kinds = [{c for c, _ in (reads[tiles[k]].candidates or [])[:3]} | {reads[tiles[k]].code}
                     for k in between]
            if (kinds[0] & kinds[1]) - {BACK} - set(BONUS):
                return True
    return False


def shows_winning_tile(seat_layout, layout: TableLayout) -> bool:
    """Whether the seat's concealed run holds a tile laid sideways: the winning tile (LAYOUT.md)."""
    return any(layout.sideways[t] for g in seat_layout.groups if g.concealed for t in g.tiles)


def full_hand(wins: bool, winner_shown: bool) -> int:
    """The most tiles a seat's hand may hold besides bonus tiles and each kong's fourth: 14 for
    the winner, 13 for a seat another seat's sideways winning tile shows not to be the winner,
    14 when no seat shows one (any seat may have won)."""
    return 13 if winner_shown and not wins else 14


def _bonus_at_ends(tiles: list[int], reads: list[TileRead]) -> list[int]:
    """The tiles read as flowers or seasons at either end of a run (left to right), up to the
    first that is not."""
    codes = [reads[t].code in BONUS for t in tiles]
    k = next((i for i, b in enumerate(codes) if not b), len(codes))
    m = next((i for i, b in enumerate(reversed(codes)) if not b), len(codes))
    return tiles[:k] + tiles[len(tiles) - m:] if k < len(tiles) else list(tiles)


def _beside_sets(tiles: list[int], reads: list[TileRead]) -> bool:
    """A laid-apart group that reads as one or more sets with tiles read as flowers or seasons
    only at its ends (bonus tiles laid close to a set, found touching it)."""
    codes = [reads[t].code for t in tiles]
    start = next((k for k, c in enumerate(codes) if c not in BONUS), len(codes))
    end = len(codes) - next((k for k, c in enumerate(reversed(codes)) if c not in BONUS), len(codes))
    middle = codes[start:end]
    return (bool(middle) and not any(c in BONUS for c in middle)
            and (meld_of(middle) is not None or sets_together(middle) is not None))


def bonus_rows(layout: TableLayout, reads: list[TileRead]) -> frozenset[int]:
    """Tiles lying where flowers and seasons lie (LAYOUT.md): a tile by itself apart from the
    concealed run and the sets, or one laid apart among tiles all read as bonus tiles (flowers
    laid touching one another), never a sideways (winning) tile."""
    lone = set()
    for sl in layout.seats:
        for g in sl.groups:
            if g.concealed:
                continue
            for t in g.tiles:
                if not layout.sideways[t] and all(reads[u].code in BONUS for u in g.tiles if u != t):
                    lone.add(t)
    return frozenset(lone)


def repair_lone_tiles(reads: list[TileRead], lone: frozenset[int]) -> dict[int, str]:
    """A tile in `lone` (bonus_rows: by itself apart from the concealed run and the sets, or
    among flowers laid apart) lies where flowers and seasons lie (LAYOUT.md): read as a suit or
    honour tile, it is read as its likeliest candidate that is a bonus tile, when it has one.
    `reads` are corrected in place; returns {tile index: what it was read as} for the warnings."""
    changed: dict[int, str] = {}
    for t in sorted(lone):
        r = reads[t]
        if r.code in BONUS or r.code == BACK:
            continue
        alt = next(((c, p) for c, p in (r.candidates or []) if c in BONUS and p >= REPAIR_MIN_P), None)
        if alt is not None:
            changed[t] = r.code
            reads[t] = TileRead(alt[0], float(alt[1]), r.candidates)
    return changed


def read_as(reads: list[TileRead], tiles: list[int], codes: list[str]) -> dict[int, str]:
    """Read `tiles` as `codes` (each with its candidate's probability) in place; returns {tile
    index: what it was read as} for the tiles that changed."""
    changed: dict[int, str] = {}
    for t, code in zip(tiles, codes):
        if code != reads[t].code:
            changed[t] = reads[t].code
            reads[t] = TileRead(code, float(dict(reads[t].candidates).get(code, 0.0)), reads[t].candidates)
    return changed


def repair_bonus_in_sets(layout: TableLayout, reads: list[TileRead]) -> dict[int, str]:
    """A group of three or four tiles laid apart, some read as flowers or seasons and the rest
    no set by themselves, is a set with misread tiles when the tiles' candidates allow one (a
    painted 1-bamboo read as a flower): it is read as the likeliest such set (as repair_meld).
    `reads` are corrected in place; returns {tile index: what it was read as}."""
    changed: dict[int, str] = {}
    for seat_layout in layout.seats:
        for g in seat_layout.groups:
            if g.concealed or len(g.tiles) not in (3, 4):
                continue
            rest = [reads[t].code for t in g.tiles if reads[t].code not in BONUS]
            if len(rest) == len(g.tiles) or not rest or (len(rest) in (3, 4) and meld_of(rest)):
                continue
            repaired = repair_meld([reads[t] for t in g.tiles])
            if repaired is None:
                continue
            changed.update(read_as(reads, g.tiles, repaired[1]))
    return changed


def _group_count(codes: list[str], concealed: bool) -> int:
    """How many of a hand's 13 (or 14) tiles a group holds as read: a set counts three (a kong's
    fourth tile is extra), anything else each of its tiles; bonus and face-down concealed tiles
    count nothing."""
    tiles = [c for c in codes if c not in BONUS]
    if not concealed and len(tiles) in (3, 4) and meld_of(tiles):
        return 3
    return sum(1 for c in tiles if not (concealed and c == BACK))


def group_counts(seat_layout, reads: list[TileRead]) -> list[int]:
    """_group_count of each of a seat's groups, as read now."""
    return [_group_count([reads[t].code for t in g.tiles], g.concealed) for g in seat_layout.groups]


def _likeliest_pair(reads: list[TileRead], ratio: float = REPAIR_RATIO) -> str | None:
    """The kind (no bonus tile) both tiles' candidates allow that is likeliest for the two, if the
    pair is at least `ratio` as likely as the first readings."""
    first = math.prod(max(r.confidence, REPAIR_MIN_P) for r in reads)
    both = [{c: p for c, p in (r.candidates or [])[:3] if p >= REPAIR_MIN_P and c not in BONUS and c != BACK}
            for r in reads]
    kinds = sorted(set(both[0]) & set(both[1]), key=lambda c: -both[0][c] * both[1][c])
    if kinds and both[0][kinds[0]] * both[1][kinds[0]] >= ratio * first:
        return kinds[0]
    return None


def repair_short_hands(layout: TableLayout, reads: list[TileRead]) -> dict[int, str]:
    """A hand holds 13 tiles (the winner 14) besides its bonus tiles.  A seat that comes short
    of that, with a group of two to four tiles lying apart that is read wholly or partly as
    flowers and seasons and would make up the count as a pair or a set, holds misread tiles
    there (a painted South wind read as a flower): two are read as the likeliest pair their
    candidates allow, three or four as the likeliest set (as repair_meld).  `reads` are
    corrected in place; returns {tile index: what it was read as}."""
    changed: dict[int, str] = {}
    for seat_layout in layout.seats:
        counts = group_counts(seat_layout, reads)
        held = sum(counts)
        if held >= 13:
            continue
        for g, count in zip(seat_layout.groups, counts):
            k = len(g.tiles)
            if g.concealed or k not in (2, 3, 4) or not any(reads[t].code in BONUS for t in g.tiles):
                continue
            if held - count + min(k, 3) not in (13, 14):
                continue
            if k == 2:
                kind = _likeliest_pair([reads[t] for t in g.tiles], SHORT_RATIO)
                codes = [kind, kind] if kind else None
            else:
                repaired = repair_meld([reads[t] for t in g.tiles], SHORT_RATIO)
                codes = repaired[1] if repaired else None
            if codes is None:
                continue
            changed.update(read_as(reads, g.tiles, codes))
            break  # one group makes up the count
    return changed


def one_unsure_odd(reads: list[TileRead], others: Counter | None = None) -> tuple[dict, list[str]] | None:
    """A group of three or four laid apart (a set, LAYOUT.md) whose tiles all read alike but one,
    read with under LOW_CONFIDENCE: no chow has two alike, so the set is the pung or kong of the
    others (a white dragon's blank face read as 6m at 11%, its own kind not among its top three).
    The set and the codes it takes, or None."""
    if len(reads) not in (3, 4) or any(r.code in BONUS or r.code == BACK for r in reads):
        return None
    code, n = Counter(r.code for r in reads).most_common(1)[0]
    if n != len(reads) - 1 or next(r for r in reads if r.code != code).confidence >= LOW_CONFIDENCE:
        return None
    codes = [code] * len(reads)
    meld = meld_of(codes)
    return (meld, codes) if _fits(meld, others) else None


def ends_face_down(codes: list[str], others: Counter | None = None) -> tuple[dict, list[str]] | None:
    """Four tiles laid apart read Z Y Y Z (a set, LAYOUT.md, but none as read): a concealed
    kong of Y whose face-down ends were read alike as a face (a plain back read as a blank white
    dragon).  The kong and the codes it takes, or None."""
    if (len(codes) != 4 or codes[0] != codes[3] or codes[1] != codes[2] or codes[0] == codes[1]
            or any(c in BONUS or c == BACK for c in codes[1:3]) or codes[0] in BONUS):
        return None
    taken = [BACK, codes[1], codes[1], BACK]
    meld = meld_of(taken)
    return (meld, taken) if _fits(meld, others) else None


def kong_ends_missing(codes: list[str], held: int, wins: bool,
                       others: Counter | None = None) -> tuple[dict, list[str]] | None:
    """Two like face-up tiles laid apart, in a hand one tile short of 13 (of 14 for the winner,
    shown by a sideways tile) with them counted singly: a concealed kong whose two face-down
    ends were not found (dark backs on a dark cloth are the tiles most often missed).  The kong
    and the codes (unchanged), or None."""
    if not (len(codes) == 2 and codes[0] == codes[1] and codes[0] not in BONUS and codes[0] != BACK
            and (held + 1 == 13 or wins and held + 1 == 14)):
        return None
    meld = {"kind": "kong", "tiles": format_tiles([codes[0]] * 4), "exposed": False}
    return (meld, list(codes)) if _fits(meld, others) else None

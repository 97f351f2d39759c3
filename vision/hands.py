"""Read each seat's hand off the grouped tiles: concealed tiles, sets (with face-down tiles of
concealed kongs and pungs), bonus tiles and a sideways winning tile, in the vectors.json hand
format, with warnings a person can act on.  The table's rules (vision.repairs) first put right
what they can of the readings, and each tile they changed is named in a warning.  Tiles laid
apart that make no set are counted with the concealed tiles, grouped APART so that a caller
that knows who won can tell them from the run (vision.extras)."""

from __future__ import annotations

from collections import Counter

from scoring.tiles import BACK, BONUS, format_tiles, parse_tiles, tile_name

from vision.layout import POSITIONS, TableLayout
from vision.repairs import (bonus_rows, ends_face_down, face_up_counts, group_counts, hidden_copies,
                            kong_ends_missing, one_unsure_odd, read_as, repair_bonus_in_sets, repair_counts,
                            repair_face_down_in_runs, repair_lone_tiles, repair_meld, repair_short_hands,
                            repair_stray_bonus, shows_winning_tile)
from vision.sets import LOW_CONFIDENCE, TileRead, meld_of, sets_together

SEATS = ("E", "S", "W", "N")
SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
                10: "ten"}
#: a low-confidence warning names the tile's other readings at least this likely
ELSE_MIN_P = 0.05
#: the group label of tiles laid apart from the concealed run and the sets that make no set (a
#: pair laid apart, a stray find): counted with the concealed tiles, but a caller that knows who
#: won can tell them from the run (vision.extras)
APART = "apart"
#: the kind of a warning about a seat's tile count (TileWarning.kind)
COUNT = "count"
#: the kind of the warning about a tile lying apart that was read as a suit or honour tile and
#: taken for a flower or season because it lies where they lie (repair_lone_tiles): a winner's
#: winning tile laid by itself may be one (vision.extras)
BONUS_APART = "bonus-apart"


def seat_of(position: int, camera_seat: str) -> str:
    return SEATS[(SEATS.index(camera_seat) + position) % 4]


def _else(r: TileRead) -> str:
    """The other readings a doubtful tile's warning names (ELSE_MIN_P or likelier, two at most)."""
    others = [(c, p) for c, p in (r.candidates or [])[:3] if c != r.code and p >= ELSE_MIN_P][:2]
    return "; else " + ", ".join(f"{c} {p:.0%}" for c, p in others) if others else ""


class TileWarning(str):
    """A warning's words, and the tiles it is about (indices into the layout's tiles): a page
    can show a person the tiles a warning names (their numbers count along a seat's groups,
    which no view but the photo shows).  `kind` names what the warning is about, so that a later
    step, or a page, can tell the warnings it makes untrue without reading their words: APART
    (tiles laid apart counted with the concealed ones), COUNT (a seat's tile count), BONUS_APART
    (a lone tile taken for a flower or season because it lies where they lie); once the winner is
    known, vision.extras's EXTRA (a tile left out of a hand full without it) and WINNING (a lone
    tile taken as the winning tile), in place of the warnings they make untrue; "" for any other
    (Recognition.to_json sends each warning's kind as "warning_kinds")."""

    tiles: tuple[int, ...]
    kind: str

    def __new__(cls, text: str, tiles=(), kind: str = ""):
        warning = super().__new__(cls, text)
        warning.tiles = tuple(int(t) for t in tiles)
        warning.kind = kind
        return warning


def read_hands(layout: TableLayout, reads: list[TileRead], camera_seat: str = "E"):
    """(per-tile seat and group labels, per-seat hands, warnings).  A tile read as a flower or
    season among other tiles (repair_stray_bonus), a concealed tile read as face down
    (repair_face_down_in_runs) and more copies of a kind than a set holds (repair_counts) are
    read again from the candidates, so is a laid-out set misread in one tile; `reads` are
    corrected in place."""
    n = len(reads)
    seat_label = [""] * n
    group_label = [""] * n
    hands: dict[str, dict] = {}
    warnings: list[str] = []

    def warn(text: str, tiles=(), kind: str = "") -> None:
        warnings.append(TileWarning(text, tiles, kind))
    unbonused = repair_stray_bonus(layout, reads)
    turned_up = repair_face_down_in_runs(layout, reads)
    lone = bonus_rows(layout, reads)
    bonused = repair_lone_tiles(reads, lone)
    in_sets = repair_bonus_in_sets(layout, reads)
    short = repair_short_hands(layout, reads)
    recounted = repair_counts(reads, lone, hidden_copies(layout, reads))
    for seat_layout in layout.seats:
        # one player's tiles alone are the camera seat's, whichever edge they face
        seat = camera_seat if layout.alone else seat_of(seat_layout.position, camera_seat)
        name = SEAT_NAMES[seat]
        concealed, melds, bonus, winning = [], [], [], None
        order = [t for g in seat_layout.groups for t in g.tiles]
        number = {t: k + 1 for k, t in enumerate(order)}
        for t in order:
            seat_label[t] = seat
            r = reads[t]
            if t in in_sets and t not in recounted:
                warn(f"{name}: tile {number[t]} read as {in_sets[t]}, taken as {r.code} (it lies "
                     f"in a group laid apart, and the likeliest set the group's readings allow "
                     f"holds it): check it", [t])
            elif t in short and t not in recounted:
                warn(f"{name}: tile {number[t]} read as {short[t]}, taken as {r.code} (read as "
                     f"flowers and seasons, its group left {name}'s hand short of 13 tiles; the "
                     f"likeliest pair or set its readings allow holds it): check it", [t])
            elif t in bonused and t not in recounted:
                warn(f"{name}: tile {number[t]} read as {bonused[t]}, taken as {r.code} (its "
                     f"likeliest reading as a flower or season: it lies apart from the sets, "
                     f"where bonus tiles lie): check it", [t], BONUS_APART)
            elif t in unbonused and t not in recounted:
                warn(f"{name}: tile {number[t]} read as {unbonused[t]}, taken as {r.code} (its "
                     f"likeliest reading that is no flower or season: it lies among other "
                     f"tiles, and bonus tiles lie apart): check it", [t])
            elif t in turned_up and t not in recounted:
                warn(f"{name}: tile {number[t]} read as face down, taken as {r.code} (its likeliest "
                     f"face: concealed tiles lie face up): check it", [t])
            elif t in recounted:
                was = recounted[t]
                warn(f"{name}: tile {number[t]} read as {was}, taken as {r.code} (its next "
                     f"likeliest reading: more {was} than a set holds were read): check it", [t])
            elif r.confidence < LOW_CONFIDENCE:
                warn(f"low confidence: tile {number[t]} of {name} "
                     f"(read as {r.code}, {r.confidence:.0%}{_else(r)})", [t])
        k = 0
        stray = []
        held_now = sum(group_counts(seat_layout, reads))
        wins = shows_winning_tile(seat_layout, layout)
        for g in seat_layout.groups:
            tiles = [t for t in g.tiles if reads[t].code not in BONUS]
            for t in g.tiles:
                if reads[t].code in BONUS:
                    bonus.append(reads[t].code)
                    group_label[t] = "bonus"
            if not tiles:
                continue
            if g.concealed:
                for t in tiles:
                    group_label[t] = "concealed"
                    if reads[t].code == BACK:
                        warn(f"{name}: tile {number[t]} of the concealed tiles is face down", [t])
                        continue
                    concealed.append(reads[t].code)
                    if layout.sideways[t]:
                        winning = reads[t].code
                continue
            meld = meld_of([reads[t].code for t in tiles])
            parts = sets_together([reads[t].code for t in tiles]) if meld is None else None
            if meld is not None and meld["kind"] == "kong" and len(tiles) == 3:
                shown = " ".join(reads[t].code for t in tiles)
                warn(f"{name}: tiles {', '.join(str(number[t]) for t in tiles)} ({shown}) are "
                     f"a concealed kong with one tile not found (a face-down tile lies at an "
                     f"end): taken as the kong {meld['tiles']}: check it", tiles)
            if parts:
                shown = " ".join(reads[t].code for t in tiles)
                kinds = [p[0]["kind"] for p in parts]
                warn(f"{name}: tiles {', '.join(str(number[t]) for t in tiles)} ({shown}) lie "
                     f"together with no gap, but read as {NUMBER_WORDS[len(parts)]} sets: "
                     f"taken as {', '.join(kinds[:-1])} and {kinds[-1]}", tiles)
                for part, at in parts:
                    k += 1
                    melds.append(part)
                    for t in tiles[at[0]:at[1]]:
                        group_label[t] = f"meld-{k}"
                continue
            if meld is None:
                others = face_up_counts(reads) + hidden_copies(layout, reads)
                others.subtract(Counter(reads[t].code for t in tiles if reads[t].code != BACK))
                group_reads = [reads[t] for t in tiles]
                codes_now = [r.code for r in group_reads]
                # each way of reading the group as a set, most trusted first (its reason, and how
                # the set is named in the warning: None for its kind and codes)
                for why, named, find in (
                        ("the likeliest set their readings allow", None,
                         lambda: repair_meld(group_reads, others=others)),
                        ("all but one read alike, and the odd one is unsure", None,
                         lambda: one_unsure_odd(group_reads, others)),
                        ("its ends read alike and its middle alike: a concealed kong's face-down ends", None,
                         lambda: ends_face_down(codes_now, others)),
                        (f"{name}'s hand is one tile short", "with both face-down ends not found",
                         lambda: kong_ends_missing(codes_now, held_now, wins, others))):
                    repaired = find()
                    if repaired is not None:
                        break
                if repaired is None:
                    stray.append([t for t in tiles])
                    continue
                meld, codes = repaired
                what = (f"{meld['kind']} {' '.join(codes)}" if named is None
                        else f"concealed {meld['kind']} {meld['tiles']} {named}")
                warn(f"{name}: tiles {', '.join(str(number[t]) for t in tiles)} read as "
                     f"{' '.join(codes_now)}, taken as the {what} ({why}): check them", tiles)
                read_as(reads, tiles, codes)
            k += 1
            melds.append(meld)
            for t in tiles:
                group_label[t] = f"meld-{k}"
        for tiles in stray:
            shown = " ".join(reads[t].code for t in tiles)
            t0 = tiles[0]
            if len(tiles) == 1 and layout.sideways[t0] and reads[t0].code != BACK and winning is None:
                winning = reads[t0].code  # the winning tile laid sideways, a gap from the run
            else:
                warn(f"{name}: the tiles {shown} (tiles {', '.join(str(number[t]) for t in tiles)}) "
                     f"are apart from the concealed run but are not a chow, pung or kong; "
                     f"counted with the concealed tiles", tiles, APART)
            for t in tiles:
                group_label[t] = APART
                if reads[t].code != BACK:
                    concealed.append(reads[t].code)
        held = len(concealed) + 3 * len(melds)
        expected = "14" if winning else "13 or 14"
        if held not in (13, 14) or (winning and held != 14):
            warn(f"{name} has {held} tiles (a hand holds 13, the winner 14, "
                 f"not counting each kong's fourth tile or bonus tiles; expected {expected})", order, COUNT)
        hands[seat] = {
            "concealed": format_tiles(concealed, sort=True),
            "melds": melds,
            "bonus_tiles": "".join(sorted(bonus)),
            "winning_tile": winning,
        }
    # more copies of a tile than a set holds
    counts: Counter = Counter()
    for hand in hands.values():
        counts.update(parse_tiles(hand["concealed"]))
        for m in hand["melds"]:
            counts.update(parse_tiles(m["tiles"]))
        counts.update(parse_tiles(hand["bonus_tiles"]) if hand["bonus_tiles"] else [])
    for code, c in sorted(counts.items()):
        limit = 1 if code in BONUS else 4
        if c > limit:
            word = NUMBER_WORDS.get(c, str(c)) if limit == 4 else str(c)
            warn(f"{word} {code} on the table ({tile_name(code)}; a set has {limit})",
                 [t for t, r in enumerate(reads) if r.code == code])
    warnings += missing_seats(set(hands), camera_seat)
    ordered = {s: hands[s] for s in SEATS if s in hands}
    return seat_label, group_label, ordered, warnings


def missing_seats(found: set[str], camera_seat: str = "E") -> list[str]:
    """A warning for each seat with no tiles in a photo that shows two or three seats: a whole
    side the detector did not see (or a player who has left) makes the payments those of the
    seats found only.  A photo of one player's tiles alone is a photo of that player."""
    if not 1 < len(found) < 4:
        return []
    names = {p: SEAT_NAMES[seat_of(p, camera_seat)] for p in range(4) if seat_of(p, camera_seat) not in found}
    return [f"no tiles of {name} found (the {POSITIONS[p]} edge of the photo): if {name} played, "
            f"photograph the whole table; scores and payments are for the seats found"
            for p, name in names.items()]

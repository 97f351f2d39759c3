"""When the winner's hand, as read, is no winning hand, read its least sure tiles again.

A finished table's winner holds a winning hand, so a winner's hand that the rules engine refuses
as "not-a-winning-hand" holds a misread tile (or two).  The winner's concealed tiles are read
again from their classifier candidates, one tile and then two at a time, likeliest readings
first, and the first change that the engine accepts is taken, with a warning naming it.  The
engine is asked only whether the table is valid: nothing here looks at points."""

from __future__ import annotations

from itertools import combinations, product

from scoring.tiles import BACK, BONUS, format_tiles, parse_tiles

from vision.hands import APART, SEAT_NAMES

#: an alternative reading below this probability is never taken
MIN_P = 0.02
#: pairs of changes are tried among this many least sure tiles
PAIR_POOL = 6


def _valid(case: dict) -> str | None:
    """The engine's error code for the case, or None when it scores."""
    from scoring import score_table

    result = score_table(case)
    return result["error"]["code"] if "error" in result else None


def complete_winner(recognition, case: dict) -> str | None:
    """Mend the winner's concealed tiles in `case` (and the recognition's readings) when they
    make no winning hand and one or two candidate readings would; returns the warning, or None
    when nothing was changed.  Needs a Recognition with candidates (not its JSON)."""
    tiles = getattr(recognition, "tiles", None)
    hand = next((h for h in case["hands"] if h["winner"]), None)
    if not tiles or hand is None or _valid(case) != "not-a-winning-hand":
        return None
    seat = hand["seat"]
    # a winning tile laid sideways stays as the case names it, and so does a tile laid apart of the
    # winning tile's kind (vision.extras may have taken it as the winning tile)
    mine = [i for i, t in enumerate(tiles) if t.seat == seat and t.group in ("concealed", APART)
            and not t.face_down and not t.sideways and t.candidates
            and not (t.group == APART and t.code == hand.get("winning_tile"))]
    options = {i: [(c, p) for c, p in tiles[i].candidates[1:] if p >= MIN_P and c != tiles[i].code
                   and c not in BONUS and c != BACK] for i in mine}
    trials = []  # (likelihood ratio against the readings, {tile: (code, p)})
    for i in mine:
        for c, p in options[i]:
            trials.append((p / max(tiles[i].confidence, MIN_P), {i: (c, p)}))
    pool = sorted(mine, key=lambda i: tiles[i].confidence)[:PAIR_POOL]
    for i, j in combinations(pool, 2):
        for (ci, pi), (cj, pj) in product(options[i], options[j]):
            ratio = pi / max(tiles[i].confidence, MIN_P) * pj / max(tiles[j].confidence, MIN_P)
            trials.append((ratio, {i: (ci, pi), j: (cj, pj)}))
    concealed = parse_tiles(hand["concealed"])
    for _, change in sorted(trials, key=lambda t: -t[0]):
        codes = list(concealed)
        for i, (c, _) in change.items():
            codes.remove(tiles[i].code)
            codes.append(c)
        trial = {**case, "hands": [dict(h, concealed=format_tiles(codes, sort=True)) if h is hand else h
                                   for h in case["hands"]]}
        if _valid(trial) is None:
            said = []
            for i, (c, p) in change.items():
                said.append(f"a {tiles[i].code} ({tiles[i].confidence:.0%}) taken as {c} ({p:.0%})")
                tiles[i].code, tiles[i].confidence = c, p
            hand["concealed"] = format_tiles(codes, sort=True)
            if seat in getattr(recognition, "seats", {}):
                recognition.seats[seat]["concealed"] = hand["concealed"]
            warning = (f"{SEAT_NAMES[seat]}'s tiles as read make no winning hand: "
                       f"{' and '.join(said)} makes one (its next likeliest reading): check it")
            recognition.warnings.append(warning)
            return warning
    return None

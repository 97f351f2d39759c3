"""Properties of the rules engine over generated tables (hypothesis).

Generated winning hands are complete by construction: four sets and a pair drawn from a wall
with four copies of each kind, some sets declared, the winning tile taken from a hidden group.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from scoring import score_table
from scoring.tiles import KINDS, WIND_LETTERS

RULESETS = {
    "pung-chow": {},
    "pung-chow-limit": {"mj_bonus": 10, "limit": 300},
    "classical": {"limit": 1000, "east_double": True},
}
SUIT_KINDS = [k for k in KINDS if k[1] != "z"]


@st.composite
def groups(draw, used: Counter):
    """Four sets and a pair that fit in one set of tiles."""
    out = []
    while len(out) < 5:
        kind = "pair" if len(out) == 4 else draw(st.sampled_from(["chow", "pung", "pung", "kong"]))
        if kind == "chow":
            start = draw(st.sampled_from([k for k in SUIT_KINDS if int(k[0]) <= 7]))
            tiles = [f"{int(start[0]) + i}{start[1]}" for i in range(3)]
        else:
            tile = draw(st.sampled_from(KINDS))
            tiles = [tile] * {"pair": 2, "pung": 3, "kong": 4}[kind]
        need = Counter(tiles)
        if any(used[t] + n > 4 for t, n in need.items()):
            continue
        used.update(need)
        out.append((kind, tiles))
    return out


@st.composite
def winning_case(draw):
    used: Counter = Counter()
    parts = draw(groups(used))
    ruleset = draw(st.sampled_from(sorted(RULESETS)))
    concealed, melds = [], []
    for kind, tiles in parts:
        declared = kind == "kong" or (kind != "pair" and draw(st.booleans()))
        if declared:
            exposed = draw(st.booleans()) if kind == "kong" else True
            melds.append({"kind": kind, "tiles": "".join(t[0] for t in tiles) + tiles[0][1], "exposed": exposed})
        else:
            concealed += tiles
    winning = draw(st.sampled_from(concealed))
    has_kong = any(m["kind"] == "kong" for m in melds)
    win_by = draw(st.sampled_from(["self-draw", "discard", "robbing-kong"] + (["loose-tile"] if has_kong else [])))
    seat = draw(st.sampled_from(WIND_LETTERS))
    case = {
        "ruleset": ruleset,
        "seat_wind": seat,
        "round_wind": None if ruleset == "pung-chow" else draw(st.sampled_from(WIND_LETTERS)),
        "params": RULESETS[ruleset],
        "hands": [{
            "seat": seat, "winner": True, "concealed": concealed, "melds": melds,
            "winning_tile": winning, "win_by": win_by, "flags": [],
        }],
    }
    if draw(st.booleans()):
        for other in [s for s in WIND_LETTERS if s != seat]:
            pool = [k for k in KINDS for _ in range(4 - used[k])]
            hidden = draw(st.lists(st.sampled_from(pool), min_size=13, max_size=13))
            counts = Counter(hidden)
            if any(used[k] + n > 4 for k, n in counts.items()):
                continue
            used.update(counts)
            case["hands"].append({"seat": other, "winner": False, "concealed": hidden, "melds": [],
                                  "winning_tile": None, "win_by": None, "flags": []})
    return case


def _swap_suits(codes, mapping):
    return [f"{c[0]}{mapping.get(c[1], c[1])}" for c in codes]


SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large, HealthCheck.filter_too_much])


@SLOW
@given(winning_case())
def test_generated_winning_hands_score_and_balance(case):
    result = score_table(case)
    assert "error" not in result, result
    assert sum(result["payments"].values()) == 0
    assert set(result["payments"]) == set(WIND_LETTERS)


@SLOW
@given(winning_case(), st.randoms(use_true_random=False))
def test_tile_order_never_changes_a_result(case, rnd):
    reordered = json.loads(json.dumps(case))
    for hand in reordered["hands"]:
        rnd.shuffle(hand["concealed"])
    rnd.shuffle(reordered["hands"])
    assert score_table(reordered) == score_table(case)


@SLOW
@given(winning_case(), st.permutations(["m", "p", "s"]))
def test_swapping_suits_never_changes_points(case, order):
    mapping = dict(zip(["m", "p", "s"], order))
    swapped = json.loads(json.dumps(case))
    for hand in swapped["hands"]:
        hand["concealed"] = _swap_suits(hand["concealed"], mapping)
        hand["winning_tile"] = hand["winning_tile"] and _swap_suits([hand["winning_tile"]], mapping)[0]
        for meld in hand["melds"]:
            meld["tiles"] = meld["tiles"][:-1] + mapping.get(meld["tiles"][-1], meld["tiles"][-1])
    a, b = score_table(case), score_table(swapped)
    for key in ("score", "scores", "payments", "limit_hand"):
        assert a.get(key) == b.get(key), key


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"ruleset": st.sampled_from(["pung-chow", "classical", "x"]), "hands": JSONISH}))
def test_arbitrary_input_gives_an_error_object_never_an_exception(case):
    result = score_table(case)
    assert "error" in result or "payments" in result
    if "error" in result:
        assert result["error"]["code"] and result["error"]["message"]

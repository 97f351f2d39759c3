"""Rules-engine throughput: hands per second, next to the PyPI ``mahjong`` HandCalculator.

Usage:  python benchmarks/scoring.py [--hands 3000] [--out benchmarks/results]

Both engines get the same fully concealed, self-drawn 14-tile winning hands (so every riichi hand
has at least menzen tsumo and is scored in full).  We time:
  * single-hand cases (winner only, ``payments_scope: winner-only``),
  * full-table cases (the winner plus three random losing hands, settled among all four),
  * ``mahjong`` HandCalculator.estimate_hand_value on the winners' 14 tiles,
  * the ``mjscore score`` CLI on 1,500 cases in one call (process start included).
Results go to scoring.json and scoring.md in the output folder.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring import score_table  # noqa: E402
from scoring.tiles import KINDS, WIND_LETTERS, format_tiles, parse_tiles  # noqa: E402

RULESETS = {
    "pung-chow": {},
    "pung-chow-limit": {"mj_bonus": 10, "limit": 300},
    "classical": {"limit": 1000, "east_double": True},
}


def random_winning_tiles(rng: random.Random) -> list[str]:
    """Four concealed sets and a pair, at most four copies of a kind."""
    while True:
        used: Counter = Counter()
        tiles: list[str] = []
        for i in range(5):
            if i == 4:
                kind = rng.choice(KINDS)
                group = [kind, kind]
            elif rng.random() < 0.6:
                suit = rng.choice("mps")
                start = rng.randint(1, 7)
                group = [f"{start + k}{suit}" for k in range(3)]
            else:
                kind = rng.choice(KINDS)
                group = [kind] * 3
            used.update(group)
            tiles += group
        if max(used.values()) <= 4:
            return tiles


def make_cases(n: int, seed: int = 7) -> tuple[list[dict], list[dict]]:
    rng = random.Random(seed)
    singles, tables = [], []
    for i in range(n):
        tiles = random_winning_tiles(rng)
        rng.shuffle(tiles)
        seat = rng.choice(WIND_LETTERS)
        ruleset = rng.choice(sorted(RULESETS))
        winner = {"seat": seat, "winner": True, "concealed": format_tiles(tiles), "melds": [],
                  "winning_tile": tiles[-1], "win_by": "self-draw", "flags": []}
        case = {"id": f"bench-{i}", "ruleset": ruleset, "seat_wind": seat,
                "round_wind": None if ruleset == "pung-chow" else rng.choice(WIND_LETTERS),
                "params": RULESETS[ruleset], "hands": [winner]}
        singles.append(case)
        wall = Counter({k: 4 for k in KINDS})
        wall.subtract(tiles)
        pool = [k for k, n_left in wall.items() for _ in range(n_left)]
        rng.shuffle(pool)
        table = json.loads(json.dumps(case))
        for k, other in enumerate(s for s in WIND_LETTERS if s != seat):
            hidden = pool[13 * k: 13 * (k + 1)]
            table["hands"].append({"seat": other, "winner": False, "concealed": format_tiles(hidden, sort=True),
                                   "melds": [], "winning_tile": None, "win_by": None, "flags": []})
        tables.append(table)
    return singles, tables


def rate(fn, items, repeats: int = 3) -> float:
    """Best-of-``repeats`` items per second."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def riichi_inputs(singles: list[dict]):
    from mahjong.hand_calculating.hand_config import HandConfig

    config = HandConfig(is_tsumo=True)
    inputs = []
    for case in singles:
        hand = case["hands"][0]
        codes = parse_tiles(hand["concealed"])
        seen: Counter = Counter()
        tiles136 = []
        for code in codes:
            index = KINDS.index(code)  # mahjong's 34 order is ours: m, p, s, then E S W N haku hatsu chun
            tiles136.append(index * 4 + seen[code])
            seen[code] += 1
        win = next(t for t in tiles136 if t // 4 == KINDS.index(hand["winning_tile"]))
        inputs.append((tiles136, win, config))
    return inputs


def cli_seconds(cases: list[dict]) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(cases, fh)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "api.cli", "score", fh.name], cwd=REPO, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per measurement (default 3000)")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args(argv)

    singles, tables = make_cases(args.hands)
    for case in singles[:50] + tables[:50]:
        assert "error" not in score_table(case), score_table(case)
    results = {
        "hands": args.hands,
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
        "mjscore_single_hand_per_s": round(rate(score_table, singles)),
        "mjscore_full_table_cases_per_s": round(rate(score_table, tables)),
    }
    results["mjscore_full_table_hands_per_s"] = results["mjscore_full_table_cases_per_s"] * 4
    try:
        from mahjong.hand_calculating.hand import HandCalculator

        calc = HandCalculator()
        inputs = riichi_inputs(singles)
        bad = [r for r in (calc.estimate_hand_value(t, w, config=c) for t, w, c in inputs[:50]) if r.error]
        assert not bad, bad[0].error
        results["mahjong_hand_calculator_per_s"] = round(
            rate(lambda x: calc.estimate_hand_value(x[0], x[1], config=x[2]), inputs)
        )
        from importlib.metadata import version

        results["mahjong_version"] = version("mahjong")
        results["speedup_single_hand"] = round(
            results["mjscore_single_hand_per_s"] / results["mahjong_hand_calculator_per_s"], 1
        )
    except ImportError:
        results["mahjong_hand_calculator_per_s"] = None
        results["note"] = "PyPI 'mahjong' is not installed (pip install -e '.[test]'); no comparison made"
    results["cli_1500_cases_seconds"] = round(cli_seconds((tables * 2)[:1500]), 2)

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "scoring.json").write_text(json.dumps(results, indent=1) + "\n")
    lines = [
        "# Rules-engine throughput",
        "",
        f"Measured by `python benchmarks/scoring.py --hands {args.hands}` on {results['machine']}.",
        "",
        "| what | hands/s |",
        "|---|---:|",
        f"| mjscore, single-hand cases | {results['mjscore_single_hand_per_s']:,} |",
        f"| mjscore, full-table cases (4 hands each, settled) | {results['mjscore_full_table_hands_per_s']:,} "
        f"({results['mjscore_full_table_cases_per_s']:,} tables/s) |",
    ]
    if results.get("mahjong_hand_calculator_per_s"):
        lines.append(f"| PyPI mahjong {results['mahjong_version']} HandCalculator, same 14 tiles "
                     f"| {results['mahjong_hand_calculator_per_s']:,} |")
        lines.append("")
        lines.append(f"mjscore scores single hands {results['speedup_single_hand']}x as fast.")
    lines.append(f"`mjscore score` on 1,500 full-table cases in one call: {results['cli_1500_cases_seconds']} s.")
    (args.out / "scoring.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

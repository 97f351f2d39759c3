"""Rules-engine throughput: hands per second, next to the PyPI ``mahjong`` HandCalculator.

Usage:  python benchmarks/scoring.py [--hands 3000] [--rounds 7] [--no-compiled] [--out benchmarks/results]

Both engines get the same distinct, random, fully concealed, self-drawn 14-tile winning hands (so
every riichi hand has at least menzen tsumo and is scored in full).  We time:
  * single-hand cases (winner only, ``payments_scope: winner-only``): ``score_table(case)`` from
    the case dict (tiles as an MPSZ string in random order) to the JSON-ready result,
  * full-table cases (the winner plus three random losing hands, settled among all four),
  * ``mahjong`` HandCalculator.estimate_hand_value on the winners' 14 tiles (given ready-made as
    136-tile indices: its input conversion is not timed),
  * the ``mjscore score`` CLI on 1,500 cases in one call (process start included; pure Python).
The three in-process measurements take turns, round after round, and each keeps its fastest
round, timed in CPU seconds of this process (``time.process_time``): other work on a busy
machine then slows all three alike and the ratios stay meaningful.  Nothing is cached between
cases; the rules engine's tables (decompositions, waits, MPSZ runs: built once per process, at
import, from the rules and the tile set, not from the hands) are built before timing, and their
build time (pure Python) is reported.

This is done twice: in this process with the pure-Python ``scoring`` (what ``pip install -e .``
gives; the script stops if it finds compiled modules here), then, unless ``--no-compiled``, with
the mypyc-compiled build (setup.py's ``MJSCORE_COMPILE=1``; needs mypy, i.e. the ``test`` extra,
and a C compiler): benchmarks/compiled.py builds it into a temporary folder (the build time is
reported) and a subprocess that imports it from there, after checking that each compiled module
is a ``.so``, runs the same measurement, HandCalculator interleaved the same way.  The compiled
and pure JSON results must be identical on every benchmark case, or the script fails.
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


def best_rates(runs: dict, rounds: int) -> dict[str, float]:
    """Items per CPU second for each ``name: (fn, items)``, the best of ``rounds`` interleaved rounds."""
    best = {name: float("inf") for name in runs}
    for _ in range(rounds):
        for name, (fn, items) in runs.items():
            start = time.process_time()
            for item in items:
                fn(item)
            best[name] = min(best[name], time.process_time() - start)
    return {name: len(runs[name][1]) / seconds for name, seconds in best.items()}


def table_build_ms() -> float:
    """CPU milliseconds to build the rules engine's tables (done once per process, at import):
    segment splits, one-way splits, waits, and the MPSZ run table."""
    from scoring import arrange, shape_tables

    start = time.process_time()
    splits = shape_tables._build(9, chows=True), shape_tables._build(7, chows=False)
    shape_tables.only_splits(splits[0]), shape_tables.only_splits(splits[1])
    shape_tables._build_waits(splits[0], 9), shape_tables._build_waits(splits[1], 7)
    arrange._run_table(arrange.RUN_DIGITS, arrange.RUN_SORTED_DIGITS)
    return (time.process_time() - start) * 1000


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


def measure(hands: int, rounds: int) -> dict:
    """This process's ``scoring`` (pure or compiled) and HandCalculator, interleaved round after
    round on the same cases; also every case's JSON result, for the pure/compiled comparison."""
    import scoring.case

    singles, tables = make_cases(hands)
    for case in singles[:50] + tables[:50]:  # checks the cases
        assert "error" not in score_table(case), score_table(case)
    runs = {"single": (score_table, singles), "table": (score_table, tables)}
    out: dict = {"scoring_from": scoring.case.__file__}
    try:
        from importlib.metadata import version

        from mahjong.hand_calculating.hand import HandCalculator

        calc = HandCalculator()
        inputs = riichi_inputs(singles)
        bad = [r for r in (calc.estimate_hand_value(t, w, config=c) for t, w, c in inputs[:50]) if r.error]
        assert not bad, bad[0].error
        runs["mahjong"] = (lambda x: calc.estimate_hand_value(x[0], x[1], config=x[2]), inputs)
        out["mahjong_version"] = version("mahjong")
    except ImportError:
        out["note"] = "PyPI 'mahjong' is not installed (pip install -e '.[test]'); no comparison made"
    rates = best_rates(runs, rounds)
    out["single_hand_per_s"] = round(rates["single"])
    out["full_table_cases_per_s"] = round(rates["table"])
    out["full_table_hands_per_s"] = round(rates["table"] * 4)
    out["mahjong_hand_calculator_per_s"] = round(rates["mahjong"]) if "mahjong" in rates else None
    if "mahjong" in rates:
        out["speedup_single_hand"] = round(rates["single"] / rates["mahjong"], 2)
        out["speedup_full_table_per_hand"] = round(4 * rates["table"] / rates["mahjong"], 2)
    out["results"] = [score_table(case) for case in singles + tables]
    return out


def measure_compiled(hands: int, rounds: int) -> dict:
    """Build the mypyc-compiled scoring into a temporary folder and ``measure`` it in a subprocess
    that imports it from there (and stops with an error unless its modules are compiled)."""
    import compiled

    with tempfile.TemporaryDirectory(prefix="mjscore-compiled-") as tmp:
        site, build_seconds = compiled.build(Path(tmp))
        out_path = Path(tmp) / "measured.json"
        code = compiled.check_prelude(site) + (  # then this file's measure(), by the compiled scoring
            "import json, importlib.util\n"
            f"spec = importlib.util.spec_from_file_location('bench_scoring', {__file__!r})\n"
            "bench = importlib.util.module_from_spec(spec); spec.loader.exec_module(bench)\n"
            f"open({str(out_path)!r}, 'w').write(json.dumps(bench.measure({hands}, {rounds})))\n")
        proc = subprocess.run([sys.executable, "-c", code], cwd=tmp)
        if proc.returncode != 0:
            raise compiled.CompiledBuildError("the compiled measurement failed (see above)")
        out = json.loads(out_path.read_text())
    if not out["scoring_from"].endswith(".so"):
        raise compiled.CompiledBuildError(f"the compiled measurement ran {out['scoring_from']}")
    out["scoring_from"] = "compiled (.so) modules, checked"  # its temporary folder is gone
    out["build_seconds"] = round(build_seconds, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per measurement (default 3000)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved timing rounds (default 7)")
    parser.add_argument("--no-compiled", dest="compiled", action="store_false",
                        help="skip the mypyc-compiled build (measured by default)")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args(argv)

    singles, tables = make_cases(args.hands)
    distinct = len({"".join(sorted(parse_tiles(c["hands"][0]["concealed"]))) for c in singles})
    pure = measure(args.hands, args.rounds)
    if not pure["scoring_from"].endswith(".py"):
        raise SystemExit(f"the pure measurement imported {pure['scoring_from']}: remove the stray compiled "
                         "modules (scoring/**/*.so) or reinstall with pip install -e .")
    results = {
        "hands": args.hands,
        "distinct_hands": distinct,
        "rounds": args.rounds,
        "timer": "CPU time of the process (time.process_time), best of the interleaved rounds",
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
        "table_build_ms": round(table_build_ms()),
    }
    pure_results = pure.pop("results")
    pure.pop("scoring_from")
    for key in ("mahjong_version", "note"):
        if key in pure:
            results[key] = pure.pop(key)
    results.update({f"mjscore_{k}" if not k.startswith(("mahjong", "speedup")) else k: v for k, v in pure.items()})
    if args.compiled:
        import compiled

        comp = measure_compiled(args.hands, args.rounds)
        diff = compiled.differences(pure_results, comp.pop("results"), singles + tables)
        if diff:
            raise SystemExit(f"compiled and pure results differ on {len(diff)} cases, e.g.\n" + "\n".join(diff[:5]))
        comp.pop("mahjong_version", None)
        comp["identical_results_cases"] = len(pure_results)
        results["compiled"] = comp
    results["cli_1500_cases_seconds"] = round(cli_seconds((tables * 2)[:1500]), 2)

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "scoring.json").write_text(json.dumps(results, indent=1) + "\n")
    rounds_note = (" (the compiled build measured in its own process, after the pure one, each interleaved "
                   "with HandCalculator)" if args.compiled else "")
    lines = [
        "# Rules-engine throughput",
        "",
        f"Measured by `python benchmarks/scoring.py --hands {args.hands} --rounds {args.rounds}` on "
        f"{results['machine']}: {distinct:,} distinct random winning hands, each engine's best of "
        f"{args.rounds} interleaved rounds in CPU time{rounds_note}.",
        "",
        "| what | hands/s | vs HandCalculator |",
        "|---|---:|---:|",
    ]
    builds = [("pure Python, what `pip install -e .` gives", results["mjscore_single_hand_per_s"],
               results["mjscore_full_table_hands_per_s"], results["mjscore_full_table_cases_per_s"],
               results.get("speedup_single_hand", "-"), results.get("speedup_full_table_per_hand", "-"),
               results.get("mahjong_hand_calculator_per_s"))]
    if args.compiled:
        c = results["compiled"]
        builds.append(("mypyc-compiled: `MJSCORE_COMPILE=1 pip install --no-build-isolation .`",
                       c["single_hand_per_s"], c["full_table_hands_per_s"], c["full_table_cases_per_s"],
                       c.get("speedup_single_hand", "-"), c.get("speedup_full_table_per_hand", "-"),
                       c.get("mahjong_hand_calculator_per_s")))
    for name, single, table_hands, table_cases, x_single, x_table, _ in builds:
        lines.append(f"| mjscore ({name}), single-hand cases | {single:,} | {x_single}x |")
        lines.append(f"| mjscore ({name}), full-table cases (4 hands each, settled) | {table_hands:,} "
                     f"({table_cases:,} tables/s) | {x_table}x |")
    for name, *_, calc_rate in builds:
        if calc_rate:
            alongside = f", alongside the {name.split(',')[0].split(':')[0]} build" if args.compiled else ""
            lines.append(f"| PyPI mahjong {results['mahjong_version']} HandCalculator, same 14 tiles{alongside} "
                         f"| {calc_rate:,} | 1x |")
    lines.append("")
    lines.append(f"The rules engine builds its tables (segment splits, waits, MPSZ runs) once per process, at import "
                 f"({results['table_build_ms']} ms, pure Python); they are built before timing.")
    if args.compiled:
        lines.append(f"The compiled build (mypyc, into a temporary folder) took {results['compiled']['build_seconds']} s "
                     f"(wall clock); its JSON results are identical to the pure engine's on all "
                     f"{results['compiled']['identical_results_cases']:,} benchmark cases.")
    lines.append(f"`mjscore score` on 1,500 full-table cases in one call (pure Python): "
                 f"{results['cli_1500_cases_seconds']} s.")
    (args.out / "scoring.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

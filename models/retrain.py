"""Retrain the tile classifier from nothing: art packages, data, training, export, benchmark.

    python -m models.retrain ../shared/datasets/hust-riichi

1. `datasets.fetch_art`: apt-get install the tile-art and CJK font packages if missing (root),
2. `datasets.build_tile_dataset`: render + augment the synthetic sets, crop the hust-riichi
   train/validation photos (the committed split; test photos are never read),
3. `models.train`: train on two CPU threads, `--members` times with seeds 0, 1, .. (into the
   gitignored datasets/cache/members), the main network and then the flower/season reader
   (`--task bonus`); `models.ensemble` joins each kind's members into one file that answers
   with their mean probability: models/tile_classifier.onnx and models/bonus_classifier.onnx
   with their .json sidecars (`--members 1` trains one of each straight into place),
4. `benchmarks/classifier.py`: measure every test set, write benchmarks/results/classifier.*
   and the confusion-matrix pictures (with `--out` elsewhere: classifier.* and the pictures
   beside the new files).
`--out FILE.onnx` or `--out FOLDER` trains elsewhere and leaves the committed files alone.
Timed for the committed models (2026-11-27, `--out` in a scratch folder, two members, the slower
2-core machine of the twelfth to fourteenth sessions): 55.7 minutes end to end (data 10.4, main
networks 9.5 and 8.8, bonus readers 13.6 and 13.2, joining and benchmark 0.7); the committed
files are that run's.  The same machine ran a later recipe's four networks in 47.4 minutes on
another hour: its speed moves by half within hours.  Earlier timings: models/README.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _train(py: str, cache: Path, task: str, epochs: int, seed: int, out: Path) -> list[str]:
    return [py, "-m", "models.train", "--task", task, "--data", str(cache), "--epochs", str(epochs),
            "--seed", str(seed), "--out", str(out)]


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hust", type=Path, help="the hust-riichi folder")
    ap.add_argument("--scale", type=float, default=0.7, help="synthetic data size (1.0 = 100k crops)")
    ap.add_argument("--epochs", type=int, default=10, help="epochs of the main network")
    ap.add_argument("--bonus-epochs", type=int, default=40, help="epochs of the flower/season reader")
    ap.add_argument("--dark-faces", type=float, default=None,
                    help="fraction of procedural tile sets in the main model's data drawn with dark faces "
                         "(datasets.build_tile_dataset's default when not given)")
    ap.add_argument("--dark-extra", type=float, default=None,
                    help="extra crops of procedural dark-faced sets added to the main model's data, as a share of "
                         "its synthetic crops (datasets.build_tile_dataset's default when not given)")
    ap.add_argument("--bonus-dark-extra", type=float, default=None,
                    help="extra flower and season crops of procedural dark-faced sets added to the bonus reader's "
                         "data, as a share of its crops (datasets.build_tile_dataset's default when not given)")
    ap.add_argument("--members", type=int, default=2,
                    help="networks trained with seeds 0.. and joined into one averaging model (models.ensemble)")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "tile_classifier.onnx",
                    help="the main model's .onnx file, or a folder to write tile_classifier.onnx in; "
                         "the bonus reader is written beside it")
    return ap


def main(argv=None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    if not args.hust.is_dir():
        ap.error(f"{args.hust}: no such folder (the hust-riichi dataset folder)")
    try:
        steps = plan(args)
    except ValueError as exc:  # found now, not after the hour of training before the join
        ap.error(str(exc))
    t0 = time.time()
    for cmd in steps:
        print(f"[{time.time() - t0:6.0f}s] {' '.join(cmd[1:])}", flush=True)
        if subprocess.run(cmd, cwd=ROOT).returncode != 0:
            print(f"step failed: {' '.join(cmd)}", file=sys.stderr)
            return 1
    print(f"done in {(time.time() - t0) / 60:.1f} minutes")
    return 0


def model_file(out: Path) -> Path:
    """The main model's file for `--out`: the path itself when it names an .onnx file,
    tile_classifier.onnx inside it when it is a folder."""
    if out.is_dir():
        return out / "tile_classifier.onnx"
    if out.suffix != ".onnx":
        raise ValueError(f"--out {out}: name an .onnx file or an existing folder")
    return out


def plan(args: argparse.Namespace) -> list[list[str]]:
    """The commands a retrain runs, in order."""
    cache = ROOT / "datasets" / "cache" / "tiles"
    py = sys.executable
    members = ROOT / "datasets" / "cache" / "members"
    out = model_file(args.out)
    bonus_out = out.with_name("bonus_classifier.onnx")
    steps = [
        [py, "-m", "datasets.fetch_art"],
        [py, "-m", "datasets.build_tile_dataset", "--out", str(cache), "--scale", str(args.scale),
         "--hust", str(args.hust)]
        + (["--dark-faces", str(args.dark_faces)] if args.dark_faces is not None else [])
        + (["--dark-extra", str(args.dark_extra)] if args.dark_extra is not None else [])
        + (["--bonus-dark-extra", str(args.bonus_dark_extra)] if args.bonus_dark_extra is not None else []),
    ]
    if args.members == 1:
        steps += [_train(py, cache, "tiles", args.epochs, 0, out),
                  _train(py, cache, "bonus", args.bonus_epochs, 0, bonus_out)]
    else:
        seeds = range(args.members)
        steps += [_train(py, cache, "tiles", args.epochs, s, members / f"tile_classifier.seed{s}.onnx") for s in seeds]
        steps += [_train(py, cache, "bonus", args.bonus_epochs, s, members / f"bonus_classifier.seed{s}.onnx")
                  for s in seeds]
        steps += [[py, "-m", "models.ensemble", str(out), *(str(members / f"tile_classifier.seed{s}.onnx") for s in seeds)],
                  [py, "-m", "models.ensemble", str(bonus_out),
                   *(str(members / f"bonus_classifier.seed{s}.onnx") for s in seeds)]]
    bench = [py, str(ROOT / "benchmarks" / "classifier.py"), str(args.hust), "--model", str(out), "--cache", str(cache)]
    if out.resolve() != (ROOT / "models" / "tile_classifier.onnx").resolve():
        # models trained elsewhere are measured there: the committed models' results and
        # pictures stay theirs
        bench += ["--out", str(out.parent / "classifier"), "--pictures", str(out.parent)]
    steps.append(bench)
    return steps


if __name__ == "__main__":
    raise SystemExit(main())

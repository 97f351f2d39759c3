"""Retrain the tile classifier from nothing: art packages, data, training, export, benchmark.

    python -m models.retrain ../shared/datasets/hust-riichi

1. `datasets.fetch_art`: apt-get install the tile-art and CJK font packages if missing (root),
2. `datasets.build_tile_dataset`: render + augment the synthetic sets, crop the hust-riichi
   train/validation photos (the committed split; test photos are never read),
3. `models.train`: train on two CPU threads and export models/tile_classifier.onnx + .json, then
   the flower/season reader models/bonus_classifier.onnx + .json (`--task bonus`),
4. `benchmarks/classifier.py`: measure every test set, write benchmarks/results/classifier.*
   and the confusion-matrix pictures.
Timed end to end for the committed models (one run on 2026-11-24, `--out` in a scratch
folder): 37.9 minutes (data 20.4 with other jobs sharing the cores, main training 9.1, bonus
reader 8.2, benchmark 0.3) on the 2-core machine; earlier runs took 37.0 minutes nearly quiet
and 57-64 minutes with other jobs keeping both cores busy.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hust", type=Path, help="the hust-riichi folder")
    ap.add_argument("--scale", type=float, default=0.7, help="synthetic data size (1.0 = 100k crops)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--bonus-epochs", type=int, default=20, help="epochs of the flower/season reader")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "tile_classifier.onnx")
    args = ap.parse_args(argv)
    cache = ROOT / "datasets" / "cache" / "tiles"
    t0 = time.time()
    py = sys.executable
    steps = [
        [py, "-m", "datasets.fetch_art"],
        [py, "-m", "datasets.build_tile_dataset", "--out", str(cache), "--scale", str(args.scale),
         "--hust", str(args.hust)],
        [py, "-m", "models.train", "--data", str(cache), "--epochs", str(args.epochs), "--out", str(args.out)],
        [py, "-m", "models.train", "--task", "bonus", "--data", str(cache), "--epochs", str(args.bonus_epochs),
         "--out", str(args.out.with_name("bonus_classifier.onnx"))],
        [py, str(ROOT / "benchmarks" / "classifier.py"), str(args.hust), "--model", str(args.out),
         "--cache", str(cache)],
    ]
    for cmd in steps:
        print(f"[{time.time() - t0:6.0f}s] {' '.join(cmd[1:])}", flush=True)
        if subprocess.run(cmd, cwd=ROOT).returncode != 0:
            print(f"step failed: {' '.join(cmd)}", file=sys.stderr)
            return 1
    print(f"done in {(time.time() - t0) / 60:.1f} minutes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

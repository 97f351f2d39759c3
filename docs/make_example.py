"""Render the page's example photo with datasets.synth_table (our own synthetic table, no
third-party photo) and save its ground truth for the browser test.

    python docs/make_example.py [--seed 7]

Writes api/static/example.jpg and tests/data/example_truth.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from datasets.synth_table import make_table  # noqa: E402
from scoring import score_table  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--height", type=int, default=1200)
    ap.add_argument("--quality", type=int, default=80)
    args = ap.parse_args(argv)
    table = make_table(np.random.default_rng(args.seed), (args.width, args.height), single=False, tilt=10.0,
                       rotate=3.0)
    result = score_table(table.case)
    if "error" in result:
        raise SystemExit(f"seed {args.seed} deals an invalid table: {result['error']}")
    ok, jpeg = cv2.imencode(".jpg", table.image, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
    assert ok
    (REPO / "api" / "static" / "example.jpg").write_bytes(jpeg.tobytes())
    truth = {"source": f"datasets.synth_table.make_table(seed={args.seed})", **table.truth()}
    (REPO / "tests" / "data" / "example_truth.json").write_text(json.dumps(truth, indent=None))
    print(f"example.jpg {len(jpeg) // 1024} KiB, {len(table.tiles)} tiles; winner {table.case['seat_wind']}, "
          f"scores {result.get('score', result.get('scores'))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Regenerate sample.jpg + sample.json: our own procedural tile renders (2 per class, augmented).

    python tests/data/classifier/make_sample.py

Only procedural renders (bundled OFL font) go here: never packaged GPL art, never the CC photos.
"""

import json
import sys
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from datasets.build_tile_dataset import synth_samples  # noqa: E402
from scoring.tiles import CLASSES  # noqa: E402

PER_ROW = 16


def main() -> None:
    x, y, _ = synth_samples(seed=424242, n=2 * len(CLASSES), strength=0.7)
    rows = []
    for i in range(0, len(x), PER_ROW):
        row = list(x[i:i + PER_ROW])
        row += [np.zeros_like(x[0])] * (PER_ROW - len(row))
        rows.append(np.concatenate(row, axis=1))
    cv2.imwrite(str(HERE / "sample.jpg"), np.concatenate(rows, axis=0), [cv2.IMWRITE_JPEG_QUALITY, 92])
    h, w = x.shape[1:3]
    (HERE / "sample.json").write_text(json.dumps({"tile_width": w, "tile_height": h, "per_row": PER_ROW,
                                                  "codes": [CLASSES[int(k)] for k in y]}) + "\n")


if __name__ == "__main__":
    main()

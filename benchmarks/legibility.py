"""Check the legibility judge and the flower reader against eye labels.

    python benchmarks/legibility.py [--model models/tile_classifier.onnx] [--sheets DIR]

The sample (`datasets/eye_legibility.py`): 320 flower and season crops drawn as the
synthetic test's are, from a seed no training or test set uses, each named by eye
(`datasets/legibility_labels/sample.json`: the tile whose character the labeller could read, or
null; the labeller is this project's developer, an AI model, not an independent annotator).
Reported:
* how many crops were named by eye, per class;
* the reader (the committed models) on the crops named by eye and on the others;
* the judge (`datasets.legibility`, its committed thresholds) against the labeller: how often the
  two agree, with the same check against the counterpart's marks (f1 against f5: the same
  number, another character) and a sweep of the judge's two thresholds;
* the synthetic test's don't-care scoring on this sample, with the judge's flags and with the
  labeller's.
Crops drawn here that are not byte for byte those labelled (a library release moves a few
grey levels of a few) are left out and counted; too many refuse the labels.
`--sheets DIR` writes the unlabelled contact sheets (as drawn and turned 180 degrees, shuffled)
a labeller works from, for a new sample or a changed renderer.

Writes benchmarks/results/legibility.json and .md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from datasets import legibility, eye_legibility  # noqa: E402
from scoring.tiles import BONUS  # noqa: E402

#: thresholds swept: (VISIBLE_EDGE, MIN_MARK_PIXELS)
SWEEP = [(e, m) for e in (30, 40, 50, 60) for m in (6, 12, 24, 48)]


def edge_maps(crops, others) -> np.ndarray:
    """Each crop's `legibility.mark_edges` against the same crop with another tile's marks."""
    return np.stack([legibility.mark_edges(a, b) for a, b in zip(crops, others)])


def judge_flags(edges: np.ndarray, edge: int, min_pixels: int) -> np.ndarray:
    """Legible by the judge's rule at these thresholds, from `edge_maps`."""
    return (edges >= edge).sum(axis=(1, 2)) >= min_pixels


def agreement(judged: np.ndarray, named: np.ndarray) -> dict:
    """The judge's legible flags against the crops named by eye."""
    return {"agree": float((judged == named).mean()),
            "legible_named": int((judged & named).sum()), "legible_unnamed": int((judged & ~named).sum()),
            "illegible_named": int((~judged & named).sum()), "illegible_unnamed": int((~judged & ~named).sum())}


def compare(truth: list[str], labels: list, preds: list[str], judged: np.ndarray) -> dict:
    """Everything the report says about one sample: the labeller's names (None: unreadable), the
    reader's answers `preds` and the judge's legible flags, per class and overall."""
    truth, preds = np.array(truth), np.array(preds)
    named = np.array([label is not None for label in labels])
    right = preds == truth
    as_bonus = np.isin(preds, BONUS)
    named_wrong = np.array([label is not None and label != t for label, t in zip(labels, truth)])
    out: dict = {"n": len(truth), "named": int(named.sum()), "named_wrong": int(named_wrong.sum()),
                 "reader_right_named": int((right & named).sum()),
                 "reader_right_unnamed": int((right & ~named).sum()),
                 "unnamed_read_as_bonus": int((as_bonus & ~named).sum()),
                 "named_misreads": [[int(i), str(truth[i]), str(preds[i])] for i in np.nonzero(named & ~right)[0]],
                 "judge": agreement(judged, named), "per_class": {}}
    for code in BONUS:
        m = truth == code
        if not m.any():
            continue
        out["per_class"][code] = {
            "n": int(m.sum()), "named": int((m & named).sum()), "reader_right_named": int((m & named & right).sum()),
            "judged_legible": int((m & judged).sum()),
            # the synthetic test's don't-care scoring: a crop judged illegible is right when read
            # as any bonus tile; with the judge's flags, and with the labeller's
            "dontcare_judge": float((m & (right | (~judged & as_bonus))).sum() / m.sum()),
            "dontcare_eye": float((m & (right | (~named & as_bonus))).sum() / m.sum())}
    return out


def consistency(first: list, again: list, truth: list[str]) -> dict:
    """How far a labeller's second reading of the same crops keeps to their first."""
    one = np.array([label is not None for label in first])
    two = np.array([label is not None for label in again])
    return {"agree": float((one == two).mean()), "named_both": int((one & two).sum()),
            "named_first_only": int((one & ~two).sum()), "named_again_only": int((~one & two).sum()),
            "named_again": int(two.sum()),
            "named_wrong_again": int(sum(a is not None and a != t for a, t in zip(again, truth)))}


def contact_sheets(crops: np.ndarray, out: Path, seed: int = 0, per: int = 40, cols: int = 8,
                   scale: int = 3) -> list[Path]:
    """Sheets of the crops, as drawn and turned 180 degrees, `scale` times their size, nothing on
    them but the crops and their numbers on the sheets.  The crops are shuffled (`seed`), so that
    where a crop lies says nothing of which tile it is (the sample draws the eight in turn);
    `order.json` beside the sheets gives the crop index of each number."""
    out.mkdir(parents=True, exist_ok=True)
    order = [int(i) for i in np.random.default_rng(seed).permutation(len(crops))]
    (out / "order.json").write_text(json.dumps(order) + "\n")
    crops = crops[order]
    written = []
    for turned in (False, True):
        for s in range(0, len(crops), per):
            part = crops[s:s + per]
            h, w = part.shape[1] * scale, part.shape[2] * scale
            rows = (len(part) + cols - 1) // cols
            sheet = np.full((rows * (h + 20), cols * (w + 6), 3), 255, np.uint8)
            for j, im in enumerate(part):
                r, c = divmod(j, cols)
                y0, x0 = r * (h + 20) + 18, c * (w + 6)
                im = cv2.rotate(im, cv2.ROTATE_180) if turned else im
                sheet[y0:y0 + h, x0:x0 + w] = cv2.resize(im, (w, h), interpolation=cv2.INTER_NEAREST)
                cv2.putText(sheet, str(s + j), (x0 + 2, y0 - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
            path = out / f"{'turned' if turned else 'drawn'}_{s // per}.png"
            cv2.imwrite(str(path), sheet)
            written.append(path)
    return written


def markdown(res: dict) -> str:
    s = res["sample"]
    named, n = s["named"], s["n"]
    lines = ["# The legibility judge and the flower reader against eye labels", "",
             f"Sample: {n} flower and season crops drawn as the synthetic test's, from seed "
             f"{eye_legibility.SEED} (datasets/eye_legibility.py), each named by eye "
             "(datasets/legibility_labels/sample.json) before the reader's or the judge's answers were seen; the "
             "labeller is this project's developer, an AI model, not an independent annotator. "
             f"Model: {res['model']}. Command: `python benchmarks/legibility.py`."
             + (f" Of the {res['sample_size']} crops labelled, {res['sample_size'] - n} were drawn here a few grey levels "
                "off (another release of the libraries) and are left out."
                if res.get("sample_size", n) != n else ""), "",
             f"- The labeller named **{named}** of {n} crops ({named / n:.1%}); {s['named_wrong']} of those names "
             "were wrong (such crops count as named: the reader is held to reading them).",
             f"- The reader read **{s['reader_right_named']} of {named}** of those right "
             f"({s['reader_right_named'] / max(1, named):.1%}), and {s['reader_right_unnamed']} of the "
             f"{n - named} others ({s['reader_right_unnamed'] / max(1, n - named):.1%}; one in eight by chance), "
             f"{s['unnamed_read_as_bonus']} of them as some flower or season.",
             f"- The judge (edge {legibility.VISIBLE_EDGE}, {legibility.MIN_MARK_PIXELS} pixels, against the "
             f"partner's marks) agrees with the labeller on **{s['judge']['agree']:.1%}** of crops: it counts "
             f"{s['judge']['legible_unnamed']} crops legible that the labeller could not name and "
             f"{s['judge']['illegible_named']} illegible that the labeller named.", "",
             "| class | crops | named by eye | reader right on those | judged legible | don't-care, judge's flags | don't-care, labeller's |",
             "|---|---|---|---|---|---|---|"]
    for code, v in s["per_class"].items():
        lines.append(f"| {code} | {v['n']} | {v['named']} | {v['reader_right_named']} "
                     f"({v['reader_right_named'] / max(1, v['named']):.1%}) | {v['judged_legible']} | "
                     f"{v['dontcare_judge']:.1%} | {v['dontcare_eye']:.1%} |")
    again = res.get("reading_again")
    if again:
        a = again["sample"]
        lines += ["", f"The same labeller read the crops again, the sheets shuffled: they named {again['named_again']} "
                  f"({again['named_wrong_again']} wrongly), and agreed with their first reading on whether a crop "
                  f"can be named for **{again['agree']:.1%}** of crops ({again['named_first_only']} named the first "
                  f"time only, {again['named_again_only']} the second time only). By the second reading the reader "
                  f"read {a['reader_right_named']} of {a['named']} named crops right "
                  f"({a['reader_right_named'] / max(1, a['named']):.1%}), and the judge agrees with the labeller on "
                  f"{a['judge']['agree']:.1%}."]
    lines += ["", "Misread crops named by eye (crop, truth, read): "
              + (", ".join(f"{i} {t}->{p}" for i, t, p in s["named_misreads"]) or "none"), "",
              "## The judge's thresholds against the labeller", "",
              "Agreement (share of crops where judged-legible equals named by eye); the committed "
              "thresholds in bold. Against the partner's marks (the judge as committed) and against the "
              "counterpart's (the same number, the other character).", "",
              "| edge | pixels | partner: agree | legible, not named | illegible, named | counterpart: agree | legible, not named | illegible, named |",
              "|---|---|---|---|---|---|---|---|"]
    for row in res["sweep"]:
        p, c = row["partner"], row["counterpart"]
        mark = "**" if (row["edge"], row["pixels"]) == (legibility.VISIBLE_EDGE, legibility.MIN_MARK_PIXELS) else ""
        lines.append(f"| {mark}{row['edge']}{mark} | {mark}{row['pixels']}{mark} | {p['agree']:.3f} | "
                     f"{p['legible_unnamed']} | {p['illegible_named']} | {c['agree']:.3f} | "
                     f"{c['legible_unnamed']} | {c['illegible_named']} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=None,
                    help="main model to measure (default models/tile_classifier.onnx; its bonus reader beside it)")
    ap.add_argument("--labels", type=Path, default=eye_legibility.LABELS, help="the labeller's labels")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "legibility",
                    help="results written to OUT.json and OUT.md")
    ap.add_argument("--sheets", type=Path, default=None,
                    help="write the sample's unlabelled contact sheets to this folder and stop")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if args.sheets is not None:
        crops, _, _ = eye_legibility.draw_sample()
        paths = contact_sheets(crops, args.sheets)
        print(f"{len(paths)} sheets of {len(crops)} crops (SHA-256 {eye_legibility.digest(crops)}) in {args.sheets}")
        return 0
    try:
        crops, partner, counterpart, data = eye_legibility.checked_sample(args.labels)
    except (eye_legibility.SampleChangedError, eye_legibility.LabelsError, OSError) as exc:
        ap.error(str(exc))
    from models.classifier import TileClassifier

    clf = TileClassifier(args.model)
    preds = [p.code for p in clf.classify(list(crops))]
    truth = data["truth"]  # the tiles of the crops drawn here as labelled
    labels = data["labels"]
    named = np.array([label is not None for label in labels])
    against_partner, against_counterpart = edge_maps(crops, partner), edge_maps(crops, counterpart)
    judged = judge_flags(against_partner, legibility.VISIBLE_EDGE, legibility.MIN_MARK_PIXELS)
    res = {"model": (args.model or Path("models/tile_classifier.onnx")).name,
           "same_crops": data["same_crops"], "sample_size": eye_legibility.SAMPLE_SIZE,
           "sample": compare(truth, labels, preds, judged),
           "sweep": [{"edge": e, "pixels": m, "partner": agreement(judge_flags(against_partner, e, m), named),
                      "counterpart": agreement(judge_flags(against_counterpart, e, m), named)} for e, m in SWEEP]}
    if data.get("labels_again"):
        res["reading_again"] = {**consistency(labels, data["labels_again"], truth),
                                "sample": compare(truth, data["labels_again"], preds, judged)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(res, indent=1) + "\n")
    text = markdown(res)
    args.out.with_suffix(".md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

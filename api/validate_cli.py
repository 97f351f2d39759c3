"""``mjscore validate DIR``: recognise every photo of a labelled set and report how well it went.

Reads our JSON labels, YOLO (data.yaml + txt) or COCO, from a folder or a zip of one (unpacked
with the web service's limits); recognition runs in worker processes with
a progress bar on stderr; prints the summary and writes report.json and a self-contained
report.html (confusion matrix, worst images drawn with their errors).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

from api.cli import whole_number
from api.labelsets import LabelSetError, _shown, load_labelset
from api.validation import CHECK_COUNTS, Progress, default_workers, describe_check, validate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", help="folder of a labelled set (labels/*.json, YOLO data.yaml, or COCO JSON), "
                                    "or a zip of one")
    parser.add_argument("-o", "--out", default=None,
                        help="folder for report.json and report.html (default: validation-<set name>)")
    parser.add_argument("-j", "--workers", type=whole_number(1), default=default_workers(),
                        help="recognition worker processes (default: %(default)s; 1 = in this process)")
    parser.add_argument("--limit", type=whole_number(1), default=None, help="only the first N images (quick looks)")
    parser.add_argument("--worst", type=whole_number(0), default=12,
                        help="worst images to draw in the report (default: %(default)s)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


#: labels to check the summary names one a line (all are in the report)
CHECK_LINES = 5


def _printable(text: str) -> str:
    """A line for the terminal: characters that do not print (an escape sequence, a right-to-left
    override in a file's name) shown as their codes, not obeyed."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def format_summary(report: dict) -> str:
    def pct(v):
        return "n/a" if v is None else f"{v * 100:.1f}%"

    def n(count, what):
        return f"{count} {what}{'s' * (count != 1)}"

    lines = [
        f"set {_shown(report['dataset'])} ({report['format']}): {n(report['images'], 'image')}, "
        f"{report['tiles']} labelled tiles, {report['predictions']} predicted, {n(report['images_failed'], 'image')} failed",
        f"recall (IoU {report['iou_threshold']}) {pct(report['recall'])}   precision {pct(report['precision'])}",
        f"tile accuracy {pct(report['tile_accuracy'])}   classification accuracy {pct(report['classification_accuracy'])}",
        f"whole images exactly right {pct(report['exact_image_rate'])} ({report['exact_images']}/{report['images']})",
        *([f"blurred images (moved or out of focus; their tiles may be misread): {report['blurred_images']}"]
          if report.get("blurred_images") else []),
        f"time {report['seconds']} s ({report['seconds_per_image']} s per image per worker)",
    ]
    if report["top_confusions"]:
        lines.append("most confused: " + ", ".join(
            f"{c['true']}->{c['predicted']} x{c['count']}" for c in report["top_confusions"][:8]))
    # per kind: of its labelled tiles, those found and read as it ("recall" in report.json)
    weak = sorted(((s["recall"] or 0.0, code) for code, s in report["per_class"].items()
                   if s["labelled"] and (s["recall"] or 0.0) < 1.0))[:5]
    if weak:
        lines.append("kinds read right least often (found and named right / labelled): "
                     + ", ".join(f"{code} {pct(r)}" for r, code in weak))
    elif any(s["labelled"] for s in report["per_class"].values()):
        lines.append("every labelled tile of every kind found and named right")
    to_check = report.get("labels_to_check") or []
    if to_check:
        kinds = Counter(report.get("labels_to_check_by_kind") or Counter(c["kind"] for c in to_check))
        total = report.get("labels_to_check_total", len(to_check))
        shown = "" if total == len(to_check) else f"; the first {len(to_check)} in report.json, by kind"
        lines.append(f"labels to check: {total}{shown} (" + ", ".join(
            f"{n} {CHECK_COUNTS.get(kind, kind)}" for kind, n in kinds.most_common()) + "; listed in the report)")
        for c in to_check[:CHECK_LINES]:
            box = " ".join(f"{v:g}" for v in c["box"])
            lines.append(f"  {_printable(c['image'])} [{box}]: {describe_check(c)}")
        if len(to_check) > CHECK_LINES:
            lines.append(f"  ... and {len(to_check) - CHECK_LINES} more")
    if report.get("unsure_disagreements"):  # said whether or not any label is listed to check
        lines.append(f"not listed to check: {report['unsure_disagreements']} reading(s) under 90% confidence the "
                     "labels contradict, the recogniser's doubt more likely than the labels'")
    for warning in report["warnings"][:10]:
        lines.append(f"warning: {_printable(warning)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    source = Path(args.dir)
    if source.is_file() and zipfile.is_zipfile(source):
        from api.errors import ApiError
        from api.zips import ZipTooBig, extract_zip, set_name

        name = set_name(source.name)  # as the web service names an uploaded set
        with tempfile.TemporaryDirectory(prefix="mjscore-validate-") as tmp:
            folder = Path(tmp) / name  # so that errors about its labels name the zip
            try:
                extract_zip(source, folder)
            except ApiError as err:
                # a zip over the web service's size limits may still be unpacked and passed as a folder
                hint = " (a big set: unzip it and pass the folder)" if isinstance(err, ZipTooBig) else ""
                print(f"mjscore validate: {source.name}: {err.detail}{hint}", file=sys.stderr)
                return 2
            return _validate(folder, args, name=name)
    return _validate(source, args)


def _validate(folder: Path, args: argparse.Namespace, name: str | None = None) -> int:
    from api.report import write_report

    try:
        labelset = load_labelset(folder)
    except LabelSetError as err:
        print(f"mjscore validate: {err}", file=sys.stderr)
        return 2
    if args.limit:
        labelset.images = labelset.images[: args.limit]
    # the report's folder is made before the photos are read: a name that cannot be one is said
    # at once, not after the whole set was recognised
    out_dir = Path(args.out) if args.out else Path(f"validation-{name or labelset.root.name}")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        what = "is not a folder" if out_dir.exists() and not out_dir.is_dir() else f"cannot be made ({err.strerror})"
        print(f"mjscore validate: the report's folder {out_dir} {what}", file=sys.stderr)
        return 2
    progress = None if args.quiet else Progress(len(labelset.images))
    report, outcomes = validate(labelset, workers=args.workers, progress=progress, worst=args.worst)
    if name:
        report["dataset"] = name
    paths = {img.name: img.path for img in labelset.images}
    print(format_summary(report))  # first: the figures are not lost if the report cannot be written
    try:
        json_path, html_path = write_report(report, outcomes, paths, out_dir, worst=args.worst)
    except OSError as err:
        print(f"mjscore validate: cannot write the report in {out_dir}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(f"wrote {json_path} and {html_path}")
    if report["images"] and report["images_failed"] == report["images"]:
        print("mjscore validate: no photo of the set could be recognised (the warnings above say why)",
              file=sys.stderr)
        return 1
    return 0

"""Degradations benchmark: the hust-riichi test photos as users' photos reach the product.

    python benchmarks/degradations.py ../shared/datasets/hust-riichi [--out DIR]

Each of the 81 TEST photos (datasets/splits/hust-riichi.json), labels put right by the errata,
recognised as it is and after each of datasets.degrade.DEGRADATIONS (a chat app's smaller,
recompressed copy; stored turned with an EXIF tag; sensor noise; a shaking hand; a screenshot's
border; a colour cast).  For each: tile recall at IoU 0.5 and per-tile accuracy (found and read
right), finds that are no tile, photos not read perfectly, photos the recogniser calls blurred,
and the slowest photo.  The bytes or pixels go through vision.recognize as an upload does (a
JPEG's EXIF orientation honoured; boxes expected in the upright photo's pixels).  About five
minutes on two cores.  Results: benchmarks/results/degradations.json and degradations.md (the
committed ones, unless --out names another folder).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2

from recognition import REPO, _pairs, library_versions, machine_reference_ms, versions_line  # sets the paths too


def measure(root: Path, split_file: Path) -> dict:
    from datasets.degrade import DEGRADATIONS
    from datasets.hust_riichi import load_photos
    from vision.recognize import recognize

    names = json.loads(split_file.read_text())["test"]
    photos = load_photos(root, corrected=True)
    recognize(str(root / "images" / names[0]))  # models loaded before any timing
    rows = []
    for label, degrade in DEGRADATIONS:
        tiles = found = right = extra = blurred = 0
        slowest, not_perfect, misread, false_by_photo = (0.0, ""), [], [], {}
        started = time.perf_counter()
        for k, name in enumerate(names):
            image = cv2.imread(str(root / "images" / name), cv2.IMREAD_COLOR)
            boxes = [list(box) for box, _ in photos[name].tiles]
            given, moved = (image, boxes) if degrade is None else degrade(image, boxes, k)
            truth = [(box, code) for box, (_, code) in zip(moved, photos[name].tiles)]
            t0 = time.perf_counter()
            rec = recognize(given, name=name)
            seconds = time.perf_counter() - t0
            slowest = max(slowest, (seconds, name))
            read = [(t.quad.box, t.code) for t in rec.tiles]
            pairs = _pairs(truth, read)
            ok = sum(truth[i][1] == read[j][1] for i, j in pairs)
            misread += [(truth[i][1], read[j][1]) for i, j in pairs if truth[i][1] != read[j][1]]
            tiles, found, right, extra = tiles + len(truth), found + len(pairs), right + ok, extra + len(read) - len(pairs)
            blurred += rec.blurred
            if len(read) > len(pairs):
                false_by_photo[name] = len(read) - len(pairs)
            if ok < len(truth) or len(read) > len(pairs):
                not_perfect.append(name)
        rows.append({"degradation": label, "photos": len(names), "true_tiles": tiles,
                     "recall_iou50": round(found / max(1, tiles), 4), "per_tile_accuracy": round(right / max(1, tiles), 4),
                     "false_finds": extra, "photos_not_perfect": len(not_perfect), "photos_flagged_blurred": blurred,
                     "slowest_s": round(slowest[0], 2), "slowest_photo": slowest[1],
                     "seconds": round(time.perf_counter() - started, 1),
                     "misreads": [f"{t}->{r}" for t, r in misread][:20], "not_perfect": not_perfect,
                     "false_finds_by_photo": false_by_photo})
        print(f"{label:40s} recall {rows[-1]['recall_iou50']:.2%}  per tile {rows[-1]['per_tile_accuracy']:.2%}  "
              f"false {extra}  not perfect {len(not_perfect)}  blurred {blurred}  slowest {slowest[0]:.2f} s", flush=True)
    return {"photos": len(names), "rows": rows}


def markdown(result: dict, command: str) -> str:
    lines = ["# Degradations benchmark", "", f"Command: `{command}`", ""] + versions_line(result.get("libraries")) + [
             f"The {result['photos']} hust-riichi test photos (labels put right by the errata), as taken and as users' "
             "photos reach the product (datasets/degrade.py). Per tile: found at IoU 0.5 and read right.", "",
             "| photos | recall (IoU 0.5) | per-tile accuracy | finds that are no tile | photos not perfect | "
             "called blurred | slowest photo s |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in result["rows"]:
        lines.append(f"| {r['degradation']} | {r['recall_iou50']:.2%} | {r['per_tile_accuracy']:.2%} | {r['false_finds']} | "
                     f"{r['photos_not_perfect']} | {r['photos_flagged_blurred']} | {r['slowest_s']} |")
    lines += ["", "Misread tiles (true->read, the first 20 of each row):", ""]
    lines += [f"- {r['degradation']}: {', '.join(r['misreads']) or 'none'}" for r in result["rows"]]
    lines += ["", "Finds that are no tile, by photo:", ""]
    lines += [f"- {r['degradation']}: " + ", ".join(f"{n} {k}" for k, n in sorted(r["false_finds_by_photo"].items()))
              for r in result["rows"] if r["false_finds_by_photo"]]
    ref = result.get("machine_reference")
    if ref:
        lines += ["", f"This machine's speed (`machine_reference_ms`): a pure-Python loop {ref['python_loop_ms']} ms."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path, help="the hust-riichi folder (images/, labels/)")
    ap.add_argument("--split", type=Path, default=REPO / "datasets" / "splits" / "hust-riichi.json",
                    help="the train/validation/test split; the test photos are measured")
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results",
                    help="folder for degradations.json and degradations.md (default: benchmarks/results, "
                         "the committed results)")
    args = ap.parse_args(argv)
    if not (args.dataset / "images").is_dir():
        ap.error(f"{args.dataset} holds no images/ folder (the hust-riichi set: ../shared/datasets/hust-riichi)")
    result = measure(args.dataset, args.split)
    result["libraries"] = library_versions()
    result["machine_reference"] = machine_reference_ms()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "degradations.json").write_text(json.dumps(result, indent=1))
    command = "python benchmarks/degradations.py ../shared/datasets/hust-riichi"
    (args.out / "degradations.md").write_text(markdown(result, command))
    print(f"wrote {args.out / 'degradations.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

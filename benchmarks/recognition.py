"""Recognition benchmark: real photos, synthetic tables and end-to-end latency.

    python benchmarks/recognition.py ../shared/datasets/hust-riichi [--views 1] [--synthetic 200] [--phone 200] [--per-size 100] [--props 100] [--dark 50] [--racks 100] [--latency 7]
    python benchmarks/recognition.py --latency-only [--latency 7]     # part 3 alone, a minute

1. hust-riichi TEST photos (datasets/splits/hust-riichi.json): tile recall at IoU 0.5 and
   per-tile accuracy (a true tile counts when a found tile overlaps it at IoU >= 0.5 and reads
   the right code), for mjscore and, in the same run, PyPI `mahjong-detector` (a YOLOv8 ONNX
   detector; installed only in the benchmark environment, never a dependency of mjscore).
   The same test photos again as their camera would have seen them turned or tilted (VIEWS),
   and under other lights (datasets.views.LIGHTS; `--views 0` skips both): recall and per-tile accuracy in each view, the labels moved with
   the pixels (datasets/views.py: a camera turning in place moves the photo by a homography).
2. Synthetic tables (datasets/synth_table.py) in an art style left out of classifier training
   (tile_art.HELD_OUT_STYLES): photos where every tile's seat and group are right, and photos
   whose final scores and payments are exactly right.  Also with ground-truth codes
   (geometry only) so detection + layout can be told apart from the classifier.  The tables
   are 1280x960 photos (tiles about 24 pixels wide); `--phone N` tables more of the same art at
   4000x3000, a phone camera's 12 megapixels (tiles about 73 pixels wide), the size users send;
   `--per-size N` tables more at each of `--sizes` (sizes between the two: a photo a messaging
   app has shrunk to 1600x1200, or a camera set to fewer megapixels); `--props N` tables more
   at 2000x1500 with dice, scoring sticks, coins or chips where no tile lies (datasets/props.py),
   counting the finds that are no tile; `--dark N` tables more at 2000x1500 in tile sets with
   dark faces and light marks, N of procedural dark sets (`render_tiles.dark_style`) and N of
   KMahjongg's red `jade` set (vision reads them in the photo's negative); `--racks N` tables
   more at 2000x1500 with a tile rack behind each seat's row (datasets/racks.py), counting the
   finds that lie on a rack.
3. Latency: a 12-megapixel synthetic photo, JPEG bytes -> recognize -> build_case ->
   score_table, median of N runs on the threads onnxruntime is given (2), in a fresh process
   that imports only the runtime, and that process's peak RSS (target: 150 ms, 400 MB).

Results: benchmarks/results/recognition.json and recognition.md (recognition_latency.* with
--latency-only, so a quick latency check leaves the full results alone).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.append(str(Path(__file__).resolve().parent))  # after the repo: its scoring.py is no package

from environment import library_versions, versions_line  # noqa: E402 - after the paths are set
from vision.quad import box_iou as iou  # noqa: E402 - after the repo is on the path

DETECTOR_NAMES = {"chun": "7z", "haku": "5z", "hatsu": "6z", "nan": "2z", "pe": "4z", "sha": "3z", "tou": "1z"}


def _pairs(truth: list[tuple], found: list[tuple]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching of (box, code) lists by IoU >= 0.5: (truth index, found index)."""
    ranked = sorted(((iou(t[0], f[0]), i, j) for i, t in enumerate(truth) for j, f in enumerate(found)),
                    reverse=True)
    used_t, used_f, out = set(), set(), []
    for v, i, j in ranked:
        if v < 0.5:
            break
        if i in used_t or j in used_f:
            continue
        used_t.add(i)
        used_f.add(j)
        out.append((i, j))
    return out


def match(truth: list[tuple], found: list[tuple]) -> tuple[int, int, int]:
    """Greedy one-to-one matching by IoU >= 0.5: (true tiles found, found with right code, extra)."""
    pairs = _pairs(truth, found)
    right = sum(truth[i][1] == found[j][1] for i, j in pairs)
    return len(pairs), right, len(found) - len(pairs)


def _classifier_or_none():
    try:
        from models.classifier import default_classifier

        return default_classifier()
    except Exception as exc:  # noqa: BLE001 - reported in the results
        return exc


def _tally(stats: dict, truth: list, found: list, started: float) -> tuple[int, int]:
    """Add one photo's timing and matches to a system's running totals."""
    stats["ms"].append(1000 * (time.perf_counter() - started))
    hit, right, extra = match(truth, found)
    stats["tiles"] += len(truth)
    stats["found"] += hit
    stats["right"] += right
    stats["extra"] += extra
    return hit, extra


def bench_hust(root: Path, split_file: Path) -> dict:
    from vision.recognize import find_tile_quads, recognize

    split = json.loads(split_file.read_text())
    names = split["test"]
    clf = _classifier_or_none()
    have_clf = not isinstance(clf, Exception)
    out = {"photos": len(names), "split": str(split_file.relative_to(REPO)), "split_rule": split.get("rule")}
    ours = {"tiles": 0, "found": 0, "right": 0, "extra": 0, "ms": []}
    theirs = {"tiles": 0, "found": 0, "right": 0, "extra": 0, "ms": []}
    det = _mahjong_detector()
    misses = []
    # the labels as published, and as the errata put them right (a red dragon labelled 4m)
    from datasets.hust_riichi import load_photos

    published, fixed = load_photos(root), load_photos(root, corrected=True)
    right_fixed = {"mjscore": 0, "mahjong_detector": 0}
    labels_fixed = 0
    for name in names:
        truth = [(list(box), code) for box, code in published[name].tiles]
        truth_fixed = [(list(box), code) for box, code in fixed[name].tiles]
        labels_fixed += sum(a[1] != b[1] for a, b in zip(truth, truth_fixed))
        path = root / "images" / name
        t0 = time.perf_counter()
        if have_clf:
            rec = recognize(str(path), classifier=clf)
            found = [(t.quad.box, t.code) for t in rec.tiles]
        else:
            from vision.io import load_image

            found = [(q.box, "?") for q in find_tile_quads(load_image(str(path)))]
        hit, extra = _tally(ours, truth, found, t0)
        right_fixed["mjscore"] += match(truth_fixed, found)[1]
        if hit < len(truth) or extra:
            misses.append({"image": name, "tiles": len(truth), "found": hit, "extra": extra})
        if det is not None and not isinstance(det, str):
            t0 = time.perf_counter()
            theirs_found = det(path)
            _tally(theirs, truth, theirs_found, t0)
            right_fixed["mahjong_detector"] += match(truth_fixed, theirs_found)[1]

    def summary(d, classified=True):
        n = max(1, d["tiles"])
        s = {"true_tiles": d["tiles"], "recall_iou50": round(d["found"] / n, 4),
             "false_detections": d["extra"],
             "median_ms_per_photo": round(statistics.median(d["ms"]), 1) if d["ms"] else None}
        s["per_tile_accuracy"] = round(d["right"] / n, 4) if classified else None
        return s

    out["mjscore"] = summary(ours, have_clf)
    out["labels_corrected"] = labels_fixed
    if have_clf:
        out["mjscore"]["per_tile_accuracy_labels_corrected"] = round(right_fixed["mjscore"] / max(1, ours["tiles"]), 4)
    if not have_clf:
        out["mjscore"]["classifier"] = f"not available: {clf}"
    out["mjscore"]["photos_not_perfect"] = misses
    if det is None:
        out["mahjong_detector"] = "not installed in this environment (pip install -e '.[bench]')"
    elif isinstance(det, str):
        out["mahjong_detector"] = det
    else:
        out["mahjong_detector"] = summary(theirs)
        out["mahjong_detector"]["per_tile_accuracy_labels_corrected"] = round(
            right_fixed["mahjong_detector"] / max(1, theirs["tiles"]), 4)
    return out


#: the camera views the hust-riichi test photos are measured in again (name, turn, tilt in degrees):
#: the photographer's camera turned about its lens axis, tilted further, or both (datasets.views)
VIEWS = (("turned 30", 30, 0), ("turned 90", 90, 0), ("turned 135", 135, 0), ("tilted 20", 0, 20),
         ("tilted 35", 0, 35), ("tilted 35 the other way", 0, -35), ("turned 60 and tilted 30", 60, 30))


def bench_hust_views(root: Path, split_file: Path) -> dict:
    """The hust-riichi TEST photos as their camera would have seen them turned or tilted (a
    homography of the photo, exact for a camera turning in place: datasets.views), labels moved
    with them, and as taken under other lights (datasets.views.LIGHTS): recall and per-tile
    accuracy in each view, against the labels put right."""
    from datasets.hust_riichi import load_photos
    from datasets.views import LIGHTS, camera_view, relit, view_box
    from vision.recognize import recognize

    clf = _classifier_or_none()
    if isinstance(clf, Exception):
        return {"error": f"classifier not available: {clf}"}
    names = json.loads(split_file.read_text())["test"]
    photos = load_photos(root, corrected=True)
    out = {"photos": len(names), "views": []}
    views = [(view, turn, tilt, None) for view, turn, tilt in VIEWS] + [(light, 0, 0, light) for light in LIGHTS]
    for view, turn, tilt, light in views:
        tiles = found = right = extra = 0
        worst = []
        for name in names:
            img = cv2.imread(str(root / "images" / name), cv2.IMREAD_COLOR)
            if img is None:
                continue
            seen, m = camera_view(img, turn, tilt)
            if light:
                seen = relit(seen, light)
            truth = [(view_box(box, m), code) for box, code in photos[name].tiles]
            rec = recognize(seen, classifier=clf)
            f, r, e = match(truth, [(t.quad.box, t.code) for t in rec.tiles])
            tiles, found, right, extra = tiles + len(truth), found + f, right + r, extra + e
            if r < len(truth) or e:
                worst.append({"image": name, "tiles": len(truth), "found": f, "right": r, "extra": e})
        out["views"].append({"view": view, "turn_deg": turn, "tilt_deg": tilt, "true_tiles": tiles,
                             "recall_iou50": round(found / max(1, tiles), 4),
                             "per_tile_accuracy": round(right / max(1, tiles), 4), "false_detections": extra,
                             "photos_not_perfect": worst})
    return out


def _mahjong_detector():
    """PyPI mahjong-detector as found(path) -> [(box, code)], or None / a reason string."""
    try:
        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image
        from PIL import Image
    except ImportError:
        return None

    def run(path):
        img = Image.open(path)
        arr, pad = preprocess_image(img)
        dets = predict(arr, pad)
        return [([d.x1, d.y1, d.x2, d.y2], DETECTOR_NAMES.get(CLASS_NAMES[d.class_id], CLASS_NAMES[d.class_id]))
                for d in dets]

    return run


def _same_partition(rec, table) -> tuple[bool, str]:
    """Every true tile found, in the right seat, in a group holding exactly its true group mates
    (bonus tiles: the right seat and marked bonus), the concealed run marked concealed."""
    truth = table.tiles
    centres = np.array([np.mean(np.array(t["quad"]), axis=0) for t in truth])
    assign = {}
    for k, t in enumerate(rec.tiles):
        d = np.linalg.norm(centres - t.quad.center, axis=1)
        j = int(np.argmin(d))
        if d[j] < 0.5 * min(t.quad.width, t.quad.height) and j not in assign:
            assign[j] = k
    if len(assign) != len(truth) or len(rec.tiles) != len(truth):
        return False, f"found {len(rec.tiles)} tiles, matched {len(assign)} of {len(truth)}"
    # tiles laid apart that make no set are counted with the concealed tiles (vision.hands)
    group_of = [("concealed" if t.group == "apart" else t.group) for t in rec.tiles]
    true_groups, pred_groups = {}, {}
    for j, t in enumerate(truth):
        true_groups.setdefault((t["seat"], t["group"]), set()).add(j)
        p = rec.tiles[assign[j]]
        pred_groups.setdefault((p.seat, group_of[assign[j]]), set()).add(j)
    for j, t in enumerate(truth):
        p, group = rec.tiles[assign[j]], group_of[assign[j]]
        if p.seat != t["seat"]:
            return False, f"tile {j} in seat {p.seat}, truly {t['seat']}"
        if (t["group"] == "bonus") != (group == "bonus"):
            return False, f"tile {j} bonus mismatch ({p.group} vs {t['group']})"
        if (t["group"] == "concealed") != (group == "concealed"):
            return False, f"tile {j} concealed mismatch ({p.group} vs {t['group']})"
        if t["group"] != "bonus" and pred_groups[(p.seat, group)] != true_groups[(t["seat"], t["group"])]:
            return False, f"tile {j} grouped with other tiles ({p.group} vs {t['group']})"
    return True, ""


def _true_codes(rec, table) -> list[str]:
    """The true code of each found tile: that of the true tile whose centre is nearest its own."""
    centres = np.array([np.mean(np.array(t["quad"]), axis=0) for t in table.tiles])
    return [str(table.tiles[int(np.argmin(np.linalg.norm(centres - t.quad.center, axis=1)))]["code"])
            for t in rec.tiles]


def _misreads(rec, table, truths: list[str] | None = None) -> tuple[int, int, list[tuple[str, str]]]:
    """(face-up true tiles matched, of them flowers or seasons, [(true, read)] for those read
    wrong), each found tile matched to the true tile whose centre is nearest its own (`truths`:
    _true_codes, when already worked out)."""
    from scoring.tiles import BONUS

    seen, bonus, wrong = 0, 0, []
    for t, true in zip(rec.tiles, truths or _true_codes(rec, table)):
        if true == "back" or t.face_down:
            continue
        seen += 1
        bonus += true in BONUS
        if t.code != true:
            wrong.append((true, t.code))
    return seen, bonus, wrong


def _checking(rec, truths: list[str]) -> dict:
    """What a person correcting the table on the web page meets: the face-up tiles it marks for
    checking (read with under vision.sets.LOW_CONFIDENCE, as the page's dashed outline), the
    misread ones among them, and the misread tiles whose right kind the picker offers among the
    likeliest readings (the classifier's top three).  `truths`: _true_codes(rec, table)."""
    from vision.sets import LOW_CONFIDENCE

    out = {"marked": 0, "misread": 0, "misread_marked": 0, "misread_offered": 0}
    for t, true in zip(rec.tiles, truths):
        if true == "back" or t.face_down:
            continue
        marked = t.confidence < LOW_CONFIDENCE
        out["marked"] += marked
        if t.code != true:
            out["misread"] += 1
            out["misread_marked"] += marked
            out["misread_offered"] += true in [c for c, _ in t.candidates[:3]]
    return out


def _why_scores_wrong(wrong: list[tuple[str, str]], got: dict) -> str:
    """What a table whose scores came out wrong had misread."""
    from scoring.tiles import BONUS

    kinds = {"flowers/seasons" if a in BONUS or b in BONUS else "suit/honour" for a, b in wrong}
    if kinds:
        return " and ".join(sorted(kinds))
    if "error" in got:  # the engine's error (a dict) or the case builder's code (a string)
        err = got["error"]
        return f"no tile misread ({err.get('code') if isinstance(err, dict) else err})"
    return "no tile misread"


def _scores_equal(a: dict, b: dict) -> bool:
    keys = ("score", "scores", "payments")
    return "error" not in a and all(a.get(k) == b.get(k) for k in keys)


#: a phone camera's 12-megapixel photo
PHONE_SIZE = (4000, 3000)
#: the tables with props on them: tiles about 37 pixels wide, a photo shrunk by a messaging app
PROPS_SIZE = (2000, 1500)
#: the tables of dark-faced sets: the same size
DARK_SIZE = (2000, 1500)
#: the tables with tile racks: the same size
RACKS_SIZE = (2000, 1500)
#: the packaged dark-faced set measured beside the procedural ones (trained on: no dark set is held out)
DARK_ART = "kmahjongg-jade"


def _finds_no_tile(rec, table) -> tuple[int, int]:
    """(found tiles that are none of the true tiles at IoU 0.5, of them lying on a prop)."""
    truth = [(t["box"], t["code"]) for t in table.tiles]
    found = [(t.quad.box, t.code) for t in rec.tiles]
    used_f = {j for _, j in _pairs(truth, found)}
    extra = [rec.tiles[j].quad.center for j in range(len(found)) if j not in used_f]
    on_props = sum(any(p["box"][0] <= c[0] <= p["box"][2] and p["box"][1] <= c[1] <= p["box"][3]
                       for p in table.props) for c in extra)
    return len(extra), on_props


def bench_synthetic(count: int, seed: int, art: str | None, size: tuple[int, int] = (1280, 960),
                    props: bool = False, dark: bool = False, racks: bool = False) -> dict:
    from datasets.synth_table import TruthClassifier, make_table
    from scoring import score_table
    from scoring.tiles import BONUS
    from vision.case import CaseError, build_case
    from vision.recognize import recognize

    clf = _classifier_or_none()
    have_clf = not isinstance(clf, Exception)
    rng = np.random.default_rng(seed)
    res = {"tables": count, "seed": seed, "art": art or ("procedural, dark faces" if dark else "procedural"),
           "size": list(size), "props": props, "racks": racks}
    no_tile = {"finds": 0, "on_props": 0, "tables": 0, "props": 0}
    layout_ok = {"geometry": 0, "full": 0}
    score_ok = {"geometry": 0, "full": 0}
    failures = []
    tiles = {"face_up": 0, "bonus": 0, "wrong": 0, "bonus_wrong": 0}
    causes: Counter = Counter()
    checking: Counter = Counter()
    widths = []
    for i in range(count):
        table = make_table(rng, size, art=art, props=props, dark=dark, racks=racks)
        no_tile["props"] += len(table.props)
        truth_result = score_table(table.case)
        winner = next(h for h in table.case["hands"] if h["winner"])
        context = {"ruleset": table.case["ruleset"], "winner": winner["seat"], "win_by": winner["win_by"]}
        modes = [("geometry", TruthClassifier(table.tiles))] + ([("full", clf)] if have_clf else [])
        for mode, c in modes:
            rec = recognize(table.image, classifier=c)
            ok, why = _same_partition(rec, table)
            layout_ok[mode] += ok
            try:
                got = score_table(build_case(rec, context))
            except CaseError as exc:
                got = {"error": exc.code}
            same = _scores_equal(got, truth_result)
            score_ok[mode] += same
            if mode == "full":
                truths = _true_codes(rec, table)
                seen, bonus, wrong = _misreads(rec, table, truths)
                tiles["face_up"] += seen
                tiles["bonus"] += bonus
                tiles["wrong"] += len(wrong)
                tiles["bonus_wrong"] += sum(a in BONUS for a, _ in wrong)
                widths += [min(t.quad.width, t.quad.height) for t in rec.tiles]
                extra, on_props = _finds_no_tile(rec, table)
                no_tile["finds"] += extra
                no_tile["on_props"] += on_props
                no_tile["tables"] += extra > 0
                check = _checking(rec, truths)
                checking.update(check)
                if not same:
                    causes[_why_scores_wrong(wrong, got)] += 1
                    checking["wrong_tables"] += 1
                    checking["wrong_tables_all_marked"] += check["misread"] == check["misread_marked"]
            if (not ok or not same) and len(failures) < 25:
                failures.append({"table": i, "mode": mode, "layout": why or "ok", "scores_right": same,
                                 "warnings": rec.warnings[:4]})
    for mode in ("geometry", "full"):
        if mode == "full" and not have_clf:
            res[mode] = f"classifier not available: {clf}"
            continue
        res[mode] = {"seat_and_group_right": round(layout_ok[mode] / count, 4),
                     "scores_exactly_right": round(score_ok[mode] / count, 4)}
    if have_clf and tiles["face_up"]:
        other = tiles["face_up"] - tiles["bonus"]
        res["full"]["tiles_read_right"] = {
            "flowers_seasons": round(1 - tiles["bonus_wrong"] / max(1, tiles["bonus"]), 4),
            "other_face_up": round(1 - (tiles["wrong"] - tiles["bonus_wrong"]) / max(1, other), 4),
            "face_up_tiles": tiles["face_up"], "flowers_seasons_tiles": tiles["bonus"]}
        res["full"]["wrong_scores_by_misread"] = dict(causes.most_common())
        from vision.sets import LOW_CONFIDENCE

        res["full"]["checking"] = {"marked_below": LOW_CONFIDENCE, **{k: int(checking[k]) for k in (
            "marked", "misread", "misread_marked", "misread_offered", "wrong_tables", "wrong_tables_all_marked")}}
        res["median_tile_width_px"] = round(float(np.median(widths)), 1)
        res["full"]["finds_that_are_no_tile"] = no_tile
    res["failures"] = failures
    return res


def bench_latency(runs: int) -> dict:
    """A 12-megapixel synthetic table as a JPEG file, timed in a fresh process that imports only
    the runtime (vision, the classifier runtime, scoring): its peak RSS is the pipeline's own,
    not this benchmark's (which renders the photo and holds everything else)."""
    from datasets.synth_table import make_table

    rng = np.random.default_rng(5)
    table = make_table(rng, (4000, 3000))
    ok, jpeg = cv2.imencode(".jpg", table.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    winner = next(h for h in table.case["hands"] if h["winner"])
    context = {"winner": winner["seat"], "win_by": winner["win_by"]}
    true_tiles = len(table.tiles)
    del table
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table_4000x3000.jpg"
        path.write_bytes(jpeg.tobytes())
        code = (f"import sys; sys.path[:0] = [{str(REPO)!r}, {str(Path(__file__).resolve().parent)!r}]; "
                "import recognition; recognition.latency_child(sys.argv[1:])")
        proc = subprocess.run([sys.executable, "-c", code, str(path), json.dumps(context), str(runs)],
                              capture_output=True, text=True, cwd=REPO, env=env, timeout=1800)
    if proc.returncode != 0:
        return {"error": f"the timing process failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}"}
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out = {"image": "4000x3000 synthetic table, JPEG q90", "bytes": int(jpeg.size), "true_tiles": true_tiles,
           **out, "cores": os.cpu_count()}
    return out


def _rss_mb() -> tuple[float, float]:
    """(current, peak) resident memory of this process in MB.  The peak is the kernel's VmHWM of
    this program's own memory: getrusage's ru_maxrss would carry over the parent's peak from
    before exec (the benchmark process that rendered the 12 MP photo)."""
    try:
        status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
                      if ":" in line)
        return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024
    except (OSError, KeyError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return float("nan"), peak


def machine_reference_ms(repeats: int = 5) -> dict:
    """The same fixed work timed on every machine, so that latencies measured on different
    machines can be compared: a pure-Python loop (the layout and hand code's kind of work) and a
    Gaussian blur of a 12-megapixel image on one OpenCV thread (the detector's kind).  Best of
    `repeats`: the machine's speed, not its neighbours'."""
    def best(work) -> float:
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            work()
            times.append(1000 * (time.perf_counter() - t0))
        return round(min(times), 1)

    image = np.full((3000, 4000, 3), 128, np.uint8)
    threads = cv2.getNumThreads()
    try:
        cv2.setNumThreads(1)
        blur = best(lambda: cv2.GaussianBlur(image, (9, 9), 0))
        # the pipeline keeps two cores busy (the full decode beside the first look): how much a
        # second core adds here (a busy host's second core may add little)
        cv2.setNumThreads(2)
        blur_two = best(lambda: cv2.GaussianBlur(image, (9, 9), 0))
    finally:
        cv2.setNumThreads(threads)
    return {"python_loop_ms": best(lambda: sum(i * i for i in range(2_000_000))), "blur_12mp_ms": blur,
            "blur_12mp_two_threads_ms": blur_two}


def latency_child(argv: list[str]) -> None:
    """In the fresh timing process: JPEG file -> recognize -> build_case -> score_table, runs+1
    times (the first loads the models and is not counted); prints one JSON line."""
    path, context, runs = Path(argv[0]), json.loads(argv[1]), int(argv[2])
    rss_start = _rss_mb()[0]
    from scoring import score_table
    from vision.case import CaseError, build_case
    from vision.recognize import recognize

    rss_imports = _rss_mb()[0]
    data = path.read_bytes()
    times, cpu, stages = [], [], []
    for _ in range(runs + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        rec = recognize(data, name=path.name)
        try:
            result = score_table(build_case(rec, context))
        except CaseError as exc:
            result = {"error": {"code": exc.code}}
        times.append(1000 * (time.perf_counter() - t0))
        cpu.append(1000 * (time.process_time() - c0))
        stages.append(rec.timings_ms)
    times, cpu, stages = times[1:], cpu[1:], stages[1:]  # the first run loads the models
    rss_end, peak = _rss_mb()
    service = _service_latency(data, context, runs)
    print(json.dumps({
        "runs": runs, "median_ms": round(statistics.median(times), 1), "min_ms": round(min(times), 1),
        "max_ms": round(max(times), 1),
        # CPU time of all this process's threads per run: what the work costs, however busy the
        # machine (wall time on a loaded machine mostly measures the others' work)
        "cpu_ms_median": round(statistics.median(cpu), 1),
        "stages_median_ms": {k: round(statistics.median(s[k] for s in stages), 1) for k in stages[0]},
        "pipeline_peak_rss_mb": round(peak, 1),
        "rss_mb": {"python_started": round(rss_start, 1), "runtime_imported": round(rss_imports, 1),
                   "after_runs": round(rss_end, 1)},
        "tiles_found": len(rec.tiles),
        "scored": "error" not in result,
        "score_error": result["error"].get("code") if "error" in result else None,
        "machine_reference": machine_reference_ms(),
        "service": service,
    }))


def _service_latency(data: bytes, context: dict, runs: int) -> dict:
    """The web service's own path on the same photo, after the pipeline's runs: upload bytes ->
    header checks -> recognition -> the table scored -> the annotated photo (api.service's
    score_photo, what POST /api/v1/photo/score runs in its worker thread; no HTTP)."""
    from api.service import score_photo

    times = []
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        out = score_photo(data, context, annotate=True)
        times.append(1000 * (time.perf_counter() - t0))
    times = times[1:]
    return {"path": "api.service.score_photo(annotate=True)", "median_ms": round(statistics.median(times), 1),
            "min_ms": round(min(times), 1), "max_ms": round(max(times), 1),
            "tiles_found": len(out["recognition"]["tiles"]), "scored": "error" not in out["result"],
            "peak_rss_mb": round(_rss_mb()[1], 1)}


def _synthetic_markdown(s: dict | None) -> list[str]:
    """The markdown lines of one synthetic-table run (none when it was not run)."""
    if not s:
        return []
    w, h = s.get("size", (1280, 960))
    on = ", with dice, scoring sticks, coins or chips where no tile lies" if s.get("props") else ""
    on += ", with a tile rack behind each seat's row" if s.get("racks") else ""
    lines = [f"## Synthetic tables ({s['tables']} at {w}x{h}, art style {s['art']}, seed {s['seed']}{on})", "",
             "| codes from | seat and group right | scores exactly right |", "| --- | ---: | ---: |"]
    for mode, label in (("geometry", "ground truth (detection + layout only)"), ("full", "the classifier")):
        v = s[mode]
        lines.append(f"| {label} | {v} | |" if isinstance(v, str) else
                     f"| {label} | {v['seat_and_group_right']:.1%} | {v['scores_exactly_right']:.1%} |")
    lines.append("")
    full = s.get("full")
    if isinstance(full, dict) and "tiles_read_right" in full:
        t = full["tiles_read_right"]
        lines += [f"Tiles are {s['median_tile_width_px']} pixels wide (median) in these {w}x{h} photos. "
                  f"The classifier read {t['other_face_up']:.1%} of the {t['face_up_tiles'] - t['flowers_seasons_tiles']} "
                  f"face-up suit and honour tiles right and {t['flowers_seasons']:.1%} of the "
                  f"{t['flowers_seasons_tiles']} flowers and seasons.", "",
                  "Tables with wrong scores, by what was misread: "
                  + (", ".join(f"{k}: {v}" for k, v in full["wrong_scores_by_misread"].items()) or "none") + ".", ""]
        c = full.get("checking")
        if c:
            text = (f"Checking on the web page: it marks {c['marked'] / s['tables']:.1f} face-up tiles a table "
                    f"for checking (read with under {c['marked_below']:.0%} confidence)")
            if c["misread"]:
                text += (f", {c['misread_marked']} of the {c['misread']} misread tiles among them; the picker's "
                         f"likeliest readings hold the right kind of {c['misread_offered']} of the {c['misread']}.")
            else:
                text += "; no tile was misread."
            if c["wrong_tables"]:
                text += (f" Tables with wrong scores whose every misread tile is marked: "
                         f"{c['wrong_tables_all_marked']} of {c['wrong_tables']}.")
            lines += [text, ""]
    nt = full.get("finds_that_are_no_tile") if isinstance(full, dict) else None
    if nt:
        props = (f" ({nt['on_props']} on the {nt['props']} props)" if s.get("props") else
                 f" ({nt['on_props']} on the {nt['props']} racks)" if s.get("racks") else "")
        lines += [f"Finds that are no tile (none of the true tiles at IoU 0.5): {nt['finds']}{props}, "
                  f"in {nt['tables']} of the {s['tables']} tables.", ""]
    return lines


def to_markdown(r: dict) -> str:
    lines = ["# Recognition benchmark", "", f"Command: `{r['command']}`", ""] + versions_line(r.get("libraries"))
    h = r.get("hust_riichi")
    if h:
        lines += [f"## hust-riichi test photos ({h['photos']} photos, split {h['split']})", "",
                  "| system | true tiles | recall (IoU 0.5) | per-tile accuracy | false detections | median ms/photo |",
                  "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for key in ("mjscore", "mahjong_detector"):
            s = h[key]
            if isinstance(s, str):
                lines.append(f"| {key} | {s} | | | | |")
                continue
            acc = "n/a" if s["per_tile_accuracy"] is None else f"{s['per_tile_accuracy']:.2%}"
            lines.append(f"| {key} | {s['true_tiles']} | {s['recall_iou50']:.2%} | {acc} | "
                         f"{s['false_detections']} | {s['median_ms_per_photo']} |")
        if isinstance(h["mjscore"], dict) and h["mjscore"].get("classifier"):
            lines += ["", f"mjscore classifier: {h['mjscore']['classifier']}"]
        fixed = {k: h[k].get("per_tile_accuracy_labels_corrected") for k in ("mjscore", "mahjong_detector")
                 if isinstance(h.get(k), dict)}
        if h.get("labels_corrected") is not None and any(v is not None for v in fixed.values()):
            lines += ["", f"Per-tile accuracy with the set's wrong labels put right "
                          f"(datasets/splits/hust-riichi-errata.json: {h['labels_corrected']} of these tiles): "
                          + ", ".join(f"{k} {v:.2%}" for k, v in fixed.items() if v is not None) + "."]
        lines.append("")
    v = r.get("hust_riichi_views")
    if v and v.get("views"):
        lines += [f"## hust-riichi test photos, the camera turned or tilted, or other light ({v['photos']} photos each; "
                  "labels put right)", "",
                  "| view | true tiles | recall (IoU 0.5) | per-tile accuracy | false detections | photos not perfect |",
                  "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for s in v["views"]:
            lines.append(f"| {s['view']} | {s['true_tiles']} | {s['recall_iou50']:.2%} | {s['per_tile_accuracy']:.2%} | "
                         f"{s['false_detections']} | {len(s['photos_not_perfect'])} |")
        lines.append("")
    elif v:
        lines += ["## hust-riichi test photos, the camera turned or tilted, or other light", "", str(v.get("error")), ""]
    for key in ("synthetic", "synthetic_phone"):
        lines += _synthetic_markdown(r.get(key))
    for s in r.get("synthetic_sizes", []):
        lines += _synthetic_markdown(s)
    lines += _synthetic_markdown(r.get("synthetic_props"))
    lines += _synthetic_markdown(r.get("synthetic_racks"))
    for s in r.get("synthetic_dark", []):
        lines += _synthetic_markdown(s)
    lat = r.get("latency")
    if lat:
        lines += ["## Latency (12-megapixel photo, decode to scores, fresh runtime-only process)", ""]
        if "median_ms" in lat:
            st = lat["stages_median_ms"]
            lines += ["| median ms | min ms | peak RSS MB | " + " | ".join(f"{k} ms" for k in st) + " |",
                      "| ---: | ---: | ---: | " + " | ".join("---:" for _ in st) + " |",
                      f"| {lat['median_ms']} | {lat['min_ms']} | {lat['pipeline_peak_rss_mb']} | "
                      + " | ".join(str(v) for v in st.values()) + " |", "",
                      "Stages: decode = the JPEG header and a 1/4-size preview decode; the full "
                      "decode runs in a background thread during the first look, and any wait for "
                      "it counts in detect.", "",
                      f"Tiles found on the photo: {lat.get('tiles_found', '?')} of {lat.get('true_tiles', '?')}; "
                      f"scored: {'yes' if lat.get('scored') else 'no'}.", "",
                      "Targets (issue 4): median at most 150 ms, at most 400 MB resident.", ""]
            svc = lat.get("service")
            if svc:
                lines += [f"The web service's path on the same photo (`{svc['path']}`: header checks, "
                          f"recognition, scores and the annotated photo, no HTTP): median {svc['median_ms']} ms "
                          f"(min {svc['min_ms']}), peak RSS {svc['peak_rss_mb']} MB.", ""]
            ref = lat.get("machine_reference")
            if ref:
                two = ref.get("blur_12mp_two_threads_ms")
                on_two = (f" ({two} ms on two threads: the second core made it {ref['blur_12mp_ms'] / two:.2f} "
                          "times as fast)") if two else ""
                lines += [f"This machine's speed (`machine_reference_ms`, fixed work, best of 5): a "
                          f"pure-Python loop {ref['python_loop_ms']} ms, a 12 MP Gaussian blur on one "
                          f"thread {ref['blur_12mp_ms']} ms{on_two}. Latencies from machines whose "
                          "references differ are not comparable.", ""]
        lines += ["```", json.dumps(lat, indent=1), "```", ""]
    return "\n".join(lines)


def _size(text: str) -> tuple[int, int]:
    """'1600x1200' -> (1600, 1200)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"--sizes: {text!r} is not WIDTHxHEIGHT") from None
    if not (64 <= w <= 8000 and 64 <= h <= 8000):
        raise SystemExit(f"--sizes: {text!r} is outside 64-8000 pixels a side")
    return w, h


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path, nargs="?", help="the hust-riichi folder (images/, labels/)")
    ap.add_argument("--split", type=Path, default=REPO / "datasets" / "splits" / "hust-riichi.json",
                    help="the train/validation/test split; the test photos are measured")
    ap.add_argument("--synthetic", type=int, default=200, help="synthetic tables (0: skip)")
    ap.add_argument("--phone", type=int, default=200,
                    help="more synthetic tables at 4000x3000, a phone's 12 megapixels (0: skip)")
    ap.add_argument("--per-size", type=int, default=0,
                    help="more synthetic tables at each of --sizes (0: skip)")
    ap.add_argument("--sizes", default="1600x1200,2000x1500,2560x1920",
                    help="photo sizes (WxH, comma-separated) for --per-size")
    ap.add_argument("--props", type=int, default=0,
                    help=f"more synthetic tables at {PROPS_SIZE[0]}x{PROPS_SIZE[1]} with dice, scoring sticks, "
                         "coins or chips where no tile lies (0: skip)")
    ap.add_argument("--dark", type=int, default=0,
                    help=f"more synthetic tables at {DARK_SIZE[0]}x{DARK_SIZE[1]} in tile sets with dark faces: "
                         f"this many of procedural dark sets and as many of {DARK_ART} (0: skip)")
    ap.add_argument("--racks", type=int, default=0,
                    help=f"more synthetic tables at {RACKS_SIZE[0]}x{RACKS_SIZE[1]} with a tile rack behind each "
                         "seat's row (0: skip)")
    ap.add_argument("--views", type=int, choices=(0, 1), default=1,
                    help="1: the hust-riichi test photos again in each camera view of VIEWS and under each of "
                         "datasets.views.LIGHTS (about two minutes); 0: skip")
    ap.add_argument("--seed", type=int, default=2024, help="seed of the synthetic tables")
    ap.add_argument("--art", default=None, help="art style for the synthetic tables (default: held out)")
    ap.add_argument("--latency", type=int, default=7, help="latency runs (0: skip)")
    ap.add_argument("--latency-only", action="store_true",
                    help="only the latency part (results in recognition_latency.json/.md)")
    ap.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results", help="folder for the results files")
    args = ap.parse_args(argv)
    if args.dataset is None and not args.latency_only:
        ap.error("the hust-riichi folder is needed (or --latency-only)")
    synthetic = not args.latency_only and bool(args.synthetic or args.phone or args.per_size or args.props
                                               or args.dark or args.racks)
    if synthetic:
        # the tables are drawn in the art asked for, or the held-out style: refused before any
        # work when it is not installed, never quietly drawn procedural under its name
        from datasets.tile_art import HELD_OUT_STYLES, ArtMissingError, require_style

        try:
            for style in [args.art or HELD_OUT_STYLES[0]] + ([DARK_ART] if args.dark else []):
                require_style(style)
        except (ArtMissingError, KeyError) as exc:
            ap.error(str(exc.args[0] if exc.args else exc))
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    result = {"command": "python benchmarks/recognition.py " + " ".join(argv or sys.argv[1:]),
              "libraries": library_versions()}
    if args.latency_only:
        result["latency"] = bench_latency(args.latency or 7)
        stem = "recognition_latency"
    else:
        stem = "recognition"
        if args.dataset.exists():
            result["hust_riichi"] = bench_hust(args.dataset, args.split)
            if args.views:
                result["hust_riichi_views"] = bench_hust_views(args.dataset, args.split)
        else:
            result["hust_riichi"] = None
            print(f"{args.dataset} not found: the hust-riichi part is skipped", file=sys.stderr)
        if synthetic:
            from datasets.tile_art import HELD_OUT_STYLES

            art = args.art or HELD_OUT_STYLES[0]
            if args.synthetic:
                result["synthetic"] = bench_synthetic(args.synthetic, args.seed, art)
            if args.phone:
                result["synthetic_phone"] = bench_synthetic(args.phone, args.seed, art, PHONE_SIZE)
            if args.per_size:
                result["synthetic_sizes"] = [bench_synthetic(args.per_size, args.seed, art, _size(s))
                                             for s in args.sizes.split(",")]
            if args.props:
                result["synthetic_props"] = bench_synthetic(args.props, args.seed, art, PROPS_SIZE, props=True)
            if args.racks:
                result["synthetic_racks"] = bench_synthetic(args.racks, args.seed, art, RACKS_SIZE, racks=True)
            if args.dark:
                result["synthetic_dark"] = [bench_synthetic(args.dark, args.seed, None, DARK_SIZE, dark=True),
                                            bench_synthetic(args.dark, args.seed, DARK_ART, DARK_SIZE)]
        if args.latency:
            result["latency"] = bench_latency(args.latency)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=1) + "\n")
    md = to_markdown(result)
    (args.out / f"{stem}.md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

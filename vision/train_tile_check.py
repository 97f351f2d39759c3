"""Train the tile check (vision/tile_check.onnx).  Needs the `train` extra (torch).

    python -m vision.train_tile_check     # the committed model: 33.6 minutes on 2 cores
                                          # (tables 18.4, training 13.1, threshold 2.1)

Data: the pipeline's own finds (recognize with the check off) on synthetic tables in the training
art styles, most with dice, scoring sticks, coins or chips on them (datasets/props.py), plus the
props' own outlines; and the finds on the hust-riichi TRAINING photos (the committed split; its
photos of a keyboard, a mouse and an empty tray give real things that are no tile).  A find is a
tile when it overlaps a true tile at IoU >= 0.5, and is no tile when it overlaps none at 0.1;
finds in between (half a tile, two tiles as one) are left out.  `--racks SHARE` draws tile racks
(datasets/racks.py) on that share of the tables and adds pieces of them as no tile (with
`--no-rack-pieces`, only the pipeline's own finds on the racks); the committed model was trained
without racks (trials: docs/history.md, thirty-fourth and forty-eighth sessions).  Each table gives all its finds
that are no tile, TILES_PER_TABLE of its tiles' and every flower's, face-down and sideways tile's
(a flower lying apart is as lone as a die: without them the check learnt to drop lone tiles).

The threshold is chosen on finds NOT trained on (other tables, the hust-riichi VALIDATION
photos): of GRID, the highest at which none of the true tiles' finds is dropped, then one step
lower, for tile sets the check has not seen.  It is kept in the model's sidecar with what each
threshold of the grid would drop.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.quad import TileQuad, box_iou
from vision.tile_check import MODEL_PATH, WINDOW, window

#: sizes of the synthetic table photos (tiles about 24 to 48 pixels wide)
SIZES = ((1280, 960), (1600, 1200), (2000, 1500), (2560, 1920))
#: share of the synthetic tables with props on them
PROPS_SHARE = 0.7
#: true tiles' finds each table gives the training set (all its finds that are no tile go in)
TILES_PER_TABLE = 24
#: thresholds tried on the check finds, highest first
GRID = (0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005)


def label_finds(found: list[TileQuad], truth_boxes: list) -> list[int | None]:
    """1: the find is a true tile (IoU >= 0.5), 0: it overlaps none (IoU < 0.1), None: between."""
    return [1 if best >= 0.5 else 0 if best < 0.1 else None for best, _ in _best_matches(found, truth_boxes)]


def _best_matches(found: list[TileQuad], truth_boxes: list) -> list[tuple[float, int]]:
    """(IoU, index) of the true tile each find overlaps most."""
    out = []
    for q in found:
        ious = [box_iou(q.box, b) for b in truth_boxes]
        k = int(np.argmax(ious)) if ious else -1
        out.append((ious[k] if ious else 0.0, k))
    return out


def _prop_quads(props: list[dict], rng) -> list[TileQuad]:
    """Tile-sized outlines on the props: a die's or coin's rotated rectangle, a piece of a stick."""
    out = []
    for p in props:
        pts = np.array(p["quad"], np.float32)
        (cx, cy), (w, h), a = cv2.minAreaRect(pts)
        if p["kind"] == "rack":  # a tile-sized piece of the rack, at one of its ends or anywhere
            long_axis, short_axis = max(w, h), min(w, h)
            piece = short_axis * rng.uniform(0.6, 1.0)
            end = rng.random() < 0.6
            t = (rng.choice([-0.5, 0.5]) * (long_axis - piece) if end
                 else rng.uniform(-0.5, 0.5) * (long_axis - piece))
            ang = np.radians(a if w >= h else a + 90)
            cx, cy = cx + t * np.cos(ang), cy + t * np.sin(ang)
            w, h = (piece, short_axis * rng.uniform(0.6, 1.0)) if w >= h else (short_axis * rng.uniform(0.6, 1.0), piece)
        elif p["kind"] == "stick":  # a stretch of the stick about a tile long, anywhere along it
            long_axis = max(w, h)
            piece = long_axis * rng.uniform(0.15, 0.35)
            t = rng.uniform(-0.5, 0.5) * (long_axis - piece)
            ang = np.radians(a if w >= h else a + 90)
            cx, cy = cx + t * np.cos(ang), cy + t * np.sin(ang)
            w, h = (piece, min(w, h) * rng.uniform(1.0, 2.5)) if w >= h else (min(w, h) * rng.uniform(1.0, 2.5), piece)
        box = cv2.boxPoints(((cx, cy), (w, h), a)).astype(np.float32)
        out.append(TileQuad(box))
    return out


def _table_samples(job: tuple) -> tuple[list[np.ndarray], list[int], list[bool]]:
    """Windows and labels from synthetic tables [start, stop) of one seed (one worker); with
    `every_tile`, all the true tiles' finds, else TILES_PER_TABLE of them; `dark`: the share of
    the procedural tables drawn with a dark-faced set, `racks`: the share of tables with tile
    racks behind the rows (each drawn only when above 0, so the tables without are as they were),
    `rack_pieces`: whether tile-sized pieces of the racks go in as no tile besides the pipeline's
    own finds on them."""
    from datasets.synth_table import _pick_art, make_table
    from vision.recognize import recognize

    seed, start, stop, every_tile, sizes, dark, racks, rack_pieces = job
    xs, ys, is_prop = [], [], []
    for i in range(start, stop):
        rng = np.random.default_rng([seed, i])
        size = sizes[int(rng.integers(len(sizes)))]
        art = _pick_art(rng, "mixed")
        props = bool(rng.random() < PROPS_SHARE)
        dark_faces = art is None and dark > 0 and bool(rng.random() < dark)
        t = make_table(rng, size, art=art, props=props, dark=dark_faces,
                       racks=racks > 0 and bool(rng.random() < racks))
        rec = recognize(t.image, tile_check=False)
        found = [x.quad for x in rec.tiles]
        matches = _best_matches(found, [x["box"] for x in t.tiles])
        labels = label_finds(found, [x["box"] for x in t.tiles])
        tiles = [k for k, v in enumerate(labels) if v == 1]
        keep = set(tiles if every_tile else rng.permutation(tiles)[:TILES_PER_TABLE].tolist())
        keep |= {k for k, v in enumerate(labels) if v == 0}
        # the tiles that lie alone or look least like the rest always go in: a flower lying apart
        # is as lone as a die, a back as plain as a chip
        keep |= {k for k in tiles if _rare(t.tiles[matches[k][1]])}
        for k in sorted(keep):
            xs.append(window(t.image, found[k]))
            ys.append(labels[k])
            is_prop.append(False)
        for q in _prop_quads(t.props if rack_pieces else [p for p in t.props if p["kind"] != "rack"], rng):
            xs.append(window(t.image, q))
            ys.append(0)
            is_prop.append(True)
    return xs, ys, is_prop


def _rare(tile: dict) -> bool:
    return tile["group"] == "bonus" or tile["face_down"] or tile["sideways"]


def synthetic_samples(seed: int, count: int, workers: int = 2, every_tile: bool = False, sizes=SIZES,
                      dark: float = 0.0, racks: float = 0.0, rack_pieces: bool = True):
    chunks = [(seed, a, min(count, a + 10), every_tile, tuple(sizes), dark, racks, rack_pieces)
              for a in range(0, count, 10)]
    xs, ys, props = [], [], []
    # spawned, not forked: a fork after torch or onnxruntime started their threads can hang
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for x, y, p in pool.map(_table_samples, chunks):
            xs += x
            ys += y
            props += p
    return xs, ys, props


def photo_samples(part: str, every_tile: bool = False):
    """Windows and labels of the pipeline's finds on hust-riichi photos of one split part (all
    the finds that are no tile; all the tiles' with `every_tile`, else TILES_PER_TABLE a photo)."""
    from datasets import hust_riichi
    from vision.recognize import recognize

    root = hust_riichi.default_dir()
    if not root.exists():
        print("hust-riichi not found next to the repo: synthetic tables only")
        return [], []
    photos = hust_riichi.load_photos(root)
    xs, ys = [], []
    for name in hust_riichi.read_split()[part]:
        img = cv2.imread(str(root / "images" / name))
        rec = recognize(img, tile_check=False)
        found = [x.quad for x in rec.tiles]
        labels = label_finds(found, [b for b, _ in photos[name].tiles])
        rng = np.random.default_rng(len(xs))
        tiles = [k for k, v in enumerate(labels) if v == 1]
        keep = set(tiles if every_tile else rng.permutation(tiles)[:TILES_PER_TABLE].tolist())
        for k, (q, v) in enumerate(zip(found, labels)):
            if v == 0 or k in keep:
                xs.append(window(img, q))
                ys.append(v)
    return xs, ys


def build_net():
    import torch.nn as nn

    layers, c = [], 4
    for w in (16, 32, 48, 64):
        layers += [nn.Conv2d(c, w, 3, 2, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True),
                   nn.Conv2d(w, w, 3, 1, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True)]
        c = w

    class CheckNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(*layers)
            self.head = nn.Linear(c, 1)

        def forward(self, x):
            return self.head(self.features(x).mean(dim=(2, 3)))

    return CheckNet()


def _augment(x: np.ndarray, rng) -> np.ndarray:
    """Any quarter turn and mirror (a find may be any way up), light and contrast."""
    x = np.rot90(x, int(rng.integers(4)), axes=(1, 2))
    if rng.random() < 0.5:
        x = x[:, :, ::-1]
    x = x.copy()
    x[:3] = x[:3] * rng.uniform(0.7, 1.3) + rng.uniform(-0.5, 0.5) + rng.normal(0, 0.05, (3, 1, 1))
    return x


def train(xs: np.ndarray, ys: np.ndarray, epochs: int, seed: int, threads: int):
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    n, batch = len(xs), 64
    steps = epochs * ((n + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    # the few finds that are no tile weigh as much in all as the tiles
    pos_weight = torch.tensor(float((ys == 0).sum()) / max(1.0, float((ys == 1).sum())))
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(n)
        total = 0.0
        for a in range(0, n, batch):
            idx = order[a:a + batch]
            x = torch.from_numpy(np.stack([_augment(xs[i], rng) for i in idx]))
            y = torch.from_numpy(ys[idx].astype(np.float32))[:, None]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(x), y, pos_weight=pos_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}/{epochs} loss {total / n:.4f}", flush=True)
    net.eval()
    return net


def _probabilities(net, xs: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        out = [torch.sigmoid(net(torch.from_numpy(xs[a:a + 256]))).numpy().reshape(-1)
               for a in range(0, len(xs), 256)]
    return np.concatenate(out) if out else np.zeros(0)


def tradeoff(p: np.ndarray, y: np.ndarray) -> list[dict]:
    """What each threshold of GRID drops: true tiles' finds and finds that are no tile."""
    return [{"threshold": t, "tiles_dropped": int((p[y == 1] < t).sum()),
             "no_tile_dropped": int((p[y == 0] < t).sum())} for t in GRID]


def choose_threshold(rows: list[dict]) -> float:
    """One step of GRID below the highest threshold that drops no true tile."""
    safe = [k for k, r in enumerate(rows) if r["tiles_dropped"] == 0]
    if not safe:
        return GRID[-1]
    return GRID[min(len(GRID) - 1, safe[0] + 1)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=1800, help="synthetic tables to train on")
    ap.add_argument("--check-tables", type=int, default=200, help="other synthetic tables, to choose the threshold")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--sizes", default=",".join(f"{w}x{h}" for w, h in SIZES),
                    help="synthetic photo sizes, WxH comma-separated")
    ap.add_argument("--dark-faces", type=float, default=0.0, metavar="SHARE",
                    help="this share of the procedural training tables get a set with dark faces and light marks "
                         "(datasets.render_tiles.dark_style); the threshold's check tables are drawn as without it")
    ap.add_argument("--racks", type=float, default=0.0, metavar="SHARE",
                    help="this share of the training tables and of the threshold's check tables get tile "
                         "racks behind the rows (datasets.racks)")
    ap.add_argument("--no-rack-pieces", action="store_true",
                    help="with --racks: learn the racks from the pipeline's own finds on them alone, without "
                         "tile-sized pieces of each rack added as no tile")
    ap.add_argument("--no-photos", action="store_true", help="synthetic tables only (no hust-riichi photos)")
    args = ap.parse_args(argv)
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    import torch

    t0 = time.time()
    if not 0.0 <= args.dark_faces <= 1.0:
        ap.error(f"--dark-faces must be a share from 0 to 1, not {args.dark_faces}")
    if not 0.0 <= args.racks <= 1.0:
        ap.error(f"--racks must be a share from 0 to 1, not {args.racks}")
    xs, ys, _ = synthetic_samples(1000 + args.seed, args.tables, args.threads, sizes=sizes, dark=args.dark_faces,
                                  racks=args.racks, rack_pieces=not args.no_rack_pieces)
    px, py = ([], []) if args.no_photos else photo_samples("train")
    xs, ys = np.stack(xs + px), np.array(ys + py)
    print(f"training set: {int((ys == 1).sum())} tiles, {int((ys == 0).sum())} finds that are no tile "
          f"({len(px)} of them hust-riichi finds), {time.time() - t0:.0f} s", flush=True)
    t1 = time.time()
    net = train(xs, ys, args.epochs, args.seed, args.threads)
    t2 = time.time()
    cx, cy, cprop = synthetic_samples(2000 + args.seed, args.check_tables, args.threads, every_tile=True, sizes=sizes,
                                      racks=args.racks, rack_pieces=not args.no_rack_pieces)
    vx, vy = ([], []) if args.no_photos else photo_samples("validation", every_tile=True)
    cx, cy, cprop = np.stack(cx), np.array(cy), np.array(cprop)
    pc = _probabilities(net, cx)
    pv, vy = (_probabilities(net, np.stack(vx)) if vx else np.zeros(0)), np.array(vy, int)
    finds = ~cprop  # the pipeline's own finds (not the props' outlines)
    rows = tradeoff(np.concatenate([pc[finds], pv]), np.concatenate([cy[finds], vy]))
    threshold = choose_threshold(rows)
    measured = {
        "check_finds": {"tiles": int((cy[finds] == 1).sum()) + int((vy == 1).sum()),
                        "no_tile": int((cy[finds] == 0).sum()) + int((vy == 0).sum()),
                        "by_threshold": rows},
        "check_tables": {"tables": args.check_tables, "tiles": int((cy[finds] == 1).sum()),
                         "no_tile": int((cy[finds] == 0).sum()),
                         "tiles_dropped": int((pc[finds & (cy == 1)] < threshold).sum()),
                         "no_tile_dropped": int((pc[finds & (cy == 0)] < threshold).sum()),
                         "prop_outlines": int(cprop.sum()),
                         "prop_outlines_dropped": int((pc[cprop] < threshold).sum())},
        "hust_riichi_validation": {"tiles": int((vy == 1).sum()), "no_tile": int((vy == 0).sum()),
                                   "tiles_dropped": int((pv[vy == 1] < threshold).sum()),
                                   "no_tile_dropped": int((pv[vy == 0] < threshold).sum())},
    }
    torch.save(net.state_dict(), args.out.with_suffix(".pt"))
    # the TorchScript exporter, as models.train.export_onnx says why
    torch.onnx.export(net, torch.zeros(1, 4, WINDOW, WINDOW), str(args.out), input_names=["window"],
                      output_names=["logit"], dynamic_axes={"window": {0: "n"}, "logit": {0: "n"}},
                      opset_version=17, dynamo=False)
    meta = {"threshold": threshold, "window": WINDOW, "sizes": args.sizes,
            "trained_on": {"synthetic_tables": args.tables, "tiles": int((ys == 1).sum()),
                           "no_tile": int((ys == 0).sum()), "hust_riichi_train_finds": len(px)},
            "epochs": args.epochs, "seed": args.seed, "dark_faces": args.dark_faces, "racks": args.racks,
            "rack_pieces": bool(args.racks) and not args.no_rack_pieces,
            "measured": measured,
            "minutes": {"data": round((t1 - t0) / 60, 1), "training": round((t2 - t1) / 60, 1),
                        "check": round((time.time() - t2) / 60, 1)}}
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    print(json.dumps(meta, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

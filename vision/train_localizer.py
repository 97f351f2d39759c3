"""Train the class-agnostic tile localiser (vision/tile_localizer.onnx).  Needs the `train` extra.

Data: synthetic tables (datasets/synth_table.py; a folder of table_*.jpg + .json made with
`python -m datasets.synth_table DIR`) and the *training* photos of hust-riichi (the committed
split datasets/splits/hust-riichi.json; test photos are never read).  The target of each tile is
its face shrunk to CORE about its centre, drawn at half resolution.

    python -m datasets.synth_table T1 --count 300 --art mixed --seed 201 --width 1024 --height 768
    python -m datasets.synth_table T2 --count 300 --art mixed --seed 202 --width 1280 --height 960
    python -m datasets.synth_table CHECK --count 30 --art mixed --seed 9 --width 1280 --height 960
    python -m vision.train_localizer --synth T1 T2 --check CHECK --steps 24000 --batch 12

(the committed model: 1.6 minutes of tables, 32.4 minutes of training on 2 cores, 2026-11-24).

Its procedural tile sets all have pale faces (of the packaged ones only KMahjongg's red `jade`,
a ninth of them, has dark faces), and it finds about half the tiles of such a set; the pipeline
finds such a set in the photo's negative instead (vision.detect.find_tiles).
`synth_table --dark-faces SHARE` adds such sets (`datasets.render_tiles.dark_style`), and
`--text-share` lays light lettering over that share of the crops as no tile (a net that knows
dark faces took a poster's white captions for tiles).
Two nets trained so on 2026-11-28 (`--dark-faces` 0.3 on all three folders; 0.2 on T1 and T2
with `--text-share 0.15`) found the dark sets but lost tiles of pale sets on checked cloths and
in steep rows that this one finds, and so did this net fine-tuned with them (`--init-onnx`), so
none was adopted (docs/history.md).

After training, the blob margin (how far the net's blobs spill past the true tile cores) is
measured on the hust-riichi VALIDATION photos and the `--check` tables, so that the tiles found
come out their true size (the layout reads gaps between tiles against tile widths), and kept in
the model's sidecar.  `--calibrate-only` re-measures it for an existing model.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.localizer import CORE, MEAN, MODEL_PATH, STD, TILE_W_RANGE

CROP = 160
#: share of training crops with light lettering laid over them, by default (`--text-share`): a
#: poster's white captions on dark paintings read as light marks on dark faces to a net that
#: learnt dark tile sets; the committed net learnt none and was trained without
TEXT_SHARE = 0.0
_FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _load_hust(names_key: str = "train") -> list[tuple[np.ndarray, list[np.ndarray]]]:
    from datasets import hust_riichi

    root = hust_riichi.default_dir()
    if not root.exists():
        print("hust-riichi not found next to the repo; training on synthetic tables only")
        return []
    split = hust_riichi.read_split()
    photos = hust_riichi.load_photos(root)
    out = []
    for name in split[names_key]:
        img = cv2.imread(str(root / "images" / name))
        quads = [np.array([[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]], np.float32)
                 for b, _ in photos[name].tiles]
        out.append((img, quads))
    return out


def _load_synth(folder: Path | None) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    if folder is None:
        return []
    out = []
    for js in sorted(Path(folder).glob("*.json")):
        truth = json.loads(js.read_text())
        img = cv2.imread(str(js.with_suffix(".jpg")))
        if img is None:
            continue
        out.append((img, [np.array(t["quad"], np.float32) for t in truth["tiles"]]))
    return out


def _tile_width(quads: list[np.ndarray]) -> float:
    if not quads:
        return 40.0
    sides = [sorted([np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])])[0] for q in quads]
    return float(np.median(sides))


def _sample(rng, img, quads, tile_w, text_share: float = TEXT_SHARE):
    """One augmented training crop and its half-resolution core target."""
    target_w = rng.uniform(TILE_W_RANGE[0], TILE_W_RANGE[1])
    s = target_w / tile_w
    ang = rng.uniform(0, 360) if rng.random() < 0.7 else rng.choice([0, 90, 180, 270]) + rng.normal(0, 5)
    h, w = img.shape[:2]
    if quads and rng.random() < 0.8:
        q = quads[rng.integers(len(quads))]
        c = q.mean(axis=0) + rng.normal(0, 1.5, 2) * tile_w
    else:
        c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    m = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), float(ang), float(s))
    m[0, 2] += CROP / 2 - c[0]
    m[1, 2] += CROP / 2 - c[1]
    border = tuple(int(v) for v in rng.integers(0, 255, 3))
    x = cv2.warpAffine(img, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=border)
    y = np.zeros((CROP // 2, CROP // 2), np.uint8)
    for q in quads:
        cq = q.mean(axis=0)
        core = cq + CORE * (q - cq)
        t = cv2.transform(core.reshape(-1, 1, 2), m).reshape(-1, 2) / 2
        cv2.fillConvexPoly(y, np.round(t * 4).astype(np.int32), 1, lineType=cv2.LINE_8, shift=2)
    if text_share > 0 and rng.random() < text_share:  # no draw when off: the committed net's sequence
        _lettering(rng, x, y)
    # photometric jitter
    x = x.astype(np.float32)
    x = x * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    x = x * rng.uniform(0.85, 1.15, 3)[None, None, :]
    if rng.random() < 0.5:
        yy, xx = np.mgrid[0:CROP, 0:CROP].astype(np.float32) / CROP
        a = rng.uniform(0, 2 * np.pi)
        x = x * (1 + rng.uniform(0, 0.5) * ((xx - 0.5) * np.cos(a) + (yy - 0.5) * np.sin(a)))[..., None]
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.5))
    x = x + rng.normal(0, rng.uniform(0, 6), x.shape)
    x = np.clip(x, 0, 255)
    x = (x[:, :, ::-1] / 255.0 - MEAN) / STD
    return x.transpose(2, 0, 1).astype(np.float32), y.astype(np.float32)


def _lettering(rng, x: np.ndarray, y: np.ndarray) -> None:
    """Lay a line of light letters over the crop `x`, on a dark band or straight on the picture
    with a dark outline, and clear the target `y` (half size) over all it covers: no tile there."""
    text = "".join(rng.choice(list(_LETTERS), int(rng.integers(3, 12))))
    font = int(rng.choice(_FONTS))
    scale = float(rng.uniform(0.4, 1.6))
    thick = int(rng.integers(1, 5))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    ox = int(rng.integers(-tw // 2, CROP - tw // 2))
    oy = int(rng.integers(th, CROP + th // 2))
    light = tuple(int(v) for v in rng.integers(190, 256, 3))
    covered = np.zeros(x.shape[:2], np.uint8)
    if rng.random() < 0.5:
        dark = tuple(int(v) for v in rng.integers(0, 70, 3))
        for img, colour in ((x, dark), (covered, 255)):
            cv2.rectangle(img, (ox - 4, oy - th - 4), (ox + tw + 4, oy + base + 4), colour, -1)
    else:
        for img, colour in ((x, (20, 20, 20)), (covered, 255)):
            cv2.putText(img, text, (ox, oy), font, scale, colour, thick + 3, cv2.LINE_AA)
    cv2.putText(x, text, (ox, oy), font, scale, light, thick, cv2.LINE_AA)
    cv2.putText(covered, text, (ox, oy), font, scale, 255, thick, cv2.LINE_AA)
    bx, by, bw, bh = cv2.boundingRect(covered)
    y[by // 2:(by + bh + 1) // 2 + 1, bx // 2:(bx + bw + 1) // 2 + 1] = 0


def measure_margin(model_path: Path, samples: list[tuple[np.ndarray, list[np.ndarray]]]) -> dict:
    """The blob margin (heatmap pixels) that makes found tiles their true size: each image is
    scaled so its tiles are TILE_W_TARGET wide (as vision.detect looks at them), tiles are found
    with no margin, and each found tile's sides are compared with the true tile it overlaps."""
    from vision.localizer import TILE_W_TARGET, TileLocalizer, quads_from_heatmap

    loc = TileLocalizer(model_path)
    excess = []
    for img, quads in samples:
        if not quads:
            continue
        s = TILE_W_TARGET / _tile_width(quads)
        small = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        prob = loc.heatmap(small)
        found = quads_from_heatmap(prob, scale=small.shape[1] / prob.shape[1], margin=0.0)
        centres = np.array([q.mean(axis=0) * s for q in quads])
        for f in found:
            d = np.linalg.norm(centres - f.center, axis=1)
            j = int(np.argmin(d))
            q = quads[j] * s
            sides = sorted([np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])])
            if d[j] > 0.3 * sides[0]:
                continue
            got = sorted([f.width, f.height])
            # found side = (raw core + 1 - 2 margin) / CORE * 2 (heatmap at half size)
            excess += [(got[k] - sides[k]) * CORE / 4 for k in (0, 1)]
    if not excess:
        return {"blob_margin": 0.0, "tiles": 0}
    return {"blob_margin": round(float(np.median(excess)), 2), "tiles": len(excess) // 2}


def build_net():
    """A small U-Net: encoder to 1/16 (dilated at the bottom to see a whole tile and its
    neighbours), decoder back to 1/2.  Each decoder stage first mixes the upsampled and skip
    features with a 1x1 convolution, then one 3x3: the decoder runs at the larger sizes, where
    a 3x3 over the concatenated channels cost most of the time (about 1.4 G multiply-adds for a
    640x480 look before, 0.45 G now)."""
    import torch
    from torch import nn

    def block(cin, cout, stride=1, dil=1, k=3):
        return nn.Sequential(nn.Conv2d(cin, cout, k, stride, padding=dil * (k // 2), dilation=dil, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    c1, c2, c3, c4 = 8, 16, 32, 48

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.e1 = nn.Sequential(block(3, c1, 2), block(c1, c1))            # /2
            self.e2 = nn.Sequential(block(c1, c2, 2), block(c2, c2))           # /4
            self.e3 = nn.Sequential(block(c2, c3, 2), block(c3, c3))           # /8
            self.e4 = nn.Sequential(block(c3, c4, 2), block(c4, c4, dil=2), block(c4, c4, dil=4))  # /16
            self.d3 = nn.Sequential(block(c4 + c3, c3, k=1), block(c3, c3))
            self.d2 = nn.Sequential(block(c3 + c2, c2, k=1), block(c2, c2))
            self.d1 = nn.Sequential(block(c2 + c1, c1, k=1), block(c1, c1))
            self.head = nn.Conv2d(c1, 1, 1)

        def forward(self, x):
            e1 = self.e1(x)
            e2 = self.e2(e1)
            e3 = self.e3(e2)
            e4 = self.e4(e3)
            up = lambda t: nn.functional.interpolate(t, scale_factor=2.0, mode="nearest")
            d3 = self.d3(torch.cat([up(e4), e3], 1))
            d2 = self.d2(torch.cat([up(d3), e2], 1))
            d1 = self.d1(torch.cat([up(d2), e1], 1))
            return self.head(d1)

    return Net()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--synth", type=Path, nargs="*", default=[], help="folder(s) of synthetic tables")
    ap.add_argument("--minutes", type=float, default=12.0)
    ap.add_argument("--steps", type=int, default=0,
                    help="train for this many steps, the learning rate following the step count (the committed model: 24000); 0: train for --minutes")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--resume", type=Path, default=None, help="a .pt checkpoint to continue from")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from an exported net (its batch norms folded into the convolutions; "
                         "they are then kept at their statistics, learning scale and shift only)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    ap.add_argument("--synth-share", type=float, default=0.5,
                    help="share of training crops taken from synthetic tables")
    ap.add_argument("--text-share", type=float, default=TEXT_SHARE,
                    help="share of training crops with light lettering laid over them as no tile "
                         f"(default {TEXT_SHARE})")
    ap.add_argument("--no-photos", action="store_true",
                    help="train and calibrate on synthetic tables only (no hust-riichi photos)")
    ap.add_argument("--check", type=Path, nargs="*", default=[],
                    help="folder(s) of synthetic tables NOT trained on, to measure the blob margin")
    ap.add_argument("--calibrate-only", action="store_true",
                    help="only re-measure the blob margin of the model at --out and update its sidecar")
    args = ap.parse_args(argv)
    import torch

    if args.calibrate_only:
        return _calibrate(args.out, args.check, photos=not args.no_photos)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    hust = [] if args.no_photos else _load_hust("train")
    synth = [s for folder in args.synth for s in _load_synth(folder)]
    if not hust and not synth:
        raise SystemExit("no training data: give --synth DIR (python -m datasets.synth_table DIR)")
    data = [(img, q, _tile_width(q) if q else _tile_width([])) for img, q in hust + synth]
    share = args.synth_share if hust and synth else (1.0 if synth else 0.0)
    weights = np.array([(1 - share) / len(hust) if i < len(hust) else share / len(synth)
                        for i in range(len(data))])
    weights /= weights.sum()
    print(f"training on {len(hust)} hust-riichi photos and {len(synth)} synthetic tables")
    net = build_net()
    if args.resume:
        net.load_state_dict(torch.load(args.resume))
    frozen_norms = _load_onnx_weights(net, args.init_onnx) if args.init_onnx else []
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    t0, step = time.time(), 0
    budget = args.minutes * 60
    while (step < args.steps) if args.steps else (time.time() - t0 < budget):
        frac = step / args.steps if args.steps else (time.time() - t0) / budget
        for g in opt.param_groups:
            g["lr"] = args.lr * (0.5 * (1 + np.cos(np.pi * frac))) + 1e-5
        xs, ys = [], []
        for _ in range(args.batch):
            img, quads, tw = data[rng.choice(len(data), p=weights)]
            x, y = _sample(rng, img, quads, tw, args.text_share)
            xs.append(x)
            ys.append(y)
        x = torch.from_numpy(np.stack(xs))
        y = torch.from_numpy(np.stack(ys))[:, None]
        for bn in frozen_norms:
            bn.eval()
        logits = net(x)
        bce = torch.nn.functional.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.tensor(2.0))
        p = torch.sigmoid(logits)
        dice = 1 - (2 * (p * y).sum() + 1) / (p.sum() + y.sum() + 1)
        loss = bce + dice
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f} bce {bce.item():.4f} dice {dice.item():.4f} "
                  f"{time.time() - t0:.0f}s", flush=True)
    net.eval()
    torch.save(net.state_dict(), args.out.with_suffix(".pt"))
    dummy = torch.zeros(1, 3, 320, 320)
    # the TorchScript exporter, as models.train.export_onnx says why
    torch.onnx.export(net, dummy, str(args.out), input_names=["image"], output_names=["core"],
                      dynamic_axes={"image": {2: "h", 3: "w"}, "core": {2: "h2", 3: "w2"}},
                      opset_version=17, dynamo=False)
    args.out.with_suffix(".json").write_text(json.dumps({
        "core": CORE, "blob_margin": 0.0, "mean": MEAN.tolist(), "std": STD.tolist(), "stride": 16, "output_scale": 0.5,
        "trained_on": {"hust_riichi_train_photos": len(hust), "synthetic_tables": len(synth)},
        "steps": step, "batch": args.batch}, indent=1) + "\n")
    print(f"wrote {args.out} after {step} steps")
    return _calibrate(args.out, args.check, photos=not args.no_photos)


def _load_onnx_weights(net, path: Path) -> list:
    """Load an exported net's weights into `net`: the export folds each batch norm into the
    convolution before it, so each norm is set to pass its input through (mean 0, variance 1 less
    its epsilon, scale 1) with the folded bias as its shift, and returned to be kept in eval mode."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    modules = [m for m in net.modules() if isinstance(m, (torch.nn.Conv2d, torch.nn.BatchNorm2d))]
    pairs = []
    for i, m in enumerate(modules):
        if isinstance(m, torch.nn.Conv2d):
            bn = modules[i + 1] if i + 1 < len(modules) and isinstance(modules[i + 1], torch.nn.BatchNorm2d) else None
            pairs.append((m, bn))
    if len(pairs) != len(convs):
        raise SystemExit(f"{path} has {len(convs)} convolutions, the net {len(pairs)}: not this net's export")
    frozen = []
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs):
            w = torch.from_numpy(init[node.input[1]].copy())
            b = torch.from_numpy(init[node.input[2]].copy()) if len(node.input) > 2 else torch.zeros(w.shape[0])
            if conv.weight.shape != w.shape:
                raise SystemExit(f"{path}: a convolution of shape {tuple(w.shape)} where the net has "
                                 f"{tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            if bn is None:
                conv.bias.copy_(b)
                continue
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(b)
            frozen.append(bn)
    return frozen


def _calibrate(model: Path, check: list[Path], photos: bool = True) -> int:
    """Measure the blob margin on validation photos and check tables; write it to the sidecar."""
    validation = _load_hust("validation") if photos else []
    samples = validation + [s for folder in check for s in _load_synth(folder)]
    res = measure_margin(model, samples)
    meta_path = model.with_suffix(".json")
    meta = json.loads(meta_path.read_text())
    meta["blob_margin"] = res["blob_margin"]
    meta["blob_margin_measured_on"] = (f"{res['tiles']} tiles of {len(validation)} hust-riichi validation photos and "
                                       f"{len(samples) - len(validation)} check tables")
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    print(f"blob margin {res['blob_margin']} heatmap pixels (from {res['tiles']} tiles)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Train the tile classifier on the datasets/ arrays and export it to ONNX + JSON sidecar.

    python -m models.train --data datasets/cache/tiles --epochs 4 --out models/tile_classifier.onnx
    python -m models.train --task bonus --data datasets/cache/tiles --epochs 6 --out models/bonus_classifier.onnx

`--task tiles` (default) trains the main 43-class model on train.npz/val.npz; `--task bonus`
trains the bonus reader: flowers and seasons only (f1-f8), on larger crops (bonus_train.npz /
bonus_val.npz), which the runtime consults when the main model calls a tile a bonus tile.

Torch on the CPU, two threads at most (the machine is shared).  The best epoch by validation
accuracy (hust-riichi validation photos when present, else synthetic) is exported.  Training-
time augmentation here is only what is cheap on arrays: a 180-degree turn, a small shift and
brightness/contrast; the heavy photo augmentations were applied when the data was built.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.net import TileNet
from models.preprocess import (BONUS_INPUT_H, BONUS_INPUT_W, INPUT_C, INPUT_H, INPUT_W, LANDSCAPE_RATIO,
                               MEAN, STD)
from scoring.tiles import BONUS, CLASSES

#: what each task trains: its classes, input (height, width), data files and default output
TASKS = {
    "tiles": {"classes": CLASSES, "input_hw": (INPUT_H, INPUT_W), "train": "train.npz", "val": "val.npz",
              "out": "tile_classifier.onnx", "head": "flatten"},
    "bonus": {"classes": BONUS, "input_hw": (BONUS_INPUT_H, BONUS_INPUT_W), "train": "bonus_train.npz",
              "val": "bonus_val.npz", "out": "bonus_classifier.onnx", "head": "maxpool"},
}

_MEAN = torch.tensor(MEAN).view(1, 3, 1, 1)
_STD = torch.tensor(STD).view(1, 3, 1, 1)


def to_tensor(x_uint8: np.ndarray) -> torch.Tensor:
    """N x H x W x 3 uint8 -> normalised N x 3 x H x W float (same maths as preprocess.normalise)."""
    x = torch.from_numpy(x_uint8).permute(0, 3, 1, 2).float().div_(255.0)
    return (x - _MEAN) / _STD


def augment_batch(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    n = x.shape[0]
    flip = torch.rand(n, generator=gen) < 0.5
    x[flip] = torch.flip(x[flip], dims=(2, 3))  # 180-degree turn
    dx, dy = (torch.randint(-2, 3, (2,), generator=gen)).tolist()
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    gain = 1 + 0.15 * torch.randn(n, 1, 1, 1, generator=gen)
    bias = 0.15 * torch.randn(n, 1, 1, 1, generator=gen)
    return x * gain + bias


def evaluate(model: nn.Module, x: np.ndarray, y: np.ndarray, batch: int = 512) -> float:
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(y), batch):
            logits = model(to_tensor(x[i:i + batch]))
            correct += int((logits.argmax(1).numpy() == y[i:i + batch]).sum())
    return correct / max(1, len(y))


def export_onnx(model: nn.Module, path: Path, meta: dict, classes=CLASSES,
                input_hw: tuple[int, int] = (INPUT_H, INPUT_W)) -> None:
    """Write the ONNX graph (dynamic batch) and its JSON sidecar."""
    model.eval()
    dummy = torch.zeros(1, INPUT_C, *input_hw)
    path.parent.mkdir(parents=True, exist_ok=True)
    # the TorchScript exporter (dynamo=False): torch warns it is deprecated, but the torch.export one
    # needs onnxscript, one more training dependency, and its graphs were never checked against the
    # committed models' (the parity tests check this one's)
    torch.onnx.export(model, dummy, str(path), input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}}, opset_version=17,
                      dynamo=False)
    sidecar = {
        "classes": list(classes),
        "input": {"width": input_hw[1], "height": input_hw[0], "channels": INPUT_C, "colour": "BGR",
                  "layout": "NCHW", "scale": 1 / 255.0, "mean": list(MEAN), "std": list(STD),
                  "landscape_ratio": LANDSCAPE_RATIO},
        "output": "logits (softmax gives probabilities)",
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        **meta,
    }
    path.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n")


def _load(path: Path, classes) -> tuple[np.ndarray, np.ndarray]:
    """x and y from a data file, y renumbered from scoring.tiles.CLASSES to `classes`."""
    d = np.load(path)
    index = np.full(len(CLASSES), -1, np.int64)
    for i, c in enumerate(classes):
        index[CLASSES.index(c)] = i
    y = index[d["y"].astype(np.int64)]
    if (y < 0).any():
        raise ValueError(f"{path} holds classes outside {list(classes)}")
    return d["x"], y


def train(data: Path, out: Path, epochs: int, batch: int = 128, lr: float = 3e-3, width: int = 32,
          threads: int = 2, seed: int = 0, limit: int | None = None, log=print, task: str = "tiles",
          head: str | None = None) -> dict:
    spec = TASKS[task]
    head = head or spec["head"]
    classes, input_hw = spec["classes"], spec["input_hw"]
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    x_tr, y_tr = _load(data / spec["train"], classes)
    if limit:
        keep = np.random.default_rng(seed).permutation(len(y_tr))[:limit]
        x_tr, y_tr = x_tr[keep], y_tr[keep]
    val_path = data / spec["val"]
    if val_path.exists():
        x_va, y_va = _load(val_path, classes)
    else:
        x_va, y_va = x_tr[:256], y_tr[:256]
    model = TileNet(len(classes), width, input_hw, head)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    steps = epochs * ((len(y_tr) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(1, steps), pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    rng = np.random.default_rng(seed)
    best, best_state, history, meta = -1.0, None, [], {}
    t0 = time.time()
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(y_tr))
        total = 0.0
        for i in range(0, len(order), batch):
            idx = np.sort(order[i:i + batch])
            xb = augment_batch(to_tensor(x_tr[idx]), gen)
            yb = torch.from_numpy(y_tr[idx])
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        acc = evaluate(model, x_va, y_va)
        history.append({"epoch": epoch + 1, "loss": total / len(order), "val_acc": acc})
        log(f"epoch {epoch + 1}/{epochs} loss {total / len(order):.4f} val_acc {acc:.4f} "
            f"({time.time() - t0:.0f}s)")
        if acc >= best:
            best, best_state = acc, {k: v.clone() for k, v in model.state_dict().items()}
            # export the best so far at once: a long run stopped early still leaves a model
            meta = {"trained": {"epochs": epochs, "best_epoch": epoch + 1, "samples": int(len(y_tr)), "seed": seed,
                                "best_val_acc": best, "width": width, "head": head, "seconds": round(time.time() - t0),
                                "history": history}}
            export_onnx(model, out, meta, classes, input_hw)
            model.train()
    model.load_state_dict(best_state)
    meta["trained"]["history"] = history
    meta["trained"]["seconds"] = round(time.time() - t0)
    export_onnx(model, out, meta, classes, input_hw)
    torch.save(model.state_dict(), out.with_suffix(".pt"))  # for fine-tuning; not committed
    return {"model": model, "best_val_acc": best, "history": history}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parent.parent / "datasets" / "cache" / "tiles",
                    help="folder of the .npz sets that datasets.build_tile_dataset writes")
    ap.add_argument("--task", choices=sorted(TASKS), default="tiles",
                    help="tiles: the main 43-class model; bonus: the flower/season reader")
    ap.add_argument("--out", type=Path, default=None, help="default models/<task's model>.onnx")
    ap.add_argument("--epochs", type=int, default=4, help="passes over the training set")
    ap.add_argument("--batch", type=int, default=256, help="samples per step")
    ap.add_argument("--lr", type=float, default=4e-3, help="peak learning rate")
    ap.add_argument("--head", choices=("flatten", "maxpool"), default=None,
                    help="flatten: a linear layer over the whole feature map (where things are on the tile; "
                         "the main model's default); maxpool: the same layers' features of the strongest region, "
                         "wherever it lies (the bonus reader's default)")
    ap.add_argument("--width", type=int, default=32,
                    help="network width: channels of its early layers (the first has half, the last four times as many)")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    ap.add_argument("--limit", type=int, default=None, help="train on at most this many samples")
    ap.add_argument("--seed", type=int, default=0, help="weights' initialisation and batch order")
    args = ap.parse_args(argv)
    args.out = args.out or Path(__file__).resolve().parent / TASKS[args.task]["out"]
    res = train(args.data, args.out, args.epochs, args.batch, args.lr, args.width, args.threads, limit=args.limit,
                task=args.task, seed=args.seed, head=args.head)
    print(f"best validation accuracy {res['best_val_acc']:.4f}; wrote {args.out} and {args.out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

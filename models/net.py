"""The tile classifier network (torch; training only: the runtime loads the ONNX export).

A small VGG-style CNN: six 3x3 conv + batch-norm + ReLU layers (two strided, two max-pools)
on a 64x48 colour crop, then a linear layer over the 4x3x128 feature map (keeping where things
are on the tile, which tells 2 dots from 3 and 一 from 二).  About 0.2 M parameters and ~6 M
multiply-adds per crop: cheap to train on two CPU cores and far under a millisecond per crop
to run.

The flower/season reader uses the same layers with another head (`head="maxpool"`): the
strongest response of each feature over the whole map, wherever on the face it lies, then the
linear layer.  What names a bonus tile is a small character that sets write in any corner; a
head that does not know where things are cannot learn where our renders put it (held-out
style: flowers and seasons read right 72.7% -> 80.3% beside the other head, same data, same
machine; docs/classifier-experiments.md).
"""

from __future__ import annotations

import torch
from torch import nn

from models.preprocess import INPUT_C, INPUT_H, INPUT_W


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TileNet(nn.Module):
    def __init__(self, n_classes: int, width: int = 32, input_hw: tuple[int, int] = (INPUT_H, INPUT_W),
                 head: str = "flatten"):
        super().__init__()
        w = width
        self.features = nn.Sequential(
            _conv(INPUT_C, w // 2, stride=2),  # 32 x 24
            _conv(w // 2, w, stride=2),  # 16 x 12
            _conv(w, w),
            nn.MaxPool2d(2),  # 8 x 6
            _conv(w, 2 * w),
            _conv(2 * w, 2 * w),
            nn.MaxPool2d(2),  # 4 x 3
            _conv(2 * w, 4 * w),
        )
        if head == "maxpool":
            # what is found anywhere: each feature's strongest response over the face.  A bonus
            # tile's character may sit anywhere; the painting around it should not say which tile
            self.head = nn.Sequential(nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * w, n_classes))
        elif head == "flatten":
            feat = 4 * w * (input_hw[0] // 16) * (input_hw[1] // 16)
            self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(feat, n_classes))
        else:
            raise ValueError(f"unknown head {head!r}: flatten or maxpool")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))

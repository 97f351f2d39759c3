"""Tiny end-to-end training run: render a few hundred tiles, train one epoch, export, compare
torch with onnxruntime, and check training and runtime preprocess identically."""

from __future__ import annotations

import json

import numpy as np
import pytest

import torch  # the `train` extra, which make test installs: without it this fails, never skips

from datasets.build_tile_dataset import synth_samples  # noqa: E402
from models.classifier import BONUS_READ_SHARE, READER_LOOK_AGAIN, READER_LOOKS, TileClassifier  # noqa: E402
from models.preprocess import INPUT_H, INPUT_W, looked_again, normalise, preprocess_batch  # noqa: E402
from models.train import to_tensor, train  # noqa: E402
from scoring.tiles import CLASSES  # noqa: E402


def test_training_and_runtime_normalise_identically():
    x = np.random.default_rng(0).integers(0, 256, (5, INPUT_H, INPUT_W, 3), dtype=np.uint8)
    assert np.allclose(to_tensor(x).numpy(), normalise(x), atol=1e-6)


def test_tiny_train_export_and_onnx_parity(tmp_path):
    x, y, _ = synth_samples(seed=3, n=300)
    assert x.shape == (300, INPUT_H, INPUT_W, 3) and set(y.tolist()) == set(range(len(CLASSES)))
    np.savez(tmp_path / "train.npz", x=x, y=y)
    out = tmp_path / "tiny.onnx"
    res = train(tmp_path, out, epochs=1, batch=64, width=8, threads=2, log=lambda *_: None)
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["classes"] == list(CLASSES)
    clf = TileClassifier(out, second_look=0.0)
    batch = preprocess_batch(list(x[:32]))
    model = res["model"].eval()
    with torch.no_grad():
        expected = model(torch.from_numpy(batch)).numpy()
    got = clf.logits(batch)
    assert got.shape == (32, len(CLASSES))
    assert np.allclose(expected, got, atol=1e-4), float(np.abs(expected - got).max())
    preds = clf.classify(list(x[:32]))
    assert [p.code for p in preds] == [CLASSES[i] for i in expected.argmax(1)]


def test_tiny_bonus_reader_train_export_and_two_stage(tmp_path):
    """The flower/season reader trains on its own larger crops, exports with torch/ONNX parity,
    and the runtime hands it exactly the crops the main model calls bonus tiles."""
    from datasets.build_tile_dataset import BONUS_SIZE
    from models.preprocess import BONUS_INPUT_H, BONUS_INPUT_W
    from scoring.tiles import BONUS

    x, y, _ = synth_samples(seed=5, n=96, codes=BONUS, size=BONUS_SIZE)
    assert x.shape == (96, BONUS_INPUT_H, BONUS_INPUT_W, 3)
    np.savez(tmp_path / "bonus_train.npz", x=x, y=y)
    out = tmp_path / "bonus.onnx"
    res = train(tmp_path, out, epochs=1, batch=32, width=8, threads=2, log=lambda *_: None, task="bonus")
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["classes"] == list(BONUS)
    assert (meta["input"]["width"], meta["input"]["height"]) == (BONUS_INPUT_W, BONUS_INPUT_H)
    assert meta["trained"]["head"] == "maxpool"  # the reader's default: the mark, wherever it is
    batch = preprocess_batch(list(x[:16]), BONUS_SIZE)
    with torch.no_grad():
        expected = res["model"].eval()(torch.from_numpy(batch)).numpy()
    from models.classifier import _OnnxNet

    reader = _OnnxNet(out, BONUS_SIZE, 1)
    assert np.allclose(expected, reader.logits(batch), atol=1e-4)

    # two stages: a main model (the bundled one) plus this reader
    main = TileClassifier()
    alone = TileClassifier(bonus_model_path=False, second_look=0.0)
    both = TileClassifier(bonus_model_path=out, second_look=0.0)
    assert both.has_bonus_reader and not alone.has_bonus_reader
    # flowers and seasons, which the main model hands on, and suit and honour tiles, which it keeps
    plain, _, _ = synth_samples(seed=6, n=8, codes=["1m", "5p", "9s", "1z", "5z", "7z", "3m", "6p"], size=BONUS_SIZE)
    crops = list(x[:16]) + list(plain)
    p_main = alone.probabilities(crops)
    p_both = both.probabilities(crops)
    bonus_idx = [CLASSES.index(c) for c in BONUS]
    mass = p_main[:, bonus_idx].sum(axis=1)
    # the reader reads each crop both ways up and averages the two; one it is still unsure of
    # it also reads as READER_LOOKS cut it, each both ways up, and averages all the readings
    def both_ways(images):
        return reader.probabilities(list(images), 64) + reader.probabilities([c[::-1, ::-1] for c in images], 64)

    images = np.stack(crops)
    q = both_ways(images)
    unsure = q.max(axis=1) < 2 * READER_LOOK_AGAIN
    assert unsure.any(), "a reader trained one epoch should be unsure of some crops"
    looks = sum(both_ways(looked_again(images, *look)) for look in READER_LOOKS)
    q = np.where(unsure[:, None], (q + looks) / (2 + 2 * len(READER_LOOKS)), q / 2)
    reread = mass >= BONUS_READ_SHARE
    assert reread[:16].all() and not reread[16:].all(), mass  # both ways of the rule are checked
    for i in range(len(crops)):
        if reread[i]:  # the bonus mass is shared out by the reader
            assert np.allclose(p_both[i, bonus_idx], mass[i] * q[i], atol=1e-5)
        else:  # left alone
            assert np.allclose(p_both[i], p_main[i], atol=1e-6)
        assert abs(p_both[i].sum() - 1) < 1e-4
    assert main.classes == both.classes


def test_maxpool_head_answers_the_same_wherever_the_mark_lies():
    """The reader's head keeps the strongest region's features over the face: a mark moved on a
    plain face (by whole steps of the feature map, 16 pixels; on a face large enough that all the
    mark reaches stays inside it) scores the same.  The main model's head knows where it is."""
    from models.net import TileNet

    torch.manual_seed(0)
    net = TileNet(8, width=8, input_hw=(96, 72), head="maxpool").eval()
    face = torch.zeros(1, 3, 192, 144)
    face[0, :, 64:72, 48:56] = 1.0  # a small mark
    moved = torch.roll(face, shifts=(32, 32), dims=(2, 3))
    flat = TileNet(8, width=8, input_hw=(96, 72)).eval()
    left = torch.zeros(1, 3, 96, 72)
    left[0, :, 40:48, 28:36] = 1.0
    with torch.no_grad():
        assert torch.allclose(net(face), net(moved), atol=1e-5)
        assert not torch.allclose(flat(left), flat(torch.roll(left, shifts=(16, 16), dims=(2, 3))), atol=1e-5)


def test_second_look_averages_the_turned_reading_for_unsure_crops():
    """Crops under the `second_look` confidence are read again turned 180 degrees and averaged;
    sure ones are left as they are."""
    import cv2

    x, _, _ = synth_samples(seed=9, n=24)
    crops = list(x)
    plain = TileClassifier(second_look=0.0)
    always = TileClassifier(second_look=1.01)
    p0 = plain.probabilities(crops)
    turned = plain.probabilities([cv2.rotate(c, cv2.ROTATE_180) for c in crops])
    assert np.allclose(always.probabilities(crops), (p0 + turned) / 2, atol=1e-5)
    default = TileClassifier()
    pd = default.probabilities(crops)
    sure = p0.max(axis=1) >= default.second_look
    assert np.allclose(pd[sure], p0[sure], atol=1e-6)
    assert np.allclose(pd[~sure], ((p0 + turned) / 2)[~sure], atol=1e-5)


def test_ensemble_answers_with_the_members_mean_probability(tmp_path):
    """Two tiny runs with different seeds joined into one file: its softmax is the mean of
    theirs, the runtime loads it like any model, and bad members are refused by name."""
    from models.ensemble import join_members

    x, y, _ = synth_samples(seed=4, n=200)
    np.savez(tmp_path / "train.npz", x=x, y=y)
    members = []
    for seed in (0, 1):
        members.append(tmp_path / f"member{seed}.onnx")
        train(tmp_path, members[-1], epochs=1, batch=64, width=8, threads=2, seed=seed, log=lambda *_: None)
    out = tmp_path / "joined.onnx"
    sidecar = join_members(members, out)
    assert [m["trained"]["seed"] for m in sidecar["ensemble"]] == [0, 1]
    crops = list(x[:40])
    probs = [TileClassifier(m, second_look=0.0, bonus_model_path=False).probabilities(crops) for m in members]
    assert np.abs(probs[0] - probs[1]).max() > 1e-3  # the members really differ
    joined = TileClassifier(out, second_look=0.0, bonus_model_path=False).probabilities(crops)
    assert np.allclose(joined, (probs[0] + probs[1]) / 2, atol=1e-5)
    with pytest.raises(ValueError, match="at least two"):
        join_members(members[:1], tmp_path / "one.onnx")
    with pytest.raises(ValueError, match="not ensembles"):
        join_members([out, members[0]], tmp_path / "nested.onnx")

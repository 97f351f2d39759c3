"""Join networks trained alike into one ONNX file that answers with their average.

    python -m models.ensemble OUT.onnx MEMBER.onnx MEMBER.onnx [...]

Two runs of the same training differ most on tile art neither has seen (on the held-out style's
flowers and seasons, one run's accuracy per class swung from 55% to 20% and another's from 71%
to 94%), and the mean of their probabilities is right more often than either.  The members
become one graph: the same input feeds each, each output goes through a softmax, and the
joint output is the log of the mean probability, so the runtime's softmax gives that mean back
and `models.classifier` needs no change.  Needs the `onnx` package (the `train` extra); the
joined file runs on onnxruntime alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

#: added to the mean probability before the log, so no output is minus infinity
EPSILON = 1e-12


def join_members(members: list[Path], out: Path) -> dict:
    """Write `out` (+ its JSON sidecar) averaging `members`, which must share classes and input
    size; returns the sidecar."""
    import numpy as np
    import onnx
    from onnx import compose, helper, numpy_helper

    if len(members) < 2:
        raise ValueError("an ensemble needs at least two members")
    metas = [json.loads(Path(m).with_suffix(".json").read_text()) for m in members]
    for m, meta in zip(members[1:], metas[1:]):
        if meta["classes"] != metas[0]["classes"] or meta["input"] != metas[0]["input"]:
            raise ValueError(f"{m} has other classes or another input than {members[0]}")
    if any("ensemble" in meta for meta in metas):
        raise ValueError("members must be single networks, not ensembles")
    nodes, inits = [], []
    first = onnx.load(str(members[0]))
    in_name, out_name = first.graph.input[0].name, first.graph.output[0].name
    softmaxes = []
    for i, path in enumerate(members):
        model = compose.add_prefix(onnx.load(str(path)), prefix=f"m{i}_")
        g = model.graph
        nodes.append(helper.make_node("Identity", [in_name], [g.input[0].name], name=f"m{i}_feed"))
        nodes.extend(g.node)
        inits.extend(g.initializer)
        softmaxes.append(f"m{i}_probabilities")
        nodes.append(helper.make_node("Softmax", [g.output[0].name], [softmaxes[-1]], axis=1, name=f"m{i}_softmax"))
    inits.append(numpy_helper.from_array(np.array(1.0 / len(members), np.float32), "ensemble_weight"))
    inits.append(numpy_helper.from_array(np.array(EPSILON, np.float32), "ensemble_epsilon"))
    nodes += [helper.make_node("Sum", softmaxes, ["ensemble_sum"], name="ensemble_sum"),
              helper.make_node("Mul", ["ensemble_sum", "ensemble_weight"], ["ensemble_mean"], name="ensemble_mean"),
              helper.make_node("Add", ["ensemble_mean", "ensemble_epsilon"], ["ensemble_safe"], name="ensemble_safe"),
              helper.make_node("Log", ["ensemble_safe"], [out_name], name="ensemble_log")]
    graph = helper.make_graph(nodes, "tile_classifier_ensemble", [first.graph.input[0]], [first.graph.output[0]],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=list(first.opset_import), producer_name="mjscore.models.ensemble")
    model.ir_version = first.ir_version
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))
    sidecar = {key: metas[0][key] for key in ("classes", "input")}
    sidecar["output"] = "log of the members' mean probability (softmax gives that mean back)"
    sidecar["sha256"] = hashlib.sha256(out.read_bytes()).hexdigest()
    sidecar["ensemble"] = [{"file": Path(m).name, "sha256": meta.get("sha256"), "trained": meta.get("trained")}
                           for m, meta in zip(members, metas)]
    out.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n")
    return sidecar


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the joined model (its .json sidecar is written beside it)")
    ap.add_argument("members", type=Path, nargs="+", help="ONNX models with their .json sidecars")
    args = ap.parse_args(argv)
    try:
        sidecar = join_members(args.members, args.out)
    except (ValueError, OSError, KeyError) as exc:
        ap.exit(1, f"mjscore ensemble: {exc}\n")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB), the mean of {len(sidecar['ensemble'])} networks")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

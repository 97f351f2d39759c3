"""Loading a bundled vision model (the localiser, the tile check): one onnxruntime CPU session,
its input's name and its JSON sidecar."""

from __future__ import annotations

import json
from pathlib import Path


def load_model(path: Path, threads: int, missing: type[Exception], what: str):
    """(session, input name, sidecar dict) for the ONNX file at `path`; `missing(message)` is
    raised when the file is not there.  The session's `threads` worker threads sleep when idle:
    spinning ones steal the cores of a busy 2-core machine."""
    import onnxruntime as ort

    if not path.exists():
        raise missing(f"{what} model not found at {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    meta = path.with_suffix(".json")
    return session, session.get_inputs()[0].name, (json.loads(meta.read_text()) if meta.exists() else {})

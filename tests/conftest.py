"""Shared test fixtures: where the test data and the optional ../shared folder live."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = REPO.parent / "shared"

# Synthetic tiles and tables are drawn with the bundled font alone, so that every machine (with
# or without the Debian CJK fonts the training data uses) draws the same test pictures.
os.environ["MJSCORE_RENDER_FONTS"] = "bundled"


def load_benchmark(name: str):
    """benchmarks/<name>.py as a module (benchmarks/ is no package, and its scoring.py must not
    shadow the scoring package on the path)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", REPO / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shared_available() -> bool:
    return SHARED.is_dir()


@pytest.fixture(scope="session")
def vectors() -> list[dict]:
    return json.loads((DATA / "vectors.json").read_text())


def pytest_report_header(config):
    if shared_available():
        return f"../shared found: real-photo checks run against {SHARED}"
    return "../shared NOT found: real-photo checks run only on bundled data and say so"

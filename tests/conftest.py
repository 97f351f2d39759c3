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


def shared_path(relative: str, check: str) -> Path:
    """../shared/`relative` for a check of real data (`check`: what it checks, for the message).
    The check is skipped, saying so, only when ../shared is not beside the checkout (a user's
    fresh clone); with ../shared there (CI always has it) a missing file or folder fails the
    test instead of skipping it quietly."""
    path = SHARED / relative
    if not shared_available():
        pytest.skip(f"../shared is not beside this checkout ({SHARED} missing): {check} not run")
    if not path.exists():
        pytest.fail(f"../shared is here but {path} is missing: {check} cannot run")
    return path


@pytest.fixture(scope="session")
def vectors() -> list[dict]:
    return json.loads((DATA / "vectors.json").read_text())


def pytest_report_header(config):
    if shared_available():
        return f"../shared found: real-photo checks run against {SHARED}"
    return "../shared NOT found: real-photo checks run only on bundled data and say so"

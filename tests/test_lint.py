"""The code has none of pyflakes' faults (ruff's F rules, configured in pyproject.toml): a name
used but never defined is a crash waiting on its branch, and an unused import is a dependency
nobody needs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ["scoring", "vision", "models", "api", "datasets", "benchmarks", "docs", "tests"]


def test_no_pyflakes_faults():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                             *PACKAGES], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr

"""Build the opt-in mypyc-compiled rules engine into a folder and score cases with it in a subprocess.

Shared by benchmarks/scoring.py and tests/test_scoring_compiled.py.  The build is the documented
one (setup.py): ``MJSCORE_COMPILE=1 python -m pip install --no-build-isolation --no-deps --target
SITE SRC``, from a copy of the repository's build files and ``scoring/`` (so its ``build/`` folder
and mypy cache stay out of the repository); it needs mypy and setuptools>=77 (the ``test`` extra)
and a C compiler.  Every check fails loudly: a build that falls back to pure Python is an error here.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


class CompiledBuildError(RuntimeError):
    """The compiled build could not be made, or what runs is not compiled."""


def compiled_modules() -> list[str]:
    """The module names setup.py compiles (its COMPILED list, read without running setup.py)."""
    tree = ast.parse((REPO / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "COMPILED" for t in node.targets):
            paths = ast.literal_eval(node.value)
            return [p.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for p in paths]
    raise CompiledBuildError("setup.py has no COMPILED list")


def build(dest: Path) -> tuple[Path, float]:
    """Compile scoring into ``dest/site``; returns the folder to put first on sys.path and the
    wall-clock seconds the install took.  Raises CompiledBuildError with pip's output on failure."""
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        raise CompiledBuildError("no C compiler (cc/gcc) found: the mypyc build needs one "
                                 "(Debian: apt-get install gcc)")
    try:
        import mypyc  # noqa: F401
    except ImportError as err:
        raise CompiledBuildError("mypyc is not installed: pip install -e '.[test]' (mypy>=1.11)") from err
    src, site = dest / "src", dest / "site"
    shutil.rmtree(dest / "src", ignore_errors=True)
    shutil.rmtree(site, ignore_errors=True)
    src.mkdir(parents=True)
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, src / name)
    shutil.copytree(REPO / "scoring", src / "scoring",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    cmd = [sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-cache-dir",
           "--disable-pip-version-check", "-v", "--target", str(site), str(src)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, env={**os.environ, "MJSCORE_COMPILE": "1"}, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    output = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise CompiledBuildError(f"compiled build failed ({' '.join(cmd)}):\n{output[-4000:]}")
    missing = [m for m in compiled_modules()
               if not list((site / Path(*m.split("."))).parent.glob(Path(*m.split(".")).name + ".*.so"))
               and not list((site / Path(*m.split("."))).glob("__init__.*.so"))]
    if missing:
        reasons = [line.strip() for line in output.splitlines()
                   if "mjscore:" in line or "failed" in line.lower() or "error" in line.lower()]
        raise CompiledBuildError(f"the build fell back to pure Python ({', '.join(missing)} not compiled); "
                                 "setup.py and the C build said:\n" + "\n".join(reasons[-20:]))
    return site, seconds


# Run in the subprocess: the compiled scoring first on sys.path, every compiled module checked.
_CHECK = """
import importlib, sys
sys.path.insert(0, {site!r})
bad = []
for name in {modules!r}:
    module = importlib.import_module(name)
    if not module.__file__.endswith(".so"):
        bad.append(f"{{name}} from {{module.__file__}}")
if bad:
    sys.exit("not the compiled scoring: " + ", ".join(bad))
"""


def check_prelude(site: Path) -> str:
    """Python code that puts ``site`` first on sys.path and exits with an error unless every
    module of setup.py's COMPILED list is imported from a compiled ``.so`` file."""
    return _CHECK.format(site=str(site), modules=compiled_modules())


def score_compiled(site: Path, cases: list[dict]) -> list[dict]:
    """``score_table`` of each case by the compiled engine in ``site``, in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        path_in, path_out = Path(tmp) / "cases.json", Path(tmp) / "results.json"
        path_in.write_text(json.dumps(cases))
        code = check_prelude(site) + (
            "import json\nfrom scoring import score_table\n"
            f"cases = json.loads(open({str(path_in)!r}).read())\n"
            f"open({str(path_out)!r}, 'w').write(json.dumps([score_table(c) for c in cases]))\n")
        proc = subprocess.run([sys.executable, "-c", code], cwd=tmp, capture_output=True, text=True)
        if proc.returncode != 0:
            raise CompiledBuildError(f"the compiled engine did not run:\n{proc.stderr[-4000:]}")
        return json.loads(path_out.read_text())


def differences(pure: list[dict], compiled: list[dict], cases: list[dict]) -> list[str]:
    """Ids (or positions) of the cases whose JSON results differ, with both results."""
    if len(pure) != len(compiled):
        return [f"{len(pure)} pure results, {len(compiled)} compiled"]
    out = []
    for i, (a, b) in enumerate(zip(pure, compiled)):
        if json.dumps(a) != json.dumps(b):  # key order included
            out.append(f"{cases[i].get('id', i) if isinstance(cases[i], dict) else i}: pure {a} != compiled {b}")
    return out

"""The opt-in mypyc-compiled rules engine (setup.py, ``MJSCORE_COMPILE=1``) gives the pure engine's
results: built into a temporary folder the documented way (benchmarks/compiled.py, shared with
benchmarks/scoring.py), imported in a subprocess that checks every compiled module is a ``.so``, and
compared as JSON on every vector, a few hundred random cases and some invalid ones.  Not skipped:
without mypy (the ``test`` extra) or a C compiler it fails and says which is missing.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import scoring.case
from scoring import score_table

REPO = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):
    # By path: benchmarks/ is no package, and its scoring.py would shadow the scoring package.
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compiled = _load("mjscore_bench_compiled", REPO / "benchmarks" / "compiled.py")
bench = _load("mjscore_bench_scoring", REPO / "benchmarks" / "scoring.py")

BASE = {"id": "bad", "ruleset": "pung-chow", "seat_wind": "E", "round_wind": None,
        "hands": [{"seat": "E", "winner": True, "concealed": "123m456p789s111z22z", "melds": [],
                   "winning_tile": "2z", "win_by": "self-draw", "flags": []}]}


def invalid_cases() -> list:
    edits = [
        lambda c: c.update(ruleset="nope"),
        lambda c: c.update(seat_wind="Q"),
        lambda c: c.update(hands=[]),
        lambda c: c.update(params={"limit": -5}),
        lambda c: c["hands"][0].update(concealed="123m456p789s111z2z"),
        lambda c: c["hands"][0].update(concealed="1111m456p789s111z22z"),
        lambda c: c["hands"][0].update(concealed="12x"),
        lambda c: c["hands"][0].update(winning_tile="9m"),
    ]
    cases: list = []
    for i, edit in enumerate(edits):
        case = copy.deepcopy(BASE)
        case["id"] = f"bad-{i}"
        edit(case)
        cases.append(case)
    return cases + [[1, 2], "not a case"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    try:
        path, _ = compiled.build(tmp_path_factory.mktemp("compiled"))
    except compiled.CompiledBuildError as err:
        pytest.fail(str(err), pytrace=False)
    return path


def test_this_process_runs_pure_python():
    assert scoring.case.__file__.endswith(".py"), scoring.case.__file__


def test_the_subprocess_imports_compiled_modules(site):
    modules = compiled.compiled_modules()
    assert "scoring.case" in modules and "scoring.rules" in modules
    code = compiled.check_prelude(site) + (
        "import json\n"
        f"print(json.dumps([sys.modules[m].__file__ for m in {modules!r}]))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    files = json.loads(proc.stdout)
    assert all(f.endswith(".so") and f.startswith(str(site)) for f in files), files


def test_compiled_results_are_the_pure_results(site, vectors):
    singles, tables = bench.make_cases(150, seed=11)
    bad = invalid_cases()
    cases = vectors + singles + tables + bad
    pure = [score_table(case) for case in cases]
    assert sum("error" in r for r in pure[-len(bad):]) == len(bad)
    assert not any("error" in r for r in pure[len(vectors):-len(bad)])
    assert compiled.differences(pure, compiled.score_compiled(site, cases), cases) == []


def test_the_service_names_its_engine(site):
    """`make serve` puts the compiled scoring first on the server's path (uvicorn --app-dir) and
    runs everything else from the source: /healthz then says "compiled"; this process, pure, "python"."""
    from fastapi.testclient import TestClient

    from api.app import app

    assert TestClient(app).get("/healthz").json()["scoring_engine"] == "python"
    code = compiled.check_prelude(site) + (
        "from fastapi.testclient import TestClient\n"
        "import api.app, vision\n"
        "assert not api.app.__file__.startswith(sys.path[0]) and not vision.__file__.startswith(sys.path[0])\n"
        "print(TestClient(api.app.app).get('/healthz').json()['scoring_engine'])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=site)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "compiled"

"""Every worked vector in RULES.md passes through the Python API and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import DATA, REPO, shared_path
from scoring import score_table

VECTORS = json.loads((DATA / "vectors.json").read_text())


def _as_multiset(value):
    """Items, doubles and transfers are compared regardless of order."""
    if isinstance(value, list):
        return sorted(json.dumps(v) for v in value)
    if isinstance(value, dict):
        return {k: _as_multiset(v) for k, v in value.items()}
    return value


def check(result: dict, expected: dict) -> None:
    if "error" in expected:
        assert "error" in result, f"expected error {expected['error']}, got {result}"
        assert result["error"]["code"] == expected["error"]
        assert result["error"]["message"]
        return
    assert "error" not in result, result.get("error")
    for key in ("score", "scores", "payments", "limit_hand", "heads", "uncapped_score"):
        if key in expected:
            assert result.get(key) == expected[key], key
    for key in ("items", "doubles", "transfers"):
        if key in expected:
            assert _as_multiset(result.get(key)) == _as_multiset(expected[key]), key
    if "payments" in expected:
        assert sum(result["payments"].values()) == 0


@pytest.mark.parametrize("case", VECTORS, ids=[c["id"] for c in VECTORS])
def test_vector_python_api(case):
    check(score_table(case), case["expected"])


def test_all_vectors_through_cli_in_one_call(tmp_path):
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(VECTORS))
    out = subprocess.run(
        [sys.executable, "-m", "api.cli", "score", str(path)],
        cwd=REPO, capture_output=True, text=True,
    )
    assert out.returncode == 1  # the vectors hold tables to refuse: their errors stand in their places
    results = json.loads(out.stdout)
    assert len(results) == len(VECTORS)
    for case, result in zip(VECTORS, results):
        check(result, case["expected"])


def test_cli_single_invalid_case_exits_nonzero():
    bad = next(c for c in VECTORS if c["id"] == "invalid-two-winners")
    out = subprocess.run(
        [sys.executable, "-m", "api.cli", "score", "-"],
        cwd=REPO, input=json.dumps(bad), capture_output=True, text=True,
    )
    assert out.returncode == 1
    assert json.loads(out.stdout)["error"]["code"] == "multiple-winners"


def test_cli_explain_prints_a_score_sheet():
    case = next(c for c in VECTORS if c["id"] == "harr-I-layout1")
    out = subprocess.run(
        [sys.executable, "-m", "api.cli", "score", "--explain", "-"],
        cwd=REPO, input=json.dumps(case), capture_output=True, text=True, check=True,
    )
    assert "Filling the only place to win" in out.stdout
    assert "South pays West 208" in out.stdout
    assert "East +2880" in out.stdout


def test_cli_reports_bad_json_without_traceback():
    out = subprocess.run(
        [sys.executable, "-m", "api.cli", "score", "-"],
        cwd=REPO, input="{not json", capture_output=True, text=True,
    )
    assert out.returncode == 2
    assert json.loads(out.stdout)["error"]["code"] == "invalid-json"
    assert "Traceback" not in out.stderr


def test_cli_score_loads_neither_opencv_nor_onnxruntime():
    """Scoring from the command line starts in a fraction of a second: only the chosen
    subcommand's module is imported."""
    case = next(c for c in VECTORS if c["id"] == "harr-I-layout1")
    script = ("import json, sys\nfrom api.cli import main\nmain(['score', '-'])\n"
              "print(json.dumps(sorted(m for m in ('cv2', 'onnxruntime', 'vision') if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", script], cwd=REPO, input=json.dumps(case),
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_bundled_vectors_match_shared_copy():
    shared = shared_path("rules/vectors.json", "the bundled vectors compared with ../shared's")
    assert json.loads(shared.read_text()) == VECTORS


@pytest.mark.parametrize("text, words", [("[" * 100_000 + "]" * 100_000, "nested too deeply"),
                                         ('{"id": ' + "9" * 5000 + "}", "digits")])
def test_cli_refuses_json_it_cannot_read_without_a_traceback(text, words):
    out = subprocess.run([sys.executable, "-m", "api.cli", "score", "-"], cwd=REPO, input=text,
                         capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    error = json.loads(out.stdout)["error"]
    assert error["code"] == "invalid-json" and words in error["message"]


def test_the_case_format_documents_what_the_engine_does():
    """docs/case-format.md: its example table scores, its example result is the engine's, and
    every field it lists for a hand, a meld, params and a table is the engine's."""
    import re

    from scoring.case import CASE_FIELDS, FLAGS, HAND_FIELDS, PARAM_FIELDS

    doc = (REPO / "docs" / "case-format.md").read_text()
    table, result = (json.loads(b) for b in re.findall(r"```json\n(.*?)```", doc, re.S))
    assert "error" not in score_table(table)
    assert score_table(next(c for c in VECTORS if c["id"] == result["id"])) == result
    listed = set(re.findall(r"^\| `(\w+)`", doc, re.M)) | set(re.findall(r"^\| `\w[\w-]*` \| `(\w+)`", doc, re.M))
    assert (CASE_FIELDS - {"discarder", "discarder_exempt"}) | HAND_FIELDS | PARAM_FIELDS <= listed
    assert all(f"`{flag}`" in doc for flag in FLAGS)

"""The `mjscore` command itself: its version, a broken install named, a closed pipe, the
validate command's messages for what is not a set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import api.cli
from api.cli import main

REPO = Path(__file__).resolve().parents[1]


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"mjscore {api.cli.VERSION}"


def test_a_subcommand_that_cannot_start_says_why(monkeypatch, capsys):
    """A missing dependency is named, not hidden behind "unrecognized arguments"."""
    monkeypatch.setitem(api.cli.SUBCOMMANDS, "recognize", ("vision.no_such_module", "recognize"))
    with pytest.raises(SystemExit) as done:
        main(["recognize", "table.jpg"])
    err = capsys.readouterr().err
    assert done.value.code == 2
    assert "mjscore recognize cannot start: No module named 'vision.no_such_module'" in err


def test_the_commands_list_needs_no_subcommand_to_start(monkeypatch, capsys):
    """mjscore --help and --version work when a subcommand's module cannot be imported (OpenCV
    without libGL): only the subcommand asked for is imported."""
    monkeypatch.setitem(api.cli.SUBCOMMANDS, "recognize", ("vision.no_such_module", "recognize"))
    for words in (["--help"], ["--version"]):
        with pytest.raises(SystemExit) as done:
            main(words)
        assert done.value.code == 0
    assert "recognize" in capsys.readouterr().out
    assert main(["score", str(REPO / "tests" / "data" / "vectors.json")]) == 1  # another subcommand still runs


def test_every_subcommand_help_has_examples(capsys):
    for name in api.cli.SUBCOMMANDS:
        with pytest.raises(SystemExit):
            main([name, "--help"])
        out = capsys.readouterr().out
        assert f"mjscore {name} " in out.split("examples:\n", 1)[1]


def test_a_reader_that_goes_away_gets_no_traceback():
    """`mjscore score many.json | head` ends quietly when head has read enough."""
    vectors = [c for c in json.loads((REPO / "tests" / "data" / "vectors.json").read_text())
               if "error" not in c["expected"]]  # all scored: status 1 says the pipe closed
    proc = subprocess.Popen([sys.executable, "-m", "api.cli", "score", "-"], cwd=REPO, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(json.dumps(vectors * 40).encode())  # far more output than a pipe holds
    proc.stdin.close()
    assert proc.stdout.read(10) == b'[{"id": "h'
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 1
    assert "Traceback" not in err and "BrokenPipeError" not in err


@pytest.mark.parametrize("make, words", [
    (lambda tmp: tmp / "no-such-set", "no-such-set does not exist"),
    (lambda tmp: (tmp / "case.json").write_text("{}") and tmp / "case.json",
     "case.json is not a folder of labelled photos (nor a zip of one)"),
])
def test_validate_says_what_it_was_given_instead_of_a_set(tmp_path, capsys, make, words):
    assert main(["validate", str(make(tmp_path)), "--quiet"]) == 2
    assert words in capsys.readouterr().err


def test_the_version_is_the_packages():
    import tomllib

    from api import __version__

    assert tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"] == __version__


def test_score_refuses_more_json_than_the_service_takes(tmp_path, capsys):
    """/dev/zero or a huge file is refused after 20 MB, not read until memory runs out."""
    from scoring.cli import MAX_INPUT_BYTES

    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_INPUT_BYTES + 1))
    assert main(["score", str(big)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "unreadable-input" and "holds more than 20 MB" in error["message"]


def test_the_validation_summary_prints_no_terminal_control_characters():
    from api.validate_cli import _printable

    assert _printable("images/\x1b[31mred\u202eevil.png: skipped") == "images/\\x1b[31mred\\u202eevil.png: skipped"


def test_score_reads_a_file_saved_with_a_byte_order_mark(tmp_path, capsys):
    table = {"ruleset": "pung-chow", "seat_wind": "S", "hands": [{"seat": "S", "winner": True,
             "concealed": "123678s222p99m", "melds": [{"kind": "chow", "tiles": "345m"}], "winning_tile": "2p",
             "win_by": "discard"}]}
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(table).encode())
    assert main(["score", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 22


def _game(tmp_path, **changes):
    vectors = {c["id"]: c for c in json.loads((REPO / "tests" / "data" / "vectors.json").read_text())}

    def hand(case_id):
        case = json.loads(json.dumps(vectors[case_id]))
        case.pop("expected")
        case["round_wind"] = None
        return case

    game = {"ruleset": "pung-chow-limit", "players": ["Ann", "Bo", "Cy", "Di"],
            "hands": [hand("harr-II-ex07-east"), hand("harr-II-ex05"), hand("harr-II-wash-10")], **changes}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    return path


def test_game_prints_each_hand_the_totals_and_who_sits_where_next(tmp_path, capsys):
    """mjscore game: the same game as POST /api/v1/game (scoring.game.play_out), read as a scorer
    reads it: East kept the deal with his win, Bo's win passed it to him, the wash changed it not.
    The example under --help is this game."""
    from scoring.game import play_out

    path = _game(tmp_path)
    example = json.loads((REPO / "tests" / "data" / "example_game.json").read_text())
    assert play_out(**example) == play_out(**json.loads(path.read_text()))
    assert main(["game", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hand   1 (East round, East Ann): won by Ann; Ann +1800, Bo -600, Cy -600, Di -600"
    assert out[2].startswith("hand   3 (East round, East Bo): won by no one; Ann -70, Bo -70, Cy +210")
    assert out[3:8] == ["totals:", "  Ann  +1130", "  Bo   +530", "  Cy   -690", "  Di   -970"]
    assert out[8] == "next: hand 4, East round: East Bo, South Cy, West Di, North Ann"
    assert main(["game", "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert json.loads(capsys.readouterr().out) == play_out(data["ruleset"], data["players"], data["hands"])


@pytest.mark.parametrize("changes, words", [
    ({"players": ["Ann", "ann", "Cy", "Di"]}, "differ only in capitals"),
    ({"ruleset": "classical"}, "hand 1: this game plays classical, not pung-chow-limit"),
    ({"rules": "classical"}, "a game has no field 'rules'"),
])
def test_game_refuses_a_bad_game_naming_what_is_wrong(tmp_path, capsys, changes, words):
    """In words on stderr for a person (it was a JSON line on stdout, in the summary's place);
    as a JSON error with --json, where a program reads the output."""
    path = str(_game(tmp_path, **changes))
    assert main(["game", path]) == 1
    said = capsys.readouterr()
    assert said.out == "" and said.err.startswith("error: ") and words in said.err
    assert main(["game", "--json", path]) == 1
    assert words in json.loads(capsys.readouterr().out)["error"]["message"]


def test_the_score_sheet_and_the_game_summary_say_an_unreadable_file_on_stderr(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for argv in (["score", "--explain", str(bad)], ["game", str(bad)]):
        assert main(argv) == 2
        said = capsys.readouterr()
        assert said.out == "" and said.err.startswith("error: not valid JSON: ")
    assert main(["game", str(tmp_path / "x.json")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'x.json'} does not exist\n"


def test_score_names_a_file_it_cannot_read_in_words(tmp_path, capsys):
    """`[Errno 2] No such file or directory: 'x.json'` was Python's text: now the file, as given,
    and what is wrong with it."""
    assert main(["score", str(tmp_path / "x.json")]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["message"] == f"{tmp_path / 'x.json'} does not exist"
    assert main(["score", str(tmp_path)]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["message"] == f"{tmp_path} is a folder, not a JSON file"

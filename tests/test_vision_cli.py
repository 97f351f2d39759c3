"""`mjscore recognize` and `mjscore photo`: JSON lines, clear errors, no crashes."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from api.cli import main
from datasets.backgrounds import random_surface


def test_recognize_json_lines_and_errors(tmp_path, capsys):
    empty = tmp_path / "empty_table.png"
    cv2.imwrite(str(empty), random_surface(np.random.default_rng(2), 480, 640, "felt"))
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    status = main(["recognize", "--json", str(empty), str(broken)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1 and len(lines) == 2
    # each line names its image as given, whether it was read or not
    assert [line["image"] for line in lines] == [str(empty), str(broken)]
    assert lines[0]["tiles"] == []
    assert "no tiles found" in lines[0]["warnings"][0]
    assert lines[1]["error"]["code"] in ("corrupt", "unreadable")


def test_photo_without_tiles_says_so(tmp_path, capsys):
    empty = tmp_path / "nothing.jpg"
    cv2.imwrite(str(empty), random_surface(np.random.default_rng(3), 480, 640, "cloth"))
    status = main(["photo", str(empty), "--winner", "E", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 2 and out["error"]["code"] == "no-tiles"


def test_photo_refuses_settings_before_reading_the_photo(tmp_path, capsys):
    """A limit Part I has not is refused at once (the photo is not read: it is not even there);
    a flag that is none is refused by the options, which list the flags."""
    status = main(["photo", str(tmp_path / "not-read.jpg"), "--ruleset", "pung-chow", "--limit", "300", "--json"])
    assert status == 2
    assert "pung-chow (Harr's Part I) has no limit" in json.loads(capsys.readouterr().out)["error"]["message"]
    with pytest.raises(SystemExit) as refused:
        main(["photo", str(tmp_path / "not-read.jpg"), "--flag", "lucky"])
    assert refused.value.code == 2
    assert "invalid choice: 'lucky'" in capsys.readouterr().err
    # a flag the ruleset does not score (a standing hand in Part I scored as nothing)
    assert main(["photo", str(tmp_path / "not-read.jpg"), "--flag", "standing-hand"]) == 2
    assert capsys.readouterr().err == "error: the flag 'standing-hand' is no rule of pung-chow (it scores none)\n"


def test_text_mode_errors_go_to_stderr_naming_the_file_once(tmp_path, capsys):
    """Without --json a photo's error is a line on stderr (it went to stdout, into a file the
    summaries were sent to), naming the file once (`x.jpg: error: x.jpg does not exist`)."""
    empty = tmp_path / "empty_table.png"
    cv2.imwrite(str(empty), random_surface(np.random.default_rng(2), 480, 640, "felt"))
    missing = tmp_path / "missing.jpg"
    assert main(["recognize", str(empty), str(missing)]) == 1
    captured = capsys.readouterr()
    assert "empty_table.png: 0 tiles" in captured.out and "missing" not in captured.out
    assert captured.err.count(str(missing)) == 1 and captured.err.startswith("error: ")
    assert main(["photo", str(missing), "--winner", "E"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ") and str(missing) in captured.err


def test_photo_offers_only_the_flags_of_a_won_hand(tmp_path, capsys):
    """`--flag wash-tiles` was accepted and did nothing: a wash, which no one won, is scored by
    `mjscore score` with the case's kind, as the help says."""
    with pytest.raises(SystemExit) as refused:
        main(["photo", str(tmp_path / "not-read.jpg"), "--flag", "wash-tiles"])
    assert refused.value.code == 2 and "invalid choice: 'wash-tiles'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["photo", "--help"])
    assert "is scored by `mjscore score` with the case's kind" in " ".join(capsys.readouterr().out.split())


def test_photo_json_errors_before_the_photo_is_read_name_it(tmp_path, capsys):
    """`recognize --json` names the image on every line; `photo --json` now does too when the
    photo cannot be read or the settings are refused before it is."""
    missing = str(tmp_path / "missing.jpg")
    assert main(["photo", missing, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["image"] == missing
    assert main(["photo", missing, "--limit", "300", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["image"] == missing


@pytest.mark.parametrize("tile, words", [("55p", "is not one tile"), ("f1", "cannot be a flower or season"),
                                         ("back", "cannot be a face-down tile"), ("9x", "unknown suit letter")])
def test_photo_refuses_a_winning_tile_that_is_none_before_reading_the_photo(tmp_path, capsys, tile, words):
    """A winning tile that is no tile was refused only after the photo was read, and a flower
    exited 1 where 55p exited 2: now every one at once, exit 2 (the photo is not even there)."""
    assert main(["photo", str(tmp_path / "not-read.jpg"), "--winning-tile", tile]) == 2
    err = capsys.readouterr().err
    assert words in err and "does not exist" not in err

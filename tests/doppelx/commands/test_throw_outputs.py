"""Outputs never overwrite inputs: ``throw --replay`` takes only a ``.npz`` name and never a
file the command reads (compared as resolved paths, links followed); ``boards show --out``
likewise; a very long output path is shortened in an error. All refused before any work."""

from __future__ import annotations

import os

import pytest

from doppelx.cli import main
from rules.common.assets import asset_path, same_file
from rules.common.atomic import OutputError, refuse_input_as_output

SMALL = """format = "doppelx-board/1"
name = "small"
line_width = 3.0
[outline]
polygon = [[-100, -100], [100, -100], [100, 100], [-100, 100]]
[[fields]]
id = "blue"
kind = "1x"
fill = "rest"
"""


def one_line_refusal(capsys, argv) -> str:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse refuses bad argument types itself
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", ["victim.toml", "x.txt", "replay", "r.npz.txt"])
def test_a_replay_name_not_ending_in_npz_is_refused(workdir, capsys, name):
    (workdir / "victim.toml").write_text(SMALL)
    err = one_line_refusal(capsys, ["throw", "--board", "victim.toml", "--seed", "2", "--replay", name])
    assert "--replay" in err and "ending in .npz" in err and name in err
    assert (workdir / "victim.toml").read_text() == SMALL
    assert sorted(p.name for p in workdir.iterdir()) == ["victim.toml"]


def test_a_replay_upper_case_suffix_is_a_npz_name(workdir):
    from doppelx import argtypes

    assert argtypes.npz_file(str(workdir / "R.NPZ")) == str(workdir / "R.NPZ")


@pytest.mark.parametrize("how", ["same", "dotted", "absolute", "symlink", "hardlink"])
def test_the_replay_may_not_be_the_board_being_read(workdir, capsys, how):
    board = workdir / "victim.npz"  # a board file may have any name
    board.write_text(SMALL)
    out = {"same": "victim.npz", "dotted": "./victim.npz", "absolute": str(board)}.get(how, "other.npz")
    if how == "symlink":
        os.symlink(board, workdir / "other.npz")
    elif how == "hardlink":
        os.link(board, workdir / "other.npz")
    err = one_line_refusal(capsys, ["throw", "--board", "victim.npz", "--seed", "2", "--replay", out])
    assert "replay file" in err and "board file" in err and "another file name" in err
    assert board.read_text() == SMALL


def test_the_picture_may_not_be_the_board_being_read(workdir, capsys):
    (workdir / "board.png").write_text(SMALL)
    err = one_line_refusal(capsys, ["boards", "show", "board.png", "--out", "./board.png"])
    assert "picture" in err and "board file" in err
    assert (workdir / "board.png").read_text() == SMALL


def test_same_file_and_the_shipped_inputs(tmp_path):
    a = tmp_path / "a.toml"
    a.write_text("x")
    assert same_file(a, tmp_path / "." / "a.toml") and not same_file(a, tmp_path / "b.toml")
    assert same_file(tmp_path / "missing.npz", tmp_path / "sub" / ".." / "missing.npz")
    with pytest.raises(OutputError, match="dice file"):
        refuse_input_as_output(
            asset_path("dice.toml"), {"board file": a, "dice file": asset_path("dice.toml")}
        )
    refuse_input_as_output(tmp_path / "r.npz", {"board file": a})  # nothing to refuse


def test_a_very_long_output_path_is_shortened_in_the_error(workdir, capsys):
    folder = "a" * 250
    long_png = f"{workdir}/{folder}/{'b' * 200}.png"
    err = one_line_refusal(capsys, ["boards", "show", "I", "--out", long_png])
    assert "does not exist" in err and "characters)" in err and len(err) < 600 and folder not in err
    too_long = f"{workdir}/{'b' * 300}.npz"  # a file name the system refuses
    err = one_line_refusal(capsys, ["throw", "--seed", "1", "--replay", too_long])
    assert "b" * 200 not in err and len(err) < 400

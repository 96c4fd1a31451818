"""A save that fails keeps the game running; stopping without a good save exits 2 naming the file.

Through the real commands (``doppelx.cli.main``) of the four terminal games: the folder of
the save file is removed during the game (in this process), and — in a user and mount
namespace with a small tmpfs, when the system allows one — the disk is filled up or
remounted read-only during the game (:mod:`tests.helpers.save_faults`).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.helpers.badinput import REPO, run_cli
from tests.helpers.save_faults import ScriptedInput

#: Each game's command line (one person, seed fixed) and one answer its first prompt takes.
GAMES = {
    "clever": (["clever", "--seed", "1", "--players", "human,strong"], "1"),
    "doppel": (["doppel", "--seed", "1"], "1"),
    "oder-nichts": (["oder-nichts", "--seed", "1"], "help"),  # a card that fits depends on the deal
    "blitz": (["blitz", "--seed", "1"], ""),
}


def play(monkeypatch, capsys, argv, lines):
    monkeypatch.setattr(sys, "stdin", ScriptedInput(lines))
    return run_cli([*argv, "--no-colour"], capsys)


def one_line_naming(res, *words):
    assert res.code == 2, (res.code, res.err[-1500:])
    assert "Traceback" not in res.err
    lines = res.err.strip().splitlines()
    assert len(lines) == 1, res.err
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_folder_gone_keeps_the_game_and_quitting_unsaved_exits_2(game, tmp_path, monkeypatch, capsys):
    argv, move = GAMES[game]
    folder = tmp_path / "saves"
    folder.mkdir()
    save = folder / "g.json"
    res = play(
        monkeypatch, capsys, [*argv, "--save", str(save)], [f"!gone {folder}", "save", "", move, "quit"]
    )
    line = one_line_naming(res, str(save), "does not exist", "you quit but the game is not saved")
    assert line.startswith("doppelx: error: ")
    out = res.out
    assert f"could not save to {save}" in out
    assert "not saved (the last save failed: type 'save' again before you quit)" in out
    # the game went on after the failed save: the move was taken (not refused), then quit tried again
    assert out.count(f"could not save to {save}") == 2
    assert "not accepted" not in out.split("not saved", 1)[1]
    assert not folder.exists()


def test_after_a_failed_save_another_file_saves_and_quit_is_clean(tmp_path, monkeypatch, capsys):
    argv, move = GAMES["clever"]
    folder = tmp_path / "saves"
    folder.mkdir()
    other = tmp_path / "other.json"
    lines = [f"!gone {folder}", move, "save", str(other), move, "quit"]
    res = play(monkeypatch, capsys, [*argv, "--save", str(folder / "g.json")], lines)
    assert res.code == 0 and res.err == "", res.err
    assert "could not save to" in res.out and f"you quit: game saved to {other}" in res.out
    saved = json.loads(other.read_text())
    assert saved["format"] == "doppelx-clever-save/1" and len(saved["game"]["log"]) >= 3


def test_a_save_that_works_again_clears_the_failure(tmp_path, monkeypatch, capsys):
    argv, move = GAMES["clever"]
    folder = tmp_path / "saves"
    folder.mkdir()
    save = folder / "g.json"
    lines = [f"!gone {folder}", "save", "", move, f"!mk {folder}", "quit"]
    monkeypatch.setattr("tests.helpers.save_faults.do", _do_with_mkdir)
    res = play(monkeypatch, capsys, [*argv, "--save", str(save)], lines)
    assert res.code == 0 and res.err == "", res.err
    assert "could not save to" in res.out and f"you quit: game saved to {save}" in res.out


def _do_with_mkdir(line):
    from tests.helpers import save_faults

    word, folder = line[1:].split(" ", 1)
    if word == "mk":
        os.mkdir(folder)
    elif word == "gone":
        shutil.rmtree(folder)
    else:
        save_faults.do(line)


def test_the_end_of_input_without_a_good_save_exits_2(tmp_path, monkeypatch, capsys):
    argv, move = GAMES["doppel"]
    folder = tmp_path / "saves"
    folder.mkdir()
    save = folder / "g.json"
    res = play(monkeypatch, capsys, [*argv, "--save", str(save)], [move, f"!gone {folder}"])
    one_line_naming(res, str(save), "input ended but the game is not saved")


def test_a_finished_oder_nichts_game_whose_final_save_fails_exits_2(tmp_path, monkeypatch, capsys):
    """Doppelt oder nichts saves the finished game: losing that save is said, not hidden."""
    folder = tmp_path / "saves"
    folder.mkdir()
    save = folder / "g.json"
    rnd = random.Random(2)  # the random person of test_oder_nichts_cli, who finishes this round
    words = ["1", "2", "3", "4", "5", "6", "7", "1 2", "d", "p", "x", "a", "n", "y", "t", "u", "r", "9", "zz"]
    script = [rnd.choice(words) for _ in range(4000)]
    argv = ["oder-nichts", "--seed", "5", "--players", "3", "--rounds", "1", "--save", str(save)]
    res = play(monkeypatch, capsys, argv, [script[0], f"!gone {folder}", *script[1:]])
    assert "Game over" in res.out
    one_line_naming(res, str(save), "the game ended but the game is not saved")


# -- a full disk and a read-only folder, in a namespace of their own ---------------------------
def _namespace_ok() -> bool:
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    with tempfile.TemporaryDirectory() as folder:  # the mount ends with the namespace
        probe = subprocess.run(
            ["unshare", "-rm", "mount", "-t", "tmpfs", "tmpfs", folder], capture_output=True, timeout=60
        )
    return probe.returncode == 0


needs_namespace = pytest.mark.skipif(
    not _namespace_ok(), reason="no user and mount namespace here (unshare -rm) for a tmpfs of our own"
)


def in_namespace(tmp_path, argv, lines):
    mount = tmp_path / "disk"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    driver = Path(__file__).parents[2] / "helpers" / "save_faults.py"
    return subprocess.run(
        ["unshare", "-rm", sys.executable, str(driver), str(mount), "--", *argv, "--no-colour"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )


@needs_namespace
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_full_disk_keeps_the_game_and_quitting_unsaved_exits_2(game, tmp_path):
    argv, move = GAMES[game]
    save = tmp_path / "disk" / "g.json"
    disk = tmp_path / "disk"
    proc = in_namespace(tmp_path, [*argv, "--save", str(save)], [f"!fill {disk}", "save", "", move, "quit"])
    assert proc.returncode == 2, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(save) in lines[0] and "no space left on device" in lines[0], proc.stderr
    assert proc.stdout.count(f"could not save to {save}: no space left on device") == 2


@needs_namespace
def test_room_made_on_the_disk_lets_the_next_save_succeed(tmp_path):
    argv, move = GAMES["clever"]
    disk = tmp_path / "disk"
    save = disk / "g.json"
    lines = [f"!fill {disk}", "save", "", move, f"!free {disk}", "save", move, "quit"]
    proc = in_namespace(tmp_path, [*argv, "--save", str(save)], lines)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr[-2000:]
    assert "no space left on device" in proc.stdout and f"you quit: game saved to {save}" in proc.stdout


@needs_namespace
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_read_only_folder_keeps_the_game_and_quitting_unsaved_exits_2(game, tmp_path):
    argv, move = GAMES[game]
    disk = tmp_path / "disk"
    save = disk / "g.json"
    proc = in_namespace(tmp_path, [*argv, "--save", str(save)], [f"!ro {disk}", "save", "", move, "quit"])
    assert proc.returncode == 2, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(save) in lines[0], proc.stderr
    assert "read-only" in lines[0] or "not writable" in lines[0], lines[0]
    assert proc.stdout.count(f"could not save to {save}") == 2

"""``doppelx play`` as a user runs it: autoplay with a screenshot, loading a save, no display, bad options."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from doppelx.cli import COMMAND_MODULES, main
from tests.helpers.cli import run_doppelx
from tests.xvfb import display  # noqa: F401  (the session's Xvfb)

ROOT = Path(__file__).resolve().parents[3]


def doppelx(*args: str, display_name: str | None, cwd: Path, timeout: float = 120):
    env = {"DISPLAY": display_name} if display_name else None
    return run_doppelx(list(args), cwd=cwd, env=env, drop=("DISPLAY",), timeout=timeout)


def test_play_is_the_first_command():
    assert COMMAND_MODULES[0] == "doppelx.commands.play"


def test_without_a_display_it_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    assert main(["play", "--players", "3"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "DISPLAY is not set" in err and "xvfb-run" in err and "doppelx game" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "player count from 3 to 8"),
        (["--players", "4", "--humans", "5"], "more than the 4 players"),
        (["--autoplay", "--humans", "2"], "bots only"),
        (["--screenshot", "x.png"], "--quit-after-throws"),
        (["--cards", "A,B,C"], "4 different card letters"),
        (["--colours", "blue,white"], "no die of colour 'white'"),
        (["--board", "nowhere.toml"], "nowhere.toml"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(monkeypatch, capsys, args, message):
    monkeypatch.setenv("DISPLAY", ":87")  # never reached: the options are checked first
    with pytest.raises(SystemExit) as exit_:
        raise SystemExit(main(["play", *args]))
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith(("doppelx: error:", "doppelx play: error:"))


def test_autoplay_saves_a_screenshot_after_the_last_throw_and_exits_0(display, tmp_path):  # noqa: F811
    shot = tmp_path / "play.png"
    out = doppelx(
        "play",
        "--autoplay",
        "--players",
        "4",
        "--seed",
        "1",
        "--quit-after-throws",
        "3",
        "--screenshot",
        str(shot),
        "--speed",
        "8",
        "--mute",
        "--size",
        "960x600",
        display_name=display,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    from PIL import Image

    with Image.open(shot) as im:
        assert im.size == (960, 600)
        img = np.asarray(im.convert("RGB")).astype(float)
    assert img.std() > 25  # a table, not an empty frame
    # the scoreboard panel at the top left is drawn (dark, semi-transparent over the table)
    assert img[20:120, 15:240].mean() < img[300:400, 400:560].mean()


def test_a_saved_game_loads_from_the_command_line(display, tmp_path):  # noqa: F811
    from doppelx.games.doppelx.play.controller import PlayController, Stage
    from doppelx.games.doppelx.play.newgame import GameSetup

    ctrl = PlayController(save_path=tmp_path / "s.json")
    ctrl.new_game(GameSetup.standard(3, 0, seed=8, board="IV"))
    while not (ctrl.throws_shown == 2 and ctrl.stage is Stage.RESULT):
        ctrl.step()
    ctrl.save()
    ctrl.close()
    out = doppelx(
        "play",
        "--load",
        "s.json",
        "--quit-after-throws",
        "1",
        "--screenshot",
        "after.png",
        "--speed",
        "8",
        "--mute",
        "--size",
        "800x600",
        display_name=display,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "after.png").stat().st_size > 10_000
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = doppelx("play", "--load", "bad.json", display_name=display, cwd=tmp_path)
    assert out.returncode == 2 and "bad JSON" in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_a_screenshot_that_cannot_be_written_is_one_line_and_exit_2(display, tmp_path):  # noqa: F811
    (tmp_path / "shots").mkdir()
    out = doppelx(
        "play", "--autoplay", "--players", "3", "--seed", "2", "--quit-after-throws", "1", "--speed", "20",
        "--size", "800x500", "--screenshot", "shots",
        display_name=display, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 2, out.stderr
    err = out.stderr.strip().splitlines()
    assert len(err) == 1 and "cannot write shots: it is a folder" in err[0]
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["shots"]  # no stray temporary file

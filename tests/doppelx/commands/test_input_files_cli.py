"""Input files: they must be regular files (a named pipe is refused at once, it used to wait
forever for a writer; a device too), standard input (``-``) still works where a command takes
it, and a bad dice file is blamed, not the state read with it."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from doppelx.cli import main
from rules.common.assets import asset_path, read_json, read_text, read_toml
from rules.common.errors import SpecError

STATE = Path(__file__).resolve().parents[2] / "data" / "states" / "E4.json"


@contextlib.contextmanager
def at_most(seconds: int):
    """Fail instead of hanging when the code under test blocks."""

    def hung(signum, frame):
        raise TimeoutError(f"blocked for {seconds} s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("named pipes are POSIX")
    path = tmp_path / "f.toml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("reader", [read_text, read_toml, read_json])
def test_a_named_pipe_is_refused_without_waiting(fifo, reader):
    with at_most(10), pytest.raises(SpecError) as exc:
        reader(fifo)
    assert "named pipe" in str(exc.value) and "not a data file" in str(exc.value)


def test_a_device_is_refused_before_reading():
    with at_most(10), pytest.raises(SpecError) as exc:
        read_text("/dev/zero")
    assert "a device" in str(exc.value) and "not a data file" in str(exc.value)


def test_a_folder_is_still_named_as_one(tmp_path):
    with pytest.raises(SpecError, match="is a folder"):
        read_text(tmp_path)


def test_commands_refuse_pipes_in_one_line(fifo, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "s.json")
    state = json.loads(STATE.read_text())
    state["board"] = "f.toml"
    (tmp_path / "names_fifo.json").write_text(json.dumps(state))
    for argv in (
        ["boards", "check", "f.toml"],
        ["score", "--state", "s.json"],
        ["score", "--state", "names_fifo.json"],
        ["score", "--state", str(STATE), "--dice", "f.toml"],
    ):
        with at_most(20):
            assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "named pipe" in err and "Traceback" not in err, err


def test_standard_input_still_works(capsys, monkeypatch):
    import io

    class Stdin:
        buffer = io.BytesIO(STATE.read_bytes())

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert main(["score", "--state", "-"]) == 0
    assert "purple" in capsys.readouterr().out


def test_score_blames_the_dice_file_not_the_state(tmp_path, capsys):
    text = asset_path("dice.toml").read_text().replace("size = 16.0", "size = 1e14")
    (tmp_path / "huge.toml").write_text(text)
    code = main(["score", "--state", str(STATE), "--dice", str(tmp_path / "huge.toml")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "huge.toml: size" in err and "E4.json" not in err

"""``doppelx game``: a whole bot game through physics — log, result, determinism, bad arguments."""

from __future__ import annotations

import json

import pytest

from doppelx.cli import main


def run_json(capsys, *args):
    assert main(["game", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_game_plays_to_the_end(capsys):
    out = run_json(capsys, "--players", "4", "--board", "I", "--seed", "5")
    summary, log = out["summary"], out["log"]
    assert summary["phase"] == "finished"
    assert summary["winner"] in summary["seats"]
    assert summary["chips"][summary["winner"]] >= summary["target"]
    assert log[0]["kind"] == "setup" and set(log[0]["thrown"]) == set(summary["seats"])
    assert all(t["kind"] in ("turn", "decider") for t in log[1:])
    assert all(t["settled"] for t in log)
    # chips in the log add up to the final chips
    last = {c: 0 for c in summary["seats"]}
    for t in log:
        for c, p in t["players"].items():
            last[c] = p["after"]
    assert last == summary["chips"]


def test_the_board_defaults_to_side_i(capsys):
    short = ("--players", "3", "--seed", "2")
    assert run_json(capsys, *short) == run_json(capsys, *short, "--board", "I")


def test_same_seed_same_game(capsys):
    a = run_json(capsys, "--players", "3", "--board", "III", "--seed", "8")
    b = run_json(capsys, "--players", "3", "--board", "III", "--seed", "8")
    assert a == b


def test_text_log_and_result(capsys):
    assert (
        main(
            [
                "game",
                "--players",
                "5",
                "--board",
                "II",
                "--seed",
                "1",
                "--skill",
                "hard",
                "--cards",
                "E,F,G,H",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert text.startswith("DoppelX on side II, seed 1: blue, red, yellow, green, purple")
    assert "#1   setup throw" in text and "Winner:" in text and "Final:" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "2", "--board", "I", "--seed", "1"], "player count from 3 to 8"),
        (["--players", "4", "--board", "I", "--seed", "x"], "whole number"),
        (["--players", "4", "--board", "I", "--seed", "1", "--cards", "A,B,C"], "4 different card"),
        (["--players", "4", "--board", "I", "--seed", "1", "--skill", "pro"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(["game", *args])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_unknown_board_is_one_line(capsys):
    assert main(["game", "--players", "4", "--board", "nope.toml", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "nope.toml" in err and err.count("\n") == 1


def test_max_throws_prints_the_game_so_far_then_fails(capsys):
    """Session 8's audit: --max-throws ended with exit 2 and none of the throws printed."""
    from doppelx.cli import main

    assert main(["game", "--players", "3", "--seed", "1", "--max-throws", "3"]) == 2
    out, err = capsys.readouterr()
    assert "3 throws, and the game has not ended." in out and out.count("\n#") == 3
    assert (
        err.strip()
        == "doppelx: error: the game did not end within 3 throws (the 3 throws played are printed above)"
    )

"""``doppelx throw``: one physics throw scored by the rules; JSON, replay, bad arguments."""

from __future__ import annotations

import json

import numpy as np
import pytest

from doppelx.cli import main


def run_json(capsys, *args):
    assert main(["throw", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_throw_json_outcome_and_scoring(capsys):
    out = run_json(capsys, "--board", "I", "--seed", "4", "--lying", "3")
    owners = [d["owner"] for d in out["outcome"]]
    assert owners[:2] == ["blue", "white"] and len(owners) == 5
    assert all(d["status"] in ("board", "hole", "off") for d in out["outcome"])
    assert out["sim"]["tunnelled"] == [] and out["sim"]["settled"] is True
    assert out["score"]["active"] == "blue"
    assert {d["owner"] for d in out["score"]["dice"]} == set(owners)
    assert set(out["score"]["players"]) >= {"blue", "red", "yellow", "green"}
    assert len(out["throw"]["releases"]) == 2
    assert all(v == round(v, 6) for v in out["aim"]["target_mm"])  # mm to the nm, no float noise


def test_the_board_defaults_to_side_i(capsys):
    assert run_json(capsys, "--seed", "5") == run_json(capsys, "--board", "I", "--seed", "5")


def test_same_seed_same_throw(capsys):
    a = run_json(capsys, "--board", "III", "--seed", "11")
    b = run_json(capsys, "--board", "III", "--seed", "11")
    assert a == b
    c = run_json(capsys, "--board", "III", "--seed", "12")
    assert c["outcome"] != a["outcome"]


def test_state_output_feeds_doppelx_score(capsys, tmp_path):
    out = run_json(capsys, "--board", "I", "--seed", "9", "--lying", "2")
    state = tmp_path / "state.json"
    state.write_text(json.dumps(out["state"]), encoding="utf-8")
    assert main(["score", "--state", str(state), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["players"] == out["score"]["players"]


def test_text_output_and_replay_file(capsys, tmp_path):
    path = tmp_path / "throw.npz"
    assert (
        main(
            [
                "throw",
                "--board",
                "II",
                "--seed",
                "2",
                "--target=-60,75",
                "--strength",
                "0.3",
                "--side",
                "W",
                "--replay",
                str(path),
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "aim: first impact (-60, 75) mm, strength 0.30" in text
    assert "physics: came to rest" in text and "player" in text
    with np.load(path) as z:
        assert z["positions"].shape[1:] == (2, 3)


def test_setup_like_throw_without_the_white_die(capsys):
    out = run_json(capsys, "--board", "I", "--seed", "3", "--dice", "red,green,blue")
    assert out["score"]["active"] is None
    assert [d["owner"] for d in out["outcome"]] == ["red", "green", "blue"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--board", "I", "--seed", "-1"], "whole number"),
        (["--board", "I", "--seed", "1", "--dice", "blue,blue"], "twice"),
        (["--board", "I", "--seed", "1", "--target", "3"], "X,Y"),
        (["--board", "I", "--seed", "1", "--strength", "2"], "0 to 1"),
        (["--board", "I", "--seed", "1", "--side", "Q"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(["throw", *args])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--board", "V", "--seed", "1"], "not a built-in side"),
        (["--board", "I", "--seed", "1", "--dice", "teal,white"], "no die 'teal'"),
        (["--board", "I", "--seed", "1", "--lying", "8"], "--lying 8: only 7 other players' dice"),
    ],
)
def test_bad_values_are_one_line_and_exit_2(capsys, args, message):
    assert main(["throw", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_throw_on_a_board_file_scores_again_on_that_file(capsys, tmp_path, monkeypatch):
    """The state names the file, not the name inside it."""
    from pathlib import Path

    import rules

    side_i = (Path(rules.__file__).parents[1] / "assets" / "boards" / "side_I.toml").read_text()
    gold = side_i.replace('kind = "1x"', 'kind = "3x"')  # every 1x field becomes 3x
    assert gold != side_i
    gold = gold.replace('name = "I"', 'name = "gold"')  # a changed side I may not call itself I
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gold.toml").write_text(gold)
    out = run_json(capsys, "--board", "gold.toml", "--seed", "1")
    assert out["state"]["board"] == "gold.toml"
    (tmp_path / "s.json").write_text(json.dumps(out["state"]))
    assert main(["score", "--state", "s.json", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["players"] == out["score"]["players"]
    assert run_json(capsys, "--board", "i", "--seed", "1")["state"]["board"] == "I"  # a side by its name


def test_dice_off_the_board_score_for_nobody(capsys):
    """docs/score-schema.md: cocked and scores_for are null for a die in a hole or off."""
    seen = set()
    for seed in range(40):
        for d in run_json(capsys, "--seed", str(seed), "--strength", "1", "--lying", "4")["score"]["dice"]:
            seen.add(d["status"])
            if d["status"] != "board":
                assert d["cocked"] is None and d["scores_for"] is None
            else:
                assert isinstance(d["cocked"], bool) and d["scores_for"] is not None
        if {"board", "hole"} <= seen or {"board", "off"} <= seen:
            return
    pytest.fail(f"no die left the board in 40 full-strength throws: {seen}")


def test_a_full_disk_is_one_line_not_a_traceback():
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        res = subprocess.run(
            [sys.executable, "-m", "doppelx", "throw", "--seed", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert res.returncode == 2
    assert res.stderr.strip() == "doppelx: error: cannot write the output: No space left on device"


@pytest.mark.parametrize("seed", [3, 4])
def test_a_throw_without_the_spinner_scores_where_the_spinner_would_stand(capsys, tmp_path, seed):
    """--no-spinner left the spinner out of the physics only: a die resting where it would
    stand was then refused by doppelx score as cutting into its card (diff review)."""
    out = run_json(
        capsys, "--board", "III", "--no-spinner", "--seed", str(seed), "--target", "0,0", "--lying", "3"
    )
    assert out["state"]["spinner"] is False
    near = [
        d for d in out["state"]["dice"] if d["status"] == "board" and np.hypot(*d["position"][:2]) < 0.021
    ]
    assert near  # a die rests within the spinner's card
    (tmp_path / "s.json").write_text(json.dumps(out["state"]))
    assert main(["score", "--state", str(tmp_path / "s.json"), "--json"]) == 0
    capsys.readouterr()
    with_spinner = {**out["state"], "spinner": True}
    (tmp_path / "t.json").write_text(json.dumps(with_spinner))
    assert (
        main(["score", "--state", str(tmp_path / "t.json")]) == 2
    )  # with the spinner there, it could not lie there
    assert "spinner" in capsys.readouterr().err


def test_a_side_without_its_spinner_is_one_object():
    from rules.doppelx.board_file import load_board

    side = load_board("III")
    assert side.with_spinner(True) is side and load_board("I").with_spinner(False) is load_board("I")
    off = side.with_spinner(False)
    assert off.spinner is None and off is side.with_spinner(False) and off.fields is side.fields

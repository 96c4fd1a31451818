"""``doppelx score``: E1–E6 from state files, the JSON schema, and malformed input → exit 2."""

from __future__ import annotations

import json

import pytest

from doppelx.cli import main
from tests.helpers.outcomes import DATA

STATES = DATA / "states"


def run_json(capsys, *args):
    assert main(["score", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "example, player, after",
    [
        ("E1", "blue", 9),
        ("E2", "blue", 18),
        ("E3", "green", 5),
        ("E4", "blue", 18),
        ("E5", "red", 3),
        ("E6", "blue", 22),
    ],
)
def test_examples_reproduce(capsys, example, player, after):
    out = run_json(capsys, "--board", "I", "--state", str(STATES / f"{example}.json"))
    assert out["players"][player]["after"] == after


def test_e4_full_report(capsys):
    out = run_json(capsys, "--board", "I", "--state", str(STATES / "E4.json"))
    assert out["doppel_x"] is False and out["active"] == "blue"
    dice = {d["owner"]: d for d in out["dice"]}
    assert dice["blue"] | {} == dice["blue"]
    assert (dice["blue"]["top"], dice["blue"]["field"], dice["blue"]["chips"]) == ("2", "2x", 4)
    assert (dice["white"]["field"], dice["white"]["chips"], dice["white"]["scores_for"]) == ("1x", 2, "blue")
    assert (dice["red"]["top"], dice["red"]["chips"]) == ("X", 0)
    assert (dice["purple"]["field"], dice["purple"]["chips"]) == ("2x", 6)
    assert dice["blue"]["touched"] == [{"id": "red-diamond", "kind": "2x"}]
    p = out["players"]
    assert p["blue"] == {
        "dice": 6,
        "bets": 0,
        "doppel_x": 0,
        "before": 12,
        "after": 18,
        "change": 6,
        "bet": None,
    }
    assert (p["yellow"]["bets"], p["green"]["bets"], p["yellow"]["bet"]) == (3, 3, "C")


def test_e6_doppel_x_report(capsys):
    out = run_json(capsys, "--state", str(STATES / "E6.json"))  # board taken from the state
    assert out["doppel_x"] is True
    p = out["players"]
    assert (p["blue"]["doppel_x"], p["yellow"]["bets"], p["green"]["bets"], p["red"]["bets"]) == (10, 5, 5, 0)
    assert p["purple"]["change"] == 0


def test_full_pose_form_and_text_output(tmp_path, capsys):
    state = {
        "seats": ["blue", "red", "green"],
        "active": "blue",
        "dice": [
            {"owner": "blue", "position": [0.0, 0.0, 0.008], "quaternion": [0, 0, 0, 1]},
            {"owner": "white", "status": "off"},
        ],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(state))
    assert main(["score", "--board", "I", "--state", str(path)]) == 0
    text = capsys.readouterr().out
    assert "red-diamond" in text and "blue" in text
    out = run_json(capsys, "--board", "I", "--state", str(path))
    assert out["dice"][0]["top"] == "1" and out["players"]["blue"]["dice"] == 2


@pytest.mark.parametrize(
    "state, words",
    [
        ({"seats": ["blue", "red"], "dice": []}, "seats"),
        ({"seats": ["blue", "red", "mauve"], "dice": []}, "seats[2]: expected a player colour"),
        ({"seats": ["blue", "red", "green"], "active": "pink", "dice": []}, "active"),
        (
            {
                "seats": ["blue", "red", "green"],
                "active": "blue",
                "dice": [{"owner": "blue", "x": 0, "y": 0, "yaw_deg": 0, "top": "7"}],
            },
            "dice[0].top",
        ),
        (
            {
                "seats": ["blue", "red", "green"],
                "active": "blue",
                "dice": [{"owner": "blue", "x": 0, "yaw_deg": 0, "top": "1"}],
            },
            "dice[0].y: missing",
        ),
        ({"seats": ["blue", "red", "green"], "active": "blue", "dice": [{"owner": "blue"}]}, "needs a pose"),
        (
            {
                "seats": ["blue", "red", "green"],
                "active": "blue",
                "bets": {"blue": "A"},
                "dice": [{"owner": "blue", "status": "hole"}],
            },
            "bets.blue",
        ),
        (
            {
                "seats": ["blue", "red", "green"],
                "active": "blue",
                "bets": {"red": "A"},
                "dice": [{"owner": "red", "status": "off"}],
            },
            "bets.red",
        ),
        (
            {
                "seats": ["blue", "red", "green"],
                "active": "blue",
                "bets": {"red": "G"},
                "dice": [{"owner": "blue", "status": "hole"}],
            },
            "not in play",
        ),
        (
            {
                "seats": ["blue", "red", "green"],
                "active": "blue",
                "dice": [{"owner": "blue", "position": [0, 0, 0.008], "quaternion": [0, 0, 0, 2]}],
            },
            "unit quaternion",
        ),
        (
            {"seats": ["blue", "red", "green"], "dice": [{"owner": "white", "status": "off"}]},
            'a setup throw ("active": null) has no white die',
        ),
        (
            {
                "seats": ["blue", "red", "green"],
                "active": "blue",
                "chips": {"blue": -3},
                "dice": [{"owner": "blue", "status": "hole"}],
            },
            "chips.blue",
        ),
    ],
)
def test_malformed_state_is_one_line_exit_2(tmp_path, capsys, state, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(state))
    assert main(["score", "--board", "I", "--state", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err and str(path) in err


def test_bad_json_and_unknown_board(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{ nope")
    assert main(["score", "--board", "I", "--state", str(path)]) == 2
    assert "bad JSON" in capsys.readouterr().err
    assert main(["score", "--board", "IX", "--state", str(STATES / "E1.json")]) == 2
    assert "not a built-in side" in capsys.readouterr().err


def test_the_states_board_is_read_beside_it_and_its_errors_name_the_state(tmp_path, capsys):
    from rules.doppelx.board_file import builtin_board_path

    state = json.loads((STATES / "E1.json").read_text())
    folder = tmp_path / "states"
    folder.mkdir()
    (folder / "mine.toml").write_text(builtin_board_path("I").read_text())
    path = folder / "s.json"
    path.write_text(json.dumps(state | {"board": "mine.toml"}))  # relative to the state, not the cwd
    assert run_json(capsys, "--state", str(path))["players"]["blue"]["after"] == 9
    for board, words in (("IX", "IX: not a built-in side"), ("gone.toml", "file not found")):
        path.write_text(json.dumps(state | {"board": board}))
        assert main(["score", "--state", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"doppelx: error: {path}: board: ") and words in err and err.count("\n") == 1


def test_missing_argument_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "--board", "I"])
    assert exc.value.code == 2


def test_a_state_piped_in_with_state_dash_scores_as_the_file_does(capsys, monkeypatch):
    import io
    import sys

    text = (STATES / "E4.json").read_text()
    from_file = run_json(capsys, "--state", str(STATES / "E4.json"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    assert run_json(capsys, "--state", "-") == from_file
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"{")))
    assert main(["score", "--state", "-"]) == 2
    assert capsys.readouterr().err.startswith("doppelx: error: standard input: line 1 column 2: bad JSON")

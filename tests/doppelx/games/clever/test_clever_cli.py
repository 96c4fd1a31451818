"""``doppelx clever``: bots-only batches, a whole game from the command line, a person at the prompt."""

import io
import json
import re

import pytest

from doppelx.cli import main


@pytest.fixture(autouse=True)
def _in_a_fresh_folder(monkeypatch, tmp_path):
    """Each test runs where no ``clever-save.json`` lies (a new game refuses to replace it)."""
    monkeypatch.chdir(tmp_path)


def run(argv, monkeypatch, capsys, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_bots_only_batch_json(monkeypatch, capsys):
    code, out, _ = run(
        ["clever", "--bots-only", "--games", "3", "--seed", "4", "--json"], monkeypatch, capsys
    )
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 3 and data["seed"] == 4 and data["players"] == 2
    assert [b["bot"] for b in data["bots"]] == ["strong", "random"]
    for row in data["bots"]:
        assert set(row) >= {"mean", "min", "max"} and row["min"] <= row["mean"] <= row["max"]


def test_bots_only_batch_text_is_the_same_figures(monkeypatch, capsys):
    args = ["clever", "--bots-only", "--games", "2", "--seed", "9", "--players", "random,random,strong"]
    code, out, _ = run(args, monkeypatch, capsys)
    assert code == 0 and "2 games, 3 player(s), seed 9" in out
    _, js, _ = run(args + ["--json"], monkeypatch, capsys)
    for row in json.loads(js)["bots"]:
        assert re.search(
            rf"^{row['seat']}\s+{row['bot']}\s+{row['mean']:.2f}\s+{row['min']}\s+{row['max']}", out, re.M
        )


def test_one_bots_only_game_plays_to_its_end(monkeypatch, capsys):
    code, out, _ = run(
        ["clever", "--bots-only", "--players", "strong,random", "--seed", "5", "--no-colour"],
        monkeypatch,
        capsys,
    )
    assert code == 0
    assert "round 6:" in out and "Game over." in out and "Winner:" in out
    assert "1 game, 2 player(s), seed 5" in out and "1 games" not in out  # issue 16
    assert "\x1b[" not in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["clever", "--bots-only", "--players", "human"], "bots only"),
        (["clever", "--games", "3"], "--games needs --bots-only"),
        (["clever", "--bots-only", "--save", "x.json"], "not saved"),
        (["clever", "--players", "strong"], "no human player"),
    ],
)
def test_bad_combinations_exit_2_with_one_line(argv, message, monkeypatch, capsys):
    code, out, err = run(argv, monkeypatch, capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_bad_argument_values_are_argparse_errors(monkeypatch, capsys):
    for argv in (
        ["clever", "--players", "human,wizard"],
        ["clever", "--players", "a,b,c,d,e"],
        ["clever", "--bots-only", "--games", "0"],
        ["clever", "--seed", "-1"],
    ):
        with pytest.raises(SystemExit) as exc:
            run(argv, monkeypatch, capsys)
        assert exc.value.code == 2


def _final_scores(out):
    return re.findall(r"^  (You|Bot \d \(\w+\)|Player \d)\s+(-?\d+) points$", out, re.M)


def test_a_scripted_person_plays_a_whole_solo_game(monkeypatch, capsys, tmp_path):
    code, out, _ = run(
        ["clever", "--players", "human", "--seed", "21", "--save", str(tmp_path / "s.json")],
        monkeypatch,
        capsys,
        stdin="1\n" * 400,
    )
    assert code == 0
    assert "Game over." in out and "Solo rating:" in out
    assert out.count("choose a rolled die") >= 6
    assert len(_final_scores(out)) == 1


def test_wrong_input_is_asked_again_with_a_reason(monkeypatch, capsys):
    script = "hello\n0\n99\nhelp\n" + "1\n" * 400
    code, out, _ = run(
        ["clever", "--players", "human,random", "--seed", "3", "--no-colour"],
        monkeypatch,
        capsys,
        stdin=script,
    )
    assert code == 0
    assert "not accepted: 'hello' is not a number" in out
    assert "not accepted: 0 is not a choice" in out and "not accepted: 99 is not a choice" in out
    assert "RR reroll" in out and "Game over." in out
    # issue 16: help lists the commands with an example each and is no refusal
    assert "Commands (with an example each):" in out and "not accepted: type the number" not in out
    assert re.search(r"^  3\s+take choice 3", out, re.M) and re.search(
        r"^  sheet\s+show every sheet", out, re.M
    )
    assert re.search(r"^\[Doppelt so clever · round 1/6 · You 0 \| Bot 2 \(random\) 0 points", out, re.M)


def test_quit_and_resume_finish_like_an_uninterrupted_game(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    args = ["clever", "--players", "human,strong", "--seed", "11", "--no-colour"]
    _, whole, _ = run(args, monkeypatch, capsys, stdin="1\n" * 400)
    code, first, _ = run(args + ["--save", str(save)], monkeypatch, capsys, stdin="1\n" * 12 + "quit\n")
    assert code == 0 and "game saved to" in first and save.exists()
    code, second, _ = run(
        ["clever", "--resume", str(save), "--no-colour"], monkeypatch, capsys, stdin="1\n" * 400
    )
    assert code == 0 and "Game over." in second
    assert _final_scores(second) == _final_scores(whole)


def test_save_word_saves_and_the_game_goes_on(monkeypatch, capsys, tmp_path):
    save = tmp_path / "mid.json"
    code, out, _ = run(
        ["clever", "--players", "human", "--seed", "2", "--save", str(save)],
        monkeypatch,
        capsys,
        stdin="1\nsave\n" + "1\n" * 400,
    )
    assert code == 0 and f"game saved to {save}" in out and "Game over." in out
    assert "not accepted: saved" not in out  # issue 16: a successful save is no refusal
    assert json.loads(save.read_text())["format"] == "doppelx-clever-save/1"


def test_end_of_input_saves_and_exits_cleanly(monkeypatch, capsys, tmp_path):
    save = tmp_path / "eof.json"
    code, out, err = run(
        ["clever", "--players", "human,human", "--seed", "8", "--save", str(save)],
        monkeypatch,
        capsys,
        stdin="1\n1\n",
    )
    assert code == 0 and "input ended: game saved" in out and err == ""
    data = json.loads(save.read_text())
    assert data["players"] == ["human", "human"] and data["game"]["log"]


def test_damaged_save_is_one_clear_error(monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "doppelx-clever-save/1", "players": ["human"], "seed": 1, "game": {}}')
    code, _, err = run(["clever", "--resume", str(bad)], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1
    assert "bad.json: game.format: not a Doppelt so clever log (expected 'clever-log/1')" in err
    code, _, err = run(["clever", "--resume", str(tmp_path / "missing.json")], monkeypatch, capsys)
    assert code == 2 and "file not found" in err


def test_a_new_game_does_not_replace_the_default_save_file(monkeypatch, capsys, tmp_path):
    precious = tmp_path / "clever-save.json"  # the default --save, in the working folder
    precious.write_text('{"precious": true}')
    code, _, err = run(["clever", "--players", "human", "--seed", "2"], monkeypatch, capsys, stdin="")
    assert (
        code == 2
        and "clever-save.json" in err
        and "already exists" in err
        and "--resume clever-save.json" in err
        and err.count("\n") == 1
    )
    assert precious.read_text() == '{"precious": true}'


def test_help_says_save_writes_the_save_file_without_asking(monkeypatch, capsys):
    # the audit: help said "save the game and go on (asks for a file)", but 'save' writes
    # clever-save.json (the default --save) and never asks
    code, out, _ = run(
        ["clever", "--players", "human", "--seed", "2", "--no-colour"],
        monkeypatch,
        capsys,
        stdin="help\nsave\nquit\n",
    )
    assert code == 0
    assert re.search(r"^  save\s+save the game and go on; save FILE.json: to that file$", out, re.M)
    assert re.search(r"^  quit\s+stop \(the game is saved\)$", out, re.M)
    assert "asks for a file" not in out and "save to file" not in out
    assert "game saved to clever-save.json" in out and "you quit: game saved to clever-save.json" in out


@pytest.mark.parametrize(
    "extra, refused",
    [
        (["--seed", "99"], "--seed does"),
        (["--seed", "0"], "--seed does"),  # 0 is a seed too, not "no seed"
        (["--players", "human"], "--players does"),
        (["--players", "human,strong", "--seed", "1"], "--players and --seed do"),
    ],
)
def test_resume_refuses_set_up_flags(extra, refused, monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    run(["clever", "--players", "human", "--seed", "2", "--save", str(save)], monkeypatch, capsys, "quit\n")
    saved = save.read_text()
    code, out, err = run(["clever", "--resume", str(save), *extra], monkeypatch, capsys, "quit\n")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{refused} not go with --resume (the saved game keeps its set-up)" in err
    assert save.read_text() == saved


def test_resume_still_takes_save_and_colour(monkeypatch, capsys, tmp_path):
    save, other = tmp_path / "game.json", tmp_path / "other.json"
    run(["clever", "--players", "human", "--seed", "2", "--save", str(save)], monkeypatch, capsys, "quit\n")
    code, out, _ = run(
        ["clever", "--resume", str(save), "--save", str(other), "--no-colour"], monkeypatch, capsys, "quit\n"
    )
    assert code == 0 and f"you quit: game saved to {other}" in out and "\x1b[" not in out
    assert json.loads(other.read_text())["seed"] == 2
    # a --save file that is there already is not overwritten by a resumed game either
    mine = tmp_path / "mine.json"
    mine.write_text("my notes")
    code, out, err = run(
        ["clever", "--resume", str(save), "--save", str(mine)], monkeypatch, capsys, "quit\n"
    )
    assert code == 2 and mine.read_text() == "my notes"
    assert "already exists; choose another --save file, or leave --save out to save over" in err
    code, out, err = run(
        ["clever", "--resume", str(save), "--save", str(save)], monkeypatch, capsys, "quit\n"
    )
    assert code == 0  # naming the resumed file itself is what --resume does anyway


def test_the_dice_lower_than_a_pick_are_said_to_go_to_the_platter(monkeypatch, capsys):
    """Ninth playtest: a turn ended at "pick 1 of 3" with no word that the other dice were lower
    and went to the silver platter. Seed 1: you pick the white 5 first; yellow 1, green 1 and
    pink 2 go to the platter, and the line says so."""
    code, out, _ = run(
        ["clever", "--seed", "1", "--players", "human,strong", "--no-colour"],
        monkeypatch,
        capsys,
        stdin="1\nquit\n",
    )
    assert code == 0
    assert "lower than the die picked, to the silver platter: yellow 1, green 1, pink 2" in out

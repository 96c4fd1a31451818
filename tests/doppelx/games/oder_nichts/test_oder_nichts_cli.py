"""``doppelx oder-nichts``: bots-only batches, argument errors, and a person's game through the prompt."""

from __future__ import annotations

import io
import json
import random
import re
import sys

import pytest

from doppelx.cli import main
from doppelx.games.oder_nichts.match import OderNichtsMatch, resume
from doppelx.terminal import Terminal, load_json
from rules.common.rng import make_rng
from rules.oder_nichts import Action, GameConfig, State, load_deck
from rules.oder_nichts.deal import deal_outcome, find_cards

DECK = load_deck()


def run_cli(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["oder-nichts", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---- bots only -------------------------------------------------------------------------


def test_a_full_bots_only_game_to_its_end(capsys):
    code, out, err = run_cli(
        capsys,
        "--bots-only",
        "--games",
        "1",
        "--seed",
        "4",
        "--json",
        "--bots",
        "basic,gambler,cautious,random",
    )
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["games"] == 1 and data["seed"] == 4 and data["target_points"] == 500
    assert data["players"] == ["P1:basic", "P2:gambler", "P3:cautious", "P4:random"]
    assert sum(data["wins"].values()) >= 1
    assert max(data["mean_minus"].values()) >= 500
    assert data["mean_rounds"] >= 1 and data["mean_turns"] > 0


def test_bots_only_json_is_reproducible(capsys):
    first = run_cli(capsys, "--bots-only", "--games", "3", "--seed", "8", "--json", "--target", "200")[1]
    second = run_cli(capsys, "--bots-only", "--games", "3", "--seed", "8", "--json", "--target", "200")[1]
    assert first == second
    data = json.loads(first)
    assert data["games"] == 3 and data["target_points"] == 200
    assert set(data) >= {"wins", "shared_wins", "mean_rounds", "mean_turns", "mean_decisions", "mean_minus"}


def test_bots_only_statistics_repeat_without_a_seed(capsys):
    first = run_cli(capsys, "--bots-only", "--games", "2", "--json", "--target", "200")[1]
    second = run_cli(capsys, "--bots-only", "--games", "2", "--json", "--target", "200")[1]
    assert first == second and json.loads(first)["seed"] == 0


def test_bots_only_text_report(capsys):
    code, out, _ = run_cli(
        capsys, "--bots-only", "--games", "2", "--seed", "1", "--players", "3", "--rounds", "2"
    )
    assert code == 0
    assert "2 bots-only games, seed 1" in out and "or after 2 rounds" in out
    assert "P1:basic" in out and "mean game length:" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bots-only", "--players", "9"], "2 to 8 players, not 9"),
        (["--bots-only", "--bots", "genius"], "--bots: unknown bot 'genius'"),
        (
            ["--bots-only", "--bots", "basic,random", "--players", "3"],
            "2 bots named for 3 bot seats: give one name (for every seat) or 3",
        ),
        (["--games", "5"], "--games goes with --bots-only"),
        (["--json"], "--json goes with --bots-only"),
        (["--bots-only", "--save", "x.json"], "--save is for a person's game"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv", [["--players", "four"], ["--games", "0"], ["--target", "0"], ["--seed", "-3"], ["--rounds", "x"]]
)
def test_bad_numbers_are_argparse_errors(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(["oder-nichts", "--bots-only", *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "expected a whole number" in err or "invalid int value" in err


def test_a_bad_save_file_is_one_clear_line(capsys, tmp_path):
    bad = tmp_path / "save.json"
    bad.write_text(
        '{"game": "oder_nichts", "config": {"players": 2}, "bots": ["basic"], "seed": 1, '
        '"rng_state": {}, "log": [{"kind": "draw"}]}'
    )
    code, _, err = run_cli(capsys, "--resume", str(bad))
    assert code == 2 and err.count("\n") == 1
    assert "save.json: log[0]: a chance outcome (shuffle) is expected here, not 'draw'" in err


# ---- a person's game through the prompt ------------------------------------------------


def test_a_person_plays_a_whole_round_through_the_prompt(capsys, monkeypatch):
    rnd = random.Random(2)
    words = [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "1 2",
        "d",
        "p",
        "x",
        "a",
        "n",
        "y",
        "t",
        "u",
        "r",
        "2",
        "9",
        "zz",
    ]
    script = "\n".join(rnd.choice(words) for _ in range(4000)) + "\n"
    code, out, err = run_cli(
        capsys,
        "--players",
        "3",
        "--seed",
        "5",
        "--rounds",
        "1",
        "--no-colour",
        stdin=script,
        monkeypatch=monkeypatch,
    )
    assert code == 0 and err == ""
    assert "Game over" in out and "Winner:" in out
    assert "not accepted:" in out  # nonsense was refused with a reason and asked again
    assert "\x1b[" not in out
    assert "Traceback" not in out


def rigged_state() -> State:
    taken: set[int] = set()
    human = find_cards(DECK, ["cyan 1", "cyan 2", "cyan 3", "yellow 5", "yellow 6", "grey mirror"], taken)
    bot = find_cards(DECK, ["green +3", "green 9", "magenta 1", "magenta 2", "magenta 3", "magenta 7"], taken)
    start = find_cards(DECK, ["green 4"], taken)[0]
    draw = find_cards(DECK, ["yellow 8"], taken)
    state = State(GameConfig(2), DECK)
    state.apply_action(deal_outcome(DECK, [human, bot], start, draw))
    return state


def test_refusals_a_task_asked_of_the_person_and_saving_at_the_end_of_input(tmp_path):
    save = tmp_path / "game.json"
    lines = [
        "1",  # cyan 1 does not fit on green 4
        "d",  # draw yellow 8; the bot attacks with +3
        "1",  # cyan 1 cannot pass a +3 on
        "a",  # accept
        "t",  # try the task
        "maybe",  # not y/n
        "y",
    ]  # managed it
    out = io.StringIO()
    tui = OderNichtsMatch(
        Terminal(io.StringIO("\n".join(lines) + "\n"), out, False),
        rigged_state(),
        ["basic"],
        make_rng(1),
        1,
        save,
    )
    assert tui.run() == 0
    text = out.getvalue()
    assert "cyan 1 does not fit on green 4: it needs the colour green or the symbol '4'" in text
    assert "Player 2 (basic) attacks Player 1 (you) with +3" in text
    assert "only a +3 card (any colour) passes this attack on; cyan 1 does not" in text
    assert "Double or nothing" in text and "Did you manage it?" in text and "type y or n" in text
    assert "Player 1 (you) manages the task(s) and draws nothing" in text
    assert f"input ended: game saved to {save}" in text
    saved = load_json(save)
    assert saved["game"] == "oder_nichts" and saved["bots"] == ["basic"]
    assert Action.from_json(saved["log"][-1]).choice == "success"

    out2 = io.StringIO()
    again = resume(Terminal(io.StringIO("d\nquit\n"), out2, False), save, None)
    assert again.state.log == tui.state.log
    assert again.run() == 0
    assert "you quit: game saved" in out2.getvalue()
    assert len(load_json(save)["log"]) > len(saved["log"])


def test_end_of_input_without_a_save_file_ends_cleanly(capsys, monkeypatch):
    code, out, err = run_cli(capsys, "--seed", "3", "--no-colour", stdin="", monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert "input ended: game not saved" in out


def test_colour_is_used_when_asked(capsys, monkeypatch):
    code, out, _ = run_cli(capsys, "--seed", "3", "--colour", stdin="", monkeypatch=monkeypatch)
    assert code == 0 and "\x1b[" in out


def test_first_game_flag_plays_the_reduced_set_and_is_saved(capsys, monkeypatch, tmp_path):
    save = tmp_path / "first.json"
    code, out, err = run_cli(
        capsys, "--players", "2", "--seed", "3", "--first-game", "--save", str(save),
        stdin="quit\n", monkeypatch=monkeypatch,
    )  # fmt: skip
    assert code == 0 and err == ""
    saved = load_json(save)
    assert saved["config"]["first_game"] is True
    state = State(GameConfig.from_json(saved["config"]), DECK)
    assert not {"half_hand", "hand_swap", "minus20", "afk", "unlucky", "not_me", "hijack", "double"} & set(
        state.spec.composition()
    )


def test_short_turn_prompt_help_status_bar_and_save_word(tmp_path):
    # issue 16: the turn prompt has no nested parentheses; help lists commands with examples
    save = tmp_path / "word.json"
    out = io.StringIO()
    match = OderNichtsMatch(
        Terminal(io.StringIO("help\nsave\nquit\n"), out, False),
        rigged_state(),
        ["basic"],
        make_rng(1),
        1,
        save,
    )
    assert match.run() == 0
    text = out.getvalue()
    prompt = next(line for line in text.splitlines() if line.startswith("Your turn"))
    assert prompt.startswith("Your turn — nothing fits, d = draw >")
    assert prompt.split(">")[0].count("(") == 0
    for example in ("3", "3 4", "d", "a", "n", "t", "save", "quit"):
        assert re.search(rf"^  {re.escape(example)}\s+\S", text, re.M), example
    assert re.search(
        r"^\[Doppelt oder nichts · round 1 · pile green 4 \(follow green\) · Player 1 6c 0m", text, re.M
    )
    assert f"game saved to {save}" in text and "not accepted" not in text
    assert load_json(save)["game"] == "oder_nichts"


# ---- resume: the saved game keeps its set-up ---------------------------------------------


def saved_game(capsys, monkeypatch, tmp_path):
    """A game of seed 3 quit at once and saved; returns the save file."""
    save = tmp_path / "game.json"
    code, _, _ = run_cli(capsys, "--seed", "3", "--save", str(save), stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0 and save.exists()
    return save


@pytest.mark.parametrize(
    "extra, refused",
    [
        (
            ["--players", "6", "--target", "100", "--bots", "random", "--first-game", "--seed", "9"],
            "--players, --bots, --seed, --target and --first-game do",
        ),
        (["--players", "4"], "--players does"),  # the default count, still a set-up choice
        (["--seed", "0"], "--seed does"),  # 0 is a seed, not "no seed"
        (["--rounds", "3"], "--rounds does"),
    ],
)
def test_resume_refuses_every_set_up_flag(capsys, monkeypatch, tmp_path, extra, refused):
    save = saved_game(capsys, monkeypatch, tmp_path)
    saved = save.read_text()
    code, out, err = run_cli(capsys, "--resume", str(save), *extra, stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{refused} not go with --resume (the saved game keeps its set-up)" in err
    assert save.read_text() == saved


def test_resume_still_takes_save_and_colour(capsys, monkeypatch, tmp_path):
    save = saved_game(capsys, monkeypatch, tmp_path)
    other = tmp_path / "other.json"
    code, out, err = run_cli(
        capsys,
        "--resume",
        str(save),
        "--save",
        str(other),
        "--no-colour",
        stdin="quit\n",
        monkeypatch=monkeypatch,
    )
    assert code == 0 and err == "" and "\x1b[" not in out
    assert f"you quit: game saved to {other}" in out
    assert load_json(other)["seed"] == 3
    mine = tmp_path / "mine.json"  # a --save file that is there already is not overwritten
    mine.write_text("my notes")
    code, out, err = run_cli(
        capsys, "--resume", str(save), "--save", str(mine), stdin="quit\n", monkeypatch=monkeypatch
    )
    assert code == 2 and mine.read_text() == "my notes"
    assert "already exists; choose another --save file, or leave --save out to save over" in err


def _help_line(text: str, word: str) -> str:
    return re.findall(rf"^  {word}\s+(.*)$", text, re.M)[-1]


def test_help_says_whether_quit_saves(capsys, monkeypatch, tmp_path):
    # without a save file help promises no save and quit saves nothing
    code, out, _ = run_cli(
        capsys, "--seed", "3", "--no-colour", stdin="help\nquit\n", monkeypatch=monkeypatch
    )
    assert code == 0 and "is saved" not in _help_line(out, "quit")
    assert "you quit: game not saved" in out
    # with --save, or once 'save' has been given a file, help says quit saves, and it does
    save = tmp_path / "s.json"
    code, out, _ = run_cli(
        capsys,
        "--seed",
        "3",
        "--save",
        str(save),
        "--no-colour",
        stdin="help\nquit\n",
        monkeypatch=monkeypatch,
    )
    assert _help_line(out, "quit") == "stop (the game is saved)" and "you quit: game saved to" in out
    named = tmp_path / "named.json"
    code, out, _ = run_cli(
        capsys, "--seed", "3", "--no-colour", stdin=f"save\n{named}\nhelp\nquit\n", monkeypatch=monkeypatch
    )
    assert _help_line(out, "quit") == "stop (the game is saved)" and f"you quit: game saved to {named}" in out

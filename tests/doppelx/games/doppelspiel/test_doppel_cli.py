"""``doppelx doppel``: bots-only statistics, a scripted person's game, save/quit/resume, bad input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from doppelx.cli import main
from doppelx.games.doppelspiel.match import DoppelMatch, Seat, load_session
from doppelx.terminal import Quit, Terminal
from rules.common.rng import make_rng
from rules.doppelspiel import DoppelState, replay_log

ROOT = Path(__file__).resolve().parents[2]


class ScriptedPerson(io.TextIOBase):
    """Input stream that answers each prompt written to ``out`` like a simple person.

    It takes the first suggestion at every throw and every placement, passes on Zwang,
    activates no Joker, and first makes a few mistakes that must be refused. After
    ``budget`` answers the input ends.
    """

    def __init__(self, out: io.StringIO, budget: int | None = None):
        self.out = out
        self.budget = budget
        self.answers = 0
        self.mistakes = ["nonsense", "roll 0", "keep 9", "split 12"]

    def readline(self, size: int = -1) -> str:
        if self.budget is not None and self.answers >= self.budget:
            return ""
        self.answers += 1
        prompt = self.out.getvalue().rsplit("\n", 1)[-1]
        if self.mistakes and "your move" in prompt:
            return self.mistakes.pop() + "\n"
        if "your move" in prompt:
            return "1\n"
        if "group" in prompt:
            return "1\n"
        if "zwang" in prompt:
            return "pass\n"
        if "joker" in prompt:
            return "\n"
        if "save to file" in prompt:
            return "\n"
        raise AssertionError(f"unexpected prompt {prompt!r}")


def run_session(seed: int, opponent: str = "strong", budget: int | None = None, save: Path | None = None):
    out = io.StringIO()
    term = Terminal(ScriptedPerson(out, budget), out, colour=False)
    state = DoppelState()
    session = DoppelMatch(
        term, state, [Seat("You", "human"), Seat("Bot", opponent)], make_rng(seed), seed, save
    )
    rc = session.run()
    return rc, session, out.getvalue()


def test_bots_only_json_statistics(capsys):
    assert (
        main(["doppel", "--bots-only", "--games", "2", "--seed", "4", "--bots", "random,strong", "--json"])
        == 0
    )
    stats = json.loads(capsys.readouterr().out)
    assert stats["games"] == 2 and stats["seed"] == 4 and stats["bots"] == ["random", "strong"]
    wins = sum(b["wins"] for b in stats["per_bot"].values()) + stats["draws"]
    assert wins == 2
    for b in stats["per_bot"].values():
        assert b["min"] <= b["mean"] <= b["max"]
    assert (
        main(["doppel", "--bots-only", "--games", "2", "--seed", "4", "--bots", "random,strong", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == stats


def test_bots_only_text_from_the_real_command_line():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "doppelx",
            "doppel",
            "--bots-only",
            "--games",
            "1",
            "--seed",
            "2",
            "--bots",
            "random,random",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "1 bots-only games" in out.stdout and "random#1" in out.stdout and "random#2" in out.stdout


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--bots-only", "--games", "0"], "--games"),
        (["--bots-only", "--bots", "strong,genius"], "--bots"),
        (["--bots-only", "--save", "x.json"], "--save"),
        (["--json"], "--json"),
        (["--seed", "-3"], "--seed"),
        (["--bots-only", "--opponent", "human"], "--opponent"),
        (["--bots-only", "--name", "Ann", "--bot-starts"], "--name/--bot-starts"),
        (["--games", "3"], "--games"),
        (["--bots", "strong,random"], "--bots"),
        (["--name", "  "], "--name"),
        (["--name", "a\x1bb"], "control character"),
        (["--name", "N" * 81], "at most 80 characters"),  # the save could not be read back
        (["--name", "bot (STRONG)"], "the other sheet's name"),
        (["--name", "Player 2", "--opponent", "human"], "the other sheet's name"),
        (
            ["--resume", "x.json", "--name", "Ann", "--seed", "3"],
            "--name and --seed do not go with --resume (the saved game keeps its set-up)",
        ),
    ],
)
def test_bad_arguments_exit_2(argv, needle, capsys):
    try:
        rc = main(["doppel", *argv])
    except SystemExit as exc:
        rc = exc.code
    assert rc == 2
    assert needle in capsys.readouterr().err


def test_a_scripted_person_plays_a_whole_game_through_the_prompt():
    rc, session, text = run_session(seed=8, opponent="random")
    assert rc == 0
    assert session.state.is_terminal()
    assert "Game over - match points:" in text
    assert "not accepted:" in text  # the mistakes were refused with a reason
    assert text.count("wins.") + text.count("You win.") + text.count("Draw.") == 1
    assert "You wins." not in text
    # the game's log replays to the same sheets
    again = replay_log(session.state.log)
    assert again.scores() == session.state.scores()


def test_save_on_end_of_input_and_resume_gives_the_same_game(tmp_path):
    _, whole, _ = run_session(seed=21, budget=None)
    save = tmp_path / "game.json"
    rc, part, text = run_session(seed=21, budget=30, save=save)
    assert rc == 0 and "input ended: game saved" in text
    assert not part.state.is_terminal()
    out = io.StringIO()
    resumed = load_session(save, Terminal(ScriptedPerson(out), out, colour=False))
    resumed.term.inp.mistakes = []
    assert resumed.state.log == part.state.log
    assert resumed.run() == 0
    assert resumed.state.log == whole.state.log  # same dice, same decisions, same game


def test_quit_and_save_words(tmp_path, monkeypatch, capsys):
    save = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("save\n" + str(save) + "\nquit\n"))
    assert main(["doppel", "--seed", "1", "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert f"game saved to {save}" in out and "you quit: game saved" in out
    data = json.loads(save.read_text())
    assert data["format"] == "doppelx-doppel-save/1" and data["seats"][1]["kind"] == "strong"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["doppel", "--resume", str(save), "--no-colour"]) == 0
    assert "resumed from" in capsys.readouterr().out


def test_end_of_input_without_a_save_file_is_clean(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["doppel", "--seed", "1", "--opponent", "human", "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert "input ended: game not saved" in out
    # two people at one keyboard: Player 1 and Player 2, not "You" and "Player 2"
    assert "Das Doppel Spiel - Player 1 against Player 2" in out


def test_colour_when_asked(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["doppel", "--seed", "1", "--colour"]) == 0
    assert "\x1b[" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content,needle",
    [
        (None, "not found"),
        ("{not json", "bad JSON"),
        ('{"format": "something-else"}', "format"),
        (
            '{"format": "doppelx-doppel-save/1", "seed": 1, "rng": {}, "seats": [{"name": "a", "kind": "human"},'
            ' {"name": "b", "kind": "strong"}], "game": {"format": "doppelspiel-log/1", "log": [[0, "split 11111"]]}}',
            "bad.json: game.log[0]: 'split 11111':",
        ),
    ],
)
def test_bad_resume_files_exit_2(tmp_path, content, needle, capsys):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    assert main(["doppel", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


@pytest.mark.parametrize(
    "extra, refused",
    [
        (["--small-straight", "distinct"], "--small-straight does"),
        (["--highest-single", "entry"], "--highest-single does"),
        (["--small-straight", "run"], "--small-straight does"),  # the default reading, still a choice
        (["--seed", "0"], "--seed does"),  # 0 is a seed, not "no seed"
        (["--bot-starts", "--highest-single", "column"], "--bot-starts and --highest-single do"),
    ],
)
def test_resume_refuses_set_up_flags_and_readings(extra, refused, tmp_path, monkeypatch, capsys):
    save = tmp_path / "r.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["doppel", "--seed", "1", "--no-colour", "--save", str(save)]) == 0
    saved = save.read_text()
    capsys.readouterr()
    assert main(["doppel", "--resume", str(save), *extra]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"{refused} not go with --resume (the saved game keeps its set-up)" in err
    assert save.read_text() == saved


def test_resume_still_takes_save_and_colour(tmp_path, monkeypatch, capsys):
    save, other = tmp_path / "r.json", tmp_path / "other.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    argv = ["doppel", "--seed", "1", "--no-colour", "--save", str(save), "--small-straight", "distinct"]
    assert main(argv) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["doppel", "--resume", str(save), "--save", str(other), "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert f"you quit: game saved to {other}" in out and "\x1b[" not in out
    assert json.loads(other.read_text())["game"]["readings"]["small_straight"] == "distinct"
    mine = tmp_path / "mine.json"  # a --save file that is there already is not overwritten
    mine.write_text("my notes")
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["doppel", "--resume", str(save), "--save", str(mine)]) == 2
    err = capsys.readouterr().err
    assert mine.read_text() == "my notes"
    assert "already exists; choose another --save file, or leave --save out to save over" in err


def test_help_gives_both_seed_defaults(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["doppel", "--help"])
    assert exc.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "seed of the dice (default: a fresh random seed for play, 0 for --bots-only)" in text


def test_readings_are_chosen_by_flags_and_kept_in_the_save(tmp_path, monkeypatch, capsys):
    save = tmp_path / "r.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    argv = ["doppel", "--seed", "1", "--no-colour", "--save", str(save)]
    assert main([*argv, "--small-straight", "distinct", "--highest-single", "entry"]) == 0
    data = json.loads(save.read_text())
    assert data["game"]["readings"] == {"small_straight": "distinct", "highest_single": "entry"}
    session = load_session(save, Terminal(io.StringIO(""), io.StringIO(), colour=False))
    assert session.state.spec.field("ss").natural((3, 4, 5, 6, 6)) is None
    assert session.state.spec.highest_single == "entry"
    capsys.readouterr()


# --- issue 16: dice by faces everywhere, 'skip' named as listed, help and status bar ------


def prompt_session(lines: str, dice=(1, 2, 3, 4, 5, 6, 6, 5, 4, 3)):
    from rules.doppelspiel import Roll

    out = io.StringIO()
    state = DoppelState()
    state.apply_action(Roll(tuple(range(10))))
    state.apply_chance(dice)
    session = DoppelMatch(
        Terminal(io.StringIO(lines), out, colour=False),
        state,
        [Seat("You", "human"), Seat("Bot", "strong")],
        make_rng(0),
        0,
    )
    return session, out


def test_roll_and_keep_both_take_faces():
    from rules.doppelspiel import FreeThrow, Roll, Swap

    session, _ = prompt_session("roll 1 2\n")
    assert session._ask_human() == [Roll((0, 1))]
    session, _ = prompt_session("keep 6 6 5 5 4 4 3 3\n")
    assert session._ask_human() == [Roll((0, 1))]  # the same two dice
    session, _ = prompt_session("roll 6 6\n")
    assert session._ask_human() == [Roll((5, 6))]
    session, out = prompt_session("roll x\nroll 9 9\nswap 3 6\n")
    assert session._ask_human() == [Swap(2, 6)]  # the die showing 3 (position 3) becomes a 6
    assert "the dice do not show 9 9" in out.getvalue() and "takes the faces of dice" in out.getvalue()
    session, _ = prompt_session("free keep 6 6 5 5 4 4 3 3\n")
    session.state.sheets[0].crosses = 3
    assert session._ask_human() == [FreeThrow((0, 1))]


def test_a_refused_strike_names_skip_as_the_list_shows_it():
    from rules.doppelspiel import Split

    session, out = prompt_session("strike ch@1\nskip\n")
    session.state.apply_action(Split((1, 2, 3, 4, 5)))
    assert str(session._ask_human()[0]) == "place skip"
    text = out.getvalue()
    assert "set the group aside with 'skip'" in text and "'place skip'" not in text
    assert re.search(r"\d+\) skip$", text, re.M)  # the list shows 'skip'


def test_help_gives_an_example_per_command_and_the_status_bar_is_one_line():
    session, out = prompt_session("help\nroll\n")
    session._ask_human()
    text = out.getvalue()
    for example in ("roll 1 1 4", "keep 6 6 6", "swap 3 6", "split 11665", "skip", "save", "quit", "hint"):
        assert re.search(rf"^  {re.escape(example)}\s+\S", text, re.M), example
    bar = [line for line in text.splitlines() if line.startswith("[Doppel Spiel")]
    assert bar == [
        "[Doppel Spiel · turn 1: You · throw 1/3 · free throws 0 · Aussetzen 4 left · You 0 (0 mp) | Bot 0 (0 mp)]"
    ]
    # the thrower's own figures fit an 80-column terminal (the sibling-games audit: they were cut)
    assert bar[0].index("Aussetzen 4 left") + len("Aussetzen 4 left") < 78


def test_a_placement_at_the_throw_prompt_says_to_split_first():
    """``116@1`` at the throw prompt said "unknown action" although help lists it (audit)."""
    session, out = prompt_session("116@1\nquit\n")
    with pytest.raises(Quit):
        session._ask_human()
    assert "not accepted: 116@1 places a group: split the dice first" in out.getvalue()


def test_a_name_with_a_no_break_space_is_a_name(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["doppel", "--seed", "1", "--name", "Anna\u00a0B", "--no-colour"]) == 0
    assert "Anna\u00a0B against Bot (strong)" in capsys.readouterr().out


def test_a_name_of_80_characters_is_saved_and_read_back(tmp_path, monkeypatch, capsys):
    save = tmp_path / "s.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["doppel", "--seed", "1", "--name", "N" * 80, "--save", str(save)]) == 0
    session = load_session(save, Terminal(io.StringIO(""), io.StringIO(), colour=False))
    assert session.names[0] == "N" * 80

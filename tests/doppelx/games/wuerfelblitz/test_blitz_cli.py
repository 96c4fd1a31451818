"""``doppelx blitz``: bots-only batches, the analysis, argument errors and the timed terminal game."""

import io
import json
import re
import sys

import pytest

from doppelx.cli import main
from doppelx.games.wuerfelblitz.bots import SKILLS, BlitzBot
from doppelx.games.wuerfelblitz.match import BlitzMatch
from doppelx.games.wuerfelblitz.tournament import play_bots_game, run_batch
from doppelx.games.wuerfelblitz.view import render_throw
from doppelx.terminal import Terminal
from rules.common.rng import child_rng, make_rng
from rules.wuerfelblitz import BlitzThrow, Call, GameConfig, correct_sum, load_spec, replay

SPEC = load_spec()
EXAMPLE_1 = BlitzThrow.of(
    {"orange": 3, "blue": 4, "black": 6, "yellow": "green", "green": 2, "red": 1}, ["black", "green"]
)  # sum 8
EXAMPLE_2 = BlitzThrow.of(
    {"orange": 6, "blue": 3, "black": "yellow", "yellow": "green", "green": "red", "red": 5},
    ["orange", "blue"],
)  # sum 0
EXAMPLE_3 = BlitzThrow.of(
    {"orange": 5, "blue": "black", "black": 4, "yellow": 6, "green": 4, "red": 2}, ["green", "green"]
)  # sum 13 (variant: 8)


def run_cli(capsys, *argv):
    code = main(["blitz", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- bots-only batches -------------------------------------------------------------------


def test_bots_only_json_is_reproducible(capsys):
    code, out, _ = run_cli(capsys, "--bots-only", "--games", "12", "--seed", "7", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 12 and data["seed"] == 7
    assert data["players"] == ["Bot 1 (easy)", "Bot 2 (medium)", "Bot 3 (hard)"]
    assert 12 <= sum(data["wins"].values()) <= 12 + 2 * data["shared_wins"]
    assert data["min_rounds"] <= data["mean_rounds"] <= data["max_rounds"]
    assert data["min_rounds"] >= 9  # nobody wins before 9 correct calls at 3 white per black
    _, again, _ = run_cli(capsys, "--bots-only", "--games", "12", "--seed", "7", "--json")
    assert again == out


def test_bots_only_text_with_options(capsys):
    code, out, _ = run_cli(
        capsys,
        "--bots-only",
        "--games",
        "5",
        "--seed",
        "1",
        "--bots",
        "hard,easy",
        "--white",
        "3",
        "--variant",
        "--whites-per-black",
        "3,1",
        "--no-colour",
    )
    assert code == 0
    assert "5 bots-only games, seed 1, 3 white dice, variant" in out
    assert re.search(r"Bot 2 \(easy\)\s+wins\s+\d+ .*\[1 white per black\]", out)
    assert "game length: mean" in out


def test_batch_games_use_child_rngs_and_match_single_games():
    bots = [BlitzBot(SKILLS["medium"], "a"), BlitzBot(SKILLS["hard"], "b")]
    config = GameConfig.from_spec(SPEC, 2)
    stats = run_batch(SPEC, config, bots, 4, seed=11)
    games = [play_bots_game(SPEC, config, bots, child_rng(11, i)) for i in range(4)]
    assert stats.mean_rounds == sum(len(g.history) for g in games) / 4
    assert list(stats.wins) == [sum(p in g.winners() for g in games) for p in range(2)]
    # the log of a bots-only game replays to the same result
    for g in games:
        assert replay(g.to_json(), SPEC).discs() == g.discs()


# --- the analysis ------------------------------------------------------------------------


def test_analyse_json(capsys):
    code, out, _ = run_cli(capsys, "--analyse", "--samples", "3000", "--json", "--seed", "2")
    assert code == 0
    data = json.loads(out)
    cases = {(c["white_dice"], c["variant"]): c for c in data["cases"]}
    assert set(cases) == {(2, False), (3, False), (2, True), (3, True)}
    assert cases[(2, False)]["p_zero"] == "4093/139968"
    for c in cases.values():
        assert c["monte_carlo"]["samples"] == 3000
        assert c["monte_carlo"]["max_abs_z"] < 5


def test_analyse_text(capsys):
    code, out, _ = run_cli(capsys, "--analyze", "--samples", "1000")
    assert code == 0
    assert "4093/139968" in out and "137/13122" in out
    assert "P(sum = s)" in out


# --- argument errors: one line, exit 2 -----------------------------------------------------


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bots-only", "--games", "0"], "whole number from 1"),
        (["--bots-only", "--bots", "easy,expert"], "comma-separated list"),
        (["--bots-only", "--bots", "easy,easy,easy,easy,easy,easy,easy,easy"], "2-7 players"),
        (["--bots-only", "--bots", "easy,hard", "--whites-per-black", "3"], "one number per player"),
        # the flag as typed, not the rules' field name whites_per_black (you and two bots: 3)
        (["--whites-per-black", "1,3"], "--whites-per-black needs one number per player (3), got 2"),
        (["--bots-only", "--whites-per-black", "3,x,3"], "whole numbers 1-3"),
        (["--json"], "--json goes with"),
        (["--games", "3"], "--games goes with --bots-only"),
        (["--bots-only", "--samples", "3"], "--samples goes with --analyse"),
        (["--bots-only", "--analyse"], "not allowed with"),
        (["--white", "4"], "invalid choice"),
        (["--analyse", "--white", "3"], "--white does not go with --analyse"),
        (["--analyse", "--white", "3", "--no-variant"], "--white and --no-variant do not go with --analyse"),
        (["--seed", "-3"], "whole number from 0"),
        (["--bots-only", "--dice", "/nonexistent/wb.toml"], "file not found"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    try:
        code = main(["blitz", *argv])
    except SystemExit as exc:  # argparse
        code = exc.code
    _, err = capsys.readouterr()
    assert code == 2
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0]  # argparse also prints its usage


# --- the terminal game -------------------------------------------------------------------


class ScriptedBot:
    """Calls what the test says: ``(value or None for the correct sum, time)`` per round."""

    def __init__(self, name, script):
        self.name, self.script = name, list(script)

    def call(self, player, throw, variant, rng):
        value, time = self.script.pop(0)
        return Call(player, correct_sum(throw, variant) if value is None else value, time)


def scripted_game(lines, clock_times, bot_script, throws, **config):
    out = io.StringIO()
    term = Terminal(io.StringIO("".join(line + "\n" for line in lines)), out, colour=False)
    cfg = GameConfig.from_spec(SPEC, 2, **config)
    it = iter(throws)
    game = BlitzMatch(
        term,
        SPEC,
        cfg,
        [ScriptedBot("Robo", bot_script)],
        make_rng(1),
        clock=iter(clock_times).__next__,
        throw_source=lambda state, rng: next(it),
    )
    return game, out


def test_timed_prompt_game_is_scripted_deterministically():
    # you: a black disc for every correct answer (handicap 1); the bot: 3 white per black
    game, out = scripted_game(
        lines=[
            "",
            "abc",
            "99",
            "8",  # round 1: two bad answers re-asked, then 8 after 1.0 s
            "go",
            "",
            "0",  # round 2: "go" is re-asked; 0 after 1.05 s
            "",
            "13",
        ],  # round 3: 13 after 2.0 s
        clock_times=[10.0, 11.0, 20.0, 21.05, 30.0, 32.0],
        bot_script=[
            (None, 2.0),  # round 1: right but slower than you
            (None, 1.0),  # round 2: right, 0.05 s before you: a tie
            (3, 0.8),
        ],  # round 3: wrong, costs its white disc
        throws=[EXAMPLE_1, EXAMPLE_2, EXAMPLE_3],
        whites_per_black=(1, 3),
    )
    assert game.run() == 0
    text = out.getvalue()
    st = game.state
    h = st.history
    assert [r.correct for r in h] == [8, 0, 13]
    assert h[0].winners == (0,) and [c.player for c in h[0].late] == [1]
    assert h[0].calls[0].time == pytest.approx(1.0)
    assert h[1].winners == (1, 0)  # the bot first, you within the tie window
    assert h[2].winners == (0,) and h[2].lost_white == (1,)
    assert st.is_terminal() and st.winners() == (0,)
    assert st.discs() == [(0, 3), (0, 0)]
    assert text.count("not accepted") == 3
    assert "type the sum as a number 0..35" in text
    assert "no throw sums to more than 35" in text
    assert "press Enter to lift the box" in text
    assert "You won after 3 rounds!" in text
    assert "yellow: green dot" in text  # plain-text throw
    assert "-1 white disc" in text


def test_slow_answer_is_too_late_and_pass_is_allowed():
    game, out = scripted_game(
        lines=["", "8", "", "p", "q"],
        clock_times=[0.0, 30.0, 40.0, 41.0],
        bot_script=[(None, 2.5), (None, 3.0)],
        throws=[EXAMPLE_1, EXAMPLE_3],
    )
    assert game.run() == 0
    text = out.getvalue()
    assert "you called 8 after 30.00 s — too late, Robo had it after 2.50 s" in text
    assert "you passed" in text
    assert "Game stopped." in text
    assert game.state.discs() == [(0, 0), (2, 0)]


def test_end_of_input_stops_cleanly():
    game, out = scripted_game(
        lines=["", "5"],
        clock_times=[0.0, 1.0],
        bot_script=[(None, 3.0), (None, 3.0)],
        throws=[EXAMPLE_1, EXAMPLE_2],
    )
    assert game.run() == 0
    assert "Input ended — game stopped in round 2." in out.getvalue()


def test_variant_game_announces_the_rule_and_scores_by_it():
    game, out = scripted_game(
        lines=["", "8", "q"],
        clock_times=[0.0, 1.0],
        bot_script=[(None, 3.0)],
        throws=[EXAMPLE_3],
        variant=True,
    )
    game.run()
    assert "Hirnverdreher" in out.getvalue()
    assert game.state.history[0].correct == 8 and game.state.history[0].winners == (0,)
    assert "only the dice shown as dots count" in out.getvalue()


def test_colour_rendering_uses_coloured_glyphs():
    lines = render_throw(Terminal(io.StringIO(), io.StringIO(), colour=True), EXAMPLE_1)
    assert "\u2682" in lines[0] and "\x1b[" in lines[0]  # ⚂ for the orange 3, painted
    assert "\u25cf" in lines[1]  # dots on the white dice
    plain = render_throw(Terminal(io.StringIO(), io.StringIO(), colour=False), EXAMPLE_1)
    assert "\x1b[" not in "".join(plain)
    assert plain[0].split()[:4] == ["coloured:", "orange", "3", "blue"]
    assert plain[1] == "  white:    black dot   green dot"


def test_cli_game_through_a_pipe_ends_cleanly(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\nxyz\np\n\nq\n"))
    code, out, err = run_cli(capsys, "--seed", "3", "--bots", "easy")
    assert code == 0 and err == ""
    assert "Drei!" in out and "not accepted" in out and "Game stopped." in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run_cli(capsys, "--seed", "3")
    assert code == 0 and "Input ended" in out


# --- save and resume, help, status bar, colour initials (issue 16) --------------------------


def passing_game(lines, save=None):
    """You pass every round against two real bots; the clock never matters."""
    from doppelx.games.wuerfelblitz.match import make_bots

    out = io.StringIO()
    term = Terminal(io.StringIO("".join(line + "\n" for line in lines)), out, colour=False)
    cfg = GameConfig.from_spec(SPEC, 3)
    game = BlitzMatch(term, SPEC, cfg, make_bots(["easy", "hard"]), make_rng(5), save_path=save, seed=5)
    return game, out


def test_quit_mid_round_saves_and_resume_finishes_like_an_uninterrupted_game(tmp_path):
    from doppelx.games.wuerfelblitz.match import resume

    whole, _ = passing_game(["", "p"] * 200)
    assert whole.run() == 0 and whole.state.is_terminal()
    save = tmp_path / "blitz.json"
    part, out = passing_game(["", "p", "", "p", "", "quit"], save)
    assert part.run() == 0
    assert "you quit: game saved to" in out.getvalue() and "Game stopped." in out.getvalue()
    assert len(part.state.history) == 2 and part.state.throw is not None  # quit at "Sum?"
    out2 = io.StringIO()
    again = resume(Terminal(io.StringIO("\np\n" * 200), out2, colour=False), save)
    assert len(again.state.history) == 2 and again.state.throw is None  # the round is played again
    assert again.run() == 0
    assert [r.correct for r in again.state.history] == [r.correct for r in whole.state.history]
    assert again.state.to_json() == whole.state.to_json()


def test_save_word_and_resume_from_the_command_line(tmp_path, capsys, monkeypatch):
    save = tmp_path / "cli.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("save\n\np\nquit\n"))
    code, out, err = run_cli(capsys, "--seed", "3", "--bots", "easy", "--save", str(save))
    assert code == 0 and err == "" and f"game saved to {save}" in out and "you quit: game saved" in out
    data = json.loads(save.read_text())
    assert data["format"] == "doppelx-blitz-save/1" and data["bots"] == ["easy"] and data["seed"] == 3
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    code, out, _ = run_cli(capsys, "--resume", str(save))
    assert code == 0 and "resumed from" in out and "Round 2" in out
    code, _, err = run_cli(capsys, "--resume", str(save), "--bots", "hard")
    assert code == 2 and "--bots does not go with --resume" in err
    code, _, err = run_cli(capsys, "--resume", str(save), "--no-variant", "--seed", "0")
    assert code == 2 and "--no-variant and --seed do not go with --resume" in err
    mine = tmp_path / "mine.json"  # a --save file that is there already is not overwritten
    mine.write_text("my notes")
    code, _, err = run_cli(capsys, "--resume", str(save), "--save", str(mine))
    assert code == 2 and mine.read_text() == "my notes"
    assert "already exists; choose another --save file, or leave --save out to save over" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "doppelx-blitz-save/1", "bots": ["easy"]}')
    code, _, err = run_cli(capsys, "--resume", str(bad))
    assert code == 2 and ("damaged save" in err or "missing" in err) and len(err.strip().splitlines()) == 1


def test_help_lists_every_command_with_an_example_and_a_status_bar_precedes_each_prompt():
    game, out = passing_game(["help", "", "p", "q"])
    game.run()
    text = out.getvalue()
    assert "Commands (with an example each):" in text
    for example in ("(Enter)", "8", "p", "help", "save", "quit"):
        assert re.search(rf"^  {re.escape(example)}\s+\S", text, re.M), example
    bars = [line for line in text.splitlines() if line.startswith("[Würfelblitz · round")]
    assert len(bars) == 3  # one per prompt: lift the box, the sum, lift the box again
    assert "You 0/3w 0/3b" in bars[0]


def test_colour_mode_tells_the_dice_apart_by_their_initials():
    lines = render_throw(Terminal(io.StringIO(), io.StringIO(), colour=True), EXAMPLE_1)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", lines[0])
    # orange 3, blue 4, black 6 (K), yellow with a green dot, green 2, red 1
    assert plain.split()[1:] == ["O\u26823", "B\u26834", "K\u26856", "Y(\u25cfG)", "G\u26812", "R\u26801"]
    assert re.sub(r"\x1b\[[0-9;]*m", "", lines[1]).split()[1:] == ["[\u25cfK]", "[\u25cfG]"]

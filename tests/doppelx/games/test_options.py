"""The games' shared command-line checks (doppelx/games/options.py)."""

import argparse

import pytest

from doppelx.games.options import flag_name, given_flags, listed, refuse_with_resume
from rules.common.errors import DoppelXError


def args(**values) -> argparse.Namespace:
    return argparse.Namespace(**{"resume": None, "seed": None, "variant": None, "bots": None, **values})


def test_a_flag_is_named_as_typed():
    assert flag_name("whites_per_black") == "--whites-per-black"


def test_given_means_not_none_so_zero_and_false_count():
    assert given_flags(args(seed=0, variant=False), "seed", "variant", "bots") == ["--seed", "--no-variant"]
    assert given_flags(args(variant=True), "variant") == ["--variant"]
    assert given_flags(args(), "seed", "variant", "bots") == []


def test_flags_are_listed_as_a_sentence():
    assert listed(["--a"]) == "--a"
    assert listed(["--a", "--b"]) == "--a and --b"
    assert listed(["--a", "--b", "--c"]) == "--a, --b and --c"


def test_set_up_flags_are_refused_only_with_resume():
    refuse_with_resume(args(seed=3), "seed")  # a new game: nothing to refuse
    refuse_with_resume(args(resume="g.json"), "seed", "bots")  # no set-up flag given
    with pytest.raises(DoppelXError, match=r"^--seed does not go with --resume \(the saved game keeps its"):
        refuse_with_resume(args(resume="g.json", seed=0), "seed", "bots")
    with pytest.raises(DoppelXError, match=r"^--seed and --bots do not go with --resume"):
        refuse_with_resume(args(resume="g.json", seed=1, bots=["easy"]), "seed", "bots")


GAMES = ("clever", "doppel", "oder-nichts", "blitz")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("flags", "colour"),
    [
        ((), None),
        (("--colour",), True),
        (("--color",), True),
        (("--no-colour",), False),
        (("--no-color",), False),
    ],
)
def test_every_terminal_game_takes_the_same_colour_switches(game, flags, colour):
    from doppelx.cli import build_parser

    assert build_parser().parse_args([game, *flags]).colour is colour


@pytest.mark.parametrize("game", GAMES)
def test_both_colour_switches_together_are_refused_with_exit_2(game, capsys):
    from doppelx.cli import build_parser

    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args([game, "--colour", "--no-colour"])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err

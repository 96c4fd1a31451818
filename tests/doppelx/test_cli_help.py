"""Every ``doppelx`` command's ``--help`` renders, and reads as written (no escaped ``%%`` left)."""

from __future__ import annotations

import argparse

from doppelx.cli import build_parser


def _parsers(parser: argparse.ArgumentParser, prog: str = "doppelx"):
    """``(prog, parser)`` for the parser and every sub-command below it."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{prog} {name}")


def test_every_help_renders_without_format_escapes():
    seen = []
    for prog, parser in _parsers(build_parser()):
        text = parser.format_help()  # raises on a bad %-placeholder in an option's help
        assert "%%" not in text and "%(" not in text, prog
        seen.append(prog)
    # the walk reached the nested commands too
    assert {"doppelx bench cuboid", "doppelx simulate games", "doppelx throw"} <= set(seen)


def test_play_names_help_states_the_form_s_limit():
    from doppelx.play.newgame import MAX_NAME

    play = dict(_parsers(build_parser()))["doppelx play"]
    assert f"at most {MAX_NAME} characters" in " ".join(play.format_help().split())

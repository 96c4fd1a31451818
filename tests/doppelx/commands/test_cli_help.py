"""Every ``doppelx`` command's ``--help`` renders, and reads as written (no escaped ``%%`` left)."""

from __future__ import annotations

from doppelx.cli import build_parser, command_parsers


def _parsers():
    """``(prog, parser)`` for ``doppelx`` and every sub-command below it."""
    parser = build_parser()
    return [(p.prog, p) for p in (parser, *command_parsers(parser))]


def test_every_help_renders_without_format_escapes():
    seen = []
    for prog, parser in _parsers():
        text = parser.format_help()  # raises on a bad %-placeholder in an option's help
        assert "%%" not in text and "%(" not in text, prog
        seen.append(prog)
    # the walk reached the nested commands too
    assert {"doppelx bench cuboid", "doppelx simulate games", "doppelx throw"} <= set(seen)


def test_play_names_help_states_the_form_s_limit():
    from doppelx.games.doppelx.play.newgame import MAX_NAME

    play = dict(_parsers())["doppelx play"]
    assert f"at most {MAX_NAME} characters" in " ".join(play.format_help().split())

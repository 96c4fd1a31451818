"""Command-line checks shared by the four games' ``command`` modules.

The project's rule: an option that would do nothing is refused with one clear line (exit
code 2), never silently ignored. A resumed game keeps the set-up it was saved with, so its
set-up flags (seed, players, bots, readings …) are refused with ``--resume``; the flags
that still act on a resumed game (``--save``, the colour options) are simply not named.
The colour options are one pair for all four games (:func:`add_colour_options`).
"""

from __future__ import annotations

import argparse

from rules.common.errors import DoppelXError


def flag_name(dest: str, value: object = None) -> str:
    """The flag as the user typed it: ``whites_per_black`` -> ``--whites-per-black``; the
    ``False`` of a ``--x/--no-x`` pair (argparse's ``BooleanOptionalAction``) -> ``--no-x``."""
    flag = dest.replace("_", "-")
    return f"--no-{flag}" if value is False else f"--{flag}"


def given_flags(args: argparse.Namespace, *dests: str) -> list[str]:
    """The flags among ``dests`` (argparse destinations) that were given on the command line.

    An option counts as given when its value is not ``None``, so every option checked this
    way defaults to ``None`` (switches too): ``--seed 0`` and ``--no-variant`` count as given.
    A plain switch (``store_true``) is never ``False``; only a ``--x/--no-x`` pair is.
    """
    return [flag_name(dest, getattr(args, dest)) for dest in dests if getattr(args, dest) is not None]


def listed(flags: list[str]) -> str:
    """``["--a"]`` -> ``--a``; ``["--a", "--b", "--c"]`` -> ``--a, --b and --c``."""
    return flags[0] if len(flags) == 1 else f"{', '.join(flags[:-1])} and {flags[-1]}"


def refuse_with_resume(args: argparse.Namespace, *setup: str) -> None:
    """With ``--resume``, refuse the set-up flags among ``setup``: the saved game keeps its own.

    Args:
        args: the parsed command line (with a ``resume`` destination).
        setup: the destinations of the options that set a new game up.

    Raises:
        DoppelXError: naming every set-up flag given, e.g. "--seed does not go with
            --resume (the saved game keeps its set-up)".
    """
    if args.resume is None:
        return
    given = given_flags(args, *setup)
    if given:
        verb = "does" if len(given) == 1 else "do"
        raise DoppelXError(f"{listed(given)} {verb} not go with --resume (the saved game keeps its set-up)")


def add_colour_options(parser: argparse.ArgumentParser) -> None:
    """The terminal games' colour switches, the same in every game: ``--colour`` (or
    ``--color``) forces ANSI colour, ``--no-colour`` (or ``--no-color``) turns it off; both
    together are refused by argparse (exit 2). ``args.colour`` is ``True``, ``False`` or
    ``None`` (neither given: colour on a terminal unless ``NO_COLOR`` is set —
    :class:`doppelx.terminal.Terminal`)."""
    colour = parser.add_mutually_exclusive_group()
    colour.add_argument(
        "--colour",
        "--color",
        dest="colour",
        action="store_const",
        const=True,
        default=None,
        help="force ANSI colour (even when the output is not a terminal)",
    )
    colour.add_argument(
        "--no-colour",
        "--no-color",
        dest="colour",
        action="store_const",
        const=False,
        help="plain text without ANSI colour (so does the NO_COLOR environment variable)",
    )

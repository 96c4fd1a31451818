"""``doppelx doppel``: play Das Doppel Spiel in the terminal, or run bots-only batches.

* ``doppelx doppel [--opponent strong|random|human] [--seed S] [--save FILE]`` — you against
  a bot (or a second person at the same keyboard).
* ``doppelx doppel --resume FILE`` — continue a saved game.
* ``doppelx doppel --bots-only --games N --seed S [--bots strong,random] [--json]`` — statistics.
"""

from __future__ import annotations

import argparse
import json
import unicodedata
from typing import Any

from doppelx import argtypes
from doppelx.games.options import add_colour_options, given_flags, refuse_with_resume
from rules.common.rng import fresh_seed
from rules.common.schema import MAX_TEXT_CHARS

BOT_NAMES = ("strong", "random")
DEFAULT_GAMES = 20
#: the options that set a new game up; a resumed game keeps its own (refused with --resume)
SETUP_FLAGS = ("opponent", "name", "bot_starts", "seed", "small_straight", "highest_single")


def register(subparsers: Any) -> None:
    """Add the ``doppel`` sub-command."""
    p = subparsers.add_parser(
        "doppel",
        help="Das Doppel Spiel (10-dice Kniffel): you against a bot, or bots-only statistics",
        description="Das Doppel Spiel, a 10-dice Kniffel variant for two. By default you play "
        "against the strong bot in the terminal; --bots-only plays many games between "
        "bots and prints score statistics. At any prompt: help, sheet, hint, save, quit.",
    )
    p.add_argument(
        "--opponent",
        choices=("strong", "random", "human"),
        default=None,
        help="who plays the other sheet (human = two people at one keyboard; default strong)",
    )
    p.add_argument(
        "--name",
        type=_player_name,
        default=None,
        help="your name on the sheet (default You; Player 1 against --opponent human)",
    )
    p.add_argument(
        "--bot-starts",
        action="store_true",
        default=None,  # None = not given, so --bots-only and --resume can refuse it
        help="the opponent takes the first turn",
    )
    p.add_argument(
        "--seed",
        type=argtypes.seed,
        help="seed of the dice (default: a fresh random seed for play, 0 for --bots-only)",
    )
    p.add_argument(
        "--save",
        type=argtypes.output_path,
        help="save the game here on 'save', 'quit' and at the end of the input",
    )
    p.add_argument(
        "--resume",
        type=argtypes.input_path,
        help="continue a game saved with --save / 'save' (it keeps its set-up and readings; "
        "--save and the colour options still apply)",
    )
    p.add_argument(
        "--small-straight",
        choices=("run", "distinct"),
        default=None,  # None = not given: the spec's reading, and --resume can refuse it
        help="Kleine Straße: 'run' = five different values or four in a row (default), "
        "'distinct' = five different values only",
    )
    p.add_argument(
        "--highest-single",
        choices=("column", "entry"),
        default=None,  # None = not given: the spec's reading, and --resume can refuse it
        help="the 1 match point for 'das höchste Einzelergebnis': the best column total (default) "
        "or the highest single entry",
    )
    p.add_argument("--bots-only", action="store_true", help="only bots play; print score statistics")
    p.add_argument(
        "--bots",
        type=argtypes.names(BOT_NAMES, 2),
        default=None,
        metavar="A,B",
        help="bots-only: the two bots (strong, random; default strong,random)",
    )
    p.add_argument(
        "--games",
        type=argtypes.positive,
        default=None,
        help=f"bots-only: number of games (default {DEFAULT_GAMES})",
    )
    p.add_argument("--json", action="store_true", help="bots-only: print the statistics as JSON")
    add_colour_options(p)
    p.set_defaults(func=run)


def _player_name(text: str) -> str:
    """A name for the sheet: not empty, no control characters (surrounding spaces dropped)."""
    name = text.strip()
    if not name:
        raise argparse.ArgumentTypeError("the name must not be empty")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        raise argparse.ArgumentTypeError(f"{argtypes.shown(name)}: the name holds a control character")
    if len(name) > MAX_TEXT_CHARS:  # the save keeps it, and reading the save back takes no more
        raise argparse.ArgumentTypeError(
            f"the name must be at most {MAX_TEXT_CHARS} characters, got {len(name)}"
        )
    return name


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""

    from doppelx.terminal import Terminal, check_new_save, naming_save
    from rules.common.errors import RulesError
    from rules.doppelspiel import default_spec

    spec = default_spec().with_readings(args.small_straight, args.highest_single)

    if args.bots_only:
        if args.resume is not None or args.save is not None:
            raise RulesError("--save/--resume belong to a person's game, not to --bots-only")
        person = given_flags(args, "opponent", "name", "bot_starts")
        if person:
            raise RulesError(f"{'/'.join(person)}: for a person's game, not for --bots-only (use --bots A,B)")
        from doppelx.games.doppelspiel.tournament import run_batch

        seed = args.seed if args.seed is not None else 0
        stats = run_batch(args.bots or ["strong", "random"], args.games or DEFAULT_GAMES, seed, spec=spec)
        if args.json:
            print(json.dumps(stats, indent=1))
        else:
            _print_stats(stats)
        return 0
    if args.json:
        raise RulesError("--json is for --bots-only statistics")
    batch = given_flags(args, "bots", "games")
    if batch:
        raise RulesError(f"{'/'.join(batch)}: for --bots-only statistics (a game against a bot: --opponent)")
    from doppelx.games.doppelspiel.match import DoppelMatch, Seat, load_session
    from rules.common.rng import make_rng
    from rules.doppelspiel import DoppelState

    refuse_with_resume(args, *SETUP_FLAGS)
    term = Terminal(colour=args.colour)
    if args.resume is not None:
        with naming_save(args.resume):
            session = load_session(args.resume, term)
        if args.save is not None:
            check_new_save(args.save, args.resume)
            session.save_path = args.save
        term.say(
            f"Das Doppel Spiel - resumed from {args.resume}: {session.names[0]} against {session.names[1]}"
        )
        return session.run()
    seed = args.seed
    if seed is None:
        seed = fresh_seed()
    check_new_save(args.save)
    opponent = args.opponent or "strong"
    # two people at one keyboard are both "you": the sheets are Player 1 and Player 2
    name = args.name or ("Player 1" if opponent == "human" else "You")
    other = "Player 2" if opponent == "human" else f"Bot ({opponent})"
    if name.casefold() == other.casefold():
        raise RulesError(f"--name: {name!r} is the other sheet's name; choose another")
    seats = [Seat(name, "human"), Seat(other, opponent)]
    state = DoppelState(spec, first_player=1 if args.bot_starts else 0)
    session = DoppelMatch(term, state, seats, make_rng(seed), seed, args.save)
    term.say(
        f"Das Doppel Spiel - {name} against {other} (seed {seed}). "
        "Type help for the commands; save and quit work at every prompt."
    )
    return session.run()


def _print_stats(stats: dict) -> None:
    print(
        f"Das Doppel Spiel: {stats['games']} bots-only games, seed {stats['seed']} (the bots take turns to start)"
    )
    print(f"{'bot':<12} {'wins':>6} {'share':>7} {'mean':>9} {'min':>6} {'max':>6} {'match pts':>10}")
    for label in stats["bots"]:
        b = stats["per_bot"][label]
        print(
            f"{label:<12} {b['wins']:>6} {b['wins'] / stats['games']:>7.1%} {b['mean']:>9.1f} "
            f"{b['min']:>6} {b['max']:>6} {b['mean_match_points']:>10.2f}"
        )
    print(f"draws: {stats['draws']}   (scores are grand totals; wins by match points, 13 per game)")

"""``doppelx clever``: play Doppelt so clever in the terminal, or run bots-only batches.

Examples::

    doppelx clever                                  # you against the strong bot
    doppelx clever --players human,human            # hot-seat for two
    doppelx clever --players human --save solo.json # solo, saved on save/quit
    doppelx clever --resume solo.json               # go on with a saved game
    doppelx clever --bots-only --games 100 --seed 1 --json
"""

from __future__ import annotations

import argparse
import json
import sys

from doppelx import argtypes
from doppelx.games.options import add_colour_options, refuse_with_resume
from rules.common.rng import fresh_seed


def _players(text: str) -> list[str]:
    from doppelx.games.clever.match import parse_players

    try:
        return parse_players(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``clever`` sub-command."""
    p = subparsers.add_parser(
        "clever",
        help="play Doppelt so clever (Wolfgang Warsch) against bots or hot-seat",
        description="Doppelt so clever in the terminal: people (hot-seat) and bots, 1-4 players. "
        "At any prompt type save, quit, sheet or help.",
    )
    p.add_argument(
        "--players",
        type=_players,
        default=None,
        metavar="LIST",
        help="comma-separated seats: human, strong, random (default: human,strong; "
        "with --bots-only: strong,random)",
    )
    p.add_argument(
        "--seed",
        type=argtypes.seed,
        default=None,
        help="seed of the dice and bots (default: random for play, 0 for --bots-only)",
    )
    p.add_argument(
        "--save",
        metavar="FILE",
        type=argtypes.output_file,
        default=None,
        help="file that save/quit/end of input write (default: clever-save.json, or the --resume file)",
    )
    p.add_argument(
        "--resume",
        type=argtypes.input_path,
        metavar="FILE",
        default=None,
        help="continue a saved game (it keeps its players and seed; --save and the colour options still apply)",
    )
    add_colour_options(p)
    p.add_argument("--bots-only", action="store_true", help="play bots only and print score statistics")
    p.add_argument(
        "--games", type=argtypes.positive, default=None, help="games of a --bots-only batch (default 1)"
    )
    p.add_argument("--json", action="store_true", help="with --bots-only: print the statistics as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    from pathlib import Path

    from doppelx.terminal import Terminal, check_new_save
    from rules.common.errors import DoppelXError

    if not args.bots_only:
        for flag in ("games", "json"):
            if getattr(args, flag):
                raise DoppelXError(f"--{flag} needs --bots-only")

        from doppelx.games.clever.match import run_match

        refuse_with_resume(args, "players", "seed")
        kinds = args.players or ["human", "strong"]
        if "human" not in kinds and args.resume is None:
            raise DoppelXError("no human player: use --bots-only for bots-only games")
        seed = args.seed
        if seed is None:
            seed = fresh_seed()
        if args.resume is None:
            from doppelx.games.clever.match import CleverMatch

            check_new_save(args.save or CleverMatch.default_save)  # the default file is a save too
        else:
            check_new_save(args.save, args.resume)
        term = Terminal(colour=args.colour)
        return run_match(
            kinds,
            seed,
            term,
            Path(args.save) if args.save else None,
            Path(args.resume) if args.resume is not None else None,
        )

    if args.resume is not None or args.save is not None:
        raise DoppelXError("--bots-only games are not saved; leave out --save/--resume")
    kinds = args.players or ["strong", "random"]
    if "human" in kinds:
        raise DoppelXError("--bots-only takes bots only (strong, random), not human")
    from doppelx.games.clever.match import CleverMatch
    from doppelx.games.clever.tournament import batch_stats, summarize

    games = args.games or 1
    seed = args.seed if args.seed is not None else 0
    if games == 1 and not args.json:
        match = CleverMatch(kinds, seed, Terminal(colour=args.colour), None)
        match.play()
        match.finished()
        stats = summarize(kinds, [match.state], seed)
    else:
        stats = batch_stats(kinds, games, seed)
    if args.json:
        print(json.dumps(stats, indent=1))
        return 0
    print(
        f"Doppelt so clever, bots only: {games} game{'' if games == 1 else 's'}, "
        f"{len(kinds)} player(s), seed {seed}"
    )
    print(f"{'seat':<5} {'bot':<8} {'mean':>8} {'min':>5} {'max':>5} {'wins':>7}")
    for row in stats["bots"]:
        print(
            f"{row['seat']:<5} {row['bot']:<8} {row['mean']:>8.2f} {row['min']:>5} {row['max']:>5} "
            f"{row['wins']:>7.2f}"
        )
    sys.stdout.flush()
    return 0

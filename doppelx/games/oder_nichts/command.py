"""``doppelx oder-nichts``: play Doppelt oder nichts against bots, or run bots-only batches."""

from __future__ import annotations

import argparse
import json

from doppelx import argtypes
from doppelx.games.options import add_colour_options, refuse_with_resume
from rules.common.rng import fresh_seed

DEFAULT_GAMES = 100
DEFAULT_PLAYERS = 4
#: the options that set a new game up; a resumed game keeps its own (refused with --resume)
SETUP_FLAGS = ("players", "bots", "seed", "target", "rounds", "first_game")


def _whole(minimum: int):
    def parse(text: str) -> int:
        try:
            n = argtypes.plain_int(text)
        except ValueError:
            n = minimum - 1
        if n < minimum:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {minimum}, got {text!r}")
        return n

    return parse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``oder-nichts`` sub-command."""
    p = subparsers.add_parser(
        "oder-nichts",
        help="the card game Doppelt oder nichts: you against bots, or bots-only statistics",
        description="Doppelt oder nichts (Wobble Games), a shedding card game. By default you "
        "(player 1) play against bots in the terminal; --bots-only plays many "
        "games between bots and prints statistics.",
    )
    p.add_argument(
        "--players",
        type=argtypes.whole(None, None),
        default=None,
        help=f"number of players, 2-8 (default {DEFAULT_PLAYERS})",
    )
    p.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots for the bot seats (basic, gambler, cautious, random); "
        "one name is used for every seat (default: basic)",
    )
    p.add_argument(
        "--seed",
        type=_whole(0),
        default=None,
        help="seed of the shuffles, tasks and bot choices (default: a random one for play, printed at "
        "the start; 0 for --bots-only, so the same command gives the same statistics)",
    )
    p.add_argument(
        "--target", type=_whole(1), default=None, help="minus points that end the game (default 500)"
    )
    p.add_argument("--rounds", type=_whole(1), default=None, help="end after this many rounds instead")
    p.add_argument(
        "--first-game",
        action="store_true",
        default=None,  # None = not given, so --resume can refuse it
        help="the rulebook's reduced card set for first games (numbers, direction and colour change, "
        "skip, +3, +5, magnet, dodge, you!, mirror)",
    )
    p.add_argument("--bots-only", action="store_true", help="only bots play; print statistics")
    p.add_argument("--games", type=_whole(1), default=None, help="games in a bots-only batch (default 100)")
    p.add_argument("--json", action="store_true", help="bots-only: print the statistics as JSON")
    p.add_argument(
        "--save",
        type=argtypes.output_path,
        default=None,
        help="save the game here when you quit or the input ends",
    )
    p.add_argument(
        "--resume",
        type=argtypes.input_path,
        default=None,
        help="continue a saved game (it keeps its set-up; --save and the colour options still apply)",
    )
    add_colour_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code."""
    from doppelx.games.oder_nichts.tournament import parse_lineup, run_batch
    from doppelx.terminal import Terminal, check_new_save, naming_save
    from rules.common.errors import DoppelXError
    from rules.oder_nichts.state import GameConfig

    if args.bots_only:
        for flag, value in (("--save", args.save), ("--resume", args.resume)):
            if value is not None:
                raise DoppelXError(f"{flag} is for a person's game; it does not go with --bots-only")
    else:
        for flag, value in (("--games", args.games), ("--json", args.json or None)):
            if value is not None:
                raise DoppelXError(f"{flag} goes with --bots-only")
    refuse_with_resume(args, *SETUP_FLAGS)
    term = Terminal(colour=args.colour)
    if args.resume is not None:
        from doppelx.games.oder_nichts.match import resume

        check_new_save(args.save, args.resume)
        with naming_save(args.resume):
            match = resume(term, args.resume, args.save)
        return match.run()
    players = args.players if args.players is not None else DEFAULT_PLAYERS
    config = GameConfig(players, args.target, args.rounds, bool(args.first_game))
    config.check()
    if not args.bots_only:
        check_new_save(args.save)
    seats = players if args.bots_only else players - 1
    try:
        bots = parse_lineup(args.bots or "basic", seats)
    except ValueError as exc:
        raise DoppelXError(f"--bots: {exc}") from None
    if args.seed is not None:
        seed = args.seed
    else:  # statistics repeat by default, as in the other games; a game to play is new each time
        seed = 0 if args.bots_only else fresh_seed()
    if args.bots_only:
        stats = run_batch(config, bots, args.games or DEFAULT_GAMES, seed)
        if args.json:
            print(json.dumps(stats, indent=1))
        else:
            _print_stats(stats)
        return 0
    from doppelx.games.oder_nichts.match import start

    term.say(
        f"Doppelt oder nichts — you are player 1 against {', '.join(bots)} (seed {seed}); type quit to stop."
    )
    return start(term, config, bots, seed, args.save).run()


def _print_stats(stats: dict) -> None:
    print(
        f"Doppelt oder nichts: {stats['games']} bots-only games, seed {stats['seed']}, "
        f"game ends at {stats['target_points']} minus points"
        + (f" or after {stats['max_rounds']} rounds" if stats["max_rounds"] else "")
    )
    print(f"{'player':<14} {'wins':>6} {'share':>7} {'mean minus':>11}")
    for name in stats["players"]:
        wins = stats["wins"][name]
        print(f"{name:<14} {wins:>6} {wins / stats['games']:>7.1%} {stats['mean_minus'][name]:>11.1f}")
    print(f"shared wins (ties): {stats['shared_wins']}")
    print(
        f"mean game length: {stats['mean_rounds']:.2f} rounds, {stats['mean_turns']:.1f} turns, "
        f"{stats['mean_decisions']:.1f} decisions"
    )

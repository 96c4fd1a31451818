"""``doppelx blitz``: play Würfelblitz against bots, run bots-only batches, or analyse the sums.

* ``doppelx blitz [--bots easy,hard] [--white 3] [--variant] [--save FILE]`` — you against bots
  in the terminal; ``doppelx blitz --resume FILE`` continues a saved game.
* ``doppelx blitz --bots-only --games N --seed S [--json]`` — batch statistics.
* ``doppelx blitz --analyse [--samples N] [--json]`` — exact distribution of the correct sum
  (2 and 3 white dice, standard rule and variant) checked against a Monte Carlo run.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from doppelx import argtypes
from doppelx.games.options import add_colour_options, given_flags, listed, refuse_with_resume
from rules.common.rng import fresh_seed
from rules.wuerfelblitz.game import WHITES_PER_BLACK

SKILL_NAMES = ("easy", "medium", "hard")
DEFAULT_GAMES = 100
DEFAULT_SAMPLES = 50_000


def _counts(text: str) -> list[int]:
    try:
        values = [argtypes.plain_int(s) for s in text.split(",")]
    except ValueError:
        values = []
    if not values or not all(1 <= v <= WHITES_PER_BLACK for v in values):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated whole numbers 1-{WHITES_PER_BLACK} (a handicap lowers the rule's "
            f"{WHITES_PER_BLACK}), got {argtypes.shown(text)}"
        )
    return values


def register(subparsers: Any) -> None:
    """Add the ``blitz`` sub-command."""
    p = subparsers.add_parser(
        "blitz",
        help="Würfelblitz: call the dice sum faster than the bots",
        description="Würfelblitz (Steffen Benndorf): add the pips of the coloured dice whose colour "
        "is not shown as a dot — faster than the bots. Also bots-only batches and an "
        "exact analysis of the sums.",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--bots-only", action="store_true", help="play bots against bots and print statistics")
    mode.add_argument(
        "--analyse",
        "--analyze",
        dest="analyse",
        action="store_true",
        help="exact distribution of the correct sum, checked by Monte Carlo",
    )
    p.add_argument(
        "--bots",
        type=argtypes.names(SKILL_NAMES),
        metavar="SKILLS",
        help="bot skill levels, comma-separated (easy, medium, hard); "
        "default medium,medium against you, easy,medium,hard bots-only",
    )
    p.add_argument(
        "--white",
        type=argtypes.whole(None, None),
        choices=(2, 3),
        help="white dice in play (default from the dice file: 2)",
    )
    p.add_argument(
        "--variant",
        action=argparse.BooleanOptionalAction,
        default=None,
        help='play the "Hirnverdreher" variant (default from the dice file: off)',
    )
    p.add_argument(
        "--whites-per-black",
        type=_counts,
        metavar="N,N,...",
        help="handicap: white discs per black disc for each seat (you first), 1-3, default 3 each",
    )
    p.add_argument(
        "--games", type=argtypes.positive, help=f"games in a bots-only batch (default {DEFAULT_GAMES})"
    )
    p.add_argument(
        "--samples",
        type=argtypes.positive,
        help=f"Monte Carlo throws per case for --analyse (default {DEFAULT_SAMPLES})",
    )
    p.add_argument(
        "--seed",
        type=argtypes.seed,
        help="random seed (default: fresh for play, 0 for --bots-only/--analyse)",
    )
    p.add_argument("--json", action="store_true", help="print the batch or analysis result as JSON")
    p.add_argument(
        "--save",
        type=argtypes.output_path,
        help="save your game here on 'save', 'quit' and at the end of the input",
    )
    p.add_argument("--resume", type=argtypes.input_path, help="continue a game saved with --save / 'save'")
    add_colour_options(p)
    p.add_argument("--dice", metavar="TOML", help="dice spec file (default: the shipped wuerfelblitz.toml)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen mode; returns the exit code."""
    from rules.wuerfelblitz import load_spec

    if (args.bots_only or args.analyse) and (args.save is not None or args.resume is not None):
        raise _usage("--save/--resume belong to a person's game, not to --bots-only or --analyse")
    refuse_with_resume(args, "bots", "white", "variant", "whites_per_black", "dice", "seed")
    spec = load_spec(args.dice)
    if args.games is not None and not args.bots_only:
        raise _usage("--games goes with --bots-only")
    if args.samples is not None and not args.analyse:
        raise _usage("--samples goes with --analyse")
    if args.analyse:
        given = given_flags(args, "bots", "white", "variant", "whites_per_black")
        if given:
            verb = "does" if len(given) == 1 else "do"
            raise _usage(
                f"{listed(given)} {verb} not go with --analyse "
                "(it covers 2 and 3 white dice, with and without the variant)"
            )
        return _analyse(spec, args)
    if args.bots_only:
        return _batch(spec, args)
    if args.json:
        raise _usage("--json goes with --bots-only or --analyse")
    return _play(spec, args)


def _usage(text: str) -> Exception:
    from rules.common.errors import DoppelXError

    return DoppelXError(text)


def _make_bots(skills: list[str], first_number: int = 1) -> list:
    from doppelx.games.wuerfelblitz.match import make_bots

    return make_bots(skills, first_number)


def _config(spec: Any, players: int, args: argparse.Namespace) -> Any:
    """The game's set-up from the flags; a wrong count of ``--whites-per-black`` names the flag."""
    from rules.wuerfelblitz import GameConfig

    counts = args.whites_per_black
    if counts is not None and len(counts) != players:
        raise _usage(f"--whites-per-black needs one number per player ({players}), got {len(counts)}")
    return GameConfig.from_spec(
        spec, players, white_dice=args.white, variant=args.variant, whites_per_black=args.whites_per_black
    )


def _mode(config: Any) -> str:
    rule = 'variant "Hirnverdreher"' if config.variant else "standard rule"
    return f"{config.white_dice} white dice, {rule}"


def _batch(spec: Any, args: argparse.Namespace) -> int:
    from doppelx.games.wuerfelblitz.tournament import run_batch

    bots = _make_bots(args.bots or ["easy", "medium", "hard"])
    config = _config(spec, len(bots), args)
    seed = 0 if args.seed is None else args.seed
    stats = run_batch(spec, config, bots, args.games or DEFAULT_GAMES, seed)
    if args.json:
        data = stats.to_json()
        data.update(
            white_dice=config.white_dice,
            variant=config.variant,
            whites_per_black=list(config.whites_per_black),
        )
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    print(f"Würfelblitz: {stats.games} bots-only games, seed {seed}, {_mode(config)}")
    for name, w, wpb in zip(stats.names, stats.wins, config.whites_per_black):
        print(f"  {name:<16} wins {w:>6}  ({100 * w / stats.games:5.1f} %)  [{wpb} white per black]")
    print(f"  shared wins: {stats.shared} game{'' if stats.shared == 1 else 's'}")
    print(
        f"  game length: mean {stats.mean_rounds:.1f} rounds (min {stats.min_rounds}, max {stats.max_rounds})"
    )
    return 0


def _play(spec: Any, args: argparse.Namespace) -> int:
    from doppelx.games.wuerfelblitz.match import BlitzMatch, resume
    from doppelx.terminal import Terminal, check_new_save, naming_save
    from rules.common.rng import make_rng

    term = Terminal(sys.stdin, sys.stdout, colour=args.colour)
    if args.resume is not None:
        check_new_save(args.save, args.resume)
        with naming_save(args.resume):
            match = resume(term, args.resume, args.save)
        term.say(f"Würfelblitz — resumed from {args.resume} in round {match.state.round_number}.")
        return match.run()
    bots = _make_bots(args.bots or ["medium", "medium"])
    config = _config(spec, len(bots) + 1, args)
    seed = args.seed if args.seed is not None else fresh_seed()
    check_new_save(args.save)
    match = BlitzMatch(
        term, spec, config, bots, make_rng(seed), save_path=args.save, seed=seed, dice_file=args.dice
    )
    return match.run()


def _analyse(spec: Any, args: argparse.Namespace) -> int:
    from rules.wuerfelblitz.analysis import analysis_report

    seed = 0 if args.seed is None else args.seed
    report = analysis_report(spec, args.samples or DEFAULT_SAMPLES, seed)
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
        return 0
    cases = report["cases"]
    print(
        f"Würfelblitz: distribution of the correct sum, exact by enumerating every throw "
        f"({cases[0]['outcomes']:,} / {cases[1]['outcomes']:,} for 2 / 3 white dice), "
        f"checked against {cases[0]['monte_carlo']['samples']:,} random throws per case (seed {seed})."
    )
    print(
        f"  {'case':<24} {'P(sum = 0) exact':<28} {'Monte Carlo':<18} {'mean':>7} {'mode':>5} {'max |z|':>8}"
    )
    for c in cases:
        mc = c["monte_carlo"]
        z = "n/a" if mc["max_abs_z"] is None else f"{mc['max_abs_z']:.2f}"
        print(
            f"  {_case(c):<24} {c['p_zero'] + ' = ' + format(c['p_zero_float'], '.5f'):<28} "
            f"{mc['p_zero']:.5f} ± {mc['p_zero_stderr']:.5f} {c['mean_float']:7.3f} {c['mode']:>5} {z:>8}"
        )
    print()
    print("  P(sum = s) in %, exact:")
    print(f"  {'s':>4} " + "".join(f"{_case(c):>26}" for c in cases))
    top = max(int(s) for c in cases for s in c["distribution"])
    for s in range(top + 1):
        cells = []
        for c in cases:
            p = c["distribution"].get(str(s))
            cells.append(f"{100 * _float(p):26.4g}" if p else f"{'-':>26}")
        print(f"  {s:>4} " + "".join(cells))
    return 0


def _case(case: dict) -> str:
    rule = "variant" if case["variant"] else "standard"
    return f"{case['white_dice']} white, {rule}"


def _float(fraction: str) -> float:
    num, den = fraction.split("/")
    return int(num) / int(den)

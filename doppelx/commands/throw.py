"""``doppelx throw``: one throw through the physics world, with its scoring.

    doppelx throw [--board I] --seed N [--dice blue,white] [--lying K] [--skill medium]
                  [--target X,Y] [--strength S] [--side S|E|N|W] [--replay OUT.npz] [--json]
                  [--engine pybullet|mujoco]

The dice are thrown by the bot throw model (``--skill``) at the bot's best spot of the
board, or at ``--target`` (mm; write ``--target=-60,75`` when X is negative). ``--lying K`` first scatters K other player dice flat on
the board (from the same seed). The outcome is scored as at a table of the thrown
colours and the lying ones (padded to the 3-player minimum with unused colours, holding
0 chips): with the white die among the thrown dice, the one thrown colour is the active
player (a turn, D24: white goes with exactly one player's die); without it the throw is
scored like a setup throw.
``--json`` prints one object whose ``state`` member is a table state ``doppelx score``
reads (docs/score-schema.md); ``--replay`` saves the trajectory at 60 frames per second to a
``.npz`` file, refused before the throw if it is a file the command reads (the board file).
"""

from __future__ import annotations

import argparse
import json
import math

from doppelx import argtypes
from doppelx.argtypes import add_engine_argument

SKILL_NAMES = ("easy", "medium", "hard")  # a single throw: no "expert", which plans whole turns
SIDE_NAMES = ("S", "E", "N", "W")


def _owners(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",")]
    if "" in names and text.strip():
        raise argparse.ArgumentTypeError(
            f"an empty die name in {text!r} (two commas together, or one at an end)"
        )
    names = [s for s in names if s]
    if not names:
        raise argparse.ArgumentTypeError(f"expected die owners separated by commas, got {text!r}")
    if len(set(names)) != len(names):
        raise argparse.ArgumentTypeError(f"a die is named twice in {text!r}")
    return names


def _point(text: str) -> tuple[float, float]:
    return argtypes.point_mm(text)


def _unit(text: str) -> float:
    try:
        v = argtypes.plain_float(text)
    except ValueError:
        v = -1.0
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}")
    return v


def _count(text: str) -> int:
    try:
        n = argtypes.plain_int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 8:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 8, got {text!r}")
    return n


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "throw",
        help="throw dice through the physics world and score the result",
        description="Throw dice with the bot throw model into the physics world of a "
        "board, run them to rest and score the outcome.",
    )
    p.add_argument(
        "--board",
        default="I",
        metavar="BOARD",
        help="built-in side I–IV or a board file (default I, the first game's side)",
    )
    p.add_argument(
        "--seed", type=argtypes.seed, required=True, metavar="N", help="random seed (whole number >= 0)"
    )
    p.add_argument(
        "--dice",
        type=_owners,
        default=["blue", "white"],
        metavar="OWNERS",
        help="dice to throw, comma-separated (default blue,white)",
    )
    p.add_argument(
        "--lying",
        type=_count,
        default=0,
        metavar="K",
        help="first scatter K other players' dice flat on the board (default 0)",
    )
    p.add_argument("--skill", choices=SKILL_NAMES, default="medium", help="thrower's skill (default medium)")
    p.add_argument(
        "--target",
        type=_point,
        metavar="X,Y",
        help="first impact point in mm, e.g. --target=-60,75 (default: the bot's pick)",
    )
    p.add_argument("--strength", type=_unit, metavar="S", help="throw strength 0…1 (default: the bot's)")
    p.add_argument("--side", choices=SIDE_NAMES, help="wall to throw from (default: the gentlest throw)")
    p.add_argument("--no-spinner", action="store_true", help="leave the spinner off (sides III/IV)")
    p.add_argument(
        "--replay",
        type=argtypes.npz_file,
        metavar="OUT.npz",
        help="save the trajectory (60 frames per second) to a new .npz file; never one this command reads",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_engine_argument(p)
    p.set_defaults(func=run)


def board_ref(given: str, board) -> str:
    """How a state names the board ``given`` on the command line: a built-in side by its name,
    a board file by the path given (``doppelx score`` reads it beside the state or from the
    working folder; a file may call itself by a built-in side's name only when it is a copy of
    that side, rules.doppelx.board_file)."""
    from rules.doppelx.board_file import builtin_side

    return board.name if builtin_side(given) else given


def run(args: argparse.Namespace) -> int:
    from doppelx.games.doppelx.seats import bot_of_skill
    from doppelx.games.doppelx.throw_report import (
        format_report,
        outcome_json,
        score_report,
        sim_json,
        state_json,
    )
    from doppelx.games.doppelx.throw_service import Seating, ThrowService
    from physics.engine import make_world
    from physics.scene import scatter_lying
    from physics.throw_model import Aim
    from rules.common.errors import RulesError
    from rules.common.rng import make_rng
    from rules.doppelx.board_file import load_board
    from rules.doppelx.box import load_box
    from rules.doppelx.dice import WHITE, load_dice

    board = load_board(args.board)
    argtypes.check_no_spinner(board, not args.no_spinner)
    board = board.with_spinner(not args.no_spinner)  # the rules see no spinner either
    box = load_box()
    box.check_board(board)
    dice = load_dice()
    if args.replay:
        from rules.common.atomic import check_output_file, refuse_input_as_output

        check_output_file(args.replay, "replay file")
        refuse_input_as_output(
            args.replay,
            {"board file": board.source, "dice file": dice.source, "box file": box.source},
            "replay file",
        )
    if args.target is not None:
        import shapely

        tx, ty = args.target
        if not shapely.contains_xy(board.outline, tx, ty):
            minx, miny, maxx, maxy = (v * 1e3 for v in board.outline.bounds)
            raise RulesError(
                f"--target {tx * 1e3:g},{ty * 1e3:g} mm is not on the playfield of side {board.name} "
                f"(x {minx:g}…{maxx:g}, y {miny:g}…{maxy:g} mm)"
            )
    unknown = [o for o in args.dice if o not in dice.dice]
    if unknown:
        raise RulesError(f"no die {unknown[0]!r}; dice are {', '.join(dice.dice)}")
    coloured = [o for o in args.dice if o != WHITE]
    if WHITE in args.dice and len(coloured) != 1:
        raise RulesError(
            f"--dice {','.join(args.dice)}: the white die is thrown with exactly one player's die, "
            f"the active player's (D24), e.g. --dice blue,white; without white the dice are thrown "
            f"as in the setup throw"
        )
    spare = [c for c in dice.player_colours if c not in args.dice]
    if args.lying > len(spare):
        raise RulesError(
            f"--lying {args.lying}: only {len(spare)} other players' dice can lie on the board "
            f"(the colours not thrown: {', '.join(spare) or 'none'})"
        )
    rng = make_rng(args.seed)
    lying = scatter_lying(board, box, dice, spare[: args.lying], rng) if args.lying else {}
    seats = list(dict.fromkeys([*coloured, *lying]))
    seats += [c for c in dice.player_colours if c not in seats][: max(0, 3 - len(seats))]
    active = (coloured[0] if coloured else seats[0]) if WHITE in args.dice else None
    chips = {c: 0 for c in seats}
    bot = bot_of_skill(args.skill)
    first = coloured[0] if coloured else args.dice[0]
    with make_world(board, box, dice, engine=args.engine, spinner=not args.no_spinner) as world:
        service = ThrowService(world)
        aim = service.aim(bot.throw, first)
        aim = Aim(
            args.target if args.target is not None else aim.target,
            args.strength if args.strength is not None else aim.strength,
            args.side,
        )
        throw = service.release(aim, args.dice, bot.throw.skill, rng, dice[first].size)
        seating = Seating(tuple(seats), active, chips, lying_before=lying)
        turn = service.play(throw, lying, seating, record=bool(args.replay))
    result = turn.result
    if args.replay:
        from rules.common.atomic import atomic_write

        assert result.trajectory is not None  # played with record=True
        with atomic_write(args.replay, what="replay file") as f:
            result.trajectory.save(f)
    report = score_report(turn.score, board, {})
    if args.json:
        out = {
            "board": board.name,
            "seed": args.seed,
            "aim": {
                "target_mm": [
                    round(aim.target[0] * 1e3, 6),
                    round(aim.target[1] * 1e3, 6),
                ],  # nm: no float noise
                "strength": aim.strength,
                "side": aim.side,
            },
            "throw": throw.to_dict(),
            "sim": sim_json(result, engine=args.engine),
            "outcome": outcome_json(result.outcome),
            # the board as `score` finds it again: a side's name, or the file as given
            "state": state_json(
                board_ref(args.board, board),
                seats,
                active,
                chips,
                result.outcome,
                spinner_off=args.no_spinner,
            ),
            "score": report,
        }
        if args.replay:
            out["replay"] = args.replay
        print(json.dumps(out, indent=2))
    else:
        print(_describe(throw, result, aim))
        print()
        print(format_report(report))
    return 0


def _describe(throw, result, aim) -> str:
    lines = [
        f"aim: first impact ({aim.target[0] * 1e3:.0f}, {aim.target[1] * 1e3:.0f}) mm, "
        f"strength {aim.strength:.2f}"
    ]
    for r in throw.releases:
        speed = math.sqrt(sum(v * v for v in r.velocity))
        spin = math.sqrt(sum(w * w for w in r.angular_velocity))
        lines.append(
            f"  {r.owner:<7} released at ({r.position[0] * 1e3:.0f}, {r.position[1] * 1e3:.0f}, "
            f"{r.position[2] * 1e3:.0f}) mm, {speed:.2f} m/s, tumbling {spin:.0f} rad/s"
        )
    state = (
        "came to rest"
        if result.settled
        else f"stopped at the time cap, still moving: {', '.join(result.unsettled)}"
    )
    lines.append(f"physics: {state} after {result.sim_time:.2f} s simulated ({result.steps} steps)")
    for d in result.outcome.dice:
        x, y, z = (v * 1e3 for v in d.pose.position)
        touched = "  touched the spinner" if d.touched_spinner else ""
        lines.append(f"  {d.owner:<7} {d.status.value:<6} at ({x:.1f}, {y:.1f}, {z:.1f}) mm{touched}")
    if result.tunnel_events:
        lines.append(f"  WARNING tunnelling: {', '.join(result.tunnel_events)}")
    return "\n".join(lines)

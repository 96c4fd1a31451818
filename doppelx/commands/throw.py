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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from doppelx import argtypes
from doppelx.argtypes import add_engine_argument
from doppelx.games.doppelx.policies import THROW_SKILLS  # a single throw: no expert, which plans whole turns

if TYPE_CHECKING:
    import numpy as np

    from doppelx.games.doppelx.throw_service import ScoredThrow, Seating
    from physics.throw import Throw
    from physics.throw_model import Aim
    from rules.doppelx.board import BoardSide
    from rules.doppelx.box import BoxSpec
    from rules.doppelx.dice import DiceSet
    from rules.doppelx.outcome import Pose

WALL_NAMES = ("S", "E", "N", "W")


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
    p.add_argument("--skill", choices=THROW_SKILLS, default="medium", help="thrower's skill (default medium)")
    p.add_argument(
        "--target",
        type=_point,
        metavar="X,Y",
        help="first impact point in mm, e.g. --target=-60,75 (default: the bot's pick)",
    )
    p.add_argument("--strength", type=_unit, metavar="S", help="throw strength 0…1 (default: the bot's)")
    p.add_argument(
        "--side", dest="wall", choices=WALL_NAMES, help="wall to throw from (default: the gentlest throw)"
    )
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
    """Parse the table from the arguments, throw it through the service, report it."""
    from doppelx.games.doppelx.throw_report import describe_throw, format_report, score_report, throw_json

    table = _table(args)
    aim, throw, turn = _throw(args, table)
    result = turn.result
    if args.replay:
        from rules.common.atomic import atomic_write

        assert result.trajectory is not None  # played with record=True
        with atomic_write(args.replay, what="replay file") as f:
            result.trajectory.save(f)
    report = score_report(turn.score, table.board, {})
    if args.json:
        out = throw_json(
            board=table.board,
            board_ref=board_ref(args.board, table.board),
            seed=args.seed,
            aim=aim,
            throw=throw,
            result=result,
            engine=args.engine,
            seats=table.seating.seats,
            active=table.seating.active,
            chips=table.seating.chips,
            spinner_off=args.no_spinner,
            report=report,
            replay=args.replay,
        )
        print(json.dumps(out, indent=2))
    else:
        print(describe_throw(throw, result, aim))
        print()
        print(format_report(report))
    return 0


@dataclass(frozen=True)
class _Table:
    """What ``doppelx throw`` throws onto: the specs, the lying dice, who sits where, the stream."""

    board: BoardSide
    box: BoxSpec
    dice: DiceSet
    lying: dict[str, Pose]
    seating: Seating
    rng: np.random.Generator


def _table(args: argparse.Namespace) -> _Table:
    """The board, box and dice of the arguments, checked; the lying dice scattered from the seed."""
    from doppelx.games.doppelx.throw_service import Seating
    from physics.scene import scatter_lying
    from rules.common.errors import RulesError
    from rules.common.rng import make_rng
    from rules.doppelx.board_file import load_board
    from rules.doppelx.box import load_box
    from rules.doppelx.dice import load_dice
    from rules.doppelx.game import seats_for_throw

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
        _check_target(args.target, board)
    unknown = [o for o in args.dice if o not in dice.dice]
    if unknown:
        raise RulesError(f"no die {unknown[0]!r}; dice are {', '.join(dice.dice)}")
    seats_for_throw(args.dice, [], dice.player_colours)  # D24, before anything is scattered
    spare = [c for c in dice.player_colours if c not in args.dice]
    if args.lying > len(spare):
        raise RulesError(
            f"--lying {args.lying}: only {len(spare)} other players' dice can lie on the board "
            f"(the colours not thrown: {', '.join(spare) or 'none'})"
        )
    rng = make_rng(args.seed)
    lying = scatter_lying(board, box, dice, spare[: args.lying], rng) if args.lying else {}
    seats, active = seats_for_throw(args.dice, list(lying), dice.player_colours)
    seating = Seating(seats, active, {c: 0 for c in seats}, lying_before=lying)
    return _Table(board, box, dice, lying, seating, rng)


def _check_target(target: tuple[float, float], board: BoardSide) -> None:
    import shapely

    from rules.common.errors import RulesError

    tx, ty = target
    if not shapely.contains_xy(board.outline, tx, ty):
        minx, miny, maxx, maxy = (v * 1e3 for v in board.outline.bounds)
        raise RulesError(
            f"--target {tx * 1e3:g},{ty * 1e3:g} mm is not on the playfield of side {board.name} "
            f"(x {minx:g}…{maxx:g}, y {miny:g}…{maxy:g} mm)"
        )


def _throw(args: argparse.Namespace, table: _Table) -> tuple[Aim, Throw, ScoredThrow]:
    """The bot's aim (``--target``, ``--strength``, ``--side`` override it), released with its
    skill's noise and played through the service: run to rest, read, scored."""
    from doppelx.games.doppelx.bot_factory import make_bot
    from doppelx.games.doppelx.throw_service import ThrowService
    from physics.engine import make_world
    from physics.throw_model import Aim
    from rules.doppelx.dice import WHITE

    bot = make_bot(args.skill)
    first = next((o for o in args.dice if o != WHITE), args.dice[0])
    with make_world(
        table.board, table.box, table.dice, engine=args.engine, spinner=not args.no_spinner
    ) as world:
        service = ThrowService(world)
        aim = service.aim(bot.throw, first)
        aim = Aim(
            args.target if args.target is not None else aim.target,
            args.strength if args.strength is not None else aim.strength,
            args.wall,
        )
        throw = service.release(aim, args.dice, bot.throw.skill, table.rng, table.dice[first].size)
        turn = service.play(throw, table.lying, table.seating, record=bool(args.replay))
    return aim, throw, turn

"""``doppelx simulate throws|games`` and ``doppelx sweep``: batch runs for balance analysis.

    doppelx simulate throws --board I --throws 200 --workers 2 --seed 3 --out DIR
    doppelx simulate games --players 4 --board III --games 20 --workers 2 --seed 3 --out DIR
    doppelx sweep throws --board I --throws 200 --vary hole_delta_mm=0,2,4 --out DIR

Results: ``DIR/throws.parquet`` or ``DIR/games.parquet`` (the run's parameters and seed in
the file's metadata), ``DIR/report.md`` with PNG figures. A run resumes from the chunks in
``DIR``; the same seed gives the same rows whatever ``--workers`` and ``--backend``.
"""

from __future__ import annotations

import argparse
import json

from doppelx import argtypes
from physics.engine import add_engine_argument


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", default=None, metavar="BOARD", help="side I–IV or a board file")
    p.add_argument("--no-spinner", action="store_true", help="play III/IV without the spinner")
    p.add_argument("--dice", metavar="DICE.toml", help="dice file (default: the shipped dice)")
    p.add_argument(
        "--faces",
        action="append",
        default=[],
        metavar="OWNER=F1,..,F6",
        help="give a die other faces, e.g. white=1,2,3,X,X,2 (axis order +x -x +y -y +z -z)",
    )
    p.add_argument("--hole-delta-mm", type=float, default=0.0, metavar="MM", help="widen every hole's radius")
    p.add_argument("--skill", default="medium", choices=("easy", "medium", "hard"))
    p.add_argument(
        "--policy",
        default="greedy",
        metavar="POLICY",
        help="throw policy: greedy, random, field:3x|2x|1x, point:X,Y (mm)",
    )
    p.add_argument("--seed", type=argtypes.seed, default=0)
    p.add_argument("--workers", type=argtypes.positive, default=1)
    p.add_argument("--backend", choices=("pool", "ray"), default="pool")
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local one)")
    p.add_argument("--chunk", type=argtypes.positive, default=None, metavar="N", help="items per chunk")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (resumable)")
    p.add_argument("--overwrite", action="store_true", help="replace a different run in --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    add_engine_argument(p)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="batch throws or games for balance analysis",
        description="Run many physically simulated throws or games in parallel; write Parquet and a report.",
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND")
    kinds.required = True
    t = kinds.add_parser("throws", help="active-player turns (coloured + white die)")
    t.add_argument("--throws", type=argtypes.positive, required=True, metavar="N")
    t.add_argument("--lying", type=int, default=0, metavar="K", help="other dice lying on the board (0–7)")
    _common(t)
    t.set_defaults(func=run_simulate, count_attr="throws")
    g = kinds.add_parser("games", help="whole games of bots")
    g.add_argument("--games", type=argtypes.positive, required=True, metavar="N")
    g.add_argument("--players", type=int, default=4, metavar="N", help="3–8 players")
    g.add_argument("--cards", default="A,B,C,D", help="the 4 bet cards in play")
    g.add_argument("--bet", default="best", choices=("best", "random", "never"), help="bet policy")
    g.add_argument(
        "--target", type=argtypes.positive, default=None, help="chips that end the game (default 50/70)"
    )
    _common(g)
    g.set_defaults(func=run_simulate, count_attr="games")

    s = sub.add_parser(
        "sweep",
        help="the same batch over a grid of variants, compared",
        description="Run a throws or games batch for every combination of --vary values "
        "and write a comparison table and plot.",
    )
    s.add_argument("kind", choices=("throws", "games"))
    s.add_argument("--throws", type=argtypes.positive, default=200, metavar="N", help="throws per variant")
    s.add_argument("--games", type=argtypes.positive, default=20, metavar="N", help="games per variant")
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--lying", type=int, default=0)
    s.add_argument("--cards", default="A,B,C,D")
    s.add_argument("--bet", default="best", choices=("best", "random", "never"))
    s.add_argument("--target", type=argtypes.positive, default=None)
    s.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help="board, hole_delta_mm, white_faces (F-F-F-F-F-F), cocked_deg, skill, policy",
    )
    _common(s)
    s.set_defaults(func=run_sweep)


def params_from_args(args: argparse.Namespace, kind: str) -> dict:
    """The run parameters (JSON-ready) of parsed arguments."""
    from rules.errors import DoppelXError

    faces = {}
    for item in args.faces:
        owner, sep, value = item.partition("=")
        if not sep:
            raise DoppelXError(f"--faces {item!r}: write OWNER=F1,F2,F3,F4,F5,F6")
        faces[owner] = value
    params = {
        "board": args.board or ("I" if kind == "throws" else "III"),
        "spinner": not args.no_spinner,
        "dice": args.dice,
        "faces": faces,
        "hole_delta_mm": args.hole_delta_mm,
        "skill": args.skill,
        "policy": args.policy,
    }
    if args.engine != "pybullet":  # runs of the default engine keep their parameters (resume)
        params["engine"] = args.engine
    if kind == "throws":
        params["lying"] = args.lying
    else:
        cards = [c.strip().upper() for c in args.cards.split(",")]
        params.update({"players": args.players, "cards": cards, "bet": args.bet, "target": args.target})
    return params


def check_params(params: dict, kind: str) -> None:
    """Fail early, with one clear line, on anything a worker would trip over."""
    from doppelx.batch.world_cache import table_specs
    from doppelx.bots import throw_policy
    from rules.bets import choose_cards
    from rules.errors import DoppelXError
    from rules.rng import make_rng

    board, dice = table_specs(params)
    if params.get("engine") == "mujoco":
        from physics.mujoco_world import import_mujoco

        import_mujoco()  # not installed: one line naming the extra, before any worker starts
    try:
        from physics.throw_model import SKILLS

        policy = throw_policy(params["policy"], SKILLS[params["skill"]], make_rng(0))
        policy.aim(board, dice[dice.player_colours[0]])
    except ValueError as exc:
        raise DoppelXError(f"--policy: {exc}") from None
    if kind == "throws" and not 0 <= params["lying"] <= len(dice.player_colours) - 1:
        raise DoppelXError(f"--lying must be 0–{len(dice.player_colours) - 1}, got {params['lying']}")
    if kind == "games":
        if not 3 <= params["players"] <= len(dice.player_colours):
            raise DoppelXError(f"--players must be 3–{len(dice.player_colours)}, got {params['players']}")
        choose_cards(params["cards"], "--cards")


def run_simulate(args: argparse.Namespace) -> int:
    from rules.optional import import_optional

    import_optional("pyarrow", "analysis", "doppelx simulate (Parquet result files)")
    from doppelx.batch.backends import run_plan
    from doppelx.batch.plan import RunSpec
    from doppelx.batch.report import games_report, throws_report

    kind = args.kind
    params = params_from_args(args, kind)
    check_params(params, kind)
    count = getattr(args, args.count_attr)
    chunk = args.chunk or (
        max(1, min(50, count // (4 * args.workers) or 1))
        if kind == "throws"
        else max(1, min(5, count // (4 * args.workers) or 1))
    )
    spec = RunSpec(kind, count, args.seed, chunk, params)
    table = run_plan(
        spec,
        args.out,
        workers=args.workers,
        backend=args.backend,
        address=args.address,
        progress=not args.quiet,
        overwrite=args.overwrite,
    )
    report = (throws_report if kind == "throws" else games_report)(table, args.out)
    summary = {"kind": kind, "count": count, "seed": args.seed, "table": str(table), "report": str(report)}
    print(json.dumps(summary, indent=2) if args.json else f"wrote {table}\nwrote {report}")
    return 0


def run_sweep(args: argparse.Namespace) -> int:
    from rules.optional import import_optional

    import_optional("pyarrow", "analysis", "doppelx sweep (Parquet result files)")
    from doppelx.batch.sweep import run_sweep as sweep

    return sweep(args, params_from_args(args, args.kind))

"""``doppelx simulate throws|games`` and ``doppelx sweep``: batch runs for balance analysis.

    doppelx simulate throws --board I --throws 200 --workers 2 --seed 3 --out DIR
    doppelx simulate games --players 4 --board III --games 20 --workers 2 --seed 3 --out DIR
    doppelx simulate games --players 4 --board I --games 40 --skills expert,medium,medium,medium \
        --rotate --think 100 --workers 2 --out DIR
    doppelx sweep throws --board I --throws 200 --vary hole_delta_mm=0,2,4 --out DIR

Results: ``DIR/throws.parquet`` or ``DIR/games.parquet`` (the run's parameters and seed in
the file's metadata), ``DIR/report.md`` with PNG figures. A run resumes from the chunks in
``DIR``; the same seed gives the same rows whatever ``--workers`` and ``--backend``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from doppelx import argtypes
from doppelx.argtypes import add_engine_argument
from doppelx.batch.params import GAME_DEFAULTS, MAX_HOLE_DELTA_MM, THROW_DEFAULTS, hole_delta_mm
from doppelx.games.doppelx.policies import BOT_SKILLS

#: Bounds of the counts (a run beyond them would not finish in days on a workstation).
MAX_THROWS = 10_000_000
MAX_GAMES = 1_000_000
MAX_CHUNK = 100_000
MAX_WORKERS = 1024
#: A run's parameters when their options are not given, by kind (one table per kind, in
#: doppelx.batch.params; the options default to None, so that a sweep can tell an option
#: given from one left alone).
DEFAULTS = {"throws": THROW_DEFAULTS, "games": GAME_DEFAULTS}
#: The side a run is on without --board.
DEFAULT_BOARD = {kind: d["board"] for kind, d in DEFAULTS.items()}
#: Throws or games per variant of a sweep without --throws / --games.
SWEEP_COUNT = {"throws": 200, "games": 20}
#: Options of one kind of sweep only.
SWEEP_KIND_OPTIONS = {
    "throws": (("--throws", "throws"), ("--lying", "lying"), ("--lying-in-reach", "lying_in_reach")),
    "games": (
        ("--games", "games"),
        ("--players", "players"),
        ("--cards", "cards"),
        ("--bet", "bet"),
        ("--target", "target"),
        ("--think", "think"),
    ),
}
#: The --vary names that a fixed option of the same name (``--hole-delta-mm`` for
#: ``hole_delta_mm``) would also set.
VARY_OPTIONS = ("board", "hole_delta_mm", "skill", "policy")

_throws = argtypes.whole(1, MAX_THROWS, "a number of throws")
_games = argtypes.whole(1, MAX_GAMES, "a number of games")
#: ``--lying``: dice lying on the board from earlier throws, 0–7 (the benchmarks take it too).
lying_count = argtypes.whole(0, 7, "a number of lying dice")


def _common(p: argparse.ArgumentParser, board_default: str) -> None:
    p.add_argument(
        "--board", default=None, metavar="BOARD", help=f"side I–IV or a board file (default: {board_default})"
    )
    p.add_argument("--no-spinner", action="store_true", help="play III/IV without the spinner")
    p.add_argument("--dice", metavar="DICE.toml", help="dice file (default: the shipped dice)")
    p.add_argument(
        "--faces",
        action="append",
        default=[],
        metavar="OWNER=F1,..,F6",
        help="give a die other faces, e.g. white=1,2,3,X,X,2 (axis order +x -x +y -y +z -z)",
    )
    p.add_argument(
        "--hole-delta-mm",
        type=hole_delta_mm,
        default=None,
        metavar="MM",
        help=f"widen every hole's radius (±{MAX_HOLE_DELTA_MM:g} mm; default: 0)",
    )
    p.add_argument(
        "--skill",
        default=None,
        choices=BOT_SKILLS,
        help=f"every bot's skill (default: {GAME_DEFAULTS['skill']}; expert plans whole turns, so 'simulate games' only)",
    )
    p.add_argument(
        "--policy",
        default=None,
        metavar="POLICY",
        help=f"throw policy: greedy, random, field:3x|2x|1x or point:X,Y in mm (default: {GAME_DEFAULTS['policy']})",
    )
    p.add_argument(
        "--seed",
        type=argtypes.seed,
        default=0,
        metavar="N",
        help="the run's seed: item i draws from child i, so a seed gives the same rows (default: %(default)s)",
    )
    p.add_argument(
        "--workers",
        type=argtypes.whole(1, MAX_WORKERS, "a number of workers"),
        default=None,
        help="worker processes (default: 1; the pool and a local Ray cluster use at most one per core); "
        "with --address: the most chunks at once on the cluster (default: as many as it has CPUs)",
    )
    p.add_argument(
        "--backend",
        choices=("pool", "ray"),
        default="pool",
        help="where workers run: local processes or a Ray cluster (default: %(default)s)",
    )
    p.add_argument("--address", default=None, help="Ray cluster address (default: start a local one)")
    p.add_argument(
        "--chunk",
        type=argtypes.whole(1, MAX_CHUNK, "a chunk size"),
        default=None,
        metavar="N",
        help="items per chunk (default: from the count alone, so a run resumes with any --workers)",
    )
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (resumable)")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a different run in --out, or files of the run's names in a folder that is no run "
        "folder (the same run always resumes)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    add_engine_argument(p)


def _lying_in_reach(p: argparse.ArgumentParser, prefix: str = "") -> None:
    p.add_argument(
        "--lying-in-reach",
        type=argtypes.whole(0, 3, "a number of lying dice"),
        default=None,
        metavar="K",
        help=f"{prefix}how many of the lying dice lie within the spinner's reach, so bet G can pay "
        "(0–3; default: 1 on a side whose spinner is on, else 0)",
    )


def _extend(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--extend",
        action="store_true",
        help="add items to the finished (or interrupted) run in --out: the same command with a larger count; "
        "refused if anything else differs",
    )


def _seat_options(p: argparse.ArgumentParser) -> None:
    argtypes.add_seat_skills(p, think=True)
    p.add_argument(
        "--rotate", action="store_true", help="game i shifts the --skills by i seats (a seat goes round)"
    )


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="batch throws or games for balance analysis",
        description="Run many physically simulated throws or games in parallel; write Parquet and a report.",
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND")
    kinds.required = True
    t = kinds.add_parser("throws", help="active-player turns (coloured + white die)")
    t.add_argument("--throws", type=_throws, required=True, metavar="N", help=f"1–{MAX_THROWS:,}")
    t.add_argument(
        "--lying",
        type=lying_count,
        default=None,
        metavar="K",
        help=f"other dice lying on the board (0–7; default: {THROW_DEFAULTS['lying']})",
    )
    _lying_in_reach(t)
    _common(t, DEFAULT_BOARD["throws"])
    _extend(t)
    t.set_defaults(func=run_simulate, count_attr="throws")
    g = kinds.add_parser("games", help="whole games of bots")
    g.add_argument("--games", type=_games, required=True, metavar="N", help=f"1–{MAX_GAMES:,}")
    _game_options(g)
    _seat_options(g)
    _common(g, DEFAULT_BOARD["games"])
    _extend(g)
    g.set_defaults(func=run_simulate, count_attr="games")

    s = sub.add_parser(
        "sweep",
        help="the same batch over a grid of variants, compared",
        description="Run a throws or games batch for every combination of --vary values "
        "and write a comparison table and plot.",
    )
    s.add_argument("kind", choices=("throws", "games"), help="what every variant runs")
    s.add_argument(
        "--throws",
        type=_throws,
        default=None,
        metavar="N",
        help=f"throws per variant (default: {SWEEP_COUNT['throws']})",
    )
    s.add_argument(
        "--games",
        type=_games,
        default=None,
        metavar="N",
        help=f"games per variant (default: {SWEEP_COUNT['games']})",
    )
    s.add_argument(
        "--lying",
        type=lying_count,
        default=None,
        metavar="K",
        help=f"throws: other dice lying on the board (0–7; default: {THROW_DEFAULTS['lying']})",
    )
    _lying_in_reach(s, "throws: ")
    _game_options(s, "games: ")
    argtypes.add_think(s, "games: ")
    s.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="NAME=V1,V2",
        help=f"a parameter and its values: board, hole_delta_mm (±{MAX_HOLE_DELTA_MM:g} mm), white_faces (F-F-F-F-F-F), "
        "cocked_deg, skill, policy, spinner (on,off); a policy point:X,Y keeps its comma "
        "(policy=greedy,point:-60,75 is two values)",
    )
    _common(s, f"{DEFAULT_BOARD['throws']} for throws, {DEFAULT_BOARD['games']} for games")
    s.set_defaults(func=run_sweep)


def _game_options(p: argparse.ArgumentParser, prefix: str = "") -> None:
    """--players, --cards, --bet and --target of a games run (``prefix``: "games: " in a sweep)."""
    p.add_argument(
        "--players",
        type=argtypes.players,
        default=None,
        metavar="N",
        help=f"{prefix}3–8 players (default: {GAME_DEFAULTS['players']})",
    )
    p.add_argument(
        "--cards",
        type=argtypes.cards,
        default=None,
        metavar="A,B,C,D",
        help=f"{prefix}the 4 bet cards in play (default: {','.join(GAME_DEFAULTS['cards'])})",
    )
    p.add_argument(
        "--bet",
        default=None,
        choices=("best", "random", "never"),
        help=f"{prefix}bet policy (default: {GAME_DEFAULTS['bet']})",
    )
    p.add_argument(
        "--target",
        type=argtypes.positive,
        default=None,
        metavar="CHIPS",
        help=f"{prefix}chips that end the game (default 50/70; at most 210 for 3 players down to 74 for 8, so the box can pay)",
    )


def _given(value, name: str, kind: str):
    """An option's value, or its default for a run of ``kind`` when it was not given."""
    return DEFAULTS[kind][name] if value is None else value


def check_sweep_args(args: argparse.Namespace) -> None:
    """Refuse options a sweep would silently ignore: the other kind's options, and a fixed
    option (``--board``, ``--skill``, ``--faces white=…``, …) beside a ``--vary`` of the same
    parameter."""
    from rules.common.errors import DoppelXError

    other = "games" if args.kind == "throws" else "throws"
    given = [flag for flag, attr in SWEEP_KIND_OPTIONS[other] if getattr(args, attr) is not None]
    if given:
        raise DoppelXError(f"{'/'.join(given)}: for a {other} sweep, not for 'sweep {args.kind}'")
    for item in args.vary:
        name = item.partition("=")[0].strip()
        if name in VARY_OPTIONS and getattr(args, name) is not None:
            flag = "--" + name.replace("_", "-")
            raise DoppelXError(f"{flag} and --vary {name}: the sweep takes {name} from --vary; drop {flag}")
        if name == "white_faces" and any(f.partition("=")[0].strip() == "white" for f in args.faces):
            raise DoppelXError(
                "--faces white=… and --vary white_faces: the sweep takes the white faces from --vary"
            )


def params_from_args(args: argparse.Namespace, kind: str) -> dict:
    """The run parameters (JSON-ready) of parsed arguments."""
    from rules.common.errors import DoppelXError

    faces = {}
    for item in args.faces:
        owner, sep, value = item.partition("=")
        if not sep:
            raise DoppelXError(f"--faces {argtypes.shown(item)}: write OWNER=F1,F2,F3,F4,F5,F6")
        faces[owner] = value
    params = {
        "board": args.board or DEFAULT_BOARD[kind],
        "spinner": not args.no_spinner,
        "dice": args.dice,
        "faces": faces,
        "hole_delta_mm": _given(args.hole_delta_mm, "hole_delta_mm", kind),
        "skill": _given(args.skill, "skill", kind),
        "policy": _given(args.policy, "policy", kind),
    }
    if args.engine != "pybullet":  # runs of the default engine keep their parameters (resume)
        params["engine"] = args.engine
    if kind == "throws":
        params["lying"] = _given(args.lying, "lying", kind)
        if args.lying_in_reach is not None:
            params["lying_in_reach"] = args.lying_in_reach
    else:
        cards = list(_given(args.cards, "cards", kind))  # argtypes.cards: four different letters A–H
        players, bet = _given(args.players, "players", kind), _given(args.bet, "bet", kind)
        params.update({"players": players, "cards": cards, "bet": bet, "target": args.target})
        for name in ("skills", "rotate", "think"):  # only when given: older runs keep their fingerprint
            if getattr(args, name, None):
                params[name] = getattr(args, name)
    return params


def check_run_args(args: argparse.Namespace) -> int | None:
    """Check the output folder and the Ray address before anything runs; returns the worker count.

    More workers than cores would only compete for them: the pool and a local Ray cluster are
    capped at the core count, with a word on stderr (results do not depend on the number of
    workers). On a running Ray cluster (``--address``) ``--workers`` is the most chunks at
    once, ``None`` if not given (as many as the cluster has CPUs).
    """
    import os
    import sys

    from doppelx.batch.backends import check_address
    from rules.common.atomic import prepare_output_dir

    if args.backend == "ray" and args.address is not None:
        check_address(args.address)
        prepare_output_dir(args.out)
        return args.workers  # None: as many chunks at once as the cluster has CPUs
    workers = args.workers or 1
    if args.address is not None:
        from rules.common.errors import DoppelXError

        raise DoppelXError("--address is for --backend ray")
    prepare_output_dir(args.out)
    cores = os.cpu_count() or 1
    if workers > cores:
        print(f"doppelx: --workers {workers} is more than the {cores} cores; using {cores}", file=sys.stderr)
        workers = cores
    return workers


def run_simulate(args: argparse.Namespace) -> int:
    from rules.common.optional import import_optional

    import_optional("pyarrow", "analysis", "doppelx simulate (Parquet result files)")
    from doppelx.batch.backends import run_plan
    from doppelx.batch.params import check_params, pin_files
    from doppelx.batch.plan import RunSpec, default_chunk_size
    from doppelx.batch.store import REPORT_FILES, refuse_sweep_folder
    from rules.doppelx.board_file import load_board

    kind = args.kind
    if kind == "games":
        from doppelx.games.doppelx.bot_factory import check_seat_options

        check_seat_options(args.skill, args.skills, args.think, args.rotate)
    params = params_from_args(args, kind)
    check_params(params, kind)
    argtypes.check_no_spinner(load_board(params["board"]), params["spinner"])
    params = pin_files(params)
    count = getattr(args, args.count_attr)
    workers = check_run_args(args)
    refuse_sweep_folder(args.out)
    chunk = args.chunk or folder_chunk(args.out, args.overwrite) or default_chunk_size(kind, count)
    spec = RunSpec(kind, count, args.seed, chunk, params)
    table = run_plan(
        spec,
        args.out,
        workers=workers,
        backend=args.backend,
        address=args.address,
        progress=not args.quiet,
        overwrite=args.overwrite,
        outputs=REPORT_FILES[kind],
        stale=tuple(f for k, files in REPORT_FILES.items() if k != kind for f in files),
        extend=args.extend,
        # the report's modules (matplotlib, ~1 s) load while the worker runs, not before it starts
        meanwhile=lambda: importlib.import_module("doppelx.batch.report"),
    )
    from doppelx.batch.report import write_report

    if not args.quiet:
        print("doppelx simulate: writing the report (report.md, report.html, plots)…", file=sys.stderr)
    report = write_report(kind, table, args.out)
    from doppelx.batch.report import table_paths

    tables = {name: str(p.parent) for name, p in table_paths(args.out).items() if p.is_file()}
    summary = {
        "kind": kind,
        "count": count,
        "seed": args.seed,
        "table": str(table),
        "tables": tables,
        "report": str(report),
        "report_html": str(report.with_suffix(".html")),
    }
    if args.json:  # the run's figures too, as a sweep gives each variant's (the analyst's audit: paths only)
        from doppelx.batch.sweep import figure_labels, figures_json, summarise

        figures = summarise(kind, table, spec.params)
        summary.update(labels=figure_labels(figures), **figures_json(figures))
    print(json.dumps(summary, indent=2) if args.json else f"wrote {table}\nwrote {report}")
    return 0


def folder_chunk(out: str, overwrite: bool) -> int | None:
    """The chunk size of the run already in ``out`` (``None``: none there, or ``--overwrite``).

    A run given again keeps its chunks: resumed, grown by ``--extend``, or asked for with
    another count, which is then told to pass ``--extend`` (the analyst's audit: the default
    chunk size follows the count, so a larger count without ``--extend`` read as "a different
    run (its chunk_size is 25, this command's 50)" and was told to ``--overwrite`` it). A pool's
    or a damaged ``run.json`` gives ``None``; the run's folder check names what is wrong."""
    from doppelx.batch.plan import RunSpec
    from rules.common.errors import SpecError

    spec_file = Path(out) / "run.json"
    if overwrite or not spec_file.is_file():
        return None
    try:
        return RunSpec.read(spec_file).chunk_size
    except SpecError:
        return None


def run_sweep(args: argparse.Namespace) -> int:
    from rules.common.optional import import_optional

    import_optional("pyarrow", "analysis", "doppelx sweep (Parquet result files)")
    from doppelx.batch.sweep import SweepOptions, plan_variants
    from doppelx.batch.sweep import run_sweep as sweep

    check_sweep_args(args)
    params = params_from_args(args, args.kind)
    plan_variants(tuple(args.vary), params, args.kind)  # every variant checked before the run's arguments
    count = args.throws if args.kind == "throws" else args.games
    options = SweepOptions(
        kind=args.kind,
        count=count if count is not None else SWEEP_COUNT[args.kind],
        seed=args.seed,
        vary=tuple(args.vary),
        out=args.out,
        workers=check_run_args(args),
        backend=args.backend,
        address=args.address,
        chunk=args.chunk,
        overwrite=args.overwrite,
        quiet=args.quiet,
        json=args.json,
    )
    return sweep(options, params)

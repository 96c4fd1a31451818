"""``doppelx bench``: contact-solver regression benchmarks against the committed baseline.

    doppelx bench [--quick] [--scene NAME ...] [--json] [--out FILE.json]
                  [--baseline FILE.json] [--update-baseline]
                  [--record-speed [--record-kind]] [--speed-record FILE.json]
    doppelx bench sweep [--quick] [--out FILE.png] [--data FILE.json] [--json]
    doppelx bench engines [--throws N] [--json] [--out FILE.png]
    doppelx bench restitution [--speeds V1,V2,...] [--json]
    doppelx bench cuboid [--ratios R1,R2,...] [--throws N] [--seed S] [--json] [--plot FILE.png]
                         [--engine pybullet|mujoco]
    doppelx bench holes [--speeds V1,V2,...] [--engine pybullet|mujoco] [--json]

Runs the seeded scenes (drop, incline, pile, impact, spinner, rim, settle, converge, tray,
speed; all by default), prints a table — scene, metric, value, analytic expectation,
baseline, change, verdict — and exits 1 when a metric left its tolerance around the
baseline (``WORSE``, ``CHANGED``; a row with an analytic expectation by its distance to it)
or broke an absolute requirement (``FAIL``: tunnelling, false settles, determinism,
momentum, the solver's distance from a refined solve), else 0. The tray's pose hash is
information.
``--quick`` is the CI size (its own baseline section). ``--update-baseline`` rewrites the
baseline with this run's values on purpose; absolute requirements still fail the run
(exit 1), since no baseline can accept them. Speed is judged only against figures
recorded on the same machine (``--record-speed``, :mod:`doppelx.bench.speedrecord`), else
against the shipped record of this kind of machine (``--record-speed --record-kind``
writes it); without either it is shown as information. A ``--baseline`` file that does not exist is an
error (exit 2) unless ``--update-baseline`` is to create it. ``restitution``, ``cuboid``
and ``holes`` are the validation scenes (:mod:`doppelx.bench.restitution`,
:mod:`doppelx.bench.cuboid`, :mod:`doppelx.bench.holes`).
``sweep`` runs a grid of solver settings and plots speed against accuracy with the Pareto
front (PNG). ``engines`` sends the same seeded standard turns through PyBullet and MuJoCo
and compares them side by side (:mod:`doppelx.bench.engines`). ``--engine mujoco`` runs the
scenes that work in MuJoCo (drop, incline, rim, converge, tray) against the baseline section
``<profile>@mujoco``; a baseline section recorded on another engine than the run's is
refused (exit 2). A metric of the baseline that a scene which ran no longer measures is
``MISSING`` and fails the run. No two of the files named (``--out``, ``--baseline``,
``--speed-record``; ``sweep``'s ``--out`` and ``--data``) may be the same file, and every
file to be written is checked before anything runs.

The options before a sub-command belong to the suite. A sub-command takes only those that
mean the same to it: ``--json`` (every sub-command), ``--quick`` (``sweep``) and
``--engine`` (``cuboid``, ``holes``; ``sweep`` and ``restitution`` run PyBullet only).
Any other, given with a sub-command, is refused with a line saying where it goes (exit 2).
What each scene measures and why the tolerances are what they are: ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from doppelx import argtypes
from doppelx.argtypes import add_engine_argument
from doppelx.commands.bench_tosses import register_tosses
from physics.engine import DEFAULT_ENGINE, ENGINES

if TYPE_CHECKING:
    from doppelx.bench.common import Profile

SCENE_NAMES = ("drop", "incline", "pile", "impact", "spinner", "rim", "settle", "converge", "tray", "speed")
#: Fastest impact or slide ``restitution`` and ``holes`` take (m/s), and why.
MAX_SPEED = 20.0
SPEED_REASON = "dice thrown by hand move at 2–4 m/s; 20 m/s is a fall from 20 m"
#: Slowest impact ``restitution`` takes (m/s), and why: its drops start up to 2.75 mm above
#: the surface (``restitution.GAPS``), from where a die falling freely already hits at
#: 0.23 m/s, and the rebound ratio divides by the speed.
MIN_DROP_SPEED = 0.25
DROP_SPEED_REASON = (
    "a die dropped from the scene's 2.75 mm gap already hits at 0.23 m/s, and impacts under "
    "the 0.2 m/s restitution threshold do not bounce; 20 m/s is a fall from 20 m"
)
#: Most throws ``cuboid`` takes per ratio (its default 1 000 × 15 ratios ≈ 1–3 min of one
#: core in PyBullet, ≈ 7 min in MuJoCo: 20 000 is 20× that) and ``engines`` in all (its
#: 400 ≈ 1 min).
MAX_CUBOID_THROWS = 20_000
MAX_ENGINES_THROWS = 10_000
#: Ratios x/y ``cuboid`` takes, and why.
MIN_RATIO, MAX_RATIO = 0.1, 10.0
RATIO_REASON = "16 mm square faces: a 1.6 mm slab to a 160 mm rod; far longer rods stop landing like dice"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="contact-solver regression benchmarks against the committed baseline",
        description="Run the seeded physics scenes, compare every metric with the committed "
        "baseline and exit 1 on a regression.",
    )
    _add_suite_options(p)
    # None when not given, so that a sub-command can tell "given before it" from the default
    p.set_defaults(func=run, engine=None)
    sweep_sub = p.add_subparsers(
        dest="bench_command", metavar="{sweep,engines,restitution,cuboid,holes,tosses}"
    )
    for add in (_add_sweep, _add_engines, _add_restitution, _add_cuboid, _add_holes):
        add(sweep_sub)
    register_tosses(sweep_sub, _suite_options, _engine)  # doppelx/commands/bench_tosses.py
    for name, parser in sweep_sub.choices.items():
        _SUB_FLAGS[name] = {o for a in parser._actions for o in a.option_strings}


def _add_suite_options(p: argparse.ArgumentParser) -> None:
    """The suite's own options (``doppelx bench --X``)."""
    p.add_argument("--quick", action="store_true", help="the small CI size (its own baseline section)")
    p.add_argument(
        "--scene",
        action="extend",
        nargs="+",
        choices=SCENE_NAMES,
        metavar="NAME",
        help=f"run only these scenes ({', '.join(SCENE_NAMES)}; default all)",
    )
    p.add_argument(
        "--json", action="store_true", help="print the result as one JSON object instead of the table"
    )
    p.add_argument("--out", metavar="FILE.json", help="also write the result JSON to this file")
    p.add_argument(
        "--baseline",
        metavar="FILE.json",
        help="baseline file (default: the shipped assets/bench_baseline.json)",
    )
    p.add_argument(
        "--update-baseline",
        action="store_true",
        help="rewrite the baseline with this run's values (on purpose)",
    )
    p.add_argument(
        "--record-speed",
        action="store_true",
        help="record this run's speed figures as this machine's (later runs judge speed against them)",
    )
    p.add_argument(
        "--record-kind",
        action="store_true",
        help="with --record-speed: record them for this kind of machine (CPU, cores, versions; not the "
        "host) in the shipped assets/bench_speed_record.json, which CI's runs are judged against",
    )
    p.add_argument(
        "--speed-record",
        metavar="FILE.json",
        help="the local speed record (default ~/.cache/doppelx/bench-speed.json; with --record-kind "
        "the shipped assets/bench_speed_record.json)",
    )
    add_engine_argument(p)


def _add_sweep(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "sweep",
        help="grid of solver settings: speed against accuracy, Pareto front (PNG)",
        description="Run a grid of solver settings (time step, solver iterations, contact "
        "ERP, split impulse, sub-steps or CCD, sleeping thresholds) and plot speed against "
        "accuracy with the Pareto front.",
    )
    # own dests: a sub-command's defaults would overwrite ``doppelx bench --quick sweep``
    s.add_argument(
        "--quick", dest="sweep_quick", action="store_true", help="a 3-point grid with small scenes (tests)"
    )
    s.add_argument(
        "--out",
        dest="sweep_out",
        type=argtypes.png_file,
        default="solver_sweep.png",
        metavar="FILE.png",
        help="the plot (default solver_sweep.png)",
    )
    s.add_argument("--data", metavar="FILE.json", help="also write every point as JSON")
    s.add_argument(
        "--json",
        dest="sweep_json",
        action="store_true",
        help="print every point as JSON instead of the table",
    )
    s.set_defaults(func=run_sweep)


def _add_engines(sub: argparse._SubParsersAction) -> None:
    e = sub.add_parser(
        "engines",
        help="the same seeded throws through PyBullet and MuJoCo, side by side (PNG)",
        description="Send the same seeded standard turns through both engines and compare "
        "throughput, resting field kinds, hole/off rates, faces, settle times and travel, with "
        "chi-square and KS p-values, plus the drop and incline validation scenes in both.",
    )
    e.add_argument(
        "--throws",
        type=argtypes.whole(1, MAX_ENGINES_THROWS, "a number of turns"),
        default=200,
        metavar="N",
        help=f"standard turns (default 200, at most {MAX_ENGINES_THROWS})",
    )
    e.add_argument("--json", dest="engines_json", action="store_true", help="print the result as JSON")
    e.add_argument(
        "--out",
        dest="engines_out",
        type=argtypes.png_file,
        default="engines.png",
        metavar="FILE.png",
        help="the plot (default engines.png)",
    )
    e.set_defaults(func=run_engines)


def _add_restitution(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser(
        "restitution",
        help="a die dropped flat onto the playfield and onto a die at 0.3-5 m/s: rebound against the material",
        description="Drop a die flat onto side I's playfield and onto a resting die at each impact "
        "speed; print the measured rebound ratio beside the material's coefficient. Exit 1 if a "
        "ratio above the restitution threshold is more than 0.05 off, or anything tunnelled.",
    )
    r.add_argument(
        "--speeds",
        type=_floats("--speeds", MAX_SPEED, "m/s", DROP_SPEED_REASON, least=MIN_DROP_SPEED),
        metavar="V1,V2,...",
        help=f"impact speeds in m/s, from {MIN_DROP_SPEED:g} to {MAX_SPEED:g} (default 0.3,0.5,1,2,3,4,5)",
    )
    r.add_argument("--json", dest="restitution_json", action="store_true", help="print one JSON object")
    r.set_defaults(func=run_restitution)


def _add_cuboid(sub: argparse._SubParsersAction) -> None:
    cu = sub.add_parser(
        "cuboid",
        help="cuboid dice against real-dice experiments and the solid-angle model",
        description="Throw a homogeneous cuboid die (two square y×y faces, four x×y faces) onto a "
        "flat hard surface, many times per ratio x/y; print the probability of a square face with "
        "its Wilson 95 % interval beside Budden's real steel dice and the solid-angle model.",
    )
    cu.add_argument(
        "--ratios",
        type=_floats("--ratios", MAX_RATIO, "", RATIO_REASON, least=MIN_RATIO),
        metavar="R1,R2,...",
        help=f"ratios x/y, from {MIN_RATIO:g} to {MAX_RATIO:g} (default: the 15 of Budden's experiment, 0.47-2.65)",
    )
    cu.add_argument(
        "--throws",
        type=argtypes.whole(1, MAX_CUBOID_THROWS, "a number of throws"),
        default=1000,
        metavar="N",
        help=f"throws per ratio (default 1000, at most {MAX_CUBOID_THROWS})",
    )
    cu.add_argument("--seed", type=argtypes.seed, default=2026, metavar="N", help="seed (default 2026)")
    cu.add_argument("--json", dest="cuboid_json", action="store_true", help="print one JSON object")
    cu.add_argument(
        "--plot",
        type=argtypes.png_file,
        metavar="FILE.png",
        help="also draw simulation, experiment and model (PNG)",
    )
    cu.add_argument(
        "--engine",
        dest="cuboid_engine",
        choices=ENGINES,
        help="physics engine (default: bench's --engine, pybullet)",
    )
    cu.set_defaults(func=run_cuboid)


def _add_holes(sub: argparse._SubParsersAction) -> None:
    ho = sub.add_parser(
        "holes",
        help="a die slid across a hole at 0.3-2 m/s: falls in or crosses, against the analytic bounds",
        description="Slide a die flat and without spin across side I's hole h-northwest at each "
        "speed (at the near rim), five runs a speed a little beside the hole's centre; print how "
        "many cross, fall in or stay, the analytic bounds (must fall in below, must cross above) and "
        "the transition speed; then set the die still over the rim and find from where it stays, against "
        "the rounded die's support. Exit 1 if an outcome breaks a bound by more than 0.05 m/s or the die "
        "stays more than 0.25 mm off.",
    )
    ho.add_argument(
        "--speeds",
        type=_floats("--speeds", MAX_SPEED, "m/s", SPEED_REASON),
        metavar="V1,V2,...",
        help=f"speeds at the near rim in m/s, above 0 and at most {MAX_SPEED:g} (default 0.3,0.4,...,2.0)",
    )
    ho.add_argument(
        "--engine",
        dest="holes_engine",
        choices=ENGINES,
        help="physics engine (default: bench's --engine, pybullet)",
    )
    ho.add_argument("--json", dest="holes_json", action="store_true", help="print one JSON object")
    ho.set_defaults(func=run_holes)


#: The suite's own options (``doppelx bench --X``): the namespace attribute, the flag and how
#: it is written.
SUITE_OPTIONS = (
    ("quick", "--quick", "--quick"),
    ("scene", "--scene", "--scene NAME"),
    ("json", "--json", "--json"),
    ("out", "--out", "--out FILE.json"),
    ("baseline", "--baseline", "--baseline FILE.json"),
    ("update_baseline", "--update-baseline", "--update-baseline"),
    ("record_speed", "--record-speed", "--record-speed"),
    ("record_kind", "--record-kind", "--record-speed --record-kind"),
    ("speed_record", "--speed-record", "--speed-record FILE.json"),
    ("engine", "--engine", "--engine NAME"),
)
#: The suite's options each sub-command takes when given before it (same meaning).
HONOURED = {
    "sweep": {"quick", "json", "engine"},
    "engines": {"json"},
    "restitution": {"json", "engine"},
    "cuboid": {"json", "engine"},
    "holes": {"json", "engine"},
    "tosses": {"json", "engine"},
}
#: Each sub-command's own flags (filled by :func:`register`).
_SUB_FLAGS: dict[str, set[str]] = {}


def _suite_options(args: argparse.Namespace, name: str) -> None:
    """Refuse an option of the suite, given before sub-command ``name``, that ``name`` does not take."""
    from rules.common.errors import DoppelXError

    for dest, flag, usage in SUITE_OPTIONS:
        value = getattr(args, dest, None)
        if value is None or value is False or dest in HONOURED[name]:
            continue
        if name == "engines" and dest == "engine":
            raise DoppelXError(
                "--engine: bench engines runs PyBullet and MuJoCo side by side; it takes no --engine"
            )
        if flag in _SUB_FLAGS.get(name, ()):
            raise DoppelXError(
                f"{flag} before '{name}' is the suite's option (doppelx bench {usage}); bench {name} "
                f"has its own {flag}, which goes after the sub-command: doppelx bench {name} {flag} …"
            )
        raise DoppelXError(
            f"{flag} is an option of the suite (doppelx bench {usage}), which bench {name} does not "
            f"take; its own options go after the sub-command (doppelx bench {name} --help)"
        )


def _engine(args: argparse.Namespace, own: str | None, name: str) -> str:
    """The engine of sub-command ``name``: its own ``--engine``, else the suite's given before it
    (they must agree when both are given), else PyBullet."""
    from rules.common.errors import DoppelXError

    suite = getattr(args, "engine", None)
    if own is not None and suite is not None and own != suite:
        raise DoppelXError(
            f"--engine {suite} before '{name}' and --engine {own} after it disagree: give one --engine"
        )
    return own or suite or DEFAULT_ENGINE


def _floats(flag: str, most: float, unit: str, why: str, least: float | None = None):
    """An argparse type: comma-separated finite numbers, each above 0 (from ``least`` if given) and at most ``most``."""
    u = f" {unit}" if unit else ""
    span = f"above 0 and at most {most:g}{u}" if least is None else f"from {least:g} to {most:g}{u}"

    def fits(v: float) -> bool:
        return math.isfinite(v) and v <= most and (v > 0 if least is None else v >= least)

    def parse(text: str) -> tuple[float, ...]:
        try:
            values = tuple(argtypes.plain_float(v, special=True) for v in text.split(",") if v.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{flag} takes numbers separated by commas, got {argtypes.shown(text)}"
            ) from None
        if not values or not all(fits(v) for v in values):
            raise argparse.ArgumentTypeError(
                f"{flag} takes numbers {span} separated by commas ({why}), got {argtypes.shown(text)}"
            )
        return values

    return parse


@dataclass
class _Plan:
    """What a run of the suite was asked for, checked before anything runs."""

    engine: str
    profile: Profile
    section: str  # the baseline section: quick, full, quick@mujoco, ...
    scenes: tuple[str, ...]
    path: str | Path  # the baseline file
    speed_path: Path  # the speed record file
    with_speed: bool


def run(args: argparse.Namespace) -> int:
    """``doppelx bench``: plan, read the records, run, judge, write, print; exit 1 on a failed row."""
    from doppelx.bench.suite import run_suite

    _others_load.cache_clear()  # read at the end of this run, once
    plan = _plan(args)
    data, fresh = _read_baseline(args, plan)
    speed_data, shipped = _read_speed_records(args, plan)

    def progress(line: str) -> None:
        print(f"bench: {line}", file=sys.stderr, flush=True)

    result = run_suite(plan.profile, plan.scenes, progress=progress, engine=plan.engine)
    rows, physics, speed, measured = _judge(result, data, fresh, speed_data, shipped, plan)
    if physics and not args.update_baseline and plan.section not in data.get("profiles", {}):
        print(
            f"bench: warning: {plan.path} has no '{plan.section}' section: nothing was compared, every "
            "figure is new (record one with --update-baseline)",
            file=sys.stderr,
        )
    out = _result_json(result, rows, measured, speed, plan)
    _write_outputs(args, plan, out, data, physics, speed, speed_data, measured, fresh)
    _print_result(args, plan, result, rows, out, _speed_note(args, plan, speed, speed_data, shipped))
    return _report_failures(args, rows)


def _plan(args: argparse.Namespace) -> _Plan:
    """The run's engine, profile, scenes and files; every file to be written is checked and no
    two named files are one, before anything runs (exit 2 otherwise)."""
    from doppelx.bench import baseline as bl
    from doppelx.bench.common import PROFILES
    from doppelx.bench.speed import NAME as SPEED
    from doppelx.bench.suite import ALL

    engine = args.engine or DEFAULT_ENGINE
    profile = PROFILES["quick" if args.quick else "full"]
    _check_names(args)
    path = args.baseline if args.baseline is not None else bl.default_path()
    _check_baseline_given(args)
    scenes = tuple(dict.fromkeys(args.scene)) if args.scene else ALL
    section = profile.name if engine == "pybullet" else f"{profile.name}@{engine}"
    if engine != "pybullet":
        scenes = _engine_scenes(engine, tuple(dict.fromkeys(args.scene)) if args.scene else None)
    with_speed = SPEED in scenes
    speed_path = _speed_path(args, with_speed)
    _check_outputs(args, path, speed_path)
    named = [("--baseline", str(path))]
    if with_speed or args.speed_record is not None:
        named.append(("--speed-record", str(speed_path)))
    if args.out is not None:
        named.append(("--out", args.out))
    _distinct(named)
    return _Plan(engine, profile, section, scenes, path, speed_path, with_speed)


def _speed_path(args: argparse.Namespace, with_speed: bool):
    """The speed record file to read (and with ``--record-speed`` to write)."""
    from pathlib import Path

    from doppelx.bench import speedrecord as sr
    from rules.common.errors import DoppelXError

    if args.record_kind and not args.record_speed:
        raise DoppelXError(
            "--record-kind goes with --record-speed (doppelx bench --record-speed --record-kind)"
        )
    if args.record_speed and not with_speed:
        raise DoppelXError("--record-speed needs the speed scene (run all scenes, or add --scene speed)")
    if args.speed_record is not None:
        return Path(args.speed_record)
    return sr.shipped_path() if args.record_kind else sr.default_path()


def _check_outputs(args: argparse.Namespace, path, speed_path) -> None:
    """Every file the run is to write can be written (exit 2 before a long run otherwise)."""
    from rules.common.atomic import check_output_file, prepare_output_dir

    if args.out is not None:
        _check_writable(args.out)
    if args.update_baseline:
        _check_writable(str(path))
    if args.record_speed:
        if args.speed_record is None and not args.record_kind:  # the program's own cache folder may be made
            prepare_output_dir(speed_path.parent, "speed record folder")
        check_output_file(speed_path, "speed record")


def _check_names(args: argparse.Namespace) -> None:
    """An empty file name (an unset shell variable) is never taken for the default file."""
    from rules.common.errors import DoppelXError

    for flag, value in (
        ("--out", args.out),
        ("--baseline", args.baseline),
        ("--speed-record", args.speed_record),
    ):
        if value is not None and not value.strip():
            raise DoppelXError(f"{flag} {value!r}: not a valid file name")


def _check_baseline_given(args: argparse.Namespace) -> None:
    """A ``--baseline`` to compare with must be an existing file (``--update-baseline`` may create it)."""
    from pathlib import Path

    from rules.common.errors import SpecError

    if args.baseline is None or args.update_baseline:
        return
    if Path(args.baseline).is_dir():
        raise SpecError(args.baseline, "", "is a folder, not a baseline file")
    if not Path(args.baseline).is_file():
        raise SpecError(
            args.baseline, "", "no such baseline file (pass --update-baseline to create one there)"
        )


def _read_baseline(args: argparse.Namespace, plan: _Plan) -> tuple[dict, bool]:
    """The baseline (a malformed file stops here, exit 2) and whether ``--update-baseline``
    starts the section afresh (it was recorded on another engine)."""
    from doppelx.bench import baseline as bl

    data = bl.load(plan.path)
    if not args.update_baseline:
        note = bl.check_engine(plan.path, data, plan.section, plan.engine)  # another engine's: exit 2
        if note:
            print(f"bench: note: {note}", file=sys.stderr)
        return data, False
    recorded = bl.recorded_engine(data, plan.section)
    if recorded is None or recorded == plan.engine:
        return data, False
    print(
        f"bench: warning: {plan.path}: '{plan.section}' was recorded with {recorded}; --update-baseline "
        f"replaces the whole section with this {plan.engine} run",
        file=sys.stderr,
    )
    return data, True


def _read_speed_records(args: argparse.Namespace, plan: _Plan) -> tuple[dict, dict | None]:
    """The speed record to judge by (or to add to) and the shipped record of machine kinds;
    read only when speed is measured. A malformed record stops here (exit 2) unless
    ``--record-speed`` is to replace it."""
    from doppelx.bench import speedrecord as sr

    if not plan.with_speed:
        return sr.empty(), None
    try:
        speed_data = sr.load(plan.speed_path)
    except sr.DamagedRecord as exc:
        if not args.record_speed:
            raise
        print(f"bench: warning: {exc}; --record-speed replaces it with this run's figures", file=sys.stderr)
        speed_data = sr.empty()
    shipped = None
    # the shipped record of this kind of machine judges the full profile only (the quick
    # profile's scenes are too short for a verdict on a machine other than the recording
    # one); an explicit record is judged alone
    if args.speed_record is None and not args.record_kind and not args.quick:
        shipped = sr.load(sr.shipped_path())
    return speed_data, shipped


def _judge(result, data: dict, fresh: bool, speed_data: dict, shipped: dict | None, plan: _Plan):
    """``(rows, physics metrics, speed metrics, scenes shown)``: every row with its verdict."""
    from doppelx.bench import baseline as bl
    from doppelx.bench import speedrecord as sr
    from doppelx.bench.speed import NAME as SPEED

    physics = [m for m in result.metrics if m.scene != SPEED]
    speed = [m for m in result.metrics if m.scene == SPEED]
    measured = [s for s in result.seconds if s in plan.scenes]  # the scenes whose rows are shown
    compared = {} if fresh else data
    rows = bl.compare(physics, compared, plan.section, measured) + sr.compare(
        speed, speed_data, plan.section, shipped, load=_others_load()
    )
    return rows, physics, speed, measured


def _result_json(result, rows, measured, speed, plan: _Plan) -> dict:
    """The result object ``--json`` prints and ``--out`` writes."""
    from doppelx.bench import baseline as bl
    from doppelx.bench import speedrecord as sr
    from doppelx.bench.speed import NAME as SPEED
    from doppelx.bench.suite import failed

    return {
        "format": "doppelx-bench-result/1",
        "profile": plan.profile.name,
        "engine": plan.engine,
        "scenes": measured + ([SPEED] if speed else []),
        "seconds": result.seconds,
        "baseline": str(plan.path),
        "speed_record": str(plan.speed_path) if speed else None,
        "machine": sr.fingerprint(engine=plan.engine),
        "environment": bl.environment(plan.engine),
        "passed": not failed(rows),
        "rows": [r.to_dict() for r in rows],
    }


def _write_outputs(args, plan: _Plan, out, data, physics, speed, speed_data, measured, fresh) -> None:
    """``--out``, the updated baseline and the speed record, each written atomically."""
    from doppelx.bench import baseline as bl
    from doppelx.bench import speedrecord as sr

    if args.out is not None:
        _write(args.out, json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    if args.update_baseline:
        _write(plan.path, bl.dumps(bl.updated(data, physics, plan.section, measured, fresh=fresh)))
        print(
            f"bench: baseline {plan.path} updated ({plan.section}: {len(physics)} metrics)", file=sys.stderr
        )
    if args.record_speed:
        sr.save(plan.speed_path, sr.recorded(speed_data, speed, plan.section, by_kind=args.record_kind))
        whose = "this kind of machine" if args.record_kind else "this machine"
        print(f"bench: speed of {whose} recorded in {plan.speed_path} ({plan.section})", file=sys.stderr)


@functools.lru_cache(maxsize=1)
def _others_load() -> float:
    """Other jobs' load at the end of this run, read once (the verdict and its note agree)."""
    from doppelx.bench import speedrecord as sr

    return sr.others_load()


def _speed_note(args, plan: _Plan, speed, speed_data: dict, shipped: dict | None) -> str:
    """One line: what the speed rows were judged against."""
    from doppelx.bench import speedrecord as sr

    if not speed:
        return ""
    if args.record_speed:
        whose = "this kind of machine's" if args.record_kind else "this machine's"
        return f"speed recorded as {whose} ({plan.speed_path}): later runs are judged against it"
    _, whose = sr.judged_against(speed_data, plan.section, shipped)
    if whose and sr.busy(_others_load()):
        cores = os.cpu_count() or 1
        return (
            f"speed shown as information: other jobs keep this machine busy (a load of {_others_load():.1f} "
            f"per core beside this run, {cores} cores) — under load the speed ratios move as much as a regression"
        )
    if whose == "machine":
        return f"speed judged against this machine's record ({plan.speed_path})"
    if whose == "kind":
        return f"speed judged against the shipped record of this kind of machine ({sr.shipped_path()})"
    return (
        "speed shown as information (no record of this machine or its kind; `doppelx bench --record-speed`)"
    )


def _print_result(args, plan: _Plan, result, rows, out: dict, speed_note: str) -> None:
    """The table and the summary line (or the result JSON with ``--json``) on stdout."""
    from doppelx.bench.suite import format_table, summary

    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return
    print(format_table(rows))
    print()
    print(
        f"{summary(rows)}  ({plan.section} profile, {sum(result.seconds.values()):.1f} s, baseline {plan.path})"
    )
    if speed_note:
        print(speed_note)


def _report_failures(args: argparse.Namespace, rows) -> int:
    """Name every failed row on stderr; 1 if any, else 0. With ``--update-baseline`` or
    ``--record-speed`` only absolute requirements (and the rows not being rewritten) count:
    a recorded speed is not judged, an updated baseline no longer holds the metrics a scene
    stopped measuring."""
    from doppelx.bench.speed import NAME as SPEED
    from doppelx.bench.suite import failed

    bad = failed(rows)
    if args.update_baseline or args.record_speed:
        bad = [
            r
            for r in bad
            if r.verdict == "FAIL"
            or (not args.update_baseline and r.metric.scene != SPEED)
            or (not args.record_speed and r.metric.scene == SPEED)
        ]
    if not bad:
        return 0
    print(f"bench: {len(bad)} metric(s) failed:", file=sys.stderr)
    for r in bad:
        if r.verdict == "MISSING":
            print(
                f"  {r.metric.key} MISSING: in the baseline ({r.baseline}) but not measured by this "
                "run (a renamed or dropped metric: --update-baseline drops it)",
                file=sys.stderr,
            )
            continue
        note = f" — {r.why or r.metric.note}" if r.why or r.metric.note else ""
        print(
            f"  {r.metric.key} {r.verdict}: {r.metric.value} (baseline {r.baseline}, "
            f"{r.metric.check.describe()}){note}",
            file=sys.stderr,
        )
    return 1


def _distinct(named: list[tuple[str, str]]) -> None:
    """Refuse two of the ``(flag, file)`` pairs naming one file (resolved paths, or the same
    file through a link): one would replace or be read as the other."""
    from rules.common.assets import same_file
    from rules.common.errors import DoppelXError

    for i, (flag, name) in enumerate(named):
        for other_flag, other in named[:i]:
            if same_file(name, other):
                raise DoppelXError(
                    f"{flag} {name}: the same file as {other_flag}; one would replace the other "
                    "(give each its own file)"
                )


def run_sweep(args: argparse.Namespace) -> int:
    from doppelx.bench.sweep import format_points, plot
    from doppelx.bench.sweep import run_sweep as sweep
    from rules.common.errors import DoppelXError

    _suite_options(args, "sweep")
    if args.engine not in (None, "pybullet"):
        raise DoppelXError("bench sweep varies PyBullet's solver settings; it has no --engine mujoco")
    quick, as_json = args.sweep_quick or args.quick, args.sweep_json or args.json
    if args.data:
        _check_writable(args.data)
        _distinct([("--out", args.sweep_out), ("--data", args.data)])
    points = sweep(quick=quick, progress=lambda line: print(f"sweep: {line}", file=sys.stderr, flush=True))
    payload = {
        "format": "doppelx-bench-sweep/1",
        "quick": quick,
        "plot": args.sweep_out,
        "points": [pt.to_dict() for pt in points],
    }
    if args.data:  # before the plot: a plot that fails does not lose a long grid
        _write(args.data, json.dumps(payload, indent=2) + "\n")
    plot(points, args.sweep_out)
    if as_json:
        print(json.dumps(payload, indent=2))
    else:
        print(format_points(points))
        print(f"\nplot: {args.sweep_out}")
    return 0


def _engine_scenes(engine: str, asked) -> tuple[str, ...]:
    """The scenes ``engine`` runs (all it can by default); a scene it cannot run is a user error."""
    from doppelx.bench.suite import ENGINE_SCENES
    from rules.common.errors import DoppelXError

    able = ENGINE_SCENES[engine]
    if asked is None:
        return able
    bad = [s for s in asked if s not in able]
    if bad:
        raise DoppelXError(f"--scene {bad[0]}: the {engine} engine runs only {', '.join(able)}")
    return asked


def run_engines(args: argparse.Namespace) -> int:
    from doppelx.bench.engines import format_result, plot
    from doppelx.bench.engines import run_engines as compare
    from physics.mujoco_world import import_mujoco

    _suite_options(args, "engines")
    import_mujoco()
    res = compare(args.throws, progress=lambda line: print(f"engines: {line}", file=sys.stderr, flush=True))
    plot(res, args.engines_out)
    res["plot"] = args.engines_out
    if args.engines_json or args.json:
        print(json.dumps(res, indent=2))
    else:
        print(format_result(res))
        print(f"\nplot: {args.engines_out}")
    return 0


def _pybullet_only(args: argparse.Namespace, name: str) -> None:
    from rules.common.errors import DoppelXError

    if getattr(args, "engine", None) not in (None, "pybullet"):
        raise DoppelXError(f"bench {name} runs PyBullet's world; it has no --engine {args.engine}")


def run_restitution(args: argparse.Namespace) -> int:
    from doppelx.bench import restitution as rs
    from physics.settings import SimSettings

    _suite_options(args, "restitution")
    _pybullet_only(args, "restitution")

    speeds = args.speeds or rs.SPEEDS
    rows = rs.run(speeds)
    threshold = SimSettings().restitution_threshold
    if args.restitution_json or args.json:
        print(json.dumps({"rows": [r.to_dict() for r in rows]}, indent=2))
    else:
        print(rs.format_rows(rows, threshold))
    bad = [r for r in rows if rs.verdict(r, threshold) in ("MISS", "TUNNELLED")]
    if bad:
        print(
            f"bench restitution: {len(bad)} of {len(rows)} drops missed the aim (±{rs.AIM} above "
            f"{threshold} m/s, nothing tunnelling)",
            file=sys.stderr,
        )
        return 1
    return 0


def run_cuboid(args: argparse.Namespace) -> int:
    from doppelx.bench import cuboid as cb

    _suite_options(args, "cuboid")
    engine = _engine(args, args.cuboid_engine, "cuboid")
    ratios = args.ratios or cb.RATIOS
    results = cb.run(ratios, args.throws, args.seed, engine=engine)
    if args.cuboid_json or args.json:
        print(json.dumps({"ratios": [r.to_dict() for r in results]}, indent=2))
    else:
        print(cb.format_results(results))
        c = cb.compare(results)
        if c["compared"]:
            print(
                f"\nagainst Budden's dice: inside their 95 % interval at {c['inside']} of {c['compared']} "
                f"ratios ({c['inside_fraction']:.0%}; aim {cb.AIM_INSIDE:.0%}), mean absolute error "
                f"{c['mae']:.3f} (aim {cb.AIM_MAE}), two-sample χ² {c['chi2']:.1f} over {c['compared']} ratios; "
                f"the solid-angle model's error {c['model_mae']:.3f}"
            )
    if args.plot:
        cb.plot(results, args.plot, engine=engine)
        print(f"plot: {args.plot}", file=sys.stderr)
    return 0


def run_holes(args: argparse.Namespace) -> int:
    from doppelx.bench import holes as ho

    _suite_options(args, "holes")
    engine = _engine(args, args.holes_engine, "holes")
    res = ho.run(args.speeds or ho.SPEEDS, engine)
    if args.holes_json or args.json:
        print(json.dumps(res, indent=2, ensure_ascii=False))
    else:
        print(ho.format_result(res))
    wrong = [r for r in res["rows"] if r["verdict"] == "WRONG"]
    if wrong:
        print(
            f"bench holes: {engine} breaks the analytic bounds at {len(wrong)} of {len(res['rows'])} speeds",
            file=sys.stderr,
        )
    if res["rest_verdict"].startswith("WRONG"):
        print(f"bench holes: {engine}: at rest over the rim, {res['rest_verdict']}", file=sys.stderr)
    return 1 if wrong or res["rest_verdict"].startswith("WRONG") else 0


def _check_writable(path: str) -> None:
    """Fail early (exit 2) if ``path`` cannot be written, before a long run."""
    from rules.common.atomic import check_output_file

    check_output_file(path)


def _write(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; an unwritable path is a user error (exit 2)."""
    from rules.common.atomic import write_text

    write_text(path, text)

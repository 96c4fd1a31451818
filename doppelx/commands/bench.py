"""``doppelx bench``: contact-solver regression benchmarks against the committed baseline.

    doppelx bench [--quick] [--scene NAME ...] [--json] [--out FILE.json]
                  [--baseline FILE.json] [--update-baseline]
    doppelx bench sweep [--quick] [--out FILE.png] [--data FILE.json] [--json]
    doppelx bench engines [--throws N] [--json] [--out FILE.png]

Runs the seeded scenes (drop, incline, pile, impact, spinner, tray, speed; all by default),
prints a table — scene, metric, value, analytic expectation, baseline, change, verdict —
and exits 1 when a metric left its tolerance around the baseline (``WORSE``, ``CHANGED``)
or broke an absolute requirement (``FAIL``: tunnelling, determinism, momentum), else 0.
``--quick`` is the CI size (its own baseline section). ``--update-baseline`` rewrites the
baseline with this run's values on purpose; absolute requirements still fail the run
(exit 1), since no baseline can accept them.
``sweep`` runs a grid of solver settings and plots speed against accuracy with the Pareto
front (PNG). ``engines`` sends the same seeded standard turns through PyBullet and MuJoCo
and compares them side by side (:mod:`doppelx.bench.engines`). ``--engine mujoco`` runs the
scenes that work in MuJoCo (drop, incline, tray) against the baseline section
``<profile>@mujoco``. What each scene measures and why the tolerances are what they are:
``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import sys

from doppelx import argtypes
from physics.engine import add_engine_argument

SCENE_NAMES = ("drop", "incline", "pile", "impact", "spinner", "tray", "speed")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench",
        help="contact-solver regression benchmarks against the committed baseline",
        description="Run the seeded physics scenes, compare every metric with the committed "
        "baseline and exit 1 on a regression.",
    )
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
    p.add_argument(
        "--out",
        metavar="FILE.json",
        help="also write the result JSON to this file",
    )
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
    add_engine_argument(p)
    p.set_defaults(func=run)
    sweep_sub = p.add_subparsers(dest="bench_command", metavar="{sweep,engines}")
    s = sweep_sub.add_parser(
        "sweep",
        help="grid of solver settings: speed against accuracy, Pareto front (PNG)",
        description="Run a grid of solver settings (time step, solver iterations, contact "
        "ERP, split impulse, CCD, sleeping thresholds) and plot speed against "
        "accuracy with the Pareto front.",
    )
    # own dests: a sub-command's defaults would overwrite ``doppelx bench --quick sweep``
    s.add_argument(
        "--quick", dest="sweep_quick", action="store_true", help="a 3-point grid with small scenes (tests)"
    )
    s.add_argument(
        "--out", default="solver_sweep.png", metavar="FILE.png", help="the plot (default solver_sweep.png)"
    )
    s.add_argument("--data", metavar="FILE.json", help="also write every point as JSON")
    s.add_argument(
        "--json",
        dest="sweep_json",
        action="store_true",
        help="print every point as JSON instead of the table",
    )
    s.set_defaults(func=run_sweep)
    e = sweep_sub.add_parser(
        "engines",
        help="the same seeded throws through PyBullet and MuJoCo, side by side (PNG)",
        description="Send the same seeded standard turns through both engines and compare "
        "throughput, resting field kinds, hole/off rates, faces, settle times and travel, with "
        "chi-square and KS p-values, plus the drop and incline validation scenes in both.",
    )
    e.add_argument(
        "--throws", type=argtypes.positive, default=200, metavar="N", help="standard turns (default 200)"
    )
    e.add_argument("--json", dest="engines_json", action="store_true", help="print the result as JSON")
    e.add_argument(
        "--out",
        dest="engines_out",
        default="engines.png",
        metavar="FILE.png",
        help="the plot (default engines.png)",
    )
    e.set_defaults(func=run_engines)


def run(args: argparse.Namespace) -> int:
    from doppelx.bench import baseline as bl
    from doppelx.bench.common import PROFILES
    from doppelx.bench.suite import ALL, failed, format_table, run_suite, summary

    profile = PROFILES["quick" if args.quick else "full"]
    if args.out:  # before anything runs
        _check_writable(args.out)
    path = args.baseline or bl.default_path()
    if args.baseline and not args.update_baseline:
        from pathlib import Path

        from rules.errors import SpecError

        if not Path(args.baseline).is_file():
            raise SpecError(
                args.baseline, "", "no such baseline file (pass --update-baseline to create one there)"
            )
    if args.update_baseline:
        _check_writable(str(path))
    data = bl.load(path)  # a malformed file stops here (exit 2)
    scenes = tuple(dict.fromkeys(args.scene)) if args.scene else ALL

    def progress(line: str) -> None:
        print(f"bench: {line}", file=sys.stderr, flush=True)

    section = profile.name if args.engine == "pybullet" else f"{profile.name}@{args.engine}"
    if args.engine != "pybullet":
        scenes = _engine_scenes(args.engine, tuple(dict.fromkeys(args.scene)) if args.scene else None)
    result = run_suite(profile, scenes, progress=progress, engine=args.engine)
    rows = bl.compare(result.metrics, data, section)
    bad = failed(rows)
    out = {
        "format": "doppelx-bench-result/1",
        "profile": profile.name,
        "engine": args.engine,
        "scenes": list(result.seconds),
        "seconds": result.seconds,
        "baseline": str(path),
        "environment": bl.environment(),
        "passed": not bad,
        "rows": [r.to_dict() for r in rows],
    }
    if args.out:
        _write(args.out, json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(format_table(rows))
        print()
        print(f"{summary(rows)}  ({section} profile, {sum(result.seconds.values()):.1f} s, baseline {path})")
    if args.update_baseline:
        _write(path, bl.dumps(bl.updated(data, result.metrics, section)))
        print(f"bench: baseline {path} updated ({section}: {len(result.metrics)} metrics)", file=sys.stderr)
        bad = [r for r in rows if r.verdict == "FAIL"]  # absolute requirements hold whatever the baseline
    if bad:
        print(f"bench: {len(bad)} metric(s) failed:", file=sys.stderr)
        for r in bad:
            note = f" — {r.metric.note}" if r.metric.note else ""
            print(
                f"  {r.metric.key} {r.verdict}: {r.metric.value} (baseline {r.baseline}, "
                f"{r.metric.check.describe()}){note}",
                file=sys.stderr,
            )
        return 1
    return 0


def run_sweep(args: argparse.Namespace) -> int:
    from doppelx.bench.sweep import format_points, plot
    from doppelx.bench.sweep import run_sweep as sweep
    from rules.errors import DoppelXError

    if args.engine != "pybullet":
        raise DoppelXError("bench sweep varies PyBullet's solver settings; it has no --engine mujoco")
    quick, as_json = args.sweep_quick or args.quick, args.sweep_json or args.json
    if not args.out.lower().endswith(".png"):
        raise DoppelXError(f"the plot is a PNG: --out must end in .png, got {args.out!r}")
    _check_writable(args.out)
    if args.data:
        _check_writable(args.data)
    points = sweep(quick=quick, progress=lambda line: print(f"sweep: {line}", file=sys.stderr, flush=True))
    plot(points, args.out)
    payload = {
        "format": "doppelx-bench-sweep/1",
        "quick": quick,
        "plot": args.out,
        "points": [pt.to_dict() for pt in points],
    }
    if args.data:
        _write(args.data, json.dumps(payload, indent=2) + "\n")
    if as_json:
        print(json.dumps(payload, indent=2))
    else:
        print(format_points(points))
        print(f"\nplot: {args.out}")
    return 0


def _engine_scenes(engine: str, asked) -> tuple[str, ...]:
    """The scenes ``engine`` runs (all it can by default); a scene it cannot run is a user error."""
    from doppelx.bench.suite import ENGINE_SCENES
    from rules.errors import DoppelXError

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
    from rules.errors import DoppelXError

    if not args.engines_out.lower().endswith(".png"):
        raise DoppelXError(f"the plot is a PNG: --out must end in .png, got {args.engines_out!r}")
    _check_writable(args.engines_out)
    import_mujoco()
    res = compare(args.throws, progress=lambda line: print(f"engines: {line}", file=sys.stderr, flush=True))
    plot(res, args.engines_out)
    res["plot"] = args.engines_out
    if args.engines_json:
        print(json.dumps(res, indent=2))
    else:
        print(format_result(res))
        print(f"\nplot: {args.engines_out}")
    return 0


def _check_writable(path: str) -> None:
    """Fail early (exit 2) if ``path`` cannot be written, before a long run."""
    from rules.atomic import check_output_file

    check_output_file(path)


def _write(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; an unwritable path is a user error (exit 2)."""
    from rules.atomic import write_text

    write_text(path, text)

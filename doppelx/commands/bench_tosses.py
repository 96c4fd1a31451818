"""``doppelx bench tosses``: the contact model against 456 real tracked cube tosses.

    doppelx bench tosses [--data FILE.npz] [--engine pybullet|mujoco] [--throws-per-toss K]
                         [--json] [--plot OUT.png] [--half fit|eval|all] [--tosses N] [--seed S]
                         [--edge sharp|rounded]
    doppelx bench tosses --fit [--engine E] [--fit-out FILE.toml] [--fit-tosses N] [--fit-evals N]
                               [--fit-warm [--fitted START.toml]]
                               [--fit-rest-weight W] [--fit-ks-weight W] [--fit-face-weight W]
                               [--fit-face-angle-weight W]
                               [--edge sharp|rounded]

Evaluation never fits: it reads the materials of ``assets/validation/tosses_fit.toml`` and
runs, without ``--data``, the shipped data's evaluation half (odd ``toss_id``; ``--half``
picks another), with ``--data`` every toss of FILE. ``--engine`` runs one engine; the
default is both. Beside the fitted materials every engine also runs the game's die–board
material (``game_material`` in the JSON). ``--fit`` fits each engine on the fit half (even
``toss_id``) and writes the file atomically (the other engine's section is kept when it was
fitted on the same data). ``--edge rounded`` gives the cube rounded edges that carry their
own contact (:mod:`doppelx.bench.rounded_box`; fitted into and read from the fit file's
``[mujoco_rounded]`` and ``[pybullet_rounded]`` sections).
The default is the sharp box. A malformed data file is one line and exit 2, nothing written.
The measures and the method: :mod:`doppelx.bench.tosses`, docs/physics.md ("Real motion").
"""

from __future__ import annotations

import argparse
import json
import sys

from doppelx import argtypes

#: Most chaos runs per toss (each is one more simulation of every toss).
MAX_THROWS_PER_TOSS = 50
HALVES = ("fit", "eval", "all")


def register_tosses(sub: argparse._SubParsersAction, suite_options, engine_of) -> None:
    """The ``tosses`` sub-command of ``doppelx bench``; ``suite_options(args, name)`` refuses the
    suite's options given before it that it does not take, ``engine_of(args, own, name)`` reads
    ``--engine`` given before or after it (both :mod:`doppelx.commands.bench`'s, handed in so that
    this module does not import it back)."""
    from doppelx.bench.tosses import SEED, THROWS_PER_TOSS
    from doppelx.bench.tosses_fit import EDGES, MAX_EVALS
    from physics.engine import ENGINES

    t = sub.add_parser(
        "tosses",
        help="the contact model against 456 real tracked cube tosses (both engines, chaos bound)",
        description="Re-run each tracked toss of a real cube from its fitted release state in "
        "PyBullet and MuJoCo with the fitted materials and the game's, and compare them frame by "
        "frame: position and orientation errors, time to rest, impacts, the face down; beside "
        "the chaos bound (the same toss perturbed by the tracking's noise). --fit fits the "
        "materials on the fit half and writes assets/validation/tosses_fit.toml.",
    )
    t.add_argument("--data", type=argtypes.input_path, metavar="FILE.npz",
                   help="tosses file of the shipped format (default: the shipped data's evaluation half)")  # fmt: skip
    t.add_argument("--engine", dest="tosses_engine", choices=ENGINES, help="one engine (default: both)")
    t.add_argument(
        "--throws-per-toss",
        type=argtypes.whole(0, MAX_THROWS_PER_TOSS, "a number of perturbed runs"),
        default=THROWS_PER_TOSS,
        metavar="K",
        help=f"perturbed runs per toss for the chaos bound (default {THROWS_PER_TOSS}; 0: no bound)",
    )
    t.add_argument("--json", dest="tosses_json", action="store_true", help="print one JSON object")
    t.add_argument("--plot", type=argtypes.png_file, metavar="OUT.png",
                   help="draw a few tosses real against simulated and the error over time (PNG)")  # fmt: skip
    t.add_argument("--half", choices=HALVES, help="tosses evaluated (default: eval, or all of --data)")
    t.add_argument("--tosses", type=argtypes.whole(1, 100_000, "a number of tosses"), metavar="N",
                   help="only the first N tosses evaluated (default all)")  # fmt: skip
    t.add_argument("--seed", type=argtypes.seed, default=SEED, metavar="N",
                   help=f"seed of the chaos bound's perturbations (default {SEED})")  # fmt: skip
    t.add_argument("--fitted", type=argtypes.input_path, metavar="FILE.toml",
                   help="evaluate with the materials of this fit file (default the shipped one); with "
                   "--fit --fit-warm: start the search from its values (even if fitted on other data)")  # fmt: skip
    t.add_argument("--fit", action="store_true", help="fit the materials on the fit half and write them")
    t.add_argument("--fit-out", type=argtypes.output_path, metavar="FILE.toml",
                   help="--fit writes here (default the shipped assets/validation/tosses_fit.toml)")  # fmt: skip
    t.add_argument("--fit-tosses", type=argtypes.whole(1, 100_000, "a number of tosses"), metavar="N",
                   help="--fit takes only the first N tosses of the fit half (default all)")  # fmt: skip
    t.add_argument("--fit-evals", type=argtypes.whole(1, 1000, "a number of evaluations"),
                   metavar="N", help=f"--fit's pattern search budget after the 16-point grid (default {MAX_EVALS})")  # fmt: skip
    for flag, term in (  # the objective's optional terms, each W x ... (0 by default: trajectory only)
        ("--fit-rest-weight", "each toss's time-to-rest error (s)"),
        ("--fit-ks-weight", "the KS distance of the times to rest (runs against tracked)"),
        ("--fit-face-weight", "the share of tosses whose run ends on another face down"),
        (
            "--fit-face-angle-weight",
            "the mean angle (quarter turns) between the run's and the toss's down directions at the end",
        ),
    ):
        t.add_argument(flag, type=argtypes.number(0.0, 100.0, "a weight"), default=0.0, metavar="W",
                       help=f"--fit: add W x {term} to the objective (default 0)")  # fmt: skip
    t.add_argument("--fit-warm", action="store_true",
                   help="--fit starts the pattern search from the fit file's values of the engine (no grid)")  # fmt: skip
    t.add_argument("--edge", choices=EDGES, default="sharp",
                   help="sharp box (default) or rounded edges with their own contact")  # fmt: skip
    t.set_defaults(func=run_tosses, tosses_checks=(suite_options, engine_of))


def _engines(args: argparse.Namespace) -> tuple[str, ...]:
    from physics.engine import ENGINES

    if args.tosses_engine is None and getattr(args, "engine", None) is None:
        return tuple(ENGINES)
    return (args.tosses_checks[1](args, args.tosses_engine, "tosses"),)


def run_tosses(args: argparse.Namespace) -> int:
    from rules.common.errors import DoppelXError

    args.tosses_checks[0](args, "tosses")
    engines = _engines(args)
    if args.fit:
        for flag, given in (("--data", args.data), ("--plot", args.plot), ("--half", args.half),
                            ("--tosses", args.tosses), ("--json", args.tosses_json)):  # fmt: skip
            if given:
                raise DoppelXError(f"{flag}: --fit fits on the shipped data's fit half and writes the fit file; "
                                   f"it takes only --engine, --fit-out, --fit-tosses, --fit-evals, --fit-warm, --fitted (with --fit-warm), --fit-rest-weight, --fit-ks-weight, --fit-face-weight, --fit-face-angle-weight, --edge")  # fmt: skip
        if args.fitted and not args.fit_warm:
            raise DoppelXError("--fitted: with --fit it names where --fit-warm starts; add --fit-warm")
        return _fit(args, engines)
    for flag, given in (
        ("--fit-out", args.fit_out),
        ("--fit-tosses", args.fit_tosses),
        ("--fit-warm", args.fit_warm),
        ("--fit-evals", args.fit_evals),
        ("--fit-rest-weight", args.fit_rest_weight),
        ("--fit-ks-weight", args.fit_ks_weight),
        ("--fit-face-weight", args.fit_face_weight),
        ("--fit-face-angle-weight", args.fit_face_angle_weight),
    ):
        if given:
            raise DoppelXError(f"{flag} belongs to --fit (doppelx bench tosses --fit {flag} …)")
    return _evaluate(args, engines)


def _fit(args: argparse.Namespace, engines) -> int:
    from doppelx.bench.tosses_data import load_tosses
    from doppelx.bench.tosses_fit import (
        EDGES,
        MAX_EVALS,
        default_path,
        fit_engine,
        read_fit,
        section_name,
        write_fit,
    )
    from rules.common.atomic import check_output_file
    from rules.common.errors import DoppelXError

    out = args.fit_out or default_path()
    check_output_file(out, "fit file")
    data = load_tosses()
    warm = {}
    if args.fit_warm:
        # --fitted: a start named on purpose (a fit of an earlier copy of the data)
        start = args.fitted or out
        if not args.fitted and not out.exists():
            raise DoppelXError(f"--fit-warm: no fit file {out} to start from: name one with --fitted START.toml, "
                               "or fit without --fit-warm")  # fmt: skip
        doc = read_fit(start)
        if doc.get("data", {}).get("sha256") != data.sha256:
            if not args.fitted:
                raise DoppelXError(f"--fit-warm: {out} was fitted on other data; fit without --fit-warm "
                                   "or name it with --fitted to start from its values anyway")  # fmt: skip
            print(f"bench tosses --fit: starting from {start}, fitted on other data", file=sys.stderr)
        warm = {e: _warm(doc, e, start, args.edge) for e in engines}
    fit_tosses = data.half("fit")[: args.fit_tosses] if args.fit_tosses else data.half("fit")

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    sections = {}
    for engine in engines:
        progress(f"bench tosses --fit: {engine} on {len(fit_tosses)} tosses of the fit half")
        sections[section_name(engine, args.edge)] = fit_engine(
            data,
            engine,
            progress,
            MAX_EVALS if args.fit_evals is None else args.fit_evals,
            fit_tosses,
            warm.get(engine),
            args.edge,
            args.fit_rest_weight,
            args.fit_ks_weight,
            args.fit_face_weight,
            args.fit_face_angle_weight,
        )
    # the other engine's section is kept when it was fitted on the same data (read now, at the end)
    old = read_fit(out) if out.exists() else {"data": {}}
    if old.get("data", {}).get("sha256") == data.sha256:
        for name in (section_name(e, kind) for kind in EDGES for e in ("pybullet", "mujoco")):
            if name in old and name not in sections:
                sections[name] = old[name]
    write_fit(out, data.sha256, data.scale, sections, data.inertia)
    for engine in engines:
        s = sections[section_name(engine, args.edge)]
        print(
            f"{engine}: friction {s['friction']:g}, restitution {s['restitution']:g}, spinning "
            f"{s['spinning_friction']:g} m, rolling {s['rolling_friction']:g} m; trajectory error "
            f"{s['objective_fit_half']:.4f} on the fit half, {s['objective_eval_half']:.4f} on the evaluation half"
        )
    print(f"fit: {out}", file=sys.stderr)
    return 0


def _warm(doc: dict, engine: str, path, edge: str):
    """``--fit-warm``'s start: the engine's section for ``edge`` s, or (rounded, first fit) the sharp one."""
    from doppelx.bench.tosses_fit import params_of, section_name

    if edge != "sharp" and section_name(engine, edge) not in doc:
        edge = "sharp"
    return params_of(doc, engine, path, edge)


def _evaluate(args: argparse.Namespace, engines) -> int:
    from doppelx.bench import tosses as ts
    from doppelx.bench.tosses_data import load_tosses
    from doppelx.bench.tosses_fit import default_path, params_of, read_fit
    from doppelx.bench.tosses_sim import game_params
    from rules.common.atomic import check_output_file
    from rules.common.errors import DoppelXError

    if args.plot:
        check_output_file(args.plot, "plot")
    data = load_tosses(args.data)
    fit_file = args.fitted or default_path()
    doc = read_fit(fit_file)
    params = {e: params_of(doc, e, fit_file, args.edge) for e in engines}
    if args.data is None and doc["data"].get("sha256") != data.sha256:
        raise DoppelXError(f"{fit_file}: fitted on other data than the shipped tosses: run --fit again")
    fitted_inertia = doc["data"].get("inertia_kgm2")
    if isinstance(fitted_inertia, float | int) and abs(fitted_inertia - data.inertia) > 1e-3 * data.inertia:
        print(f"bench tosses: note: {fit_file} was fitted with the cube's inertia {fitted_inertia:.6g} kg m², "
              f"{data.source}'s cube has {data.inertia:.6g}", file=sys.stderr)  # fmt: skip
    half = args.half or ("all" if args.data is not None else "eval")
    tosses = data.half(half)[: args.tosses] if args.tosses else data.half(half)
    if not tosses:
        raise DoppelXError(f"{data.source}: no tosses in the {half} half")
    keep = tuple(t.toss_id for t in tosses[:3])
    result: dict = {"engines": {}}
    for engine in engines:
        r = ts.evaluate(tosses, data.half_width, data.mass, data.dt, engine, params[engine],
                        args.throws_per_toss, args.seed, keep, data.inertia)  # fmt: skip
        g = ts.evaluate(tosses, data.half_width, data.mass, data.dt, engine, game_params(engine), 0,
                        keep=keep, inertia=data.inertia)  # fmt: skip
        r["game_material"] = g
        r["edge"] = params[engine].edge
        result["engines"][engine] = r
    if args.plot:
        from doppelx.bench.tosses_plot import plot

        plot(result, {t.toss_id: t for t in tosses if t.toss_id in keep}, data.half_width, args.plot)
        print(f"plot: {args.plot}", file=sys.stderr)
    result["data"] = {
        "file": str(data.source), "sha256": data.sha256, "half": half, "tosses": len(tosses),
        "length_scale": round(data.scale, 6), "fit_file": str(fit_file),
        "inertia_kgm2": round(data.inertia, 9), "inertia": "file" if data.inertia_given else "homogeneous",
    }  # fmt: skip
    result["chaos_noise"] = {"position_m": ts.NOISE[0], "orientation_deg": 1.0, "velocity": ts.NOISE[2],
                             "spin": ts.NOISE[3], "throws_per_toss": args.throws_per_toss, "seed": args.seed}  # fmt: skip
    for r in result["engines"].values():
        for x in (r, r["game_material"]):
            x.pop("runs", None)
        r["aims"] = {k: {"met": ok, "shown": shown} for k, (ok, shown) in ts.goals(r).items()}
    if args.tosses_json or getattr(args, "json", False):
        for r in result["engines"].values():
            for x in (r, r["game_material"]):
                x.pop("curve", None)
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(format_table(result))
    return 0


def format_table(result: dict) -> str:
    """Engines side by side (fitted, game material) with the chaos bound and the aims."""
    from doppelx.bench import tosses as ts

    cols, names = [], []
    for engine, r in result["engines"].items():
        cols += [r, r["game_material"]]
        names += [f"{engine} fitted", f"{engine} game"]
    d = result["data"]
    edges = sorted({r.get("edge", "sharp") for r in result["engines"].values()})
    lines = [
        f"{d['tosses']} tosses ({d['half']} half of {d['file']}), length scale {d['length_scale']:.4f}, "
        f"cube's inertia {d['inertia_kgm2']:.3g} kg m² ({'the file' if d['inertia'] == 'file' else 'homogeneous'}), "
        f"{' and '.join(edges)} edges"
    ]
    head = f"{'measure':<34}" + "".join(f"{n:>18}" for n in names)
    lines += [head, "-" * len(head)]

    def row(label: str, get, fmt: str = ".3f") -> None:
        cells = []
        for c in cols:
            try:
                v = get(c)
            except (KeyError, TypeError):
                v = None
            cells.append(f"{v:>18{fmt}}" if isinstance(v, float | int) else f"{'—':>18}")
        lines.append(f"{label:<34}" + "".join(cells))

    for k in ts.KEYS:
        row(f"pos err {k} (widths) median", lambda c, k=k: c["pos_err_widths"][k])
        row(f"pos err {k} (widths) p90", lambda c, k=k: c["pos_err_widths_p90"][k])
        row(f"  chaos spread {k} (widths) median", lambda c, k=k: c["chaos_pos_spread_widths"][k])
    for k in ts.KEYS:
        row(f"ori err {k} (deg) median", lambda c, k=k: c["ori_err_deg"][k])
    row("face agreement", lambda c: c["face_agreement"])
    row("  chaos face agreement", lambda c: c["chaos_face_agreement"])
    row("time to rest real median (s)", lambda c: c["time_to_rest_s"]["real_median"])
    row("time to rest sim median (s)", lambda c: c["time_to_rest_s"]["sim_median"])
    row("time to rest KS p", lambda c: c["time_to_rest_ks_p"])
    row("impacts real mean", lambda c: c["impacts"]["real_mean"])
    row("impacts sim mean", lambda c: c["impacts"]["sim_mean"])
    row("trajectory error (fit objective)", lambda c: c["trajectory_error"])
    from dataclasses import fields

    from doppelx.bench.tosses_sim import TossParams

    for p in (f.name for f in fields(TossParams)):  # every parameter set in a column (edges too)
        if any(p in c["params"] for c in cols):
            row(f"{p}", lambda c, p=p: c["params"][p], ".6g")
    for engine, r in result["engines"].items():
        verdicts = ", ".join(  # the aims as _evaluate judged them (ts.goals), not judged again
            f"{k} {'met' if a['met'] else 'NOT met'} ({a['shown']})" for k, a in r["aims"].items()
        )
        lines.append(f"aims, {engine} fitted: {verdicts}")
    if d["tosses"] < ts.FEW_TOSSES:
        lines.append(f"({d['tosses']} tosses are too few to judge the aims by: the issue judges them on the "
                     f"224 of the evaluation half)")  # fmt: skip
    return "\n".join(lines)

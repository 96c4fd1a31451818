"""The full real-motion scene: both halves of the 456 tracked cube tosses, both engines.

    python benchmarks/tosses.py [--throws-per-toss 4] [--seed 29] [--engine pybullet|mujoco]
                                [--tosses N] [--out FILE.json] [--plot FILE.png] [--edge sharp|rounded]

Runs ``doppelx bench tosses`` (:mod:`doppelx.bench.tosses`) with the shipped fitted
materials (``assets/validation/tosses_fit.toml``) on the fit half (even ``toss_id``) and on
the evaluation half (odd), each engine with its fitted materials, the game's die–board
material and the chaos bound, and prints the table of docs/physics.md ("Real motion"):
both halves side by side, so an overfit fit shows as a gap between them. Never fits;
figures are printed (and written with ``--out``), never asserted. ``--edge rounded`` runs
the cube with rounded edges that carry their own contact (the fit file's ``[mujoco_rounded]``,
``[pybullet_rounded]``), as ``doppelx bench tosses --edge rounded``. About 5 min of one core
on both engines at the defaults (MuJoCo is 3× PyBullet).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench import tosses as ts
from doppelx.bench.tosses_data import load_tosses
from doppelx.bench.tosses_fit import EDGES, params_of, read_fit
from doppelx.bench.tosses_sim import game_params

ROWS = (
    ("pos err 50 ms (widths)", lambda r: r["pos_err_widths"]["50"]),
    ("pos err 100 ms", lambda r: r["pos_err_widths"]["100"]),
    ("pos err 200 ms", lambda r: r["pos_err_widths"]["200"]),
    ("pos err 200 ms p90", lambda r: r["pos_err_widths_p90"]["200"]),
    ("pos err 400 ms", lambda r: r["pos_err_widths"]["400"]),
    ("pos err 400 ms p90", lambda r: r["pos_err_widths_p90"]["400"]),
    ("pos err at rest", lambda r: r["pos_err_widths"]["rest"]),
    ("ori err 200 ms (deg)", lambda r: r["ori_err_deg"]["200"]),
    ("ori err 400 ms (deg)", lambda r: r["ori_err_deg"]["400"]),
    ("ori err at rest (deg)", lambda r: r["ori_err_deg"]["rest"]),
    ("face agreement", lambda r: r["face_agreement"]),
    ("time to rest, sim median (s)", lambda r: r["time_to_rest_s"]["sim_median"]),
    ("time to rest, real median (s)", lambda r: r["time_to_rest_s"]["real_median"]),
    ("time to rest KS p", lambda r: r["time_to_rest_ks_p"]),
    ("impacts, sim mean", lambda r: r["impacts"]["sim_mean"]),
    ("impacts, real mean", lambda r: r["impacts"]["real_mean"]),
    ("trajectory error (objective)", lambda r: r["trajectory_error"]),
    ("chaos: face agreement", lambda r: r.get("chaos_face_agreement")),
    ("chaos: spread 200 ms (widths)", lambda r: r.get("chaos_pos_spread_widths", {}).get("200")),
    ("chaos: spread 400 ms", lambda r: r.get("chaos_pos_spread_widths", {}).get("400")),
    ("chaos: spread at rest", lambda r: r.get("chaos_pos_spread_widths", {}).get("rest")),
)


def table(results: dict) -> str:
    """Rows of measures, one column per (engine, materials, half)."""
    cols = list(results)
    head = f"{'measure':<32}" + "".join(f"{c:>22}" for c in cols)
    lines = [head, "-" * len(head)]
    for label, get in ROWS:
        cells = []
        for c in cols:
            v = get(results[c])
            cells.append(f"{v:>22.3f}" if isinstance(v, float | int) else f"{'—':>22}")
        lines.append(f"{label:<32}" + "".join(cells))
    return "\n".join(lines)


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws-per-toss", type=int, default=ts.THROWS_PER_TOSS, help="chaos runs per toss")
    ap.add_argument("--seed", type=int, default=ts.SEED, help="seed of the chaos bound")
    ap.add_argument("--engine", choices=("pybullet", "mujoco"), help="one engine (default both)")
    ap.add_argument("--tosses", type=int, help="only the first N tosses of each half")
    ap.add_argument("--out", help="also write the results as JSON here")
    ap.add_argument("--plot", help="the evaluation half's plot (PNG)")
    ap.add_argument(
        "--edge", choices=EDGES, default="sharp", help="the cube's edges: sharp (default) or rounded"
    )
    args = ap.parse_args(argv)
    if args.throws_per_toss < 0 or (args.tosses is not None and args.tosses < 1):
        ap.error("--throws-per-toss must be >= 0 and --tosses >= 1")
    data = load_tosses()
    doc = read_fit()
    engines = (args.engine,) if args.engine else ("pybullet", "mujoco")
    results, runs, t0 = {}, {}, time.process_time()
    for engine in engines:
        fitted = params_of(doc, engine, edge=args.edge)
        for half in ("fit", "eval"):
            tosses = data.half(half)[: args.tosses]
            keep = tuple(t.toss_id for t in tosses[:3]) if half == "eval" else ()
            r = ts.evaluate(tosses, data.half_width, data.mass, data.dt, engine, fitted,
                            args.throws_per_toss, args.seed, keep, data.inertia)  # fmt: skip
            results[f"{engine} fitted {half}"] = r
            r["edge"] = fitted.edge
            if half == "eval":
                g = ts.evaluate(tosses, data.half_width, data.mass, data.dt, engine, game_params(engine), 0,
                                keep=keep, inertia=data.inertia)  # fmt: skip
                results[f"{engine} game {half}"] = g
                runs[engine] = (r, g, {t.toss_id: t for t in tosses[:3]})
            print(
                f"{engine} {half}: {len(tosses)} tosses, {time.process_time() - t0:.0f} s CPU so far",
                file=sys.stderr,
            )
    print(table(results))
    for engine in engines:
        r = results[f"{engine} fitted eval"]
        print(f"aims, {engine} fitted, evaluation half: " + ", ".join(
            f"{k} {'met' if ok else 'NOT met'} ({shown})" for k, (ok, shown) in ts.goals(r).items()))  # fmt: skip
    print(f"CPU {time.process_time() - t0:.0f} s", file=sys.stderr)
    if args.plot:
        from doppelx.bench.tosses_plot import plot

        shown = {"engines": {e: {**r, "game_material": g} for e, (r, g, _) in runs.items()}}
        real = next(iter(runs.values()))[2]
        plot(shown, real, data.half_width, args.plot)
    if args.out:
        from rules.common.atomic import write_text

        for r in results.values():
            r.pop("runs", None)
        write_text(args.out, json.dumps({"data_sha256": data.sha256, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

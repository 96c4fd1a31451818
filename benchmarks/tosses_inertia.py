"""The tracked cube's moment of inertia: the published value held against a scan.

    python benchmarks/tosses_inertia.py [--engine pybullet|mujoco] [--edge sharp|rounded]
                                        [--factors 1,1.1,1.2,...] [--tosses N] [--out FILE.json]

The shipped tosses carry the cube's central moment of inertia (``inertia_kgm2``: 0.00081 kg m²,
the value ContactNets' own processing gives their "loose construction" acrylic box; a
homogeneous cube of its mass and size has 0.000677). This script re-runs both halves of the
tosses with the shipped fitted materials (``assets/validation/tosses_fit.toml``) and the
inertia scaled to each factor of a homogeneous cube's (1 = solid, 1.667 = a thin-walled box,
2 = all the mass in the corners) and prints the fit's objective (mean trajectory error,
widths + quarter turns per frame), the 200 and 400 ms position errors, the faces and the
impacts per factor. Where the objective is least says which inertia the motion asks for,
independently of the published value; the materials were fitted at the published value, so
read the scan as a check of it, not as a fit of its own. Figures are printed, never asserted.
About 10 s (PyBullet) to 20 s (MuJoCo) of one core per factor and half on the full halves.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench import tosses as ts
from doppelx.bench.tosses_data import homogeneous_inertia, load_tosses
from doppelx.bench.tosses_fit import EDGES, params_of, read_fit

FACTORS = (1.0, 1.1, 1.196, 1.3, 1.4, 1.5, 1.667)


def scan(engine: str, edge: str, factors, tosses_per_half: int | None = None) -> list[dict]:
    """One row per (factor, half): the factor, the inertia and the evaluation's figures."""
    data = load_tosses()
    params = params_of(read_fit(), engine, edge=edge)
    solid = homogeneous_inertia(data.mass, data.half_width)
    rows = []
    for factor in factors:
        for half in ("fit", "eval"):
            tosses = data.half(half)[:tosses_per_half]
            r = ts.evaluate(tosses, data.half_width, data.mass, data.dt, engine, params, 0,
                            inertia=solid * factor)  # fmt: skip
            rows.append({
                "factor": factor, "inertia_kgm2": round(solid * factor, 7), "half": half, "tosses": len(tosses),
                "objective": r["trajectory_error"], "pos_200": r["pos_err_widths"]["200"],
                "pos_400": r["pos_err_widths"]["400"], "faces": r["face_agreement"],
                "impacts": r["impacts"]["sim_mean"], "impacts_real": r["impacts"]["real_mean"],
                "ks_p": r["time_to_rest_ks_p"],
            })  # fmt: skip
    return rows


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", choices=("pybullet", "mujoco"), help="one engine (default both)")
    ap.add_argument("--edge", choices=EDGES, default="sharp", help="the cube's edges (default sharp)")
    ap.add_argument("--factors", default=",".join(f"{f:g}" for f in FACTORS),
                    help="inertias as multiples of a homogeneous cube's, comma-separated")  # fmt: skip
    ap.add_argument("--tosses", type=int, help="only the first N tosses of each half")
    ap.add_argument("--out", help="also write the rows as JSON here")
    args = ap.parse_args(argv)
    try:
        factors = [float(f) for f in args.factors.split(",")]
    except ValueError:
        ap.error(f"--factors: {args.factors!r} is not a comma-separated list of numbers")
    if not factors or any(not 0 < f <= 2 for f in factors):
        ap.error("--factors: each must be above 0 and at most 2 (all of the mass in the corners)")
    if args.tosses is not None and args.tosses < 1:
        ap.error("--tosses must be >= 1")
    engines = (args.engine,) if args.engine else ("pybullet", "mujoco")
    out, t0 = {}, time.process_time()
    for engine in engines:
        rows = scan(engine, args.edge, factors, args.tosses)
        out[f"{engine} {args.edge}"] = rows
        print(
            f"\n{engine}, {args.edge} edges, shipped fitted materials ({time.process_time() - t0:.0f} s CPU so far)"
        )
        print(f"{'factor':>7} {'inertia kg m²':>14} {'half':>5} {'objective':>10} {'pos 200':>8} {'pos 400':>8} "
              f"{'faces':>6} {'impacts':>8} {'KS p':>6}")  # fmt: skip
        for r in rows:
            print(f"{r['factor']:>7.3f} {r['inertia_kgm2']:>14.7f} {r['half']:>5} {r['objective']:>10.4f} "
                  f"{r['pos_200']:>8.4f} {r['pos_400']:>8.4f} {r['faces']:>6.3f} {r['impacts']:>8.2f} "
                  f"{r['ks_p']:>6.3f}")  # fmt: skip
    if args.out:
        from rules.common.atomic import write_text

        write_text(args.out, json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

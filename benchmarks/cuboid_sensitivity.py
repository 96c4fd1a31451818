"""Which contact parameter moves the cuboid-dice curve, and how far.

    python benchmarks/cuboid_sensitivity.py [--throws 300] [--seed 2026] [--json]

Runs the cuboid validation scene (:mod:`doppelx.bench.cuboid`) on Budden's 15 ratios with
the project's die–table material and with one parameter changed at a time — friction,
restitution, rolling friction — and prints, per variant, the simulated probability of a
square face at three telling ratios (0.47: flat dice; 1.16: just longer than a cube;
1.60: long dice), the mean absolute error against the experiment and how many of the 15
simulated points lie inside the experiment's 95 % intervals. Figures are printed, never
asserted.
"""

# ruff: noqa: I001  (imports are ordered on purpose: the repository root goes on the path first)

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench import cuboid  # noqa: E402
from physics.materials import load_materials  # noqa: E402

SHOWN = (0.47, 1.16, 1.60)


def variants() -> list[tuple[str, dict]]:
    pair = load_materials().pair("table")
    label = (
        f"project (μ {pair.friction:.2f}, e {pair.restitution:.2f}, rolling {pair.rolling_friction:.0e} m)"
    )
    out = [(label, {})]
    out += [(f"friction {f:g}", {"friction": f}) for f in (0.2, 0.6)]
    out += [(f"restitution {e:g}", {"restitution": e}) for e in (0.2, 0.7)]
    out += [("rolling friction 0.0008 m", {"rolling": 0.0008})]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws", type=int, default=300, help="throws per ratio and variant (default 300)")
    ap.add_argument("--seed", type=int, default=2026, help="seed (default 2026)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    rows = []
    for label, overrides in variants():
        t0 = time.process_time()
        results = cuboid.run(cuboid.RATIOS, args.throws, args.seed, **overrides)
        c = cuboid.compare(results)
        by_ratio = {r.x_over_y: r.p_square for r in results}
        rows.append(
            {
                "variant": label,
                "changes": overrides,
                "p_square": {f"{r:g}": round(by_ratio[r], 3) for r in SHOWN},
                "mae": round(c["mae"], 4),
                "inside": c["inside"],
                "compared": c["compared"],
                "cpu_s": round(time.process_time() - t0, 1),
            }
        )
        if not args.json:
            r = rows[-1]
            shown = "  ".join(f"{k}: {v:.3f}" for k, v in r["p_square"].items())
            print(f"{label:40} {shown}  MAE {r['mae']:.3f}  inside {r['inside']}/{r['compared']}", flush=True)
    if args.json:
        print(json.dumps({"throws": args.throws, "seed": args.seed, "variants": rows}, indent=2))
    else:
        exp = "  ".join(f"{r:g}: {cuboid.experiment(r)[0]:.3f}" for r in SHOWN)
        print(f"{'experiment (Budden 1980)':40} {exp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

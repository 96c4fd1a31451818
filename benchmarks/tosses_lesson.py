"""What the tracked cube tosses teach the cuboid dice: ``bench cuboid`` with the fitted contact.

    python benchmarks/tosses_lesson.py [--throws 1000] [--seed 2026] [--engine pybullet|mujoco] [--json]

Runs the cuboid validation scene (:mod:`doppelx.bench.cuboid`, Budden's 15 ratios) twice:
with the scene's materials as they stand (steel on a wooden desk from tables: μ 0.3, e 0.4,
rolling 0.01 mm, spinning 0.8 mm) and with the contact fitted to the real cube tosses
(``assets/validation/tosses_fit.toml``, the engine's section): friction and restitution as
fitted (dimensionless), rolling and spinning friction (lengths) scaled from the tracked
cube's 104.8 mm edge to the die's 16 mm. Prints the inside count and the mean absolute
error against Budden's dice for both (issue 29's aim: 12 of 15 inside, MAE ≤ 0.03).
Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench import cuboid
from doppelx.bench.tosses_data import load_tosses
from doppelx.bench.tosses_fit import params_of, read_fit


def lesson_scene(engine: str):
    """The cuboid scene with ``engine``'s fitted contact, lengths scaled to the die's edge."""
    fitted = params_of(read_fit(), engine)
    scale = cuboid.EDGE / (2 * load_tosses().half_width)
    return cuboid.SCENE.with_(
        friction=fitted.friction,
        restitution=fitted.restitution,
        rolling_friction=fitted.rolling_friction * scale,
        spinning_friction=fitted.spinning_friction * scale,
    )


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws", type=int, default=1000, help="throws per ratio (default 1000)")
    ap.add_argument("--seed", type=int, default=2026, help="seed (default 2026)")
    ap.add_argument("--engine", choices=("pybullet", "mujoco"), default="pybullet", help="physics engine")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument(
        "--variant",
        choices=("both", "scene", "fitted"),
        default="both",
        help="run one of the two (default both)",
    )
    args = ap.parse_args(argv)
    if args.throws < 1:
        ap.error("--throws must be at least 1")
    rows = []
    variants = (
        ("scene as it stands", cuboid.SCENE, "scene"),
        ("fitted contact", lesson_scene(args.engine), "fitted"),
    )
    for label, scene, name in variants:
        if args.variant not in ("both", name):
            continue
        results = cuboid.run(cuboid.RATIOS, args.throws, args.seed, scene=scene, engine=args.engine)
        c = cuboid.compare(results)
        rows.append(
            {
                "variant": label,
                "friction": scene.friction,
                "restitution": scene.restitution,
                "rolling_friction": round(scene.rolling_friction, 7),
                "spinning_friction": round(scene.spinning_friction, 7),
                "inside": c["inside"],
                "compared": c["compared"],
                "mae": round(c["mae"], 4),
                "chi2": round(c["chi2"], 1),
                "p_square": {f"{r.x_over_y:g}": round(r.p_square, 3) for r in results},
            }
        )
        print(
            f"{label}: inside {c['inside']}/{c['compared']}, MAE {c['mae']:.3f}, χ² {c['chi2']:.1f}",
            file=sys.stderr,
        )
    if args.json:
        print(
            json.dumps(
                {"engine": args.engine, "throws": args.throws, "seed": args.seed, "rows": rows}, indent=2
            )
        )
    else:
        for r in rows:
            print(
                f"{r['variant']:<20} μ {r['friction']:<5g} e {r['restitution']:<6g} rolling "
                f"{r['rolling_friction'] * 1000:.3f} mm spinning {r['spinning_friction'] * 1000:.3f} mm: "
                f"inside {r['inside']}/{r['compared']}, MAE {r['mae']:.3f}, χ² {r['chi2']:.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

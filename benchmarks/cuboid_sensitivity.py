"""Which contact or throw parameter moves the cuboid-dice curve, and how far.

    python benchmarks/cuboid_sensitivity.py [--throws 300] [--seed 2026] [--engine pybullet|mujoco] [--json]

Runs the cuboid validation scene (:mod:`doppelx.bench.cuboid`) on Budden's 15 ratios with
the scene's defaults (steel on wood, a brisk hand roll: ``cuboid.SCENE``), with the
project's die–table material and the game's gentler throws (the scene's old defaults), and
with one thing changed at a time from the defaults — friction, restitution, rolling
friction, the throw's ranges, the size of the die, Bullet's restitution threshold — and
prints, per variant, the simulated probability of a square face at three telling ratios
(0.47: flat dice; 1.16: just longer than a cube; 1.60: long dice), the mean absolute
error against the experiment, how many of the 15 simulated points lie inside the
experiment's 95 % intervals, and the same two on the even-indexed ratios (0.47, 0.75, …,
the ones the defaults were chosen on) and on the odd-indexed ones (held out). Figures are
printed, never asserted.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench import cuboid
from physics.settings import SimSettings

SHOWN = (0.47, 1.16, 1.60)


def variants() -> list[tuple[str, object, dict]]:
    """``(label, scene, settings changes)`` per variant."""
    d = cuboid.SCENE
    out: list[tuple[str, object, dict]] = [
        (f"scene (μ {d.friction:g}, e {d.restitution:g}, brisk roll)", d, {}),
        ("project material + game throws (old)", cuboid.project_scene(), {}),
        (
            "project material, brisk roll",
            cuboid.project_scene().with_(height=d.height, speed=d.speed, spin=d.spin),
            {},
        ),
    ]
    out += [(f"friction {f:g}", d.with_(friction=f), {}) for f in (0.2, 0.5)]
    out += [(f"restitution {e:g}", d.with_(restitution=e), {}) for e in (0.2, 0.6)]
    out += [("rolling friction 0.8 mm", d.with_(rolling_friction=0.0008), {})]
    out += [
        (
            "game throws: 10-20 cm, 0.2-1.5 m/s, 8-30 rad/s",
            d.with_(height=(0.10, 0.20), speed=(0.2, 1.5), spin=(8.0, 30.0)),
            {},
        )
    ]
    out += [
        (
            "low roll: 2-6 cm, 0.5-1.5 m/s, 0-5 rad/s",
            d.with_(height=(0.02, 0.06), speed=(0.5, 1.5), spin=(0.0, 5.0)),
            {},
        )
    ]
    out += [(f"square edge {e * 1000:g} mm", d.with_(edge=e), {}) for e in (0.010, 0.025)]
    out += [(f"restitution threshold {v:g} m/s", d, {"restitution_threshold": v}) for v in (0.05, 0.5)]
    return out


def experiment_scatter(throws: int = 1000, draws: int = 20000, seed: int = 1) -> dict:
    """How close any smooth curve can come to Budden's 15 points, by their own scatter.

    Fits ``logit p = a + b ln r + c ln² r`` to the counts by maximum likelihood (IRLS) and
    reports where that curve lies against the experiment's 95 % intervals, the Pearson χ²
    of the counts about it (binomial scatter alone gives χ² ≈ 12 on 12 degrees of freedom),
    and how many ratios a perfect simulation of that curve with ``throws`` throws per ratio
    would have inside the intervals (mean and chance of at least 12, over ``draws`` draws).
    """
    import numpy as np

    from doppelx.bench.twosample import chi2_sf

    r = np.array([x for x, _, _ in cuboid.BUDDEN])
    n = np.array([float(m) for *_, m in cuboid.BUDDEN])
    k = np.round(np.array([p for _, p, _ in cuboid.BUDDEN]) * n)
    x = np.vstack([np.ones_like(r), np.log(r), np.log(r) ** 2]).T
    b = np.zeros(3)
    for _ in range(50):
        q = 1 / (1 + np.exp(-x @ b))
        b = b + np.linalg.solve(x.T @ ((n * q * (1 - q))[:, None] * x), x.T @ (k - n * q))
    q = 1 / (1 + np.exp(-x @ b))
    lohi = np.array([cuboid.wilson(int(a), int(m)) for a, m in zip(k, n)])
    inside = int(np.sum((q >= lohi[:, 0]) & (q <= lohi[:, 1])))
    chi2 = float(np.sum((k - n * q) ** 2 / (n * q * (1 - q))))
    sims = np.random.default_rng(seed).binomial(throws, q, size=(draws, len(q))) / throws
    hits = np.sum((sims >= lohi[:, 0]) & (sims <= lohi[:, 1]), axis=1)
    return {
        "fit": [round(float(v), 4) for v in q],
        "inside": inside,
        "mae": round(float(np.mean(np.abs(q - k / n))), 4),
        "chi2": round(chi2, 1),
        "dof": len(q) - 3,
        "p": chi2_sf(chi2, len(q) - 3),
        "perfect_sim_inside_mean": round(float(hits.mean()), 2),
        "perfect_sim_p_at_least_12": round(float(np.mean(hits >= 12)), 3),
    }


def _score(results, ratios) -> tuple[float, int, int]:
    c = cuboid.compare([r for r in results if r.x_over_y in ratios])
    return c["mae"], c["inside"], c["compared"]


def _chi2(results) -> float:
    return cuboid.compare(results)["chi2"]


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws", type=int, default=300, help="throws per ratio and variant (default 300)")
    ap.add_argument("--seed", type=int, default=2026, help="seed (default 2026)")
    ap.add_argument("--engine", choices=("pybullet", "mujoco"), default="pybullet", help="physics engine")
    ap.add_argument("--only", type=int, help="run only the first N variants")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    even, odd = cuboid.RATIOS[0::2], cuboid.RATIOS[1::2]
    rows = []
    for label, scene, changes in variants()[: args.only]:
        t0 = time.process_time()
        settings = SimSettings().with_(**changes)
        results = cuboid.run(cuboid.RATIOS, args.throws, args.seed, settings, scene, engine=args.engine)
        by_ratio = {r.x_over_y: r.p_square for r in results}
        mae, inside, n = _score(results, cuboid.RATIOS)
        e_mae, e_in, e_n = _score(results, even)
        o_mae, o_in, o_n = _score(results, odd)
        rows.append(
            {
                "variant": label,
                "p_square": {f"{r:g}": round(by_ratio[r], 3) for r in SHOWN},
                "mae": round(mae, 4),
                "chi2": round(_chi2(results), 1),
                "inside": inside,
                "compared": n,
                "even": {"mae": round(e_mae, 4), "inside": e_in, "compared": e_n},
                "odd": {"mae": round(o_mae, 4), "inside": o_in, "compared": o_n},
                "cpu_s": round(time.process_time() - t0, 1),
            }
        )
        if not args.json:
            shown = "  ".join(f"{k}: {v:.3f}" for k, v in rows[-1]["p_square"].items())
            print(
                f"{label:48} {shown}  MAE {mae:.3f}  χ² {_chi2(results):5.1f}  inside {inside}/{n}  "
                f"even {e_mae:.3f} {e_in}/{e_n}  odd {o_mae:.3f} {o_in}/{o_n}",
                flush=True,
            )
    scatter = experiment_scatter()
    if args.json:
        out = {"throws": args.throws, "seed": args.seed, "engine": args.engine, "variants": rows}
        print(json.dumps({**out, "experiment_scatter": scatter}, indent=2))
    else:
        exp = "  ".join(f"{r:g}: {cuboid.experiment(r)[0]:.3f}" for r in SHOWN)
        print(f"{'experiment (Budden 1980)':48} {exp}")
        print(
            f"\nthe experiment's own scatter: the best smooth curve through it (logit-quadratic in ln r) "
            f"is inside {scatter['inside']}/15, MAE {scatter['mae']:.3f}; Pearson χ² {scatter['chi2']} on "
            f"{scatter['dof']} dof (p = {scatter['p']:.1e}); a perfect simulation of that curve, 1000 "
            f"throws per ratio, would be inside {scatter['perfect_sim_inside_mean']}/15 on average and "
            f"at ≥ 12/15 with probability {scatter['perfect_sim_p_at_least_12']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The hole-crossing scene at finer solver settings, and the standard turns' hole rate beside it.

    python benchmarks/holes_convergence.py [--speeds V1,V2,...] [--throws N] [--json]

For each engine, the project's settings and finer ones (PyBullet: a 4× shorter step with
200 solver iterations; sub-steps of 0.5 mm travel instead of 3 mm; MuJoCo: a 0.1 ms step
without sleeping, and with a 2 ms contact time constant too) plus each engine's die as
the rounded hull (``SimSettings.die_collision = "rounded_hull"``, ``MujocoParams.die_shape =
"hull"``), runs ``doppelx bench holes`` (:func:`doppelx.bench.holes.run`) and prints the
transition speed (half the slides crossing), the rows outside the analytic bounds, the
slides that ended at rest over the rim and, for the die set still over the rim, the
distance from which it stays (against the rounded die's and a sharp cube's). With ``--throws N`` it also runs N of the tray scene's standard
turns (a quarter on each side) in every variant and prints the thrown dice's hole rate,
and for the project's PyBullet world the speed at which thrown dice first reach a hole's
rim (from the replay samples at 60 Hz: the centre's horizontal speed at the first sample
in which it is within half an edge of an opening and less than an edge above the board).
The engine whose transition moves toward the other's when refined is the one with the
numerical error at the hole. Figures are printed, never asserted (docs/physics.md,
"Where they differ, which is right").
"""

# ruff: noqa: I001  (sys.path is set before the project's imports)

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench import holes  # noqa: E402
from doppelx.bench.tray import scenes  # noqa: E402
from physics.engine import make_world  # noqa: E402
from physics.mujoco_world import MujocoParams  # noqa: E402
from physics.run import run_throw  # noqa: E402
from physics.settings import SimSettings  # noqa: E402

#: name → (engine, SimSettings changes, MujocoParams or None)
VARIANTS: dict[str, tuple[str, dict, MujocoParams | None]] = {
    "pybullet (project)": ("pybullet", {}, None),
    "pybullet step 1/960 s, 200 iterations": (
        "pybullet",
        {"time_step": 1 / 960, "solver_iterations": 200},
        None,
    ),
    "pybullet sub-steps of 0.5 mm": ("pybullet", {"max_travel": 0.0005, "max_substeps": 64}, None),
    "pybullet rounded-hull die": ("pybullet", {"die_collision": "rounded_hull"}, None),
    "mujoco (project)": ("mujoco", {}, None),
    "mujoco step 0.1 ms, no sleeping": ("mujoco", {}, MujocoParams(time_step=1e-4, sleep=False)),
    "mujoco step 0.1 ms, time constant 2 ms": (
        "mujoco",
        {},
        MujocoParams(time_step=1e-4, time_constant=0.002, sleep=False),
    ),
    "mujoco rounded-hull die": ("mujoco", {}, MujocoParams(die_shape="hull")),
}


def tray(engine: str, settings: SimSettings, params, throws: int, rim_speeds: list | None = None) -> dict:
    """Hole rate of the thrown dice over ``throws`` standard turns (and, if asked, their speeds at a rim)."""
    status = {"board": 0, "hole": 0, "off": 0}
    for _side, board, items in scenes(max(1, throws // 4)):
        kw = {"params": params} if params is not None else {}
        with make_world(board, settings=settings, engine=engine, **kw) as world:
            openings = list(world.layout.openings.values())
            for lying, throw in items:
                r = run_throw(world, throw, lying, record=rim_speeds is not None)
                for owner in ("blue", "white"):
                    status[r.outcome.get(owner).status.value] += 1
                if rim_speeds is not None and r.trajectory is not None:
                    rim_speeds += _rim_speeds(r.trajectory, openings, world.dice["blue"].half)
    n = sum(status.values())
    return {"dice": n, "hole_rate": round(status["hole"] / n, 4), **status}


def _rim_speeds(traj, openings, half: float) -> list[float]:
    """Horizontal speed of each thrown die when it first comes within ``half`` of a hole opening, low."""
    from shapely.geometry import Point

    out = []
    for owner in ("blue", "white"):
        k = traj.owners.index(owner)
        pos, vel = np.asarray(traj.positions)[:, k, :], np.asarray(traj.velocities)[:, k, :]
        for i in range(len(pos)):
            x, y, z = pos[i]
            if z <= 2 * half and any(op.distance(Point(x, y)) <= half for op in openings):
                out.append(float(math.hypot(vel[i, 0], vel[i, 1])))
                break
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--speeds", default=",".join(f"{v:g}" for v in holes.SPEEDS))
    ap.add_argument("--throws", type=int, default=0, help="standard turns per variant for the hole rate")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    speeds = tuple(float(v) for v in args.speeds.split(","))
    out: dict = {"load_avg": [round(x, 2) for x in os.getloadavg()], "variants": {}}
    rim: list[float] = []
    for name, (engine, changes, params) in VARIANTS.items():
        settings = SimSettings().with_(**changes)
        t0 = time.process_time()
        res = holes.run(speeds, engine, settings=settings, params=params)
        row = {
            "transition_speed": res["transition_speed"],
            "wrong_at": [r["speed"] for r in res["rows"] if r["verdict"] == "WRONG"],
            "rim": sum(r["rim"] for r in res["rows"]),
            "rest_stays_from_mm": [r["stays_from_mm"] for r in res["rest"]],
            "fractions": {r["speed"]: r["fraction_crossed"] for r in res["rows"]},
            "cpu_s": round(time.process_time() - t0, 1),
        }
        if args.throws:
            want_rim = name == "pybullet (project)"
            row["tray"] = tray(engine, settings, params, args.throws, rim if want_rim else None)
        out["variants"][name] = row
        out["bounds"] = res["bounds"]
        out["rest_rounded_die_mm"] = [r["rounded_die_mm"] for r in res["rest"]]
        out["rest_sharp_cube_mm"] = [r["sharp_cube_mm"] for r in res["rest"]]
        print(f"holes: {name} done", file=sys.stderr, flush=True)
    if rim:
        q = np.percentile(rim, [10, 25, 50, 75, 90])
        out["rim_speeds"] = {
            "dice": len(rim),
            "percentiles_10_25_50_75_90": [round(float(v), 3) for v in q],
            "share_by_band": _shares(rim),
        }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"bounds {out['bounds']}; at rest over the rim (yaw 0, 22.5, 45°) the rounded die stays from "
        f"{out['rest_rounded_die_mm']} mm, a sharp cube from {out['rest_sharp_cube_mm']} mm; load {out['load_avg']}"
    )
    for name, row in out["variants"].items():
        tr = (
            f"  tray hole rate {row['tray']['hole_rate']:.4f} ({row['tray']['dice']} dice)"
            if "tray" in row
            else ""
        )
        print(
            f"  {name:<42} transition {row['transition_speed']!s:>6} m/s  wrong at {row['wrong_at']}  "
            f"at rest over the rim {row['rim']}  stays from {row['rest_stays_from_mm']} mm{tr}"
        )
    if rim:
        print(f"  speed of thrown dice reaching a rim (PyBullet, project): {out['rim_speeds']}")
    return 0


def _shares(speeds: list[float]) -> dict[str, float]:
    edges = (0.0, 0.5, 0.95, 1.35, 2.0, math.inf)
    a = np.asarray(speeds)
    return {
        f"{lo:g}-{hi:g}": round(float(np.mean((a >= lo) & (a < hi))), 4) for lo, hi in zip(edges, edges[1:])
    }


if __name__ == "__main__":
    sys.exit(main())

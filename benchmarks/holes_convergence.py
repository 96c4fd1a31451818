"""The hole-crossing scene at finer solver settings, and the standard turns' hole rate beside it.

    python benchmarks/holes_convergence.py [--speeds V1,V2,...] [--throws N] [--variants K1,K2,...] [--json]

For each engine, the project's settings and finer ones (PyBullet: a 4× shorter step with
200 solver iterations; sub-steps of 0.5 mm travel instead of 3 mm; the holes framed by
Bullet boxes, against which the die is a sharp cube, instead of hulls; MuJoCo: a 0.1 ms step
without sleeping, and with a 2 ms contact time constant too) plus each engine's die as
the rounded hull (``SimSettings.die_collision = "rounded_hull"``, ``MujocoParams.die_shape =
"hull"``), runs ``doppelx bench holes`` (:func:`doppelx.bench.holes.run`) and prints the
transition speed (half the slides crossing), the rows outside the analytic bounds, the
slides that ended at rest over the rim and, for the die set still over the rim, the
distance from which it stays (against the rounded die's and a sharp cube's). With ``--throws N`` it also runs N of the tray scene's standard
turns (a quarter on each side) in every variant and prints the thrown dice's hole rate,
how many came to rest on the board with their centre within half an edge of an opening
and how many lie flat where the real, rounded die cannot rest (its flat bottom's part over
the board does not surround its centre: :func:`doppelx.bench.holes.holds`),
and the speed at which thrown dice first reach a hole's rim with the share of them that
ended in a hole, by speed (from the replay samples at 60 Hz: the centre's horizontal
speed at the first sample in which it is within half an edge of an opening and less than
an edge above the board).
With ``--approaches`` it also slides the die at other approaches (21 lines 2 mm apart
across the hole and beside it, facing the rim and turned 45°, 0.4–1 m/s; and released
tumbling forward, 0.3–1.5 m/s) and counts the dice falling in. The engine whose transition
moves toward the other's when refined is the one with the numerical error at the hole. Figures are printed, never asserted (docs/physics.md,
"Where they differ, which is right").
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench import holes
from doppelx.bench.tray import scenes
from physics.engine import make_world
from physics.mujoco_world import MujocoParams
from physics.run import run_throw
from physics.settings import SimSettings

#: key → (label, engine, SimSettings changes, MujocoParams or None)
VARIANTS: dict[str, tuple[str, str, dict, MujocoParams | None]] = {
    "pb": ("pybullet (project)", "pybullet", {}, None),
    "pb-boxes": ("pybullet, hole frames as boxes", "pybullet", {"hole_frames": "boxes"}, None),
    "pb-step": (
        "pybullet step 1/960 s, 200 iterations",
        "pybullet",
        {"time_step": 1 / 960, "solver_iterations": 200},
        None,
    ),
    "pb-travel": (
        "pybullet sub-steps of 0.5 mm",
        "pybullet",
        {"max_travel": 0.0005, "max_substeps": 64},
        None,
    ),
    "pb-hull": ("pybullet rounded-hull die", "pybullet", {"die_collision": "rounded_hull"}, None),
    "mj": ("mujoco (project)", "mujoco", {}, None),
    "mj-step": ("mujoco step 0.1 ms, no sleeping", "mujoco", {}, MujocoParams(time_step=1e-4, sleep=False)),
    "mj-tc": (
        "mujoco step 0.1 ms, time constant 2 ms",
        "mujoco",
        {},
        MujocoParams(time_step=1e-4, time_constant=0.002, sleep=False),
    ),
    "mj-hull": ("mujoco rounded-hull die", "mujoco", {}, MujocoParams(die_shape="hull")),
}
#: Other approaches to the hole (``--approaches``): name → (yaw rad, rolling, offsets m, speeds m/s).
APPROACHES: dict[str, tuple[float, bool, tuple[float, ...], tuple[float, ...]]] = {
    "sliding, beside the centre": (
        0.0,
        False,
        tuple(0.002 * k for k in range(-10, 11)),
        (0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    ),
    "sliding, turned 45°": (
        math.pi / 4,
        False,
        tuple(0.002 * k for k in range(-10, 11)),
        (0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    ),
    "tumbling forward": (
        0.0,
        True,
        tuple(0.0015 * k for k in range(-4, 5)),
        tuple(round(0.3 + 0.1 * k, 2) for k in range(13)),
    ),
}
#: Bands of the speed (m/s) at which a thrown die first reaches a rim.
BANDS = (0.0, 0.25, 0.5, 0.75, 0.95, 1.35, math.inf)


def tray(engine: str, settings: SimSettings, params, throws: int) -> dict:
    """Over ``throws`` standard turns: the thrown dice's hole rate, how many came to rest on the board with
    their centre within half an edge of an opening, and the hole rate by the speed at which they first
    reached a rim."""
    import shapely
    from shapely.geometry import Point

    status = {"board": 0, "hole": 0, "off": 0}
    near = cannot = 0
    reached: list[tuple[float, bool]] = []
    for _side, board, items in scenes(max(1, throws // 4)):
        kw = {"params": params} if params is not None else {}
        with make_world(board, settings=settings, engine=engine, **kw) as world:
            openings = list(world.layout.openings.values())
            every = shapely.union_all(openings)
            spec = world.dice["blue"]
            half = spec.half
            for lying, throw in items:
                r = run_throw(world, throw, lying, record=True)
                assert r.trajectory is not None  # recorded
                for owner in ("blue", "white"):
                    d = r.outcome.get(owner)
                    status[d.status.value] += 1
                    if d.status.value == "board":
                        at = Point(d.pose.position[:2])
                        near += any(op.distance(at) <= half for op in openings)
                        yaw = _lying_yaw(d.pose.quaternion)
                        cannot += yaw is not None and not holes.holds(
                            every, d.pose.position[:2], yaw, spec.half - spec.edge_radius
                        )
                    v = _rim_speed(r.trajectory, owner, openings, half)
                    if v is not None:
                        reached.append((v, d.status.value == "hole"))
    n = sum(status.values())
    speeds = np.array([v for v, _ in reached])
    fell = np.array([f for _, f in reached], dtype=bool)
    bands = {}
    for lo, hi in zip(BANDS, BANDS[1:]):
        m = (speeds >= lo) & (speeds < hi)
        bands[f"{lo:g}-{hi:g}"] = {"dice": int(m.sum()), "in": int(fell[m].sum())}
    return {
        "dice": n,
        "hole_rate": round(status["hole"] / n, 4),
        **status,
        "at_rest_by_a_rim": near,
        "at_rest_where_the_real_die_cannot": cannot,
        "reached_a_rim": len(reached),
        "rim_speed_percentiles_10_25_50_75_90": [
            round(float(v), 3) for v in np.percentile(speeds, [10, 25, 50, 75, 90])
        ]
        if len(speeds)
        else [],
        "by_rim_speed": bands,
    }


def approaches(engine: str, settings: SimSettings, params) -> dict:
    """Dice falling in per speed for each of :data:`APPROACHES` (the hole scene's slide, turned or rolling)."""
    from rules.doppelx.board_file import load_board

    kw = {"params": params} if params is not None else {}
    out = {}
    with make_world(load_board("I"), settings=settings, engine=engine, **kw) as world:
        for name, (yaw, rolling, offsets, speeds) in APPROACHES.items():
            fell = {
                v: sum(holes.slide(world, v, dy, yaw, rolling).outcome == "in" for dy in offsets)
                for v in speeds
            }
            out[name] = {"runs_per_speed": len(offsets), "in": fell, "total_in": sum(fell.values())}
    return out


def _lying_yaw(quaternion) -> float | None:
    """The yaw (rad) of a die lying flat (a body axis within 5° of vertical), else ``None``."""
    from rules.doppelx.outcome import quaternion_matrix

    r = quaternion_matrix(quaternion)
    k = int(np.argmax(np.abs(r[2, :])))
    if abs(r[2, k]) < math.cos(math.radians(5.0)):
        return None
    other = (k + 1) % 3
    return math.atan2(r[1, other], r[0, other])


def _rim_speed(traj, owner: str, openings, half: float) -> float | None:
    """Horizontal speed of a die at the first sample with its centre within ``half`` of an opening,
    less than an edge above the board (``None`` if it never comes there)."""
    from shapely.geometry import Point

    k = traj.owners.index(owner)
    pos, vel = np.asarray(traj.positions)[:, k, :], np.asarray(traj.velocities)[:, k, :]
    for i in range(len(pos)):
        x, y, z = pos[i]
        if z <= 2 * half and any(op.distance(Point(x, y)) <= half for op in openings):
            return float(math.hypot(vel[i, 0], vel[i, 1]))
    return None


def main() -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--speeds", default=",".join(f"{v:g}" for v in holes.SPEEDS))
    ap.add_argument("--throws", type=int, default=0, help="standard turns per variant for the tray figures")
    ap.add_argument("--variants", default=",".join(VARIANTS), help=f"some of {','.join(VARIANTS)}")
    ap.add_argument(
        "--approaches",
        action="store_true",
        help="also slide the die beside the centre, turned 45°, and tumbling",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    speeds = tuple(float(v) for v in args.speeds.split(","))
    out: dict = {"load_avg": [round(x, 2) for x in os.getloadavg()], "variants": {}}
    for key in args.variants.split(","):
        label, engine, changes, params = VARIANTS[key]
        settings = SimSettings().with_(**changes)
        t0 = time.process_time()
        res = holes.run(speeds, engine, settings=settings, params=params)
        row = {
            "label": label,
            "transition_speed": res["transition_speed"],
            "wrong_at": [r["speed"] for r in res["rows"] if r["verdict"] == "WRONG"],
            "rim": sum(r["rim"] for r in res["rows"]),
            "rest_stays_from_mm": [r["stays_from_mm"] for r in res["rest"]],
            "fractions": {r["speed"]: r["fraction_crossed"] for r in res["rows"]},
            "cpu_s": round(time.process_time() - t0, 1),
        }
        if args.throws:
            row["tray"] = tray(engine, settings, params, args.throws)
        if args.approaches:
            row["approaches"] = approaches(engine, settings, params)
        out["variants"][key] = row
        out["bounds"] = res["bounds"]
        out["rest_rounded_die_mm"] = [r["rounded_die_mm"] for r in res["rest"]]
        out["rest_sharp_cube_mm"] = [r["sharp_cube_mm"] for r in res["rest"]]
        print(f"holes: {label} done", file=sys.stderr, flush=True)
    out["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"bounds {out['bounds']}; at rest over the rim (yaw 0, 22.5, 45°) the rounded die stays from "
        f"{out['rest_rounded_die_mm']} mm, a sharp cube from {out['rest_sharp_cube_mm']} mm; "
        f"load {out['load_avg']} to {out['load_avg_end']}"
    )
    for row in out["variants"].values():
        print(
            f"  {row['label']:<42} transition {row['transition_speed']!s:>6} m/s  wrong at {row['wrong_at']}  "
            f"slides at rest over the rim {row['rim']}  set still: stays from {row['rest_stays_from_mm']} mm"
        )
        if "tray" in row:
            t = row["tray"]
            bands = "  ".join(f"{k}: {b['in']}/{b['dice']}" for k, b in t["by_rim_speed"].items())
            print(
                f"      tray: hole rate {t['hole_rate']:.4f} of {t['dice']} dice, at rest by a rim "
                f"{t['at_rest_by_a_rim']} ({t['at_rest_where_the_real_die_cannot']} where the real die cannot "
                f"rest), reached a rim {t['reached_a_rim']} (speed percentiles "
                f"{t['rim_speed_percentiles_10_25_50_75_90']} m/s); in/reached by rim speed: {bands}"
            )
        for name, ap_row in row.get("approaches", {}).items():
            per = "  ".join(f"{v:g}: {k}" for v, k in ap_row["in"].items())
            print(
                f"      {name}: in of {ap_row['runs_per_speed']} per speed  {per}  (total {ap_row['total_in']})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

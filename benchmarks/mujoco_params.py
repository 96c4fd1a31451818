"""MuJoCo's own settings, one at a time: rebound, static friction, travel and speed.

    python benchmarks/mujoco_params.py [--throws 20] [--json]

For the project's :class:`physics.mujoco_world.MujocoParams` and variants of it (twice the
step, a 0.1 ms step, sleeping off, dice as rounded hulls against the tray too), prints:

* the flat-drop rebound ratio at 0.5–4 m/s (:func:`doppelx.bench.engines.rebound`; the
  die–cardboard restitution is 0.40), and its range and worst error over 0.3–5 m/s in
  0.1 m/s steps (the contact's onset falls at another point of a step at each speed);
* the creep (mm) in 0.5 s of a die on side I's playfield tilted 2° below atan μ, and the
  friction angle found by the incline scene's bisection (atan 0.35 = 19.29°);
* CPU seconds per standard turn (``--throws`` of the tray scene's turns on side I) and the
  mean travel of the thrown dice (mm).

These are the figures behind the choices in docs/physics.md ("Second engine: MuJoCo").
Figures are printed, never asserted.
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

from doppelx.bench.common import Tally
from doppelx.bench.engines import DROP_SPEEDS, rebound
from doppelx.bench.incline import BISECT_WINDOW, SLIDE_MM, slide
from doppelx.bench.tray import scenes
from physics.mujoco_world import MujocoParams, MujocoWorld
from physics.run import run_throw
from rules.doppelx.board_file import load_board

VARIANTS = {
    "project": MujocoParams(),
    "step 0.25 ms": MujocoParams(time_step=0.00025),
    "step 0.5 ms": MujocoParams(time_step=0.0005),
    "no sleeping": MujocoParams(sleep=False),
    "no sleeping, step 0.1 ms": MujocoParams(sleep=False, time_step=0.0001),
    "hull against the tray": MujocoParams(die_shape="hull"),
}


def measure(params: MujocoParams, throws: int, turns: bool) -> dict:
    w = MujocoWorld(load_board("I"), params=params)
    out = {"rebound": [round(rebound(w, v), 3) for v in DROP_SPEEDS]}
    dense = np.array([rebound(w, v) for v in np.arange(0.3, 5.001, 0.1)])
    e = w.materials.pair("cardboard").restitution
    out["rebound_dense"] = {"min": round(float(dense.min()), 3), "max": round(float(dense.max()), 3)}
    out["rebound_worst_error"] = round(float(np.abs(dense - e).max()), 3)
    mu = w.materials.pair("cardboard").friction
    _, x = slide(w, math.atan(mu) - math.radians(2), Tally())
    out["creep_mm"] = round(abs(float(x[-1])) * 1e3, 4)
    lo, hi = math.atan(mu) - math.radians(4), math.atan(mu) + math.radians(3)
    for _ in range(10):  # the incline scene's bisection: does the die move 0.3 mm in 1 s?
        mid = (lo + hi) / 2
        _, x = slide(w, mid, Tally(), BISECT_WINDOW)
        lo, hi = (lo, mid) if abs(float(x[-1])) * 1e3 > SLIDE_MM else (mid, hi)
    out["friction_angle_deg"] = round(math.degrees((lo + hi) / 2), 2)
    w.close()
    if turns:
        (_side, board, items), *_ = scenes(throws)
        w = MujocoWorld(board, params=params)
        cpu, travel = 0.0, []
        for lying, throw in items:
            t0 = time.process_time()
            r = run_throw(w, throw, lying)
            cpu += time.process_time() - t0
            for rel in throw.releases:
                travel.append(1e3 * math.dist(rel.position[:2], r.outcome.get(rel.owner).pose.position[:2]))
        out["cpu_s_per_turn"] = round(cpu / len(items), 4)
        out["travel_mean_mm"] = round(float(np.mean(travel)), 1)
    return out


def main() -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    res = {"load_avg": [round(v, 2) for v in os.getloadavg()], "speeds": list(DROP_SPEEDS), "variants": {}}
    for name, params in VARIANTS.items():
        res["variants"][name] = measure(params, args.throws, turns=params.time_step >= 0.00025)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"load average {res['load_avg']}; rebound at {res['speeds']} m/s (e = 0.40)")
    for name, r in res["variants"].items():
        extra = (
            f"  {r['cpu_s_per_turn']:.4f} CPU s/turn  travel {r['travel_mean_mm']:.1f} mm"
            if "cpu_s_per_turn" in r
            else ""
        )
        print(
            f"  {name:<26} rebound {r['rebound']} (0.3-5 m/s: {r['rebound_dense']['min']:.3f}-"
            f"{r['rebound_dense']['max']:.3f}, worst error {r['rebound_worst_error']:.3f})  "
            f"creep {r['creep_mm']:.4f} mm  "
            f"friction angle {r['friction_angle_deg']:.2f}°{extra}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

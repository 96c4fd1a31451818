"""Why do PyBullet and MuJoCo throw differently? The same standard turns in three worlds.

    python benchmarks/engine_attribution.py [--throws 200] [--json]

``doppelx bench engines`` finds the dice travelling farther in MuJoCo (and more of them
off the box) than in PyBullet, while the drop validation finds PyBullet's rebound falling
far below the die–cardboard restitution at impact speeds above 1 m/s (0.14 at 2 m/s,
against 0.40) and MuJoCo's within 0.04 of it at every speed. This script tests whether
that restitution gap explains the difference: it runs the tray scene's standard turns in

1. PyBullet (the project's settings),
2. MuJoCo (the project's materials),
3. MuJoCo with PyBullet's *measured* rebound: the die–cardboard restitution replaced by
   the rebound PyBullet shows at 2 m/s (measured here, by :func:`doppelx.bench.engines.rebound`),

and prints, for each, the mean travel (mm), the off and hole rates and KS/chi-square
p-values against PyBullet. If world 3 agrees with PyBullet where world 2 does not, the
difference is PyBullet's lost bounce. Figures are printed, never asserted.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench.engines import rebound
from doppelx.bench.tray import scenes
from doppelx.bench.twosample import chi2_homogeneity, ks_2samp
from physics.engine import make_world
from physics.materials import load_materials
from physics.run import run_throw
from rules.doppelx.board_file import load_board


def run_world(kind: str, materials, per_side: int) -> dict:
    """Travel (mm) of the thrown dice and their statuses, over the standard turns of every side."""
    engine = "pybullet" if kind == "pybullet" else "mujoco"
    travel, status = [], {"board": 0, "hole": 0, "off": 0}
    cpu = 0.0
    for _side, board, items in scenes(per_side):
        world = make_world(board, materials=materials, engine=engine)
        for lying, throw in items:
            t0 = time.process_time()
            r = run_throw(world, throw, lying)
            cpu += time.process_time() - t0
            start = {rel.owner: rel.position for rel in throw.releases}
            for owner in ("blue", "white"):
                d = r.outcome.get(owner)
                travel.append(1e3 * math.dist(start[owner][:2], d.pose.position[:2]))
                status[d.status.value] += 1
        world.close()
    return {"travel": travel, "status": status, "cpu_s": cpu}


def main() -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("--throws", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    per_side = max(1, args.throws // 4)
    base = load_materials()
    pb_world = make_world(load_board("I"))
    e_pb = rebound(pb_world, 2.0)
    pb_world.close()
    pairs = dict(base.pairs)
    pairs["die-cardboard"] = dataclasses.replace(pairs["die-cardboard"], restitution=round(e_pb, 4))
    dead = dataclasses.replace(base, pairs=pairs)
    dead.__dict__.pop("bodies", None)
    worlds = {
        "pybullet": run_world("pybullet", base, per_side),
        "mujoco": run_world("mujoco", base, per_side),
        "mujoco_pybullet_rebound": run_world("mujoco", dead, per_side),
    }
    ref = worlds["pybullet"]
    out = {
        "throws": 4 * per_side,
        "pybullet_rebound_at_2m_s": round(e_pb, 4),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
        "worlds": {},
    }
    for name, w in worlds.items():
        n = sum(w["status"].values())
        _, p_travel = ks_2samp(w["travel"], ref["travel"])
        _, _, p_status = chi2_homogeneity(list(w["status"].values()), list(ref["status"].values()))
        out["worlds"][name] = {
            "travel_mean_mm": round(float(np.mean(w["travel"])), 2),
            "travel_median_mm": round(float(np.median(w["travel"])), 2),
            "off_rate": round(w["status"]["off"] / n, 4),
            "hole_rate": round(w["status"]["hole"] / n, 4),
            "ks_p_travel_vs_pybullet": float(f"{p_travel:.4g}"),
            "chi2_p_status_vs_pybullet": float(f"{p_status:.4g}"),
        }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(
            f"{out['throws']} standard turns; PyBullet's flat rebound at 2 m/s: {e_pb:.3f}; load {out['load_avg']}"
        )
        for name, row in out["worlds"].items():
            print(
                f"  {name:<24} travel mean {row['travel_mean_mm']:6.1f} mm  median {row['travel_median_mm']:6.1f} mm  "
                f"off {row['off_rate']:.3f}  hole {row['hole_rate']:.3f}  "
                f"KS p {row['ks_p_travel_vs_pybullet']:.3g}  χ² p {row['chi2_p_status_vs_pybullet']:.3g}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())

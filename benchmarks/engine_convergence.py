"""Which engine's hole rate is the numerically converged one? The tray's turns at finer settings.

    python benchmarks/engine_convergence.py [--throws 2000] [--configs NAME,...] [--workers N] [--json]

``doppelx bench engines --throws 2000`` finds MuJoCo's thrown dice in a hole more often than
PyBullet's (10.8 % against 8.5 %, p = 4·10⁻⁴). A difference that comes from an engine's
numerical error shrinks when that engine is refined, so this script runs the same standard
turns (the tray scene's, :func:`doppelx.bench.tray.scenes`, a quarter on each side — the
turns of ``bench engines``) in each engine at its defaults and refined:

* ``pybullet``: the defaults (240 Hz, 50 iterations, adaptive sub-steps, hole frames as
  hulls);
* ``pybullet-boxes``: the defaults with the hole frames as boxes (the build before 23 Nov
  2026, ``SimSettings(hole_frames="boxes")``);
* ``pybullet-x2``: half the step (480 Hz, samples still at 60 Hz) and 100 iterations;
* ``pybullet-x4``: 960 Hz and 200 iterations;
* ``mujoco``: the defaults (3.84 kHz, contact time constant unchanged);
* ``mujoco-x2``: half MuJoCo's step (7.68 kHz), the same contact springs;
* ``mujoco-nosleep``: MuJoCo without its island sleeping;
* ``pybullet-rounded`` and ``mujoco-hull``: not refinements but the die's shape — PyBullet's
  die is a sharp 16 mm box against the tray's boxes (Bullet's box–box test ignores the
  rounding margin), MuJoCo's a box rounded by a contact margin of the edge radius; here
  both are the hull of the rounded cube against everything
  (``SimSettings(die_collision="rounded_hull")``, ``MujocoParams(die_shape="hull")``);
* ``pybullet-raw`` and ``mujoco-raw``: the materials' restitutions handed to the engine as
  they stand, without the per-engine calibration (:mod:`physics.restitution_calibration`;
  PyBullet's flat drops then rebound 0.017 above the coefficient, MuJoCo's 0.044 below) —
  the build before 23 Nov 2026, session 5;
* ``pybullet-e036`` and ``pybullet-e030``: the die–cardboard restitution 0.36 and 0.30
  instead of the material's 0.40: how much of a difference in the fields reached is the
  bounce.

Per configuration: the thrown dice's hole and off rates with Wilson 95 % intervals, the
resting field kinds (as ``bench engines`` reads them), the mean and median travel, the CPU
seconds, and a chi-square test of the status counts (board, hole,
off) against each engine's defaults. If a refined engine's hole rate moves to the other
engine's, the defaults' difference is that engine's numerical error. Figures are printed,
never asserted; docs/physics.md ("Where they differ, which is right") gives a run.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from doppelx.bench.cuboid import wilson
from doppelx.bench.twosample import chi2_homogeneity
from physics.mujoco_world import MujocoParams
from physics.settings import SimSettings


def _refined(k: int) -> dict:
    """PyBullet's step cut by ``k``, with ``k`` times the iterations and the samples still at 60 Hz."""
    base = SimSettings()
    return {
        "time_step": base.time_step / k,
        "sample_every": base.sample_every * k,
        "solver_iterations": base.solver_iterations * k,
    }


#: name → (engine, SimSettings changes, MujocoParams changes, die–cardboard restitution or None)
CONFIG: dict[str, tuple[str, dict, dict, float | None]] = {
    "pybullet": ("pybullet", {}, {}, None),
    "pybullet-boxes": ("pybullet", {"hole_frames": "boxes"}, {}, None),
    "pybullet-x2": ("pybullet", _refined(2), {}, None),
    "pybullet-x4": ("pybullet", _refined(4), {}, None),
    "pybullet-rounded": ("pybullet", {"die_collision": "rounded_hull"}, {}, None),
    "pybullet-raw": ("pybullet", {"restitution_calibration": False}, {}, None),
    "mujoco-raw": ("mujoco", {"restitution_calibration": False}, {}, None),
    "pybullet-e036": ("pybullet", {}, {}, 0.36),
    "pybullet-e030": ("pybullet", {}, {}, 0.30),
    "mujoco": ("mujoco", {}, {}, None),
    "mujoco-x2": ("mujoco", {}, {"time_step": MujocoParams().time_step / 2}, None),
    "mujoco-nosleep": ("mujoco", {}, {"sleep": False}, None),
    "mujoco-hull": ("mujoco", {}, {"die_shape": "hull"}, None),
}
CONFIGS = tuple(CONFIG)
STATUSES = ("board", "hole", "off")


def make(config: str, board):
    """The world of ``config`` for ``board``."""
    from physics.engine import make_world
    from physics.materials import load_materials

    engine, settings, params, restitution = CONFIG[config]
    kw: dict = {"settings": SimSettings(**settings)}
    if engine == "mujoco":
        kw["params"] = MujocoParams(**params)
    if restitution is not None:
        base = load_materials()
        pairs = dict(base.pairs)
        pairs["die-cardboard"] = dataclasses.replace(pairs["die-cardboard"], restitution=restitution)
        kw["materials"] = dataclasses.replace(base, pairs=pairs)
    return make_world(board, engine=engine, **kw)


def run_config(job: tuple[str, int]) -> dict:
    """Run ``throws`` standard turns (a quarter per side) in ``config``."""
    from doppelx.bench.engines import KINDS
    from doppelx.bench.tray import scenes
    from physics.run import run_throw
    from rules.doppelx.dice import load_dice
    from rules.doppelx.reading import read_die

    config, throws = job
    dice = load_dice()
    status = dict.fromkeys(STATUSES, 0)
    kinds = dict.fromkeys(KINDS, 0)
    travel: list[float] = []
    cpu, done, unsettled = 0.0, 0, 0
    for _side, board, items in scenes(max(1, math.ceil(throws / 4))):
        world = make(config, board)
        for lying, throw in items:
            t0 = time.process_time()
            r = run_throw(world, throw, lying)
            cpu += time.process_time() - t0
            done += 1
            unsettled += not r.settled
            start = {rel.owner: rel.position for rel in throw.releases}
            for owner in ("blue", "white"):
                d = r.outcome.get(owner)
                status[d.status.value] += 1
                travel.append(1e3 * math.dist(start[owner][:2], d.pose.position[:2]))
                if d.status.value != "board":
                    kinds[d.status.value] += 1
                    continue
                reading = read_die(d, dice[owner], board, dice.cocked_angle)
                kinds[reading.field.value if reading.field is not None else "none"] += 1
        world.close()
    travel.sort()
    return {
        "config": config,
        "throws": done,
        "status": status,
        "unsettled": unsettled,
        "kinds": kinds,
        "travel_mean_mm": round(sum(travel) / len(travel), 1),
        "travel_median_mm": round(travel[len(travel) // 2], 1),
        "cpu_s": round(cpu, 1),
    }


def summarise(rows: list[dict]) -> list[dict]:
    """Rates with Wilson intervals and chi-square p-values against each engine's defaults."""
    by = {r["config"]: r for r in rows}
    for r in rows:
        n = sum(r["status"].values())
        for kind in ("hole", "off"):
            k = r["status"][kind]
            lo, hi = wilson(k, n)
            r[f"{kind}_rate"] = [round(k / n, 4), round(lo, 4), round(hi, 4)]
        for ref in ("pybullet", "mujoco"):
            if ref in by and ref != r["config"]:
                _, _, p = chi2_homogeneity(
                    [r["status"][s] for s in STATUSES], [by[ref]["status"][s] for s in STATUSES]
                )
                r[f"p_vs_{ref}"] = float(f"{p:.3g}")
    return rows


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2

    ap = OneLineParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=2000, help="standard turns per configuration (2000)")
    ap.add_argument("--configs", default=",".join(CONFIGS), help=f"comma-separated, of {', '.join(CONFIGS)}")
    ap.add_argument("--workers", type=int, default=1, help="configurations run side by side (default 1)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    configs = [c for c in args.configs.split(",") if c]
    bad = [c for c in configs if c not in CONFIGS]
    if bad or not configs or args.throws < 4 or args.workers < 1:
        what = (
            f"unknown configuration {bad[0]!r} (known: {', '.join(CONFIGS)})"
            if bad or not configs
            else f"--throws {args.throws}: at least 4"
            if args.throws < 4
            else f"--workers {args.workers}: at least 1"
        )
        print(f"engine_convergence.py: {what}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    jobs = [(c, args.throws) for c in configs]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(run_config, jobs))
    else:
        rows = [run_config(j) for j in jobs]
    rows = summarise(rows)
    machine = {
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load_at_end": round(os.getloadavg()[0], 2),
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    if args.json:
        print(json.dumps({"rows": rows, **machine}))
        return 0
    print(
        f"{'config':15s} {'turns':>5s} {'hole rate [95 %]':>24s} {'off rate [95 %]':>24s} "
        f"{'1x / 2x / 3x':>20s} {'travel mean/median':>19s} {'cpu s':>7s}  p vs pybullet / mujoco"
    )
    for r in rows:
        h, o = r["hole_rate"], r["off_rate"]
        n = sum(r["kinds"].values())
        fields = " / ".join(f"{r['kinds'][k] / n:.3f}" for k in ("1x", "2x", "3x"))
        print(
            f"{r['config']:15s} {r['throws']:5d} {h[0]:8.4f} [{h[1]:.4f}, {h[2]:.4f}] "
            f"{o[0]:8.4f} [{o[1]:.4f}, {o[2]:.4f}] {fields:>20s} "
            f"{r['travel_mean_mm']:9.1f}/{r['travel_median_mm']:<9.1f} {r['cpu_s']:7.1f}  "
            f"{r.get('p_vs_pybullet', '—')} / {r.get('p_vs_mujoco', '—')}"
        )
    print(f"machine {machine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How long a flick's throw lives: release to rest, wall hits and roll for soft, medium and hard flicks.

    python benchmarks/throw_feel.py [--seeds N] [--board I] [--mappings before,assisted,direct]
                                    [--materials FILE] [--json]

A person at the middle of the south wall flicks their die and the white die straight into
the box at 0.2 (soft), 0.8 (medium) and 1.6 m/s (hard, full power) on the release plane —
the drag a steady mouse makes (``render.aim.ThrowAim.flick``) — on an empty board, one throw
per seed (the hand's random part differs). Each flick becomes dice through a mapping:

* ``before``: the window's mapping up to commit 8cb4d2b — the throw model's arc to the
  flick's aim point, the player's spin only (0 unless set with Shift+wheel);
* ``assisted`` / ``direct``: today's (``doppelx.games.doppelx.play.flick_throw``), the form's two ways.

Per mapping and flick it prints medians over the seeds: ``rest`` (s from release until the
physics reports every die at rest), ``still`` (s until no die moves faster than 5 cm/s any
more), ``walls`` (hits on the inner walls per die: the velocity towards a wall within a
die's size of it reversed), ``roll`` (cm a die travels on the board after it first lands)
and ``off`` (dice off the box or in a hole, of all). The contact materials are the project's
(``assets/materials.toml``) unless ``--materials`` names another file (a fit to real tosses,
say, to see what it does to the feel); the script changes only how a flick maps to the release.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FLICKS = {"soft": 0.2, "medium": 0.8, "hard": 1.6}
MAPPINGS = ("before", "assisted", "direct")
#: A die slower than this (m/s) counts as still.
STILL_SPEED = 0.05


def drag(aim, speed: float, steps: int = 8, dt: float = 0.012):
    """Samples (t, x, y) of a steady drag straight into the box at ``speed`` m/s on the release plane."""
    p0 = aim.release_point()[:2] - aim.inward * 0.05
    return [(k * dt, *(p0 + aim.inward * speed * k * dt)) for k in range(steps)]


def release_of(mapping: str, box, intent, die_half: float):
    """Release point, velocity and spin of ``intent`` under ``mapping``."""
    from doppelx.games.doppelx.play.flick_throw import flick_release
    from physics.throw_model import Aim, plan

    if mapping == "before":
        aim = Aim(intent.target, float(min(1.0, max(0.0, intent.power))), intent.wall, intent.along)
        release, velocity = plan(box, aim, intent.height, die_half)
        return release, velocity, intent.spin
    return flick_release(box, intent, die_half, mapping)


def wall_hits(traj, box, size: float) -> float:
    """Hits on the inner walls per die (see the module docstring)."""
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    hits = 0
    for i in range(len(traj.owners)):
        p, v = traj.positions[:, i], traj.velocities[:, i]
        inside = (np.abs(p[:, 0]) < hx) & (np.abs(p[:, 1]) < hy) & (p[:, 2] < box.rim_z + size)
        for k, half in ((0, hx), (1, hy)):
            near = inside & (np.abs(p[:, k]) > half - size)
            towards = np.sign(p[:, k]) * v[:, k]
            for f in range(1, len(p)):
                if near[f] and towards[f - 1] > 0.1 and towards[f] < -0.02:
                    hits += 1
    return hits / len(traj.owners)


def measure(match, mapping: str, speed: float, seeds: int) -> dict:
    """Medians over ``seeds`` flicks at ``speed`` m/s under ``mapping``."""
    from render.aim import ThrowAim
    from rules.doppelx.outcome import Status

    box = match.service.box
    die = next(iter(match.game.dice.dice.values()))
    owners = (match.game.seats[0], "white")
    rest, still, walls, roll, off = [], [], [], [], 0
    for seed in range(seeds):
        match.rng = np.random.default_rng(seed)
        aim = ThrowAim(box, die.size)
        intent = aim.flick(drag(aim, speed))
        release, velocity, spin = release_of(mapping, box, intent, die.half)
        throw = match.hand_throw(owners, release, velocity, spin)
        result = match.service.run(throw, {}, 0.0, record=True)
        traj = result.trajectory
        rest.append(result.sim_time)
        moving = np.nonzero((np.linalg.norm(traj.velocities, axis=2) > STILL_SPEED).any(axis=1))[0]
        still.append(
            float(traj.times[moving[-1] + 1])
            if len(moving) and moving[-1] + 1 < len(traj)
            else result.sim_time
        )
        walls.append(wall_hits(traj, box, die.size))
        for i in range(len(owners)):
            p = traj.positions[:, i]
            landed = np.nonzero(p[:, 2] < die.half * 1.5)[0]
            if len(landed):
                steps = np.diff(p[landed[0] :, :2], axis=0)
                roll.append(float(np.linalg.norm(steps, axis=1).sum()) * 100)
        off += sum(d.status in (Status.OFF, Status.HOLE) for d in result.outcome.dice)
    return {
        "rest_s": float(np.median(rest)),
        "still_s": float(np.median(still)),
        "walls_per_die": float(np.median(walls)),
        "roll_cm": float(np.median(roll)) if roll else 0.0,
        "off": f"{off}/{seeds * len(owners)}",
        "speed_mps": speed,
    }


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser

    p = OneLineParser(prog="throw_feel.py", description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=12, help="throws per mapping and flick (default 12)")
    p.add_argument("--board", default="I", help="the side of the box (default I)")
    p.add_argument("--mappings", default=",".join(MAPPINGS), help="comma-separated: " + ", ".join(MAPPINGS))
    p.add_argument("--materials", help="a materials file (default: assets/materials.toml)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = p.parse_args(argv)
    if args.seeds < 1:
        p.error(f"--seeds must be at least 1, got {args.seeds}")
    mappings = [m.strip() for m in args.mappings.split(",") if m.strip()]
    bad = [m for m in mappings if m not in MAPPINGS]
    if bad or not mappings:
        p.error(f"--mappings: unknown {', '.join(bad) or '(none)'}; use {', '.join(MAPPINGS)}")

    from doppelx.games.doppelx.play.newgame import GameSetup, start_match

    setup = GameSetup.standard(3, 3, seed=1, names=("Ann", "Bo", "Cy"))
    setup.board = args.board
    setup.spinner = False
    match = start_match(setup)
    if args.materials:
        from physics.materials import load_materials
        from physics.world import World
        from rules.common.errors import DoppelXError

        try:
            materials = load_materials(args.materials)
        except (OSError, DoppelXError) as exc:
            match.close()
            p.error(f"--materials {args.materials}: {exc}")
        match.world.close()
        match.world = World(match.game.board, dice=match.game.dice, materials=materials, spinner=False)
    try:
        out = {m: {name: measure(match, m, v, args.seeds) for name, v in FLICKS.items()} for m in mappings}
    finally:
        match.close()
    load = os.getloadavg()[0]
    if args.json:
        print(
            json.dumps(
                {
                    "board": args.board,
                    "seeds": args.seeds,
                    "materials": args.materials,
                    "load": load,
                    "results": out,
                }
            )
        )
        return 0
    print(
        f"side {args.board}, {args.seeds} throws each (medians), materials {args.materials or 'shipped'}, load {load:.2f}"
    )
    print(
        f"{'mapping':9} {'flick':7} {'m/s':>4} {'rest s':>7} {'still s':>8} {'walls':>6} {'roll cm':>8} {'off':>6}"
    )
    for m, rows in out.items():
        for name, r in rows.items():
            print(
                f"{m:9} {name:7} {r['speed_mps']:4.1f} {r['rest_s']:7.2f} {r['still_s']:8.2f} "
                f"{r['walls_per_die']:6.1f} {r['roll_cm']:8.1f} {r['off']:>6}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

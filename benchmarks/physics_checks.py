"""Large physics checks: tunnelling over many throws, face uniformity, and the settle test.

    python benchmarks/physics_checks.py [--throws 10000] [--faces 6000] [--settle 1000]
                                        [--seed S] [--json]

1. Tunnelling: ``--throws`` throws spread over the four sides — standard turns (0–6 dice
   lying, blue and white thrown at a random point with a random strength and skill),
   setup throws (3–8 players from their seats) and violent throws (full strength from
   high up). The tunnel watch flags any die that passed through the insert, a wall, the
   floor, the table or another die; the count must be 0.
2. Faces: ``--faces`` single throws of a symmetric die on side I from random orientations;
   the resting top axis is counted and compared with the uniform distribution by a
   chi-square test (5 degrees of freedom).
3. Settle test: ``--settle`` random throws on side I are run to rest and then simulated
   one more second; a die on the board that then moves more than 1 mm, leaves the board
   or shows another face counts as a false settle (dice in the cavity or off the box may
   roll on: their status cannot change).

Figures are printed (one JSON object with ``--json``), never asserted.
"""

# ruff: noqa: I001  (imports are ordered on purpose: a backend is configured before it loads)

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from physics.run import run_throw  # noqa: E402
from doppelx.bench.throws import chi2_uniform, random_scene, up_axis  # noqa: E402
from physics.throw_model import SKILLS, Aim, aimed_throw  # noqa: E402
from physics.world import World  # noqa: E402
from rules.board_file import BUILTIN_SIDES, load_board  # noqa: E402
from rules.box import load_box  # noqa: E402
from rules.dice import load_dice  # noqa: E402
from rules.outcome import Pose, Status  # noqa: E402
from rules.reading import top_face  # noqa: E402
from rules.rng import child_rng  # noqa: E402

BOX = load_box()
DICE = load_dice()


def check_tunnelling(throws: int, seed: int) -> dict:
    worlds = {side: World(load_board(side)) for side in BUILTIN_SIDES}
    flagged, parts, kinds, statuses = 0, Counter(), Counter(), Counter()
    unsettled, sim, steps = 0, 0.0, 0
    examples = []
    start = time.perf_counter()
    for i in range(throws):
        side = BUILTIN_SIDES[i % 4]
        rng = child_rng(seed, i)
        kind, lying, throw = random_scene(worlds[side].board, rng)
        kinds[kind] += 1
        r = run_throw(worlds[side], throw, lying)
        sim += r.sim_time
        steps += r.steps
        unsettled += not r.settled
        statuses.update(d.status.value for d in r.outcome.dice)
        if r.tunnel_events:
            flagged += 1
            parts.update(e.split(":")[1] for e in r.tunnel_events)
            if len(examples) < 10:
                examples.append({"throw": i, "side": side, "kind": kind, "events": list(r.tunnel_events)})
    wall = time.perf_counter() - start
    for w in worlds.values():
        w.close()
    return {
        "throws": throws,
        "tunnelled_throws": flagged,
        "tunnel_parts": dict(parts),
        "examples": examples,
        "kinds": dict(kinds),
        "statuses": dict(statuses),
        "unsettled": unsettled,
        "sim_s_per_throw": round(sim / throws, 3),
        "throws_per_s": round(throws / wall, 1),
    }


def check_faces(throws: int, seed: int) -> dict:
    world = World(load_board("I"))
    counts = np.zeros(6, dtype=int)
    lost = cocked = 0
    for i in range(throws):
        rng = child_rng(seed + 1, i)
        aim = Aim(
            (float(rng.uniform(-0.1, 0.1)), float(rng.uniform(-0.1, 0.1))), float(rng.uniform(0.0, 1.0))
        )
        r = run_throw(world, aimed_throw(BOX, aim, ["blue"], SKILLS["easy"], rng, 0.016), watch=False)
        d = r.outcome.get("blue")
        if d.status is not Status.BOARD:
            lost += 1
            continue
        axis, tilt = up_axis(d.pose)
        counts[axis] += 1
        cocked += tilt > DICE.cocked_angle
    world.close()
    n = int(counts.sum())
    chi2, p_value = chi2_uniform(counts)
    return {
        "throws": throws,
        "on_board": n,
        "lost": lost,
        "axis_counts": counts.tolist(),
        "chi2": round(chi2, 2),
        "p_value": round(p_value, 4),
        "cocked": cocked,
    }


def check_settle(throws: int, seed: int) -> dict:
    world = World(load_board("I"))
    false_settles = 0
    examples: list[dict] = []
    for i in range(throws):
        rng = child_rng(seed + 2, i)
        kind, lying, throw = random_scene(world.board, rng)
        r = run_throw(world, throw, lying, watch=False)
        if not r.settled:
            continue
        for _ in range(240):
            world.step()
        for d in r.outcome.dice:
            if d.status is not Status.BOARD:
                continue  # dice in the cavity or off may roll on; their status cannot change
            pos, q = world.pose(d.owner)
            now = Pose(pos, q)
            if (
                math.dist(pos, d.pose.position) > 0.001
                or world.zones.status(pos) is not Status.BOARD
                or top_face(now, DICE[d.owner])[0] != top_face(d.pose, DICE[d.owner])[0]
            ):
                false_settles += 1
                examples.append(
                    {"throw": i, "die": d.owner, "moved_mm": round(math.dist(pos, d.pose.position) * 1e3, 2)}
                )
                break
    world.close()
    return {"throws": throws, "false_settles": false_settles, "examples": examples[:10]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--throws", type=int, default=10000, help="throws for the tunnelling count (default 10000)"
    )
    ap.add_argument("--faces", type=int, default=6000, help="throws for face uniformity (default 6000)")
    ap.add_argument("--settle", type=int, default=1000, help="throws for the settle check (default 1000)")
    ap.add_argument("--seed", type=int, default=7, help="seed (default 7)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    result = {
        "tunnelling": check_tunnelling(args.throws, args.seed),
        "faces": check_faces(args.faces, args.seed),
        "settle": check_settle(args.settle, args.seed),
    }
    result["wall_s"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        t, f, s = result["tunnelling"], result["faces"], result["settle"]
        print(
            f"tunnelling: {t['tunnelled_throws']} of {t['throws']} throws flagged {t['tunnel_parts']}; "
            f"kinds {t['kinds']}; statuses {t['statuses']}; unsettled {t['unsettled']}; "
            f"{t['throws_per_s']} throws/s"
        )
        print(
            f"faces: {f['axis_counts']} of {f['on_board']} on the board ({f['lost']} lost, {f['cocked']} cocked); "
            f"chi² {f['chi2']} (5 df), p = {f['p_value']}"
        )
        print(f"settle: {s['false_settles']} false settles in {s['throws']} throws")
        print(f"wall time {result['wall_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Resting pile: nine dice lying on side I's playfield — a row of three touching, a tower of three,
two touching with one bridging them on top — left alone for a while.

Every die is awake (the game's sleeping would freeze the flat ones and hide the solver).
A resting pile should not move: measured are the drift (largest displacement of a die
from where it was put), the creep (the largest net displacement of a die between the middle
and the end of the run, divided by that half's duration: a mean speed, blind to a die
rocking in place), the worst penetration depth of any contact (die–die or die–board, read every
sample), the kinetic energy left at the end, and how many dice fell (their centre dropped
by more than half an edge: a tower or the bridge collapsed). Expected: all zero.
"""

from __future__ import annotations

import math

import numpy as np

from doppelx.bench.common import Profile, Tally, kinetic_energy, quat_axis_angle
from doppelx.bench.metrics import Check, Metric

NAME = "pile"
#: (x, y, z) m and yaw (deg) of the nine dice, in the seamless strip of side I's playfield.
PLACES = (
    (-0.060, 0.0, 0.008, 0.0),
    (-0.044, 0.0, 0.008, 0.0),
    (-0.028, 0.0, 0.008, 0.0),  # a row, touching
    (0.030, 0.0, 0.008, 0.0),
    (0.030, 0.0, 0.024, 10.0),
    (0.030, 0.0, 0.040, 20.0),  # a tower of three
    (0.060, 0.030, 0.008, 0.0),
    (0.076, 0.030, 0.008, 0.0),
    (0.068, 0.030, 0.024, 0.0),  # a bridge
)


def rest(world, seconds: float, tally: Tally) -> dict:
    """Build the pile, let it rest ``seconds``; the figures of the module docstring (SI units)."""
    from physics.throw import DieRelease

    s = world.settings
    owners = list(world.dice.dice)[: len(PLACES)]
    releases = tuple(
        DieRelease(
            o, (x, y, z), quat_axis_angle((0, 0, 1), math.radians(yaw)), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
        )
        for o, (x, y, z, yaw) in zip(owners, PLACES)
    )
    world.reset({}, 0.0, releases)
    p, c = world.p, world.client
    bodies = [world.body_of[o] for o in owners]
    start = np.array([world.pose(o)[0] for o in owners])
    n = int(round(seconds / s.time_step))
    half_n = n // 2
    worst = 0.0
    middle = start
    for i in range(1, n + 1):
        world.step()
        if i % s.sample_every == 0:
            for b in bodies:
                for pt in p.getContactPoints(bodyA=b, physicsClientId=c):
                    worst = min(worst, pt[8])
        if i == half_n:
            middle = np.array([world.pose(o)[0] for o in owners])
    tally.steps += n
    tally.runs += 1
    end = np.array([world.pose(o)[0] for o in owners])
    half_time = (n - half_n) * s.time_step
    return {
        "drift": float(np.linalg.norm(end - start, axis=1).max()),
        "creep": float(np.linalg.norm(end - middle, axis=1).max() / half_time),
        "penetration": -worst,
        "energy": kinetic_energy(world, owners),
        "fallen": int((start[:, 2] - end[:, 2] > world.dice[owners[0]].half).sum()),
    }


def run(profile: Profile, tally: Tally, settings=None) -> list[Metric]:
    """The pile metrics (see the module docstring)."""
    from physics.world import World
    from rules.doppelx.board_file import load_board

    world = World(load_board("I"), settings=settings)
    with tally.timing():
        r = rest(world, profile.pile_seconds, tally)
    world.close()
    # the bands are what the scene is for: a quarter more drift, creep or overlap than the
    # baseline, or a die moving at 2 mm/s (4.5 g: 0.009 µJ), fails — not only a die sliding
    # off (the physics audit of session 10: ±0.5 µJ let a die move at 15 mm/s)
    return [
        Metric(
            NAME, "drift", round(r["drift"] * 1e3, 3), "mm", 0.0, Check(tol=0.1, rel=0.25, better="lower")
        ),
        Metric(
            NAME, "creep", round(r["creep"] * 1e3, 4), "mm/s", 0.0, Check(tol=0.01, rel=0.25, better="lower")
        ),
        Metric(
            NAME,
            "worst_penetration",
            round(r["penetration"] * 1e3, 4),
            "mm",
            0.0,
            Check(tol=0.01, rel=0.25, better="lower"),
        ),
        Metric(
            NAME, "kinetic_energy", round(r["energy"] * 1e6, 5), "µJ", 0.0, Check(tol=0.01, better="lower")
        ),
        Metric(NAME, "fallen", r["fallen"], "dice", 0, Check(better="lower", tol=0.5)),
    ]

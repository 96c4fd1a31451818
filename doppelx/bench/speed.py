"""Speed: physics steps and throws per second of every scene, as ratios to a frozen reference.

A *throw* is one run from a rebuilt world: a standard turn in the tray scene, one drop,
one tilt, one impact, the 10 s pile.

Absolute speeds depend on the machine and on what else runs on it, so they are shown but
never judged. What is judged is each scene's speed divided by the speed of a *reference*
workload measured just before and just after the scene in the same process (the faster of
the two is used): raw PyBullet calls with every parameter written here (nine 16 mm boxes
dropped on a floor box, 240 Hz, 10 solver iterations), independent of the project's
settings, materials and world code. A change that makes the project's physics slower
lowers the ratio; a busy or slower machine slows both and leaves it. ``steps_ratio`` is
the scene's steps per second over the reference's; ``throws_ratio`` its throws per second
over the reference's thousand steps per second. A scene shorter than the profile's
``speed_seconds`` is repeated and its fastest repetition taken. All times are CPU seconds
of this process (:func:`time.process_time`), which other processes on a shared machine
stretch far less than the wall clock.
"""

from __future__ import annotations

import time

from doppelx.bench.common import Profile, Tally
from doppelx.bench.metrics import INFO, Check, Metric

NAME = "speed"
#: Dice of the reference: (x, y, z) m of nine boxes and their turn about x (rad).
_REF_DICE = tuple(((i % 3 - 1) * 0.03, (i // 3 - 1) * 0.03, 0.02 + 0.01 * (i % 4), 0.3 * i) for i in range(9))
_REF_STEPS = 360


def reference_rate(seconds: float) -> float:
    """Steps per second of the frozen reference workload, best of repetitions filling ``seconds``."""
    import math

    from physics.settings import GRAVITY
    from physics.world import import_pybullet

    p = import_pybullet()
    c = p.connect(p.DIRECT)
    best = 0.0
    spent = 0.0
    try:
        while spent < seconds or best == 0.0:
            p.resetSimulation(physicsClientId=c)
            p.setGravity(0.0, 0.0, -GRAVITY, physicsClientId=c)
            p.setPhysicsEngineParameter(
                fixedTimeStep=1.0 / 240.0,
                numSubSteps=0,
                numSolverIterations=10,
                deterministicOverlappingPairs=1,
                contactBreakingThreshold=0.002,
                physicsClientId=c,
            )
            floor = p.createCollisionShape(p.GEOM_BOX, halfExtents=[0.2, 0.2, 0.005], physicsClientId=c)
            p.createMultiBody(0.0, floor, basePosition=(0.0, 0.0, -0.005), physicsClientId=c)
            box = p.createCollisionShape(p.GEOM_BOX, halfExtents=[0.008] * 3, physicsClientId=c)
            for x, y, z, a in _REF_DICE:
                p.createMultiBody(
                    0.0045,
                    box,
                    basePosition=(x, y, z),
                    baseOrientation=(math.sin(a / 2), 0.0, 0.0, math.cos(a / 2)),
                    physicsClientId=c,
                )
            t0 = time.process_time()
            for _ in range(_REF_STEPS):
                p.stepSimulation(physicsClientId=c)
            dt = max(time.process_time() - t0, 1e-9)
            spent += dt
            best = max(best, _REF_STEPS / dt)
    finally:
        p.disconnect(physicsClientId=c)
    return best


#: Fewest runs of a scene whose fastest gives its speed figure.
MIN_REPEATS = 2


def timed(scene_run, profile: Profile, settings=None):
    """Run a scene; repeat it until ``profile.speed_seconds`` of physics have passed, and at
    least :data:`MIN_REPEATS` times (a single run is at the mercy of one hiccup of the
    machine: a quick tray run read 24 % slow once in four on a quiet machine).

    Returns ``(metrics of the first run, tally of the fastest run, reference steps/s)``.
    """
    ref = reference_rate(min(0.25, profile.speed_seconds))
    metrics = None
    best: Tally | None = None
    spent, runs = 0.0, 0
    while metrics is None or spent < profile.speed_seconds or runs < MIN_REPEATS:
        runs += 1
        tally = Tally()
        out = scene_run(profile, tally, settings)
        if metrics is None:
            metrics = out
        spent += tally.cpu
        if best is None or tally.cpu * best.steps < best.cpu * tally.steps:
            best = tally
    ref = max(ref, reference_rate(min(0.25, profile.speed_seconds)))
    assert best is not None
    return metrics, best, ref


def speed_metrics(scene: str, tally: Tally, reference: float, profile: Profile) -> list[Metric]:
    """Absolute rates (shown) and ratios to the reference (judged) of one scene."""
    cpu = max(tally.cpu, 1e-9)
    steps, throws = tally.steps / cpu, tally.runs / cpu
    check = Check(rel=profile.speed_tolerance, better="higher")
    return [
        Metric(NAME, f"{scene}.steps_per_s", round(steps), "1/s", None, INFO),
        Metric(NAME, f"{scene}.throws_per_s", round(throws, 1), "1/s", None, INFO),
        Metric(NAME, f"{scene}.steps_ratio", round(steps / reference, 4), "", None, check),
        Metric(NAME, f"{scene}.throws_ratio", round(1000 * throws / reference, 4), "", None, check),
    ]

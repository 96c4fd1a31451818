"""Incline: a die resting on side I's playfield, tilted through angles around the friction angle.

Gravity is turned instead of the board (the same thing for the die, and the playfield stays
the real insert). Below ``atan μ`` (die–cardboard) the die must stick: its creep in 0.5 s is
measured (expected 0). Above, it must slide with the constant acceleration
``g (sin θ − μ cos θ)``: the acceleration is fitted to its path (``x = x0 + v0 t + a t²/2``,
from 0.05 s on and before it nears the far wall). The friction angle itself is found by
bisection (does the die move 0.3 mm in 1 s?) and compared with ``atan μ``.

On the level playfield, a die launched flat at :data:`LAUNCH` m/s without spin slides
``v²/2μg`` before it stops, whatever its direction: ``slide.<a>deg`` is the distance over
that, expected 1, for a slide along x and at 45° to it. A friction cone approximated by a
pyramid (MuJoCo's ``cone="pyramidal"``: the tangential force within |f₁| + |f₂| ≤ μN)
brakes a diagonal slide by only 1/√2 of μN: the die goes 1.41× as far.
"""

from __future__ import annotations

import math

import numpy as np

from doppelx.bench.common import Profile, Tally, time_step
from doppelx.bench.metrics import Check, Metric

NAME = "incline"
#: Start of the slide (board frame, m); the die slides towards +x along the seamless strip.
START = (-0.10, -0.01)
#: Fit only while the die is less than this far from the start (m): the wall is 227 mm away.
MAX_TRAVEL = 0.18
WINDOW = 0.5  # s simulated per angle
FIT_FROM = 0.05  # s
#: Bisection of the friction angle: the die slides if it moves more than SLIDE_MM in
#: BISECT_WINDOW (at 0.005° above atan μ it moves 0.4 mm in 1 s; a sticking die creeps < 0.1 mm).
BISECT_WINDOW = 1.0
SLIDE_MM = 0.3
#: Launch speed of the level slides (m/s), their start (m) and directions (degrees from +x).
LAUNCH = 0.3
LAUNCH_AT = (-0.06, -0.03)
LAUNCH_ANGLES = (0.0, 45.0)


def slide(world, theta: float, tally: Tally, window: float = WINDOW) -> tuple[np.ndarray, np.ndarray]:
    """Times (n,) s and distances (n,) m travelled downhill by a die on a playfield tilted by ``theta``."""
    from physics.throw import DieRelease

    s = world.settings
    half = world.dice["blue"].half
    world.reset(
        {},
        0.0,
        (
            DieRelease(
                "blue", (START[0], START[1], half), (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
            ),
        ),
    )
    world.set_gravity((s.gravity * math.sin(theta), 0.0, -s.gravity * math.cos(theta)))
    dt = time_step(world)
    n = int(round(window / dt))
    xs = np.empty(n)
    for i in range(n):
        world.step()
        xs[i] = world.pose("blue")[0][0] - START[0]
    tally.steps += n
    tally.runs += 1
    return np.arange(1, n + 1) * dt, xs


def level_slide(world, angle_deg: float, tally: Tally) -> float:
    """Distance a die launched flat at :data:`LAUNCH` along ``angle_deg`` slides on the level
    playfield, over ``v²/2μg`` (run to rest by :func:`physics.run.run_throw`)."""
    from physics.run import run_throw
    from physics.throw import DieRelease, Throw

    mu = world.materials.pair("cardboard").friction
    half = world.dice["blue"].half
    a = math.radians(angle_deg)
    velocity = (LAUNCH * math.cos(a), LAUNCH * math.sin(a), 0.0)
    release = DieRelease("blue", (*LAUNCH_AT, half + 0.0002), (0.0, 0.0, 0.0, 1.0), velocity, (0.0, 0.0, 0.0))
    r = run_throw(world, Throw((release,)))
    tally.steps += r.steps
    tally.runs += 1
    die = r.outcome.get("blue")
    assert die is not None and die.pose is not None  # the launched die has its resting pose
    end = die.pose.position
    return math.dist(end[:2], LAUNCH_AT) / (LAUNCH**2 / (2 * mu * world.settings.gravity))


def fit_acceleration(t: np.ndarray, x: np.ndarray) -> float:
    """Least-squares ``a`` of ``x = x0 + v0 t + a t²/2`` over the usable part of the path (m/s²)."""
    use = (t >= FIT_FROM) & (x < MAX_TRAVEL)
    if use.sum() < 5:
        use = t <= t[min(len(t) - 1, 5)]
    a = np.stack([np.ones(use.sum()), t[use], 0.5 * t[use] ** 2], axis=1)
    return float(np.linalg.lstsq(a, x[use], rcond=None)[0][2])


def run(profile: Profile, tally: Tally, settings=None, engine: str = "pybullet") -> list[Metric]:
    """The incline metrics (see the module docstring)."""
    from physics.engine import make_world
    from rules.doppelx.board_file import load_board

    world = make_world(load_board("I"), settings=settings, engine=engine)
    mu = world.materials.pair("cardboard").friction
    g = world.settings.gravity
    angle = math.atan(mu)
    out: list[Metric] = []
    with tally.timing():
        for d in profile.incline_offsets:
            theta = angle + math.radians(d)
            t, x = slide(world, theta, tally)
            if d < 0:
                out.append(
                    Metric(
                        NAME,
                        f"creep.{d:+g}deg",
                        round(abs(float(x[-1])) * 1e3, 4),
                        "mm",
                        0.0,
                        Check(tol=0.05, better="lower"),
                    )
                )
            else:
                expected = g * (math.sin(theta) - mu * math.cos(theta))
                out.append(
                    Metric(
                        NAME,
                        f"accel.{d:+g}deg",
                        round(fit_acceleration(t, x), 4),
                        "m/s²",
                        round(expected, 4),
                        # from 2° over the friction angle the sliding law must hold within 2 %
                        # in both engines; at 1° MuJoCo's soft cone reads 11 % fast
                        Check(tol=0.002, rel=0.02, expect=0.02 if d >= 2 else None),
                    )
                )
        for a in LAUNCH_ANGLES:
            ratio = level_slide(world, a, tally)
            # within 10 % of v²/2μg in both engines (PyBullet 0.96, MuJoCo 1.00 at either angle)
            out.append(Metric(NAME, f"slide.{a:g}deg", round(ratio, 4), "", 1.0, Check(tol=0.02, expect=0.1)))
        lo, hi = angle - math.radians(3), angle + math.radians(3)
        for _ in range(10):
            mid = (lo + hi) / 2
            _, x = slide(world, mid, tally, BISECT_WINDOW)
            if abs(float(x[-1])) * 1e3 > SLIDE_MM:
                hi = mid
            else:
                lo = mid
    world.close()
    out.append(
        Metric(
            NAME,
            "friction_angle",
            round(math.degrees((lo + hi) / 2), 3),
            "deg",
            round(math.degrees(angle), 3),
            Check(tol=0.1),
        )
    )
    return out

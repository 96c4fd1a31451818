"""Drop: a die falls flat, on an edge and on a corner onto side I's playfield from several heights.

Measured per case: the rise of the centre at the first bounce's apex, as an effective
restitution ``sqrt(rise / drop height)``, against the impulse model
(:func:`doppelx.bench.impulse.collide`: a static playfield, the die–cardboard restitution
and friction, the contact at the middle of the lowest face, edge or corner), and the time
to rest by the project's settle test (:func:`physics.run.run_throw`). Edge and corner
drops are tilted 5° off the balanced pose, so the die topples like a real one (balanced
exactly, Bullet keeps a die standing on its corner for ever). The flat drop's time to rest
is compared with a bouncing point mass: bounces while the impact is faster than the
restitution threshold, then the settle hold.
"""

from __future__ import annotations

import math

import numpy as np

from doppelx.bench.common import SPOT, Profile, Tally, corners, quat_axis_angle, quat_mul, time_step
from doppelx.bench.impulse import Free, Static, collide
from doppelx.bench.metrics import Check, Metric

NAME = "drop"
#: Tilt of the edge and corner drops away from the balanced pose (rad).
TILT = math.radians(5.0)
KINDS = ("flat", "edge", "corner")


def orientation(kind: str) -> tuple[float, float, float, float]:
    """The die's orientation at release for ``kind`` (flat, edge or corner down)."""
    if kind == "flat":
        return (0.0, 0.0, 0.0, 1.0)
    if kind == "edge":
        return quat_axis_angle((1, 0, 0), math.pi / 4 + TILT)
    diag = np.array([1.0, 1.0, 1.0]) / math.sqrt(3)
    axis = np.cross(diag, [0.0, 0.0, 1.0])
    up = quat_axis_angle(axis, math.atan2(float(np.linalg.norm(axis)), float(diag[2])))
    return quat_mul(quat_axis_angle((1, 0, 0), TILT), up)


def predicted_restitution(
    quaternion,
    half: float,
    mass: float,
    inertia: float,
    restitution: float,
    friction: float,
    rounding: float = 0.0,
) -> tuple[float, float]:
    """(effective vertical restitution, centre height at touch-down) of a die falling straight down.

    The contact point is the middle of the lowest corners (a face's centre, an edge's
    middle, a corner); the playfield is static. A die whose edges are rounded by
    ``rounding`` (a box of half edge ``half − rounding`` swept by a sphere of that radius,
    as MuJoCo's die is) touches down lower on an edge or a corner — by 1.0 and 1.8 mm for
    the 16 mm die rounded by 2.5 mm — and the rise is measured from there.
    """
    c = corners(quaternion, half - rounding)
    zmin = float(c[:, 2].min())
    low = c[np.isclose(c[:, 2], zmin, atol=1e-9)].mean(axis=0) - np.array([0.0, 0.0, rounding])
    die = Free(mass, np.eye(3) * inertia, np.zeros(3), np.array([0.0, 0.0, -1.0]), np.zeros(3))
    col = collide(die, Static(), low, (0.0, 0.0, 1.0), restitution, friction)
    assert isinstance(col.a, Free)  # the die is the free body
    return float(col.a.velocity[2]), -zmin + rounding


def ball_rest_time(h: float, e: float, threshold: float, hold: float, g: float) -> float:
    """Time to rest of a point mass dropped from ``h``: bounces faster than ``threshold``, then ``hold``."""
    v = math.sqrt(2 * g * h)
    t = v / g
    while v >= threshold:
        v *= e
        t += 2 * v / g
    return t + hold


def _rounding(world, engine: str) -> float:
    """How much the engine's die is rounded against the playfield (m): MuJoCo's always (its
    box with a contact margin of the edge radius), PyBullet's only as ``rounded_hull``; its
    default die is a sharp box against the playfield's boxes."""
    spec = world.dice["blue"]
    if engine == "mujoco" or world.settings.die_collision == "rounded_hull":
        return spec.edge_radius
    return 0.0


def run(profile: Profile, tally: Tally, settings=None, engine: str = "pybullet") -> list[Metric]:
    """The drop metrics (see the module docstring)."""
    from physics.engine import make_world
    from physics.run import run_throw
    from physics.throw import DieRelease, Throw
    from rules.doppelx.board_file import load_board

    world = make_world(load_board("I"), settings=settings, engine=engine)
    s = world.settings
    spec = world.dice["blue"]
    pair = world.materials.pair("cardboard")
    g = s.gravity
    out: list[Metric] = []
    errors = []
    for kind in KINDS:
        q = orientation(kind)
        e_pred, zc = predicted_restitution(
            q, spec.half, spec.mass, spec.inertia, pair.restitution, pair.friction, _rounding(world, engine)
        )
        for h in profile.drop_heights:
            release = DieRelease("blue", (SPOT[0], SPOT[1], zc + h), q, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
            with tally.timing():
                rise = _first_rise(world, release, zc, h, tally)
                r = run_throw(world, Throw((release,)))
            tally.runs += 2
            tally.steps += r.steps
            e = math.sqrt(max(rise, 0.0) / h)
            errors.append(abs(e - e_pred))
            tag = f"{kind}.{h * 1000:g}mm"
            out.append(Metric(NAME, f"e.{tag}", round(e, 4), "", round(e_pred, 4), Check(tol=0.03)))
            expected = (
                round(ball_rest_time(h, pair.restitution, s.restitution_threshold, s.settle_hold, g), 3)
                if kind == "flat"
                else None
            )
            out.append(
                Metric(NAME, f"rest.{tag}", round(r.sim_time, 4), "s", expected, Check(tol=0.1, rel=0.25))
            )
    world.close()
    out.append(
        Metric(
            NAME,
            "e.mean_abs_error",
            round(float(np.mean(errors)), 4),
            "",
            0.0,
            Check(tol=0.02, better="lower"),
        )
    )
    return out


def _first_rise(world, release, zc: float, h: float, tally: Tally) -> float:
    """Rise (m) of the die's centre above its touch-down height at the first bounce's apex."""
    world.reset({}, 0.0, (release,))
    g = world.settings.gravity
    cap = int(math.ceil((math.sqrt(2 * h / g) * 3 + 0.2) / time_step(world)))
    bounced = False
    prev_vz = 0.0
    for i in range(cap):
        world.step()
        vz = world.velocity("blue")[0][2]
        if not bounced and prev_vz < 0.0 < vz:
            bounced = True
        elif bounced and vz <= 0.0:
            tally.steps += i + 1
            return world.pose("blue")[0][2] - zc
        prev_vz = vz
    tally.steps += cap
    return world.pose("blue")[0][2] - zc if bounced else 0.0

"""Die–die impact: two dice meet face to face in free flight (gravity off, high above the board).

Head-on: they fly at each other along the line of centres; glancing: one flies at the
other, at rest, at an angle to the line of centres (both faces square to it). They start
0.2 mm apart, so the impact comes at once and the patch is centred on the line. After they
separate, measured against the impulse model (:func:`doppelx.bench.impulse.collide`, contact
at the middle of the touching faces, the die–die restitution and friction):

* ``e``: normal restitution from the centres' velocities (expected: the die–die value);
* ``momentum_error``: change of the total linear momentum over ``m v`` (expected 0);
* ``angular_momentum_error`` (glancing): change of the total angular momentum about the
  common centre of mass over ``m v h`` (h: half the edge; expected 0; Bullet applies the
  two halves of a contact impulse at the point on each body, which differ by the
  penetration, so it is not exactly 0);
* ``velocity_error`` (glancing): largest deviation of a die's velocity (and of its
  angular velocity times h) from the model's, over ``v``.
"""

from __future__ import annotations

import math

import numpy as np

from doppelx.bench.common import Profile, Tally
from doppelx.bench.impulse import Free, collide
from doppelx.bench.metrics import Check, Metric

NAME = "impact"
HEIGHT = 0.2  # m above the playfield: nothing else is near
GAP = 0.0002  # m between the faces at the start
A, B = "blue", "red"


def collide_dice(world, v_a, v_b, tally: Tally) -> dict:
    """Dice A (at -x) and B (at +x) released with velocities ``v_a``, ``v_b`` (3,); their state after."""
    from physics.throw import DieRelease

    half = world.dice[A].half
    pa = (-(half + GAP / 2), 0.0, HEIGHT)
    pb = (half + GAP / 2, 0.0, HEIGHT)
    q = (0.0, 0.0, 0.0, 1.0)
    world.reset(
        {},
        0.0,
        (
            DieRelease(A, pa, q, _vector(v_a), (0.0, 0.0, 0.0)),
            DieRelease(B, pb, q, _vector(v_b), (0.0, 0.0, 0.0)),
        ),
    )
    world.set_gravity((0.0, 0.0, 0.0))
    p, c = world.p, world.client
    ba, bb = world.body_of[A], world.body_of[B]
    touched = False
    steps = 0
    for steps in range(1, 121):
        world.step()
        if p.getContactPoints(ba, bb, physicsClientId=c):
            touched = True
        elif touched:
            break
    tally.steps += steps
    tally.runs += 1
    out = {"touched": touched, "start": (np.array(pa), np.array(pb))}
    for key, owner in (("a", A), ("b", B)):
        pos, _ = world.pose(owner)
        v, w = world.velocity(owner)
        out[key] = (np.array(pos), np.array(v), np.array(w))
    return out


def _case(
    world, name: str, v_a: np.ndarray, v_b: np.ndarray, speed: float, tally: Tally, glancing: bool
) -> list[Metric]:
    spec = world.dice[A]
    pair = world.materials.pair("die")
    m, h, inertia = spec.mass, spec.half, np.eye(3) * spec.inertia
    r = collide_dice(world, v_a, v_b, tally)
    (xa, va, wa), (xb, vb, wb) = r["a"], r["b"]
    e = float(-(vb[0] - va[0]) / (v_b[0] - v_a[0]))
    dp = float(np.linalg.norm(m * (va + vb) - m * (v_a + v_b)) / (m * speed))
    out = [
        Metric(NAME, f"{name}.e", round(e, 4), "", pair.restitution, Check(tol=0.03)),
        Metric(NAME, f"{name}.momentum_error", float(f"{dp:.3g}"), "", 0.0, Check(limit=("<=", 1e-6))),
    ]
    if glancing:
        # the model: contact at the middle of the touching faces, on the line of centres
        a0 = Free(m, inertia, np.array([-h, 0.0, HEIGHT]), v_a, np.zeros(3))
        b0 = Free(m, inertia, np.array([h, 0.0, HEIGHT]), v_b, np.zeros(3))
        col = collide(b0, a0, np.array([0.0, 0.0, HEIGHT]), (1.0, 0.0, 0.0), pair.restitution, pair.friction)
        b1, a1 = col.a, col.b
        assert isinstance(a1, Free) and isinstance(b1, Free)  # two free bodies stay free
        err = (
            max(
                np.linalg.norm(va - a1.velocity),
                np.linalg.norm(vb - b1.velocity),
                np.linalg.norm(wa - a1.angular_velocity) * h,
                np.linalg.norm(wb - b1.angular_velocity) * h,
            )
            / speed
        )
        # about the centre of mass (it moves straight on: the momentum is conserved)
        xa0, xb0 = r["start"]
        l_before = _angular_momentum(xa0, xb0, v_a, v_b, np.zeros(3), np.zeros(3), m, spec.inertia)
        l_after = _angular_momentum(xa, xb, va, vb, wa, wb, m, spec.inertia)
        dl = float(np.linalg.norm(l_after - l_before) / (m * speed * h))
        out += [
            Metric(
                NAME,
                f"{name}.angular_momentum_error",
                float(f"{dl:.3g}"),
                "",
                0.0,
                Check(tol=0.02, better="lower"),
            ),
            Metric(
                NAME, f"{name}.velocity_error", round(float(err), 4), "", 0.0, Check(tol=0.03, better="lower")
            ),
        ]
    return out


def run(profile: Profile, tally: Tally, settings=None) -> list[Metric]:
    """The impact metrics (see the module docstring)."""
    from physics.world import World
    from rules.doppelx.board_file import load_board

    world = World(load_board("I"), settings=settings)
    out: list[Metric] = []
    with tally.timing():
        for v in profile.head_on:
            va = np.array([v / 2, 0.0, 0.0])
            out += _case(world, f"head_on.{v:g}mps", va, -va, v, tally, glancing=False)
        for v, angle in profile.glancing:
            a = math.radians(angle)
            va = np.array([v * math.cos(a), v * math.sin(a), 0.0])
            out += _case(world, f"glancing.{angle:g}deg.{v:g}mps", va, np.zeros(3), v, tally, glancing=True)
    world.close()
    return out


def _angular_momentum(xa, xb, va, vb, wa, wb, m: float, inertia: float) -> np.ndarray:
    """Angular momentum (3,) kg m²/s of two equal dice about their centre of mass."""
    com = (xa + xb) / 2
    return np.cross(xa - com, m * va) + np.cross(xb - com, m * vb) + inertia * (wa + wb)


def _vector(v) -> tuple[float, float, float]:
    x, y, z = map(float, v)
    return (x, y, z)

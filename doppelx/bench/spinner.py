"""Spinner impact: a die flies into the side of the spinner card on side III (gravity off).

The card rests at angle 0, so one side faces -y at the inradius (a/2) from the pin; the die
flies along +y at 1 m/s, face first, at the card's mid height, and hits that side at a
distance ``x`` from the pin. The bearing is taken off for the impact (no friction motor,
no damping), so the card keeps the angular velocity the impact gave it; it is read once
die and card have separated and compared with the impulse model
(:func:`doppelx.bench.impulse.collide`: a free die against a card hinged on the pin, the
contact at the middle of the die's face, the die–spinner restitution and friction). At
``x = 0`` the impulse passes through the pin and the card should not turn at all.

The bearing is measured on its own: the card spun at 10 rad/s by hand slows to 1 % of that
after ``ln((c + k ω0) / (c + k ω1)) / k`` (Coulomb friction torque τ and viscous damping d
of ``assets/materials.toml``, c = τ/I, k = d/I, I the card's moment about the pin; with no
damping ``(ω0 − ω1) / c``).
"""

from __future__ import annotations

import math

import numpy as np

from doppelx.bench.common import Profile, Tally, free_spinner
from doppelx.bench.impulse import Free, Hinged, collide
from doppelx.bench.metrics import Check, Metric

NAME = "spinner"
SPEED = 1.0  # m/s
GAP = 0.0003  # m between die and card at the start
SPIN0 = 10.0  # rad/s for the spin-down
SLOWED = 0.01 * SPIN0  # rad/s: the spin-down ends at 1 % of the start


def hit(world, x: float, tally: Tally) -> tuple[float, float]:
    """The card's angular velocity after the die hits its side at ``x`` from the pin, and the prediction (rad/s)."""
    from physics.throw import DieRelease

    g = world.layout.spinner
    spec = world.dice["blue"]
    pair = world.materials.pair("spinner")
    cx, cy = g.center
    inradius = g.arm_length / 2
    z = (g.z_low + g.z_high) / 2
    y0 = cy - inradius - spec.half - GAP
    world.reset(
        {},
        0.0,
        (DieRelease("blue", (cx + x, y0, z), (0.0, 0.0, 0.0, 1.0), (0.0, SPEED, 0.0), (0.0, 0.0, 0.0)),),
    )
    world.set_gravity((0.0, 0.0, 0.0))
    free_spinner(world)
    touched = False
    steps = 0
    for steps in range(1, 121):
        world.step()
        if world.spinner_touching():
            touched = True
        elif touched:
            break
    tally.steps += steps
    tally.runs += 1
    die = Free(
        spec.mass,
        np.eye(3) * spec.inertia,
        np.array([cx + x, y0 + GAP, z]),
        np.array([0.0, SPEED, 0.0]),
        np.zeros(3),
    )
    card = Hinged(np.array([cx, cy, z]), np.array([0.0, 0.0, 1.0]), g.inertia[2], 0.0)
    col = collide(
        card, die, np.array([cx + x, cy - inradius, z]), (0.0, 1.0, 0.0), pair.restitution, pair.friction
    )
    assert isinstance(col.a, Hinged)  # the card stays on its pin
    return world.spinner_speed(), col.a.omega


def spin_down(world, tally: Tally) -> tuple[float, float]:
    """Time (s) the card spun at :data:`SPIN0` takes to slow to :data:`SLOWED` on its bearing,
    and the model's: ``ln((c + k ω0) / (c + k ω1)) / k`` (c = τ/I, k = d/I; ``(ω0 − ω1) / c``
    without damping). Slowed to 1 % rather than stopped: MuJoCo's friction loss is a soft
    constraint that brakes like a dashpot in the last tenth of a rad/s, adding 0.02 s of
    crawl that is no property of the bearing; PyBullet stops within the same step."""
    g = world.layout.spinner
    s = world.settings
    world.reset({}, 0.0)
    world.set_spinner(0.0, SPIN0)
    steps, dt = 0, world.time_step  # the engine's own step (MuJoCo's is 1/16 of PyBullet's)
    cap = int(5.0 / dt)
    for steps in range(1, cap + 1):
        world.step()
        if abs(world.spinner_speed()) < SLOWED:
            break
    tally.steps += steps
    tally.runs += 1
    inertia = g.inertia[2]
    c = world.materials.bearing_torque(g.mass, g.pin_radius, s.gravity) / inertia
    k = world.materials.bearing_damping / inertia
    expected = math.log((c + k * SPIN0) / (c + k * SLOWED)) / k if k > 0 else (SPIN0 - SLOWED) / c
    return steps * dt, expected


def run(profile: Profile, tally: Tally, settings=None) -> list[Metric]:
    """The spinner metrics (see the module docstring)."""
    from physics.world import World
    from rules.doppelx.board_file import load_board

    world = World(load_board("III"), settings=settings)
    out: list[Metric] = []
    with tally.timing():
        for x in profile.spinner_offsets:
            omega, expected = hit(world, x, tally)
            name = f"omega.x{x * 1000:g}mm"
            if abs(expected) < 1e-9:
                # signed: the card turns one way or the other as the die's face meets the
                # card's edge; a flip of the sign is a change of the contact, not a gain
                out.append(Metric(NAME, name, round(omega, 3), "rad/s", 0.0, Check(tol=1.0, signed=True)))
            else:
                out.append(
                    Metric(
                        NAME,
                        name,
                        round(omega, 3),
                        "rad/s",
                        round(expected, 3),
                        Check(tol=0.5, rel=0.05, signed=True),
                    )
                )
        t, expected = spin_down(world, tally)
    world.close()
    out.append(
        Metric(
            NAME, "spin_down", round(t, 4), "s", round(expected, 4), Check(tol=0.01, rel=0.05, expect=0.05)
        )
    )
    return out

"""What every benchmark scene shares: run sizes, the step/time tally, poses and gravity.

A :class:`Profile` fixes the size of every scene (``quick`` for CI, ``full`` for the
engineer); the baseline keeps one set of values per profile. A :class:`Tally` counts the
physics steps and runs a scene makes and times only its physics (not the set-up or the
analysis), for the speed figures. It counts CPU seconds of this process
(:func:`time.process_time`), not wall-clock seconds: on a shared machine other processes
stretch the wall clock but hardly the CPU time a run needs.
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

#: Place on side I's playfield where the drop, pile and incline scenes stand: the strip
#: y ∈ [-55, 52] mm is one insert box across the whole width (no seams, no holes).
SPOT = (0.06, -0.02)


@dataclass(frozen=True)
class Profile:
    """Sizes of every scene.

    Attributes:
        name: ``quick`` or ``full`` (the baseline has one section per profile).
        drop_heights: drop heights of the lowest point above the playfield (m).
        incline_offsets: tilts relative to the friction angle atan μ (degrees).
        pile_seconds: how long the pile rests (s, simulated).
        head_on: relative speeds of the head-on die–die impacts (m/s).
        glancing: (speed m/s, angle to the line of centres in degrees) of glancing impacts.
        spinner_offsets: where along the spinner's side the die hits, from the pin (m).
        tray_per_side: standard throws on each side I–IV.
        face_throws: single throws on side I whose faces the tray scene tests for fairness.
        determinism_throws: tray throws run a second time in a fresh world.
        speed_seconds: a scene shorter than this is repeated for its speed figure (s).
        speed_tolerance: allowed relative slowdown of a speed ratio.
        knock_speeds: speeds of the die that knocks a lying one in the settle scene (m/s).
        card_drops: ``(first, last)``: the drops onto the spinner card the settle scene runs.
        hurled_throws: hurled 5 m/s throws of the settle scene (``tunnelled`` must be 0).
    """

    name: str
    drop_heights: tuple[float, ...]
    incline_offsets: tuple[float, ...]
    pile_seconds: float
    head_on: tuple[float, ...]
    glancing: tuple[tuple[float, float], ...]
    spinner_offsets: tuple[float, ...]
    tray_per_side: int
    face_throws: int
    determinism_throws: int
    speed_seconds: float
    speed_tolerance: float
    knock_speeds: tuple[float, ...] = ()
    card_drops: tuple[int, int] = (0, 0)
    hurled_throws: int = 0


PROFILES: dict[str, Profile] = {
    "full": Profile(
        "full",
        drop_heights=(0.025, 0.05, 0.1, 0.2, 0.3, 0.4),
        incline_offsets=(-8.0, -4.0, -2.0, -1.0, 1.0, 2.0, 4.0, 8.0, 12.0),
        pile_seconds=10.0,
        head_on=(0.5, 1.0, 2.0, 3.0),
        glancing=((1.0, 30.0), (1.0, 60.0), (2.0, 45.0)),
        spinner_offsets=(0.0, 0.01, 0.02, 0.028),
        tray_per_side=500,
        face_throws=3000,
        determinism_throws=40,
        speed_seconds=1.0,
        speed_tolerance=0.2,
        knock_speeds=(0.38, 0.4, 0.42, 0.45, 0.5, 0.55),
        card_drops=(0, 100),
        hurled_throws=200,
    ),
    "quick": Profile(
        "quick",
        drop_heights=(0.05, 0.4),
        incline_offsets=(-2.0, 2.0, 8.0),
        pile_seconds=10.0,
        head_on=(1.0, 3.0),
        glancing=((1.0, 30.0),),
        spinner_offsets=(0.0, 0.02),
        tray_per_side=25,
        face_throws=300,
        determinism_throws=8,
        speed_seconds=0.3,
        speed_tolerance=0.4,
        knock_speeds=(0.38, 0.42),
        card_drops=(40, 53),
        hurled_throws=16,
    ),
}


@dataclass
class Tally:
    """Physics steps, runs (world rebuilds) and CPU seconds of the physics a scene did."""

    steps: int = 0
    runs: int = 0
    cpu: float = 0.0

    @contextmanager
    def timing(self):
        """Add the CPU time of the ``with`` block."""
        t0 = time.process_time()
        try:
            yield self
        finally:
            self.cpu += time.process_time() - t0


def quat_axis_angle(axis, angle: float) -> tuple[float, float, float, float]:
    """Rotation by ``angle`` (rad) about ``axis`` (3,), as ``(x, y, z, w)``."""
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    s = math.sin(angle / 2)
    return (float(a[0] * s), float(a[1] * s), float(a[2] * s), math.cos(angle / 2))


def quat_mul(a, b) -> tuple[float, float, float, float]:
    """Hamilton product ``a ⊗ b`` (rotate by ``b`` first, then by ``a``)."""
    x1, y1, z1, w1 = a
    x2, y2, z2, w2 = b
    return (
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
    )


def corners(quaternion, half: float) -> np.ndarray:
    """The 8 corners (8, 3) m of a sharp cube of half edge ``half`` turned by ``quaternion``, centre at 0."""
    from rules.doppelx.outcome import quaternion_matrix

    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)
    return signs * half @ quaternion_matrix(quaternion).T


def time_step(world) -> float:
    """The physics step of ``world`` (s): MuJoCo's own, or the PyBullet settings'."""
    return float(getattr(world, "time_step", world.settings.time_step))


def free_spinner(world) -> None:
    """Take the bearing off the spinner until the next reset (no friction motor, no damping)."""
    p = world.p
    p.setJointMotorControl2(
        world.spinner_id, 0, p.VELOCITY_CONTROL, targetVelocity=0.0, force=0.0, physicsClientId=world.client
    )
    p.changeDynamics(world.spinner_id, 0, jointDamping=0.0, physicsClientId=world.client)


def kinetic_energy(world, owners) -> float:
    """Kinetic energy (J) of the dice ``owners``: translation plus rotation (cube: isotropic inertia)."""
    total = 0.0
    for o in owners:
        v, w = world.velocity(o)
        spec = world.dice[o]
        total += 0.5 * spec.mass * float(np.dot(v, v)) + 0.5 * spec.inertia * float(np.dot(w, w))
    return total


def binomial_tol(p: float, n: int, sigmas: float = 4.0) -> float:
    """``sigmas`` standard errors of a rate ``p`` measured on ``n`` trials (at least one trial's worth)."""
    if n <= 0:
        return 1.0
    q = min(max(p, 1.0 / n), 1.0 - 1.0 / n) if n > 1 else 0.5
    return sigmas * math.sqrt(q * (1 - q) / n)

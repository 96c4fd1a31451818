"""Dice released by hand for the physics tests: one die's release, a throw of several."""

from __future__ import annotations

import math

from physics.throw import DieRelease, Throw


def drop(
    owner: str,
    x: float,
    y: float,
    z: float,
    *,
    vx: float = 0.0,
    vy: float = 0.0,
    vz: float = 0.0,
    tilt: float = 0.0,
    spin=(0.0, 0.0, 0.0),
) -> DieRelease:
    """A die released at (x, y, z) m, turned by ``tilt`` rad about x, with a velocity."""
    q = (math.sin(tilt / 2), 0.0, 0.0, math.cos(tilt / 2))
    return DieRelease(owner, (x, y, z), q, (vx, vy, vz), tuple(spin))  # type: ignore[arg-type]


def throw_of(*releases: DieRelease) -> Throw:
    return Throw(tuple(releases))

"""The die's shape as both engines see it: is a pose flat on a surface, and the points whose
hull is the rounded cube (engine-neutral: :mod:`physics.world` and the MuJoCo modules use it).
"""

from __future__ import annotations

import math

import numpy as np

from rules.doppelx.dice import DieSpec

#: A die lies flat within these bounds: its centre a half edge (± this, m) above the surface ...
FLAT_HEIGHT_TOL = 0.001
#: ... and a face within this angle (rad) of straight up. A lying die that rests so starts asleep.
FLAT_TILT_TOL = 0.05


def is_flat(position, quaternion, half: float, surface: float = 0.0) -> bool:
    """A die with centre ``position`` and orientation ``quaternion`` lies flat on the playfield.

    ``surface``: the height (m) of the surface instead (the table top is below the playfield).
    """
    if abs(position[2] - surface - half) > FLAT_HEIGHT_TOL:
        return False
    x, y, z, w = quaternion
    n2 = x * x + y * y + z * z + w * w
    up = (2 * (x * z - y * w) / n2, 2 * (y * z + x * w) / n2, 1 - 2 * (x * x + y * y) / n2)
    return math.acos(min(1.0, max(abs(u) for u in up))) <= FLAT_TILT_TOL


def lies_flat(position, quaternion, half: float, table_z: float, ground_z: float) -> bool:
    """The die lies flat on the playfield, the table top (``table_z``) or the room's floor (``ground_z``).

    The height is tested first, so a die in the air costs a few subtractions.
    """
    z = position[2]
    if abs(z - half) <= FLAT_HEIGHT_TOL:
        return is_flat(position, quaternion, half)
    if abs(z - table_z - half) <= FLAT_HEIGHT_TOL:
        return is_flat(position, quaternion, half, table_z)
    return abs(z - ground_z - half) <= FLAT_HEIGHT_TOL and is_flat(position, quaternion, half, ground_z)


def rounded_cube_points(spec: DieSpec, per_corner: int = 4) -> np.ndarray:
    """Points whose convex hull approximates the rounded die: sphere caps at the 8 corners (m).

    Each corner gets a patch of ``per_corner`` × ``per_corner`` points on the corner's
    octant of the sphere of radius ``edge_radius``; the hull's faces are then the die's
    flat faces, and its edges and corners follow the rounding within a fraction of a mm.
    """
    r = spec.edge_radius
    b = spec.half - r
    if r <= 0:
        return np.array([[sx * b, sy * b, sz * b] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    angles = np.linspace(0.0, math.pi / 2, per_corner)
    octant = np.array(
        [[math.cos(a) * math.sin(e), math.sin(a) * math.sin(e), math.cos(e)] for a in angles for e in angles]
    )
    octant = np.unique(np.round(octant, 12), axis=0)
    pts = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                sgn = np.array([sx, sy, sz])
                pts.append(sgn * (b + r * octant))
    return np.vstack(pts)

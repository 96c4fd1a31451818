"""The outcome of one throw: every die on the table afterwards, with status and pose.

This is the one object that flows from the physics world (or a test fixture, or a JSON
file) into the rules: the window replays it, a batch writes it as a row, ``doppelx score``
reads it. Poses are in the board frame (m; quaternion ``(x, y, z, w)`` as in PyBullet).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from rules.common.vec import dot, norm
from rules.doppelx.dice import AXIS_VECTORS, DieSpec


class Status(StrEnum):
    """Where a die ended (D6): on the playfield, in a hole, or off (outside, rim, bet card)."""

    BOARD = "board"
    HOLE = "hole"
    OFF = "off"


@dataclass(frozen=True)
class Pose:
    """A rigid pose: ``position`` (x, y, z) m and unit ``quaternion`` (x, y, z, w)."""

    position: tuple[float, float, float]
    quaternion: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)

    def rotation(self) -> np.ndarray:
        """The 3×3 rotation matrix (die frame → board frame)."""
        return quaternion_matrix(self.quaternion)

    @classmethod
    def resting(cls, die: DieSpec, x: float, y: float, yaw: float, top: str) -> Pose:
        """A die lying flat at ``(x, y)`` m with face ``top`` up, turned by ``yaw`` rad about z."""
        q_up = _UP_FROM_AXIS[die.axis_of(top)]
        q_yaw = (0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))
        q = _quat_mul(q_yaw, q_up)
        return cls((float(x), float(y), die.half), tuple(float(v) for v in q))  # type: ignore[arg-type]


@dataclass(frozen=True)
class DieOutcome:
    """One die after a throw.

    Attributes:
        owner: player colour or ``"white"``.
        status: :class:`Status`.
        pose: resting pose in the board frame; required for ``board``, optional otherwise.
        touched_spinner: the die touched the spinner during this throw (bet G).
    """

    owner: str
    status: Status
    pose: Pose | None = None
    touched_spinner: bool = False

    def __post_init__(self) -> None:
        if self.status is Status.BOARD and self.pose is None:
            raise ValueError(f"die {self.owner!r} is on the board but has no pose")


@dataclass(frozen=True)
class ThrowOutcome:
    """All dice on the table after a throw (thrown ones and those lying before).

    ``hand_over_rim`` records that the thrower's hand crossed the rim (D38).
    """

    dice: tuple[DieOutcome, ...]
    hand_over_rim: bool = False
    info: dict = field(default_factory=dict, compare=False)

    def owners(self) -> list[str]:
        return [d.owner for d in self.dice]

    def get(self, owner: str) -> DieOutcome | None:
        for d in self.dice:
            if d.owner == owner:
                return d
        return None


def quaternion_matrix(q: tuple[float, float, float, float] | np.ndarray) -> np.ndarray:
    """Rotation matrix of quaternion ``(x, y, z, w)`` (normalised first)."""
    x, y, z, w = np.asarray(q, dtype=float) / norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def _quat_mul(a, b) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def _quat_between(u: np.ndarray, v: np.ndarray) -> tuple[float, float, float, float]:
    """Shortest-arc rotation taking unit vector ``u`` to unit vector ``v``."""
    d = dot(u, v)
    if d < -1 + 1e-12:  # opposite: turn half a circle about any perpendicular axis
        perp = np.cross(u, [1.0, 0.0, 0.0])
        if norm(perp) < 1e-6:
            perp = np.cross(u, [0.0, 1.0, 0.0])
        perp /= norm(perp)
        return (float(perp[0]), float(perp[1]), float(perp[2]), 0.0)
    c = np.cross(u, v)
    q = np.array([c[0], c[1], c[2], 1.0 + d])
    q /= norm(q)
    return tuple(float(x) for x in q)  # type: ignore[return-value]


#: The rotation turning each die axis of :data:`AXIS_VECTORS` straight up, worked out once
#: (:meth:`Pose.resting` draws thousands of lying dice in a batch).
_UP_FROM_AXIS = tuple(_quat_between(a, np.array([0.0, 0.0, 1.0])) for a in AXIS_VECTORS)

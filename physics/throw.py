"""A throw as physics sees it: where each die leaves the hand, how it is turned and how it moves.

The thrower stands at one of the four walls (``S`` near the default camera, ``E``, ``N``,
``W``) at any point along it, and the hand stays outside the rim's vertical plane (D25):
the release point lies beyond the wall's outer face, at a height above the rim. Dice
thrown together leave the hand side by side with a small offset (:func:`hand_throw`).
``along`` is measured from the wall's middle, positive to the thrower's right.
Positions m, velocities m/s, angular velocities rad/s, quaternions ``(x, y, z, w)``,
board frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rules.common.vec import norm
from rules.doppelx.box import BoxSpec

WALLS: tuple[str, ...] = ("S", "E", "N", "W")
#: Outward normal (x, y) of each wall and the thrower's right-hand direction there.
_OUTWARD = {"S": (0.0, -1.0), "E": (1.0, 0.0), "N": (0.0, 1.0), "W": (-1.0, 0.0)}
_RIGHT = {"S": (1.0, 0.0), "E": (0.0, 1.0), "N": (-1.0, 0.0), "W": (0.0, -1.0)}
#: Default distance of the release point beyond the wall's outer face (m).
RELEASE_OUT = 0.03


@dataclass(frozen=True)
class DieRelease:
    """One die leaving the hand: pose and velocities at release."""

    owner: str
    position: tuple[float, float, float]
    quaternion: tuple[float, float, float, float]
    velocity: tuple[float, float, float]
    angular_velocity: tuple[float, float, float]

    def to_dict(self) -> dict:
        return {
            "owner": self.owner,
            "position": list(self.position),
            "quaternion": list(self.quaternion),
            "velocity": list(self.velocity),
            "angular_velocity": list(self.angular_velocity),
        }

    @classmethod
    def from_dict(cls, d: dict) -> DieRelease:
        return cls(
            str(d["owner"]),
            _triple(d["position"]),
            _quad(d["quaternion"]),
            _triple(d["velocity"]),
            _triple(d["angular_velocity"]),
        )


def _triple(values) -> tuple[float, float, float]:
    x, y, z = map(float, values)
    return (x, y, z)


def _quad(values) -> tuple[float, float, float, float]:
    x, y, z, w = map(float, values)
    return (x, y, z, w)


@dataclass(frozen=True)
class Throw:
    """The dice released in one throw (all at the same instant)."""

    releases: tuple[DieRelease, ...]

    def __post_init__(self) -> None:
        owners = [r.owner for r in self.releases]
        if len(set(owners)) != len(owners):
            raise ValueError(f"a die is released twice: {owners}")

    @property
    def owners(self) -> tuple[str, ...]:
        return tuple(r.owner for r in self.releases)

    def hand_over_rim(self, box: BoxSpec) -> bool:
        """Some die left the hand inside the rim's vertical plane (D25/D38)."""
        ox = box.inner_size[0] / 2 + box.wall_thickness
        oy = box.inner_size[1] / 2 + box.wall_thickness
        return any(abs(r.position[0]) < ox and abs(r.position[1]) < oy for r in self.releases)

    def to_dict(self) -> dict:
        return {"releases": [r.to_dict() for r in self.releases]}

    @classmethod
    def from_dict(cls, d: dict) -> Throw:
        return cls(tuple(DieRelease.from_dict(r) for r in d["releases"]))

    def __add__(self, other: Throw) -> Throw:
        return Throw(self.releases + other.releases)


def wall_axes(wall: str) -> tuple[np.ndarray, np.ndarray]:
    """Outward normal and the thrower's right-hand direction (unit (2,) vectors) at ``wall``."""
    if wall not in WALLS:
        raise ValueError(f"wall must be one of {', '.join(WALLS)}, got {wall!r}")
    return np.array(_OUTWARD[wall]), np.array(_RIGHT[wall])


def release_point(
    box: BoxSpec, wall: str, along: float, height: float, out: float = RELEASE_OUT
) -> tuple[float, float, float]:
    """Point (m) ``out`` beyond ``wall``'s outer wall face, ``along`` it, ``height`` above the rim."""
    n, right = wall_axes(wall)
    half_n = (box.inner_size[0] if wall in ("E", "W") else box.inner_size[1]) / 2 + box.wall_thickness
    xy = n * (half_n + out) + right * along
    return float(xy[0]), float(xy[1]), box.rim_z + height


def random_quaternion(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """A uniformly random rotation ``(x, y, z, w)`` (Shoemake's method)."""
    u1, u2, u3 = rng.random(3)
    a, b = math.sqrt(1 - u1), math.sqrt(u1)
    return (
        a * math.sin(2 * math.pi * u2),
        a * math.cos(2 * math.pi * u2),
        b * math.sin(2 * math.pi * u3),
        b * math.cos(2 * math.pi * u3),
    )


def random_spin(rng: np.random.Generator, low: float, high: float) -> np.ndarray:
    """Angular velocity (3,) rad/s about a random axis with a magnitude uniform in [low, high]."""
    axis = rng.normal(size=3)
    axis /= norm(axis)
    return axis * rng.uniform(low, high)


#: Centre distance (m) of neighbouring dice leaving one hand side by side (:func:`hand_throw`).
HAND_SPACING = 0.022


def hand_throw(
    owners: Sequence[str],
    position: Sequence[float] | np.ndarray,
    velocity: Sequence[float] | np.ndarray,
    spin: Sequence[float] | np.ndarray,
    rng: np.random.Generator,
    *,
    spacing: float = HAND_SPACING,
    direction: Sequence[float] | None = None,
    jitter: float = 0.03,
) -> Throw:
    """Dice released together from one hand at ``position`` with a small offset between them.

    The dice sit side by side across the throwing direction, ``spacing`` m apart (centred
    on ``position``), each turned at random; each gets the common ``velocity`` and
    ``spin`` changed by a relative ``jitter`` (the fingers do not release them identically).

    Args:
        owners: dice to release.
        position: release point (3,) m of the hand.
        velocity: common initial velocity (3,) m/s.
        spin: common angular velocity (3,) rad/s (each die adds its own random part).
        rng: the throw's random generator.
        spacing: centre distance of neighbouring dice (m).
        direction: horizontal throwing direction (2,); default the velocity's.
        jitter: relative spread of speed and spin between the dice.
    """
    v = np.asarray(velocity, dtype=float)
    d = np.asarray(direction if direction is not None else v[:2], dtype=float)
    if norm(d) < 1e-9:
        d = np.array([0.0, 1.0])
    d = d / norm(d)
    across = np.array([-d[1], d[0], 0.0])
    k = len(owners)
    releases = []
    for i, owner in enumerate(owners):
        offset = (i - (k - 1) / 2) * spacing
        pos = np.asarray(position, dtype=float) + across * offset + np.array([0.0, 0.0, 0.002 * (i % 2)])
        vel = v * (1.0 + jitter * rng.standard_normal()) + jitter * norm(v) * rng.standard_normal(3) / 3
        w = np.asarray(spin, dtype=float) * (1.0 + jitter * rng.standard_normal()) + random_spin(
            rng, 0.0, 5.0
        )
        releases.append(DieRelease(owner, _t3(pos), random_quaternion(rng), _t3(vel), _t3(w)))
    return Throw(tuple(releases))


def seat_places(n: int, box: BoxSpec) -> list[tuple[str, float]]:
    """Where ``n`` players sit around the box, clockwise from the middle of the ``S`` wall.

    Returns ``(wall, along)`` per seat: seat ``i`` looks at the box from the angle
    ``-90° - 360° i / n`` (clockwise seen from above), and sits where that ray leaves the box.
    """
    hx, hy = box.inner_size[0] / 2, box.inner_size[1] / 2
    out = []
    for i in range(n):
        ang = -math.pi / 2 - 2 * math.pi * i / n
        dx, dy = math.cos(ang), math.sin(ang)
        tx = hx / abs(dx) if abs(dx) > 1e-12 else math.inf
        ty = hy / abs(dy) if abs(dy) > 1e-12 else math.inf
        if ty <= tx:
            wall = "N" if dy > 0 else "S"
            x = dx * ty
            along = x if wall == "S" else -x
        else:
            wall = "E" if dx > 0 else "W"
            y = dy * tx
            along = y if wall == "E" else -y
        limit = (hx if wall in ("S", "N") else hy) * 0.85
        out.append((wall, float(max(-limit, min(limit, along)))))
    return out


def _t3(v) -> tuple[float, float, float]:
    return (float(v[0]), float(v[1]), float(v[2]))

"""The impulse model of one frictional collision at a single contact point.

The analytic expectation of the impact scenes (:mod:`doppelx.bench.impact`,
:mod:`doppelx.bench.spinner`, :mod:`doppelx.bench.drop`): two bodies meet at one point;
Newton's restitution sets the normal relative velocity after the impact to ``-e`` times the
one before, and Coulomb friction either stops the tangential slip (if that needs at most
``μ`` times the normal impulse) or acts at ``μ`` times the normal impulse against the slip
(Routh's model; the slip direction is taken as constant during the impact). A body is a
free rigid body, a body turning about a fixed axis (the spinner on its pin) or static.

Vectors are numpy arrays of shape (3,) in the board frame: positions m, velocities m/s,
angular velocities rad/s, impulses N s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Free:
    """A free rigid body: mass (kg), inertia tensor about its centre (3, 3) kg m², centre (3,) m."""

    mass: float
    inertia: np.ndarray
    centre: np.ndarray
    velocity: np.ndarray
    angular_velocity: np.ndarray

    def point_velocity(self, p: np.ndarray) -> np.ndarray:
        return self.velocity + np.cross(self.angular_velocity, p - self.centre)

    def response(self, p: np.ndarray) -> np.ndarray:
        """(3, 3) change of the velocity at ``p`` per unit impulse at ``p``."""
        rx = _skew(p - self.centre)
        return np.eye(3) / self.mass - rx @ np.linalg.solve(self.inertia, rx)

    def after(self, p: np.ndarray, impulse: np.ndarray) -> Free:
        w = self.angular_velocity + np.linalg.solve(self.inertia, np.cross(p - self.centre, impulse))
        return Free(self.mass, self.inertia, self.centre, self.velocity + impulse / self.mass, w)


@dataclass(frozen=True)
class Hinged:
    """A body turning about a fixed axis through ``pivot`` (3,) m along unit ``axis`` (3,).

    ``inertia`` is its moment about that axis (kg m²), ``omega`` its angular speed (rad/s).
    """

    pivot: np.ndarray
    axis: np.ndarray
    inertia: float
    omega: float

    def point_velocity(self, p: np.ndarray) -> np.ndarray:
        return self.omega * np.cross(self.axis, p - self.pivot)

    def response(self, p: np.ndarray) -> np.ndarray:
        a = np.cross(self.axis, p - self.pivot)
        return np.outer(a, a) / self.inertia

    def after(self, p: np.ndarray, impulse: np.ndarray) -> Hinged:
        torque = float(np.dot(np.cross(p - self.pivot, impulse), self.axis))
        return Hinged(self.pivot, self.axis, self.inertia, self.omega + torque / self.inertia)


@dataclass(frozen=True)
class Static:
    """An immovable body (the playfield)."""

    def point_velocity(self, p: np.ndarray) -> np.ndarray:
        return np.zeros(3)

    def response(self, p: np.ndarray) -> np.ndarray:
        return np.zeros((3, 3))

    def after(self, p: np.ndarray, impulse: np.ndarray) -> Static:
        return self


@dataclass(frozen=True)
class Collision:
    """Result: the impulse on ``a`` (``-impulse`` on ``b``), the bodies after, and whether it slid."""

    impulse: np.ndarray
    a: Free | Hinged | Static
    b: Free | Hinged | Static
    sliding: bool


def collide(a, b, point, normal, restitution: float, friction: float) -> Collision:
    """Bodies ``a`` and ``b`` meet at ``point``; ``normal`` (3,) points from ``b`` to ``a``.

    Raises:
        ValueError: the bodies are not approaching each other at the point.
    """
    p = np.asarray(point, dtype=float)
    n = np.asarray(normal, dtype=float)
    n = n / np.linalg.norm(n)
    u = a.point_velocity(p) - b.point_velocity(p)
    un = float(u @ n)
    if un >= 0:
        raise ValueError("the bodies are not approaching at the contact point")
    k = a.response(p) + b.response(p)
    u_t = u - un * n
    target = -restitution * un * n  # after: normal rebound, no slip
    imp = np.linalg.solve(k, target - u)
    pn = float(imp @ n)
    pt = imp - pn * n
    sliding = float(np.linalg.norm(pt)) > friction * pn + 1e-15
    if sliding:
        slip = u_t if np.linalg.norm(u_t) > 1e-12 else -pt
        d = -slip / np.linalg.norm(slip)
        direction = n + friction * d
        pn = -(1 + restitution) * un / float(n @ k @ direction)
        imp = pn * direction
    return Collision(imp, a.after(p, imp), b.after(p, -imp), sliding)


def _skew(r: np.ndarray) -> np.ndarray:
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])

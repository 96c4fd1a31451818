"""Aiming a throw: where the thrower stands, release height and spin, and a flick → intent.

The thrower walks around the box: a position is a side (S, E, N, W) and a distance along
it (+ to the thrower's right); walking past a corner continues on the next side (to the
right: S → E → N → W). The release point lies outside the rim's vertical plane (D25),
:data:`RELEASE_OUT` beyond the wall's outer face (the same convention and distance as
``physics.throw.release_point``). A flick is a list of mouse samples projected onto the horizontal plane at the
release height: the last ``window`` seconds of it give the velocity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from render.intents import SIDES, ThrowIntent
from rules.box import BoxSpec

#: Inward unit vector and "to the right" unit vector of a thrower at each side.
_INWARD = {"S": (0.0, 1.0), "E": (-1.0, 0.0), "N": (0.0, -1.0), "W": (1.0, 0.0)}
_RIGHT = {"S": (1.0, 0.0), "E": (0.0, 1.0), "N": (-1.0, 0.0), "W": (0.0, -1.0)}
#: Distance of the release point beyond the wall's outer face (m).
RELEASE_OUT = 0.03


@dataclass(frozen=True)
class FlickLimits:
    """How a flick maps to a throw.

    Attributes:
        window: seconds of the drag (before release) that set the velocity.
        gain: throw speed per unit of drag speed on the release plane.
        min_speed: slower drags are no throw (m/s, after gain).
        max_speed: faster drags are clamped to this (m/s).
        min_inward: the flick's direction must point at least this much into the box
            (cosine of the angle to the wall's inward normal).
    """

    window: float = 0.08
    gain: float = 1.0
    min_speed: float = 0.15
    max_speed: float = 4.0
    min_inward: float = 0.1


class ThrowAim:
    """The active player's stance and throw settings.

    Args:
        box: the box (inner size, wall, rim height).
        die_size: edge of a die (m): the lowest release clears the rim by half a die's
            diagonal.
    """

    HEIGHT_RANGE = (0.0, 0.15)  # release height above the minimum, m
    SPIN_RANGE = (-40.0, 40.0)  # forward-roll spin, rad/s

    def __init__(self, box: BoxSpec, die_size: float, limits: FlickLimits | None = None):
        self.box = box
        self.limits = limits or FlickLimits()
        self.clearance = box.wall_thickness + RELEASE_OUT  # beyond the inner wall face
        self.min_height = die_size * math.sqrt(3) / 2 + 0.002
        self.side = "S"
        self.along = 0.0
        self.height = self.min_height + 0.03
        self.spin = 0.0

    # --- stance -----------------------------------------------------------------------------
    def half_length(self, side: str | None = None) -> float:
        """How far from the middle of ``side`` the thrower may stand (m)."""
        s = side or self.side
        half = self.box.inner_size[0 if s in "SN" else 1] / 2
        return max(0.0, half - 0.02)

    def walk(self, distance: float) -> None:
        """Walk ``distance`` m to the right (negative: left), turning round corners."""
        along = self.along + distance
        for _ in range(8):
            half = self.half_length()
            i = SIDES.index(self.side)
            if along > half:
                self.side = SIDES[(i + 1) % 4]
                along = -self.half_length() + (along - half)
            elif along < -half:
                self.side = SIDES[(i - 1) % 4]
                along = self.half_length() + (along + half)
            else:
                break
        self.along = float(np.clip(along, -self.half_length(), self.half_length()))

    def stand_at(self, x: float, y: float) -> None:
        """Stand at the wall nearest to the table point ``(x, y)`` m, opposite that point."""
        hx, hy = self.box.inner_size[0] / 2, self.box.inner_size[1] / 2
        # the side whose outward distance is largest relative to the box's half size
        scores = {"S": -y / hy, "N": y / hy, "E": x / hx, "W": -x / hx}
        side = max(scores, key=scores.get)
        right = _RIGHT[side]
        self.side = side
        self.along = float(np.clip(x * right[0] + y * right[1], -self.half_length(), self.half_length()))

    def turn(self, steps: int) -> None:
        """Go round to the next side (``steps`` > 0: to the right), keeping the middle."""
        self.side = SIDES[(SIDES.index(self.side) + steps) % 4]
        self.along = 0.0

    def adjust_height(self, delta: float) -> None:
        """Raise (or lower) the release height by ``delta`` m, within range."""
        lo, hi = self.HEIGHT_RANGE
        self.height = float(np.clip(self.height + delta, self.min_height + lo, self.min_height + hi))

    def adjust_spin(self, delta: float) -> None:
        """Change the forward-roll spin by ``delta`` rad/s, within range."""
        self.spin = float(np.clip(self.spin + delta, *self.SPIN_RANGE))

    # --- geometry ---------------------------------------------------------------------------
    @property
    def inward(self) -> np.ndarray:
        """Unit vector (2,) from the thrower's wall into the box."""
        return np.array(_INWARD[self.side])

    @property
    def right(self) -> np.ndarray:
        """Unit vector (2,) to the thrower's right along the wall."""
        return np.array(_RIGHT[self.side])

    def release_point(self) -> np.ndarray:
        """Release point (3,) m: outside the wall by ``clearance``, ``height`` above the rim."""
        half_across = self.box.inner_size[1 if self.side in "SN" else 0] / 2
        xy = -self.inward * (half_across + self.clearance) + self.right * self.along
        return np.array([xy[0], xy[1], self.box.rim_z + self.height])

    # --- flick ------------------------------------------------------------------------------
    def flick(self, samples: Sequence[tuple[float, float, float]]) -> ThrowIntent:
        """The throw a flick makes.

        Args:
            samples: ``(t, x, y)`` of the drag, t in s, (x, y) in m on the horizontal
                plane through the release point, oldest first.

        Returns:
            The :class:`ThrowIntent`.

        Raises:
            ValueError: the drag is no flick (too short, too slow, or away from the box),
                with the reason for the player.
        """
        lim = self.limits
        pts = np.asarray(samples, dtype=float).reshape(-1, 3)
        if len(pts) < 2:
            raise ValueError("drag the mouse towards the box and let go while moving")
        t_end = pts[-1, 0]
        recent = np.nonzero(pts[:, 0] >= t_end - lim.window)[0]
        first = max(0, int(recent[0]) - 1) if len(recent) else len(pts) - 2
        p0, p1 = pts[first], pts[-1]
        dt = max(p1[0] - p0[0], 1e-3)
        v = (p1[1:] - p0[1:]) / dt * lim.gain
        speed = float(np.linalg.norm(v))
        if speed < lim.min_speed:
            raise ValueError("too slow for a throw: flick faster and let go while moving")
        direction = v / speed
        if float(direction @ self.inward) < lim.min_inward:
            raise ValueError("flick towards the box")
        speed = min(speed, lim.max_speed)
        vel = (float(direction[0] * speed), float(direction[1] * speed), 0.0)
        axis = np.array([-direction[1], direction[0], 0.0])  # z × direction: a forward roll
        spin = tuple(float(c) for c in axis * self.spin)
        return ThrowIntent(
            self.side,
            float(self.along),
            float(self.height),
            tuple(float(c) for c in self.release_point()),
            vel,
            spin,
        )  # type: ignore[arg-type]

"""Aiming a throw: where the thrower stands, release height and spin, and a flick → intent.

The thrower walks around the box: a position is a wall (S, E, N, W) and a distance along
it (+ to the thrower's right); walking past a corner continues on the next wall (to the
right: S → E → N → W). The release point lies outside the rim's vertical plane (D25),
:data:`RELEASE_OUT` beyond the wall's outer face (the same convention and distance as
``physics.throw.release_point``). A flick is a list of mouse samples projected onto the horizontal plane at the
release height, timed by the input events' own timestamps: the last ``window`` seconds of it
give the velocity.

A flick is forgiving: its direction is kept, and its speed becomes the *power* (0…1, from
:attr:`FlickLimits.min_speed` to :attr:`FlickLimits.full_speed`). The throw aims at the
point along the flick's line that lies ``0.2 + 0.6 × power`` of the way across the open
playfield (kept a die's size off the walls and the bet cards over the corners), with the
strength ``power``; the match turns
that into the dice's release (``doppelx.games.doppelx.play.flick_throw``: up to power 0.6
the throw model's arc that clears the rim and lands there, above it a fast, flat throw along
the same line at the far wall), so every accepted flick reaches the playfield and a
stronger one lands further and rolls further. A flick whose line misses the box — runs less
than :data:`MIN_CROSSING` die sizes inside its walls — aims along the direction nearest to it
whose line reaches it (:meth:`ThrowAim._into_box`): the assisted aim never throws a die out of
the box; the intent's velocity stays the hand's own, which the direct aim throws with. Every flick must point into the box, at least
:attr:`FlickLimits.min_inward` (about 6°) off the wall: a drag along the wall or away from
the box is no throw.

The keyboard throws too (:meth:`ThrowAim.charged`): a key held for a while gives the power
(:func:`charge_power`: 0 to 1 over :data:`CHARGE_SECONDS`), the direction is straight into
the box turned by :attr:`ThrowAim.aim_angle` (comma and period turn it), and the throw is the one a
flick of that power along that direction makes — except that a keyboard throw must reach
the box (its line must run into it), since there is no hand speed to throw out with.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from render.intents import WALLS, ThrowIntent
from rules.doppelx.box import BoxSpec

#: Inward unit vector and "to the right" unit vector of a thrower at each wall.
_INWARD = {"S": (0.0, 1.0), "E": (-1.0, 0.0), "N": (0.0, -1.0), "W": (1.0, 0.0)}
_RIGHT = {"S": (1.0, 0.0), "E": (0.0, 1.0), "N": (-1.0, 0.0), "W": (0.0, -1.0)}
#: Distance of the release point beyond the wall's outer face (m).
RELEASE_OUT = 0.03
#: A flick's line reaches the box when it runs this many die sizes inside the inner walls
#: (5 cm for the 16 mm dice); a line that misses the box, or only clips a corner of it, has no
#: aim point (a flick is then turned towards the box until it has one; a keyboard aim is refused).
MIN_CROSSING = 3.0
#: Seconds a throw key is held for full power (keyboard throws).
CHARGE_SECONDS = 1.5


def charge_power(held: float) -> float:
    """The power 0…1 of a throw key held ``held`` seconds (full after :data:`CHARGE_SECONDS`)."""
    return float(np.clip(held / CHARGE_SECONDS, 0.0, 1.0))


@dataclass(frozen=True)
class FlickLimits:
    """How a flick maps to a throw.

    Attributes:
        window: seconds of the drag (before release) that set the velocity.
        gain: throw speed per unit of drag speed on the release plane.
        min_speed: slower drags are no throw (m/s, after gain); power 0 at this speed.
        full_speed: drag speed of full power (m/s, after gain).
        max_speed: faster drags are clamped to this (m/s) for a throw aimed out.
        min_inward: the flick's direction must point at least this much into the box
            (cosine of the angle to the wall's inward normal).
        near, far: where a flick of power 0 and 1 aims, as a fraction of the way across
            the playfield along its line.
        margin: the aim point keeps this far from the inner walls beyond the die's size (m).
    """

    window: float = 0.08
    gain: float = 1.0
    min_speed: float = 0.03
    full_speed: float = 1.6
    max_speed: float = 4.0
    min_inward: float = 0.1
    near: float = 0.2
    far: float = 0.8
    margin: float = 0.004


class ThrowAim:
    """The active player's stance and throw settings.

    Args:
        box: the box (inner size, wall, rim height).
        die_size: edge of a die (m): the lowest release clears the rim by half a die's
            diagonal.
    """

    HEIGHT_RANGE = (0.0, 0.15)  # release height above the minimum, m
    SPIN_RANGE = (-40.0, 40.0)  # forward-roll spin, rad/s
    ANGLE_RANGE = (-math.radians(60), math.radians(60))  # keyboard aim's turn from straight in, rad

    def __init__(self, box: BoxSpec, die_size: float, limits: FlickLimits | None = None):
        self.box = box
        self.limits = limits or FlickLimits()
        self.clearance = box.wall_thickness + RELEASE_OUT  # beyond the inner wall face
        self.min_height = die_size * math.sqrt(3) / 2 + 0.002
        self.die_size = die_size
        self.wall = "S"
        self.along = 0.0
        self.height = self.min_height + 0.03
        self.spin = 0.0
        self.aim_angle = 0.0  # keyboard throws: turn from straight in (rad, + to the thrower's right)

    # --- stance -----------------------------------------------------------------------------
    def half_length(self, wall: str | None = None) -> float:
        """How far from the middle of ``wall`` the thrower may stand (m)."""
        s = wall or self.wall
        half = self.box.inner_size[0 if s in "SN" else 1] / 2
        return max(0.0, half - 0.02)

    def walk(self, distance: float) -> None:
        """Walk ``distance`` m to the right (negative: left), turning round corners."""
        along = self.along + distance
        for _ in range(8):
            half = self.half_length()
            i = WALLS.index(self.wall)
            if along > half:
                self.wall = WALLS[(i + 1) % 4]
                along = -self.half_length() + (along - half)
            elif along < -half:
                self.wall = WALLS[(i - 1) % 4]
                along = self.half_length() + (along + half)
            else:
                break
        self.along = float(np.clip(along, -self.half_length(), self.half_length()))

    def stand_at(self, x: float, y: float) -> None:
        """Stand at the wall nearest to the table point ``(x, y)`` m, opposite that point."""
        hx, hy = self.box.inner_size[0] / 2, self.box.inner_size[1] / 2
        # the wall whose outward distance is largest relative to the box's half size
        scores = {"S": -y / hy, "N": y / hy, "E": x / hx, "W": -x / hx}
        wall = max(scores, key=scores.__getitem__)
        right = _RIGHT[wall]
        self.stand(wall, x * right[0] + y * right[1])

    def stand(self, wall: str, along: float) -> None:
        """Stand at ``wall``, ``along`` m from its middle (within the wall's length)."""
        self.wall = wall
        self.along = float(np.clip(along, -self.half_length(), self.half_length()))

    def turn(self, steps: int) -> None:
        """Go round to the next wall (``steps`` > 0: to the right), keeping the middle."""
        self.wall = WALLS[(WALLS.index(self.wall) + steps) % 4]
        self.along = 0.0

    def take_settings(self, other: ThrowAim) -> None:
        """The release height above the lowest one, the spin and the stance (wall, along it) of
        ``other`` (an aim of another table), within range: they are the player's, not the
        table's — and the stance is the one a load or a new game has just put the thrower at
        (seventeenth playtest: after Ctrl+O the new table's aim stood at S, the camera at the
        loaded person's wall)."""
        self.height = self.min_height
        self.adjust_height(other.height - other.min_height)
        self.spin = 0.0
        self.adjust_spin(other.spin)
        self.stand(other.wall, other.along)

    def adjust_height(self, delta: float) -> None:
        """Raise (or lower) the release height by ``delta`` m, within range."""
        lo, hi = self.HEIGHT_RANGE
        self.height = float(np.clip(self.height + delta, self.min_height + lo, self.min_height + hi))

    def adjust_spin(self, delta: float) -> None:
        """Change the forward-roll spin by ``delta`` rad/s, within range."""
        self.spin = float(np.clip(self.spin + delta, *self.SPIN_RANGE))

    def adjust_aim_angle(self, delta: float) -> None:
        """Turn the keyboard throw's direction by ``delta`` rad (+: to the thrower's right), within range."""
        self.aim_angle = float(np.clip(self.aim_angle + delta, *self.ANGLE_RANGE))

    # --- geometry ---------------------------------------------------------------------------
    @property
    def inward(self) -> np.ndarray:
        """Unit vector (2,) from the thrower's wall into the box."""
        return np.array(_INWARD[self.wall])

    @property
    def right(self) -> np.ndarray:
        """Unit vector (2,) to the thrower's right along the wall."""
        return np.array(_RIGHT[self.wall])

    def keyboard_direction(self) -> np.ndarray:
        """Unit vector (2,) of a keyboard throw: :attr:`inward` turned by :attr:`aim_angle`."""
        a = self.aim_angle
        return math.cos(a) * self.inward + math.sin(a) * self.right

    def release_point(self) -> np.ndarray:
        """Release point (3,) m: outside the wall by ``clearance``, ``height`` above the rim."""
        half_across = self.box.inner_size[1 if self.wall in "SN" else 0] / 2
        xy = -self.inward * (half_across + self.clearance) + self.right * self.along
        return np.array([xy[0], xy[1], self.box.rim_z + self.height])

    # --- flick ------------------------------------------------------------------------------
    def drag_velocity(self, samples: Sequence[tuple[float, float, float]]) -> np.ndarray | None:
        """The drag's velocity (2,) m/s over its last :attr:`FlickLimits.window` s (``None``: too few samples)."""
        lim = self.limits
        pts = np.asarray(samples, dtype=float).reshape(-1, 3)
        if len(pts) < 2:
            return None
        t_end = pts[-1, 0]
        recent = np.nonzero(pts[:, 0] >= t_end - lim.window)[0]
        first = max(0, int(recent[0]) - 1) if len(recent) else len(pts) - 2
        p0, p1 = pts[first], pts[-1]
        dt = max(p1[0] - p0[0], 1e-3)
        return (p1[1:] - p0[1:]) / dt * lim.gain

    def power(self, speed: float) -> float:
        """The power 0…1 of a flick at ``speed`` m/s (see the module docstring)."""
        lim = self.limits
        return float(np.clip((speed - lim.min_speed) / (lim.full_speed - lim.min_speed), 0.0, 1.0))

    def preview(self, samples: Sequence[tuple[float, float, float]]) -> tuple[float, np.ndarray] | None:
        """The power and unit direction (2,) the drag so far would throw with (``None``: no flick yet)."""
        v = self.drag_velocity(samples)
        if v is None:
            return None
        speed = float(np.linalg.norm(v))
        if speed < 1e-6:
            return 0.0, self.inward.astype(float)
        return self.power(speed), v / speed

    def aim_point(self, direction: np.ndarray, power: float) -> tuple[float, float] | None:
        """Where a flick along ``direction`` (unit, 2) of ``power`` aims, or ``None`` if its line
        misses the box.

        The line *reaches the box* when it runs at least :data:`MIN_CROSSING` die sizes inside
        its inner walls. The aim point lies on the line's stretch over the *open* playfield: the
        inner walls' rectangle less a die's size and :attr:`FlickLimits.margin`, and less the
        four bet cards' triangles over the corners (with the same gap): a die aimed under a card
        lands on it, and on a card is off the box (D6). A line that reaches the box but not the
        open playfield — along a side wall from the end of the near one, or only under a card —
        aims at the point that far along it inside the box, moved towards the middle until open.
        """
        lim = self.limits
        p0 = self.release_point()[:2]
        ix, iy = self.box.inner_size[0] / 2, self.box.inner_size[1] / 2
        inside = _clip(p0, direction, _rectangle(ix, iy))
        if inside is None or inside[1] - inside[0] < MIN_CROSSING * self.die_size:
            return None
        gap = self.die_size + lim.margin
        open_planes = _rectangle(ix - gap, iy - gap) + self._card_edges(gap)
        fraction = lim.near + (lim.far - lim.near) * power
        span = _clip(p0, direction, open_planes)
        if span is not None:
            t = span[0] + fraction * (span[1] - span[0])
            return float(p0[0] + direction[0] * t), float(p0[1] + direction[1] * t)
        point = p0 + direction * (inside[0] + fraction * (inside[1] - inside[0]))
        # towards the middle: scaled down until every half-plane holds (each c > 0)
        scale = min([1.0] + [c / float(np.dot(n, point)) for n, c in open_planes if np.dot(n, point) > c])
        return float(point[0] * scale), float(point[1] * scale)

    def _card_edges(self, gap: float) -> list[tuple[tuple[float, float], float]]:
        """Half-planes ``n · p ≤ c`` keeping a die's centre ``gap`` m clear of the bet cards'
        inner edges (:attr:`BoxSpec.card_reach`)."""
        reach = self.box.card_reach / math.sqrt(2) - gap
        return [((sx / math.sqrt(2), sy / math.sqrt(2)), reach) for sx in (-1, 1) for sy in (-1, 1)]

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
        v = self.drag_velocity(samples)
        if v is None:
            raise ValueError("drag the mouse towards the box and let go while moving")
        speed = float(np.linalg.norm(v))
        if speed < lim.min_speed:
            raise ValueError("too slow for a throw: flick faster and let go while moving")
        direction = v / speed
        if float(direction @ self.inward) < lim.min_inward:
            # along the wall too: a sideways drag is a slip far more often than a throw away
            raise ValueError("flick into the box: a drag along its wall or away from it is no throw")
        power = self.power(speed)
        return self._intent(direction, speed, power, self._into_box(direction, power))

    def _into_box(self, direction: np.ndarray, power: float) -> np.ndarray:
        """``direction`` (unit, 2), or — if its line misses the box — the direction nearest to it,
        turned towards straight in by whole degrees, whose line reaches it: the assisted aim
        never throws a die out of the box (seventeenth and eighteenth playtests: from a wall's
        end a flick "straight up the screen" or a little outward lost both dice, thrown as if
        aimed past the box on purpose). The direct aim still throws as the hand moved."""
        if self.aim_point(direction, power) is not None:
            return direction
        inward = self.inward.astype(float)
        cross = float(direction[0] * inward[1] - direction[1] * inward[0])
        turn = math.copysign(1.0, cross)  # towards straight in
        for degrees in range(1, 91):
            a = math.radians(degrees) * turn
            c, s = math.cos(a), math.sin(a)
            turned = np.array([c * direction[0] - s * direction[1], s * direction[0] + c * direction[1]])
            if self.aim_point(turned, power) is not None:
                return turned
        return inward

    def charged(self, power: float) -> ThrowIntent:
        """The keyboard throw of ``power`` (0…1, :func:`charge_power`) along :meth:`keyboard_direction`.

        Raises:
            ValueError: the direction's line misses the playfield (turned too far from
                where the thrower stands), with the reason for the player.
        """
        lim = self.limits
        power = float(np.clip(power, 0.0, 1.0))
        direction = self.keyboard_direction()
        if self.aim_point(direction, power) is None:
            raise ValueError("that aim misses the playfield: turn it back with comma or period")
        return self._intent(direction, lim.min_speed + power * (lim.full_speed - lim.min_speed), power)

    def _intent(
        self, direction: np.ndarray, speed: float, power: float, aim_direction: np.ndarray | None = None
    ) -> ThrowIntent:
        """The throw along unit ``direction`` (2,) at ``speed`` m/s with ``power`` (a flick's or a
        key's), aimed along ``aim_direction`` (default ``direction``)."""
        target = self.aim_point(direction if aim_direction is None else aim_direction, power)
        speed = min(speed, self.limits.max_speed)
        vel = (float(direction[0] * speed), float(direction[1] * speed), 0.0)
        axis = np.array([-direction[1], direction[0], 0.0])  # z × direction: a forward roll
        sx, sy, sz = (float(c) for c in axis * self.spin)
        px, py, pz = (float(c) for c in self.release_point())
        return ThrowIntent(
            self.wall,
            float(self.along),
            float(self.height),
            (px, py, pz),
            vel,
            (sx, sy, sz),
            target,
            power,
        )


def _clip(
    p0: np.ndarray, direction: np.ndarray, planes: Sequence[tuple[tuple[float, float], float]]
) -> tuple[float, float] | None:
    """The stretch ``(lo, hi)`` (m, lo ≥ 0) of the ray ``p0 + t · direction`` inside every
    half-plane ``n · p ≤ c`` of ``planes``, or ``None`` if there is none."""
    lo, hi = 0.0, math.inf
    for n, c in planes:
        along = n[0] * direction[0] + n[1] * direction[1]
        start = n[0] * p0[0] + n[1] * p0[1]
        if abs(along) < 1e-12:
            if start > c:
                return None
            continue
        t = (c - start) / along
        if along > 0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
    return (lo, hi) if lo < hi else None


def _rectangle(half_x: float, half_y: float) -> list[tuple[tuple[float, float], float]]:
    """The half-planes ``n · p ≤ c`` of the rectangle ``|x| ≤ half_x, |y| ≤ half_y``."""
    return [((1.0, 0.0), half_x), ((-1.0, 0.0), half_x), ((0.0, 1.0), half_y), ((0.0, -1.0), half_y)]

"""When the spinner card may stand still as a static body: no moving die can reach it.

The turning card is a PyBullet multibody link that never sleeps, and Bullet unites
simulation islands by overlapping bounding boxes, so every die lying near the card stays
awake and its contacts go through the multibody solver at every step (docs/batch.md, "Why
side III is slower"). A static body joins no island. So while the card is still and no die
that moves can reach it before the next sample, the run puts a static stand-in of the card
(and its pin) in its place, at the same angle (:meth:`physics.world.World.hold_spinner`),
and the turning card back the moment one can (:meth:`physics.world.World.release_spinner`).

:class:`CardReach` is the test. A die *moves* if it is awake at the sample; it may travel
``(v + g·dt) dt + 1 mm`` in the next sample (``v`` its fastest point's speed, ``dt`` a
sample: the sub-steps' bound; a bounce cannot make its centre faster than its fastest
point was, as the energy of its spin is less than that), and so may every die it could
wake or strike on the way (dice whose
grown bounding boxes it could overlap: a sleeping body in an awake island is woken). The
card is reachable if one of those dice could come within Bullet's contact threshold of the
card's prism (its outline's edge planes, pin to top: a distance never larger than the true
one). Sleeping dice do not move, so while the card stands in no die can touch it: bet G's
contacts are read only while it turns.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from physics.geometry import SpinnerGeometry

#: The card may stand still when it turns slower than this (rad/s): the bearing's friction
#: (α ≈ 23–27 rad/s² on sides III/IV) would stop it within ω²/2α < 0.03 µrad.
SPIN_STILL = 1e-3
#: Travel added to every moving die's reach over a sample (m).
SLACK = 0.001


class CardReach:
    """Whether a moving die can reach the spinner card ``g`` before the next sample.

    Args:
        g: the spinner's geometry.
        threshold: Bullet's contact breaking threshold in the world (m): contacts start there.
        corner: every die's centre-to-corner distance (m), indexed as the run's dice.
        sample_dt: one sample (s).
        margin: what gravity adds to a speed over one sample (m/s).
    """

    def __init__(
        self, g: SpinnerGeometry, threshold: float, corner: Sequence[float], sample_dt: float, margin: float
    ):
        self.cx, self.cy = g.center
        xy = list(dict.fromkeys((float(v[0]), float(v[1])) for v in g.vertices))
        mx, my = sum(x for x, _ in xy) / len(xy), sum(y for _, y in xy) / len(xy)
        # the outline's edges, as outward normals and offsets in the card's own frame (turned by 0)
        self.edges: list[tuple[float, float, float]] = []
        for (ax, ay), (bx, by) in zip(xy, xy[1:] + xy[:1]):
            nx, ny = by - ay, ax - bx
            n = math.hypot(nx, ny)
            nx, ny = nx / n, ny / n
            if nx * (mx - ax) + ny * (my - ay) > 0:  # pointing inwards: turn it round
                nx, ny = -nx, -ny
            self.edges.append((nx, ny, nx * ax + ny * ay))
        pin_bottom = g.pin.position[2] - g.pin.half_extents[2] if g.pin is not None else g.z_low
        self.z_low, self.z_high = min(g.z_low, pin_bottom), g.z_high
        self.threshold, self.corner = threshold, list(corner)
        self.sample_dt, self.margin = sample_dt, margin
        # grown bounding boxes of two dice overlap only within this centre distance
        self.wake = [math.sqrt(3) * (c + threshold) for c in self.corner]

    def gap(self, i: int, position: Sequence[float], angle: float) -> float:
        """How far die ``i`` at ``position`` is from the card's contacts (m; ≤ the true distance)."""
        return self._gaps([position], [i], math.cos(angle), math.sin(angle))[0]

    def _gaps(self, pos: Sequence[Sequence[float]], dice: Sequence[int], c: float, s: float) -> list[float]:
        cx, cy, zl, zh, t, corner = self.cx, self.cy, self.z_low, self.z_high, self.threshold, self.corner
        (n0, m0, o0), (n1, m1, o1), (n2, m2, o2) = self.edges
        out = []
        for i, (x, y, z) in zip(dice, pos):
            dx, dy = x - cx, y - cy
            u, v = c * dx + s * dy, c * dy - s * dx  # in the card's frame
            dxy = max(0.0, n0 * u + m0 * v - o0, n1 * u + m1 * v - o1, n2 * u + m2 * v - o2)
            dz = z - zh if z > zh else zl - z if z < zl else 0.0
            out.append(math.sqrt(dxy * dxy + dz * dz) - corner[i] - t)
        return out

    def reachable(self, angle: float, pos: Sequence[Sequence[float]], speed: Sequence[float]) -> bool:
        """A die could touch the card at ``angle`` within the next sample.

        ``pos``: every die's centre; ``speed``: its fastest point's speed (m/s) if awake,
        negative if asleep.
        """
        dt, margin, slack = self.sample_dt, self.margin, SLACK
        moving = [i for i, v in enumerate(speed) if v >= 0.0]
        if not moving:
            return False
        c, s = math.cos(angle), math.sin(angle)
        budget = [(v + margin) * dt + slack if v >= 0.0 else -1.0 for v in speed]
        gaps = self._gaps([pos[i] for i in moving], moving, c, s)
        if any(g <= budget[i] for i, g in zip(moving, gaps)):
            return True
        # every die a moving one could wake on the way moves with its budget
        wake, frontier, woken = self.wake, list(moving), []
        while frontier:
            i = frontier.pop()
            (xi, yi, zi), bi, wi = pos[i], budget[i], wake[i]
            for j, bj in enumerate(budget):
                if bj < bi:
                    xj, yj, zj = pos[j]
                    r = wi + wake[j] + bi
                    if (xi - xj) ** 2 + (yi - yj) ** 2 + (zi - zj) ** 2 <= r * r:
                        budget[j] = bi
                        frontier.append(j)
                        woken.append(j)
        if not woken:
            return False
        woken = list(dict.fromkeys(woken))
        return any(g <= budget[j] for j, g in zip(woken, self._gaps([pos[j] for j in woken], woken, c, s)))
